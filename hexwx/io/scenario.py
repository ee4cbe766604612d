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
from typing import TYPE_CHECKING, Any, Sequence

from hexwx.errors import DataError, UsageError
from hexwx.limits import TURNS
from hexwx.validate import bad, check_flag, check_path, check_text, check_texts, check_type, whole
from hexwx.hexmap.coords import is_hex_name
from hexwx.lineofsight.counters import EMPTY, Counter, Counters, counter_type, vehicle_counters
from hexwx.lineofsight.entrenchment import NOT_BOTH_WHY
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.state import AslWeather, Drift, parse_month

if TYPE_CHECKING:  # the TOML reader, dice and weather runs load when a file is read or run
    from hexwx.io.tomlfile import Table
    from hexwx.weather.asl.records import ChartRoll
    from hexwx.hexmap.board import HexMap
    from hexwx.io.vsav import VaslSave
    from hexwx.lineofsight.results import LosResult, Viewshed
    from hexwx.movement.covered import CoveredPath
    from hexwx.movement.paths import MovePath, Reach

#: What a query's ``counters=`` takes: None (the scenario's own), a :class:`Counters`, or a
#: list of :class:`Counter` and ``"NAME@HEX[:LEVEL]"`` strings.
CountersLike = Counters | Sequence[Counter | str] | None

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

    @property
    def is_marker(self) -> bool:
        """A piece that is no unit (a perimeter, a label): one the scenario gives no side."""
        return not self.side


@dataclass(frozen=True)
class Place:
    """Where a query starts or ends: a hex (its name), the level of the unit standing there
    (None for a bare hex: the query's default applies) and the unit (None for a bare hex)."""

    hex: str
    level: int | None = None
    unit: ScenarioUnit | None = None


@dataclass
class Scenario:
    """A loaded hex scenario.  ``weather`` is the state at setup; ``rolls`` the DYO chart rolls.

    Its queries (:meth:`los`, :meth:`viewshed`, :meth:`sight`, :meth:`path`, :meth:`reach`)
    take unit ids or hex names, place each unit at its hex and level, treat vehicles and
    winter camouflage as the units say, and use the scenario's weather unless ``weather=`` is
    given and its counters (:attr:`los_counters`: the ``[[counters]]`` and the vehicles)
    unless ``counters=`` is given (an empty ``Counters()`` or ``[]``: the bare map).  Every
    option is keyword-only.
    """

    source: Path                  # the scenario file (TableScenario.source too)
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

    def __repr__(self) -> str:
        return (f"Scenario({self.name!r}, {len(self.units)} units, map "
                f"{self.map_path.name if self.map_layout is None else 'layout'})")

    @classmethod
    def on_map(cls, m: HexMap) -> Scenario:
        """A scenario of map ``m`` with no units and clear weather: its queries take hex names
        and give the answers of :func:`hexwx.los`, :func:`hexwx.path` ... on ``m``."""
        from hexwx.hexmap.board import HexMap
        check_type(m, HexMap, "m")
        where = Path(m.source or m.name)
        return cls(where, m.name, where, None, AslWeather(), _map=m)

    @property
    def map(self) -> HexMap:
        """The map, loaded on first use with :func:`hexwx.io.load.load_map` (or the layout
        of a ``[map]`` table)."""
        if self._map is None and self.map_layout is not None:
            self._map = _load_layout_table(self)
        if self._map is None:
            if not self.map_path.exists():
                raise DataError(f"{self.source}: map: no such file {str(self.map_path)!r}")
            from hexwx.io.load import load_map  # the VASL reader and its numpy only when needed
            self._map = load_map(self.map_path, vasl_metadata=self.vasl_metadata)
        return self._map

    def weather_at(self, turn: int, *, seed: int | None = None,
                   hexes: list[str] | None = None) -> AslWeather:
        """The weather of Game Turn ``turn`` (its first Player Turn, after its Wind Change DR,
        E3.4): the setup weather run turn by turn with ``Dice(seed)`` (default: the scenario's
        seed, else 0).  ``hexes`` (the map's hex names) places new drifts."""
        whole(turn, "turn", 1)
        if self.turns is not None and turn > self.turns:
            raise UsageError(f"turn {turn} is past the end of {self.source} ({self.turns} turns)",
                             param="turn")
        from hexwx.dice import Dice
        from hexwx.weather.asl.rolls import run_weather
        dice = Dice(seed=seed if seed is not None else (self.seed if self.seed is not None else 0))
        records = run_weather(self.weather, dice, turn, hexes=hexes)
        return records[2 * (turn - 1)].state

    @property
    def los_counters(self) -> Counters:
        """What lies on the map for LOS: the ``[[counters]]`` and the vehicles among the units
        (a vehicle is a LOS hindrance, D9)."""
        return Counters(self.counters.items + vehicle_counters(self.units))

    def unit(self, unit_id: str, param: str = "unit_id") -> ScenarioUnit:
        """The unit with id ``unit_id`` (an error names the parameter ``param``)."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise bad(param, unit_id, f"a unit of {self.source}: one of "
                                  f"{', '.join(u.id for u in self.units) or '(none)'}")

    # -- queries --------------------------------------------------------------------------

    def place(self, where: str, *, map: HexMap | None = None, param: str = "where") -> Place:
        """A unit id of this scenario (its hex and level) or a hex name of the map (an error
        names the parameter ``param``)."""
        check_text(where, param, "a unit id or a hex name")
        for u in self.units:
            if u.id == where:
                return Place(u.hex, u.level, u)
        m = self._map_for(map)
        if not self.units:
            m.hex(where, param)  # the map's own error for a bad hex
            return Place(where)
        try:
            m.parse(where)
        except UsageError:
            ids = ", ".join(u.id for u in self.units) or "none"
            raise UsageError(f"bad {param}: {where!r} is neither a hex of the map nor a unit of "
                             f"the scenario (units: {ids})", param=param) from None
        return Place(where)

    def _map_for(self, map: HexMap | None) -> HexMap:
        """``map`` (checked) or the scenario's own."""
        if map is None:
            return self.map
        from hexwx.hexmap.board import HexMap
        return check_type(map, HexMap, "map", "a HexMap (hexwx.load_map) or None")

    def _weather(self, weather: AslWeather | None) -> AslWeather:
        return self.weather if weather is None else check_type(weather, AslWeather, "weather")

    def _counters(self, counters: CountersLike) -> Counters:
        """``counters`` (checked) or, when None, the scenario's own :attr:`los_counters`."""
        return self.los_counters if counters is None else Counters.of(counters)

    def los(self, viewer: str, target: str, *, from_level: int | None = None,
            to_level: int | None = None, weather: AslWeather | None = None,
            target_vehicle: bool = False, target_camouflaged: bool = False,
            map: HexMap | None = None, counters: CountersLike = None,
            from_hexside: int | None = None, to_hexside: int | None = None,
            from_entrenched: bool | None = None, to_entrenched: bool | None = None) -> LosResult:
        """:func:`hexwx.los` between two units or hexes.  Levels default to the units' own
        (ground for a bare hex); the target is Infantry unless it is a vehicle or
        ``target_vehicle``, camouflaged if the unit has Winter Camouflage or
        ``target_camouflaged`` (E3 3.712); ``weather`` replaces the scenario's; ``map``
        replaces its map (the same boards under other SSRs); ``counters`` replaces its
        counters.  A unit in bypass (``hexside``) sees and is seen from that hexside (D2.3);
        ``from_hexside`` / ``to_hexside`` put an end in bypass (replacing the unit's).  A unit
        in an entrenchment (``entrenched``) sees and is seen as one (B27.2) at its own level;
        ``from_entrenched`` / ``to_entrenched`` say whether an end is (replacing the unit's)."""
        from hexwx.lineofsight.engine import los
        m = self._map_for(map)
        a, b = self.place(viewer, map=m, param="viewer"), self.place(target, map=m, param="target")
        check_flag(target_vehicle, "target_vehicle")
        check_flag(target_camouflaged, "target_camouflaged")
        return los(m, a.hex, b.hex,
                   from_level=_level(from_level, a, "from_level"),
                   to_level=_level(to_level, b, "to_level"), weather=self._weather(weather),
                   target_is_infantry=(b.unit.is_infantry if b.unit else True) and not target_vehicle,
                   target_winter_camouflage=bool(b.unit and b.unit.winter_camouflage)
                   or target_camouflaged, counters=self._counters(counters),
                   from_hexside=_side(from_hexside, a), to_hexside=_side(to_hexside, b),
                   from_entrenched=_entrenched(a, from_level, from_entrenched),
                   to_entrenched=_entrenched(b, to_level, to_entrenched))

    def viewshed(self, viewer: str, *, level: int | None = None,
                 weather: AslWeather | None = None, map: HexMap | None = None,
                 counters: CountersLike = None, from_hexside: int | None = None,
                 from_entrenched: bool | None = None) -> Viewshed:
        """:func:`hexwx.viewshed` from a unit (at its level unless ``level``) or a hex; a unit
        in bypass (``hexside``) sees from that hexside (D2.3), ``from_hexside`` replacing it;
        a unit in an entrenchment (``entrenched``) sees as one (B27.2) at its own level,
        ``from_entrenched`` replacing it."""
        from hexwx.lineofsight.engine import viewshed
        m = self._map_for(map)
        a = self.place(viewer, map=m, param="viewer")
        return viewshed(m, a.hex, level=_level(level, a, "level"), weather=self._weather(weather),
                        counters=self._counters(counters), from_hexside=_side(from_hexside, a),
                        from_entrenched=_entrenched(a, level, from_entrenched))

    def sight(self, viewer: str, *, weather: AslWeather | None = None,
              counters: CountersLike = None) -> tuple[tuple[ScenarioUnit, LosResult], ...]:
        """Who ``viewer`` (a unit id) sees: (unit, LOS to it) for every other unit (markers
        left out), each at its own level, in the scenario's order."""
        unit = self.unit(viewer, "viewer")
        on_map = self._counters(counters)
        return tuple((other, self.los(unit.id, other.id, weather=weather, counters=on_map))
                     for other in self.units if other.id != unit.id and not other.is_marker)

    def path(self, start: str, goal: str, *, unit: str | None = None,
             weather: AslWeather | None = None, mf: float | None = None,
             avoid_sight_of: Sequence[str] = (), map: HexMap | None = None,
             counters: CountersLike = None) -> MovePath | CoveredPath:
        """:func:`hexwx.path` from a unit or hex to a unit or hex.  ``unit`` (a movement
        class) defaults to infantry when ``start`` is an infantry unit; ``avoid_sight_of``
        (units or hexes) asks for the covered approach (:mod:`hexwx.movement.covered`, which
        takes no counters); ``counters`` change the path where they change terrain (rubble)."""
        m = self._map_for(map)
        a, b = self.place(start, map=m, param="start"), self.place(goal, map=m, param="goal")
        kind = _move_class(unit, a)
        wx = self._weather(weather)
        on_map = self._counters(counters)
        if avoid_sight_of:
            from hexwx.movement.covered import covered_path
            watchers = [self.place(w, map=m, param="avoid_sight_of").hex
                        for w in check_texts(avoid_sight_of, "avoid_sight_of",
                                             "a list of unit ids or hex names")]
            return covered_path(m, a.hex, b.hex, unit=kind, watchers=watchers, weather=wx, mf=mf)
        from hexwx.movement.paths import path
        return path(m, a.hex, b.hex, unit=kind, weather=wx, mf=mf, counters=on_map)

    def reach(self, start: str, *, mf: float, unit: str | None = None,
              weather: AslWeather | None = None, map: HexMap | None = None,
              counters: CountersLike = None) -> Reach:
        """:func:`hexwx.reach` from a unit or hex (``unit`` as in :meth:`path`)."""
        from hexwx.movement.paths import reach
        m = self._map_for(map)
        a = self.place(start, map=m, param="start")
        return reach(m, a.hex, unit=_move_class(unit, a), mf=mf, weather=self._weather(weather),
                     counters=self._counters(counters))

    def to_json(self) -> dict:
        return {"path": str(self.source), "name": self.name,
                "map": self.map_layout if self.map_layout is not None else str(self.map_path),
                "month": self.month, "turns": self.turns, "seed": self.seed,
                "weather": self.weather.to_json(), "rolls": [r.to_json() for r in self.rolls],
                "units": [u.__dict__ for u in self.units], "counters": self.counters.to_json()}


def _side(given: int | None, place: Any) -> int | None:
    """The bypass hexside of an end: ``given``, else its unit's (None: not in bypass)."""
    if given is not None:
        return given
    return place.unit.hexside if place.unit else None


def _entrenched(place: Place, given_level: int | None, given: bool | None) -> bool:
    """Is an end a unit in an entrenchment (B27): ``given``, else its unit is, at its own
    Location (a query at another level asks about another Location)."""
    if given is not None:
        return given          # (checked by hexwx.los, which names the parameter)
    unit = place.unit
    return bool(unit and unit.entrenched and (given_level is None or given_level == unit.level))


def _level(given: int | None, place: Place, name: str) -> int:
    """The level a query asks for: ``given``, else the unit's, else ground level."""
    if given is not None:
        return whole(given, name)
    return place.level or 0


def _move_class(unit: str | None, start: Place) -> str:
    """The movement class: ``unit`` if given, else infantry for an infantry unit at ``start``."""
    from hexwx.movement.costs import parse_unit
    from hexwx.movement.charts import MOVE_CLASSES
    if unit is not None:
        return parse_unit(unit)
    if start.unit is not None and start.unit.kind == "infantry":
        return "infantry"
    raise UsageError("unit is required unless the start is an infantry unit of the scenario; "
                     "expected one of " + ", ".join(MOVE_CLASSES), param="unit")


#: Keys of a scenario's ``[map]`` table (a layout of VASL boards, docs/scenarios.md).
MAP_TABLE_KEYS: tuple[str, ...] = ("vasl_boards", "ssr", "persist_elevation")


def _load_layout_table(sc: "Scenario") -> HexMap:
    """The map of a scenario whose ``map`` is a layout table (:mod:`hexwx.io.layout`)."""
    from hexwx.io.layout import load_layout
    spec = sc.map_layout or {}
    try:
        return load_layout(spec["vasl_boards"], vasl_metadata=sc.vasl_metadata,
                           ssr=tuple(spec.get("ssr", ())), name=sc.source.name,
                           persist_elevation=bool(spec.get("persist_elevation", False)))
    except UsageError as exc:
        raise DataError(f"{sc.source}: map: {exc}") from None


def fixed_weather(w: Table, month: str | None) -> AslWeather:
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
    p = check_path(path, "path")
    check_flag(check_map, "check_map")
    from hexwx.dice import Dice
    from hexwx.io.tomlfile import load_toml
    from hexwx.weather.asl.rolls import roll_weather
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
        weather = fixed_weather(w, month)
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
        hexside, entrenched = u.int("hexside", None, min=0, max=5), u.bool("entrenched", False)
        if hexside is not None and entrenched:
            raise u.error("entrenched", "a unit in an entrenchment or in bypass (hexside), not "
                                        f"both: {NOT_BOTH_WHY}")
        units.append(ScenarioUnit(uid, u.str("side", ""), hex_.upper(), u.int("level", 0, min=-1),
                                  u.str("kind", "infantry", choices=UNIT_KINDS),
                                  u.bool("winter_camouflage", False), u.str("nationality", ""),
                                  u.bool("concealed", False), u.bool("hidden", False),
                                  hexside, entrenched))
    counters = []
    for c in t.tables("counters", []):
        c.check_keys(COUNTER_KEYS)
        cname = c.str("name")
        try:
            counter_type(cname)
        except UsageError as exc:
            raise c.error("name", str(exc)) from None
        hex_ = c.str("hex")
        if not is_hex_name(hex_):
            raise c.error("hex", f"expected a hex name such as C5 or 2C5, got {hex_!r}")
        counters.append(Counter(cname, hex_.upper(), c.int("level", 0, min=-1),
                                c.int("hexside", None, min=0, max=5)))
    sc = Scenario(p, name, map_path, month, weather, tuple(units), rolls, seed, turns, meta_path,
                  map_layout, Counters(tuple(counters)))
    if check_map and (sc.units or sc.weather.drifts or sc.counters):
        check_against_map(sc)
    return sc


def load_save(path: str | Path, *, vasl_metadata: str | Path | None = None,
              vasl_dir: str | Path | None = None, ignore_board_extras: bool = False) -> Scenario:
    """A VASL save as a :class:`Scenario`: its map (:func:`hexwx.io.vsav_import.load_save_map`),
    clear weather, and the units and counters :func:`hexwx.io.vsav_import.scenario_document`
    would write."""
    from hexwx.io.vsav import read_save
    from hexwx.io.vsav_import import load_save_map
    p = Path(path)
    save = read_save(p)
    m = load_save_map(p, vasl_dir=vasl_dir, vasl_metadata=vasl_metadata,
                      ignore_board_extras=ignore_board_extras)
    units, counters = _save_parts(save, m)
    meta = Path(vasl_metadata) if vasl_metadata else None
    return Scenario(p, p.stem, p, None, AslWeather(), units, vasl_metadata=meta, _map=m,
                    counters=counters)


def save_units(save: VaslSave, m: HexMap | None = None) -> tuple[ScenarioUnit, ...]:
    """The units on the boards as :class:`ScenarioUnit` at their Locations; hex names in
    ``m``'s own naming when the map is given."""
    return _save_parts(save, m)[0]


def save_counters(save: VaslSave, m: HexMap | None = None) -> Counters:
    """The LOS counters and location markers on the boards as :class:`Counters`."""
    return _save_parts(save, m)[1]


def save_los_counters(path: str | Path, m: HexMap) -> tuple[Counter, ...]:
    """The counters of VASL save ``path`` that lie on its map ``m`` for LOS: its LOS counters
    and location markers, and its vehicles (D9)."""
    from hexwx.io.vsav import read_save
    units, counters = _save_parts(read_save(path), m)
    return counters.items + vehicle_counters(units)


def _save_parts(save: VaslSave, m: HexMap | None) -> tuple[tuple[ScenarioUnit, ...], Counters]:
    """(units, counters) of a save, as :func:`hexwx.io.vsav_import.scenario_document` has them."""
    from hexwx.io.vsav_import import scenario_document
    names = (lambda n: str(m.name_of(m.parse(n)))) if m is not None else None
    doc, _off = scenario_document(save, name="", map_names=names, m=m)
    units = tuple(ScenarioUnit(u["id"], u.get("side", ""), u["hex"], u.get("level", 0),
                               u["kind"], False, u.get("nationality", ""),
                               u.get("concealed", False), u.get("hidden", False),
                               u.get("hexside"), u.get("entrenched", False))
                  for u in doc.get("units", []))
    counters = Counters(tuple(Counter(c["name"], c["hex"], c.get("level", 0), c.get("hexside"))
                              for c in doc.get("counters", [])))
    return units, counters


def check_against_map(sc: Scenario) -> None:
    """DataError naming the key unless every unit's hex and level and every drift's hexside
    exist on the scenario's map (loaded here, once): bad placements fail at load, not when used."""
    m = sc.map
    for i, u in enumerate(sc.units):
        try:
            h = m.parse(u.hex)
        except UsageError as exc:
            raise DataError(f"{sc.source}: units[{i}].hex: {exc}") from None
        levels = m.levels_at(h)
        if u.level not in levels and not (u.level == -1 and _has_cellar(m, h)):
            raise DataError(f"{sc.source}: units[{i}].level: level {u.level} does not exist in hex "
                            f"{u.hex}; expected {levels[0]}-{levels[-1]}")
    for i, d in enumerate(sc.weather.drifts):
        try:
            m.grid.inner_hexside(d.hex, d.hexside, "drift")
        except UsageError as exc:
            raise DataError(f"{sc.source}: drifts[{i}]: {exc}") from None
    from hexwx.lineofsight.counter_los import prepare
    for i, c in enumerate(sc.counters):
        try:
            h = m.parse(c.hex)
        except UsageError as exc:
            raise DataError(f"{sc.source}: counters[{i}].hex: {exc}") from None
        try:
            m.check_level(h, c.level)
        except UsageError as exc:
            raise DataError(f"{sc.source}: counters[{i}].level: {exc}") from None
        try:
            prepare(m, Counters((c,)))
        except UsageError as exc:
            raise DataError(f"{sc.source}: counters[{i}]: {exc}") from None


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
