"""Movement cost of every step of a hex map for one unit class under one weather, as arrays.

The base chart (cost of terrain, hexsides, hills, roads) is data in :mod:`hexwx.hexmap.terrain`
(``MOVEMENT_COSTS`` …); the E3 weather additions are data here, beside their rule numbers.
:func:`edge_costs` turns both into numpy arrays over all directed steps (hex, hexside) of a map
at once; :meth:`EdgeCosts.parts` explains one step from the same arrays, so the cost a path
reports and the reasons it prints can never disagree.

Costs are kept in **half MF/MP** (ints) so that ½-MF additions add up exactly.

Readings (E3 or the defaults are unclear; each is easy to change here):

* reading: a step is "along a road" when the hexside it crosses is a road hexside
  (``road_sides``); it then pays the road rate whatever else the hex holds (B3.4).  A road hex
  entered across another hexside is Open Ground (the road is not used).
* reading: entry-cost changes of the weather (mud: unpaved road at Open Ground COT, 3.6; snow:
  road entry at least 1 MP, 3.724/3.7331) change the COT, so the hill doubling applies to them;
  the per-hexside additions (3.54, 3.64, 3.723, 3.733, 3.724, 3.7331) are added after the total
  and are never doubled (3.9).
* reading: "per elevation level change" counts every level of the difference between the two
  hexes' ground levels, up or down.  Stairwells move between building levels, which hex-to-hex
  ground movement never does, so the stairwell exception of 3.54/3.723 never arises here.
* reading: "using a paved road" (3.54) / "plowed road" (3.723) means the step crosses a paved /
  plowed road hexside; ``plowed_roads`` (an SSR) plows every road, paved or not.
* reading: "Open Ground hexside" (3.64) is a hexside crossed into a hex that is Open Ground by
  3.65: open ground, plowed field, shellholes, gully, dry stream, sunken road, and an unpaved
  road used as a road.  A paved road used as a road is not (3.6), nor a bridge (3.6: paved
  roads include bridges; a road step into a bridge or paved-road hex is paved), nor a gully
  containing woods/brush (3.65 EXC: at least 10 % of the hex drawn as woods or brush).
* reading: in snow a frozen stream (3.722) moves as a dry stream; marsh/mudflat as Open Ground
  (3.722); in deep snow brush as Open Ground (3.73).
* reading: in Deep Snow the vehicle rules are those of 3.7331 alone (they restate 3.724's);
  infantry/cavalry pay 3.723 and 3.733 together, as 3.733 says.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import HEXSIDE_NAMES, Grid
from hexwx.weather.asl.terrain_changes import DEEP_SNOW_CHANGES, GROUND_SNOW_CHANGES
from hexwx.errors import DataError, UsageError
from hexwx.hexmap.terrain import Category, TerrainTable, TerrainType
from hexwx.movement.charts import (HEXSIDE_MOVEMENT_COSTS, HEXSIDE_NAME_PARTS, MF_CLASSES,
                                   MOVE_CLASSES, MOVEMENT_ALIASES, MOVEMENT_CATEGORY_FALLBACK,
                                   MOVEMENT_COSTS, MOVEMENT_NAME_PARTS, ROAD_BONUS, UP_LEVEL_COST,
                                   UP_LEVEL_RULE)
from hexwx.weather.asl.state import AslWeather

# -------------------------------------------------------------------------------------------
# E3 weather additions (the seed, 004), as data.  MF for infantry/cavalry, MP for vehicles.
# -------------------------------------------------------------------------------------------

RAIN_PER_LEVEL = 1                 # 3.54: per level changed, unless along a paved road
MUD_PER_OPEN_HEXSIDE = {"MF": 0.5, "MP": 1}   # 3.64: per Open Ground (3.65) hexside
SNOW_PER_LEVEL = 1                 # 3.723 (and 3.733): infantry/cavalry, unless plowed road
DEEP_SNOW_MF_PER_HEXSIDE = 0.5     # 3.733: EXC entering woods/building/rubble, plowed road
SNOW_MIN_ROAD_ENTRY_MP = 1         # 3.724, 3.7331: even on plowed roads
#: 3.724 Ground Snow: extra MP per hexside, even on plowed roads (sledges exempt).
GROUND_SNOW_MP_PER_HEXSIDE = {"tracked": 0, "non-tracked": 1, "sledge": 0}
#: 3.7331 Deep Snow: extra MP per hexside (off plowed roads, along plowed roads).
DEEP_SNOW_MP_PER_HEXSIDE = {"tracked": (1, 0), "non-tracked": (2, 1), "sledge": (0, 0)}
DRIFT_BOG_DRM = 2                  # 3.752: Deep Snow DRM (+1 Snow, +1 Deep Snow; D8.21)

#: 3.65: chart rows that are Open Ground for Mud (unpaved roads used as roads count too).
MUD_OPEN_GROUND_ROWS = frozenset({"Open Ground", "Plowed Field", "Shellholes", "Gully",
                                  "Dry Stream"})
#: 3.65 EXC: "gullies containing woods/brush during Mud" are not Open Ground.
MUD_GULLY_ROWS = frozenset({"Gully"})
MUD_GULLY_COVER_ROWS = ("Woods", "Brush")
#: reading: a hex "contains" woods/brush when at least this share of its pixels is drawn so.
COVER_MIN_SHARE = 0.10
#: 3.722: Ground/Deep Snow turn marsh/mudflat to Open Ground (the terrain change LOS and render
#: use too, hexwx.weather.asl.terrain_changes) and freeze streams (movement only).
SNOW_TERRAIN = {**{c.from_value: (c.to_value, c.rule) for c in GROUND_SNOW_CHANGES},
                "Shallow Stream": ("Dry Stream", "E3.722")}
#: 3.73: Deep Snow turns brush to Open Ground.
DEEP_SNOW_TERRAIN = {c.from_value: (c.to_value, c.rule) for c in DEEP_SNOW_CHANGES}
#: 3.733: entering these rows is exempt from the Deep Snow +½ MF.
DEEP_SNOW_EXEMPT_ROWS = frozenset({"Woods", "Building", "Rubble"})

# -------------------------------------------------------------------------------------------
# unit classes
# -------------------------------------------------------------------------------------------

_UNIT_ALIASES = {
    "infantry": "infantry", "inf": "infantry", "squad": "infantry",
    "cavalry": "cavalry", "cav": "cavalry",
    "tracked": "tracked", "fully-tracked": "tracked", "fully tracked": "tracked",
    "fullytracked": "tracked", "ft": "tracked", "tank": "tracked",
    "non-tracked": "non-tracked", "nontracked": "non-tracked", "non tracked": "non-tracked",
    "halftrack": "non-tracked", "half-track": "non-tracked", "truck": "non-tracked",
    "armoured car": "non-tracked", "armored car": "non-tracked", "armoured-car": "non-tracked",
    "armored-car": "non-tracked", "wheeled": "non-tracked", "ac": "non-tracked",
    "sledge": "sledge", "sled": "sledge",
}


def parse_unit(text: str) -> str:
    """The unit class ``text`` names (``"halftrack"`` -> ``"non-tracked"``); UsageError if unknown."""
    key = str(text).strip().lower().replace("_", "-")
    if key not in _UNIT_ALIASES:
        raise UsageError(f"unknown unit class {text!r}; expected one of {', '.join(MOVE_CLASSES)} "
                         "(or fully-tracked, halftrack, truck, armoured-car)")
    return _UNIT_ALIASES[key]


def unit_measure(unit: str) -> str:
    """``"MF"`` for infantry/cavalry, ``"MP"`` for vehicles."""
    return "MF" if unit in MF_CLASSES else "MP"


def check_allowance(mf: float, unit: str = "infantry") -> float:
    """``mf`` as a float; UsageError if negative or not a finite number."""
    what = unit_measure(unit)
    try:
        v = float(mf)
    except (TypeError, ValueError):
        raise UsageError(f"bad allowance {mf!r}; expected a number of {what} >= 0") from None
    if isinstance(mf, bool) or not math.isfinite(v) or v < 0:
        raise UsageError(f"bad allowance {mf!r}; expected a number of {what} >= 0")
    if v > MAX_ALLOWANCE:
        raise UsageError(f"bad allowance {mf!r}; expected a number of {what} from 0 to "
                         f"{MAX_ALLOWANCE:,} (no unit has more; costs are whole half-{what})")
    return v


#: The largest movement allowance accepted (whole half-MF counts stay small integers).
MAX_ALLOWANCE = 100_000


def fmt(cost: float | None) -> str:
    """``1.5`` -> ``"1½"``; ``0.5`` -> ``"½"``; None -> ``"all"``."""
    if cost is None:
        return "all"
    whole, half = divmod(round(cost * 2), 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


# -------------------------------------------------------------------------------------------
# movement-relevant weather
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveWeather:
    """The part of an :class:`~hexwx.weather.asl.state.AslWeather` movement reads (a cache key).

    ``rained``: rain now or earlier (3.54 "during and after rain"); ``drifts``: (hex name,
    hexside) pairs (3.75).
    """

    rained: bool = False
    mud: bool = False
    ground_snow: bool = False
    deep_snow: bool = False
    plowed_roads: bool = False
    drifts: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, weather: AslWeather | MoveWeather | None) -> MoveWeather:
        """From an AslWeather (or None = clear weather, or a MoveWeather)."""
        if weather is None:
            return cls()
        if isinstance(weather, MoveWeather):
            return weather
        return cls(rained=weather.rained, mud=weather.mud, ground_snow=weather.ground_snow,
                   deep_snow=weather.deep_snow, plowed_roads=weather.plowed_roads,
                   drifts=tuple(sorted((d.hex, d.hexside) for d in weather.drifts)))

    @property
    def snow(self) -> bool:
        return self.ground_snow or self.deep_snow

    def describe(self) -> str:
        bits = [b for b, on in (("rain", self.rained), ("mud", self.mud),
                                ("ground snow", self.ground_snow), ("deep snow", self.deep_snow),
                                ("plowed roads", self.plowed_roads)) if on]
        if self.drifts:
            bits.append("drifts " + ", ".join(f"{h}:{HEXSIDE_NAMES[s]}" for h, s in self.drifts))
        return ", ".join(bits) or "clear"


# -------------------------------------------------------------------------------------------
# the map as movement sees it
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MoveTerrain:
    """Per-hex arrays movement reads: terrain code, ground level, hexside terrain, roads.

    ``road_sides`` int8 [n, 6]: 0 no road across that hexside, 1 unpaved, 2 paved road.
    ``overrides``: a map file's ``[movement]`` table ``{terrain: {unit class: cost}}``.
    ``cover``: bool [n] or None: woods or brush is drawn in the hex (a gully holding it is not
    Open Ground for Mud, 3.65 EXC).  ``building``: int [n] or None: which building each hex
    belongs to (-1 none; a drift between hexes of one building does not hinder, 3.752).
    """

    grid: Grid
    table: TerrainTable
    centre: np.ndarray
    level: np.ndarray
    side_terrain: np.ndarray
    road_sides: np.ndarray
    overrides: Mapping[str, Any] = field(default_factory=dict)
    source: str = "map"
    cover: np.ndarray | None = None
    building: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.grid)
        for name, arr, shape in (("centre", self.centre, (n,)), ("level", self.level, (n,)),
                                 ("side_terrain", self.side_terrain, (n, 6)),
                                 ("road_sides", self.road_sides, (n, 6))):
            if np.shape(arr) != shape:
                raise UsageError(f"movement terrain {name!r} has shape {np.shape(arr)}, "
                                 f"expected {shape}")

    @classmethod
    def of(cls, m: HexMap | MoveTerrain) -> MoveTerrain:
        """From a :class:`~hexwx.hexmap.board.HexMap` (its road hexsides: ``HexMap.road_sides``).

        Every per-hex array here is derived once per map (``HexMap.derived``): a map loaded
        through the on-disk cache reads them back in later processes."""
        if isinstance(m, MoveTerrain):
            return m
        ht = m.hexes
        return cls(m.grid, m.table, np.asarray(ht.centre, np.int32), np.asarray(ht.base, np.int32),
                   np.asarray(ht.side_terrain, np.int32), np.asarray(m.road_sides, np.int8),
                   dict(m.move_overrides), m.source or m.name or "map",
                   m.derived("mud_cover", lambda: drawn_cover(m)), m.building_ids)


def drawn_cover(m: HexMap) -> np.ndarray:
    """bool [n]: woods or brush (by movement row) covers at least :data:`COVER_MIN_SHARE` of
    the hex's pixels -- what "a gully containing woods/brush" (3.65) looks for."""
    is_cover = np.zeros(256, bool)
    for t in m.table.types:
        is_cover[t.code] = movement_row(t) in MUD_GULLY_COVER_ROWS
    hx = m.geometry.hex_at
    n = len(m.grid)
    on = hx >= 0
    total = np.bincount(hx[on].ravel(), minlength=n)
    covered = np.bincount(hx[on & is_cover[m.terrain]].ravel(), minlength=n)
    return covered >= COVER_MIN_SHARE * np.maximum(total, 1)


def movement_row(t: TerrainType) -> str:
    """The MOVEMENT_COSTS row terrain ``t`` moves as: its name, an alias, a name part, its category."""
    if t.name in MOVEMENT_COSTS:
        return t.name
    if t.name in MOVEMENT_ALIASES:
        return MOVEMENT_ALIASES[t.name]
    for part, row in MOVEMENT_NAME_PARTS:
        if part in t.name:
            return row
    return MOVEMENT_CATEGORY_FALLBACK.get(t.category, "Open Ground")


def hexside_row(t: TerrainType) -> str | None:
    """The HEXSIDE_MOVEMENT_COSTS row of hexside terrain ``t``, or None (costs nothing)."""
    if t.name in HEXSIDE_MOVEMENT_COSTS:
        return t.name
    for part, row in HEXSIDE_NAME_PARTS:
        if part in t.name:
            return row
    return None


# -------------------------------------------------------------------------------------------
# the chart for one map and unit class (base costs + map overrides)
# -------------------------------------------------------------------------------------------

Cell = tuple[int | None, str]   # (cost in half MF/MP or None = not allowed, citation)


def _half(cost: Any, where: str) -> int | None:
    if cost is None or cost is False or (isinstance(cost, str) and cost.lower() in
                                         ("no", "none", "prohibited", "not allowed", "x")):
        return None
    if isinstance(cost, bool) or not isinstance(cost, (int, float)) or not math.isfinite(cost) \
            or cost < 0 or (cost * 2) != int(cost * 2):
        raise DataError(f"{where}: expected a cost >= 0 in steps of 0.5, or false for not "
                        f"allowed, got {cost!r}")
    return int(cost * 2)


class Chart:
    """Costs for one unit class on one map: the terrain.py chart with the map's overrides."""

    def __init__(self, table: TerrainTable, unit: str, overrides: Mapping[str, Any],
                 source: str) -> None:
        self.unit = unit
        self.col = MOVE_CLASSES.index(unit)
        self.by_name: dict[str, Cell] = {}     # terrain name (lower case) -> cell
        self.by_row: dict[str, Cell] = {}      # chart row -> cell
        rows = {r.lower(): r for r in (*MOVEMENT_COSTS, *HEXSIDE_MOVEMENT_COSTS)}
        names = {}
        for t in table.types:
            names[t.name.lower()] = t.name
            if t.key:
                names[t.key.lower()] = t.name
        names.setdefault("road", "Dirt Road")
        names.setdefault("dirt road", "Dirt Road")
        names.setdefault("paved road", "Paved Road")
        names.setdefault("open", "Open Ground")
        if not isinstance(overrides, Mapping):
            raise DataError(f"{source}: movement: expected a table {{terrain = {{class = cost}}}}")
        for key, per_class in overrides.items():
            where = f"{source}: movement: {key}"
            k = str(key).strip().lower()
            if k not in names and k not in rows:
                raise DataError(f"{where}: unknown terrain {key!r}; expected a terrain name or "
                                f"key of this map or one of {', '.join(rows.values())}")
            if not isinstance(per_class, Mapping):
                raise DataError(f"{where}: expected a table {{unit class = cost}}, got {per_class!r}")
            for cls_name, cost in per_class.items():
                try:
                    u = parse_unit(cls_name)
                except UsageError as exc:
                    raise DataError(f"{where}: {exc}") from None
                if u != unit:
                    continue
                cell = (_half(cost, f"{where}.{cls_name}"), f"map {source} [movement]")
                if k in names:
                    self.by_name[names[k].lower()] = cell
                else:
                    self.by_row[rows[k]] = cell

    def row(self, row: str, name: str | None = None) -> Cell:
        """Cost of entering terrain named ``name`` that moves as chart row ``row``."""
        for cell in (self.by_name.get((name or row).lower()), self.by_row.get(row)):
            if cell is not None:
                return cell
        costs, rule = MOVEMENT_COSTS[row]
        v = costs[self.col]
        return (None if v is None else int(v * 2)), rule

    def hexside(self, t: TerrainType) -> Cell:
        row = hexside_row(t)
        for cell in (self.by_name.get(t.name.lower()), self.by_row.get(row or "")):
            if cell is not None:
                return cell
        if row is None:
            return 0, ""
        costs, rule = HEXSIDE_MOVEMENT_COSTS[row]
        v = costs[self.col]
        return (None if v is None else int(v * 2)), rule


# -------------------------------------------------------------------------------------------
# edge arrays
# -------------------------------------------------------------------------------------------

#: Cost components of a step, in the order a step lists them.  Those after "hexside" are E3
#: weather additions, added per hexside after the total (3.9).
COMPONENTS = ("entry", "road_adj", "climb", "hexside", "rain", "mud", "snow_level",
              "deep_snow", "snow_vehicle")
WEATHER_COMPONENTS = COMPONENTS[4:]


@dataclass(frozen=True)
class Part:
    """One addend of a step's cost: what, how much (MF/MP), the rule, and whether weather (E3.9)."""

    what: str
    cost: float
    rule: str
    weather: bool = False

    def to_json(self) -> dict:
        return {"what": self.what, "cost": self.cost, "rule": self.rule, "weather": self.weather}


@dataclass(frozen=True, eq=False)
class EdgeCosts:
    """Costs of every directed step (``src`` -> ``dst`` across ``side`` of ``src``).

    ``comp[name]`` int32 half-MF arrays for :data:`COMPONENTS`; ``total`` their sum; ``allowed``
    False where the class may not make the step (``why`` says why); ``drift`` marks drift
    hexsides (3.752: the whole move); ``bonus`` marks steps that keep the road bonus (B3.4).
    """

    unit: str
    weather: MoveWeather
    src: np.ndarray
    dst: np.ndarray
    side: np.ndarray
    road: np.ndarray
    dlevel: np.ndarray
    comp: dict[str, np.ndarray]
    total: np.ndarray
    allowed: np.ndarray
    drift: np.ndarray
    bonus: np.ndarray
    index: np.ndarray          # int32 [n, 6]: edge id of (hex, side), -1 off map
    labels: dict[str, Any] = field(repr=False, default_factory=dict)

    def parts(self, e: int) -> tuple[Part, ...]:
        """The addends of step ``e`` with their rules (zero addends left out)."""
        L = self.labels
        meas = unit_measure(self.unit)
        out: list[Part] = []
        for name in COMPONENTS:
            v = int(self.comp[name][e])
            if v == 0 and name != "entry":
                continue
            what, rule = L[name](e)
            out.append(Part(what.replace("{M}", meas), v / 2, rule, name in WEATHER_COMPONENTS))
        return tuple(out)

    def why_not(self, e: int) -> str:
        """Why step ``e`` is not allowed ("" if it is)."""
        return "" if self.allowed[e] else self.labels["why"](e)


def edge_costs(mt: MoveTerrain, unit: str, weather: MoveWeather) -> EdgeCosts:
    """Vectorised costs of every step of ``mt`` for ``unit`` under ``weather`` (see module doc)."""
    unit = parse_unit(unit)
    w = weather
    mf_class = unit in MF_CLASSES
    chart = Chart(mt.table, unit, mt.overrides, mt.source)
    grid = mt.grid
    n = len(grid)
    nb = grid.neighbours
    flat = nb.ravel()
    keep = flat >= 0
    src = np.repeat(np.arange(n, dtype=np.int32), 6)[keep]
    side = np.tile(np.arange(6, dtype=np.int32), n)[keep]
    dst = flat[keep].astype(np.int32)
    opp = (side + 3) % 6
    index: np.ndarray = np.full(n * 6, -1, np.int32)
    index[keep] = np.arange(len(src), dtype=np.int32)
    index = index.reshape(n, 6)
    road = np.maximum(mt.road_sides[src, side], mt.road_sides[dst, opp]).astype(np.int8)
    # 3.6: "Paved roads (which include bridges)": along a road into a paved-road or bridge hex
    # the unit drives on pavement, whatever the approach hexside is drawn as.
    paved_hex = np.zeros(256, bool)
    for t in mt.table.types:
        paved_hex[t.code] = t.category == Category.BRIDGE or movement_row(t) == "Paved Road"
    road = np.where((road > 0) & paved_hex[mt.centre[dst]], 2, road).astype(np.int8)
    hs = mt.side_terrain[src, side]
    hs = np.where(hs >= 0, hs, mt.side_terrain[dst, opp])
    dlev = (mt.level[dst] - mt.level[src]).astype(np.int32)
    code = mt.centre[dst]

    # -- per terrain code (a loop over the table, not over steps) ---------------------------
    size = 256
    cot = np.full(size, -1, np.int32)
    open365 = np.zeros(size, bool)
    gully365 = np.zeros(size, bool)
    exempt = np.zeros(size, bool)
    entry_label: dict[int, tuple[str, str]] = {}
    hs_cost = np.zeros(size, np.int32)
    hs_label: dict[int, tuple[str, str]] = {}
    for t in mt.table.types:
        c = t.code
        if t.is_hexside:
            v, rule = chart.hexside(t)
            hs_cost[c] = -1 if v is None else v
            hs_label[c] = (f"cross {t.name}", rule)
            continue
        row = movement_row(t)
        name: str | None = t.name
        what = f"enter {t.name}"
        if row in ("Dirt Road", "Paved Road"):
            row, name = "Open Ground", "Open Ground"
            what = f"enter {t.name} off the road: Open Ground"
        if w.snow and row in SNOW_TERRAIN:
            row, note = SNOW_TERRAIN[row]
            name = row
            what = f"enter {t.name} as {row} in snow ({note})"
        if w.deep_snow and row in DEEP_SNOW_TERRAIN:
            row, note = DEEP_SNOW_TERRAIN[row]
            name = row
            what = f"enter {t.name} as {row} in deep snow ({note})"
        v, rule = chart.row(row, name)
        cot[c] = -1 if v is None else v
        open365[c] = row in MUD_OPEN_GROUND_ROWS
        gully365[c] = row in MUD_GULLY_ROWS
        exempt[c] = row in DEEP_SNOW_EXEMPT_ROWS
        entry_label[c] = (what, rule)
    road_cot = np.full(3, -1, np.int32)
    road_rule = ["", "", ""]
    for k, row in ((1, "Dirt Road"), (2, "Paved Road")):
        v, road_rule[k] = chart.row(row)
        road_cot[k] = -1 if v is None else v

    # -- entry (COT) -------------------------------------------------------------------------
    along = road > 0
    entry = np.where(along, road_cot[road], cot[code])
    allowed = entry >= 0
    entry = np.where(allowed, entry, 0)
    road_adj = np.zeros_like(entry)
    if w.mud:   # 3.6: unpaved road -> Open Ground COT
        og, _r = chart.row("Open Ground")
        og = 0 if og is None else og
        road_adj = np.where(along & (road == 1), og - entry, road_adj)
    if w.snow and not mf_class:  # 3.724 / 3.7331: road entry at least 1 MP
        base = entry + road_adj
        road_adj = road_adj + np.where(along, np.maximum(0, 2 * SNOW_MIN_ROAD_ENTRY_MP - base), 0)
    op, amount = UP_LEVEL_COST[unit]
    up = (int(amount) - 1) * (entry + road_adj) if op == "x" else int(2 * amount)
    climb = np.where(dlev > 0, up, 0)
    has_side = hs >= 0
    side_cost = np.where(has_side, hs_cost[np.where(has_side, hs, 0)], 0)
    allowed &= side_cost >= 0
    side_cost = np.where(side_cost >= 0, side_cost, 0)

    # -- weather additions per hexside (3.9) --------------------------------------------------
    zero = np.zeros_like(entry)
    levels = np.abs(dlev)
    plowed_along = along & w.plowed_roads
    rain = np.where((levels > 0) & (road != 2), 2 * RAIN_PER_LEVEL * levels, 0) if w.rained else zero
    if w.mud:
        open_here = open365[code]
        if mt.cover is not None:   # 3.65 EXC: a gully containing woods/brush is not Open Ground
            open_here = open_here & ~(gully365[code] & np.asarray(mt.cover, bool)[dst])
        open_entered = np.where(along, road == 1, open_here)
        mud = np.where(open_entered, int(2 * MUD_PER_OPEN_HEXSIDE[unit_measure(unit)]), 0)
    else:
        mud = zero
    snow_level = deep = snow_veh = zero
    if w.snow and mf_class:
        snow_level = np.where((levels > 0) & ~plowed_along, 2 * SNOW_PER_LEVEL * levels, 0)
        if w.deep_snow:
            deep = np.where(~exempt[code] & ~plowed_along, int(2 * DEEP_SNOW_MF_PER_HEXSIDE), 0)
    if not mf_class:
        if w.ground_snow:
            snow_veh = np.full_like(entry, 2 * GROUND_SNOW_MP_PER_HEXSIDE[unit])
        elif w.deep_snow:
            off, on = DEEP_SNOW_MP_PER_HEXSIDE[unit]
            snow_veh = np.where(plowed_along, 2 * on, 2 * off)
    comp = {"entry": entry, "road_adj": road_adj, "climb": climb, "hexside": side_cost,
            "rain": rain, "mud": mud, "snow_level": snow_level, "deep_snow": deep,
            "snow_vehicle": snow_veh}
    comp = {k: np.ascontiguousarray(v, dtype=np.int32) for k, v in comp.items()}
    total = np.asarray(sum(comp.values()), dtype=np.int32)

    # -- drifts (3.752), road bonus (B3.4) ---------------------------------------------------
    drift = np.zeros(len(src), bool)
    for hex_name, s in w.drifts:
        h = grid.inner_hexside(hex_name, s, "drift")
        o = int(nb[h, s])
        if o >= 0 and mt.building is not None and mt.building[h] >= 0 \
                and mt.building[h] == mt.building[o]:
            continue   # 3.752: normal movement between hexes of the same building across it
        for e in (index[h, s], index[o, (s + 3) % 6] if o >= 0 else -1):
            if e >= 0:
                drift[e] = True
    if ROAD_BONUS.get(unit, 0) > 0:
        bonus = along.copy()
        if w.mud:
            bonus &= road == 2            # 3.6: NA on unpaved roads
        if w.snow:
            bonus &= plowed_along         # 3.723, 3.733: only along plowed roads
    else:
        bonus = np.zeros(len(src), bool)

    labels = _labels(mt, unit, w, road, dlev, code, hs, entry_label, hs_label, road_rule, cot,
                     road_cot)
    return EdgeCosts(unit, w, src, dst, side, road, dlev, comp, total, allowed, drift, bonus,
                     index, labels)


_ROAD = {1: "unpaved road", 2: "paved road"}


def _levels(d: int) -> str:
    return f"{abs(d)} level{'s' if abs(d) != 1 else ''}"


def _labels(mt, unit, w, road, dlev, code, hs, entry_label, hs_label, road_rule, cot, road_cot
            ) -> dict[str, Any]:
    """Label functions (edge id -> (what, rule)) for each component, and the "why not" text."""
    snow_rule = "E3.733, E3.723" if w.deep_snow else "E3.723"

    def entry(e: int) -> tuple[str, str]:
        k = int(road[e])
        if k:
            t = mt.table[int(code[e])]
            inside = "" if t.category in (Category.ROAD, Category.BRIDGE, Category.OPEN) \
                else f" through {t.name}"
            return f"enter along {_ROAD[k]}{inside}", road_rule[k]
        return entry_label[int(code[e])]

    def road_adj(e: int) -> tuple[str, str]:
        if w.mud and int(road[e]) == 1:
            return "mud: unpaved road at Open Ground COT, no road bonus", "E3.6"
        return ("snow: road entry costs at least 1 MP",
                "E3.7331" if w.deep_snow else "E3.724")

    def climb(e: int) -> tuple[str, str]:
        op, amount = UP_LEVEL_COST[unit]
        how = f"COT x{fmt(amount)}" if op == "x" else f"+{fmt(amount)} {{M}}"
        return f"up {_levels(int(dlev[e]))}: {how}", UP_LEVEL_RULE

    def hexside(e: int) -> tuple[str, str]:
        return hs_label[int(hs[e])]

    def rain(e: int) -> tuple[str, str]:
        return f"rain: {_levels(int(dlev[e]))} changed", "E3.54"

    def mud(e: int) -> tuple[str, str]:
        return "mud: Open Ground hexside", "E3.64, E3.65"

    def snow_level(e: int) -> tuple[str, str]:
        kind = "deep snow" if w.deep_snow else "ground snow"
        return f"{kind}: {_levels(int(dlev[e]))} changed", snow_rule

    def deep_snow(e: int) -> tuple[str, str]:
        return "deep snow: hexside", "E3.733"

    def snow_vehicle(e: int) -> tuple[str, str]:
        if w.ground_snow:
            return f"ground snow: {unit} hexside", "E3.724"
        plowed = bool(road[e]) and w.plowed_roads
        return (f"deep snow: {unit} hexside{' along plowed road' if plowed else ''}",
                "E3.7331")

    def why(e: int) -> str:
        t = mt.table[int(code[e])]
        k = int(road[e])
        if (road_cot[k] if k else cot[int(code[e])]) < 0:
            if k:
                return f"{_ROAD[k]} not allowed for {unit}"
            what, rule = entry_label[int(code[e])]
            return f"{t.name} not allowed for {unit} ({rule})"
        if int(hs[e]) >= 0:
            what, rule = hs_label[int(hs[e])]
            return f"{mt.table[int(hs[e])].name} hexside cannot be crossed by {unit} ({rule})"
        return "not allowed"

    labels = {"entry": entry, "road_adj": road_adj, "climb": climb, "hexside": hexside,
              "rain": rain, "mud": mud, "snow_level": snow_level, "deep_snow": deep_snow,
              "snow_vehicle": snow_vehicle, "why": why}
    return labels

