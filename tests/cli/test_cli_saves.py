"""``hexwx import-vsav``, ``hexwx sight``, saves as MAP, unit ids wherever a hex is, bad saves.

Saves are built in tmp_path (``vsav_helpers``) on the real VASL boards of $HEXWX_VASL_DIR.
"""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import hexwx
from hexwx.cli import main
from hexwx.io.scenario import load_scenario
from vsav_helpers import board_command, hex_centre_px, piece_command, save_text, vasl_dir, write_save

SIDE_BY_SIDE = ["0\t0\t01\tVER\t6.1", "1\t0\t03\tVER\t6.1"]


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _pieces() -> list[str]:
    ge_i4 = hex_centre_px(0, 0, 8, 3)        # 1I4
    ru_k3 = hex_centre_px(1, 0, 10, 2)       # 3K3
    ru_b5 = hex_centre_px(1, 0, 1, 5)        # 3B5
    join = hex_centre_px(1, 0, 0, 3)         # 3A4 = 1GG4
    ge_w6 = hex_centre_px(0, 0, 22, 5)       # 1W6: 11 hexes from 3B5, clear
    return [
        piece_command("11", "4-6-8 Esq", *ge_i4, nationality="ge"),
        piece_command("12", "T-34 M43", *ru_k3, nationality="ru", image="ru/veh/T34M43"),
        piece_command("13", "6-2-8 Esq", *ru_b5, nationality="ru"),
        piece_command("14", "geLDR", join[0] + 6, join[1], nationality="ge"),
        piece_command("15", "LMG", *ru_b5, nationality="ru", counter_type="common"),
        piece_command("16", "Blue perimeter", *ge_i4, counter_type="global"),
        piece_command("17", "9-1 AL", 150, 2400, image="ge/geal91"),            # set-up area
        piece_command("18", "8-3-8 Esq", *ge_w6, nationality="ge"),
    ]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    vasl_dir()
    return write_save(tmp_path / "game.vsav", save_text([board_command(*SIDE_BY_SIDE)] + _pieces()))


@pytest.fixture
def scenario(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "game.toml"
    rc, _out, err = run(capsys, "import-vsav", game, "-o", out, "--name", 'Say "hi"\\ \tthere')
    assert rc == 0, err
    return out


def test_import_vsav_writes_the_units_and_layout(scenario: Path, game: Path):
    doc = tomllib.loads(scenario.read_text())
    assert doc["name"] == 'Say "hi"\\ \tthere'            # the writer escapes what TOML needs
    assert doc["map"] == {"vasl_boards": [["01", "03"]]}
    got = [(u["id"], u["hex"], u["kind"], u.get("side"), u.get("nationality")) for u in doc["units"]]
    assert got == [
        ("ge-4-6-8-Esq", "1I4", "infantry", "Axis", "German"),
        ("ru-T-34-M43", "3K3", "vehicle", "Allied", "Russian"),
        ("ru-6-2-8-Esq", "3B5", "infantry", "Allied", "Russian"),
        ("geLDR", "1GG4", "infantry", "Axis", "German"),      # the join hex, named by board 1
        ("ru-LMG", "3B5", "other", "Allied", "Russian"),
        ("ge-8-3-8-Esq", "1W6", "infantry", "Axis", "German"),
    ]   # the Blue perimeter is a marker with no effect (hexwx.io.vsav_pieces), not a unit
    assert "pieces on the boards: unit: 6, no effect: 1" in scenario.read_text()
    assert "9-1 AL" in scenario.read_text().split("name =")[0]  # listed off the boards
    sc = load_scenario(scenario)
    assert [u.id for u in sc.units] == [g[0] for g in got]
    assert sc.map.grid.names() == hexwx.load_map("01,03").grid.names()


def test_import_vsav_stdout_and_summary(game: Path, capsys):
    rc, out, err = run(capsys, "import-vsav", game)
    assert rc == 0 and "[[units]]" in out
    assert "6 unit(s) and 0 counter(s) on 01,03, 1 piece(s) off the boards" in err


def test_los_and_render_take_a_save_as_map(game: Path, tmp_path: Path, capsys):
    rc, out, _ = run(capsys, "los", game, "1I4", "3K3", "--json")
    rc2, out2, _ = run(capsys, "los", "01,03", "1I4", "3K3", "--json")
    assert rc == rc2 == 0
    a, b = json.loads(out), json.loads(out2)
    assert (a["blocked"], a["hindrance"], a["range"]) == (b["blocked"], b["hindrance"], b["range"])
    rc, out, err = run(capsys, "render", game, "-o", tmp_path / "g.png", "--scale", "0.3",
                       "--los", "ru-6-2-8-Esq", "geLDR")
    assert rc == 0, err
    assert (tmp_path / "g.png").exists()
    assert "units: Axis 3" in out and re.search(r"LOS 3B5\b.* -> 1GG4\b", out)   # the save's pieces


def test_sight_every_opposing_pair_agrees_with_los(scenario: Path, capsys):
    text = scenario.read_text().replace('[map]', '[weather]\nmist = true\n\n[map]', 1)
    scenario.write_text(text)
    rc, out, err = run(capsys, "sight", "--scenario", scenario, "--json")
    assert rc == 0, err
    data = json.loads(out)
    sc = load_scenario(scenario)
    m = sc.map
    looking = [u for u in sc.units if u.side and u.kind in ("infantry", "vehicle")]
    expected = [(a.id, b.id) for a in looking for b in looking if a.side != b.side]
    assert [(p["viewer"], p["target"]) for p in data["pairs"]] == expected
    assert len(expected) == 2 * 3 * 2
    for p in data["pairs"]:
        tgt = sc.unit(p["target"])
        r = hexwx.los(m, p["viewer_hex"], p["target_hex"], weather=sc.weather,
                      target_is_infantry=tgt.kind == "infantry")
        assert (p["blocked"], p["range"]) == (r.blocked, r.range)
        if not r.blocked:
            assert (p["hindrance"], p["lv"]) == (r.hindrance, r.lv)
    far = next(p for p in data["pairs"] if (p["viewer"], p["target"]) == ("ru-6-2-8-Esq", "ge-8-3-8-Esq"))
    assert (far["range"], far["blocked"], far["lv"]) == (11, False, 1)   # mist: +1 past 6 hexes
    rc, out, _ = run(capsys, "sight", "--scenario", scenario, "--all-pieces")
    assert rc == 0 and out.count(" -> ") == 2 * 3 * 3   # the LMG looks and is looked at too
    rc, out, _ = run(capsys, "sight", "--scenario", scenario, "--turn", "2", "--json")
    assert rc == 0 and json.loads(out)["turn"] == 2


def test_unit_ids_wherever_a_hex_is(scenario: Path, tmp_path: Path, capsys):
    rc, out, err = run(capsys, "los", "--scenario", scenario, "ge-4-6-8-Esq", "ru-T-34-M43", "--json")
    assert rc == 0, err
    r = json.loads(out)
    assert (r["source"], r["target"]) == ("1I4", "3K3")
    png = tmp_path / "u.png"
    rc, out, err = run(capsys, "render", scenario, "--los", "ge-4-6-8-Esq", "ru-T-34-M43",
                       "-o", png, "--window", "1G2", "3M6")
    assert rc == 0, err
    assert re.search(r"LOS 1I4\b.* -> 3K3\b", out) and "units: Axis 3" in out
    rc, _out, err = run(capsys, "render", scenario, "--los", "nobody", "3K3", "-o", png)
    assert rc == 2 and "nobody" in err and "ge-4-6-8-Esq" in err


def test_load_save_is_a_scenario(game: Path, scenario: Path):
    from hexwx.io.vsav_import import load_save
    sc, ref = load_save(game), load_scenario(scenario)
    assert sc.units == ref.units and sc.map.grid.names() == ref.map.grid.names()


def test_units_are_drawn_in_their_side_colour(scenario: Path):
    from hexwx.render.core import render_map
    from hexwx.render.units import side_colours
    sc = load_scenario(scenario)
    r = render_map(sc.map, units=sc.units, window=("1G2", "3M6"), legend=False)
    colours = side_colours(sc.units)
    drawn = [mk for mk in r.markers if mk.kind == "unit"]
    assert {mk.target for mk in drawn} == {u.id for u in sc.units}
    for mk in drawn:
        u = sc.unit(mk.target)
        if u.kind != "other":
            assert mk.colour == colours[u.side]
        px = r.image.getpixel(mk.xy)
        assert max(abs(a - b) for a, b in zip(px, mk.colour)) < 40, (mk, px)


# -- bad saves on the command line -------------------------------------------------------------

def _one_line_error(capsys, path: Path, *argv: object, code: int = 1) -> str:
    rc, _out, err = run(capsys, *argv)
    assert rc == code, err
    assert err.count("\n") == 1 and "Traceback" not in err and str(path) in err
    return err


def test_bad_saves_are_one_line_errors(tmp_path: Path, capsys):
    vasl_dir()
    garbled = write_save(tmp_path / "garbled.vsav", data=b"!VCSK3cZZ")
    _one_line_error(capsys, garbled, "los", garbled, "1A1", "1A2")
    unknown = write_save(tmp_path / "unknown.vsav", save_text([board_command("0\t0\t99\tVER\t1")]))
    assert "99" in _one_line_error(capsys, unknown, "los", unknown, "A1", "A2")
    missing = write_save(tmp_path / "missing.vsav", save_text([board_command("0\t0\t07\tVER\t1")]))
    assert "bd07" in _one_line_error(capsys, missing, "import-vsav", missing)
    text = tmp_path / "text.vsav"
    text.write_text("not a save at all")
    assert "expected a VASL save" in _one_line_error(capsys, text, "los", text, "A1", "A2")
    trunc = tmp_path / "trunc.vsav"
    trunc.write_bytes(unknown.read_bytes()[:50])
    _one_line_error(capsys, trunc, "render", trunc, "-o", tmp_path / "t.png")
    badssr = write_save(tmp_path / "ssr.vsav",
                        save_text([board_command("0\t0\t01\tVER\t6.1\tSSR\tNoSuchRule")]))
    assert "NoSuchRule" in _one_line_error(capsys, badssr, "los", badssr, "A1", "A2")


def test_crop_is_applied_and_overlay_named_or_explicitly_ignored(tmp_path: Path, capsys):
    vasl_dir()
    # board 01 from pixel 562 (hexrow K) on: hexes left of K do not exist on the map
    cropped = write_save(tmp_path / "crop.vsav", save_text(
        [board_command("0\t0\t01\t562\t0\t1238\t645\tVER\t6.1")]))
    rc, out, err = run(capsys, "los", cropped, "K3", "K5")
    assert rc == 0, err
    rc, out, err = run(capsys, "los", cropped, "C3", "K5")
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert "'C3'" in err and "outside the crop" in err
    rc, out, err = run(capsys, "los", cropped, "C3", "K5", "--ignore-board-extras")
    assert rc == 0, err


def test_saves_with_overlays_load_and_bad_overlays_are_one_line_errors(tmp_path: Path, capsys):
    vasl_dir()
    ovr = write_save(tmp_path / "ovr.vsav", save_text(
        [board_command("0\t0\t04\tVER\t6.1\tOVR\tx11\tL5\tK5")]))
    rc, out, err = run(capsys, "los", ovr, "K4", "L6", "--json")
    assert rc == 0, err
    with_overlay = json.loads(out)
    rc, out, err = run(capsys, "los", ovr, "K4", "L6", "--json", "--ignore-board-extras")
    assert rc == 0, err
    assert json.loads(out)["blocked"] is False       # the whole board: open between them
    assert with_overlay["blocked"] is True           # overlay x11's stone building between them
    rc, out, err = run(capsys, "import-vsav", ovr, "-o", tmp_path / "ovr.toml")
    assert rc == 0, err
    assert 'overlays = ["x11 L5 K5"]' in (tmp_path / "ovr.toml").read_text()
    for bad, expect in (("zz9\tL5\tK5", "unknown overlay"), ("x11\tL5\tL9", "not neighbouring"),
                        ("x10\tL5\tK5", "covers one hex")):
        path = write_save(tmp_path / "bad.vsav", save_text(
            [board_command(f"0\t0\t04\tVER\t6.1\tOVR\t{bad}")]))
        assert expect in _one_line_error(capsys, path, "los", path, "K4", "L6")
