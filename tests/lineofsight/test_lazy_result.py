"""A clear-weather ``los()`` makes its thread and hindrance list on first read (issue #22,
item 4): what it then gives equals what the eager path (any weather given) builds at once, in
any order of reading, after other queries reused the scratch, and through copy and replace."""
from __future__ import annotations

import copy
import dataclasses
import random
from pathlib import Path

import pytest

from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.lineofsight.results import Later, LosResult
from hexwx.weather.asl.state import AslWeather

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def village():
    return load_map(ROOT / "maps" / "hill_village.toml")


def _pairs(m, count: int, seed: int) -> list[tuple[int, int]]:
    rnd = random.Random(seed)
    return [(rnd.randrange(len(m)), rnd.randrange(len(m))) for _ in range(count)]


def test_lazy_fields_equal_the_eager_ones(village):
    clear = AslWeather()       # a weather, so every field is built at once; Clear has no LV
    hindered = 0
    for a, b in _pairs(village, 300, 1):
        lazy, eager = los(village, a, b), los(village, a, b, weather=clear)
        assert "thread" not in vars(lazy) and type(vars(lazy)["_later_thread"]) is Later
        los(village, b, a)     # another walk in the same scratch before the lazy read
        assert lazy.thread == eager.thread and lazy.thread
        assert vars(lazy)["thread"] is lazy.thread      # made once, then read plainly
        assert lazy.hindrances == eager.hindrances
        assert sum(h.drm for h in lazy.hindrances) == lazy.hindrance
        hindered += bool(lazy.hindrances)
        assert lazy.to_json() == eager.to_json()
    assert hindered > 10       # the sample crosses hindrances, so the lists were compared


def test_reading_order_equality_hash_copy_and_replace(village):
    for a, b in _pairs(village, 40, 2):
        first, second = los(village, a, b), los(village, a, b)
        assert first.hindrances == second.hindrances     # one read hindrances first
        assert first.thread == second.thread
        assert first == los(village, a, b) and hash(first) == hash(los(village, a, b))
        assert copy.copy(los(village, a, b)).thread == first.thread
        assert dataclasses.replace(los(village, a, b), reason="x").hindrances == first.hindrances


def test_fields_given_as_values_stay_values():
    r = LosResult("C5", "G5", 0, 0, 4, True, "woods", "B13", (1, 1), "E5", 0, 0, ())
    assert r.thread == () and r.hindrances == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.thread = ()  # type: ignore[misc]
    with pytest.raises(TypeError, match="hindrances"):
        LosResult("C5", "G5", 0, 0, 4, True, "woods", "B13", (1, 1), "E5", 0, 0)
