"""Benchmark rendering: one board at default size (1800 x 645) with overlays.

    python tools/bench_render.py [MAP] [--repeat N]

MAP defaults to maps/hill_village.toml.  Times: the first render (cold: fonts, palettes,
pattern tables) and the median of N warm renders, for the plain map and for the map with a LOS
thread, a viewshed, a path, a reach and fog + snow + drifts.  The LOS, viewshed and movement
results are computed once beforehand (they are not rendering).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexwx.io.load import load_map  # noqa: E402
from hexwx.lineofsight.engine import los, viewshed  # noqa: E402
from hexwx.movement.paths import path, reach  # noqa: E402
from hexwx.render.core import render_map  # noqa: E402
from hexwx.weather.asl.state import AslWeather, Drift  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, float]:
    t = time.perf_counter()
    fn()
    cold = time.perf_counter() - t
    warm = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        warm.append(time.perf_counter() - t)
    return cold, statistics.median(warm)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", nargs="?", default=str(ROOT / "maps" / "hill_village.toml"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--los", nargs=2, default=("B3", "K6"))
    ap.add_argument("--from", dest="src", default="E5")
    args = ap.parse_args(argv)
    m = load_map(args.map)
    m.hexes, m.geometry  # derived data is map loading, not rendering
    w = AslWeather(fog_level=0, ground_snow=True, drifts=(Drift("E5", 2),))
    res = los(m, *args.los, weather=w)
    vs = viewshed(m, args.src, weather=w)
    p = path(m, args.los[0], args.los[1], unit="infantry", weather=w)
    rc = reach(m, args.src, unit="infantry", mf=4, weather=w)
    cases = {
        "plain map": lambda: render_map(m),
        "LOS + weather": lambda: render_map(m, los=res, weather=w),
        "all overlays": lambda: render_map(m, los=res, viewshed=vs, viewshed_from=args.src, path=p,
                                           reach=rc, weather=w),
        "board window 0.5x": lambda: render_map(m, los=res, window=("A1", "P10"), scale=0.5),
    }
    size = render_map(m).image.size
    print(f"map {args.map}: image {size[0]} x {size[1]} (with legend), repeat {args.repeat}")
    for name, fn in cases.items():
        cold, warm = timed(fn, args.repeat)
        print(f"  {name:<20} first {cold * 1000:6.0f} ms   median {warm * 1000:6.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
