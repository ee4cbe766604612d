#!/usr/bin/env python3
"""Cold start-up of the command line, measured side by side with ``python -c "import numpy"``.

    python tools/bench_startup.py                 # 9 rounds: hexwx los bd02 I4 P6, los-table bd02
    python tools/bench_startup.py --rounds 15 --command "hexwx los maps/hill_village.toml A7 N7"

Every run is a fresh interpreter.  Each round runs every case once, in a shuffled order, each
right after its own ``python -c "import numpy"``: the ratio of each pair is measured side by
side, and no case keeps the same slot of a round (on the shared machine, one command timed in
two fixed slots gave medians a third apart).  The cases are ``hexwx --help`` and each
hexwx command three ways, with its own on-disk map cache (hexwx.io.mapcache) in a temporary
folder:

* ``first-ever``: the cache folder emptied before the run -- the first run on a machine, which
  decodes the board, derives every array and writes them to the cache;
* ``cached``: the cache written by an earlier run -- every later run (the usual case);
* ``no cache``: ``HEXWX_NO_CACHE=1`` -- decode and derive, write nothing.

A hexwx command runs as the ``hexwx`` console script does (``from hexwx.cli import main;
sys.exit(main())``, here with ``python -c`` so that it is this checkout's hexwx); ``--module``
runs ``python -m hexwx`` instead (a few milliseconds more: runpy).  The OS file cache and
.pyc files are warm, as for a user typing commands (``PYTHONDONTWRITEBYTECODE`` is dropped).
Prints each case's median, its ratio to the median of its own
numpy runs, and the median of its per-pair ratios (the figure to read on a busy machine).
Targets: ``hexwx los`` within 1.5x numpy (issue #11), a one-board ``los-table`` within 2x
(issue #16).  Needs ``$HEXWX_VASL_DIR`` for ``bd02``.
"""
from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: As a user runs hexwx: Python writes and reuses .pyc files (numpy's come with its install).
#: PYTHONDONTWRITEBYTECODE (set on some CI machines) would recompile hexwx on every start.
#: PYTHONPATH: the hexwx of this checkout.
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT)}
#: ENV without the map cache settings: each run here says which cache it uses.
BASE_ENV = {k: v for k, v in ENV.items() if k not in ("HEXWX_NO_CACHE", "HEXWX_CACHE_DIR")}
#: What the ``hexwx`` console script runs (pip writes it so).
SCRIPT = "import sys; from hexwx.cli import main; sys.exit(main())"
DEFAULT_COMMANDS = ("hexwx los bd02 I4 P6", "hexwx los-table bd02 -o {tmp}/table.csv -q")
MODES = ("first-ever", "cached", "no cache")


def wall(cmd: list[str], env: dict[str, str] = ENV) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t


def interleaved(runs: dict[str, list[str]], rounds: int) -> dict[str, list[float]]:
    """Wall seconds of each command in a fresh process, ``rounds`` times, interleaved round by
    round so that load on a shared machine hits them alike (after one warm-up run each).
    (tools/bench_render.py uses it.)"""
    for cmd in runs.values():  # warm the file cache and the .pyc files once
        wall(cmd)
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(rounds):
        for name, cmd in runs.items():
            times[name].append(wall(cmd))
    return times


def print_medians(times: dict[str, list[float]], base: str, width: int = 34) -> None:
    """One line per command: its median, the ratio to the median of ``base``, min and max."""
    ref = statistics.median(times[base])
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:<{width}} {med * 1000:7.1f} ms   {med / ref:4.2f}x {base:<12} "
              f"(min {min(ts) * 1000:.1f}, max {max(ts) * 1000:.1f})")


def empty(folder: str) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1, help="of the shuffled order (default 1)")
    ap.add_argument("--module", action="store_true",
                    help="run hexwx as `python -m hexwx` (as this tool did before) instead of as "
                         "the console script does")
    ap.add_argument("--command", action="append", default=None,
                    help="a hexwx command to time (repeatable; {tmp} is a temporary folder; "
                         f"default: {' and '.join(DEFAULT_COMMANDS)})")
    args = ap.parse_args()
    py = sys.executable
    run_as = ["-m", "hexwx"] if args.module else ["-c", SCRIPT]
    with tempfile.TemporaryDirectory(prefix="hexwx-bench-") as tmp:
        cache = os.path.join(tmp, "cache")
        env = {**BASE_ENV, "HEXWX_CACHE_DIR": cache}
        runs: dict[str, tuple[list[str], dict[str, str], bool]] = {
            "hexwx --help": ([py, *run_as, "--help"], env, False),
        }
        for c in args.command or DEFAULT_COMMANDS:  # (labelled with "{tmp}", run with the folder)
            argv = [py, *run_as, *shlex.split(c.format(tmp=tmp))[1:]]
            runs[f"{c} [first-ever]"] = (argv, env, True)
            runs[f"{c} [cached]"] = (argv, env, False)
            runs[f"{c} [no cache]"] = (argv, {**env, "HEXWX_NO_CACHE": "1"}, False)
        numpy_cmd = [py, "-c", "import numpy"]
        empty(cache)
        wall(numpy_cmd, env)
        for cmd, e, _ in runs.values():  # warm the OS file cache, the .pyc files and the map cache
            wall(cmd, e)
        rng = random.Random(args.seed)
        times: dict[str, list[float]] = {k: [] for k in runs}
        base: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(args.rounds):
            order = list(runs)
            rng.shuffle(order)
            for name in order:
                cmd, e, first = runs[name]
                base[name].append(wall(numpy_cmd, env))
                if first:
                    empty(cache)  # (and the run writes it again for the cached runs)
                times[name].append(wall(cmd, e))
    numpy_all = [t for ts in base.values() for t in ts]
    width = max(len(k) for k in times)
    where = subprocess.run([py, "-c", "import hexwx; print(hexwx.__file__)"], env=BASE_ENV,
                           capture_output=True, text=True).stdout.strip()
    print(f"hexwx from {where}")
    print(f"{args.rounds} rounds (python {sys.version.split()[0]}; hexwx run as "
          f"{'python -m hexwx' if args.module else 'the console script'}; "
          f"load average {os.getloadavg()[0]:.1f} at the end); medians:")
    print(f"  {'import numpy (every run)':<{width}} {statistics.median(numpy_all) * 1000:7.1f} ms")
    for name, ts in times.items():
        med, nmed = statistics.median(ts), statistics.median(base[name])
        pairs = statistics.median(c / n for c, n in zip(ts, base[name]))
        print(f"  {name:<{width}} {med * 1000:7.1f} ms   {med / nmed:4.2f}x its numpy runs "
              f"({nmed * 1000:.1f} ms)   per-pair median {pairs:4.2f}x   "
              f"(min {min(ts) * 1000:.1f}, max {max(ts) * 1000:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
