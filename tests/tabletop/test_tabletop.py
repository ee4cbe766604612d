"""Tabletop geometry: units of length, bases, sight, range, arc, visibility and movement.

Every expected value is worked out by hand in the comment beside it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from hexwx.errors import UsageError
from hexwx.tabletop.fire import fire_answer, weapon_range
from hexwx.tabletop.sight import (can_see, has_clear_line, in_arc, range_cm,
                             time_of_day_visibility_cm, visibility_check, visibility_limit_cm)
from hexwx.tabletop.move import allowance, reach_area
from hexwx.tabletop.model import (CM_PER_INCH, Base, TableTop, TerrainPiece, Unit, arrange_bases,
                            from_cm, make_piece, to_cm)


@dataclass(frozen=True)
class Report:
    """A TurnReport-shaped value (hexwx.weather.minis.common.TurnReport has these fields)."""

    turn: int = 1
    weather: str = "clear"
    visibility_cm: float | None = None
    movement_multiplier: float = 1.0
    fire_effects: tuple[str, ...] = ()
    ground: str = "normal"
    battle_ends: bool = False
    time_of_day: str | None = None
    rolls: tuple = ()


def unit(uid: str, x: float, y: float, *, n: int = 1, facing: float = 0.0, arm: str = "infantry",
         formation: str = "line", size: float = 4.0, guns: str | None = None, side: str = "a") -> Unit:
    return Unit(uid, side, arm, formation, facing,
                arrange_bases(uid, x, y, n, size, size, facing, formation), guns)


def table(*units: Unit, terrain: tuple[TerrainPiece, ...] = (), unit_name: str = "cm") -> TableTop:
    return TableTop(200.0, 200.0, unit_name, terrain, units)


# ---------------------------------------------------------------------------- units of length

def test_inch_is_exactly_2_54_cm() -> None:
    assert CM_PER_INCH == 2.54
    assert to_cm(72, "in") == pytest.approx(182.88, abs=1e-12)  # 6 ft table
    assert to_cm(48, "in") == pytest.approx(121.92, abs=1e-12)
    assert from_cm(2.54, "in") == 1.0
    assert to_cm(15, "cm") == 15.0


def test_table_reports_in_its_own_unit() -> None:
    t = TableTop(to_cm(72, "in"), to_cm(48, "in"), "in")
    assert t.to_unit(t.width) == pytest.approx(72.0, abs=1e-12)
    assert t.from_unit(1.0) == 2.54


def test_bad_length_unit_is_rejected() -> None:
    with pytest.raises(UsageError, match="'mm'"):
        to_cm(3, "mm")


# ---------------------------------------------------------------------------- bases

def test_base_corners_facing_north_and_east() -> None:
    b = Base("b", 10, 10, 0, 4, 2)  # frontage 4 across x, depth 2 along y
    assert b.corners == [(8, 11), (12, 11), (12, 9), (8, 9)]
    e = Base("e", 10, 10, 90, 4, 2)  # facing +x: front edge at x = 11, left is +y
    assert [tuple(round(c, 9) for c in p) for p in e.corners] == [(11, 12), (11, 8), (9, 8), (9, 12)]


def test_line_of_four_bases_side_by_side() -> None:
    u = unit("u", 50, 50, n=4)
    assert [b.x for b in u.bases] == [44, 48, 52, 56]
    assert u.centre == (50, 50)
    col = unit("c", 50, 50, n=3, formation="column")
    assert [b.y for b in col.bases] == [54, 50, 46]  # first base leads


# ---------------------------------------------------------------------------- exact clear lines

def test_gap_between_touching_blockers_is_closed() -> None:
    a, b = box(0, 0, 4, 4), box(20, 0, 24, 4)
    assert not has_clear_line(a, b, [box(10, -10, 12, 2), box(10, 2, 12, 14)])
    assert has_clear_line(a, b, [box(10, -10, 12, 1), box(10, 3, 12, 14)])


def test_only_a_diagonal_line_threads_a_thin_gap() -> None:
    # A (0..4, 0..4), B (20..24, 10..14); a 0.1-thick wall at x=10 with a hole y 6.9..7.1.
    # y = 7 + 0.5 (x - 10.05) passes (4, 3.975) in A, the hole, and (20, 11.975) in B.
    a, b = box(0, 0, 4, 4), box(20, 10, 24, 14)
    thin = [box(10, -20, 10.1, 6.9), box(10, 7.1, 10.1, 30)]
    assert has_clear_line(a, b, thin)
    assert not has_clear_line(a, b, [box(10, -20, 10.1, 30)])
    # a 2-thick wall lets through only slopes <= 0.2/2 = 0.1, but A to B needs >= 6/16
    assert not has_clear_line(a, b, [box(10, -20, 12, 6.9), box(10, 7.1, 12, 30)])


def test_grazing_the_edge_of_a_blocker_is_clear() -> None:
    a, b = box(48, 8, 52, 12), box(48, 88, 52, 92)
    assert has_clear_line(a, b, [box(40, 45, 52, 55)])  # x = 52 runs along the wood's edge
    assert not has_clear_line(a, b, [box(40, 45, 60, 55)])


# ---------------------------------------------------------------------------- can_see

def test_wood_exactly_between_two_bases_blocks() -> None:
    w = make_piece("bois", "wood", box(40, 45, 60, 55))
    t = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(w,))
    s = can_see(t, "A", "B", rules="huzzah")
    assert s.los == "blocked" and not s.visible
    assert [o.id for o in s.blocked_by] == ["bois"]
    assert s.bases_with_line == ()
    # the sight region is x 48..52, y 12..88 (304 cm2); the wood covers all of its width there
    assert s.clear_fraction == pytest.approx(1 - 40 / 304)


def test_wood_covering_half_the_corridor_does_not_block() -> None:
    w = make_piece("bois", "wood", box(40, 45, 50, 55))
    t = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(w,))
    s = can_see(t, "A", "B", rules="agv")
    assert s.los == "clear" and s.visible
    assert s.clear_fraction == pytest.approx(1 - 20 / 304)  # wood covers x 48..50, y 45..55


def test_can_see_names_its_units_viewer_and_target_as_the_scenario_queries_do() -> None:
    """One name per concept: ``viewer``/``target`` (the former ``viewer_id``/``target_id``
    still work, with a DeprecationWarning; both names at once are refused)."""
    w = make_piece("bois", "wood", box(40, 45, 60, 55))
    t = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(w,))
    new = can_see(t, viewer="A", target="B", rules="huzzah")
    with pytest.warns(DeprecationWarning, match="viewer_id"):
        old = can_see(t, viewer_id="A", target="B", rules="huzzah")
    with pytest.warns(DeprecationWarning, match="target_id"):
        both_old = can_see(t, target_id="B", rules="huzzah", viewer="A")
    assert new == old == both_old and new.los == "blocked"
    with pytest.raises(UsageError, match="former name") as err:
        can_see(t, "A", "B", rules="huzzah", target_id="B")
    assert err.value.param == "target_id"
    with pytest.raises(UsageError, match="bad viewer None") as none:
        can_see(t, target="B", rules="huzzah")
    assert none.value.param == "viewer"


def test_unit_in_a_wood_sees_out_of_it() -> None:
    w = make_piece("bois", "wood", box(40, 0, 60, 20))  # A stands inside the wood
    t = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(w,))
    assert can_see(t, "A", "B", rules="huzzah").los == "clear"


def test_hill_higher_than_both_ends_blocks() -> None:
    ridge = make_piece("ridge", "hill", box(0, 45, 200, 55), height=1)
    t = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(ridge,))
    assert can_see(t, "A", "B", rules="agv").los == "blocked"


def test_unit_on_a_hill_sees_over_a_lower_hill_and_a_wood() -> None:
    # B stands on a plateau of height 2: the ridge (1) and the wood (0 + 1) are not higher than B
    plateau = make_piece("plateau", "hill", box(30, 80, 70, 100), height=2)
    ridge = make_piece("ridge", "hill", box(0, 45, 200, 55), height=1)
    wood = make_piece("bois", "wood", box(40, 30, 60, 40))
    t = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(plateau, ridge, wood))
    s = can_see(t, "A", "B", rules="agv")
    assert s.los == "clear"
    assert set(s.seen_over) == {"ridge", "bois", "plateau"}  # B stands on the plateau
    # a taller wood (height 3) is higher than both ends again
    tall = make_piece("bois", "wood", box(40, 30, 60, 40), height=3)
    t2 = table(unit("A", 50, 10), unit("B", 50, 90, facing=180), terrain=(plateau, ridge, tall))
    assert can_see(t2, "A", "B", rules="agv").los == "blocked"


def test_other_unit_partly_and_fully_in_the_way() -> None:
    a, b = unit("A", 50, 10), unit("B", 50, 90, facing=180)
    part = unit("C", 46, 50)  # x 44..48: touches the corridor's edge at x = 48 only
    assert can_see(table(a, b, part), "A", "B", rules="huzzah").los == "clear"
    part = unit("C", 46.5, 50)  # x 44.5..48.5: half a cm inside the corridor
    s = can_see(table(a, b, part), "A", "B", rules="huzzah")
    assert s.los == "partly blocked" and s.partly_blocked_by_units == ("C",)
    full = unit("C", 50, 50, n=3)  # x 44..56 spans the corridor
    s = can_see(table(a, b, full), "A", "B", rules="huzzah")
    assert s.los == "blocked" and [o.id for o in s.blocked_by] == ["C"]


def test_rear_bases_of_a_column_have_no_line_through_the_front_base() -> None:
    col = unit("A", 50, 20, n=3, formation="column")  # bases at y 24, 20, 16
    t = table(col, unit("B", 50, 90, facing=180))
    s = can_see(t, "A", "B", rules="huzzah")
    assert s.bases_with_line == ("A.1",) and s.los == "partly blocked"


def test_visibility_limit_stops_sight_beyond_it() -> None:
    t = table(unit("A", 50, 10), unit("B", 50, 40, facing=180))  # edges 26 cm apart
    assert can_see(t, "A", "B", rules="agv", visibility_cm=26).visible
    s = can_see(t, "A", "B", rules="agv", visibility_cm=25.9)
    assert not s.visible and s.los == "clear" and "charging" in s.reason


def test_cannot_look_at_itself_or_unknown_unit() -> None:
    t = table(unit("A", 50, 10))
    with pytest.raises(UsageError, match="itself"):
        can_see(t, "A", "A", rules="agv")
    with pytest.raises(UsageError, match="'Z'"):
        can_see(t, "A", "Z", rules="agv")
    with pytest.raises(UsageError, match="'chess'"):
        can_see(t, "A", "Z", rules="chess")


# ---------------------------------------------------------------------------- range and arc

def test_huzzah_range_is_centre_of_firer_to_centre_of_closest_visible_face() -> None:
    firer = unit("F", 50, 50, n=2)  # bases (48, 50) and (52, 50); centre (50, 50)
    t = table(firer, unit("T", 60, 80, facing=180))  # faces south: front y = 78, x 58-62
    # visible: the front (centre (60, 78), 29.73 away) and the west flank (centre (58, 80),
    # 31.05): the front is closer.  (Its nearest corner (58, 78) would give hypot(8, 28).)
    assert range_cm(firer, t.unit_by_id("T"), "huzzah") == pytest.approx(math.hypot(10, 28))
    # AGV reading: nearest edges: firer corner (54, 52) to target corner (58, 78)
    assert range_cm(firer, t.unit_by_id("T"), "agv") == pytest.approx(math.hypot(4, 26))


def test_short_range_is_under_half_range() -> None:
    # infantry range 20 cm (Huzzah! p.11): short range under 10
    at10 = table(unit("F", 50, 50), unit("T", 50, 62, facing=180))  # centre to edge 60: 10
    r = fire_answer(at10, "F", "T", rules="huzzah")
    assert r.range == pytest.approx(10) and not r.short_range and r.in_range and r.can_fire
    assert r.band == "long"
    near = table(unit("F", 50, 50), unit("T", 50, 61.9, facing=180))
    assert fire_answer(near, "F", "T", rules="huzzah").band == "short"


def test_weapon_ranges_and_who_cannot_fire() -> None:
    def cm(u: Unit) -> float | None:
        wr = weapon_range(u, "huzzah")
        return None if wr is None else wr.long
    assert cm(unit("i", 0, 0)) == 20
    assert cm(unit("h", 0, 0, arm="artillery", guns="heavy")) == 80
    assert cm(unit("f", 0, 0, arm="artillery", guns="horse")) == 60
    assert cm(unit("c", 0, 0, arm="cavalry")) is None
    t = table(unit("C", 50, 50, arm="cavalry"), unit("T", 50, 60, facing=180))
    r = fire_answer(t, "C", "T", rules="huzzah")
    assert r.can_fire is False and any("cavalry" in why for why in r.reasons)


def test_base_just_outside_the_45_degree_arc() -> None:
    f = unit("F", 50, 50)  # centre (50, 50), facing north: arc edges along y - 50 = +-(x - 50)
    on_edge = unit("T", 72, 68)  # corner (70, 70) lies on the right edge of the arc
    outside = unit("T", 72.01, 68)  # corner (70.01, 70): just outside
    inside = unit("T", 70, 74)
    assert in_arc(table(f, on_edge), f, on_edge)
    assert not in_arc(table(f, outside), f, outside)
    assert in_arc(table(f, inside), f, inside)
    behind = unit("T", 50, 20, facing=180)
    assert not in_arc(table(f, behind), f, behind)
    r = fire_answer(table(f, outside), "F", "T", rules="huzzah")
    assert not r.in_arc and not r.can_fire


def test_arc_opens_from_the_frontage_not_the_centre() -> None:
    # Huzzah! p.11 "Arc of fire is 45 degrees to either side of the unit" (reading: from its
    # frontage).  A line of eight 4 cm bases centred at (100, 50) facing north: front edge
    # y = 52 from x = 84 to 116.  A base 3 cm in front of the left-end base (x 84-88, near
    # edge y = 55) is in arc; from the centre it would be 12 cm aside at 5 cm ahead, far
    # outside 45 degrees.
    f = unit("F", 100, 50, n=8)
    t = unit("T", 86, 57, facing=180)
    assert in_arc(table(f, t), f, t)
    # beside the line's end, about level with its front: the base x 76-80, y 49-53 has its
    # nearest corner (80, 53) 4 cm aside of the end (84, 52) and 1 ahead -- outside; at y 56-60
    # its corner (80, 56) is 4 aside and 4 ahead: exactly on the arc's edge, in.
    beside = unit("T", 78, 51, facing=180)
    assert not in_arc(table(f, beside), f, beside)
    edge = unit("T", 78, 58, facing=180)
    assert in_arc(table(f, edge), f, edge)


def test_column_fronts_from_its_head() -> None:
    # A column of four 4 cm bases facing north at (100, 50): the head base's front edge is the
    # frontage (y = 58 from x = 98 to 102); a base level with the rear base, 3 cm to the side,
    # is not in arc although the rear base's own front would see it.
    c = unit("C", 100, 50, n=4, formation="column")
    side = unit("T", 107, 46, facing=180)
    assert not in_arc(table(c, side), c, side)
    ahead = unit("T", 100, 70, facing=180)
    assert in_arc(table(c, ahead), c, ahead)


# ---------------------------------------------------------------------------- visibility

def test_minnap_dawn_and_dusk_visibility() -> None:
    assert time_of_day_visibility_cm(4, 1) == 10
    assert time_of_day_visibility_cm(4, 3) == 110
    assert time_of_day_visibility_cm(16, 1) == 300
    assert time_of_day_visibility_cm(16, 7) == 0
    assert time_of_day_visibility_cm(16, 9) == 0
    assert time_of_day_visibility_cm(10, 3) is None


def test_visibility_is_the_smaller_of_weather_and_time_of_day() -> None:
    assert visibility_limit_cm(Report(visibility_cm=18.0), time_of_day_cm=10.0) == 10.0
    assert visibility_limit_cm(Report(visibility_cm=18.0), time_of_day_cm=None) == 18.0
    assert visibility_limit_cm(Report(), time_of_day_cm=None) is None
    ok, why = visibility_check(30.0, 18.0, "mininap")
    assert not ok and "break-throughs" in why


# ---------------------------------------------------------------------------- movement

@pytest.mark.parametrize("arm,formation,guns,cm", [
    ("infantry", "line", None, 15), ("infantry", "open", None, 20),
    ("infantry", "column", None, 20), ("cavalry", "line", None, 25),
    ("cavalry", "column", None, 30), ("artillery", "line", "heavy", 15),
    ("artillery", "line", "horse", 25), ("infantry", "square", None, 0),
])
def test_huzzah_movement_table(arm: str, formation: str, guns: str | None, cm: float) -> None:
    t = table(unit("U", 50, 50, arm=arm, formation=formation, guns=guns))
    assert allowance(t, "U", rules="huzzah").allowance == cm


def test_huzzah_move_reported_in_inches_on_an_inch_table() -> None:
    t = table(unit("U", 50, 50), unit_name="in")
    assert allowance(t, "U", rules="huzzah").allowance == pytest.approx(15 / 2.54)


def test_huzzah_unit_in_dense_terrain_has_no_advance_move() -> None:
    w = make_piece("bois", "wood", box(40, 40, 60, 60))
    a = allowance(table(unit("U", 50, 50), terrain=(w,)), "U", rules="huzzah")
    assert a.allowance == 0 and a.terrain_pieces == ("bois",) and "deploy" in a.notes[0]


def test_agv_rain_and_rough_ground_do_not_halve_twice() -> None:
    rough = make_piece("scrub", "rough", box(40, 40, 60, 60))
    t = table(unit("U", 50, 50), terrain=(rough,))
    rain = Report(weather="rain", movement_multiplier=0.5)
    a = allowance(t, "U", rules="agv", report=rain)
    # house default 6 in = 15.24 cm; rain x0.5 and rough x0.5 give 0.5, not 0.25
    assert a.net_factor == 0.5 and a.allowance == pytest.approx(6 * 2.54 * 0.5)
    assert a.unit == "cm" and a.base_move == pytest.approx(6 * 2.54)


def test_mud_ground_makes_open_ground_rough() -> None:
    t = table(unit("U", 50, 50))
    a = allowance(t, "U", rules="mininap", report=Report(weather="rain", ground="mud"))
    assert a.terrain == "rough" and a.net_factor == 0.5
    h = allowance(t, "U", rules="huzzah", report=Report(weather="fair", ground="soft"))
    assert h.net_factor == 1.0  # Huzzah! soft ground hits artillery factors, not movement


def test_wesencraft_fog_and_rough_multiply() -> None:
    rough = make_piece("scrub", "rough", box(40, 40, 60, 60))
    t = table(unit("U", 50, 50), terrain=(rough,))
    a = allowance(t, "U", rules="wesencraft", report=Report(weather="fog", movement_multiplier=0.5))
    assert a.net_factor == 0.25


def test_road_column_on_a_road_uses_the_road() -> None:
    w = make_piece("bois", "wood", box(40, 0, 60, 200))
    road = make_piece("chaussee", "road", shapely.LineString([(50, 0), (50, 200)]))
    t = table(unit("U", 50, 50, n=3, formation="column"), terrain=(w, road))
    a = allowance(t, "U", rules="huzzah")
    assert a.terrain == "road" and a.allowance == 20


def test_reach_in_open_ground_is_the_bases_grown_by_the_allowance() -> None:
    t = table(unit("U", 100, 100))                 # one 4 x 4 cm base, nothing near
    r = reach_area(t, "U", 10.0)
    # a square of side 4 grown by 10: 4*4 + 4*(4*10) + pi*10^2 (the buffer's arcs are polygons)
    assert r.area == pytest.approx(16 + 160 + math.pi * 100, rel=2e-3)
    assert r.contains(shapely.Point(100, 111.9)) and not r.contains(shapely.Point(100, 112.1))
    assert reach_area(t, "U", 0.0).equals(t.units[0].geometry)


def test_reach_goes_round_water_not_across_it() -> None:
    # a stream 2 cm wide across the table at y 110-112, open from x = 150 on
    stream = make_piece("stream", "water", box(0, 110, 150, 112))
    t = table(unit("U", 100, 100), terrain=(stream,))
    r = reach_area(t, "U", 20.0)
    assert not r.intersects(box(0.5, 110.5, 149.5, 111.5))  # never in the water
    # straight across the stream (y 112-118) is within 20 cm, but the way round is longer
    assert not r.contains(shapely.Point(100, 115)) and r.contains(shapely.Point(100, 109))
    # a road over the stream is a bridge: across it the other bank is reached
    road = make_piece("road", "road", shapely.LineString([(100, 0), (100, 200)]))
    r2 = reach_area(table(unit("U", 100, 100), terrain=(stream, road)), "U", 20.0)
    assert r2.contains(shapely.Point(100, 115)) and not r2.contains(shapely.Point(100, 123))
    # round the stream's end (x = 150) only when the allowance is long enough
    far = reach_area(t, "U", 70.0)
    assert far.contains(shapely.Point(140, 114)) and not far.contains(shapely.Point(100, 114))


def test_reach_stays_on_the_table() -> None:
    t = table(unit("U", 3, 3))
    assert reach_area(t, "U", 10.0).within(t.outline)


# ---------------------------------------------------------------------------- properties

coord = st.floats(5, 95, allow_nan=False)
angle = st.floats(0, 359, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(coord, coord, angle, coord, coord, angle, coord, coord, st.floats(1, 20), st.floats(1, 20))
def test_sight_between_two_bases_is_symmetric(ax: float, ay: float, af: float, bx: float,
                                               by: float, bf: float, wx: float, wy: float,
                                               ww: float, wh: float) -> None:
    a, b = Base("a", ax, ay, af, 4, 3), Base("b", bx, by, bf, 4, 3)
    if a.polygon.intersects(b.polygon):
        return
    wood = box(wx, wy, wx + ww, wy + wh)
    blockers = [] if wood.intersects(a.polygon) or wood.intersects(b.polygon) else [wood]
    assert has_clear_line(a.polygon, b.polygon, blockers) == has_clear_line(b.polygon, a.polygon, blockers)
    ua = Unit("A", "x", "infantry", "line", af, (a,))
    ub = Unit("B", "y", "infantry", "line", bf, (b,))
    units = [ua, ub]
    c = Base("c", wy, wx, 30.0, 6, 2)  # a third unit somewhere, if it fits
    if not (c.polygon.intersects(a.polygon) or c.polygon.intersects(b.polygon)):
        units.append(Unit("C", "z", "cavalry", "line", 30.0, (c,)))
    t = TableTop(100, 100, "cm", (make_piece("w", "wood", wood),), tuple(units))
    ab, ba = can_see(t, "A", "B", rules="agv"), can_see(t, "B", "A", rules="agv")
    assert ab.los == ba.los and ab.clear_fraction == pytest.approx(ba.clear_fraction)


@settings(max_examples=60, deadline=None)
@given(coord, coord, coord, coord, coord, coord, st.floats(1, 20), st.floats(1, 20))
def test_blocker_off_the_line_never_blocks_and_removing_one_never_blocks(
        ax: float, ay: float, bx: float, by: float, wx: float, wy: float, ww: float, wh: float) -> None:
    a, b = box(ax - 2, ay - 2, ax + 2, ay + 2), box(bx - 2, by - 2, bx + 2, by + 2)
    if a.intersects(b):
        return
    wood = box(wx, wy, wx + ww, wy + wh)
    hull = shapely.union(a, b).convex_hull
    far = shapely.affinity.translate(wood, 500, 500)  # the same blocker moved off the table
    assert has_clear_line(a, b, [far])
    if not wood.intersects(hull):
        assert has_clear_line(a, b, [wood])
    other = box(50, 10, 52, 90)
    if has_clear_line(a, b, [wood, other]):
        assert has_clear_line(a, b, [wood]) and has_clear_line(a, b, [other])
