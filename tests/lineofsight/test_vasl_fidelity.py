"""Three places where hexwx read a board differently from the rules (issue #24 item 5).

(a) B19.2 / A6.3: two adjacent depression hexes (gully, stream) see each other only across a
    connecting depression hexside; where the art draws the bank between them, the bank blocks.
(b) B23.71 with B23.8: seen from a rooftop, a rowhouse wall's blind hexes are counted with the
    rooftop half a level above its building's top level (the height every other blind-hex
    test gives a rooftop, A6.4), not a whole level.
(c) Hexside codes when both location points of a hexside hold hexside terrain (a cliff drawn on
    one side, a wall on the other): the hex read first keeps its own, as VASL reads the board,
    and a hexside read as cliff keeps its cliff flag.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from hexwx.hexmap.coords import Grid
from hexwx.hexmap.derive import derive
from hexwx.hexmap.pixelgeom import upright_board_geometry
from hexwx.hexmap.terrain import CATALOGUE
from hexwx.lineofsight.engine import los

from vasl_boards import all_boards, board

DEPRESSION_RULE = "A6.3"


# -- (a) adjacent depression hexes, B19.2 ---------------------------------------------------------

@pytest.mark.parametrize("a,b", [("Y4", "Y5"), ("AA5", "BB4")])
def test_adjacent_gully_hexes_without_a_gully_hexside_do_not_see_each_other(a: str, b: str) -> None:
    # Board 12: Y4/Y5 and AA5/BB4 are gully hexes (level -1) side by side, but the gully art does
    # not cross the hexside between them: the thread climbs the bank (ground 0 > -1) before it
    # reaches the other hex while the elevation difference (0) is less than the range (1), so
    # the depression restriction holds (A6.3); no gully hexside joins them (B19.2).
    m = board("bd12")
    for x, y in ((a, b), (b, a)):
        r = los(m, x, y)
        assert r.blocked and r.rule == DEPRESSION_RULE, r.explain()


@pytest.mark.parametrize("a,b", [("Y4", "Z4"), ("BB4", "BB5"), ("AA5", "BB5"), ("Z4", "AA5")])
def test_adjacent_gully_hexes_across_a_gully_hexside_see_each_other(a: str, b: str) -> None:
    # the same gully, where it runs on across the shared hexside: clear (B19.2)
    m = board("bd12")
    assert not los(m, a, b).blocked and not los(m, b, a).blocked


@pytest.mark.parametrize("name", [b for b in all_boards() if re.fullmatch(r"bd\d\d", b)])
def test_depression_rule_between_adjacent_depression_hexes_follows_the_hexside(name: str) -> None:
    # every pair of adjacent depression hexes on every board: the depression restriction
    # (A6.3) blocks a pair only when no depression hexside joins them
    m = board(name)
    hx = m.hexes
    nb = m.grid.neighbours
    for h in np.flatnonzero(hx.depression).tolist():
        for k in range(6):
            o = int(nb[h, k])
            if o < 0 or not hx.depression[o]:
                continue
            joined = hx.loc_depression[h, k] or hx.loc_depression[o, (k + 3) % 6]
            r = los(m, h, o)
            if joined:
                assert r.rule != DEPRESSION_RULE, r.explain()


# -- (b) rowhouse walls from rooftops, B23.71 / B23.8 ---------------------------------------------

@pytest.mark.parametrize("name,roof,target,wall", [("bd12", "O6", "Q3", "P3"),
                                                   ("bd20", "D9", "G5", "F5")])
def test_rowhouse_blind_zone_from_a_rooftop_uses_half_a_level(name: str, roof: str, target: str,
                                                              wall: str) -> None:
    # ROOF is a 2-level building; its rooftop (location level 3) is at height 2.5 for LOS (half
    # a level above level 2, B23.8).  TARGET (ground 0) lies next to WALL, a hex with a 1-level
    # rowhouse wall (top 0 + 1) on the thread.  Blind-hex test (A6.4) with the wall's range
    # adjustment (B23.71: +1 to the lower end, -1 to the higher): rL = 1 + 1 = 2, rH < 5, so
    # blind zone = 2 x (1 + 1/2) + 0 - 2.5 - 0 + 1 = 1.5 < rL: TARGET is seen.  Taking the
    # rooftop a whole level down (2) would give a zone of 2 and hide it.
    m = board(name)
    h = m.parse(roof)
    top = int(m.hexes.levels[h]) + 1
    assert m.is_rooftop(h, top) and m.hexes.levels[h] == 2
    assert m.grid.distance(m.parse(wall), m.parse(target)) == 1
    assert m.grid.distance(m.parse(wall), h) < 6
    assert not los(m, roof, target, from_level=top).blocked
    assert not los(m, target, roof, to_level=top).blocked


def test_rowhouse_wall_at_the_rooftops_height_still_blocks() -> None:
    # Board 12, O6 rooftop -> P2: P2 lies right behind the rowhouse wall too, and there the
    # wall's blind zone (1.5) covers it: rL = 1 + 1 - ... still blocked (B23.71 / A6.2)
    m = board("bd12")
    top = int(m.hexes.levels[m.parse("O6")]) + 1
    assert los(m, "O6", "P2", from_level=top).blocked


# -- (c) hexside codes where a cliff and a wall meet ----------------------------------------------

def _hexside_points(geo, grid: Grid, h: int, k: int) -> tuple[tuple[int, int], tuple[int, int], int]:
    o = int(grid.neighbours[h, k])
    a = (int(geo.loc[h, k, 0]), int(geo.loc[h, k, 1]))
    b = (int(geo.loc[o, (k + 3) % 6, 0]), int(geo.loc[o, (k + 3) % 6, 1]))
    return a, b, o


@pytest.mark.parametrize("first_is_cliff", [True, False])
def test_the_hex_read_first_gives_a_cliff_and_wall_hexside_its_terrain(first_is_cliff: bool) -> None:
    grid, geo = Grid.single(), upright_board_geometry()
    table = CATALOGUE
    cliff = next(t.code for t in table.types if t.name == "Cliff")
    wall = next(t.code for t in table.types if t.name == "Wall")
    h = grid.parse("E5")
    k = 3                                              # E5's south hexside, shared with E6
    a, b, o = _hexside_points(geo, grid, h, k)
    assert o > h                                       # E5 is read before E6
    terrain = np.zeros((geo.width, geo.height), np.uint8)
    elevation = np.zeros((geo.width, geo.height), np.int8)
    terrain[a] = cliff if first_is_cliff else wall
    terrain[b] = wall if first_is_cliff else cliff
    ht = derive(grid, geo, elevation, terrain, table)
    want = cliff if first_is_cliff else wall
    assert ht.side_terrain[h, k] == want and ht.side_terrain[o, (k + 3) % 6] == want
    # the cliff flag is kept wherever the hexside was read as a cliff at any point
    assert ht.cliff[h, k] == first_is_cliff
    assert ht.cliff[o, (k + 3) % 6]
