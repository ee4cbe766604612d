"""Queries from many threads give exactly the sequential answers (issue #17, item 1).

``los`` and ``viewshed`` keep their scratch per call (a single query's in C, per call, see
``hexwx._native.trace``) and the kernel releases the GIL, so a server or a batch run may call
them from threads.  A tiny switch interval makes the interpreter swap threads
between almost every bytecode, so shared scratch would show up as wrong answers here.
"""
from __future__ import annotations

import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import LosResult, los, los_table, viewshed
from hexwx.weather.asl.state import AslWeather

ROOT = Path(__file__).resolve().parents[2]
THREADS = 8
FOG = AslWeather(fog_level=1, fog_drm=2)
MIST = AslWeather(base="Mist")


@pytest.fixture(autouse=True)
def fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _queries(m: HexMap, count: int, seed: int) -> list[tuple]:
    """Random (from, to, from_level, to_level, weather) queries; levels only where they exist."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        a, b = rnd.randrange(len(m)), rnd.randrange(len(m))
        la = rnd.choice(list(m.levels_at(a)))
        lb = rnd.choice(list(m.levels_at(b)))
        out.append((a, b, la, lb, rnd.choice([None, None, FOG, MIST])))
    return out


def _ask(m: HexMap, q: tuple) -> LosResult | str:
    a, b, la, lb, w = q
    try:
        return los(m, a, b, from_level=la, to_level=lb, weather=w)
    except Exception as exc:  # a wrong answer must show as a difference, not stop the pool
        return f"{type(exc).__name__}: {exc}"


def _threaded(fn, items: list) -> list:
    with ThreadPoolExecutor(THREADS) as ex:
        return list(ex.map(fn, items))


def _compare(seq: list, par: list, label: str) -> None:
    bad = [i for i, (x, y) in enumerate(zip(seq, par)) if x != y]
    assert not bad, f"{label}: {len(bad)} of {len(seq)} answers differ in threads, e.g. " \
                    f"{seq[bad[0]]!r} vs {par[bad[0]]!r}"


@pytest.mark.parametrize("name", ["hill_village", "hedgerow_fields"])
def test_los_in_threads_equals_sequential(name):
    m = load_map(ROOT / "maps" / f"{name}.toml")
    qs = _queries(m, 3000, seed=17)
    seq = [_ask(m, q) for q in qs]
    assert all(isinstance(r, LosResult) for r in seq)
    assert any(r.lv for r in seq) and any(r.hindrance for r in seq) and any(r.blocked for r in seq)
    _compare(seq, _threaded(lambda q: _ask(m, q), qs), name)


def test_viewsheds_of_a_whole_board_in_threads():
    """Every hex's viewshed (and every fourth in fog) from threads; also equal to the all-pairs table."""
    m = load_map(ROOT / "maps" / "hill_village.toml")
    jobs = [(h, None) for h in range(len(m))] + [(h, FOG) for h in range(0, len(m), 4)]

    def ask(job):
        v = viewshed(m, job[0], weather=job[1])
        return v.blocked.tobytes() + v.drm.tobytes()

    seq = [ask(j) for j in jobs]
    _compare(seq, _threaded(ask, jobs), "viewshed")
    t = los_table(m)
    n = len(m)
    blocked = np.zeros((n, n), bool)
    blocked[t.src, t.tgt] = t.blocked
    for h in range(n):
        v = np.frombuffer(seq[h][:n], bool)
        assert (v[np.arange(n) != h] == blocked[h][np.arange(n) != h]).all()


def test_mixed_queries_on_two_maps_at_once():
    """Threads alternating between maps of different sizes (scratch sized per map)."""
    a = load_map(ROOT / "maps" / "hill_village.toml")
    b = load_map(ROOT / "maps" / "hedgerow_fields.toml")
    qs = [(a, q) for q in _queries(a, 800, 3)] + [(b, q) for q in _queries(b, 800, 4)]
    random.Random(5).shuffle(qs)
    seq = [_ask(m, q) for m, q in qs]
    _compare(seq, _threaded(lambda mq: _ask(*mq), qs), "two maps")


def test_reentrant_nested_query():
    """A query started inside another one, between its kernel call and the reading of its
    record (as a callback or a signal handler could): each call has scratch of its own."""
    import hexwx._native as K
    m = load_map(ROOT / "maps" / "hill_village.toml")
    expected = los(m, "J10", "AA6", weather=FOG)
    inner = los(m, "D10", "T5", weather=FOG)
    real = K.trace_record
    nested: list[LosResult] = []

    def record_and_nest(*args, **kw):
        got = real(*args, **kw)
        if not nested:
            nested.append(inner)        # (marks the nesting begun: the inner call nests no more)
            nested.append(los(m, "D10", "T5", weather=FOG))   # while the outer holds `got`
        return got

    K.trace_record = record_and_nest
    try:
        assert los(m, "J10", "AA6", weather=FOG) == expected
    finally:
        K.trace_record = real
    assert nested[1] == inner and nested[1].thread == inner.thread


def _vasl_board(name: str) -> HexMap:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: the VASL board thread check needs VASL's boards")
    path = Path(env) / "boards" / name
    meta = Path(env) / "SharedBoardMetadata.xml"
    if not path.exists() or not meta.exists():
        pytest.skip(f"{path} or {meta} is missing")
    return load_map(path, vasl_metadata=meta)


def test_vasl_board_random_pairs_in_threads():
    m = _vasl_board("bd16")
    qs = _queries(m, 2000, seed=16)
    seq = [_ask(m, q) for q in qs]
    _compare(seq, _threaded(lambda q: _ask(m, q), qs), "bd16")


@pytest.mark.slow
def test_vasl_board_every_pair_in_threads_equals_table():
    """Every ordered pair of bd16 at ground level from threads, against ``los_table``."""
    m = _vasl_board("bd16")
    t = los_table(m)
    pairs = list(zip(t.src.tolist(), t.tgt.tolist()))

    def ask(p):
        r = los(m, *p)
        return r.blocked, r.hindrance

    got = _threaded(ask, pairs)
    assert [g[0] for g in got] == t.blocked.tolist()
    clear = ~t.blocked
    assert np.array([g[1] for g in got])[clear].tolist() == t.hindrance[clear].tolist()
