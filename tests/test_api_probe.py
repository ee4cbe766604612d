"""The hostile-API probe: every public function of ``hexwx.__all__`` (and the scenario
queries) given a bad type or value raises a :class:`~hexwx.HexwxError` whose ``param`` names
the parameter -- never an AttributeError from deep inside, never a silent default."""
from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import Any, Callable

import pytest

import hexwx
from hexwx.io.scenario import load_scenario
from hexwx.io.table_scenario import load_table_scenario

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "maps" / "hill_village.toml"
FOG = ROOT / "scenarios" / "fog_on_the_hill.toml"
TABLE = ROOT / "scenarios" / "table_agv_village_and_wood.toml"
NOPE = str(ROOT / "no-such-file.xml")
FOLDER = str(ROOT / "maps")


def _map() -> hexwx.HexMap:
    return hexwx.load_map(MAP)


def _table() -> Any:
    return load_table_scenario(TABLE).table


def _units() -> tuple[str, str]:
    t = _table()
    return t.units[0].id, t.units[-1].id


#: function name -> (the function, good arguments (positional, keyword)), built lazily.
GOOD: dict[str, Callable[[], tuple[Callable[..., Any], tuple, dict]]] = {
    "load_map": lambda: (hexwx.load_map, (MAP,), {}),
    "load_layout": lambda: (hexwx.load_layout, ([["bd02"]],), {}),
    "load_scenario": lambda: (hexwx.load_scenario, (FOG,), {}),
    "load_table_scenario": lambda: (hexwx.load_table_scenario, (TABLE,), {}),
    "los": lambda: (hexwx.los, (_map(), "J4", "C5"), {}),
    "viewshed": lambda: (hexwx.viewshed, (_map(), "J4"), {}),
    "los_table": lambda: (hexwx.los_table, (_map(),), {}),
    "path": lambda: (hexwx.path, (_map(), "A1", "B2"), {"unit": "infantry"}),
    "reach": lambda: (hexwx.reach, (_map(), "A1"), {"unit": "infantry", "mf": 2}),
    "AslWeather": lambda: (hexwx.AslWeather, (), {}),
    "Drift": lambda: (hexwx.Drift, ("C5", 2), {}),
    "roll_weather": lambda: (hexwx.roll_weather, ("Oct", hexwx.Dice(seed=1)), {}),
    "run_weather": lambda: (hexwx.run_weather, (hexwx.AslWeather(), hexwx.Dice(seed=1), 2), {}),
    "Dice": lambda: (hexwx.Dice, (), {"seed": 1}),
    "can_see": lambda: (hexwx.can_see, (_table(), *_units()), {"rules": "agv"}),
    "Scenario.los": lambda: (load_scenario(FOG).los, ("hill-squad", "village-squad"), {}),
    "Scenario.viewshed": lambda: (load_scenario(FOG).viewshed, ("hill-squad",), {}),
    "Scenario.sight": lambda: (load_scenario(FOG).sight, ("hill-squad",), {}),
    "Scenario.path": lambda: (load_scenario(FOG).path, ("hill-squad", "C5"), {}),
    "Scenario.reach": lambda: (load_scenario(FOG).reach, ("hill-squad",), {"mf": 2}),
    "Scenario.weather_at": lambda: (load_scenario(FOG).weather_at, (2,), {}),
    "Scenario.on_map": lambda: (hexwx.Scenario.on_map, (_map(),), {}),
    "TableScenario.can_see": lambda: (load_table_scenario(TABLE).can_see, _units(), {}),
}

#: (function, parameter, bad value).  Positional parameters are replaced by name.
BAD: list[tuple[str, str, Any]] = [
    ("load_map", "path", 123), ("load_map", "path", None), ("load_map", "path", ""),
    ("load_map", "vasl_metadata", ""), ("load_map", "vasl_metadata", NOPE),
    ("load_map", "vasl_metadata", FOLDER), ("load_map", "vasl_metadata", 5),
    ("load_map", "vasl_dir", 5), ("load_map", "vasl_dir", NOPE),
    ("load_map", "ssr", "NoGrain"), ("load_map", "ssr", [1]),
    ("load_map", "ignore_board_extras", "yes"),
    ("load_layout", "rows", 5), ("load_layout", "rows", "bd02"), ("load_layout", "rows", []),
    ("load_layout", "vasl_metadata", ""), ("load_layout", "vasl_metadata", NOPE),
    ("load_layout", "vasl_dir", 3), ("load_layout", "ssr", 7), ("load_layout", "name", 5),
    ("load_scenario", "path", None), ("load_scenario", "path", NOPE),
    ("load_scenario", "check_map", "no"),
    ("load_table_scenario", "path", 1.5), ("load_table_scenario", "path", FOLDER),
    ("los", "m", "map"), ("los", "a", None), ("los", "b", 3.5), ("los", "a", "ZZ99"),
    ("los", "from_level", 1.5), ("los", "from_level", "1"), ("los", "from_level", True),
    ("los", "to_level", None), ("los", "to_level", 99),
    ("los", "weather", "fog"), ("los", "weather", {"fog_level": 0}),
    ("los", "target_is_infantry", "yes"), ("los", "target_winter_camouflage", 1),
    ("los", "target_positive_tem", "x"),
    ("viewshed", "m", None), ("viewshed", "a", 2.5), ("viewshed", "level", 1.5),
    ("viewshed", "level", "0"), ("viewshed", "weather", "clear"),
    ("los_table", "m", []), ("los_table", "weather", 3), ("los_table", "from_level", 1.5),
    ("los_table", "to_level", "0"), ("los_table", "all_locations", "y"),
    ("los_table", "threads", 0), ("los_table", "threads", 1.5), ("los_table", "threads", True),
    ("path", "m", "map"), ("path", "start", None), ("path", "goal", []),
    ("path", "goal", "ZZ99"), ("path", "unit", 5), ("path", "unit", "hovercraft"),
    ("path", "weather", "mud"), ("path", "weather", {"mud": True}), ("path", "mf", -1),
    ("path", "mf", "3"), ("path", "mf", float("nan")),
    ("reach", "m", 1), ("reach", "start", 4.5), ("reach", "unit", None),
    ("reach", "mf", None), ("reach", "mf", -2), ("reach", "weather", "snow"),
    ("AslWeather", "fog_level", 9), ("AslWeather", "fog_level", "0"),
    ("AslWeather", "wind", "gale"), ("AslWeather", "month", "Foo"),
    ("AslWeather", "rain", "yes"), ("AslWeather", "drifts", "C5:2"),
    ("AslWeather", "drifts", [5]), ("AslWeather", "base", 5),
    ("AslWeather", "wind_direction", 7),
    ("Drift", "hex", 5), ("Drift", "hex", "nowhere"), ("Drift", "hexside", 9),
    ("Drift", "hexside", 1.5),
    ("roll_weather", "month", "Foo"), ("roll_weather", "month", None),
    ("roll_weather", "dice", "d"), ("roll_weather", "wind", "x"),
    ("roll_weather", "wind_direction", 7),
    ("run_weather", "state", "clear"), ("run_weather", "dice", None),
    ("run_weather", "turns", 0), ("run_weather", "turns", 1.5),
    ("Dice", "seed", "x"), ("Dice", "seed", True),
    ("can_see", "table", "t"), ("can_see", "viewer", 5), ("can_see", "target", "nobody"),
    ("can_see", "rules", "chess"), ("can_see", "visibility_cm", -1),
    ("can_see", "visibility_cm", "far"),
    ("Scenario.los", "viewer", 5), ("Scenario.los", "target", "nobody"),
    ("Scenario.los", "from_level", 0.5), ("Scenario.los", "weather", "fog"),
    ("Scenario.los", "target_vehicle", "yes"), ("Scenario.los", "map", "bd02"),
    ("Scenario.viewshed", "viewer", None), ("Scenario.viewshed", "level", "2"),
    ("Scenario.sight", "viewer", "nobody"), ("Scenario.sight", "weather", 1),
    ("Scenario.path", "start", 3), ("Scenario.path", "unit", "hovercraft"),
    ("Scenario.path", "avoid_sight_of", "C5"), ("Scenario.path", "mf", -1),
    ("Scenario.reach", "mf", "2"), ("Scenario.reach", "weather", "mud"),
    ("Scenario.weather_at", "turn", 0), ("Scenario.weather_at", "turn", "2"),
    ("Scenario.weather_at", "seed", "x"),
    ("Scenario.on_map", "m", "bd02"),
    ("TableScenario.can_see", "viewer", 5), ("TableScenario.can_see", "turn", 0),
    # counters: a Counters, None, or a list of Counter / "NAME@HEX[:LEVEL]"
    ("los", "counters", "White +3 Smoke@C5"), ("los", "counters", 5), ("los", "counters", [5]),
    ("los", "counters", ["no counter here"]), ("los", "counters", ["White +3 Smoke@ZZ99"]),
    ("los", "counters", {"White +3 Smoke@C5": 1}),
    ("viewshed", "counters", 1.5), ("los_table", "counters", "Blaze@C5"),
    ("path", "counters", 3), ("reach", "counters", [None]),
    ("Scenario.los", "counters", "Blaze@C5"), ("Scenario.viewshed", "counters", 2),
    ("Scenario.sight", "counters", [1]), ("Scenario.path", "counters", "Stone Rubble@C5"),
    ("Scenario.reach", "counters", 7),
]


def _call(name: str, param: str, value: Any) -> None:
    fn, args, kwargs = GOOD[name]()
    sig = inspect.signature(fn)
    names = [p for p in sig.parameters if p != "self"]
    if names == ["args", "kwargs"] and not args:   # a dataclass with its own __new__
        fn(**{**kwargs, param: value})
        return
    assert param in names, f"{name} has no parameter {param!r}"
    bound = sig.bind_partial(*args, **kwargs).arguments
    bound[param] = value
    pos = [bound.pop(p) for p in names if p in bound and
           sig.parameters[p].kind == inspect.Parameter.POSITIONAL_OR_KEYWORD
           and all(q in bound for q in names[:names.index(p)])]
    fn(*pos, **bound)


def test_the_probe_covers_every_public_function() -> None:
    public = {n for n in hexwx.__all__ if callable(getattr(hexwx, n))
              and (not isinstance(getattr(hexwx, n), type) or n in ("AslWeather", "Drift", "Dice"))}
    assert public <= set(GOOD), public - set(GOOD)
    assert {name for name, _p, _v in BAD} == set(GOOD)


def test_good_arguments_work() -> None:
    for name, make in GOOD.items():
        if name == "load_layout" and not os.environ.get("HEXWX_VASL_DIR"):
            continue   # VASL boards; the bad values above are refused before any is read
        fn, args, kwargs = make()
        fn(*args, **kwargs)


def test_a_layout_of_vasl_boards_loads() -> None:
    if not os.environ.get("HEXWX_VASL_DIR"):
        pytest.skip("HEXWX_VASL_DIR is not set: needs VASL board bd02")
    fn, args, kwargs = GOOD["load_layout"]()
    assert len(fn(*args, **kwargs)) > 300


@pytest.mark.parametrize("name, param, value", BAD, ids=[f"{n}-{p}-{v!r}"[:60] for n, p, v in BAD])
def test_a_bad_argument_is_a_hexwx_error_naming_the_parameter(name: str, param: str,
                                                              value: Any) -> None:
    with pytest.raises(hexwx.HexwxError) as err:
        _call(name, param, value)
    assert err.value.param == param, f"{type(err.value).__name__}: {err.value} (param {err.value.param!r})"
    assert param in str(err.value), str(err.value)
