"""Bad counters give one-line errors naming what is wrong (issue 23: "bad counter names, hexes
and levels giving one-line errors"; DESIGN: the CLI prints one line, exit 2 for usage errors,
1 for bad data, never a traceback).  ``--counter "NAME@HEX[:LEVEL]"`` (and ``/S`` for a bypass
hexside) on ``hexwx los``, and the ``[[counters]]`` tables of a scenario file."""
from __future__ import annotations

from pathlib import Path

import pytest

from hexwx.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
MAP = str(ROOT / "maps" / "hill_village.toml")


def _one_line_error(capsys, argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1, out.err
    assert "Traceback" not in out.err and not out.out
    return code, lines[0]


@pytest.mark.parametrize("spec,words", [
    # the name
    ("Smoke@A4", ["unknown counter 'Smoke'"]),
    ("T-34 M43@A4", ["unknown counter 'T-34 M43'", "vehicle:NAME"]),
    ("@A4", ["bad counter '@A4'", "no name", "NAME@HEX"]),
    ("vehicle:@A4", ["unknown counter 'vehicle:'"]),
    ("White +3 Smoke", ["bad counter 'White +3 Smoke'", "NAME@HEX"]),
    # the hex
    ("White +3 Smoke@ZZ99", ["White +3 Smoke@ZZ99", "ZZ99"]),
    ("White +3 Smoke@", ["bad counter 'White +3 Smoke@'", "bad hex ''"]),
    ("White +3 Smoke@A-4", ["bad counter 'White +3 Smoke@A-4'", "bad hex 'A-4'"]),
    # the level
    ("White +3 Smoke@A4:x", ["bad counter 'White +3 Smoke@A4:x'", "bad level 'x'"]),
    ("White +3 Smoke@A4:1.5", ["bad counter 'White +3 Smoke@A4:1.5'", "bad level '1.5'"]),
    ("White +3 Smoke@A4:3", ["level 3 does not exist in hex A4", "only ground level 0"]),
    ("Smoke grenade +2@D4:9", ["level 9 does not exist in hex D4", "0-3"]),
    # the bypass hexside
    ("vehicle:T-34@A4/7", ["bad counter 'vehicle:T-34@A4/7'", "bad hexside '7'", "0-5"]),
    ("vehicle:T-34@A4/up", ["bad counter 'vehicle:T-34@A4/up'", "bad hexside 'up'"]),
    ("vehicle:T-34@A4:0/", ["bad counter 'vehicle:T-34@A4:0/'", "bad hexside ''"]),
])
def test_bad_counter_option_is_one_line_naming_it(capsys, spec: str, words: list[str]) -> None:
    code, line = _one_line_error(capsys, ["los", MAP, "A1", "A7", "--counter", spec])
    assert code == 2
    assert line.startswith("hexwx los: error: --counter: "), line
    for w in words:
        assert w in line, (w, line)


SCENARIO = '''name = "bad counters"
map = "{map}"

[[counters]]
{body}
'''


@pytest.mark.parametrize("body,words", [
    ('name = "Smoke"\nhex = "A4"', ["counters[0].name", "unknown counter 'Smoke'"]),
    ('name = 3\nhex = "A4"', ["counters[0].name", "3"]),
    ('hex = "A4"', ["counters[0].name"]),
    ('name = "White +3 Smoke"', ["counters[0].hex"]),
    ('name = "White +3 Smoke"\nhex = 4', ["counters[0].hex"]),
    ('name = "White +3 Smoke"\nhex = "ZZ99"', ["counters[0].hex", "ZZ99"]),
    ('name = "White +3 Smoke"\nhex = "A 4"', ["counters[0].hex", "A 4"]),
    ('name = "White +3 Smoke"\nhex = "A4"\nlevel = "1"', ["counters[0].level"]),
    ('name = "White +3 Smoke"\nhex = "A4"\nlevel = 1.5', ["counters[0].level"]),
    ('name = "White +3 Smoke"\nhex = "A4"\nlevel = true', ["counters[0].level"]),
    ('name = "White +3 Smoke"\nhex = "A4"\nlevel = 2', ["counters[0].level",
                                                      "level 2 does not exist in hex A4"]),
    ('name = "Smoke grenade +2"\nhex = "D4"\nlevel = 7', ["counters[0].level", "0-3"]),
    ('name = "vehicle:T-34"\nhex = "A4"\nhexside = 6', ["counters[0].hexside", "6"]),
    ('name = "vehicle:T-34"\nhex = "A4"\nhexside = "N"', ["counters[0].hexside"]),
    ('name = "White +3 Smoke"\nhex = "A4"\nlvl = 1', ["counters[0]", "lvl"]),
])
def test_bad_scenario_counter_is_one_line_naming_the_key(capsys, tmp_path, body: str,
                                                         words: list[str]) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(SCENARIO.format(map=MAP, body=body))
    code, line = _one_line_error(capsys, ["los", "--scenario", str(f), "A1", "A7"])
    assert code == 1, line
    assert str(f) in line or "bad.toml" in line, line
    for w in words:
        assert w in line, (w, line)


def test_a_bypass_hexside_may_be_named() -> None:
    from hexwx.lineofsight.counters import parse_counter
    assert parse_counter("vehicle:T-34@A4/NE").hexside == parse_counter("vehicle:T-34@A4/1").hexside == 1
    assert parse_counter("White +3 Smoke@d4:2").spec() == "White +3 Smoke@D4:2"


def test_counters_not_an_array_of_tables(capsys, tmp_path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(f'name = "x"\nmap = "{MAP}"\ncounters = "White +3 Smoke@A4"\n')
    code, line = _one_line_error(capsys, ["los", "--scenario", str(f), "A1", "A7"])
    assert code == 1 and "counters" in line, line


SIDE = "expected a hexside N, NE, SE, S, SW, NW or 0-5"
HEXES = "expected a list of hexes such as 'A7,N7'"


@pytest.mark.parametrize("argv,flag,words", [
    # a bad bypass hexside of an observer
    (["exposure", MAP, "--from", "A1,B2:7"], "--from", SIDE),
    (["render", MAP, "--exposure", "--exposure-from", "A1:up", "-o", "x.png"], "--exposure-from",
     SIDE),
    # an empty hex list
    (["exposure", MAP, "--from", " , "], "--from", HEXES),
    (["exposure", MAP, "--from", "A1", "--entrenched", ""], "--entrenched", HEXES),
    (["render", MAP, "--exposure", "--exposure-from", "", "-o", "x.png"], "--exposure-from", HEXES),
    (["path", MAP, "A1", "A7", "--avoid-sight-of", ","], "--avoid-sight-of", HEXES),
])
def test_bad_hex_list_option_is_one_line_naming_its_flag(capsys, tmp_path, monkeypatch,
                                                         argv: list[str], flag: str,
                                                         words: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, line = _one_line_error(capsys, argv)
    assert code == 2
    assert f"error: bad {flag}: {words}" in line, line
    assert not (tmp_path / "x.png").exists()
