"""Covered approach: fewest steps in sight of the watchers, then the cheapest such path."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.movement.covered import covered_path
from hexwx.movement.paths import WEIGHT, movement_graph, path

MAP = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"


@pytest.fixture(scope="module")
def m():  # type: ignore[no-untyped-def]
    return load_map(MAP)


@pytest.mark.parametrize("a,b,watchers", [("B3", "K6", ["J4"]), ("A1", "P9", ["J4", "N7"]),
                                          ("C8", "M2", ["I4"]), ("B3", "K6", [])])
def test_fewest_exposed_steps_then_cheapest(m, a, b, watchers) -> None:  # type: ignore[no-untyped-def]
    c = covered_path(m, a, b, unit="infantry", watchers=watchers)
    plain = path(m, a, b, unit="infantry")
    assert c.path.found and c.path.hexes[0] == a and c.path.hexes[-1] == b
    # every step's "seen by" is the single LOS answer
    for h, seen in zip(c.path.hexes, c.seen_by):
        assert list(seen) == [w for w in watchers
                              if m.parse(w) != m.parse(h) and not los(m, w, h).blocked]
    # brute force: the fewest exposed hexes entered over all paths, by a 0/1 search
    g = movement_graph(m, "infantry")
    seen = {x for x in range(len(m)) if any(x != m.parse(w) and not los(m, w, x).blocked for w in watchers)}
    best = nx.dijkstra_path_length(g.G, m.parse(a), m.parse(b), weight=lambda u, v, d: 1 if v in seen else 0)
    assert c.exposed_steps == best
    plain_exposed = sum(1 for h in plain.hexes[1:] if m.parse(h) in seen)
    assert c.exposed_steps <= plain_exposed
    if c.exposed_steps == plain_exposed:
        assert c.path.total == plain.total            # nothing to gain: the cheapest path's cost
    else:
        assert c.path.total >= plain.total
    total = sum(g.G[m.parse(x)][m.parse(y)][WEIGHT] for x, y in zip(c.path.hexes, c.path.hexes[1:])) / 2
    assert total == c.path.total
    assert "steps in sight" in c.describe()
    assert c.to_json()["exposed_steps"] == c.exposed_steps
