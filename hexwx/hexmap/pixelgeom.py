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
from hexwx.hexmap.coords import GEOMORPHIC, BoardShape, Grid

#: Offsets applied to the truncated vertices of the extended border (LOS-SPEC 1.5).
_EXT_DELTA = np.array(((-1, -1), (-1, 1), (1, 0), (1, 1), (-1, 1), (-1, 0)), np.int32)


@lru_cache(maxsize=8)
def _offsets(shape: BoardShape) -> tuple[np.ndarray, np.ndarray]:
    """Vertex offsets v0..v5 from the exact centre (LOS-SPEC 1.4) and hexside location point
    offsets before truncation (LOS-SPEC 1.8), each [6, (x, y)], for hexes of ``shape``."""
    side, half_h = shape.hex_side, shape.hex_height / 2      # 37.5, 32.25 on geomorphic boards
    ho = math.cos(math.radians(30)) * half_h                  # 27.93: centre to location points
    verts = np.array(((-side / 2, -half_h), (side / 2, -half_h), (side, 0.0),
                      (side / 2, half_h), (-side / 2, half_h), (-side, 0.0)))
    locs = np.array(((0.0, -half_h + 1), (ho - 1, -half_h / 2 + 1), (ho - 1, half_h / 2 - 1),
                     (0.0, half_h - 1), (-ho + 1, half_h / 2 - 1), (-ho + 1, -half_h / 2 + 1)))
    return verts, locs


#: The hexside location points' offsets from a hex centre, hexsides 0-5 (LOS-SPEC 1.8), on a
#: geomorphic board (where a save's pieces lie): a piece nearer one of them than the centre
#: stands in bypass at that hexside.
HEXSIDE_POINT_OFFSETS = _offsets(GEOMORPHIC)[1]


def hexside_point_offsets(shape: BoardShape) -> np.ndarray:
    """[6, (x, y)]: the hexside location points' offsets from a hex centre on a board of
    ``shape`` (:data:`HEXSIDE_POINT_OFFSETS` on a geomorphic board)."""
    return HEXSIDE_POINT_OFFSETS if shape.geomorphic else _offsets(shape)[1]


def _edge_fix(v: np.ndarray, size: int) -> np.ndarray:
    """VASL's edge fix: exactly -1 -> 0; integer part size or size+1 -> size-1 (LOS-SPEC 1.3)."""
    whole = np.trunc(v)
    return np.where(v == -1, 0.0, np.where((whole == size) | (whole == size + 1), float(size - 1), v))


@dataclass(frozen=True, eq=False)
class PixelLookup:
    """What :attr:`PixelGeometry.hex_at` is made from: the composed grid's hex borders and
    columns, and (x0, y0, layout hex of each upright hex) of each board turned round."""

    border: np.ndarray
    first: np.ndarray
    nrows: np.ndarray
    turns: tuple[tuple[int, int, np.ndarray], ...] = ()
    shape: BoardShape = GEOMORPHIC
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
    lookup: PixelLookup = field(repr=False)
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
        out = self.vasl_lookup()
        _fill_gaps(out, k.border)
        if k.remap is not None:
            out = k.remap[out]
        for x0, y0, cells in k.turns:
            rect = upright_board_geometry(k.shape).hex_at[::-1, ::-1]
            out[x0:x0 + k.shape.width_px, y0:y0 + k.shape.height_px] = np.where(
                rect >= 0, cells[np.maximum(rect, 0)], -1)
        out.setflags(write=False)
        return out


    def vasl_lookup(self) -> np.ndarray:
        """int32 [width, height], a new array: the hex of every pixel exactly as VASL's grid
        lookup gives it (LOS-SPEC 1.6), -1 where it gives none -- before :attr:`hex_at` fills
        those gaps (:func:`_fill_gaps`), crops it or turns boards round.  What
        ``tools/vasl_conformance.py`` reads to tell where VASL's walk stops at a gap."""
        k = self.lookup
        out: np.ndarray = _grid_lookup_all(self.width, self.height, k.border, k.first, k.nrows,
                                           k.shape.hex_width, k.shape.hex_height)
        return out


def _fill_gaps(hex_at: np.ndarray, border: np.ndarray) -> None:
    """Give each pixel the grid lookup leaves without a hex (in place) the hex whose centre
    is nearest (the mean of its border's vertices).  VASL's lookup (LOS-SPEC 1.6) leaves such
    gaps on Deluxe boards, where hex centres fall a hair off whole pixels (a bottom half hex's
    centre at y = 970.99999): about 200 pixels along hexsides near the bottom edge.  VASL ends
    a thread at such a pixel and answers clear, so which end it starts from decides the pair;
    hexwx reads every pixel of a board as some hex, and stays reciprocal.  Geomorphic and half
    boards have no gaps (nothing changes there)."""
    gaps = np.flatnonzero(hex_at.ravel() < 0)
    if gaps.size == 0:
        return
    centres = border.mean(axis=1)                                   # [n, 2]
    x, y = np.divmod(gaps, hex_at.shape[1])
    for lo in range(0, gaps.size, 4096):                            # bounded temporaries
        px = np.stack([x[lo:lo + 4096], y[lo:lo + 4096]], axis=1).astype(np.float64)
        d = ((px[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        hex_at.ravel()[gaps[lo:lo + 4096]] = d.argmin(axis=1)


#: Hexside (and vertex) k of an upright board is hexside SIDE_TURNED[k] of the board turned round.
SIDE_TURNED = (3, 4, 5, 0, 1, 2)


def turn_origin(grid: Grid, i: int) -> tuple[int, int]:
    """(ox, oy) of board ``grid.boards[i]`` turned round: pixel (x, y) of the board upright
    lies at (ox - x, oy - y) of the map, and map pixel (x, y) at (ox - x, oy - y) upright."""
    x0, y0 = board_corner(grid, i)
    return x0 + grid.shape.width_px - 1, y0 + grid.shape.height_px - 1


def board_corner(grid: Grid, i: int) -> tuple[int, int]:
    """Map pixel of the top left corner of the rectangle of (uncropped) board ``grid.boards[i]``."""
    b = grid.boards[i]
    return grid.shape.width_px * b.bx, grid.shape.height_px * b.by


@lru_cache(maxsize=4)
def upright_board_geometry(shape: BoardShape = GEOMORPHIC) -> PixelGeometry:
    """The geometry of one board of ``shape`` alone, upright (board pixel coordinates)."""
    return build_geometry(Grid.single(shape=shape))


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
    verts, locs = _offsets(grid.shape)
    vx = _edge_fix(X + verts[:, 0], W)                    # [n, 6]: the vertices, edge-fixed
    vy = _edge_fix(Y + verts[:, 1], H)
    border = np.stack([np.floor(vx + 0.5), np.floor(vy + 0.5)], axis=2).astype(np.int32)
    ext = (np.stack([np.trunc(vx), np.trunc(vy)], axis=2).astype(np.int32) + _EXT_DELTA).astype(np.int32)
    loc = np.stack([_edge_fix(np.trunc(X + locs[:, 0]), W),
                    _edge_fix(np.trunc(Y + locs[:, 1]), H)], axis=2).astype(np.int32)
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
                         PixelLookup(composed, first, nrows, tuple(turns), grid.shape), tuple(turned))


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
                         PixelLookup(lk.border, lk.first, lk.nrows, (), lk.shape, grid.remap))


def _turn_board(grid: Grid, i: int, los_x: np.ndarray, los_y: np.ndarray, border: np.ndarray,
                ext: np.ndarray, loc: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Give board ``i``'s hexes (those whose centre it holds) the upright board's geometry
    turned round, in place (module docstring); return (x0, y0, layout hex of each upright hex),
    with which :attr:`PixelGeometry.hex_at` turns its pixels."""
    up = upright_board_geometry(grid.shape)
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
    x0, y0 = board_corner(grid, i)
    return x0, y0, cells


#: (the module's name for it, so that tests can count the lookups a map load makes)
_grid_lookup_all = K.grid_lookup_all
