#!/usr/bin/env python3
"""Speed of ``hexwx serve`` (issue #15 targets): a LOS click, viewshed and exposure toggles,
the first exposure heat map and LOS clicks while the server traces all pairs in the
background, and the page's first paint.

    python tools/bench_serve.py                         # bd02 and the layout 02,03/04,05
    python tools/bench_serve.py --board bd03 --layout "r05/r02/r04" --no-browser
    python tools/bench_serve.py --no-browser --only-warm

The warm-up figures come from fresh processes (``--warm-case``), since the all-pairs trace is
kept per loaded map for the life of the process: "at once" asks for the page's map and then at
once for the exposure heat map (it traces on every CPU, or waits for the background trace);
"0.4 s" asks 0.4 s after the page's map, while the background trace runs on one CPU fewer
(the asker makes its remaining blocks of rows run on every CPU); "after" clicks LOS
questions while the trace runs, waits for it, then asks for the heat map and later toggles;
the same clicks with the trace on every CPU (2 threads) for comparison; and one LOS click half
a second after the page's map (when a user could first click).

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
import tempfile
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
        print(f"  exposure, every hex as observer: first {first:.0f} ms (all pairs traced by the "
              f"request on every CPU: no warm-up here); other weathers (uncached): "
              f"median {statistics.median(ex):.1f} ms, max {max(ex):.1f} ms")
        ex2 = [timed_get(conn, f"/api/exposure?from={a},{b},{c}&fog={f}") for f in (-1, 0, 1)]
        print(f"  exposure, 3 enemy hexes (uncached): median {statistics.median(ex2):.1f} ms")
    finally:
        conn.close()
        srv.shutdown()
        srv.server_close()


def bench_table(scenario: Path) -> None:
    """Tabletop movement: /api/table-move with the reach outline for every unit and turn."""
    from hexwx.serve.server import make_server
    srv = make_server(str(scenario), port=0)
    srv.start()
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(str(host), port, timeout=60)
    try:
        sc = srv.session.table
        ts = [timed_get(conn, f"/api/table-move?unit={u.id}&turn={t}&outline=1")
              for u in sc.table.units for t in range(1, sc.turns + 1)]
        print(f"tabletop {scenario.name}: movement and reach outline (/api/table-move, "
              f"{len(ts)} unit-turns): median {statistics.median(ts):.1f} ms, max {max(ts):.1f} ms")
    finally:
        conn.close()
        srv.shutdown()
        srv.server_close()


def warm_case(source: str, case: str, threads: int | None, hexes: tuple[str, ...]) -> None:
    """One warm-up measurement in this (fresh) process; prints one line."""
    import hexwx.serve.server as server_mod
    if threads is not None:
        server_mod.warm_threads = lambda cpus: threads            # type: ignore[assignment]
    srv = server_mod.make_server(source, port=0, warm=True)
    srv.start()
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(str(host), port, timeout=120)
    a, b, c, d = hexes
    pairs = [(a, b), (c, d), (a, d), (b, c)]
    try:
        t0 = time.perf_counter()
        timed_get(conn, "/api/map")                       # the page's first question: warm-up starts
        if case in ("at-once", "during"):
            if case == "during":
                time.sleep(0.4)    # the page is drawn; the background trace is under way
            dt = timed_get(conn, "/api/exposure?fog=-1")
            srv.warm_done.wait()
            when = "at once" if case == "at-once" else "0.4 s"
            print(f"    first exposure asked {when} after the page's map: {dt:.0f} ms "
                  f"({(time.perf_counter() - t0) * 1000:.0f} ms after the map was asked; "
                  f"background trace {1000 * (srv.warm_seconds or 0):.0f} ms)")
            return
        if case == "first-click":
            time.sleep(0.5)        # the page is drawn (first paint) before anyone clicks
            dt = timed_get(conn, f"/api/los?from={a}&to={b}")
            print(f"    first LOS click, 0.5 s after the page's map: {dt:.1f} ms (the warm-up "
                  f"answered one LOS question first: parsers and modules loaded)")
            return
        first_click = timed_get(conn, f"/api/los?from={a}&to={b}")
        during: list[float] = []
        i = 0
        while not srv.warm_done.is_set():
            x, y = pairs[i % len(pairs)]
            during.append(timed_get(conn, f"/api/los?from={x}&to={y}&fog={i % 3 - 1}"))
            i += 1
        label = "default" if threads is None else f"{threads} thread{'s' if threads > 1 else ''}"
        after = [timed_get(conn, f"/api/los?from={x}&to={y}&fog={k % 3 - 1}")
                 for k in range(30) for x, y in pairs]
        if not during:
            during = [float("nan")]
        print(f"    background trace ({label}): {1000 * (srv.warm_seconds or 0):.0f} ms; LOS clicks "
              f"at once: the first {first_click:.0f} ms (loads what the warm-up is loading), "
              f"later ones "
              f"meanwhile: median {statistics.median(during):.2f} ms, p90 "
              f"{sorted(during)[int(0.9 * len(during))]:.2f} ms, max {max(during):.1f} ms over "
              f"{len(during)} (after it: median {statistics.median(after):.2f} ms, p90 "
              f"{sorted(after)[int(0.9 * len(after))]:.2f} ms)")
        if case == "after":
            first = timed_get(conn, "/api/exposure?fog=-1")
            again = [timed_get(conn, "/api/exposure?fog=-1") for _ in range(3)]
            later = [timed_get(conn, f"/api/exposure?fog={f}&fog_drm={dd}") for f in (0, 1) for dd in (1, 2)]
            later += [timed_get(conn, f"/api/exposure?{w}=1") for w in ("mist", "rain", "falling_snow")]
            print(f"    first exposure after the warm-up: {first:.0f} ms; the same again (cached): "
                  f"median {statistics.median(again):.1f} ms; later toggles, new weathers "
                  f"(uncached): median {statistics.median(later):.0f} ms, max {max(later):.0f} ms")
    finally:
        conn.close()
        srv.shutdown()
        srv.server_close()


def bench_warm(source: str, label: str, hexes: tuple[str, ...], runs: int) -> None:
    """The warm-up cases, each in a fresh process.  Each runs with an empty map cache (the
    first ever ``hexwx serve`` of the map: the map and its all-pairs trace are made), except
    "at-once, stored": a folder where an earlier serve of the map left its trace."""
    print(f"{label}: warm-up (hexwx serve traces all pairs once the page has asked for its map)")
    cases = ([("at-once", None, "empty")] * runs + [("during", None, "empty")] * runs
             + [("at-once", None, "stored")] * runs
             + [("after", None, "empty")] * runs + [("clicks", 2, "empty"), ("first-click", None, "empty")])
    with tempfile.TemporaryDirectory() as stored:
        for case, threads, cache in cases:
            base = [sys.executable, __file__, "--warm-case", source, "--hexes", ",".join(hexes)]
            argv = base + ["--case", case]
            if threads is not None:
                argv += ["--threads", str(threads)]
            with tempfile.TemporaryDirectory() as empty:
                if cache == "stored":
                    print("    [map and all-pairs trace stored by an earlier serve]", end="")
                    sys.stdout.flush()
                env = {**os.environ, "PYTHONPATH": str(ROOT),
                       "HEXWX_CACHE_DIR": stored if cache == "stored" else empty}
                env.pop("HEXWX_NO_CACHE", None)
                if cache == "stored" and not os.listdir(stored):   # an earlier serve, untimed
                    subprocess.run(base + ["--case", "after"], check=True, env=env,
                                   stdout=subprocess.DEVNULL)
                subprocess.run(argv, check=True, env=env)


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
    ap.add_argument("--warm-runs", type=int, default=2)
    ap.add_argument("--only-warm", action="store_true", help="only the warm-up figures")
    ap.add_argument("--warm-case", metavar="SOURCE", help=argparse.SUPPRESS)
    ap.add_argument("--case", choices=("at-once", "during", "after", "clicks", "first-click"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--hexes", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if not os.environ.get("HEXWX_VASL_DIR"):
        raise SystemExit("set HEXWX_VASL_DIR to the folder with VASL boards and SharedBoardMetadata.xml")
    if a.warm_case:
        warm_case(a.warm_case, a.case, a.threads, tuple(a.hexes.split(",")))
        return
    first = a.layout.split("/")[0].split(",")[0].lstrip("r").lstrip("0")
    last = a.layout.split("/")[-1].split(",")[-1].lstrip("r").lstrip("0")
    layout_hexes = (f"{first}A7", f"{last}N7", f"{first}I4", f"{last}Y5")
    board_hexes = ("A7", "N7", "I4", "Y5")
    if not a.only_warm:
        for name in ("table_agv_village_and_wood.toml", "table_huzzah_fog_lifts.toml"):
            bench_table(ROOT / "scenarios" / name)
        bench_source(a.board, f"board {a.board}", board_hexes)
        bench_source(a.layout, f"layout {a.layout}", layout_hexes)
    bench_warm(a.board, f"board {a.board}", board_hexes, a.warm_runs)
    bench_warm(a.layout, f"layout {a.layout}", layout_hexes, a.warm_runs)
    if a.only_warm:
        return
    if not a.no_browser:
        print(f"board {a.board}:")
        bench_first_paint(a.board, a.paint_runs)
        print(f"layout {a.layout}:")
        bench_first_paint(a.layout, a.paint_runs)


if __name__ == "__main__":
    main()
