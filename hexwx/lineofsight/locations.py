"""Locations within a hex as players name them, and their absolute elevation.

A location is a hex and a *level within it* (LOS-SPEC 4.1 step 1): 0 the hex at its own ground
level, 1..N the levels of a building (B23.2), N + 1 its rooftop (B23.8) where the building has one.
Its elevation is the hex's ground level plus that level, so a level-3 hill hex at level 0 is at
elevation 3, and level 2 of a building on it at elevation 5.  The kernel compares elevations; a
rooftop also counts half a level lower in most rules (LOS-SPEC 6.2), which its elevation here
does not show.

Names: ``J4 (level 0)``, ``J4 (hill level 3)``, ``Z2 (gully level -1)``, ``D4 level 2 (stone
building)``, ``D4 rooftop``; a building level or rooftop off level-0 ground adds its elevation,
``D4 level 2 (stone building, elevation 4)``.
"""
from __future__ import annotations

import re

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import HEXSIDE_NAMES, Hex
from hexwx.hexmap.terrain import TerrainType

_LEVELS_SUFFIX = re.compile(r",\s*[\d.]+\s+Levels?$")


def elevation(m: HexMap, h: Hex, level: int) -> int:
    """Absolute elevation of location ``level`` of hex ``h``: ground level + level."""
    return m.ground_level(h) + int(level)


def building_kind(m: HexMap, h: Hex) -> str:
    """The building of hex ``h`` in words: ``"Stone Building, 2 Level"`` -> ``"stone building"``.

    A market place's centre reads as open ground (LOS-SPEC 2.2 step 2): its name comes from the
    artwork at the hex's LOS point then, or it is just "building"."""
    t = m.terrain_of(h)
    if not t.is_building:
        g = m.geometry
        x, y = int(g.los_x[h]), int(g.los_y[h])
        raw = m.table[int(m.terrain[x, y])]
        t = raw if raw.is_building else t
    if not t.is_building:
        return "building"
    return terrain_words(t)


def terrain_words(t: TerrainType) -> str:
    """A terrain's name as a player says it: ``"Stone Building, 2 Level"`` -> ``"stone building"``,
    ``"Orchard"`` -> ``"orchard"``."""
    return _LEVELS_SUFFIX.sub("", t.name).lower()


def location_name(m: HexMap, h: Hex, level: int) -> str:
    """Location ``level`` of hex ``h`` as players say it (see the module docstring)."""
    name = m.name_of(h)
    base = m.ground_level(h)
    level = int(level)
    if level == 0:
        if base > 0:
            return f"{name} (hill level {base})"
        if base < 0:
            return f"{name} ({m.terrain_of(h).name.lower()} level {base})"
        return f"{name} (level 0)"
    where = f"elevation {base + level}" if base != 0 else ""
    if m.is_rooftop(h, level):
        return f"{name} rooftop" + (f" ({where})" if where else "")
    return f"{name} level {level} ({building_kind(m, h)}" + (f", {where})" if where else ")")


def end_words(location: str, side: int | None, entrenched: bool) -> str:
    """A Location's words for a unit at it: with "in an entrenchment" when the unit is in one
    (B27), with the bypassed hexside when it is in bypass (``side`` 0-5; None or -1 not; D2.3):
    ``"E8 (level 0) in bypass SE"``."""
    if entrenched:
        location = f"{location} in an entrenchment"
    return location if side is None or side < 0 else f"{location} in bypass {HEXSIDE_NAMES[side]}"
