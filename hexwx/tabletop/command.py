"""Huzzah! officers as geometry: the command radius and the officer's move (seed 002 pp.16-20).

* Command radius (p.16 table, :data:`~hexwx.tabletop.model.OFFICER_QUALITY`): excellent 60 cm,
  skilful 50, average 40, poor 30, abysmal 20, "measured from the centre of the officer's base";
  "all bases of a unit must be completely within the command radius for a bonus to apply"
  (p.18) -- the +1 to an order when every unit ordered is completely within it (p.17).
* Officers move 60 cm (p.20 "Movement in cm").

A base is a convex rectangle and the radius a disc, so a base is completely within it exactly
when its four corners are; the answer gives each unit's farthest corner.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from hexwx.tabletop.model import OFFICER_QUALITY, TableTop

#: Huzzah! p.20: officers move 60 cm.
OFFICER_MOVE_CM = 60.0


@dataclass(frozen=True)
class UnitInCommand:
    """One unit against an officer's radius: its farthest corner from him, cm."""

    unit_id: str
    farthest_corner: float
    within: bool


@dataclass(frozen=True)
class Command:
    """An officer's command radius and move, and which units of his side are completely within
    the radius (lengths in cm)."""

    officer: str
    quality: str
    command_factor: int
    radius: float
    move: float
    units: tuple[UnitInCommand, ...]
    radius_area: BaseGeometry
    move_area: BaseGeometry

    def to_json(self, table: TableTop) -> dict[str, Any]:
        r = lambda v: round(table.to_unit(v), 6)  # noqa: E731
        return {"officer": self.officer, "quality": self.quality,
                "command_factor": self.command_factor, "radius": r(self.radius),
                "move": r(self.move),
                "units": [{"unit": u.unit_id, "farthest_corner": r(u.farthest_corner),
                           "within": u.within} for u in self.units],
                "rule": "Huzzah! p.16 command radius, p.18 all bases completely within, "
                        "p.20 officers move 60 cm"}


def command(table: TableTop, officer_id: str) -> Command:
    """The officer's radius, move and his side's units against the radius (module docstring)."""
    o = table.officer_by_id(officer_id)
    factor, radius = OFFICER_QUALITY[o.quality]
    rows = []
    for u in table.units:
        if u.side != o.side:
            continue
        far = max(math.dist(o.centre, c) for b in u.bases for c in b.corners)
        rows.append(UnitInCommand(u.id, far, far <= radius + 1e-9))
    centre = Point(o.centre)
    return Command(o.id, o.quality, factor, radius, OFFICER_MOVE_CM, tuple(rows),
                   centre.buffer(radius, quad_segs=32),
                   shapely.intersection(centre.buffer(OFFICER_MOVE_CM, quad_segs=32), table.outline))
