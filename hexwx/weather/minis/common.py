"""Weather for miniatures rules: the shared report, the runner and the exact/Monte Carlo tools.

Each rule set is its own module with the same shape (DESIGN "weather/minis.py"):

* :mod:`hexwx.weather.minis.agv` — A Glorious Victory! weather guidelines (seed 000);
* :mod:`hexwx.weather.minis.mininap` — Mini-Nap 2 Appendix D, time of day and weather (seed 001);
* :mod:`hexwx.weather.minis.wesencraft` — the Wesencraft weather gauge (seed 003);
* :mod:`hexwx.weather.minis.huzzah` — Huzzah! Glorious Empires foul weather and ground (seed 002).

A model module provides ``OPTIONS`` (the keyword options it accepts), ``WEATHERS`` (every
weather name it can report), ``start(dice, **options) -> state`` for the pre-game throws,
``step(state, turn, dice) -> (state, TurnReport)`` for one turn, ``initial_table(**options)``
(exact odds of the pre-game throw) and ``simulate(games, turns, rng, **options)`` (a numpy
version of the state machine over many games at once).  States are frozen and hashable, and
``step`` depends only on its arguments, so the exact odds of every turn can be enumerated
(a module whose ``step`` reads the turn number sets ``STEP_USES_TURN = True``; a module may
give ``exact_step(state, turn) -> {(state, weather, battle_ends): odds}`` to do it faster).
"""
from __future__ import annotations

import importlib
from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import partial
from fractions import Fraction
from types import ModuleType
from typing import Any, Callable, Hashable, Mapping, TypeVar

import numpy as np

from hexwx.dice import Dice, Roll, seed_int
from hexwx.limits import SIMULATED_TURNS, TURNS, check_count
from hexwx.errors import UsageError
from hexwx.validate import is_whole
from hexwx.weather.minis.registry import RULE_NAMES, RULE_SETS


#: The pseudo-weather of a turn after the battle has ended (Mini-Nap 2 dusk).
ENDED = "(battle over)"


@dataclass(frozen=True)
class TurnReport:
    """The weather of one game turn and what it does to play.

    ``visibility_cm`` None means unlimited; ``movement_multiplier`` is the weather's own
    factor (AGV/Mini-Nap: terrain must not halve a 0.5 again); ``rolls`` are the dice thrown
    for this turn (turn 1 also holds the pre-game throws).
    """

    turn: int
    weather: str
    visibility_cm: float | None
    movement_multiplier: float
    fire_effects: tuple[str, ...]
    ground: str
    battle_ends: bool
    time_of_day: str | None
    rolls: tuple[Roll, ...]
    rules: str = ""
    #: the kind of weather thrown before the game (AGV/Mini-Nap "fog and mist"), or "".
    pattern: str = ""
    #: effects that are not about fire (movement, ground), with citations.
    notes: tuple[str, ...] = ()
    #: numeric modifiers by what they modify, e.g. (("artillery factor", -1),).
    modifiers: tuple[tuple[str, int], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (rolls as purpose/dice/total)."""
        return {
            "turn": self.turn,
            "weather": self.weather,
            "visibility_cm": self.visibility_cm,
            "movement_multiplier": self.movement_multiplier,
            "fire_effects": list(self.fire_effects),
            "ground": self.ground,
            "battle_ends": self.battle_ends,
            "time_of_day": self.time_of_day,
            "rolls": [{"purpose": r.purpose, "dice": list(r.dice), "total": r.total}
                      for r in self.rolls],
            "rules": self.rules,
            "pattern": self.pattern,
            "notes": list(self.notes),
            "modifiers": {k: v for k, v in self.modifiers},
        }


#: The kinds of weather effect on fire, as :attr:`FireRule.effect` names them.
FIRE_EFFECT_KINDS = ("forbidden", "half dice", "per die", "fire factor", "artillery factor",
                     "no long-range artillery")


@dataclass(frozen=True)
class FireRule:
    """What a weather (or ground) does to one kind of firer's fire, for the tabletop fire answer.

    ``effect`` is one of :data:`FIRE_EFFECT_KINDS`; ``arms`` the firers it touches (a rule set's
    "muskets" are infantry, "carbines" cavalry, "artillery" artillery); ``amount`` the change
    for "per die" and the factors; ``text`` says it in our words (without the amount: see
    :attr:`words`) and ``rule`` cites the seed.
    """

    effect: str
    arms: tuple[str, ...]
    text: str
    rule: str
    amount: int = 0

    def __post_init__(self) -> None:
        if self.effect not in FIRE_EFFECT_KINDS:
            raise UsageError(f"unknown fire effect {self.effect!r}; expected one of "
                             f"{', '.join(FIRE_EFFECT_KINDS)}")

    @property
    def words(self) -> str:
        """The text with its amount in front when it has one ("-1 to the fire factor ...")."""
        return f"{self.amount:+d} {self.text}" if self.amount else self.text

    def to_json(self) -> dict[str, Any]:
        return {"effect": self.effect, "arms": list(self.arms), "amount": self.amount,
                "text": self.words, "rule": self.rule}


def fire_rules(rules: str, weather: str, ground: str = "normal") -> tuple[FireRule, ...]:
    """The weather's (and for Huzzah! the ground's) effects on fire under ``rules``: the rule
    set module's ``fire_rules(weather, ground)``; none for a weather name it does not know."""
    found: tuple[FireRule, ...] = model(rules).fire_rules(weather, ground)
    return found


# ----------------------------------------------------------------------------- helpers

def model(rules: str) -> ModuleType:
    """The module of rule set ``rules``; :class:`UsageError` listing the choices otherwise."""
    if not isinstance(rules, str) or rules.lower() not in RULE_SETS:
        raise UsageError(f"unknown miniatures rules {rules!r}: expected one of "
                         f"{', '.join(RULE_NAMES)}")
    return importlib.import_module(RULE_SETS[rules.lower()].module)


def check_options(rules: str, options: Mapping[str, Any]) -> None:
    """Reject options the rule set does not take, naming the ones it does."""
    allowed = model(rules).OPTIONS
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        expected = ", ".join(allowed) if allowed else "no options"
        raise UsageError(f"unknown option {unknown[0]!r} for {rules} weather: expected {expected}")


def check_turns(turns: Any) -> int:
    """Validate a number of turns (a whole number >= 1)."""
    if not is_whole(turns, 1):
        raise UsageError(f"number of turns must be a whole number of at least 1, got {turns!r}")
    return check_count(turns, TURNS, "number of turns")


# ----------------------------------------------------------------------------- one game

def run_minis_weather(rules: str, turns: int, *, dice: Dice, **options: Any) -> list[TurnReport]:
    """Run ``rules`` weather for up to ``turns`` turns with ``dice``; one report per turn.

    The list stops early at the turn whose report has ``battle_ends`` (Mini-Nap 2 dusk).
    """
    mod = model(rules)
    check_turns(turns)
    check_options(rules, options)
    mark = len(dice.log)
    state = mod.start(dice, **options)
    from hexwx.weather.run import WeatherRun
    reports: list[TurnReport] = WeatherRun()
    for turn in range(1, turns + 1):
        state, report = mod.step(state, turn, dice)
        reports.append(replace(report, rolls=tuple(dice.log[mark:])))
        mark = len(dice.log)
        if report.battle_ends:
            break
    return reports


# ----------------------------------------------------------------------------- exact odds

class _NeedFace(Exception):
    """Raised by :class:`_PrefixDice` when the computation wants one more face."""


@dataclass
class _PrefixDice(Dice):
    """Dice that return a fixed prefix of faces, then ask for more (exact enumeration)."""

    faces: tuple[int, ...] = ()
    used: int = 0

    def __post_init__(self) -> None:  # no random generator needed
        pass

    def _face(self, purpose: str) -> int:
        if self.used >= len(self.faces):
            raise _NeedFace
        self.used += 1
        return self.faces[self.used - 1]


H = TypeVar("H", bound=Hashable)


def outcomes(compute: Callable[[Dice], H]) -> dict[H, Fraction]:
    """Exact distribution of ``compute(dice)`` over every sequence of faces it can consume.

    ``compute`` must be deterministic given the faces; each face has chance 1/6.
    """
    result: dict[H, Fraction] = defaultdict(Fraction)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        try:
            value = compute(_PrefixDice(faces=prefix))
        except _NeedFace:
            stack.extend(prefix + (f,) for f in range(1, 7))
            continue
        result[value] += Fraction(1, 6 ** len(prefix))
    return dict(result)


def initial_probabilities(rules: str, **options: Any) -> dict[str, Fraction]:
    """Exact odds of each result of the pre-game weather throw (AGV clear = 24/36)."""
    check_options(rules, options)
    table: dict[str, Fraction] = model(rules).initial_table(**options)
    return table


def exact_distribution(rules: str, turns: int, **options: Any) -> list[dict[str, Fraction]]:
    """Exact odds of each weather on each turn 1..``turns`` (``ENDED`` once the battle is over).

    Enumerates the model's own ``start``/``step`` over all dice faces, merging equal states.
    """
    mod = model(rules)
    check_turns(turns)
    check_options(rules, options)
    states = outcomes(lambda d: mod.start(d, **options))
    uses_turn = getattr(mod, "STEP_USES_TURN", False)
    memo: dict[Hashable, dict[tuple[Hashable, str, bool], Fraction]] = {}
    per_turn: list[dict[str, Fraction]] = []
    for turn in range(1, turns + 1):
        dist: dict[str, Fraction] = defaultdict(Fraction)
        nxt: dict[Hashable, Fraction] = defaultdict(Fraction)
        for state, p in states.items():
            if state == ENDED:
                dist[ENDED] += p
                nxt[ENDED] += p
                continue
            key = (state, turn) if uses_turn else state
            if key not in memo:
                if hasattr(mod, "exact_step"):
                    memo[key] = mod.exact_step(state, turn)
                else:
                    memo[key] = outcomes(partial(_step_summary, mod, state, turn))
            for (new_state, weather, ends), q in memo[key].items():
                dist[weather] += p * q
                nxt[ENDED if ends else new_state] += p * q
        per_turn.append(dict(dist))
        states = dict(nxt)
    return per_turn


def _step_summary(mod: ModuleType, state: Hashable, turn: int,
                  dice: Dice) -> tuple[Hashable, str, bool]:
    new_state, report = mod.step(state, turn, dice)
    return new_state, report.weather, report.battle_ends


# ----------------------------------------------------------------------------- many games

def _simulated_codes(rules: str, games: int, turns: int, seed: int | None,
                     options: dict[str, Any]) -> tuple[np.ndarray, list[str]]:
    """Weather codes [games, turns] from the vectorised model, and the names of the codes."""
    mod = model(rules)
    check_turns(turns)
    check_options(rules, options)
    if not is_whole(games, 1):
        raise UsageError(f"number of games must be a whole number of at least 1, got {games!r}")
    if games * turns > SIMULATED_TURNS.value:
        raise UsageError(f"{games:,} games x {turns:,} turns exceeds {SIMULATED_TURNS.describe()}")
    codes = mod.simulate(games, turns, np.random.default_rng(None if seed is None else seed_int(seed)),
                         **options)
    return codes, list(mod.WEATHERS) + [ENDED]


def simulate(rules: str, games: int, turns: int, *, seed: int | None = None,
             **options: Any) -> np.ndarray:
    """Weather names of ``games`` games × ``turns`` turns as a numpy array of str (vectorised)."""
    codes, names = _simulated_codes(rules, games, turns, seed, options)
    named: np.ndarray = np.array(names)[codes]
    return named


def frequencies(rules: str, games: int, turns: int, *, seed: int | None = None,
                **options: Any) -> list[dict[str, float]]:
    """Monte Carlo share of each weather on each turn over ``games`` games."""
    codes, names = _simulated_codes(rules, games, turns, seed, options)
    result = []
    for t in range(turns):
        counts = np.bincount(codes[:, t], minlength=len(names))
        result.append({names[i]: float(counts[i] / games) for i in np.flatnonzero(counts)})
    return result


def throw_2d6(rng: np.random.Generator, games: int) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised 2D6: (totals, doubles) for ``games`` games."""
    a = rng.integers(1, 7, games, dtype=np.int16)
    b = rng.integers(1, 7, games, dtype=np.int16)
    return a + b, a == b


def lookup_2d6(table: Mapping[tuple[int, int], str], names: tuple[str, ...]) -> np.ndarray:
    """An index array (by 2D6 total 0..12) of ``names`` from a printed ``(low, high): name`` chart."""
    out = np.full(13, -1, dtype=np.int16)
    for (low, high), name in table.items():
        out[low:high + 1] = names.index(name)
    return out


def chart_odds(table: Mapping[tuple[int, int], str]) -> dict[str, Fraction]:
    """Exact odds of each entry of a 2D6 chart keyed by ``(low, high)`` total ranges."""
    odds: dict[str, Fraction] = defaultdict(Fraction)
    for (low, high), name in table.items():
        for total in range(low, high + 1):
            odds[name] += Fraction(6 - abs(total - 7), 36)
    return dict(odds)


def chart_entry(table: Mapping[tuple[int, int], str], total: int) -> str:
    """The entry of a 2D6 chart for ``total``."""
    for (low, high), name in table.items():
        if low <= total <= high:
            return name
    raise UsageError(f"2D6 total must be 2-12, got {total!r}")
