"""Mini-Nap 2 Appendix D: time of day and weather (seed 001, Trevor Raymond, January 2015).

The same spell machine as AGV (:mod:`hexwx.weather.minis.spells`), with a clock.  Differences from
AGV (seed 000), all taken from the seeds:

* a pre-game 2D6 sets the time of day; each game turn is half an hour from that time;
* dawn (4 AM start): visibility 10 cm on turn 1, +50 cm each later turn; dusk (4 PM start):
  300 cm, −50 cm each later turn, and the battle ends when it reaches 0;
* visibility of the weather is 1D6 × 6 cm or × 3 cm (AGV: inches); the smaller of the
  time-of-day and weather visibility applies;
* the spell throw is "1D6 and a separate 2D6" at the start of the game turn (same comparison);
* one double on the 2D6 clears fog or snow for good (AGV: two running);
* fog and mist clears from 12 noon onwards;
* rain does not halve movement; instead the Rain pattern's rain and showers and the Snow
  pattern's snow turn the whole battlefield to mud, passable rough ground, for the rest of the
  game (AGV: only snow, to rough ground); the Showers pattern has no mud;
* break-throughs are also forbidden beyond visibility and halved in hot weather; showers halve
  the *final* number of dice; the pre-game weather is thrown by one player.

Readings (RULES-NOTES "AGV / Mini-Nap 2" and ours): the time-of-day chart attaches each rule
to one start: the Dawn rule to a 4 AM start, the Dusk rule to a 4 PM start (a noon or 2 PM
battle never gets dusk); the dusk battle ends on the turn its visibility reaches 0 (7 PM, turn
7).  Mud follows the pattern the sentence is printed under (see ``GROUND_AFTER``).  The
re-throw and strong winds readings are those of :mod:`hexwx.weather.minis.agv`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Collection

import numpy as np

from hexwx.dice import Dice
from hexwx.weather.minis import spells
from hexwx.weather.minis.common import FireRule, TurnReport, chart_entry, chart_odds, lookup_2d6, throw_2d6
from hexwx.weather.minis.spells import Effect, Family, SpellState

OPTIONS = ("rethrow", "dislike")

#: Seed 001 "The Time of Day When the Battle Begins": 2D6 before the game.
TIME_CHART: dict[tuple[int, int], str] = {
    (2, 2): "4 AM",      # dawn rule applies
    (3, 4): "6 AM",
    (5, 6): "8 AM",
    (7, 8): "10 AM",
    (9, 10): "12 noon",
    (11, 11): "2 PM",
    (12, 12): "4 PM",    # dusk rule applies
}

#: Minutes after midnight of each start time.
START_MINUTES: dict[str, int] = {"4 AM": 240, "6 AM": 360, "8 AM": 480, "10 AM": 600,
                                 "12 noon": 720, "2 PM": 840, "4 PM": 960}

TURN_MINUTES = 30          # seed 001: a game turn is about half an hour
NOON = 720                 # seed 001 Fog and Mist: clear from noon onwards
DAWN_START = 240           # seed 001 Dawn: only a 4 AM start
DAWN_CM = (10, 50)         # seed 001 Dawn: starts at 10 cm, +50 cm per turn
DUSK_START = 960           # seed 001 Dusk: 4 PM
DUSK_CM = (300, -50)       # seed 001 Dusk: starts at 300 cm, -50 cm per turn, battle ends at 0

#: Seed 001, effects of each weather; visibility is cm per pip of the spell's 1D6.
EFFECTS: dict[str, Effect] = {
    "clear":        Effect(),
    "showers":      Effect(6, 1.0, ("muskets and artillery fire with half the final number of "
                                    "dice, fractions rounded down (Mini-Nap 2 Showers)",)),
    "rain":         Effect(3, 1.0, ("no musket or artillery fire (Mini-Nap 2 Rain)",)),
    "mist":         Effect(6),
    "fog":          Effect(3),
    "snow":         Effect(3),
    "strong winds": Effect(None, 1.0, ("no artillery fire at long range "
                                       "(Mini-Nap 2 Strong Winds)",)),
    "hot weather":  Effect(None, 0.5, (), ("all units move, charge, intercept and break through "
                                            "at half rate; terrain does not halve it again "
                                            "(Mini-Nap 2 Hot Weather)",)),
}

#: Seed 001, (pattern, weather) -> the ground for the rest of the game.  Rain pattern: "During
#: rain and showers, the whole battlefield turns to mud"; Snow pattern: "as soon as it snows".
#: The Showers pattern says nothing of mud: its showers leave the ground as it is.
GROUND_AFTER: dict[tuple[str, str], str] = {("rain", "rain"): "mud", ("rain", "showers"): "mud",
                                            ("snow", "snow"): "mud"}

_GUNS = ("infantry", "artillery")        # "musket and artillery"

#: Seed 001, the same effects on fire as data for the tabletop fire answer (weather -> rules).
FIRE_RULES: dict[str, tuple[FireRule, ...]] = {
    "showers": (FireRule("half dice", _GUNS, "muskets and artillery fire with half the final "
                         "number of dice, fractions rounded down", "Mini-Nap 2 Showers"),),
    "rain": (FireRule("forbidden", _GUNS, "no musket or artillery fire at all",
                      "Mini-Nap 2 Rain"),),
    "strong winds": (FireRule("no long-range artillery", ("artillery",),
                              "no artillery fire at long range", "Mini-Nap 2 Strong Winds"),),
}


def fire_rules(weather: str, ground: str = "normal") -> tuple[FireRule, ...]:
    """The weather's effects on fire (:data:`FIRE_RULES`); mud has none."""
    return FIRE_RULES.get(weather, ())


FAMILY = Family(
    name="Mini-Nap 2",
    initial=spells.PATTERN_CHART,
    spells=spells.SPELL_CHART,
    effects=EFFECTS,
    ground_after=GROUND_AFTER,
    unit="cm",
    doubles_to_clear=1,
    clears_on_doubles=frozenset({"fog and mist", "snow"}),
    doubles_on_turns=frozenset(),
    limit_text="firing, charges, intercepts or break-throughs",
    ground_note="the battlefield is mud, passable rough ground, for the rest of the game "
                "(Mini-Nap 2 Rain/Snow)",
    one_die_first=True,
)

WEATHERS: tuple[str, ...] = FAMILY.weathers()


@dataclass(frozen=True)
class MiniNapState:
    """The spell machine plus the clock: ``start`` and ``clock`` (next turn) in minutes."""

    spell: SpellState
    start: int
    clock: int


def clock_text(minutes: int) -> str:
    """Minutes after midnight as "10:30 AM" (12:00 PM is noon)."""
    hours, mins = divmod(minutes % 1440, 60)
    return f"{(hours - 1) % 12 + 1}:{mins:02d} {'AM' if hours < 12 else 'PM'}"


def time_of_day_sight(start: int, clock: int) -> float | None:
    """Dawn/dusk visibility in cm at ``clock`` for a battle begun at ``start`` (None: unlimited).

    Reading: the chart attaches the Dusk rule to the 4 PM start and the Dawn rule to the 4 AM
    start; other starts have no time-of-day limit.
    """
    if start == DUSK_START:
        first, change = DUSK_CM
        return float(max(0, first + change * ((clock - DUSK_START) // TURN_MINUTES)))
    if start == DAWN_START:
        first, change = DAWN_CM
        return float(first + change * ((clock - start) // TURN_MINUTES))
    return None


def start(dice: Dice, *, rethrow: bool = False,
          dislike: Collection[str] | None = None) -> MiniNapState:
    """The pre-game throws: time of day (2D6), then the weather (2D6, optional re-throw)."""
    disliked = spells.check_rethrow(FAMILY, rethrow, dislike)
    when = START_MINUTES[chart_entry(TIME_CHART, dice.DR("Mini-Nap 2 time of day (2D6)").total)]
    pattern = spells.throw_pattern(FAMILY, dice, disliked)
    return MiniNapState(spells.begin(pattern), when, when)


def step(state: MiniNapState, turn: int, dice: Dice) -> tuple[MiniNapState, TurnReport]:
    """One half-hour turn: noon clears fog, a spell throw if due, dawn/dusk visibility."""
    now = spells.this_turn(FAMILY, _noon(state), dice)
    return _next(now, state), report(now, state, turn)


def exact_step(state: MiniNapState, turn: int) -> dict[tuple[MiniNapState, str, bool], Fraction]:
    """Exact odds of (next state, weather, battle ends) of :func:`step` from ``state``."""
    odds: dict[tuple[MiniNapState, str, bool], Fraction] = {}
    for now, q in spells.throw_outcomes(FAMILY, _noon(state)).items():
        rep = report(now, state, turn)
        key = (_next(now, state), rep.weather, rep.battle_ends)
        odds[key] = odds.get(key, Fraction(0)) + q
    return odds


def _noon(state: MiniNapState) -> SpellState:
    """The spell machine with fog and mist cleared from 12 noon (seed 001 Fog and Mist)."""
    if state.spell.pattern == "fog and mist" and state.clock >= NOON:
        return spells.clear_for_good(state.spell)
    return state.spell


def _next(now: SpellState, state: MiniNapState) -> MiniNapState:
    return MiniNapState(spells.after_turn(FAMILY, now), state.start, state.clock + TURN_MINUTES)


def report(now: SpellState, state: MiniNapState, turn: int) -> TurnReport:
    """This turn's :class:`TurnReport`: the smaller of time-of-day and weather visibility."""
    weather_sight = spells.sight_cm(FAMILY, now)
    day_sight = time_of_day_sight(state.start, state.clock)
    sight, cause = weather_sight, f"Mini-Nap 2 {now.weather.capitalize()}"
    if day_sight is not None and (sight is None or day_sight < sight):
        sight = day_sight
        cause = "Mini-Nap 2 Dusk" if state.start == DUSK_START else "Mini-Nap 2 Dawn"
    fire, notes = spells.describe(FAMILY, now, sight, cause)
    ends = day_sight is not None and day_sight <= 0
    if ends:
        notes += ("visibility has reached 0: the battle ceases (Mini-Nap 2 Dusk)",)
    return TurnReport(turn=turn, weather=now.weather, visibility_cm=sight,
                      movement_multiplier=EFFECTS[now.weather].movement, fire_effects=fire,
                      ground=now.ground, battle_ends=ends, time_of_day=clock_text(state.clock),
                      rolls=(), rules="mininap", pattern=now.pattern, notes=notes)


def initial_table(*, rethrow: bool = False,
                  dislike: Collection[str] | None = None) -> dict[str, Fraction]:
    """Exact odds of the pre-game weather pattern (same chart as AGV)."""
    return spells.pattern_odds(FAMILY, spells.check_rethrow(FAMILY, rethrow, dislike))


def time_table() -> dict[str, Fraction]:
    """Exact odds of each start time (seed 001 time-of-day chart)."""
    return chart_odds(TIME_CHART)


def simulate(games: int, turns: int, rng: np.random.Generator, *, rethrow: bool = False,
             dislike: Collection[str] | None = None) -> np.ndarray:
    """Weather codes of ``games`` games, vectorised; ``len(WEATHERS)`` after the battle ends."""
    disliked = spells.check_rethrow(FAMILY, rethrow, dislike)
    labels = tuple(START_MINUTES)
    total, _ = throw_2d6(rng, games)
    begin = np.array([START_MINUTES[x] for x in labels])[lookup_2d6(TIME_CHART, labels)[total]]
    noon_turn = np.maximum(0, -(-(NOON - begin) // TURN_MINUTES))
    out = spells.simulate(FAMILY, games, turns, rng, disliked, clear_at=noon_turn)
    dusk_over = DUSK_START - DUSK_CM[0] // DUSK_CM[1] * TURN_MINUTES   # clock at visibility 0
    end_turn = np.where(begin == DUSK_START, (dusk_over - begin) // TURN_MINUTES, turns)
    out[np.arange(turns)[None, :] > end_turn[:, None]] = len(WEATHERS)   # 0-based last turn
    return out
