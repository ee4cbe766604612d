"""Hex scenario files: shipped scenarios, fixed and rolled weather, drifts, units, errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from hexwx.errors import DataError
from hexwx.io.scenario import load_scenario
from hexwx.weather.asl.state import Drift

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "scenarios"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text)
    return p


def test_fog_on_the_hill() -> None:
    sc = load_scenario(SCEN / "fog_on_the_hill.toml")
    assert sc.map_path.resolve() == (ROOT / "maps" / "hill_village.toml").resolve()
    assert (sc.weather.fog_level, sc.weather.fog_drm, sc.weather.wind) == (0, 1, "mild")
    assert sc.month == "Oct" and sc.turns == 6
    assert {u.id for u in sc.units} == {"hill-squad", "village-squad"}


def test_winter_drifts() -> None:
    sc = load_scenario(SCEN / "winter_drifts.toml")
    assert sc.weather.deep_snow and sc.weather.ec == "Snow"
    assert sc.weather.drifts == (Drift("E5", 2), Drift("H3", 2))
    assert sc.unit("ski-squad").winter_camouflage and sc.unit("ski-squad").is_infantry
    assert sc.unit("assault-gun").kind == "vehicle"
    assert sc.map_path.name == "hedgerow_fields.toml"


def test_spring_mud_is_rolled_reproducibly() -> None:
    a = load_scenario(SCEN / "spring_mud.toml")
    b = load_scenario(SCEN / "spring_mud.toml")
    assert a.weather == b.weather and a.rolls == b.rolls
    assert a.seed == 37 and a.rolls[0].rule == "E3"
    # the file says seed 37 gives Mud & Overcast: an April DR of 11 on the E3 chart
    assert a.rolls[0].final == 11 and a.weather.base == "Mud & Overcast"


def test_map_path_is_relative_to_the_file(tmp_path: Path) -> None:
    p = write(tmp_path, 'map = "maps/m.toml"\n')
    sc = load_scenario(p)
    assert sc.map_path == tmp_path / "maps" / "m.toml"
    assert sc.weather.is_clear
    with pytest.raises(DataError, match="map: no such file"):
        sc.map


@pytest.mark.parametrize("text,where", [
    ('map = "m.toml"\nmonth = "Smarch"\n', "month: bad month 'Smarch'"),
    ('map = "m.toml"\n[weather]\nheavy = true\n', "weather: intensified"),
    ('map = "m.toml"\n[weather]\nfog = 7\n', "weather.fog: expected a value <= 4"),
    ('map = "m.toml"\n[weather]\nfog_drm = 2\n', "weather: fog_drm 2 given without fog"),
    ('map = "m.toml"\n[weather]\nrain = "yes"\n', "weather.rain: expected true or false"),
    ('map = "m.toml"\n[weather]\nroll = true\n', "month: missing"),
    ('map = "m.toml"\nmonth = "Jan"\n[weather]\nroll = true\nfog = 1\n', "weather.fog: unknown key"),
    ('map = "m.toml"\n[weather]\nwind = "gale"\n', "weather.wind: expected one of"),
    ('map = "m.toml"\n[[drifts]]\nhex = "C5"\nhexside = 2\n', "drifts: drifts need ground snow"),
    ('map = "m.toml"\n[weather]\ndeep_snow = true\n[[drifts]]\nhex = "C5"\nhexside = 9\n',
     "drifts[0].hexside: expected a value <= 5"),
    ('map = "m.toml"\n[[units]]\nid = "a"\nside = "x"\nhex = "Q"\n', "units[0].hex: expected a hex name"),
    ('map = "m.toml"\n[[units]]\nid = "a"\nside = "x"\nhex = "C5"\nkind = "horse"\n', "units[0].kind"),
    ('map = "m.toml"\n[[counters]]\nname = "Blaze"\nhex = "Q"\n', "counters[0].hex: expected a hex name"),
    ('map = "m.toml"\n[[counters]]\nname = "Smoke pot"\nhex = "C5"\n', "counters[0].name: "),
    ('map = "m.toml"\n[[units]]\nid = "a"\nside = "x"\nhex = "C5"\n[[units]]\nid = "a"\n'
     'side = "y"\nhex = "C6"\n', "units[1].id: duplicate"),
    ('map = "m.toml"\n[[units]]\nid = "a"\nside = "x"\nhex = "C5"\nhexside = 1\n'
     'entrenched = true\n', "units[0].entrenched: a unit in an entrenchment or in bypass"),
    ('mapp = "m.toml"\n', "mapp: unknown key"),
    ('name = "x"\n', "map: missing required key"),
])
def test_errors_name_file_and_key(tmp_path: Path, text: str, where: str) -> None:
    p = write(tmp_path, text)
    with pytest.raises(DataError) as info:
        load_scenario(p)
    msg = str(info.value)
    assert msg.startswith(str(p)) and where in msg


def test_fixed_weather_keys(tmp_path: Path) -> None:
    p = write(tmp_path, 'map = "m.toml"\nmonth = 3\n[weather]\nfalling_snow = true\nheavy = true\n'
              'ground_snow = true\nwind = "gusts"\nplowed_roads = true\n')
    w = load_scenario(p).weather
    assert w.falling_snow and w.heavy and w.ground_snow and w.plowed_roads
    assert w.month == "Mar" and w.wind == "gusts" and w.overcast


def test_scenario_counters_and_unit_locations(tmp_path) -> None:
    from hexwx.errors import DataError
    from hexwx.io.scenario import load_scenario
    p = tmp_path / "c.toml"
    village = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"
    base = (f'map = "{village}"\n[[units]]\nid = "a"\nside = "Axis"\nhex = "C5"\n'
            f'concealed = true\nhexside = 2\n')
    p.write_text(base + '[[counters]]\nname = "White +3 Smoke"\nhex = "E5"\n'
                 '[[counters]]\nname = "vehicle:T-34"\nhex = "F5"\nhexside = 1\n')
    sc = load_scenario(p)
    assert [c.spec() for c in sc.counters] == ["White +3 Smoke@E5", "vehicle:T-34@F5"]
    assert sc.counters.items[1].hexside == 1
    assert sc.unit("a").concealed and sc.unit("a").hexside == 2
    # a vehicle unit is a LOS hindrance to the others' LOS (D9): it is among los_counters
    p.write_text(base + '[[units]]\nid = "tank"\nside = "Allied"\nhex = "F5"\n'
                 'kind = "vehicle"\n')
    assert [c.spec() for c in load_scenario(p).los_counters] == ["vehicle:tank@F5"]
    p.write_text(base + '[[counters]]\nname = "T-34 M43"\nhex = "E5"\n')
    with pytest.raises(DataError, match=r"c.toml: counters\[0\].name: unknown counter 'T-34 M43'"):
        load_scenario(p)
    p.write_text(base + '[[counters]]\nname = "Blaze"\nhex = "ZZ99"\n')
    with pytest.raises(DataError, match=r"counters\[0\].hex: hex 'ZZ99' is not on this map"):
        load_scenario(p)
    p.write_text(base + '[[counters]]\nname = "Blaze"\nhex = "E5"\nlevel = 7\n')
    with pytest.raises(DataError, match=r"c.toml: counters\[0\].level: ") as info:
        load_scenario(p)
    assert "\n" not in str(info.value)
    p.write_text(base + '[[counters]]\nname = "Blaze"\nhex = "E5"\ncolour = 1\n')
    with pytest.raises(DataError, match=r"colour"):
        load_scenario(p)
