"""E3 readings on VASL boards (issue #14 items 2, 3, 7), hand-computed from the rule texts.

Fog (3.31, 3.311): fog at level L and lower fills every hex up to the start of level L+1 like
Smoke of the density DRM; each fogged hex the thread passes through counts once, +1 for firing
out of fog (A24.8).  See docs/asl-weather.md "Readings".
"""
from __future__ import annotations

import pytest

from hexwx.cli import main
from hexwx.lineofsight.engine import los
from hexwx.weather.asl.state import AslWeather

from vasl_boards import board, cli_args


def fog(level: int, drm: int = 1) -> AslWeather:
    return AslWeather(fog_level=level, fog_drm=drm)


# -- item 2: every Fog Level Chart result is legal on every map ----------------------------------

def test_fog_above_every_hex_veils_everything() -> None:
    # bd02's hills reach level 3; fog at level 4 and lower (dr 6) tops out at level 5, above
    # everything.  2I4 (level-2 hill) -> 2F4 at ground level: the thread I4 H4 G4 F4 is all in
    # fog: +1 x 4 hexes, +1 firing out of fog = +5.
    r = los(board("bd02"), "I4", "F4", weather=fog(4))
    assert not r.blocked and r.lv == 5
    assert [h.hex for h in r.hindrances if h.kind == "fog"] == ["I4", "H4", "G4", "F4"]


def test_fog_below_every_hex_veils_nothing() -> None:
    # fog at level -1 and lower (dr 1) on bd02, which has no depression: no location is in fog
    r = los(board("bd02"), "A1", "A3", weather=fog(-1))
    assert not r.blocked and r.lv == 0


def test_fog_level_one_on_a_flat_board_with_upper_building_levels() -> None:
    # bd01: ground level 0 everywhere, two-level stone building J4.  Fog at level 1 (top 2).
    m = board("bd01")
    # from J4 level 1 (in fog) -> H4: J4 +1, I5/I4 (hexspine, once) +1, H4 +1, firing out +1
    assert los(m, "J4", "H4", from_level=1, weather=fog(1)).lv == 4
    # from J4 level 2 (the fog top, not in fog) -> H4: the intermediate hexspine counts (top
    # level with the higher end, A6.2) and the target's hex: +2, nothing for firing out
    r = los(m, "J4", "H4", from_level=2, weather=fog(1))
    assert r.lv == 2 and not any(h.kind == "firing out of fog" for h in r.hindrances)


@pytest.mark.parametrize("argv", [
    ["los", "bd02", "A1", "A3", "--fog", "4"],
    ["los", "bd01", "A1", "A3", "--fog", "1"],
    ["path", "bd02", "A5", "B5", "--unit", "infantry", "--fog", "-1"],
])
def test_cli_accepts_every_fog_level(argv: list[str], capsys) -> None:
    cmd, name, *rest = argv
    path, *meta = cli_args(name)
    assert main([cmd, path, *rest, *meta]) == 0, capsys.readouterr().err


# -- item 3: the same building (3.8) is one drawn building; same Location halved (3.311) --------

def test_two_one_hex_buildings_side_by_side_are_two_buildings() -> None:
    # bd02 V8 and W9 are adjacent wooden buildings drawn apart: fire between them is not within
    # one building, so fog 0 (+1) applies: V8 +1, W9 +1, firing out of fog +1 = +3.
    m = board("bd02")
    assert m.building_ids[m.parse("V8")] != m.building_ids[m.parse("W9")]
    r = los(m, "V8", "W9", weather=fog(0))
    assert (r.blocked, r.lv) == (False, 3)


def test_one_building_across_hexsides_is_clear_inside() -> None:
    # bd01 J4-J5 and X4-X5-Y4 are multi-hex stone buildings: weather is Clear between their
    # Locations (3.8), whatever the fog.
    m = board("bd01")
    assert m.building_ids[m.parse("J4")] == m.building_ids[m.parse("J5")]
    assert len({int(m.building_ids[m.parse(h)]) for h in ("X4", "X5", "Y4")}) == 1
    assert los(m, "J4", "J5", weather=fog(0, 3)).lv == 0


@pytest.mark.parametrize("density, expected", [(1, 1), (2, 1), (3, 2)])
def test_fire_within_one_location_halves_fog_rounding_up(density: int, expected: int) -> None:
    # 3.311: "The Fog DRM is halved (FRU) for fire within the same Location" -- also in a
    # building (3.8 concerns *another* Location of it): +1 -> 1, +2 -> 1, +3 -> 2.
    r = los(board("bd02"), "V8", "V8", weather=fog(0, density))
    assert (r.blocked, r.lv) == (False, expected)


# -- item 7: fog only where the fogged level is ---------------------------------------------------

def test_a_hex_all_above_the_fog_top_holds_no_fog() -> None:
    # bd15 X5 (level-3 hill hex) -> Y3 (level 1), fog at level 1 and lower (top 2).  Y4 lies on
    # the thread and would be in the lower end's blind-hex zone, but every pixel of Y4 is level
    # 2: there is no fog in it (E3 3.311 example: fog exists in the level-0 *portion* of G4).
    # Only the target's hex Y3 counts: +1.
    m = board("bd15")
    assert int(m.lowest_ground[m.parse("Y4")]) == 2
    r = los(m, "X5", "Y3", weather=fog(1))
    assert not r.blocked and r.lv == 1
    assert [h.hex for h in r.hindrances] == ["Y3"]


def test_a_hill_hex_with_a_low_portion_holds_fog() -> None:
    # E3 example: G4 is a level-1 hill hex with a level-0 portion, where fog 0 exists.
    m = board("bd02")
    assert int(m.lowest_ground[m.parse("G4")]) == 0 and m.ground_level(m.parse("G4")) == 1


# -- item 4: winter camouflage yields to a positive TEM (3.712) -----------------------------------

SNOW = AslWeather(base="Snow", ground_snow=True)


@pytest.mark.parametrize("target, lv", [("A5", 1), ("A4", 0)])
def test_winter_camouflage_yields_to_the_targets_tem(target: str, lv: int) -> None:
    # bd02 J4 (level-3 hill) sees A5 (open ground) and A4 (woods) at range 9 with no terrain
    # hindrance.  Ground Snow, camouflaged infantry beyond 8 hexes: +1 (3.712, 3.72) -- unless
    # it "already qualifies for a positive TEM": woods is +1 TEM (B13.3), so A4 gets nothing.
    r = los(board("bd02"), "J4", target, weather=SNOW, target_winter_camouflage=True)
    assert (r.range, r.hindrance, r.lv) == (9, 0, lv)


def test_winter_camouflage_tem_can_be_stated() -> None:
    r = los(board("bd02"), "J4", "A4", weather=SNOW, target_winter_camouflage=True,
            target_positive_tem=False)
    assert r.lv == 1


def test_a_camouflaged_vehicle_needs_more_than_16_hexes() -> None:
    # 3.712: beyond 8 hexes if Infantry, beyond 16 otherwise: a vehicle at 9 gets nothing
    r = los(board("bd02"), "J4", "A5", weather=SNOW, target_winter_camouflage=True,
            target_is_infantry=False)
    assert r.lv == 0


@pytest.mark.parametrize("flags, lv", [([], 0), (["--target-camouflaged"], 1),
                                       (["--target-camouflaged", "--target-vehicle"], 0)])
def test_cli_target_flags(flags: list[str], lv: int, capsys) -> None:
    path, *meta = cli_args("bd02")
    rc = main(["los", path, "J4", "A5", "--ground-snow", "--json", *flags, *meta])
    import json
    assert rc == 0 and json.loads(capsys.readouterr().out)["lv"] == lv


def test_tem_chart() -> None:
    from hexwx.hexmap.terrain import CATALOGUE
    from hexwx.lineofsight.tem import terrain_tem
    tem = {t.key: terrain_tem(t)[0] for t in CATALOGUE.types}
    assert tem["stone building 2"] == 3 and tem["wooden building"] == 2 and tem["woods"] == 1
    assert tem["open"] == tem["grain"] == tem["brush"] == tem["orchard"] == 0
    assert tem["rubble"] == 3 and tem["wooden rubble"] == 2 and tem["shellholes"] == 1
    shell = next(t for t in CATALOGUE.types if t.key == "shellholes")
    assert terrain_tem(shell, infantry=False) == (0, None)     # B2.1: Infantry only
