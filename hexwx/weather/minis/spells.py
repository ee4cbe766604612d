"""The "spell" weather machine shared by AGV (seed 000) and Mini-Nap 2 Appendix D (seed 001).

Both rule sets throw 2D6 before the game for a *pattern* (snow, rain, showers, clear, fog and
mist, strong winds, hot weather).  Patterns that alternate between two weathers throw 2D6
against a separate 1D6 whenever a spell ends: 2D6 greater than the 1D6 gives the milder
weather, otherwise the harsher; the 1D6 gives the spell's length in turns (snow: a further 2D6)
and the visibility (1D6 × 6 or × 3 inches, or cm).  Doubles on the 2D6 end fog and snow for good
(Mini-Nap 2: one double; AGV: two running -- for Fog and Mist on throws of two consecutive game
turns, for Snow on two consecutive throws, whenever they fall).  The two charts both seeds print are here
(:data:`PATTERN_CHART`, :data:`SPELL_CHART`); what differs lives in the rule-set modules as a
:class:`Family`.

Readings (RULES-NOTES "AGV / Mini-Nap 2"): moves and turns are the same thing; a new spell
throw is made at the start of turn 1 and at the start of the turn after a spell ends.
Reading (ours): under strong winds the wind is blowing on turn 1 (the pre-game throw said so);
the first "does it die down" throw is made at the start of turn 2.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Collection, Mapping

import numpy as np

from hexwx.dice import Dice
from hexwx.errors import UsageError
from hexwx.units import UNIT_CM, ruler_cm
from hexwx.weather.minis.common import chart_entry, chart_odds, lookup_2d6, outcomes, throw_2d6

#: Spell outcome meaning "clear for the rest of the game" (strong winds abating).
FOR_GOOD = "for good"

#: "The Type of Weather": the pre-game 2D6 -> pattern.  Seed 000 (AGV) and seed 001 (Mini-Nap 2)
#: print the same chart.
PATTERN_CHART: Mapping[tuple[int, int], str] = MappingProxyType({
    (2, 2): "snow",
    (3, 3): "rain",
    (4, 4): "showers",
    (5, 9): "clear",
    (10, 10): "fog and mist",
    (11, 11): "strong winds",
    (12, 12): "hot weather",
})

#: "The Effects of the Weather" (seeds 000 and 001, the same chart): pattern -> ((weather,
#: length) if 2D6 > 1D6, (weather, length) otherwise).  Length "1D6" is the spell's 1D6, "2D6"
#: a new throw, :data:`FOR_GOOD` clear for the rest of the game.
SPELL_CHART: Mapping[str, tuple[tuple[str, str], tuple[str, str]]] = MappingProxyType({
    "showers":      (("clear", "1D6"), ("showers", "1D6")),
    "rain":         (("showers", "1D6"), ("rain", "1D6")),
    "fog and mist": (("mist", "1D6"), ("fog", "1D6")),
    "strong winds": (("clear", FOR_GOOD), ("strong winds", "1D6")),
    "snow":         (("mist", "1D6"), ("snow", "2D6")),
})


@dataclass(frozen=True)
class Effect:
    """What one weather does: visibility per pip of the spell's 1D6 (None = unlimited),
    movement factor, fire effects and other notes (each text carries its citation)."""

    sight_per_pip: int | None = None
    movement: float = 1.0
    fire: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Family:
    """The charts and switches of one rule set of the AGV family."""

    name: str                                        # "AGV", "Mini-Nap 2"
    initial: Mapping[tuple[int, int], str]            # pre-game 2D6 chart: (low, high) -> pattern
    spells: Mapping[str, tuple[tuple[str, str], tuple[str, str]]]  # pattern -> (2D6 > 1D6, else)
    effects: Mapping[str, Effect]                     # weather -> effect
    ground_after: Mapping[tuple[str, str], str]       # (pattern, weather) -> ground for the rest of the game
    unit: str                                         # "in" or "cm": unit of the visibility chart
    doubles_to_clear: int                             # doubles running that end fog/snow for good
    clears_on_doubles: frozenset[str]                 # patterns ended by doubles
    doubles_on_turns: frozenset[str]                  # of those: the doubles must fall on
                                                      # consecutive game turns, not just throws
    limit_text: str                                   # what is forbidden beyond visibility
    ground_note: str                                  # note while the ground is changed
    one_die_first: bool                               # Mini-Nap: "throw 1D6 and a separate 2D6"

    def patterns(self) -> tuple[str, ...]:
        """The patterns of the pre-game chart in printed order."""
        return tuple(dict.fromkeys(self.initial.values()))

    def weathers(self) -> tuple[str, ...]:
        """Every weather a turn can report, in a fixed order."""
        return tuple(self.effects)


@dataclass(frozen=True)
class SpellState:
    """Where the spell machine stands between turns.

    ``left`` is the number of turns the current spell still runs (0: throw at the start of the
    next turn, for alternating patterns); ``pip`` the spell's 1D6 (visibility); ``doubles`` the
    number of spell throws running with doubles on the 2D6 (for a pattern of
    :attr:`Family.doubles_on_turns`, throws on game turns running: a turn without a throw
    breaks the run, see :func:`after_turn`).
    """

    pattern: str
    weather: str
    left: int = 0
    pip: int = 0
    doubles: int = 0
    ground: str = "normal"


# ----------------------------------------------------------------------------- pre-game

def check_rethrow(family: Family, rethrow: bool, dislike: Collection[str] | None) -> frozenset[str]:
    """The patterns the players would re-throw (empty without ``rethrow``).

    Reading: "both agree" is modelled as a list of disliked patterns; by default every pattern
    but clear.
    """
    if not isinstance(rethrow, bool):
        raise UsageError(f"rethrow must be true or false, got {rethrow!r}")
    patterns = family.patterns()
    if dislike is None:
        chosen = frozenset(p for p in patterns if p != "clear")
    else:
        if isinstance(dislike, str):
            dislike = [dislike]
        bad = [d for d in dislike if d not in patterns]
        if bad:
            raise UsageError(f"unknown weather {bad[0]!r} to dislike: expected one of "
                             f"{', '.join(patterns)}")
        chosen = frozenset(dislike)
    return chosen if rethrow else frozenset()


def throw_pattern(family: Family, dice: Dice, disliked: frozenset[str]) -> str:
    """The pre-game 2D6 on the family's chart, with the one agreed re-throw."""
    pattern = chart_entry(family.initial, dice.DR(f"{family.name} weather (2D6)").total)
    if pattern in disliked:
        pattern = chart_entry(family.initial, dice.DR(f"{family.name} weather re-throw (2D6)").total)
    return pattern


def pattern_odds(family: Family, disliked: frozenset[str]) -> dict[str, Fraction]:
    """Exact odds of the pattern after the pre-game throw and optional re-throw."""
    first = chart_odds(family.initial)
    odds = {p: (Fraction(0) if p in disliked else q) for p, q in first.items()}
    redo = sum((q for p, q in first.items() if p in disliked), Fraction(0))
    for p, q in first.items():
        odds[p] += redo * q
    return {p: q for p, q in odds.items() if q}


def begin(pattern: str) -> SpellState:
    """The state before turn 1 for ``pattern`` (strong winds blow on turn 1: see module doc)."""
    if pattern == "strong winds":
        return SpellState(pattern, "strong winds", left=1)
    if pattern in ("clear", "hot weather"):
        return SpellState(pattern, pattern)
    return SpellState(pattern, "", left=0)


# ----------------------------------------------------------------------------- one turn

def spell_throw(family: Family, state: SpellState, dice: Dice) -> SpellState:
    """Throw 2D6 against a separate 1D6 for ``state.pattern``; the new spell's state."""
    label = f"{family.name} {state.pattern}"
    if family.one_die_first:
        pip = dice.dr(f"{label} (1D6: turns, visibility)")
        two = dice.DR(f"{label} (2D6)")
    else:
        two = dice.DR(f"{label} (2D6)")
        pip = dice.dr(f"{label} (1D6: turns, visibility)")
    counts = state.pattern in family.clears_on_doubles
    doubles = state.doubles + 1 if (counts and two.is_double) else 0
    if counts and doubles >= family.doubles_to_clear:
        return clear_for_good(state)
    weather, length = family.spells[state.pattern][0 if two.total > pip else 1]
    if length == FOR_GOOD:
        return clear_for_good(state)
    turns = dice.DR(f"{label}: {weather} lasts (2D6 turns)").total if length == "2D6" else pip
    ground = family.ground_after.get((state.pattern, weather), state.ground)
    return replace(state, weather=weather, left=turns, pip=pip, doubles=doubles, ground=ground)


def clear_for_good(state: SpellState) -> SpellState:
    """Clear weather for the rest of the game (ground stays as it is)."""
    return SpellState("clear", "clear", ground=state.ground)


def this_turn(family: Family, state: SpellState, dice: Dice) -> SpellState:
    """The state in force this turn: a new spell throw when the last one has run out."""
    if state.pattern in family.spells and state.left <= 0:
        return spell_throw(family, state, dice)
    return state


_THROWS: dict[tuple[str, SpellState], dict[SpellState, Fraction]] = {}


def throw_outcomes(family: Family, state: SpellState) -> dict[SpellState, Fraction]:
    """Exact odds of each state :func:`this_turn` can give from ``state`` (cached)."""
    key = (family.name, state)
    if key not in _THROWS:
        _THROWS[key] = outcomes(lambda dice: this_turn(family, state, dice))
    return _THROWS[key]


def after_turn(family: Family, state: SpellState) -> SpellState:
    """Count one turn off the spell; an ended spell keeps only what outlives it.

    A spell that goes on means no throw next turn: for a pattern whose doubles must fall on
    consecutive game turns (AGV Fog and Mist: "two consecutive Turns") the run of doubles is
    broken, while a run of throws (AGV Snow: "two consecutive throws") waits for the next throw.
    """
    if state.pattern not in ("clear", "hot weather") and state.left <= 1:
        return SpellState(state.pattern, "", doubles=state.doubles, ground=state.ground)
    if state.left > 0:
        doubles = 0 if state.pattern in family.doubles_on_turns else state.doubles
        return replace(state, left=state.left - 1, doubles=doubles)
    return state


def sight_cm(family: Family, state: SpellState) -> float | None:
    """The spell's visibility in cm (1D6 × 6 or × 3 of the family's unit), None if unlimited."""
    per_pip = family.effects[state.weather].sight_per_pip
    if per_pip is None:
        return None
    amount = state.pip * per_pip
    return round(amount * UNIT_CM[family.unit], 6)


def describe(family: Family, state: SpellState, visibility_cm: float | None,
             cause: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(fire effects, notes) of this turn, each with its citation."""
    effect = family.effects[state.weather]
    fire = list(effect.fire)
    if visibility_cm is not None:
        fire.append(f"no {family.limit_text} beyond {ruler_cm(visibility_cm, family.unit)} "
                    f"({cause})")
    notes = list(effect.notes)
    if state.ground != "normal":
        notes.append(family.ground_note)
    return tuple(fire), tuple(notes)



# ----------------------------------------------------------------------------- many games

def simulate(family: Family, games: int, turns: int, rng: np.random.Generator,
             disliked: frozenset[str], clear_at: np.ndarray | None = None) -> np.ndarray:
    """Weather codes (index into ``family.weathers()``) for ``games`` × ``turns``, vectorised.

    The same machine as :func:`this_turn`/:func:`after_turn`; ``clear_at`` (per game, 0-based
    turn) ends the fog-and-mist pattern for good from that turn (Mini-Nap 2 noon).
    """
    patterns = family.patterns()
    weathers = family.weathers()
    chart = lookup_2d6(family.initial, patterns)
    total, _ = throw_2d6(rng, games)
    pattern = chart[total]
    if disliked:
        redo = np.isin(pattern, [patterns.index(p) for p in disliked])
        total2, _ = throw_2d6(rng, games)
        pattern = np.where(redo, chart[total2], pattern)
    code = {w: weathers.index(w) for w in weathers}
    pid = {p: patterns.index(p) for p in patterns}
    weather = np.full(games, code["clear"], dtype=np.int16)
    weather[pattern == pid["hot weather"]] = code["hot weather"]
    weather[pattern == pid["strong winds"]] = code["strong winds"]
    left = np.where(pattern == pid["strong winds"], 1, 0).astype(np.int16)
    doubles = np.zeros(games, dtype=np.int16)
    alternating = [pid[p] for p in family.spells]
    out = np.empty((games, turns), dtype=np.int16)
    for t in range(turns):
        if clear_at is not None:
            noon = (pattern == pid["fog and mist"]) & (clear_at <= t)
            pattern[noon] = pid["clear"]
            weather[noon] = code["clear"]
        need = np.isin(pattern, alternating) & (left <= 0)
        _vector_throw(family, rng, need, pattern, weather, left, doubles, pid, code)
        out[:, t] = weather
        left -= 1
        # no throw next turn: a run of doubles on consecutive turns is broken (after_turn)
        on_turns = np.isin(pattern, [pid[p] for p in family.doubles_on_turns])
        doubles[on_turns & (left > 0)] = 0
    return out


def _vector_throw(family: Family, rng: np.random.Generator, need: np.ndarray,
                  pattern: np.ndarray, weather: np.ndarray, left: np.ndarray,
                  doubles: np.ndarray, pid: Mapping[str, int], code: Mapping[str, int]) -> None:
    """Spell throws for the games in ``need`` (arrays updated in place)."""
    games = need.size
    pip = rng.integers(1, 7, games, dtype=np.int16)
    two, dbl = throw_2d6(rng, games)
    longer, _ = throw_2d6(rng, games)
    doubles[need] = np.where(dbl[need], doubles[need] + 1, 0)
    ends = need & np.isin(pattern, [pid[p] for p in family.clears_on_doubles]) \
        & (doubles >= family.doubles_to_clear)
    milder = two > pip
    for name, ((mild, mild_len), (harsh, harsh_len)) in family.spells.items():
        here = need & ~ends & (pattern == pid[name])
        for which, w, length in ((milder, mild, mild_len), (~milder, harsh, harsh_len)):
            sel = here & which
            if length == FOR_GOOD:
                pattern[sel] = pid["clear"]
                weather[sel] = code["clear"]
                continue
            weather[sel] = code[w]
            left[sel] = longer[sel] if length == "2D6" else pip[sel]
    pattern[ends] = pid["clear"]
    weather[ends] = code["clear"]
    doubles[pattern == pid["clear"]] = 0
