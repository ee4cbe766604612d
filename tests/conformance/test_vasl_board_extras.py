"""Crops, overlays and save pieces on half and Deluxe boards, and boards whose printed names
start later (issue #24): VASL computes all of them on the board's own hex grid
(``ASLBoard.crop``, ``Overlay.setBounds`` with ``ASLHexGrid.getLocation``,
``ASLBoard.localCoordinates``); the expected pixels below are worked out by hand from those
formulas and the archives' ``BoardMetadata.xml``.

Boards 1b-15b (``A1CenterX = -901``: columns Q..GG) and BFPDW1b-7b (``A1CenterY = -612.75``:
rows 11..20) are not in the shared folder: their tests build such an archive from a real board
(bd1a, bd02) with only its ``BoardMetadata.xml`` changed, as those boards' own metadata reads.
VASL's data is read from ``$HEXWX_VASL_DIR`` (never copied here); the tests skip without it.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from vasl_boards import archive, board, metadata, vasl_dir
from vsav_helpers import board_command, piece_command, save_text, write_save
from hexwx import _native as K
from hexwx.errors import UsageError
from hexwx.hexmap.board import HexMap
from hexwx.io.crop import parse_crop
from hexwx.io.load import load_map
from hexwx.io.overlays import overlay_image


def _load(text: str) -> HexMap:
    return load_map(text, vasl_dir=vasl_dir(), vasl_metadata=metadata())


def _all_pairs(m: HexMap) -> tuple[np.ndarray, np.ndarray]:
    reasons, totals = K.all_pairs_matrix(m.kernel_map, m.kernel_terrain,
                                         m.hexes.base.astype(np.int64), m.thread_capacity)
    return reasons != 0, np.where(reasons != 0, -1, totals)


# -- crops ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,count,first,last", [
    ("1a[A-H]", 4 * 20 + 4 * 21, "A1", "H20"),        # 4 A-type columns of 20, 4 B-type of 21
    ("1a[1-12]", 9 * 12 + 8 * 13, "A1", "Q12"),
    ("1a[C-F;3-9]", 2 * 7 + 2 * 8, "C3", "F9"),
    ("a[C-H]", 3 * 5 + 3 * 6, "C1", "H5"),            # Deluxe: rows 1-5, B-type 0-5
    ("a[1-3]", 8 * 3 + 7 * 4, "A1", "O3"),
])
def test_crops_keep_the_hexes_of_the_board_grid(text: str, count: int, first: str,
                                                last: str) -> None:
    m = _load(text)
    assert len(m) == count
    assert m.grid.name(0) == first and m.grid.name(len(m) - 1) == last


def test_crop_rectangles_are_vasl_s_on_the_board_grid() -> None:
    half, deluxe = board("bd1a").grid.shape, board("bda").grid.shape
    # ASLBoard.crop: x = (int)(dx col + .5) of the first and last hexrow; y from A<coord>'s
    # centre, (int)(dy (coord - 1) + .5) + (int) A1CenterY, less (int)(dy / 2)
    # (C: int(168.7857142857 * 2 + .5) = 338; H: 168.7857142857 * 7 = 1181.49999..., so 1181)
    assert parse_crop("C-H").rectangle(shape=deluxe) == (338, 0, 1181 - 338, 971)
    assert parse_crop("2-4").rectangle(shape=deluxe) == (0, 291 - 97, 2363, 680 + 97 - 194)
    assert parse_crop("A-H;11-20").rectangle(shape=half) == (0, 677 - 32, 394, 1258 + 32 - 645)
    # the pixel form is the board's own pixels: the whole half board's width
    assert parse_crop("0 0 901 -1").window(shape=half) == parse_crop("A-Q").window(shape=half)


@pytest.mark.parametrize("text,words", [
    ("1a[A-R]", "leave the board"), ("1a[1-21]", "leave the board"),
    ("a[A-P]", "leave the board"), ("a[1-6]", "leave the board"),
    ("a[H-C]", "run backwards"), ("1a[9-3]", "run backwards"),
    ("1a[0 0 902 -1]", "leaves the board"), ("a[0 900 -1 100]", "leaves the board"),
    ("a[0 0 0 5]", "must be positive"), ("a[60 10 5 5]", "holds no hex"),
])
def test_bad_crops_on_half_and_deluxe_boards_are_one_line_errors(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words) as ei:
        _load(text)
    msg = str(ei.value)
    assert "\n" not in msg and f"board '{text.split('[')[0]}[" in msg


@pytest.mark.parametrize("spec", ["1a[A-H;3-9]", "a[C-H]", "1a+x11:E5:E4", "a+x11:E3:E2",
                                  "1a[B-K]+x11:E5:E4"])
def test_a_turned_board_with_a_crop_or_overlay_answers_as_upright(spec: str) -> None:
    """The rotation property: the same board turned round, its crop and overlays on the
    physical board, answers every pair as upright and keeps its printed hexes."""
    up, turned = _load(spec), _load("r" + spec)
    assert turned.shown_turned and turned.grid.names() == up.grid.names()
    for a, b in zip(_all_pairs(up), _all_pairs(turned)):
        assert np.array_equal(a, b)


# -- overlays ---------------------------------------------------------------------------------

def test_an_overlay_on_a_half_board_lies_where_on_a_geomorphic_one() -> None:
    """x11 with hex1 E5 (E4 above: orientation a) on half board 1a: hex E5 lies at the same
    pixel on both grids (int(56.3125 * 4 + .5) = int(56.25 * 4 + .5) = 225, y 290), so the
    image's corner is E5 less origin b2 (56, 129) on both; the terrain it draws is the same."""
    half, geo = _load("1a+x11:E5:E4"), _load("02+x11:E5:E4")
    (_, _, entry, x, y), = half.overlay_art
    assert (entry, x, y) == ("ovrx11a.gif", 225 - 56, 290 - 129) == geo.overlay_art[0][2:]
    bare = board("bd1a")
    changed = half.terrain != bare.terrain
    assert changed.any()
    xs, ys = np.nonzero(changed)
    image = overlay_image(_placement(half))
    h, w = image.index.shape
    assert xs.min() >= x and xs.max() < x + w and ys.min() >= y and ys.max() < y + h
    box = (slice(x, x + w), slice(y, y + h))     # the same pixels on both boards
    inside = changed[box]
    assert (half.terrain[box][inside] == geo.terrain[box][inside]).mean() > 0.99
    e5 = half.parse("E5")       # the overlay's building is the hex's terrain for LOS
    assert half.table[int(half.hexes.centre[e5])].name == "Stone Building"
    assert bare.table[int(bare.hexes.centre[bare.parse("E5")])].name != "Stone Building"


def test_an_overlay_on_a_deluxe_board_lies_as_vasl_lays_it() -> None:
    """VASL neither refuses nor scales an overlay on a Deluxe board: the image lies at its own
    size at E3 less origin b2, both on the Deluxe grid: E3 (int(168.7857 * 4 + .5) = 675,
    int(194.2 * 2 + .5) + 97 = 485), b2 (169, int(194.2 * 1.5 + .5) + 97 = 388)."""
    m = _load("a+x11:E3:E2")
    (_, _, entry, x, y), = m.overlay_art
    assert (entry, x, y) == ("ovrx11a.gif", 675 - 169, 485 - 388)
    image = overlay_image(_placement(m))
    h, w = image.index.shape
    bare = board("bda")
    xs, ys = np.nonzero(m.terrain != bare.terrain)
    assert len(xs) and xs.min() >= x and xs.max() < x + w and ys.max() < y + h
    assert (w, h) == (overlay_image(_placement(_load("02+x11:E5:E4"))).index.shape[::-1])


def _placement(m: HexMap):  # type: ignore[no-untyped-def]
    from hexwx.io.overlays import Placement, OverlaySpec
    (_, a, e, x, y), = m.overlay_art
    return Placement(OverlaySpec("x11", "", ""), a, e, e[-5], "", x, y, 0, 0)


# -- boards whose names start later -----------------------------------------------------------

def _rebuilt(tmp_path: Path, name: str, out: str, old: str, new: str) -> Path:
    """A copy of archive ``name`` as ``out`` with ``old`` -> ``new`` in its BoardMetadata.xml."""
    p = tmp_path / out
    with zipfile.ZipFile(archive(name)) as src, zipfile.ZipFile(p, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "BoardMetadata.xml":
                assert old.encode() in data
                data = data.replace(old.encode(), new.encode())
            dst.writestr(item.filename, data)
    return p


@pytest.fixture
def board_1b(tmp_path: Path) -> Path:
    """Board 1a's files as board 1b's metadata reads (A1CenterX = -901: columns Q..GG)."""
    return _rebuilt(tmp_path, "bd1a", "bd1b", 'hexWidth = "56.3125">',
                    'hexWidth = "56.3125" A1CenterX = "-901" A1CenterY = "32.25">')


@pytest.fixture
def board_dw2b(tmp_path: Path) -> Path:
    """Board 2's files as BFPDW2b's metadata reads (A1CenterY = -612.75: rows 11..20)."""
    return _rebuilt(tmp_path, "bd02", "bdBFPDW2b", 'height="10">',
                    'height="10" A1CenterX = "0" A1CenterY = "-612.75">')


def test_half_board_b_prints_columns_q_to_gg(board_1b: Path) -> None:
    m = load_map(board_1b, vasl_metadata=metadata())
    a = board("bd1a")
    assert m.grid.shape.first_column == 16 and len(m) == len(a)
    assert m.grid.name(0) == "Q1" and m.grid.name(len(m) - 1) == "GG20"
    assert m.grid.name(m.parse("R0")) == "R0" and m.grid.centre(m.parse("U7")) == a.grid.centre(
        a.parse("E7"))
    with pytest.raises(UsageError, match="columns Q-GG"):
        m.parse("A1")
    # a crop and an overlay on board 1b: where the same columns counted from Q lie on 1a
    # (VASL shifts an overlay's origin by 16 letters on boards 1b-15b: b2 -> r2)
    from hexwx.io.layout import load_layout
    kw = {"vasl_dir": vasl_dir(), "vasl_metadata": metadata()}
    b_crop = load_layout([[{"board": str(board_1b), "crop": "R-Y"}]], **kw)
    a_crop = _load("1a[B-I]")
    assert len(b_crop) == len(a_crop) and b_crop.grid.name(0) == "R0" == "R" + a_crop.grid.name(0)[1:]
    assert np.array_equal(b_crop.terrain, a_crop.terrain)
    b_ovr = load_layout([[{"board": str(board_1b), "overlays": ["x11 U5 U4"]}]], **kw)
    a_ovr = _load("1a+x11:E5:E4")
    assert b_ovr.overlay_art[0][2:] == a_ovr.overlay_art[0][2:]
    assert np.array_equal(b_ovr.terrain, a_ovr.terrain)


def test_bfp_dw_board_prints_rows_from_11(board_dw2b: Path) -> None:
    from hexwx.io.layout import load_layout
    kw = {"vasl_dir": vasl_dir(), "vasl_metadata": metadata()}
    m = load_map(board_dw2b, vasl_metadata=metadata())
    two = board("bd02")
    assert m.grid.shape.first_row == 10 and m.grid.name(0) == "A11" and m.grid.name(1) == "A12"
    assert m.grid.name(m.parse("B10")) == "B10" and m.grid.name(len(m) - 1) == "GG20"
    assert m.grid.centre(m.parse("C15")) == two.grid.centre(two.parse("C5"))
    # VASL's grid origin is (int) -612.75 = -612, so A<coord>'s centre lies one pixel lower
    # than on board 2: the crop "coords 11-15" starts at y = 645 - 612 - 32 = 1
    dw = m.grid.shape
    assert parse_crop("11-15").rectangle(shape=dw) == (0, 1, 1800, 322)
    assert parse_crop("1-5").rectangle() == (0, 0, 1800, 322)
    cropped = load_layout([[{"board": str(board_dw2b), "crop": "11-15"}]], **kw)
    assert len(cropped) == len(_load("02[1-5]")) and cropped.grid.name(0) == "A11"
    # an overlay's origin moves 10 rows (VASL: BFPDW1b-7b): b2 -> b12, the same place
    ovr = load_layout([[{"board": str(board_dw2b), "overlays": ["x11 E15 E14"]}]], **kw)
    assert ovr.overlay_art[0][2:] == _load("02+x11:E5:E4").overlay_art[0][2:]
    with pytest.raises(UsageError, match="rows 10-20"):
        m.parse("A1")


# -- save pieces ------------------------------------------------------------------------------

@pytest.mark.parametrize("name,pixel,hex_name", [
    # board pixel of the hex centre: C15 on half board 1a is (2 * 56.3125, 32.25 + 14 * 64.5),
    # below a geomorphic board's 645 pixels; F3 on Deluxe board a (B-type column 5) is
    # (5 * 168.7857, 3 * 194.2)
    ("1a", (113, 935), "C15"), ("a", (844, 583), "F3"), ("a", (850, 620), "F3"),
])
def test_a_save_s_pieces_stand_in_the_hex_of_the_board_grid(tmp_path: Path, name: str,
                                                            pixel: tuple[int, int],
                                                            hex_name: str) -> None:
    from hexwx.io.scenario import load_save
    x, y = pixel
    margin = 400                         # VASL's map margin (hexwx.io.vsav.MAP_MARGIN_PX)
    p = write_save(tmp_path / "s.vsav", save_text([
        board_command(f"0\t0\t{name}\tVER\t6.1"),
        piece_command("1", "4-6-7", margin + x, margin + y, nationality="ge")]))
    sc = load_save(p, vasl_dir=vasl_dir(), vasl_metadata=metadata())
    assert [u.hex for u in sc.units] == [hex_name]
    turned = write_save(tmp_path / "r.vsav", save_text([     # the board turned round: the
        board_command(f"0\t0\tr{name}\tVER\t6.1"),          # piece counted from its far corner
        piece_command("1", "4-6-7", margin + sc.map.grid.shape.width_px - x,
                      margin + sc.map.grid.shape.height_px - y, nationality="ge")]))
    assert [u.hex for u in load_save(turned, vasl_dir=vasl_dir(), vasl_metadata=metadata()).units] \
        == [hex_name]
