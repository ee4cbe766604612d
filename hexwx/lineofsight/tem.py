"""The Terrain Effects Modifier (TEM) a target's Location gives it, as data with its rules.

E3 3.712 needs one fact of it: winter camouflage gives +1 LV "unless [the target] already
qualifies for a positive TEM other than SMOKE".  The chart below is the ASL Terrain Chart's TEM
column for the terrain hexwx knows (Chapter B; not in the seeds): first matching name part wins.

Readings (docs/asl-weather.md):

* the hex's own terrain (a map file's fill, else the terrain at the hex centre) decides; a
  rooftop Location has no building TEM (reading);
* shellholes give their +1 to Infantry only (B2.1); every other entry to vehicles as to
  infantry (a reading: vehicle TEM in ASL depends on the attack).
"""
from __future__ import annotations

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import Hex
from hexwx.hexmap.terrain import Category, TerrainType

#: (name part, TEM, rule, infantry only): the Terrain Chart's TEM column (Chapter B).
TEM_CHART: tuple[tuple[str, int, str, bool], ...] = (
    ("Stone Rubble", 3, "B24.1", False),
    ("Wooden Rubble", 2, "B24.1", False),
    ("Stone", 3, "B23.1", False),          # stone buildings and factories
    ("Wooden", 2, "B23.1", False),         # wooden buildings and factories
    ("Woods", 1, "B13.3", False),          # woods, pine woods, light woods
    ("Forest", 1, "B13.3", False),
    ("Jungle", 1, "B13.3", False),
    ("Crags", 1, "B17.1", False),
    ("Graveyard", 1, "B18.1", False),
    ("Shellholes", 1, "B2.1", True),
    ("Foxhole", 2, "B27.1", False),
    ("Trench", 2, "B27.1", False),
    ("Pillbox", 3, "B30.1", False),
)

#: Terrain categories whose name decides between the stone/wooden rows (buildings only).
_BUILDING_CATEGORIES = (Category.BUILDING, Category.FACTORY)


def terrain_tem(t: TerrainType, *, infantry: bool = True) -> tuple[int, str | None]:
    """(TEM, rule) of terrain ``t`` for an infantry (or other) target; (0, None) for none."""
    for part, tem, rule, infantry_only in TEM_CHART:
        if part in ("Stone", "Wooden") and t.category not in _BUILDING_CATEGORIES:
            continue
        if part in t.name and (infantry or not infantry_only):
            return tem, rule
    return 0, None


def location_tem(m: HexMap, h: Hex, level: int = 0, *, infantry: bool = True) -> tuple[int, str | None]:
    """(TEM, rule) of the Location at ``level`` of hex ``h``: its hex terrain's TEM, none on a
    rooftop (reading)."""
    if m.is_rooftop(h, level):
        return 0, None
    return terrain_tem(m.terrain_of(h), infantry=infantry)
