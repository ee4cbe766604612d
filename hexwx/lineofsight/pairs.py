"""All pairs of a map in chunks: the all-pairs table streamed in bounded memory.

:func:`los_table_chunks` yields the answers of every ordered pair of distinct hexes at ground
level, a block of rows at a time, while the kernel already traces the next block in the
background (it releases the GIL).  Memory holds one or two chunks plus the map, however many
pairs the map has; :func:`hexwx.lineofsight.engine.los_table` gives the same answers as whole
arrays.

Order of the pairs (the kernel's own, which is reciprocal): for each hex ``a`` in id order and
each ``b > a``, the pair ``(a, b)`` and then ``(b, a)``.  It is the same on every run, whatever
the number of threads.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from hexwx import _native as K
from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.engine import LosTable, level_locations
from hexwx.lineofsight.state import los_state

#: Unordered pairs per chunk (each chunk holds twice as many ordered pairs): a few MiB of
#: kernel output and some tens of MiB of text when written.
CHUNK_PAIRS = 1 << 18


@dataclass(frozen=True)
class TableProgress:
    """How far a streamed table is: ordered pairs done, of ``total``; kernel pixels read."""

    done: int
    total: int
    pixels: int


def row_blocks(n: int, chunk_pairs: int = CHUNK_PAIRS) -> list[tuple[int, int]]:
    """Rows [a0, a1) of about ``chunk_pairs`` unordered pairs each, covering 0..n."""
    blocks: list[tuple[int, int]] = []
    a0 = 0
    while a0 < n:
        a1, count = a0, 0
        while a1 < n and (count == 0 or count + (n - 1 - a1) <= chunk_pairs):
            count += n - 1 - a1
            a1 += 1
        blocks.append((a0, a1))
        a0 = a1
    return blocks


def _pairs_of_rows(n: int, a0: int, a1: int) -> tuple[np.ndarray, np.ndarray]:
    """The (a, b), b > a, of rows [a0, a1) in the kernel's order (int32 arrays)."""
    lengths = n - 1 - np.arange(a0, a1)
    a = np.repeat(np.arange(a0, a1, dtype=np.int32), lengths)
    starts = np.cumsum(lengths) - lengths
    b = np.arange(len(a), dtype=np.int32) - np.repeat(starts, lengths).astype(np.int32) + a + 1
    return a, b


def los_table_chunks(m: HexMap, *, weather: Any = None, threads: int | None = None,
                     chunk_pairs: int = CHUNK_PAIRS, from_level: int | None = None,
                     to_level: int | None = None, all_locations: bool = False,
                     counters: Any = None) -> Iterator[tuple[LosTable, TableProgress]]:
    """Every ordered pair of distinct hexes at ground level, as :class:`LosTable` chunks.

    The answers are those of :func:`~hexwx.lineofsight.engine.los_table` (and so of
    :func:`~hexwx.lineofsight.engine.los` on each pair), in the order described in the module
    docstring.  ``threads``: kernel threads (default: the CPUs of this process's affinity).
    With ``from_level``/``to_level``/``all_locations`` (as for ``los_table``) the pairs of
    locations come in source-location order, a block of sources at a time.  ``counters`` as
    for :func:`~hexwx.lineofsight.engine.los`.
    """
    if all_locations or from_level not in (None, 0) or to_level not in (None, 0):
        yield from _level_chunks(m, weather, from_level, to_level, all_locations, chunk_pairs,
                                 counters)
        return
    st = los_state(m, weather, counters)
    m = st.map
    n = len(m)
    M, T = m.kernel_map, m.kernel_terrain
    elev = m.hexes.base.astype(np.int64)
    maxlen = m.thread_capacity
    total = n * (n - 1)
    blocks = row_blocks(n, chunk_pairs)
    done = pixels = 0
    fog = st.fog

    def run(block: tuple[int, int]) -> _Background:
        return _Background(K.all_pairs_rows, M, T, elev, maxlen, block[0], block[1], threads, fog)

    pending = run(blocks[0]) if blocks else None
    try:
        for i, (a0, a1) in enumerate(blocks):
            assert pending is not None
            fr, ft, rr, rt, seen, *fog_lv = pending.result()
            pending = run(blocks[i + 1]) if i + 1 < len(blocks) else None  # trace on meanwhile
            a, b = _pairs_of_rows(n, a0, a1)
            # interleave (a, b) and (b, a)
            src = np.empty(2 * len(a), np.int32)
            tgt = np.empty_like(src)
            src[0::2], src[1::2] = a, b
            tgt[0::2], tgt[1::2] = b, a
            reason = np.empty(len(src), np.int8)
            reason[0::2], reason[1::2] = fr, rr
            hindrance = np.empty(len(src), np.int32)
            hindrance[0::2], hindrance[1::2] = ft, rt
            rng = m.grid.ranges(src, tgt)
            blocked = reason != 0
            st.add_counters(src, tgt, elev[src], elev[tgt], blocked, hindrance)
            fl = None
            if fog_lv:
                fl = np.empty(len(src), np.int16)
                fl[0::2], fl[1::2] = fog_lv
            lv = st.add_lv(src, tgt, 0, blocked, hindrance, rng, fog=fl)
            done += len(src)
            pixels += seen
            yield LosTable(src, tgt, rng, blocked, hindrance, lv), TableProgress(done, total, pixels)
    finally:
        if pending is not None:   # the consumer stopped early: let the running block finish
            pending.wait()


class _Background:
    """One call run on its own thread while the caller works on (the kernel releases the GIL);
    :meth:`result` waits for it and returns its value or raises its exception.  (A plain thread:
    ``concurrent.futures`` would import ``logging`` into every ``los-table`` start-up.)"""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn, args), name="hexwx-kernel",
                                        daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            self._value = fn(*args)
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc

    def wait(self) -> None:
        self._thread.join()

    def result(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _level_chunks(m: HexMap, weather: Any, from_level: int | None, to_level: int | None,
                  all_locations: bool, chunk_pairs: int,
                  counters: Any = None) -> Iterator[tuple[LosTable, TableProgress]]:
    """The table between locations above the ground, a block of source locations at a time."""
    from hexwx.lineofsight.batch import los_pairs
    sh, sl, th, tl = level_locations(m, from_level, to_level, all_locations)
    per = max(1, (2 * chunk_pairs) // max(len(th), 1))
    total = len(sh) * len(th)
    done = 0
    for i0 in range(0, len(sh), per):
        i, j = np.divmod(np.arange(min(per, len(sh) - i0) * len(th), dtype=np.int64), len(th))
        i += i0
        keep = (sh[i] != th[j]) | (sl[i] != tl[j]) if all_locations else sh[i] != th[j]
        i, j = i[keep], j[keep]
        a = los_pairs(m, sh[i], th[j], sl[i], tl[j], weather=weather, counters=counters)
        done = min(total, done + per * len(th))
        yield (LosTable(a.src, a.tgt, a.range, a.blocked, a.hindrance, a.lv, a.src_level, a.tgt_level),
               TableProgress(done, total, 0))
