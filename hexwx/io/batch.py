"""Batch runs: maps x source levels x weather states -> one all-pairs LOS table per combination.

A batch spec (TOML) lists the maps, the source levels and the weather states::

    maps = ["bd02", "bd03", "02/04/03", "maps/*.toml"]   # board names, layouts, map files, globs
    levels = [0]                                         # source levels (default [0])
    month = "Oct"                                        # for rolled weather
    format = "csv"                                       # csv | jsonl | parquet (default csv)
    [[weather]]
    name = "clear"                                       # no other key: no weather, no lv column
    [[weather]]
    name = "fog"
    fog = 0                                              # keys as in a scenario's [weather]
    fog_drm = 1
    [[weather]]
    name = "rolled"
    roll = true                                          # E3 weather rolled for the month ...
    seeds = [1, 2, 3]                                    # ... once per seed: rolled-s1, rolled-s2, ...

Each (map, level, state) gives ``DIR/<map>__L<level>__<state>.<format>`` (a table of no rows
when no hex of the map has a location at that level), written through a
temporary file and renamed when complete, so a rerun skips the files already there.  The
work is split into one task per (map, state) -- all its levels in one go, the map loaded once --
and run on a local process pool or on Dask distributed (:func:`run_dask`); both give the same
bytes, equal to single ``hexwx los-table`` runs.
"""
from __future__ import annotations

import glob
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexwx.dice import Dice
from hexwx.errors import DataError, UsageError
from hexwx.io.tablewriter import FORMATS, SUFFIX
from hexwx.io.tomlfile import Table, load_toml
from hexwx.weather.asl.state import AslWeather

SPEC_KEYS = ("maps", "levels", "weather", "month", "format", "vasl_metadata", "vasl_dir")
WEATHER_KEYS = ("name", "roll", "seed", "seeds", "base", "fog", "fog_drm", "mist", "overcast",
                "gusty", "mud", "rain", "falling_snow", "heavy", "ground_snow", "deep_snow",
                "extreme_winter", "drifts_in_play", "plowed_roads", "wind", "wind_direction")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclass(frozen=True)
class WeatherState:
    """One named weather state of a batch: None = no weather (no lv column)."""

    name: str
    weather: AslWeather | None


@dataclass(frozen=True)
class BatchTask:
    """One unit of work: every level of one map under one weather state."""

    map: str                 # what load_map takes: a path, board name or layout
    slug: str                # the map's part of the output names
    levels: tuple[int, ...]
    state: WeatherState
    out_dir: str
    fmt: str
    vasl_metadata: str | None = None
    vasl_dir: str | None = None
    threads: int | None = None

    def output(self, level: int) -> Path:
        return Path(self.out_dir) / f"{self.slug}__L{level}__{self.state.name}{SUFFIX[self.fmt]}"

    def pending(self) -> tuple[int, ...]:
        """The levels whose output is not there yet."""
        return tuple(lv for lv in self.levels if not self.output(lv).exists())


@dataclass(frozen=True)
class BatchSpec:
    maps: tuple[tuple[str, str], ...]      # (what to load, slug)
    levels: tuple[int, ...]
    states: tuple[WeatherState, ...]
    fmt: str
    vasl_metadata: str | None
    vasl_dir: str | None

    def tasks(self, out_dir: str | Path, threads: int | None = None) -> list[BatchTask]:
        return [BatchTask(mp, slug, self.levels, st, str(out_dir), self.fmt, self.vasl_metadata,
                          self.vasl_dir, threads)
                for mp, slug in self.maps for st in self.states]


def _slug(text: str) -> str:
    s = Path(text).stem if Path(text).suffix.lower() in (".toml", ".vsav") else Path(text).name
    s = re.sub(r"[^A-Za-z0-9_.+-]+", "-", text if "/" in text and not Path(text).exists() else s)
    return s.strip("-") or "map"


def _maps(t: Table, base: Path) -> tuple[tuple[str, str], ...]:
    items = t.list("maps")
    if not items or not all(isinstance(x, str) and x.strip() for x in items):
        raise t.error("maps", f"expected a list of board names, layouts, map files or globs, got {items!r}")
    out: list[tuple[str, str]] = []
    for item in items:
        if any(c in item for c in "*?["):
            pattern = item if Path(item).is_absolute() else str(base / item)
            found = sorted(glob.glob(pattern))
            if not found:
                raise t.error("maps", f"glob {item!r} matches no file")
            out += [(f, _slug(f)) for f in found]
        else:
            local = base / item
            what = str(local) if not Path(item).is_absolute() and local.exists() else item
            out.append((what, _slug(item)))
    slugs = [s for _, s in out]
    dup = next((s for s in slugs if slugs.count(s) > 1), None)
    if dup is not None:
        raise t.error("maps", f"two maps would write files named {dup!r}; list each map once")
    return tuple(out)


def _states(t: Table, month: str | None) -> tuple[WeatherState, ...]:
    from hexwx.io.scenario import fixed_weather
    from hexwx.weather.asl import charts as C
    from hexwx.weather.asl.rolls import roll_weather
    tables = t.tables("weather", [])
    if not tables:
        return (WeatherState("clear", None),)
    states: list[WeatherState] = []
    for w in tables:
        w.check_keys(WEATHER_KEYS)
        name = w.str("name")
        if not _NAME.match(name):
            raise w.error("name", f"expected a name of letters, digits, _ . + -, got {name!r}")
        if w.bool("roll", False):
            if month is None:
                raise t.error("month", "missing: rolled weather (roll = true) needs the month")
            seeds = w.list("seeds", None)
            if seeds is None:
                seeds = [w.int("seed", 0)]
            if not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
                raise w.error("seeds", f"expected a list of whole numbers, got {seeds!r}")
            for s in seeds:
                try:
                    state, _ = roll_weather(month, Dice(seed=s),
                                            wind=w.str("wind", "none", choices=C.WIND_FORCES),
                                            wind_direction=w.int("wind_direction", None, min=0, max=5))
                except UsageError as exc:
                    raise w.error(None, str(exc)) from None
                states.append(WeatherState(f"{name}-s{s}" if len(seeds) > 1 or "seeds" in w else name,
                                           state))
        elif set(w.keys()) <= {"name"}:
            states.append(WeatherState(name, None))
        else:
            inner = Table({k: v for k, v in w.data.items() if k != "name"}, source=w.source, path=w.path)
            states.append(WeatherState(name, fixed_weather(inner, month)))
    names = [s.name for s in states]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise t.error("weather", f"two weather states are named {dup!r}")
    return tuple(states)


def load_spec(path: str | Path) -> BatchSpec:
    """Read a batch spec; DataError naming the file and key on bad input."""
    from hexwx.weather.asl.state import parse_month
    p = Path(path)
    t = load_toml(p)
    t.check_keys(SPEC_KEYS)
    month_text = t.raw("month", None)
    month = None
    if month_text is not None:
        try:
            month = parse_month(month_text)
        except UsageError as exc:
            raise t.error("month", str(exc)) from None
    levels = t.list("levels", [0])
    if not levels or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in levels):
        raise t.error("levels", f"expected a list of levels (0 ground, 1, 2, ... building levels), got {levels!r}")
    fmt = t.str("format", "csv", choices=FORMATS)
    meta = t.str("vasl_metadata", None)
    vdir = t.str("vasl_dir", None)
    rel = (lambda s: None if s is None else str(s if Path(s).is_absolute() else p.parent / s))
    return BatchSpec(_maps(t, p.parent), tuple(dict.fromkeys(int(x) for x in levels)),
                     _states(t, month), fmt, rel(meta), rel(vdir))


# -- running -----------------------------------------------------------------------------------

#: Seconds to reach a Dask scheduler (``--dask ADDRESS``) before giving up.
DASK_CONNECT_SECONDS = 5

@dataclass(frozen=True)
class TaskResult:
    """What one task did: files written and skipped (already there)."""

    map: str
    state: str
    written: tuple[str, ...]
    skipped: tuple[str, ...]


def run_task(task: BatchTask) -> TaskResult:
    """Write the tables of one (map, state) that are not there yet (the map loaded once)."""
    from hexwx.io.load import load_map
    from hexwx.io.lostable import write_los_table
    todo = task.pending()
    skipped = tuple(str(task.output(lv)) for lv in task.levels if lv not in todo)
    written: list[str] = []
    if todo:
        m = load_map(task.map, vasl_metadata=task.vasl_metadata, vasl_dir=task.vasl_dir)
        for lv in todo:
            out = task.output(lv)
            write_los_table(m, out, weather=task.state.weather, fmt=task.fmt, threads=task.threads,
                            from_level=lv if lv else None, allow_empty=True)
            written.append(str(out))
    return TaskResult(task.map, task.state.name, tuple(written), skipped)


def _threads_each(jobs: int) -> int:
    from hexwx._native import available_cpus
    return max(1, available_cpus() // max(jobs, 1))


def run_local(tasks: list[BatchTask], jobs: int,
              on_done: Callable[[TaskResult], None] | None = None) -> list[TaskResult]:
    """Run the tasks on a pool of ``jobs`` processes (in this process when jobs is 1)."""
    results: list[TaskResult] = []
    tasks = [t for t in tasks if t.pending()] + [t for t in tasks if not t.pending()]
    threads = _threads_each(jobs)
    tasks = [_with_threads(t, threads) for t in tasks]
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            results.append(run_task(t))
            if on_done:
                on_done(results[-1])
        return results
    import multiprocessing as mp
    import os
    from concurrent.futures.process import BrokenProcessPool
    ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_die_with,
                               initargs=(os.getpid(),))
    futures = {pool.submit(run_task, t): t for t in tasks}
    try:
        for f in as_completed(futures):
            try:
                results.append(f.result())
            except BrokenProcessPool:
                unfinished = [futures[g] for g in futures if not g.done() or g.exception()]
                names = "; ".join(f"{t.map} under {t.state.name}" for t in unfinished[:3])
                more = f" and {len(unfinished) - 3} more" if len(unfinished) > 3 else ""
                raise DataError(f"a batch worker process died (killed, or out of memory) while "
                                f"running the jobs {names}{more}; their tables were not "
                                f"written") from None
            if on_done:
                on_done(results[-1])
    except BaseException:
        _stop(pool, tasks)       # an error, a dead worker, Ctrl-C, SIGTERM: nothing left running
        raise
    pool.shutdown()
    return results


def _die_with(parent: int) -> None:
    """In each worker process: exit when the batch's own process is gone, however it ended
    (SIGKILL included), rather than run on holding memory and the output pipes."""
    import os
    import threading
    import time

    def gone() -> bool:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False
        try:                     # (Linux: killed but not yet reaped is gone too)
            with open(f"/proc/{parent}/stat", "rb") as fh:
                stat = fh.read()
            return stat[stat.rindex(b")") + 2:][:1] == b"Z"
        except (OSError, ValueError):
            return False

    def watch() -> None:
        while not gone():
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="hexwx-parent-watch", daemon=True).start()


def _stop(pool: ProcessPoolExecutor, tasks: list[BatchTask]) -> None:
    """Kill the pool's workers, wait for them, and remove the temporary files of the tables
    they were writing (hexwx.outputs: a dead writer's lock is released)."""
    from hexwx.outputs import remove_stale_temporaries
    workers = list(getattr(pool, "_processes", {}).values())   # (no public way to kill them)
    for w in workers:
        w.kill()
    pool.shutdown(wait=True, cancel_futures=True)
    for w in workers:
        w.join(5)
    for t in tasks:
        for lv in t.levels:
            remove_stale_temporaries(t.output(lv), min_age=0)


def _with_threads(t: BatchTask, threads: int) -> BatchTask:
    from dataclasses import replace
    return replace(t, threads=threads if t.threads is None else t.threads)


def run_dask(tasks: list[BatchTask], address: str, jobs: int | None = None,
             on_done: Callable[[TaskResult], None] | None = None,
             cluster_options: dict[str, Any] | None = None) -> list[TaskResult]:
    """Run the tasks on Dask distributed: ``address`` of a scheduler, or ``local`` for a
    :class:`distributed.LocalCluster` of ``jobs`` single-threaded worker processes.  One Dask
    task per (map, state); every worker needs hexwx, the maps and VASL folder at the same paths."""
    try:
        from distributed import Client, LocalCluster, as_completed as dask_completed
    except ImportError:
        raise UsageError(f"address={address!r} needs Dask distributed: pip install 'hexwx[dask]'",
                         param="address") from None
    cluster = None
    if address == "local":
        from hexwx._native import available_cpus
        n = jobs or available_cpus()
        opts = {"n_workers": n, "threads_per_worker": 1, "dashboard_address": None}
        opts.update(cluster_options or {})
        cluster = LocalCluster(**opts)
        client = Client(cluster)
        per = 1 if opts.get("processes", True) else None
    else:
        try:
            client = Client(address, timeout=f"{DASK_CONNECT_SECONDS}s")
        except (OSError, TimeoutError) as exc:
            raise DataError(f"address={address!r}: cannot reach the scheduler: {exc}",
                            param="address") from None
        per = None
    results: list[TaskResult] = []
    try:
        todo = [t if per is None else _with_threads(t, per) for t in tasks]
        futures = client.map(run_task, todo, pure=False)
        for f in dask_completed(futures):
            results.append(f.result())
            if on_done:
                on_done(results[-1])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return results
