"""A small synthetic hex map (raster painted hex by hex) and stand-in results for render tests.

The map is one unnamed board of the hexwx catalogue: open ground at level 0, woods in E5,
grain in C3, a wooden building in G4, a hill of level 1 (F7 G7 F8), level 2 in G8, and a wall
on the N hexside of D6 — painted into the raster the way a map file is, so the real per-hex
derivation (hexside terrain included) runs on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.results import Hindrance, LosResult
from hexwx.hexmap.coords import Grid
from hexwx.hexmap.pixelgeom import build_geometry
from hexwx.hexmap.terrain import CATALOGUE, catalogue_type

TERRAIN = {"woods": ["E5"], "grain": ["C3"], "wooden building": ["G4"]}
LEVELS = {1: ["F7", "G7", "F8"], 2: ["G8"]}
WALLS = [("D6", 0)]


@lru_cache(maxsize=1)
def synthetic_map() -> HexMap:
    grid = Grid.single("")
    geo = build_geometry(grid)
    W, H = grid.width_px, grid.height_px
    terrain = np.zeros((W, H), np.uint8)
    elevation = np.zeros((W, H), np.int8)
    for key, hexes in TERRAIN.items():
        for name in hexes:
            terrain[geo.hex_at == grid.parse(name)] = catalogue_type(key).code
    for level, hexes in LEVELS.items():
        for name in hexes:
            elevation[geo.hex_at == grid.parse(name)] = level
    wall = catalogue_type("wall").code
    for name, side in WALLS:
        h = grid.parse(name)
        (ax, ay), (bx, by) = grid.corners(h)[side], grid.corners(h)[(side + 1) % 6]
        for t in np.linspace(0.05, 0.95, 60):
            x, y = round(ax + (bx - ax) * t), round(ay + (by - ay) * t)
            terrain[x - 1:x + 2, y - 2:y + 3] = wall
    return HexMap("synthetic", grid, CATALOGUE, elevation, terrain, source="synthetic")


@dataclass(frozen=True)
class FakeViewshed:
    blocked: np.ndarray
    drm: np.ndarray


def _made_los(source: str, target: str, range_: int, blocked: bool, reason: str, rule: str | None,
              blocked_at: tuple[float, float] | None, blocking_hex: str | None, hindrance: int,
              lv: int, hindrances: tuple[Hindrance, ...] = ()) -> LosResult:
    """A LOS answer made by hand (not by the engine): rendering draws what it is given."""
    at = None if blocked_at is None else (blocked_at[0], blocked_at[1])
    return LosResult(source, target, 0, 0, range_, blocked, reason, rule, at,  # type: ignore[arg-type]
                     blocking_hex, hindrance, lv, hindrances)


def clear_los_through_grain() -> LosResult:
    """A clear LOS B3 -> E2 with the grain of C3 (+1) and fog LV (+1) in D3."""
    return _made_los("B3", "E2", 3, False, "clear", None, None, None, 1, 1,
                     (Hindrance("C3", 1, "grain", "B15"), Hindrance("D3", 1, "lv", "E3.311")))


def blocked_los_by_woods(m: HexMap) -> LosResult:
    """LOS C5 -> G5 blocked where it enters the woods of E5."""
    x, y = m.grid.centre(m.grid.parse("E5"))
    return _made_los("C5", "G5", 4, True, "woods", "B13", (x - 20.0, y), "E5", 0, 0)


def close(rgb: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return all(abs(int(a) - int(b)) <= tol for a, b in zip(rgb, want))
