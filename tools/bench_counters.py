#!/usr/bin/env python3
"""LOS with 30 counters on the map against the bare map, side by side (issue 23 targets: a single
``los()`` <= 1.2x, ``los_table`` <= 1.5x).

    python tools/bench_counters.py [MAP] [--counters 30] [--queries 2000] [--rounds 5] [--seed 7]
                                   [--weather none|mist|rain|mud]

The counters are spread over the map at random (seeded): SMOKE and WP of every kind, Blazes,
vehicles (some in bypass), wrecks, an FFE and two rubble counters.  They are prepared once
(the first query pays it; the preparation time is printed apart).  Single queries alternate
bare / with counters on the same random pairs, thread CPU time, medians of per-round totals;
tables alternate too (process CPU time: the kernel runs on several threads).  ``--weather``:
both sides answer under that weather (rain and mud leave placed SMOKE out, E3.53, E3.734).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexwx.io.load import load_map  # noqa: E402
from hexwx.lineofsight.counter_los import prepare  # noqa: E402
from hexwx.lineofsight.counters import Counter, Counters  # noqa: E402
from hexwx.lineofsight.engine import los, los_table  # noqa: E402
from hexwx.weather.asl.state import AslWeather  # noqa: E402

WEATHERS = {"none": None, "mist": AslWeather(base="Mist"), "rain": AslWeather(rain=True),
            "mud": AslWeather(base="Mud")}

KINDS = ("White +3 Smoke", "White +2 Smoke", "Gray +2 Smoke", "White +2 WP", "White +1 WP",
         "Gray +1 WP", "Smoke grenade +2", "WP grenade +1", "Blaze", "1-level Blaze",
         "vehicle:T-34 M43", "vehicle:PzKpfw IVH", "Wreck", "Burnt Out Wreck", "Red FFE:1")


def random_counters(m, n: int, seed: int) -> Counters:
    rng = np.random.default_rng(seed)
    names = m.grid.names()
    hexes = rng.choice(len(m), n, replace=False)
    out = []
    for k, h in enumerate(hexes.tolist()):
        if k < 2 and m.terrain_of(h).is_building:
            out.append(Counter("Stone Rubble", names[h]))
            continue
        name = KINDS[k % len(KINDS)]
        side = int(rng.integers(0, 6)) if name.startswith("vehicle") and k % 4 == 0 else None
        out.append(Counter(name, names[h], 0, side))
    return Counters(tuple(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("map", nargs="?", default="bd02")
    ap.add_argument("--counters", type=int, default=30)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--weather", choices=tuple(WEATHERS), default="none")
    args = ap.parse_args()
    wx = WEATHERS[args.weather]
    m = load_map(args.map)
    c = random_counters(m, args.counters, args.seed)
    t0 = time.perf_counter()
    prep = prepare(m, c)
    print(f"{m.name}: {len(m)} hexes, {len(c)} counters ({len(prep.effects) if prep else 0} "
          f"hindrance effects), prepared in {1e3 * (time.perf_counter() - t0):.1f} ms")
    rng = np.random.default_rng(args.seed)
    pairs = rng.integers(0, len(m), size=(args.queries, 2)).tolist()
    los(m, 0, 1, weather=wx), los(m, 0, 1, counters=c, weather=wx)
    bare_t, with_t = [], []
    hit = 0
    for _ in range(args.rounds):
        tb = tw = 0.0
        for a, b in pairs:
            t = time.thread_time()
            los(m, a, b, weather=wx)
            t1 = time.thread_time()
            r = los(m, a, b, counters=c, weather=wx)
            t2 = time.thread_time()
            tb += t1 - t
            tw += t2 - t1
            hit += any(h.name for h in r.hindrances)
        bare_t.append(tb)
        with_t.append(tw)
    b, w = statistics.median(bare_t), statistics.median(with_t)
    print(f"single los(): bare {1e6 * b / len(pairs):.1f} us, with counters "
          f"{1e6 * w / len(pairs):.1f} us per query: {w / b:.2f}x "
          f"({hit // args.rounds} of {len(pairs)} answers name a counter)")
    los_table(m, weather=wx), los_table(m, counters=c, weather=wx)
    tbl_b, tbl_w = [], []
    for _ in range(args.rounds):
        t = time.process_time()
        los_table(m, weather=wx)
        t1 = time.process_time()
        los_table(m, counters=c, weather=wx)
        t2 = time.process_time()
        tbl_b.append(t1 - t)
        tbl_w.append(t2 - t1)
    b, w = statistics.median(tbl_b), statistics.median(tbl_w)
    print(f"los_table: bare {1e3 * b:.1f} ms, with counters {1e3 * w:.1f} ms: {w / b:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
