"""The terrain catalogue: what each terrain does to line of sight, as data with its citation.

A :class:`TerrainType` carries the LOS attributes VASL uses (LOS-SPEC section 3): obstacle,
hindrance, half-level, inherent, split (with lower-obstacle / lower-hindrance for same-level LOS),
height in whole levels and a LOS category.  A :class:`TerrainTable` maps one-byte terrain codes
to types; the LOS engine reads it as flat numpy arrays (:meth:`TerrainTable.arrays`).

VASL boards bring VASL's own table (``SharedBoardMetadata.xml``).  hexwx map files use
:data:`CATALOGUE`, our own list below, keyed by the names map files use (``"woods"``).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from hexwx.errors import UsageError
from hexwx.validate import bad


class Category(enum.IntEnum):
    """LOS categories (LOS-SPEC 3)."""

    OPEN = 0
    ROAD = 1
    WATER = 2
    OTHER = 3
    DEPRESSION = 4
    WOODS = 5
    BUILDING = 6
    FACTORY = 7
    MARKETPLACE = 8
    HEXSIDE = 9
    BRIDGE = 10
    ENTRENCHMENT = 11


# Name-derived flags the LOS rules test (LOS-SPEC 3 "Name tests matter in some rules").
F_LIGHT_WOODS = 1 << 0
F_ROOFLESS = 1 << 1       # "Roofless" or "Gutted"
F_CLIFF = 1 << 2
F_ROOFTOP = 1 << 3
F_CELLAR = 1 << 4
F_BOCAGE = 1 << 5
F_ORCHARD_OOS = 1 << 6    # "Orchard, Out of Season"
F_HILLOCK = 1 << 7
F_RUBBLE = 1 << 8         # "Stone Rubble" / "Wooden Rubble"
F_ROWHOUSE = 1 << 9       # rowhouse walls (treated as hexside terrain)
F_INTERIOR_WALL = 1 << 10 # interior factory walls (treated as hexside terrain)
F_GENERIC_BUILDING = 1 << 11  # exactly "Wooden Building" / "Stone Building": no upper levels
F_ONE_LEVEL_BUILDING = 1 << 12  # "... Building, 1 Level": always has a stairway
F_DENSE_JUNGLE = 1 << 13  # Dense Jungle / Bamboo (keep their own terrain over water pixels)
F_ROAD_NAME = 1 << 14     # a name containing "Road"
F_GRAIN_BRUSH = 1 << 15   # exactly "Grain" / "Brush" (one hindrance from a hillock, F6.4)


def name_flags(name: str) -> int:
    """The name-derived flags of a terrain called ``name`` (LOS-SPEC 3)."""
    f = 0
    if "Light Woods" in name:
        f |= F_LIGHT_WOODS
    if "Roofless" in name or "Gutted" in name:
        f |= F_ROOFLESS
    if "Cliff" in name:
        f |= F_CLIFF
    if "Rooftop" in name:
        f |= F_ROOFTOP
    if "Cellar" in name:
        f |= F_CELLAR
    if name == "Bocage":
        f |= F_BOCAGE
    if name == "Orchard, Out of Season":
        f |= F_ORCHARD_OOS
    if name == "Hillock":
        f |= F_HILLOCK
    if name in ("Stone Rubble", "Wooden Rubble"):
        f |= F_RUBBLE
    if name.startswith("Rowhouse Wall"):
        f |= F_ROWHOUSE
    if name.startswith("Interior Factory Wall"):
        f |= F_INTERIOR_WALL
    if name in ("Wooden Building", "Stone Building"):
        f |= F_GENERIC_BUILDING
    if name in ("Stone Building, 1 Level", "Wooden Building, 1 Level"):
        f |= F_ONE_LEVEL_BUILDING
    if name in ("Dense Jungle", "Bamboo"):
        f |= F_DENSE_JUNGLE
    if "Road" in name:
        f |= F_ROAD_NAME
    if name in ("Grain", "Brush"):
        f |= F_GRAIN_BRUSH
    return f


@dataclass(frozen=True)
class TerrainType:
    """One kind of terrain and its LOS attributes (LOS-SPEC 3), with the rule that defines it."""

    name: str
    code: int
    category: Category
    obstacle: bool = False
    hindrance: bool = False
    half_level: bool = False
    inherent: bool = False
    split: float = 0.0
    lower_obstacle: bool = False
    lower_hindrance: bool = False
    height: int = 0
    rule: str = ""
    key: str = ""  # the name hexwx map files use ("" for VASL-only types)

    @property
    def flags(self) -> int:
        return name_flags(self.name)

    @property
    def hindrance_value(self) -> int:
        """Hindrance DRM of one hex of this terrain when it hinders (LOS-SPEC 4.5, A6.7): 2 for
        light woods and roofless or gutted factory debris, 1 for any other terrain that can
        hinder (including orchards and light woods at their own level), 0 for the rest."""
        if not (self.hindrance or self.lower_hindrance or self.flags & F_LIGHT_WOODS):
            return 0
        return 2 if self.flags & (F_LIGHT_WOODS | F_ROOFLESS) else 1

    @property
    def is_building(self) -> bool:
        """Building for LOS purposes: categories BUILDING, FACTORY or MARKETPLACE."""
        return self.category in (Category.BUILDING, Category.FACTORY, Category.MARKETPLACE)

    @property
    def is_plain(self) -> bool:
        """Terrain no LOS rule reacts to below the viewers' level (open ground, roads, water)."""
        return (not (self.obstacle or self.hindrance or self.half_level or self.inherent
                     or self.lower_obstacle or self.lower_hindrance or self.is_building
                     or self.is_hexside or (self.flags & ~F_ROAD_NAME))
                and self.split == 0 and self.height == 0
                and self.category in (Category.OPEN, Category.ROAD, Category.WATER))

    @property
    def is_hexside(self) -> bool:
        """Hexside terrain: category HEXSIDE, rowhouse walls and interior factory walls."""
        return self.category == Category.HEXSIDE or bool(self.flags & (F_ROWHOUSE | F_INTERIOR_WALL))


@dataclass(frozen=True, eq=False)
class TerrainTable:
    """Terrain types by one-byte code, with flat arrays for the LOS engine."""

    types: tuple[TerrainType, ...]
    source: str = "hexwx catalogue"
    by_code: Mapping[int, TerrainType] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_code", MappingProxyType({t.code: t for t in self.types}))

    def has(self, code: int) -> bool:
        return code in self.by_code

    def __getitem__(self, code: int) -> TerrainType:
        return self.by_code[code]

    def code_named(self, name: str) -> int:
        """The code of the type whose VASL name or map-file key is ``name``."""
        for t in self.types:
            if name in (t.name, t.key):
                return t.code
        raise UsageError(f"unknown terrain {name!r}")

    @cached_property
    def _arrays(self) -> dict[str, np.ndarray]:
        n = 256
        a = {k: np.zeros(n, dtype=np.int8) for k in (
            "obstacle", "hindrance", "half", "inherent", "low_obs", "low_hind",
            "building", "building_terrain", "hexside", "known", "plain", "end_skip")}
        a["height"] = np.zeros(n, dtype=np.int32)
        a["split"] = np.zeros(n, dtype=np.float64)
        a["category"] = np.zeros(n, dtype=np.int32)
        a["flags"] = np.zeros(n, dtype=np.int32)
        for t in self.types:
            c = t.code
            a["known"][c] = 1
            a["obstacle"][c] = t.obstacle
            a["hindrance"][c] = t.hindrance
            a["half"][c] = t.half_level
            a["inherent"][c] = t.inherent
            a["low_obs"][c] = t.lower_obstacle
            a["low_hind"][c] = t.lower_hindrance
            a["height"][c] = t.height
            a["split"][c] = t.split
            a["category"][c] = int(t.category)
            a["flags"][c] = t.flags
            a["building"][c] = t.is_building
            a["building_terrain"][c] = t.category in (Category.BUILDING, Category.MARKETPLACE)
            a["hexside"][c] = t.is_hexside
            a["plain"][c] = t.is_plain
            a["end_skip"][c] = not (t.is_building or t.is_hexside)
        for v in a.values():
            v.setflags(write=False)
        return a

    def arrays(self) -> dict[str, np.ndarray]:
        """Per-code attribute arrays (length 256) used by the LOS kernel."""
        return self._arrays


# -- the hexwx catalogue for map files ------------------------------------------------------
# Attributes are the ASL facts behind each terrain (Chapter B), in the same form VASL uses, so
# that one LOS engine serves both worlds.  Codes are our own.

def _t(code: int, key: str, name: str, category: Category, rule: str, **kw: Any) -> TerrainType:
    return TerrainType(name=name, code=code, category=category, rule=rule, key=key, **kw)


_C = Category
CATALOGUE_TYPES: tuple[TerrainType, ...] = (
    _t(0, "open", "Open Ground", _C.OPEN, "B1"),
    _t(1, "road", "Dirt Road", _C.ROAD, "B3"),
    _t(2, "paved road", "Paved Road", _C.ROAD, "B3"),
    _t(3, "plowed field", "Plowed Field", _C.OPEN, "B1; E3.65"),
    _t(4, "shellholes", "Shellholes", _C.OPEN, "B2"),
    _t(5, "water", "Water", _C.WATER, "B21"),
    _t(10, "grain", "Grain", _C.OTHER, "B15", hindrance=True, half_level=True, lower_hindrance=True),
    _t(11, "brush", "Brush", _C.OTHER, "B12", hindrance=True, half_level=True, lower_hindrance=True),
    _t(12, "marsh", "Marsh", _C.OTHER, "B16", hindrance=True, half_level=True, lower_hindrance=True),
    _t(13, "crags", "Crags", _C.OTHER, "B17", hindrance=True, half_level=True, inherent=True,
       lower_hindrance=True),
    _t(14, "graveyard", "Graveyard", _C.OTHER, "B18", hindrance=True, half_level=True,
       inherent=True, lower_hindrance=True),
    _t(15, "orchard", "Orchard", _C.OTHER, "B14", obstacle=True, inherent=True, split=0.5,
       lower_hindrance=True, height=1),
    _t(16, "orchard out of season", "Orchard, Out of Season", _C.OTHER, "B14.2", hindrance=True,
       inherent=True, split=0.5, lower_hindrance=True, height=1),
    _t(20, "woods", "Woods", _C.WOODS, "B13", obstacle=True, lower_obstacle=True, height=1),
    _t(21, "pine woods", "Pine Woods", _C.WOODS, "B13.7", obstacle=True, lower_obstacle=True, height=2),
    _t(22, "light woods", "Light Woods", _C.OTHER, "B13 (light woods)", obstacle=True, split=0.5,
       lower_hindrance=True, height=1),
    _t(30, "stone building", "Stone Building", _C.BUILDING, "B23", obstacle=True,
       lower_obstacle=True, height=1),
    _t(31, "wooden building", "Wooden Building", _C.BUILDING, "B23", obstacle=True,
       lower_obstacle=True, height=1),
    _t(32, "stone building 1", "Stone Building, 1 Level", _C.BUILDING, "B23.2", obstacle=True,
       half_level=True, lower_obstacle=True, height=1),
    _t(33, "stone building 2", "Stone Building, 2 Level", _C.BUILDING, "B23.2", obstacle=True,
       half_level=True, lower_obstacle=True, height=2),
    _t(34, "stone building 3", "Stone Building, 3 Level", _C.BUILDING, "B23.2", obstacle=True,
       half_level=True, lower_obstacle=True, height=3),
    _t(35, "wooden building 1", "Wooden Building, 1 Level", _C.BUILDING, "B23.2", obstacle=True,
       half_level=True, lower_obstacle=True, height=1),
    _t(36, "wooden building 2", "Wooden Building, 2 Level", _C.BUILDING, "B23.2", obstacle=True,
       half_level=True, lower_obstacle=True, height=2),
    _t(40, "rubble", "Stone Rubble", _C.OTHER, "B24", obstacle=True, half_level=True,
       inherent=True, lower_obstacle=True),
    _t(41, "wooden rubble", "Wooden Rubble", _C.OTHER, "B24", obstacle=True, half_level=True,
       inherent=True, lower_obstacle=True),
    _t(50, "gully", "Gully", _C.DEPRESSION, "B19"),
    _t(51, "stream", "Shallow Stream", _C.DEPRESSION, "B20"),
    _t(52, "dry stream", "Dry Stream", _C.DEPRESSION, "B20"),
    _t(53, "sunken road", "Sunken Road", _C.DEPRESSION, "B4"),
    _t(60, "wall", "Wall", _C.HEXSIDE, "B9", obstacle=True, half_level=True, lower_obstacle=True),
    _t(61, "hedge", "Hedge", _C.HEXSIDE, "B9", obstacle=True, half_level=True, lower_obstacle=True),
    _t(62, "bocage", "Bocage", _C.HEXSIDE, "B9.5", obstacle=True, lower_obstacle=True, height=1),
    _t(63, "cliff", "Cliff", _C.HEXSIDE, "B11"),
)

CATALOGUE = TerrainTable(CATALOGUE_TYPES, source="hexwx terrain catalogue")

#: Map-file names of hexside terrain (drawn along hexsides, not filling hexes).
HEXSIDE_KEYS = tuple(t.key for t in CATALOGUE_TYPES if t.category == Category.HEXSIDE)
#: Map-file names of terrain that fills (part of) a hex.
HEX_KEYS = tuple(t.key for t in CATALOGUE_TYPES if t.category != Category.HEXSIDE)


def catalogue_type(key: str) -> TerrainType:
    """The catalogue type a map file calls ``key``; UsageError listing the valid names."""
    for t in CATALOGUE_TYPES:
        if t.key == key:
            return t
    raise bad("terrain", key, f"one of {', '.join(t.key for t in CATALOGUE_TYPES)}")
