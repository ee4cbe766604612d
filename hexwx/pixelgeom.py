"""Pixel geometry of a hex map in VASL's raster convention (LOS-SPEC 1.3-1.8).

Everything here is computed once per map: hex LOS points, border and extended-border
polygons, hexside location points, which hexsides lie off the map, and the pixel -> hex lookup
for every pixel.  The small ``@njit`` helpers (polygon insideness, nearest location, range) are
shared by the per-hex derivation and the LOS kernel.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from hexwx.coords import HEX_HEIGHT_PX, HEX_SIDE_PX, HEX_WIDTH_PX, Grid

_HALF_H = HEX_HEIGHT_PX / 2                 # 32.25
_HO = math.cos(math.radians(30)) * _HALF_H  # 27.93: centre to hexside location points
#: Vertex offsets v0..v5 from the exact centre (LOS-SPEC 1.4).
_VERTS = ((-HEX_SIDE_PX / 2, -_HALF_H), (HEX_SIDE_PX / 2, -_HALF_H), (HEX_SIDE_PX, 0.0),
          (HEX_SIDE_PX / 2, _HALF_H), (-HEX_SIDE_PX / 2, _HALF_H), (-HEX_SIDE_PX, 0.0))
#: Offsets applied to the truncated vertices of the extended border (LOS-SPEC 1.5).
_EXT_DELTA = ((-1, -1), (-1, 1), (1, 0), (1, 1), (-1, 1), (-1, 0))
#: Hexside location point offsets from the centre, before truncation (LOS-SPEC 1.8).
_LOC_OFFS = ((0.0, -_HALF_H + 1), (_HO - 1, -_HALF_H / 2 + 1), (_HO - 1, _HALF_H / 2 - 1),
             (0.0, _HALF_H - 1), (-_HO + 1, _HALF_H / 2 - 1), (-_HO + 1, -_HALF_H / 2 + 1))


def _edge_fix(v: float, size: int) -> float:
    """VASL's edge fix: exactly -1 -> 0; integer part size or size+1 -> size-1 (LOS-SPEC 1.3)."""
    if v == -1:
        return 0.0
    if int(v) in (size, size + 1):
        return float(size - 1)
    return v


@dataclass(frozen=True, eq=False)
class PixelGeometry:
    """Per-hex pixel geometry arrays and the per-pixel hex lookup of one map."""

    width: int
    height: int
    los_x: np.ndarray       # int32 [n]
    los_y: np.ndarray       # int32 [n]
    border: np.ndarray      # int32 [n, 6, 2]
    ext: np.ndarray         # int32 [n, 6, 2]
    loc: np.ndarray         # int32 [n, 6, 2] hexside location points
    side_on_map: np.ndarray  # bool [n, 6]
    hex_at: np.ndarray      # int32 [width, height]: grid lookup (LOS-SPEC 1.6), -1 = none


def build_geometry(grid: Grid) -> PixelGeometry:
    """Compute the pixel geometry of ``grid`` (LOS-SPEC 1.3-1.6)."""
    W, H = grid.width_px, grid.height_px
    n = len(grid)
    los_x = np.zeros(n, np.int32)
    los_y = np.zeros(n, np.int32)
    border = np.zeros((n, 6, 2), np.int32)
    ext = np.zeros((n, 6, 2), np.int32)
    loc = np.zeros((n, 6, 2), np.int32)
    on_map = np.ones((n, 6), bool)
    last_col = grid.ncols - 1
    for h in range(n):
        X, Y = float(grid.centre_x[h]), float(grid.centre_y[h])
        los_x[h] = math.floor(_edge_fix(X, W))
        los_y[h] = math.floor(_edge_fix(Y, H))
        for k, (ox, oy) in enumerate(_VERTS):
            vx, vy = _edge_fix(X + ox, W), _edge_fix(Y + oy, H)
            border[h, k] = (math.floor(vx + 0.5), math.floor(vy + 0.5))
            ext[h, k] = (int(vx) + _EXT_DELTA[k][0], int(vy) + _EXT_DELTA[k][1])
        for k, (ox, oy) in enumerate(_LOC_OFFS):
            loc[h, k] = (_edge_fix(float(int(X + ox)), W), _edge_fix(float(int(Y + oy)), H))
        c, r = int(grid.col[h]), int(grid.row[h])
        if c == 0:
            on_map[h, 4] = on_map[h, 5] = False
        if c == last_col:
            on_map[h, 1] = on_map[h, 2] = False
        if c % 2 == 1 and r == 0:
            on_map[h, 0] = on_map[h, 1] = on_map[h, 5] = False
        if c % 2 == 1 and r == grid.rows_in_global_column(c) - 1:
            on_map[h, 3] = on_map[h, 2] = on_map[h, 4] = False
    first = np.array([grid.cell(c, 0) for c in range(grid.ncols)], np.int32)
    nrows = np.array([grid.rows_in_global_column(c) for c in range(grid.ncols)], np.int32)
    hex_at = _grid_lookup_all(W, H, border, first, nrows)
    return PixelGeometry(W, H, los_x, los_y, border, ext, loc, on_map, hex_at)


@njit(cache=True)
def inside(poly: np.ndarray, x: int, y: int) -> bool:
    """Java AWT polygon insideness of integer pixel (x, y) (LOS-SPEC 1.5)."""
    minx = poly[0, 0]
    maxx = poly[0, 0]
    miny = poly[0, 1]
    maxy = poly[0, 1]
    for k in range(1, 6):
        if poly[k, 0] < minx:
            minx = poly[k, 0]
        if poly[k, 0] > maxx:
            maxx = poly[k, 0]
        if poly[k, 1] < miny:
            miny = poly[k, 1]
        if poly[k, 1] > maxy:
            maxy = poly[k, 1]
    if x < minx or x >= maxx or y < miny or y >= maxy:
        return False
    crossings = 0
    for k in range(6):
        x1 = poly[k, 0]
        y1 = poly[k, 1]
        x2 = poly[(k + 1) % 6, 0]
        y2 = poly[(k + 1) % 6, 1]
        if y1 == y2:
            continue
        lo = min(y1, y2)
        hi = max(y1, y2)
        if y < lo or y >= hi:
            continue
        if x >= max(x1, x2):
            continue
        if x < min(x1, x2):
            crossings += 1
            continue
        if y1 < y2:
            xa, ya, xb, yb = x1, y1, x2, y2
        else:
            xa, ya, xb, yb = x2, y2, x1, y1
        if (x - xa) < (y - ya) * ((xb - xa) / (yb - ya)):
            crossings += 1
    return (crossings & 1) == 1


@njit(cache=True)
def _row_of(col: int, y: int) -> int:
    if col % 2 == 0:
        return int(math.floor(y / 64.5))
    return int(math.floor((y + 32.25) / 64.5))


@njit(cache=True)
def _cell(col: int, row: int, first: np.ndarray, nrows: np.ndarray) -> int:
    if col < 0 or col >= len(first) or row < 0 or row >= nrows[col]:
        return -1
    return first[col] + row


@njit(cache=True)
def _lookup(x: int, y: int, border: np.ndarray, first: np.ndarray, nrows: np.ndarray) -> int:
    z = int(math.floor(x / 18.75))
    if z % 3 != 1:
        col = (z + 2) // 3  # ceil(z / 3)
        return _cell(col, _row_of(col, y), first, nrows)
    col = (z - 1) // 3
    row = _row_of(col, y)
    cands = ((col, row), (col, row - 1), (col, row + 1), (col + 1, row), (col + 1, row - 1),
             (col + 1, row + 1), (col - 1, row), (col - 1, row - 1), (col - 1, row + 1))
    for cc, rr in cands:
        h = _cell(cc, rr, first, nrows)
        if h >= 0 and inside(border[h], x, y):
            return h
    if _cell(col - 1, row + 1, first, nrows) >= 0:
        return -1
    if col % 2 == 0:
        h = _cell(col + 1, row + 1, first, nrows)
        if h >= 0 and inside(border[h], x, y):
            return h
        h = _cell(col + 1, row, first, nrows)
        if h >= 0 and inside(border[h], x, y):
            return h
        return -1
    h = _cell(col + 1, row - 1, first, nrows)
    if h >= 0 and (inside(border[h], x, y) or row == nrows[col] - 1):
        return h
    h = _cell(col + 1, row, first, nrows)
    if h >= 0 and inside(border[h], x, y):
        return h
    return -1


@njit(cache=True)
def _grid_lookup_all(W: int, H: int, border: np.ndarray, first: np.ndarray,
                     nrows: np.ndarray) -> np.ndarray:
    out = np.empty((W, H), np.int32)
    for x in range(W):
        for y in range(H):
            out[x, y] = _lookup(x, y, border, first, nrows)
    return out


@njit(cache=True)
def nearest_location(x: int, y: int, h: int, los_x: np.ndarray, los_y: np.ndarray,
                     loc: np.ndarray, on_map: np.ndarray) -> int:
    """Nearest location of pixel (x, y) in hex h: -1 for the centre, else the hexside 0-5."""
    dx = x - los_x[h]
    dy = y - los_y[h]
    best = dx * dx + dy * dy
    which = -1
    for k in range(6):
        if not on_map[h, k]:
            continue
        dx = x - loc[h, k, 0]
        dy = y - loc[h, k, 1]
        d = dx * dx + dy * dy
        if d < best:
            best = d
            which = k
    return which


@njit(cache=True)
def hex_range(col: np.ndarray, dy2: np.ndarray, a: int, b: int) -> int:
    """Range between hexes a and b (LOS-SPEC 1.7)."""
    dc = abs(col[a] - col[b])
    dy = abs(dy2[a] - dy2[b])
    if dy > dc:
        return dc + (dy - dc) // 2
    return dc
