#!/usr/bin/env python3
"""Speed of ``hexwx serve`` (issue #15 targets): a LOS click, viewshed and exposure toggles,
and the page's first paint.

    python tools/bench_serve.py                         # bd02 and the layout 02,03/04,05
    python tools/bench_serve.py --board bd03 --layout "r05/r02/r04" --no-browser

Needs ``$HEXWX_VASL_DIR`` (VASL boards and SharedBoardMetadata.xml).  Times are wall-clock
over real HTTP on 127.0.0.1 (keep-alive connection), medians of several runs; viewshed and
exposure are asked with parameters not asked before, so the server's answer cache does not
help.  "first paint" starts when the server prints its URL (the board picture is prepared
before that) and ends when headless Chromium has the page drawn (``document.body.dataset.ready``,
polled every 10 ms over the DevTools protocol) -- an upper bound; Chromium's own
first-contentful-paint of the page is printed too.  The machine is shared: compare ratios.
"""
from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "serve"))


def timed_get(conn: http.client.HTTPConnection, target: str) -> float:
    t = time.perf_counter()
    conn.request("GET", target)
    r = conn.getresponse()
    body = r.read()
    dt = time.perf_counter() - t
    if r.status != 200:
        raise SystemExit(f"{target}: HTTP {r.status}: {body[:200]!r}")
    return dt * 1000


def bench_source(source: str, label: str, hexes: tuple[str, ...]) -> None:
    from hexwx.serve.server import make_server
    t = time.perf_counter()
    srv = make_server(source, port=0)
    prep = time.perf_counter() - t
    srv.start()
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(str(host), port, timeout=60)
    try:
        n = len(srv.session.map)
        print(f"{label}: {n} hexes; load + board picture before the URL: {prep * 1000:.0f} ms")
        a, b, c, d = hexes
        los = [timed_get(conn, f"/api/los?from={a}&to={b}") for _ in range(5)]
        los = [timed_get(conn, f"/api/los?from={x}&to={y}&fog=0")
               for _ in range(40) for x, y in ((a, b), (c, d), (a, d))]
        print(f"  LOS click (HTTP round trip, fog 0): median {statistics.median(los):.2f} ms, "
              f"p90 {sorted(los)[int(0.9 * len(los))]:.2f} ms over {len(los)}")
        vs = [timed_get(conn, f"/api/viewshed?from={h}&fog={f}") for h in (a, b, c, d) for f in (0, 1)]
        print(f"  viewshed toggle (uncached): median {statistics.median(vs):.1f} ms, max {max(vs):.1f} ms")
        first = timed_get(conn, "/api/exposure?fog=-1")
        ex = [timed_get(conn, f"/api/exposure?fog={f}&fog_drm={d}") for f in (0, 1) for d in (1, 2)]
        ex += [timed_get(conn, f"/api/exposure?{w}=1") for w in ("mist", "rain", "falling_snow")]
        print(f"  exposure, every hex as observer: first {first:.0f} ms (all pairs traced; "
              f"hexwx serve does this in the background at start); other weathers (uncached): "
              f"median {statistics.median(ex):.1f} ms, max {max(ex):.1f} ms")
        ex2 = [timed_get(conn, f"/api/exposure?from={a},{b},{c}&fog={f}") for f in (-1, 0, 1)]
        print(f"  exposure, 3 enemy hexes (uncached): median {statistics.median(ex2):.1f} ms")
    finally:
        conn.close()
        srv.shutdown()
        srv.server_close()


def bench_first_paint(source: str, runs: int) -> None:
    from cdp import Browser, find_chromium
    exe = find_chromium()
    if exe is None:
        print("first paint: chromium not installed (tools/ensure_chromium.sh); skipped")
        return
    browser = Browser(exe)
    page = browser.page()
    try:
        for i in range(runs):
            proc = subprocess.Popen([sys.executable, "-m", "hexwx", "serve", source, "--port", "0"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env={**os.environ, "PYTHONPATH": str(ROOT)})
            assert proc.stdout is not None
            line = proc.stdout.readline()
            t0 = time.perf_counter()
            url = line.split()[2]
            page.goto(url)
            while not page.js("!!(document.body && document.body.dataset.ready === '1' && "
                              "[...document.images, ...document.querySelectorAll('image')].length > 0)"):
                time.sleep(0.01)
            dt = (time.perf_counter() - t0) * 1000
            fcp = page.js("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
            print(f"  first paint after the URL (run {i + 1}): {dt:.0f} ms "
                  f"(Chromium first-contentful-paint {fcp and round(fcp)} ms after navigation)")
            if i == 0:
                names = page.js("window.hexwxViewer.map.hexes.filter((h, k) => k % 37 === 5).map(h => h.name)")
                page.click(f'[data-hex="{names[0]}"]')
                drawn = []
                for name in names[1:]:
                    page.mouse("mouseMoved", *page.centre_of(f'[data-hex="{name}"]'))
                    page.wait(f"document.getElementById('los-explain').textContent.includes('-> {name} (level')")
                    drawn.append(float(page.js("document.getElementById('los-explain').dataset.ms")))
                print(f"  LOS asked and drawn in the page (fetch + SVG + text, {len(drawn)} targets): "
                      f"median {statistics.median(drawn):.1f} ms, max {max(drawn):.1f} ms")
            proc.terminate()
            proc.wait(timeout=10)
    finally:
        page.close()
        browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="bd02")
    ap.add_argument("--layout", default="02,03/04,05", help="a 4-board layout (default 02,03/04,05)")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--paint-runs", type=int, default=3)
    a = ap.parse_args()
    if not os.environ.get("HEXWX_VASL_DIR"):
        raise SystemExit("set HEXWX_VASL_DIR to the folder with VASL boards and SharedBoardMetadata.xml")
    bench_source(a.board, f"board {a.board}", ("A7", "N7", "I4", "Y5"))
    first = a.layout.split("/")[0].split(",")[0].lstrip("r").lstrip("0")
    last = a.layout.split("/")[-1].split(",")[-1].lstrip("r").lstrip("0")
    bench_source(a.layout, f"layout {a.layout}",
                 (f"{first}A7", f"{last}N7", f"{first}I4", f"{last}Y5"))
    if not a.no_browser:
        print(f"board {a.board}:")
        bench_first_paint(a.board, a.paint_runs)
        print(f"layout {a.layout}:")
        bench_first_paint(a.layout, a.paint_runs)


if __name__ == "__main__":
    main()
