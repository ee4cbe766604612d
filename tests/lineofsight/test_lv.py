"""LV hindrance arithmetic (E3 3.31-3.32, 3.51, 3.71, 3.712, 3.8, A24.8).

The fog tests are the E3 3.31 worked example on board 2 (fog at level 0 and lower, +1 per hex).
Threads are built by hand from the geomorphic board geometry (RULES-NOTES / LOS-SPEC 1.3:
hex centre of column c, row index r at x = 56.25c, y = 32.25 + 64.5r - 32.25(c mod 2)), by
following the straight centre-to-centre line:

* 2I4 -> 2F4 (range 3): I4, H4, G4, F4.
* 2I4 -> 2E4 (range 4): the line is horizontal (I4, G4, E4 share y = 225.75) and runs along the
  H3/H4 and F3/F4 hexsides, so those pairs are hexspine pairs that count once:
  I4, H3|H4, G4, F3|F4, E4.
* 2I4 -> 2B5 (range 7): I4, H4, G4, F4, E5, D5, C5, B5.  The line grazes the G4/G5/F4 and
  D4/D5/E5 vertices (it enters G5 and D4 by about 0.1 px in VASL's pixels); the E3 example
  counts neither, so they are left out as vertex touches.
* 2J4 -> 2B5 (range 8): J4, I5, H4, G5, F4, F5, E5, D5, C5, B5.  The line crosses the F4/F5
  hexside at its midpoint (the middle of the LOS), so F4 and F5 are both at range 4 from
  each end.

Ground levels: I4 2, J4 3, G4 1 (given by the example); F4, E4, F3, E5, D5, C5, B5 are level-0
fog hexes (the example fires "down to level 0" and counts them as fog at level 0); H3, H4, I5,
G5, F5 are not given by the example - they are set to plausible hill/ground values, and a test
checks the fog result does not depend on them.
"""
from __future__ import annotations

import pytest

from hexwx.errors import UsageError
from hexwx.weather.asl.state import AslWeather
from hexwx.lineofsight.lv import (LvHindrance, ThreadHex, fog_blind_zone, fog_lv, lv_hindrances,
                              mist_band_drm, mist_drm, total, winter_camouflage_lv)

GROUND = {"I4": 2, "J4": 3, "G4": 1, "H4": 1, "H3": 1, "I5": 1, "G5": 0, "F5": 0,
          "F4": 0, "F3": 0, "E4": 0, "E5": 0, "D5": 0, "C5": 0, "B5": 0}


def thread(*steps: str | tuple[str, ...], ground: dict[str, int] = GROUND) -> list[ThreadHex]:
    """Hexes in order; a tuple is a group at the same range (one key if ``spine``)."""
    rng = len(steps) - 1
    out = []
    for i, step in enumerate(steps):
        names = (step,) if isinstance(step, str) else step
        for name in names:
            out.append(ThreadHex(name, i, rng - i, ground[name], key=i))
    return out


def split_thread(*steps: str | tuple[str, ...]) -> list[ThreadHex]:
    """Like :func:`thread` but hexes at the same range are distinct (not a hexspine)."""
    rng = len(steps) - 1
    out = []
    k = 0
    for i, step in enumerate(steps):
        for name in ((step,) if isinstance(step, str) else step):
            out.append(ThreadHex(name, i, rng - i, GROUND[name], key=k))
            k += 1
    return out


FOG0 = AslWeather(fog_level=0, fog_drm=1)

I4_F4 = thread("I4", "H4", "G4", "F4")
I4_E4 = thread("I4", ("H3", "H4"), "G4", ("F3", "F4"), "E4")
I4_B5 = thread("I4", "H4", "G4", "F4", "E5", "D5", "C5", "B5")
J4_B5 = split_thread("J4", "I5", "H4", "G5", ("F4", "F5"), "E5", "D5", "C5", "B5")


def fog_hexes(result: list[LvHindrance]) -> set[str]:
    return {h.hex for h in result if h.kind == "fog"}


def test_e3_i4_to_f4_plus_two_for_f4_and_g4() -> None:
    got = fog_lv(FOG0, thread=I4_F4, source_elevation=2, target_elevation=0)
    assert total(got) == 2
    assert fog_hexes(got) == {"F4", "G4"}


def test_e3_i4_to_e4_plus_two_g4_does_not_hinder() -> None:
    got = fog_lv(FOG0, thread=I4_E4, source_elevation=2, target_elevation=0)
    assert total(got) == 2
    assert fog_hexes(got) == {"E4", "F3/F4"}


def test_e3_i4_to_b5_plus_three_d5_is_an_extra_blind_hex() -> None:
    got = fog_lv(FOG0, thread=I4_B5, source_elevation=2, target_elevation=0)
    assert total(got) == 3
    assert fog_hexes(got) == {"B5", "C5", "D5"}


def test_e3_j4_to_b5_plus_two_level_3_firer_reduces_blind_hexes() -> None:
    got = fog_lv(FOG0, thread=J4_B5, source_elevation=3, target_elevation=0)
    assert total(got) == 2
    assert fog_hexes(got) == {"B5", "C5"}


def test_e3_b5_to_i4_plus_four_with_firing_out_of_fog() -> None:
    back = [ThreadHex(h.name, h.rt, h.rs, h.ground, h.key) for h in reversed(I4_B5)]
    got = fog_lv(FOG0, thread=back, source_elevation=0, target_elevation=2)
    assert total(got) == 4
    assert fog_hexes(got) == {"B5", "C5", "D5"}
    assert [h for h in got if h.kind == "firing out of fog"] == [
        LvHindrance("B5", 1, "firing out of fog", "A24.8")]


def test_e3_lines_between_hill_hexes_are_not_fogged() -> None:
    # fog at level 0: a level-1 unit in G4 and the level-2 unit in I4 are both at or above the
    # fog top (start of level 1), so nothing hinders
    got = fog_lv(FOG0, thread=thread("I4", "H4", "G4"), source_elevation=2, target_elevation=1)
    assert got == []


@pytest.mark.parametrize("level", [0, 1, 2])
def test_fog_does_not_read_ground_of_intermediate_hexes(level: int) -> None:
    ground = dict(GROUND, H4=level, H3=level)
    got = fog_lv(FOG0, thread=thread("I4", "H4", "G4", "F4", "E5", "D5", "C5", "B5", ground=ground),
                 source_elevation=2, target_elevation=0)
    assert total(got) == 3


def test_density_multiplies_per_hex() -> None:
    dense = AslWeather(fog_level=0, fog_drm=3)
    assert total(fog_lv(dense, thread=I4_B5, source_elevation=2, target_elevation=0)) == 9


def test_both_ends_in_fog_every_hex_counts_plus_firing_out() -> None:
    t = thread("F4", "E5", "D5", "C5", "B5")
    got = fog_lv(FOG0, thread=t, source_elevation=0, target_elevation=0)
    assert total(got) == 5 + 1


def test_viewer_level_with_fog_top_has_no_height_advantage() -> None:
    # fog at level 0 (top = level 1); a level-1 firer sees over nothing: all fog hexes count (A6.2)
    t = thread("G4", "F4", "E5", "D5", "C5", "B5")
    got = fog_lv(FOG0, thread=t, source_elevation=1, target_elevation=0)
    assert fog_hexes(got) == {"F4", "E5", "D5", "C5", "B5"}


def test_fire_within_one_fog_location_is_halved_rounding_up() -> None:
    for drm, want in ((1, 1), (2, 1), (3, 2)):
        st = AslWeather(fog_level=1, fog_drm=drm)
        got = fog_lv(st, thread=[ThreadHex("C5", 0, 0)], source_elevation=0, target_elevation=0,
                     same_location=True)
        assert total(got) == want


def test_blind_zone_formula_examples() -> None:
    # fog top 1 over a level-0 target: level-2 viewer at 4 hexes -> 1; at 5 hexes -> 2
    assert fog_blind_zone(1, 2, 0, 4) == 1
    assert fog_blind_zone(1, 2, 0, 5) == 2
    # level-3 viewer is 2 levels above the top: one fewer, minimum 1
    assert fog_blind_zone(1, 3, 0, 4) == 1
    assert fog_blind_zone(1, 3, 0, 7) == 1
    assert fog_blind_zone(1, 3, 0, 10) == 2


# --- mist ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rng,want", [(0, 0), (1, 0), (6, 0), (7, 1), (12, 1), (13, 2),
                                      (18, 2), (19, 3), (24, 3), (25, 4)])
def test_mist_bands(rng: int, want: int) -> None:
    assert mist_band_drm(rng) == want
    st = AslWeather(base="Mist")
    assert total(lv_hindrances(st, thread=None, source_elevation=0, target_elevation=0,
                               range=rng)) == want


@pytest.mark.parametrize("rng,want", [(1, 1), (6, 1), (7, 2), (12, 2), (13, 3), (18, 3)])
def test_intensified_rain_adds_one_at_every_range(rng: int, want: int) -> None:
    assert mist_drm(rng, heavy=True) == want
    st = AslWeather(rain=True, heavy=True)
    got = lv_hindrances(st, thread=None, source_elevation=0, target_elevation=0, range=rng)
    assert total(got) == want
    assert {h.kind for h in got} <= {"rain", "rain (intensified)"}


def test_rain_and_falling_snow_cause_mist() -> None:
    for st, kind in ((AslWeather(rain=True), "rain"), (AslWeather(falling_snow=True), "falling snow")):
        got = lv_hindrances(st, thread=None, source_elevation=0, target_elevation=0, range=13)
        assert [(h.kind, h.drm) for h in got] == [(kind, 2)]


def test_clear_weather_and_ground_snow_have_no_mist() -> None:
    for st in (AslWeather(), AslWeather(ground_snow=True), AslWeather(base="Overcast")):
        assert lv_hindrances(st, thread=None, source_elevation=0, target_elevation=0,
                             range=20) == []


# --- winter camouflage ----------------------------------------------------------------------


@pytest.mark.parametrize("infantry,rng,want", [(True, 8, 0), (True, 9, 1), (True, 30, 1),
                                               (False, 16, 0), (False, 17, 1), (False, 9, 0)])
def test_winter_camouflage_thresholds(infantry: bool, rng: int, want: int) -> None:
    st = AslWeather(ground_snow=True)
    got = winter_camouflage_lv(st, rng, target_is_infantry=infantry, target_winter_camouflage=True)
    assert total(got) == want


def test_winter_camouflage_needs_snow_camouflage_and_no_positive_tem() -> None:
    snow = AslWeather(deep_snow=True)
    assert winter_camouflage_lv(AslWeather(), 20, target_winter_camouflage=True) == []
    assert winter_camouflage_lv(snow, 20, target_winter_camouflage=False) == []
    assert winter_camouflage_lv(snow, 20, target_winter_camouflage=True,
                                target_positive_tem=True) == []
    assert total(winter_camouflage_lv(AslWeather(falling_snow=True), 9,
                                      target_winter_camouflage=True)) == 1


def test_falling_snow_with_camouflage_adds_both() -> None:
    st = AslWeather(falling_snow=True, heavy=True)
    got = lv_hindrances(st, thread=None, source_elevation=0, target_elevation=0, range=9,
                        target_winter_camouflage=True)
    # mist band +1 (7-12), intensified +1, camouflage +1 (beyond 8, infantry)
    assert total(got) == 3


# --- same building, errors ----------------------------------------------------------------


def test_same_building_is_always_clear() -> None:
    st = AslWeather(rain=True, heavy=True)
    assert lv_hindrances(st, thread=None, source_elevation=1, target_elevation=0, range=10,
                         same_building=True) == []
    assert lv_hindrances(FOG0, thread=I4_B5, source_elevation=0, target_elevation=0, range=7,
                         same_building=True) == []


def test_fog_needs_a_thread_and_ranges_must_be_sane() -> None:
    with pytest.raises(UsageError, match="thread"):
        lv_hindrances(FOG0, thread=None, source_elevation=0, target_elevation=0, range=3)
    with pytest.raises(UsageError, match="range"):
        mist_band_drm(-1)


def test_lv_total_straight_equals_lv_hindrances_on_a_straight_thread() -> None:
    """The readable reference of the kernel's straight-thread cube (exposure's all-fog count)
    gives exactly what lv_hindrances gives on a thread of one hex
    per range step, for every end elevation, range and kind of weather."""
    from hexwx.lineofsight.lv import lv_total_straight
    weathers = [AslWeather(fog_level=f, fog_drm=d) for f in (-1, 0, 1, 2, 3) for d in (1, 2, 3)]
    weathers += [AslWeather(base="Mist"), AslWeather(base="Overcast", rain=True, heavy=True),
                 AslWeather(base="Snow", falling_snow=True), AslWeather()]
    for w in weathers:
        for se in range(-1, 5):
            for te in range(-1, 5):
                for r in range(1, 26):
                    thread = [ThreadHex(f"#{k}", k, r - k, 0, k) for k in range(r + 1)]
                    expect = sum(h.drm for h in lv_hindrances(
                        w, thread=thread, source_elevation=se, target_elevation=te, range=r))
                    assert lv_total_straight(w, source_elevation=se, target_elevation=te,
                                             range=r) == expect, (w, se, te, r)
