"""Pixel geometry of a hex map in VASL's raster convention (LOS-SPEC 1.3-1.8).

Everything here is computed once per grid: hex LOS points, border and extended-border
polygons, hexside location points, which hexsides lie off the map, and (on first use) the
pixel -> hex lookup for every pixel.  The per-pixel loops (grid lookup with the AWT polygon insideness test, nearest
location, range) are C, in ``hexwx/_loskernel.c``, shared with the LOS kernel.

A board turned round (rotated 180 degrees) among upright boards follows the physical board:
its raster is the upright raster turned in its rectangle (pixel (x, y) of the upright board
lies at (X0 + W-1 - x, Y0 + H-1 - y)), and so are its hexes -- LOS points, polygons, hexside
location points and the pixel -> hex map are the upright board's, turned the same way, with
hexside k of the upright board becoming hexside (k + 3) mod 6.  VASL instead computes a rotated
board's hex centres on the composed grid (whole pixels, floor(56.25 c)), one pixel off the turned
ones wherever the upright centre falls on a whole pixel.  A join hex follows the board that
gives it its centre (:attr:`Grid.owners`).
"""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from hexwx import _native as K
from hexwx.errors import UsageError
from hexwx.frozen import freeze
from hexwx.hexmap.coords import (BOARD_HEIGHT_PX, BOARD_WIDTH_PX, HEX_HEIGHT_PX, HEX_SIDE_PX,
                                 HEX_WIDTH_PX, Grid)

_HALF_H = HEX_HEIGHT_PX / 2                 # 32.25
_HO = math.cos(math.radians(30)) * _HALF_H  # 27.93: centre to hexside location points
#: Vertex offsets v0..v5 from the exact centre (LOS-SPEC 1.4), [6, (x, y)].
_VERTS = np.array(((-HEX_SIDE_PX / 2, -_HALF_H), (HEX_SIDE_PX / 2, -_HALF_H), (HEX_SIDE_PX, 0.0),
                   (HEX_SIDE_PX / 2, _HALF_H), (-HEX_SIDE_PX / 2, _HALF_H), (-HEX_SIDE_PX, 0.0)))
#: Offsets applied to the truncated vertices of the extended border (LOS-SPEC 1.5).
_EXT_DELTA = np.array(((-1, -1), (-1, 1), (1, 0), (1, 1), (-1, 1), (-1, 0)), np.int32)
#: Hexside location point offsets from the centre, before truncation (LOS-SPEC 1.8).
_LOC_OFFS = np.array(((0.0, -_HALF_H + 1), (_HO - 1, -_HALF_H / 2 + 1), (_HO - 1, _HALF_H / 2 - 1),
                      (0.0, _HALF_H - 1), (-_HO + 1, _HALF_H / 2 - 1), (-_HO + 1, -_HALF_H / 2 + 1)))

#: The hexside location points' offsets from a hex centre, hexsides 0-5 (LOS-SPEC 1.8): a piece
#: nearer one of them than the centre stands in bypass at that hexside.
HEXSIDE_POINT_OFFSETS = _LOC_OFFS


def _edge_fix(v: np.ndarray, size: int) -> np.ndarray:
    """VASL's edge fix: exactly -1 -> 0; integer part size or size+1 -> size-1 (LOS-SPEC 1.3)."""
    whole = np.trunc(v)
    return np.where(v == -1, 0.0, np.where((whole == size) | (whole == size + 1), float(size - 1), v))


@dataclass(frozen=True, eq=False)
class _Lookup:
    """What :attr:`PixelGeometry.hex_at` is made from: the composed grid's hex borders and
    columns, and (x0, y0, layout hex of each upright hex) of each board turned round."""

    border: np.ndarray
    first: np.ndarray
    nrows: np.ndarray
    turns: tuple[tuple[int, int, np.ndarray], ...] = ()
    #: a cropped map: the lookup runs over the boards' whole rectangle, whose cell i is map
    #: hex remap[i] (-1 for a hex the crop leaves out; remap[-1] = -1)
    remap: np.ndarray | None = None

    def __post_init__(self) -> None:
        freeze(self, "border", "first", "nrows", "remap")


@dataclass(frozen=True, eq=False)
class PixelGeometry:
    """Per-hex pixel geometry arrays and the per-pixel hex lookup (:attr:`hex_at`) of one map."""

    width: int
    height: int
    los_x: np.ndarray       # int32 [n]
    los_y: np.ndarray       # int32 [n]
    border: np.ndarray      # int32 [n, 6, 2]
    ext: np.ndarray         # int32 [n, 6, 2]
    loc: np.ndarray         # int32 [n, 6, 2] hexside location points
    side_on_map: np.ndarray  # bool [n, 6]
    lookup: _Lookup = field(repr=False)
    #: boards (indices in ``grid.boards``) whose hexes are the upright board's turned round
    turned: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        freeze(self)

    @cached_property
    def hex_at(self) -> np.ndarray:
        """int32 [width, height]: the hex of every pixel by the grid lookup (LOS-SPEC 1.6),
        -1 = none; a board turned round gets the upright board's lookup turned.  Made on first
        use (LOS, movement, veils), not by per-hex terrain, which reads only the points above:
        a plain map picture never pays for it."""
        k = self.lookup
        out = _grid_lookup_all(self.width, self.height, k.border, k.first, k.nrows)
        if k.remap is not None:
            out = k.remap[out]
        for x0, y0, cells in k.turns:
            rect = upright_board_geometry().hex_at[::-1, ::-1]
            out[x0:x0 + BOARD_WIDTH_PX, y0:y0 + BOARD_HEIGHT_PX] = np.where(
                rect >= 0, cells[np.maximum(rect, 0)], -1)
        out.setflags(write=False)
        return out


#: Hexside (and vertex) k of an upright board is hexside SIDE_TURNED[k] of the board turned round.
SIDE_TURNED = (3, 4, 5, 0, 1, 2)


def turn_origin(grid: Grid, i: int) -> tuple[int, int]:
    """(ox, oy) of board ``grid.boards[i]`` turned round: pixel (x, y) of the board upright
    lies at (ox - x, oy - y) of the map, and map pixel (x, y) at (ox - x, oy - y) upright."""
    b = grid.boards[i]
    return (BOARD_WIDTH_PX * b.bx + BOARD_WIDTH_PX - 1, BOARD_HEIGHT_PX * b.by + BOARD_HEIGHT_PX - 1)


@lru_cache(maxsize=1)
def upright_board_geometry() -> PixelGeometry:
    """The geometry of one geomorphic board alone, upright (board pixel coordinates)."""
    return build_geometry(Grid.single())


#: Geometry by grid object: maps that share a grid share its geometry (:func:`build_geometry`).
_BUILT: weakref.WeakKeyDictionary[Grid, PixelGeometry] = weakref.WeakKeyDictionary()


def build_geometry(grid: Grid, physical: bool = True) -> PixelGeometry:
    """The pixel geometry of ``grid`` (LOS-SPEC 1.3-1.6), computed once per grid object: a
    map file's loader (which paints its raster through the lookup) and the map it makes, or a
    map and its weather-changed copies, share one geometry and one pixel lookup.

    Rotated boards among upright ones are the upright board's geometry turned round (module
    docstring); with ``physical=False`` they are computed on the composed grid as VASL does
    (for comparing with VASL; not kept)."""
    if not physical:
        return _build(grid, physical)
    geo = _BUILT.get(grid)
    if geo is None:
        geo = _BUILT[grid] = _build(grid, physical)
    return geo


def _build(grid: Grid, physical: bool) -> PixelGeometry:
    if grid.cropped:
        return _cropped(grid, build_geometry(grid.uncropped(), physical))
    W, H = grid.width_px, grid.height_px
    # every hex at once
    X = np.asarray(grid.centre_x, np.float64)[:, None]   # [n, 1]: the exact centres
    Y = np.asarray(grid.centre_y, np.float64)[:, None]
    los_x = np.floor(_edge_fix(X[:, 0], W)).astype(np.int32)
    los_y = np.floor(_edge_fix(Y[:, 0], H)).astype(np.int32)
    vx = _edge_fix(X + _VERTS[:, 0], W)                   # [n, 6]: the vertices, edge-fixed
    vy = _edge_fix(Y + _VERTS[:, 1], H)
    border = np.stack([np.floor(vx + 0.5), np.floor(vy + 0.5)], axis=2).astype(np.int32)
    ext = (np.stack([np.trunc(vx), np.trunc(vy)], axis=2).astype(np.int32) + _EXT_DELTA).astype(np.int32)
    loc = np.stack([_edge_fix(np.trunc(X + _LOC_OFFS[:, 0]), W),
                    _edge_fix(np.trunc(Y + _LOC_OFFS[:, 1]), H)], axis=2).astype(np.int32)
    c, r = grid.col, grid.row
    on_map = np.ones((len(grid), 6), bool)
    for hexes, sides in ((c == 0, (4, 5)), (c == grid.ncols - 1, (1, 2)),
                         ((c % 2 == 1) & (r == 0), (0, 1, 5)),
                         ((c % 2 == 1) & (r == grid.nrows), (2, 3, 4))):  # odd columns' last row
        on_map[np.ix_(hexes, sides)] = False
    first = np.array([grid.cell(c, 0) for c in range(grid.ncols)], np.int32)
    nrows = np.array([grid.rows_in_global_column(c) for c in range(grid.ncols)], np.int32)
    turned = [i for i, b in enumerate(grid.boards) if b.rotated] if physical else []
    composed = border.copy() if turned else border   # the lookup reads the composed borders
    turns = []
    for i in turned:
        turns.append(_turn_board(grid, i, los_x, los_y, border, ext, loc))
    return PixelGeometry(W, H, los_x, los_y, border, ext, loc, on_map,
                         _Lookup(composed, first, nrows, tuple(turns)), tuple(turned))


def _cropped(grid: Grid, whole: PixelGeometry) -> PixelGeometry:
    """The geometry of a cropped map: its hexes' part of the geometry of the boards' whole
    rectangle (a hex keeps its printed shape and points; a crop only leaves hexes out)."""
    if whole.turned:
        raise UsageError("a layout with cropped boards cannot have boards turned round "
                         "(rotated) yet; lay the boards upright or leave the crops out")
    kept = grid.kept
    lk = whole.lookup
    return PixelGeometry(whole.width, whole.height, whole.los_x[kept], whole.los_y[kept],
                         whole.border[kept], whole.ext[kept], whole.loc[kept],
                         whole.side_on_map[kept],
                         _Lookup(lk.border, lk.first, lk.nrows, (), grid.remap))


def _turn_board(grid: Grid, i: int, los_x: np.ndarray, los_y: np.ndarray, border: np.ndarray,
                ext: np.ndarray, loc: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Give board ``i``'s hexes (those whose centre it holds) the upright board's geometry
    turned round, in place (module docstring); return (x0, y0, layout hex of each upright hex),
    with which :attr:`PixelGeometry.hex_at` turns its pixels."""
    up = upright_board_geometry()
    ox, oy = turn_origin(grid, i)
    cells = grid.board_cells(i)                  # layout hex of each upright hex
    own = grid.owners[cells] == i
    h, u = cells[own], np.flatnonzero(own)
    o = np.array([ox, oy], np.int32)
    los_x[h] = ox - up.los_x[u]
    los_y[h] = oy - up.los_y[u]
    turn = list(SIDE_TURNED)
    for mine, theirs in ((border, up.border), (ext, up.ext), (loc, up.loc)):
        mine[h[:, None], np.array(turn)[None, :]] = o - theirs[u]
    b = grid.boards[i]
    return BOARD_WIDTH_PX * b.bx, BOARD_HEIGHT_PX * b.by, cells


#: (the module's name for it, so that tests can count the lookups a map load makes)
_grid_lookup_all = K.grid_lookup_all
