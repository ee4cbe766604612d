"""Small movement maps for tests, built from arrays (no raster): one board, open ground.

``tiny(terrain={"woods": ["C3"]}, levels={1: ["D3"]}, hexsides={"wall": ["C3:N"]},
roads={"dirt": [["A1", "B1"]]})`` mirrors the sections of a hexwx map file.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from hexwx.hexmap.coords import HEXSIDE_NAMES, Grid
from hexwx.movement.costs import MoveTerrain
from hexwx.hexmap.terrain import CATALOGUE, catalogue_type

GRID = Grid.single()


def tiny(*, terrain: Mapping[str, Sequence[str]] | None = None,
         levels: Mapping[int, Sequence[str]] | None = None,
         hexsides: Mapping[str, Sequence[str]] | None = None,
         roads: Mapping[str, Sequence[Sequence[str]]] | None = None,
         movement: Mapping[str, Any] | None = None, grid: Grid = GRID) -> MoveTerrain:
    n = len(grid)
    centre = np.full(n, catalogue_type("open").code, np.int32)
    for key, hexes in (terrain or {}).items():
        for h in hexes:
            centre[grid.parse(h)] = catalogue_type(key).code
    level = np.zeros(n, np.int32)
    for lv, hexes in (levels or {}).items():
        for h in hexes:
            level[grid.parse(h)] = int(lv)
    side = np.full((n, 6), -1, np.int32)
    for key, items in (hexsides or {}).items():
        for item in items:
            hx, s = item.split(":")
            h, k = grid.parse(hx), HEXSIDE_NAMES.index(s)
            side[h, k] = catalogue_type(key).code
            o = grid.neighbours[h, k]
            if o >= 0:
                side[o, (k + 3) % 6] = catalogue_type(key).code
    rs = np.zeros((n, 6), np.int8)
    for kind, lines in (roads or {}).items():
        v = 2 if kind == "paved" else 1
        for line in lines:
            ids = [grid.parse(x) for x in line]
            for a, b in zip(ids, ids[1:]):
                k = grid.side_towards(a, b)
                rs[a, k] = v
                rs[b, (k + 3) % 6] = v
    return MoveTerrain(grid, CATALOGUE, centre, level, side, rs, dict(movement or {}), "test map")
