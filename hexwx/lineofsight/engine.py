"""Line of sight between hex locations, with explanations (DESIGN principle 3).

``los(m, "I4", "B5")`` answers *can this unit see that one, with what DRM, and why*: blocked or
clear, where and by what (pixel, hex, reason, rule), every terrain hindrance and weather LV
hindrance with its hex, DRM and rule, the totals and the range.  Terrain comes from the compiled
pixel-walk kernel (:mod:`hexwx._native`), and so does fog, which depends on the hexes of the
thread: the kernel applies the rule of :func:`hexwx.lineofsight.lv.fog_lv` in the same walk;
the other LV DRMs (mist, rain, falling snow by range, winter camouflage) come from
:mod:`hexwx.lineofsight.lv`.

Batch forms use the same kernel: :func:`los_table` (every ordered pair at ground level) and
:func:`viewshed` (one location to every hex) give exactly the single query's answers.
"""
from __future__ import annotations

import threading
from typing import Any, NamedTuple

import numpy as np

from hexwx import _native as K
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import Hex
from hexwx.errors import UsageError
from hexwx.validate import bad, check_flag, whole
from hexwx.lineofsight.bypass import bypass_point, check_hexside, check_on_map
from hexwx.lineofsight.locations import in_bypass, location_name, terrain_words
from hexwx.lineofsight.lv import FOG_RULES, lv_hindrances, winter_camouflage_note
from hexwx.lineofsight.counter_los import PreparedCounters, hindrances as counter_hindrances
from hexwx.lineofsight.counter_los import weather_notes as counter_weather_notes
from hexwx.lineofsight.pair_lv import check_query, weathered
from hexwx.lineofsight.state import los_state
from hexwx.lineofsight.reasons import LV_BLOCK_REASON, REASONS
from hexwx.lineofsight.results import Hindrance, Later, LosResult, LosTable, ThreadHex, Viewshed
from hexwx.weather.asl.state import AslWeather

#: Reasons that are a rule of the ends or of the DRMs, not a piece of terrain in the way.
_NO_BLOCKING_TERRAIN = frozenset({K.CLEAR, K.HINDRANCE_SIX, K.SAME_HEX})
#: Reasons decided by the ground itself (a hill's crest, higher ground).
_GROUND_REASONS = frozenset({K.GROUND_HIGHER, K.BLIND_CREST})

__all__ = ["LV_BLOCK_REASON", "REASONS", "Hindrance", "LosResult", "LosTable", "Viewshed", "los",
           "los_table", "viewshed", "weathered"]


def _elevation(m: HexMap, h: Hex, level: int, param: str) -> tuple[int, int]:
    if type(level) is int and level == 0:      # every hex has ground level; never a rooftop
        return int(m.hexes.base[h]), 0
    level = m.check_level(h, level, param)
    return m.ground_level(h) + level, int(m.is_rooftop(h, level))


_LOCAL = threading.local()
_POOL_MAX = 4  # idle scratch sets kept per thread and size


def _acquire(m: HexMap) -> K.Scratch:
    """A scratch set for one trace on ``m``, owned by the caller until :func:`_release`.

    Each thread keeps its own pool, and a set leaves the pool while in use, so concurrent
    threads never share one and a nested query (a signal handler, a callback) gets its own:
    ``los`` is thread-safe and re-entrant.
    """
    n = m.thread_capacity
    pools: dict[int, list[K.Scratch]] | None = getattr(_LOCAL, "pools", None)
    if pools is None:
        pools = _LOCAL.pools = {}
    free = pools.get(n)
    if free:
        return free.pop()
    return K.Scratch(n)


def _release(s: K.Scratch) -> None:
    free = _LOCAL.pools.setdefault(s.maxlen, [])
    if len(free) < _POOL_MAX:
        free.append(s)


def _terrain_rule(m: HexMap, code: int) -> str:
    from hexwx.hexmap.terrain import CATALOGUE_TYPES
    name = m.table[code].name
    for t in CATALOGUE_TYPES:
        if t.name == name:
            return t.rule
    return "A6.7"


def blocking_terrain(m: HexMap, reason: int, x: int, y: int) -> tuple[str | None, int | None,
                                                                     float | None]:
    """(terrain in words, ground level, top in levels) of what blocks at pixel (``x``, ``y``)
    for kernel ``reason``: ``("orchard", 0, 1)``, ``("hill", 2, 2)`` for higher ground, a
    half-level obstacle's top ½ above its height; (None, None, None) for a block by a rule
    of the ends or by hindrances."""
    if reason in _NO_BLOCKING_TERRAIN:
        return None, None, None
    t = m.table[int(m.terrain[x, y])]
    g = int(m.elevation[x, y])
    if reason in _GROUND_REASONS or (t.is_plain and t.height == 0):
        return ("hill" if g > 0 else terrain_words(t)), g, float(g)
    return terrain_words(t), g, g + t.height + (0.5 if t.half_level else 0.0)


def los(m: HexMap, a: Hex | str, b: Hex | str, *, from_level: int = 0, to_level: int = 0,
        weather: AslWeather | None = None, target_is_infantry: bool = True,
        target_winter_camouflage: bool = False,
        target_positive_tem: bool | None = None, counters: Any = None,
        from_hexside: int | None = None, to_hexside: int | None = None,
        from_entrenched: bool = False, to_entrenched: bool = False) -> LosResult:
    """LOS from hex ``a`` at ``from_level`` to hex ``b`` at ``to_level`` (0 = ground level).

    ``weather`` is an :class:`~hexwx.weather.asl.state.AslWeather` (or None for Clear); its LV
    hindrances (fog, mist, rain, falling snow, winter camouflage) are added to the answer,
    terrain plus LV hindrances of 6 or more block (E3.1: LV is treated like a LOS hindrance),
    and drift hexsides act as hedges (E3 3.752).  ``target_winter_camouflage``: the target has
    Winter Camouflage (3.712); its +1 yields to a positive TEM, which ``target_positive_tem``
    states or, when None, the target Location's terrain gives (:mod:`hexwx.lineofsight.tem`).
    ``counters``: the :class:`~hexwx.lineofsight.counters.Counters` on the map (or a list of
    them / of ``"NAME@HEX[:LEVEL]"``; None = the bare map): SMOKE, Blazes, vehicles, wrecks and
    OBA are hindrances in ``hindrance`` and ``hindrances``, rubble changes its hex's terrain
    (:mod:`hexwx.lineofsight.counter_los`).  ``from_hexside`` / ``to_hexside`` (0-5): that end
    is in bypass along that hexside of its hex and its LOS is traced from the hexside's point
    (D2.3, :mod:`hexwx.lineofsight.bypass`).  ``from_entrenched`` / ``to_entrenched``: that
    end is a unit in an entrenchment (foxholes, trench, A-T ditch; at ground level): hexside
    terrain on the thread blocks its LOS to and from a non-adjacent unit at its elevation or
    lower (B27.2), and it sees over no hillock next to it (F6.4).
    Reciprocal: ``los(m, a, b)`` and ``los(m, b, a)`` agree on blocked and terrain hindrance.
    """
    check_query(m, weather)
    check_flag(target_is_infantry, "target_is_infantry")
    check_flag(target_winter_camouflage, "target_winter_camouflage")
    if target_positive_tem is not None:
        check_flag(target_positive_tem, "target_positive_tem")
    check_flag(from_entrenched, "from_entrenched")
    check_flag(to_entrenched, "to_entrenched")
    s_side = check_hexside(from_hexside, "from_hexside")
    t_side = check_hexside(to_hexside, "to_hexside")
    shown = m
    prep = fog = None
    if counters is not None or weather is not None:
        st = los_state(m, weather, counters)
        m, prep, fog = st.map, st.counters, st.fog
    src, tgt = m.hex(a, "a"), m.hex(b, "b")
    sE, s_roof = _elevation(m, src, from_level, "from_level")
    tE, t_roof = _elevation(m, tgt, to_level, "to_level")
    bypass = _bypass_ends(m, (src, s_side, "from_hexside"), (tgt, t_side, "to_hexside"))
    M = m.kernel_map
    R = m.grid.distance(src, tgt)
    for ent, level, param in ((from_entrenched, from_level, "from_level"),
                              (to_entrenched, to_level, "to_level")):
        if ent and int(level) != 0:
            raise bad(param, level, "0: a unit in an entrenchment is at its hex's ground level "
                                    "(B27)")
    ends = _Ends(src, tgt, sE, tE, s_roof, t_roof, -1 if s_side is None else s_side,
                 -1 if t_side is None else t_side, int(from_entrenched), int(to_entrenched))
    hind: Later | list[Hindrance]
    thread: Later | tuple[ThreadHex, ...]
    prep, pre, items = _counters_at_stake(m, M, ends, prep, bool(bypass), weather is None)
    if weather is None and prep is None:
        # the verdict and total only; the thread and hindrance list are traced again when read
        reason, bx, by, bhex, terrain_total = pre or _verdict(m, M, ends)
        walk = _Walk(m, M, ends, R)
        hind, thread = walk.later_hindrances(items), walk.later_thread()
    else:
        (reason, bx, by, bhex, terrain_total), packed, drms, ids, keys, fog_codes = \
            _record(m, M, ends, R, fog)
        hind = _later_terrain_hindrances(m, packed, drms)
        thread = () if weather is not None else _later_thread(m, ends, R, ids, keys)  # (weather: below)
    name = m.name_of
    blocked = reason != K.CLEAR
    text, rule = REASONS[reason]
    if prep is not None and not blocked:
        items = counter_hindrances(prep, src, tgt, sE, tE, [src, tgt, *ids],
                                   points=_points(m, src, s_side, tgt, t_side) if bypass else None)
        if items:
            hind = _later_terrain_hindrances(m, packed, drms, items)
    if items:
        terrain_total += sum(h.drm for h in items)
        if terrain_total >= 6:
            blocked = True
            text, rule = REASONS[K.HINDRANCE_SIX]
    lv_total = 0
    notes: list[str] = []
    if weather is not None:
        notes += counter_weather_notes(shown, counters, weather)   # SMOKE left out (E3.53, E3.734)
        th, names, keys = _thread(m, ends, R, ids, keys)
        thread = tuple(th)
        if target_winter_camouflage:
            note, tem = _camouflage(m, weather, tgt, int(to_level), R, target_is_infantry,
                                    target_positive_tem)
            target_positive_tem = tem
            notes.append(note)
        fog_items = None if fog is None or fog_codes is None else _kernel_fog(
            fog.tolist(), names, keys, fog_codes, sE)
        lv_items = _lv(m, weather, src, tgt, sE, tE, R, th, target_is_infantry,
                       target_winter_camouflage, bool(target_positive_tem), fog_items)
        lv_total = sum(h.drm for h in lv_items)
        if lv_items:
            hind = [*(hind.make() if isinstance(hind, Later) else hind), *lv_items]
    if not blocked and terrain_total + lv_total >= 6 and lv_total > 0:
        blocked = True
        text, rule = LV_BLOCK_REASON
    what, ground, top = _later_blocking(m, reason, bx, by)
    traced_block = reason != K.CLEAR
    from_level, to_level = int(from_level), int(to_level)
    return LosResult(
        source=name(src), target=name(tgt), source_level=from_level, target_level=to_level,
        range=R, blocked=blocked, reason=text, rule=rule,
        blocked_at=(bx, by) if traced_block else None,
        blocking_hex=name(bhex) if traced_block and bhex >= 0 else None,
        hindrance=terrain_total, lv=lv_total,
        hindrances=hind if isinstance(hind, Later) else tuple(hind),
        thread=thread, map=m, source_elevation=sE, target_elevation=tE,
        source_location=in_bypass(_entrenched(location_name(m, src, from_level),
                                              from_entrenched), s_side),
        target_location=in_bypass(_entrenched(location_name(m, tgt, to_level), to_entrenched),
                                  t_side),
        blocking_terrain=what, blocking_ground=ground, blocking_top=top, notes=tuple(notes),
        weather=weather)


class _Ends(NamedTuple):
    """The two ends of one trace: hex ids, elevations, whether each is a rooftop, the hexside
    each is in bypass along (-1: none; D2.3) and whether each is in an entrenchment (B27.2)."""

    src: int
    tgt: int
    sE: int
    tE: int
    s_roof: int
    t_roof: int
    s_side: int = -1
    t_side: int = -1
    s_ent: int = 0
    t_ent: int = 0

    def trace(self, m: HexMap, M: K.KernelArrays, scratch: K.Scratch, detail: int,
              fog: np.ndarray | None = None) -> K.Traced:
        """The kernel's trace of these ends on ``M`` (:func:`hexwx._native.trace`)."""
        return K.trace(M, m.kernel_terrain, *self[:6], scratch, detail, fog, self.s_side,
                       self.t_side, s_ent=self.s_ent, t_ent=self.t_ent)


def _counters_at_stake(m: HexMap, M: K.KernelArrays, e: _Ends, prep: PreparedCounters | None,
                       bypass: bool, clear_weather: bool
                       ) -> tuple[PreparedCounters | None, tuple[int, int, int, int, int] | None,
                                  list[Hindrance]]:
    """(``prep``, or None when this query needs no record for the counters; the verdict when
    traced to learn it; the counters' hindrances when known without the record).  Counters
    add hindrances only to a clear LOS that meets an effect: a LOS the map (rubble drawn)
    blocks gets the bare answer on that map; a clear one from hex centres gets the effects its
    segment meets (:func:`counter_hindrances` without a thread: the effects
    :meth:`PreparedCounters.meet_effects` holds, none when it passes every effect by).
    Bypass ends and weather keep the recording path."""
    if prep is None or not clear_weather:
        return prep, None, []
    pre = _verdict(m, M, e)
    if pre[0] != K.CLEAR:
        return None, pre, []
    if bypass:
        return prep, None, []
    return None, pre, counter_hindrances(prep, e.src, e.tgt, e.sE, e.tE, None)


def _verdict(m: HexMap, M: K.KernelArrays, e: _Ends) -> tuple[int, int, int, int, int]:
    """(reason, blocking pixel x and y, blocking hex, terrain hindrance total) of one trace
    without recording its thread: the cheapest kernel call."""
    scratch = _acquire(m)
    try:
        t = e.trace(m, M, scratch, 0)
    finally:
        _release(scratch)
    return t[:5]


def _record(m: HexMap, M: K.KernelArrays, e: _Ends, R: int, fog: np.ndarray | None) -> tuple[
        tuple[int, int, int, int, int], list[int], list[int], list[int], list[int], list[int] | None]:
    """One trace with its record: the verdict (as :func:`_verdict`), the terrain hindrances per
    range key (``hex * 256 + terrain code``, DRM), the hexes of the thread in order and their
    range keys, and (with ``fog``) each key's fog code."""
    scratch = _acquire(m)
    try:
        t = e.trace(m, M, scratch, 1, fog)
        hv = scratch.hv[:R + 1]
        at = np.flatnonzero(hv)
        drms = hv[at].tolist()
        packed = scratch.hh[at].tolist()
        ids = scratch.thread[:t.n_thread].tolist()
        keys = scratch.tkeys[:t.n_thread].tolist()
        fog_codes = scratch.fk[:R + 1].tolist() if fog is not None else None
    finally:
        _release(scratch)
    return t[:5], packed, drms, ids, keys, fog_codes


class _Walk:
    """The record of a clear-weather trace, made (by tracing again) when a result's thread or
    hindrance list is first read: most queries only ask the verdict and the DRM."""

    __slots__ = ("m", "M", "ends", "R", "_rec")

    def __init__(self, m: HexMap, M: K.KernelArrays, ends: _Ends, R: int) -> None:
        self.m, self.M, self.ends, self.R = m, M, ends, R
        self._rec: tuple[Any, ...] | None = None

    def _record(self) -> tuple[Any, ...]:
        if self._rec is None:
            self._rec = _record(self.m, self.M, self.ends, self.R, None)
        return self._rec

    def later_hindrances(self, counters: list[Hindrance] | None = None) -> Later:
        """The terrain hindrances (then the ``counters``' ones), made when first read."""
        if counters:
            return Later(lambda: (*_terrain_hindrances(self.m, *self._record()[1:3]),
                                  *counters))
        return Later(lambda: _terrain_hindrances(self.m, *self._record()[1:3]))

    def later_thread(self) -> Later:
        return Later(lambda: tuple(_thread(self.m, self.ends, self.R, *self._record()[3:5])[0]))


def _terrain_hindrances(m: HexMap, packed: list[int], drms: list[int]) -> tuple[Hindrance, ...]:
    """The terrain hindrances the kernel left per range key: ``hex * 256 + terrain code``
    and the DRM (A6.7)."""
    out = []
    for p, drm in zip(packed, drms):
        hx, code = divmod(p, 256)
        out.append(Hindrance(m.name_of(hx), drm, m.table[code].name.lower(), _terrain_rule(m, code)))
    return tuple(out)


def _later_blocking(m: HexMap, reason: int, x: int, y: int) -> tuple[Later | None, ...]:
    """:func:`blocking_terrain`'s three answers, made together when one is first read."""
    if reason in _NO_BLOCKING_TERRAIN:
        return None, None, None
    made: list[tuple[str | None, int | None, float | None]] = []

    def part(i: int) -> Any:
        if not made:
            made.append(blocking_terrain(m, reason, x, y))
        return made[0][i]
    return Later(lambda: part(0)), Later(lambda: part(1)), Later(lambda: part(2))


def _later_terrain_hindrances(m: HexMap, packed: list[int], drms: list[int],
                              counters: list[Hindrance] | None = None) -> Later:
    """The terrain hindrances (then the ``counters``' ones), made when first read."""
    if counters:
        return Later(lambda: (*_terrain_hindrances(m, packed, drms), *counters))
    return Later(lambda: _terrain_hindrances(m, packed, drms))


def _later_thread(m: HexMap, ends: _Ends, R: int, ids: list[int], keys: list[int]) -> Later:
    return Later(lambda: tuple(_thread(m, ends, R, ids, keys)[0]))


def _thread(m: HexMap, ends: _Ends, R: int, ids: list[int],
            keys: list[int]) -> tuple[list[ThreadHex], list[str], list[int]]:
    """The hexes of the thread (the source first), their names and range keys, from the
    kernel's hexes entered in order and their keys."""
    src, tgt = ends.src, ends.tgt
    canon = src > tgt
    # the hexes of one key (a hexspine pair, a grazed corner) share its ranges
    names = m.grid.names(ids)
    th = [ThreadHex(nm, R - k if canon else k, k if canon else R - k, gr, k, lo)
          for nm, gr, k, lo in zip(names, m.hexes.base[ids].tolist(), keys,
                                   m.lowest_ground[ids].tolist())]
    if not th or th[0].rs != 0:
        th.insert(0, ThreadHex(m.name_of(src), 0, R, m.ground_level(src), R if canon else 0,
                               int(m.lowest_ground[src])))
        names, keys = [th[0].name, *names], [th[0].key, *keys]
    return th, names, keys


def _bypass_ends(m: HexMap, *ends: tuple[int, int | None, str]) -> tuple[tuple[int, int], ...]:
    """The (hex, hexside) of the ends in bypass; UsageError naming the parameter when that
    hexside is off the map (a unit cannot bypass along the map's edge there)."""
    out = []
    for h, side, param in ends:
        if side is None:
            continue
        check_on_map(m.kernel_map, m.name_of, h, side, param)
        out.append((h, side))
    return tuple(out)


def _entrenched(location: str, entrenched: bool) -> str:
    """A Location's words, with "in an entrenchment" when the end is in one (B27)."""
    return f"{location} in an entrenchment" if entrenched else location


def _points(m: HexMap, src: int, s_side: int | None, tgt: int, t_side: int | None
            ) -> tuple[float, float, float, float]:
    """The two ends' LOS points (x0, y0, x1, y1): a hexside's point in bypass, else the centre."""
    g = m.grid
    def one(h: int, side: int | None) -> tuple[float, float]:
        if side is None:
            return float(g.centre_x[h]), float(g.centre_y[h])
        x, y = bypass_point(m.kernel_map, h, side)
        return float(x), float(y)
    return (*one(src, s_side), *one(tgt, t_side))


def _camouflage(m: HexMap, weather: AslWeather, tgt: int, level: int, R: int, infantry: bool,
                positive_tem: bool | None) -> tuple[str, bool]:
    """(why winter camouflage did or did not count, in words; whether the target has a positive
    TEM) for a winter-camouflaged target (E3.712): the TEM as given, else its Location's."""
    from hexwx.lineofsight.tem import location_tem
    if positive_tem is None:
        tem = location_tem(m, tgt, level, infantry=infantry)
        where = terrain_words(m.terrain_of(tgt))
    else:
        tem, where = ((1, None) if positive_tem else (0, None)), ""
    note = winter_camouflage_note(weather, R, target_is_infantry=infantry,
                                  target_winter_camouflage=True, target_tem=tem,
                                  tem_terrain=where)
    return note or "", tem[0] > 0


def _lv(m: HexMap, weather: AslWeather, src: int, tgt: int, sE: int, tE: int, R: int,
        thread: list[ThreadHex], infantry: bool, camo: bool, tem: bool,
        fog: list[Hindrance] | None) -> list[Hindrance]:
    return lv_hindrances(weather, thread=thread, source_elevation=sE, target_elevation=tE,
                          range=R, target_is_infantry=infantry, target_positive_tem=tem,
                          target_winter_camouflage=camo,
                          same_building=bool(m.building_ids[src] >= 0
                                             and m.building_ids[src] == m.building_ids[tgt]),
                          same_location=src == tgt and sE == tE, fog=fog)


def _kernel_fog(fog: list[int], names: list[str], keys: list[int],
                codes: list[int], sE: int) -> list[Hindrance]:
    """The fog hindrances of a single query from the kernel's fog code per range key: one per
    key that holds hindering fog, naming the key's hexes (``names`` of the thread in order,
    ``keys`` their range keys: a hexspine pair, a grazed corner count once), then firing out
    of fog (A24.8) -- :func:`lv.fog_lv`'s answer.  ``fog``: [top, scale, DRM] (the spec)."""
    top, d, drm = fog
    groups: dict[int, list[str]] = {}
    for name, k in zip(names, keys):
        # keys run 0..range: the kernel keys every hex between the ends (from a bypass
        # hexside the walk may graze a hex beside its own, further than the range: no fog key)
        if k < len(codes) and codes[k]:
            at = groups.get(k)
            if at is None:
                groups[k] = [name]
            else:
                at.append(name)
    out = [_hindrance(names_[0] if len(names_) == 1 else "/".join(names_), drm, "fog",
                      FOG_RULES[codes[k]]) for k, names_ in groups.items()]
    if sE * d < top:
        out.append(_hindrance(names[0], 1, "firing out of fog", "A24.8"))
    return out


def _hindrance(hexes: str, drm: int, kind: str, rule: str) -> Hindrance:
    """The (frozen, shared) hindrance of ``hexes``: fogged queries name the same hexes again
    and again.  A plain dict per (DRM, kind, rule) is cheaper on this hot path than an
    ``lru_cache`` of four arguments; each is emptied when big."""
    table = _HINDRANCES.get((drm, kind, rule))
    if table is None:
        table = _HINDRANCES[(drm, kind, rule)] = {}
    got = table.get(hexes)
    if got is None:
        if len(table) >= 20_000:
            table.clear()
        got = table[hexes] = Hindrance(hexes, drm, kind, rule)
    return got


_HINDRANCES: dict[tuple[int, str, str], dict[str, Hindrance]] = {}


def viewshed(m: HexMap, a: Hex | str, *, level: int = 0, weather: AslWeather | None = None,
             counters: Any = None, from_hexside: int | None = None) -> Viewshed:
    """LOS from ``a`` at ``level`` (a building level or rooftop too) to the ground level of every
    hex of the map: for every hex the answer of ``los(m, a, hex, from_level=level,
    counters=counters, from_hexside=from_hexside)``.  ``from_hexside`` (0-5): the viewer is in
    bypass along that hexside of ``a`` and sees from its point (D2.3)."""
    check_query(m, weather)
    side = check_hexside(from_hexside, "from_hexside")
    st = los_state(m, weather, counters)
    m = st.map
    src = m.hex(a, "a")
    sE, s_roof = _elevation(m, src, level, "level")
    _bypass_ends(m, (src, side, "from_hexside"))
    n = len(m)
    tgts = np.arange(n, dtype=np.int64)
    srcs = np.full(n, src, np.int64)
    es = np.full(n, sE, np.int64)
    et = m.hexes.base.astype(np.int64)
    sides = None if side is None else np.full(n, side, np.int64)
    res = st.trace_many(srcs, tgts, es, et, roof_s=np.full(n, s_roof, np.int64), side_s=sides)
    reasons, totals = res[0], res[1]
    blocked = reasons != 0
    drm = totals.astype(np.int32)
    rng = m.grid.distances_from(src)
    st.add_counters(srcs, tgts, es, et, blocked, drm, st.end_points(srcs, tgts, sides, None))
    lv = st.add_lv(srcs, tgts, level, blocked, drm, rng, fog=res[2] if st.fog is not None else None)
    if lv is not None:
        drm = drm + lv
    return Viewshed(m.name_of(src), level, blocked, drm, rng, map=st.shown, weather=weather,
                    hexside=side, notes=counter_weather_notes(st.shown, counters, weather))


def los_table(m: HexMap, *, weather: AslWeather | None = None, from_level: int | None = None,
              to_level: int | None = None, all_locations: bool = False,
              threads: int | None = None, counters: Any = None) -> LosTable:
    """All ordered pairs of distinct hexes at ground level, from the parallel all-pairs kernel.

    ``from_level``/``to_level``: every hex that has that location (a building level, a
    rooftop; 0 = every hex) to every hex that has the other, distinct hexes.
    ``all_locations``: every ordered pair of distinct locations of the map (two levels of one
    hex included).  With ``weather``, ``lv`` holds each pair's LV DRM and terrain + LV of 6 or
    more blocks.  Every answer is exactly what :func:`los` gives for that pair.
    ``threads``: kernel threads of the ground-level table (default: the CPUs of this process's
    affinity).  Holds every pair in memory; :func:`hexwx.lineofsight.pairs.los_table_chunks`
    streams the same answers in bounded memory.  ``counters`` as for :func:`los`.
    """
    check_query(m, weather)
    check_flag(all_locations, "all_locations")
    for level, name in ((from_level, "from_level"), (to_level, "to_level")):
        if level is not None:
            whole(level, name)
    if threads is not None:
        whole(threads, "threads", 1)
    if all_locations or from_level not in (None, 0) or to_level not in (None, 0):
        return _los_table_levels(m, weather, from_level, to_level, all_locations, counters)
    st = los_state(m, weather, counters)
    m = st.map
    res = K.all_pairs_matrix(m.kernel_map, m.kernel_terrain, m.hexes.base.astype(np.int64),
                             m.thread_capacity, threads, st.fog)
    reasons, totals = res[0], res[1]
    n = len(m)
    src, tgt = np.divmod(np.arange(n * n), n)
    keep = src != tgt
    src, tgt = src[keep], tgt[keep]
    rng = m.grid.ranges(src, tgt)
    blocked = reasons[src, tgt] != 0
    hindrance = totals[src, tgt].astype(np.int32)
    base = m.hexes.base.astype(np.int64)
    st.add_counters(src, tgt, base[src], base[tgt], blocked, hindrance)
    lv = st.add_lv(src, tgt, 0, blocked, hindrance, rng,
                   fog=res[2][src, tgt] if st.fog is not None else None)
    return LosTable(src, tgt, rng, blocked, hindrance, lv)


def _los_table_levels(m: HexMap, weather: AslWeather | None, from_level: int | None, to_level: int | None,
                      all_locations: bool, counters: Any = None) -> LosTable:
    """The table between locations above the ground too, through the pair kernel."""
    from hexwx.lineofsight.batch import los_pairs
    sh, sl, th, tl = level_locations(m, from_level, to_level, all_locations)
    i, j = np.divmod(np.arange(len(sh) * len(th), dtype=np.int64), len(th))
    keep = (sh[i] != th[j]) | (sl[i] != tl[j]) if all_locations else sh[i] != th[j]
    i, j = i[keep], j[keep]
    a = los_pairs(m, sh[i], th[j], sl[i], tl[j], weather=weather, counters=counters)
    return LosTable(a.src, a.tgt, a.range, a.blocked, a.hindrance, a.lv, a.src_level, a.tgt_level)


def level_locations(m: HexMap, from_level: int | None, to_level: int | None,
                    all_locations: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Source and target locations (hexes, levels) of a table above the ground."""
    from hexwx.lineofsight.batch import locations
    if all_locations:
        if from_level is not None or to_level is not None:
            raise UsageError("give either all_locations or from_level/to_level, not both",
                             param="all_locations")
        sh, sl = locations(m)
        th, tl = sh, sl
    else:
        for lv, param in ((from_level, "from_level"), (to_level, "to_level")):
            if lv is not None:
                whole(lv, param)
        sh, sl = locations(m, int(from_level or 0))
        th, tl = locations(m, int(to_level or 0))
        for lv, h, param in ((from_level, sh, "from_level"), (to_level, th, "to_level")):
            if len(h) == 0:
                raise UsageError(f"bad {param} {lv}: no hex of this map has a location at that "
                                 "level", param=param)
    return sh, sl, th, tl
