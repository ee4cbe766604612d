"""ASL Chapter E3 weather: the weather state (:class:`AslWeather`) and a Drift counter.

The weather never lives inside a map (DESIGN principle 5): :class:`AslWeather` is a frozen
value that queries (LOS, movement) take as an argument, and each turn makes a new one.  The
charts are data in :mod:`hexwx.weather.asl.charts`; :mod:`hexwx.weather.asl.rolls` rolls on
them (the DYO determination, the Wind Change DR), :mod:`hexwx.weather.asl.drifts` places
drifts and :mod:`hexwx.weather.asl.effects` lists what a state does.

Public entry points: :class:`AslWeather` (validated on construction), :class:`Drift`,
:func:`parse_month`, :func:`parse_base`.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Iterable

from hexwx.frozen import short_repr
from hexwx.errors import UsageError
from hexwx.hexmap.coords import is_hex_name, parse_hexside
from hexwx.validate import bad, check_flag, is_whole, one_of, whole
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


def parse_month(text: str | int, param: str = "month") -> str:
    """``"mar"``, ``"March"``, ``3`` -> ``"Mar"``; a :class:`UsageError` naming the parameter
    ``param`` for anything else."""
    key = str(text).strip().lower() if isinstance(text, (str, int)) and not isinstance(text, bool) else ""
    if key not in _MONTH_ALIASES:
        raise bad(param, text, f"one of {', '.join(C.MONTHS)} (or the full name or number)")
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
        raise UsageError(f"weather {text!r}: fog and mist exclude each other (E3.3 gives one)")
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
    """A Drift counter (E3.75): the hex it lies in and the one hexside it affects (0=N … 5=NW)."""

    hex: str
    hexside: int

    def __post_init__(self) -> None:
        if not isinstance(self.hex, str) or not is_hex_name(self.hex):
            raise bad("hex", self.hex, "a drift's hex name such as 2I4 or C5")
        if not is_whole(self.hexside, 0, 5):
            raise bad("hexside", self.hexside, f"a hexside of {self.hex} 0-5 (0=N, 1=NE, 2=SE, "
                                               "3=S, 4=SW, 5=NW)")
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

#: The on/off fields of AslWeather (each must be a real bool: "yes" is refused, not true).
_FLAG_FIELDS = ("rain", "falling_snow", "heavy", "ground_snow", "deep_snow", "extreme_winter",
                "drifts_in_play", "gusts", "rained", "plowed_roads")


#: Properties of :class:`AslWeather` that are not constructor arguments, with what to write.
_DERIVED_ARGS: dict[str, str] = {
    "mud": 'Mud is a weather chart result (E3.6): write base="Mud" (or base="Mud & Overcast")',
    "mist": 'Mist is a weather chart result (E3.32): write base="Mist"',
    "overcast": 'Overcast is a weather chart result (E3.5): write base="Overcast"',
    "gusty": 'Gusty is a weather chart result (E3.4): write base="Gusty" (or "Clear & Gusty")',
    "fog": "fog is given by its level: write fog_level=L (fog at level L and lower, E3.31)",
    "snow": 'Snow is a weather chart result (E3.7): write base="Snow" with ground_snow=True, '
            "deep_snow=True or falling_snow=True",
}


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

    def __repr__(self) -> str:
        return short_repr(self)

    def __new__(cls, *args: object, **kwargs: object) -> "AslWeather":
        """Refuse the derived names (``mud=True``...) with the argument that means them."""
        for name in kwargs:
            if name in _DERIVED_ARGS:
                raise UsageError(f"AslWeather has no {name}= argument; {_DERIVED_ARGS[name]}")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for name in _FLAG_FIELDS:
            check_flag(getattr(self, name), name)
        if not isinstance(self.drifts, (tuple, list)) or not all(
                isinstance(d, (Drift, str)) for d in self.drifts):
            raise bad("drifts", self.drifts, "a tuple of Drift (or of 'HEX:SIDE' texts)")
        if not isinstance(self.base, str):
            raise bad("base", self.base, "a string such as 'Mud & Overcast'")
        comps = set(parse_base(self.base))
        if self.month is not None:
            object.__setattr__(self, "month", parse_month(self.month))
        # fog ------------------------------------------------------------------------------
        if self.fog_level is not None:
            whole(self.fog_level, "fog_level", -1, 4,
                  expected="a level -1 to 4 (fog at that level and lower, E3.31)")
            if "Mist" in comps:
                raise UsageError("fog and mist exclude each other (E3.3 gives one)")
            comps.add("Fog")
            if self.fog_drm is None:
                object.__setattr__(self, "fog_drm", 1)
        if self.fog_drm is not None:
            if self.fog_level is None:
                raise UsageError(f"fog_drm {self.fog_drm!r} given without fog; give a fog_level "
                                 "too", param="fog_drm")
            whole(self.fog_drm, "fog_drm", 1, 3, expected="1, 2 or 3 (the fog density DRM, E3.311)")
        # precipitation --------------------------------------------------------------------
        if self.rain and self.falling_snow:
            raise UsageError("rain and falling snow exclude each other; choose one")
        if self.heavy and not (self.rain or self.falling_snow):
            raise UsageError("intensified precipitation (heavy) needs rain or falling snow "
                             "(E3.51, E3.71)")
        if (self.rain or self.falling_snow) and comps & {"Fog", "Mist"}:
            raise UsageError("rain/falling snow cannot fall in fog or mist weather: the chart "
                             "gives fog/mist or overcast, not both (E3.3, E3.51)")
        snowy = self.falling_snow or self.ground_snow or self.deep_snow or self.extreme_winter
        if self.rain and snowy:
            raise UsageError("rain cannot be combined with snow conditions; use falling snow")
        if self.ground_snow and self.deep_snow:
            raise UsageError("ground snow and deep snow exclude each other (E3.7); choose one")
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
            raise UsageError("drifts need ground snow or deep snow (E3.75)", param="drifts")
        # wind, turn -----------------------------------------------------------------------
        one_of(self.wind, C.WIND_FORCES, "wind")
        if self.wind_direction is not None:
            whole(self.wind_direction, "wind_direction", 0, 5, expected="a hexside 0-5")
        if self.gusts and "Gusty" not in comps and self.wind != "gusts":
            raise UsageError("gusts in force need gusty weather (E3.4) or wind force 'gusts'")
        whole(self.turn, "turn", 1)
        whole(self.player_turn, "player_turn", 1, 2, expected="1 or 2")
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
        """Fog is present now (E3.31); False once it has lifted below level -1."""
        return self.fog_level is not None

    @property
    def mist(self) -> bool:
        """Mist LV applies (E3.32): Mist weather, or rain (E3.52) or falling snow (E3.711)."""
        return self._has("Mist") or self.rain or self.falling_snow

    @property
    def overcast(self) -> bool:
        """Overcast (E3.5): from the chart, or brought by rain/falling snow (E3.71)."""
        return self._has("Overcast")

    @property
    def gusty(self) -> bool:
        """Gusty weather (E3.4)."""
        return self._has("Gusty")

    @property
    def mud(self) -> bool:
        """Mud (E3.6)."""
        return self._has("Mud")

    @property
    def snow(self) -> bool:
        """Snow weather of any kind (E3.7)."""
        return self._has("Snow")

    @property
    def any_snow(self) -> bool:
        """"Any type of snow" for winter camouflage (E3.712, E3.72, E3.73): falling, ground, deep."""
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
        """Wind force in effect this Player Turn: ``gusts`` while a Gust is in force (E3.4)."""
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
        """Weather has no effect at all (E3.2)."""
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
