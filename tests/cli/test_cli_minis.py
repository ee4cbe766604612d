"""``hexwx minis weather|terrain`` from the command line."""
from __future__ import annotations

import json
from fractions import Fraction

from typing import Any

import pytest
from shapely.geometry import Polygon, box

from hexwx.cli import main
from hexwx.dice import Dice
from hexwx.weather.minis.common import run_minis_weather


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_weather_log_is_reproducible_and_lists_every_turn(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "agv", "--turns", "12", "--seed", "5")
    assert code == 0
    assert "seed 5" in out.splitlines()[0]
    assert sum(line.startswith("turn") for line in out.splitlines()) == 12
    assert "dice: AGV weather (2D6)" in out
    assert cli(capsys, "minis", "weather", "--rules", "agv", "--turns", "12", "--seed", "5")[1] == out


@pytest.mark.parametrize("rules", ["agv", "mininap", "wesencraft"])
def test_weather_json_matches_the_library(capsys: pytest.CaptureFixture[str], rules: str) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--rules", rules, "--turns", "9", "--seed", "21",
                       "--json")
    assert code == 0
    data = json.loads(out)
    expected = run_minis_weather(rules, 9, dice=Dice(seed=21))
    assert [r["weather"] for r in data["reports"]] == [r.weather for r in expected]
    assert [r["visibility_cm"] for r in data["reports"]] == [r.visibility_cm for r in expected]
    assert sum(len(r["rolls"]) for r in data["reports"]) == len(data["log"])
    assert {"turn", "weather", "visibility_cm", "movement_multiplier", "fire_effects", "ground",
            "battle_ends", "time_of_day", "rolls"} <= set(data["reports"][0])


def test_huzzah_conditions_from_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "huzzah", "--turns", "6", "--json",
                       "--weather", "dense fog", "--ground", "hard",
                       "--change", "4:weather=clear", "--change", "5:ground=soft")
    assert code == 0
    reports = json.loads(out)["reports"]
    assert [r["weather"] for r in reports] == ["dense fog"] * 3 + ["clear"] * 3
    assert [r["modifiers"].get("artillery factor", 0) for r in reports] == [0, 0, 0, 1, -1, -1]
    assert json.loads(out)["log"] == []


def test_stats_json_sums_to_one_and_has_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "agv", "--turns", "5", "--seed", "3",
                       "--stats", "3000", "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data["per_turn"]) == 5
    assert all(sum(t.values()) == pytest.approx(1.0) for t in data["per_turn"])
    assert data["initial_exact"]["clear"]["fraction"] == "2/3"
    assert sum(Fraction(v["fraction"]) for v in data["first_turn_exact"].values()) == 1
    # Monte Carlo of turn 1 within 5 standard errors of the exact odds.
    for name, v in data["first_turn_exact"].items():
        p = v["probability"]
        assert abs(data["per_turn"][0].get(name, 0) - p) <= 5 * (p * (1 - p) / 3000) ** 0.5


def test_stats_with_rethrow_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "agv", "--turns", "3", "--seed", "3",
                       "--stats", "2000", "--rethrow")
    assert code == 0
    assert "exact odds of the pre-game throw" in out
    assert any(line.split()[:2] == ["clear", "8/9"] for line in out.splitlines())


def test_mininap_log_shows_the_clock(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "mininap", "--turns", "3", "--seed", "8")
    assert code == 0
    first = run_minis_weather("mininap", 1, dice=Dice(seed=8))[0]
    assert first.time_of_day in out.splitlines()[1]


@pytest.mark.parametrize("argv, code, message", [
    (["--rules", "napoleon", "--turns", "3"], 2, "invalid choice: 'napoleon'"),
    (["--rules", "agv", "--turns", "0"], 2, "number of turns must be a whole number of at least 1, got 0"),
    (["--rules", "agv", "--turns", "x"], 2, "invalid int value: 'x'"),
    (["--rules", "wesencraft", "--turns", "3", "--rethrow"], 2, "unknown option 'rethrow'"),
    (["--rules", "huzzah", "--turns", "3", "--change", "four:weather=clear"], 2, "bad --change"),
    (["--rules", "huzzah", "--turns", "3", "--weather", "drizzle"], 2, "unknown huzzah weather 'drizzle'"),
    (["--rules", "agv", "--turns", "3", "--stats", "0"], 2, "--stats must be a number of games"),
    (["--rules", "agv", "--turns", "3", "--rethrow", "--dislike", "hail"], 2, "unknown weather 'hail'"),
])
def test_bad_weather_input(capsys: pytest.CaptureFixture[str], argv: list[str], code: int,
                           message: str) -> None:
    rc, out, err = cli(capsys, "minis", "weather", *argv)
    assert rc == code
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_terrain_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "terrain", "--seed", "9", "--json", "--choice-a", "wood")
    assert code == 0
    data = json.loads(out)
    table = box(0, 0, *data["table_cm"])
    assert all(table.contains(Polygon(p["polygon"])) for p in data["pieces"])
    assert len(data["pieces"]) == sum("type" in r["purpose"] for r in data["log"])
    assert "player A's choice" not in {p["kind"] for p in data["pieces"]}
    assert cli(capsys, "minis", "terrain", "--seed", "9", "--json", "--choice-a", "wood")[1] == out


def test_terrain_text_and_bad_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "terrain", "--seed", "4")
    assert code == 0 and "12 sectors" in out and "terrain sector 12" in out
    code, _, err = cli(capsys, "minis", "terrain", "--choice-b", "moat")
    assert code == 2 and "--choice-b must be one of" in err      # the flag the user typed


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "minis", "weather", "--help")
    assert code == 0 and "--stats GAMES" in out and "examples:" in out
    code, out, _ = cli(capsys, "minis")
    assert code == 2 and "terrain" in out


def test_terrain_writes_a_table_scenario_that_table_and_render_load(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    # seed 1 (seed 003 generator): hill s2, built-up s5, B's choice s6, water s7, hill s9,
    # built-up s10, hill s11, built-up s12; B picks a wood for sector 6.
    from hexwx.io.table_scenario import load_table_scenario
    from hexwx.tabletop.terrain_gen import generate_terrain
    out = tmp_path / "table.toml"
    code, text, _ = cli(capsys, "minis", "terrain", "--seed", "1", "--choice-b", "wood",
                        "-o", str(out))
    assert code == 0 and f"wrote {out}" in text
    sc = load_table_scenario(out)
    assert sc.rules == "wesencraft" and sc.weather_mode == "rolled" and sc.seed == 1
    assert (sc.table.width, sc.table.depth) == pytest.approx((182.88, 76.2))   # 6 ft x 2 ft 6 in
    pieces = generate_terrain(Dice(seed=1), choice_b="wood")
    assert [(p.id, p.kind) for p in sc.table.terrain] == [
        ("hill-s2", "hill"), ("built-up-s5", "built-up"), ("wood-s6", "wood"),
        ("water-s7", "water"), ("hill-s9", "hill"), ("built-up-s10", "built-up"),
        ("hill-s11", "hill"), ("built-up-s12", "built-up")]
    for piece, gen in zip(sc.table.terrain, pieces):
        # corners rounded to 0.001 cm: the outlines differ by at most that along the edge
        assert piece.geometry.symmetric_difference(gen.polygon).area < gen.polygon.length * 1e-3
    code, text, _ = cli(capsys, "table", str(out))
    assert code == 0 and "Random terrain, seed 1 (wesencraft)" in text
    png = tmp_path / "table.png"
    code, _, _ = cli(capsys, "render", str(out), "-o", str(png))
    assert code == 0 and png.stat().st_size > 0


def test_terrain_file_leaves_an_unnamed_choice_out(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Any) -> None:
    out = tmp_path / "t.toml"
    code, _, _ = cli(capsys, "minis", "terrain", "--seed", "2", "--rules", "huzzah", "-o", str(out))
    text = out.read_text()
    assert code == 0 and "# sector 6: player B's choice (not placed" in text
    assert 'rules = "huzzah"' in text and "[weather]" not in text     # Huzzah!: no dice
    from hexwx.io.table_scenario import load_table_scenario
    assert [p.id for p in load_table_scenario(out).table.terrain] == ["water-s9", "hill-s10"]


def test_huzzah_dense_fog_does_not_say_unlimited(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 002 p.10: dense fog is foul weather, with no distance of its own
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "huzzah", "--turns", "4",
                       "--weather", "dense fog", "--change", "4:weather=clear")
    fog, clear = out.split("turn  4")
    assert code == 0 and "unlimited" not in fog and "visibility not set" in fog
    assert "foul weather, Huzzah! p.10" in fog and "visibility unlimited" in clear


def test_docs_seed_24_example_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/minis-weather.md's example: doubles on turns 3 and 5 with no throw on turn 4 are not
    # "two consecutive Turns" (seed 000 Fog and Mist): turn 5 is mist.
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "minis-weather.md").read_text()
    start = doc.index("$ hexwx minis weather --rules agv --turns 6 --seed 24\n")
    block = doc[start:doc.index("```", start)].splitlines()[1:]
    code, out, _ = cli(capsys, "minis", "weather", "--rules", "agv", "--turns", "6", "--seed", "24")
    assert code == 0 and out.rstrip().splitlines() == block
    assert any(line.startswith("turn  5  mist") for line in block)
