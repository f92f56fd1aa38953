#!/usr/bin/env python3
"""The HTML report in a real browser: headless Chromium loads pages `perfmodel report` wrote,
with the network off, and this test reads the DOM the browser rendered (--dump-dom) and its
screenshot.

    report_browser.py PERFMODEL CHROMIUM [--keep DIR]

Checks:
  - every layer of the model (the names and order `perfmodel predict --format json` gives) is a
    row of the layer table, and the roofline has a point per drawable layer, each with a <title>;
  - the page's own script sorts: opened as report.html#sort=time, the rendered table holds the
    same rows by predicted time, largest first, and marks the header (aria-sort);
  - names that are markup (a model whose layers are named <script>..., <img onerror=...>) stay
    text: the rendered DOM holds no element the names would add, the script they hold did not
    run, and each name reads back whole as the text of its table cell;
  - the screenshot is a PNG (decoded here with zlib) that is not blank: many distinct colours,
    no single colour covering nearly all of it.
Uses the standard library only; exit status 0 when every check passes.
"""
import html.parser
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


class Dom(html.parser.HTMLParser):
    """The parts of a rendered page the checks read: the element counts, the layer table's
    header and rows (cells as text, with data-v), the roofline's point titles, body attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.body_attrs = {}
        self.headers = []  # (data-key, aria-sort) of the layer table
        self.rows = []  # [(text, data-v)] per row of the layer table
        self.point_titles = []
        self._stack = []
        self._in_layers = False
        self._cell = None
        self._title = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "body":
            self.body_attrs = a
        if tag == "table":
            self._in_layers = a.get("id") == "layers"
        if self._in_layers and tag == "th":
            self.headers.append((a.get("data-key"), a.get("aria-sort")))
        if self._in_layers and tag == "tr" and "data-i" in a:
            self.rows.append([])
        if self._in_layers and tag == "td":
            self._cell = ["", a.get("data-v")]
        if tag == "title" and self._stack and self._stack[-1] == "circle":
            self._title = ""
        if tag not in ("meta", "br", "line", "rect", "path", "input", "img"):
            self._stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_layers = False
        if tag == "td" and self._cell is not None and self.rows:
            self.rows[-1].append(tuple(self._cell))
            self._cell = None
        if tag == "title" and self._title is not None:
            self.point_titles.append(self._title)
            self._title = None
        while self._stack:
            if self._stack.pop() == tag:
                break

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[0] += data
        if self._title is not None:
            self._title += data


def parse(text):
    d = Dom()
    d.feed(text)
    return d


def chromium(browser, url, profile, screenshot=None):
    """Runs headless Chromium on `url` with the network off; returns the dumped DOM."""
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--disable-default-apps", "--mute-audio",
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + profile,
            "--window-size=1280,1400", "--hide-scrollbars"]
    if screenshot:
        args.append("--screenshot=" + screenshot)
    args += ["--dump-dom", url]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        print(r.stderr[-3000:])
    check(r.returncode == 0, "chromium exits 0 on " + url)
    return r.stdout


def png_pixels(path):
    """(width, height, rows of RGBA/RGB bytes) of an 8-bit truecolour PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("unexpected PNG format %d/%d/%d" % (depth, ctype, interlace))
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def check_screenshot(path):
    w, h, bpp, rows = png_pixels(path)
    counts = {}
    for line in rows[::2]:  # every other row: enough to tell a page from a blank
        for x in range(0, len(line), bpp * 2):
            px = line[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    total = sum(counts.values())
    top = max(counts.values())
    print("screenshot %dx%d: %d distinct colours, the most common covers %.1f%%"
          % (w, h, len(counts), 100.0 * top / total))
    check(len(counts) >= 64, "the screenshot has many colours (%d)" % len(counts))
    check(top < 0.97 * total, "no one colour covers nearly all of the screenshot")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(" ".join(cmd), "\n", r.stderr)
    check(r.returncode == 0, "exit status 0: " + " ".join(cmd))
    return r.stdout


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    perfmodel, browser = sys.argv[1], sys.argv[2]
    keep = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--keep" else None
    tmp = tempfile.mkdtemp(prefix="perfmodel-browser-")
    out = keep or tmp
    os.makedirs(out, exist_ok=True)
    started = time.monotonic()

    # 1. A real model, sorted by the page's own script, and its screenshot.
    args = ["--model", "resnet50", "--hw", "a100", "--batch", "32", "--dtype", "fp16"]
    page = os.path.join(out, "resnet50.html")
    run([perfmodel, "report", *args, "-o", page])
    layers = [l["name"] for l in json.loads(run([perfmodel, "predict", *args, "--format",
                                                 "json"]))["layers"]]
    written = parse(open(page, encoding="utf-8").read())
    shot = os.path.join(out, "resnet50.png")
    dom = parse(chromium(browser, "file://" + page + "#sort=time", os.path.join(tmp, "p1"), shot))
    keys = [k for k, _ in written.headers]
    name_col, time_col = keys.index("name"), keys.index("time")
    check([r[name_col][0] for r in written.rows] == layers,
          "the written table has every layer, in the order predict gives (%d)" % len(layers))
    sorted_names = [r[name_col][0] for r in dom.rows]
    times = [float(r[time_col][1]) for r in dom.rows]
    check(sorted(sorted_names) == sorted(layers), "the rendered table has the same rows")
    check(all(a >= b for a, b in zip(times, times[1:])), "#sort=time: largest time first")
    check(sorted_names != layers, "#sort=time: the rows are reordered")
    check(dict(dom.headers).get("time") == "descending", "#sort=time: the header is marked")
    points = json.loads(run([perfmodel, "roofline", *args, "--format", "json"]))["layers"]
    drawable = [p["name"] for p in points if p["flops"] > 0 and p["bytes"] > 0 and p["seconds"] > 0]
    check(sorted(t.split(" (")[0] for t in dom.point_titles) == sorted(drawable),
          "the roofline has a point with a <title> per drawable layer (%d points, %d drawable)"
          % (len(dom.point_titles), len(drawable)))
    check_screenshot(shot)

    # 2. Names that are markup stay text, in the tables, the plots and the measured section.
    model = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "models",
                         "script_names.yaml")
    names = [l["name"] for l in json.loads(run([perfmodel, "predict", "--model", model, "--hw",
                                                "v100", "--format", "json"]))["layers"]]
    check(any("<script>" in n for n in names), "the model names a layer <script>")
    measured = os.path.join(out, "measured.json")
    with open(measured, "w") as f:
        json.dump({"schema": "perfmodel.measurement/1",
                   "layers": [{"name": n, "measured_seconds": 1e-5} for n in names] +
                   [{"name": "</script><script>document.body.setAttribute('data-pwned','3')"
                             "</script>", "measured_seconds": 1e-5}]}, f)
    evil = os.path.join(out, "script_names.html")
    run([perfmodel, "report", "--model", model, "--hw", "v100", "--measured", measured,
         "-o", evil])
    dom = parse(chromium(browser, "file://" + evil, os.path.join(tmp, "p2")))
    check(dom.tags.get("script") == 1, "one <script> element, the page's own (found %s)"
          % dom.tags.get("script"))
    check("img" not in dom.tags, "no <img> element")
    check("data-pwned" not in dom.body_attrs, "no script of a name ran")
    col = [k for k, _ in dom.headers].index("name")
    check([r[col][0] for r in dom.rows] == names, "each name reads back whole as cell text")
    check(any(t.startswith(names[0]) for t in dom.point_titles), "titles hold the names as text")

    print("browser test: %.1f s" % (time.monotonic() - started))
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        sys.exit(1)


if __name__ == "__main__":
    main()
