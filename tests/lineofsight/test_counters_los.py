"""Counters on the LOS (hexwx.lineofsight.counter_los): SMOKE, Blazes, vehicles, wrecks, OBA,
rubble; single queries and batches agree; the bare map is unchanged without counters."""
from __future__ import annotations

import numpy as np
import pytest

import hexwx
from hexwx.errors import UsageError
from hexwx.lineofsight.batch import los_pairs
from hexwx.lineofsight.counter_los import crosses, polygon_edges, prepare
from hexwx.lineofsight.counters import Counter, Counters, counter_type, parse_counter
from hexwx.lineofsight.results import HINDRANCE_SIX_RULE
from tests.vasl_boards import board



@pytest.fixture(scope="module")
def bd02():
    return board("bd02")


def _flat_pair(m):
    """A clear ground-level pair between hexes of one ground level, range 6 or more, with no
    terrain hindrance, and its answer (found in the map's table)."""
    t = hexwx.los_table(m)
    base = m.hexes.base
    ok = (~t.blocked & (t.hindrance == 0) & (t.range >= 6) & (base[t.src] == base[t.tgt])
          & (base[t.src] == 0))
    i = int(np.flatnonzero(ok)[0])
    return hexwx.los(m, int(t.src[i]), int(t.tgt[i]))


def test_unknown_names_are_one_line_errors() -> None:
    with pytest.raises(UsageError, match=r"unknown counter 'T-34 M43'"):
        counter_type("T-34 M43")
    with pytest.raises(UsageError, match=r"bad counter 'Smoke'; expected NAME@HEX"):
        parse_counter("Smoke")
    with pytest.raises(UsageError, match=r"hexside must be 0-5"):
        Counter("vehicle:T-34", "I4", 0, 7)


@pytest.mark.parametrize("name,kind,drm,height", [
    ("White +3 Smoke", "smoke", 3, 2), ("Gray +2 Smoke", "smoke", 2, 2),
    ("White +1 WP", "smoke", 1, 4), ("+3 Smoke", "smoke", 3, 2), ("+2 WP", "smoke", 2, 4),
    ("White +3 Smoke (A)", "smoke", 3, 2), ("White +2 Smoke ", "smoke", 2, 2),
    ("Blaze", "blaze", 3, 2), ("2-level Blaze", "blaze", 3, 5),
    ("PzKpfw IVH Wreck", "wreck", 1, 0), ("Burnt Out Wreck", "wreck", 1, 0),
    ("Red FFE:1", "oba", 1, 2), ("Red OBA FFE:1", "oba", 1, 2),
    ("Wood Rubble", "rubble", 0, 0), ("1S Foxhole", "entrenchment", 0, 0),
    ("Building Level 2", "location", 0, 0), ("Roadblock", "no effect", 0, 0),
])
def test_catalogue_reads_vasl_piece_names(name: str, kind: str, drm: int, height: int) -> None:
    t = counter_type(name)
    assert (t.kind, t.drm, t.height) == (kind, drm, height)


def test_no_counters_is_the_bare_map(bd02) -> None:
    r0 = hexwx.los(bd02, "A5", "J5")
    assert hexwx.los(bd02, "A5", "J5", counters=Counters()) == r0
    assert hexwx.los(bd02, "A5", "J5", counters=None) == r0


def test_smoke_between_adds_its_drm_and_the_firer_in_smoke_one_more(bd02) -> None:
    r0 = _flat_pair(bd02)
    mid = next(t.name for t in r0.thread if t.rs == 3)
    r = hexwx.los(bd02, r0.source, r0.target, counters=[f"White +3 Smoke@{mid}"])
    assert not r.blocked and r.hindrance == 3
    [h] = [h for h in r.hindrances if h.kind == "smoke"]
    assert (h.hex, h.drm, h.name, h.rule) == (mid, 3, "White +3 Smoke", "A24")
    # two SMOKE counters in one hex: the larger counts
    r2 = hexwx.los(bd02, r0.source, r0.target,
                   counters=[f"White +3 Smoke@{mid}", f"Gray +2 Smoke@{mid}"])
    assert r2.hindrance == 3
    # the firer in SMOKE: its DRM and +1 (A24.8); the target in it: its DRM only
    out = hexwx.los(bd02, r0.source, r0.target, counters=[f"White +2 Smoke@{r0.source}"])
    back = hexwx.los(bd02, r0.target, r0.source, counters=[f"White +2 Smoke@{r0.source}"])
    assert (out.hindrance, back.hindrance) == (3, 2)
    assert any(h.kind == "firing out of smoke" and h.rule == "A24.8" for h in out.hindrances)


def test_two_smoke_hexes_reach_six_and_block(bd02) -> None:
    r0 = _flat_pair(bd02)
    a = next(t.name for t in r0.thread if t.rs == 1)
    b = next(t.name for t in r0.thread if t.rs == 2)
    r = hexwx.los(bd02, r0.source, r0.target,
                  counters=[f"White +3 Smoke@{a}", f"White +3 Smoke@{b}"])
    assert r.blocked and r.rule == HINDRANCE_SIX_RULE and r.by_hindrances


def test_vehicle_hinders_at_its_level_only(bd02) -> None:
    r0 = _flat_pair(bd02)
    mid = next(t.name for t in r0.thread if t.rs == 3)
    r = hexwx.los(bd02, r0.source, r0.target, counters=[f"vehicle:T-34 M43@{mid}"])
    assert r.hindrance == 1 and r.hindrances[0].kind == "vehicle"
    assert r.hindrances[0].name == "T-34 M43" and r.hindrances[0].rule == "D9"
    # in an end hex a vehicle does not hinder
    assert hexwx.los(bd02, r0.source, r0.target,
                     counters=[f"vehicle:T-34@{r0.target}"]).hindrance == 0
    # a Blaze on a wreck is a burning wreck: +2, not +3 + 1 (D10)
    rb = hexwx.los(bd02, r0.source, r0.target, counters=[f"Wreck@{mid}", f"Blaze@{mid}"])
    assert rb.hindrance == 2 and [h.rule for h in rb.hindrances] == ["D10"]


def test_smoke_below_a_high_los_does_not_hinder(bd02) -> None:
    """SMOKE two levels high in a level-0 hex under a LOS between two hills of level 2 or more: the LOS
    passes above it (neither end is in its levels, nor in its blind zone, A6.4)."""
    m = bd02
    t = hexwx.los_table(m)
    base = m.hexes.base
    high = ~t.blocked & (base[t.src] >= 2) & (base[t.tgt] >= 2) & (t.range >= 3)
    found = 0
    for i in np.flatnonzero(high)[:400].tolist():
        r = hexwx.los(m, int(t.src[i]), int(t.tgt[i]))
        g = m.grid
        a, b = m.parse(r.source), m.parse(r.target)
        low = [th.name for th in r.thread if th.ground == 0 and 0 < th.rs < r.range
               and crosses(polygon_edges(tuple(g.corners(m.parse(th.name)))),
                           g.centre_x[a], g.centre_y[a], g.centre_x[b], g.centre_y[b])]
        if low:
            rc = hexwx.los(m, r.source, r.target, counters=[f"White +3 Smoke@{low[0]}"])
            assert rc.hindrance == r.hindrance and not rc.blocked
            rw = hexwx.los(m, r.source, r.target, counters=[f"3-level Blaze@{low[0]}"])
            assert rw.hindrance == r.hindrance + 3     # six levels high: the LOS is in it
            found += 1
    assert found


def test_batches_equal_single_queries(bd02) -> None:
    rng = np.random.default_rng(7)
    names = bd02.grid.names()
    hexes = rng.choice(len(bd02), 12, replace=False)
    kinds = ["White +3 Smoke", "Gray +1 WP", "Blaze", "vehicle:T-34", "Burnt Out Wreck",
             "Red FFE:1", "Smoke grenade +2", "Wood Rubble", "1-level Blaze", "White +2 Smoke",
             "vehicle:Sherman", "Wreck"]
    c = Counters.of([f"{k}@{names[h]}" for k, h in zip(kinds, hexes)])
    src = rng.integers(0, len(bd02), 400)
    tgt = rng.integers(0, len(bd02), 400)
    tgt[:12] = src[:12]                       # within one hex
    tgt[12:24] = hexes[:12]                   # into a counter's hex
    pairs = los_pairs(bd02, src, tgt, counters=c)
    for i in range(400):
        r = hexwx.los(bd02, int(src[i]), int(tgt[i]), counters=c)
        back = hexwx.los(bd02, int(tgt[i]), int(src[i]), counters=c)
        assert r.blocked == bool(pairs.blocked[i]) == back.blocked, (names[src[i]], names[tgt[i]])
        if not r.blocked:
            assert r.hindrance == int(pairs.hindrance[i])
            firer = sum(h.drm for h in r.hindrances if h.kind == "firing out of smoke")
            firer_b = sum(h.drm for h in back.hindrances if h.kind == "firing out of smoke")
            assert r.hindrance - firer == back.hindrance - firer_b
    table = hexwx.los_table(bd02, counters=c)
    v = hexwx.viewshed(bd02, names[hexes[0]], counters=c)
    k = np.flatnonzero(table.src == hexes[0])
    assert np.array_equal(table.blocked[k], v.blocked[table.tgt[k]])
    clear = k[~table.blocked[k]]
    assert np.array_equal(table.hindrance[clear], v.drm[table.tgt[clear]])
    for j in clear[:40].tolist():
        r = hexwx.los(bd02, int(table.src[j]), int(table.tgt[j]), counters=c)
        assert r.hindrance == int(table.hindrance[j])


def test_rubble_changes_the_hex_terrain(bd02) -> None:
    m = bd02
    building = next(h for h in range(len(m)) if m.terrain_of(h).is_building
                    and m.hexes.levels[h] == 0)
    prep = prepare(m, Counters.of([f"Stone Rubble@{m.name_of(building)}"]))
    assert prep is not None and "Rubble" in prep.map.terrain_of(building).name
    assert prep.effects == ()


def test_counter_off_the_map_or_level_is_a_clear_error(bd02) -> None:
    with pytest.raises(UsageError, match=r"counter 'Blaze@ZZ99'"):
        hexwx.los(bd02, "A5", "J5", counters=["Blaze@ZZ99"])
    with pytest.raises(UsageError, match=r"level 3 does not exist in hex A5"):
        hexwx.los(bd02, "A5", "J5", counters=["Blaze@A5:3"])


def test_a_los_along_a_hexside_crosses_both_hexes_a_vertex_neither() -> None:
    hexagon = polygon_edges(((0.0, 0.0), (2.0, 0.0), (3.0, 1.0), (2.0, 2.0), (0.0, 2.0),
                             (-1.0, 1.0)))
    assert crosses(hexagon, -5.0, 0.0, 5.0, 0.0)          # along an edge (A6.1)
    assert not crosses(hexagon, 3.0, 1.0, 6.0, 4.0)       # from a vertex outwards
    assert not crosses(hexagon, 2.0, -1.0, 4.0, 3.0)      # through the vertex (3, 1) only
    assert crosses(hexagon, 1.0, -3.0, 1.0, 5.0) and crosses(hexagon, 1.0, 5.0, 1.0, -3.0)
    assert not crosses(hexagon, 3.2, -1.0, 3.2, 5.0)


def test_a_crossed_hex_lies_near_a_shortest_path() -> None:
    """The batch forms' first cut (counter_los._pair_drm): a hex the centre-to-centre segment
    runs through is within one hex of a shortest path between the ends (d(a,c) + d(c,b) <=
    R + 2); and every such hex is one the kernel's thread enters or one next to it (the single
    query's cut)."""
    m = hexwx.load_map("maps/hill_village.toml")
    g = m.grid
    rng = np.random.default_rng(3)
    hexes = rng.integers(0, len(m), (200, 2)).tolist()
    edges = [polygon_edges(tuple((float(x), float(y)) for x, y in g.corners(c)))
             for c in range(len(m))]
    crossed = 0
    for a, b in hexes:
        x0, y0, x1, y1 = (float(v) for v in (g.centre_x[a], g.centre_y[a], g.centre_x[b],
                                             g.centre_y[b]))
        da, db = g.distances_from(a), g.distances_from(b)
        r = g.distance(a, b)
        near = {m.parse(t.name) for t in hexwx.los(m, a, b).thread}
        near |= {int(x) for h in list(near) for x in g.neighbours[h] if x >= 0}
        for c in range(len(m)):
            if crosses(edges[c], x0, y0, x1, y1):
                crossed += 1
                assert da[c] + db[c] <= r + 2, (g.name(a), g.name(b), g.name(c))
                assert c in near or hexwx.los(m, a, b).blocked
    assert crossed > 300


def test_rubble_changes_movement_too(bd02) -> None:
    """path/reach with counters: a rubbled building costs as rubble (B24)."""
    m = bd02
    nb = m.grid.neighbours
    building = next(h for h in range(len(m)) if m.terrain_of(h).is_building
                    and m.hexes.levels[h] == 0 and all(x >= 0 for x in nb[h]))
    start = next(int(x) for x in nb[building] if not m.terrain_of(int(x)).is_building)
    bare = hexwx.path(m, start, building, unit="infantry")
    rubble = hexwx.path(m, start, building, unit="infantry",
                        counters=[f"Stone Rubble@{m.name_of(building)}"])
    assert bare.found and rubble.found and rubble.hexes[-1] == m.name_of(building)
    last = rubble.steps[-1]
    assert "rubble" in " ".join(str(p) for p in last.parts).lower(), last
    assert last.parts != bare.steps[-1].parts
