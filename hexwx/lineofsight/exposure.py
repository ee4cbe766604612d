"""Exposure: for every hex, how many observers have LOS to it (under the weather).

``exposure(m)`` counts, for each hex, the other hexes whose ground-level location sees that
hex's location at ``level`` -- the heat map of where a unit is most in view.  With
``observers`` (e.g. the hexes the enemy holds) only those are counted.  Each pair is answered
by the same kernel and the same weather LV rules as :func:`~hexwx.lineofsight.engine.los`
(terrain + LV of 6 or more blocks, E3.1; no LV inside one building, E3 3.8); a pair counts
when its LOS is not blocked, whatever its hindrance DRM.

Direction: observer -> exposed location (LOS is reciprocal for blocked and terrain hindrance,
DESIGN principle 2; some LV DRMs differ by direction, and this is the observer's view).
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

import numpy as np

from hexwx import _native as K
from hexwx.errors import UsageError
from hexwx.validate import whole
from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.bypass import sides_array
from hexwx.lineofsight.entrenchment import check_not_both, flags_array
from hexwx.lineofsight.locations import end_words
from hexwx.lineofsight.pair_lv import fog_straight
from hexwx.lineofsight.lv import FOG_TOPS
from hexwx.lineofsight.pairs import row_blocks
from hexwx.lineofsight.state import los_state


@dataclass(frozen=True)
class Exposure:
    """Per hex: ``count`` observers see its location at ``level`` (-1 where the hex has no such
    level); ``observers`` the observer hexes (None: every hex of the map); ``seen`` (observers x
    hexes, bool) which observer sees which hex when observers were given;
    ``observer_hexsides`` the hexside each observer is in bypass along (None: not; the field
    None when none is, D2.3) and ``observer_entrenched`` whether each is in an entrenchment
    (None when none is, B27.2)."""

    level: int
    observers: tuple[str, ...] | None
    count: np.ndarray
    n_observers: int
    weather: str
    seen: np.ndarray | None = field(default=None, repr=False, compare=False)
    map: HexMap | None = field(default=None, repr=False, compare=False)
    observer_hexsides: tuple[int | None, ...] | None = None
    observer_entrenched: tuple[bool, ...] | None = None

    @property
    def max(self) -> int:
        return int(self.count.max()) if len(self.count) else 0

    def of(self, hex_name: str) -> int | None:
        """The count of one hex (None where the hex has no location at ``level``)."""
        if self.map is None:
            raise UsageError("this exposure has no map to look hex names up in")
        c = int(self.count[self.map.parse(hex_name)])
        return None if c < 0 else c

    def seen_by(self, hex_name: str) -> list[str]:
        """The observers that see ``hex_name`` (only when observers were given)."""
        if self.map is None or self.seen is None or self.observers is None:
            raise UsageError("seen_by needs an exposure computed with observers")
        h = self.map.parse(hex_name)
        return [o for o, s in zip(self.observers, self.seen[:, h]) if s]

    def to_json(self) -> dict[str, Any]:
        """The counts per hex, with the observers as asked: their hexes and, when any is in
        bypass or in an entrenchment, ``observer_hexsides`` (0-5 or null per observer) and
        ``observer_entrenched`` (a bool per observer)."""
        names = self.map.grid.names() if self.map is not None else [str(i) for i in range(len(self.count))]
        out: dict[str, Any] = {"level": self.level,
                               "observers": list(self.observers) if self.observers else None}
        if self.observer_hexsides is not None:
            out["observer_hexsides"] = list(self.observer_hexsides)
        if self.observer_entrenched is not None:
            out["observer_entrenched"] = list(self.observer_entrenched)
        return {**out, "n_observers": self.n_observers, "weather": self.weather, "max": self.max,
                "hexes": {n: (None if c < 0 else int(c)) for n, c in zip(names, self.count.tolist())}}

    def describe(self, top: int = 10) -> str:
        """Counts in words: the most and least exposed hexes."""
        who = (f"{self.n_observers} observer hexes ({', '.join(self._observer_words())})"
               if self.observers else f"all {self.n_observers} hexes at ground level")
        lines = [f"exposure at level {self.level} to {who} ({self.weather}): max {self.max}"]
        if self.map is None:
            return "\n".join(lines)
        valid = np.flatnonzero(self.count >= 0)
        order = valid[np.lexsort((valid, -self.count[valid]))]
        nm = self.map.name_of
        lines.append("  most seen:  " + " ".join(f"{nm(int(h))}={int(self.count[h])}" for h in order[:top]))
        least = valid[np.lexsort((valid, self.count[valid]))]
        lines.append("  least seen: " + " ".join(f"{nm(int(h))}={int(self.count[h])}" for h in least[:top]))
        return "\n".join(lines)

    def _observer_words(self) -> list[str]:
        """Each observer hex, with "in an entrenchment" / "in bypass SIDE" where it is."""
        return [end_words(o, self.observer_hexsides[k] if self.observer_hexsides else None,
                          bool(self.observer_entrenched and self.observer_entrenched[k]))
                for k, o in enumerate(self.observers or ())]

    def _repr_png_(self) -> bytes | None:
        """The heat map drawn on its map, for notebooks."""
        if self.map is None:
            return None
        from hexwx.render.core import render_map
        return render_map(self.map, exposure=self, scale=0.5).to_png()


def _parse_hexes(m: HexMap, hexes: Iterable[Any]) -> list[int]:
    out: list[int] = []
    for h in hexes:
        if isinstance(h, str):
            out.append(m.parse(h))
        elif isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 0 <= int(h) < len(m):
            out.append(int(h))
        else:
            raise UsageError(f"observer {h!r} is not a hex of this map")
    return list(dict.fromkeys(out))


class GroundPairs(NamedTuple):
    """Every ordered pair of hexes at ground level: ``reasons`` (int8 [n, n], 0 clear) and
    terrain ``hindrance`` (int16 [n, n]) from the kernel, and ``fog_deficit``: per fog top (a
    key of it) the uint8 [n, n] count of hexes the LV of a thread of one hex per range step with
    fog everywhere counts and the pair's thread does not (no ground below the fog top, 3.311;
    255: at least 255); a fog top that is not a key has none (no hex above such fog)."""

    reasons: np.ndarray
    hindrance: np.ndarray
    fog_deficit: Mapping[int, np.ndarray]


_PAIRS: weakref.WeakKeyDictionary[HexMap, GroundPairs] = weakref.WeakKeyDictionary()
_PAIRS_LOCK = threading.Lock()
_COMPUTE_LOCK = threading.Lock()


def _deficit_tops(m: HexMap) -> tuple[int, ...]:
    """The fog tops at which some pair of ``m`` may cross a hex with no fog in it: above the
    lowest ground-level end and no higher than the highest lowest ground of a hex."""
    lo, hi = int(m.hexes.base.min()), int(m.lowest_ground.max())
    return tuple(t for t in FOG_TOPS if lo < t <= hi)


def ground_pairs(m: HexMap, threads: int | None = None) -> GroundPairs:
    """Every ordered pair at ground level (:class:`GroundPairs`), from the parallel all-pairs
    kernel in one walk; computed once per map and kept while it lives (weather LV is applied
    afterwards, so every weather without drifts reuses it, fog of any level and density too).
    ``threads``: kernel threads of the trace (default every CPU; ``hexwx serve`` warms with
    fewer, leaving a CPU for clicks).  An asker with the default who finds a trace on fewer
    threads running waits for it, and the trace takes every CPU from its next block of rows
    on (:data:`TRACE_BLOCKS`)."""
    with _PAIRS_LOCK:
        got = _PAIRS.get(m)
        if got is None and threads is None:
            _HURRY.setdefault(m, threading.Event()).set()
    if got is None:
        with _COMPUTE_LOCK:          # one trace at a time: a second asker waits and reuses it
            with _PAIRS_LOCK:
                got = _PAIRS.get(m)
                hurry = _HURRY.setdefault(m, threading.Event())
            if got is None:
                got = _stored_or_traced(m, threads, hurry)
                with _PAIRS_LOCK:
                    _PAIRS[m] = got
    return got


#: An asker in a hurry for a map's ground pairs (:func:`ground_pairs`): set, the trace running
#: for it on fewer threads takes every CPU from its next block of rows.
_HURRY: weakref.WeakKeyDictionary[HexMap, threading.Event] = weakref.WeakKeyDictionary()

#: Blocks of rows of equal pair counts in which the all-pairs trace is run (on 4 boards, about
#: 70 ms each on one thread): the granularity at which a trace on fewer threads speeds up.
TRACE_BLOCKS = 16


def trace_blocks(n: int, blocks: int = TRACE_BLOCKS) -> list[tuple[int, int]]:
    """Rows [a0, a1) of the all-pairs trace of ``n`` hexes in about ``blocks`` blocks of about
    equal pairs (:func:`hexwx.lineofsight.pairs.row_blocks`)."""
    return row_blocks(n, max(1, -(-n * (n - 1) // 2 // blocks)))


#: Version of the stored ground pairs' layout (the kernel and map code are in the cache key).
_PAIRS_PART = "ground_pairs_v1"


def _stored_or_traced(m: HexMap, threads: int | None, hurry: threading.Event) -> GroundPairs:
    """The ground pairs of ``m`` as :meth:`HexMap.derived` arrays: read from the map's on-disk
    cache when an earlier process traced them (a map loaded through :mod:`hexwx.io.mapcache`),
    else traced now (and stored there), block by block of rows: on ``threads`` threads, on
    every CPU once ``hurry`` is set."""
    tops = _deficit_tops(m)
    traced: list[np.ndarray] = []

    def part(i: int) -> np.ndarray:
        if not traced:            # one walk gives every part
            n = len(m)
            args = (m.kernel_map, m.kernel_terrain, m.hexes.base.astype(np.int64),
                    m.thread_capacity)
            out = None
            for rows in trace_blocks(n):
                out = K.all_pairs_matrix(*args, None if hurry.is_set() else threads, None, tops,
                                         rows=rows, out=out)
            assert out is not None
            traced.extend((out[0], out[1], out[2] if tops else np.zeros((0, n, n), np.uint8)))
        return traced[i]

    tag = "_".join(f"{'m' if t < 0 else 't'}{abs(t)}" for t in tops) or "none"
    reasons = m.derived(f"{_PAIRS_PART}_reasons", lambda: part(0))
    hindrance = m.derived(f"{_PAIRS_PART}_hindrance", lambda: part(1))
    deficits = m.derived(f"{_PAIRS_PART}_fog_{tag}", lambda: part(2))
    # keep only the tops where some thread clears the fog
    deficit = {top: deficits[k] for k, top in enumerate(tops) if deficits[k].any()}
    return GroundPairs(reasons, hindrance, deficit)


def exposure(m: HexMap, *, level: int = 0, observers: Sequence[Any] | None = None,
             weather: Any = None, counters: Any = None,
             observer_hexsides: Any = None, observer_entrenched: Any = None) -> Exposure:
    """For every hex, how many observers (at ground level) have LOS to its location at ``level``.

    ``observers``: hex names or ids (default: every hex of the map); an observer never counts
    its own hex.  Hexes without a location at ``level`` (e.g. level 1 outside buildings) get -1.
    ``counters`` as for :func:`~hexwx.lineofsight.engine.los` (SMOKE, vehicles... hinder, and a
    total of six blocks; rubble changes its hex).  ``observer_hexsides``: with ``observers``,
    one hexside per observer (None or -1: not in bypass) or one for all: that observer is in
    bypass along it and looks from its point (D2.3), as ``los(from_hexside=)``.
    ``observer_entrenched``: with ``observers``, one bool per observer or one for all: that
    observer is a unit in an entrenchment (B27.2), as ``los(from_entrenched=)``.
    """
    level = whole(level, "level", 0)
    st = los_state(m, weather, counters)
    shown, m, fog = m, st.map, st.fog
    n = len(m)
    base = m.hexes.base.astype(np.int64)
    tops = m.hexes.levels.astype(np.int64) + m.hexes.rooftop.astype(np.int64)
    valid = tops >= level
    if not valid.any():
        raise UsageError(f"no hex of this map has a location at level {level}; expected a level "
                         f"from 0 to {int(tops.max())}")
    for given, param in ((observer_hexsides, "observer_hexsides"),
                         (observer_entrenched, "observer_entrenched")):
        if given is not None and observers is None:
            raise UsageError(f"{param} needs observers: give the observer hexes too", param=param)
    obs = np.arange(n, dtype=np.int64) if observers is None else np.asarray(
        _parse_hexes(m, observers), np.int64)
    if observers is not None and len(obs) != len(observers) and \
            (observer_hexsides is not None or observer_entrenched is not None):
        raise UsageError("observers repeat a hex: give each observer hex once with its hexside "
                         "or entrenchment", param="observers")
    o_side = sides_array(m, obs, observer_hexsides, "observer_hexsides")
    o_ent = flags_array(len(obs), observer_entrenched, "observer_entrenched")
    check_not_both(o_ent, o_side, "observer_hexsides")
    plain = o_side is None and o_ent is None      # every observer at its hex's centre, in the open
    cached = _PAIRS.get(m) if level == 0 and plain else None
    if cached is None and level == 0 and m.kept(f"{_PAIRS_PART}_reasons") is not None:
        cached = ground_pairs(m)       # an earlier process traced them: read, not traced
    fog_lv: np.ndarray | None = None      # the kernel's fog LV per pair, when traced here
    deficit: np.ndarray | None = None     # or the cached fog deficit per pair
    # the pairs: observers [k, 1] against targets [1, t], answers [k, t]
    if level == 0 and plain and (observers is None or cached is not None) and \
            (fog is None or fog[1] == 1):
        gp = cached if cached is not None else ground_pairs(m)   # (deficits at whole fog tops: scale 1)
        tg = np.arange(n, dtype=np.int64)
        every = observers is None
        reasons, totals = (gp.reasons, gp.hindrance) if every else (gp.reasons[obs], gp.hindrance[obs])
        if fog is not None and int(fog[0]) in gp.fog_deficit:
            deficit = gp.fog_deficit[int(fog[0])]
            deficit = deficit if every else deficit[obs]
    else:
        tg = np.flatnonzero(valid).astype(np.int64)
        src, tgt = np.repeat(obs, len(tg)), np.tile(tg, len(obs))
        roof_t = (m.hexes.rooftop.astype(bool) & (m.hexes.levels.astype(np.int64) + 1 == level))
        res = st.trace_many(src, tgt, base[src], base[tgt] + level,
                            roof_t=roof_t[tgt].astype(np.int64),
                            side_s=None if o_side is None else np.repeat(o_side, len(tg)),
                            ent_s=None if o_ent is None else np.repeat(o_ent, len(tg)))
        reasons, totals = res[0].reshape(len(obs), len(tg)), res[1].reshape(len(obs), len(tg))
        if fog is not None:
            fog_lv = res[2].reshape(len(obs), len(tg))
    obs_c, tg_r = obs[:, None], tg[None, :]
    blocked = reasons != 0
    if st.counters is not None and blocked.size:
        totals = totals.astype(np.int32)       # (the cached pairs are read-only)
        points = None
        if o_side is not None:       # each observer's point [k, 1], each target's centre [1, t]
            pts = st.end_points(obs, obs, o_side, None)
            assert pts is not None
            g = m.grid
            points = (pts[0][:, None], pts[1][:, None],
                      np.asarray(g.centre_x, np.float64)[tg][None, :],
                      np.asarray(g.centre_y, np.float64)[tg][None, :])
        st.add_counters(obs_c, tg_r, base[obs_c], base[tg_r] + level, blocked, totals, points)
    if weather is not None and blocked.size:
        every = observers is None and len(tg) == n      # the whole matrix, kept per map
        rng = _ranges(m) if every else m.grid.ranges(obs_c, tg_r)
        if fog is not None and fog_lv is None:    # the cached pairs: straight thread - deficit
            fog_lv = fog_straight(fog, base[obs_c], base[tg_r], rng)
            if deficit is not None:
                fog_lv -= deficit.astype(np.int32) * int(fog[2])
                capped = np.nonzero(deficit == 255)   # count not kept: trace those again
                if len(capped[0]):
                    cs, ct = obs[capped[0]], tg[capped[1]]
                    fog_lv[capped] = st.trace_many(cs, ct, base[cs], base[ct])[2]
        st.add_lv(obs_c, tg_r, 0, blocked, totals, rng, level, fog=fog_lv)
    sees = ~blocked & (obs_c != tg_r)
    count = np.full(n, -1, np.int32)
    count[tg] = sees.sum(axis=0, dtype=np.int32)     # (-1: no location at the level)
    seen = None
    if observers is not None:
        seen = np.zeros((len(obs), n), bool)
        seen[:, tg] = sees
    wx = weather.describe() if weather is not None and hasattr(weather, "describe") else "Clear"
    return Exposure(level=level, observers=None if observers is None else tuple(m.grid.names(obs)),
                    count=count, n_observers=len(obs), weather=wx, seen=seen, map=shown,
                    observer_hexsides=None if o_side is None else tuple(
                        None if v < 0 else int(v) for v in o_side.tolist()),
                    observer_entrenched=None if o_ent is None else tuple(
                        bool(v) for v in o_ent.tolist()))


def _ranges(m: HexMap) -> np.ndarray:
    """The range between every two hexes of ``m`` (int16 [n, n]), made once per map and kept
    with it (:meth:`HexMap.derived`)."""
    return m.derived("range_matrix", m.grid.distance_matrix)
