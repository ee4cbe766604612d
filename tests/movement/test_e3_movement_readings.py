"""E3 movement readings on VASL boards (issue #14 items 5, 6, 8), hand-computed from the rules.

Costs are in MF (infantry) or MP (vehicles); see docs/movement.md for the base chart.
"""
from __future__ import annotations

import json

from hexwx.cli import main
from hexwx.dice import Dice
from hexwx.movement.paths import path
from hexwx.weather.asl import AslWeather, Drift, place_drift, run_weather

from vasl_boards import archive, board, metadata

MUD = AslWeather(base="Mud")


# -- item 5: mud does not affect paved roads, bridges included (3.6) ---------------------------

def test_truck_onto_a_bridge_in_mud_pays_the_paved_road_rate() -> None:
    # bd05 Y9 (dirt road) -> Y8 (single hex stone bridge) along the road.  3.6: "Paved roads
    # (which include bridges) ... are not affected by Mud": the road rate 1/2 MP, no 3.64 +1.
    p = path(board("bd05"), "Y9", "Y8", unit="truck", weather=MUD)
    assert p.total == 0.5
    assert not any(part.weather for s in p.steps for part in s.parts)


def test_truck_off_the_bridge_onto_dirt_road_in_mud_pays_mud() -> None:
    # Y8 -> Y9 enters the dirt road: Open Ground COT 1 (3.6) + 1 MP Open Ground hexside (3.64)
    p = path(board("bd05"), "Y8", "Y9", unit="truck", weather=MUD)
    assert p.total == 2


# -- item 8: a gully containing woods/brush is not Open Ground for mud (3.65 EXC) ---------------

def test_gully_with_woods_is_not_open_ground_in_mud() -> None:
    # bd05 X2 is a gully with woods drawn in it: infantry pay the gully's 2 MF, no +1/2 (3.64)
    m = board("bd05")
    assert path(m, "X3", "X2", unit="infantry", weather=MUD).total == 2


def test_bare_gully_is_open_ground_in_mud() -> None:
    # bd05 Y3 is a gully with nothing in it: 2 MF + 1/2 MF mud (3.64, 3.65 "gullies")
    m = board("bd05")
    p = path(m, "Y2", "Y3", unit="infantry", weather=MUD)
    assert [s.cost for s in p.steps] == [2.5]


# -- item 6: drifts and buildings (3.75, 3.752) -----------------------------------------------

DEEP = AslWeather(base="Snow", deep_snow=True)


def test_drift_between_hexes_of_one_building_does_not_hinder() -> None:
    # bd01 J4-J5 is one stone building.  3.752: "normal movement between building hexes of the
    # same building can occur across a building-Drift hexside": 2 MF for the building (B23),
    # deep snow's +1/2 is waived for entering a building (3.733).
    w = DEEP.replace(drifts=(Drift("J4", 3),))
    for a, b in (("J4", "J5"), ("J5", "J4")):
        p = path(board("bd01"), a, b, unit="infantry", weather=w)
        assert p.hexes == (a, b) and p.total == 2


def test_drift_rolled_onto_an_interior_building_hexside_is_rolled_again() -> None:
    # bd01, wind blowing to hexside 0 (N).  Counter dr 5 -> hexrow Y, start Y5.  Location DR
    # 6,1: one hex toward hexside 5 (NW) -> X4, whose N hexside (to X3) lies inside the X4
    # building: roll again (3.75).  Location DR 3,3: three hexes toward hexside 2 (SE):
    # Y5 -> Z5 -> AA6 -> BB6, a paved road hex: the drift is placed in BB6.
    m = board("bd01")
    assert m.interior_building_hexside("X4", 0)
    st = DEEP.replace(wind_direction=0)
    new, rolls, _ = place_drift(st, "", Dice.scripted([5, 6, 1, 3, 3]), hexes=m.grid.names(),
                                forbidden=m.interior_building_hexside)
    assert new.drifts == (Drift("BB6", 0),)
    assert "interior building hexside" in rolls[1].result


def test_weather_run_never_leaves_a_drift_inside_a_building() -> None:
    m = board("bd01")
    st = DEEP.replace(wind="heavy")
    for seed in range(60):
        recs = run_weather(st, Dice(seed=seed), 3, hexes=m.grid.names(),
                           forbidden=m.interior_building_hexside)
        for d in recs[-1].state.drifts:
            assert not m.interior_building_hexside(d.hex, d.hexside), (seed, d)


def test_cli_weather_run_uses_the_scenario_map(tmp_path, capsys) -> None:
    scn = tmp_path / "bd01.toml"
    scn.write_text(f'name = "bd01 drifts"\nmap = "{archive("bd01")}"\n'
                   f'vasl_metadata = "{metadata()}"\nmonth = "Jan"\n'
                   '[weather]\ndeep_snow = true\nwind = "heavy"\n')
    m = board("bd01")
    for seed in range(25):
        assert main(["weather", "run", "--scenario", str(scn), "--turns", "3",
                     "--seed", str(seed), "--json"]) == 0
        end = json.loads(capsys.readouterr().out)["turns"][-1]["state"]
        for d in end["drifts"]:
            assert not m.interior_building_hexside(d["hex"], d["hexside"]), (seed, d)


# -- item 9: roads on VASL boards are continuous where drawn -----------------------------------

BD02_ROAD = ["A5", "B5", "C5", "D5", "E6", "F5", "F4", "E4", "E3", "E2", "F1", "G2", "H1", "I2"]


def test_bd02_road_is_followed_centre_to_centre() -> None:
    # The road enters at the A5/A6 board-edge vertex and bends near vertices at B5|C5... F5|F4
    # (F5 -> F4 round the corner of G5, not through its centre dot).  Every step of it is a
    # road hexside, so a truck pays 1/2 MP per hex (B3.4): 13 steps = 6 1/2 MP.
    m = board("bd02")
    for a, b in zip(BD02_ROAD, BD02_ROAD[1:]):
        h, o = m.parse(a), m.parse(b)
        assert m.road_sides[h, m.grid.side_towards(h, o)] == 1, (a, b)
    p = path(m, "A5", "I2", unit="truck")
    assert p.total == 6.5 and list(p.hexes) == BD02_ROAD


def test_import_vasl_writes_the_followed_road(tmp_path) -> None:
    import tomllib
    out = tmp_path / "bd02.toml"
    assert main(["import-vasl", str(archive("bd02")), "-o", str(out),
                 "--vasl-metadata", str(metadata())]) == 0
    pairs = {frozenset(p) for p in tomllib.loads(out.read_text())["roads"]["dirt"]}
    for a, b in zip(BD02_ROAD, BD02_ROAD[1:]):
        assert frozenset((a, b)) in pairs, (a, b)
