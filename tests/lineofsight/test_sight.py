"""Who sees whom (``hexwx.lineofsight.sight``) on a hexwx map, against single LOS queries."""
from __future__ import annotations

from pathlib import Path

import pytest

import hexwx
from hexwx.io.scenario import ScenarioUnit, load_scenario
from hexwx.lineofsight.sight import sightings
from hexwx.weather.asl.state import AslWeather

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "hill_village.toml"

UNITS = [
    ScenarioUnit("hill", "Axis", "I4", level=0),
    ScenarioUnit("crest", "Axis", "J4", level=0),
    ScenarioUnit("tank", "Allied", "A5", kind="vehicle"),
    ScenarioUnit("village", "Allied", "C5", winter_camouflage=True),
    ScenarioUnit("mortar", "Allied", "F5", kind="other"),
    ScenarioUnit("marker", "", "E5", kind="other"),
    ScenarioUnit("upstairs", "Allied", "D4", level=1),
]


def test_pairs_are_every_ordered_opposing_pair_with_the_los_answer():
    m = hexwx.load_map(MAP)
    w = AslWeather(base="Mist", ground_snow=True, month="Jan")
    found = sightings(m, UNITS, weather=w)
    looking = [u for u in UNITS if u.side and u.kind != "other"]
    assert [(s.viewer, s.target) for s in found] == [
        (a.id, b.id) for a in looking for b in looking if a.side != b.side]
    for s in found:
        a, b = next(u for u in UNITS if u.id == s.viewer), next(u for u in UNITS if u.id == s.target)
        r = hexwx.los(m, a.hex, b.hex, from_level=a.level, to_level=b.level, weather=w,
                      target_is_infantry=b.kind == "infantry",
                      target_winter_camouflage=b.winter_camouflage)
        assert (s.result.blocked, s.result.hindrance, s.result.lv, s.result.range) == \
            (r.blocked, r.hindrance, r.lv, r.range)
        assert (s.result.source_level, s.result.target_level) == (a.level, b.level)
    # blocked and terrain hindrance are reciprocal (A6.1)
    by = {(s.viewer, s.target): s.result for s in found}
    for (a, b), r in by.items():
        assert (r.blocked, r.hindrance) == (by[(b, a)].blocked, by[(b, a)].hindrance)


def test_other_pieces_on_request_and_no_side_never():
    m = hexwx.load_map(MAP)
    found = sightings(m, UNITS, kinds=("infantry", "vehicle", "other"))
    ids = {s.viewer for s in found} | {s.target for s in found}
    assert "mortar" in ids and "marker" not in ids
    assert len(found) == 2 * 2 * 4


def test_scenario_weather_by_turn_is_the_weather_run(capsys):
    """``weather_at(N)`` is Game Turn N, Player Turn 1 of ``hexwx weather run`` (same seed)."""
    import json
    from hexwx.cli import main
    path = ROOT / "scenarios" / "fog_on_the_hill.toml"
    sc = load_scenario(path)
    assert main(["weather", "run", "--scenario", str(path), "--turns", "4", "--seed", "3",
                 "--json"]) == 0
    turns = json.loads(capsys.readouterr().out)["turns"]
    for n in (1, 2, 4):
        w = sc.weather_at(n, seed=3)
        assert (w.turn, w.player_turn) == (n, 1)
        assert w.to_json() == turns[2 * (n - 1)]["state"]
    lifted = sc.weather_at(4, seed=3).fog_level    # the fog lifts (3.312)
    assert lifted is None or lifted < sc.weather.fog_level
    with pytest.raises(hexwx.UsageError, match="past the end"):
        sc.weather_at(7)
