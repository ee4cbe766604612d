"""Movement allowance of a tabletop unit under the weather and the ground it stands on.

allowance = base move (arm, formation, rule set) x weather multiplier (the TurnReport's) x
terrain factor, combined per rule set:

* **Huzzah!** (seed 002 p.20 "Movement in cm"): the table below.  Weather and ground conditions
  do not change movement in Huzzah! (they modify fire, skirmish and artillery factors, p.9-10).
  Squares cannot move; an advance order cannot enter or leave dense terrain unless in road
  column passing through (p.19), so a unit in dense terrain has no advance move.  Retire is
  half the allowance (p.20).
* **AGV and Mini-Nap 2** (seeds 000, 001): rain (AGV) and hot weather halve movement; snow (AGV)
  and rain, showers or snow (Mini-Nap 2) make all passable ground *rough*; "the maximum net
  effect on any unit is half rate", so weather and terrain never halve twice.  Reading: rough
  ground, woods and built-up areas are half rate; water is impassable.
* **Wesencraft gauge** (seed 003): fog -50 %, heavy rain -25 %, extreme heat -25 % (the
  multiplier); reading: terrain halves on top of that (the seed gives no cap).

Base moves for AGV (inches), Mini-Nap 2 and the gauge (cm) are *not* in the seeds: the
defaults below are ours, labelled as such, and a scenario sets ``move`` per unit to override.

:func:`reach_area` draws that allowance on the table: where the unit's bases may get by ways
that do not cross impassable ground (see its docstring for the readings).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import shapely

from hexwx.tabletop.sight import check_rules

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

    from hexwx.weather.minis.common import TurnReport
from hexwx.tabletop.model import TableTop, Unit, huzzah_class
from hexwx.units import CM_PER_INCH

#: Huzzah! Glorious Empires v6.3 p.20, "Movement in cm" (line of battle / open order / road
#: column).  Reserve artillery has two values; reading: the first is any formation, the second
#: road column.  Squares cannot move (p.20).  Key: (arm, guns or None) -> {formation: cm}.
HUZZAH_MOVE_CM: dict[tuple[str, str | None], dict[str, float]] = {
    ("infantry", None): {"line": 15, "open": 20, "column": 20, "square": 0},
    ("cavalry", None): {"line": 25, "open": 30, "column": 30, "square": 0},
    ("artillery", "foot"): {"line": 15, "open": 15, "column": 15, "square": 0},
    ("artillery", "heavy"): {"line": 15, "open": 15, "column": 15, "square": 0},
    ("artillery", "horse"): {"line": 25, "open": 25, "column": 25, "square": 0},
}

#: House defaults (not in the seeds) for the other rule sets, in each rule set's own unit:
#: AGV in inches, Mini-Nap 2 and the Wesencraft gauge in cm.  Override with ``move`` per unit.
HOUSE_MOVE: dict[str, tuple[str, dict[str, dict[str, float]]]] = {
    "agv": ("in", {"infantry": {"line": 6, "open": 8, "column": 9, "square": 0},
                   "cavalry": {"line": 12, "open": 12, "column": 15, "square": 0},
                   "artillery": {"line": 6, "open": 6, "column": 9, "square": 0}}),
    "mininap": ("cm", {"infantry": {"line": 10, "open": 15, "column": 15, "square": 0},
                       "cavalry": {"line": 20, "open": 20, "column": 25, "square": 0},
                       "artillery": {"line": 10, "open": 10, "column": 15, "square": 0}}),
    "wesencraft": ("cm", {"infantry": {"line": 12, "open": 15, "column": 15, "square": 0},
                          "cavalry": {"line": 24, "open": 24, "column": 30, "square": 0},
                          "artillery": {"line": 8, "open": 8, "column": 12, "square": 0}}),
}

#: Terrain factor by movement class (reading, see module docstring).  "dense" means woods and
#: built-up areas; Huzzah! treats them separately (no advance move).
TERRAIN_FACTOR = {"open": 1.0, "road": 1.0, "rough": 0.5, "dense": 0.5, "impassable": 0.0}
#: Ground conditions (TurnReport.ground) that make the whole table rough, by rule set.
ROUGH_GROUNDS = {"agv": {"rough", "mud"}, "mininap": {"rough", "mud"},
                 "wesencraft": {"rough", "mud"}, "huzzah": set()}
_WORST = ["open", "road", "rough", "dense", "impassable"]


@dataclass(frozen=True)
class Allowance:
    """A unit's move this turn, lengths in the table's unit."""

    unit_id: str
    rules: str
    unit: str
    base_move: float
    weather: str | None
    weather_multiplier: float
    ground: str
    terrain: str
    terrain_pieces: tuple[str, ...]
    terrain_factor: float
    net_factor: float
    allowance: float
    retire: float | None
    notes: tuple[str, ...]
    source: str

    def to_json(self) -> dict[str, Any]:
        r = lambda v: None if v is None else round(v, 6)  # noqa: E731
        return {"unit_id": self.unit_id, "rules": self.rules, "unit": self.unit,
                "base_move": r(self.base_move), "weather": self.weather,
                "weather_multiplier": self.weather_multiplier, "ground": self.ground,
                "terrain": self.terrain, "terrain_pieces": list(self.terrain_pieces),
                "terrain_factor": self.terrain_factor, "net_factor": self.net_factor,
                "allowance": r(self.allowance), "retire": r(self.retire),
                "notes": list(self.notes), "source": self.source}


def base_move_cm(unit: Unit, rules: str) -> tuple[float, str]:
    """The unit's full move in cm before weather and terrain, and where it comes from."""
    check_rules(rules)
    if unit.move_cm is not None:
        return unit.move_cm, "scenario"
    if rules == "huzzah":
        return float(HUZZAH_MOVE_CM[huzzah_class(unit)][unit.formation]), "Huzzah! p.20 movement table"
    unit_name, table = HOUSE_MOVE[rules]
    value = table[unit.arm][unit.formation]
    return value * (CM_PER_INCH if unit_name == "in" else 1.0), "hexwx house default (not in the seed)"


def standing_terrain(table: TableTop, unit: Unit) -> tuple[str, tuple[str, ...]]:
    """The worst movement class among the area pieces the unit's bases overlap (interior
    overlap), and their ids.  Reading: a road column with every base on a road uses the road."""
    geom = unit.geometry
    worst, ids = "open", []
    on_road = unit.formation == "column" and all(
        any(p.kind == "road" and p.geometry.intersects(b.polygon) for p in table.terrain_touching(b.polygon))
        for b in unit.bases)
    for p in table.terrain_touching(geom):
        if p.spec.line:
            continue
        if not shapely.relate_pattern(p.geometry, geom, "T********"):
            continue
        cls = p.spec.move
        if cls == "open":
            continue
        ids.append(p.id)
        if _WORST.index(cls) > _WORST.index(worst):
            worst = cls
    if on_road:
        ids.extend(p.id for p in table.terrain_touching(geom) if p.kind == "road")
        return "road", tuple(dict.fromkeys(ids))
    return worst, tuple(ids)


def allowance(table: TableTop, unit_id: str, *, rules: str,
              report: TurnReport | None = None) -> Allowance:
    """The unit's movement allowance this turn under ``report`` (None = fair weather)."""
    check_rules(rules)
    unit = table.unit_by_id(unit_id)
    base, source = base_move_cm(unit, rules)
    mult = 1.0 if report is None else float(report.movement_multiplier)
    ground = "normal" if report is None else report.ground
    terrain, pieces = standing_terrain(table, unit)
    notes: list[str] = []
    if ground in ROUGH_GROUNDS[rules] and terrain in ("open",):
        terrain = "rough"
        notes.append(f"ground {ground!r}: all passable ground counts as rough")
    tf = TERRAIN_FACTOR[terrain]
    if rules == "huzzah":
        if terrain == "dense":
            tf = 0.0
            notes.append("in dense terrain: leave or move on by a deploy order, not an advance (Huzzah! p.19)")
        if unit.formation == "square":
            notes.append("squares cannot move (Huzzah! p.20)")
        if terrain == "rough":
            notes.append("rough ground at half rate (reading: not in the seed)")
        net = mult * tf
    elif rules in ("agv", "mininap"):
        net = mult * tf
        if 0 < net < 0.5:
            net = 0.5
            notes.append("maximum net effect is half rate: weather and terrain do not halve twice")
    else:
        net = mult * tf
    if terrain == "impassable":
        notes.append("on impassable ground (water): no move (reading)")
    if mult != 1.0 and report is not None:
        notes.append(f"weather {report.weather!r}: movement x{mult:g}")
    allow = base * net
    retire = allow / 2.0 if rules == "huzzah" else None
    return Allowance(
        unit_id=unit.id, rules=rules, unit=table.unit, base_move=table.to_unit(base),
        weather=None if report is None else report.weather, weather_multiplier=mult,
        ground=ground, terrain=terrain, terrain_pieces=pieces, terrain_factor=tf,
        net_factor=net, allowance=table.to_unit(allow),
        retire=None if retire is None else table.to_unit(retire), notes=tuple(notes),
        source=source)


#: What the reach outline is (:func:`reach_area`; JSON ``reach.reading`` of ``hexwx table --move``
#: and the viewer).
REACH_READING = ("where the unit's bases may get this turn: within the allowance of its bases "
                 "by ways that do not cross water (a road over water is a bridge or ford), on "
                 "the table; terrain entered on the way does not shorten it")

#: The reach outline walks the allowance in at least this many equal steps, and more near
#: narrow water, up to the maximum (see :func:`reach_area`).
REACH_STEPS = 12
MAX_REACH_STEPS = 400


def reach_area(table: TableTop, unit_id: str, distance_cm: float) -> BaseGeometry:
    """Where the unit's bases may get with ``distance_cm`` of movement (cm, a shapely polygon
    or multipolygon on the table): every point within that distance of its bases by a way that
    does not cross impassable ground.

    Readings (the seeds draw no such area): water is impassable (the movement class of
    :data:`~hexwx.tabletop.model.TERRAIN_KINDS`) except where a road crosses it -- a bridge or
    ford, a corridor as wide as the unit's narrowest base side; the table's edge bounds it.
    The distance is walked in equal buffers (at least :data:`REACH_STEPS`; each at most a quarter of the
    narrowest water piece's mean width, up to :data:`MAX_REACH_STEPS`), each clipped to
    passable ground and kept only where it joins the ground already reached, so a stream is not
    jumped and the way goes round water (cutting its corners by at most one step).  In open
    ground the result is exact (a buffer of a buffer is the buffer of the sum).  Terrain entered on the way does not
    shorten the distance: :func:`allowance` reads it from the ground the unit stands on.
    """
    unit = table.unit_by_id(unit_id)
    start = unit.geometry
    if distance_cm <= 0:
        return start
    near = start.buffer(distance_cm, quad_segs=4)
    water = [p.geometry for p in table.terrain_touching(near)
             if p.spec.move == "impassable" and not p.spec.line]
    free: BaseGeometry = table.outline
    if not water:                    # open ground: one buffer is the exact answer
        return shapely.intersection(start.buffer(distance_cm), free)
    half = min(min(b.frontage, b.depth) for b in unit.bases) / 2.0
    roads = [p.geometry.buffer(half) for p in table.terrain if p.kind == "road"]
    blocked = shapely.union_all(water)
    if roads:
        blocked = blocked.difference(shapely.union_all(roads))
    free = free.difference(blocked)
    shapely.prepare(free)
    # a step shorter than the water is wide cannot jump it: at most a quarter of each piece's
    # mean width (2 x area / perimeter, the width of a long strip)
    thin = min(g.area / (2.0 * g.length) for g in water)
    n = min(MAX_REACH_STEPS, max(REACH_STEPS, math.ceil(distance_cm / thin)))
    region = start
    step = distance_cm / n
    for _ in range(n):
        grown = shapely.intersection(region.buffer(step), free)
        parts = [g for g in shapely.get_parts(grown)
                 if g.geom_type == "Polygon" and g.intersects(region)]
        # buffers of buffers pile up vertices: thin them far below a step
        region = shapely.union_all([*parts, start]).simplify(step / 100.0)
    return shapely.union(shapely.intersection(region, free), start)   # thinning stays on land
