"""Tabletop scenario files (TOML) -> :class:`TableScenario` (a table, a rule set, weather).

Every length in the file is in the table's unit (``[table] unit = "in"`` or ``"cm"``) and is
converted to cm on loading.  Every error is one line naming the file and key
(``FILE: units[2].position: ...``).  The format is documented key by key in docs/tabletop.md.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import shapely
from shapely.geometry import LineString, Point, Polygon

from hexwx.limits import BASES
from hexwx.errors import DataError, UsageError
from hexwx.validate import check_path, check_text, is_whole, whole
from hexwx.tabletop.fire import RANGE_KINDS
from hexwx.tabletop.sight import (RULE_SETS, time_of_day_visibility_cm, visibility_limit_cm,
                                  visibility_text)
from hexwx.tabletop.model import (ARMS, FORMATIONS, GUNS, OFFICER_QUALITY, TERRAIN_KINDS, Base,
                                  Officer, TableTop, TerrainPiece, Unit, arrange_bases, to_cm)
from hexwx.io.tomlfile import Table, load_toml

WEATHER_MODES = ("fixed", "rolled", "schedule")
GROUNDS = ("normal", "rough", "mud", "soft", "hard")

_TOP_KEYS = ("name", "rules", "turns", "start", "table", "weather", "terrain", "units", "ranges",
             "officers", "notes")
_OFFICER_KEYS = ("id", "side", "position", "quality")
_TABLE_KEYS = ("size", "unit", "base")
#: The longest side of a table, in cm: 100 m, far beyond any real table (the largest club
#: tables are some 10 m), and small enough that areas and buffers stay finite numbers.
MAX_TABLE_CM = 10_000
_WEATHER_KEYS = ("mode", "seed", "options", "weather", "visibility", "movement", "ground",
                 "fire_effects", "schedule")
_STATE_KEYS = ("turn", "weather", "visibility", "movement", "ground", "fire_effects")
_PIECE_KEYS = ("id", "kind", "points", "rect", "circle", "height")
_UNIT_KEYS = ("id", "side", "arm", "formation", "facing", "position", "bases", "frontage",
              "depth", "guns", "move", "range")


@dataclass(frozen=True)
class WeatherState:
    """A weather state given by the scenario (fixed, or one step of a schedule); lengths in cm."""

    turn: int
    weather: str
    visibility_cm: float | None
    movement_multiplier: float
    ground: str
    fire_effects: tuple[str, ...]


@dataclass(frozen=True)
class TableScenario:
    """A loaded tabletop scenario.  :meth:`report` gives the weather of a turn in the shape of
    :class:`hexwx.weather.minis.common.TurnReport`; :meth:`visibility_cm` the visibility limit."""

    source: str
    name: str
    rules: str
    table: TableTop
    turns: int
    start_hour: int | None
    weather_mode: str
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict, compare=False)
    states: tuple[WeatherState, ...] = ()
    #: ``[ranges]``: unit kind -> (short range or None, longest range), cm (hexwx.tabletop.fire).
    ranges: dict[str, tuple[float | None, float]] = field(default_factory=dict, compare=False)

    def __repr__(self) -> str:
        return (f"TableScenario({self.name!r}, {self.rules}, {self.turns} turns, "
                f"{len(self.table.units)} units)")

    def _repr_png_(self) -> bytes:
        """The table on turn 1 (terrain, bases, visibility), for notebooks."""
        from hexwx.render.core import table_png
        return table_png(self)

    def check_turn(self, turn: int) -> int:
        """``turn`` if it is a turn of this scenario (1..turns)."""
        return whole(turn, "turn", 1, self.turns, expected=f"a whole number from 1 to {self.turns}")

    def reports(self) -> list[Any]:
        """One TurnReport per turn (fewer when the battle ends early, Mini-Nap 2 dusk)."""
        from hexwx.weather.minis.common import TurnReport, run_minis_weather

        if self.weather_mode == "rolled":
            from hexwx.dice import Dice

            try:
                return run_minis_weather(self.rules, self.turns, dice=Dice(seed=self.seed),
                                   **self.options)
            except UsageError as exc:  # a bad option value, found when the model runs
                raise DataError(f"{self.source}: weather.options: {exc}") from None
        out = []
        for turn in range(1, self.turns + 1):
            st = [s for s in self.states if s.turn <= turn][-1]
            tod_vis = self._time_of_day_cm(turn)
            ends = tod_vis is not None and tod_vis <= 0
            sight = [v for v in (st.visibility_cm, tod_vis) if v is not None]
            clock = None
            if self.start_hour is not None:
                clock = clock_text(self.start_hour * 60 + 30 * (turn - 1))
            out.append(TurnReport(turn=turn, weather=st.weather,
                                  visibility_cm=min(sight) if sight else None,
                                  movement_multiplier=st.movement_multiplier,
                                  fire_effects=st.fire_effects, ground=st.ground,
                                  battle_ends=ends, time_of_day=clock, rolls=(),
                                  rules=self.rules))
            if ends:
                break
        return out

    def report(self, turn: int) -> Any:
        """The weather of ``turn`` (the last report if the battle ended before it)."""
        self.check_turn(turn)
        reps = self.reports()
        return reps[min(turn, len(reps)) - 1]

    def visibility_cm(self, turn: int) -> float | None:
        """Visibility limit on ``turn``: min(weather, Mini-Nap 2 time of day); None = unlimited."""
        rep = self.report(turn)
        return visibility_limit_cm(rep, time_of_day_cm=self._time_of_day_cm(turn))

    def weather_line(self, turn: int) -> tuple[str, Any, float | None]:
        """("turn 4: rain, visibility 12 in, ground rough", the TurnReport, visibility in cm):
        the one line every answer and picture heads the turn with."""
        rep = self.report(turn)
        vis = self.visibility_cm(turn)
        t = self.table
        bits = [f"turn {turn}: {rep.weather}"]
        if rep.time_of_day:
            bits.append(f"time {rep.time_of_day}")
        bits.append(visibility_text(self.rules, rep.weather,
                                    None if vis is None else t.to_unit(vis), t.unit))
        if rep.ground != "normal":
            bits.append(f"ground {rep.ground}")
        if rep.movement_multiplier != 1:
            bits.append(f"movement x{rep.movement_multiplier:g}")
        if rep.battle_ends:
            bits.append("the battle has ended")
        return ", ".join(bits), rep, vis

    def fire(self, firer: str, target: str, turn: int) -> Any:
        """May ``firer`` shoot at ``target`` on ``turn``: :func:`hexwx.tabletop.fire.fire_answer`
        with the turn's weather, visibility and the scenario's ranges."""
        from hexwx.tabletop.fire import fire_answer
        self.check_turn(turn)
        return fire_answer(self.table, firer, target, rules=self.rules, report=self.report(turn),
                           visibility_cm=self.visibility_cm(turn), ranges=self.ranges)

    def weather_json(self, turn: int) -> dict[str, Any]:
        """The weather of ``turn`` as JSON (lengths in the table's unit)."""
        rep = self.report(turn)
        vis = self.visibility_cm(turn)
        return {"turn": turn, "weather": rep.weather, "ground": rep.ground,
                "time_of_day": rep.time_of_day, "battle_ends": rep.battle_ends,
                "movement_multiplier": rep.movement_multiplier,
                "fire_effects": list(rep.fire_effects),
                "visibility": None if vis is None else round(self.table.to_unit(vis), 6)}

    def can_see(self, viewer: str, target: str, *, turn: int = 1) -> Any:
        """:func:`hexwx.can_see` between two units under the visibility of ``turn``."""
        from hexwx.tabletop.sight import can_see
        self.check_turn(turn)
        check_text(viewer, "viewer")
        check_text(target, "target")
        return can_see(self.table, viewer, target, rules=self.rules,
                       visibility_cm=self.visibility_cm(turn))

    def move_json(self, unit_id: str, *, turn: int, outline: bool = False) -> dict[str, Any]:
        """The movement allowance of ``unit_id`` on ``turn`` with its factors and the turn's
        weather; with ``outline``, where its bases may get (polygons in the table's unit:
        exterior ring, then holes)."""
        from hexwx.tabletop.move import REACH_READING, allowance, reach_area
        self.check_turn(turn)
        t = self.table
        a = allowance(t, unit_id, rules=self.rules, report=self.report(turn))
        out: dict[str, Any] = {**a.to_json(), "weather_report": self.weather_json(turn)}
        if outline:
            reading = REACH_READING
            if self.rules == "huzzah":
                from hexwx.tabletop.orders import HUZZAH_REACH_READING, group_moves
                geom = shapely.union_all([m.area for order in ("advance", "retire")
                                          for m in group_moves(t, [unit_id], order)])
                reading = HUZZAH_REACH_READING
            else:
                geom = reach_area(t, unit_id, t.from_unit(a.allowance))
            r = lambda v: round(t.to_unit(v), 3)  # noqa: E731
            polys = [[[[r(x), r(y)] for x, y in ring.coords]
                      for ring in (g.exterior, *g.interiors)]
                     for g in shapely.get_parts(geom) if g.geom_type == "Polygon"]
            out["reach"] = {"distance": out["allowance"],
                            "area": round(t.to_unit(t.to_unit(geom.area)), 3),
                            "polygons": polys, "reading": reading}
        return out

    def _time_of_day_cm(self, turn: int) -> float | None:
        """Mini-Nap 2 dawn/dusk visibility on ``turn``; None for other rule sets, which have no
        time-of-day rule (a start time only sets the clock shown)."""
        if self.rules != "mininap":
            return None
        return time_of_day_visibility_cm(self.start_hour, turn)


# --------------------------------------------------------------------------------------------
# parsing helpers
# --------------------------------------------------------------------------------------------

def _point(t: Table, key: str, unit: str) -> tuple[float, float]:
    v = t.raw(key)
    if (not isinstance(v, list) or len(v) != 2 or
            not all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c)
                    for c in v)):
        raise t.error(key, f"expected a point [x, y] of finite numbers, got {v!r}")
    return (to_cm(float(v[0]), unit), to_cm(float(v[1]), unit))


def _numbers(t: Table, key: str, n: int, what: str) -> list[float]:
    v = t.raw(key)
    if (not isinstance(v, list) or len(v) != n or
            not all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c)
                    for c in v)):
        raise t.error(key, f"expected {what} (finite numbers), got {v!r}")
    return [float(c) for c in v]


def _points(t: Table, key: str, unit: str, least: int) -> list[tuple[float, float]]:
    v = t.raw(key)
    ok = isinstance(v, list) and len(v) >= least and all(
        isinstance(p, list) and len(p) == 2 and
        all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c)
            for c in p) for p in v)
    if not ok:
        raise t.error(key, f"expected an array of at least {least} points [x, y] of finite "
                           f"numbers, got {v!r}")
    return [(to_cm(float(x), unit), to_cm(float(y), unit)) for x, y in v]


def clock_text(minutes: int) -> str:
    """Minutes after midnight as "4:30 AM" / "12:00 PM" (a Mini-Nap 2 turn is half an hour)."""
    h, m = (minutes // 60) % 24, minutes % 60
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


_CLOCK = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm|noon)?\s*$", re.IGNORECASE)


def parse_start(text: str) -> int:
    """A start time such as "4 AM", "12 noon", "2 PM" or "16:00" as an hour 0-23
    (Mini-Nap 2 App. D chart: 4 AM to 4 PM in two-hour steps)."""
    m = _CLOCK.match(text)
    if not m:
        raise ValueError
    hour, minute, suffix = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if minute or hour > 23:
        raise ValueError
    if suffix == "pm" and hour < 12:
        hour += 12
    elif suffix == "am" and hour == 12:
        hour = 0
    elif suffix == "noon" and hour != 12:
        raise ValueError
    return hour


def _piece(t: Table, i: int, unit: str) -> TerrainPiece:
    t.check_keys(_PIECE_KEYS)
    kind = t.str("kind", choices=tuple(TERRAIN_KINDS))
    spec = TERRAIN_KINDS[kind]
    pid = t.str("id", f"{kind}{i + 1}")
    shapes = [k for k in ("points", "rect", "circle") if k in t]
    if len(shapes) != 1:
        raise t.error(None, f"expected exactly one of points, rect, circle; got {shapes or 'none'}")
    shape = shapes[0]
    if spec.line and shape != "points":
        raise t.error(shape, f"a {kind} is a line: give points = [[x, y], ...]")
    if shape == "points":
        pts = _points(t, "points", unit, 2 if spec.line else 3)
        geom: Any = LineString(pts) if spec.line else Polygon(pts)
    elif shape == "rect":
        x0, y0, x1, y1 = (to_cm(v, unit) for v in _numbers(t, "rect", 4, "[x0, y0, x1, y1]"))
        if x1 <= x0 or y1 <= y0:
            raise t.error("rect", f"expected x0 < x1 and y0 < y1, got {t.raw('rect')!r}")
        geom = shapely.box(x0, y0, x1, y1)
    else:
        x, y, r = (to_cm(v, unit) for v in _numbers(t, "circle", 3, "[x, y, radius]"))
        if r <= 0:
            raise t.error("circle", f"expected a radius > 0, got {t.raw('circle')!r}")
        geom = Point(x, y).buffer(r, quad_segs=8)
    if not geom.is_valid or geom.is_empty or (not spec.line and geom.area <= 0):
        raise t.error(shape, "polygon is empty or crosses itself")
    height = t.number("height", spec.default_height, min=0)
    return TerrainPiece(pid, kind, geom, float(height))


def _unit(t: Table, i: int, unit: str, base_size: tuple[float, float]) -> Unit:
    t.check_keys(_UNIT_KEYS)
    uid = t.str("id")
    side = t.str("side")
    arm = t.str("arm", choices=ARMS)
    formation = t.str("formation", "line", choices=FORMATIONS)
    facing = t.number("facing", 0.0)
    frontage = to_cm(t.number("frontage", base_size[0], min=0), unit)
    depth = to_cm(t.number("depth", base_size[1], min=0), unit)
    if frontage <= 0 or depth <= 0:
        raise t.error("frontage", "expected base frontage and depth > 0")
    guns = t.str("guns", None, choices=GUNS)
    if guns is not None and arm != "artillery":
        raise t.error("guns", f"only artillery has guns; this unit's arm is {arm!r}")
    bases_raw = t.raw("bases", 1)
    if isinstance(bases_raw, bool):
        raise t.error("bases", f"expected a number of bases or an array of points, got {bases_raw!r}")
    if isinstance(bases_raw, int):
        if bases_raw < 1:
            raise t.error("bases", f"expected at least 1 base, got {bases_raw!r}")
        if bases_raw > BASES.value:
            raise t.error("bases", f"{bases_raw:,} bases exceeds {BASES.describe()}")
        cx, cy = _point(t, "position", unit)
        bases = arrange_bases(uid, cx, cy, bases_raw, frontage, depth, facing, formation)
    else:
        if "position" in t:
            raise t.error("position", "give either position with a number of bases, or bases as points")
        pts = _points(t, "bases", unit, 1)
        bases = tuple(Base(f"{uid}.{k + 1}", x, y, facing, frontage, depth)
                      for k, (x, y) in enumerate(pts))
    move = t.number("move", None, min=0)
    rng = t.number("range", None, min=0)
    return Unit(uid, side, arm, formation, float(facing), bases, guns,
                None if move is None else to_cm(move, unit), None if rng is None else to_cm(rng, unit))


def _officer(t: Table, unit: str, w_cm: float, d_cm: float, unit_ids: set[str]) -> Officer:
    t.check_keys(_OFFICER_KEYS)
    oid = t.str("id")
    if oid in unit_ids:
        raise t.error("id", f"officer id {oid!r} is also a unit id")
    x, y = _point(t, "position", unit)
    if not (0 <= x <= w_cm and 0 <= y <= d_cm):
        raise t.error("position", f"officer {oid!r} is off the table")
    return Officer(oid, t.str("side"), x, y, t.str("quality", "average", choices=tuple(OFFICER_QUALITY)))


def _ranges(t: Table, unit: str) -> dict[str, tuple[float | None, float]]:
    """``[ranges]``: KIND = LONG or [SHORT, LONG] in the table's unit -> cm."""
    t.check_keys(RANGE_KINDS)
    out: dict[str, tuple[float | None, float]] = {}
    for kind in t.keys():
        v = t.raw(kind)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0:
            out[kind] = (None, to_cm(float(v), unit))
            continue
        short, long = _numbers(t, kind, 2, "a range or [short, long]")
        if not 0 < short <= long:
            raise t.error(kind, f"expected 0 < short <= long, got {v!r}")
        out[kind] = (to_cm(short, unit), to_cm(long, unit))
    return out


def _state(t: Table, unit: str, turn: int) -> WeatherState:
    vis = t.number("visibility", None, min=0)
    effects = t.list("fire_effects", [])
    if not all(isinstance(e, str) for e in effects):
        raise t.error("fire_effects", f"expected an array of strings, got {effects!r}")
    return WeatherState(turn=turn, weather=t.str("weather", "clear"),
                        visibility_cm=None if vis is None else to_cm(vis, unit),
                        movement_multiplier=t.number("movement", 1.0, min=0, max=1),
                        ground=t.str("ground", "normal", choices=GROUNDS),
                        fire_effects=tuple(effects))


def load_table_scenario(path: str | Path) -> TableScenario:
    """Read a tabletop scenario file; :class:`DataError` naming the file and key on bad input."""
    path = check_path(path, "path")
    doc = load_toml(path)
    doc.check_keys(_TOP_KEYS)
    rules = doc.str("rules", choices=RULE_SETS)
    name = doc.str("name", Path(path).stem)
    turns = doc.int("turns", 12, min=1, max=200)
    start_hour = None
    if "start" in doc:
        text = doc.str("start")
        try:
            start_hour = parse_start(text)
        except ValueError:
            raise doc.error("start", f"expected a time such as \"10 AM\", \"12 noon\" or \"16:00\", "
                                     f"got {text!r}") from None

    tab = doc.table("table")
    tab.check_keys(_TABLE_KEYS)
    unit = tab.str("unit", "cm", choices=("in", "cm"))
    w, d = _numbers(tab, "size", 2, "[width, depth]")
    if w <= 0 or d <= 0:
        raise tab.error("size", f"expected a positive width and depth, got {tab.raw('size')!r}")
    if max(to_cm(w, unit), to_cm(d, unit)) > MAX_TABLE_CM:
        raise tab.error("size", f"expected a table of at most {MAX_TABLE_CM // 100} m a side, "
                                f"got {tab.raw('size')!r} {unit}")
    base_size = (4.0, 4.0) if unit == "cm" else (1.5, 1.5)
    if "base" in tab:
        bw, bd = _numbers(tab, "base", 2, "[frontage, depth]")
        base_size = (bw, bd)

    pieces = tuple(_piece(p, i, unit) for i, p in enumerate(doc.tables("terrain", [])))
    seen: dict[str, int] = {}
    for i, p in enumerate(pieces):
        if p.id in seen:
            raise DataError(f"{doc.source}: terrain[{i}].id: duplicate terrain id {p.id!r} "
                            f"(also terrain[{seen[p.id]}])")
        seen[p.id] = i

    unit_tables = doc.tables("units", [])
    units = tuple(_unit(u, i, unit, base_size) for i, u in enumerate(unit_tables))
    wcm, dcm = _check_units(unit_tables, units, w, d, unit)
    officers: list[Officer] = []
    for o in doc.tables("officers", []):
        officer = _officer(o, unit, wcm, dcm, {u.id for u in units})
        if any(x.id == officer.id for x in officers):
            raise o.error("id", f"duplicate officer id {officer.id!r}")
        officers.append(officer)
    table = TableTop(wcm, dcm, unit, pieces, units, name, tuple(officers))

    wt = doc.table("weather", None)
    mode, seed, options = "fixed", None, {}
    states: tuple[WeatherState, ...] = (WeatherState(1, "clear", None, 1.0, "normal", ()),)
    if wt is not None:
        wt.check_keys(_WEATHER_KEYS)
        mode = wt.str("mode", "fixed", choices=WEATHER_MODES)
        if mode == "rolled":
            if start_hour is not None:
                raise doc.error("start", "the start time is rolled with the weather when "
                                         "mode = 'rolled'; remove start or use mode = 'fixed'")
            seed = wt.int("seed")
            opts = wt.table("options", None)
            options = dict(opts.data) if opts is not None else {}
            _check_options(wt, rules, options)
        elif mode == "fixed":
            states = (_state(wt, unit, 1),)
        else:
            sched = wt.tables("schedule")
            if not sched:
                raise wt.error("schedule", "expected at least one [[weather.schedule]] entry")
            out: list[WeatherState] = []
            last = 0
            for s in sched:
                s.check_keys(_STATE_KEYS)
                turn = s.int("turn", min=1)
                if turn <= last:
                    raise s.error("turn", f"expected turns in increasing order, got {turn} after {last}")
                if not out and turn != 1:
                    raise s.error("turn", f"the first schedule entry must be turn 1, got {turn}")
                out.append(_state(s, unit, turn))
                last = turn
            states = tuple(out)
        extra = [k for k in wt.keys() if k not in _allowed_weather_keys(mode)]
        if extra:
            raise wt.error(extra[0], f"not used with mode = {mode!r}; expected "
                                     f"{', '.join(_allowed_weather_keys(mode))}")
    rt = doc.table("ranges", None)
    ranges = _ranges(rt, unit) if rt is not None else {}
    return TableScenario(str(doc.source), name, rules, table, turns, start_hour, mode, seed,
                         options, states, ranges)


def _allowed_weather_keys(mode: str) -> tuple[str, ...]:
    if mode == "rolled":
        return ("mode", "seed", "options")
    if mode == "schedule":
        return ("mode", "schedule")
    return ("mode", "weather", "visibility", "movement", "ground", "fire_effects")


def _check_options(wt: Table, rules: str, options: dict[str, Any]) -> None:
    try:
        from hexwx.weather.minis.common import check_options
    except ImportError:  # the weather models are not installed yet
        return
    try:
        check_options(rules, options)
    except ModuleNotFoundError:  # that model is not built yet: checked again when rolled
        return
    except UsageError as exc:
        raise wt.error("options", str(exc)) from None


def _check_units(tables: list[Table], units: tuple[Unit, ...], w: float, d: float,
                 unit: str) -> tuple[float, float]:
    """Table size in cm after checking every base is on the table and no two units overlap."""
    wcm, dcm = to_cm(w, unit), to_cm(d, unit)
    outline = shapely.box(0, 0, wcm, dcm).buffer(1e-9, join_style="mitre")
    ids: dict[str, int] = {}
    for i, (t, u) in enumerate(zip(tables, units)):
        if u.id in ids:
            raise t.error("id", f"duplicate unit id {u.id!r} (also units[{ids[u.id]}])")
        ids[u.id] = i
        for b in u.bases:
            if not outline.covers(b.polygon):
                raise t.error("bases" if "position" not in t else "position",
                              f"unit {u.id!r} base {b.id} is off the table "
                              f"({w:g} x {d:g} {unit})")
    polys = [(i, u, b) for i, u in enumerate(units) for b in u.bases]
    tree = shapely.STRtree([b.polygon for _, _, b in polys])
    for k, (i, u, b) in enumerate(polys):
        for j in tree.query(b.polygon, predicate="intersects"):
            i2, u2, b2 = polys[j]
            if i2 <= i:
                continue
            if shapely.relate_pattern(b.polygon, b2.polygon, "T********") and \
                    b.polygon.intersection(b2.polygon).area > 1e-9:
                raise tables[i2].error("position" if "position" in tables[i2] else "bases",
                                       f"unit {u2.id!r} overlaps unit {u.id!r} "
                                       f"(bases {b2.id} and {b.id})")
    return wcm, dcm


def scenario_summary(sc: TableScenario) -> dict[str, Any]:
    """A JSON-ready outline of the scenario (table, terrain, units), lengths in the table's unit."""
    t = sc.table
    r = lambda v: round(t.to_unit(v), 6)  # noqa: E731
    return {
        "name": sc.name, "rules": sc.rules, "unit": t.unit, "size": [r(t.width), r(t.depth)],
        "turns": sc.turns, "weather_mode": sc.weather_mode,
        "terrain": [{"id": p.id, "kind": p.kind, "height": p.height} for p in t.terrain],
        "units": [{"id": u.id, "side": u.side, "arm": u.arm, "formation": u.formation,
                   "bases": len(u.bases), "centre": [r(u.centre[0]), r(u.centre[1])],
                   "facing": u.facing} for u in t.units],
        "officers": [{"id": o.id, "side": o.side, "quality": o.quality,
                      "position": [r(o.x), r(o.y)]} for o in t.officers],
    }


#: The generator's kinds (seed 003 step 3) -> terrain kinds of a table scenario.
GENERATED_KINDS = {"hill": "hill", "water": "water", "wood": "wood", "built-up area": "built-up"}


def generated_table_toml(pieces: Sequence[Any], *, seed: int, rules: str = "wesencraft",
                         source: str = "hexwx minis terrain") -> str:
    """A table scenario file (TOML text) for the random terrain ``pieces``
    (:func:`hexwx.tabletop.terrain_gen.generate_terrain`) on the seed 003 table, in cm.

    Pieces left as a player's choice have no kind yet: they are listed in a comment, not placed.
    The weather is rolled from the same ``seed`` for a rule set that throws dice (Huzzah!'s is
    set by the scenario: clear).  No units: add ``[[units]]`` to play."""
    from hexwx.io.tomlwrite import dumps
    from hexwx.tabletop.terrain_gen import TABLE_DEPTH_CM, TABLE_WIDTH_CM
    if rules not in RULE_SETS:
        raise UsageError(f"unknown rule set {rules!r}; expected one of {', '.join(RULE_SETS)}")
    placed, open_choices = [], []
    for p in pieces:
        kind = GENERATED_KINDS.get(p.kind)
        if kind is None:
            open_choices.append(f"sector {p.sector}: {p.kind} (not placed: name it with "
                                f"--choice-a/--choice-b)")
            continue
        ring = list(p.polygon.exterior.coords)[:-1]
        placed.append({"id": f"{kind}-s{p.sector}", "kind": kind,
                       "points": [[round(x, 3), round(y, 3)] for x, y in ring]})
    doc: dict[str, Any] = {
        "name": f"Random terrain, seed {seed}", "rules": rules, "turns": 12,
        "table": {"size": [round(TABLE_WIDTH_CM, 2), round(TABLE_DEPTH_CM, 2)], "unit": "cm"},
    }
    if rules != "huzzah":
        doc["weather"] = {"mode": "rolled", "seed": seed}
    if placed:
        doc["terrain"] = placed
    head = [f"Written by {source} (seed {seed}): the seed 003 random terrain generator on its",
            "6 ft x 2 ft 6 in table (12 sectors, 1 ft x 1 ft 3 in); piece sizes are hexwx's",
            "(docs/minis-weather.md).  Add [[units]] to play."]
    head += open_choices
    return dumps(doc, comments={"": head})
