"""A Glorious Victory! weather guidelines (seed 000, Trevor Raymond, February 2014).

Before set-up 2D6 give the weather *pattern*; alternating patterns then run in spells thrown
with 2D6 against a separate 1D6 (see :mod:`hexwx.weather.minis.spells`).  Visibility is the spell's
1D6 × 6 inches (showers, mist) or × 3 inches (rain, fog, snow), reported in cm (1 in = 2.54 cm).

Readings (RULES-NOTES "AGV / Mini-Nap 2"): the 1D6 gives both the spell's length in turns and
its visibility; snow lasts a further 2D6 turns; a new throw when a spell ends.  The two clearing
paragraphs differ and both are followed as printed: Fog and Mist clears for good after doubles
on the 2D6 thrown on two consecutive game *turns* (a turn without a throw breaks the run), Snow
after doubles on two consecutive *throws* (however many turns apart).  Ours: the optional re-throw
(``rethrow=True``) is taken whenever the first throw is a pattern in ``dislike`` (default: all
but clear); strong winds blow on turn 1 and the first abate throw is at the start of turn 2.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Collection

import numpy as np

from hexwx.dice import Dice
from hexwx.weather.minis import spells
from hexwx.weather.minis.common import FireRule, TurnReport
from hexwx.weather.minis.spells import Effect, Family, SpellState

OPTIONS = ("rethrow", "dislike")

_HALF_DICE = "muskets and artillery fire with half dice, fractions rounded down (AGV Showers)"

#: Seed 000, effects of each weather; visibility is inches per pip of the spell's 1D6.
EFFECTS: dict[str, Effect] = {
    "clear":        Effect(),
    "showers":      Effect(6, 1.0, (_HALF_DICE,)),
    "rain":         Effect(3, 0.5, ("no musket or artillery fire (AGV Rain)",),
                           ("all units move at half rate (AGV Rain)",)),
    "mist":         Effect(6),
    "fog":          Effect(3),
    "snow":         Effect(3),
    "strong winds": Effect(None, 1.0, ("no artillery fire at long range (AGV Strong Winds)",)),
    "hot weather":  Effect(None, 0.5, (), ("all units move, charge and intercept at half rate; "
                                            "terrain does not halve it again (AGV Hot Weather)",)),
}

_GUNS = ("infantry", "artillery")        # "muskets and artillery"

#: Seed 000, the same effects on fire as data for the tabletop fire answer (weather -> rules).
FIRE_RULES: dict[str, tuple[FireRule, ...]] = {
    "showers": (FireRule("half dice", _GUNS, "muskets and artillery fire with half the normal "
                         "number of dice, fractions rounded down", "AGV Showers"),),
    "rain": (FireRule("forbidden", _GUNS, "no musket or artillery fire at all", "AGV Rain"),),
    "strong winds": (FireRule("no long-range artillery", ("artillery",),
                              "no artillery fire at long range", "AGV Strong Winds"),),
}


def fire_rules(weather: str, ground: str = "normal") -> tuple[FireRule, ...]:
    """The weather's effects on fire (:data:`FIRE_RULES`); the ground has none."""
    return FIRE_RULES.get(weather, ())


FAMILY = Family(
    name="AGV",
    initial=spells.PATTERN_CHART,
    spells=spells.SPELL_CHART,
    effects=EFFECTS,
    ground_after={("snow", "snow"): "rough"},   # seed 000 Snow: passable ground is rough from then on
    unit="in",
    doubles_to_clear=2,
    clears_on_doubles=frozenset({"fog and mist", "snow"}),
    # Fog and Mist: doubles "for two consecutive Turns"; Snow: "for two consecutive throws".
    doubles_on_turns=frozenset({"fog and mist"}),
    limit_text="firing, charging or intercepts",
    ground_note="all passable ground is rough ground for the rest of the game (AGV Snow)",
    one_die_first=False,
)

WEATHERS: tuple[str, ...] = FAMILY.weathers()


def start(dice: Dice, *, rethrow: bool = False,
          dislike: Collection[str] | None = None) -> SpellState:
    """Throw the pre-game 2D6 (and the agreed re-throw); the state before turn 1."""
    disliked = spells.check_rethrow(FAMILY, rethrow, dislike)
    return spells.begin(spells.throw_pattern(FAMILY, dice, disliked))


def step(state: SpellState, turn: int, dice: Dice) -> tuple[SpellState, TurnReport]:
    """One AGV turn: a spell throw if the last spell ran out, then this turn's report."""
    now = spells.this_turn(FAMILY, state, dice)
    return spells.after_turn(FAMILY, now), report(now, turn)


def exact_step(state: SpellState, turn: int) -> dict[tuple[SpellState, str, bool], Fraction]:
    """Exact odds of (next state, weather, battle ends) of :func:`step` from ``state``."""
    odds: dict[tuple[SpellState, str, bool], Fraction] = {}
    for now, q in spells.throw_outcomes(FAMILY, state).items():
        key = (spells.after_turn(FAMILY, now), now.weather, False)
        odds[key] = odds.get(key, Fraction(0)) + q
    return odds


def report(now: SpellState, turn: int) -> TurnReport:
    """The :class:`TurnReport` of the spell in force (rolls are filled in by the runner)."""
    sight = spells.sight_cm(FAMILY, now)
    fire, notes = spells.describe(FAMILY, now, sight, f"AGV {now.weather.capitalize()}")
    return TurnReport(turn=turn, weather=now.weather, visibility_cm=sight,
                      movement_multiplier=EFFECTS[now.weather].movement, fire_effects=fire,
                      ground=now.ground, battle_ends=False, time_of_day=None, rolls=(),
                      rules="agv", pattern=now.pattern, notes=notes)


def initial_table(*, rethrow: bool = False,
                  dislike: Collection[str] | None = None) -> dict[str, Fraction]:
    """Exact odds of the pre-game pattern (clear 24/36; with the re-throw, 8/9)."""
    return spells.pattern_odds(FAMILY, spells.check_rethrow(FAMILY, rethrow, dislike))


def simulate(games: int, turns: int, rng: np.random.Generator, *, rethrow: bool = False,
             dislike: Collection[str] | None = None) -> np.ndarray:
    """Weather codes (index into :data:`WEATHERS`) of ``games`` games, vectorised."""
    disliked = spells.check_rethrow(FAMILY, rethrow, dislike)
    return spells.simulate(FAMILY, games, turns, rng, disliked)
