#!/usr/bin/env python3
"""Benchmark VASL layouts against one board: loading, and a single LOS.

Targets (issue 12): loading a 3-board layout <= 3x loading one board; a single LOS on it as fast
as on one board.  "Loading" is cold in this process (its in-memory map caches cleared) and is
measured twice: load_map alone, and up to the first LOS answer (pixel geometry, per-hex terrain,
kernel arrays built or read).  Each is measured three ways, with the on-disk map cache
(hexwx.io.mapcache) in a temporary folder:

* ``first-ever``: the cache folder emptied before each load -- decode, derive and write the cache
  (the first load of a map on a machine);
* ``cached``: the cache written by an earlier load -- read back (every later process);
* ``no cache``: ``HEXWX_NO_CACHE=1`` -- decode and derive, write nothing.

Single LOS: the same printed pairs of the middle board, asked on the board alone and on the
layout, median of many runs.  Runs side by side so that machine noise hits both alike.

    HEXWX_VASL_DIR=../shared/vasl python tools/bench_layout.py [--layout r05/r02/r04 --board bd02]

Cropped layouts (issue 24: loading costs no more than loading the whole boards, LOS as fast):
``--crop "02[A-Q],03[Q-GG]"`` compares that layout with the same boards uncropped
(``"02,03"``), the pairs drawn from the cropped map's hexes (which both maps have).

    HEXWX_VASL_DIR=../shared/vasl python tools/bench_layout.py --crop "02[A-Q],03[Q-GG]"
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

from hexwx.io import layout as L
from hexwx.io import load as load_mod
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los


def _cold(mode: str, cache: str) -> None:
    """Forget every map this process holds; ``first-ever``: empty the cache folder too."""
    L._raster.cache_clear()
    L._compose.cache_clear()
    load_mod._CACHE.clear()
    if mode == "no cache":
        os.environ["HEXWX_NO_CACHE"] = "1"
    else:
        os.environ.pop("HEXWX_NO_CACHE", None)
    if mode == "first-ever":
        shutil.rmtree(cache, ignore_errors=True)


def time_load(text: str, first_los: tuple[str, str] | None, mode: str, cache: str) -> float:
    """One cold load of ``text`` (and its first LOS answer), in seconds."""
    _cold(mode, cache)
    t0 = time.perf_counter()
    m = load_map(text)
    if first_los:
        los(m, *first_los)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout", default="r05/r02/r04", help="the layout (default r05/r02/r04)")
    ap.add_argument("--board", default="bd02", help="the single board (default bd02)")
    ap.add_argument("--crop", metavar="LAYOUT",
                    help="a layout with crops, compared with its boards uncropped")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--pairs", type=int, default=400)
    args = ap.parse_args(argv)
    if not os.environ.get("HEXWX_VASL_DIR"):
        print("set HEXWX_VASL_DIR to VASL's reference data (boards/, SharedBoardMetadata.xml)", file=sys.stderr)
        return 2
    cache = tempfile.mkdtemp(prefix="hexwx-bench-cache-")   # not the user's cache
    os.environ["HEXWX_CACHE_DIR"] = cache
    try:
        if args.crop:   # the cropped layout against the same boards whole; its own hex names
            args.layout, args.board = args.crop, re.sub(r"\[[^\]]*\]", "", args.crop)
            label = ""
            names = load_map(args.layout).grid.names()
            m1 = load_map(args.board)
        else:
            label = args.board[2:].lstrip("0")
            m1 = load_map(args.board)
            names = m1.grid.names()
        rng = np.random.default_rng(1)
        pairs = [(names[i], names[j]) for i, j in rng.integers(0, len(names), (args.pairs, 2)) if i != j]
        first = (f"{label}{pairs[0][0]}", f"{label}{pairs[0][1]}")
        for what, fl, fb in (("load_map", None, None), ("load + first LOS", first, pairs[0])):
            for mode in ("first-ever", "cached", "no cache"):
                time_load(args.board, fb, "first-ever", cache)  # the cache the cached runs read
                time_load(args.layout, fl, "cached", cache)
                ones, lays = [], []
                for _ in range(args.runs):  # interleaved, so that machine load hits both alike
                    ones.append(time_load(args.board, fb, mode, cache))
                    lays.append(time_load(args.layout, fl, mode, cache))
                one, lay = statistics.median(ones), statistics.median(lays)
                target = "<= 1" if args.crop else "<= 3"
                print(f"{what:17s} [{mode:10s}] {args.board}: {1000 * one:7.1f} ms   {args.layout}: "
                      f"{1000 * lay:7.1f} ms   ratio {lay / one:.2f} (target {target})", flush=True)
        _cold("cached", cache)
        ml = load_map(args.layout)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    for m, p in ((m1, pairs), (ml, [(label + a, label + b) for a, b in pairs])):
        for a, b in p[:20]:
            los(m, a, b)  # warm
    res = {}
    for name, m, p in (("board", m1, pairs), ("layout", ml, [(label + a, label + b) for a, b in pairs])):
        t = []
        for _ in range(3):
            t0 = time.perf_counter()
            for a, b in p:
                los(m, a, b)
            t.append((time.perf_counter() - t0) / len(p))
        res[name] = min(t)
    print(f"single LOS (mean of {len(pairs)} pairs, best of 3): {args.board} {1e6 * res['board']:.0f} us, "
          f"{args.layout} {1e6 * res['layout']:.0f} us, ratio {res['layout'] / res['board']:.2f} (target ~1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
