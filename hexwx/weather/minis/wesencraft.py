"""The Wesencraft weather gauge (seed 003, after Charlie Wesencraft's With Pike and Musket).

At the start of the game 2D6 set the gauge (2–12); at the start of each later turn one die
moves it down a notch (1–2), leaves it (3–4) or moves it up (5–6), never past 2 or 12.

Readings (RULES-NOTES "Weather gauge"): the seed's list lacks the "2" line and its effects
list has fog, so 2 = fog; extreme heat comes when the gauge stays on the same fair number for
a third turn running (the turn it arrived counts as the first) and lasts until it moves.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from hexwx.dice import Dice
from hexwx.weather.minis.common import FireRule, TurnReport, chart_entry, chart_odds, lookup_2d6, throw_2d6

OPTIONS: tuple[str, ...] = ()

#: Seed 003 weather gauge (2 = fog by the RULES-NOTES reading).
GAUGE: dict[tuple[int, int], str] = {
    (2, 2): "fog",
    (3, 3): "light rain",
    (4, 10): "fair",
    (11, 11): "light rain",
    (12, 12): "heavy rain",
}
LOWEST, HIGHEST = 2, 12

#: Seed 003: the die at the start of each later turn -> notches the gauge moves.
SHIFT: dict[int, int] = {1: -1, 2: -1, 3: 0, 4: 0, 5: +1, 6: +1}

HEAT_AFTER = 3             # seed 003: the same fair number for a third turn

#: Seed 003 "Weather affects units as follows": weather -> (visibility cm, movement, fire).
EFFECTS: dict[str, tuple[float | None, float, tuple[str, ...]]] = {
    "fog":          (6.0, 0.5, ("unseen foes cannot be fired at; visibility 6 cm (Wesencraft Fog)",)),
    "light rain":   (None, 1.0, ("musket and carbine fire -1 per die (Wesencraft Light rain)",)),
    "fair":         (None, 1.0, ()),
    "heavy rain":   (None, 0.75, ("musket and carbine fire -2 per die (Wesencraft Heavy rain)",)),
    "extreme heat": (None, 0.75, ()),
}

#: Seed 003, the same effects as numbers for the tabletop: weather -> modifiers.
MODIFIERS: dict[str, tuple[tuple[str, int], ...]] = {
    "light rain": (("musket and carbine fire per die", -1),),
    "heavy rain": (("musket and carbine fire per die", -2),),
}

_SMALL_ARMS = ("infantry", "cavalry")     # "musket and carbine firing"

#: Seed 003, the effects on fire as data for the tabletop fire answer (fog limits sight
#: instead: unseen foes cannot be fired at).
FIRE_RULES: dict[str, tuple[FireRule, ...]] = {
    "light rain": (FireRule("per die", _SMALL_ARMS, "on each die of musket and carbine fire",
                            "Wesencraft Light rain", -1),),
    "heavy rain": (FireRule("per die", _SMALL_ARMS, "on each die of musket and carbine fire",
                            "Wesencraft Heavy rain", -2),),
}


def fire_rules(weather: str, ground: str = "normal") -> tuple[FireRule, ...]:
    """The weather's effects on fire (:data:`FIRE_RULES`)."""
    return FIRE_RULES.get(weather, ())


_MOVE_NOTES: dict[str, str] = {
    "fog": "movement reduced by 50 percent (Wesencraft Fog)",
    "heavy rain": "movement reduced by 25 percent (Wesencraft Heavy rain)",
    "extreme heat": "movement reduced by 25 percent until the gauge moves (Wesencraft Fair)",
}

WEATHERS: tuple[str, ...] = tuple(EFFECTS)


@dataclass(frozen=True)
class GaugeState:
    """The gauge reading and for how many turns running it has shown it (0 before turn 1,
    counted up to :data:`HEAT_AFTER`)."""

    gauge: int
    turns_here: int = 0


def weather_of(gauge: int, turns_here: int) -> str:
    """The weather for a gauge reading held for ``turns_here`` turns (extreme heat rule)."""
    weather = chart_entry(GAUGE, gauge)
    if weather == "fair" and turns_here >= HEAT_AFTER:
        return "extreme heat"
    return weather


def start(dice: Dice) -> GaugeState:
    """Set the gauge with 2D6 at the start of the game."""
    return GaugeState(dice.DR("Wesencraft weather gauge (2D6)").total)


def step(state: GaugeState, turn: int, dice: Dice) -> tuple[GaugeState, TurnReport]:
    """One turn: after the first, a die moves the gauge; then this turn's report."""
    if state.turns_here == 0:
        now = GaugeState(state.gauge, 1)
    else:
        shift = SHIFT[dice.dr(f"Wesencraft gauge at {state.gauge}: move (1D6)")]
        gauge = min(HIGHEST, max(LOWEST, state.gauge + shift))
        held = min(state.turns_here + 1, HEAT_AFTER)    # counting past 3 changes nothing
        now = GaugeState(gauge, held if gauge == state.gauge else 1)
    return now, report(now, turn)


def report(state: GaugeState, turn: int) -> TurnReport:
    """The :class:`TurnReport` of a gauge reading (rolls are filled in by the runner)."""
    weather = weather_of(state.gauge, state.turns_here)
    sight, movement, fire = EFFECTS[weather]
    notes: tuple[str, ...] = (f"weather gauge at {state.gauge}",)
    if weather in _MOVE_NOTES:
        notes += (_MOVE_NOTES[weather],)
    return TurnReport(turn=turn, weather=weather, visibility_cm=sight,
                      movement_multiplier=movement, fire_effects=fire, ground="normal",
                      battle_ends=False, time_of_day=None, rolls=(), rules="wesencraft",
                      notes=notes, modifiers=MODIFIERS.get(weather, ()))


def initial_table() -> dict[str, Fraction]:
    """Exact odds of the weather on turn 1 (fair 30/36 — the same as the gauge's chart)."""
    return chart_odds(GAUGE)


def simulate(games: int, turns: int, rng: np.random.Generator) -> np.ndarray:
    """Weather codes (index into :data:`WEATHERS`) of ``games`` games, vectorised."""
    names = lookup_2d6(GAUGE, WEATHERS)
    shift = np.array([0] + [SHIFT[f] for f in range(1, 7)], dtype=np.int16)
    gauge, _ = throw_2d6(rng, games)
    here = np.ones(games, dtype=np.int16)
    out = np.empty((games, turns), dtype=np.int16)
    heat, fair = WEATHERS.index("extreme heat"), WEATHERS.index("fair")
    for t in range(turns):
        if t:
            moved = np.clip(gauge + shift[rng.integers(1, 7, games)], LOWEST, HIGHEST)
            here = np.where(moved == gauge, here + 1, 1)
            gauge = moved
        code = names[gauge]
        out[:, t] = np.where((code == fair) & (here >= HEAT_AFTER), heat, code)
    return out
