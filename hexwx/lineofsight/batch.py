"""LOS of any list of location pairs at any levels, through the same kernel as :func:`los`.

:func:`los_pairs` answers pairs ``(src, src_level) -> (tgt, tgt_level)`` in one call of the
compiled kernel (shared among the machine's cores), each answer exactly what
:func:`hexwx.lineofsight.engine.los` gives for that pair: blocked, reason and rule, the blocking
hex and pixel, terrain hindrance, and with weather the LV DRM (terrain + LV of 6 or more blocks,
E3.1).  It serves ``los_table`` at levels, ``hexwx los-table --from-level/--to-level/
--all-locations`` and ``hexwx los-batch``.  Levels are locations in the hex (0 ground, 1..N
building levels, N + 1 a rooftop), as ``los(from_level=, to_level=)`` takes them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from hexwx import _native as K
from hexwx.errors import UsageError
from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.bypass import sides_array
from hexwx.lineofsight.entrenchment import check_not_both, flags_array
from hexwx.lineofsight.reasons import LV_BLOCK_REASON, REASONS
from hexwx.lineofsight.state import los_state

#: Reason code of a pair blocked by terrain + LV hindrances (E3.1), beside the kernel's codes.
LV_BLOCKED = -1


@dataclass(frozen=True)
class PairAnswers:
    """Answers for a list of pairs, one entry per pair (arrays of equal length).

    ``reason`` holds kernel reason codes (:data:`hexwx.lineofsight.reasons.REASONS`, 0 clear) or
    :data:`LV_BLOCKED`; ``blocking_hex`` is -1 and ``blocked_at`` (-1, -1) unless the terrain
    blocks; ``lv`` is None without weather; ``src_hexside`` / ``tgt_hexside`` the hexside each
    end is in bypass along (-1: not; None: no end of the list is); ``src_entrenched`` /
    ``tgt_entrenched`` 1 where that end is in an entrenchment (None: no end of the list is).
    """

    src: np.ndarray
    tgt: np.ndarray
    src_level: np.ndarray
    tgt_level: np.ndarray
    src_elevation: np.ndarray
    tgt_elevation: np.ndarray
    range: np.ndarray
    blocked: np.ndarray
    hindrance: np.ndarray
    reason: np.ndarray
    blocking_hex: np.ndarray
    blocked_at: np.ndarray
    lv: np.ndarray | None = None
    src_hexside: np.ndarray | None = None
    tgt_hexside: np.ndarray | None = None
    src_entrenched: np.ndarray | None = None
    tgt_entrenched: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.src)

    def reason_of(self, i: int) -> tuple[str, str | None]:
        """(text, rule) of pair ``i``, the texts :func:`los` gives."""
        code = int(self.reason[i])
        return LV_BLOCK_REASON if code == LV_BLOCKED else REASONS[code]


def hex_ids(m: HexMap, hexes: Sequence[Any] | np.ndarray, what: str = "hex") -> np.ndarray:
    """Hex ids (int64) of hex names or ids; UsageError naming the first that is not on the map."""
    a = np.asarray(hexes)
    if a.dtype.kind in "iu":
        bad = (a < 0) | (a >= len(m))
        if bad.any():
            raise UsageError(f"{what} {int(a[bad][0])} is not a hex id of this map (0-{len(m) - 1})")
        return a.astype(np.int64)
    index = _name_index(m)
    uniq, inverse = np.unique(a.astype(str), return_inverse=True)   # few names, many pairs
    ids = np.empty(len(uniq), np.int64)
    for k, name in enumerate(uniq.tolist()):
        h = index.get(name.strip().upper())
        ids[k] = m.parse(name) if h is None else h     # parse: UsageError naming the hex
    return ids[inverse.reshape(-1)]


def _name_index(m: HexMap) -> dict[str, int]:
    return {n.upper(): i for i, n in enumerate(m.grid.names())}


def check_levels(m: HexMap, hexes: np.ndarray, levels: np.ndarray) -> None:
    """UsageError naming the first location that does not exist (as ``los`` checks it)."""
    top = (m.hexes.levels + m.hexes.rooftop.astype(bool)).astype(np.int64)
    bad = (levels < 0) | (levels > top[hexes])
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        m.check_level(int(hexes[i]), int(levels[i]))   # raises with the same message as los()


def los_pairs(m: HexMap, src: Sequence[Any] | np.ndarray, tgt: Sequence[Any] | np.ndarray,
              src_level: Any = 0, tgt_level: Any = 0, *, weather: Any = None,
              threads: int | None = None, counters: Any = None, src_hexside: Any = None,
              tgt_hexside: Any = None, src_entrenched: Any = None,
              tgt_entrenched: Any = None) -> PairAnswers:
    """LOS from ``src[i]`` at ``src_level[i]`` to ``tgt[i]`` at ``tgt_level[i]`` for every i.

    ``src``/``tgt``: hex names or ids; levels: one number for all pairs or one per pair.
    ``src_hexside``/``tgt_hexside``: that end is in bypass along that hexside (D2.3): None (no
    end), one hexside 0-5 for all pairs, or one per pair (None or -1: not in bypass).
    ``src_entrenched``/``tgt_entrenched``: that end is a unit in an entrenchment at ground
    level (B27.2): None or False (no end), True for all pairs, or one bool per pair.
    Every answer equals ``los(m, src[i], tgt[i], from_level=..., to_level=..., weather=...,
    from_hexside=..., to_hexside=..., from_entrenched=..., to_entrenched=...)`` on blocked, reason, rule, blocking hex and pixel,
    hindrance and LV (units: none, so no winter camouflage) and ``counters``.  Reciprocal like
    :func:`los`.
    """
    st = los_state(m, weather, counters)
    m = st.map
    s = hex_ids(m, src, "source hex")
    t = hex_ids(m, tgt, "target hex")
    if len(s) != len(t):
        raise UsageError(f"{len(s)} sources but {len(t)} targets: give one target per source")
    s_side = sides_array(m, s, src_hexside, "src_hexside")
    t_side = sides_array(m, t, tgt_hexside, "tgt_hexside")
    sl = _levels(src_level, len(s), "source level")
    tl = _levels(tgt_level, len(t), "target level")
    check_levels(m, s, sl)
    check_levels(m, t, tl)
    s_ent = flags_array(len(s), src_entrenched, "src_entrenched", sl, "src_level")
    t_ent = flags_array(len(t), tgt_entrenched, "tgt_entrenched", tl, "tgt_level")
    check_not_both(s_ent, s_side, "src_hexside")
    check_not_both(t_ent, t_side, "tgt_hexside")
    hx = m.hexes
    base = hx.base.astype(np.int64)
    levels = hx.levels.astype(np.int64)
    roof = hx.rooftop.astype(bool)
    s_roof = roof[s] & (sl == levels[s] + 1)
    t_roof = roof[t] & (tl == levels[t] + 1)
    sE, tE = base[s] + sl, base[t] + tl
    res = st.trace_many(s, t, sE, tE, roof_s=s_roof, roof_t=t_roof, where=True, threads=threads,
                        side_s=s_side, side_t=t_side, ent_s=s_ent, ent_t=t_ent)
    reasons, totals, where = res[:3]
    reason = reasons.astype(np.int8)
    blocked = reason != 0
    hindrance = totals.astype(np.int32)
    rng = m.grid.ranges(s, t)
    was = blocked.copy()
    st.add_counters(s, t, sE, tE, blocked, hindrance, st.end_points(s, t, s_side, t_side))
    reason[blocked & ~was] = K.HINDRANCE_SIX
    was = blocked.copy()
    lv = st.add_lv(s, t, sl, blocked, hindrance, rng, tl, res[3] if st.fog is not None else None)
    reason[blocked & ~was] = LV_BLOCKED
    return PairAnswers(s, t, sl, tl, sE, tE, rng, blocked, hindrance, reason,
                       where[:, 0].copy(), where[:, 1:].copy(),
                       None if lv is None else lv.astype(np.int32), s_side, t_side, s_ent, t_ent)


def _levels(levels: Any, n: int, what: str) -> np.ndarray:
    """One level per pair (int64), from one number or a sequence of whole numbers."""
    a = np.asarray(levels)
    ok = a.dtype.kind in "iu" or (a.dtype.kind == "f" and bool(np.all(np.isfinite(a) & (a == np.round(a)))))
    if not ok:
        raise UsageError(f"{what} must be whole numbers, got {a.ravel()[:1].tolist()[0]!r}"
                         if a.size else f"{what} must be whole numbers")
    a = a.astype(np.int64)
    if a.ndim == 0:
        return np.full(n, int(a), np.int64)
    if len(a) != n:
        raise UsageError(f"{len(a)} {what}s for {n} pairs: give one per pair or one for all")
    return a


def locations(m: HexMap, level: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(hex ids, levels) of every location of the map, or of every hex that has ``level``."""
    top = (m.hexes.levels + m.hexes.rooftop.astype(bool)).astype(np.int64)
    if level is not None:
        h = np.flatnonzero((level >= 0) & (level <= top)).astype(np.int64)
        return h, np.full(len(h), int(level), np.int64)
    h = np.repeat(np.arange(len(m), dtype=np.int64), top + 1)
    first = np.cumsum(top + 1) - (top + 1)
    return h, np.arange(len(h), dtype=np.int64) - np.repeat(first, top + 1)
