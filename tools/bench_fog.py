#!/usr/bin/env python3
"""Fogged against clear LOS, side by side: single queries and viewsheds (issue 16 target: <= 1.2x)
and the whole los-table (issue #22 item 4: <= 1.5x).

    python tools/bench_fog.py [MAP] [--queries 1000] [--rounds 5]

Queries alternate clear / fogged on the same random pairs (the shared machine's speed drifts),
CPU time (of this thread for single queries, of the process for viewsheds, whose kernel may
run on several threads), medians.
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
from hexwx.lineofsight.engine import los, los_table, viewshed  # noqa: E402
from hexwx.weather.asl.state import AslWeather  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("map", nargs="?", default=str(ROOT / "maps" / "hill_village.toml"))
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=1, help="viewshed comparisons (default 1)")
    args = ap.parse_args()
    m = load_map(args.map)
    fog = AslWeather(fog_level=0, fog_drm=1)
    rng = np.random.default_rng(7)
    pairs = rng.integers(0, len(m), size=(args.queries, 2))
    clear_t, fog_t = [], []
    los(m, 0, 1), los(m, 0, 1, weather=fog)
    for a, b in pairs.tolist():
        t = time.thread_time(); los(m, a, b); clear_t.append(time.thread_time() - t)
        t = time.thread_time(); los(m, a, b, weather=fog); fog_t.append(time.thread_time() - t)
    c, f = statistics.median(clear_t), statistics.median(fog_t)
    print(f"single los(): clear {c * 1e6:.0f} us, fog {f * 1e6:.0f} us, ratio {f / c:.2f} (median of {args.queries})")
    # a viewshed's kernel may run on several threads: CPU time of the whole process, each
    # sample 10 viewsheds from one hex; the whole comparison --rounds times (the shared
    # machine's speed drifts by +-5 % between rounds): each round's median ratio, and theirs
    viewshed(m, "A1"), viewshed(m, "A1", weather=fog)
    sources = rng.integers(0, len(m), size=40).tolist()
    ratios = []
    for _ in range(args.rounds):
        vc, vf = [], []
        for h in sources:
            t = time.process_time()
            for _ in range(10):
                viewshed(m, h)
            vc.append((time.process_time() - t) / 10)
            t = time.process_time()
            for _ in range(10):
                viewshed(m, h, weather=fog)
            vf.append((time.process_time() - t) / 10)
        c, f = statistics.median(vc), statistics.median(vf)
        ratios.append(f / c)
        print(f"viewshed(): clear {c * 1e3:.2f} ms, fog {f * 1e3:.2f} ms, ratio {f / c:.2f} "
              f"(process CPU time, median of 40 sources x 10)")
    if len(ratios) > 1:
        print(f"viewshed() ratio over {len(ratios)} rounds: median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
    # the los-table of every pair (one kernel thread: process CPU time is its time), alternated
    los_table(m, threads=1), los_table(m, weather=fog, threads=1)
    tc, tf = [], []
    for _ in range(9):
        t = time.process_time(); los_table(m, threads=1); tc.append(time.process_time() - t)
        t = time.process_time(); los_table(m, weather=fog, threads=1); tf.append(time.process_time() - t)
    c, f = statistics.median(tc), statistics.median(tf)
    print(f"los_table(): clear {c * 1e3:.0f} ms, fog {f * 1e3:.0f} ms, ratio {f / c:.2f} "
          f"(process CPU time, one kernel thread, median of 9)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
