"""Path optimality and reach against a plain heapq Dijkstra on random small maps (hypothesis)."""
from __future__ import annotations

import heapq

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwx.hexmap.coords import Grid
from hexwx.movement.costs import MoveTerrain
from hexwx.movement.paths import movement_graph
from hexwx.hexmap.terrain import CATALOGUE, catalogue_type
from hexwx.movement.charts import MOVE_CLASSES
from hexwx.weather.asl.state import AslWeather

GRID = Grid.single()
KEYS = ["open"] * 6 + ["woods", "grain", "brush", "marsh", "stone building", "rubble", "crags",
                       "water", "gully", "stream", "orchard", "shellholes", "road"]
WEATHERS = [AslWeather(), AslWeather(rain=True), AslWeather(base="Mud"),
            AslWeather(ground_snow=True), AslWeather(deep_snow=True),
            AslWeather(deep_snow=True, plowed_roads=True)]


def random_map(seed: int) -> MoveTerrain:
    rng = np.random.default_rng(seed)
    n = len(GRID)
    nb = GRID.neighbours
    codes = np.array([catalogue_type(k).code for k in KEYS], np.int32)
    centre = codes[rng.integers(0, len(codes), n)]
    level = rng.choice([0, 0, 1, 2], n).astype(np.int32)
    side = np.full((n, 6), -1, np.int32)
    for key, p in (("wall", 0.05), ("hedge", 0.05), ("cliff", 0.03)):
        side[(rng.random((n, 6)) < p) & (nb >= 0)] = catalogue_type(key).code
    roads = np.where((rng.random((n, 6)) < 0.15) & (nb >= 0), rng.integers(1, 3, (n, 6)), 0)
    for h, s in zip(*np.nonzero(nb >= 0)):      # make hexsides the same from both sides
        o, t = nb[h, s], (s + 3) % 6
        if h < o:
            side[o, t] = side[h, s]
            roads[o, t] = roads[h, s]
    return MoveTerrain(GRID, CATALOGUE, centre, level, side, roads.astype(np.int8), {}, "random")


def brute_dijkstra(g, src: int, *, road_only: bool = False) -> dict[int, float]:
    """Costs from ``src`` using each step's own explanation (``g.step``), heapq Dijkstra."""
    dist = {src: 0.0}
    heap = [(0.0, src)]
    done: set[int] = set()
    while heap:
        d, h = heapq.heappop(heap)
        if h in done:
            continue
        done.add(h)
        for o in GRID.neighbours[h]:
            if o < 0:
                continue
            s = g.step(int(h), int(o))
            if not s.allowed or s.all_mf or (road_only and not s.road_bonus):
                continue
            assert s.cost == sum(p.cost for p in s.parts)   # the parts add up to the cost
            nd = d + s.cost
            if nd < dist.get(int(o), float("inf")):
                dist[int(o)] = nd
                heapq.heappush(heap, (nd, int(o)))
    return dist


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), unit=st.sampled_from(MOVE_CLASSES),
       wx=st.sampled_from(WEATHERS), data=st.data())
def test_path_is_optimal_and_reach_matches(seed, unit, wx, data):
    m = random_map(seed)
    g = movement_graph(m, unit, wx)
    src = data.draw(st.integers(0, len(GRID) - 1), label="src")
    dist = brute_dijkstra(g, src)
    # path: same total as brute force, a chain of adjacent steps whose costs add up
    for dst in data.draw(st.lists(st.integers(0, len(GRID) - 1), min_size=1, max_size=4), label="dst"):
        p = g.path(src, dst)
        if dst not in dist:
            assert not p.found
            continue
        assert p.found and p.total == dist[dst]
        assert p.hexes[0] == GRID.name(src) and p.hexes[-1] == GRID.name(dst)
        assert sum(s.cost for s in p.steps) == p.total
        for s, a, b in zip(p.steps, p.hexes, p.hexes[1:]):
            assert (s.source, s.target) == (a, b) == (s.frm, s.to)   # the old names still work
            assert GRID.distance(GRID.parse(a), GRID.parse(b)) == 1
    # reach: every hex whose cost <= mf, plus road-bonus hexes within mf + 1
    mf = data.draw(st.sampled_from([0, 1, 2.5, 4, 6]), label="mf")
    r = g.reach(src, mf)
    want = {GRID.name(h): c for h, c in dist.items() if c <= mf}
    if unit in ("infantry", "cavalry"):
        for h, c in brute_dijkstra(g, src, road_only=True).items():
            want.setdefault(GRID.name(h), c) if c <= mf + 1 else None
    assert r.costs == want
    assert r.by_road_bonus == {h for h, c in want.items() if c > mf}
