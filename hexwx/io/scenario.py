"""Hex scenario files (TOML): a map, a month, the ASL weather (fixed or rolled), drifts and units.

Format (``docs/scenarios.md`` has the full description)::

    name = "Fog on the hill"
    map = "../maps/hill_village.toml"      # relative to this file; .toml map or VASL archive
    month = "Oct"
    turns = 6                              # optional

    [weather]                              # fixed keys ...
    fog = 0
    fog_drm = 1
    wind = "mild"
    # ... or: roll = true, seed = 7

    [[drifts]]                             # optional
    hex = "C5"
    hexside = 2

    [[units]]
    id = "A"
    side = "German"
    hex = "I4"
    level = 2
    kind = "infantry"
    winter_camouflage = false

Every error names the file and the key (:mod:`hexwx.io.tomlfile`).  The map loads lazily through
``hexwx.io.load.load_map`` the first time :attr:`Scenario.map` is used.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwx.dice import Dice
from hexwx.errors import DataError, UsageError
from hexwx.limits import TURNS
from hexwx.hexmap.coords import is_hex_name
from hexwx.io.tomlfile import Table, load_toml
from hexwx.lineofsight.counters import EMPTY, Counter, Counters, vehicle_counters
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.records import ChartRoll
from hexwx.weather.asl.rolls import roll_weather, run_weather
from hexwx.weather.asl.state import AslWeather, Drift, parse_month

if TYPE_CHECKING:
    from hexwx.hexmap.board import HexMap

#: Unit kinds: "other" is any piece that is neither (markers, support weapons, guns).
UNIT_KINDS: tuple[str, ...] = ("infantry", "vehicle", "other")
TOP_KEYS: tuple[str, ...] = ("name", "map", "vasl_metadata", "month", "turns", "weather",
                             "drifts", "units", "counters", "description")
#: Keys of a ``[[units]]`` entry and of a ``[[counters]]`` entry (docs/scenarios.md).
UNIT_KEYS: tuple[str, ...] = ("id", "side", "hex", "level", "kind", "winter_camouflage",
                              "nationality", "concealed", "hidden", "hexside", "entrenched")
COUNTER_KEYS: tuple[str, ...] = ("name", "hex", "level", "hexside")
#: Fixed weather keys of ``[weather]`` (booleans unless noted).
FIXED_WEATHER_KEYS: tuple[str, ...] = (
    "base", "fog", "fog_drm", "mist", "overcast", "gusty", "mud", "rain", "falling_snow", "heavy",
    "ground_snow", "deep_snow", "extreme_winter", "drifts_in_play", "wind", "wind_direction",
    "plowed_roads")
ROLL_WEATHER_KEYS: tuple[str, ...] = ("roll", "seed", "wind", "wind_direction", "plowed_roads")

@dataclass(frozen=True)
class ScenarioUnit:
    """A unit placed on the map: id, side, hex, level, kind (infantry/vehicle/other), winter
    camouflage, nationality; concealed ("?", A12), hidden (HIP, A12.3), in bypass at a hexside
    (D2.3), in an entrenchment (B27).  ``side`` is "" for pieces of no side (markers).  A unit
    of kind ``vehicle`` is itself a LOS hindrance (D9) to others' LOS."""

    id: str
    side: str
    hex: str
    level: int = 0
    kind: str = "infantry"
    winter_camouflage: bool = False
    nationality: str = ""
    concealed: bool = False
    hidden: bool = False
    hexside: int | None = None
    entrenched: bool = False

    @property
    def is_infantry(self) -> bool:
        return self.kind == "infantry"


@dataclass
class Scenario:
    """A loaded hex scenario.  ``weather`` is the state at setup; ``rolls`` the DYO chart rolls."""

    path: Path
    name: str
    map_path: Path
    month: str | None
    weather: AslWeather
    units: tuple[ScenarioUnit, ...] = ()
    rolls: tuple[ChartRoll, ...] = ()
    seed: int | None = None
    turns: int | None = None
    vasl_metadata: Path | None = None
    map_layout: dict[str, Any] | None = None   # a ``[map]`` table: vasl_boards (+ ssr)
    counters: Counters = EMPTY                 # the ``[[counters]]`` on the map
    _map: HexMap | None = field(default=None, repr=False)

    @property
    def map(self) -> HexMap:
        """The map, loaded on first use with :func:`hexwx.io.load.load_map` (or the layout
        of a ``[map]`` table)."""
        if self._map is None and self.map_layout is not None:
            self._map = _load_layout_table(self)
        if self._map is None:
            if not self.map_path.exists():
                raise DataError(f"{self.path}: map: no such file {str(self.map_path)!r}")
            from hexwx.io.load import load_map  # the VASL reader and its numpy only when needed
            self._map = load_map(self.map_path, vasl_metadata=self.vasl_metadata)
        return self._map

    def weather_at(self, turn: int, *, seed: int | None = None,
                   hexes: list[str] | None = None) -> AslWeather:
        """The weather of Game Turn ``turn`` (its first Player Turn, after its Wind Change DR,
        E3.4): the setup weather run turn by turn with ``Dice(seed)`` (default: the scenario's
        seed, else 0).  ``hexes`` (the map's hex names) places new drifts."""
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
            raise UsageError(f"bad turn {turn!r}; expected a whole number >= 1")
        if self.turns is not None and turn > self.turns:
            raise UsageError(f"turn {turn} is past the end of {self.path} ({self.turns} turns)")
        dice = Dice(seed=seed if seed is not None else (self.seed if self.seed is not None else 0))
        records = run_weather(self.weather, dice, turn, hexes=hexes)
        return records[2 * (turn - 1)].state

    @property
    def los_counters(self) -> Counters:
        """What lies on the map for LOS: the ``[[counters]]`` and the vehicles among the units
        (a vehicle is a LOS hindrance, D9)."""
        return Counters(self.counters.items + vehicle_counters(self.units))

    def unit(self, unit_id: str) -> ScenarioUnit:
        """The unit with id ``unit_id``."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise UsageError(f"no unit {unit_id!r} in {self.path}; expected one of "
                         f"{', '.join(u.id for u in self.units) or '(none)'}")

    def to_json(self) -> dict:
        return {"path": str(self.path), "name": self.name,
                "map": self.map_layout if self.map_layout is not None else str(self.map_path),
                "month": self.month, "turns": self.turns, "seed": self.seed,
                "weather": self.weather.to_json(), "rolls": [r.to_json() for r in self.rolls],
                "units": [u.__dict__ for u in self.units], "counters": self.counters.to_json()}


#: Keys of a scenario's ``[map]`` table (a layout of VASL boards, docs/scenarios.md).
MAP_TABLE_KEYS: tuple[str, ...] = ("vasl_boards", "ssr", "persist_elevation")


def _load_layout_table(sc: "Scenario") -> HexMap:
    """The map of a scenario whose ``map`` is a layout table (:mod:`hexwx.io.layout`)."""
    from hexwx.io.layout import load_layout
    spec = sc.map_layout or {}
    try:
        return load_layout(spec["vasl_boards"], metadata=sc.vasl_metadata,
                           ssr=tuple(spec.get("ssr", ())), name=sc.path.name,
                           persist_elevation=bool(spec.get("persist_elevation", False)))
    except UsageError as exc:
        raise DataError(f"{sc.path}: map: {exc}") from None


def _fixed_weather(w: Table, month: str | None) -> AslWeather:
    w.check_keys(FIXED_WEATHER_KEYS + ("roll",))
    comps: list[str] = []
    base = w.str("base", None)
    if base:
        comps.append(base)
    for key, comp in (("mist", "Mist"), ("overcast", "Overcast"), ("gusty", "Gusty"), ("mud", "Mud")):
        if w.bool(key, False):
            comps.append(comp)
    fields: dict[str, Any] = dict(
        base=" & ".join(comps) or "Clear", month=month,
        fog_level=w.int("fog", None, min=-1, max=4), fog_drm=w.int("fog_drm", None, min=1, max=3),
        wind=w.str("wind", "none", choices=C.WIND_FORCES),
        wind_direction=w.int("wind_direction", None, min=0, max=5),
    )
    for key in ("rain", "falling_snow", "heavy", "ground_snow", "deep_snow", "extreme_winter",
                "drifts_in_play", "plowed_roads"):
        fields[key] = w.bool(key, False)
    try:
        return AslWeather(**fields)
    except UsageError as exc:
        raise w.error(None, str(exc)) from None


def load_scenario(path: str | Path, *, check_map: bool = True) -> Scenario:
    """Read a hex scenario file; raise :class:`DataError` naming file and key on bad input.

    With ``check_map`` (the default) the map of a scenario with units or drifts is loaded and
    every unit's hex and level and every drift's hexside are checked against it."""
    p = Path(path)
    t = load_toml(p)
    t.check_keys(TOP_KEYS)
    name = t.str("name", p.stem)
    map_layout = None
    if isinstance(t.raw("map", None), dict):
        mt = t.table("map")
        mt.check_keys(MAP_TABLE_KEYS)
        rows = mt.list("vasl_boards")
        ssr = mt.list("ssr", [])
        if not all(isinstance(x, str) for x in ssr):
            raise mt.error("ssr", f"expected a list of SSR names, got {ssr!r}")
        map_layout = {"vasl_boards": rows, "ssr": list(ssr),
                      "persist_elevation": mt.bool("persist_elevation", False)}
        map_path = p
    else:
        map_rel = t.str("map")
        map_path = (p.parent / map_rel) if not Path(map_rel).is_absolute() else Path(map_rel)
    meta = t.str("vasl_metadata", None)
    meta_path = None if meta is None else (p.parent / meta if not Path(meta).is_absolute() else Path(meta))
    month_text = t.raw("month", None)
    month = None
    if month_text is not None:
        if not isinstance(month_text, (str, int)) or isinstance(month_text, bool):
            raise t.error("month", f"expected a month name such as 'Oct', got {month_text!r}")
        try:
            month = parse_month(month_text)
        except UsageError as exc:
            raise t.error("month", str(exc)) from None
    turns = t.int("turns", None, min=1, max=TURNS.value)  # hexwx.limits.TURNS
    w = t.table("weather", None)
    rolls: tuple[ChartRoll, ...] = ()
    seed = None
    if w is None:
        weather = AslWeather(month=month)
    elif w.bool("roll", False):
        w.check_keys(ROLL_WEATHER_KEYS)
        if month is None:
            raise t.error("month", "missing: rolled weather (roll = true) needs the month")
        seed = w.int("seed", None)
        try:
            weather, rl = roll_weather(month, Dice(seed=seed),
                                       wind=w.str("wind", "none", choices=C.WIND_FORCES),
                                       wind_direction=w.int("wind_direction", None, min=0, max=5))
            if w.bool("plowed_roads", False):
                weather = weather.replace(plowed_roads=True)
        except UsageError as exc:
            raise w.error(None, str(exc)) from None
        rolls = tuple(rl)
    else:
        weather = _fixed_weather(w, month)
    drifts = []
    for d in t.tables("drifts", []):
        d.check_keys(("hex", "hexside"))
        hex_ = d.str("hex")
        if not is_hex_name(hex_):
            raise d.error("hex", f"expected a hex name such as C5 or 2C5, got {hex_!r}")
        drifts.append(Drift(hex_, d.int("hexside", min=0, max=5)))
    if drifts:
        try:
            weather = weather.replace(drifts=weather.drifts + tuple(drifts),
                                      drifts_in_play=False)
        except UsageError as exc:
            raise t.error("drifts", str(exc)) from None
    units = []
    seen: set[str] = set()
    for u in t.tables("units", []):
        u.check_keys(UNIT_KEYS)
        uid = u.str("id")
        if uid in seen:
            raise u.error("id", f"duplicate unit id {uid!r}")
        seen.add(uid)
        hex_ = u.str("hex")
        if not is_hex_name(hex_):
            raise u.error("hex", f"expected a hex name such as C5 or 2C5, got {hex_!r}")
        units.append(ScenarioUnit(uid, u.str("side", ""), hex_.upper(), u.int("level", 0, min=-1),
                                  u.str("kind", "infantry", choices=UNIT_KINDS),
                                  u.bool("winter_camouflage", False), u.str("nationality", ""),
                                  u.bool("concealed", False), u.bool("hidden", False),
                                  u.int("hexside", None, min=0, max=5),
                                  u.bool("entrenched", False)))
    counters = []
    for c in t.tables("counters", []):
        c.check_keys(COUNTER_KEYS)
        try:
            counters.append(Counter(c.str("name"), c.str("hex").upper(),
                                    c.int("level", 0, min=-1), c.int("hexside", None, min=0, max=5)))
        except UsageError as exc:
            raise c.error(None, str(exc)) from None
    sc = Scenario(p, name, map_path, month, weather, tuple(units), rolls, seed, turns, meta_path,
                  map_layout, Counters(tuple(counters)))
    if check_map and (sc.units or sc.weather.drifts or sc.counters):
        check_against_map(sc)
    return sc


def check_against_map(sc: Scenario) -> None:
    """DataError naming the key unless every unit's hex and level and every drift's hexside
    exist on the scenario's map (loaded here, once): bad placements fail at load, not when used."""
    m = sc.map
    for i, u in enumerate(sc.units):
        try:
            h = m.parse(u.hex)
        except UsageError as exc:
            raise DataError(f"{sc.path}: units[{i}].hex: {exc}") from None
        levels = m.levels_at(h)
        if u.level not in levels and not (u.level == -1 and _has_cellar(m, h)):
            raise DataError(f"{sc.path}: units[{i}].level: level {u.level} does not exist in hex "
                            f"{u.hex}; expected {levels[0]}-{levels[-1]}")
    for i, d in enumerate(sc.weather.drifts):
        try:
            m.grid.inner_hexside(d.hex, d.hexside, "drift")
        except UsageError as exc:
            raise DataError(f"{sc.path}: drifts[{i}]: {exc}") from None
    from hexwx.lineofsight.counter_los import prepare
    for i, c in enumerate(sc.counters):
        try:
            prepare(m, Counters((c,)))
        except UsageError as exc:
            raise DataError(f"{sc.path}: counters[{i}]: {exc}") from None


def _has_cellar(m: Any, h: int) -> bool:
    check = getattr(m, "check_level", None)
    try:
        check(h, -1)  # type: ignore[misc]
    except (UsageError, TypeError):
        return False
    return True


def hex_names_of(m: HexMap) -> list[str]:
    """All hex names of a loaded map, in hex id order."""
    return m.grid.names()
