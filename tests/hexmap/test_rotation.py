"""Rotation is geometry (issue #12): a board turned round among upright boards is the upright
board turned round -- its hexes, its terrain and every LOS between its own hexes.

No VASL data needed: the board of a bundled map file is laid beside and below an upright copy
of itself, turned round, as hexwx.io.layout composes VASL boards (raster turned in place).
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from hexwx import _native as K
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import BOARD_HEIGHT_PX, BOARD_WIDTH_PX, BoardPlacement, Grid
from hexwx.hexmap.pixelgeom import SIDE_TURNED, build_geometry, turn_origin
from hexwx.io.load import load_map

ROOT = Path(__file__).resolve().parents[2]
W, H = BOARD_WIDTH_PX, BOARD_HEIGHT_PX

#: layout -> its boards in layout order (label, bx, by, rotated); board 2 is the turned copy.
LAYOUTS = {
    "1,r2": (("1", 0, 0, False), ("2", 1, 0, True)),   # board 2 right of board 1: holds the join
    "r2,1": (("2", 0, 0, True), ("1", 1, 0, False)),   # left of it: board 1 holds the join
    "r2/1": (("2", 0, 0, True), ("1", 0, 1, False)),   # above it: board 1 holds the join
    "1/r2": (("1", 0, 0, False), ("2", 0, 1, True)),   # below it: holds the join
}


@lru_cache(maxsize=None)
def upright(name: str = "hedgerow_fields") -> HexMap:
    """A board drawn from a map file (hedges, walls, bocage, orchards, grain, a hill), as a pure
    raster (no whole-hex fills, no declared roads), like a VASL board."""
    return replace(load_map(ROOT / "maps" / f"{name}.toml"), fills=None, roads=None)


@lru_cache(maxsize=None)
def composed(layout: str, name: str = "hedgerow_fields") -> HexMap:
    """Board 1 upright and board 2 the same board turned round, placed as ``LAYOUTS[layout]``."""
    up = upright(name)
    places = LAYOUTS[layout]
    nbx = 1 + max(p[1] for p in places)
    nby = 1 + max(p[2] for p in places)
    grid = Grid(tuple(BoardPlacement(*p) for p in places), nbx, nby)
    elevation = np.zeros((W * nbx, H * nby), np.int8)
    terrain = np.zeros((W * nbx, H * nby), np.uint8)
    for _, bx, by, rot in places:
        turn = (slice(None, None, -1),) * 2 if rot else (slice(None),) * 2
        elevation[W * bx:W * bx + W, H * by:H * by + H] = up.elevation[turn]
        terrain[W * bx:W * bx + W, H * by:H * by + H] = up.terrain[turn]
    return HexMap(name=layout, grid=grid, table=up.table, elevation=elevation, terrain=terrain,
                  kind=up.kind)


def held(m: HexMap) -> tuple[np.ndarray, np.ndarray]:
    """(upright hex ids, map hex ids) of the hexes whose centre board 2 holds (all of its hexes
    but the join hexes the other board holds)."""
    i = turned(m)
    cells = m.grid.board_cells(i)
    own = m.grid.owners[cells] == i
    return np.flatnonzero(own), cells[own]


def turned(m: HexMap) -> int:
    """The index of board 2 (the turned copy) in the map's boards."""
    return [b.label for b in m.grid.boards].index("2")


@lru_cache(maxsize=None)
def upright_answers(name: str = "hedgerow_fields") -> tuple[np.ndarray, np.ndarray]:
    """(blocked, hindrance or -1) [n, n] of every ordered pair of the upright board."""
    up = upright(name)
    reasons, totals = K.all_pairs_matrix(up.kernel_map, up.kernel_terrain,
                                         up.hexes.base.astype(np.int64), up.thread_capacity)
    return reasons != 0, np.where(reasons != 0, -1, totals)


def answers(m: HexMap, M: tuple, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(blocked, hindrance or -1) of the pairs (a[i], b[i]) of map ``m`` traced on arrays ``M``."""
    base = m.hexes.base.astype(np.int64)
    reasons, totals = K.trace_many(M, m.kernel_terrain, a, b, base[a], base[b], m.thread_capacity)
    return reasons != 0, np.where(reasons != 0, -1, totals)


def same_as_upright(layout: str, name: str = "hedgerow_fields") -> None:
    """Every ordered pair of the hexes board 2 holds answers as upright (blocked, hindrance),
    and LOS over the whole map, across the join too, is reciprocal."""
    m = composed(layout, name)
    u, h = held(m)
    i, j = np.nonzero(~np.eye(len(u), dtype=bool))
    b_up, h_up = upright_answers(name)
    blocked, hind = answers(m, m.kernel_map, h[i], h[j])
    assert np.array_equal(blocked, b_up[u[i], u[j]])
    assert np.array_equal(hind, h_up[u[i], u[j]])
    n = len(m)
    a, b = np.divmod(np.arange(0, n * n, 23), n)
    a, b = a[a != b], b[a != b]
    assert all(np.array_equal(x, y) for x, y in zip(answers(m, m.kernel_map, a, b),
                                                    answers(m, m.kernel_map, b, a)))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_turned_board_has_the_upright_hexes_turned_round(layout: str) -> None:
    up, m = upright(), composed(layout)
    u, h = held(m)
    # the join hexes the upright board holds (its centre, left of / above it) are not board 2's
    assert len(u) == 346 - {"1,r2": 0, "r2,1": 10, "r2/1": 16, "1/r2": 0}[layout]
    i = turned(m)
    ox, oy = turn_origin(m.grid, i)
    g, gu = m.geometry, up.geometry
    assert g.turned == (i,)
    assert np.array_equal(g.los_x[h], ox - gu.los_x[u]) and np.array_equal(g.los_y[h], oy - gu.los_y[u])
    for name in ("ext", "loc", "border"):
        assert np.array_equal(getattr(g, name)[h][:, list(SIDE_TURNED)], [ox, oy] - getattr(gu, name)[u])
    b = m.grid.boards[i]
    rect = g.hex_at[W * b.bx:W * b.bx + W, H * b.by:H * b.by + H]
    assert np.array_equal(rect[::-1, ::-1], m.grid.board_cells(i)[gu.hex_at])
    # the hexes' terrain is the upright board's, hexside k turned to k + 3
    ht, hu = m.hexes, up.hexes
    for name in ("centre", "base", "levels", "rooftop", "depression"):
        assert np.array_equal(getattr(ht, name)[h], getattr(hu, name)[u]), name
    for name in ("side_terrain", "loc_depression", "cliff"):
        assert np.array_equal(getattr(ht, name)[h][:, list(SIDE_TURNED)], getattr(hu, name)[u]), name


def test_vasl_geometry_is_one_pixel_off_where_centres_are_whole_pixels() -> None:
    """VASL's composition (physical=False) puts a rotated board's LOS points on the composed
    grid: one pixel off the turned ones exactly where the upright centre is a whole pixel."""
    m, up = composed("1,r2"), upright()
    u, h = held(m)
    vasl = build_geometry(m.grid, physical=False)
    assert vasl.turned == ()
    ox, _ = turn_origin(m.grid, turned(m))
    off = vasl.los_x[h] != ox - up.geometry.los_x[u]
    whole = (up.grid.centre_x[u] == np.floor(up.grid.centre_x[u])) & (up.grid.col[u] % 32 != 0)
    assert off.any() and np.array_equal(off, whole)


@pytest.mark.parametrize("layout", ["1,r2", "r2/1"])
def test_turned_board_answers_every_pair_as_upright(layout: str) -> None:
    same_as_upright(layout)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hedgerow_fields", "hill_village"])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_turned_board_answers_every_pair_as_upright_all(layout: str, name: str) -> None:
    same_as_upright(layout, name)


def test_without_the_frames_the_turned_board_differs() -> None:
    """The frames matter: traced on the map itself (the walk's rounding, polygon edges and hexside
    orders are not symmetric under the turn), the turned board differs on some pairs."""
    m = composed("1,r2")
    u, h = held(m)
    i, j = np.nonzero(~np.eye(len(u), dtype=bool))
    b_up, h_up = upright_answers()
    blocked, hind = answers(m, m.kernel_map[:9], h[i], h[j])
    assert not (np.array_equal(blocked, b_up[u[i], u[j]]) and np.array_equal(hind, h_up[u[i], u[j]]))
