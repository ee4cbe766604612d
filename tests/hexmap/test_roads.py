"""Road hexsides followed as drawn (hexwx.hexmap.roads; issue #14 item 9)."""
from __future__ import annotations

from hexwx.hexmap.roads import drawn_road_sides, road_codes

from vasl_boards import board


def test_road_codes_cover_roads_and_bridges() -> None:
    m = board("bd05")
    road, paved = road_codes(m)
    names = {m.table[c].name for c in range(256) if road[c] and m.table.has(c)}
    assert "Dirt Road" in names and "Single Hex Stone Bridge" in names
    assert paved[m.table.code_named("Single Hex Stone Bridge")]        # 3.6: bridges are paved
    assert not paved[m.table.code_named("Dirt Road")]


def test_a_road_round_a_vertex_joins_the_two_hexes_it_links() -> None:
    # bd02: the road from F5 bends round the corner of G5 (clear of its centre dot) into F4;
    # from C5 it crosses C5|D5 near a vertex.  Both are road hexsides; and they are symmetric.
    m = board("bd02")
    rs = drawn_road_sides(m)
    for a, b in (("F5", "F4"), ("C5", "D5"), ("A5", "B5"), ("E6", "F5")):
        h, o = m.parse(a), m.parse(b)
        k = m.grid.side_towards(h, o)
        assert rs[h, k] == rs[o, (k + 3) % 6] == 1, (a, b)
    # open ground with no road has no road hexside
    assert not rs[m.parse("A1")].any()
