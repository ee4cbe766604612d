#!/usr/bin/env python3
"""Units in bypass (D2.3): the cost of a new bypass end, and a dump/check of bypass answers.

    python tools/bench_bypass.py                       # cost of a new bypass end, bd02
    python tools/bench_bypass.py --maps bd02 01,r02 --ends 200
    python tools/bench_bypass.py --dump /tmp/bref      # every single bypass answer of the sample
    python tools/bench_bypass.py --check /tmp/bref     # ... the same answers after a change

Timing: single ``los()`` queries from ends never asked before (a new (hex, hexside) each
query, so whatever a bypass end prepares is paid by every query), against the same pairs from
the hex centres; thread CPU time per query, median of ``--rounds`` rounds.  Every round takes
fresh ends (any bypass cache is emptied first).  Then ``viewshed()`` from a bypass hexside
against the same hex's centre, process CPU time (the kernel shares a viewshed's pairs among
threads).

Dump / check: per map, ``--hexes`` seeded hexes, every hexside of each on the map, ``--targets``
seeded targets each: ``los(from_hexside=)`` and ``los(to_hexside=)`` (with a level where the
hex has one), blocked, reason, blocking hex and pixel, hindrance and the hexes of the thread.
Needs ``$HEXWX_VASL_DIR``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexwx.io.load import load_map  # noqa: E402
from hexwx.lineofsight.engine import los, viewshed  # noqa: E402


def _ends(m, hexes: int, seed: int) -> list[tuple[int, int]]:
    """Seeded (hex, hexside) ends whose hexside is on the map."""
    rng = np.random.default_rng(seed)
    on = m.kernel_map[4][:, :, 0]
    out = []
    for h in rng.choice(len(m), min(hexes, len(m)), replace=False).tolist():
        out += [(h, k) for k in range(6) if on[h, k]]
    return out


def _answer(r) -> list:
    return [bool(r.blocked), r.reason, r.blocking_hex, list(r.blocked_at) if r.blocked_at else None,
            int(r.hindrance), [t.name for t in r.thread], r.source_location, r.target_location]


def _safe(query) -> list:
    """The answer of ``query()``, or the kind of error it raised (kept in the dump too)."""
    try:
        return _answer(query())
    except Exception as exc:  # noqa: BLE001 (a dump records what happened)
        return ["error", type(exc).__name__]


def answers(m, hexes: int, targets: int, seed: int) -> list:
    rng = np.random.default_rng(seed + 1)
    out = []
    for h, k in _ends(m, hexes, seed):
        for t in rng.choice(len(m), targets, replace=False).tolist():
            lv = int(rng.integers(0, 2)) if 1 in m.levels_at(t) else 0
            out.append([h, k, t, lv, _safe(lambda: los(m, h, t, from_hexside=k, to_level=lv)),
                        _safe(lambda: los(m, t, h, to_hexside=k, from_level=lv))])
    return out


def _clear_caches() -> None:
    from hexwx.lineofsight import bypass
    for name in ("_CACHE",):
        cache = getattr(bypass, name, None)
        if cache is not None:
            cache.clear()


def bench(m, n_ends: int, rounds: int, seed: int) -> tuple[float, float]:
    ends = _ends(m, n_ends, seed)[:n_ends]
    rng = np.random.default_rng(seed + 2)
    tg = rng.choice(len(m), len(ends)).tolist()
    pairs = [(h, k, t) for (h, k), t in zip(ends, tg) if t != h]
    for h, _k, t in pairs[:20]:
        los(m, h, t).blocked          # warm: scratch, prepared map
    new, centre = [], []
    for _ in range(rounds):
        _clear_caches()
        t0 = time.thread_time()
        for h, k, t in pairs:
            los(m, h, t, from_hexside=k).blocked
        new.append((time.thread_time() - t0) / len(pairs))
        t0 = time.thread_time()
        for h, _k, t in pairs:
            los(m, h, t).blocked
        centre.append((time.thread_time() - t0) / len(pairs))
    return statistics.median(new), statistics.median(centre)


def bench_viewshed(m, n_ends: int, rounds: int, seed: int) -> tuple[float, float]:
    """Process CPU seconds of one ``viewshed`` from a bypass hexside and from the hex centre."""
    ends = _ends(m, n_ends, seed)[:n_ends]
    viewshed(m, ends[0][0])
    new, centre = [], []
    for _ in range(rounds):
        t0 = time.process_time()
        for h, k in ends:
            viewshed(m, h, from_hexside=k)
        new.append((time.process_time() - t0) / len(ends))
        t0 = time.process_time()
        for h, _k in ends:
            viewshed(m, h)
        centre.append((time.process_time() - t0) / len(ends))
    return statistics.median(new), statistics.median(centre)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--maps", nargs="*", default=["bd02", "01,r02"])
    ap.add_argument("--ends", type=int, default=300, help="bypass ends timed per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hexes", type=int, default=40)
    ap.add_argument("--targets", type=int, default=12)
    ap.add_argument("--seed", type=int, default=11)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--dump")
    g.add_argument("--check")
    args = ap.parse_args()
    bad = 0
    for name in args.maps:
        m = load_map(name)
        if args.dump or args.check:
            got = answers(m, args.hexes, args.targets, args.seed)
            path = Path(args.dump or args.check) / (name.replace("/", "_") + ".json")
            if args.dump:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(got))
                print(f"{name}: dumped {len(got)} bypass pairs")
            else:
                want = json.loads(path.read_text())
                diff = [(w[:4], w[4:], g_[4:]) for w, g_ in zip(want, json.loads(json.dumps(got)))
                        if w != g_]
                bad += len(diff) + (len(want) != len(got))
                print(f"{name}: {len(got)} bypass pairs, {len(diff)} differ")
                for d in diff[:5]:
                    print("   ", d)
            continue
        new, centre = bench(m, args.ends, args.rounds, args.seed)
        print(f"{name}: los() from a new bypass end {new * 1e3:.3f} ms/query, from the hex centre "
              f"{centre * 1e3:.3f} ms/query (a new end costs {(new - centre) * 1e3:.3f} ms more)")
        new, centre = bench_viewshed(m, max(6, args.ends // 25), args.rounds, args.seed)
        print(f"{name}: viewshed() from a bypass hexside {new * 1e3:.2f} ms, from the hex centre "
              f"{centre * 1e3:.2f} ms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
