#!/usr/bin/env python3
"""Throughput of single ``los`` queries from 1 and from N threads (issue #17, item 1).

    python tools/bench_threads.py                       # maps/hill_village.toml, 1 and 2 threads
    python tools/bench_threads.py --map maps/hedgerow_fields.toml --threads 4 --queries 20000

The kernel releases the GIL while it walks the pixels, so threads overlap the C part of each
query; the Python part (building the result) still takes the GIL in turn.  The ratio is only
meaningful on an otherwise idle machine: run both sides back to back and compare.
"""
from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default=str(Path(__file__).resolve().parents[1] / "maps" / "hill_village.toml"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--queries", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    m = load_map(a.map)
    rnd = random.Random(0)
    pairs = [(rnd.randrange(len(m)), rnd.randrange(len(m))) for _ in range(a.queries)]
    chunks = [pairs[i::a.threads] for i in range(a.threads)]

    def run(chunk: list[tuple[int, int]]) -> None:
        for s, t in chunk:
            los(m, s, t)

    for _ in range(a.repeat):
        t0 = time.perf_counter()
        run(pairs)
        t1 = time.perf_counter()
        with ThreadPoolExecutor(a.threads) as ex:
            list(ex.map(run, chunks))
        t2 = time.perf_counter()
        seq, par = t1 - t0, t2 - t1
        print(f"{a.queries} queries on {m.name}: 1 thread {seq:.2f} s "
              f"({a.queries / seq:,.0f}/s), {a.threads} threads {par:.2f} s "
              f"({a.queries / par:,.0f}/s), speed-up x{seq / par:.2f}")


if __name__ == "__main__":
    main()
