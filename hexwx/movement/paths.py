"""Movement on hex maps under E3 weather: a networkx graph per (map, unit class, weather), path, reach.

:func:`movement_graph` builds (once; cached per map) a :class:`MoveGraph` from the vectorised
step costs of :mod:`hexwx.movement.costs`; :func:`path` returns the cheapest path with the cost of
each step and its reasons; :func:`reach` every hex reachable within an allowance.

Readings:

* reading: a Drift hexside (3.752) takes *all* of a unit's MF/MP, so it can only be crossed as
  the unit's one and only step of its move.  Such steps are not in the graph: :func:`reach`
  adds the hexes across a drift from the start (cost = the whole allowance, if > 0) and
  :func:`path` uses a drift only for a one-step path — when the two hexes are adjacent and no
  drift-free path exists, or (given ``mf``) it is no dearer than ``mf``.  A vehicle's drift step
  reports the Bog check with its +2 DRM.
* reading: the road bonus (B3.4, +1 MF) needs the *whole* move along road hexsides that keep it
  under the weather (3.6, 3.723, 3.733).  :func:`reach` therefore also searches the road-only
  graph with the allowance + 1 and marks the hexes found only that way; :func:`path` reports
  whether its path qualifies.
* reading: ½ MF additions add up exactly (two +½ make +1); a step's cost is never rounded.
* not modelled: minimum move (one hex with all MF), bypass, double time, leader bonus, Gallop,
  building levels, bog checks other than the drift's.
"""
from __future__ import annotations

import dataclasses
import math
import weakref
from dataclasses import dataclass, field
from typing import Any, TypeVar

import networkx as nx
import numpy as np

from hexwx.hexmap.board import HexMap
from hexwx.weather.asl.state import AslWeather
from hexwx.hexmap.coords import HEXSIDE_NAMES
from hexwx.errors import UsageError
from hexwx.movement.costs import (DRIFT_BOG_DRM, EdgeCosts, MoveTerrain, MoveWeather, Part,
                            check_allowance, edge_costs, fmt, parse_unit, unit_measure)
from hexwx.movement.charts import MF_CLASSES, ROAD_BONUS, ROAD_BONUS_RULE

WEIGHT = "w"   # edge attribute: cost in half MF/MP (int)


# -------------------------------------------------------------------------------------------
# results
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a move: from hex, to hex, its cost (None = all MF/MP) and the parts of it."""

    frm: str
    to: str
    hexside: int
    cost: float | None
    parts: tuple[Part, ...]
    allowed: bool = True
    reason: str = ""
    all_mf: bool = False
    bog_drm: int | None = None
    road_bonus: bool = False

    def to_json(self) -> dict:
        return {"from": self.frm, "to": self.to, "hexside": HEXSIDE_NAMES[self.hexside],
                "cost": self.cost, "all_mf": self.all_mf, "allowed": self.allowed,
                "reason": self.reason or None, "bog_check_drm": self.bog_drm,
                "road_bonus": self.road_bonus, "parts": [p.to_json() for p in self.parts]}

    def describe(self, measure: str) -> str:
        head = f"{self.frm} -> {self.to}  {fmt(self.cost)} {measure}"
        if not self.allowed:
            return f"{self.frm} -> {self.to}  not allowed: {self.reason}"
        bits = [f"{p.what} {'+' if i else ''}{fmt(p.cost)} ({p.rule})"
                for i, p in enumerate(self.parts)]
        if self.all_mf:
            bits = [f"drift hexside: all {measure} (E3.752)"]
            if self.bog_drm is not None:
                bits.append(f"bog check {self.bog_drm:+d} DRM (E3.752, D8.21)")
        return f"{head:<22} " + "; ".join(bits)


@dataclass(frozen=True)
class MovePath:
    """The cheapest path: hexes, steps, total (None when a drift takes the whole move).

    ``found`` False (with ``reason``) when no path exists.  ``road_bonus`` True when every step
    keeps the road bonus (B3.4), i.e. the unit has its allowance + 1 for this move.
    """

    unit: str
    weather: str
    hexes: tuple[str, ...]
    steps: tuple[Step, ...]
    total: float | None
    found: bool = True
    reason: str = ""
    road_bonus: bool = False
    mf: float | None = None
    map: HexMap | None = field(default=None, repr=False, compare=False)   # for drawing

    def _repr_png_(self) -> bytes | None:
        """The path drawn on its map, cropped to the path, for notebooks."""
        if self.map is None or not self.found:
            return None
        from hexwx.render.core import result_png
        return result_png(self.map, self.hexes, path=self)

    @property
    def measure(self) -> str:
        return unit_measure(self.unit)

    @property
    def within(self) -> bool | None:
        """Whether the path fits ``mf`` (with the road bonus if it qualifies); None without mf."""
        if self.mf is None or not self.found:
            return None
        if self.total is None:
            return self.mf > 0
        return self.total <= self.mf + (ROAD_BONUS.get(self.unit, 0) if self.road_bonus else 0)

    def to_json(self) -> dict:
        return {"unit": self.unit, "measure": self.measure, "weather": self.weather,
                "found": self.found, "reason": self.reason or None, "hexes": list(self.hexes),
                "total": self.total, "all_mf": any(s.all_mf for s in self.steps),
                "road_bonus": self.road_bonus, "mf": self.mf, "within": self.within,
                "steps": [s.to_json() for s in self.steps]}

    def describe(self) -> str:
        m = self.measure
        if not self.found:
            return f"no path for {self.unit} ({self.weather}): {self.reason}"
        lines = [f"path {' '.join(self.hexes)} for {self.unit} ({self.weather})"]
        lines += ["  " + s.describe(m) for s in self.steps]
        total = f"all {m} (whole move)" if self.total is None else f"{fmt(self.total)} {m}"
        tail = f"total {total}"
        if self.road_bonus:
            tail += f"; whole move along road: road bonus +{fmt(ROAD_BONUS[self.unit])} MF ({ROAD_BONUS_RULE})"
        if self.mf is not None:
            tail += f"; {'within' if self.within else 'beyond'} {fmt(self.mf)} {m}"
        lines.append(tail)
        return "\n".join(lines)


@dataclass(frozen=True)
class Reach:
    """Hexes reachable from ``start`` within ``mf``: name -> cost (MF/MP).

    ``by_road_bonus``: hexes reached only thanks to the road bonus (B3.4); ``whole_move``:
    hexes reached by crossing a drift with the whole allowance (3.752).
    """

    unit: str
    weather: str
    start: str
    mf: float
    costs: dict[str, float]
    by_road_bonus: frozenset[str] = frozenset()
    whole_move: frozenset[str] = frozenset()
    map: HexMap | None = field(default=None, repr=False, compare=False)   # for drawing

    def _repr_png_(self) -> bytes | None:
        """The reach drawn on its map, cropped to the hexes reached, for notebooks."""
        if self.map is None:
            return None
        from hexwx.render.core import result_png
        return result_png(self.map, list(self.costs), reach=self, reach_from=self.start)

    def __contains__(self, name: object) -> bool:
        return name in self.costs

    def __len__(self) -> int:
        return len(self.costs)

    def to_json(self) -> dict:
        return {"unit": self.unit, "measure": unit_measure(self.unit), "weather": self.weather,
                "start": self.start, "mf": self.mf, "count": len(self.costs),
                "hexes": [{"hex": h, "cost": c, "road_bonus": h in self.by_road_bonus,
                           "whole_move": h in self.whole_move} for h, c in self.costs.items()]}

    def describe(self) -> str:
        m = unit_measure(self.unit)
        lines = [f"reach from {self.start} for {self.unit} with {fmt(self.mf)} {m} "
                 f"({self.weather}): {len(self.costs)} hexes"]
        by_cost: dict[float, list[str]] = {}
        for h, c in self.costs.items():
            by_cost.setdefault(c, []).append(h + ("*" if h in self.by_road_bonus else "")
                                             + ("!" if h in self.whole_move else ""))
        for c in sorted(by_cost):
            lines.append(f"  {fmt(c):>4} {m}: {' '.join(by_cost[c])}")
        if self.by_road_bonus:
            lines.append(f"  * only with the road bonus (+1 MF, whole move along road; {ROAD_BONUS_RULE})")
        if self.whole_move:
            lines.append(f"  ! across a drift: takes the whole move (E3.752)")
        return "\n".join(lines)


# -------------------------------------------------------------------------------------------
# the graph
# -------------------------------------------------------------------------------------------


class MoveGraph:
    """The movement graph of one map for one unit class under one weather.

    ``G``: networkx DiGraph over hex ids with edge attribute ``"w"`` (cost in half MF/MP) for
    every allowed step except drift crossings; ``road_G``: the steps that keep the road bonus
    (None if the class has none).  ``costs``: the :class:`~hexwx.movement.costs.EdgeCosts` arrays.
    """

    def __init__(self, terrain: MoveTerrain, unit: str, weather: MoveWeather) -> None:
        self.terrain = terrain
        self.grid = terrain.grid
        self.unit = parse_unit(unit)
        self.weather = weather
        ec = edge_costs(terrain, self.unit, weather)
        self.costs: EdgeCosts = ec
        usable = ec.allowed & ~ec.drift
        self.G = _digraph(len(self.grid), ec.src[usable], ec.dst[usable], ec.total[usable])
        self.road_G: nx.DiGraph | None = None
        if ROAD_BONUS.get(self.unit, 0) > 0:
            rb = usable & ec.bonus
            self.road_G = _digraph(len(self.grid), ec.src[rb], ec.dst[rb], ec.total[rb])
        self._min_step = int(ec.total[usable].min()) if usable.any() else 0

    @property
    def measure(self) -> str:
        return unit_measure(self.unit)

    def hex(self, h: int | str) -> int:
        """Hex id of ``h`` (a name or an id); UsageError if not on the map."""
        return self.grid.hex(h)

    # -- one step ------------------------------------------------------------------------------
    def edge(self, a: int, b: int) -> int:
        side = self.grid.side_towards(a, b)
        return int(self.costs.index[a, side])

    def step(self, a: int | str, b: int | str) -> Step:
        """The step from ``a`` to adjacent ``b`` with its cost and reasons (or why not allowed)."""
        a, b = self.hex(a), self.hex(b)
        return self._step(self.edge(a, b))

    def _step(self, e: int) -> Step:
        ec = self.costs
        side = int(ec.side[e])
        names = self.grid.name(int(ec.src[e])), self.grid.name(int(ec.dst[e]))
        if not ec.allowed[e]:
            return Step(*names, side, None, (), allowed=False, reason=ec.why_not(e))
        if ec.drift[e]:
            bog = None if self.unit in MF_CLASSES else DRIFT_BOG_DRM
            return Step(*names, side, None, (), all_mf=True, bog_drm=bog)
        return Step(*names, side, int(ec.total[e]) / 2, ec.parts(e),
                    road_bonus=bool(ec.bonus[e]))

    # -- path ----------------------------------------------------------------------------------
    def path(self, start: int | str, goal: int | str, *, mf: float | None = None) -> MovePath:
        """The cheapest path from ``start`` to ``goal`` (see the module readings for drifts)."""
        a, b = self.hex(start), self.hex(goal)
        if mf is not None:
            mf = check_allowance(mf, self.unit)
        wx = self.weather.describe()
        names = self.grid.name
        try:
            # one-sided search stopping at the goal: faster here than the bidirectional one
            found = nx.single_source_dijkstra(self.G, a, target=b, weight=WEIGHT)
            dist, nodes = float(found[0]), list(found[1])  # type: ignore[arg-type]  # with target: (length, path)
        except nx.NetworkXNoPath:
            dist, nodes = math.inf, None
        drift_e = -1
        if b in self.grid.neighbours[a]:
            e = self.edge(a, b)
            if self.costs.drift[e] and self.costs.allowed[e]:
                drift_e = e
        if drift_e >= 0 and (nodes is None or (mf is not None and 2 * mf <= dist)):
            step = self.step(a, b)
            return MovePath(self.unit, wx, (names(a), names(b)), (step,), None, mf=mf)
        if nodes is None:
            return MovePath(self.unit, wx, (), (), None, found=False,
                            reason=self._no_path_reason(a, b), mf=mf)
        hexes = np.asarray(nodes, dtype=np.int64)
        sides = np.argmax(self.grid.neighbours[hexes[:-1]] == hexes[1:, None], axis=1)
        steps = tuple(self._step(int(e)) for e in self.costs.index[hexes[:-1], sides])
        bonus = bool(steps) and all(s.road_bonus for s in steps)
        return MovePath(self.unit, wx, tuple(names(h) for h in nodes), steps, dist / 2,
                        road_bonus=bonus, mf=mf)

    def _no_path_reason(self, a: int, b: int) -> str:
        ec = self.costs
        nm = self.grid.name
        into = [int(ec.index[n, (s + 3) % 6]) for s, n in enumerate(self.grid.neighbours[b]) if n >= 0]
        usable = [e for e in into if ec.allowed[e] and not ec.drift[e]]
        if not usable:
            whys = sorted({ec.why_not(e) for e in into if not ec.allowed[e]}
                          | ({"drift hexsides take the whole move (E3.752)"}
                             if any(ec.drift[e] for e in into) else set()))
            return f"{nm(b)} cannot be entered by {self.unit}: {'; '.join(whys)}"
        return f"{nm(b)} cannot be reached from {nm(a)} by {self.unit} (cut off by terrain, " \
               "cliffs or drifts)"

    # -- reach ---------------------------------------------------------------------------------
    def reach(self, start: int | str, mf: float) -> Reach:
        """Every hex reachable from ``start`` within ``mf`` MF/MP, with its cost."""
        a = self.hex(start)
        mf = check_allowance(mf, self.unit)
        cut = int(np.floor(2 * mf + 1e-9))
        dist = nx.single_source_dijkstra_path_length(self.G, a, cutoff=cut, weight=WEIGHT)
        out: dict[int, float] = dict(dist)
        by_bonus: set[int] = set()
        if self.road_G is not None:
            extra = int(2 * ROAD_BONUS[self.unit])
            rd = nx.single_source_dijkstra_path_length(self.road_G, a, cutoff=cut + extra,
                                                       weight=WEIGHT)
            for h, d in rd.items():
                if h not in out:
                    out[h] = d
                    by_bonus.add(h)
        whole: set[int] = set()
        if mf > 0:
            ec = self.costs
            for s in range(6):
                e = int(ec.index[a, s])
                if e >= 0 and ec.drift[e] and ec.allowed[e]:
                    h = int(ec.dst[e])
                    if h not in out or out[h] > cut:
                        out[h] = cut
                        whole.add(h)
                        by_bonus.discard(h)
        nm = self.grid.name
        costs = {nm(h): (mf if h in whole else d / 2)
                 for h, d in sorted(out.items(), key=lambda kv: (kv[1], kv[0]))}
        return Reach(self.unit, self.weather.describe(), nm(a), mf, costs,
                     frozenset(nm(h) for h in by_bonus), frozenset(nm(h) for h in whole))


def _digraph(n: int, src: np.ndarray, dst: np.ndarray, w: np.ndarray) -> nx.DiGraph:
    """A DiGraph on nodes 0..n-1 with edges src->dst of weight ``w`` (fast bulk build)."""
    G: nx.DiGraph[int] = nx.DiGraph()
    G.add_nodes_from(range(n))
    # bulk fill of the adjacency dicts (networkx's own layout; not in its type stubs)
    succ, pred = G._succ, G._pred  # type: ignore[attr-defined]
    for s, d, c in zip(src.tolist(), dst.tolist(), w.tolist()):
        attr = {WEIGHT: c}
        succ[s][d] = attr
        pred[d][s] = attr
    return G


# -------------------------------------------------------------------------------------------
# cache and module-level API
# -------------------------------------------------------------------------------------------

#: A map movement runs on: a loaded map, or the movement arrays of one (tests build these).
MoveMap = HexMap | MoveTerrain
_R = TypeVar("_R", "MovePath", "Reach")
#: The weather movement reads: E3 weather, its movement part, or None for clear weather.
MoveWeatherLike = AslWeather | MoveWeather | None

_TERRAIN: weakref.WeakKeyDictionary[HexMap, MoveTerrain] = weakref.WeakKeyDictionary()
_GRAPHS: weakref.WeakKeyDictionary[MoveMap, dict[tuple[str, MoveWeather], MoveGraph]] = \
    weakref.WeakKeyDictionary()


def movement_graph(m: MoveMap, unit: str, weather: MoveWeatherLike = None) -> MoveGraph:
    """The (cached) :class:`MoveGraph` of map ``m`` for ``unit`` under ``weather``.

    ``m``: a :class:`~hexwx.hexmap.board.HexMap` or :class:`~hexwx.movement.costs.MoveTerrain`; ``weather``:
    an :class:`~hexwx.weather.asl.state.AslWeather`, a MoveWeather or None (clear).  One graph is
    built per (map, unit class, movement-relevant weather) and kept while the map lives.
    """
    unit = parse_unit(unit)
    mw = MoveWeather.of(weather)
    per_map = _GRAPHS.get(m)
    if per_map is None:
        per_map = {}
        _GRAPHS[m] = per_map
    key = (unit, mw)
    g = per_map.get(key)
    if g is None:
        if isinstance(m, MoveTerrain):
            mt = m
        else:
            mt = _TERRAIN.get(m) or _TERRAIN.setdefault(m, MoveTerrain.of(m))
        g = per_map[key] = MoveGraph(mt, unit, mw)
    return g


def path(m: MoveMap, start: int | str, goal: int | str, *, unit: str, weather: MoveWeatherLike = None,
         mf: float | None = None, counters: Any = None) -> MovePath:
    """Cheapest path from ``start`` to ``goal`` on map ``m`` for ``unit`` under ``weather``;
    ``counters`` on the map change it where they change terrain (rubble, B24)."""
    m = _countered(m, counters)
    return _with_map(movement_graph(m, unit, weather).path(start, goal, mf=mf), m)


def _countered(m: MoveMap, counters: Any) -> MoveMap:
    """``m`` as the counters leave it for movement: rubbled hexes redrawn
    (:mod:`hexwx.lineofsight.counter_los`); SMOKE, vehicles and wrecks do not change MF costs
    here."""
    if not counters or not isinstance(m, HexMap):
        return m
    from hexwx.lineofsight.counter_los import prepare
    from hexwx.lineofsight.counters import Counters
    prep = prepare(m, Counters.of(counters))
    return m if prep is None else prep.map


def _with_map(res: _R, m: MoveMap) -> _R:
    """``res`` carrying its map for drawing (not for a bare MoveTerrain)."""
    return res if isinstance(m, MoveTerrain) else dataclasses.replace(res, map=m)


def reach(m: MoveMap, start: int | str, *, unit: str, mf: float, weather: MoveWeatherLike = None,
          counters: Any = None) -> Reach:
    """Every hex of ``m`` that ``unit`` can reach from ``start`` with ``mf`` MF/MP (with
    ``counters`` as for :func:`path`)."""
    m = _countered(m, counters)
    return _with_map(movement_graph(m, unit, weather).reach(start, mf), m)


def step(m: MoveMap, a: int | str, b: int | str, *, unit: str, weather: MoveWeatherLike = None) -> Step:
    """The cost and reasons of one step between adjacent hexes ``a`` and ``b``."""
    return movement_graph(m, unit, weather).step(a, b)
