"""ASL LOS rules on small hand-made maps (one geomorphic board, whole-hex terrain).

Every expected answer is worked out by hand from the rules (A6, B9, B.10, B23) and LOS-SPEC 4.6;
the working is in the comment beside each case.  Most threads run straight down one column
(source and target in the same column), so they pass through the centre of every hex between
and cross nothing but the N/S hexsides of those hexes.  Ranges down a column are the row
difference.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from hexwx.hexmap.board import HexMap
from hexwx.errors import UsageError
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import LosResult, los

RULES_MAP = """\
[map]
name = "rules"
[levels]
3 = ["M1"]
2 = ["E1", "I1", "Q1"]
1 = ["G4", "K1", "K3", "Q6", "AA1", "AA4"]
[terrain]
woods = ["C4", "E3", "I7", "M7", "Y5"]
grain = ["U2", "U3", "U4", "U5", "U6", "U7"]
orchard = ["W3", "W4"]
"orchard out of season" = ["BB3"]
"stone building 2" = ["Y3"]
"wooden building" = ["DD3"]
[hexsides]
wall = ["S4:S", "AA2:S"]
"""


@pytest.fixture(scope="module")
def rules_map(tmp_path_factory: pytest.TempPathFactory) -> HexMap:
    p = tmp_path_factory.mktemp("maps") / "rules.toml"
    p.write_text(RULES_MAP)
    return load_map(p)


def check(r: LosResult, *, blocked: bool, rule: str | None = None, at: str | None = None,
          hindrance: int | None = None) -> None:
    assert r.blocked is blocked, r.explain()
    if blocked:
        assert r.rule == rule, r.explain()
        if at is not None:
            assert r.blocking_hex == at, r.explain()
        assert r.blocked_at is not None
    else:
        assert r.rule is None and r.blocked_at is None and r.blocking_hex is None
    if hindrance is not None:
        assert r.hindrance == hindrance, r.explain()


# (source, target, from_level, to_level, range, blocked, rule, blocking hex, hindrance)
CASES = [
    # -- A6.2 terrain higher than both: woods C4 (ground 0 + height 1 = 1) between two
    #    level-0 units, C2 -> C6 (range 4): 1 > 0 and 1 > 0 -> blocked in C4.
    ("C2", "C6", 0, 0, 4, True, "A6.2", "C4", None),
    #    ... but terrain in the firer's own hex never blocks (A6.2 / LOS-SPEC 4.4): C4 -> C6 clear.
    ("C4", "C6", 0, 0, 2, False, None, None, 0),
    ("C6", "C4", 0, 0, 2, False, None, None, 0),
    # -- A6.4 blind hex.  E1 is a level-2 hill, woods in E3 (top 1).  Over the woods: 1 < 2, so
    #    R7 does not block and R8 needs top = hi (1 != 2).  R9 applies as 0 < 1 < 2.  Blind zone
    #    behind the woods: rL <= max(2*(g+t) + floor(rH/5) - Hi - Lo + 1, 1) with g 0, t 1,
    #    rH = range E3->E1 = 2: max(2 + 0 - 2 - 0 + 1, 1) = 1.  E4 (rL 1) is blind, E5 (rL 2)
    #    is seen.
    ("E1", "E4", 0, 0, 3, True, "A6.4", "E3", None),
    ("E1", "E5", 0, 0, 4, False, None, None, 0),
    ("E5", "E1", 0, 0, 4, False, None, None, 0),
    #    Woods farther from the viewer: I1 level 2, woods I7, rH = 6, floor(6/5) = 1:
    #    zone max(2 + 1 - 2 + 1, 1) = 2 -> I8 (rL 1) and I9 (rL 2) blind, I10 (rL 3) seen.
    ("I1", "I8", 0, 0, 7, True, "A6.4", "I7", None),
    ("I1", "I9", 0, 0, 8, True, "A6.4", "I7", None),
    ("I1", "I10", 0, 0, 9, False, None, None, 0),
    ("I9", "I1", 0, 0, 8, True, "A6.4", "I7", None),
    #    The higher viewer shrinks the zone: M1 level 3, woods M7 (rH 6): max(2 + 1 - 3 + 1, 1)
    #    = 1 -> M8 blind, M9 seen.
    ("M1", "M8", 0, 0, 7, True, "A6.4", "M7", None),
    ("M1", "M9", 0, 0, 8, False, None, None, 0),
    # -- A6.2 ground level higher than both: G4 is a level-1 hill between two level-0 hexes.
    ("G2", "G6", 0, 0, 4, True, "A6.2", "G4", None),
    # -- A6.2 height advantage: K1 (level 1) -> K5 (level 0) over K3, a level-1 hill: its ground
    #    1 equals the higher end and exceeds the lower one; K3 is 2 from K1, so the B10.2
    #    adjacent-crest exception does not apply -> blocked in K3.
    ("K1", "K5", 0, 0, 4, True, "A6.2", "K3", None),
    ("K5", "K1", 0, 0, 4, True, "A6.2", "K3", None),
    # -- B10.23 crest blind hex: Q1 level 2, Q6 a level-1 hill (rH 5), Q7 level 0 behind it.
    #    Crest (t = 0): blind <=> rL <= max(2*g + floor(rH/5) - Hi - Lo, 0) = 2 + 1 - 2 - 0 = 1:
    #    Q7 (rL 1) is blind, Q8 (rL 2) is seen.
    ("Q1", "Q7", 0, 0, 6, True, "B10.23", "Q6", None),
    ("Q1", "Q8", 0, 0, 7, False, None, None, 0),
    # -- B9.2 wall on the S4/S5 hexside, all at level 0: S2 -> S7 crosses it between S4 and S5,
    #    a hexside of neither end -> blocked.  S3 -> S6 likewise (the wall is not a hexside of
    #    S3 or S6, nor a spine from their vertices).
    ("S2", "S7", 0, 0, 5, True, "B9.2", None, None),
    ("S3", "S6", 0, 0, 3, True, "B9.2", None, None),
    #    ... but not when it is the firer's (or target's) own hexside.
    ("S4", "S7", 0, 0, 3, False, None, None, 0),
    ("S7", "S4", 0, 0, 3, False, None, None, 0),
    ("S5", "S2", 0, 0, 3, False, None, None, 0),
    #    Walls act only when the ground and both ends are at one level (R3 step 5): AA1 and AA4
    #    are level-1 hills, AA2/AA3 level 0, wall on AA2/AA3.  AA1 -> AA4: the open level-0 hexes
    #    between are lower than both ends and the wall adds no height -> clear.
    ("AA1", "AA4", 0, 0, 3, False, None, None, 0),
    # -- B.10 grain U2..U7, +1 per hindrance hex once (however many grain pixels the thread
    #    crosses); the end hexes never count.  U1 -> U4: U2, U3 -> +2.
    ("U1", "U4", 0, 0, 3, False, None, None, 2),
    #    U1 -> U7: U2..U6 -> +5, still clear.
    ("U1", "U7", 0, 0, 6, False, None, None, 5),
    #    U1 -> U8: U2..U7 -> the sixth hindrance hex (U7) makes 6 -> blocked.
    ("U1", "U8", 0, 0, 7, True, "B.10", "U7", None),
    ("U8", "U1", 0, 0, 7, True, "B.10", "U2", None),
    #    From inside the grain: U3 -> U6 counts U4, U5 only.
    ("U3", "U6", 0, 0, 3, False, None, None, 2),
    # -- B14 orchard at the same level as both ends is a hindrance (+1 a hex), not an obstacle.
    ("W2", "W6", 0, 0, 4, False, None, None, 2),
    ("W1", "W5", 0, 0, 4, False, None, None, 2),
    # -- B14.2 orchard out of season: a hindrance too.
    ("BB1", "BB5", 0, 0, 4, False, None, None, 1),
    # -- a 1-level building (DD3) between two level-0 units blocks like woods.
    ("DD1", "DD5", 0, 0, 4, True, "A6.2", "DD3", None),
    # -- B23 building levels: Y3 is a 2-level stone building, woods Y5 (top 1), target Y7 (L0).
    #    Ground level: woods 1 > 0 and > 0 -> blocked (A6.2 higher than both).
    ("Y3", "Y7", 0, 0, 4, True, "A6.2", "Y5", None),
    #    Level 1 (elevation 1): woods top 1 = hi > lo 0 -> height advantage needed (A6.2).
    ("Y3", "Y7", 1, 0, 4, True, "A6.2", "Y5", None),
    #    Level 2 (elevation 2): 0 < 1 < 2, blind zone max(2*1 + 0 - 2 - 0 + 1, 1) = 1 with rH =
    #    range Y5->Y3 = 2: Y7 (rL 2) is seen, Y6 (rL 1) is blind (A6.4).
    ("Y3", "Y7", 2, 0, 4, False, None, None, 0),
    ("Y3", "Y6", 2, 0, 3, True, "A6.4", "Y5", None),
    ("Y7", "Y3", 0, 2, 4, False, None, None, 0),
    ("Y6", "Y3", 0, 2, 3, True, "A6.4", "Y5", None),
    #    Rooftop (level 3, elevation 3 - 1/2 in the height tests): zone max(2 - 2.5 + 1, 1) = 1
    #    -> Y6 still blind, Y7 seen.
    ("Y3", "Y6", 3, 0, 3, True, "A6.4", "Y5", None),
    ("Y3", "Y7", 3, 0, 4, False, None, None, 0),
]


@pytest.mark.parametrize("a,b,fl,tl,rng,blocked,rule,at,hind", CASES,
                         ids=[f"{c[0]}L{c[2]}-{c[1]}L{c[3]}" for c in CASES])
def test_rule_case(rules_map: HexMap, a: str, b: str, fl: int, tl: int, rng: int, blocked: bool,
                   rule: str | None, at: str | None, hind: int | None) -> None:
    r = los(rules_map, a, b, from_level=fl, to_level=tl)
    assert r.range == rng
    assert (r.source, r.target, r.source_level, r.target_level) == (a, b, fl, tl)
    check(r, blocked=blocked, rule=rule, at=at, hindrance=hind)


def test_grain_hindrances_are_listed_hex_by_hex(rules_map: HexMap) -> None:
    r = los(rules_map, "U1", "U7")
    assert [(h.hex, h.drm, h.kind) for h in r.hindrances] == [
        ("U2", 1, "grain"), ("U3", 1, "grain"), ("U4", 1, "grain"), ("U5", 1, "grain"),
        ("U6", 1, "grain")]
    assert all(h.rule.startswith("B15") for h in r.hindrances)
    assert r.lv == 0 and r.drm == 5
    assert "+5" in r.explain()


def test_orchard_hindrance_is_named(rules_map: HexMap) -> None:
    r = los(rules_map, "W2", "W6")
    assert [(h.hex, h.kind) for h in r.hindrances] == [("W3", "orchard"), ("W4", "orchard")]


def test_building_levels(rules_map: HexMap) -> None:
    y3 = rules_map.parse("Y3")
    assert list(rules_map.levels_at(y3)) == [0, 1, 2, 3]      # ground, two levels, rooftop
    assert rules_map.is_rooftop(y3, 3) and not rules_map.is_rooftop(y3, 2)
    assert list(rules_map.levels_at(rules_map.parse("A1"))) == [0]


@pytest.mark.parametrize("hexname,kw", [
    ("Y3", {"from_level": 4}),     # above the rooftop of a 2-level building
    ("Y3", {"from_level": -1}),    # no cellars in map files
    ("C2", {"from_level": 1}),     # open ground has only level 0
    ("DD3", {"from_level": 1}),    # generic building: no upper levels (LOS-SPEC 3)
])
def test_level_that_does_not_exist_is_a_usage_error(rules_map: HexMap, hexname: str,
                                                     kw: dict[str, int]) -> None:
    with pytest.raises(UsageError) as exc:
        los(rules_map, hexname, "A1", **kw)
    assert hexname in str(exc.value) and str(next(iter(kw.values()))) in str(exc.value)
    with pytest.raises(UsageError):
        los(rules_map, "A1", hexname, to_level=next(iter(kw.values())))


@pytest.mark.parametrize("bad", ["HH1", "A0", "", "1A1"])
def test_unknown_hex_is_a_usage_error(rules_map: HexMap, bad: str) -> None:
    with pytest.raises(UsageError):
        los(rules_map, bad, "A1")


def test_same_hex_is_range_zero_and_clear(rules_map: HexMap) -> None:
    r = los(rules_map, "C4", "C4")
    assert r.range == 0 and not r.blocked and r.hindrance == 0


# -- hexspine LOS ----------------------------------------------------------------------------
# D7, F7 and H7 (B-type columns, same row) have centres on one horizontal line y = 451.5, which
# runs exactly along the E7/E8 hexside (E7's centre is 32.25 above it, E8's 32.25 below), then
# through F7's centre, then along the G7/G8 hexside.  D7 -> F7 is range 2; D7 -> H7 range 4.
# A thread along a hexside is affected by the terrain on both sides (RULES-NOTES), so a grain
# hex on either side hinders (+1), and grain on both sides still counts once (one hindrance per
# range, B.10 / LOS-SPEC 4.5).

def spine_map(tmp_path: Path, terrain: str) -> HexMap:
    p = tmp_path / "spine.toml"
    p.write_text(f'[map]\nname = "spine"\n[terrain]\n{terrain}\n')
    return load_map(p)


SPINE_CASES = [
    ('grain = ["E7"]', "D7", "F7", False, 1),
    ('grain = ["E7", "E8"]', "D7", "F7", False, 1),        # both sides: once
    ('brush = ["E7"]\ngrain = ["E8"]', "D7", "F7", False, 1),
    ('orchard = ["E7", "E8"]', "D7", "F7", False, 1),
    # obstacles on both sides of the hexside block (A6.2)
    ('woods = ["E7", "E8"]', "D7", "F7", True, None),
]

# Along a hexside, each hex of a map file reads as its own fill, so either side counts alike
# (these were bugs: the boundary pixel row belonged to one hex only).
SPINE_BOTH_SIDES = [
    # grain only on the lower side (E8) of the E7/E8 hexside: +1, like its mirror image (E7)
    ('grain = ["E8"]', "D7", "F7", False, 1),
    # one grain hex (E7) on the spine, then open F7 and the open G7/G8 side: only E7 -> +1
    ('grain = ["E7"]', "D7", "H7", False, 1),
    ('grain = ["E7", "G7"]', "D7", "H7", False, 2),
    # grain on both sides of the E7/E8 hexside, F7 (the thread passes through its centre) open:
    # +1; and with grain on both sides of G7/G8 too, two stretches at ranges 1 and 3: +2.
    ('grain = ["E7", "E8"]', "D7", "H7", False, 1),
    ('grain = ["E7", "E8", "G7", "G8"]', "D7", "H7", False, 2),
]


@pytest.mark.parametrize("terrain,a,b,blocked,hind", SPINE_CASES + SPINE_BOTH_SIDES)
def test_hexspine(tmp_path: Path, terrain: str, a: str, b: str, blocked: bool,
                  hind: int | None) -> None:
    m = spine_map(tmp_path, terrain)
    for s, t in ((a, b), (b, a)):
        r = los(m, s, t)
        assert r.blocked is blocked, r.explain()
        if hind is not None:
            assert r.hindrance == hind, r.explain()


def test_hexspine_obstacle_on_one_side_is_mirror_symmetric(tmp_path: Path) -> None:
    """Woods on one side of the E7/E8 hexside: whatever the answer, the mirror image (woods on the
    other side, same thread) must give the same one."""
    upper = los(spine_map(tmp_path, 'woods = ["E7"]'), "D7", "F7")
    lower = los(spine_map(tmp_path, 'woods = ["E8"]'), "D7", "F7")
    assert upper.blocked == lower.blocked


@pytest.mark.parametrize("key,value", [
    ("grain", 1), ("brush", 1), ("orchard", 1), ("orchard out of season", 1),
    ("light woods", 2), ("woods", 0), ("open", 0), ("stone building", 0), ("wall", 0),
])
def test_catalogue_hindrance_values(key: str, value: int) -> None:
    # LOS-SPEC 4.5: +1 per hindrance hex, +2 for light woods; obstacles and open ground hinder nothing
    from hexwx.hexmap.terrain import catalogue_type
    assert catalogue_type(key).hindrance_value == value
