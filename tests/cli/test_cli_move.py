"""``hexwx path`` / ``hexwx reach`` and movement on a map file loaded through hexwx.io.load."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexwx.cli import main
from hexwx.io.load import load_map
from hexwx.movement.paths import path, reach, step
from hexwx.weather.asl.state import AslWeather

DATA = Path(__file__).parents[1] / "data"
VILLAGE = str(DATA / "move_village.toml")
ROOT = Path(__file__).resolve().parents[2]
WINTER = ROOT / "scenarios" / "winter_drifts.toml"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# -- the map file (roads, hexsides, levels and [movement] drawn and read back) -----------------

def test_map_file_costs():
    m = load_map(VILLAGE)
    assert step(m, "A5", "B5", unit="truck").cost == 0.5          # dirt road
    assert step(m, "D5", "E5", unit="infantry").cost == 2         # road + wall D5:NE
    assert step(m, "E5", "E6", unit="infantry").cost == 2         # grain, [movement] override
    assert step(m, "E5", "E6", unit="truck").cost == 1            # grain, chart
    assert not step(m, "H2", "I3", unit="infantry").allowed       # cliff H2:SE
    assert not step(m, "E6", "F6", unit="tracked").allowed        # marsh
    assert step(m, "G3", "G2", unit="infantry", weather=AslWeather(rain=True)).cost == 2  # paved
    assert step(m, "F2", "G2", unit="infantry", weather=AslWeather(rain=True)).cost == 3
    assert not step(m, "I5", "J5", unit="tracked").allowed        # stone building
    r = reach(m, "G4", unit="infantry", mf=3)      # paved road G4-G3-G2(level 1)-G1: 1 + 2 + 1
    assert r.costs["G1"] == 4 and "G1" in r.by_road_bonus
    assert r.costs["G2"] == 3 and "G2" not in r.by_road_bonus


# -- CLI -----------------------------------------------------------------------------------

def test_path_text(capsys):
    rc, out, err = run(capsys, "path", VILLAGE, "G3", "G2", "--unit", "infantry", "--rain")
    assert rc == 0 and err == ""
    assert "G3 -> G2" in out and "total 2 MF" in out and "B10.4" in out


def test_path_json_mud(capsys):
    rc, out, _ = run(capsys, "path", VILLAGE, "B5", "C5", "--unit", "halftrack", "--mud", "--json")
    d = json.loads(out)
    assert rc == 0 and d["found"] and d["hexes"] == ["B5", "C5"] and d["total"] == 2
    rules = [p["rule"] for p in d["steps"][0]["parts"]]
    assert "E3.6" in rules and "E3.64, E3.65" in rules
    assert d["unit"] == "non-tracked" and d["measure"] == "MP"


def test_reach_json(capsys):
    rc, out, _ = run(capsys, "reach", VILLAGE, "A5", "--unit", "tracked", "--mf", "1", "--json")
    d = json.loads(out)
    costs = {h["hex"]: h["cost"] for h in d["hexes"]}
    assert rc == 0 and costs == {"A5": 0, "B5": 0.5, "C5": 1.0, "A4": 1.0, "A6": 1.0, "B4": 1.0}


def test_no_path_exits_1_with_one_line(capsys):
    # issue #14 item 15: no route is exit 1 with a one-line message; --json still answers
    # found: false (F6 is marsh, which a truck cannot enter).
    rc, out, _ = run(capsys, "path", VILLAGE, "A1", "F6", "--unit", "truck", "--json")
    d = json.loads(out)
    assert rc == 1 and d["found"] is False and "Marsh not allowed" in d["reason"]
    rc, out, err = run(capsys, "path", VILLAGE, "A1", "F6", "--unit", "truck")
    assert rc == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("hexwx path: no path") and "Marsh" in err


def test_scenario_weather_drifts_and_unit_ids(capsys):
    # winter_drifts: deep snow, drift E5:SE (E5/F5), ski-squad in B2
    rc, out, _ = run(capsys, "path", "--scenario", str(WINTER), "E5", "F5", "--unit", "tracked",
                     "--mf", "3", "--json")
    d = json.loads(out)
    assert rc == 0 and d["hexes"] == ["E5", "F5"] and d["all_mf"] and d["total"] is None
    assert d["steps"][0]["bog_check_drm"] == 2
    rc, out, _ = run(capsys, "reach", "--scenario", str(WINTER), "ski-squad", "--mf", "1.5")
    assert rc == 0 and "infantry" in out and "deep snow" in out
    rc, out, _ = run(capsys, "reach", "--scenario", str(WINTER), "ski-squad", "--mf", "1.5",
                     "--mud")          # flags replace the scenario's weather
    assert rc == 0 and "(mud" in out


@pytest.mark.parametrize("argv, code, text", [
    (["path", VILLAGE, "A1", "B1", "--unit", "hovercraft"], 2, "unknown unit class 'hovercraft'"),
    (["reach", VILLAGE, "A1", "--unit", "infantry", "--mf", "-2"], 2, "bad allowance -2"),
    (["path", VILLAGE, "A1", "ZZ40", "--unit", "infantry"], 2, "hex 'ZZ40' is not on this map"),
    (["path", "A1", "B1", "--unit", "infantry"], 2, "give a MAP"),
    (["path", VILLAGE, "A1", "B1"], 2, "--unit KIND is required"),
    (["path", str(DATA / "nope.toml"), "A1", "B1", "--unit", "infantry"], 1, "no such file"),
    (["path", VILLAGE, "A1", "B1", "--unit", "infantry", "--heavy"], 2, "heavy"),
    (["reach", VILLAGE, "A1", "--unit", "infantry"], 2, "--mf"),
])
def test_errors_are_one_line(capsys, argv, code, text):
    rc, out, err = run(capsys, *argv)
    assert rc == code and text in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_help(capsys):
    rc, out, _ = run(capsys, "reach", "--help")
    assert rc == 0 and "--mf N" in out and "--deep-snow" in out and "--scenario" in out
