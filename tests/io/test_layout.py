"""VASL board layouts: board names, inline layouts, map-file layouts, join hexes, rotation, bad
input.  Reads VASL's boards from ``$HEXWX_VASL_DIR`` (skips without it)."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from hexwx.cli import main
from hexwx.errors import DataError, UsageError
from hexwx.io.layout import MAX_LAYOUT_BOARDS, load_layout, parse_board
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los


def vasl_dir() -> Path:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "boards").is_dir():
        pytest.skip("HEXWX_VASL_DIR is not set to VASL's reference data (boards/, SharedBoardMetadata.xml)")
    return Path(env)


def need(*boards: str) -> None:
    for b in boards:
        if not (vasl_dir() / "boards" / b).is_file():
            pytest.skip(f"board {b} is not in {vasl_dir() / 'boards'}")


def test_board_names_as_vasl_writes_them() -> None:
    for text in ("2", "02", "bd02", "BD02"):
        s = parse_board(text)
        assert (s.number.lstrip("0"), s.rotated, s.label) == ("2", False, "2")
    s = parse_board("r05")
    assert (s.rotated, s.label) == (True, "5")
    with pytest.raises(UsageError, match="not a VASL board name"):
        parse_board("bd 2!")


def test_bare_board_name_is_the_archive() -> None:
    need("bd02")
    by_name = load_map("bd02")
    by_path = load_map(vasl_dir() / "boards" / "bd02")
    assert len(by_name) == len(by_path) == 346
    assert np.array_equal(by_name.terrain, by_path.terrain)
    # LOS-SPEC 8: board 2 A1 -> A5 is blocked by the woods in A4 (A6.2)
    assert los(by_name, "A1", "A5").blocked and los(by_name, "2A1", "2A5").blocked


def test_side_by_side_join_hex_answers_to_both_names() -> None:
    need("bd01", "bd03")
    m = load_map("01,03")
    assert len(m) == 2 * 346 - 10
    h = m.parse("3A4")
    assert h == m.parse("1GG4") and m.name_of(h) == "1GG4"
    assert m.name_of(m.parse("3I4")) == "3I4" and m.name_of(m.parse("1I4")) == "1I4"
    # the join hex takes its centre terrain from the right-hand board (VASL composition)
    assert m.terrain_of(h).name == m.table[int(load_map("bd03").hexes.centre[load_map("bd03").parse("A4")])].name


def test_stacked_rotated_names_follow_the_physical_board() -> None:
    need("bd02", "bd04", "bd05")
    m = load_map("r05/r02/r04")
    assert len(m) == 3 * 346 - 2 * 16
    # r05 above r02: 5's printed top edge (row 0) lies on 2's printed bottom edge (row 10)
    assert m.parse("5B0") == m.parse("2B10") and m.name_of(m.parse("2B10")) == "5B0"
    assert m.parse("2B0") == m.parse("4B10") and m.name_of(m.parse("4B10")) == "2B0"
    # a rotated board turned round is its upright self: same terrain for the same printed hexes
    up = load_map("bd02")
    for name in ("I4", "A1", "GG10", "P5"):
        assert m.terrain_of(m.parse("2" + name)).name == up.terrain_of(up.parse(name)).name


def test_mixed_rotation_puts_printed_a1_bottom_right() -> None:
    need("bd01", "bd03")
    m = load_map("01,r03")
    a1 = m.parse("3A1")
    assert m.grid.col[a1] == 64 and m.name_of(m.parse("1GG4")) == "1GG4"
    assert m.parse("1GG4") == m.parse("3GG7")


def test_map_file_lays_out_and_edits_vasl_boards(tmp_path: Path) -> None:
    need("bd02")
    f = tmp_path / "two.toml"
    f.write_text('[map]\nname = "two"\nvasl_boards = [["02", {board = "r02", label = "2b"}]]\n'
                 '[terrain]\nwoods = ["2I4"]\n[levels]\n2 = ["2bA1"]\n')
    m = load_map(f, vasl_dir=vasl_dir())
    assert m.name == "two" and len(m) == 2 * 346 - 10
    assert m.terrain_of(m.parse("2I4")).name == "Woods"
    assert m.ground_level(m.parse("2bA1")) == 2 and m.ground_level(m.parse("2A1")) == 0


@pytest.mark.parametrize("layout, message", [
    ("01,01", "used twice"),
    ("01,02/03", "same number of boards"),
    ("bd99", "no archive bd99"),
])
def test_bad_layouts_are_one_line_errors(layout: str, message: str) -> None:
    vasl_dir()
    with pytest.raises((UsageError, DataError), match=message):
        load_map(layout)


def test_huge_layout_is_refused_before_reading() -> None:
    rows = [["bd02"] * 20 for _ in range(20)]
    with pytest.raises(UsageError, match=f"limit of {MAX_LAYOUT_BOARDS} boards"):
        load_layout(rows, vasl_dir="/nonexistent")


def test_cli_layout_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    need("bd01", "bd03")
    assert main(["los", "01,r03", "1GG4", "3B3", "--json"]) == 0
    capsys.readouterr()
    for argv, code in ((["los", "01,01", "1A1", "1B2"], 2), (["los", "bd99", "A1", "B2"], 1),
                       (["los", "bd01", "A1", "B2", "--ssr", "NoSuchRule"], 2),
                       (["los", "bd01,bd03/bd01", "A1", "B2"], 2)):
        assert main(argv) == code
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_queries_cross_the_join() -> None:
    """Viewshed, los-table, path and reach on a layout: a join hex is one playing hex."""
    need("bd01", "bd03")
    from hexwx.lineofsight.engine import los_table, viewshed
    from hexwx.movement.paths import path, reach
    m = load_map("01,r03")
    n = len(m)
    t = los_table(m)
    assert len(t.src) == n * (n - 1)
    v = viewshed(m, "1GG5")
    assert v is not None
    p = path(m, "1EE5", "3EE5", unit="infantry")      # across the join (3GG6 = 1GG5)
    assert p.found and any(h in ("1GG5", "1GG4", "1GG6") for h in p.hexes)
    r = reach(m, "1GG4", unit="infantry", mf=1)
    assert {"1FF4", "3FF7", "3FF6"} <= set(r.costs)        # both boards' neighbours of 1GG4


def test_board_art_of_a_layout_is_turned_where_the_board_is() -> None:
    need("bd01", "bd03")
    import io

    from PIL import Image

    from hexwx.io.vasl import read_board_image
    from hexwx.render.hexmap import board_layer, make_view
    m = load_map("01,r03")
    art = np.asarray(board_layer(m, make_view(m)))
    own = Image.open(io.BytesIO(read_board_image(vasl_dir() / "boards" / "bd03"))).convert("RGB")
    own = own.resize((1800, 645)) if own.size != (1800, 645) else own
    assert np.array_equal(art[:, 1800:], np.asarray(own.rotate(180)))
    assert not np.array_equal(art[:, 1800:], np.asarray(own))


def test_the_board_reader_and_the_layouts_read_the_same_variables(monkeypatch) -> None:
    from hexwx.io import layout, vasl
    from hexwx.io.vasl_env import METADATA_ENV, VASL_DIR_ENV
    assert (METADATA_ENV, VASL_DIR_ENV) == ("HEXWX_VASL_METADATA", "HEXWX_VASL_DIR")
    monkeypatch.delenv(METADATA_ENV, raising=False)
    monkeypatch.delenv(VASL_DIR_ENV, raising=False)
    with pytest.raises(UsageError, match=METADATA_ENV):
        layout.metadata_path(None)
    with pytest.raises(UsageError, match=METADATA_ENV):
        vasl.read_metadata(None)


def test_metadata_is_the_former_name_of_vasl_metadata(monkeypatch) -> None:
    """One name per concept (load_map and load_layout both say ``vasl_metadata``); the old
    keyword of the public ``load_layout`` still works, with a DeprecationWarning."""
    need("bd02")
    meta = vasl_dir() / "SharedBoardMetadata.xml"
    with pytest.warns(DeprecationWarning, match="vasl_metadata"):
        old = load_layout([["bd02"]], metadata=meta)
    assert old is load_layout([["bd02"]], vasl_metadata=meta)   # the same map, cached once
    with pytest.raises(UsageError, match="former name") as err:
        load_layout([["bd02"]], metadata=meta, vasl_metadata=meta)
    assert err.value.param == "metadata"
