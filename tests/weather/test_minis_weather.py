"""Miniatures weather models: charts row by row (seeds 000-003), state machines on fixed dice,
exact odds against hand-worked fractions, and the numpy Monte Carlo against the exact odds."""
from __future__ import annotations

import functools
import math
from fractions import Fraction

import pytest

from hexwx.dice import Dice
from hexwx.errors import UsageError
from hexwx.weather.minis import agv
from hexwx.weather.minis import mininap
from hexwx.weather.minis import spells
from hexwx.weather.minis import wesencraft
from hexwx.weather.minis.common import (ENDED, TurnReport, exact_distribution, frequencies,
                                 initial_probabilities, outcomes, run_minis_weather, simulate)

F = Fraction

# Faces that make a 2D6 total (first, second), not doubles unless they must be.
TWO = {2: (1, 1), 3: (1, 2), 4: (1, 3), 5: (2, 3), 6: (2, 4), 7: (3, 4), 8: (3, 5),
       9: (4, 5), 10: (4, 6), 11: (5, 6), 12: (6, 6)}

# Chances of a 2D6 total, written out by hand.
WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
# P(2D6 > 1D6): for a 1D6 of d, the 2D6 totals <= d are 0, 1, 3, 6, 10, 15 ways of 36.
MILDER = 1 - F(0 + 1 + 3 + 6 + 10 + 15, 216)


@functools.cache
def exact12(rules: str) -> list[dict[str, Fraction]]:
    """Exact odds of 12 turns without options (shared by several tests)."""
    return exact_distribution(rules, 12)


def run(rules: str, faces: list[int], turns: int, **options: object) -> list[TurnReport]:
    return run_minis_weather(rules, turns, dice=Dice.scripted(faces), **options)


# ---------------------------------------------------------------------------- pre-game charts

# Seed 000 / 001 "The Type of Weather", row by row.
PATTERN_ROWS = [(2, "snow"), (3, "rain"), (4, "showers"), (5, "clear"), (6, "clear"),
                (7, "clear"), (8, "clear"), (9, "clear"), (10, "fog and mist"),
                (11, "strong winds"), (12, "hot weather")]


@pytest.mark.parametrize("total, pattern", PATTERN_ROWS)
def test_agv_pre_game_chart(total: int, pattern: str) -> None:
    state = agv.start(Dice.scripted(TWO[total]))
    assert state.pattern == pattern


@pytest.mark.parametrize("total, pattern", PATTERN_ROWS)
def test_mininap_weather_chart(total: int, pattern: str) -> None:
    state = mininap.start(Dice.scripted([*TWO[7], *TWO[total]]))
    assert state.spell.pattern == pattern


# Seed 001 "The Time of Day When the Battle Begins", row by row.
@pytest.mark.parametrize("total, clock", [(2, "4:00 AM"), (3, "6:00 AM"), (4, "6:00 AM"),
                                          (5, "8:00 AM"), (6, "8:00 AM"), (7, "10:00 AM"),
                                          (8, "10:00 AM"), (9, "12:00 PM"), (10, "12:00 PM"),
                                          (11, "2:00 PM"), (12, "4:00 PM")])
def test_mininap_time_of_day_chart(total: int, clock: str) -> None:
    (first,) = run("mininap", [*TWO[total], *TWO[7]], 1)
    assert first.time_of_day == clock


# Seed 003 gauge with the RULES-NOTES reading 2 = fog.
@pytest.mark.parametrize("total, weather", [(2, "fog"), (3, "light rain"), (4, "fair"),
                                            (5, "fair"), (6, "fair"), (7, "fair"), (8, "fair"),
                                            (9, "fair"), (10, "fair"), (11, "light rain"),
                                            (12, "heavy rain")])
def test_wesencraft_gauge_chart(total: int, weather: str) -> None:
    (first,) = run("wesencraft", list(TWO[total]), 1)
    assert first.weather == weather
    assert f"weather gauge at {total}" in first.notes


# Seed 000 spells: (pattern, weather when 2D6 > 1D6, weather otherwise).
SPELL_ROWS = [("showers", "clear", "showers"), ("rain", "showers", "rain"),
              ("fog and mist", "mist", "fog"), ("snow", "mist", "snow")]


@pytest.mark.parametrize("pattern, milder, harsher", SPELL_ROWS)
def test_agv_spell_chart(pattern: str, milder: str, harsher: str) -> None:
    total = next(t for t, p in PATTERN_ROWS if p == pattern)
    # 2D6 = 7 against 1D6 = 2: milder, for 2 turns.
    reports = run("agv", [*TWO[total], *TWO[7], 2], 2)
    assert [r.weather for r in reports] == [milder, milder]
    # 2D6 = 3 against 1D6 = 4: harsher (snow then throws 2D6 = 5 for its length).
    extra = list(TWO[5]) if pattern == "snow" else []
    turns = 5 if pattern == "snow" else 4
    reports = run("agv", [*TWO[total], 1, 2, 4, *extra], turns)
    assert {r.weather for r in reports} == {harsher}


@pytest.mark.parametrize("pattern, milder, harsher", SPELL_ROWS)
def test_mininap_spell_chart_throws_one_die_first(pattern: str, milder: str, harsher: str) -> None:
    total = next(t for t, p in PATTERN_ROWS if p == pattern)
    # 4 AM start keeps fog from being cleared by noon; 1D6 = 2 then 2D6 = 7.
    (first,) = run("mininap", [*TWO[2], *TWO[total], 2, *TWO[7]], 1)
    assert first.weather == milder
    extra = list(TWO[5]) if pattern == "snow" else []
    (first,) = run("mininap", [*TWO[2], *TWO[total], 4, 1, 2, *extra], 1)
    assert first.weather == harsher


def test_agv_spell_tie_goes_to_the_harsher_weather() -> None:
    # "If the 2D6 is greater than the 1D6": 2D6 = 4 against 1D6 = 4 is not greater.
    (first,) = run("agv", [*TWO[3], 1, 3, 4], 1)
    assert first.weather == "rain"


# ---------------------------------------------------------------------------- effects

def test_agv_visibility_in_inches_converted_exactly() -> None:
    showers = run("agv", [*TWO[4], 1, 2, 3], 1)[0]        # 1D6 = 3: 18 in
    assert showers.visibility_cm == pytest.approx(3 * 6 * 2.54)
    rain = run("agv", [*TWO[3], 1, 2, 5], 1)[0]           # 1D6 = 5: 15 in
    assert rain.visibility_cm == pytest.approx(5 * 3 * 2.54)
    # AGV is an inches game: its texts say 18 in, not 45.72 cm (issue #14 item 13)
    assert any("beyond 18 in (AGV Showers)" in e for e in showers.fire_effects)


@pytest.mark.parametrize("value, unit, text", [(12.0, "in", "12 in"), (6 / 2.54, "in", "2.4 in"),
                                               (48.0521, "cm", "48.1 cm"), (0.04, "cm", "0 cm"),
                                               (-0.04, "cm", "0 cm"), (300.0, "cm", "300 cm")])
def test_lengths_read_as_on_a_ruler(value: float, unit: str, text: str) -> None:
    from hexwx.units import ruler
    assert ruler(value, unit) == text


def test_counts_have_their_plural() -> None:
    from hexwx.units import count
    assert (count(1, "base"), count(3, "base"), count(0, "base")) == ("1 base", "3 bases", "0 bases")


def test_cli_agv_weather_in_inches(capsys) -> None:
    # seed 24: mist on turn 1 with 1D6 = 2 -> 2 x 6 in = 12 in (seed 000 Mist)
    from hexwx.cli import main
    assert main(["minis", "weather", "--rules", "agv", "--turns", "1", "--seed", "24"]) == 0
    out = capsys.readouterr().out
    assert "visibility 12 in" in out and "beyond 12 in (AGV Mist)" in out and "cm" not in out


# Visibility per pip of the spell's 1D6: (pattern total, 2D6 faces, 1D6, weather, per pip).
SIGHT_ROWS = [(4, (1, 2), 3, "showers", 6), (3, (1, 2), 5, "rain", 3), (3, (3, 4), 5, "showers", 6),
              (10, (1, 2), 4, "fog", 3), (10, (3, 4), 4, "mist", 6), (2, (3, 4), 2, "mist", 6),
              (4, (3, 4), 2, "clear", None)]


@pytest.mark.parametrize("total, two, pip, weather, per_pip", SIGHT_ROWS)
def test_visibility_chart_agv_inches_and_mininap_cm(total: int, two: tuple[int, int], pip: int,
                                                    weather: str, per_pip: int | None) -> None:
    (a,) = run("agv", [*TWO[total], *two, pip], 1)
    (m,) = run("mininap", [*TWO[5], *TWO[total], pip, *two], 1)
    assert a.weather == m.weather == weather
    if per_pip is None:
        assert a.visibility_cm is None and m.visibility_cm is None
    else:
        assert a.visibility_cm == pytest.approx(pip * per_pip * 2.54)
        assert m.visibility_cm == pytest.approx(pip * per_pip)


def test_mininap_hot_weather_and_strong_winds() -> None:
    hot = run("mininap", [*TWO[5], *TWO[12]], 3)
    assert {r.movement_multiplier for r in hot} == {0.5} and "break through" in hot[0].notes[0]
    winds = run("mininap", [*TWO[5], *TWO[11], 2, 1, 1], 2)     # 1D6 = 2 vs 2D6 = 2: stay
    assert [r.weather for r in winds] == ["strong winds"] * 2
    assert any("long range" in e for e in winds[1].fire_effects)


def test_agv_showers_half_dice_and_rain_no_fire_half_move() -> None:
    showers = run("agv", [*TWO[4], 1, 2, 3], 1)[0]
    assert any("half dice" in e for e in showers.fire_effects)
    assert showers.movement_multiplier == 1.0
    rain = run("agv", [*TWO[3], 1, 2, 5], 1)[0]
    assert any("no musket or artillery fire" in e for e in rain.fire_effects)
    assert rain.movement_multiplier == 0.5


def test_agv_hot_weather_half_move_all_game_and_clear_has_no_effect() -> None:
    hot = run("agv", list(TWO[12]), 5)
    assert {r.weather for r in hot} == {"hot weather"}
    assert {r.movement_multiplier for r in hot} == {0.5}
    assert all("not halve it again" in r.notes[0] for r in hot)
    clear = run("agv", list(TWO[7]), 3)
    assert all(r.visibility_cm is None and r.fire_effects == () and r.movement_multiplier == 1.0
               for r in clear)


def test_movement_is_never_below_half_in_agv_and_mininap() -> None:
    for rules in ("agv", "mininap"):
        for seed in range(40):
            for r in run_minis_weather(rules, 12, dice=Dice(seed=seed)):
                assert r.movement_multiplier >= 0.5


def test_agv_strong_winds_blow_on_turn_one_then_abate_for_good() -> None:
    # Turn 1: no throw.  Turn 2: 2D6 = 7 > 1D6 = 3: clear for the rest of the game.
    reports = run("agv", [*TWO[11], *TWO[7], 3], 5)
    assert [r.weather for r in reports] == ["strong winds"] + ["clear"] * 4
    assert len(reports[0].rolls) == 1 and len(reports[1].rolls) == 2
    assert any("long range" in e for e in reports[0].fire_effects)


def test_agv_strong_winds_stay_for_the_1d6() -> None:
    # Turn 2: 2D6 = 3 against 1D6 = 4: winds for 4 more turns, then a new throw (clear).
    reports = run("agv", [*TWO[11], 1, 2, 4, *TWO[9], 1], 7)
    assert [r.weather for r in reports] == ["strong winds"] * 5 + ["clear"] * 2


def test_agv_snow_lasts_2d6_turns_and_ground_stays_rough() -> None:
    # Snow pattern; 2D6 = 3 vs 1D6 = 5: snow for a further 2D6 = 4 turns; then 2D6 = 8 vs 1:
    # mist for 1 turn; then 2D6 = 9 > 2: mist for 2.
    faces = [*TWO[2], 1, 2, 5, *TWO[4], *TWO[8], 1, *TWO[9], 2]
    reports = run("agv", faces, 7)
    assert [r.weather for r in reports] == ["snow"] * 4 + ["mist"] * 3
    assert [r.ground for r in reports] == ["rough"] * 7
    assert reports[0].visibility_cm == pytest.approx(5 * 3 * 2.54)
    assert reports[4].visibility_cm == pytest.approx(1 * 6 * 2.54)


def test_agv_fog_clears_for_good_after_doubles_on_two_consecutive_turns() -> None:
    # Seed 000 Fog and Mist: doubles on the 2D6 "for two consecutive Turns" clear it for good.
    # Turn 1: 2+2 (double) vs 1D6 = 1 -> 4 > 1, mist for 1 turn; turn 2 throws 3+3 -> clear.
    faces = [*TWO[10], 2, 2, 1, 3, 3, 4]
    reports = run("agv", faces, 4)
    assert [r.weather for r in reports] == ["mist", "clear", "clear", "clear"]
    assert reports[1].pattern == "clear"


def test_agv_fog_doubles_two_turns_apart_do_not_clear() -> None:
    # The docs' example (`minis weather --rules agv --turns 6 --seed 24`): doubles on the throws
    # of turns 3 and 5 (the turn-3 spell ran 2 turns, so turn 4 threw nothing): two throws
    # running, but not two consecutive Turns -> turn 5 is mist, 1D6 = 1 -> 6 in.
    faces = [*TWO[10], 5, 2, 2, 2, 2, 2, 6, 6, 1]
    reports = run("agv", faces, 5)
    assert [r.weather for r in reports] == ["mist"] * 5
    assert reports[4].pattern == "fog and mist"
    assert reports[4].visibility_cm == pytest.approx(6 * 2.54)


def test_agv_seed_24_turn_5_is_mist() -> None:
    reports = run_minis_weather("agv", 6, dice=Dice(seed=24))
    doubled = [r.turn for r in reports for x in r.rolls
               if x.purpose == "AGV fog and mist (2D6)" and x.is_double]
    assert doubled == [3, 5]
    assert reports[4].weather == "mist"


def test_agv_doubles_must_be_on_consecutive_throws() -> None:
    # double, then not, then double: still fog/mist.
    faces = [*TWO[10], 2, 2, 5, 1, 2, 1, 3, 3, 1]
    reports = run("agv", faces, 7)
    assert [r.weather for r in reports] == ["fog"] * 5 + ["mist", "mist"]
    assert reports[-1].pattern == "fog and mist"


def test_agv_fog_exact_odds_of_clearing_by_turn_3() -> None:
    # From the Fog and Mist pattern, clear on turn 3 needs doubles on the throws of turns 1 and
    # 2 (A: the turn-1 1D6 = 1 so turn 2 throws: 1/6 * 1/6 * 1/6), or on turns 2 and 3
    # (B: 1D6 = 1 on turns 1 and 2, doubles on 2 and 3: 1/6^4); both: 1/6^5.
    # 1/216 + 1/1296 - 1/7776 = 41/7776.  (Throws running would add doubles on turns 1 and 3
    # with a 2-turn spell between: 1/216 more.)
    states = {spells.begin("fog and mist"): F(1)}
    clear = []
    for turn in (1, 2, 3):
        nxt: dict[spells.SpellState, Fraction] = {}
        weather: dict[str, Fraction] = {}
        for st, p in states.items():
            for (new, w, _), q in agv.exact_step(st, turn).items():
                nxt[new] = nxt.get(new, F(0)) + p * q
                weather[w] = weather.get(w, F(0)) + p * q
        states = nxt
        clear.append(weather.get("clear", F(0)))
    assert clear == [F(0), F(1, 216), F(41, 7776)]


def test_agv_snow_clears_after_two_doubles_but_ground_stays_rough() -> None:
    # Seed 000 Snow: doubles "for two consecutive throws": turn 1 throws 1+1 vs 3 (snow for a
    # further 2D6 = 3 turns), the next throw is on turn 4, 2+2: clear, three turns apart.
    faces = [*TWO[2], 1, 1, 3, *TWO[3], 2, 2, 1]
    reports = run("agv", faces, 6)
    assert [r.weather for r in reports] == ["snow"] * 3 + ["clear"] * 3
    assert {r.ground for r in reports} == {"rough"}


def test_agv_optional_rethrow() -> None:
    # Snow is thrown, then the agreed re-throw gives clear.
    reports = run("agv", [*TWO[2], *TWO[7]], 2, rethrow=True)
    assert reports[0].pattern == "clear"
    assert len(reports[0].rolls) == 2
    # Without the option the first throw stands (snow throws its spell at once).
    reports = run("agv", [*TWO[2], *TWO[7], 1], 1)
    assert reports[0].pattern == "snow" and reports[0].weather == "mist"
    # A pattern nobody dislikes is kept.
    reports = run("agv", [*TWO[12]], 1, rethrow=True, dislike=["snow"])
    assert reports[0].pattern == "hot weather"


def test_rolls_are_attached_to_their_turns() -> None:
    dice = Dice(seed=11)
    reports = run_minis_weather("agv", 12, dice=dice)
    assert sum(len(r.rolls) for r in reports) == len(dice.log)
    assert reports[0].rolls[0].purpose == "AGV weather (2D6)"


# ---------------------------------------------------------------------------- Mini-Nap 2

def test_mininap_single_double_clears_fog() -> None:
    # 8 AM, fog pattern; 1D6 = 5, 2D6 = 2+2: a double -> clear at once.
    reports = run("mininap", [*TWO[5], *TWO[10], 5, 2, 2], 3)
    assert [r.weather for r in reports] == ["clear"] * 3


def test_mininap_fog_clears_at_noon_without_dice() -> None:
    # 10 AM, fog pattern; 1D6 = 6 vs 2D6 = 3: fog for 6 turns, but turn 5 is 12 noon.
    reports = run("mininap", [*TWO[7], *TWO[10], 6, 1, 2], 7)
    assert [r.time_of_day for r in reports][4] == "12:00 PM"
    assert [r.weather for r in reports] == ["fog"] * 4 + ["clear"] * 3
    assert reports[0].visibility_cm == 18.0          # 1D6 6 x 3 cm
    assert reports[4].rolls == ()


def test_mininap_fog_at_a_noon_start_is_clear_from_turn_one() -> None:
    reports = run("mininap", [*TWO[9], *TWO[10]], 2)
    assert [r.weather for r in reports] == ["clear", "clear"]


def test_mininap_dusk_ends_the_battle_at_zero_visibility() -> None:
    reports = run("mininap", [*TWO[12], *TWO[7]], 12)
    assert [r.visibility_cm for r in reports] == [300, 250, 200, 150, 100, 50, 0]
    assert [r.battle_ends for r in reports] == [False] * 6 + [True]
    assert reports[-1].time_of_day == "7:00 PM"


def test_mininap_dusk_only_for_a_four_pm_start() -> None:
    # Reading (docs/minis-weather.md): the chart attaches the Dusk rule to the 4 PM start
    # ("On a 12 = 4 PM: Dusk rule applies").  A 2 PM start (2D6 = 11) never gets dusk: 20
    # clear turns, unlimited visibility, no end of battle.
    reports = run("mininap", [*TWO[11], *TWO[7]], 20)
    assert len(reports) == 20 and not any(r.battle_ends for r in reports)
    assert {r.visibility_cm for r in reports} == {None}
    # A 4 PM start (2D6 = 12): 300, 250, ... 0 cm on turn 7 (7 PM), when the battle ceases.
    reports = run("mininap", [*TWO[12], *TWO[7]], 20)
    assert [r.visibility_cm for r in reports] == [300, 250, 200, 150, 100, 50, 0]
    assert reports[-1].battle_ends and reports[-1].time_of_day == "7:00 PM"


def test_mininap_dawn_visibility_and_smaller_of_two() -> None:
    reports = run("mininap", [*TWO[2], *TWO[7]], 4)
    assert [r.visibility_cm for r in reports] == [10, 60, 110, 160]
    assert "Dawn" in reports[0].fire_effects[0]
    # Fog 3 x 3 = 9 cm for 3 turns under dawn 10, 60, 110 cm; then mist 4 x 6 = 24 vs 160 cm.
    reports = run("mininap", [*TWO[2], *TWO[10], 3, 1, 2, 4, *TWO[9]], 4)
    assert [r.visibility_cm for r in reports] == [9, 9, 9, 24]
    assert "Fog" in reports[0].fire_effects[-1]
    # Mist 4 x 6 = 24 cm, but dawn allows only 10 cm on turn 1.
    (first,) = run("mininap", [*TWO[2], *TWO[10], 4, *TWO[9]], 1)
    assert first.weather == "mist" and first.visibility_cm == 10


def test_mininap_showers_pattern_has_no_mud() -> None:
    # Showers pattern (2D6 = 4) at 8 AM: 1D6 = 1 vs 2D6 = 7 is clear, 1D6 = 5 vs 2D6 = 3 is
    # showers.  Seed 001 gives the Showers pattern no mud ("during rain and showers" is printed
    # under Rain, where the weather alternates between rain and showers).
    reports = run("mininap", [*TWO[5], *TWO[4], 5, *TWO[3]], 3)
    assert [r.weather for r in reports] == ["showers"] * 3
    assert {r.ground for r in reports} == {"normal"}
    # exactly: no spell throw of the Showers pattern, from any state, leaves mud
    for st in (spells.begin("showers"), spells.SpellState("showers", "", doubles=0)):
        assert all(o.ground == "normal" for o in spells.throw_outcomes(mininap.FAMILY, st))


def test_mininap_exact_mud_on_turn_one() -> None:
    # Turn 1 is mud when the pattern is Rain (2D6 = 3: 2/36; both its spells are mud) or Snow
    # (2D6 = 2: 1/36) and the snow spell comes up: no double on the 2D6 (one double clears snow
    # for good) and 2D6 <= 1D6.  Ordered non-double pairs with sum <= d for d = 1..6: 0, 0, 2, 4,
    # 8, 12 -> 26 of 216.  P = 2/36 + 1/36 * 26/216 = 229/3888.  Showers (3/36) add nothing.
    p = F(0)
    for pattern, q in mininap.initial_table().items():
        outs = spells.throw_outcomes(mininap.FAMILY, spells.begin(pattern)) \
            if pattern in mininap.FAMILY.spells else {spells.begin(pattern): F(1)}
        p += q * sum((r for o, r in outs.items() if o.ground == "mud"), F(0))
    assert p == F(229, 3888)
    # Showers with mud on turn 1: only the Rain pattern's milder spell, 2/36 * 181/216
    rain = spells.throw_outcomes(mininap.FAMILY, spells.begin("rain"))
    assert sum((r for o, r in rain.items() if o.weather == "showers" and o.ground == "mud"),
               F(0)) == F(181, 216)


def test_mininap_rain_and_showers_turn_ground_to_mud_for_good() -> None:
    # Rain pattern at 8 AM: 1D6 = 1 vs 2D6 = 7: showers for 1 turn; then 1D6 = 2 vs 8.
    reports = run("mininap", [*TWO[5], *TWO[3], 1, *TWO[7], 2, *TWO[8]], 3)
    assert [r.weather for r in reports] == ["showers", "showers", "showers"]
    assert {r.ground for r in reports} == {"mud"}
    assert reports[0].visibility_cm == 6.0           # cm, not inches
    # Rain itself: no fire, but movement is not halved in Mini-Nap 2.
    (rain,) = run("mininap", [*TWO[5], *TWO[3], 4, *TWO[3]], 1)
    assert rain.weather == "rain" and rain.movement_multiplier == 1.0 and rain.ground == "mud"


# ---------------------------------------------------------------------------- Wesencraft

def test_wesencraft_shift_die() -> None:
    # Gauge 7, then dice 1, 2, 3, 4, 5, 6: 6, 5, 5, 5(heat), 6, 7.
    reports = run("wesencraft", [*TWO[7], 1, 2, 3, 4, 5, 6], 7)
    gauges = [int(r.notes[0].rsplit(" ", 1)[1]) for r in reports]
    assert gauges == [7, 6, 5, 5, 5, 6, 7]


def test_wesencraft_extreme_heat_on_the_third_turn_until_it_moves() -> None:
    reports = run("wesencraft", [*TWO[6], 3, 4, 3, 5], 5)
    assert [r.weather for r in reports] == ["fair", "fair", "extreme heat", "extreme heat", "fair"]
    assert [r.movement_multiplier for r in reports] == [1.0, 1.0, 0.75, 0.75, 1.0]


def test_wesencraft_clamps_at_2_and_12_and_heat_only_on_fair() -> None:
    low = run("wesencraft", [*TWO[2], 1, 2, 1], 4)
    assert [r.weather for r in low] == ["fog"] * 4
    assert {r.visibility_cm for r in low} == {6.0} and {r.movement_multiplier for r in low} == {0.5}
    high = run("wesencraft", [*TWO[12], 6, 5, 6], 4)
    assert [r.weather for r in high] == ["heavy rain"] * 4
    assert high[0].movement_multiplier == 0.75
    assert dict(high[0].modifiers) == {"musket and carbine fire per die": -2}


# ---------------------------------------------------------------------------- Huzzah!

def test_huzzah_scheduled_changes_and_modifiers() -> None:
    reports = run("huzzah", [], 6, weather="dense fog", ground="mud",
                  changes={4: {"weather": "clear"}, 6: {"ground": "normal"}})
    assert [r.weather for r in reports] == ["dense fog"] * 3 + ["clear"] * 3
    assert [r.ground for r in reports] == ["soft"] * 5 + ["normal"]
    assert dict(reports[0].modifiers) == {"fire factor": -1, "skirmish factor": -1,
                                          "artillery factor": -2}
    assert dict(reports[3].modifiers) == {"artillery factor": -1}
    assert reports[5].modifiers == () and reports[5].fire_effects == ()


@pytest.mark.parametrize("weather, ground, artillery", [("heavy rain", "hard", 0),
                                                        ("clear", "hard", 1),
                                                        ("heavy snow", "heavy snow", -2),
                                                        ("clear", "normal", 0)])
def test_huzzah_artillery_factor(weather: str, ground: str, artillery: int) -> None:
    (first,) = run("huzzah", [], 1, weather=weather, ground=ground)
    assert dict(first.modifiers).get("artillery factor", 0) == artillery
    assert first.rolls == ()


# ---------------------------------------------------------------------------- exact odds

def test_agv_exact_initial_odds() -> None:
    odds = initial_probabilities("agv")
    assert odds["clear"] == F(24, 36)
    assert odds == {"snow": F(1, 36), "rain": F(2, 36), "showers": F(3, 36), "clear": F(24, 36),
                    "fog and mist": F(3, 36), "strong winds": F(2, 36), "hot weather": F(1, 36)}


def test_agv_exact_initial_odds_with_rethrow() -> None:
    odds = initial_probabilities("agv", rethrow=True)
    assert odds["clear"] == F(24, 36) + F(12, 36) * F(24, 36)        # 8/9
    assert odds["snow"] == F(12, 36) * F(1, 36)
    odds = initial_probabilities("mininap", rethrow=True, dislike=["snow", "rain"])
    assert odds["clear"] == F(24, 36) + F(3, 36) * F(24, 36)
    assert odds["snow"] == F(3, 36) * F(1, 36)
    assert sum(odds.values()) == 1


def test_mininap_time_odds() -> None:
    assert mininap.time_table() == {"4 AM": F(1, 36), "6 AM": F(5, 36), "8 AM": F(9, 36),
                                    "10 AM": F(11, 36), "12 noon": F(7, 36), "2 PM": F(2, 36),
                                    "4 PM": F(1, 36)}


def test_agv_exact_first_turn_weather() -> None:
    first = exact_distribution("agv", 1)[0]
    assert first["showers"] == F(2, 36) * MILDER + F(3, 36) * (1 - MILDER)
    assert first["clear"] == F(24, 36) + F(3, 36) * MILDER
    assert first["strong winds"] == F(2, 36)
    assert first["snow"] == F(1, 36) * (1 - MILDER)
    assert sum(first.values()) == 1


def test_mininap_exact_first_turn_clear() -> None:
    first = exact_distribution("mininap", 1)[0]
    fog_cleared = F(7 + 2 + 1, 36) + F(1 + 5 + 9 + 11, 36) * F(1, 6)   # noon or later, or a double
    expected = F(24, 36) + F(3, 36) * MILDER + F(3, 36) * fog_cleared + F(1, 36) * F(1, 6)
    assert first["clear"] == expected


def test_wesencraft_exact_heat_and_gauge_odds() -> None:
    dist = exact_distribution("wesencraft", 3)
    assert dist[0] == {"fog": F(1, 36), "light rain": F(4, 36), "fair": F(30, 36),
                       "heavy rain": F(1, 36)}
    assert dist[2]["extreme heat"] == F(30, 36) * F(1, 3) ** 2
    assert initial_probabilities("wesencraft")["fair"] == F(30, 36)


def test_mininap_exact_end_of_battle() -> None:
    # Only a 4 PM start (2D6 = 12: 1/36) ends, on turn 7; the battle is over from turn 8
    # (index 7) on, and nothing else ever ends.
    dist = exact12("mininap")
    assert ENDED not in dist[6]
    assert dist[7][ENDED] == dist[11][ENDED] == F(1, 36)


@pytest.mark.parametrize("module, state", [
    (agv, spells.SpellState("snow", "", doubles=1, ground="rough")),
    (agv, spells.SpellState("strong winds", "")),
    (agv, spells.SpellState("fog and mist", "fog", left=3, pip=2)),
    (mininap, mininap.MiniNapState(spells.SpellState("fog and mist", ""), 600, 690)),
    (mininap, mininap.MiniNapState(spells.SpellState("rain", ""), 840, 1110)),
])
def test_fast_exact_step_equals_enumerating_step(module: object, state: object) -> None:
    def summary(dice: Dice) -> tuple[object, str, bool]:
        new, rep = module.step(state, 3, dice)  # type: ignore[attr-defined]
        return new, rep.weather, rep.battle_ends
    assert module.exact_step(state, 3) == outcomes(summary)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- Monte Carlo

GAMES = 4000


def _within(freq: dict[str, float], exact: dict[str, Fraction], games: int) -> list[str]:
    """Categories whose frequency is more than 5 standard errors off (plus unexpected ones)."""
    bad = [k for k in freq if k not in exact]
    for k, p in exact.items():
        sigma = math.sqrt(float(p * (1 - p)) / games)
        if abs(freq.get(k, 0.0) - float(p)) > 5 * sigma + 1e-12:
            bad.append(k)
    return bad


@pytest.mark.parametrize("rules, options", [("agv", {}), ("agv", {"rethrow": True}),
                                            ("mininap", {}), ("wesencraft", {}),
                                            ("huzzah", {"weather": "heavy rain",
                                                        "changes": {3: {"weather": "clear"}}})])
def test_monte_carlo_agrees_with_exact_odds(rules: str, options: dict) -> None:
    exact = exact12(rules) if not options else exact_distribution(rules, 12, **options)
    mc = frequencies(rules, GAMES, 12, seed=2024, **options)
    for turn, (freq, odds) in enumerate(zip(mc, exact), start=1):
        assert _within(freq, odds, GAMES) == [], f"turn {turn}"


def test_monte_carlo_would_notice_a_different_model() -> None:
    exact = exact_distribution("agv", 12, rethrow=True)
    mc = frequencies("agv", GAMES, 12, seed=2024)
    assert _within(mc[0], exact[0], GAMES) != []


def test_single_game_model_agrees_with_exact_odds() -> None:
    games = 1500
    exact = exact_distribution("mininap", 6)
    counts: list[dict[str, int]] = [{} for _ in range(6)]
    for seed in range(games):
        reports = run_minis_weather("mininap", 6, dice=Dice(seed=seed))
        for i in range(6):
            w = reports[i].weather if i < len(reports) else ENDED
            counts[i][w] = counts[i].get(w, 0) + 1
    for i in (0, 5):
        freq = {k: v / games for k, v in counts[i].items()}
        assert _within(freq, exact[i], games) == []


def test_simulate_returns_weather_names() -> None:
    names = simulate("wesencraft", 50, 4, seed=1)
    assert names.shape == (50, 4)
    assert set(names.ravel()) <= set(wesencraft.WEATHERS)


# ---------------------------------------------------------------------------- bad input

def test_unknown_rules_lists_the_choices() -> None:
    with pytest.raises(UsageError, match=r"'napoleon'.*agv, mininap, wesencraft, huzzah"):
        run_minis_weather("napoleon", 3, dice=Dice(seed=1))


@pytest.mark.parametrize("turns", [0, -2, 1.5, "3", True])
def test_bad_turns(turns: object) -> None:
    with pytest.raises(UsageError, match="number of turns"):
        run_minis_weather("agv", turns, dice=Dice(seed=1))  # type: ignore[arg-type]


@pytest.mark.parametrize("rules, options, message", [
    ("agv", {"rethrw": True}, "unknown option 'rethrw' for agv weather: expected rethrow, dislike"),
    ("wesencraft", {"rethrow": True}, "expected no options"),
    ("agv", {"rethrow": "yes"}, "rethrow must be true or false"),
    ("agv", {"rethrow": True, "dislike": ["drizzle"]}, "unknown weather 'drizzle' to dislike"),
    ("huzzah", {"weather": "fog"}, "unknown huzzah weather 'fog': expected one of clear"),
    ("huzzah", {"ground": "boggy"}, "unknown huzzah ground 'boggy'"),
    ("huzzah", {"changes": {0: {"weather": "clear"}}}, "change turn must be a whole number"),
    ("huzzah", {"changes": {2: {"wind": "high"}}}, "unknown huzzah change 'wind' on turn 2"),
])
def test_bad_options(rules: str, options: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        run_minis_weather(rules, 2, dice=Dice(seed=1), **options)


def test_bad_number_of_games() -> None:
    with pytest.raises(UsageError, match="number of games"):
        frequencies("agv", 0, 3)


def test_scripted_dice_running_out_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="ran out"):
        run("agv", [*TWO[4]], 1)


def test_the_old_minis_runner_name_still_works_with_a_warning() -> None:
    import hexwx.weather.minis as minis
    with pytest.warns(DeprecationWarning, match="run_minis_weather"):
        old = minis.run_weather
    assert old is minis.run_minis_weather
    assert old("agv", 3, dice=Dice(seed=5)) == minis.run_minis_weather("agv", 3, dice=Dice(seed=5))
