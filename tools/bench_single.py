#!/usr/bin/env python3
"""A single warm ``los()`` against ``los_pairs(..., threads=1)`` per pair, and two threads of
single queries against one (issue #22, item 4).

    HEXWX_VASL_DIR=... python tools/bench_single.py                 # bd02, 2000 random pairs
    HEXWX_VASL_DIR=... python tools/bench_single.py --board bd16 --pairs 5000

Targets: the single query within 5x the batch's per-pair cost; two threads >= 1.2x the
throughput of one.  The single and batch figures are the thread's CPU time (other processes
on the machine do not count), medians of ``--repeat`` runs; the two-thread ratio is wall time
(one thread's queries against the same queries split over two).  Run the pre-change code beside
it (``PYTHONPATH`` of its checkout) in turns: the VM's speed drifts.  The GIL-free control (two
threads hashing 1 MiB buffers, which CPython does without the GIL, against one, in the same
rounds) tells whether the machine could run two threads at once at all: on a machine busy with
other work it stays near 1.0x too, and then the two-thread figure says nothing about hexwx.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from hexwx.io.load import load_map
from hexwx.lineofsight.batch import los_pairs
from hexwx.lineofsight.engine import los


def _median(fn, repeat: int, clock=time.thread_time) -> float:
    runs = []
    for _ in range(repeat):
        t = clock()
        fn()
        runs.append(clock() - t)
    return statistics.median(runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="bd02")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    vasl = os.environ.get("HEXWX_VASL_DIR")
    if not vasl:
        print("set HEXWX_VASL_DIR to the VASL data folder (boards/, SharedBoardMetadata.xml)")
        return 2
    m = load_map(Path(vasl) / "boards" / args.board,
                 vasl_metadata=Path(vasl) / "SharedBoardMetadata.xml")
    rng = np.random.default_rng(7)
    pairs = rng.integers(0, len(m), size=(args.pairs, 2)).tolist()
    src = np.array([a for a, _ in pairs], np.int64)
    tgt = np.array([b for _, b in pairs], np.int64)

    def singles(chunk: list[list[int]]) -> None:
        for a, b in chunk:
            los(m, a, b)

    def read_all(r) -> None:     # what a caller that shows the whole answer reads
        r.thread, r.hindrances, r.blocking_top

    singles(pairs[:50])
    los_pairs(m, src, tgt, threads=1)
    one = _median(lambda: singles(pairs), args.repeat) / len(pairs)
    full = _median(lambda: [read_all(los(m, a, b)) for a, b in pairs], args.repeat) / len(pairs)
    batch = _median(lambda: los_pairs(m, src, tgt, threads=1), args.repeat) / len(pairs)
    half = len(pairs) // 2
    wall = time.perf_counter
    with ThreadPoolExecutor(2) as pool:
        def two() -> None:
            for f in [pool.submit(singles, pairs[:half]), pool.submit(singles, pairs[half:])]:
                f.result()

        def alone() -> None:
            pool.submit(singles, pairs).result()
        blob = bytes(range(256)) * 4096

        def hashing(chunk: list[list[int]]) -> None:
            for _ in chunk[::25]:
                hashlib.sha256(blob).digest()

        def control() -> float:
            t = wall()
            pool.submit(hashing, pairs).result()
            one = wall() - t
            t = wall()
            for f in [pool.submit(hashing, pairs[:half]), pool.submit(hashing, pairs[half:])]:
                f.result()
            return one / (wall() - t)

        two()
        ratios, controls = [], []
        for _ in range(args.repeat):
            ratios.append(_median(alone, 1, wall) / _median(two, 1, wall))
            controls.append(control())
    print(f"{args.board}, {len(pairs)} random pairs, CPU time: single los() {one * 1e6:.1f} us, "
          f"los_pairs(threads=1) {batch * 1e6:.2f} us a pair: {one / batch:.1f}x (target <= 5x); "
          f"read in full {full * 1e6:.1f} us; "
          f"two threads against one, wall: {statistics.median(ratios):.2f}x "
          f"(rounds {min(ratios):.2f}-{max(ratios):.2f}; target >= 1.2x; GIL-free control "
          f"{statistics.median(controls):.2f}x, rounds {min(controls):.2f}-{max(controls):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
