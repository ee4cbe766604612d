#!/usr/bin/env python3
"""Benchmark loading overlaid layouts against loading their whole boards.

Target (issue 24): loading a layout with overlays costs at most +20 % per overlay over loading
the same boards without them, and is cached like any map.  Each load is cold in this process
(every in-memory cache of maps, rasters, overlay archives and images cleared) and measured up to
the first LOS answer, three ways, with the on-disk map cache in a temporary folder:

* ``first-ever``: the cache folder emptied before each load (decode, lay the overlays, derive,
  write the cache);
* ``cached``: read back what an earlier load wrote (every later process);
* ``no cache``: ``HEXWX_NO_CACHE=1`` (decode, lay, derive, write nothing).

The median CPU time of ``--runs`` loads of each (round robin) is printed with its ratio to the whole boards and the
cost per overlay.

    HEXWX_VASL_DIR=../shared/vasl python tools/bench_overlays.py [--runs 5]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

from hexwx.io import overlays as O
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_layout  # noqa: E402  (tools/bench_layout.py: the same cold start)

#: Groups of (what, layout): the whole boards first, then the same boards overlaid.  The single
#: board carries the largest overlay of the set (ovr2, a 668 x 645 hill, stream and gully), then
#: a common one (x11, 225 x 194 buildings).
GROUPS = (
    (("3 boards", "r05/r02/r04"),
     ("+1 overlay", "r05/r02+wd2:J4:J5/r04"),
     ("+3 overlays", "r05+hi8:H4:I5/r02+wd2:J4:J5/r04+x11:L5:K5"),
     ("+5 overlays", "r05+hi8:H4:I5+st2:R5:Q5/r02+wd2:J4:J5/r04+x11:L5:K5+og3:N5:O5")),
    (("board 4", "04"),
     ("+1 overlay", "04+2:B2:B1")),
    (("board 4", "04"),
     ("+1 overlay", "04+x11:L5:K5")),
)
FIRST_LOS = {"r05/r02/r04": ("2I4", "2B5"), "04": ("I4", "B5")}


def _cold(mode: str, cache: str) -> None:
    """bench_layout's cold start, and the overlay readers' caches forgotten too."""
    for f in (O._archive, O._image, O._image_size, O._colours, O._board_overlay_rules):
        f.cache_clear()
    bench_layout._cold(mode, cache)


def time_load(text: str, mode: str, cache: str, first: tuple[str, str]) -> float:
    """CPU seconds of this process (all its threads) for one cold load and its first LOS:
    the machine is shared, and CPU time is what other work does not inflate."""
    _cold(mode, cache)
    t0 = time.process_time()
    m = load_map(text)
    los(m, *first)
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--group", type=int, choices=range(len(GROUPS)), default=None,
                    help="only this group (0: three boards, 1: board 4 with ovr2, 2: with x11)")
    args = ap.parse_args(argv)
    if not os.environ.get("HEXWX_VASL_DIR"):
        print("set HEXWX_VASL_DIR to VASL's reference data (boards/, overlays/, "
              "SharedBoardMetadata.xml)", file=sys.stderr)
        return 2
    cache = tempfile.mkdtemp(prefix="hexwx-bench-cache-")   # not the user's cache
    os.environ["HEXWX_CACHE_DIR"] = cache
    try:
        for group in GROUPS if args.group is None else (GROUPS[args.group],):
            first = FIRST_LOS[group[0][1]]
            for mode in ("no cache", "first-ever", "cached"):
                print(f"-- {mode} (CPU time, median of {args.runs}, up to the first LOS)")
                times: dict[str, list[float]] = {what: [] for what, _ in group}
                for _ in range(args.runs):        # round robin: noise hits every case alike
                    for what, text in group:
                        if mode == "cached":
                            time_load(text, "first-ever", cache, first)      # write it once
                        times[what].append(time_load(text, mode, cache, first))
                base = statistics.median(times[group[0][0]])
                print(f"   {group[0][0]:12s} {base * 1000:8.1f} ms")
                for what, _text in group[1:]:
                    t = statistics.median(times[what])
                    n = int(what.split()[0][1:])
                    per = (t / base - 1) / n * 100
                    print(f"   {what:12s} {t * 1000:8.1f} ms  x{t / base:.2f}  {per:+.1f} % per overlay")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
