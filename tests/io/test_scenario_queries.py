"""Scenario queries in the library: unit ids resolve to hexes, levels, kinds and the scenario's
weather, and each answer is the plain query's answer for those arguments."""
from __future__ import annotations

from pathlib import Path

import pytest

import hexwx
from hexwx.errors import HexwxError, UsageError
from hexwx.io.scenario import Place, Scenario, load_scenario
from hexwx.io.table_scenario import load_table_scenario

ROOT = Path(__file__).resolve().parents[2]
FOG = ROOT / "scenarios" / "fog_on_the_hill.toml"
DRIFTS = ROOT / "scenarios" / "winter_drifts.toml"
TABLE = ROOT / "scenarios" / "table_huzzah_fog_lifts.toml"


def test_place_resolves_units_and_hexes() -> None:
    sc = load_scenario(FOG)
    hill = sc.unit("hill-squad")
    assert sc.place("hill-squad") == Place(hill.hex, hill.level, hill)
    assert sc.place("C5") == Place("C5")
    with pytest.raises(UsageError, match="neither a hex of the map nor a unit.*hill-squad"):
        sc.place("nobody")


def test_los_between_units_is_los_between_their_locations() -> None:
    sc = load_scenario(FOG)
    a, b = sc.unit("hill-squad"), sc.unit("village-squad")
    got = sc.los("hill-squad", "village-squad")
    want = hexwx.los(sc.map, a.hex, b.hex, from_level=a.level, to_level=b.level, weather=sc.weather)
    assert got == want
    assert got.drm == 2 and not got.blocked          # the scenario's story: +1 fog, +1 target in fog
    clear = sc.los("hill-squad", "village-squad", weather=hexwx.AslWeather())
    assert clear.drm == 0 and clear != got


def test_vehicle_targets_and_camouflage_follow_the_units() -> None:
    sc = load_scenario(DRIFTS)
    gun = sc.unit("assault-gun")
    got = sc.los("ski-squad", "assault-gun", target_camouflaged=True)
    want = hexwx.los(sc.map, sc.unit("ski-squad").hex, gun.hex, weather=sc.weather,
                     target_is_infantry=False, target_winter_camouflage=True)
    assert got == want


def test_sight_is_los_to_every_other_unit() -> None:
    sc = load_scenario(FOG)
    rows = sc.sight("hill-squad")
    assert [u.id for u, _ in rows] == [u.id for u in sc.units if u.id != "hill-squad"]
    for unit, res in rows:
        assert res == sc.los("hill-squad", unit.id)


def test_path_and_reach_from_a_unit() -> None:
    sc = load_scenario(DRIFTS)
    ski = sc.unit("ski-squad")
    got = sc.path("ski-squad", "assault-gun")           # infantry: the class needs no naming
    want = hexwx.path(sc.map, ski.hex, sc.unit("assault-gun").hex, unit="infantry",
                      weather=sc.weather)
    assert got.to_json() == want.to_json()
    r = sc.reach("ski-squad", mf=3)
    assert r.to_json() == hexwx.reach(sc.map, ski.hex, unit="infantry", mf=3,
                                      weather=sc.weather).to_json()
    with pytest.raises(UsageError, match="unit is required") as err:
        sc.path("assault-gun", "ski-squad")             # a vehicle: which class?
    assert err.value.param == "unit"


def test_a_map_alone_is_a_scenario_without_units() -> None:
    m = hexwx.load_map(ROOT / "maps" / "hill_village.toml")
    sc = Scenario.on_map(m)
    assert sc.los("J4", "C5") == hexwx.los(m, "J4", "C5")
    assert sc.viewshed("J4", level=0).to_json() == hexwx.viewshed(m, "J4").to_json()
    with pytest.raises(UsageError, match="ZZ9"):
        sc.place("ZZ9")                               # the map's own message


@pytest.mark.parametrize("kwargs, param", [
    ({"weather": "fog"}, "weather"),
    ({"weather": {"fog_level": 0}}, "weather"),
    ({"from_level": 1.5}, "from_level"),
    ({"to_level": True}, "to_level"),
    ({"target_vehicle": "yes"}, "target_vehicle"),
])
def test_bad_arguments_name_the_parameter(kwargs: dict, param: str) -> None:
    sc = load_scenario(FOG)
    with pytest.raises(HexwxError) as err:
        sc.los("hill-squad", "village-squad", **kwargs)
    assert err.value.param == param and param in str(err.value)


def test_table_scenario_queries() -> None:
    sc = load_table_scenario(TABLE)
    a, b = sc.table.units[0].id, sc.table.units[-1].id
    s = sc.can_see(a, b, turn=2)
    assert s == hexwx.can_see(sc.table, a, b, rules=sc.rules, visibility_cm=sc.visibility_cm(2))
    line, report, visibility = sc.weather_line(1)
    assert line.startswith("turn 1: ") and "visibility" in line
    assert report == sc.report(1) and visibility == sc.visibility_cm(1)
    assert sc.weather_json(1)["turn"] == 1
    assert sc.move_json(a, turn=1)["weather_report"] == sc.weather_json(1)


def _smoke_scenario(tmp_path: Path) -> tuple[Scenario, str, str, str]:
    """A scenario on hill_village with two units in clear LOS and white SMOKE between them."""
    m = hexwx.load_map(ROOT / "maps" / "hill_village.toml")
    t = hexwx.los_table(m)
    import numpy as np
    i = int(np.flatnonzero(~t.blocked & (t.hindrance == 0) & (t.range >= 4))[0])
    r = hexwx.los(m, int(t.src[i]), int(t.tgt[i]))
    mid = next(th.name for th in r.thread if th.rs == 2)
    p = tmp_path / "smoke.toml"
    p.write_text(f'map = "{ROOT / "maps" / "hill_village.toml"}"\n'
                 f'[[units]]\nid = "a"\nside = "Axis"\nhex = "{r.source}"\n'
                 f'[[units]]\nid = "b"\nside = "Allied"\nhex = "{r.target}"\n'
                 f'[[counters]]\nname = "White +3 Smoke"\nhex = "{mid}"\n')
    return load_scenario(p), r.source, r.target, mid


def test_queries_answer_with_the_scenarios_counters_unless_given(tmp_path: Path) -> None:
    sc, a, b, mid = _smoke_scenario(tmp_path)
    m = sc.map
    got = sc.los("a", "b")
    assert got == hexwx.los(m, a, b, weather=sc.weather, counters=sc.los_counters)
    assert got.hindrance == 3 and any(h.hex == mid for h in got.hindrances)
    bare = sc.los("a", "b", counters=[])                    # the bare map
    assert bare == hexwx.los(m, a, b, weather=sc.weather) and bare.hindrance == 0
    other = sc.los("a", "b", counters=[f"Gray +2 Smoke@{mid}"])   # these counters instead
    assert other.hindrance == 2
    vs = sc.viewshed("a")
    assert vs.drm[m.parse(b)] == 3 and sc.viewshed("a", counters=[]).drm[m.parse(b)] == 0
    (unit, res), = sc.sight("a")
    assert unit.id == "b" and res == got
    assert sc.sight("a", counters=hexwx.Counters())[0][1] == bare


def test_path_and_reach_take_the_scenarios_counters(tmp_path: Path) -> None:
    sc, a, _b, mid = _smoke_scenario(tmp_path)
    m = sc.map
    # SMOKE does not change MF costs: the same path with and without it
    assert sc.path("a", mid) == sc.path("a", mid, counters=[])
    rubble = [f"Stone Rubble@{mid}"]
    want = hexwx.path(m, a, mid, unit="infantry", weather=sc.weather, counters=rubble)
    got = sc.path("a", mid, counters=rubble)
    assert got == want and got != sc.path("a", mid)
    assert "rubble" in " ".join(str(p) for p in got.steps[-1].parts).lower()
    assert sc.reach("a", mf=4, counters=rubble) == hexwx.reach(
        m, a, unit="infantry", mf=4, weather=sc.weather, counters=rubble)
    with pytest.raises(HexwxError) as err:
        sc.los("a", "b", counters=["Blaze@ZZ99"])
    assert err.value.param == "counters" and "ZZ99" in str(err.value)
