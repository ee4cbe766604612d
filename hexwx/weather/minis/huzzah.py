"""Huzzah! Glorious Empires: foul weather and ground conditions (seed 002).

The seed defines these only by scenario: no dice are thrown.  Foul weather is dense fog, heavy
snow or heavy rain; ground is normal, soft (mud or heavy snow) or hard (sun-baked earth); a
scenario may change either from a given turn (e.g. the fog lifts on turn 4).  Effects (seed 002
Skirmisher superiority, Artillery effectiveness, Firing): foul weather −1 to the skirmish,
artillery and fire factors; soft ground −1 and hard ground +1 to the artillery factor.  The seed
gives foul weather no effect on visibility or movement, so neither is reported.

Reading (ours): a change "on turn N" is in force from the start of turn N.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from hexwx.dice import Dice
from hexwx.errors import UsageError
from hexwx.validate import is_whole
from hexwx.weather.minis.common import FireRule, TurnReport

OPTIONS = ("weather", "ground", "changes")
STEP_USES_TURN = True

#: Seed 002 "Ground conditions/foul weather": weather -> is it foul weather.
WEATHER_KINDS: dict[str, bool] = {
    "clear": False,
    "dense fog": True,
    "heavy snow": True,
    "heavy rain": True,
}

#: Seed 002: the words a scenario may use for the ground -> the condition.
GROUND_KINDS: dict[str, str] = {
    "normal": "normal",
    "soft": "soft", "mud": "soft", "heavy snow": "soft",
    "hard": "hard", "sun-baked": "hard",
}

#: Seed 002 modifiers: condition -> ((factor, change), ...).
MODIFIER_CHART: dict[str, tuple[tuple[str, int], ...]] = {
    "foul weather": (("fire factor", -1), ("skirmish factor", -1), ("artillery factor", -1)),
    "soft ground": (("artillery factor", -1),),
    "hard ground": (("artillery factor", +1),),
}

WEATHERS: tuple[str, ...] = tuple(WEATHER_KINDS)

_FIRERS = ("infantry", "artillery")      # cavalry cannot fire (p.11)

#: Seed 002, the same conditions as data for the tabletop fire answer.  The fire factor is the
#: firing throw's (p.12 "-1 if foul weather"); the artillery factor is the artillery
#: effectiveness throw's (p.10), which decides the artillery bonuses of reserve artillery and of
#: infantry with divisional artillery.
FIRE_RULES: dict[str, tuple[FireRule, ...]] = {
    "foul weather": (
        FireRule("fire factor", _FIRERS, "to the fire factor in foul weather",
                 "Huzzah! p.12 Firing", -1),
        FireRule("artillery factor", ("artillery",), "to the artillery factor (artillery "
                 "effectiveness throw) in foul weather", "Huzzah! p.10 Artillery effectiveness", -1),
    ),
    "soft ground": (FireRule("artillery factor", ("artillery",), "to the artillery factor "
                             "on soft ground", "Huzzah! p.10 Artillery effectiveness", -1),),
    "hard ground": (FireRule("artillery factor", ("artillery",), "to the artillery factor "
                             "on hard ground", "Huzzah! p.10 Artillery effectiveness", +1),),
}


def fire_rules(weather: str, ground: str = "normal") -> tuple[FireRule, ...]:
    """The effects on fire of the weather and ground in force (:data:`FIRE_RULES`); names the
    seed does not list (a scenario's "fair") count as neither foul nor soft nor hard."""
    state = Conditions(weather.lower() if weather.lower() in WEATHER_KINDS else "clear",
                       GROUND_KINDS.get(ground.lower(), "normal"))
    return tuple(r for row in conditions(state) for r in FIRE_RULES[row])


@dataclass(frozen=True)
class Conditions:
    """Weather and ground in force, and the scenario's changes as ((turn, key, value), ...)."""

    weather: str
    ground: str
    changes: tuple[tuple[int, str, str], ...] = ()


def check_weather(value: Any) -> str:
    """A Huzzah! weather name, or :class:`UsageError` listing the valid ones."""
    if not isinstance(value, str) or value.lower() not in WEATHER_KINDS:
        raise UsageError(f"unknown huzzah weather {value!r}: expected one of {', '.join(WEATHER_KINDS)}")
    return value.lower()


def check_ground(value: Any) -> str:
    """A Huzzah! ground condition (aliases such as "mud" allowed), or :class:`UsageError`."""
    if not isinstance(value, str) or value.lower() not in GROUND_KINDS:
        raise UsageError(f"unknown huzzah ground {value!r}: expected one of {', '.join(GROUND_KINDS)}")
    return GROUND_KINDS[value.lower()]


def check_changes(changes: Mapping[int, Mapping[str, str]] | None) -> tuple[tuple[int, str, str], ...]:
    """Validate ``{turn: {"weather"|"ground": value}}`` (turn may be a digit string, as TOML
    keys are); sorted (turn, key, value) triples."""
    if changes is None:
        return ()
    if not isinstance(changes, Mapping):
        raise UsageError(f"huzzah changes must map turn -> {{'weather'|'ground': value}}, got {changes!r}")
    out = []
    for turn, change in changes.items():
        if isinstance(turn, str) and turn.strip().isdigit():   # TOML table keys are strings
            turn = int(turn)
        if not is_whole(turn, 1):
            raise UsageError(f"huzzah change turn must be a whole number of at least 1, got {turn!r}")
        if not isinstance(change, Mapping) or not change:
            raise UsageError(f"huzzah change for turn {turn} must map 'weather' or 'ground' to a value, "
                             f"got {change!r}")
        for key, value in change.items():
            if key == "weather":
                out.append((turn, key, check_weather(value)))
            elif key == "ground":
                out.append((turn, key, check_ground(value)))
            else:
                raise UsageError(f"unknown huzzah change {key!r} on turn {turn}: expected weather or ground")
    return tuple(sorted(out))


def start(dice: Dice, *, weather: str = "clear", ground: str = "normal",
          changes: Mapping[int, Mapping[str, str]] | None = None) -> Conditions:
    """The scenario's conditions before turn 1 (no dice are thrown)."""
    return Conditions(check_weather(weather), check_ground(ground), check_changes(changes))


def step(state: Conditions, turn: int, dice: Dice) -> tuple[Conditions, TurnReport]:
    """Apply the changes scheduled for ``turn``, then report."""
    weather, ground = state.weather, state.ground
    for when, key, value in state.changes:
        if when == turn:
            weather, ground = (value, ground) if key == "weather" else (weather, value)
    now = Conditions(weather, ground, state.changes)
    return now, report(now, turn)


def conditions(state: Conditions) -> tuple[str, ...]:
    """The rows of :data:`MODIFIER_CHART` in force."""
    rows = []
    if WEATHER_KINDS[state.weather]:
        rows.append("foul weather")
    if state.ground != "normal":
        rows.append(f"{state.ground} ground")
    return tuple(rows)


def report(state: Conditions, turn: int) -> TurnReport:
    """The :class:`TurnReport` for the conditions in force."""
    fire: list[str] = []
    net: dict[str, int] = {}
    for row in conditions(state):
        for factor, change in MODIFIER_CHART[row]:
            fire.append(f"{change:+d} to the {factor} (Huzzah! {row})")
            net[factor] = net.get(factor, 0) + change
    return TurnReport(turn=turn, weather=state.weather, visibility_cm=None, movement_multiplier=1.0,
                      fire_effects=tuple(fire), ground=state.ground, battle_ends=False,
                      time_of_day=None, rolls=(), rules="huzzah", modifiers=tuple(net.items()))


def initial_table(*, weather: str = "clear", ground: str = "normal",
                  changes: Mapping[int, Mapping[str, str]] | None = None) -> dict[str, Fraction]:
    """The scenario fixes the weather: odds 1 for it."""
    check_changes(changes)
    check_ground(ground)
    return {check_weather(weather): Fraction(1)}


def simulate(games: int, turns: int, rng: np.random.Generator, **options: Any) -> np.ndarray:
    """Weather codes of ``games`` games: the scenario's schedule, the same in every game."""
    state = start(Dice(seed=0), **options)
    row = []
    for turn in range(1, turns + 1):
        state, rep = step(state, turn, Dice(seed=0))
        row.append(WEATHERS.index(rep.weather))
    return np.broadcast_to(np.array(row, dtype=np.int16), (games, turns)).copy()
