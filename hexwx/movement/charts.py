"""The movement cost charts, as data: ASL chapter B costs by terrain and unit class.

Shaped like the printed Terrain Chart (one row per terrain, one column per unit class) and read
by :mod:`hexwx.movement.costs`; a map file's ``[movement]`` table overrides any cell.  The LOS
terrain catalogue (:mod:`hexwx.hexmap.terrain`) knows nothing of movement.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from hexwx.hexmap.terrain import Category

# ===========================================================================================
# MOVEMENT_COSTS — the movement cost chart, read by hexwx.movement.costs / hexwx.movement.paths.
# Shaped like the printed Terrain Chart: one row per terrain, one column per unit class.
# Values are MF (infantry, cavalry) or MP (vehicles); None = the class may not enter.
# Source: RULES-NOTES "ASL movement defaults" (chapter B basics, not in the seeds).  Cells the
# notes do not give are marked "reading" in the citation: our choice, to be checked against
# the printed chart.  A map file's [movement] table overrides any cell.
# ===========================================================================================

#: Unit classes, in the column order of the charts below.
MOVE_CLASSES: tuple[str, ...] = ("infantry", "cavalry", "tracked", "non-tracked", "sledge")
#: Classes whose allowance is MF (the others spend MP).
MF_CLASSES: frozenset[str] = frozenset({"infantry", "cavalry"})

_NO = None  # not allowed

#: Cost of entering each terrain (COT).  Roads: the road rate, paid only when the hex is entered
#: through a road hexside (B3.4); a road hex entered across any other hexside costs Open Ground.
#: Cavalry column: reading — the infantry costs (our notes give no cavalry column).
MOVEMENT_COSTS: Mapping[str, tuple[tuple[float | None, ...], str]] = MappingProxyType({
    #                    infantry cavalry tracked non-tracked sledge
    "Open Ground":      ((1,    1,    1,    1,    1),    "B1; RULES-NOTES"),
    "Plowed Field":     ((1,    1,    1,    1,    1),    "B1; RULES-NOTES (open ground)"),
    "Dirt Road":        ((1,    1,    0.5,  0.5,  0.5),  "B3.4; RULES-NOTES"),
    "Paved Road":       ((1,    1,    0.5,  0.5,  0.5),  "B3.4; RULES-NOTES"),
    "Grain":            ((1.5,  1.5,  1,    1,    1),    "B15; RULES-NOTES"),
    "Orchard":          ((1,    1,    1,    1,    1),    "B14; RULES-NOTES"),
    "Brush":            ((2,    2,    2,    2,    2),    "B11; RULES-NOTES"),
    "Woods":            ((2,    2,    4,    _NO,  _NO),  "B13; RULES-NOTES (vehicles: tracked only)"),
    "Building":         ((2,    2,    _NO,  _NO,  _NO),  "B23; RULES-NOTES"),
    "Marsh":            ((2,    2,    _NO,  _NO,  _NO),  "B16; RULES-NOTES"),
    "Shellholes":       ((2,    2,    2,    2,    2),    "B2; RULES-NOTES (vehicles: reading)"),
    "Rubble":           ((3,    3,    4,    _NO,  _NO),  "B24; RULES-NOTES (vehicles: reading)"),
    "Crags":            ((3,    3,    _NO,  _NO,  _NO),  "B17; RULES-NOTES (vehicles: reading)"),
    "Graveyard":        ((2,    2,    2,    _NO,  _NO),  "B18 (reading)"),
    "Gully":            ((2,    2,    4,    4,    4),    "B19; E3.54 EX"),
    "Dry Stream":       ((2,    2,    4,    4,    4),    "B20 (reading: as a gully)"),
    "Shallow Stream":   ((2,    2,    4,    4,    4),    "B20 (reading)"),
    "Water":            ((_NO,  _NO,  _NO,  _NO,  _NO),  "B21"),
})

#: Terrain names that move as another row of MOVEMENT_COSTS (exact names first).
MOVEMENT_ALIASES: Mapping[str, str] = MappingProxyType({
    "Orchard, Out of Season": "Orchard", "Olive Grove": "Orchard", "Vineyard": "Orchard",
    "Pine Woods": "Woods", "Light Woods": "Woods", "Forest": "Woods", "Dense Jungle": "Woods",
    "Stone Rubble": "Rubble", "Wooden Rubble": "Rubble", "Wood Rubble": "Rubble",
    "Sunken Road": "Gully", "Wadi": "Gully", "Mudflats": "Marsh", "Swamp": "Marsh",
    "Deep Stream": "Water", "River": "Water", "Ocean": "Water", "Canal": "Water",
    "Runway": "Paved Road", "Foxholes": "Open Ground", "Trench": "Open Ground",
})

#: Substrings of other names, tried in order: ("Building" in name -> "Building" row, ...).
MOVEMENT_NAME_PARTS: tuple[tuple[str, str], ...] = (
    ("Rubble", "Rubble"), ("Building", "Building"), ("Woods", "Woods"), ("Jungle", "Woods"),
    ("Orchard", "Orchard"), ("Bridge", "Paved Road"), ("Shallow", "Shallow Stream"),
    ("Stream", "Shallow Stream"), ("Water", "Water"),
)

#: Last resort: the row for a terrain's category (reading: OTHER moves as Open Ground).
MOVEMENT_CATEGORY_FALLBACK: Mapping[Category, str] = MappingProxyType({
    Category.OPEN: "Open Ground", Category.ROAD: "Dirt Road", Category.WATER: "Water",
    Category.OTHER: "Open Ground", Category.DEPRESSION: "Gully", Category.WOODS: "Woods",
    Category.BUILDING: "Building", Category.FACTORY: "Building",
    Category.MARKETPLACE: "Open Ground", Category.BRIDGE: "Paved Road",
    Category.ENTRENCHMENT: "Open Ground",
})

#: Extra cost of crossing a hexside (added to the COT); None = may not cross.
#: Bocage: reading — like a wall/hedge (+1), to be checked against B9.5.
HEXSIDE_MOVEMENT_COSTS: Mapping[str, tuple[tuple[float | None, ...], str]] = MappingProxyType({
    #                    infantry cavalry tracked non-tracked sledge
    "Wall":             ((1,    1,    1,    1,    1),    "B9; RULES-NOTES"),
    "Hedge":            ((1,    1,    1,    1,    1),    "B9; RULES-NOTES"),
    "Bocage":           ((1,    1,    1,    1,    1),    "B9.5 (reading: as wall/hedge)"),
    "Cliff":            ((_NO,  _NO,  _NO,  _NO,  _NO),  "B10.4; RULES-NOTES"),
})
#: Hexside names matched by substring ("Cactus Hedge" -> "Hedge"); others cost nothing.
HEXSIDE_NAME_PARTS: tuple[tuple[str, str], ...] = (
    ("Bocage", "Bocage"), ("Cliff", "Cliff"), ("Hedge", "Hedge"), ("Wall", "Wall"),
)

#: Moving up to a higher ground level: ("x", 2) = twice the COT of the hex entered (B10.4;
#: RULES-NOTES, infantry; cavalry reading: as infantry); ("+", 4) = the COT + 4 MP (vehicles:
#: the E3 3.54 example, a halftrack pays "4 [higher elevation] +1 [Open Ground]").  Reading: a
#: rise of several levels in one step (only on maps drawn that way) counts once.
UP_LEVEL_COST: Mapping[str, tuple[str, float]] = MappingProxyType({
    "infantry": ("x", 2), "cavalry": ("x", 2),
    "tracked": ("+", 4), "non-tracked": ("+", 4), "sledge": ("+", 4),
})
UP_LEVEL_RULE = "B10.4; RULES-NOTES; E3.54 EX"

#: Road bonus (B3.4): extra MF for a unit that spends its whole move along road hexsides.
ROAD_BONUS: Mapping[str, float] = MappingProxyType({"infantry": 1, "cavalry": 1})
ROAD_BONUS_RULE = "B3.4"
