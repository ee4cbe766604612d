#!/usr/bin/env python3
"""What storing a map already in the map cache costs: the check of its content entry.

    python tools/bench_cache_store.py [--board bd02] [--repeat 20]

Loads ``--board`` into an empty cache folder of its own, then times (best of ``--repeat``)
the full read of the entry -- the whole file and the CRC-32 of every byte, what every load
does -- against the check :func:`hexwx.io.mapcache.store` makes before writing: the entry's
header and length (:func:`hexwx.io.mapcache._whole_by_header`).  Needs ``$HEXWX_VASL_DIR``.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable


def best_ms(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="bd02", help="a VASL board name (default bd02)")
    ap.add_argument("--repeat", type=int, default=20, help="best of this many (default 20)")
    args = ap.parse_args()
    if not os.environ.get("HEXWX_VASL_DIR"):
        print("set HEXWX_VASL_DIR to VASL's reference data", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HEXWX_CACHE_DIR"] = tmp
        from hexwx.io import mapcache
        from hexwx.io.load import load_map
        load_map(args.board)
        entry = max(Path(tmp).glob("*.npy"), key=lambda p: p.stat().st_size)
        ident = {"content": entry.stem, "part": "map"}
        got = mapcache._read(entry, ident)
        if got is None:
            print(f"{entry}: not a content entry", file=sys.stderr)
            return 1
        arrays = got[1]
        full = best_ms(args.repeat, lambda: mapcache._read(entry, ident))
        head = best_ms(args.repeat, lambda: mapcache._whole_by_header(entry, ident, arrays.items()))
        print(f"{args.board}: content entry {entry.stat().st_size / 2 ** 20:.1f} MiB")
        print(f"  read whole and CRC-checked: {full:8.2f} ms")
        print(f"  header and length (store):  {head:8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
