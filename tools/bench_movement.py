"""Benchmark movement (issue 5): graph build, reach with 8 MF, a path across a 4-board map.

    python tools/bench_movement.py [--repeat N] [--seed S]

The map is four geomorphic boards in a row (boards 1-4; seam half hexes merge), terrain drawn
at random (seeded) from the catalogue: mostly open ground with woods, grain, brush, buildings,
marsh, hills of levels 0-2, walls/hedges, a few cliffs and two dirt roads and a paved road
across the map.  Times are medians (and the worst) over the runs, in milliseconds; targets:
build <= 50 ms, reach(8) <= 2 ms, path across <= 10 ms.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexwx.hexmap.coords import Grid  # noqa: E402
from hexwx.movement.costs import MoveTerrain, MoveWeather  # noqa: E402
from hexwx.movement.paths import MoveGraph  # noqa: E402
from hexwx.hexmap.terrain import CATALOGUE, catalogue_type  # noqa: E402
from hexwx.weather.asl.state import AslWeather  # noqa: E402

WEATHERS = {
    "clear": AslWeather(),
    "rain": AslWeather(rain=True),
    "mud": AslWeather(base="Mud"),
    "deep snow": AslWeather(deep_snow=True),
}
UNITS = ("infantry", "tracked", "non-tracked")


def four_board_map(seed: int) -> MoveTerrain:
    rng = np.random.default_rng(seed)
    grid = Grid.layout([["1", "2", "3", "4"]])
    n = len(grid)
    keys = ["open"] * 14 + ["woods", "woods", "grain", "brush", "stone building", "marsh",
                            "orchard", "shellholes", "gully"]
    codes = np.array([catalogue_type(k).code for k in keys], np.int32)
    centre = codes[rng.integers(0, len(codes), n)]
    level = rng.choice([0, 0, 0, 1, 2], n).astype(np.int32)
    side = np.full((n, 6), -1, np.int32)
    nb = grid.neighbours
    for key, p in (("wall", 0.03), ("hedge", 0.03), ("cliff", 0.005)):
        hit = (rng.random((n, 6)) < p) & (nb >= 0)
        side[hit] = catalogue_type(key).code
    for h, s in zip(*np.nonzero(side >= 0)):
        side[nb[h, s], (s + 3) % 6] = side[h, s]
    roads = np.zeros((n, 6), np.int8)
    for row, kind in ((3, 1), (6, 2), (15, 1)):        # straight-ish roads across the map
        h = grid.cell(0, row)
        while h >= 0:
            s = 1 if grid.col[h] % 2 == 0 else 2       # alternate NE / SE: stays on the row
            o = int(nb[h, s])
            if o < 0:
                break
            roads[h, s] = kind
            roads[o, (s + 3) % 6] = kind
            h = o
    for end in ("1A5", "4GG5"):
        centre[grid.parse(end)] = catalogue_type("open").code
    return MoveTerrain(grid, CATALOGUE, centre, level, side, roads, {}, "bench 4 boards")


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e3:6.2f} ms (worst {max(samples) * 1e3:6.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    mt = four_board_map(args.seed)
    grid = mt.grid
    print(f"map: 4 boards in a row, {len(grid)} hexes, "
          f"{int((grid.neighbours >= 0).sum())} directed steps")
    left, right = grid.parse("1A5"), grid.parse("4GG5")
    centre = grid.parse("2Q5")
    starts = [grid.parse(f"{b}{c}5") for b in "1234" for c in ("E", "M", "U")]
    rows = []
    for wname, w in WEATHERS.items():
        mw = MoveWeather.of(w)
        for unit in UNITS:
            build = []
            for _ in range(max(3, args.repeat // 4)):
                t0 = time.perf_counter()
                g = MoveGraph(mt, unit, mw)
                build.append(time.perf_counter() - t0)
            reach_t, path_t = [], []
            for i in range(args.repeat):
                s = starts[i % len(starts)]
                t0 = time.perf_counter()
                g.reach(s, 8)
                reach_t.append(time.perf_counter() - t0)
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                p = g.path(left, right)
                path_t.append(time.perf_counter() - t0)
            rows.append((wname, unit, build, reach_t, path_t, p))
    print(f"{'weather':<10} {'unit':<12} {'build graph':<28} {'reach 8 MF':<28} {'path 1A5->4GG5':<28}")
    for wname, unit, b, r, pt, p in rows:
        print(f"{wname:<10} {unit:<12} {ms(b):<28} {ms(r):<28} {ms(pt):<28} "
              f"({len(p.steps)} steps, total {p.total})" if p.found else "(no path)")
    allb = [x for row in rows for x in row[2]]
    allr = [x for row in rows for x in row[3]]
    allp = [x for row in rows for x in row[4]]
    print(f"overall medians: build {statistics.median(allb) * 1e3:.2f} ms, reach(8) "
          f"{statistics.median(allr) * 1e3:.2f} ms, path {statistics.median(allp) * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
