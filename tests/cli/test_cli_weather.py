"""``hexwx weather`` commands and the shared weather flags."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from hexwx.cli import main
from hexwx.cli.weather import add_weather_flags, weather_from_args
from hexwx.errors import UsageError
from hexwx.io.scenario import load_scenario
from hexwx.weather.asl.state import Drift

SCEN = Path(__file__).resolve().parents[2] / "scenarios"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    code, out1, _ = run(capsys, "weather", "roll", "--month", "Jan", "--seed", "6", "--json")
    assert code == 0
    _, out2, _ = run(capsys, "weather", "roll", "--month", "january", "--seed", "6", "--json")
    assert out1 == out2
    data = json.loads(out1)
    assert data["month"] == "Jan" and data["seed"] == 6
    assert data["rolls"][0]["purpose"].startswith("weather chart DR")
    assert data["rolls"][0]["rule"] == "E3" and 2 <= data["rolls"][0]["final"] <= 12
    assert "ec" in data["state"] and "base" in data["state"]


def test_roll_text_lists_rolls_and_weather(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weather", "roll", "--month", "Oct", "--seed", "1")
    assert code == 0
    assert "weather chart DR (Oct)" in out and out.splitlines()[-1].startswith("weather: ")


def test_bad_month_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "weather", "roll", "--month", "Smarch")
    assert code == 2 and "unknown month 'Smarch'" in err and len(err.strip().splitlines()) == 1


def test_run_fog_lifts_each_player_turn_under_heavy_winds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weather", "run", "--turns", "2", "--fog", "1", "--wind", "heavy",
                       "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert [t["state"]["fog_level"] for t in data["turns"]] == [0, -1, None, None]
    assert [(t["turn"], t["player_turn"]) for t in data["turns"]] == [(1, 1), (1, 2), (2, 1), (2, 2)]


def test_run_text_rolls_start_from_month(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weather", "run", "--month", "Nov", "--turns", "3", "--seed", "2")
    assert code == 0
    assert sum(1 for line in out.splitlines() if line.startswith("turn ")) == 6
    assert "weather chart DR (Nov)" in out


def test_run_needs_a_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "weather", "run", "--turns", "2")
    assert code == 2 and "--month" in err
    code, _, err = run(capsys, "weather", "run", "--turns", "0", "--month", "Jan")
    assert code == 2 and "--turns 0" in err


def test_run_from_scenario_places_drifts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weather", "run", "--scenario", str(SCEN / "winter_drifts.toml"),
                       "--turns", "1", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    # Heavy Winds with deep snow: a drift at the start of each RPh (3.75)
    assert len(data["turns"][-1]["state"]["drifts"]) == 2 + 2


def test_effects_flags_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weather", "effects", "--mud", "--rain", "--json")
    assert code == 0
    rules = {e["rule"] for e in json.loads(out)["effects"]}
    assert {"E3.54", "E3.64, E3.65", "E3.62", "E3.53"} <= rules
    code, _, err = run(capsys, "weather", "effects", "--heavy")
    assert code == 2 and "heavy" in err and "Traceback" not in err
    code, _, err = run(capsys, "weather", "effects", "--fog-drm", "2")
    assert code == 2 and "without fog" in err
    code, _, err = run(capsys, "weather", "effects", "--deep-snow", "--mud")
    assert code == 2 and "mud" in err


def test_effects_from_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weather", "effects", "--scenario", str(SCEN / "winter_drifts.toml"))
    assert code == 0
    assert "drift in E5 on hexside 2 (SE)" in out and "EC are Snow" in out


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    for sub in ("roll", "run", "effects"):
        code, out, _ = run(capsys, "weather", sub, "--help")
        assert code == 0 and "usage:" in out


# --- the reusable flags --------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser()
    add_weather_flags(p)
    return p


def test_weather_from_args_flags() -> None:
    a = parser().parse_args(["--fog", "0", "--fog-drm", "2", "--month", "oct", "--wind", "mild"])
    st = weather_from_args(a)
    assert (st.fog_level, st.fog_drm, st.month, st.wind, st.base) == (0, 2, "Oct", "mild", "Fog")
    b = parser().parse_args(["--rain", "--heavy", "--mud"])
    st = weather_from_args(b)
    assert st.rain and st.heavy and st.mud and st.overcast
    c = parser().parse_args(["--deep-snow", "--drift", "2C5:3", "--drift", "D6:NW"])
    assert weather_from_args(c).drifts == (Drift("2C5", 3), Drift("D6", 5))
    assert weather_from_args(parser().parse_args([])).is_clear


def test_weather_from_args_scenario() -> None:
    sc = load_scenario(SCEN / "fog_on_the_hill.toml")
    assert weather_from_args(parser().parse_args([]), scenario=sc) == sc.weather
    st = weather_from_args(parser().parse_args(["--wind", "heavy"]), scenario=sc)
    assert st.fog_level == 0 and st.wind == "heavy"
    st = weather_from_args(parser().parse_args(["--mist"]), scenario=sc)
    assert st.mist and not st.fog and st.month == "Oct"
    # any Fog Level Chart result (-1..4, E3 3.31) is a weather, whatever the map (issue #14 item 2)
    assert weather_from_args(parser().parse_args(["--fog", "4"])).fog_level == 4
    with pytest.raises(UsageError):
        weather_from_args(parser().parse_args(["--fog", "5"]))


def test_bad_drift_flag_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "weather", "effects", "--deep-snow", "--drift", "C5")
    assert code == 2 and "HEX:SIDE" in err
