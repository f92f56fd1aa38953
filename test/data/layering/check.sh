#!/usr/bin/env bash
# Runs scripts/check_layering.py on this fixture tree: it must exit 1 with expected.out.
# Usage: check.sh PYTHON
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$("$1" "$here/../../../scripts/check_layering.py" "$here/layering.txt" "$here")
status=$?
[ "$status" -eq 1 ] || { echo "exit status $status, expected 1"; exit 1; }
diff -u "$here/expected.out" <(printf '%s\n' "$out") || exit 1
