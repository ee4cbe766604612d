#!/usr/bin/env python3
"""Benchmark LOS of a list of mixed-level pairs (issue #13): ``los_pairs`` in process and the
``hexwx los-batch`` command run in process (CSV in, CSV and JSON lines out).

    python tools/bench_los_batch.py                 # bd20 from $HEXWX_VASL_DIR, 100,000 pairs
    python tools/bench_los_batch.py --board bd01 --pairs 100000 --runs 5

Pairs: random locations of the board (each hex's ground, building levels and rooftop, chosen
uniformly among all locations), so most pairs have at least one end above the ground on a
board with many buildings.  Target: 100,000 pairs <= 1 s in process (``los_pairs``).  The
kernel shares the pairs among ``os.cpu_count()`` threads; times are medians of ``--runs`` runs
and the one-thread figure is shown beside them, with the CPU time the work took (on a machine
shared with other jobs the wall time grows with their load; compare side by side).
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from hexwx.cli import main as cli_main
from hexwx.io.load import load_map
from hexwx.lineofsight.batch import locations, los_pairs


def median_time(fn, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process (all its threads) over ``runs``.

    On a machine shared with other jobs the wall time grows with their load; the CPU time is
    what the work itself costs, the wall time it would take on idle cores (one thread)."""
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="bd20")
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    vasl = Path(os.environ.get("HEXWX_VASL_DIR", "../shared/vasl"))
    meta = vasl / "SharedBoardMetadata.xml"
    archive = vasl / "boards" / args.board
    if not archive.is_file():
        print(f"no board {archive}; set HEXWX_VASL_DIR", file=sys.stderr)
        return 2
    m = load_map(archive, vasl_metadata=meta)
    m.kernel_map, m.kernel_terrain
    h, lv = locations(m)
    rng = np.random.default_rng(13)
    i, j = rng.integers(0, len(h), args.pairs), rng.integers(0, len(h), args.pairs)
    s, t, sl, tl = h[i], h[j], lv[i], lv[j]
    upper = float(((sl > 0) | (tl > 0)).mean())
    los_pairs(m, s, t, sl, tl)                               # warm up (kernel load, arrays)
    all_threads = median_time(lambda: los_pairs(m, s, t, sl, tl), args.runs)
    one_thread = median_time(lambda: los_pairs(m, s, t, sl, tl, threads=1), args.runs)
    names = m.grid.names()
    print(f"{args.board}: {len(h)} locations; {args.pairs:,} pairs, {100 * upper:.0f} % with an end "
          f"above the ground; {os.cpu_count()} cores")
    print(f"  los_pairs in process: wall {all_threads[0]:.3f} s ({os.cpu_count()} threads), "
          f"{one_thread[0]:.3f} s (1 thread); CPU {one_thread[1]:.3f} s (1 thread); "
          f"medians of {args.runs}; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "pairs.csv"
        with p.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["src", "src_level", "tgt", "tgt_level"])
            w.writerows(zip((names[x] for x in s), sl.tolist(), (names[x] for x in t), tl.tolist()))
        for fmt, out in (("csv", Path(d) / "out.csv"), ("jsonl", Path(d) / "out.jsonl")):
            argv2 = ["los-batch", str(archive), str(p), "-o", str(out), "--vasl-metadata", str(meta)]

            def run() -> None:
                with contextlib.redirect_stderr(io.StringIO()):
                    assert cli_main(argv2) == 0
            wall, cpu = median_time(run, max(1, args.runs // 2))
            print(f"  hexwx los-batch in process, CSV in, {fmt} out (map load included): "
                  f"wall {wall:.3f} s, CPU {cpu:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
