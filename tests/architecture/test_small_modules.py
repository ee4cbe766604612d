"""Direct tests of small modules that the rest of the suite reaches only through others."""
from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

import hexwx.hexmap.derive as derive
import hexwx.hexmap.raster as raster
from hexwx.errors import DataError, UsageError
from hexwx.hexmap.coords import Grid, board_neighbour, is_hex_name, split_name
from hexwx.io.load import load_map
from hexwx.io.tomlfile import load_toml
from hexwx.io.vasl_export import export_mapfile
from hexwx.lineofsight.engine import los, los_table, viewshed
from hexwx.lineofsight.results import LosResult, LosTable, Viewshed
from hexwx.units import CM_PER_INCH, UNIT_CM
from hexwx.validate import is_whole, one_of, whole
from hexwx.weather.asl.records import ChartRoll, chart_roll
from hexwx.weather.asl.state import AslWeather
from hexwx.weather.asl.terrain_changes import weather_changes
from hexwx.weather.minis import huzzah
from hexwx.weather.minis.registry import RULE_NAMES, RULE_SETS, check_rules
from hexwx.weather.run import WeatherRun
from hexwx.dice import Dice

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "hill_village.toml"


def test_validate_whole_numbers_and_choices() -> None:
    assert is_whole(3) and is_whole(np.int64(3), 0, 5) and not is_whole(True)
    assert not is_whole(2.0) and not is_whole("2") and not is_whole(7, 0, 5)
    assert whole(4, "turn", 1) == 4
    with pytest.raises(UsageError, match=r"bad turn 0; expected a whole number >= 1"):
        whole(0, "turn", 1)
    with pytest.raises(UsageError, match=r"bad wind change DR 13; expected 2-12"):
        whole(13, "wind change DR", 2, 12)
    assert one_of("mild", ("none", "mild"), "wind force") == "mild"
    with pytest.raises(UsageError, match=r"bad wind force 'x'; expected one of none, mild"):
        one_of("x", ("none", "mild"), "wind force")


def test_one_inch_is_2_54_cm() -> None:
    assert CM_PER_INCH == 2.54 and UNIT_CM == {"in": 2.54, "cm": 1.0}


def test_one_registry_of_rule_sets() -> None:
    assert RULE_NAMES == ("agv", "mininap", "wesencraft", "huzzah")
    assert RULE_SETS["huzzah"].module == huzzah.__name__
    assert check_rules("agv") == "agv"
    with pytest.raises(UsageError, match="bad rules 'dba'"):
        check_rules("dba")


def test_hex_names_are_parsed_in_one_place() -> None:
    assert split_name("2I4") == ("2", "I", 4) and split_name("gg10") == ("", "GG", 10)
    assert split_name("I") is None and not is_hex_name(42) and is_hex_name("C5")
    grid = Grid.single()
    for name in ("A1", "I4", "B0", "GG10", "P6"):
        h = grid.parse(name)
        for side in range(6):
            nb = grid.neighbour(h, side)
            assert board_neighbour(name, side) == (grid.name(nb) if nb >= 0 else None)
    assert grid.hex("I4") == grid.hex(grid.parse("I4"))
    with pytest.raises(UsageError, match="is not on this map"):
        grid.hex(len(grid))


def test_chart_rolls_record_dice_drm_and_rule() -> None:
    roll = Dice.scripted([3, 4]).DR("weather chart DR")
    rec = chart_roll(roll, "Clear", "E3", drm=1)
    assert rec == ChartRoll("weather chart DR", (3, 4), 1, 8, "Clear", "E3")
    assert str(rec) == "weather chart DR: 3+4=7 +1 = 8 -> Clear (E3)"


def test_snow_changes_terrain_and_clear_weather_does_not() -> None:
    assert weather_changes(None) == () and weather_changes(AslWeather()) == ()
    assert len(weather_changes(AslWeather(ground_snow=True))) == 2
    assert len(weather_changes(AslWeather(deep_snow=True))) == 3


def test_weather_run_is_the_list_of_its_records() -> None:
    from hexwx.weather.asl.rolls import run_weather
    records = run_weather(AslWeather(), Dice(seed=1), 1)
    run = WeatherRun(records)
    assert run == records and run.to_json() == [r.to_json() for r in records]
    assert "<svg" in run._repr_svg_()


def test_toml_getters_name_the_file_and_key(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_text('n = "a"\n')
    doc = load_toml(f)
    with pytest.raises(DataError, match=r"x.toml: n: expected an integer, got a string 'a'"):
        doc.int("n")


def test_derived_terrain_and_raster_of_a_map_file() -> None:
    m = load_map(VILLAGE)
    ht = derive.derive(m.grid, m.geometry, m.elevation, m.terrain, m.table, m.stairways)
    assert np.array_equal(ht.base, m.hexes.base)
    assert raster.HEXSIDE_HALF_WIDTH > 0
    assert export_mapfile(m).startswith("#") or "[map]" in export_mapfile(m)


def test_results_are_read_only_with_one_line_reprs() -> None:
    m = load_map(VILLAGE)
    r = los(m, "A7", "N7")
    assert isinstance(r, LosResult) and "\n" not in repr(r) and r.source in repr(r)
    vs = viewshed(m, "A7")
    assert isinstance(vs, Viewshed) and "\n" not in repr(vs)
    with pytest.raises(ValueError):
        vs.blocked[0] = True
    table = los_table(m)
    assert isinstance(table, LosTable) and "\n" not in repr(table)
    with pytest.raises(ValueError):
        table.hindrance[0] = 9


def test_python_dash_m_hexwx_runs_the_cli(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["hexwx", "--version"])
    with pytest.raises(SystemExit) as exc:
        runpy.run_module("hexwx.__main__", run_name="__main__")
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("hexwx ")


def test_limits_serve_params_and_source_kinds(tmp_path: Path) -> None:
    from hexwx.limits import TURNS, check_count
    from hexwx.serve.params import check_query
    from hexwx.serve.session import source_kind
    assert check_count(5, TURNS, "turns") == 5
    with pytest.raises(UsageError, match="turns: expected a number >= 1, got 0"):
        check_count(0, TURNS, "turns")
    check_query({"from_level": ["1"]})
    with pytest.raises(UsageError, match="bad parameter name"):
        check_query({"Bad-Key": ["1"]})
    assert source_kind(str(VILLAGE)) == "map" and source_kind("x.vsav") == "save"
    assert source_kind(str(ROOT / "scenarios" / "table_agv_village_and_wood.toml")) == "table"


def test_los_table_file_has_a_row_per_ordered_pair(tmp_path: Path) -> None:
    from hexwx.io.lostable import write_los_table
    m = load_map(VILLAGE)
    out = tmp_path / "t.csv"
    rows = write_los_table(m, out)
    assert rows == len(los_table(m).src) == len(out.read_text().splitlines()) - 1


def test_svg_and_table_pictures() -> None:
    from hexwx.io.table_scenario import load_table_scenario
    from hexwx.render.svg import map_svg
    from hexwx.render.table import render_table
    from hexwx.render.weather_svg import run_svg
    m = load_map(VILLAGE)
    assert "<svg" in map_svg(m, los=los(m, "A7", "N7"), window=("A5", "N9"))
    sc = load_table_scenario(ROOT / "scenarios" / "table_agv_village_and_wood.toml")
    assert render_table(sc, width_px=300).image.width == 300
    from hexwx.weather.asl.rolls import run_weather
    records = run_weather(AslWeather(), Dice(seed=2), 1)
    assert run_svg(records) == WeatherRun(records)._repr_svg_()


def test_a_layout_edit_without_tables_keeps_the_map(tmp_path: Path) -> None:
    from hexwx.io.layout_edits import EDIT_TABLES, edit_layout
    f = tmp_path / "e.toml"
    f.write_text('[map]\nname = "x"\n')
    m = load_map(VILLAGE)
    edited = edit_layout(m, load_toml(f))
    assert set(EDIT_TABLES) >= {"levels", "terrain"}
    assert np.array_equal(edited.terrain, m.terrain) and np.array_equal(edited.elevation, m.elevation)


def test_a_loaded_map_is_read_only_with_a_one_line_repr() -> None:
    from hexwx.frozen import read_only
    m = load_map(VILLAGE)
    assert "\n" not in repr(m) and len(repr(m)) < 200 and "hexes" in repr(m)
    for arr in (m.elevation, m.terrain, m.grid.neighbours, m.grid.col, m.hexes.base,
                m.hexes.side_terrain, m.geometry.hex_at, m.road_sides, m.building_ids):
        with pytest.raises(ValueError):
            arr.flat[0] = 1
    with pytest.raises(TypeError):
        m.move_overrides["woods"] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        m.grid._lookup["ZZ1"] = 0  # type: ignore[index]
    assert read_only({"a": 1})["a"] == 1


def test_road_codes_are_the_road_and_bridge_terrain() -> None:
    from hexwx.hexmap.roads import road_codes
    from hexwx.hexmap.terrain import Category
    m = load_map(VILLAGE)
    road, paved = road_codes(m)
    for t in m.table.types:
        assert road[t.code] == (t.category in (Category.ROAD, Category.BRIDGE)), t.name
    assert not (paved & ~road).any()
