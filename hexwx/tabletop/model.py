"""The tabletop model: a table, its terrain pieces and the units standing on it as bases.

Everything is stored in **centimetres** (``1 in = 2.54 cm`` exactly, :data:`CM_PER_INCH`);
a :class:`TableTop` remembers the unit its scenario was written in and reports lengths back in
it (:meth:`TableTop.to_unit`).  Coordinates: origin at the lower-left corner of the table, ``x``
along the long edge, ``y`` across it.  Facing is in degrees clockwise from ``+y`` ("north"):
0 faces up the table, 90 faces ``+x``.

All objects are frozen.  Shapely geometry (polygons in cm) is built once when an object is
made and an STRtree over the terrain is built once per table, so a renderer can draw
``piece.geometry`` and ``base.corners`` directly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from hexwx.units import CM_PER_INCH, UNIT_CM  # noqa: F401  (CM_PER_INCH re-exported)
from hexwx.errors import UsageError
from hexwx.validate import bad

ARMS = ("infantry", "cavalry", "artillery")
#: line of battle, open order, road column, square (Huzzah! p.20 table and p.21 "Deploy").
FORMATIONS = ("line", "open", "column", "square")
#: artillery kinds of Huzzah! (p.11 ranges, p.20 movement); None for infantry and cavalry.
GUNS = ("foot", "horse", "heavy")


def to_cm(value: float, unit: str) -> float:
    """``value`` in ``unit`` ("in" or "cm") as centimetres."""
    try:
        return value * UNIT_CM[unit]
    except KeyError:
        raise UsageError(f"unknown length unit {unit!r}; expected in or cm") from None


def from_cm(value_cm: float, unit: str) -> float:
    """``value_cm`` centimetres expressed in ``unit`` ("in" or "cm")."""
    try:
        return value_cm / UNIT_CM[unit]
    except KeyError:
        raise UsageError(f"unknown length unit {unit!r}; expected in or cm") from None


# --------------------------------------------------------------------------------------------
# Terrain catalogue (rules as data)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TerrainKind:
    """What one kind of terrain piece does.

    ``dense``: blocks sight when higher than both ends (Huzzah! p.18 "Dense terrain: woods and
    buildings"); ``hill``: blocks sight when its height is above both ends; ``cover``: "soft" or
    "hard" for a unit in it (Huzzah! p.12 fire modifiers); ``move``: the movement class of the
    ground ("open", "rough", "dense", "impassable", "road"); ``line``: drawn as a line, not an area.
    """

    name: str
    dense: bool = False
    hill: bool = False
    cover: str | None = None
    move: str = "open"
    line: bool = False
    default_height: float = 0.0


#: Kinds of terrain piece.  Citations: Huzzah! Glorious Empires v6.3 p.18 ("Woods and buildings
#: are dense terrain. Woods are soft cover; buildings are hard cover") and p.12 (soft cover:
#: hedges, orchards, woods; hard cover: walls, buildings).  Movement classes and obstacle
#: heights are our readings (docs/tabletop.md): dense pieces default to 1 level tall, so a unit
#: on a hill of height 1 or more sees over woods and villages standing on flat ground.
TERRAIN_KINDS: dict[str, TerrainKind] = {
    k.name: k
    for k in (
        TerrainKind("wood", dense=True, cover="soft", move="dense", default_height=1.0),
        TerrainKind("built-up", dense=True, cover="hard", move="dense", default_height=1.0),
        TerrainKind("hill", hill=True, move="open", default_height=1.0),
        TerrainKind("water", move="impassable"),
        TerrainKind("rough", move="rough"),
        TerrainKind("orchard", cover="soft", move="rough"),
        TerrainKind("road", move="road", line=True),
        TerrainKind("hedge", cover="soft", move="open", line=True),
        TerrainKind("wall", cover="hard", move="open", line=True),
    )
}


def terrain_kind(name: str) -> TerrainKind:
    """The :class:`TerrainKind` called ``name``; :class:`UsageError` listing the kinds if unknown."""
    try:
        return TERRAIN_KINDS[name]
    except KeyError:
        raise UsageError(
            f"unknown terrain kind {name!r}; expected one of {', '.join(TERRAIN_KINDS)}"
        ) from None


@dataclass(frozen=True)
class TerrainPiece:
    """One terrain piece: ``geometry`` is a shapely Polygon (areas) or LineString (roads,
    hedges, walls) in cm; ``height`` is in levels (hills, and the top of dense terrain above
    the ground it stands on)."""

    id: str
    kind: str
    geometry: BaseGeometry
    height: float = 0.0

    def __post_init__(self) -> None:
        k = terrain_kind(self.kind)
        if k.line != isinstance(self.geometry, LineString):
            shape = "a line" if k.line else "a polygon"
            raise UsageError(f"terrain {self.id!r} of kind {self.kind!r} must be {shape}")
        if not self.geometry.is_valid or self.geometry.is_empty:
            raise UsageError(f"terrain {self.id!r}: geometry is empty or self-intersecting")
        shapely.prepare(self.geometry)

    @property
    def spec(self) -> TerrainKind:
        return TERRAIN_KINDS[self.kind]

    @property
    def dense(self) -> bool:
        return self.spec.dense

    @property
    def is_hill(self) -> bool:
        return self.spec.hill


# --------------------------------------------------------------------------------------------
# Bases and units
# --------------------------------------------------------------------------------------------

def rectangle(cx: float, cy: float, frontage: float, depth: float, facing: float) -> Polygon:
    """The rectangle of a base centred at (cx, cy), ``frontage`` wide across its facing and
    ``depth`` deep along it; corners in the order front-left, front-right, rear-right, rear-left."""
    a = math.radians(facing)
    fx, fy = math.sin(a), math.cos(a)  # unit vector of the facing
    rx, ry = fy, -fx  # to the right of the facing
    hw, hd = frontage / 2.0, depth / 2.0
    pts = [
        (cx + fx * hd - rx * hw, cy + fy * hd - ry * hw),
        (cx + fx * hd + rx * hw, cy + fy * hd + ry * hw),
        (cx - fx * hd + rx * hw, cy - fy * hd + ry * hw),
        (cx - fx * hd - rx * hw, cy - fy * hd - ry * hw),
    ]
    return Polygon(pts)


@dataclass(frozen=True)
class Base:
    """One base (stand): centre in cm, facing in degrees, frontage and depth in cm."""

    id: str
    x: float
    y: float
    facing: float
    frontage: float
    depth: float
    polygon: Polygon = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.frontage <= 0 or self.depth <= 0:
            raise UsageError(f"base {self.id!r}: frontage and depth must be > 0")
        poly = rectangle(self.x, self.y, self.frontage, self.depth, self.facing)
        shapely.prepare(poly)
        object.__setattr__(self, "polygon", poly)

    @property
    def corners(self) -> list[tuple[float, float]]:
        """Four corners in cm: front-left, front-right, rear-right, rear-left."""
        return [(float(x), float(y)) for x, y in list(self.polygon.exterior.coords)[:4]]

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)


@dataclass(frozen=True)
class Unit:
    """A unit (regiment, brigade, battery) of one or more bases.

    ``move_cm`` and ``range_cm`` override the rule set's movement and weapon range when given.
    """

    id: str
    side: str
    arm: str
    formation: str
    facing: float
    bases: tuple[Base, ...]
    guns: str | None = None
    move_cm: float | None = None
    range_cm: float | None = None

    def __post_init__(self) -> None:
        if self.arm not in ARMS:
            raise UsageError(f"unit {self.id!r}: unknown arm {self.arm!r}; expected one of {', '.join(ARMS)}")
        if self.formation not in FORMATIONS:
            raise UsageError(f"unit {self.id!r}: unknown formation {self.formation!r}; "
                             f"expected one of {', '.join(FORMATIONS)}")
        if self.guns is not None and self.guns not in GUNS:
            raise UsageError(f"unit {self.id!r}: unknown guns {self.guns!r}; expected one of {', '.join(GUNS)}")
        if not self.bases:
            raise UsageError(f"unit {self.id!r}: needs at least one base")

    @cached_property
    def geometry(self) -> BaseGeometry:
        """The union of the unit's base rectangles (cm)."""
        return shapely.union_all([b.polygon for b in self.bases])

    @cached_property
    def centre(self) -> tuple[float, float]:
        """The centre of the unit: the area centroid of its bases (the mean of the base centres
        when the bases are equal and do not overlap)."""
        n = len(self.bases)
        areas = [b.frontage * b.depth for b in self.bases]
        total = sum(areas)
        return (sum(b.x * a for b, a in zip(self.bases, areas)) / total,
                sum(b.y * a for b, a in zip(self.bases, areas)) / total) if n else (0.0, 0.0)


#: Huzzah! p.16, officer quality -> (Command Factor, command radius in cm).
OFFICER_QUALITY: dict[str, tuple[int, float]] = {
    "excellent": (10, 60.0),
    "skilful": (9, 50.0),
    "average": (8, 40.0),
    "poor": (7, 30.0),
    "abysmal": (6, 20.0),
}


@dataclass(frozen=True)
class Officer:
    """An officer (Huzzah! p.16): the centre of his base in cm, his side and quality
    (:data:`OFFICER_QUALITY`)."""

    id: str
    side: str
    x: float
    y: float
    quality: str = "average"

    def __post_init__(self) -> None:
        if self.quality not in OFFICER_QUALITY:
            raise UsageError(f"officer {self.id!r}: unknown quality {self.quality!r}; expected "
                             f"one of {', '.join(OFFICER_QUALITY)}")

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def command_radius_cm(self) -> float:
        return OFFICER_QUALITY[self.quality][1]


def arrange_bases(unit_id: str, cx: float, cy: float, count: int, frontage: float, depth: float,
                  facing: float, formation: str) -> tuple[Base, ...]:
    """``count`` bases centred on (cx, cy): side by side for line and open order, one behind
    another for road column, two ranks for square (Huzzah! p.22 marks a square by facing
    alternate bases to the rear; we keep all bases facing the unit's way)."""
    if formation == "column":
        cols, rows = 1, count
    elif formation == "square":
        cols, rows = math.ceil(count / 2), min(2, count)
    else:
        cols, rows = count, 1
    a = math.radians(facing)
    fx, fy = math.sin(a), math.cos(a)
    rx, ry = fy, -fx
    out = []
    for i in range(count):
        c, r = i % cols, i // cols
        across = (c - (cols - 1) / 2.0) * frontage
        along = ((rows - 1) / 2.0 - r) * depth
        out.append(Base(f"{unit_id}.{i + 1}", cx + rx * across + fx * along,
                        cy + ry * across + fy * along, facing, frontage, depth))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableTop:
    """An immutable table: ``width`` × ``depth`` cm, terrain pieces and units.

    ``unit`` is the length unit of its scenario ("in" or "cm"), used only for reporting.
    """

    width: float
    depth: float
    unit: str = "cm"
    terrain: tuple[TerrainPiece, ...] = ()
    units: tuple[Unit, ...] = ()
    name: str = ""
    officers: tuple[Officer, ...] = ()

    def __post_init__(self) -> None:
        if self.unit not in UNIT_CM:
            raise UsageError(f"unknown length unit {self.unit!r}; expected in or cm")
        if self.width <= 0 or self.depth <= 0:
            raise UsageError(f"table size must be positive, got {self.width} x {self.depth} cm")
        ids = [p.id for p in self.terrain]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise UsageError(f"duplicate terrain id {sorted(dup)[0]!r}")
        uids = [u.id for u in self.units] + [o.id for o in self.officers]
        dup = {i for i in uids if uids.count(i) > 1}
        if dup:
            raise UsageError(f"duplicate unit or officer id {sorted(dup)[0]!r}")

    # -- units of length ---------------------------------------------------------------------
    def to_unit(self, value_cm: float) -> float:
        """A length in cm expressed in the table's unit."""
        return from_cm(value_cm, self.unit)

    def from_unit(self, value: float) -> float:
        """A length in the table's unit as cm."""
        return to_cm(value, self.unit)

    # -- lookups ----------------------------------------------------------------------------
    @cached_property
    def outline(self) -> Polygon:
        return shapely.box(0.0, 0.0, self.width, self.depth)

    @cached_property
    def _units_by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def unit_by_id(self, unit_id: object, param: str = "unit_id") -> Unit:
        """The unit called ``unit_id``; :class:`UsageError` naming the parameter ``param`` and
        the known ids if absent."""
        unit = self._units_by_id.get(unit_id) if isinstance(unit_id, str) else None
        if unit is None:
            raise bad(param, unit_id, f"a unit id: one of {', '.join(u.id for u in self.units) or 'none'}")
        return unit

    def officer_by_id(self, officer_id: str) -> Officer:
        """The officer called ``officer_id``; :class:`UsageError` naming the known ids if absent."""
        for o in self.officers:
            if o.id == officer_id:
                return o
        known = ", ".join(o.id for o in self.officers) or "none"
        raise UsageError(f"unknown officer {officer_id!r}; expected one of {known}")

    @cached_property
    def terrain_tree(self) -> STRtree:
        """An STRtree over the terrain geometries (indices into :attr:`terrain`)."""
        return STRtree([p.geometry for p in self.terrain])

    @cached_property
    def base_index(self) -> tuple[tuple[Unit, Base], ...]:
        return tuple((u, b) for u in self.units for b in u.bases)

    @cached_property
    def base_tree(self) -> STRtree:
        """An STRtree over every base polygon, in :attr:`base_index` order."""
        return STRtree([b.polygon for _, b in self.base_index])

    def terrain_touching(self, geom: BaseGeometry) -> list[TerrainPiece]:
        """Terrain pieces whose geometry intersects ``geom`` (boundary contact counts)."""
        idx = self.terrain_tree.query(geom, predicate="intersects")
        return [self.terrain[i] for i in sorted(idx)]

    def ground_level(self, x: float, y: float) -> float:
        """The level at a point: the height of the highest hill containing it (0 off hills).

        Reading: a hill is a flat-topped plateau of its ``height``; nested hills give stepped
        ground.  A point on a hill's edge is on the hill."""
        pt = Point(x, y)
        levels = [p.height for p in self.terrain_touching(pt) if p.is_hill]
        return max(levels, default=0.0)

    def base_level(self, base: Base) -> float:
        """A base stands at the ground level under its centre."""
        return self.ground_level(base.x, base.y)

    def top_of(self, piece: TerrainPiece) -> float:
        """The height of the top of a piece: a hill's height; for dense terrain the ground level
        under it plus its own height (reading, see :data:`TERRAIN_KINDS`); 0 otherwise."""
        if piece.is_hill:
            return piece.height
        if piece.dense:
            rp = piece.geometry.representative_point()
            return self.ground_level(rp.x, rp.y) + piece.height
        return 0.0


def make_piece(piece_id: str, kind: str, geometry: BaseGeometry, height: float | None = None) -> TerrainPiece:
    """A terrain piece with the kind's default height when ``height`` is None."""
    k = terrain_kind(kind)
    return TerrainPiece(piece_id, kind, geometry, k.default_height if height is None else height)


def polygon(points: Iterable[tuple[float, float]]) -> Polygon:
    return Polygon(list(points))


def huzzah_class(unit: "Unit") -> tuple[str, str | None]:
    """The row of Huzzah!'s movement and range tables a unit reads (pp.12, 20): its arm, and
    for artillery its guns (foot guns when not given)."""
    return unit.arm, (unit.guns or "foot") if unit.arm == "artillery" else None
