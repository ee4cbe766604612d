"""Fog and SMOKE counters together (E3.311: each fogged-in level "is affected by Smoke of the
proper DRM ... The Fog DRM is halved (FRU) for fire within the same Location").  What hexwx
does, pinned: fog is the weather's LV (``lv``), a SMOKE counter a LOS hindrance
(``hindrance``); in one hex they are two separate hindrances and add (E3.1: LV is added to the
LOS hindrances), each end in them adds its own +1 for firing out (A24.8).  docs/counters.md
("Under the weather") records this reading.  Map: maps/hill_village.toml, hexrow A at level 0."""
from __future__ import annotations

import math

import pytest

import hexwx
from hexwx.weather.asl.state import AslWeather

MAP = "maps/hill_village.toml"


@pytest.fixture(scope="module")
def m():
    return hexwx.load_map(MAP)


def _parts(r) -> list[tuple[str, str, int, str]]:
    return sorted((h.hex, h.kind, h.drm, h.rule) for h in r.hindrances)


def test_fog_and_a_smoke_counter_in_one_hex_are_two_hindrances_that_add(m) -> None:
    fog = AslWeather(fog_level=0, fog_drm=1)
    bare = hexwx.los(m, "A1", "A3", weather=fog)
    r = hexwx.los(m, "A1", "A3", weather=fog, counters=["White +2 Smoke@A2"])
    assert bare.lv == 4 and bare.hindrance == 0    # +1 in A1, A2, A3, +1 firing out of fog
    assert (r.hindrance, r.lv) == (2, 4) and r.blocked     # E3.1: 2 + 4, six or more, blocks
    assert ("A2", "fog", 1, "E3.311") in _parts(r)
    assert ("A2", "smoke", 2, "A24") in _parts(r)


def test_firing_out_of_fog_and_out_of_a_smoke_counter_each_add_one(m) -> None:
    fog = AslWeather(fog_level=0, fog_drm=1)
    r = hexwx.los(m, "A1", "A2", weather=fog, counters=["Gray +1 WP@A1"])
    firing = [p for p in _parts(r) if p[1].startswith("firing out of")]
    assert firing == [("A1", "firing out of fog", 1, "A24.8"),
                      ("A1", "firing out of smoke", 1, "A24.8")]
    assert (r.hindrance, r.lv) == (1 + 1, 1 + 1 + 1)


@pytest.mark.parametrize("drm", [1, 2, 3])
def test_fire_within_one_location_halves_the_fog_but_not_a_smoke_counter(m, drm) -> None:
    """E3.311: the Fog DRM halved, fractions rounded up, within one Location; the SMOKE counter
    there keeps its DRM and the firer's +1 (A24, A24.8)."""
    fog = AslWeather(fog_level=0, fog_drm=drm)
    r = hexwx.los(m, "A4", "A4", weather=fog)
    assert r.lv == math.ceil(drm / 2) and _parts(r) == [("A4", "fog", math.ceil(drm / 2), "E3.311")]
    s = hexwx.los(m, "A4", "A4", weather=fog, counters=["White +2 Smoke@A4"])
    assert (s.hindrance, s.lv) == (2 + 1, math.ceil(drm / 2))
