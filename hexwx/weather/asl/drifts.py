"""Drift placement (E3.75, E3.751) with the RULES-NOTES reading, on a map or by hex names."""
from __future__ import annotations

from typing import Callable, Sequence

from hexwx.dice import Dice
from hexwx.hexmap.coords import board_neighbour, split_name
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.records import ChartRoll, chart_roll
from hexwx.weather.asl.state import AslWeather, Drift

# -------------------------------------------------------------------------------------------
# drift placement (3.75, 3.751) with the RULES-NOTES reading
# -------------------------------------------------------------------------------------------

HexSet = Sequence[str] | Callable[[str], bool] | None
Neighbour = Callable[[str, int], "str | None"]

def _valid(hexes: HexSet, name: str) -> bool:
    if hexes is None:
        return True
    if callable(hexes):
        return bool(hexes(name))
    return name in hexes


def board_of(name: str) -> str:
    """The board prefix of a hex name (``"2I4"`` -> ``"2"``, ``"I4"`` -> ``""``)."""
    parts = split_name(name)
    return parts[0] if parts else ""


def place_drift(state: AslWeather, board: str, dice: Dice, *, hexes: HexSet = None,
                neighbour: Neighbour | None = None,
                forbidden: Callable[[str, int], bool] | None = None,
                max_rerolls: int = 20) -> tuple[AslWeather, list[ChartRoll], str]:
    """Place one Drift on ``board`` (3.75); return (new state, rolls, one-line outcome).

    Reading (RULES-NOTES): a counter is drawn from the board's unused counters (a dr, re-rolled
    while larger than the number left); it starts at coordinate 5 of its hexrow
    (:data:`~hexwx.weather.asl.charts.DRIFT_COUNTER_HEXROWS`); a Random Location DR moves it:
    coloured die = direction (1-6 -> hexside 0-5), white die = distance in hexes.  It is re-rolled
    if it lands in another drift hex or where ``forbidden(hex, hexside)`` says a drift cannot be
    (an Interior Building: the drift's hexside lies inside one building), and lost if it
    leaves the map (``hexes``, a sequence or predicate of valid hex names; without it every
    on-board hex counts).  It faces the direction the wind blows to (3.751): the state's
    ``wind_direction``, else a Random Direction dr recorded in the new state.
    """
    rolls: list[ChartRoll] = []
    left = [r for r in C.DRIFT_COUNTER_HEXROWS if f"{board}:{r}" not in state.used_drift_counters]
    label = f"board {board}" if board else "the board"
    if not left:
        return state, rolls, f"no drift counters left for {label}"
    while True:
        roll = dice.roll(1, f"drift counter draw ({label}, {len(left)} left)")
        if roll.total <= len(left):
            pick = left[roll.total - 1]
            rolls.append(chart_roll(roll, f"hexrow {pick}", "E3.75"))
            break
        rolls.append(chart_roll(roll, "re-roll", "E3.75"))
    used = state.used_drift_counters + (f"{board}:{pick}",)
    direction = state.wind_direction
    if direction is None:
        roll = dice.roll(1, "random direction dr (wind's last direction)")
        direction = roll.total - 1
        rolls.append(chart_roll(roll, f"wind blows to hexside {direction}", "E3.751"))
    step = neighbour or board_neighbour
    start = f"{board}{pick}{C.DRIFT_START_ROW}"
    taken = {d.hex for d in state.drifts}
    outcome = ""
    for _ in range(max_rerolls):
        roll = dice.roll(2, f"random location DR for drift from {start} (coloured=direction, white=distance)")
        side, dist = roll.dice[0] - 1, roll.dice[1]
        here: str | None = start
        for _s in range(dist):
            here = step(here, side) if here is not None else None
        if here is None or not _valid(hexes, here):
            rolls.append(chart_roll(roll, f"{dist} hex(es) toward hexside {side}: off the map, "
                                     "drift lost", "E3.75"))
            outcome = f"drift from {start} lost off the map"
            return state.replace(used_drift_counters=used, wind_direction=direction), rolls, outcome
        if here in taken or (forbidden is not None and forbidden(here, direction)):
            rolls.append(chart_roll(roll, f"{here}: drift hex or interior building hexside, "
                                    "roll again", "E3.75"))
            continue
        rolls.append(chart_roll(roll, f"{dist} hex(es) toward hexside {side}: {here}", "E3.75"))
        drift = Drift(here, direction)
        new = state.replace(drifts=state.drifts + (drift,), used_drift_counters=used,
                            wind_direction=direction)
        return new, rolls, f"drift placed in {here} on hexside {direction}"
    return (state.replace(used_drift_counters=used, wind_direction=direction), rolls,
            f"drift from {start} not placed after {max_rerolls} re-rolls")


def drift_boards(hexes: HexSet, boards: Sequence[str] | None) -> list[str]:
    if boards is not None:
        return [str(b) for b in boards]
    if hexes is not None and not callable(hexes):
        found = sorted({board_of(h) for h in hexes}, key=lambda b: (len(b), b))
        return found or [""]
    return [""]
