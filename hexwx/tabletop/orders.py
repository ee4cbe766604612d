"""Huzzah! Glorious Empires orders as geometry: advance, retire, charge, group rates, "out of
range" (seed 002 pp.18-20).  Only the distances and shapes; the order rolls stay the players'.

* **Advance** (p.19): forwards up to the full move, measured front face to front face, straight
  ahead; at the end a sideways drift of up to 5 cm left or right, keeping the facing.  A group
  moves at most at the slowest arm's rate (cavalry with infantry: the infantry's 20 cm).
  :func:`advance_area` is everywhere the unit's bases may be during and after the move: its
  bases swept by every forward distance 0..move and every drift -5..+5 cm (exact: the sum of
  each base rectangle and that rectangle of moves).
* **Retire** (p.20): straight backwards up to half the full move, no turning, inclining or
  drifting; a group retires at most half the full move of its slowest unit.
* **Charge** (p.19): an advance into contact, straight ahead, no drift.  :func:`charge` finds how
  far ahead the first contact is, whether the move reaches it (and is not stopped first by what
  stops an advance: dense terrain, water, another enemy), which part of the charger
  touches first (not the front: disordered, moved back 5 cm), which face of the enemy is
  charged -- the front when most of the charger's frontage would meet the enemy's front,
  otherwise the closest visible face seen from the charger's closer front corner -- and the
  charger squared up against that face.
* **Out of range** (p.18): a unit is out of range when it is beyond heavy artillery range
  (80 cm) of the nearest enemy unit, line of sight or not.

Readings (docs/tabletop.md "Huzzah! orders"): the rate of an arm is its fastest formation in
the p.20 table (infantry 20, cavalry 30, foot and heavy artillery 15, horse artillery 25);
each unit of a group moves the smaller of its own allowance and the group's rate.  Squared up,
the charger's front is centred on the face it charges (the seed leaves the overlap to the owner)
and its bases keep their formation.  "Out of range" measures as p.11 ranges do, from the centre
of one unit to the centre of the closest visible face of the other, in both directions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from hexwx.errors import UsageError
from hexwx.tabletop.faces import Face, axes, closest_visible_face, faces
from hexwx.tabletop.model import TableTop, Unit, huzzah_class
from hexwx.tabletop.move import HUZZAH_MOVE_CM, allowance, standing_terrain
from hexwx.tabletop.sight import range_cm

#: Huzzah! p.19: the sideways drift allowed at the end of an advance, cm.
DRIFT_CM = 5.0
#: Huzzah! p.19: a charger touching with anything but its front face moves back this far, cm.
BOUNCE_CM = 5.0
#: What a Huzzah! unit's reach outline is (``hexwx table --move UNIT --outline``, the viewer):
#: the seed moves units only by these orders (its manoeuvre order is not in the seed's text).
HUZZAH_REACH_READING = ("where an individual order may take the unit's bases this turn: an "
                        "advance straight ahead with up to 5 cm drift at the end (p.19), a "
                        "retire straight back up to half the move (p.20); an advance stops "
                        "short of dense terrain, water and the enemy")
#: Huzzah! p.18 "Out of range": heavy artillery range, cm.
OUT_OF_RANGE_CM = 80.0


def need_huzzah(rules: str) -> None:
    """:class:`UsageError` unless ``rules`` is Huzzah! (the only seed with these orders)."""
    if rules != "huzzah":
        raise UsageError(f"advance, retire, charge, out of range and command are Huzzah! orders "
                         f"(seed 002); this scenario's rules are {rules!r}")


def arm_rate_cm(unit: Unit) -> float:
    """The fastest move of the unit's arm in the p.20 table (reading: an arm's "maximum move
    allowance", p.19)."""
    return float(max(HUZZAH_MOVE_CM[huzzah_class(unit)].values()))


@dataclass(frozen=True)
class GroupMove:
    """One unit's move in an ordered group: lengths in cm."""

    unit_id: str
    own: float            # the unit's own allowance this turn (formation, terrain)
    distance: float       # what it may move under the order
    area: BaseGeometry    # where its bases may be
    limited_by: str | None


def _sweep(unit: Unit, moves: Sequence[tuple[float, float]]) -> BaseGeometry:
    """Every base of ``unit`` moved by each (ahead, right) offset of the convex set whose
    corners are ``moves``, unioned: the exact Minkowski sum base + moves."""
    (fx, fy), (rx, ry) = axes(unit.facing)
    offs = [(a * fx + r * rx, a * fy + r * ry) for a, r in moves]
    parts = [MultiPoint([(x + dx, y + dy) for x, y in b.corners for dx, dy in offs]).convex_hull
             for b in unit.bases]
    return shapely.union_all(parts)


def advance_area(unit: Unit, distance_cm: float, drift_cm: float = DRIFT_CM) -> BaseGeometry:
    """Where ``unit``'s bases may be on an advance of up to ``distance_cm`` straight ahead with
    up to ``drift_cm`` of sideways drift at the end (p.19)."""
    d = max(0.0, distance_cm)
    return _sweep(unit, [(0, -drift_cm), (0, drift_cm), (d, drift_cm), (d, -drift_cm)])


def retire_area(unit: Unit, distance_cm: float) -> BaseGeometry:
    """Where ``unit``'s bases may be on a retire of up to ``distance_cm`` straight back (p.20)."""
    return _sweep(unit, [(0, 0), (-max(0.0, distance_cm), 0)])


def _on_road(table: TableTop, unit: Unit) -> bool:
    """A road column with every base on a road (it passes through terrain, p.19)."""
    return unit.formation == "column" and standing_terrain(table, unit)[0] == "road"


def _no_advance(table: TableTop, unit: Unit, on_road: bool | None = None
                ) -> list[tuple[Polygon, str]]:
    """The terrain an advance may not enter, with why (see :func:`advance_stop`); ``on_road``
    is :func:`_on_road` when the caller knows it already."""
    if _on_road(table, unit) if on_road is None else on_road:
        return []
    out: list[tuple[Polygon, str]] = []
    for p in table.terrain:
        if p.spec.line or not (p.dense or p.spec.move == "impassable"):
            continue
        if p.dense and shapely.relate_pattern(p.geometry, unit.geometry, "T********"):
            continue                  # already in it: leaving is a deploy order, not checked here
        what = (f"dense terrain {p.id!r}: an advance cannot enter it (p.19)" if p.dense
                else f"water {p.id!r} (impassable)")
        out += [(g, what) for g in shapely.get_parts(p.geometry) if g.geom_type == "Polygon"]
    return out


def advance_stop(table: TableTop, unit: Unit, distance_cm: float, *,
                 ignore: str | None = None) -> tuple[float, str | None]:
    """How far ``unit`` may advance straight ahead within ``distance_cm``, and what stops it:
    dense terrain it is not in ("an advance order cannot be used to occupy or leave dense
    terrain", p.19), water (reading: impassable, as :data:`~hexwx.tabletop.model.TERRAIN_KINDS`
    says) -- neither for a road column on a road (passing through; a bridge or ford) -- and an
    enemy unit (touching it is a charge, p.19) other than ``ignore`` (a charge's target)."""
    return _advance_stop(table, unit, distance_cm, _no_advance(table, unit), ignore)


def _advance_stop(table: TableTop, unit: Unit, distance_cm: float,
                  no_go: list[tuple[Polygon, str]], ignore: str | None
                  ) -> tuple[float, str | None]:
    """:func:`advance_stop` with the unit's :func:`_no_advance` terrain ``no_go`` given."""
    ahead, _ = axes(unit.facing)
    far = distance_cm + 1.0
    stops = list(no_go)
    stops += [(b.polygon, f"enemy unit {e.id!r}: moving into contact is a charge (p.19)")
              for e in table.units if e.side != unit.side and e.id != ignore for b in e.bases]
    best, why = distance_cm, None
    for base in unit.bases:
        for g, what in stops:
            hit = _first_hit(base.polygon, g, ahead, far)
            if hit is not None and hit[0] < best - 1e-9:
                best, why = hit[0], what
    return max(0.0, best), why


def group_moves(table: TableTop, unit_ids: Sequence[str], order: str) -> list[GroupMove]:
    """Each unit's distance and area on an ``order`` ("advance" or "retire") given to the group
    ``unit_ids`` (one unit: an individual order), Huzzah! pp.19-20 (module docstring); an
    advance stops short of what :func:`advance_stop` names."""
    if order not in ("advance", "retire"):
        raise UsageError(f"order must be advance or retire, got {order!r}")
    if not unit_ids:
        raise UsageError("an order needs at least one unit")
    units = [table.unit_by_id(u) for u in unit_ids]
    own = {u.id: table.from_unit(allowance(table, u.id, rules="huzzah").allowance) for u in units}
    out = []
    if order == "advance":
        slow = min(units, key=arm_rate_cm)
        cap = arm_rate_cm(slow) if len(units) > 1 else math.inf
        for u in units:
            dist = min(own[u.id], cap)
            why = (f"the group's slowest arm, {slow.arm} ({slow.id}): {cap:g} cm"
                   if dist < own[u.id] else None)
            on_road = _on_road(table, u)
            no_go = _no_advance(table, u, on_road)
            stop, what = _advance_stop(table, u, dist, no_go, None)
            if what is not None:
                dist, why = stop, f"{what} at {stop:.3g} cm"
            area = advance_area(u, dist)
            if no_go:                                   # nor may the drift take it there
                area = shapely.difference(area, shapely.union_all([g for g, _ in no_go]))
            elif on_road:                               # a road column keeps to its road
                area = shapely.union(
                    shapely.difference(area, shapely.union_all(
                        [p.geometry for p in table.terrain if p.spec.move == "impassable"
                         and not p.spec.line] or [Polygon()])),
                    advance_area(u, dist, drift_cm=0.0))
            out.append(GroupMove(u.id, own[u.id], dist, area, why))
        return out
    slowest = min(units, key=lambda u: own[u.id])
    half = own[slowest.id] / 2.0
    for u in units:
        dist = min(own[u.id] / 2.0, half)
        why = (f"half the move of the group's slowest unit, {slowest.id}"
               if dist < own[u.id] / 2.0 else None)
        out.append(GroupMove(u.id, own[u.id], dist, retire_area(u, dist), why))
    return out


# --------------------------------------------------------------------------------------------
# Charges
# --------------------------------------------------------------------------------------------

def _first_hit(a: Polygon, b: Polygon, d: tuple[float, float], far: float
               ) -> tuple[float, tuple[float, float]] | None:
    """How far convex ``a`` moves along unit vector ``d`` before it touches ``b``, and the
    first point of contact (on ``a`` before the move); None if it never does within ``far``."""
    best: tuple[float, tuple[float, float]] | None = None

    def hit(p: tuple[float, float], q: tuple[float, float], other: Polygon,
            mover_vertex: bool) -> None:
        nonlocal best
        cut = LineString([p, q]).intersection(other.exterior)
        for g in shapely.get_parts(cut):
            for c in g.coords:
                t = math.dist(p, c)
                if best is None or t < best[0] - 1e-12:
                    # a mover's corner meets b: the corner; b's corner meets the mover: where
                    best = (t, p if mover_vertex else (c[0], c[1]))

    for x, y in list(a.exterior.coords)[:-1]:
        hit((x, y), (x + d[0] * far, y + d[1] * far), b, True)
    for x, y in list(b.exterior.coords)[:-1]:
        hit((x, y), (x - d[0] * far, y - d[1] * far), a, False)
    return best


@dataclass(frozen=True)
class Charge:
    """A Huzzah! charge of ``charger`` on ``target``: lengths in cm (module docstring)."""

    charger: str
    target: str
    allowance: float
    contact: float | None          # distance straight ahead to first contact; None: never
    reaches: bool
    touches_with: str | None       # "front", "flank" or "rear" of the charger
    face: str | None               # the enemy's face charged
    face_rule: str
    squared: tuple[Polygon, ...]   # the charger's bases squared up on that face
    swept: BaseGeometry            # the charger's bases swept straight ahead by its allowance
    notes: tuple[str, ...]


def _front_overlap(charger: Unit, cf: Face, front: Face) -> float:
    """How much of the charger's frontage (its front face ``cf``) lies across the enemy's front
    face, straight ahead (the overlap of the two, projected on the charger's right-hand axis), cm."""
    _, (rx, ry) = axes(charger.facing)
    span = sorted(x * rx + y * ry for x, y in (cf.a, cf.b))
    face = sorted(x * rx + y * ry for x, y in (front.a, front.b))
    return max(0.0, min(span[1], face[1]) - max(span[0], face[0]))


def square_up(charger: Unit, face: Face, *, front: Face | None = None) -> tuple[Polygon, ...]:
    """The charger's bases moved rigidly so its front edge lies on ``face``, centred on it,
    facing into it (the enemy face's inward normal).  ``front``: the charger's front face
    (``faces(charger)[0]``) when the caller has it."""
    cf = faces(charger)[0] if front is None else front
    nx, ny = face.normal
    new_facing = math.degrees(math.atan2(-nx, -ny)) % 360.0
    turn = -(new_facing - charger.facing)          # shapely rotates counter-clockwise
    pivot = cf.centre
    out = []
    for b in charger.bases:
        p = affinity.rotate(b.polygon, turn, origin=pivot)
        p = affinity.translate(p, face.centre[0] - pivot[0], face.centre[1] - pivot[1])
        out.append(p)
    return tuple(out)


def charge(table: TableTop, charger_id: str, target_id: str) -> Charge:
    """A Huzzah! charge straight ahead (p.19; module docstring)."""
    charger, target = table.unit_by_id(charger_id), table.unit_by_id(target_id)
    if charger is target:
        raise UsageError(f"a unit cannot charge itself: {charger_id!r}")
    allow = table.from_unit(allowance(table, charger.id, rules="huzzah").allowance)
    ahead, _ = axes(charger.facing)
    far = 2.0 * math.hypot(table.width, table.depth)
    first: tuple[float, tuple[float, float]] | None = None
    for a in charger.bases:
        for b in target.bases:
            h = _first_hit(a.polygon, b.polygon, ahead, far)
            if h is not None and (first is None or h[0] < first[0]):
                first = h
    swept = advance_area(charger, allow, drift_cm=0.0)
    notes: list[str] = []
    if first is None:
        return Charge(charger.id, target.id, allow, None, False, None, None,
                      "no contact straight ahead", (), swept,
                      ("the target is not straight ahead: a charge cannot turn or drift (p.19)",))
    dist, point = first
    own = faces(charger)
    cf = own[0]                                   # the charger's front face
    touch = min(own, key=lambda f: LineString([f.a, f.b]).distance(Point(point)))
    stop, what = advance_stop(table, charger, min(dist, allow), ignore=target.id)
    reaches = dist <= allow + 1e-9 and what is None
    if what is not None:
        notes.append(f"stopped {stop:.3g} cm ahead by {what}, before the contact")
    if touch.kind != "front":
        notes.append(f"contact with its {touch.name}, not its front face: the charger is "
                     f"disordered and moved back {BOUNCE_CM:g} cm (p.19)")
    front = faces(target)[0]
    overlap = _front_overlap(charger, cf, front)
    frontage = cf.length
    if target.formation != "square" and front.outside(charger.centre) > 0 and \
            overlap > frontage / 2.0 + 1e-9:
        face, rule = front, (f"most of the charger's frontage ({overlap:.3g} of {frontage:.3g} "
                             f"cm) meets the enemy front: squared up on the front (p.19)")
    else:
        corner = min((cf.a, cf.b), key=lambda c: target.geometry.distance(Point(c)))
        face = closest_visible_face(target, corner)
        rule = ("the closest visible face seen from the charger's closer front corner "
                f"({corner[0]:.3g}, {corner[1]:.3g}) (p.19)")
    if target.formation == "square":
        notes.append("a square has no flank or rear (p.22)")
    if dist > allow + 1e-9:
        notes.append(f"contact is {dist:.3g} cm ahead, beyond the move of {allow:g} cm")
    squared = square_up(charger, face, front=cf) if reaches else ()
    return Charge(charger.id, target.id, allow, dist, reaches, touch.kind, face.name, rule,
                  squared, swept, tuple(notes))


# --------------------------------------------------------------------------------------------
# Out of range
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OutOfRange:
    """Whether ordered units are "out of range" (p.18): the nearest enemy and its distance, cm."""

    units: tuple[str, ...]
    nearest_enemy: str | None
    distance: float | None
    out_of_range: bool


def out_of_range(table: TableTop, unit_ids: Sequence[str]) -> OutOfRange:
    """Huzzah! p.18: out of range when every ordered unit is beyond 80 cm of the nearest enemy
    unit, regardless of line of sight (reading on measuring: module docstring)."""
    units = [table.unit_by_id(u) for u in unit_ids]
    if not units:
        raise UsageError("out of range needs at least one unit")
    sides = {u.side for u in units}
    enemies = [e for e in table.units if e.side not in sides]
    best: tuple[float, str] | None = None
    for u in units:
        for e in enemies:
            d = min(range_cm(u, e, "huzzah"), range_cm(e, u, "huzzah"))
            if best is None or d < best[0]:
                best = (d, e.id)
    if best is None:
        return OutOfRange(tuple(unit_ids), None, None, True)
    return OutOfRange(tuple(unit_ids), best[1], best[0], best[0] > OUT_OF_RANGE_CM + 1e-9)


def order_json(table: TableTop, obj: Any) -> dict[str, Any]:
    """A :class:`GroupMove`, :class:`Charge` or :class:`OutOfRange` as JSON in the table's unit
    (areas as lists of exterior rings)."""
    to = table.to_unit
    r = lambda v: None if v is None else round(to(v), 6)  # noqa: E731

    def rings(g: BaseGeometry) -> list[list[list[float]]]:
        return [[[round(to(x), 4), round(to(y), 4)] for x, y in p.exterior.coords]
                for p in shapely.get_parts(g) if p.geom_type == "Polygon"]

    if isinstance(obj, GroupMove):
        return {"unit": obj.unit_id, "own": r(obj.own), "distance": r(obj.distance),
                "limited_by": obj.limited_by, "area": rings(obj.area)}
    if isinstance(obj, Charge):
        return {"charger": obj.charger, "target": obj.target, "allowance": r(obj.allowance),
                "contact": r(obj.contact), "reaches": obj.reaches,
                "touches_with": obj.touches_with, "face": obj.face, "face_rule": obj.face_rule,
                "squared": [rings(p)[0] for p in obj.squared], "swept": rings(obj.swept),
                "notes": list(obj.notes)}
    if isinstance(obj, OutOfRange):
        return {"units": list(obj.units), "nearest_enemy": obj.nearest_enemy,
                "distance": r(obj.distance), "out_of_range": obj.out_of_range,
                "limit": r(OUT_OF_RANGE_CM)}
    raise UsageError(f"not an order result: {type(obj).__name__}")
