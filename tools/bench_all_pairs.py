#!/usr/bin/env python3
"""Benchmark (and check) the all-pairs LOS kernel (issues #15, #16).

    python tools/bench_all_pairs.py                          # bd02 and 02,03/04,05, 1 and 2 threads
    python tools/bench_all_pairs.py --maps bd02 /tmp/b8.toml --runs 3
    python tools/bench_all_pairs.py --dump /tmp/kref         # save every kernel answer ...
    python tools/bench_all_pairs.py --check /tmp/kref        # ... and compare byte for byte later
    python tools/bench_all_pairs.py --against /tmp/old.so    # side by side with another build

Timing: ``all_pairs_matrix`` at ground level with the fog deficit tops of exposure's ground
pairs (exactly the trace of exposure's first heat map), wall time, median of ``--runs``, at each
thread count; with the pixels the walk read per CPU second (one thread).  On a machine shared
with other jobs compare figures measured side by side in one run.

Dump / check (a kernel change must leave every answer alone): per map, ``all_pairs_matrix``
at ground level (fog LV and deficits) and at random location elevations, ``all_pairs_rows`` of
a few row blocks with fog (pixels read included), ``trace_many`` of random locations with
rooftops, blocking pixels and fog, and single traces with the thread, hindrance keys and fog
codes.  ``--against LIB`` loads another build of the kernel (e.g. ``hexwx/_loskernel.c`` of
another commit, compiled with the flags setup.py gives GCC) and alternates runs of the two in
this process: wall and CPU medians, and whether the two answered alike.  Needs
``$HEXWX_VASL_DIR``.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from hexwx import _native as K
from hexwx.io.load import load_map
from hexwx.lineofsight.batch import locations
from hexwx.lineofsight.exposure import _deficit_tops

CHECK_MAPS = ["bd02", "bd04", "02,03/04,05", "01,r02", "r02/04", "maps/hill_village.toml"]


def _key(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)


def answers(m) -> dict[str, np.ndarray]:
    """Every kernel answer the check compares, by name."""
    M, T = m.kernel_map, m.kernel_terrain
    n, maxlen = len(m), m.thread_capacity
    base = m.hexes.base.astype(np.int64)
    lo = int(base.min())
    rng = np.random.default_rng(15)
    out: dict[str, np.ndarray] = {}
    fog1 = K.fog_spec(lo + 1, drm=1)
    r = K.all_pairs_matrix(M, T, base, maxlen, 2, fog1, _deficit_tops(m))
    for i, a in enumerate(r):
        out[f"ground_{i}"] = a
    top = (m.hexes.levels + m.hexes.rooftop.astype(bool)).astype(np.int64)
    elev = base + (rng.integers(0, 3, n) % (top + 1))
    fog2 = K.fog_spec(2 * lo + 3, drm=2, scale=2)
    r = K.all_pairs_matrix(M, T, elev, maxlen, 2, fog2, (lo + 1, lo + 2))
    for i, a in enumerate(r):
        out[f"levels_{i}"] = a
    for a0 in np.linspace(0, n - 6, 4).astype(int):
        r = K.all_pairs_rows(M, T, elev, maxlen, int(a0), int(a0) + 5, 2, fog1)
        for i, a in enumerate(r):
            out[f"rows{a0}_{i}"] = np.asarray(a)
    h, lv = locations(m)
    k = min(20000, len(h) ** 2)
    i, j = rng.integers(0, len(h), k), rng.integers(0, len(h), k)
    s, t, sl, tl = h[i], h[j], lv[i], lv[j]
    tops = m.hexes.levels.astype(np.int64) + 1
    rs = (m.hexes.rooftop[s].astype(bool) & (sl == tops[s])).astype(np.int64)
    rt = (m.hexes.rooftop[t].astype(bool) & (tl == tops[t])).astype(np.int64)
    es, et = base[s] + sl, base[t] + tl
    r = K.trace_many(M, T, s, t, es, et, maxlen, rs, rt, where=True, threads=2, fog=fog1)
    for q, a in enumerate(r):
        out[f"many_{q}"] = a
    single = []
    for q in range(0, k, 40):
        o = K.trace_record(M, T, int(s[q]), int(t[q]), int(es[q]), int(et[q]), int(rs[q]),
                           int(rt[q]), fog2)
        hv, hh, thread, tkeys, fk = o[6:]
        # (reason, blocking x, y, hex, hindrance, hexes of the thread, fog LV) and the record
        head = [*o[:5], len(thread), o[5]]
        single.append(np.array([*head, *hv, *hh, *fk, *thread, *tkeys], np.int64))
    out["single"] = np.concatenate(single)
    return out


def run_check(root: Path, dump: bool, maps: list[str]) -> int:
    bad = 0
    for name in maps:
        m = load_map(name)
        got = answers(m)
        d = root / _key(name)
        if dump:
            d.mkdir(parents=True, exist_ok=True)
            for k, a in got.items():
                np.save(d / f"{k}.npy", a)
            print(f"{name}: dumped {len(got)} arrays")
            continue
        if not d.is_dir():
            print(f"{name}: never dumped ({d} missing)")
            bad += 1
            continue
        diff = []
        for k, a in got.items():
            ref = np.load(d / f"{k}.npy")
            if ref.dtype != a.dtype or ref.shape != a.shape or ref.tobytes() != a.tobytes():
                diff.append(k)
        extra = {p.stem for p in d.glob("*.npy")} - set(got)
        print(f"{name}: {'identical' if not diff and not extra else 'DIFFERENT: ' + ', '.join(diff + sorted(extra))}"
              f" ({len(got)} arrays)")
        bad += bool(diff or extra)
    return 1 if bad else 0


def bench(maps: list[str], threads: list[int], runs: int) -> None:
    for name in maps:
        m = load_map(name)
        M, T = m.kernel_map, m.kernel_terrain
        base = m.hexes.base.astype(np.int64)
        tops = _deficit_tops(m)
        K.all_pairs_rows(M, T, base, m.thread_capacity, 0, 1, threads=1)   # the kernel's copy, untimed
        cells = []
        for th in threads:
            ws = []
            for _ in range(runs):
                t = time.perf_counter()
                K.all_pairs_matrix(M, T, base, m.thread_capacity, th, None, tops)
                ws.append(time.perf_counter() - t)
            cells.append(f"{th} thr {1000 * statistics.median(ws):.0f} ms (min {1000 * min(ws):.0f})")
        n = len(m)
        cpu = vis = 0.0
        for a0 in np.linspace(0, n - 4, 16).astype(int):
            t = time.thread_time()
            r = K.all_pairs_rows(M, T, base, m.thread_capacity, int(a0), int(a0) + 4, threads=1)
            cpu += time.thread_time() - t
            vis += r[4]
        print(f"{name}: {n} hexes, tops {tops}: " + "; ".join(cells) +
              f"; rows {vis / cpu / 1e6:.0f} M px/CPU s; load {os.getloadavg()[0]:.1f}", flush=True)


def _matrix_runner(lib: ctypes.CDLL | None):
    """A function (prepared map, thread capacity, elev, threads, reasons, totals, tops, deficit) running
    all-pairs (ground level, no fog LV) with one build of the kernel: this one (None), another
    of today's interface (``hexwx_all_pairs``, rows shared by Python threads) or one of the
    former interface (``hexwx_all_pairs_matrix`` with its own POSIX threads)."""
    if lib is None or hasattr(lib, "hexwx_all_pairs"):
        fn = K.clib().hexwx_all_pairs
        if lib is not None:
            fn = lib.hexwx_all_pairs
            fn.argtypes, fn.restype = K.clib().hexwx_all_pairs.argtypes, None

        def run(p, maxlen, base, th, r, t, tops, d):
            job = K.matrix_job(p, base, r, t, None, None, tops, d if len(tops) else None)
            K._run_all_pairs(fn, job, maxlen, 0, len(base), th)
        return run
    old = lib.hexwx_all_pairs_matrix
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    old.argtypes = [ctypes.POINTER(K._KMap), i64, ptr, i64, i64, ptr, ptr, ptr, ptr, i64, ptr, ptr,
                    i64, i64]
    old.restype = ctypes.c_int

    def run_old(p, maxlen, base, th, r, t, tops, d):
        old(p.pointer, len(base), base.ctypes.data, maxlen, th, r.ctypes.data, t.ctypes.data,
            None, None, len(tops), tops.ctypes.data if len(tops) else None,
            d.ctypes.data if len(tops) else None, 0, len(base))
    return run_old


def against(maps: list[str], threads: list[int], runs: int, lib: Path) -> None:
    """Alternate all_pairs_matrix runs of this build and of ``lib``; medians and sameness."""
    fns = {"this": _matrix_runner(None), lib.name: _matrix_runner(ctypes.CDLL(str(lib)))}
    for name in maps:
        m = load_map(name)
        base = np.ascontiguousarray(m.hexes.base, np.int64)
        n = len(m)
        tops = np.ascontiguousarray(_deficit_tops(m), np.int64)
        p = K._prepared(m.kernel_map, m.kernel_terrain)
        for th in threads:
            wall: dict[str, list[float]] = {k: [] for k in fns}
            cpu: dict[str, list[float]] = {k: [] for k in fns}
            out: dict[str, bytes] = {}
            for i in range(runs):
                order = list(fns.items()) if i % 2 == 0 else list(fns.items())[::-1]
                for k, f in order:
                    r, t = np.zeros((n, n), np.int8), np.zeros((n, n), np.int16)
                    d = np.zeros((len(tops), n, n), np.uint8)
                    w0, c0 = time.perf_counter(), time.process_time()
                    f(p, m.thread_capacity, base, th, r, t, tops, d)
                    wall[k].append(time.perf_counter() - w0)
                    cpu[k].append(time.process_time() - c0)
                    out[k] = r.tobytes() + t.tobytes() + d.tobytes()
            cells = [f"{k} {1000 * statistics.median(wall[k]):.0f} ms (CPU {1000 * statistics.median(cpu[k]):.0f})"
                     for k in fns]
            ratio = statistics.median(wall[lib.name]) / statistics.median(wall["this"])
            print(f"{name}, {th} thread(s): " + "; ".join(cells) + f"; {ratio:.2f}x; answers "
                  f"{'identical' if out['this'] == out[lib.name] else 'DIFFERENT'}; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--maps", nargs="*", default=None)
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--runs", type=int, default=5)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--dump", type=Path, help="save every answer under this folder")
    g.add_argument("--check", type=Path, help="compare every answer with a --dump folder")
    g.add_argument("--against", type=Path, help="another build of the kernel (.so) to run side by side")
    args = ap.parse_args(argv)
    if not os.environ.get("HEXWX_VASL_DIR"):
        print("set HEXWX_VASL_DIR", file=sys.stderr)
        return 2
    if args.dump or args.check:
        return run_check(args.dump or args.check, bool(args.dump), args.maps or CHECK_MAPS)
    if args.against:
        against(args.maps or ["bd02", "02,03/04,05"], args.threads, args.runs, args.against)
        return 0
    bench(args.maps or ["bd02", "02,03/04,05"], args.threads, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
