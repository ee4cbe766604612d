"""E3 weather rolls: the chart look-ups, the pre-game DYO determination and the Wind Change DR
turn by turn (:func:`roll_weather`, :func:`wind_change`, :func:`next_player_turn`,
:func:`run_weather`).  Every roll goes through :class:`hexwx.dice.Dice`, logged with its purpose,
and comes back as a :class:`~hexwx.weather.asl.records.ChartRoll` with its rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence, TypeVar

from hexwx.dice import Dice, Roll
from hexwx.limits import TURNS, check_count
from hexwx.errors import UsageError
from hexwx.validate import whole
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.drifts import HexSet, Neighbour, drift_boards, place_drift
from hexwx.weather.asl.records import ChartRoll, WeatherEvent, chart_roll
from hexwx.weather.asl.state import AslWeather, parse_month

# -------------------------------------------------------------------------------------------
# applying the charts (pure look-ups; the charts are in asl_charts)
# -------------------------------------------------------------------------------------------


def temperate_weather(month: str, dr: int) -> str:
    """E3 Temperate Weather Chart result for ``month`` and a DR 2-12, with the ``*`` rule applied."""
    month = parse_month(month)
    if dr not in C.TEMPERATE_WEATHER_CHART:
        raise UsageError(f"bad weather chart DR {dr!r}; expected 2-12")
    col = next(i for i, ms in enumerate(C.TEMPERATE_COLUMNS) if month in ms)
    result = C.TEMPERATE_WEATHER_CHART[dr][col]
    if result.endswith("*"):
        result = result[:-1] if month in C.SNOW_STAR_MONTHS else C.SNOW_STAR_OTHERWISE
    return result


_V = TypeVar("_V")


def _band(table: Sequence[tuple[int, int, _V]], dr: int, what: str) -> _V:
    for lo, hi, value in table:
        if lo <= dr <= hi:
            return value
    raise UsageError(f"bad {what} dr {dr!r}; expected 1-6")


def fog_or_mist(dr: int) -> str:
    """3.3: ``"Mist"`` on dr 1-5, ``"Fog"`` on 6."""
    return _band(C.FOG_MIST_DR, dr, "fog/mist")


def fog_level(dr: int) -> int:
    """3.31 Fog Level Chart: the level L of "fog at level L and lower" for dr 1-6."""
    if dr not in C.FOG_LEVEL_CHART:
        raise UsageError(f"bad fog level dr {dr!r}; expected 1-6")
    return C.FOG_LEVEL_CHART[dr]


def fog_density(dr: int) -> int:
    """3.311 Fog Density: DRM per hex.  Reading: the "-1" row is dr <= 1 (+1); 2-3 +2; 4-6 +3."""
    return _band(C.FOG_DENSITY_CHART, dr, "fog density")


def snow_chart_drm(month: str) -> int:
    """3.7 Snow Chart drm: Dec-Feb +1, Mar and Nov -1, else 0."""
    return C.SNOW_CHART_DRM.get(parse_month(month), 0)


def snow_condition(final_dr: int, *, second: bool = False) -> str:
    """3.7 Snow Chart condition for a final dr 0-7.

    ``second=True`` is the extra dr after Extreme Winter (3.74); reading: a second 7 reads as 6.
    """
    if second and final_dr > C.EXTREME_WINTER_SECOND_DR_MAX:
        final_dr = C.EXTREME_WINTER_SECOND_DR_MAX
    if final_dr not in C.SNOW_CHART:
        raise UsageError(f"bad snow chart final dr {final_dr!r}; expected 0-7")
    return C.SNOW_CHART[final_dr]


# -------------------------------------------------------------------------------------------
# the pre-game DYO determination
# -------------------------------------------------------------------------------------------


def roll_weather(month: str, dice: Dice, *, wind: str = "none", wind_direction: int | None = None,
                 hexes: HexSet = None, boards: Sequence[str] | None = None,
                 neighbour: Neighbour | None = None,
                 forbidden: Callable[[str, int], bool] | None = None) -> tuple[AslWeather, list[ChartRoll]]:
    """The whole E3 DYO weather determination for ``month``; returns (state, chart rolls).

    Weather Chart DR (E3, with the ``*`` rule) -> Fog/Mist dr (3.3) -> Fog Level dr (3.31) and
    Fog Density dr (3.311); or Snow Chart dr + month drm (3.7), with the Extreme Winter second
    dr (3.74).  "Deep Snow & Drifts" places six drifts per board (3.75) when the map's hexes or
    boards are given; otherwise the state says ``drifts_in_play`` and placement waits for a map.
    """
    month = parse_month(month)
    rolls: list[ChartRoll] = []
    r = dice.DR(f"weather chart DR ({month})")
    base = temperate_weather(month, r.total)
    rolls.append(chart_roll(r, base, "E3"))
    fields: dict[str, object] = dict(month=month, wind=wind, wind_direction=wind_direction)
    if base == "Fog/Mist":
        d = dice.roll(1, "fog/mist dr")
        base = fog_or_mist(d.total)
        rolls.append(chart_roll(d, base, "E3.3"))
        if base == "Fog":
            d = dice.roll(1, "fog level dr")
            level = fog_level(d.total)
            rolls.append(chart_roll(d, f"fog at level {level} and lower", "E3.31"))
            d = dice.roll(1, "fog density dr")
            drm = fog_density(d.total)
            rolls.append(chart_roll(d, f"+{drm} per hex", "E3.311"))
            fields.update(fog_level=level, fog_drm=drm)
    elif base == "Snow":
        drm = snow_chart_drm(month)
        d = dice.roll(1, "snow chart dr")
        final = max(0, d.total + drm)
        cond = snow_condition(final)
        rolls.append(chart_roll(d, cond, "E3.7", drm, final))
        if cond == "Extreme Winter":
            fields["extreme_winter"] = True
            d = dice.roll(1, "snow chart second dr (extreme winter)")
            final = max(0, d.total + drm)
            cond = snow_condition(final, second=True)
            shown = min(final, C.EXTREME_WINTER_SECOND_DR_MAX)
            rolls.append(chart_roll(d, cond + (f" ({final} read as {shown})" if final != shown else ""),
                                     "E3.74", drm, final))
        falling, ground, deep, drifts = C.SNOW_CONDITION_FLAGS[cond]
        fields.update(falling_snow=falling, ground_snow=ground, deep_snow=deep,
                      drifts_in_play=drifts)
    state = AslWeather(base=base, **fields)  # type: ignore[arg-type]
    if state.drifts_in_play and (hexes is not None or boards is not None):
        for b in drift_boards(hexes, boards):
            for _ in range(C.DRIFTS_PER_BOARD):
                state, more, _text = place_drift(state, b, dice, hexes=hexes, neighbour=neighbour,
                                                 forbidden=forbidden)
                rolls.extend(more)
        state = state.replace(drifts_in_play=False) if state.drifts else state
    return state, rolls


# -------------------------------------------------------------------------------------------
# turn by turn: the Wind Change DR at the start of each RPh
# -------------------------------------------------------------------------------------------


def wind_change(state: AslWeather, dice: Dice, *, dr: int | None = None, hexes: HexSet = None,
                boards: Sequence[str] | None = None, neighbour: Neighbour | None = None,
                forbidden: Callable[[str, int], bool] | None = None,
                ) -> tuple[AslWeather, list[WeatherEvent], list[ChartRoll]]:
    """Apply E3's effects of one Wind Change DR at the start of the RPh of ``state``'s Player Turn.

    Returns (new state, events, rolls).  ``dr`` forces the DR (2-12); otherwise 2d6 are rolled.
    In order: a Drift per board if Heavy Winds/Gusts were in force *before* the DR with Ground or
    Deep Snow (3.75); Gusts on DR >= 10 in Gusty weather (3.4); while Overcast, precipitation
    starts on >= 10, stops on <= 3 and, already falling, intensifies on >= 10 once only (3.51,
    3.71); fog drops one level per Game Turn under a Mild Breeze (in the first Player Turn's RPh,
    reading) and per Player Turn under Heavy Winds or Gusts (3.312); below level -1 it is gone.
    """
    t, pt = state.turn, state.player_turn
    events: list[WeatherEvent] = []
    rolls: list[ChartRoll] = []

    def note(text: str, rule: str) -> None:
        events.append(WeatherEvent(t, pt, text, rule))

    # 3.75: drift creation looks at the wind in force before the DR.
    if state.effective_wind in ("heavy", "gusts") and (state.ground_snow or state.deep_snow):
        for b in drift_boards(hexes, boards):
            state, more, text = place_drift(state, b, dice, hexes=hexes, neighbour=neighbour,
                                            forbidden=forbidden)
            rolls.extend(more)
            note(f"{C.WIND_FORCE_NAMES[state.effective_wind]} with snow on the ground: {text}", "E3.75")

    at = len(rolls)
    if dr is None:
        roll = dice.DR(f"wind change DR (turn {t}.{pt})")
    else:
        whole(dr, "wind change DR", 2, 12)
        roll = Roll(f"wind change DR (turn {t}.{pt}, given)", (dr,))
    total = roll.total
    changes: dict[str, object] = {}

    # 3.4 gusts
    gusts = state.gusty and total >= C.GUSTS_DR
    if gusts:
        note(f"wind change DR {total} >= {C.GUSTS_DR} in gusty weather: gusts", "E3.4")
    changes["gusts"] = gusts

    # 3.51 / 3.71 precipitation
    if state.overcast:
        kind = state.precipitation_kind
        rule = "E3.71" if kind == "falling snow" else "E3.51"
        if state.precipitation:
            if total <= C.PRECIPITATION_STOP_DR:
                changes.update(rain=False, falling_snow=False, heavy=False)
                note(f"wind change DR {total} <= {C.PRECIPITATION_STOP_DR}: {kind} stops", rule)
            elif total >= C.PRECIPITATION_INTENSIFY_DR:
                if state.heavy:
                    note(f"wind change DR {total}: {kind} already intensified, no further "
                         "increase", rule)
                else:
                    changes["heavy"] = True
                    note(f"wind change DR {total} >= {C.PRECIPITATION_INTENSIFY_DR} while "
                         f"{kind} falls: intensified (mist +1 at every range)", rule)
        elif total >= C.PRECIPITATION_START_DR:
            changes["rain" if kind == "rain" else "falling_snow"] = True
            note(f"wind change DR {total} >= {C.PRECIPITATION_START_DR} while overcast: "
                 f"{kind} starts" + ("; EC wet for the rest of the scenario" if kind == "rain" else ""),
                 rule)

    # 3.312 fog lifting (after the DR), with the wind in force this Player Turn
    wind_now = "gusts" if gusts else state.wind
    every = C.FOG_LIFT_EVERY[wind_now]
    if state.fog and every is not None and (every == "player turn" or pt == 1):
        level = state.fog_level - 1  # type: ignore[operator]
        if level < -1:
            changes.update(fog_level=None, fog_drm=None)
            note(f"{C.WIND_FORCE_NAMES[wind_now]}: fog lifts entirely", "E3.312")
        else:
            changes["fog_level"] = level
            note(f"{C.WIND_FORCE_NAMES[wind_now]}: fog drops to level {level} and lower "
                 f"(once per {every})", "E3.312")
    new = state.replace(phase="RPh", **changes)
    rolls.insert(at, chart_roll(roll, ", ".join(e.text for e in events
                                                  if e.rule != "E3.75") or "no change", "E3"))
    return new, events, rolls


def advance_player_turn(state: AslWeather) -> AslWeather:
    """The state at the start of the next Player Turn (turn 1.1 -> 1.2 -> 2.1 ...), phase RPh."""
    if state.phase == "setup":
        return state.replace(phase="RPh")
    if state.player_turn == 1:
        return state.replace(player_turn=2, phase="RPh")
    return state.replace(turn=state.turn + 1, player_turn=1, phase="RPh")


def next_player_turn(state: AslWeather, dice: Dice, *, dr: int | None = None, **placement: object
                     ) -> tuple[AslWeather, list[WeatherEvent], list[ChartRoll]]:
    """Advance to the next Player Turn's RPh and make its Wind Change DR (:func:`wind_change`).

    From a ``setup`` state the first call starts turn 1, Player Turn 1.
    """
    return wind_change(advance_player_turn(state), dice, dr=dr, **placement)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TurnRecord:
    """One Player Turn of a weather run: its Wind Change roll, events and resulting state."""

    turn: int
    player_turn: int
    dr: int
    events: tuple[WeatherEvent, ...]
    rolls: tuple[ChartRoll, ...]
    state: AslWeather = field(repr=False)

    def to_json(self) -> dict[str, object]:
        return {"turn": self.turn, "player_turn": self.player_turn, "wind_change_dr": self.dr,
                "events": [e.to_json() for e in self.events],
                "rolls": [r.to_json() for r in self.rolls],
                "state": self.state.to_json()}


def run_weather(state: AslWeather, dice: Dice, turns: int, **placement: object) -> list[TurnRecord]:
    """Run ``turns`` Game Turns (two Player Turns each) from ``state``; one record per Player Turn."""
    whole(turns, "number of turns", 1)
    check_count(turns, TURNS, "number of turns")  # hexwx.limits: a run is bounded
    from hexwx.weather.run import WeatherRun
    out: list[TurnRecord] = WeatherRun()
    for _ in range(turns * 2):
        state, events, rolls = next_player_turn(state, dice, **placement)  # type: ignore[arg-type]
        dr = next(r.final for r in rolls if r.purpose.startswith("wind change DR"))
        out.append(TurnRecord(state.turn, state.player_turn, dr, tuple(events),
                              tuple(rolls), state))
    return out
