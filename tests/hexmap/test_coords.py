"""Hex names, ranges, neighbours and centres of geomorphic boards, alone and laid side by side.

Expected values are worked by hand from RULES-NOTES "ASL board geometry" and LOS-SPEC 1.2-1.7:
column index c (A = 0 ... GG = 32); A-type columns (even index) hold rows 1-10 (row index
r = row - 1), B-type columns (odd index) rows 0-10 (r = row); doubled row Y' = 2r + 1 in even
columns and 2r in odd ones; range = dc + max(0, (dY - dc) / 2).
"""
from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwx.hexmap.coords import BoardPlacement, BoardShape, Grid, column_index, column_letters
from hexwx.errors import UsageError

ONE = Grid.single()
TWO = Grid.layout([["1", "2"]])
FOUR = Grid.layout([["1", "2"], ["3", "4"]])


def board_names() -> list[str]:
    """Every printed hex name of one geomorphic board, built from the rules, not the code."""
    letters = [chr(ord("A") + i) for i in range(26)] + [c * 2 for c in "ABCDEFG"]
    names = []
    for c, col in enumerate(letters):
        rows = range(1, 11) if c % 2 == 0 else range(0, 11)
        names += [f"{col}{r}" for r in rows]
    return names


# -- columns and names -----------------------------------------------------------------------

@pytest.mark.parametrize("col,letters", [(0, "A"), (1, "B"), (25, "Z"), (26, "AA"), (27, "BB"),
                                         (32, "GG")])
def test_column_letters_and_index(col: int, letters: str) -> None:
    assert column_letters(col) == letters
    assert column_index(letters) == col
    assert column_index(letters.lower()) == col


@pytest.mark.parametrize("text", ["HH", "AB", "", "AAA", "1"])
def test_column_index_rejects_non_columns(text: str) -> None:
    assert column_index(text) is None


def test_one_board_has_346_hexes_and_names_round_trip() -> None:
    # 17 A-type columns x 10 + 16 B-type columns x 11 = 170 + 176 = 346 (LOS-SPEC 1.2)
    names = board_names()
    assert len(names) == 346 == len(ONE)
    hexes = [ONE.parse(n) for n in names]
    assert len(set(hexes)) == 346
    assert [ONE.name(h) for h in hexes] == names
    assert sorted(ONE.names()) == sorted(names)


def test_labelled_single_board_accepts_both_forms() -> None:
    g = Grid.single("2")
    assert g.parse("2I4") == g.parse("I4") == g.parse(" i4 ")
    assert g.name(g.parse("2I4")) == "I4"


def test_two_by_two_names_round_trip_and_seams_merge() -> None:
    # 4 boards x 346 names, minus the merged seam cells: the GG/A seams have 10 cells per board
    # row (2 rows -> 20) and the row-10/row-0 half hexes of the 16 B-type columns per board
    # column (2 columns -> 32): 1384 - 52 = 1332 cells.
    assert len(FOUR) == 1332
    seen: dict[int, set[str]] = {}
    for label in "1234":
        for n in board_names():
            seen.setdefault(FOUR.parse(label + n), set()).add(label + n)
    assert len(seen) == 1332
    for h, aliases in seen.items():
        assert FOUR.name(h) in aliases
        assert FOUR.parse(FOUR.name(h)) == h
        assert len(aliases) in (1, 2)
    assert sum(len(a) == 2 for a in seen.values()) == 52


@pytest.mark.parametrize("a,b", [("1GG5", "2A5"), ("1GG1", "2A1"), ("1GG10", "2A10")])
def test_side_by_side_seam_cell_answers_to_both_names(a: str, b: str) -> None:
    h = TWO.parse(a)
    assert TWO.parse(b) == h
    assert TWO.name(h) == a            # printed with the first board's name
    assert not TWO.is_half_hex(h)      # two half hexes make one whole playing hex


@pytest.mark.parametrize("a,b", [("1B10", "3B0"), ("2FF10", "4FF0"), ("1GG10", "2A10"),
                                 ("3GG1", "4A1")])
def test_two_by_two_seam_cells(a: str, b: str) -> None:
    assert FOUR.parse(a) == FOUR.parse(b)


def test_corner_cells_of_four_boards_stay_distinct() -> None:
    # 1GG10 (row index 9) and 3GG1 (row index 10) are different hexes one apart
    assert FOUR.parse("1GG10") != FOUR.parse("3GG1")
    assert FOUR.distance(FOUR.parse("1GG10"), FOUR.parse("3GG1")) == 1


def test_hexes_of_different_boards_are_distinct() -> None:
    assert TWO.parse("1I4") != TWO.parse("2I4")
    assert TWO.distance(TWO.parse("1I4"), TWO.parse("2I4")) == 32


@pytest.mark.parametrize("grid,text", [
    (ONE, "A0"),      # A-type columns have rows 1-10
    (ONE, "A11"), (ONE, "B11"), (ONE, "HH1"), (ONE, "Z99"), (ONE, ""), (ONE, "I"),
    (ONE, "4"), (ONE, "I4x"), (ONE, "2I4"),   # an unnamed board has no board 2
    (Grid.single("2"), "3I4"),
    (TWO, "I4"),      # several boards: the board prefix is needed
    (TWO, "3I4"), (FOUR, "5A1"), (FOUR, "1A0"),
])
def test_bad_names_are_usage_errors_quoting_the_text(grid: Grid, text: str) -> None:
    with pytest.raises(UsageError) as exc:
        grid.parse(text)
    assert repr(text) in str(exc.value)


def test_layout_rejects_ragged_and_duplicate_boards() -> None:
    with pytest.raises(UsageError):
        Grid.layout([["1", "2"], ["3"]])
    with pytest.raises(UsageError):
        Grid.layout([["1", "1"]])
    with pytest.raises(UsageError):
        Grid.layout([])


# -- ranges ----------------------------------------------------------------------------------

@pytest.mark.parametrize("a,b,expected", [
    # same column: A1 (Y'=1) to A5 (Y'=9): dc 0, dY 8 -> 4 (LOS-SPEC 8 #1 says R=4)
    ("A1", "A5", 4),
    ("A1", "A10", 9), ("B0", "B10", 10),
    # A1 c0 Y'1 -> H3: H is odd index c7, r = 3, Y' = 6; dc 7, dY 5 -> 7 (spec #3)
    ("A1", "H3", 7),
    # A1 -> J4: c9 Y'8: dc 9, dY 7 -> 9
    ("A1", "J4", 9),
    # B6 c1 Y'12 -> F7 c5 Y'14: dc 4, dY 2 -> 4 (spec #2)
    ("B6", "F7", 4),
    # D7 c3 Y'14 -> I4 c8 (even) r3 Y'7: dc 5, dY 7 -> 5 + 1 = 6 (spec #5)
    ("D7", "I4", 6),
    # D7 -> F7: c3 Y'14 -> c5 Y'14: 2 (spec #6, a horizontal spine)
    ("D7", "F7", 2),
    # J4 c9 Y'8 -> O6 c14 Y'11: dc 5, dY 3 -> 5 (spec #7)
    ("J4", "O6", 5),
    # J3 c9 Y'6 -> B6 c1 Y'12: dc 8, dY 6 -> 8 (spec #12)
    ("J3", "B6", 8),
    # D4 c3 Y'8 -> V5 c21 Y'10: dc 18 -> 18 (spec #16)
    ("D4", "V5", 18),
    # A1 c0 Y'1 -> B0 c1 Y'0 and B1 c1 Y'2: both adjacent
    ("A1", "B0", 1), ("A1", "B1", 1),
    # B0 c1 Y'0 -> B10 is 10; A1 -> GG10 c32 Y'19: dc 32, dY 18 -> 32
    ("A1", "GG10", 32),
    # B0 c1 Y'0 -> D0 c3 Y'0: 2 (along the top edge); B0 -> C1 c2 Y'1: 1
    ("B0", "D0", 2), ("B0", "C1", 1),
    # A10 c0 Y'19 -> B10 c1 Y'20: 1; A1 -> B10: dc 1, dY 19 -> 1 + 9 = 10
    ("A10", "B10", 1), ("A1", "B10", 10),
])
def test_range_examples(a: str, b: str, expected: int) -> None:
    assert ONE.distance(ONE.parse(a), ONE.parse(b)) == expected
    assert ONE.distance(ONE.parse(b), ONE.parse(a)) == expected


@pytest.mark.parametrize("grid,a,b,expected", [
    (TWO, "1A5", "2GG5", 64),
    (TWO, "1FF4", "2B4", 2),      # c31 Y'8 -> c33 Y'8 across the seam cell 1GG5/2A5
    (TWO, "1GG5", "2B5", 1),
    (FOUR, "1A1", "3A1", 10),     # c0 r0 -> c0 r10
    (FOUR, "1B9", "3B1", 2),      # through the merged 1B10/3B0
    (FOUR, "1A1", "4GG10", 64),  # c0 Y'1 -> c64 r19 Y'39: dc 64, dY 38 -> 64
])
def test_ranges_across_board_joins(grid: Grid, a: str, b: str, expected: int) -> None:
    assert grid.distance(grid.parse(a), grid.parse(b)) == expected


# -- neighbours ------------------------------------------------------------------------------

@pytest.mark.parametrize("grid,name,expected", [
    # sides 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW; None = off the map
    (ONE, "A1", [None, "B0", "B1", "A2", None, None]),
    (ONE, "GG10", ["GG9", None, None, None, "FF10", "FF9"]),
    (ONE, "B0", [None, None, "C1", "B1", "A1", None]),
    (ONE, "B10", ["B9", "C10", None, None, None, "A10"]),
    (ONE, "F3", ["F2", "G3", "G4", "F4", "E4", "E3"]),
    (ONE, "E4", ["E3", "F3", "F4", "E5", "D4", "D3"]),
    (TWO, "1GG5", ["1GG4", "2B4", "2B5", "1GG6", "1FF5", "1FF4"]),
    (FOUR, "1B10", ["1B9", "1C10", "3C1", "3B1", "3A1", "1A10"]),
])
def test_neighbours(grid: Grid, name: str, expected: list[str | None]) -> None:
    h = grid.parse(name)
    got = [grid.neighbour(h, s) for s in range(6)]
    want = [grid.parse(n) if n else -1 for n in expected]
    assert got == want
    assert sorted(grid.adjacent(h)) == sorted(x for x in want if x >= 0)
    for s, n in enumerate(want):
        if n >= 0:
            assert grid.side_towards(h, n) == s
            assert grid.side_towards(n, h) == (s + 3) % 6


def test_side_towards_rejects_non_adjacent() -> None:
    with pytest.raises(UsageError) as exc:
        ONE.side_towards(ONE.parse("A1"), ONE.parse("C3"))
    assert "A1" in str(exc.value) and "C3" in str(exc.value)


@pytest.mark.parametrize("grid,name,half", [
    (ONE, "A5", True), (ONE, "B0", True), (ONE, "B10", True), (ONE, "GG3", True),
    (ONE, "B5", False), (ONE, "C5", False), (ONE, "A1", True),
    (TWO, "2GG5", True), (TWO, "1A5", True), (TWO, "1GG5", False),
    (FOUR, "1B10", False), (FOUR, "3B10", True), (FOUR, "1B0", True),
])
def test_half_hexes(grid: Grid, name: str, half: bool) -> None:
    assert grid.is_half_hex(grid.parse(name)) is half


# -- centres and corners ---------------------------------------------------------------------

@pytest.mark.parametrize("name,x,y", [
    ("A1", 0.0, 32.25),              # X = 56.25 c, Y = 32.25 + 64.5 r - 32.25 (c mod 2)
    ("B0", 56.25, 0.0), ("B10", 56.25, 645.0), ("A10", 0.0, 612.75),
    ("E4", 225.0, 225.75), ("I4", 450.0, 225.75), ("GG10", 1800.0, 612.75),
])
def test_centres(name: str, x: float, y: float) -> None:
    assert ONE.centre(ONE.parse(name)) == pytest.approx((x, y))


def test_hexside_f3_f4_lies_on_the_line_through_e4_and_g4() -> None:
    # F3's S hexside (3) runs from v3 to v4; both vertices have the y of the E4 and G4 centres
    f3 = ONE.parse("F3")
    assert ONE.neighbour(f3, 3) == ONE.parse("F4")
    v3, v4 = ONE.corners(f3)[3], ONE.corners(f3)[4]
    _, ye = ONE.centre(ONE.parse("E4"))
    xg, yg = ONE.centre(ONE.parse("G4"))
    xe = ONE.centre(ONE.parse("E4"))[0]
    assert v3[1] == pytest.approx(ye) == pytest.approx(yg) and v4[1] == pytest.approx(ye)
    assert xe < v4[0] < v3[0] < xg
    # the same vertices as F4's N hexside (v0, v1)
    f4 = ONE.corners(ONE.parse("F4"))
    assert f4[0] == pytest.approx(v4) and f4[1] == pytest.approx(v3)


def test_adjacent_hexes_share_two_corners() -> None:
    for h in range(len(ONE)):
        for s in range(6):
            n = ONE.neighbour(h, s)
            if n < 0:
                continue
            a, b = ONE.corners(h)[s], ONE.corners(h)[(s + 1) % 6]
            o = (s + 3) % 6
            c, d = ONE.corners(n)[o], ONE.corners(n)[(o + 1) % 6]
            assert a == pytest.approx(d) and b == pytest.approx(c)


# -- properties ------------------------------------------------------------------------------

GRIDS = [ONE, TWO, FOUR]


def bfs(grid: Grid, start: int) -> np.ndarray:
    dist = np.full(len(grid), -1)
    dist[start] = 0
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in grid.adjacent(h):
            if dist[n] < 0:
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


@pytest.mark.parametrize("gi", range(3))
def test_range_is_the_number_of_steps_between_neighbours(gi: int) -> None:
    grid = GRIDS[gi]
    for start in (0, len(grid) // 2, len(grid) - 1, grid.parse(grid.names()[137])):
        assert np.array_equal(bfs(grid, start), grid.distances_from(start))


def test_distance_forms_agree() -> None:
    for grid in (ONE, TWO):
        mat = grid.distance_matrix()
        for a in range(0, len(grid), 37):
            assert np.array_equal(mat[a], grid.distances_from(a))
            assert all(mat[a, b] == grid.distance(a, b) for b in range(0, len(grid), 11))


@st.composite
def grid_and_hexes(draw: st.DrawFn, k: int) -> tuple[Grid, list[int]]:
    grid = draw(st.sampled_from(GRIDS))
    return grid, [draw(st.integers(0, len(grid) - 1)) for _ in range(k)]


@settings(max_examples=200, deadline=None)
@given(grid_and_hexes(3))
def test_distance_is_a_metric(gh: tuple[Grid, list[int]]) -> None:
    grid, (a, b, c) = gh
    d = grid.distance
    assert d(a, b) == d(b, a) >= 0
    assert (d(a, b) == 0) == (a == b)
    assert d(a, c) <= d(a, b) + d(b, c)


@settings(max_examples=200, deadline=None)
@given(grid_and_hexes(1), st.integers(0, 5))
def test_neighbour_and_side_towards_are_inverse(gh: tuple[Grid, list[int]], side: int) -> None:
    grid, (a,) = gh
    n = grid.neighbour(a, side)
    if n < 0:
        return
    assert grid.distance(a, n) == 1
    assert grid.side_towards(a, n) == side
    assert grid.neighbour(n, (side + 3) % 6) == a
    assert grid.parse(grid.name(n)) == n


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(1))
def test_every_hex_at_range_one_is_a_neighbour(gh: tuple[Grid, list[int]]) -> None:
    grid, (a,) = gh
    ring = set(np.flatnonzero(grid.distances_from(a) == 1).tolist())
    assert ring == set(grid.adjacent(a))
    assert len(ring) <= 6


# -- boards whose printed names start later (1b: column Q, BFPDW1b: row 11) ------------------

_HALF_1B = BoardShape(17, 20, 56.3125, 64.5, 901, 1290, first_column=16)
_BFPDW = BoardShape(first_row=10)          # a geomorphic-size board, rows 11..20


@pytest.mark.parametrize("shape,example,span", [
    (_HALF_1B, "Y4", "columns Q-GG and rows 0-20"),
    (_BFPDW, "I14", "columns A-GG and rows 10-20"),
])
def test_a_hex_not_on_a_later_named_board_names_one_that_is(shape: BoardShape, example: str,
                                                             span: str) -> None:
    g = Grid.single("1b", shape)
    with pytest.raises(UsageError) as exc:
        g.parse("A1")
    msg = str(exc.value)
    assert f"expected a name like {example!r} or '1b{example}'" in msg and span in msg
    g.parse(example)                  # the example is a hex of the board
    g.parse(f"1b{example}")


def test_a_layout_of_boards_named_differently_gives_each_boards_names() -> None:
    g = Grid((BoardPlacement("1a", 0, 0, shape=BoardShape(17, 20, 56.3125, 64.5, 901, 1290)),
              BoardPlacement("1b", 1, 0, shape=_HALF_1B)), 2, 1)
    with pytest.raises(UsageError) as exc:
        g.parse("1bA1")
    msg = str(exc.value)
    assert "board 1a: columns A-Q and rows 0-20" in msg
    assert "board 1b: columns Q-GG and rows 0-20" in msg and "\n" not in msg
