"""The batch kernel's blocks shared out by Python threads (issue #21: the kernel starts no
threads of its own): any number of threads gives the single-thread answers, every block is run
exactly once even when several callers share the helpers, and an error in a block reaches the
caller."""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from hexwx import _native as K
from hexwx.io.load import load_map

MAP = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"


@pytest.fixture(scope="module")
def village():
    return load_map(MAP)


def test_all_pairs_and_trace_many_answer_alike_on_any_number_of_threads(village) -> None:
    m = village
    M, T, cap = m.kernel_map, m.kernel_terrain, m.thread_capacity
    base = m.hexes.base.astype(np.int64)
    fog = K.fog_spec(int(base.min()) + 1, drm=1)
    one = K.all_pairs_matrix(M, T, base, cap, 1, fog, (int(base.min()) + 1,))
    assert one[0].any() and one[1].any()          # some blocked, some hindered pairs
    for threads in (2, 3, 7):
        many = K.all_pairs_matrix(M, T, base, cap, threads, fog, (int(base.min()) + 1,))
        assert all(a.tobytes() == b.tobytes() for a, b in zip(one, many)), threads
    rows1 = K.all_pairs_rows(M, T, base, cap, 40, 90, threads=1, fog=fog)
    rows3 = K.all_pairs_rows(M, T, base, cap, 40, 90, threads=3, fog=fog)
    assert rows1[4] == rows3[4] > 0                # the pixels read add up the same
    assert all(np.array_equal(a, b) for a, b in zip(rows1[:4] + rows1[5:], rows3[:4] + rows3[5:]))
    rng = np.random.default_rng(3)
    s, t = rng.integers(0, len(m), 3000), rng.integers(0, len(m), 3000)
    a = K.trace_many(M, T, s, t, base[s], base[t], cap, where=True, threads=1, fog=fog)
    b = K.trace_many(M, T, s, t, base[s], base[t], cap, where=True, threads=4, fog=fog)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    # and each pair is the single query's
    for i in range(0, 3000, 150):
        r = K.trace(M, T, int(s[i]), int(t[i]), int(base[s[i]]), int(base[t[i]]), fog=fog)
        assert (r[0], r[4], r[5]) == (a[0][i], a[1][i], a[3][i])
        assert r[6] == m.grid.distance(int(s[i]), int(t[i]))


def test_every_block_runs_once_with_concurrent_callers() -> None:
    seen: list[tuple[int, int]] = []
    lock = threading.Lock()

    def run(scratch: K.Scratch, i0: int, i1: int) -> int:
        with lock:
            seen.append((i0, i1))
        return i1 - i0

    totals: list[int] = []

    def caller(k: int) -> None:
        blocks = iter([(1000 * k + i, 1000 * k + i + 1) for i in range(200)])
        totals.append(K._share(run, blocks, 3, 16))

    callers = [threading.Thread(target=caller, args=(k,)) for k in range(4)]
    for c in callers:
        c.start()
    for c in callers:
        c.join()
    assert totals == [200] * 4
    assert sorted(seen) == sorted((1000 * k + i, 1000 * k + i + 1) for k in range(4) for i in range(200))


def test_an_error_in_a_block_reaches_the_caller_and_the_helpers_recover(village) -> None:
    def run(scratch: K.Scratch, i0: int, i1: int) -> int:
        if i0 == 5:
            raise RuntimeError("block 5 failed")
        return 1

    with pytest.raises(RuntimeError, match="block 5 failed"):
        K._share(run, iter([(i, i + 1) for i in range(50)]), 3, 16)
    assert K._share(lambda s, a, b: b - a, iter([(0, 10), (10, 25)]), 3, 16) == 25


def test_an_interrupt_returns_only_when_no_helper_writes_any_more() -> None:
    """Ctrl-C in the calling thread: the caller's arrays are freed when the exception leaves,
    so every helper must have finished its block by then, and no new block starts."""
    import time
    active = [0]
    started: list[int] = []
    lock = threading.Lock()
    caller = threading.get_ident()

    def run(scratch: K.Scratch, i0: int, i1: int) -> int:
        if threading.get_ident() == caller and i0 >= 2:
            raise KeyboardInterrupt
        with lock:
            active[0] += 1
            started.append(i0)
        time.sleep(0.05)
        with lock:
            active[0] -= 1
        return 1

    with pytest.raises(KeyboardInterrupt):
        K._share(run, iter([(i, i + 1) for i in range(200)]), 3, 16)
    assert active[0] == 0
    assert len(started) < 50          # the helpers stopped taking blocks
