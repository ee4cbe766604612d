"""Covered approach: the cheapest path that spends the fewest steps in sight of given hexes.

``covered_path(m, "A1", "K5", unit="infantry", watchers=["N7", "P3"])`` treats exposure as a
cost: a hex entered while some watcher (at ground level) has LOS to it, under the weather,
costs more than any whole path can, so the search first minimises the number of exposed steps
and, among those paths, the MF/MP.  Each step says who sees the hex it enters.

Readings: a watcher "sees" a hex when its LOS to the hex's ground level is not blocked
(:func:`hexwx.lineofsight.exposure.exposure`, any hindrance DRM); the start hex is where the
unit already is and does not count; drift crossings (whole move, E3 3.752) are not used.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import networkx as nx
import numpy as np

from hexwx.lineofsight.exposure import exposure
from hexwx.movement.paths import WEIGHT, MovePath, movement_graph


@dataclass(frozen=True)
class CoveredPath:
    """A :class:`MovePath` plus, per hex of it, the watchers that see it."""

    path: MovePath
    watchers: tuple[str, ...]
    seen_by: tuple[tuple[str, ...], ...]   # one per hex of path.hexes

    @property
    def found(self) -> bool:
        """A path exists (as :attr:`MovePath.found`)."""
        return self.path.found

    @property
    def exposed_steps(self) -> int:
        """Steps that end in a hex some watcher sees."""
        return sum(1 for s in self.seen_by[1:] if s)

    def to_json(self) -> dict[str, Any]:
        data = self.path.to_json()
        for st, seen in zip(data["steps"], self.seen_by[1:]):
            st["seen_by"] = list(seen)
        data["avoid_sight_of"] = list(self.watchers)
        data["exposed_steps"] = self.exposed_steps if self.path.found else None
        return data

    def describe(self) -> str:
        lines = self.path.describe().splitlines()
        if not self.path.found:
            return "\n".join(lines)
        out = [lines[0] + f", avoiding sight of {', '.join(self.watchers)}"]
        for line, seen in zip(lines[1:1 + len(self.path.steps)], self.seen_by[1:]):
            out.append(line + ("  [in sight of " + ", ".join(seen) + "]" if seen else "  [out of sight]"))
        out += lines[1 + len(self.path.steps):]
        out.append(f"{self.exposed_steps} of {len(self.path.steps)} steps in sight")
        return "\n".join(out)

    def _repr_png_(self) -> bytes | None:
        return self.path._repr_png_()


def covered_path(m: Any, start: int | str, goal: int | str, *, unit: str,
                 watchers: Sequence[str], weather: Any = None,
                 mf: float | None = None) -> CoveredPath:
    """The path from ``start`` to ``goal`` with the fewest steps in sight of ``watchers``, and
    the cheapest such path (see the module docstring)."""
    g = movement_graph(m, unit, weather)
    a, b = g.hex(start), g.hex(goal)
    exp = exposure(m, observers=list(watchers), weather=weather)
    assert exp.seen is not None and exp.observers is not None
    exposed: np.ndarray = np.asarray(exp.seen.any(axis=0), bool)
    weights = g.costs.total[g.costs.allowed]
    big = int(len(g.grid) * (int(weights.max()) if len(weights) else 1) + 1)

    def cost(u: int, v: int, d: dict) -> int:
        return int(d[WEIGHT]) + (big if exposed[v] else 0)

    plain = g.path(a, b, mf=mf)
    try:
        _, nodes = nx.single_source_dijkstra(g.G, a, target=b, weight=cost)
    except nx.NetworkXNoPath:
        nodes = None
    if nodes is None:
        res = plain if not plain.found else MovePath(plain.unit, plain.weather, (), (), None,
                                                     found=False, reason=plain.reason, mf=mf)
    else:
        hexes = np.asarray(nodes, dtype=np.int64)
        sides = np.argmax(g.grid.neighbours[hexes[:-1]] == hexes[1:, None], axis=1)
        steps = tuple(g._step(int(e)) for e in g.costs.index[hexes[:-1], sides])
        total = sum(s.cost or 0 for s in steps)
        bonus = bool(steps) and all(s.road_bonus for s in steps)
        res = MovePath(plain.unit, plain.weather, tuple(g.grid.name(h) for h in nodes), steps,
                       total, road_bonus=bonus, mf=mf, map=m)
    obs = exp.observers
    seen_by = tuple(tuple(o for o, s in zip(obs, exp.seen[:, m.parse(h)]) if s) for h in res.hexes)
    return CoveredPath(res, tuple(obs), seen_by)
