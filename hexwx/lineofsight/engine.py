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

import weakref
from functools import partial
from typing import Any, TypedDict

import numpy as np

from hexwx import _native as K
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import Hex
from hexwx.errors import UsageError
from hexwx.validate import bad, check_flag, whole
from hexwx.lineofsight.bypass import bypass_point, check_hexside, check_on_map
from hexwx.lineofsight.entrenchment import GROUND_ONLY, check_not_both
from hexwx.lineofsight.locations import end_words, location_name, terrain_words
from hexwx.lineofsight.lv import FOG_RULES, lv_hindrances, winter_camouflage_note
from hexwx.lineofsight.counter_los import hindrances as counter_hindrances
from hexwx.lineofsight.counter_los import hindrances_between as counter_hindrances_between
from hexwx.lineofsight.counter_los import weather_notes as counter_weather_notes
from hexwx.lineofsight.pair_lv import check_query, weathered
from hexwx.lineofsight.state import los_state
from hexwx.lineofsight.reasons import LV_BLOCK_REASON, REASONS
from hexwx.lineofsight.results import (Hindrance, LosResult, LosTable, ThreadHex, Viewshed,
                                      later_result)
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


#: Per map, what a single query reads on every call as plain Python values (reading numpy
#: scalars costs more than the rest of the query's Python): the hex count, each hex's base
#: ground level and name.  Keyed by the map's id; an entry goes when its map does.
_FACTS: dict[int, tuple[Any, int, list[int], list[str]]] = {}


def _facts(m: HexMap) -> tuple[Any, int, list[int], list[str]]:
    """``m``'s entry of :data:`_FACTS` (a weak reference to the map first), made on first use."""
    key = id(m)
    got = _FACTS.get(key)
    if got is None or got[0]() is not m:
        got = _FACTS[key] = (weakref.ref(m, lambda _: _FACTS.pop(key, None)), len(m),
                             m.hexes.base.tolist(), m.grid.names())
    return got


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

    The answer's thread, its hindrance list without weather (counters' hindrances included),
    what blocks in words and the ends' Location names are made when first read
    (:func:`results.later_result`; a clear-weather thread by tracing again, with the ends'
    bypass hexsides and entrenchment): most callers read only the verdict and the DRM.
    """
    check_query(m, weather)
    if target_is_infantry is not True:          # (the defaults need no check: hot path)
        check_flag(target_is_infantry, "target_is_infantry")
    if target_winter_camouflage is not False:
        check_flag(target_winter_camouflage, "target_winter_camouflage")
    if target_positive_tem is not None:
        check_flag(target_positive_tem, "target_positive_tem")
    if from_entrenched is not False:
        check_flag(from_entrenched, "from_entrenched")
    if to_entrenched is not False:
        check_flag(to_entrenched, "to_entrenched")
    s_side = check_hexside(from_hexside, "from_hexside")
    t_side = check_hexside(to_hexside, "to_hexside")
    if from_entrenched and s_side is not None:
        check_not_both(1, s_side, "from_hexside")
    if to_entrenched and t_side is not None:
        check_not_both(1, t_side, "to_hexside")
    shown = m
    prep = fog = None
    if counters is not None or weather is not None:
        st = los_state(m, weather, counters)
        m, prep, fog = st.map, st.counters, st.fog
    _, n, base, names = _facts(m)
    # (hex ids and ground level, the common case, without the general checks: hot path)
    src = a if type(a) is int and 0 <= a < n else m.hex(a, "a")
    tgt = b if type(b) is int and 0 <= b < n else m.hex(b, "b")
    sE, s_roof = (base[src], 0) if type(from_level) is int and from_level == 0 else \
        _elevation(m, src, from_level, "from_level")
    tE, t_roof = (base[tgt], 0) if type(to_level) is int and to_level == 0 else \
        _elevation(m, tgt, to_level, "to_level")
    ends = (src, tgt, sE, tE, s_roof, t_roof)
    M = m.kernel_map
    flags: _Flags = {}
    bypass = s_side is not None or t_side is not None
    if bypass:
        check_on_map(M, m.name_of, src, s_side, "from_hexside")
        check_on_map(M, m.name_of, tgt, t_side, "to_hexside")
        flags["s_side"] = -1 if s_side is None else s_side
        flags["t_side"] = -1 if t_side is None else t_side
    if from_entrenched or to_entrenched:
        for ent, level, param in ((from_entrenched, from_level, "from_level"),
                                  (to_entrenched, to_level, "to_level")):
            if ent and int(level) != 0:
                raise bad(param, level, GROUND_ONLY)
        flags["s_ent"], flags["t_ent"] = int(from_entrenched), int(to_entrenched)
    levels = (from_level if type(from_level) is int else int(from_level),
              to_level if type(to_level) is int else int(to_level), s_side, t_side,
              bool(from_entrenched), bool(to_entrenched))
    if weather is None and (prep is None or _counters_need_no_record(bypass)):
        # the verdict and total only: the thread and hindrance list are traced again when read
        reason, bx, by, bhex, total, _, R = K.trace(M, m.kernel_terrain, *ends, **flags)
        blocked = reason != K.CLEAR
        text, rule = REASONS[reason]
        met: tuple[Hindrance, ...] = ()
        if prep is not None and not blocked:
            met = counter_hindrances_between(prep, src, tgt, sE, tE)
            if met:
                total += sum(h.drm for h in met)
                if total >= 6:
                    blocked = True
                    text, rule = REASONS[K.HINDRANCE_SIX]
        return _answer(m, M, names, ends, flags, levels, R, reason, bx, by, bhex, None,
                       blocked, text, rule, total, 0, None, met)
    (reason, bx, by, bhex, terrain_total, _), R, record, fog_codes = _record(m, M, ends, flags,
                                                                             fog)
    packed, drms, ids, keys = record
    blocked = reason != K.CLEAR
    text, rule = REASONS[reason]
    eager: dict[str, Any] = {}         # hindrances and thread made now; else on first read
    if prep is not None and not blocked:
        items = counter_hindrances(prep, src, tgt, sE, tE, [src, tgt, *ids],
                                   points=_points(m, src, s_side, tgt, t_side) if bypass else None)
        if items:
            eager["hindrances"] = (*_terrain_hindrances(m, packed, drms), *items)
            terrain_total += sum(h.drm for h in items)
            if terrain_total >= 6:
                blocked = True
                text, rule = REASONS[K.HINDRANCE_SIX]
    lv_total = 0
    notes: list[str] = []
    if weather is not None:
        notes += counter_weather_notes(shown, counters, weather)   # SMOKE left out (E3.53, E3.734)
        th, th_names, th_keys = _thread(m, ends, R, ids, keys)
        eager["thread"] = tuple(th)
        if target_winter_camouflage:
            note, tem = _camouflage(m, weather, tgt, levels[1], R, target_is_infantry,
                                    target_positive_tem)
            target_positive_tem = tem
            notes.append(note)
        fog_items = None if fog is None or fog_codes is None else _kernel_fog(
            fog.tolist(), th_names, th_keys, fog_codes, sE)
        lv_items = _lv(m, weather, src, tgt, sE, tE, R, th, target_is_infantry,
                       target_winter_camouflage, bool(target_positive_tem), fog_items)
        lv_total = sum(h.drm for h in lv_items)
        if lv_items:
            terrain = eager.get("hindrances") or _terrain_hindrances(m, packed, drms)
            eager["hindrances"] = (*terrain, *lv_items)
    if not blocked and terrain_total + lv_total >= 6 and lv_total > 0:
        blocked = True
        text, rule = LV_BLOCK_REASON
    return _answer(m, M, names, ends, flags, levels, R, reason, bx, by, bhex, record, blocked,
                   text, rule, terrain_total, lv_total,
                   {"notes": tuple(notes), "weather": weather, **eager})


def _counters_need_no_record(bypass: bool) -> bool:
    """Whether a clear-weather query with counters answers without its thread's record:
    counters only add hindrances to a clear LOS, those of the effects its segment meets
    (:meth:`~hexwx.lineofsight.counter_los.PreparedCounters.meet_effects`, between hex
    centres), so the verdict's trace serves; an end in bypass keeps the recording path."""
    return not bypass


#: The two ends of one trace: (src, tgt, sE, tE, s_roof, t_roof) -- hex ids, elevations,
#: whether each is a rooftop -- as the kernel takes them.
_Ends = tuple[int, int, int, int, int, int]
class _Flags(TypedDict, total=False):
    """The ends' other kernel flags, as :func:`hexwx._native.trace` takes them by name: the
    hexside an end is in bypass along (``s_side``/``t_side``, D2.3) and whether it is in an
    entrenchment (``s_ent``/``t_ent``, B27.2); empty for the common query."""

    s_side: int
    t_side: int
    s_ent: int
    t_ent: int


#: The ends' levels, bypassed hexsides (None: none) and entrenchment, for their Location names.
_Levels = tuple[int, int, int | None, int | None, bool, bool]
#: What a trace with its record gives the explanation: the terrain hindrances per range key
#: (``hex * 256 + terrain code``, DRM) and the hexes of the thread in order with their keys.
_Record = tuple[list[int], list[int], list[int], list[int]]


def _answer(m: HexMap, M: K.KernelArrays, names: list[str], ends: _Ends, flags: _Flags,
            levels: _Levels, R: int, reason: int, bx: int,
            by: int, bhex: int, record: _Record | None, blocked: bool, text: str,
            rule: str | None, hindrance: int, lv: int, more: dict[str, Any] | None,
            counter_items: tuple[Hindrance, ...] = ()) -> LosResult:
    """The LosResult of one trace: the kernel's ``reason``, blocking pixel and hex, the verdict
    the caller settled (``blocked``, reason ``text`` and ``rule``, the DRMs) and ``more``
    fields; the rest made on first read by :func:`_later_fields` (``record``: the trace's, or
    None to trace again for it; ``counter_items``: the counters' hindrances, listed after the
    terrain's).  ``names``: the hex names (:func:`_facts`)."""
    traced = reason != K.CLEAR
    values = {
        "source": names[ends[0]], "target": names[ends[1]], "source_level": levels[0],
        "target_level": levels[1], "range": R, "blocked": blocked, "reason": text, "rule": rule,
        "blocked_at": (bx, by) if traced else None,
        "blocking_hex": names[bhex] if traced and bhex >= 0 else None, "hindrance": hindrance,
        "lv": lv, "map": m, "source_elevation": ends[2], "target_elevation": ends[3]}
    if more:
        values.update(more)
    return later_result(values, partial(_later_fields, m, M, ends, flags, levels, R, reason,
                                        bx, by, record, counter_items))


def _later_fields(m: HexMap, M: K.KernelArrays, ends: _Ends, flags: _Flags,
                  levels: _Levels, R: int, reason: int, bx: int,
                  by: int, record: _Record | None, counter_items: tuple[Hindrance, ...],
                  name: str) -> dict[str, Any]:
    """The fields of a single query's result made on first read (field ``name`` and those made
    with it; :func:`results.later_result`): the terrain hindrances and the thread (from the
    trace's ``record``, or from a trace again with its record), the ends' Location names
    (``levels``: the ends' levels and bypassed hexsides), or what blocks at the kernel's pixel
    (``bx``, ``by``) for its ``reason`` in words (:func:`blocking_terrain`)."""
    if name in ("hindrances", "thread"):
        packed, drms, ids, keys = record if record is not None else \
            _record(m, M, ends, flags, None)[2]
        return {"hindrances": _terrain_hindrances(m, packed, drms) + counter_items,
                "thread": tuple(_thread(m, ends, R, ids, keys)[0])}
    if name in ("source_location", "target_location"):
        from_level, to_level, s_side, t_side, s_ent, t_ent = levels
        return {"source_location": end_words(location_name(m, ends[0], from_level), s_side,
                                             s_ent),
                "target_location": end_words(location_name(m, ends[1], to_level), t_side, t_ent)}
    what, ground, top = blocking_terrain(m, reason, bx, by)
    return {"blocking_terrain": what, "blocking_ground": ground, "blocking_top": top}


def _record(m: HexMap, M: K.KernelArrays, e: _Ends, flags: _Flags,
            fog: np.ndarray | None) -> tuple[
        tuple[int, int, int, int, int, int], int, _Record, list[int] | None]:
    """One trace with its record: the verdict (reason, blocking pixel x and y, blocking hex,
    terrain hindrance total, fog LV), the range, the :data:`_Record` and (with ``fog``) each
    range key's fog code."""
    t = K.trace_record(M, m.kernel_terrain, *e, fog=fog, **flags)
    hv, hh = t[6], t[7]
    at = [k for k, v in enumerate(hv) if v]
    return t[:6], len(hv) - 1, ([hh[k] for k in at], [hv[k] for k in at], t[8], t[9]), t[10]


def _terrain_hindrances(m: HexMap, packed: list[int], drms: list[int]) -> tuple[Hindrance, ...]:
    """The terrain hindrances the kernel left per range key: ``hex * 256 + terrain code``
    and the DRM (A6.7)."""
    out = []
    for p, drm in zip(packed, drms):
        hx, code = divmod(p, 256)
        out.append(Hindrance(m.name_of(hx), drm, m.table[code].name.lower(), _terrain_rule(m, code)))
    return tuple(out)


def _thread(m: HexMap, ends: _Ends, R: int, ids: list[int],
            keys: list[int]) -> tuple[list[ThreadHex], list[str], list[int]]:
    """The hexes of the thread (the source first), their names and range keys, from the
    kernel's hexes entered in order and their keys."""
    src, tgt = ends[0], ends[1]
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
             counters: Any = None, from_hexside: int | None = None,
             from_entrenched: bool = False) -> Viewshed:
    """LOS from ``a`` at ``level`` (a building level or rooftop too) to the ground level of every
    hex of the map: for every hex the answer of ``los(m, a, hex, from_level=level,
    counters=counters, from_hexside=from_hexside, from_entrenched=from_entrenched)``.
    ``from_hexside`` (0-5): the viewer is in bypass along that hexside of ``a`` and sees from
    its point (D2.3).  ``from_entrenched``: the viewer is a unit in an entrenchment (at ground
    level; B27.2)."""
    check_query(m, weather)
    side = check_hexside(from_hexside, "from_hexside")
    check_flag(from_entrenched, "from_entrenched")
    if from_entrenched and side is not None:
        check_not_both(1, side, "from_hexside")
    st = los_state(m, weather, counters)
    m = st.map
    src = m.hex(a, "a")
    sE, s_roof = _elevation(m, src, level, "level")
    if from_entrenched and level != 0:
        raise bad("level", level, GROUND_ONLY)
    check_on_map(m.kernel_map, m.name_of, src, side, "from_hexside")
    n = len(m)
    tgts = np.arange(n, dtype=np.int64)
    srcs = np.full(n, src, np.int64)
    es = np.full(n, sE, np.int64)
    et = m.hexes.base.astype(np.int64)
    sides = None if side is None else np.full(n, side, np.int64)
    res = st.trace_many(srcs, tgts, es, et, roof_s=np.full(n, s_roof, np.int64), side_s=sides,
                        ent_s=np.ones(n, np.int64) if from_entrenched else None)
    reasons, totals = res[0], res[1]
    blocked = reasons != 0
    drm = totals.astype(np.int32)
    rng = m.grid.distances_from(src)
    st.add_counters(srcs, tgts, es, et, blocked, drm, st.end_points(srcs, tgts, sides, None))
    lv = st.add_lv(srcs, tgts, level, blocked, drm, rng, fog=res[2] if st.fog is not None else None)
    if lv is not None:
        drm = drm + lv
    return Viewshed(m.name_of(src), level, blocked, drm, rng, map=st.shown, weather=weather,
                    hexside=side, entrenched=bool(from_entrenched),
                    notes=counter_weather_notes(st.shown, counters, weather))


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
