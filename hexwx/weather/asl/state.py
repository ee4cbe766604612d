"""ASL Chapter E3 weather: the weather state, the DYO roll and the Wind Change DR turn by turn.

The weather never lives inside a map (DESIGN principle 5): :class:`AslWeather` is a frozen
value that queries (LOS, movement) take as an argument, and each turn makes a new one.  The
charts are data in :mod:`hexwx.weather.asl.charts`; this module applies them with
:class:`hexwx.dice.Dice`, so every roll is logged with its purpose.

Public entry points:

* :class:`AslWeather` (validated on construction), :class:`Drift`;
* chart look-ups :func:`temperate_weather`, :func:`fog_or_mist`, :func:`fog_level`,
  :func:`fog_density`, :func:`snow_condition`;
* :func:`roll_weather` (whole pre-game DYO determination);
* :func:`next_player_turn`, :func:`wind_change`, :func:`run_weather` (turn by turn);
* :func:`place_drift` (3.75 with the RULES-NOTES placement reading);
* :func:`parse_month`.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence, TypeVar

from hexwx.dice import Dice, Roll
from hexwx.errors import UsageError
from hexwx.hexmap.coords import board_neighbour, is_hex_name, parse_hexside, split_name
from hexwx.validate import is_whole, one_of, whole
from hexwx.weather.asl import charts as C
# -------------------------------------------------------------------------------------------
# months and weather names
# -------------------------------------------------------------------------------------------

_MONTH_ALIASES = {m.lower(): m for m in C.MONTHS}
_MONTH_ALIASES.update({
    "january": "Jan", "february": "Feb", "march": "Mar", "april": "Apr", "june": "Jun",
    "july": "Jul", "august": "Aug", "september": "Sep", "sept": "Sep", "october": "Oct",
    "november": "Nov", "december": "Dec",
})
for _i, _m in enumerate(C.MONTHS, start=1):
    _MONTH_ALIASES[str(_i)] = _m


def parse_month(text: str | int) -> str:
    """``"mar"``, ``"March"``, ``3`` -> ``"Mar"``; a :class:`UsageError` for anything else."""
    key = str(text).strip().lower()
    if key not in _MONTH_ALIASES:
        raise UsageError(f"unknown month {text!r}; expected one of {', '.join(C.MONTHS)} "
                         "(or the full name or number)")
    return _MONTH_ALIASES[key]


#: Weather components a base weather is made of, in the order they are written.
BASE_COMPONENTS: tuple[str, ...] = ("Clear", "Mud", "Snow", "Fog", "Mist", "Overcast", "Gusty")


def parse_base(text: str) -> tuple[str, ...]:
    """Split ``"Mud & Overcast"`` into its components; reject unknown names and clashes."""
    parts = [p.strip() for p in re.split(r"&|\+|,", text) if p.strip()]
    if not parts:
        raise UsageError(f"empty weather {text!r}; expected e.g. Clear, Overcast, Mud & Overcast")
    names = {c.lower(): c for c in BASE_COMPONENTS}
    out: list[str] = []
    for p in parts:
        if p.lower() not in names:
            raise UsageError(f"unknown weather {p!r} in {text!r}; expected components of "
                             f"{', '.join(BASE_COMPONENTS)} joined with '&'")
        if names[p.lower()] not in out:
            out.append(names[p.lower()])
    comps = set(out)
    if "Fog" in comps and "Mist" in comps:
        raise UsageError(f"weather {text!r}: fog and mist exclude each other (3.3 gives one)")
    if "Mud" in comps and "Snow" in comps:
        raise UsageError(f"weather {text!r}: mud and snow exclude each other")
    if "Clear" in comps and comps - {"Clear", "Gusty"}:
        raise UsageError(f"weather {text!r}: clear combines only with gusty")
    return tuple(c for c in BASE_COMPONENTS if c in comps)


def _join(components: Iterable[str]) -> str:
    comps = set(components)
    if "Clear" in comps and comps - {"Clear", "Gusty"}:
        comps.discard("Clear")
    return " & ".join(c for c in BASE_COMPONENTS if c in comps) or "Clear"


# -------------------------------------------------------------------------------------------
# drifts
# -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Drift:
    """A Drift counter (3.75): the hex it lies in and the one hexside it affects (0=N … 5=NW)."""

    hex: str
    hexside: int

    def __post_init__(self) -> None:
        if not is_hex_name(self.hex):
            raise UsageError(f"bad drift hex {self.hex!r}; expected a hex name such as 2I4 or C5")
        if not is_whole(self.hexside, 0, 5):
            raise UsageError(f"bad drift hexside {self.hexside!r} for {self.hex}; expected 0-5 "
                             "(0=N, 1=NE, 2=SE, 3=S, 4=SW, 5=NW)")
        object.__setattr__(self, "hex", self.hex.upper())

    @classmethod
    def parse(cls, text: str) -> "Drift":
        """``"2C5:2"`` or ``"C5:SE"`` -> Drift (hexside as 0-5 or N/NE/SE/S/SW/NW)."""
        try:
            hex_, side = parse_hexside(str(text))
        except UsageError as exc:
            raise UsageError(f"bad drift {text!r}: {exc}") from None
        return cls(hex_, side)

    def __str__(self) -> str:
        return f"{self.hex}:{self.hexside}"


# -------------------------------------------------------------------------------------------
# the weather state
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AslWeather:
    """The E3 weather in force at one moment of a scenario (explicit state, never in the map).

    ``base`` is the weather-chart result (E3): ``Clear``, ``Overcast``, ``Gusty``, ``Fog``,
    ``Mist``, ``Mud``, ``Snow`` or a combination such as ``Clear & Gusty``, ``Mud & Overcast``.
    Fog, precipitation and snow flags add their component to ``base`` automatically (rain and
    falling snow bring Overcast: 3.51, 3.71).  ``fog_level`` L means fog at level L and lower
    (3.31); ``fog_drm`` is the density DRM per hex (3.311; default +1 when fog is given without
    it).  ``heavy`` is intensified precipitation (3.51/3.71).  ``rained`` remembers that rain
    fell earlier in the scenario (EC Wet for the rest of it, 3.51; 3.54 applies after rain).
    ``gusts`` is a Gust in force this Player Turn (3.4).  ``drifts_in_play`` says six Drift
    counters per board were specified (3.75) but not all are placed (placement needs the map).

    Construction validates everything and raises :class:`UsageError` for contradictions.
    Use :meth:`replace` for changes (it validates too).
    """

    base: str = "Clear"
    month: str | None = None
    fog_level: int | None = None
    fog_drm: int | None = None
    rain: bool = False
    falling_snow: bool = False
    heavy: bool = False
    ground_snow: bool = False
    deep_snow: bool = False
    extreme_winter: bool = False
    drifts: tuple[Drift, ...] = ()
    drifts_in_play: bool = False
    wind: str = "none"
    wind_direction: int | None = None
    gusts: bool = False
    rained: bool = False
    plowed_roads: bool = False
    turn: int = 1
    player_turn: int = 1
    phase: str = "setup"
    used_drift_counters: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        comps = set(parse_base(self.base)) if isinstance(self.base, str) else None
        if comps is None:
            raise UsageError(f"bad weather {self.base!r}; expected a string such as 'Mud & Overcast'")
        if self.month is not None:
            object.__setattr__(self, "month", parse_month(self.month))
        # fog ------------------------------------------------------------------------------
        if self.fog_level is not None:
            if not is_whole(self.fog_level, -1, 4):
                raise UsageError(f"bad fog level {self.fog_level!r}; expected a level -1 to 4 "
                                 "(fog at that level and lower, 3.31)")
            if "Mist" in comps:
                raise UsageError("fog and mist exclude each other (3.3 gives one)")
            comps.add("Fog")
            if self.fog_drm is None:
                object.__setattr__(self, "fog_drm", 1)
        if self.fog_drm is not None:
            if self.fog_level is None:
                raise UsageError(f"fog density drm {self.fog_drm!r} given without fog; "
                                 "give a fog level too (--fog LEVEL)")
            if not is_whole(self.fog_drm, 1, 3):
                raise UsageError(f"bad fog density drm {self.fog_drm!r}; expected 1, 2 or 3 (3.311)")
        # precipitation --------------------------------------------------------------------
        if self.rain and self.falling_snow:
            raise UsageError("rain and falling snow exclude each other; choose one")
        if self.heavy and not (self.rain or self.falling_snow):
            raise UsageError("intensified precipitation (heavy) needs rain or falling snow "
                             "(3.51, 3.71)")
        if (self.rain or self.falling_snow) and comps & {"Fog", "Mist"}:
            raise UsageError("rain/falling snow cannot fall in fog or mist weather: the chart "
                             "gives fog/mist or overcast, not both (3.3, 3.51)")
        snowy = self.falling_snow or self.ground_snow or self.deep_snow or self.extreme_winter
        if self.rain and snowy:
            raise UsageError("rain cannot be combined with snow conditions; use falling snow")
        if self.ground_snow and self.deep_snow:
            raise UsageError("ground snow and deep snow exclude each other (3.7); choose one")
        if snowy and "Mud" in comps:
            raise UsageError("snow (falling, ground, deep or extreme winter) cannot be combined "
                             "with mud")
        if snowy:
            comps.add("Snow")
        if self.rain or self.falling_snow:
            comps.add("Overcast")
        if self.rain:
            object.__setattr__(self, "rained", True)
        if (self.drifts or self.drifts_in_play) and not (self.ground_snow or self.deep_snow):
            raise UsageError("drifts need ground snow or deep snow (3.75)")
        # wind, turn -----------------------------------------------------------------------
        one_of(self.wind, C.WIND_FORCES, "wind force")
        if self.wind_direction is not None and not is_whole(self.wind_direction, 0, 5):
            raise UsageError(f"bad wind direction {self.wind_direction!r}; expected a hexside 0-5")
        if self.gusts and "Gusty" not in comps and self.wind != "gusts":
            raise UsageError("gusts in force need gusty weather (3.4) or wind force 'gusts'")
        whole(self.turn, "turn", 1)
        if self.player_turn not in (1, 2):
            raise UsageError(f"bad player turn {self.player_turn!r}; expected 1 or 2")
        one_of(self.phase, C.PHASES, "phase")
        drifts = tuple(d if isinstance(d, Drift) else Drift.parse(str(d)) for d in self.drifts)
        object.__setattr__(self, "drifts", drifts)
        object.__setattr__(self, "used_drift_counters", tuple(self.used_drift_counters))
        object.__setattr__(self, "base", _join(comps))

    # -- derived facts ---------------------------------------------------------------------
    def _has(self, component: str) -> bool:
        return component in self.base.split(" & ")

    @property
    def fog(self) -> bool:
        """Fog is present now (3.31); False once it has lifted below level -1."""
        return self.fog_level is not None

    @property
    def mist(self) -> bool:
        """Mist LV applies (3.32): Mist weather, or rain (3.52) or falling snow (3.711)."""
        return self._has("Mist") or self.rain or self.falling_snow

    @property
    def overcast(self) -> bool:
        """Overcast (3.5): from the chart, or brought by rain/falling snow (3.71)."""
        return self._has("Overcast")

    @property
    def gusty(self) -> bool:
        """Gusty weather (3.4)."""
        return self._has("Gusty")

    @property
    def mud(self) -> bool:
        """Mud (3.6)."""
        return self._has("Mud")

    @property
    def snow(self) -> bool:
        """Snow weather of any kind (3.7)."""
        return self._has("Snow")

    @property
    def any_snow(self) -> bool:
        """"Any type of snow" for winter camouflage (3.712, 3.72, 3.73): falling, ground, deep."""
        return self.falling_snow or self.ground_snow or self.deep_snow or self.extreme_winter

    @property
    def precipitation(self) -> str | None:
        """``"rain"``, ``"falling snow"`` or None."""
        return "rain" if self.rain else "falling snow" if self.falling_snow else None

    @property
    def precipitation_kind(self) -> str:
        """What would fall if precipitation started: falling snow in Snow weather, else rain."""
        return "falling snow" if self.snow else "rain"

    @property
    def effective_wind(self) -> str:
        """Wind force in effect this Player Turn: ``gusts`` while a Gust is in force (3.4)."""
        return "gusts" if self.gusts else self.wind

    @property
    def ec(self) -> str:
        """Environmental conditions per the RULES-NOTES reading; ``normal`` = determined by B25.5.

        Extreme Winter / Deep Snow -> Snow (3.74, 3.73); Ground Snow -> Wet (3.72); Mud -> Mud
        (3.6); rain now or earlier -> Wet (3.51); Fog/Mist -> Moist (3.3); falling snow possible
        -> Moist (3.713).
        """
        if self.extreme_winter or self.deep_snow:
            return "Snow"
        if self.ground_snow:
            return "Wet"
        if self.mud:
            return "Mud"
        if self.rained:
            return "Wet"
        if self._has("Fog") or self._has("Mist"):
            return "Moist"
        if self.falling_snow or (self.snow and self.overcast):
            return "Moist"
        return "normal"

    @property
    def is_clear(self) -> bool:
        """Weather has no effect at all (3.2)."""
        return self.base in ("Clear",) and not self.drifts

    # -- changes -----------------------------------------------------------------------------
    def replace(self, **changes: object) -> "AslWeather":
        """A copy with ``changes`` applied (validated like the constructor)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> str:
        """One line: ``Snow & Overcast: falling snow (intensified), ground snow; wind mild``."""
        bits: list[str] = []
        if self.fog:
            bits.append(f"fog at level {self.fog_level} and lower, +{self.fog_drm} per hex")
        elif self._has("Fog"):
            bits.append("fog has lifted")
        if self.precipitation:
            bits.append(self.precipitation + (" (intensified)" if self.heavy else ""))
        for name, on in (("ground snow", self.ground_snow), ("deep snow", self.deep_snow),
                         ("extreme winter", self.extreme_winter)):
            if on:
                bits.append(name)
        if self.drifts:
            bits.append("drifts " + " ".join(str(d) for d in self.drifts))
        elif self.drifts_in_play:
            bits.append("drifts in play (placement needs the map)")
        if self.gusts:
            bits.append("gusts this player turn")
        text = self.base + (": " + ", ".join(bits) if bits else "")
        tail = [f"EC {self.ec}"]
        if self.wind != "none":
            tail.append(f"wind {C.WIND_FORCE_NAMES[self.wind]}")
        if self.month:
            tail.append(self.month)
        return text + " (" + ", ".join(tail) + ")"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict of the fields plus the derived ``ec``, ``mist`` and ``overcast``."""
        out = dataclasses.asdict(self)
        out["drifts"] = [{"hex": d.hex, "hexside": d.hexside} for d in self.drifts]
        out["used_drift_counters"] = list(self.used_drift_counters)
        out.update(ec=self.ec, mist=self.mist, overcast=self.overcast, gusty=self.gusty,
                   mud=self.mud, fog=self.fog, description=self.describe())
        return out


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
# logged rolls and events
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRoll:
    """One roll on a chart: the dice, any drm, the final number, what it gave, and the rule."""

    purpose: str
    dice: tuple[int, ...]
    drm: int
    final: int
    result: str
    rule: str

    def __str__(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        raw = sum(self.dice)
        shown = f"{faces}={raw}" if len(self.dice) > 1 else faces
        if self.drm:
            shown += f" {self.drm:+d} = {self.final}"
        return f"{self.purpose}: {shown} -> {self.result} ({self.rule})"

    def to_json(self) -> dict[str, object]:
        return {"purpose": self.purpose, "dice": list(self.dice), "drm": self.drm,
                "final": self.final, "result": self.result, "rule": self.rule}


def _chart_roll(roll: Roll, result: str, rule: str, drm: int = 0, final: int | None = None) -> ChartRoll:
    return ChartRoll(roll.purpose, roll.dice, drm, roll.total + drm if final is None else final,
                     result, rule)


@dataclass(frozen=True)
class WeatherEvent:
    """Something the weather did at a moment of play, with its rule."""

    turn: int
    player_turn: int
    text: str
    rule: str

    def __str__(self) -> str:
        return f"turn {self.turn}.{self.player_turn}: {self.text} ({self.rule})"

    def to_json(self) -> dict[str, object]:
        return {"turn": self.turn, "player_turn": self.player_turn, "text": self.text,
                "rule": self.rule}


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
            rolls.append(_chart_roll(roll, f"hexrow {pick}", "3.75"))
            break
        rolls.append(_chart_roll(roll, "re-roll", "3.75"))
    used = state.used_drift_counters + (f"{board}:{pick}",)
    direction = state.wind_direction
    if direction is None:
        roll = dice.roll(1, "random direction dr (wind's last direction)")
        direction = roll.total - 1
        rolls.append(_chart_roll(roll, f"wind blows to hexside {direction}", "3.751"))
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
            rolls.append(_chart_roll(roll, f"{dist} hex(es) toward hexside {side}: off the map, "
                                     "drift lost", "3.75"))
            outcome = f"drift from {start} lost off the map"
            return state.replace(used_drift_counters=used, wind_direction=direction), rolls, outcome
        if here in taken or (forbidden is not None and forbidden(here, direction)):
            rolls.append(_chart_roll(roll, f"{here}: drift hex or interior building hexside, "
                                     "roll again", "3.75"))
            continue
        rolls.append(_chart_roll(roll, f"{dist} hex(es) toward hexside {side}: {here}", "3.75"))
        drift = Drift(here, direction)
        new = state.replace(drifts=state.drifts + (drift,), used_drift_counters=used,
                            wind_direction=direction)
        return new, rolls, f"drift placed in {here} on hexside {direction}"
    return (state.replace(used_drift_counters=used, wind_direction=direction), rolls,
            f"drift from {start} not placed after {max_rerolls} re-rolls")


def _boards(hexes: HexSet, boards: Sequence[str] | None) -> list[str]:
    if boards is not None:
        return [str(b) for b in boards]
    if hexes is not None and not callable(hexes):
        found = sorted({board_of(h) for h in hexes}, key=lambda b: (len(b), b))
        return found or [""]
    return [""]


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
    rolls.append(_chart_roll(r, base, "E3"))
    fields: dict[str, object] = dict(month=month, wind=wind, wind_direction=wind_direction)
    if base == "Fog/Mist":
        d = dice.roll(1, "fog/mist dr")
        base = fog_or_mist(d.total)
        rolls.append(_chart_roll(d, base, "3.3"))
        if base == "Fog":
            d = dice.roll(1, "fog level dr")
            level = fog_level(d.total)
            rolls.append(_chart_roll(d, f"fog at level {level} and lower", "3.31"))
            d = dice.roll(1, "fog density dr")
            drm = fog_density(d.total)
            rolls.append(_chart_roll(d, f"+{drm} per hex", "3.311"))
            fields.update(fog_level=level, fog_drm=drm)
    elif base == "Snow":
        drm = snow_chart_drm(month)
        d = dice.roll(1, "snow chart dr")
        final = max(0, d.total + drm)
        cond = snow_condition(final)
        rolls.append(_chart_roll(d, cond, "3.7", drm, final))
        if cond == "Extreme Winter":
            fields["extreme_winter"] = True
            d = dice.roll(1, "snow chart second dr (extreme winter)")
            final = max(0, d.total + drm)
            cond = snow_condition(final, second=True)
            shown = min(final, C.EXTREME_WINTER_SECOND_DR_MAX)
            rolls.append(_chart_roll(d, cond + (f" ({final} read as {shown})" if final != shown else ""),
                                     "3.74", drm, final))
        falling, ground, deep, drifts = C.SNOW_CONDITION_FLAGS[cond]
        fields.update(falling_snow=falling, ground_snow=ground, deep_snow=deep,
                      drifts_in_play=drifts)
    state = AslWeather(base=base, **fields)  # type: ignore[arg-type]
    if state.drifts_in_play and (hexes is not None or boards is not None):
        for b in _boards(hexes, boards):
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
        for b in _boards(hexes, boards):
            state, more, text = place_drift(state, b, dice, hexes=hexes, neighbour=neighbour,
                                            forbidden=forbidden)
            rolls.extend(more)
            note(f"{C.WIND_FORCE_NAMES[state.effective_wind]} with snow on the ground: {text}", "3.75")

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
        note(f"wind change DR {total} >= {C.GUSTS_DR} in gusty weather: gusts", "3.4")
    changes["gusts"] = gusts

    # 3.51 / 3.71 precipitation
    if state.overcast:
        kind = state.precipitation_kind
        rule = "3.71" if kind == "falling snow" else "3.51"
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
            note(f"{C.WIND_FORCE_NAMES[wind_now]}: fog lifts entirely", "3.312")
        else:
            changes["fog_level"] = level
            note(f"{C.WIND_FORCE_NAMES[wind_now]}: fog drops to level {level} and lower "
                 f"(once per {every})", "3.312")
    new = state.replace(phase="RPh", **changes)
    rolls.insert(at, _chart_roll(roll, ", ".join(e.text for e in events
                                                  if e.rule != "3.75") or "no change", "E3"))
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
    out: list[TurnRecord] = []
    for _ in range(turns * 2):
        state, events, rolls = next_player_turn(state, dice, **placement)  # type: ignore[arg-type]
        dr = next(r.final for r in rolls if r.purpose.startswith("wind change DR"))
        out.append(TurnRecord(state.turn, state.player_turn, dr, tuple(events),
                              tuple(rolls), state))
    return out

