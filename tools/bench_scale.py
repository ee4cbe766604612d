#!/usr/bin/env python3
"""Scale benchmark: maps of 1-16 VASL boards (tools/tile_map.py), fresh processes side by side.

    python tools/bench_scale.py --boards 1 4 8 16 --repeat 3
    python tools/bench_scale.py --boards 1 8 16 --board bd02 --kernel-only  # one board tiled

For each map: ``hexwx los-table MAP -o FILE -q`` wall time and peak RSS (``/usr/bin/time -v``),
``hexwx render MAP -o FILE`` wall / RSS, and the all-pairs kernel in process (pixels read per
second of CPU time, one thread, rows sampled over the map).  Every round also times
``python -c "import numpy"`` (the start-up reference of the 1-board target) right beside the
runs, since the shared machine's speed drifts; medians over the rounds.  The maps tile bd01,
bd02, ... in turn, so their kernel rate mixes boards of different terrain (bd01, the 1-board
map, is among the fastest); ``--board BD`` tiles that one board at every size and so compares
the kernel's speed like for like.  Needs ``$HEXWX_VASL_DIR``.  Prints a Markdown table for
docs/performance.md.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed_rss(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of ``cmd`` under /usr/bin/time -v."""
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
    return wall, kb / 1024


def kernel_rate(path: Path) -> float:
    """Pixels read per CPU second by one kernel thread (rows spread over the map)."""
    code = f"""
import time, numpy as np
from hexwx.io.load import load_map
from hexwx import _native as K
m = load_map({str(path)!r}); M, T = m.kernel_map, m.kernel_terrain
el = m.hexes.base.astype(np.int64); n = len(m); maxlen = 2 * (m.grid.width_px + m.grid.height_px) + 64
K.all_pairs_rows(M, T, el, maxlen, 0, 1, threads=1)   # the kernel's copy of the map, untimed
tot = vis = 0.0
for a0 in np.linspace(0, n - 4, 16).astype(int):
    t = time.thread_time(); r = K.all_pairs_rows(M, T, el, maxlen, int(a0), int(a0) + 4, threads=1)
    tot += time.thread_time() - t; vis += r[4]
print(vis / tot)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    return float(r.stdout.strip())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, nargs="*", default=[1, 4, 8, 16])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-render", action="store_true")
    ap.add_argument("--board", default=None, help="tile this board (e.g. bd02) at every size")
    ap.add_argument("--kernel-only", action="store_true", help="only the kernel's pixels per second")
    args = ap.parse_args()
    if not os.environ.get("HEXWX_VASL_DIR"):
        print("set HEXWX_VASL_DIR", file=sys.stderr)
        return 2
    py = sys.executable
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for n in args.boards:
            mp = Path(d) / f"b{n}.toml"
            subprocess.run([py, str(ROOT / "tools" / "tile_map.py"), str(n), "--cols", str(2 if n == 4 else min(n, 4)),
                            *(["--board", args.board] if args.board else []),
                            "-o", str(mp)], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            res: dict[str, list[float]] = {k: [] for k in ("np", "lt", "lt_rss", "r", "r_rss", "rate")}
            for _ in range(args.repeat):
                if args.kernel_only:
                    res["rate"].append(kernel_rate(mp))
                    continue
                res["np"].append(timed_rss([py, "-c", "import numpy"])[0])
                w, rss = timed_rss([py, "-m", "hexwx", "los-table", str(mp), "-o", f"{d}/t.csv", "-q"])
                res["lt"].append(w)
                res["lt_rss"].append(rss)
                if not args.no_render:
                    w, rss = timed_rss([py, "-m", "hexwx", "render", str(mp), "-o", f"{d}/r.png"])
                    res["r"].append(w)
                    res["r_rss"].append(rss)
                res["rate"].append(kernel_rate(mp))
            med = {k: statistics.median(v) if v else float("nan") for k, v in res.items()}
            rows.append((n, med))
            if args.kernel_only:
                print(f"{n} boards: kernel {med['rate'] / 1e6:.0f} M px/s "
                      f"(all: {[round(x / 1e6) for x in res['rate']]})", flush=True)
                continue
            print(f"{n} boards: los-table {med['lt']:.2f} s / {med['lt_rss']:.0f} MiB "
                  f"(import numpy {med['np']:.2f} s, ratio {med['lt'] / med['np']:.1f}); render "
                  f"{med['r']:.2f} s / {med['r_rss']:.0f} MiB; kernel {med['rate'] / 1e6:.0f} M px/s "
                  f"(all: {[round(x, 2) for x in res['lt']]})", flush=True)
    base = rows[0][1]["rate"]
    if args.kernel_only:
        print("\n| boards | kernel px per CPU s (vs 1st) |\n|---|---|")
        for n, med in rows:
            print(f"| {n} | {med['rate'] / 1e6:.0f} M ({100 * med['rate'] / base:.0f} %) |")
        return 0
    print("\n| boards | `los-table` CLI wall / peak RSS | `import numpy` | render wall / RSS | kernel px/s (vs 1st) |")
    print("|---|---|---|---|---|")
    for n, med in rows:
        print(f"| {n} | {med['lt']:.2f} s / {med['lt_rss']:.0f} MiB | {med['np']:.2f} s | "
              f"{med['r']:.2f} s / {med['r_rss']:.0f} MiB | {med['rate'] / 1e6:.0f} M ({100 * med['rate'] / base:.0f} %) |")
    with open("/proc/loadavg") as f:
        print(f"\nload average at the end: {f.read().split()[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
