"""Huzzah! orders as geometry (seed 002 pp.16-20): advance, retire, charge, group rates, out of
range, command radius.  Every number is worked by hand in the comment beside it."""
from __future__ import annotations

import math

import pytest
from shapely.geometry import box

from hexwx.errors import UsageError
from hexwx.tabletop.command import command
from hexwx.tabletop.model import Officer, TableTop, Unit, arrange_bases
from hexwx.tabletop.orders import (advance_area, arm_rate_cm, charge, group_moves, order_json,
                                   out_of_range, retire_area)


def unit(uid: str, x: float, y: float, *, n: int = 1, facing: float = 0.0,
         arm: str = "infantry", formation: str = "line", side: str = "a",
         guns: str | None = None) -> Unit:
    return Unit(uid, side, arm, formation, facing,
                arrange_bases(uid, x, y, n, 4.0, 4.0, facing, formation), guns)


def table(*units: Unit, officers: tuple[Officer, ...] = ()) -> TableTop:
    return TableTop(300.0, 300.0, "cm", (), units, "t", officers)


# ---------------------------------------------------------------------------- advance, retire

def test_advance_straight_ahead_with_5_cm_drift() -> None:
    # p.19: forwards up to the move, measured front face to front face; drift up to 5 cm left
    # or right at the end, same facing.  A 4 cm base at (50, 50) facing north, 15 cm: the base
    # swept by [-5, 5] x [0, 15] is (4 + 10) x (4 + 15) = 14 x 19 = 266 sq cm.
    u = unit("A", 50, 50)
    a = advance_area(u, 15.0)
    assert a.area == pytest.approx(266)
    assert a.bounds == pytest.approx((43, 48, 57, 67))
    # facing east (90): ahead is +x
    e = advance_area(unit("E", 50, 50, facing=90), 15.0)
    assert e.bounds == pytest.approx((48, 43, 67, 57))
    # nothing beside the start beyond the drift: the full move in every direction would reach
    # (35, 50); the advance does not
    assert not a.contains(box(36, 49, 37, 51)) and a.contains(box(44, 64, 56, 66))


def test_retire_straight_back_half_the_move_no_drift() -> None:
    # p.20: backwards up to half the full move (infantry in line 15 cm -> 7.5), straight back:
    # 4 x (4 + 7.5) = 46 sq cm, from y = 40.5 to 52.
    (m,) = group_moves(table(unit("A", 50, 50)), ["A"], "retire")
    assert m.distance == pytest.approx(7.5)
    assert m.area.bounds == pytest.approx((48, 40.5, 52, 52)) and m.area.area == pytest.approx(46)
    assert retire_area(unit("B", 0, 0), 0).area == pytest.approx(16)


def test_group_advance_at_the_slowest_arms_rate() -> None:
    # p.19: "cavalry ordered as part of the same group as infantry can therefore move at the
    # maximum rate of the infantry (20cm)": cavalry in line (25 cm) goes 20; the infantry in
    # line keeps its own 15.  Alone the cavalry goes its 25.
    t = table(unit("I", 50, 50), unit("C", 100, 50, arm="cavalry"))
    moves = {m.unit_id: m for m in group_moves(t, ["I", "C"], "advance")}
    assert moves["I"].distance == 15 and moves["I"].limited_by is None
    assert moves["C"].distance == 20 and "slowest arm, infantry" in (moves["C"].limited_by or "")
    (alone,) = group_moves(t, ["C"], "advance")
    assert alone.distance == 25
    assert arm_rate_cm(unit("H", 0, 0, arm="artillery", guns="horse")) == 25


def test_group_retire_at_half_the_slowest_units_move() -> None:
    # p.20: a group retires up to half the full move of its slowest unit: infantry in line
    # 15 -> 7.5 for both; the cavalry alone retires 25 / 2 = 12.5.
    t = table(unit("I", 50, 50), unit("C", 100, 50, arm="cavalry"))
    assert [m.distance for m in group_moves(t, ["I", "C"], "retire")] == [7.5, 7.5]
    assert group_moves(t, ["C"], "retire")[0].distance == 12.5
    with pytest.raises(UsageError, match="advance or retire"):
        group_moves(t, ["I"], "wheel")


# ---------------------------------------------------------------------------- charge

def test_charge_square_on_to_the_front() -> None:
    # Charger: two bases facing north centred (50, 50): x 46-54, y 48-52.  Target: two bases
    # facing south centred (50, 62): x 46-54, y 60-64, its front y = 60.  Contact 8 cm ahead,
    # within 15 cm; all 8 cm of the frontage meets the front: squared up on the front, the
    # charger's bases end at y 56-60.
    t = table(unit("C", 50, 50, n=2), unit("T", 50, 62, n=2, facing=180, side="b"))
    c = charge(t, "C", "T")
    assert c.contact == pytest.approx(8) and c.reaches and c.touches_with == "front"
    assert c.face == "front" and "8 of 8 cm" in c.face_rule
    assert shapely_bounds(c.squared) == pytest.approx((46, 56, 54, 60))


def test_charge_mostly_off_the_front_goes_to_the_closest_corners_face() -> None:
    # Target: two bases facing east centred (54, 64): x 52-56, y 60-68; its front is the east
    # side, its right flank the south side y = 60.  The charger (x 46-54) meets only 2 of its
    # 8 cm against... the south side, not the front: its front-right corner (54, 52) is the
    # closer (8 cm, against hypot(6, 8) = 10 for (46, 52)), and from there the only visible face
    # is the south one, the right flank.  Squared up: front centred on (54, 60): x 50-58, y 56-60.
    t = table(unit("C", 50, 50, n=2), unit("T", 54, 64, n=2, facing=90, side="b"))
    c = charge(t, "C", "T")
    assert c.contact == pytest.approx(8) and c.reaches
    assert c.face == "right flank" and "closer front corner (54, 52)" in c.face_rule
    assert shapely_bounds(c.squared) == pytest.approx((50, 56, 58, 60))


def test_charge_turns_to_face_the_face_it_meets_at_an_angle() -> None:
    # The target (one base at (50, 60)) faces north-east (45): its lowest corner (the rear-right)
    # is at (50, 60 - 2*sqrt 2).  The charger at (51, 44) faces north, front y = 46, x 49-53:
    # contact 14 - 2*sqrt 2 = 11.17 cm ahead, within 15.  Its closer front corner is (49, 46)
    # (hypot(1, 11.17) = 11.22 to that corner, against hypot(3, 11.17) = 11.57 for (53, 46));
    # from there the rear (centre (48.59, 58.59), 12.60 away) is closer than the right flank
    # (centre (51.41, 58.59), 12.82): the charger squares up on the rear, turned to face 45.
    t = table(unit("C", 51, 44), unit("T", 50, 60, facing=45, side="b"))
    c = charge(t, "C", "T")
    assert c.contact == pytest.approx(14 - 2 * math.sqrt(2)) and c.reaches
    assert c.face == "rear" and "(49, 46)" in c.face_rule
    faced = order_json(t, c)["squared"][0]
    # the squared base's front edge (front-left -> front-right) runs along the rear face, at
    # -45 degrees (its facing is 45), and its middle is the rear face's centre
    (x0, y0), (x1, y1) = faced[0], faced[1]
    assert math.degrees(math.atan2(y1 - y0, x1 - x0)) == pytest.approx(-45)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((50 - math.sqrt(2), 60 - math.sqrt(2)),
                                                         abs=1e-3)


def test_charge_out_of_reach_or_not_ahead() -> None:
    # 22 cm to contact against a 15 cm move; a target off to the side is never met straight
    # ahead (no drift on a charge, p.19).
    t = table(unit("C", 50, 50), unit("T", 50, 76, facing=180, side="b"),
              unit("S", 90, 50, facing=270, side="b"))
    far = charge(t, "C", "T")
    assert far.contact == pytest.approx(22) and not far.reaches and far.squared == ()
    side = charge(t, "C", "S")
    assert side.contact is None and not side.reaches


def shapely_bounds(polys: tuple) -> tuple[float, float, float, float]:
    xs = [b for p in polys for b in (p.bounds[0], p.bounds[2])]
    ys = [b for p in polys for b in (p.bounds[1], p.bounds[3])]
    return (min(xs), min(ys), max(xs), max(ys))


# ---------------------------------------------------------------------------- out of range

@pytest.mark.parametrize("gap, out", [(79.0, False), (80.0, False), (81.0, True)])
def test_out_of_range_is_beyond_80_cm_of_the_nearest_enemy(gap: float, out: bool) -> None:
    # p.18: beyond heavy artillery range (80 cm) of the nearest enemy, regardless of line of
    # sight.  Centre (50, 50) to the enemy's front face centre (50, 52 + gap).
    t = table(unit("A", 50, 50), unit("E", 50, 54 + gap, facing=180, side="b"),
              unit("F", 50, 200, side="a"))
    o = out_of_range(t, ["A"])
    assert o.nearest_enemy == "E" and o.distance == pytest.approx(gap + 2)  # centre to face
    assert o.out_of_range is (gap + 2 > 80)
    assert out_of_range(table(unit("A", 50, 50)), ["A"]).out_of_range   # no enemy at all


# ---------------------------------------------------------------------------- officers

def test_command_radius_needs_every_base_completely_within() -> None:
    # p.16: an average officer's radius is 40 cm; p.18: all bases completely within it.
    # A base centred (100, 136): farthest corner (102, 138), hypot(2, 38) = 38.05: within;
    # at (100, 138): hypot(2, 40) = 40.05: not.  Enemy units are not listed.  Officers move 60.
    o = Officer("gen", "a", 100, 100, "average")
    t = table(unit("in", 100, 136), unit("out", 200, 100), unit("edge", 100, 62),
              unit("foe", 140, 100, side="b"), officers=(o,))
    t2 = table(unit("out", 100, 138), officers=(o,))
    rows = {u.unit_id: u for u in command(t, "gen").units}
    assert set(rows) == {"in", "out", "edge"}
    assert rows["in"].within and rows["in"].farthest_corner == pytest.approx(math.hypot(2, 38))
    assert not command(t2, "gen").units[0].within
    c = command(t, "gen")
    assert (c.radius, c.move, c.command_factor) == (40, 60, 8)
    assert c.move_area.area == pytest.approx(math.pi * 60 ** 2, rel=2e-3)
    assert command(table(officers=(Officer("x", "a", 0, 0, "excellent"),)), "x").radius == 60
    with pytest.raises(UsageError, match="unknown quality"):
        Officer("y", "a", 0, 0, "brilliant")


def test_advance_stops_at_water_dense_terrain_and_the_enemy() -> None:
    # p.19: an advance cannot occupy dense terrain; touching the enemy is a charge; water is
    # impassable (reading).  One base at (50, 50) facing north, front y = 52, 15 cm move.
    from hexwx.tabletop.model import make_piece
    def with_piece(kind: str) -> TableTop:
        piece = make_piece("p", kind, box(40, 60, 60, 64))          # its near edge 8 cm ahead
        return TableTop(300.0, 300.0, "cm", (piece,), (unit("A", 50, 50),), "t")
    for kind, words in (("water", "water 'p' (impassable) at 8 cm"),
                        ("wood", "dense terrain 'p': an advance cannot enter it (p.19) at 8 cm")):
        (m,) = group_moves(with_piece(kind), ["A"], "advance")
        assert m.distance == pytest.approx(8) and m.limited_by == words
        # the drift may not slip into it either: nothing of the area reaches y > 60
        assert m.area.bounds[3] == pytest.approx(60)
    t = table(unit("A", 50, 50), unit("E", 52, 62.5, facing=180, side="b"))   # E's front 60.5
    (m,) = group_moves(t, ["A"], "advance")
    assert m.distance == pytest.approx(8.5) and "enemy unit 'E'" in (m.limited_by or "")


def test_a_road_column_passes_over_a_bridge() -> None:
    # p.19: a road column passing through terrain; reading: a road over water is a bridge.
    from shapely.geometry import LineString
    from hexwx.tabletop.model import TerrainPiece, make_piece
    road = TerrainPiece("road", "road", LineString([(50, 0), (50, 200)]))
    water = make_piece("brook", "water", box(0, 70, 300, 72))
    col = unit("C", 50, 50, n=3, formation="column")               # front y = 56, 20 cm move
    (m,) = group_moves(TableTop(300.0, 300.0, "cm", (road, water), (col,), "t"), ["C"], "advance")
    assert m.distance == 20 and m.limited_by is None
    # its drift stays off the water: beside the road at the brook there is no area
    assert not m.area.intersects(box(54.5, 70.5, 55, 71.5))
    assert m.area.contains(box(48.5, 70.5, 51.5, 71.5))


def test_a_charge_is_stopped_by_what_stops_an_advance() -> None:
    # p.19: a charge is an advance into contact; the brook 3 cm ahead stops it before the
    # enemy 8 cm ahead is reached (water impassable: reading).
    from hexwx.tabletop.model import make_piece
    brook = make_piece("brook", "water", box(0, 55, 300, 57))
    t = TableTop(300.0, 300.0, "cm", (brook,),
                 (unit("C", 50, 50, n=2), unit("T", 50, 62, n=2, facing=180, side="b")), "t")
    c = charge(t, "C", "T")
    assert c.contact == pytest.approx(8) and not c.reaches and c.squared == ()
    assert c.notes == ("stopped 3 cm ahead by water 'brook' (impassable), before the contact",)
