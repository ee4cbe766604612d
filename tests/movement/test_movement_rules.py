"""Movement costs: the base chart and each E3 weather rule, on small maps, costs worked by hand.

Geometry used below (one board): C3's neighbours are N C2, NE D2, SE D3, S C4, SW B3, NW B2;
G3's are N G2, NE H2, SE H3, S G4, SW F3, NW F2.
"""
from __future__ import annotations

import pytest

from hexwx.errors import DataError, UsageError
from hexwx.movement.paths import movement_graph, path, reach, step
from hexwx.weather.asl.state import AslWeather, Drift

from move_helpers import tiny

CLEAR = None
RAIN = AslWeather(rain=True)
MUD = AslWeather(base="Mud")
GROUND = AslWeather(ground_snow=True)
GROUND_PLOWED = AslWeather(ground_snow=True, plowed_roads=True)
DEEP = AslWeather(deep_snow=True)
DEEP_PLOWED = AslWeather(deep_snow=True, plowed_roads=True)


def cost(m, a, b, unit, weather=None):
    return step(m, a, b, unit=unit, weather=weather).cost


def rules(m, a, b, unit, weather=None):
    return [p.rule for p in step(m, a, b, unit=unit, weather=weather).parts]


# -- base chart (RULES-NOTES "ASL movement defaults") ----------------------------------------

@pytest.mark.parametrize("key, inf, tracked", [
    ("open", 1, 1), ("grain", 1.5, 1), ("orchard", 1, 1), ("brush", 2, 2), ("woods", 2, 4),
    ("shellholes", 2, 2), ("rubble", 3, 4), ("crags", 3, None), ("marsh", 2, None),
    ("stone building", 2, None), ("wooden building 1", 2, None), ("water", None, None),
    ("gully", 2, 4),
])
def test_cost_of_terrain(key, inf, tracked):
    m = tiny(terrain={key: ["C3"]})
    for unit, want in (("infantry", inf), ("tracked", tracked)):
        s = step(m, "C2", "C3", unit=unit)
        if want is None:
            assert not s.allowed and s.cost is None
        else:
            assert s.allowed and s.cost == want


def test_vehicle_prohibitions():
    m = tiny(terrain={"woods": ["C3"], "marsh": ["D3"], "stone building": ["C4"]})
    for unit in ("non-tracked", "sledge"):
        s = step(m, "C2", "C3", unit=unit)
        assert not s.allowed and "Woods" in s.reason
    assert not step(m, "D2", "D3", unit="tracked").allowed
    assert not step(m, "C3", "C4", unit="tracked").allowed
    assert step(m, "C2", "C3", unit="tracked").cost == 4


def test_hexsides_wall_hedge_bocage_cliff():
    m = tiny(terrain={"woods": ["D3"]},
             hexsides={"wall": ["C3:N"], "hedge": ["C3:NE"], "bocage": ["C3:S"], "cliff": ["C3:SW"]})
    assert cost(m, "C3", "C2", "infantry") == 2       # open 1 + wall 1
    assert cost(m, "C2", "C3", "infantry") == 2       # both ways
    assert cost(m, "C3", "D2", "truck") == 2          # open 1 + hedge 1
    assert cost(m, "C3", "C4", "infantry") == 2       # bocage +1
    s = step(m, "C3", "B3", unit="infantry")
    assert not s.allowed and "Cliff" in s.reason
    assert not step(m, "B3", "C3", unit="tracked").allowed


def test_up_a_level_doubles_infantry_cot_and_vehicles_pay_four():
    m = tiny(levels={1: ["G2", "H2"]}, terrain={"woods": ["H2"]})
    assert cost(m, "G3", "G2", "infantry") == 2        # 2 x open
    assert cost(m, "G3", "H2", "infantry") == 4        # 2 x woods
    assert cost(m, "G2", "G3", "infantry") == 1        # down: plain COT
    assert cost(m, "G3", "G2", "non-tracked") == 5     # 4 + open 1 (3.54 EX)
    assert cost(m, "G2", "G3", "non-tracked") == 1


def test_road_rate_needs_a_road_hexside():
    m = tiny(roads={"dirt": [["C2", "C3", "C4"]]}, terrain={"road": ["D3"]})
    assert cost(m, "C2", "C3", "truck") == 0.5
    assert cost(m, "C3", "C2", "tracked") == 0.5
    assert cost(m, "B3", "C3", "truck") == 1           # entered across a non-road hexside
    assert cost(m, "C3", "D3", "truck") == 1           # a road hex entered off the road: open
    assert cost(m, "C2", "C3", "infantry") == 1


def test_road_bonus_in_reach():
    m = tiny(roads={"dirt": [["C1", "C2", "C3", "C4", "C5"]]})
    r = reach(m, "C1", unit="infantry", mf=3)
    assert r.costs["C5"] == 4 and "C5" in r.by_road_bonus        # 4 road hexsides: 3 MF + 1
    assert r.costs["C4"] == 3 and "C4" not in r.by_road_bonus
    assert "D5" not in r                                          # off road: no bonus
    assert "C5" not in reach(m, "C1", unit="tracked", mf=1.5)     # vehicles: no +1 MF
    p = path(m, "C1", "C5", unit="infantry", mf=3)
    assert p.road_bonus and p.total == 4 and p.within


def test_map_overrides():
    m = tiny(terrain={"woods": ["C3"], "grain": ["D3"]},
             movement={"woods": {"infantry": 3, "tracked": False}, "Grain": {"infantry": 2}})
    assert cost(m, "C2", "C3", "infantry") == 3
    assert not step(m, "C2", "C3", unit="tracked").allowed
    assert cost(m, "D2", "D3", "infantry") == 2
    assert cost(m, "D2", "D3", "truck") == 1


@pytest.mark.parametrize("movement, text", [
    ({"lava": {"infantry": 1}}, "unknown terrain 'lava'"),
    ({"woods": {"hovercraft": 1}}, "unknown unit class 'hovercraft'"),
    ({"woods": {"infantry": -1}}, "expected a cost >= 0"),
    ({"woods": {"infantry": 1.25}}, "in steps of 0.5"),
])
def test_bad_overrides_are_data_errors(movement, text):
    m = tiny(movement=movement)
    with pytest.raises(DataError, match=text):
        movement_graph(m, "infantry")


# -- 3.54 rain ---------------------------------------------------------------------------------

def test_rain_examples_3_54():
    """3.54 EX: up G3->G2 3 MF, down 2 MF; a halftrack up pays 4 + 1 + 1 (towing not modelled)."""
    m = tiny(levels={1: ["G2"]})
    assert cost(m, "G3", "G2", "infantry", RAIN) == 3
    assert cost(m, "G2", "G3", "infantry", RAIN) == 2
    assert cost(m, "G3", "G2", "halftrack", RAIN) == 6
    assert "E3.54" in rules(m, "G3", "G2", "infantry", RAIN)


def test_rain_after_rain_and_paved_roads():
    m = tiny(levels={1: ["G2", "H2"]}, roads={"paved": [["G3", "G2"]], "dirt": [["G3", "H2"]]})
    after = AslWeather(rained=True)
    assert cost(m, "G3", "F3", "infantry", after) == 1             # no level change
    assert cost(m, "G3", "G2", "infantry", after) == 2             # paved road: 2 x 1, no +1
    assert cost(m, "G3", "G2", "truck", after) == 4.5              # ½ + 4, no +1
    assert cost(m, "G3", "H2", "infantry", after) == 3             # dirt road: 2 + 1
    two = tiny(levels={2: ["G2"]})
    assert cost(two, "G3", "G2", "infantry", RAIN) == 4            # 2 x 1 + 1 per level x 2


# -- 3.6/3.64/3.65 mud ----------------------------------------------------------------------

@pytest.mark.parametrize("key, inf, truck", [
    ("open", 1.5, 2), ("plowed field", 1.5, 2), ("shellholes", 2.5, 3), ("gully", 2.5, 5),
    ("dry stream", 2.5, 5), ("grain", 1.5, 1), ("woods", 2, None), ("brush", 2, 2),
    ("orchard", 1, 1),
])
def test_mud_open_ground_hexsides(key, inf, truck):
    m = tiny(terrain={key: ["C3"]})
    assert cost(m, "C2", "C3", "infantry", MUD) == inf
    assert cost(m, "C2", "C3", "truck", MUD) == truck


def test_mud_roads():
    m = tiny(roads={"dirt": [["C1", "C2", "C3"]], "paved": [["E1", "E2", "E3"]]})
    assert cost(m, "C2", "C3", "infantry", MUD) == 1.5      # open COT 1 + ½
    assert cost(m, "C2", "C3", "truck", MUD) == 2           # open COT 1 (not ½) + 1
    assert cost(m, "E2", "E3", "infantry", MUD) == 1        # paved: unaffected
    assert cost(m, "E2", "E3", "truck", MUD) == 0.5
    r = reach(m, "C1", unit="infantry", mf=2)
    assert not r.by_road_bonus                              # no bonus on unpaved roads
    r = reach(m, "E1", unit="infantry", mf=1)
    assert r.costs.get("E3") == 2 and "E3" in r.by_road_bonus   # paved keeps it


def test_mud_additions_come_after_the_total_3_9():
    m = tiny(levels={1: ["G2"]}, hexsides={"wall": ["G3:N"]})
    # 2 x open + wall 1 + mud ½ (not doubled)
    assert cost(m, "G3", "G2", "infantry", MUD) == 3.5
    # 1 + 4 + wall 1 + mud 1
    assert cost(m, "G3", "G2", "truck", MUD) == 7


# -- 3.72-3.724 ground snow --------------------------------------------------------------------

def test_ground_snow_infantry():
    m = tiny(levels={1: ["G2", "H2"]}, roads={"dirt": [["G3", "G2"], ["C1", "C2", "C3", "C4"]]})
    assert cost(m, "G3", "F3", "infantry", GROUND) == 1
    assert cost(m, "G3", "H2", "infantry", GROUND) == 3            # 2 + 1 level
    assert cost(m, "G2", "G3", "cavalry", GROUND) == 2             # down, unplowed road: 1 + 1
    assert cost(m, "G3", "G2", "infantry", GROUND_PLOWED) == 2     # plowed road: no +1
    assert not reach(m, "C1", unit="infantry", mf=2, weather=GROUND).by_road_bonus
    assert "C4" in reach(m, "C1", unit="infantry", mf=2, weather=GROUND_PLOWED).by_road_bonus


def test_ground_snow_vehicles():
    m = tiny(roads={"dirt": [["C1", "C2", "C3"]]})
    assert cost(m, "C2", "C3", "tracked", GROUND) == 1              # road entry at least 1
    assert cost(m, "C2", "C3", "truck", GROUND) == 2               # 1 + 1 per hexside
    assert cost(m, "C2", "C3", "truck", GROUND_PLOWED) == 2        # both apply even plowed
    assert cost(m, "C2", "C3", "sledge", GROUND) == 1              # sledges exempt from +1
    assert cost(m, "D2", "D3", "truck", GROUND) == 2
    assert cost(m, "D2", "D3", "tracked", GROUND) == 1
    assert set(rules(m, "C2", "C3", "truck", GROUND)) >= {"E3.724"}


def test_snow_turns_marsh_to_open_and_freezes_streams_3_722():
    m = tiny(terrain={"marsh": ["C3"], "stream": ["D3"]})
    assert cost(m, "C2", "C3", "infantry", GROUND) == 1
    assert cost(m, "C2", "C3", "tracked", GROUND) == 1             # was not allowed
    assert not step(m, "C2", "C3", unit="tracked").allowed
    assert cost(m, "D2", "D3", "tracked", GROUND) == 4             # frozen: as a dry stream
    assert cost(m, "C2", "C3", "infantry", DEEP) == 1.5            # open + ½ in deep snow


# -- 3.73-3.7331 deep snow ---------------------------------------------------------------------

@pytest.mark.parametrize("key, inf, tracked, truck, sledge", [
    ("open", 1.5, 2, 3, 1), ("woods", 2, 5, None, None), ("stone building", 2, None, None, None),
    ("rubble", 3, 5, None, None), ("brush", 1.5, 2, 3, 1), ("grain", 2, 2, 3, 1),
])
def test_deep_snow_per_hexside(key, inf, tracked, truck, sledge):
    m = tiny(terrain={key: ["C3"]})
    for unit, want in (("infantry", inf), ("cavalry", inf), ("tracked", tracked),
                       ("truck", truck), ("sledge", sledge)):
        assert cost(m, "C2", "C3", unit, DEEP) == want, unit


def test_deep_snow_roads_and_levels():
    m = tiny(roads={"dirt": [["C1", "C2", "C3"]]}, levels={1: ["G2"]})
    assert cost(m, "C2", "C3", "infantry", DEEP) == 1.5
    assert cost(m, "C2", "C3", "infantry", DEEP_PLOWED) == 1       # plowed road: no ½
    assert cost(m, "C2", "C3", "tracked", DEEP) == 2               # min 1 + 1
    assert cost(m, "C2", "C3", "tracked", DEEP_PLOWED) == 1
    assert cost(m, "C2", "C3", "truck", DEEP) == 3                 # min 1 + 2
    assert cost(m, "C2", "C3", "truck", DEEP_PLOWED) == 2          # min 1 + 1
    assert cost(m, "C2", "C3", "sledge", DEEP) == 1
    assert cost(m, "G3", "G2", "infantry", DEEP) == 3.5            # 2 + 1 level + ½
    assert cost(m, "G3", "G2", "tracked", DEEP) == 6               # 1 + 4 + 1
    assert {"E3.733", "E3.733, E3.723"} <= set(rules(m, "G3", "G2", "infantry", DEEP))


# -- 3.75-3.752 drifts -------------------------------------------------------------------------

DRIFT = AslWeather(deep_snow=True, drifts=(Drift("C3", 0),))     # hexside C3/C2


def test_drift_takes_the_whole_move():
    m = tiny()
    s = step(m, "C3", "C2", unit="infantry", weather=DRIFT)
    assert s.all_mf and s.cost is None and s.bog_drm is None
    v = step(m, "C2", "C3", unit="tracked", weather=DRIFT)
    assert v.all_mf and v.bog_drm == 2
    p = path(m, "C3", "C2", unit="infantry", weather=DRIFT, mf=2)
    assert p.hexes == ("C3", "C2") and p.total is None and p.within   # around costs 3 > 2
    p = path(m, "C3", "C2", unit="infantry", weather=DRIFT)
    assert p.total == 3 and len(p.steps) == 2      # without an allowance: never the drift
    p = path(m, "C3", "C2", unit="infantry", weather=DRIFT, mf=6)
    assert p.total == 3 and len(p.steps) == 2      # around: 2 x 1½ is cheaper than all 6 MF


def test_drift_only_as_the_only_step():
    m = tiny()
    p = path(m, "C4", "C2", unit="infantry", weather=DRIFT)
    assert p.total == 4.5 and all(not s.all_mf for s in p.steps)   # 3 x 1½, never the drift
    r = reach(m, "C3", unit="infantry", mf=4, weather=DRIFT)
    assert r.costs["C4"] == 1.5                    # ordinary step
    assert r.costs["C2"] == 3 and "C2" not in r.whole_move   # around via B2 or D2
    r = reach(m, "C3", unit="infantry", mf=2, weather=DRIFT)
    assert r.costs["C2"] == 2 and "C2" in r.whole_move       # only across the drift
    assert "C1" not in r


def test_drift_surrounded_hex_reached_only_by_whole_move():
    # C2 walled off by cliffs on every side but the drift hexside
    m = tiny(hexsides={"cliff": ["C2:N", "C2:NE", "C2:SE", "C2:SW", "C2:NW"]})
    p = path(m, "C3", "C2", unit="tracked", weather=DRIFT)
    assert p.found and p.total is None and p.steps[0].bog_drm == 2
    far = path(m, "C4", "C2", unit="infantry", weather=DRIFT)
    assert not far.found and "drift" in far.reason


# -- bad input -------------------------------------------------------------------------------

def test_bad_input():
    m = tiny()
    with pytest.raises(UsageError, match="unknown unit class 'hovercraft'"):
        path(m, "A1", "B1", unit="hovercraft")
    with pytest.raises(UsageError, match="bad allowance -1"):
        reach(m, "A1", unit="infantry", mf=-1)
    with pytest.raises(UsageError, match="hex 'ZZ99' is not on this map"):
        path(m, "ZZ99", "B1", unit="infantry")
    with pytest.raises(UsageError, match="not adjacent"):
        step(m, "A1", "C3", unit="infantry")
    with pytest.raises(UsageError, match="drift hex '3C3' is not on this map"):
        movement_graph(m, "infantry", AslWeather(ground_snow=True, drifts=(Drift("3C3", 1),)))


def test_prohibited_goal_says_why():
    m = tiny(terrain={"water": ["C3"]})
    p = path(m, "A1", "C3", unit="infantry")
    assert not p.found and "Water not allowed for infantry" in p.reason


def test_graph_is_cached_per_movement_weather():
    m = tiny()
    g1 = movement_graph(m, "infantry", AslWeather(base="Mud"))
    assert movement_graph(m, "infantry", AslWeather(base="Mud & Overcast", fog_level=0)) is g1
    assert movement_graph(m, "infantry", AslWeather()) is not g1
    assert movement_graph(m, "inf") is movement_graph(m, "infantry", None)
