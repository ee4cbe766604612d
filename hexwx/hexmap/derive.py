"""Deriving each hex's terrain from the raster, as VASL does (LOS-SPEC 2.2).

For every hex: its centre terrain (buildings that miss the centre dot included), building
levels and rooftop, the terrain of each hexside (walls, hedges, cliffs...), which hexside
locations are depressions, the base height, and inherent terrain filling the hex.

A board turned round among upright boards (:mod:`hexwx.hexmap.pixelgeom`) is derived upright,
from its own raster turned back, so each of its hexes has exactly the upright board's terrain
(the derivation reads hexsides in order 0-5 and scans pixels left to right: turned round, it
could pick another of two terrains drawn in one hex).  Its join hexes are derived on the
composed map: they are two boards' halves.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hexwx import _native as K
from hexwx.frozen import freeze
from hexwx.hexmap.coords import Grid
from hexwx.hexmap.pixelgeom import SIDE_TURNED, PixelGeometry, board_corner, upright_board_geometry
from hexwx.hexmap.terrain import Category, F_GENERIC_BUILDING, F_ONE_LEVEL_BUILDING, F_ROOFLESS, TerrainTable


@dataclass(frozen=True, eq=False)
class HexTerrain:
    """Per-hex derived terrain arrays (index = hex id)."""

    centre: np.ndarray        # int32 terrain code of the hex (after inherent replacement)
    centre_raw: np.ndarray    # int32 centre terrain before inherent replacement
    base: np.ndarray          # int32 ground level at the LOS point
    depression: np.ndarray    # bool: the centre is a depression (gully, stream, sunken road)
    side_terrain: np.ndarray  # int32 [n, 6] hexside terrain code, -1 = none
    loc_terrain: np.ndarray   # int32 [n, 6] terrain at each hexside location
    loc_depression: np.ndarray  # bool [n, 6]
    cliff: np.ndarray         # bool [n, 6]
    levels: np.ndarray        # int32 upper building levels (0 = none)
    rooftop: np.ndarray       # bool: a rooftop location above the top level
    stairway: np.ndarray      # bool

    def __post_init__(self) -> None:
        freeze(self)


def derive(grid: Grid, geo: PixelGeometry, elevation: np.ndarray, terrain: np.ndarray,
           table: TerrainTable, stairway_bytes: np.ndarray | None = None) -> HexTerrain:
    """Derive the terrain of every hex of ``grid`` from its raster (LOS-SPEC 2.2)."""
    a = table.arrays()
    cat, flags, height = a["category"], a["flags"], a["height"]
    building, hexside = a["building"], a["hexside"]
    n = len(grid)
    nb = grid.neighbours
    centre = np.zeros(n, np.int32)
    base = np.zeros(n, np.int32)
    side = np.full((n, 6), -1, np.int32)
    loc_t = np.zeros((n, 6), np.int32)
    loc_d = np.zeros((n, 6), bool)
    cliff = np.zeros((n, 6), bool)
    levels = np.zeros(n, np.int32)
    rooftop = np.zeros(n, bool)
    stair = np.zeros(n, bool)
    open_code = next((t.code for t in table.types if t.name == "Open Ground"), 0)
    cliff_codes = {t.code for t in table.types if "Cliff" in t.name}
    lx, ly, loc, on = geo.los_x, geo.los_y, geo.loc, geo.side_on_map

    def t_at(x: int, y: int) -> int:
        return int(terrain[x, y])

    for h in range(n):
        # 1. centre terrain, or building terrain at a location point
        c = t_at(lx[h], ly[h])
        if not building[c]:
            for k in range(6):
                if on[h, k]:
                    tk = t_at(loc[h, k, 0], loc[h, k, 1])
                    if building[tk]:
                        c = tk
                        break
        # 2. buildings
        if building[c]:
            is_factory = cat[c] == Category.FACTORY
            has_stair = bool(stairway_bytes[h]) if stairway_bytes is not None and h < len(stairway_bytes) else False
            has_stair = has_stair or bool(flags[c] & F_ONE_LEVEL_BUILDING)
            stair[h] = has_stair
            if not (flags[c] & F_GENERIC_BUILDING) and (not is_factory or has_stair):
                levels[h] = height[c]
            multi = any(on[h, k] and building[t_at(loc[h, k, 0], loc[h, k, 1])] for k in range(6))
            if multi and not (flags[c] & F_ROOFLESS) and levels[h] > 0:
                rooftop[h] = True
            if cat[c] == Category.MARKETPLACE:
                c = open_code
        centre[h] = c
        # 3. hexside terrain (own location point, else the neighbour's opposite one)
        for k in range(6):
            if not on[h, k]:
                continue
            tk = t_at(loc[h, k, 0], loc[h, k, 1])
            if not hexside[tk]:
                o = nb[h, k]
                if o >= 0:
                    to = t_at(loc[o, (k + 3) % 6, 0], loc[o, (k + 3) % 6, 1])
                    if hexside[to]:
                        tk = to
            if hexside[tk]:
                side[h, k] = tk
                if tk in cliff_codes:
                    cliff[h, k] = True
            loc_t[h, k] = tk
        # 4. base height
        base[h] = int(elevation[lx[h], ly[h]])
    depression = cat[centre] == Category.DEPRESSION
    centre_raw = centre.copy()
    # 6. inherent terrain filling the hex (after levels are created)
    K.inherent_pass(centre, geo.border, geo.width, geo.height, terrain, a["inherent"], lx, ly, loc, on)
    # 7. hexside pass 2, hex by hex in id order (VASL's column-major reset): own location
    #    point, then the side of a shared hexside a neighbour finished earlier has.  A
    #    neighbour not yet reset does not count, so where both location points of a hexside
    #    hold hexside terrain (a cliff on one side, a wall on the other) the earlier hex's
    #    wins for both; a hexside once read as cliff keeps its cliff flag (the flag is only
    #    ever set, as VASL's is).
    for h in range(n):
        for k in range(6):
            if not on[h, k]:
                continue
            tk = t_at(loc[h, k, 0], loc[h, k, 1])
            if hexside[tk]:
                side[h, k] = tk
                if tk in cliff_codes:
                    cliff[h, k] = True
            elif cat[tk] == Category.DEPRESSION:
                loc_d[h, k] = True
            o = nb[h, k]
            if 0 <= o < h and side[o, (k + 3) % 6] >= 0:
                side[h, k] = side[o, (k + 3) % 6]
                if side[h, k] in cliff_codes:
                    cliff[h, k] = True
    out = dict(centre=centre, centre_raw=centre_raw, base=base, depression=depression,
               side_terrain=side, loc_terrain=loc_t, loc_depression=loc_d, cliff=cliff,
               levels=levels, rooftop=rooftop, stairway=stair)
    for i in geo.turned:
        _derive_upright(out, grid, i, elevation, terrain, table, stairway_bytes)
    return HexTerrain(**out)


def _derive_upright(out: dict[str, np.ndarray], grid: Grid, i: int, elevation: np.ndarray,
                    terrain: np.ndarray, table: TerrainTable,
                    stairway_bytes: np.ndarray | None) -> None:
    """Overwrite (in place) the arrays of the hexes of turned board ``i`` that are not on a
    join with their derivation on the board upright: its raster turned back."""
    x0, y0 = board_corner(grid, i)
    w, h_px = grid.shape.width_px, grid.shape.height_px
    elev = elevation[x0:x0 + w, y0:y0 + h_px][::-1, ::-1]
    terr = terrain[x0:x0 + w, y0:y0 + h_px][::-1, ::-1]
    cells = grid.board_cells(i)
    stairs = None if stairway_bytes is None else np.asarray(stairway_bytes)[cells]
    up = derive(Grid.single(shape=grid.shape), upright_board_geometry(grid.shape),
                np.ascontiguousarray(elev),
                np.ascontiguousarray(terr), table, stairs)
    keep = ~grid.join_hexes[cells]
    h, u = cells[keep], np.flatnonzero(keep)
    turn = np.array(SIDE_TURNED)
    for name in ("centre", "centre_raw", "base", "depression", "levels", "rooftop", "stairway"):
        out[name][h] = getattr(up, name)[u]
    for name in ("side_terrain", "loc_terrain", "loc_depression", "cliff"):
        out[name][h[:, None], turn[None, :]] = getattr(up, name)[u]
