"""The single query's kernel entry point, ``_loskernel.trace`` (issue #22, item 4), through
its one caller ``hexwx._native.trace`` / ``trace_record``: bad arguments are refused with a
Python exception naming what was wrong (never read as an address or an index), the record
holds the hindrances, thread and fog codes of the trace, and a long walk runs with the GIL
released, so that another thread runs meanwhile (a short one keeps it:
``_native.GIL_FREE_PIXELS``)."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from hexwx import _loskernel
from hexwx import _native as K
from hexwx.io.load import load_map

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def village():
    return load_map(ROOT / "maps" / "hill_village.toml")


@pytest.fixture(scope="module")
def entry(village):
    """(kernel map address, pixel buffer length, ground level per hex) of the village."""
    m = village
    K.trace(m.kernel_map, m.kernel_terrain, 0, 1, 0, 0)
    p = K._prepared(m.kernel_map, m.kernel_terrain)
    return p.address, p.xy_len, m.hexes.base.tolist()


def test_answers_equal_the_batch_kernel_and_the_record(village) -> None:
    m = village
    M, T = m.kernel_map, m.kernel_terrain
    base = m.hexes.base.astype(np.int64)
    fog = K.fog_spec(int(base.min()) + 2, drm=1)
    rng = np.random.default_rng(8)
    s, t = rng.integers(0, len(m), 400), rng.integers(0, len(m), 400)
    many = K.trace_many(M, T, s, t, base[s], base[t], m.thread_capacity, where=True, fog=fog)
    for i in range(400):
        a, b = int(s[i]), int(t[i])
        v = K.trace(M, T, a, b, int(base[a]), int(base[b]), fog=fog)
        r = K.trace_record(M, T, a, b, int(base[a]), int(base[b]), fog=fog)
        assert (v[0], v[4], v[5]) == (many[0][i], many[1][i], many[3][i])
        assert v[6] == m.grid.distance(a, b)
        hv, hh, thread, keys, fk = r[6:]
        assert len(hv) == len(hh) == len(fk) == v[6] + 1 and len(thread) == len(keys)
        assert r[0] == v[0] and r[5] == v[5]
        if r[0] == K.CLEAR:         # its hindrances add up; a clear thread reaches the target
            assert sum(hv) == r[4] and (a == b or b in thread)
        assert all(0 <= k <= v[6] for k in keys)
    assert K.trace_record(M, T, 3, 40, int(base[3]), int(base[40]))[10] is None   # no fog


def test_bad_arguments_are_refused(village, entry) -> None:
    address, xy_len, base = entry
    trace = _loskernel.trace
    ok = (address, xy_len, K.GIL_FREE_PIXELS, 3, 40, base[3], base[40], 0, 0, -1, -1, 0, None)
    assert trace(*ok)[6] == village.grid.distance(3, 40)
    n = len(village)

    def bad(i: int, value: object) -> tuple:
        return ok[:i] + (value,) + ok[i + 1:]

    with pytest.raises(TypeError, match="takes 13 arguments"):
        trace(*ok[:12])
    with pytest.raises(TypeError, match="src must be an int"):
        trace(*bad(3, "I4"))
    with pytest.raises(TypeError, match="sE must be an int that fits in 64 bits"):
        trace(*bad(5, 2 ** 70))
    with pytest.raises(TypeError, match="fog must be an int"):
        trace(*bad(12, 1.5))
    with pytest.raises(ValueError, match="kmap and fog must be addresses"):
        trace(*bad(0, 0))
    with pytest.raises(ValueError, match="kmap and fog must be addresses"):
        trace(*bad(12, 0))
    for i, value in ((3, -1), (4, n)):
        with pytest.raises(ValueError, match=rf"hex ids must lie in 0\.\.{n - 1}"):
            trace(*bad(i, value))
    for i, value in ((7, 4), (8, -1), (11, 2), (1, 0), (1, 2 ** 40)):
        with pytest.raises(ValueError, match="must be 0..3, detail 0 or 1 and xy_len"):
            trace(*bad(i, value))
    for i, value in ((9, -2), (10, 6)):
        with pytest.raises(ValueError, match="s_side and t_side must be -1..5"):
            trace(*bad(i, value))
    # through the Python boundary, the same refusals
    with pytest.raises(ValueError, match="hex ids must lie in"):
        K.trace(village.kernel_map, village.kernel_terrain, n, 0, 0, 0)
    assert trace(*ok) == K.trace(village.kernel_map, village.kernel_terrain, 3, 40, base[3], base[40])


def _counts_meanwhile(call, limit: int) -> int:
    """How far a thread that waits for the GIL counts while this one makes ``call()`` up to
    ``limit`` times (stopping once it has counted).  The switch interval is made so long that
    the interpreter never takes the GIL from a running thread, so the other thread can run
    only when this one gives the GIL up by itself -- in a loop of traces, only in the kernel:
    without timing, 0 if the calls hold the GIL, 100,000 (it counts to the end, never giving
    the GIL back) if one of them gave it up."""
    counted = [0]
    go = threading.Event()

    def count() -> None:
        go.wait()
        for _ in range(100_000):
            counted[0] += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        for _attempt in range(5):
            counted[0] = 0
            go.clear()
            counter = threading.Thread(target=count)
            counter.start()
            go.set()                     # the counter now waits for the GIL this thread holds
            early = counted[0] != 0      # (it got the GIL before the loop: try again)
            calls = 0
            while not early and counted[0] == 0 and calls < limit:
                call()
                calls += 1
            during = counted[0]
            counter.join()
            if not early:
                return during
    finally:
        sys.setswitchinterval(old)
    pytest.skip("the counting thread got the GIL before the loop in every attempt")


def test_a_long_walk_gives_the_gil_up_and_a_short_one_keeps_it(village, monkeypatch) -> None:
    """Another thread runs while the kernel walks a thread at least ``GIL_FREE_PIXELS`` long;
    a shorter walk keeps the GIL (handing it over would cost more than it gains)."""
    m = village
    M, T, base = m.kernel_map, m.kernel_terrain, m.hexes.base.tolist()
    hx, c = M[3], K.HX_COLUMNS

    def apart(a: int, b: int) -> int:
        return sum(abs(int(hx[a, c.index(k)]) - int(hx[b, c.index(k)])) for k in ("los_x", "los_y"))

    far, near = (0, len(m) - 1), (0, int(m.grid.neighbours[0][m.grid.neighbours[0] >= 0][0]))
    assert apart(*near) < K.GIL_FREE_PIXELS       # the default: a walk to a neighbour keeps it
    for a, b in (far, near):
        K.trace(M, T, a, b, base[a], base[b])      # (the map prepared: nothing left to load)

    def trace(a: int, b: int):
        return lambda: K.trace(M, T, a, b, base[a], base[b])

    assert _counts_meanwhile(trace(*near), 20_000) == 0
    monkeypatch.setattr(K, "GIL_FREE_PIXELS", apart(*far))
    assert _counts_meanwhile(trace(*far), 3_000_000) == 100_000
    assert _counts_meanwhile(trace(*near), 20_000) == 0
    monkeypatch.setattr(K, "GIL_FREE_PIXELS", 0)
    assert _counts_meanwhile(trace(*near), 3_000_000) == 100_000


def test_per_map_facts_go_with_their_map(village) -> None:
    """The plain per-map values the single query reads (``engine._FACTS``) are kept only while
    their map lives: a process that loads map after map does not keep them all."""
    import gc

    from hexwx.hexmap.board import redrawn
    from hexwx.lineofsight import engine
    from hexwx.lineofsight.engine import los

    other = redrawn(village, name="a copy")
    assert los(other, 3, 140) == los(village, 3, 140)
    key = id(other)
    assert engine._FACTS[key][0]() is other
    del other
    gc.collect()
    assert key not in engine._FACTS


def test_a_bypass_hexside_off_the_map_is_refused(village) -> None:
    """trace, trace_record and trace_many take a bypass hexside only where the kernel may read
    its location point: a hexside 0-5 of its hex on the map (_Prepared.bypass_ok)."""
    M, T = village.kernel_map, village.kernel_terrain
    base = village.hexes.base.astype(np.int64)
    edge, side = map(int, np.argwhere(M[4][:, :, 0] == 0)[0])     # a hexside on the map's edge
    inner = int(np.flatnonzero(M[4][:, :, 0].all(axis=1))[0])
    e = (edge, inner, int(base[edge]), int(base[inner]))
    match = "a bypass hexside must be -1 or a hexside 0-5 of its hex on the map"
    for kw in ({"s_side": side}, {"t_side": side}, {"s_side": 6}, {"s_side": -2, "s_ent": 1}):
        args = e if "s_side" in kw else (inner, edge, *e[3:1:-1])
        for fn in (K.trace, K.trace_record):
            with pytest.raises(ValueError, match=match):
                fn(M, T, *args, **kw)
    src, tgt = np.array([inner, edge]), np.array([edge, inner])
    with pytest.raises(ValueError, match=match):
        K.trace_many(M, T, src, tgt, base[src], base[tgt], village.thread_capacity,
                     side_t=np.array([side, -1]))
    ok = K.trace_many(M, T, src, tgt, base[src], base[tgt], village.thread_capacity,
                      side_t=np.array([-1, -1]))
    assert ok[0].tolist() == [K.trace(M, T, inner, edge, *base[[inner, edge]].tolist())[0],
                              K.trace(M, T, edge, inner, *base[[edge, inner]].tolist())[0]]
