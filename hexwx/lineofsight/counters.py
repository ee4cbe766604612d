"""The counters on the map as game state: what each counter is, and the immutable collection.

A :class:`Counter` is a named piece in a hex (at a level of the hex, or in bypass at a hexside);
its :class:`CounterType` comes from the catalogue below, by the names VASL's pieces carry
(``CounterMetadata.xml`` and the module's own pieces: ``"+3 Smoke"``, ``"Red FFE:1"``,
``"PzKpfw IVH Wreck"``, a label typed on a counter, ``"White +3 Smoke (A)"``).  An unknown name
is a :class:`~hexwx.errors.UsageError` naming it, never a silent vehicle.  :class:`Counters` is the
frozen collection queries take (``los(..., counters=...)``), like the weather: never part of
the map.  :mod:`hexwx.lineofsight.counter_los` applies them to LOS.

The rulebook sections are cited as ``rule``; the values are VASL's counter metadata where it
has them (SMOKE DRM and height in levels above the counter's Location).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from functools import lru_cache

from hexwx.errors import UsageError
from hexwx.hexmap.coords import hexside_number
from hexwx.validate import bad

#: Kinds of counter and what they do to LOS (docs/counters.md).
KINDS: tuple[str, ...] = ("smoke", "blaze", "vehicle", "wreck", "rubble", "entrenchment", "oba",
                          "location", "no effect")

#: SMOKE-type counters: name -> (kind, hindrance DRM, height in levels, rule).  SMOKE is a LOS
#: Hindrance of its DRM up to its height (A24); white phosphorus rises higher (A24); a Blaze
#: is SMOKE of +3 rising two levels above its building's top (B25).
SMOKE_TABLE: dict[str, tuple[str, int, int, str]] = {
    "White +3 Smoke":   ("smoke", 3, 2, "A24"),
    "White +2 Smoke":   ("smoke", 2, 2, "A24"),
    "Gray +2 Smoke":    ("smoke", 2, 2, "A24"),     # dispersed SMOKE
    "White +2 WP":      ("smoke", 2, 4, "A24"),
    "White +1 WP":      ("smoke", 1, 4, "A24"),
    "Gray +1 WP":       ("smoke", 1, 4, "A24"),    # dispersed WP
    "Smoke grenade +2": ("smoke", 2, 2, "A24"),
    "WP grenade +1":    ("smoke", 1, 4, "A24"),
    "Blaze":            ("blaze", 3, 2, "B25"),
    "Blazing Building": ("blaze", 3, 4, "B25"),
    "1-level Blaze":    ("blaze", 3, 4, "B25"),
    "2-level Blaze":    ("blaze", 3, 5, "B25"),
    "3-level Blaze":    ("blaze", 3, 6, "B25"),
    "4-level Blaze":    ("blaze", 3, 7, "B25"),
}

#: Rubble counters: name -> (terrain the whole hex becomes, rule).  B24: a rubbled building
#: hex is rubble terrain; the levels are VASL's terrain types of rubble at a height.
RUBBLE_TABLE: dict[str, tuple[str, str]] = {
    "Stone Rubble": ("Stone Rubble", "B24.1"),
    "Stone Rubble Ground Level": ("Stone Rubble Ground Level", "B24.1"),
    "Stone Rubble Level 1": ("Stone Rubble Level 1", "B24.1"),
    "Stone Rubble Level 2": ("Stone Rubble Level 2", "B24.1"),
    "Stone Rubble Level 3": ("Stone Rubble Level 3", "B24.1"),
    "Wood Rubble": ("Wooden Rubble", "B24.1"),
    "Wood Rubble Ground Level": ("Wooden Rubble Ground Level", "B24.1"),
    "Wood Rubble Level 1": ("Wooden Rubble Level 1", "B24.1"),
    "Wood Rubble Level 2": ("Wooden Rubble Level 2", "B24.1"),
    "Wood Rubble Level 3": ("Wooden Rubble Level 3", "B24.1"),
}

#: Entrenchments (B27): a Location in the hex; they change neither the hex's terrain nor its LOS
#: hindrances (VASL makes the whole hex open ground: docs/vasl-conformance.md).
ENTRENCHMENTS: dict[str, str] = {
    "1S Foxhole": "B27.1", "2S Foxhole": "B27.1", "3S Foxhole": "B27.1", "Foxhole": "B27.1",
    "1S Foxhole Sand": "B27.1", "2S Foxhole Sand": "B27.1", "3S Foxhole Sand": "B27.1",
    "Trench": "B27.1", "Trench BRT": "B27.1", "A-T Ditch": "B27.56",
}

#: Location markers: name -> (level the units above them stand at, rule).  ``None``: the
#: building's rooftop (B23.8).
LOCATION_MARKERS: dict[str, tuple[int | None, str]] = {
    **{f"{kind} Ground Level": (0, "B23.2") for kind in ("Building", "Fort Bldg", "Strongpoint")},
    **{f"{kind} Level {n}": (n, "B23.2") for kind in ("Building", "Fort Bldg", "Strongpoint")
       for n in (1, 2, 3)},
    "Building Roof Level": (None, "B23.8"),
}

#: Pieces with no LOS effect that carry VASL's Hindrance marker (VASL ignores them by name
#: prefix: barricades, roadblocks, debris).
NO_EFFECT_PREFIXES: tuple[str, ...] = ("Barricade", "Breached Barricade", "Roadblock",
                                       "Palm Debris")

#: SMOKE under the weather (E3.53 rain, E3.734 Mud and/or Deep Snow): the weather's condition
#: (an :class:`~hexwx.weather.asl.state.AslWeather` attribute), its rule, and the only SMOKE
#: that can exist then.  Rain: SMOKE emanating from a Blaze, or from SMOKE grenades placed
#: inside a building (A24.6); Mud / Deep Snow: SMOKE entirely placed inside a building (3.8) or
#: emanating from a Blaze.  Such SMOKE still fills the hex.  Every other SMOKE-kind counter
#: (placed SMOKE and WP, dispersed, SMOKE fire missions) does not exist: queries leave it out
#: with a note (:func:`under_weather`).
SMOKE_WEATHER: tuple[tuple[str, str, str], ...] = (
    ("rain", "E3.53", "only SMOKE from a Blaze or SMOKE grenades placed inside a building "
                      "exists"),
    ("mud", "E3.734", "only SMOKE entirely placed inside a building or from a Blaze exists"),
    ("deep_snow", "E3.734", "only SMOKE entirely placed inside a building or from a Blaze "
                            "exists"),
)
_WEATHER_WORDS = {"rain": "rain", "mud": "Mud", "deep_snow": "Deep Snow"}

#: OBA Fire For Effect: a +1 LOS Hindrance once per LOS within its blast area, up to two
#: levels (C1; VASL's reading, radius 1, height 2, kept as data).
OBA_RADIUS = 1
OBA_HEIGHT = 2
OBA_RULE = "C1"

#: Vehicles and wrecks: a +1 LOS Hindrance in their hex (D9; wrecks D10).
VEHICLE_DRM = 1
VEHICLE_RULE = "D9"
WRECK_RULE = "D10"

_SMOKE_NAME = re.compile(r"^(?:(White|Gray|Grey) )?\+([1-3]) (?:(grey) )?(Smoke|WP)$", re.I)
_FFE_NAME = re.compile(r"^(?:(?:Red|Blue|Green) )?(?:Har )?FFE ?(?::(?:[12C]|--))?$", re.I)
_SMOKE_FFE = re.compile(r"^\+([1-3]) (Smoke Sm|WP WP) FFE ?(?::(?:[12C]|--))?$", re.I)
_SMOKE_FOLDED = {k.lower(): k for k in SMOKE_TABLE}
_LABEL = re.compile(r"^(.*\S) \([^()]*\)$")
_CLIMB = re.compile(r"^Climb (-?\d): 1 ca[1-6]$")
_CREST = re.compile(r"^Crest ca[1-6]$")


@dataclass(frozen=True)
class CounterType:
    """What a counter is: its kind (:data:`KINDS`), hindrance DRM, height in levels above its
    Location (SMOKE), the terrain a rubble counter makes of its hex, the level of a location
    marker (None = rooftop), the blast radius of an OBA, and the rule."""

    name: str
    kind: str
    drm: int = 0
    height: int = 0
    terrain: str | None = None
    level: int | None = 0
    radius: int = 0
    rule: str = ""

    @property
    def hinders(self) -> bool:
        """Whether the counter is a LOS hindrance (SMOKE, Blaze, vehicle, wreck, OBA)."""
        return self.kind in ("smoke", "blaze", "vehicle", "wreck", "oba")


@lru_cache(maxsize=4096)
def counter_type(name: str) -> CounterType:
    """The :class:`CounterType` of a piece named ``name`` (VASL's piece names; a trailing label
    ``" (x)"`` and spaces are dropped).  ``"vehicle:NAME"`` is a vehicle of that name; a name
    ending in ``Wreck`` is a wreck.  UsageError naming ``name`` for anything else."""
    if not isinstance(name, str) or not name.strip():
        raise UsageError(f"bad counter name {name!r}; expected a counter name such as "
                         f"'White +3 Smoke' or 'vehicle:T-34 M43'")
    text = " ".join(name.split())
    found = _lookup(text)
    if found is None:
        label = _LABEL.match(text)
        if label:
            found = _lookup(label.group(1))
    if found is None:
        raise UsageError(f"unknown counter {name!r}; expected a SMOKE, Blaze, wreck, rubble, "
                         f"entrenchment, FFE or location-marker name as VASL's pieces carry it "
                         f"(e.g. 'White +3 Smoke', 'Burnt Out Wreck', 'Stone Rubble', "
                         f"'1S Foxhole', 'Red FFE:1'), or 'vehicle:NAME' for a vehicle")
    return found


def _lookup(text: str) -> CounterType | None:
    """The type of an exact (space-normalised) name, or None."""
    key = _SMOKE_FOLDED.get(text.lower())
    if key is not None:
        kind, drm, height, rule = SMOKE_TABLE[key]
        return CounterType(key, kind, drm, height, rule=rule)
    m = _SMOKE_NAME.match(text)
    if m:
        wp = m.group(4).lower() == "wp"
        return CounterType(text, "smoke", int(m.group(2)), 4 if wp else 2,
                           rule="A24")
    m = _SMOKE_FFE.match(text)
    if m:   # a SMOKE/WP fire mission: SMOKE of its DRM in the blast area (C1)
        wp = m.group(2).lower().startswith("wp")
        return CounterType(text, "smoke", int(m.group(1)), 4 if wp else 2, radius=OBA_RADIUS,
                           rule="C1")
    if _FFE_NAME.match(text) or re.match(r"^(Red|Blue|Green) OBA FFE:[12C]$", text, re.I):
        return CounterType(text, "oba", 1, OBA_HEIGHT, radius=OBA_RADIUS, rule=OBA_RULE)
    low = text.lower()
    if low.startswith("vehicle:") and text[8:].strip():
        return CounterType(text[8:].strip(), "vehicle", VEHICLE_DRM, rule=VEHICLE_RULE)
    if low == "vehicle":
        return CounterType("vehicle", "vehicle", VEHICLE_DRM, rule=VEHICLE_RULE)
    if low == "wreck" or low.endswith(" wreck"):
        return CounterType(text, "wreck", VEHICLE_DRM, rule=WRECK_RULE)
    for table_name, (terrain, rule) in RUBBLE_TABLE.items():
        if table_name.lower() == low:
            return CounterType(table_name, "rubble", terrain=terrain, rule=rule)
    for table_name, rule in ENTRENCHMENTS.items():
        if table_name.lower() == low:
            return CounterType(table_name, "entrenchment", rule=rule)
    for table_name, (level, rule) in LOCATION_MARKERS.items():
        if table_name.lower() == low:
            return CounterType(table_name, "location", level=level, rule=rule)
    m = _CLIMB.match(text)
    if m:
        return CounterType(text, "location", level=int(m.group(1)), rule="B11.4")
    if _CREST.match(text):
        return CounterType(text, "location", level=0, rule="B20.91")
    if any(low.startswith(p.lower()) for p in NO_EFFECT_PREFIXES):
        return CounterType(text, "no effect", rule="B29")
    return None


def is_grenade(t: CounterType) -> bool:
    """Whether ``t`` is SMOKE placed by grenades (``Smoke grenade +2``, ``WP grenade +1``;
    A24.6): the only SMOKE that goes inside a building's ground-level Location."""
    return t.kind == "smoke" and "grenade" in t.name.lower()


@dataclass(frozen=True)
class Counter:
    """A counter on the map: its name, hex, level in the hex (a building level for SMOKE inside
    a building, A24.6) and hexside 0-5 when it is in bypass (D2.3).  Its :attr:`type` is looked
    up when it is made, so a bad name fails here."""

    name: str
    hex: str
    level: int = 0
    hexside: int | None = None

    def __post_init__(self) -> None:
        counter_type(self.name)
        if not isinstance(self.hex, str) or not self.hex.strip():
            raise UsageError(f"counter {self.name!r}: bad hex {self.hex!r}; expected a hex name "
                             f"such as C5 or 2C5")
        if isinstance(self.level, bool) or not isinstance(self.level, int):
            raise UsageError(f"counter {self.name!r} in {self.hex}: level must be a whole number, "
                             f"got {self.level!r}")
        if self.hexside is not None and (isinstance(self.hexside, bool)
                                         or self.hexside not in range(6)):
            raise UsageError(f"counter {self.name!r} in {self.hex}: hexside must be 0-5, got "
                             f"{self.hexside!r}")

    @property
    def type(self) -> CounterType:
        return counter_type(self.name)

    @property
    def kind(self) -> str:
        return self.type.kind

    def spec(self) -> str:
        """The counter as ``--counter`` writes it: ``NAME@HEX[:LEVEL]``."""
        return f"{self.name}@{self.hex}" + (f":{self.level}" if self.level else "")

    def to_json(self) -> dict[str, object]:
        t = self.type
        out: dict[str, object] = {"name": self.name, "hex": self.hex, "level": self.level,
                                  "kind": t.kind, "rule": t.rule}
        if t.hinders:
            out["drm"] = t.drm
        if self.hexside is not None:
            out["hexside"] = self.hexside
        return out


@dataclass(frozen=True)
class Counters:
    """The counters on the map: an immutable, hashable collection passed to queries, like the
    weather (DESIGN principle 5).  Empty by default; ``Counters.none()`` is the bare map."""

    items: tuple[Counter, ...] = ()

    def __post_init__(self) -> None:
        items = tuple(self.items)
        for c in items:
            if not isinstance(c, Counter):
                raise UsageError(f"counters: expected Counter objects, got {c!r}")
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "_hash", hash(items))   # queries look it up per call

    def __hash__(self) -> int:
        return self._hash   # type: ignore[attr-defined, no-any-return]

    @classmethod
    def none(cls) -> "Counters":
        return cls(())

    @classmethod
    def of(cls, counters: "Counters | Sequence[Counter | str] | None") -> "Counters":
        """``counters`` as a :class:`Counters`: one already, None (none), or a list or tuple of
        :class:`Counter` and ``"NAME@HEX[:LEVEL]"`` strings; anything else is a UsageError
        naming ``counters``."""
        if counters is None:
            return EMPTY
        if isinstance(counters, Counters):
            return counters
        expected = ("Counters, None or a list of Counter and \"NAME@HEX[:LEVEL]\" strings "
                    "(one string: write [\"NAME@HEX\"])")
        if not isinstance(counters, (list, tuple)) or \
                not all(isinstance(c, (Counter, str)) for c in counters):
            raise bad("counters", counters, expected)
        try:
            return cls(tuple(c if isinstance(c, Counter) else parse_counter(c) for c in counters))
        except UsageError as exc:
            raise UsageError(f"counters: {exc}", param="counters") from None

    def __iter__(self) -> Iterator[Counter]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __add__(self, other: "Counters") -> "Counters":
        return Counters(self.items + Counters.of(other).items)

    def __repr__(self) -> str:
        return f"Counters({', '.join(c.spec() for c in self.items)})"

    def to_json(self) -> list[dict[str, object]]:
        return [c.to_json() for c in self.items]


EMPTY = Counters(())


def vehicle_counters(units: Iterable[object]) -> tuple[Counter, ...]:
    """The vehicles among ``units`` (anything with ``id``, ``hex``, ``kind``, ``level`` and
    ``hexside``) as LOS hindrances (D9): ``vehicle:ID`` in its hex, in bypass at its hexside."""
    return tuple(Counter(f"vehicle:{u.id}", u.hex, int(getattr(u, "level", 0) or 0),  # type: ignore[attr-defined]
                         getattr(u, "hexside", None))
                 for u in units if getattr(u, "kind", "") == "vehicle")


def parse_counter(text: str) -> Counter:
    """A counter from ``"NAME@HEX[:LEVEL]"`` (``--counter``); ``"NAME@HEX/S"`` puts it in
    bypass at hexside S (0-5 or N, NE, SE, S, SW, NW).  UsageError naming the text and the part
    that is wrong (name, hex, level or hexside) when malformed or unknown."""
    form = "expected NAME@HEX[:LEVEL] or NAME@HEX/S, e.g. 'White +3 Smoke@I4' or " \
           "'Building Level 1@K5:1'"
    if not isinstance(text, str) or "@" not in text:
        raise UsageError(f"bad counter {text!r}; {form}")
    name, _, where = text.rpartition("@")
    where = where.strip()
    if not name.strip():
        raise UsageError(f"bad counter {text!r}: no name before '@'; {form}")
    m = re.match(r"^([^:/]*)(?::([^/]*))?(?:/(.*))?$", where)
    hex_text, level_text, side_text = m.groups() if m else (where, None, None)
    if not re.fullmatch(r"[A-Za-z0-9]+", hex_text.strip()):
        raise UsageError(f"bad counter {text!r}: bad hex {hex_text!r}; expected a hex name such "
                         f"as C5 or 2C5 after '@'")
    level = 0
    if level_text is not None:
        if not re.fullmatch(r"-?\d+", level_text.strip()):
            raise UsageError(f"bad counter {text!r}: bad level {level_text!r}; expected a whole "
                             f"level after ':' (0 ground level, 1 a building's first level)")
        level = int(level_text)
    hexside = None
    if side_text is not None:
        hexside = hexside_number(side_text)
        if hexside is None:
            raise UsageError(f"bad counter {text!r}: bad hexside {side_text!r}; expected a "
                             f"bypass hexside after '/': 0-5 or N, NE, SE, S, SW, NW")
    return Counter(name.strip(), hex_text.strip().upper(), level, hexside)


def under_weather(counters: Counters, weather: Any, m: Any) -> tuple[Counters, tuple[str, ...]]:
    """The counters of ``counters`` that exist under ``weather`` on map ``m`` and a note per
    counter left out (:data:`SMOKE_WEATHER`: E3.53 rain, E3.734 Mud / Deep Snow).  A Blaze
    (kind ``blaze``, a burning wreck's too) stays; so does SMOKE inside a building: a SMOKE
    counter at a building level above ground (not the rooftop), or a grenade's at the
    building's ground level (:func:`is_grenade`; a plain SMOKE counter at level 0 of a
    building hex is the hex's SMOKE, placed from outside).  Everything that is not SMOKE is
    kept.  ``weather`` None, Clear or without rain, Mud and Deep Snow: ``counters`` unchanged.
    A counter whose hex is not on ``m`` is kept (its error comes when it is placed)."""
    conds = [(word, rule, what) for word, rule, what in SMOKE_WEATHER
             if weather is not None and getattr(weather, word, False)]
    if not conds or not counters:
        return counters, ()
    return _under_weather(counters, tuple(conds), m)


@lru_cache(maxsize=64)
def _under_weather(counters: Counters, conds: tuple[tuple[str, str, str], ...],
                   m: Any) -> tuple[Counters, tuple[str, ...]]:
    kept: list[Counter] = []
    notes: list[str] = []
    when = " and ".join(_WEATHER_WORDS[w] for w, _r, _t in conds)
    rules = ", ".join(dict.fromkeys(r for _w, r, _t in conds))
    for c in counters:
        t = c.type
        if t.kind != "smoke" or _inside_building(c, t, m):
            kept.append(c)
            continue
        notes.append(f"{t.name} in {c.hex}{f' level {c.level}' if c.level else ''} left out: "
                     f"during {when} {conds[0][2]} ({rules})")
    return Counters(tuple(kept)), tuple(notes)


def _inside_building(c: Counter, t: CounterType, m: Any) -> bool:
    """Whether SMOKE counter ``c`` is kept as SMOKE inside a building Location of ``m`` (E3.53,
    E3.734).  A counter off the map or at a level its hex lacks is kept too: it is refused,
    with its error, where it is placed (:func:`hexwx.lineofsight.counter_los.prepare`)."""
    try:
        h = m.parse(c.hex)
    except UsageError:
        return True
    if c.level not in m.levels_at(h):
        return True
    if not m.terrain_of(h).is_building or m.is_rooftop(h, c.level):
        return False
    return c.level > 0 or is_grenade(t)
