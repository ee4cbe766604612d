"""VASL saves: decoding, board layout, pieces and their hexes; real saves and hostile ones."""
from __future__ import annotations

import re
import zipfile

import pytest

from hexwx.errors import DataError
from hexwx.io.vsav import (decode_saved_game, iter_commands, printed_hex_at, read_save,
                           split_sequence, trait_chain, unit_ids)
from vasl_boards import vasl_dir
from vsav_helpers import (board_command, chain, hex_centre_px, piece_command, real_save, save_bytes,
                          save_text, write_save)

BD01 = "0\t0\t01\tVER\t6.1"


# -- the encodings -----------------------------------------------------------------------------

def test_split_sequence_reads_escaped_delimiters_and_quotes():
    assert split_sequence("a/b\\/c/'d\\'", "/") == ["a", "b/c", "d\\"]
    assert split_sequence("", ";") == [""]


def test_trait_chain_undoes_nested_escaping():
    traits = ["mark;DBCounterType", "emb2;x;a\tb", "label;1", "piece;K;D;ge/x;LMG"]
    states = ["unit", "2", "", "Main Map;10;20;7"]
    assert trait_chain(chain(traits), chain(states)) == list(zip(traits, states))


def test_decode_round_trip_with_any_key():
    text = save_text([board_command(BD01)])
    for key in (0x00, 0x3C, 0xFF):
        assert decode_saved_game(save_bytes(text, key), "x.vsav") == text
    cmds = list(iter_commands(text))
    assert cmds[0] == "begin_save" and cmds[1].startswith("bd\t") and cmds[-1] == "end_save"


def test_printed_hex_at_board_pixels():
    assert printed_hex_at(0, 32) == "A1"
    assert printed_hex_at(8 * 56.25, 32.25 + 3 * 64.5) == "I4"
    assert printed_hex_at(56.25, 0) == "B0"
    assert printed_hex_at(32 * 56.25, 645 - 30) == "GG10"


# -- real saves (../shared/vasl/saves) ---------------------------------------------------------

def _decoded(path) -> str:
    with zipfile.ZipFile(path) as zf:
        data = zf.read("savedGame")
    key = int(data[5:7], 16)
    return bytes(b ^ key for b in bytes.fromhex(data[7:].decode().strip())).decode()


def test_real_save_streets_of_stalingrad():
    p = real_save("streets-of-stalingrad.vsav")
    save = read_save(p)
    assert save.layout_text() == "01" and not save.boards[0].rotated
    assert save.boards[0].version == "6.1" and save.ssr == () and save.unsupported() == []
    text = _decoded(p)
    # counted independently of the reader: piece commands that are not stacks
    adds = re.findall(r"\x1b\+/\d+/(stack)?", text)
    assert len(save.pieces) == sum(1 for s in adds if not s) == 344
    inside = [(int(x), int(y)) for x, y in re.findall(r"Main Map;(-?\d+);(-?\d+)", text)]
    on_board = [(x, y) for x, y in inside if 400 <= x < 2200 and 400 <= y < 1045]
    placed = save.placed()
    assert len(placed) == 121 == len(on_board) - 1   # less one empty stack at (1103, 415)
    assert len(save.off_board()) == 344 - 121
    assert {p.piece.kind for p in placed} == {"other"}   # perimeter markers and a label
    by_name = {pc.name: pc for pc in save.pieces}
    stug = by_name["StuG IIIG"]
    assert (stug.kind, stug.nationality, stug.side) == ("vehicle", "German", "Axis")
    esq = by_name["6-2-8 Esq"]
    assert (esq.kind, esq.nationality, esq.side) == ("infantry", "Russian", "Allied")
    assert (by_name["LMG"].kind, by_name["?"].kind) == ("other", "other")
    assert by_name["Wind"].side is None
    # a placed marker's hex: Blue perimeter at map (653, 706) -> board pixel (253, 306)
    first = next(p for p in placed if (p.piece.x, p.piece.y) == (653, 706))
    assert first.hex == printed_hex_at(253, 306)


def test_real_save_hubes_pocket_layout():
    save = read_save(real_save("hubes-pocket.vsav"))
    assert save.layout_text() == "r05/r02/r04"
    assert [b.rotated for b in save.boards] == [True, True, True]
    assert [save.origin(b) for b in save.boards] == [(400, 400), (400, 1045), (400, 1690)]
    assert save.placed() == [] and len(save.off_board()) == len(save.pieces) == 108
    kinds = {(pc.kind, pc.side) for pc in save.pieces}
    assert ("vehicle", "Axis") in kinds and ("infantry", "Allied") in kinds


def test_real_save_map_is_its_layout():
    import hexwx
    from hexwx.io.load import load_map
    p = real_save("hubes-pocket.vsav")
    m = load_map(p)
    ref = load_map("r05/r02/r04")
    assert m.grid.names() == ref.grid.names()
    for a, b in (("2I4", "4K3"), ("5B3", "2H8"), ("4A1", "5GG10")):
        r1, r2 = hexwx.los(m, a, b), hexwx.los(ref, a, b)
        assert (r1.blocked, r1.hindrance, r1.range) == (r2.blocked, r2.hindrance, r2.range)


# -- synthetic saves: pieces on known hexes ----------------------------------------------------

def _units_save(tmp_path, boards, pieces, name="g.vsav"):
    text = save_text([board_command(*boards)] + pieces)
    return write_save(tmp_path / name, text)


def test_pieces_land_on_printed_hexes_of_rotated_stacked_boards(tmp_path):
    x1, y1 = hex_centre_px(0, 0, 8, 3, rotated=True)     # board r05, printed I4
    x2, y2 = hex_centre_px(0, 1, 10, 2, rotated=False)   # board 02, printed K3
    x3, y3 = hex_centre_px(0, 1, 1, 5, rotated=False)    # board 02, printed B5
    p = _units_save(tmp_path, ["0\t0\tr05\tVER\t6.3", "0\t1\t02\tVER\t6.4"], [
        piece_command("1", "4-6-8 Esq", x1, y1, nationality="ge"),
        piece_command("2", "T-34 M43", x2, y2, nationality="ru", image="ru/veh/T34M43"),
        piece_command("3", "LMG", x3, y3, nationality="ru", counter_type="common"),
        piece_command("4", "4-6-8 Esq", x1 + 3, y1 - 2, nationality="ge"),
        piece_command("5", "6-2-8 Esq", 150, 150, nationality="ru"),          # set-up area
    ])
    save = read_save(p)
    placed = save.placed()
    assert [(q.hex, q.piece.kind, q.piece.side) for q in placed] == [
        ("5I4", "infantry", "Axis"), ("2K3", "vehicle", "Allied"), ("2B5", "other", "Allied"),
        ("5I4", "infantry", "Axis")]
    assert unit_ids(placed) == ["ge-4-6-8-Esq", "ru-T-34-M43", "ru-LMG", "ge-4-6-8-Esq-2"]
    assert [pc.name for pc in save.off_board()] == ["6-2-8 Esq"]


def test_side_by_side_boards_and_join_hex(tmp_path):
    xa, ya = hex_centre_px(1, 0, 0, 3)            # board 03's A4 = the join hex 1GG4
    p = _units_save(tmp_path, ["0\t0\t01\tVER\t6.1", "1\t0\t03\tVER\t6.1"],
                    [piece_command("1", "geLDR", xa + 10, ya, nationality="ge")])
    placed = read_save(p).placed()
    assert [q.hex for q in placed] == ["3A4"]
    assert unit_ids(placed) == ["geLDR"]


def test_crop_shifts_boards_and_pieces(tmp_path):
    # board 01 cropped to its columns from pixel 562 (J): board 02 then starts 1238 px on
    p = _units_save(tmp_path, ["0\t0\t01\t562\t0\t1238\t645\tVER\t6.1", "1\t0\t02\tVER\t6.4"], [
        piece_command("1", "A", 400 + 1238 + round(8 * 56.25), 400 + round(32.25 + 3 * 64.5),
                      nationality="ge"),
        piece_command("2", "B", 400 + round(10 * 56.25) - 562, 400 + round(32.25 + 2 * 64.5),
                      nationality="ru")])
    save = read_save(p)
    assert save.boards[0].crop == (562, 0, 1238, 645)
    assert [q.hex for q in save.placed()] == ["2I4", "1K3"]
    assert save.unsupported() == []                  # crops are composed now
    assert "cropped" in save.unsupported(with_crops=True)[0]


# -- hostile saves -----------------------------------------------------------------------------

def _err(path) -> str:
    with pytest.raises(DataError) as ei:
        read_save(path)
    msg = str(ei.value)
    assert str(path) in msg and "\n" not in msg
    return msg


def test_not_a_zip(tmp_path):
    p = tmp_path / "x.vsav"
    p.write_bytes(b"hello, not a zip")
    assert "not a readable zip" in _err(p)


def test_truncated_zip(tmp_path):
    good = write_save(tmp_path / "g.vsav", save_text([board_command(BD01)]))
    p = tmp_path / "t.vsav"
    p.write_bytes(good.read_bytes()[:60])
    assert "zip" in _err(p)


def test_missing_saved_game(tmp_path):
    assert "no savedGame" in _err(write_save(tmp_path / "m.vsav"))


def test_bad_magic_odd_length_non_hex_wrong_key(tmp_path):
    text = save_text([board_command(BD01)])
    assert "!VCSK" in _err(write_save(tmp_path / "a.vsav", data=b"PLAIN" + save_bytes(text)[5:]))
    assert "odd number" in _err(write_save(tmp_path / "b.vsav", data=save_bytes(text)[:-1]))
    garbled = bytearray(save_bytes(text))
    garbled[40] = ord("z")
    assert "non-hex" in _err(write_save(tmp_path / "c.vsav", data=bytes(garbled)))
    data = save_bytes(text, key=0x3C)
    wrong = data[:5] + b"5a" + data[7:]
    assert "key" in _err(write_save(tmp_path / "d.vsav", data=wrong))
    assert "truncated" in _err(write_save(tmp_path / "e.vsav", data=b"!VCSK"))


def test_no_board_command_and_malformed_layouts(tmp_path):
    assert "no board layout" in _err(write_save(tmp_path / "a.vsav", save_text(["INFO\tx"])))
    assert "malformed board" in _err(write_save(tmp_path / "b.vsav", save_text(["bd\tx\t0\t01"])))
    uneven = save_text([board_command("0\t0\t01", "1\t0\t02", "0\t1\t03")])
    assert "rectangle" in _err(write_save(tmp_path / "c.vsav", uneven))
    twice = save_text([board_command("0\t0\t01", "0\t0\t02")])
    assert "two boards" in _err(write_save(tmp_path / "d.vsav", twice))


def test_missing_file_and_directory(tmp_path):
    assert "no such file" in _err(tmp_path / "none.vsav")
    with pytest.raises(DataError, match="directory"):
        d = tmp_path / "dir.vsav"
        d.mkdir()
        read_save(d)


def test_hostile_pieces_are_bounded(tmp_path):
    from hexwx.io.vsav import MAX_TRAITS
    deep = piece_command("66", "x", 500, 500, extra_traits=tuple(f"mark;p{i}" for i in range(MAX_TRAITS)))
    p = write_save(tmp_path / "deep.vsav", save_text([board_command(BD01), deep]))
    assert "piece '66'" in _err(p) and "traits" in _err(p)
    huge = piece_command("67", "y" * (1 << 20), 500, 500)
    p = write_save(tmp_path / "huge.vsav", save_text([board_command(BD01), huge]))
    assert "over the limit" in _err(p)


def test_second_copy_of_a_board_gets_its_own_label(tmp_path):
    from hexwx.io.vsav_import import layout_spec
    x, y = hex_centre_px(1, 0, 10, 2)                  # K3 on the second board 02
    p = _units_save(tmp_path, ["0\t0\t02\tVER\t6.4", "1\t0\t02\tVER\t6.4"],
                    [piece_command("1", "T-34 M43", x, y, image="ru/veh/T34M43")])
    save = read_save(p)
    assert [b.label for b in save.boards] == ["2", "2b"]
    assert [q.hex for q in save.placed()] == ["2bK3"]
    assert layout_spec(save) == ([["02", {"board": "02", "label": "2b"}]], ())
    assert save.placed()[0].piece.nationality == "Russian"   # from the image folder


def test_nationality_from_layer_images(tmp_path):
    emb = "emb2;;0;;ELR;2;E;BH;2;Q;;;0;false;0;0;ru/ru628S,ru/ru527S;6-2-8 Esq,5-2-7 1sq;false"
    p = _units_save(tmp_path, [BD01], [piece_command("1", "6-2-8 Esq", 700, 600, extra_traits=(emb,))])
    pc = read_save(p).pieces[0]
    assert (pc.nationality, pc.side, pc.kind) == ("Russian", "Allied", "infantry")


# -- the bd command: crops, FH, overlays, unknown fields, no boards (issue #24 item 4) ----------

def test_board_fields_fh_overlays_and_unknown_fields_are_not_ssrs() -> None:
    from hexwx.io.vsav import parse_board_command
    (b,) = parse_board_command("bd\t0\t0\t02\t0\t0\t844\t-1\tVER\t6.4\tOVR\tovrX1\tK3\tK4\t"
                               "SSR\tNoGrain\tFH\ttrue", "s")
    assert b.crop == (0, 0, 844, -1) and b.version == "6.4"
    assert b.overlays == ("ovrX1 K3 K4",) and b.ssr == ("NoGrain",) and b.full_hex is True
    # FH right after the crop, an unknown field of a newer VASL after the SSRs, ZOOM last
    (b,) = parse_board_command("bd\t0\t0\tr05\t0\t323\t-1\t322\tFH\tfalse\tVER\t6.3\t"
                               "SSR\tWoodsToBrush NoGrain\tNEWFIELD\tx1\tZOOM\t1.5", "s")
    assert b.rotated and b.full_hex is False and b.ssr == ("WoodsToBrush", "NoGrain")
    assert b.extras == ("NEWFIELD x1",) and b.zoom == 1.5
    # a crop with both sizes -1 is no crop (VASL reads it so)
    (b,) = parse_board_command("bd\t0\t0\t02\t0\t0\t-1\t-1\tVER\t6.4", "s")
    assert b.crop is None
    with pytest.raises(DataError, match="FH 'maybe' is not true or false"):
        parse_board_command("bd\t0\t0\t02\tVER\t6.4\tFH\tmaybe", "s")


def test_a_save_with_no_boards_says_so_in_one_line(tmp_path):
    from hexwx.io.load import load_map
    p = write_save(tmp_path / "empty.vsav", save_text(["bd\t"]))
    save = read_save(p)
    assert save.boards == ()
    with pytest.raises(DataError) as ei:
        load_map(p)
    msg = str(ei.value)
    assert "has no boards" in msg and str(p) in msg and "\n" not in msg
    for name in ("no-boards-basic.vsav", "no-boards-hip-concealed.vsav"):
        with pytest.raises(DataError, match="the save has no boards"):
            load_map(real_save(name))


@pytest.mark.parametrize("crop,words", [
    ("1000\t0\t900\t-1", "leaves the board"), ("0\t0\t-20\t322", "must be positive"),
    ("-5\t0\t844\t-1", "left of / above"), ("10\t10\t5\t5", "holds no hex"),
])
def test_bad_crops_in_a_save_are_one_line_errors(tmp_path, crop, words):
    from hexwx.io.load import load_map
    vasl_dir()
    p = write_save(tmp_path / "c.vsav", save_text([board_command(f"0\t0\t02\t{crop}\tVER\t6.4")]))
    with pytest.raises(DataError) as ei:
        load_map(p)
    msg = str(ei.value)
    assert words in msg and str(p) in msg and "'02" in msg and "\n" not in msg


def test_a_cropped_save_is_composed_with_its_crop(tmp_path):
    from hexwx.io.load import load_map
    vasl_dir()
    p = write_save(tmp_path / "c.vsav", save_text([board_command(
        "0\t0\t02\t0\t0\t900\t-1\tVER\t6.4\tFH\tfalse", "1\t0\t03\t900\t0\t900\t-1\tVER\t6.3")]))
    m = load_map(p)
    assert len(m) == 346 and m.parse("2Q4") == m.parse("3Q4")
    whole = load_map(p, ignore_board_extras=True)
    assert len(whole) == 2 * 346 - 10


def test_crops_among_turned_boards_are_named_or_explicitly_ignored(tmp_path):
    from hexwx.io.load import load_map
    vasl_dir()
    p = write_save(tmp_path / "t.vsav", save_text([board_command(
        "0\t0\t02\t0\t0\t900\t-1\tVER\t6.4", "1\t0\tr03\tVER\t6.3")]))
    with pytest.raises(DataError) as ei:
        load_map(p)
    msg = str(ei.value)
    assert "in a layout with turned and upright boards" in msg
    assert "give ignore_board_extras=True" in msg
    assert "\n" not in msg and ei.value.param == "ignore_board_extras"
    from hexwx.cli.app import flag_message      # the command line names its flag
    assert "give --ignore-board-extras to use" in flag_message(msg, ei.value.param)
    assert len(load_map(p, ignore_board_extras=True)) == 2 * 346 - 10
