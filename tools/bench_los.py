#!/usr/bin/env python3
"""Benchmark the hex LOS engine: map load, single query, all-pairs table, LV overhead.

    python tools/bench_los.py                      # bundled map + VASL boards from $HEXWX_VASL_DIR
    python tools/bench_los.py --boards bd02 bd16 --queries 2000

Targets (issues 2-4): single query <= 100 us median; all pairs of one board <= 1.5 s;
`hexwx los-table` of a VASL board, archive to CSV, <= 2 s wall; LV adds <= 30 % to the table.
VASL's own figures on this kind of machine: 5.6 s for all pairs of bd02, 20 s for bd16.
The LOS kernel is C, built by `pip install -e .`.  Times are medians of 5 runs unless said;
"first table" under weather is the first call for that weather (LV not yet memoised).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los, los_table
from hexwx.lineofsight.pair_lv import _fog_cube, _mist_table, fog_spec  # to time LV before it is memoised
from hexwx.weather.asl.state import AslWeather

VASL_SECONDS = {"bd02": 5.6, "bd16": 20.0}
ROOT = Path(__file__).resolve().parent.parent


def bench_map(path: Path, meta: Path | None, queries: int, weathers: dict) -> None:
    t0 = time.perf_counter()
    m = load_map(path, vasl_metadata=meta)
    m.kernel_map, m.kernel_terrain
    load = time.perf_counter() - t0
    n = len(m)
    rng = np.random.default_rng(7)
    pairs = rng.integers(0, n, size=(queries, 2))
    los(m, int(pairs[0, 0]), int(pairs[0, 1]))  # warm
    times = []
    for a, b in pairs:
        t = time.perf_counter()
        los(m, int(a), int(b))
        times.append(time.perf_counter() - t)
    los_table(m)  # warm
    table = statistics.median(_time(lambda: los_table(m)) for _ in range(5))
    print(f"{path.name}: load {load * 1000:.0f} ms; single los() median {statistics.median(times) * 1e6:.0f} us "
          f"(p90 {np.percentile(times, 90) * 1e6:.0f} us, {queries} random pairs); "
          f"all {n * (n - 1)} pairs {table:.3f} s", end="")
    if path.name in VASL_SECONDS:
        print(f" (VASL {VASL_SECONDS[path.name]} s: {VASL_SECONDS[path.name] / table:.1f}x faster)", end="")
    print()
    # LV overhead: runs with and without weather interleaved (the VM's speed drifts), medians
    runs: dict[str, list[float]] = {"clear": [], **{k: [] for k in weathers}}
    for _ in range(15):
        runs["clear"].append(_time(lambda: los_table(m)))
        for label, w in weathers.items():
            runs[label].append(_time(lambda: los_table(m, weather=w)))
    base = statistics.median(runs["clear"])
    for label, w in weathers.items():
        cold = []
        for _ in range(5):
            fog_spec.cache_clear()
            _fog_cube.cache_clear()
            _mist_table.cache_clear()
            cold.append(_time(lambda: los_table(m, weather=w)))
        warm = statistics.median(runs[label])
        print(f"    with {label}: {warm:.3f} s vs {base:.3f} s clear (+{100 * (warm / base - 1):.0f} %); "
              f"LV not yet memoised {statistics.median(cold):.3f} s "
              f"(+{100 * (statistics.median(cold) / base - 1):.0f} %)")


def bench_cli(path: Path, meta: Path | None) -> float:
    """Wall time of `hexwx los-table MAP -o FILE` in a fresh process."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "hexwx", "los-table", str(path), "-o", f"{d}/t.csv"]
        if meta:
            cmd += ["--vasl-metadata", str(meta)]
        subprocess.run(cmd, check=True)  # warm the compile cache
        t = time.perf_counter()
        subprocess.run(cmd, check=True)
        return time.perf_counter() - t


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", nargs="*", default=["bd02", "bd16"], help="VASL boards to time")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--no-cli", action="store_true", help="skip the fresh-process CLI timing")
    args = ap.parse_args()
    weathers = {"fog at level 0, +1 per hex": AslWeather(fog_level=0, fog_drm=1),
                "mist": AslWeather(base="Mist")}
    maps = [(ROOT / "maps" / "hill_village.toml", None)]
    vasl = Path(os.environ.get("HEXWX_VASL_DIR", ""))
    meta = vasl / "SharedBoardMetadata.xml"
    if os.environ.get("HEXWX_VASL_DIR") and meta.exists():
        maps += [(vasl / "boards" / b, meta) for b in args.boards]
    else:
        print("(HEXWX_VASL_DIR not set: VASL boards skipped)")
    for path, mt in maps:
        bench_map(path, mt, args.queries, weathers)
        if not args.no_cli:
            wall = bench_cli(path, mt)
            print(f"    hexwx los-table {path.name} -o FILE: {wall:.2f} s wall (fresh process, warm cache)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
