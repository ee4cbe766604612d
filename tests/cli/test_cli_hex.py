"""``hexwx los``, ``hexwx los-table`` and the hex-map CLI errors, on a small hand-made map.

Expected answers are worked by hand (see the map's comments): threads run down one column.
"""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from hexwx.cli import main

MAP = """\
[map]
name = "cli"
[terrain]
woods = ["C4"]
grain = ["U2", "U3", "U4"]
"stone building 2" = ["Y3"]
"""

# C2 -> C6: woods C4 (top 1) higher than both level-0 ends -> blocked, A6.2, range 4.
# U1 -> U5: grain U2, U3, U4 -> +1 each = +3 (B.10), clear, range 4.


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    p = tmp_path / "cli.toml"
    p.write_text(MAP)
    return p


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# -- los ---------------------------------------------------------------------------------

def test_los_text_clear(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    rc, out, err = run(capsys, "los", map_file, "U1", "U5")
    assert rc == 0 and err == ""
    assert "range 4" in out and "CLEAR" in out and "+3" in out
    for h in ("U2", "U3", "U4"):
        assert f"grain in {h}" in out


def test_los_text_blocked(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    rc, out, _ = run(capsys, "los", map_file, "C2", "C6")
    assert rc == 0
    assert "BLOCKED by woods in C4" in out and "A6.2" in out and "range 4" in out


def test_los_json_clear(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    rc, out, _ = run(capsys, "los", map_file, "U1", "U5", "--json")
    d = json.loads(out)
    assert rc == 0
    assert d["blocked"] is False and d["range"] == 4
    assert d["hindrance"] == 3 and d["lv"] == 0 and d["drm"] == 3
    assert d["reason"] == "clear" and d["rule"] is None
    assert [(h["hex"], h["drm"], h["kind"]) for h in d["hindrances"]] == [
        ("U2", 1, "grain"), ("U3", 1, "grain"), ("U4", 1, "grain")]


def test_los_json_blocked(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    rc, out, _ = run(capsys, "los", map_file, "C2", "C6", "--json")
    d = json.loads(out)
    assert rc == 0
    assert d["blocked"] is True and d["range"] == 4 and d["rule"] == "A6.2"
    assert d["blocking_hex"] == "C4" and d["reason"] and d["hindrances"] == []


def test_los_json_with_weather(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    # mist (RULES-NOTES): at range 7-12 a LV DRM of +1; U1 -> U8 is range 7 over three grain hexes
    rc, out, _ = run(capsys, "los", map_file, "U1", "U8", "--mist", "--json")
    d = json.loads(out)
    assert rc == 0 and d["range"] == 7 and not d["blocked"]
    assert d["hindrance"] == 3 and d["lv"] == 1 and d["drm"] == 4


def test_los_from_level(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    # Y3 is a 2-level building: level 2 is elevation 2; no terrain between Y3 and Y6
    rc, out, _ = run(capsys, "los", map_file, "Y3", "Y6", "--from-level", "2", "--json")
    d = json.loads(out)
    assert rc == 0 and d["source_level"] == 2 and d["blocked"] is False


def test_los_scenario_with_unit_ids(capsys: pytest.CaptureFixture[str], map_file: Path,
                                    tmp_path: Path) -> None:
    scen = tmp_path / "s.toml"
    scen.write_text(f'name = "cli test"\nmap = "{map_file.name}"\nmonth = "Jun"\nturns = 1\n'
                    '[[units]]\nid = "north"\nside = "German"\nhex = "U1"\nlevel = 0\n'
                    'kind = "infantry"\n'
                    '[[units]]\nid = "south"\nside = "American"\nhex = "U5"\nlevel = 0\n'
                    'kind = "infantry"\n'
                    '[[units]]\nid = "upstairs"\nside = "German"\nhex = "Y3"\nlevel = 2\n'
                    'kind = "infantry"\n')
    rc, out, err = run(capsys, "los", "--scenario", scen, "north", "south", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert (d["source"], d["target"], d["hindrance"], d["range"]) == ("U1", "U5", 3, 4)
    rc, out, err = run(capsys, "los", "--scenario", scen, "upstairs", "Y6", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["source"] == "Y3" and d["source_level"] == 2      # the unit's level is used


# -- los-table -------------------------------------------------------------------------------

def test_los_table_csv(capsys: pytest.CaptureFixture[str], map_file: Path,
                       tmp_path: Path) -> None:
    out_file = tmp_path / "table.csv"
    rc, out, err = run(capsys, "los-table", map_file, "-o", out_file)
    assert rc == 0 and err == ""
    text = out_file.read_text()
    assert text.splitlines()[0] == "src,tgt,range,blocked,hindrance"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 346 * 345
    by_pair = {(r["src"], r["tgt"]): r for r in rows}
    assert len(by_pair) == len(rows)
    assert by_pair[("C2", "C6")] == {"src": "C2", "tgt": "C6", "range": "4", "blocked": "1",
                                     "hindrance": ""}
    assert by_pair[("U1", "U5")] == {"src": "U1", "tgt": "U5", "range": "4", "blocked": "0",
                                     "hindrance": "3"}
    assert all(r["hindrance"] == "" for r in rows if r["blocked"] == "1")
    assert all(r["hindrance"].isdigit() for r in rows if r["blocked"] == "0")
    assert {r["blocked"] for r in rows} == {"0", "1"}


def test_los_table_to_stdout(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    rc, out, _ = run(capsys, "los-table", map_file)
    assert rc == 0
    assert out.startswith("src,tgt,range,blocked,hindrance\n")
    assert len(out.strip().splitlines()) == 1 + 346 * 345


# -- errors ----------------------------------------------------------------------------------

def test_unknown_hex_is_exit_2(capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    rc, out, err = run(capsys, "los", map_file, "U1", "ZZ9")
    assert rc == 2 and out == ""
    assert "ZZ9" in one_line_error(err)


def test_missing_map_is_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    rc, _, err = run(capsys, "los", missing, "A1", "A2")
    assert rc == 1 and str(missing) in one_line_error(err)
    rc, _, err = run(capsys, "los-table", missing)
    assert rc == 1 and str(missing) in one_line_error(err)


def test_bad_map_is_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\nname = "bad"\n[terrain]\nforest = ["C4"]\n')
    rc, _, err = run(capsys, "los", bad, "A1", "A2")
    assert rc == 1 and "terrain.forest" in one_line_error(err)


@pytest.mark.parametrize("args", [
    ("Y3", "Y6", "--from-level", "5"),     # a 2-level building has levels 0-3 (rooftop)
    ("C2", "C6", "--from-level", "1"),     # open ground has level 0 only
    ("C2", "Y3", "--to-level", "-1"),
])
def test_bad_level_is_exit_2(capsys: pytest.CaptureFixture[str], map_file: Path,
                             args: tuple[str, ...]) -> None:
    rc, out, err = run(capsys, "los", map_file, *args)
    assert rc == 2 and out == ""
    assert "level" in one_line_error(err)


def test_wrong_number_of_arguments_is_exit_2(capsys: pytest.CaptureFixture[str],
                                             map_file: Path) -> None:
    rc, _, err = run(capsys, "los", map_file, "C2")
    assert rc == 2 and one_line_error(err)
    rc, _, err = run(capsys, "los", map_file, "C2", "C6", "--from-level", "x")
    assert rc == 2 and one_line_error(err)


def test_vasl_archive_without_metadata_is_exit_2(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: needs a VASL board archive")
    monkeypatch.delenv("HEXWX_VASL_METADATA", raising=False)
    monkeypatch.delenv("HEXWX_VASL_DIR")  # its SharedBoardMetadata.xml would be the default
    bd = Path(env) / "boards" / "bd02"
    rc, _, err = run(capsys, "los", bd, "A1", "A5")
    assert rc == 2 and "--vasl-metadata" in one_line_error(err)
    rc, _, err = run(capsys, "los-table", bd)
    assert rc == 2 and "--vasl-metadata" in one_line_error(err)


def test_vasl_archive_with_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: needs a VASL board archive")
    bd, meta = Path(env) / "boards" / "bd02", Path(env) / "SharedBoardMetadata.xml"
    # LOS-SPEC 8 #1: board 2 A1 -> A5, R 4, woods in A4 higher than both (A6.2)
    rc, out, _ = run(capsys, "los", bd, "A1", "A5", "--vasl-metadata", meta, "--json")
    d = json.loads(out)
    assert rc == 0 and d["blocked"] and d["range"] == 4 and d["rule"] == "A6.2"


@pytest.mark.parametrize("argv", [["--help"], ["los", "--help"], ["los-table", "--help"],
                                  ["import-vasl", "--help"]])
def test_help_exits_0(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "usage:" in out


def test_help_lists_hex_commands(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--help")
    for cmd in ("los", "los-table", "import-vasl"):
        assert cmd in out
