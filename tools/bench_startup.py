#!/usr/bin/env python3
"""Cold start-up of the command line, measured side by side with ``python -c "import numpy"``.

    python tools/bench_startup.py                 # 9 rounds of: import numpy, hexwx los bd02 I4 P6
    python tools/bench_startup.py --rounds 15 --command "hexwx los maps/hill_village.toml A7 N7"

Each round starts fresh interpreters (the OS file cache and hexwx's .pyc files are warm, as for a
user typing commands; ``PYTHONDONTWRITEBYTECODE`` is dropped for the runs):
``python -c "import numpy"``, ``python -m hexwx --help`` and the LOS command, interleaved so that
load on a shared machine hits all three alike.  Prints each median, the ratios to numpy's median
and the median of the per-round ratios.  Target (issue #11): the LOS command within 1.5x numpy.
Needs ``$HEXWX_VASL_DIR`` for ``bd02``.
"""
from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
#: As a user runs hexwx: Python writes and reuses .pyc files (numpy's come with its install).
#: PYTHONDONTWRITEBYTECODE (set on some CI machines) would recompile hexwx on every start.
#: PYTHONPATH: the hexwx of this checkout.
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT)}


def wall(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - t


def interleaved(runs: dict[str, list[str]], rounds: int) -> dict[str, list[float]]:
    """Wall seconds of each command in a fresh process, ``rounds`` times, interleaved round by
    round so that load on a shared machine hits them alike (after one warm-up run each)."""
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--command", default="hexwx los bd02 I4 P6",
                    help="the hexwx command to time (default: %(default)s)")
    args = ap.parse_args()
    py = sys.executable
    hexwx_args = shlex.split(args.command)[1:]
    runs = {
        "import numpy": [py, "-c", "import numpy"],
        "hexwx --help": [py, "-m", "hexwx", "--help"],
        args.command: [py, "-m", "hexwx", *hexwx_args],
    }
    times = interleaved(runs, args.rounds)
    print(f"{args.rounds} rounds, medians (python {sys.version.split()[0]}):")
    print_medians(times, "import numpy")
    per_round = [c / n for c, n in zip(times[args.command], times["import numpy"])]
    print(f"  median of per-round ratios ({args.command} / import numpy): "
          f"{statistics.median(per_round):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
