"""The random terrain generator of seed 003 (after Wesencraft's With Pike and Musket).

The 6 ft × 2 ft 6 in table (182.88 × 76.2 cm) is split into 12 sectors, two rows of six, each
1 ft wide and 1 ft 3 in deep (30.48 × 38.1 cm).  Each sector throws a die: 4–6 puts a terrain
piece there, whose type is a second die (seed 003 steps 1–3).  On average six pieces.

Pieces are plain data (:class:`GeneratedPiece`: kind, shapely polygon in cm, sector) for the
tabletop to turn into table terrain.  Sizes are ours (the seed leaves the exact nature and size
to the players) and are listed in :data:`FOOTPRINTS`; every piece is centred in its sector with
its long side along the sector's depth, leaving at least 4 cm to the sector's edges.  Water is
placed as a pond or marsh; a stream running across several sectors is for the players to agree.

Sectors are numbered 1–12: 1–6 along the row at y = 0 (player A's edge), left to right, then
7–12 along the far row.  x runs along the 6 ft edge, y across the table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shapely.affinity import scale, translate
from shapely.geometry import Point, Polygon, box

from hexwx.dice import Dice
from hexwx.units import CM_PER_INCH
from hexwx.errors import UsageError
from hexwx.validate import is_whole

TABLE_WIDTH_CM = 72 * CM_PER_INCH          # 6 ft
TABLE_DEPTH_CM = 30 * CM_PER_INCH          # 2 ft 6 in
SECTOR_WIDTH_CM = 12 * CM_PER_INCH         # 1 ft
SECTOR_DEPTH_CM = 15 * CM_PER_INCH         # 1 ft 3 in
ROWS, COLUMNS = 2, 6

#: Seed 003 step 2: the sector die -> is there a terrain piece.
PRESENCE_CHART: dict[int, bool] = {1: False, 2: False, 3: False, 4: True, 5: True, 6: True}

#: Seed 003 step 3: the type die -> kind of piece.
TYPE_CHART: dict[int, str] = {
    1: "hill",
    2: "water",                 # stream, river, lake or marsh
    3: "wood",
    4: "built-up area",         # farmstead to walled town
    5: "player A's choice",
    6: "player B's choice",
}

#: Our sizes, cm: kind -> (shape, width along x, depth along y).
FOOTPRINTS: dict[str, tuple[str, float, float]] = {
    "hill": ("ellipse", 22.0, 30.0),
    "water": ("ellipse", 18.0, 12.0),
    "wood": ("blob", 20.0, 26.0),
    "built-up area": ("rectangle", 14.0, 10.0),
    "player A's choice": ("rectangle", 20.0, 20.0),
    "player B's choice": ("rectangle", 20.0, 20.0),
}

#: What a player may choose for a 5 or 6.
CHOOSABLE = ("hill", "water", "wood", "built-up area")


@dataclass(frozen=True)
class GeneratedPiece:
    """One generated terrain piece: ``kind``, its outline in cm on the table, its ``sector``."""

    kind: str
    polygon: Polygon
    sector: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict; the outline as a list of [x, y] in cm (closed ring)."""
        return {"kind": self.kind, "sector": self.sector,
                "polygon": [[round(x, 3), round(y, 3)] for x, y in self.polygon.exterior.coords]}


def sector_box(sector: int) -> Polygon:
    """The rectangle of sector 1–12 on the table, in cm."""
    if not is_whole(sector, 1, ROWS * COLUMNS):
        raise UsageError(f"sector must be a whole number 1-{ROWS * COLUMNS}, got {sector!r}")
    row, col = divmod(sector - 1, COLUMNS)
    x0, y0 = col * SECTOR_WIDTH_CM, row * SECTOR_DEPTH_CM
    return box(x0, y0, x0 + SECTOR_WIDTH_CM, y0 + SECTOR_DEPTH_CM)


def footprint(kind: str, centre: tuple[float, float]) -> Polygon:
    """The outline of a ``kind`` piece (see :data:`FOOTPRINTS`) centred on ``centre``."""
    shape, width, depth = FOOTPRINTS[kind]
    cx, cy = centre
    if shape == "rectangle":
        return box(cx - width / 2, cy - depth / 2, cx + width / 2, cy + depth / 2)
    if shape == "ellipse":
        return scale(Point(cx, cy).buffer(1.0, 16), width / 2, depth / 2, origin=(cx, cy))
    # "blob": a ten-cornered outline with every other corner pulled in, like a wood's edge.
    corners = [((1.0 if i % 2 == 0 else 0.8) * math.cos(math.tau * i / 10) * width / 2,
                (1.0 if i % 2 == 0 else 0.8) * math.sin(math.tau * i / 10) * depth / 2)
               for i in range(10)]
    return translate(Polygon(corners), cx, cy)


def _check_choice(name: str, value: str | None) -> str | None:
    if value is None or value in CHOOSABLE:
        return value
    raise UsageError(f"{name} must be one of {', '.join(CHOOSABLE)}, got {value!r}")


def generate_terrain(dice: Dice, *, choice_a: str | None = None,
                     choice_b: str | None = None) -> list[GeneratedPiece]:
    """Throw for all 12 sectors (seed 003); the pieces in sector order.

    ``choice_a``/``choice_b`` name what players A and B pick on a 5 or 6; left as None, the piece
    keeps the kind "player A's choice"/"player B's choice".
    """
    picks = {"player A's choice": _check_choice("choice_a", choice_a),
             "player B's choice": _check_choice("choice_b", choice_b)}
    pieces = []
    for sector in range(1, ROWS * COLUMNS + 1):
        if not PRESENCE_CHART[dice.dr(f"terrain sector {sector}: piece on 4-6 (1D6)")]:
            continue
        kind = TYPE_CHART[dice.dr(f"terrain sector {sector}: type (1D6)")]
        kind = picks.get(kind) or kind
        centre = sector_box(sector).centroid
        pieces.append(GeneratedPiece(kind, footprint(kind, (centre.x, centre.y)), sector))
    return pieces
