"""Counters on a LOS: SMOKE, Blazes, vehicles, wrecks and OBA as hindrances, rubble as terrain.

:func:`prepare` turns a map and its :class:`~hexwx.lineofsight.counters.Counters` into a
:class:`PreparedCounters`, once per (map, counters): the map with rubbled hexes redrawn (B24:
the hex becomes rubble terrain, so the kernel traces the new obstacle), and one *effect* per
hindering counter and hex it covers (an OBA or SMOKE fire mission covers its blast area).
Queries then add the effects a LOS meets to the kernel's answer -- no LOS is traced again per
counter.

Whether a LOS meets a counter's hex is geometry: the segment between the two hex centres runs
inside the hexagon (its hexsides included, A6.1: a LOS along a hexside is affected by both
hexes; through a vertex only, it does not enter the hex), or, for a vehicle in bypass, inside
the triangle of the hex between its centre and that hexside (D2.3).  The same test serves
single queries (:func:`hindrances`) and batches (:func:`apply`), so both give the same answer,
and it is symmetric, so LOS stays reciprocal.  A single query first asks
:meth:`PreparedCounters.meet_effects` which effects its segment may meet at all (a superset,
kept per pair and per source hex): most LOS meet none and skip the counters.

The rules applied (docs/counters.md has the readings):

* SMOKE, WP and Blazes (A24, B25) fill their hex from the counter's Location (its level in the
  hex) up to its height.  An end in the SMOKE counts it (the firer, +1 more: A24.8); an end
  exactly at its top looking down into lower terrain counts it too.  A hex between counts when
  both ends are below the SMOKE's top (a LOS crosses a hex no lower than its ground, where the
  SMOKE starts), or when the SMOKE's top, taken as an obstacle, puts the lower end in its
  blind zone (A6.4).  Several SMOKE counters in one hex count as
  the largest; hexes of one range key (a hexspine pair) count once, the largest.
* A Blaze on a vehicle or wreck is a burning wreck: +2, and the vehicle no longer adds its
  own +1 (D10, B25).
* Vehicles and wrecks (D9, D10): +1 in a hex between the ends when both ends are at the
  vehicle's elevation (a LOS at its level); one per range key.
* OBA Fire For Effect (C1): +1 once per LOS that enters its blast area within two levels of
  its ground, like SMOKE of that height.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from hexwx.errors import UsageError
from hexwx.hexmap.board import HexMap, redrawn
from hexwx.lineofsight.counters import Counter, Counters, counter_type, under_weather
from hexwx.lineofsight.results import Hindrance

#: Effect kinds counted like SMOKE (per hex the largest, per range key the largest).
SMOKE_KINDS = ("smoke", "blaze")
#: A burning wreck's SMOKE DRM: a Blaze on a vehicle or wreck (D10, B25).
BURNING_WRECK_DRM = 2
BURNING_WRECK_RULE = "D10"
#: The firer in SMOKE: +1 more (A24.8).
FIRING_OUT_OF_SMOKE = ("firing out of smoke", 1, "A24.8")
#: Touching tolerance of the geometry test, in pixels.
_EPS = 1e-6


@dataclass(frozen=True)
class Effect:
    """One hindering counter in one hex: DRM, the absolute levels [base, top) it fills, the
    polygon a LOS must touch (hexagon, or a bypass triangle), and its group (an OBA counts
    once per LOS over its whole blast area)."""

    hex: int
    name: str
    kind: str
    drm: int
    base: int
    top: int
    rule: str
    group: int
    poly: tuple[tuple[float, float], ...]
    #: the polygon's edges (:func:`polygon_edges`)
    edges: tuple[tuple[float, float, float, float], ...] = ()

    def __post_init__(self) -> None:
        if not self.edges:
            object.__setattr__(self, "edges", polygon_edges(self.poly))

    @property
    def inner(self) -> float:
        """The radius of a circle about :attr:`circle`'s centre inside the polygon: the
        centre's least distance to an edge."""
        x, y, _r = self.circle
        return float(min((off - nx * x - ny * y) / (nx * nx + ny * ny) ** 0.5
                         for nx, ny, off, _tol in self.edges))

    @property
    def circle(self) -> tuple[float, float, float]:
        """(x, y, radius) of a circle holding the polygon: its vertices' mean and reach."""
        k = len(self.poly)
        x = sum(p[0] for p in self.poly) / k
        y = sum(p[1] for p in self.poly) / k
        return x, y, max(((p[0] - x) ** 2 + (p[1] - y) ** 2) ** 0.5 for p in self.poly)


def polygon_edges(poly: tuple[tuple[float, float], ...]
                  ) -> tuple[tuple[float, float, float, float], ...]:
    """The edges of a convex polygon as (nx, ny, offset, tol): outward normal n, the edge's
    line n . p = offset, and the touching tolerance of that normal."""
    k = len(poly)
    cx = sum(p[0] for p in poly) / k
    cy = sum(p[1] for p in poly) / k
    out = []
    for i in range(k):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % k]
        nx, ny = ay - by, bx - ax
        if nx * (cx - ax) + ny * (cy - ay) > 0:      # inward: turn it round
            nx, ny = -nx, -ny
        out.append((nx, ny, nx * ax + ny * ay, _EPS * (abs(nx) + abs(ny))))
    return tuple(out)


@dataclass(frozen=True, eq=False)
class PreparedCounters:
    """A map's counters made ready for queries (:func:`prepare`)."""

    map: HexMap                           # the map with rubbled hexes redrawn
    counters: Counters
    effects: tuple[Effect, ...]
    near: np.ndarray                      # bool [n]: a hex within one hex of an effect
    by_near: dict[int, tuple[int, ...]]   # hex -> effects within one hex of it
    # the effects as arrays (batch forms)
    e_hex: np.ndarray
    e_base: np.ndarray
    e_top: np.ndarray
    e_drm: np.ndarray
    e_cls: np.ndarray                     # 0 smoke-like, 1 vehicle/wreck, 2 OBA
    # :meth:`meet_effects` kept: per source hex (rows), per pair, pairs asked per source
    _meet: dict[int, _MeetRow] = field(default_factory=dict, repr=False)
    _met: dict[tuple[int, int], list[int]] = field(default_factory=dict, repr=False)
    _asked: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def hinders(self) -> bool:
        return bool(self.effects)

    def meet_effects(self, src: int, tgt: int) -> list[int]:
        """The effects (indices into :attr:`effects`, in order) the LOS between the centres of
        ``src`` and ``tgt`` could meet (:func:`meet_pairs`): those :func:`hindrances` may
        count, a superset.  Kept per pair; after :data:`_ROW_AFTER` pairs from one source,
        for all its targets at once (a row)."""
        if not self.effects:
            return []
        row = self._meet.get(src)
        if row is None:
            key = (src, tgt)
            got = self._met.get(key)
            if got is not None:
                return got
            asked = self._asked.get(src, 0)
            if asked < _ROW_AFTER:
                self._asked[src] = asked + 1
                if len(self._met) > _MEET_PAIRS_KEPT:
                    self._met.clear()
                got = self._met[key] = meet_one(self, src, tgt)
                return got
            row = self._meet_row(src)
        lo, hi = bisect_left(row.tgt, tgt), bisect_right(row.tgt, tgt)
        return row.eff[lo:hi]

    def _meet_row(self, src: int) -> _MeetRow:
        rows = self._meet
        size = self.__dict__.get("_meet_bytes", 0)
        if size > _MEET_ROWS_BYTES:
            rows.clear()
            size = 0
        ei, ti = meet_pairs(self, src)
        order = np.argsort(ti, kind="stable")
        hit = np.zeros(len(self.near), bool)
        hit[ti] = True
        row = rows[src] = _MeetRow(hit.tobytes(), ti[order].tolist(), ei[order].tolist())
        self.__dict__["_meet_bytes"] = size + len(hit) + 16 * len(ti)   # (list slots)
        return row

    def distances(self, h: int) -> np.ndarray:
        """The range from hex ``h`` to every hex (int16), kept per hex."""
        memo: dict[int, np.ndarray] = self.__dict__.setdefault("_dist", {})
        got = memo.get(h)
        if got is None:
            got = memo[h] = self.map.grid.distances_from(h).astype(np.int16)
        return got


def prepare(m: HexMap, counters: Counters | None) -> PreparedCounters | None:
    """The counters of ``m`` made ready (cached per map and counters); None without any.
    UsageError naming the counter whose hex or level is not on the map."""
    if not counters:
        return None
    return _prepare(m, Counters.of(counters))


def with_counters(m: HexMap, counters: Any, weather: Any = None
                  ) -> tuple[HexMap, PreparedCounters | None]:
    """The map LOS is traced on with ``counters`` (a :class:`Counters`, None, or a list of
    counters and ``"NAME@HEX[:LEVEL]"``; rubble redrawn) and the prepared counters, made once
    per (map, counters); ``(m, None)`` without counters.  Under ``weather`` (an AslWeather or
    None) SMOKE that cannot exist is left out (E3.53, E3.734: :func:`weather_notes` says
    which).  A counter off the map or at a level its hex lacks is a UsageError naming
    ``counters``."""
    try:
        prep = prepare(m, counters if weather is None else
                       under_weather(Counters.of(counters), weather, m)[0])
    except UsageError as exc:
        if exc.param is not None:
            raise
        raise UsageError(f"counters: {exc}", param="counters") from None
    return (m, None) if prep is None else (prep.map, prep)


def weather_notes(m: HexMap, counters: Any, weather: Any) -> tuple[str, ...]:
    """One note per counter of ``counters`` on ``m`` that :func:`with_counters` leaves out
    under ``weather`` (E3.53 rain, E3.734 Mud / Deep Snow), for the answer's ``notes``."""
    if weather is None or not counters:
        return ()
    return under_weather(Counters.of(counters), weather, m)[1]


@lru_cache(maxsize=32)
def _prepare(m: HexMap, counters: Counters) -> PreparedCounters:
    placed = [(c, _place(m, c)) for c in counters]
    rubble = [(h, c) for c, (h, _lv) in placed if c.kind == "rubble"]
    mm = rubbled(m, tuple((h, counter_type(c.name).terrain or "") for h, c in rubble))
    effects = _effects(mm, placed)
    n = len(mm)
    near = np.zeros(n, bool)
    by_near: dict[int, list[int]] = {}
    nb = mm.grid.neighbours
    for i, e in enumerate(effects):
        for h in [e.hex, *[int(x) for x in nb[e.hex] if x >= 0]]:
            near[h] = True
            by_near.setdefault(h, []).append(i)
    near.setflags(write=False)
    cls = [0 if e.kind in SMOKE_KINDS else (2 if e.kind == "oba" else 1) for e in effects]
    arr = [np.array(v, np.int64) for v in ([e.hex for e in effects], [e.base for e in effects],
                                           [e.top for e in effects], [e.drm for e in effects], cls)]
    for a in arr:
        a.setflags(write=False)
    e_hex, e_base, e_top, e_drm, e_cls = arr
    return PreparedCounters(mm, counters, tuple(effects), near,
                            {h: tuple(v) for h, v in by_near.items()}, e_hex, e_base, e_top,
                            e_drm, e_cls)


def _place(m: HexMap, c: Counter) -> tuple[int, int]:
    """(hex id, level) of counter ``c``; UsageError naming it when not on the map."""
    try:
        h = m.parse(c.hex)
    except UsageError as exc:
        raise UsageError(f"counter {c.spec()!r}: {exc}") from None
    try:
        m.check_level(h, c.level)
    except UsageError as exc:
        raise UsageError(f"counter {c.spec()!r}: {exc}") from None
    return h, c.level


def rubbled(m: HexMap, hexes: tuple[tuple[int, str], ...]) -> HexMap:
    """``m`` with each (hex, rubble terrain) drawn over the whole hex (B24), its hexside
    terrain (walls, hedges) kept.  The same map when there is none."""
    if not hexes:
        return m
    return _rubbled(m, tuple(sorted(set(hexes))))


@lru_cache(maxsize=16)
def _rubbled(m: HexMap, hexes: tuple[tuple[int, str], ...]) -> HexMap:
    terr = m.terrain.copy()
    fills = None if m.fills is None else m.fills.copy()
    side = m.table.arrays()["hexside"].astype(bool)
    hex_at = m.geometry.hex_at
    for h, terrain in hexes:
        code = _rubble_code(m, terrain)
        sel = (hex_at == h) & ~side[terr]
        terr[sel] = code
        if fills is not None:
            fills[h] = code
    return redrawn(m, terrain=terr, fills=fills, name=f"{m.name} (+{len(hexes)} rubble)")


def _rubble_code(m: HexMap, terrain: str) -> int:
    """The terrain code of rubble ``terrain``; a map whose table has only the plain rubble
    types ("Stone Rubble", "Wooden Rubble") takes those."""
    plain = "Wooden Rubble" if terrain.startswith("Wood") else "Stone Rubble"
    for name in (terrain, plain):
        try:
            return m.table.code_named(name)
        except UsageError:
            continue
    raise UsageError(f"rubble {terrain!r}: the map's terrain table has no rubble terrain")


def _effects(m: HexMap, placed: list[tuple[Counter, tuple[int, int]]]) -> list[Effect]:
    """One effect per hindering counter and hex, burning wrecks resolved (D10)."""
    grid = m.grid
    base = m.hexes.base
    burning = {h for c, (h, _lv) in placed if c.kind == "blaze"}
    out: list[Effect] = []
    for group, (c, (h, lv)) in enumerate(placed):
        t = counter_type(c.name)
        if not t.hinders:
            continue
        if t.kind in ("vehicle", "wreck"):
            if h in burning:
                continue             # the burning wreck's Blaze stands for it
            e0 = int(base[h]) + lv
            out.append(Effect(h, t.name, t.kind, t.drm, e0, e0, t.rule, group,
                              _polygon(grid, h, c.hexside)))
            continue
        drm, rule, name = t.drm, t.rule, t.name
        if t.name == "Blaze" and any(o.kind in ("vehicle", "wreck") and p[0] == h
                                     for o, p in placed):
            drm, rule, name = BURNING_WRECK_DRM, BURNING_WRECK_RULE, "Blaze (burning wreck)"
        area = [h] if not t.radius else [h, *[int(x) for x in grid.neighbours[h] if x >= 0]]
        for a in area:
            e0 = int(base[a]) + (lv if a == h else 0)
            out.append(Effect(a, name, t.kind, drm, e0, e0 + t.height, rule, group,
                              _polygon(grid, a, None)))
    return out


def _polygon(grid: Any, h: int, hexside: int | None) -> tuple[tuple[float, float], ...]:
    corners = [(float(x), float(y)) for x, y in grid.corners(h)]
    if hexside is None:
        return tuple(corners)
    cx, cy = float(grid.centre_x[h]), float(grid.centre_y[h])
    return ((cx, cy), corners[hexside], corners[(hexside + 1) % 6])


# -- geometry ----------------------------------------------------------------------------------

#: The shortest run of a LOS inside a counter's polygon that counts, in pixels: a LOS along a
#: hexside runs the hexside's length in both hexes (A6.1), one through a vertex touches a
#: third hex at a point only and does not enter it.
MIN_RUN_PX = 0.5


def crosses(edges: tuple[tuple[float, float, float, float], ...], x0: float, y0: float,
            x1: float, y1: float) -> bool:
    """Whether segment (x0, y0)-(x1, y1) runs inside the convex polygon of ``edges``
    (:func:`polygon_edges`; its boundary included) for at least :data:`MIN_RUN_PX` pixels: the
    segment clipped to each edge's half-plane in turn (Cyrus-Beck)."""
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for nx, ny, off, tol in edges:
        num = nx * x0 + ny * y0 - off - tol
        den = nx * dx + ny * dy
        if den == 0.0:
            if num > 0.0:
                return False
            continue
        t = -num / den
        if den < 0.0:
            t0 = t if t > t0 else t0
        else:
            t1 = t if t < t1 else t1
        if t0 > t1:
            return False
    return bool((t1 - t0) * (dx * dx + dy * dy) ** 0.5 >= MIN_RUN_PX)


def _crosses_many(e: "Effect", x0: np.ndarray, y0: np.ndarray, x1: np.ndarray,
                  y1: np.ndarray) -> np.ndarray:
    """:func:`crosses` of effect ``e``'s polygon for many segments (the same arithmetic; kept
    apart because one numpy call per effect would cost a single query ~150x the scalar clip;
    tests/lineofsight/test_counter_geometry.py checks that the two agree)."""
    dx, dy = x1 - x0, y1 - y0
    t0 = np.zeros(len(x0))
    t1 = np.ones(len(x0))
    ok = np.ones(len(x0), bool)
    for nx, ny, off, tol in e.edges:
        num = nx * x0 + ny * y0 - off - tol
        den = nx * dx + ny * dy
        flat = den == 0.0
        ok &= ~(flat & (num > 0.0))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # (inf, as scalar)
            t = -num / np.where(flat, 1.0, den)
        t0 = np.where(~flat & (den < 0.0) & (t > t0), t, t0)
        t1 = np.where(~flat & (den > 0.0) & (t < t1), t, t1)
    with np.errstate(invalid="ignore", over="ignore"):     # (an inf run of a zero-length segment)
        run = (t1 - t0) * (dx * dx + dy * dy) ** 0.5
    out: np.ndarray = ok & (t0 <= t1) & (run >= MIN_RUN_PX)
    return out


# -- which LOS can meet an effect at all ---------------------------------------------------------

#: How far, in pixels, :func:`meet_pairs` grows the circle about each effect's polygon: far more
#: than the touching tolerance and the rounding of :func:`crosses`, so a LOS that passes the
#: grown circle by surely misses the polygon.
MEET_MARGIN_PX = 1.0
#: About the most bytes of :meth:`PreparedCounters.meet_effects` rows kept.
_MEET_ROWS_BYTES = 64 << 20
#: Pairs from one source asked one at a time before its whole row is made (a row costs some
#: ten single pairs; most sources of random queries are asked a few times).
_ROW_AFTER = 16
#: The most single pairs kept.
_MEET_PAIRS_KEPT = 1 << 20


class _MeetRow(NamedTuple):
    """One source's :func:`meet_pairs`: a byte per target (nonzero: some effect may be met)
    and the (target, effect) pairs sorted by target."""

    hit: bytes
    tgt: list[int]
    eff: list[int]


def meet_row(prep: PreparedCounters, src: int) -> np.ndarray:
    """bool per hex ``t``: whether the LOS between the centres of ``src`` and ``t`` could meet
    an effect (:func:`meet_pairs`)."""
    row = np.zeros(len(prep.near), bool)
    row[meet_pairs(prep, src)[1]] = True
    return row


def meet_pairs(prep: PreparedCounters, src: int) -> tuple[np.ndarray, np.ndarray]:
    """(effect, target) index arrays: the effects the LOS between the centres of ``src`` and
    each target could meet.  :func:`hindrances` counts an effect only in an end hex or when
    the segment runs inside its polygon (:func:`crosses`); these are the effects whose hex lies
    within one hex of a shortest path between the ends (the batches' first cut) and whose
    polygon's circle, grown by :data:`MEET_MARGIN_PX`, the segment comes within (an end hex's
    too: the segment starts or ends at its centre) -- a superset of what any query counts,
    whatever the ends' elevations.  Bypass ends (LOS points off the centres) are not covered."""
    if not prep.effects:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    g = prep.map.grid
    cx = np.asarray(g.centre_x, np.float64)
    cy = np.asarray(g.centre_y, np.float64)
    ex, ey, rad = _meet_arrays(prep)
    # first cut, as the batches': an effect hex within one hex of a shortest path (a hex the
    # segment runs through is; tests/lineofsight/test_counters_los.py)
    dist = _meet_distances(prep)
    ei, ti = np.nonzero(dist[:, src][:, None] + dist <= (prep.distances(src) + 2)[None, :])
    sx, sy = float(cx[src]), float(cy[src])
    dx, dy = cx[ti] - sx, cy[ti] - sy
    ux, uy = ex[ei] - sx, ey[ei] - sy
    # then the segment's point nearest each polygon's circle centre, in the circle
    l2 = dx * dx + dy * dy
    t = np.clip((ux * dx + uy * dy) / np.where(l2 > 0.0, l2, 1.0), 0.0, 1.0)
    px, py = t * dx - ux, t * dy - uy
    keep = px * px + py * py <= rad[ei] * rad[ei]
    return ei[keep], ti[keep]


def meet_one(prep: PreparedCounters, src: int, tgt: int) -> list[int]:
    """:func:`meet_pairs` of one pair (the same cuts, in scalars: cheaper than numpy for
    one): the effects, in order, the LOS between the centres of ``src`` and ``tgt`` could
    meet."""
    ranges, cx, cy, circles = _meet_scalars(prep)
    reach = prep.map.grid.distance(src, tgt) + 2
    cand = [i for i, (a, b) in enumerate(zip(ranges[src], ranges[tgt])) if a + b <= reach]
    if not cand:
        return cand
    sx, sy = cx[src], cy[src]
    dx, dy = cx[tgt] - sx, cy[tgt] - sy
    l2 = dx * dx + dy * dy
    out = []
    for i in cand:
        ex, ey, rad = circles[i]
        ux, uy = ex - sx, ey - sy
        t = min(max((ux * dx + uy * dy) / l2, 0.0), 1.0) if l2 > 0.0 else 0.0
        px, py = t * dx - ux, t * dy - uy
        if px * px + py * py <= rad * rad:
            out.append(i)
    return out


def _meet_scalars(prep: PreparedCounters) -> tuple[Any, ...]:
    """For :func:`meet_one`, kept on ``prep``: per hex the range to each effect's hex, the
    hex centres, and per effect its grown circle (Python numbers)."""
    got: tuple[Any, ...] | None = prep.__dict__.get("_meet_scalars")
    if got is None:
        g = prep.map.grid
        ex, ey, rad = _meet_arrays(prep)
        got = prep.__dict__["_meet_scalars"] = (
            [tuple(r) for r in _meet_distances(prep).T.tolist()],
            np.asarray(g.centre_x, np.float64).tolist(), np.asarray(g.centre_y, np.float64).tolist(),
            list(zip(ex.tolist(), ey.tolist(), rad.tolist())))
    return got


def _meet_distances(prep: PreparedCounters) -> np.ndarray:
    """The range from each effect's hex to every hex [E, n] (int16), kept on ``prep``."""
    got: np.ndarray | None = prep.__dict__.get("_meet_dist")
    if got is None:
        got = prep.__dict__["_meet_dist"] = np.stack(
            [prep.distances(e.hex) for e in prep.effects]) if prep.effects else \
            np.zeros((0, len(prep.near)), np.int16)
    return got


def _effect_ranges(prep: PreparedCounters) -> list[list[int]]:
    """Per effect, the range from its hex to every hex (lists: read one at a time)."""
    got: list[list[int]] | None = prep.__dict__.get("_ranges")
    if got is None:
        got = prep.__dict__["_ranges"] = _meet_distances(prep).tolist()
    return got


def _inner_circles(prep: PreparedCounters) -> list[tuple[float, float, float]]:
    """Per effect, (x, y, r^2) of a circle surely inside its polygon: about
    :attr:`Effect.circle`'s centre, a pixel less than :attr:`Effect.inner` (r^2 < 0: none)."""
    got: list[tuple[float, float, float]] | None = prep.__dict__.get("_inner")
    if got is None:
        got = prep.__dict__["_inner"] = [
            (e.circle[0], e.circle[1], (e.inner - 1.0) ** 2 if e.inner > 1.0 else -1.0)
            for e in prep.effects]
    return got


def _effect_hexes(prep: PreparedCounters) -> list[frozenset[int]]:
    """Per effect, its hex and the hexes next to it (the thread must enter one)."""
    got: list[frozenset[int]] | None = prep.__dict__.get("_around")
    if got is None:
        nb = prep.map.grid.neighbours
        got = prep.__dict__["_around"] = [
            frozenset([e.hex, *(int(x) for x in nb[e.hex] if x >= 0)]) for e in prep.effects]
    return got


def _meet_arrays(prep: PreparedCounters) -> tuple[np.ndarray, ...]:
    """The effects for :func:`meet_pairs`, kept on ``prep``: the centres of circles holding
    their polygons and the circles' radii grown by :data:`MEET_MARGIN_PX`."""
    got: tuple[np.ndarray, ...] | None = prep.__dict__.get("_meet_arrays")
    if got is None:
        circles = np.array([e.circle for e in prep.effects], np.float64).reshape(-1, 3)
        got = prep.__dict__["_meet_arrays"] = (
            circles[:, 0].copy(), circles[:, 1].copy(), circles[:, 2] + MEET_MARGIN_PX)
    return got


# -- the value of one effect on one LOS --------------------------------------------------------

def _smoke_value(drm: int, base: int, top: int, at_s: bool, at_t: bool, sE: int, tE: int,
                 rs: int, rt: int) -> int:
    """The DRM one SMOKE-like effect adds to a LOS it touches (module docstring), without the
    firer's +1 (A24.8, counted once by the caller)."""
    s_in = base <= sE < top
    t_in = base <= tE < top
    if at_s or at_t:
        if (at_s and (s_in or (sE == top and tE < sE))) or \
                (at_t and (t_in or (tE == top and sE < tE))):
            return drm
        return 0
    hi, lo = (sE, tE) if sE >= tE else (tE, sE)
    if hi < top:
        return drm    # both ends under its top: the LOS crosses the hex within the SMOKE
    r_hi, r_lo = (rs, rt) if sE >= tE else (rt, rs)
    if lo < top and r_lo <= max((top - lo) - (hi - top) + 1 + r_hi // 5, 1):
        return drm    # the lower end lies in the blind zone of the SMOKE's top (A6.4)
    return 0


#: The most pairs whose counter hindrances :func:`hindrances_between` keeps per prepared counters.
_HINDRANCE_PAIRS_KEPT = 1 << 18


def hindrances_between(prep: PreparedCounters, src: int, tgt: int, sE: int,
                       tE: int) -> tuple[Hindrance, ...]:
    """:func:`hindrances` of a clear LOS between the centres of ``src`` (elevation ``sE``) and
    ``tgt`` (``tE``), kept per pair with the prepared counters (they are immutable, so is the
    answer): a single query asked again -- the viewer's clicks, ``sight`` among the same units
    -- reads it back."""
    kept: dict[tuple[int, int, int, int], tuple[Hindrance, ...]] = \
        prep.__dict__.setdefault("_pair_hindrances", {})
    key = (src, tgt, sE, tE)
    got = kept.get(key)
    if got is None:
        if len(kept) >= _HINDRANCE_PAIRS_KEPT:
            kept.clear()
        got = kept[key] = tuple(hindrances(prep, src, tgt, sE, tE, None))
    return got


def hindrances(prep: PreparedCounters, src: int, tgt: int, sE: int, tE: int,
               thread: list[int] | None,
               points: tuple[float, float, float, float] | None = None) -> list[Hindrance]:
    """The counter hindrances of one clear LOS src (elevation sE) -> tgt (tE) whose kernel
    thread entered the hexes ``thread``: one per range key and kind (SMOKE-like, vehicle), the
    largest, plus each OBA once and the firer's +1 in SMOKE (A24.8).  ``points``: the ends'
    LOS points (x0, y0 of src, x1, y1 of tgt) when one is not its hex centre (bypass, D2.3).
    The thread may be None: an effect the segment runs through lies next to a hex the thread
    of a clear LOS enters (tests/lineofsight/test_counters_los.py), so the effects the segment
    may meet are those to test, as the batches (:func:`apply`) test them: between hex centres
    those :meth:`PreparedCounters.meet_effects` holds, from a bypass point every effect."""
    if points is None:
        # the effects the segment may meet (a few, in order), those next to the thread
        cand = prep.meet_effects(src, tgt)
        if not cand:
            return []
        if thread is not None:
            on = set(thread)
            around = _effect_hexes(prep)
            cand = [i for i in cand if not on.isdisjoint(around[i])]
    elif thread is None:
        cand = list(range(len(prep.effects)))
    else:
        near = prep.near
        sel: set[int] = set()
        for h in thread:
            if near[h]:
                sel.update(prep.by_near[h])
        cand = sorted(sel)
    if not cand:
        return []
    _ranges, cx, cy, _circles = _meet_scalars(prep)
    lo_id, hi_id = (src, tgt) if src <= tgt else (tgt, src)   # as the batches test it
    x0, y0, x1, y1 = cx[lo_id], cy[lo_id], cx[hi_id], cy[hi_id]
    if points is not None:
        x0, y0, x1, y1 = points if src <= tgt else (*points[2:], *points[:2])
    dx, dy = x1 - x0, y1 - y0
    l2 = dx * dx + dy * dy
    inside = _inner_circles(prep)
    dist = _effect_ranges(prep)
    best: dict[tuple[int, int], tuple[int, Effect]] = {}   # (class, key) -> (drm, effect)
    oba: dict[int, Effect] = {}
    firer_in = False
    for i in cand:
        e = prep.effects[i]
        at_s, at_t = e.hex == src, e.hex == tgt
        if not (at_s or at_t):
            # surely in, as the batches take it: the segment's foot from the centre of a
            # circle inside the polygon lies within the segment, a pixel inside that circle
            # (a run of pixels: over MIN_RUN_PX); else the clip decides
            ix, iy, r2 = inside[i]
            ux, uy = ix - x0, iy - y0
            t = (ux * dx + uy * dy) / l2 if l2 >= 4.0 else -1.0
            px, py = t * dx - ux, t * dy - uy
            if not ((0.0 < t < 1.0 and px * px + py * py <= r2)
                    or crosses(e.edges, x0, y0, x1, y1)):
                continue
        rs = dist[i][src]
        if e.kind in ("vehicle", "wreck"):
            if at_s or at_t or sE != e.base or tE != e.base:
                continue
            v, cls = e.drm, 1
        else:
            rt = dist[i][tgt]
            v = _smoke_value(e.drm, e.base, e.top, at_s, at_t, sE, tE, rs, rt)
            if not v:
                continue
            if e.kind == "oba":
                oba.setdefault(e.group, e)
                continue
            cls = 0
            firer_in = firer_in or (at_s and e.base <= sE < e.top)
        got = best.get((cls, rs))
        if got is None or v > got[0]:
            best[(cls, rs)] = (v, e)
    name = prep.map.name_of
    out = [_hindrance(prep, e, v, e.kind)
           for (_cls, _k), (v, e) in sorted(best.items(), key=lambda kv: (kv[0][1], kv[0][0]))]
    out += [_hindrance(prep, e, e.drm, "oba") for e in oba.values()]
    if firer_in:
        kind, drm, rule = FIRING_OUT_OF_SMOKE
        out.append(Hindrance(name(src), drm, kind, rule))
    return out


def _hindrance(prep: PreparedCounters, e: Effect, drm: int, kind: str) -> Hindrance:
    """The (frozen, kept on ``prep``) hindrance of effect ``e`` with ``drm``."""
    made: dict[tuple[int, int, int, str], Hindrance] = prep.__dict__.setdefault("_made", {})
    key = (e.hex, e.group, drm, kind)
    got = made.get(key)
    if got is None:
        got = made[key] = Hindrance(prep.map.name_of(e.hex), drm, kind, e.rule, name=e.name)
    return got


def apply(prep: PreparedCounters, src: np.ndarray, tgt: np.ndarray, sE: np.ndarray,
          tE: np.ndarray, blocked: np.ndarray, hindrance: np.ndarray,
          points: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """Add the counters' DRM to the clear pairs of a batch in place: ``hindrance`` grows by it
    and a total of six or more blocks (B.10).  Returns the counters' DRM per pair (0 where
    blocked).  Each pair's DRM is the sum of :func:`hindrances` for that LOS.  ``points``:
    (x0, y0, x1, y1) per pair, the ends' LOS points when one is in bypass (D2.3), as
    :func:`hindrances` takes them."""
    shape = np.broadcast(src, tgt).shape
    out = np.zeros(shape, np.int32)
    if not prep.effects or not len(out.ravel()):
        return out
    s_all, t_all = np.broadcast_to(src, shape), np.broadcast_to(tgt, shape)
    se_all, te_all = np.broadcast_to(sE, shape), np.broadcast_to(tE, shape)
    idx = np.flatnonzero(~np.broadcast_to(blocked, shape).ravel())
    if len(idx) == 0:
        return out
    s, t = s_all.ravel()[idx], t_all.ravel()[idx]
    se, te = se_all.ravel()[idx].astype(np.int64), te_all.ravel()[idx].astype(np.int64)
    pts = None if points is None else tuple(np.broadcast_to(p, shape).ravel()[idx].astype(np.float64)
                                            for p in points)
    drm = _pair_drm(prep, s.astype(np.int64), t.astype(np.int64), se, te, pts)
    flat = out.reshape(-1)
    flat[idx] = drm
    if hindrance.shape == shape:
        hindrance += out.astype(hindrance.dtype)
        over = ~blocked & (hindrance >= 6) & (out > 0)
        blocked |= over
    return out


def _pair_drm(prep: PreparedCounters, s: np.ndarray, t: np.ndarray, se: np.ndarray,
              te: np.ndarray, points: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """The counters' DRM of clear pairs (the arithmetic of :func:`hindrances`, per array): per
    effect, the pairs whose segment passes near the effect's polygon are tested exactly.
    ``points``: each pair's (x0, y0, x1, y1) LOS points (bypass ends, D2.3); else the centres."""
    grid = prep.map.grid
    cx, cy = grid.centre_x, grid.centre_y
    # the geometry is the same both ways: test each unordered pair once, from its lower id
    lo_id, hi_id = np.minimum(s, t).astype(np.int64), np.maximum(s, t).astype(np.int64)
    slack_hexes = 2
    if points is None:
        uniq, inv = np.unique(lo_id * len(grid) + hi_id, return_inverse=True)
        ua, ub = np.divmod(uniq, len(grid))
        x0, y0, x1, y1 = cx[ua], cy[ua], cx[ub], cy[ub]
    else:
        # each pair's own segment, from its lower id's end (as hindrances() orders it)
        swap = s > t
        px0, py0, px1, py1 = points
        seg = np.stack([lo_id, hi_id, np.where(swap, px1, px0), np.where(swap, py1, py0),
                        np.where(swap, px0, px1), np.where(swap, py0, py1)], axis=1)
        useg, inv = np.unique(seg, axis=0, return_inverse=True)
        inv = inv.reshape(-1)
        ua, ub = useg[:, 0].astype(np.int64), useg[:, 1].astype(np.int64)
        x0, y0, x1, y1 = useg[:, 2], useg[:, 3], useg[:, 4], useg[:, 5]
        uniq = ua
        slack_hexes = 4         # a hexside point lies up to half a hex off its centre
    dx, dy = x1 - x0, y1 - y0
    length = np.hypot(dx, dy)
    cross0 = dx * y0 - dy * x0          # the segment's line: dx * y - dy * x = cross0
    along0 = dx * x0 + dy * y0
    n = len(s)
    E = len(prep.effects)
    val = np.zeros((n, E), np.int8)
    key = np.zeros((n, E), np.int32)
    cls = np.zeros(E, np.int8)
    oba_hit: dict[int, np.ndarray] = {}
    firer = np.zeros(n, bool)
    r_u = grid.ranges(ua, ub)
    same = np.flatnonzero(s == t)
    for j, e in enumerate(prep.effects):
        ex, ey, reach = e.circle
        # first cuts: the hex lies within one hex of a shortest path between the ends, and the
        # polygon's circle meets the segment's strip; then the exact test
        dc = prep.distances(e.hex)
        iu = np.flatnonzero(dc[ua] + dc[ub] <= r_u + slack_hexes)
        if len(iu) == 0:
            continue
        li = length[iu]
        slack = (reach + 1.0) * li
        ddx, ddy = dx[iu], dy[iu]
        off = np.abs(ddx * ey - ddy * ex - cross0[iu])      # distance from the line x length
        along = ddx * ex + ddy * ey - along0[iu]
        near = (off <= slack) & (along >= -slack) & (along <= li * li + slack) & (li > 0)
        # surely in: within the inner circle less a pixel, beside the segment's run (a run of
        # over MIN_RUN_PX: crosses() says so too); the rest get the exact test
        sure = near & (off <= (e.inner - 1.0) * li) & (along >= 0) & (along <= li * li)
        on_u = np.zeros(len(uniq), bool)
        on_u[iu[sure]] = True
        iu = iu[near & ~sure]
        if len(iu):
            on_u[iu] = _crosses_many(e, x0[iu], y0[iu], x1[iu], y1[iu])
        idx = np.flatnonzero(on_u[inv])      # (an end hex is touched: the segment starts in it)
        if len(same):                        # a pair within one hex meets only that hex's
            idx = np.union1d(idx, same[s[same] == e.hex])
        if len(idx) == 0:
            continue
        ss, tt, s_e, t_e = s[idx], t[idx], se[idx], te[idx]
        at_s, at_t = ss == e.hex, tt == e.hex
        rs = grid.ranges(ss, int(e.hex))
        hi, lo = np.maximum(s_e, t_e), np.minimum(s_e, t_e)
        if e.kind in ("vehicle", "wreck"):
            cls[j] = 1
            v = np.where(~at_s & ~at_t & (s_e == e.base) & (t_e == e.base), e.drm, 0)
        else:
            rt = grid.ranges(tt, int(e.hex))
            s_in = (e.base <= s_e) & (s_e < e.top)
            t_in = (e.base <= t_e) & (t_e < e.top)
            end = (at_s & (s_in | ((s_e == e.top) & (t_e < s_e)))) | \
                  (at_t & (t_in | ((t_e == e.top) & (s_e < t_e))))
            r_hi = np.where(s_e >= t_e, rs, rt)
            r_lo = np.where(s_e >= t_e, rt, rs)
            zone = np.maximum((e.top - lo) - (hi - e.top) + 1 + r_hi // 5, 1)
            between = (hi < e.top) | ((lo < e.top) & (r_lo <= zone))
            hit = np.where(at_s | at_t, end, between)
            if e.kind == "oba":
                got = oba_hit.setdefault(e.group, np.zeros(n, bool))
                got[idx[hit]] = True
                continue
            firer[idx[hit & at_s & s_in]] = True
            v = np.where(hit, e.drm, 0)
        val[idx, j] = v
        pos = v > 0
        key[idx[pos], j] = rs[pos]
    total = firer.astype(np.int32)
    for g in oba_hit.values():
        total += g.astype(np.int32)
    for c in (0, 1):
        cols = np.flatnonzero(cls == c)
        if not len(cols):
            continue
        v = val[:, cols]
        count = (v > 0).sum(axis=1)
        total += np.where(count == 1, v.sum(axis=1, dtype=np.int32), 0).astype(np.int32)
        rows = np.flatnonzero(count > 1)      # several hexes: one per range key, the largest
        if len(rows):
            total[rows] += _per_key_max(v[rows], key[np.ix_(rows, cols)])
    return total


def _per_key_max(v: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Per row, the sum over distinct keys of the largest value with that key (a value of 0
    adds nothing, whatever its key): the positive entries scattered to (row, key) cells,
    each keeping its largest."""
    rows, cols = np.nonzero(v > 0)
    keys = k[rows, cols].astype(np.int64)
    width = int(keys.max()) + 1 if len(keys) else 1
    cell = np.zeros(v.shape[0] * width, np.int8)
    np.maximum.at(cell, rows * width + keys, v[rows, cols].astype(np.int8))
    out: np.ndarray = cell.reshape(v.shape[0], width).sum(axis=1, dtype=np.int32)
    return out
