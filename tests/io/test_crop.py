"""Cropped boards (issue #24 item 1): the written forms, the hexes a crop keeps, cropped boards
laid next to each other as VASL lays them, and bad crops.

The pixel rectangles VASL's board picker makes of hexrows / coords are worked out from its
formula (``../shared/vasl/crops/README.md``): x = the centre of the first hexrow (56.25 c
rounded), w = the centre of the last one minus x; y = the centre of A<first coord> minus 32,
h = the centre of A<last coord> plus 32 minus y.  A-P: 0, 844; Q-GG: 900, 900; P-GG: 844,
956; coords 1-5: 0, 322; coords 6-10: 323, 322.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hexwx import _native as K
from hexwx.errors import DataError, UsageError
from hexwx.hexmap.coords import HexWindow
from hexwx.io.crop import parse_crop
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los

from vasl_boards import board, vasl_dir


@pytest.mark.parametrize("text,rect", [
    ("A-P", (0, 0, 844, 645)), ("Q-GG", (900, 0, 900, 645)), ("P-GG", (844, 0, 956, 645)),
    ("1-5", (0, 0, 1800, 322)), ("6-10", (0, 323, 1800, 322)), ("A-P;1-5", (0, 0, 844, 322)),
    ("0 0 844 -1", (0, 0, 844, 645)), ("900 0 900 -1", (900, 0, 900, 645)),
])
def test_the_rectangles_vasl_makes(text: str, rect: tuple[int, int, int, int]) -> None:
    assert parse_crop(text).rectangle() == rect


def test_hexes_a_crop_keeps() -> None:
    # hexrows A-P: columns A..P (P, B-type, with its half hexes P0 and P10), every row
    assert parse_crop("A-P").window() == HexWindow(0, 15, 1, 10, 0, 10)
    # coords 1-5: A-type rows 1-5; B-type rows 0-5 (B5 on the cut is a half hex of the map)
    assert parse_crop("1-5").window() == HexWindow(0, 32, 1, 5, 0, 5)
    assert parse_crop("6-10").window() == HexWindow(0, 32, 6, 10, 5, 10)
    # the save's pixel form keeps the same hexes as the scenario card's
    assert parse_crop("0 0 844 -1").window() == parse_crop("A-P").window()
    assert parse_crop("0 323 -1 322").window() == parse_crop("6-10").window()
    # "nearest full hex row" draws the hexes on the cut whole: the same hexes
    for text in ("A-P", "1-5", "C-H;3-7"):
        assert parse_crop(f"{text};full").window() == parse_crop(text).window()
        x, y, w, h = parse_crop(f"{text};full").rectangle()
        x2, y2, w2, h2 = parse_crop(text).rectangle()
        assert x <= x2 and y <= y2 and x + w >= x2 + w2 and y + h >= y2 + h2


@pytest.mark.parametrize("text,words", [
    ("P-A", "run backwards"), ("5-1", "run backwards"), ("0-5", "leave the board"),
    ("1-11", "leave the board"), ("A-HH", "leave the board"), ("A-P;B-C", "twice"),
    ("woods", "neither hexrows"), ("full", "expected hexrows"), ("", "expected a crop"),
    ("0 0 0 322", "must be positive"), ("0 0 -5 322", "must be positive"),
    ("-10 0 844 -1", "left of / above"), ("1000 0 900 -1", "leaves the board"),
    ("0 600 -1 100", "leaves the board"), ("10 10 5 5", "holds no hex"),
])
def test_bad_crops_are_one_line_errors(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words) as ei:   # the form when written, the fit
        parse_crop(text, "board '02': crop").window("board '02': crop")   # on its board
    assert "\n" not in str(ei.value) and "board '02': crop" in str(ei.value)


# -- cropped maps ------------------------------------------------------------------------------

def _meta() -> dict[str, Path]:
    d = vasl_dir()
    return {"vasl_dir": d, "vasl_metadata": d / "SharedBoardMetadata.xml"}


def test_a_hex_outside_the_crop_does_not_exist() -> None:
    m = load_map("02[A-P]", **_meta())
    assert len(m) == 16 * 10 + 8                   # 8 A-type columns x 10, 8 B-type x 11
    assert m.name_of(m.parse("P10")) == "P10"      # printed names stay
    with pytest.raises(UsageError, match=r"hex 'Q1' is outside the crop of board '2'") as ei:
        m.parse("Q1")
    assert "\n" not in str(ei.value)
    with pytest.raises(UsageError, match="not on this map"):
        m.parse("HH1")


def test_los_inside_a_crop_is_the_whole_boards() -> None:
    # cropping does not change the terrain: every pair of a crop answers as on the whole board,
    # except a thread running exactly along the cut between two of its half hexes, which has
    # hexes on one side only (coords 1-5: 2B5<->2F5 meets the wall below D5 with no hex beyond
    # it; blocked, as VASL's crop answers too, where the whole board is clear)
    whole = board("bd02")
    for text in ("02[A-P]", "02[1-5]", "02[P-GG;6-10]"):
        m = load_map(text, **_meta())
        names = m.grid.names()
        ids = np.array([whole.parse(n) for n in names])
        r1, t1 = K.all_pairs_matrix(m.kernel_map, m.kernel_terrain, m.hexes.base.astype(np.int64),
                                    m.thread_capacity)
        r0, t0 = K.all_pairs_matrix(whole.kernel_map, whole.kernel_terrain,
                                    whole.hexes.base.astype(np.int64), whole.thread_capacity)
        sub_r, sub_t = r0[np.ix_(ids, ids)], t0[np.ix_(ids, ids)]
        differ = ((r1 != 0) != (sub_r != 0)) | ((r1 == 0) & (t1 != sub_t))
        on_cut = np.array([m.grid.is_half_hex(h) for h in range(len(m))])
        assert not (differ & ~(on_cut[:, None] & on_cut[None, :])).any(), text


def test_cropped_boards_lie_next_to_each_other_as_vasl_lays_them() -> None:
    # board 2 hexrows A-Q left of board 3 hexrows Q-GG: one board's width, the Q column shared
    m = load_map("02[A-Q],03[Q-GG]", **_meta())
    assert len(m) == 346
    assert m.parse("2Q5") == m.parse("3Q5") and m.name_of(m.parse("3Q5")) == "2Q5"
    assert m.grid.distance(m.parse("2A1"), m.parse("3GG1")) == 32
    with pytest.raises(UsageError, match="outside the crop"):
        m.parse("3P5")
    # stacked: coords 1-5 of board 2 above coords 6-10 of board 3; the B5 row is shared
    m = load_map("02[1-5]/03[6-10]", **_meta())
    assert len(m) == 346 and m.parse("2B5") == m.parse("3B5")
    assert m.grid.distance(m.parse("2A1"), m.parse("3A10")) == 9
    # the map file form
    assert load_map("02[A-P],03[P-GG]", **_meta()).grid.names() == load_map(
        "02[A-P],03[P-GG]", **_meta()).grid.names()


def test_boards_whose_hexes_would_not_mesh_are_refused() -> None:
    # board 2 cut through hexrow P (a B-type column) cannot meet board 3's A column
    with pytest.raises(UsageError, match="would not mesh"):
        load_map("02[A-P],03", **_meta())
    # turned boards among upright cropped ones are not composed yet: one line, not a wrong map
    for text in ("02[A-Q],r03", "r02,03[A-P]"):
        with pytest.raises(UsageError, match="cannot have boards turned round") as ei:
            load_map(text, **_meta())
        assert "\n" not in str(ei.value)


def test_rows_of_different_crops() -> None:
    # a compacted row above a row of whole boards: every hex of the four boards' kept parts
    m = load_map("02[A-P],03[P-GG]/04,05", **_meta())
    assert len(m) == 346 + 2 * 346 - 10 - 16      # the rows meet on 16 B-type half hexes
    assert m.parse("2P10") == m.parse("3P10") and m.parse("3FF10") == m.parse("4FF0")
    assert m.grid.distance(m.parse("4A1"), m.parse("5GG10")) == 64


def test_crop_in_a_map_file(tmp_path: Path) -> None:
    p = tmp_path / "m.toml"
    p.write_text('[map]\nvasl_boards = [[{ board = "02", crop = "A-P;1-5" }, '
                 '{ board = "03", crop = [844, 0, 956, 322] }]]\n')
    m = load_map(p, **_meta())
    ref = load_map("02[A-P;1-5],03[844 0 956 322]", **_meta())
    assert m.grid.names() == ref.grid.names()
    r1, r2 = los(m, "2A1", "3GG5"), los(ref, "2A1", "3GG5")
    assert (r1.blocked, r1.hindrance, r1.range) == (r2.blocked, r2.hindrance, r2.range)
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\nvasl_boards = [[{ board = "02[A-P]", crop = "1-5" }]]\n')
    with pytest.raises(DataError, match=r"bad.toml: map.vasl_boards: .*cropped twice"):
        load_map(bad, **_meta())


def test_cropped_boards_art_is_each_boards_own(tmp_path: Path) -> None:
    # board 3 cropped to Q-GG lies over board 2's place: the picture's left half is board 2's
    # art, the right half board 3's (each board's crop of its own image)
    from hexwx.render.hexmap import board_art
    m = load_map("02[A-Q],03[Q-GG]", **_meta())
    assert [(x, y, clip) for _p, x, y, _r, clip in m.board_images] == [
        (0, 0, (0, 0, 900, 645)), (0, 0, (900, 0, 900, 645))]
    art = np.asarray(board_art(m))
    own2 = np.asarray(board_art(load_map("02", **_meta())))
    own3 = np.asarray(board_art(load_map("03", **_meta())))
    assert np.array_equal(art[:, :900], own2[:, :900])
    assert np.array_equal(art[:, 900:], own3[:, 900:])
