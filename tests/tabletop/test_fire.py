""""Can I shoot": the fire answer per rule set, with the weather's effect on fire.

Each case cites the seed's words (paraphrased) and works its numbers by hand in the comment.
"""
from __future__ import annotations

import math

import pytest

from hexwx.tabletop.faces import closest_visible_face, faces, visible_faces
from hexwx.tabletop.fire import fire_answer
from hexwx.tabletop.model import TableTop, Unit, arrange_bases
from hexwx.tabletop.sight import visibility_text
from hexwx.weather.minis.common import TurnReport

IN = 2.54


def unit(uid: str, x: float, y: float, *, n: int = 1, facing: float = 0.0, arm: str = "infantry",
         formation: str = "line", size: float = 4.0, guns: str | None = None,
         side: str = "a", range_cm: float | None = None) -> Unit:
    return Unit(uid, side, arm, formation, facing,
                arrange_bases(uid, x, y, n, size, size, facing, formation), guns,
                range_cm=range_cm)


def table(*units: Unit, unit_name: str = "cm") -> TableTop:
    return TableTop(300.0, 300.0, unit_name, (), units)


def weather(name: str, visibility_cm: float | None = None, ground: str = "normal",
            rules: str = "") -> TurnReport:
    return TurnReport(turn=1, weather=name, visibility_cm=visibility_cm, movement_multiplier=1.0,
                      fire_effects=(), ground=ground, battle_ends=False, time_of_day=None,
                      rolls=(), rules=rules)


# ---------------------------------------------------------------------------- faces

def test_faces_of_a_line_facing_south() -> None:
    # four 4 cm bases centred (100, 100) facing 180 (south): x 92-108, y 98-102; its front is
    # the south side, its right flank the west side (right of a unit looking south).
    t = unit("T", 100, 100, n=4, facing=180)
    f = {x.name: x for x in faces(t)}
    assert f["front"].centre == pytest.approx((100, 98))
    assert f["rear"].centre == pytest.approx((100, 102))
    assert f["right flank"].centre == pytest.approx((92, 100))
    assert f["left flank"].centre == pytest.approx((108, 100))
    assert f["front"].length == pytest.approx(16) and f["left flank"].length == pytest.approx(4)


@pytest.mark.parametrize("point, seen, closest", [
    ((100, 80), {"front"}, "front"),                       # straight ahead: the front only
    ((100, 120), {"rear"}, "rear"),                        # straight behind
    ((130, 100), {"left flank"}, "left flank"),            # level with it, east
    ((112, 80), {"front", "left flank"}, "left flank"),    # off the front-left corner:
    # front centre (100, 98) is hypot(12, 18) = 21.63 away, flank centre (108, 100) hypot(4, 20)
    # = 20.40: the flank is closer
    ((120, 90), {"front", "left flank"}, "left flank"),
    ((101, 60), {"front"}, "front"),
])
def test_visible_and_closest_face_from_the_firers_position(point: tuple[float, float],
                                                          seen: set[str], closest: str) -> None:
    # Huzzah! p.11: range to "the closest visible face"; the face seen from the firer.
    t = unit("T", 100, 100, n=4, facing=180)
    assert {f.name for f in visible_faces(t, point)} == seen
    assert closest_visible_face(t, point).name == closest


# ---------------------------------------------------------------------------- Huzzah!

def test_huzzah_range_to_the_face_centre_puts_a_near_corner_target_out_of_range() -> None:
    # Target: a line of four bases facing south, x 92-108, y 98-102.  Firer: one infantry base
    # at (112, 80) facing north.  Its nearest corner (108, 98) is hypot(4, 18) = 18.44 cm away
    # -- inside infantry's 20 cm -- but range runs to the centre of the closest visible face
    # (p.11): the east flank's centre (108, 100), hypot(4, 20) = 20.40 cm: out of range.
    t = table(unit("F", 112, 80), unit("T", 100, 100, n=4, facing=180, side="b"))
    r = fire_answer(t, "F", "T", rules="huzzah")
    assert r.range == pytest.approx(math.hypot(4, 20))
    assert r.range_from == pytest.approx((112, 80)) and r.range_to == pytest.approx((108, 100))
    assert r.weapon_range == 20 and r.band == "out of range" and r.may_fire is False
    assert r.face == "left flank" and r.face_kind == "flank"
    assert r.in_arc is True
    assert any("out of range: 20.4 cm > 20 cm" in why for why in r.reasons)


def test_huzzah_flank_shot_in_range_gets_plus_one_and_foul_weather_minus_one() -> None:
    # Firer at (112, 84): flank centre (108, 100) is hypot(4, 16) = 16.49 cm, front centre
    # (100, 98) hypot(12, 14) = 18.44: the flank; 16.49 is within 20 but not under half (10):
    # long.  p.12: +1 on a flank or rear, -1 in foul weather (dense fog is foul, p.10).
    t = table(unit("F", 112, 84), unit("T", 100, 100, n=4, facing=180, side="b"))
    r = fire_answer(t, "F", "T", rules="huzzah", report=weather("dense fog"))
    assert r.range == pytest.approx(math.hypot(4, 16)) and r.band == "long"
    assert r.may_fire is True
    mods = {text: amount for text, amount, _rule in r.modifiers}
    assert mods == {"firing on the target's flank": 1, "to the fire factor in foul weather": -1}
    applied = [(e.rule.effect, e.applies) for e in r.effects]
    assert applied == [("fire factor", True), ("artillery factor", False)]


def test_huzzah_square_has_no_flank_or_rear() -> None:
    # p.22: a unit in square has no flank or rear; p.12: +1 if the target is in square.
    t = table(unit("F", 130, 100, facing=270),
              unit("T", 100, 100, n=4, facing=180, formation="square", side="b"))
    r = fire_answer(t, "F", "T", rules="huzzah")
    assert r.face_kind == "front" and r.face == "front (square)"
    assert [a for _t, a, _r in r.modifiers] == [1]


def test_huzzah_artillery_on_soft_ground_in_foul_weather() -> None:
    # Heavy reserve artillery 80 cm (p.11); the target's front (y = 92 - 2 = 90) is 50 cm
    # straight ahead of the battery's centre (100, 40);
    # short is under 40: long.  Foul weather -1 fire factor; artillery factor -1 (foul) and -1
    # (soft ground) for the effectiveness throw (p.10).
    t = table(unit("G", 100, 40, n=2, arm="artillery", guns="heavy"),
              unit("T", 100, 92, n=2, facing=180, side="b"))
    r = fire_answer(t, "G", "T", rules="huzzah", report=weather("heavy rain", ground="mud"))
    assert r.range == pytest.approx(50) and r.band == "long" and r.weapon_range == 80
    assert [(e.rule.effect, e.rule.amount, e.applies) for e in r.effects] == [
        ("fire factor", -1, True), ("artillery factor", -1, True), ("artillery factor", -1, True)]
    assert r.may_fire is True
    # seed 002 p.10 "Artillery effectiveness": "-1 if soft ground, -1 if foul weather" modify
    # the army's Artillery Factor for its once-a-turn effectiveness roll; p.12 "Firing" lists
    # the shot's modifiers ("-1 if foul weather", ...) and adds artillery ones "only if the
    # firer has artillery effectiveness".  So the artillery factor is not a modifier of this
    # shot: only the p.12 foul weather -1 is.
    assert r.modifiers == (("to the fire factor in foul weather", -1, "Huzzah! p.12 Firing"),)
    assert all("effectiveness throw this turn (p.10), not this shot's fire factor" in e.why
               for e in r.effects if e.rule.effect == "artillery factor")
    hard = fire_answer(t, "G", "T", rules="huzzah", report=weather("clear", ground="hard"))
    assert [(e.rule.effect, e.rule.amount, e.applies) for e in hard.effects] == [
        ("artillery factor", 1, True)]
    assert hard.modifiers == ()


def test_huzzah_cavalry_cannot_fire_and_arc_is_only_huzzahs() -> None:
    t = table(unit("C", 100, 50, arm="cavalry"), unit("T", 100, 20, facing=0, side="b"))
    r = fire_answer(t, "C", "T", rules="huzzah")
    assert r.may_fire is False and not r.in_arc
    assert "cavalry cannot fire (Huzzah! p.11)" in r.reasons
    # the same target behind an AGV firer: AGV has no arc, so it is not asked
    t2 = table(unit("F", 100, 50), unit("T", 100, 20, facing=0, side="b"))
    r2 = fire_answer(t2, "F", "T", rules="agv", ranges={"infantry": (None, 12 * IN)})
    assert r2.in_arc is None and r2.may_fire is True and "arc: none" in r2.text()


# ---------------------------------------------------------------------------- AGV

AGV_RANGES = {"infantry": (None, 8 * IN), "artillery": (12 * IN, 24 * IN)}


def agv_pair(gap_in: float, arm: str = "infantry") -> TableTop:
    """A firer and a target ``gap_in`` inches apart edge to edge (1 in bases, facing each other)."""
    g = gap_in * IN
    return table(unit("F", 100, 100, arm=arm, size=IN),
                 unit("T", 100, 100 + IN + g, facing=180, size=IN, side="b"), unit_name="in")


def test_agv_rain_forbids_musket_and_artillery_fire() -> None:
    # AGV Rain: during rain, no firing at all by muskets or artillery.  5 in apart, within the
    # scenario's 8 in and rain's visibility (1D6 = 4: 12 in).
    r = fire_answer(agv_pair(5), "F", "T", rules="agv", report=weather("rain", 12 * IN),
                    ranges=AGV_RANGES)
    assert r.sight.visible and r.band == "in range" and r.range == pytest.approx(5)
    assert r.may_fire is False
    assert r.reasons == ("no musket or artillery fire at all (AGV Rain)",)
    assert r.range_source == "scenario: ranges.infantry (the seed gives none)"


def test_agv_showers_half_dice_but_may_fire() -> None:
    # AGV Showers: muskets and artillery fire with half the dice, rounded down.
    r = fire_answer(agv_pair(5), "F", "T", rules="agv", report=weather("showers", 18 * IN),
                    ranges=AGV_RANGES)
    assert r.may_fire is True
    assert [(e.rule.effect, e.applies) for e in r.effects] == [("half dice", True)]
    # seed 000 (AGV), "Showers": "all muskets and artillery can fire but do so by using half
    # the normal number of dice (round fractions down)": the shot changes, so the answer's
    # modifiers say so; halving is not a number added, so its amount is None.
    assert r.modifiers == (("muskets and artillery fire with half the normal number of dice, "
                            "fractions rounded down", None, "AGV Showers"),)
    assert r.to_json()["modifiers"][0]["amount"] is None
    assert ("modifier: muskets and artillery fire with half the normal number of dice, "
            "fractions rounded down (AGV Showers)") in r.text().splitlines()
    # cavalry is neither musket nor artillery: its dice are not halved
    cav = fire_answer(agv_pair(5, arm="cavalry"), "F", "T", rules="agv",
                      report=weather("showers", 18 * IN), ranges={"cavalry": (None, 8 * IN)})
    assert cav.modifiers == () and [e.applies for e in cav.effects] == [False]


def test_agv_beyond_the_visibility_distance() -> None:
    # AGV Fog and Mist: no firing beyond 1D6 x 3 in (fog, 1D6 = 1: 3 in); 5 in apart.
    r = fire_answer(agv_pair(5), "F", "T", rules="agv", report=weather("fog", 3 * IN),
                    visibility_cm=3 * IN, ranges=AGV_RANGES)
    assert r.sight.visible is False and r.may_fire is False
    assert "beyond the visibility distance of 3 in" in r.reasons[0]


@pytest.mark.parametrize("gap, band, may", [(10, "short", True), (15, "long", False),
                                           (30, "out of range", False)])
def test_agv_strong_winds_stop_long_range_artillery(gap: float, band: str, may: bool) -> None:
    # AGV Strong Winds: no artillery fire at long range.  The scenario's artillery [12, 24] in:
    # 10 in short, 15 in long (forbidden), 30 in out of range.
    r = fire_answer(agv_pair(gap, "artillery"), "F", "T", rules="agv",
                    report=weather("strong winds"), ranges=AGV_RANGES)
    assert r.band == band and r.may_fire is may
    (effect,) = r.effects
    assert effect.applies is (band == "long")


def test_agv_strong_winds_leave_muskets_alone_and_need_a_short_range() -> None:
    r = fire_answer(agv_pair(5), "F", "T", rules="agv", report=weather("strong winds"),
                    ranges=AGV_RANGES)
    assert r.may_fire is True and r.effects[0].applies is False
    # artillery with only a longest range: long range cannot be told, so neither can the answer
    r = fire_answer(agv_pair(15, "artillery"), "F", "T", rules="agv",
                    report=weather("strong winds"), ranges={"artillery": (None, 24 * IN)})
    assert r.band == "in range" and r.effects[0].applies is None and r.may_fire is None


def test_agv_without_ranges_says_not_given() -> None:
    r = fire_answer(agv_pair(5), "F", "T", rules="agv", report=weather("clear"))
    assert r.weapon_range is None and r.band is None and r.may_fire is None
    assert "weapon range: not given" in r.text()
    # a unit's own range wins over the scenario's kinds
    t = table(unit("F", 100, 100, size=IN, range_cm=2 * IN),
              unit("T", 100, 100 + 6 * IN, facing=180, size=IN, side="b"), unit_name="in")
    r = fire_answer(t, "F", "T", rules="agv", ranges=AGV_RANGES)
    assert r.weapon_range == pytest.approx(2) and r.band == "out of range"
    assert r.range_source == "scenario: unit 'F' range"


# ---------------------------------------------------------------------------- Mini-Nap 2

def test_mininap_rain_and_showers() -> None:
    # Mini-Nap 2 Rain: no musket or artillery fire; Showers: half the final number of dice.
    t = table(unit("F", 100, 100), unit("T", 100, 114, facing=180, side="b"))   # 10 cm apart
    ranges = {"infantry": (None, 20.0)}
    rain = fire_answer(t, "F", "T", rules="mininap", report=weather("rain", 12), ranges=ranges)
    assert rain.may_fire is False and rain.reasons == ("no musket or artillery fire at all "
                                                       "(Mini-Nap 2 Rain)",)
    showers = fire_answer(t, "F", "T", rules="mininap", report=weather("showers", 24),
                          ranges=ranges)
    assert showers.may_fire is True and "half the final number" in showers.effects[0].rule.text
    # seed 001 (Mini-Nap 2), "Showers": "all musket and artillery can fire but do so by using
    # half the final number of dice (round fractions down)": a modifier of the shot
    assert [(amount, rule) for _t, amount, rule in showers.modifiers] == \
        [(None, "Mini-Nap 2 Showers")]
    # dawn: 10 cm on turn 1 (App. D Dawn); the target 10 cm away is just within it
    dawn = fire_answer(t, "F", "T", rules="mininap", visibility_cm=10.0, ranges=ranges)
    assert dawn.may_fire is True
    t2 = table(unit("F", 100, 100), unit("T", 100, 114.5, facing=180, side="b"))
    assert fire_answer(t2, "F", "T", rules="mininap", visibility_cm=10.0,
                       ranges=ranges).may_fire is False


# ---------------------------------------------------------------------------- Wesencraft gauge

@pytest.mark.parametrize("arm, name, amount", [
    ("infantry", "light rain", -1), ("cavalry", "light rain", -1), ("infantry", "heavy rain", -2),
    ("artillery", "heavy rain", None)])
def test_wesencraft_rain_per_die(arm: str, name: str, amount: int | None) -> None:
    # Gauge: light rain -1 per die, heavy rain -2 per die, for musket and carbine fire only.
    t = table(unit("F", 100, 100, arm=arm), unit("T", 100, 110, facing=180, side="b"))
    r = fire_answer(t, "F", "T", rules="wesencraft", report=weather(name),
                    ranges={arm: (None, 20.0)})
    assert r.may_fire is True
    mods = [a for _t, a, _r in r.modifiers]
    assert mods == ([] if amount is None else [amount])


def test_wesencraft_fog_hides_foes_beyond_6_cm() -> None:
    # Gauge Fog: visibility 6 cm, unseen foes cannot be fired at.  6 cm apart: seen; 6.5: not.
    near = table(unit("F", 100, 100), unit("T", 100, 110, facing=180, side="b"))
    far = table(unit("F", 100, 100), unit("T", 100, 110.5, facing=180, side="b"))
    ranges = {"infantry": (None, 20.0)}
    assert fire_answer(near, "F", "T", rules="wesencraft", report=weather("fog", 6.0),
                       visibility_cm=6.0, ranges=ranges).may_fire is True
    r = fire_answer(far, "F", "T", rules="wesencraft", report=weather("fog", 6.0),
                    visibility_cm=6.0, ranges=ranges)
    assert r.may_fire is False and "unseen foes cannot be fired at" in r.reasons[0]


# ---------------------------------------------------------------------------- visibility words

def test_dense_fog_is_not_unlimited_visibility() -> None:
    # Huzzah! p.10: dense fog is foul weather; the seed gives it no distance.
    assert "unlimited" not in visibility_text("huzzah", "dense fog", None, "cm")
    assert "foul weather" in visibility_text("huzzah", "dense fog", None, "cm")
    assert visibility_text("huzzah", "dense fog", 30.0, "cm") == "visibility 30 cm"
    assert visibility_text("huzzah", "clear", None, "cm") == "visibility unlimited"
    assert visibility_text("agv", "strong winds", None, "in") == "visibility unlimited"


def test_text_and_json_agree() -> None:
    t = table(unit("F", 112, 84), unit("T", 100, 100, n=4, facing=180, side="b"))
    r = fire_answer(t, "F", "T", rules="huzzah", report=weather("dense fog"))
    j = r.to_json()
    assert j["may_fire"] is True and j["band"] == "long" and j["face"] == "left flank"
    assert j["effects"][0] == {"effect": "fire factor", "arms": ["infantry", "artillery"],
                               "amount": -1, "text": "-1 to the fire factor in foul weather",
                               "rule": "Huzzah! p.12 Firing", "applies": True,
                               "why": "the firer is infantry"}
    text = r.text()
    assert "face hit: left flank" in text and "may fire: yes" in text
    assert "modifier: +1 firing on the target's flank (Huzzah! p.12)" in text


def test_huzzah_a_short_range_target_must_be_chosen() -> None:
    # p.11: with targets both at short range and beyond it, the firer must shoot at one at
    # short range.  F at (100, 100) facing north: T1's front centre (100, 118) is 18 cm away
    # (long: 10-20 cm); T2 (x 104-108, y 105-109, facing south) shows its front, centre
    # (106, 105), hypot(6, 5) = 7.8 cm (short: under 10); both in the arc.
    t = table(unit("F", 100, 100), unit("T1", 100, 120, facing=180, side="b"),
              unit("T2", 106, 107, facing=180, side="b"))
    far = fire_answer(t, "F", "T1", rules="huzzah")
    assert far.band == "long" and far.may_fire is False
    assert far.reasons == ("a target at short range must be chosen: T2 (Huzzah! p.11)",)
    near = fire_answer(t, "F", "T2", rules="huzzah")
    assert near.range == pytest.approx(math.hypot(6, 5))
    assert near.band == "short" and near.may_fire is True
    # a friendly unit at short range is no rival
    t2 = table(unit("F", 100, 100), unit("T1", 100, 120, facing=180, side="b"),
               unit("T2", 106, 107, facing=180, side="a"))
    assert fire_answer(t2, "F", "T1", rules="huzzah").may_fire is True


def test_sight_reasons_are_parts_and_both_texts_are_built_from_them() -> None:
    # Sight keeps its explanation as parts; its one-line reason and the fire answer's lines are
    # built from them (no text parsed back).  B stands straight between F and T (every line
    # blocked, Huzzah! p.11 "neither fully nor partly blocked by another unit"); then a
    # visibility limit of 10 cm with the target 16 cm away.
    blocked = table(unit("F", 100, 100), unit("B", 100, 110, n=3, side="c"),
                    unit("T", 100, 120, facing=180, side="b"))
    r = fire_answer(blocked, "F", "T", rules="huzzah")
    s = r.sight
    assert s.los == "blocked" and s.los_reasons == ("by unit 'B'",)
    assert s.reasons == ("blocked by unit 'B'", "range 18 cm", s.visibility_reason)
    assert s.reason == "; ".join(s.reasons)
    assert "no line of sight: blocked by unit 'B'" in r.reasons
    assert s.visibility_reason == "visibility unlimited"
    assert r.text().splitlines()[0] == "sight: no: line of sight blocked (by unit 'B')"
    far = fire_answer(table(unit("F", 100, 100), unit("T", 100, 120, facing=180, side="b")),
                      "F", "T", rules="huzzah", visibility_cm=10.0)
    v = far.sight
    assert v.los == "clear" and v.los_reasons == ("its base has a line",)
    assert v.visibility_reason.startswith("beyond the visibility distance of 10 cm")
    assert v.reason.startswith("clear: its base has a line; range 18 cm; beyond")
    assert far.text().splitlines()[0] == ("sight: no: line of sight clear (its base has a line); "
                                          "beyond the visibility of 10 cm")
    assert f"{v.visibility_reason} ({v.rule})" in far.reasons
