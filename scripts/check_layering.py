#!/usr/bin/env python3
"""Checks the library boundaries CMake declares (docs/architecture.md, "Libraries").

Usage: check_layering.py LAYERING_FILE SOURCE_DIR

LAYERING_FILE is written by CMake at configure time (build/layering.txt): one line per library,
`lib <name> dirs=<dir,...> public=<dir,...> deps=<lib,...>`, and one per test executable,
`test <name> dirs=<dir> deps=<lib,...>`. The check fails (exit 1, one line per problem) when

  - a file of a library includes a public header (under a library's `public` folder) of a
    library that is neither itself nor one it depends on, directly or through its dependencies;
  - a file includes a private header (a header under another library's `dirs`);
  - a test includes a header of a library its executable does not link;
  - the dependency list in docs/architecture.md's "Libraries" table differs from CMake's.

Includes are resolved as the build resolves them: against include/, src/ and the source root.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def parse_layering(path):
    libs, tests = {}, {}
    for line in open(path):
        parts = line.split()
        if len(parts) < 2:
            continue
        kind, name = parts[0], parts[1]
        fields = {}
        for p in parts[2:]:
            key, _, value = p.partition("=")
            fields[key] = [v for v in value.split(",") if v]
        (libs if kind == "lib" else tests)[name] = fields
    return libs, tests


def closure(libs, name):
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in libs:
            continue
        seen.add(n)
        todo.extend(libs[n].get("deps", []))
    return seen


def owner(path, libs, key):
    """The library whose `key` folders hold path (the deepest folder wins)."""
    best, depth = None, -1
    for name, f in libs.items():
        for d in f.get(key, []):
            d = d.rstrip("/")
            if (os.path.dirname(path) == d or path.startswith(d + "/")) and len(d) > depth:
                best, depth = name, len(d)
    return best


def resolve(inc, including_file, root):
    for base in (os.path.dirname(including_file), "include", "src", "."):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def files_under(root, d):
    for dirpath, _, names in os.walk(os.path.join(root, d)):
        for n in names:
            if n.endswith((".cpp", ".hpp", ".cu", ".h")):
                yield os.path.relpath(os.path.join(dirpath, n), root)


def check_file(path, allowed, own_private, libs, root, problems):
    for number, line in enumerate(open(os.path.join(root, path), errors="replace"), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        target = resolve(m.group(1), path, root)
        if target is None:
            continue
        public = owner(target, libs, "public")
        private = owner(target, libs, "dirs")
        where = f"{path}:{number}"
        if public is not None:
            if public not in allowed:
                problems.append(f"{where}: error: includes {m.group(1)} of {public}, which it "
                                "does not depend on")
        elif private is not None and private not in own_private:
            problems.append(f"{where}: error: includes {m.group(1)}, a private header of "
                            f"{private}")


def doc_dependencies(root):
    """The `| library | depends on |` rows of docs/architecture.md's Libraries table."""
    deps = {}
    path = os.path.join(root, "docs", "architecture.md")
    if not os.path.isfile(path):
        return None
    for line in open(path):
        m = re.match(r"^\|\s*`(perfmodel\w*)`\s*\|\s*([^|]*)\|", line)
        if m:
            deps[m.group(1)] = sorted(re.findall(r"`(perfmodel\w*)`", m.group(2)))
    return deps


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    libs, tests = parse_layering(sys.argv[1])
    root = sys.argv[2]
    problems = []
    for name, f in sorted(libs.items()):
        allowed = closure(libs, name)
        seen = set()
        for d in f.get("dirs", []) + f.get("public", []):
            for path in files_under(root, d):
                if path in seen or owner(path, libs, "dirs" if d in f.get("dirs", []) else
                                         "public") != name:
                    continue
                seen.add(path)
                check_file(path, allowed, {name}, libs, root, problems)
    for name, f in sorted(tests.items()):
        allowed = set()
        for dep in f.get("deps", []):
            allowed |= closure(libs, dep)
        for d in f.get("dirs", []):
            for path in files_under(root, d):
                # A test may read the private headers of the libraries it links.
                check_file(path, allowed, allowed, libs, root, problems)
    documented = doc_dependencies(root)
    if documented is not None:
        for name, f in sorted(libs.items()):
            want = sorted(d for d in f.get("deps", []) if d in libs)
            if documented.get(name) != want:
                problems.append(f"docs/architecture.md: error: {name} depends on "
                                f"{', '.join(want) or 'nothing'} in CMake, the table says "
                                f"{', '.join(documented.get(name, ['(no row)'])) or 'nothing'}")
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} problem(s)")
        return 1
    print(f"layering: {len(libs)} libraries, {len(tests)} test executables: every include "
          "follows a declared dependency")
    return 0


if __name__ == "__main__":
    sys.exit(main())
