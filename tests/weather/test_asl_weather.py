"""ASL E3 weather state, charts, DYO roll and Wind Change DR turns.

Expected values are read off the E3 rule text (seed 004), not produced by the code.
"""
from __future__ import annotations

import pytest

from hexwx.dice import Dice
from hexwx.errors import UsageError
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.effects import effects
from hexwx.weather.asl.drifts import place_drift
from hexwx.weather.asl.rolls import (fog_density, fog_level, fog_or_mist, next_player_turn,
                                     roll_weather, run_weather, snow_chart_drm, snow_condition,
                                     temperate_weather, wind_change)
from hexwx.weather.asl.state import AslWeather, Drift, parse_month

# --- E3 Temperate Weather Chart: every row, one month from each column ---------------------
# columns: Mar-May, Jun-Aug, Sep-Nov, Dec-Feb; rows copied from the seed's printed chart
SEED_CHART = {
    2: ("Mud", "Overcast", "Fog/Mist", "Gusty"),
    3: ("Mud", "Clear & Gusty", "Clear & Gusty", "Overcast"),
    4: ("Clear & Gusty", "Fog/Mist", "Mud", "Mud & Overcast"),
    5: ("Overcast", "Overcast", "Overcast", "Clear & Gusty"),
    6: ("Clear", "Clear", "Clear", "Snow"),
    7: ("Clear & Gusty", "Clear", "Clear", "Clear"),
    8: ("Clear", "Clear", "Clear", "Clear & Gusty"),
    9: ("Fog/Mist", "Clear", "Clear & Gusty", "Snow"),
    10: ("Mud", "Clear & Gusty", "Mud", "Snow"),
    11: ("Mud & Overcast", "Mud", "Mud & Overcast", "Snow"),
}


@pytest.mark.parametrize("dr", sorted(SEED_CHART))
@pytest.mark.parametrize("col,months", list(enumerate([("Mar", "Apr", "May"), ("Jun", "Jul", "Aug"),
                                                  ("Sep", "Oct", "Nov"), ("Dec", "Jan", "Feb")])))
def test_weather_chart_rows(dr: int, col: int, months: tuple[str, ...]) -> None:
    for m in months:
        assert temperate_weather(m, dr) == SEED_CHART[dr][col]


@pytest.mark.parametrize("month,want", [("Mar", "Snow"), ("Nov", "Snow"), ("Apr", "Overcast"),
                                        ("May", "Overcast"), ("Sep", "Overcast"),
                                        ("Oct", "Overcast"), ("Jul", "Mud & Overcast"),
                                        ("Jan", "Snow")])
def test_weather_chart_dr12_star_rule(month: str, want: str) -> None:
    assert temperate_weather(month, 12) == want


def test_fog_mist_fog_level_and_density_charts() -> None:
    assert [fog_or_mist(d) for d in range(1, 7)] == ["Mist"] * 5 + ["Fog"]
    assert [fog_level(d) for d in range(1, 7)] == [-1, 0, 1, 2, 3, 4]
    # RULES-NOTES reading: dr <= 1 -> +1, 2-3 -> +2, 4-6 -> +3
    assert [fog_density(d) for d in range(1, 7)] == [1, 2, 2, 3, 3, 3]


def test_snow_chart_rows_and_drm() -> None:
    want = ["Falling Snow", "Falling Snow", "Ground Snow", "Ground & Falling Snow", "Deep Snow",
            "Deep Snow & Falling Snow", "Deep Snow & Drifts", "Extreme Winter"]
    assert [snow_condition(d) for d in range(0, 8)] == want
    assert snow_condition(7, second=True) == "Deep Snow & Drifts"
    assert [snow_chart_drm(m) for m in C.MONTHS] == [1, 1, -1, 0, 0, 0, 0, 0, 0, 0, -1, 1]


def test_bad_chart_inputs() -> None:
    with pytest.raises(UsageError, match="expected 2-12"):
        temperate_weather("Jan", 13)
    with pytest.raises(UsageError, match="unknown month 'Jem'"):
        temperate_weather("Jem", 7)
    with pytest.raises(UsageError, match="expected 1-6"):
        fog_density(0)


# --- the state ------------------------------------------------------------------------------


def test_months_parse() -> None:
    assert parse_month("march") == "Mar"
    assert parse_month(12) == "Dec"
    assert AslWeather(month="oct").month == "Oct"
    with pytest.raises(UsageError, match="unknown month 'Smarch'"):
        AslWeather(month="Smarch")


@pytest.mark.parametrize("kwargs,msg", [
    (dict(fog_level=5), "fog level 5"),
    (dict(fog_level=-2), "fog level -2"),
    (dict(fog_drm=2), "without fog"),
    (dict(fog_level=0, fog_drm=4), "expected 1, 2 or 3"),
    (dict(heavy=True), "needs rain or falling snow"),
    (dict(deep_snow=True, base="Mud"), "mud"),
    (dict(ground_snow=True, deep_snow=True), "choose one"),
    (dict(rain=True, falling_snow=True), "choose one"),
    (dict(rain=True, base="Mist"), "fog or mist"),
    (dict(fog_level=1, base="Mist"), "fog and mist"),
    (dict(drifts=(Drift("C5", 2),)), "drifts need ground snow or deep snow"),
    (dict(base="Sunny"), "unknown weather 'Sunny'"),
    (dict(wind="gale"), "unknown wind force 'gale'"),
    (dict(player_turn=3), "player turn 3"),
])
def test_contradictions_are_usage_errors(kwargs: dict, msg: str) -> None:
    with pytest.raises(UsageError, match=msg):
        AslWeather(**kwargs)


def test_drift_parse_and_validation() -> None:
    assert Drift.parse("2c5:se") == Drift("2C5", 2)
    assert Drift.parse("C5:0") == Drift("C5", 0)
    with pytest.raises(UsageError, match="expected 0-5"):
        Drift("C5", 6)
    with pytest.raises(UsageError, match="HEX:SIDE"):
        Drift.parse("C5")


def test_derived_flags_and_ec() -> None:
    assert AslWeather(rain=True).overcast and AslWeather(rain=True).mist
    assert AslWeather(falling_snow=True).base == "Snow & Overcast"
    assert AslWeather(fog_level=0).fog_drm == 1
    assert AslWeather().ec == "normal"
    assert AslWeather(base="Mist").ec == "Moist"
    assert AslWeather(fog_level=2).ec == "Moist"
    assert AslWeather(rain=True).ec == "Wet"
    assert AslWeather(base="Overcast", rained=True).ec == "Wet"       # rest of the scenario
    assert AslWeather(base="Mud & Overcast", rain=True).ec == "Mud"   # 3.6: always Mud
    assert AslWeather(ground_snow=True, falling_snow=True).ec == "Wet"
    assert AslWeather(deep_snow=True).ec == "Snow"
    assert AslWeather(extreme_winter=True, ground_snow=True).ec == "Snow"
    assert AslWeather(falling_snow=True).ec == "Moist"


def test_replace_validates() -> None:
    st = AslWeather(rain=True)
    assert st.replace(heavy=True).heavy
    with pytest.raises(UsageError):
        st.replace(rain=False, heavy=True)


@pytest.mark.parametrize("level", [-1, 0, 1, 2, 3, 4])
def test_every_fog_level_chart_result_is_a_state(level: int) -> None:
    # E3 3.31 Fog Level Chart: dr 1-6 -> level -1 .. 4 and lower, on any map (issue #14 item 2)
    assert AslWeather(fog_level=level).fog_level == level
    with pytest.raises(UsageError):
        AslWeather(fog_level=5)


# --- DYO roll ---------------------------------------------------------------------------------


def test_roll_fog_path_scripted() -> None:
    # Oct DR 2 (1+1) -> Fog/Mist; dr 6 -> Fog; level dr 3 -> level 1; density dr 5 -> +3
    st, rolls = roll_weather("Oct", Dice.scripted([1, 1, 6, 3, 5]))
    assert (st.base, st.fog_level, st.fog_drm, st.ec) == ("Fog", 1, 3, "Moist")
    assert [r.rule for r in rolls] == ["E3", "E3.3", "E3.31", "E3.311"]


def test_roll_mist_path_scripted() -> None:
    # Jul DR 4 -> Fog/Mist; dr 2 -> Mist
    st, _ = roll_weather("Jul", Dice.scripted([2, 2, 2]))
    assert st.base == "Mist" and st.mist and not st.fog


def test_roll_snow_with_month_drm() -> None:
    # Jan DR 6 -> Snow; dr 2 +1 = 3 -> Ground & Falling Snow
    st, rolls = roll_weather("Jan", Dice.scripted([3, 3, 2]))
    assert st.ground_snow and st.falling_snow and st.overcast
    assert rolls[-1].final == 3
    # Nov DR 12 -> Snow (*); dr 1 -1 = 0 -> Falling Snow
    st, rolls = roll_weather("Nov", Dice.scripted([6, 6, 1]))
    assert st.falling_snow and not st.ground_snow and rolls[-1].final == 0


def test_roll_extreme_winter_second_seven_reads_six() -> None:
    # Feb DR 9 -> Snow; dr 6 +1 = 7 -> Extreme Winter; second dr 6 +1 = 7 -> read as 6
    st, rolls = roll_weather("Feb", Dice.scripted([4, 5, 6, 6]))
    assert st.extreme_winter and st.deep_snow and st.drifts_in_play and st.ec == "Snow"
    assert rolls[-1].final == 7 and rolls[-1].rule == "E3.74"
    assert rolls[-1].result == "Deep Snow & Drifts (7 read as 6)"


def test_roll_star_in_april_is_overcast() -> None:
    st, _ = roll_weather("Apr", Dice.scripted([6, 6]))
    assert st.base == "Overcast" and not st.snow


def test_roll_is_deterministic_by_seed() -> None:
    for seed in range(20):
        a, ra = roll_weather("Dec", Dice(seed=seed))
        b, rb = roll_weather("Dec", Dice(seed=seed))
        assert a == b and ra == rb


def test_roll_logs_every_die_with_purpose() -> None:
    dice = Dice.scripted([1, 1, 6, 3, 5])
    roll_weather("Oct", dice)
    assert [r.purpose.split(" (")[0] for r in dice.log] == [
        "weather chart DR", "fog/mist dr", "fog level dr", "fog density dr"]


# --- Wind Change DR: precipitation -----------------------------------------------------------


def _wc(state: AslWeather, dr: int) -> AslWeather:
    return wind_change(state, Dice.scripted([]), dr=dr)[0]


def test_rain_starts_on_10_only_while_overcast() -> None:
    oc = AslWeather(base="Overcast")
    assert not _wc(oc, 9).rain
    started = _wc(oc, 10)
    assert started.rain and started.ec == "Wet" and not started.heavy
    assert not _wc(AslWeather(), 12).rain               # not overcast: no rain


def test_rain_stops_on_3_and_ec_stays_wet_and_can_restart() -> None:
    raining = AslWeather(base="Overcast", rain=True, heavy=True)
    assert _wc(raining, 4).rain
    stopped = _wc(raining, 3)
    assert not stopped.rain and not stopped.heavy and stopped.overcast
    assert stopped.ec == "Wet"
    again = _wc(stopped, 11)
    assert again.rain and not again.heavy


def test_intensify_once_never_further() -> None:
    raining = AslWeather(rain=True)
    heavy = _wc(raining, 10)
    assert heavy.heavy
    st, events, _ = wind_change(heavy, Dice.scripted([]), dr=12)
    assert st.heavy and st == heavy.replace(phase="RPh")
    assert "no further" in events[0].text


def test_falling_snow_restarts_in_snow_overcast() -> None:
    snow = AslWeather(falling_snow=True, ground_snow=True)
    stopped = _wc(snow, 2)
    assert not stopped.falling_snow and stopped.overcast      # 3.71: overcast remains
    assert _wc(stopped, 10).falling_snow
    assert not _wc(stopped, 10).rain


def test_gusts_on_10_only_when_gusty() -> None:
    gusty = AslWeather(base="Clear & Gusty")
    assert _wc(gusty, 10).gusts and not _wc(gusty, 9).gusts
    assert not _wc(AslWeather(), 12).gusts


# --- fog lifting (3.312) ----------------------------------------------------------------------


def test_fog_lifts_per_game_turn_under_mild_breeze() -> None:
    st = AslWeather(fog_level=2, wind="mild")
    levels = [r.state.fog_level for r in run_weather(st, Dice.scripted([3, 3] * 4), 2)]
    # player turns 1.1, 1.2, 2.1, 2.2: one level each game turn
    assert levels == [1, 1, 0, 0]


def test_fog_lifts_per_player_turn_under_heavy_winds() -> None:
    st = AslWeather(fog_level=2, wind="heavy")
    levels = [r.state.fog_level for r in run_weather(st, Dice.scripted([3, 3] * 4), 2)]
    assert levels == [1, 0, -1, None]


def test_gusts_lift_fog_in_that_player_turn() -> None:
    st = AslWeather(base="Gusty", fog_level=1).replace(phase="RPh")
    # a DR of 10 in gusty weather brings gusts: fog drops in this player turn too
    assert _wc(st, 10).fog_level == 0
    assert _wc(st, 9).fog_level == 1                     # no wind, no gusts: no change


def test_no_wind_no_lifting() -> None:
    st = AslWeather(fog_level=0)
    assert run_weather(st, Dice.scripted([6, 6] * 2), 1)[-1].state.fog_level == 0


def test_turns_advance() -> None:
    st = AslWeather()
    recs = run_weather(st, Dice(seed=1), 2)
    assert [(r.turn, r.player_turn) for r in recs] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    st2, _, _ = next_player_turn(recs[-1].state, Dice.scripted([1, 1]))
    assert (st2.turn, st2.player_turn) == (3, 1)


# --- drifts (3.75) -----------------------------------------------------------------------------


def test_drift_created_under_heavy_winds_with_ground_snow() -> None:
    st = AslWeather(ground_snow=True, wind="heavy", wind_direction=1).replace(phase="RPh")
    # counter draw dr 2 -> second hexrow "I": starts at I5; location DR coloured 3 (hexside 2,
    # SE), white 1 -> one hex SE of I5 = J5 (even-lettered J sits half a hex lower than
    # odd-lettered I of the same number, so J5 touches I5's SE hexside);
    # then the wind change DR 4+4
    dice = Dice.scripted([2, 3, 1, 4, 4])
    new, events, _ = wind_change(st, dice)
    assert new.drifts == (Drift("J5", 1),)
    assert events[0].rule == "E3.75"


def test_no_drift_under_mild_breeze_or_without_snow() -> None:
    mild = AslWeather(deep_snow=True, wind="mild")
    assert _wc(mild, 7).drifts == ()
    bare = AslWeather(base="Overcast", wind="heavy")
    assert _wc(bare, 7).drifts == ()


def test_drift_placement_uses_hex_list_rerolls_and_loses_offmap() -> None:
    st = AslWeather(deep_snow=True, drifts=(Drift("2J5", 0),), wind_direction=0)
    hexes = ["2I5", "2J5", "2K6", "2I4"]
    # counter dr 2 -> I; DR (3,1): SE of 2I5 is 2J5, already a drift -> roll again;
    # DR (1,1): N of I5 = I4
    new, rolls, text = place_drift(st, "2", Dice.scripted([2, 3, 1, 1, 1]), hexes=hexes)
    assert new.drifts[-1] == Drift("2I4", 0)
    assert "roll again" in rolls[1].result
    # counter dr 1 -> C (C5); direction 5 (NW) 6 hexes: off the board -> lost
    new2, _, text2 = place_drift(st, "2", Dice.scripted([1, 6, 6]), hexes=None)
    assert new2.drifts == st.drifts and "lost" in text2


def test_dyo_drifts_placed_with_a_board_list() -> None:
    # Feb: DR 6 -> Snow; dr 5 +1 = 6 -> Deep Snow & Drifts; six drifts on board 2
    # first drift: counter dr 1 (hexrow C), random direction dr 4 (no wind: blows to hexside 3),
    # location DR coloured 1 (north) white 1; later drifts reuse that direction
    faces = [3, 3, 5] + [1, 4, 1, 1]
    for i in range(5):                # counter dr 1 each time (first remaining), 1 hex north
        faces += [1, 1, 1]
    st, rolls = roll_weather("Feb", Dice.scripted(faces), boards=["2"])
    assert len(st.drifts) == 6 and not st.drifts_in_play
    assert {d.hex for d in st.drifts} == {f"2{r}4" for r in C.DRIFT_COUNTER_HEXROWS}
    assert all(d.hexside == 3 for d in st.drifts)


# --- effects ------------------------------------------------------------------------------------


def _rules(state: AslWeather) -> set[str]:
    return {e.rule for e in effects(state)}


def test_effects_cite_the_rules_in_force() -> None:
    assert "E3.2" in _rules(AslWeather())
    mud = _rules(AslWeather(base="Mud & Overcast"))
    assert {"E3.6", "E3.62", "E3.63", "E3.61", "E3.64, E3.65", "E3.55", "E3.734"} <= mud
    deep = _rules(AslWeather(deep_snow=True, extreme_winter=True, drifts=(Drift("C5", 2),)))
    assert {"E3.7331", "E3.733", "E3.731", "E3.722", "E3.7332", "E3.743", "E3.741", "E3.744",
            "E3.752", "E3.712"} <= deep
    fog = _rules(AslWeather(fog_level=1))
    assert {"E3.313", "A24.8", "E3.311"} <= fog
    assert "E3.54" in _rules(AslWeather(base="Overcast", rained=True))
    assert "E3.724" in _rules(AslWeather(ground_snow=True))


@pytest.mark.parametrize("name, hint", [("mud", 'base="Mud"'), ("mist", 'base="Mist"'),
                                        ("overcast", 'base="Overcast"'), ("fog", "fog_level=")])
def test_derived_names_are_not_arguments(name: str, hint: str) -> None:
    # issue #14 item 16: AslWeather(mud=True) says what to write instead
    with pytest.raises(UsageError, match=f"no {name}= argument.*{hint}"):
        AslWeather(**{name: True})
    with pytest.raises(UsageError, match=hint):
        AslWeather().replace(**{name: True})
    assert AslWeather(base="Mud").mud
