"""The single query's kernel entry point, ``_loskernel.trace`` (issue #22, item 4), through
its one caller ``hexwx._native.trace`` / ``trace_record``: bad arguments are refused with a
Python exception naming what was wrong (never read as an address or an index), the record
holds the hindrances, thread and fog codes of the trace, and the walk runs with the GIL
released, so that another thread runs meanwhile."""
from __future__ import annotations

import re
import sys
import threading
import time
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
    ok = (address, xy_len, 3, 40, base[3], base[40], 0, 0, 0, None)
    assert trace(*ok)[6] == village.grid.distance(3, 40)
    n = len(village)

    def bad(i: int, value: object) -> tuple:
        return ok[:i] + (value,) + ok[i + 1:]

    with pytest.raises(TypeError, match="takes 10 arguments"):
        trace(*ok[:9])
    with pytest.raises(TypeError, match="src must be an int"):
        trace(*bad(2, "I4"))
    with pytest.raises(TypeError, match="sE must be an int that fits in 64 bits"):
        trace(*bad(4, 2 ** 70))
    with pytest.raises(TypeError, match="fog must be an int"):
        trace(*bad(9, 1.5))
    with pytest.raises(ValueError, match="kmap and fog must be addresses"):
        trace(*bad(0, 0))
    with pytest.raises(ValueError, match="kmap and fog must be addresses"):
        trace(*bad(9, 0))
    for i, value in ((2, -1), (3, n)):
        with pytest.raises(ValueError, match=rf"hex ids must lie in 0\.\.{n - 1}"):
            trace(*bad(i, value))
    for i, value in ((6, 2), (7, -1), (8, 2), (1, 0), (1, 2 ** 40)):
        with pytest.raises(ValueError, match="must be 0 or 1 and xy_len"):
            trace(*bad(i, value))
    # through the Python boundary, the same refusals
    with pytest.raises(ValueError, match="hex ids must lie in"):
        K.trace(village.kernel_map, village.kernel_terrain, n, 0, 0, 0)
    assert trace(*ok) == K.trace(village.kernel_map, village.kernel_terrain, 3, 40, base[3], base[40])


def test_the_walk_runs_outside_the_gil_in_the_source() -> None:
    """In the module's trace(), the kernel's walk (trace_single) lies between
    Py_BEGIN_ALLOW_THREADS and Py_END_ALLOW_THREADS, and no Python call lies there."""
    source = (Path(K.__file__).parent / "_loskernel.c").read_text()
    body = re.search(r"static PyObject \*py_trace\(.*?\n}\n", source, re.S)
    assert body, "py_trace not found"
    released = re.search(r"Py_BEGIN_ALLOW_THREADS(.*?)Py_END_ALLOW_THREADS", body.group(0), re.S)
    assert released and "trace_single(" in released.group(1)
    assert not re.search(r"\bPy[A-Z_]\w*\(", released.group(1))


def test_a_thread_waiting_for_the_gil_runs_while_the_kernel_walks(village) -> None:
    """The walk gives the GIL up, shown without timing: with a switch interval so long that the
    interpreter never takes the GIL from a running thread, a thread waiting for it can run only
    when the running one gives it up by itself -- which, in a loop of single traces, only the
    kernel's walk does.  So a counting thread, waiting for the GIL before the loop starts,
    counts during one of the traces (and, never giving the GIL back, finishes first); were the
    GIL held in the walk, it could not count before the loop ended."""
    m = village
    M, T, base = m.kernel_map, m.kernel_terrain, m.hexes.base.tolist()
    a, b = 0, len(m) - 1
    K.trace(M, T, a, b, base[a], base[b])           # (the map prepared: nothing left to load)
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
            before = counted[0]
            deadline = time.monotonic() + 10
            while not early and counted[0] == before and time.monotonic() < deadline:
                K.trace(M, T, a, b, base[a], base[b])
            during = counted[0]
            counter.join()
            if not early:
                break
    finally:
        sys.setswitchinterval(old)
    if early:
        pytest.skip("the counting thread got the GIL before the loop in every attempt")
    assert during == 100_000, "no other thread ran while the kernel walked: the GIL was held"


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
