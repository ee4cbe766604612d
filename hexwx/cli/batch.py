"""``hexwx batch``: all-pairs LOS tables for maps x source levels x weather states."""
from __future__ import annotations

import argparse
import sys
from typing import Any

_EPILOG = """\
spec (TOML):
  maps = ["bd02", "bd03", "02/04/03", "maps/*.toml"]   board names, layouts, map files, globs
  levels = [0]                                         source levels (0 = ground)
  month = "Oct"                                        needed for rolled weather
  format = "csv"                                       csv | jsonl | parquet
  [[weather]]
  name = "clear"                                       no other key: no weather
  [[weather]]
  name = "fog"
  fog = 0                                              keys as in a scenario's [weather]
  fog_drm = 1
  [[weather]]
  name = "rolled"
  roll = true
  seeds = [1, 2, 3]                                    one state per seed

examples:
  hexwx batch spec.toml -o out/                        local process pool, one job per CPU
  hexwx batch spec.toml -o out/ --jobs 1               in this process
  hexwx batch spec.toml -o out/ --dask local           a Dask LocalCluster
  hexwx batch spec.toml -o out/ --dask tcp://host:8786 an existing Dask scheduler

One file per (map, level, state): DIR/<map>__L<level>__<state>.csv; a rerun skips the files
already there.  See docs/performance.md for throughput and sizing.
"""


def register(subparsers: Any) -> None:
    from hexwx.cli.hex import add_threads_option, positive_int
    p = subparsers.add_parser(
        "batch",
        # (raw text, for the spec's layout in the epilog: the lines are broken here)
        description="Write the all-pairs LOS table of every (map, source level, weather\n"
                    "state) of a batch spec into DIR, one file each; files already there are\n"
                    "skipped.  Runs on a local process pool (default) or on Dask distributed\n"
                    "(--dask).",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", metavar="SPEC", help="batch spec (.toml)")
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="directory for the tables")
    p.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                   help="parallel tasks (default: the CPUs this process may use)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on Dask distributed: a scheduler address, or 'local' for a "
                        "LocalCluster of --jobs workers (needs the 'dask' extra)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    add_threads_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hexwx._native import available_cpus
    from hexwx.errors import DataError
    from hexwx.io.batch import TaskResult, load_spec, run_dask, run_local
    spec = load_spec(args.spec)
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise DataError(f"{out}: is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"{out}: cannot create: {exc.strerror}") from None
    tasks = spec.tasks(out, threads=args.threads)
    total = len(tasks) * len(spec.levels)
    done = [0, 0]

    def report(r: TaskResult) -> None:
        done[0] += len(r.written)
        done[1] += len(r.skipped)
        if not args.quiet:
            print(f"[{done[0] + done[1]}/{total}] {r.map} {r.state}: "
                  f"{len(r.written)} written, {len(r.skipped)} already there", file=sys.stderr)

    jobs = args.jobs or available_cpus()
    if args.dask:
        run_dask(tasks, args.dask, args.jobs, on_done=report)
    else:
        run_local(tasks, jobs, on_done=report)
    if not args.quiet:
        print(f"batch: {done[0]} tables written, {done[1]} already there, in {out}", file=sys.stderr)
    return 0
