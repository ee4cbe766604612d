"""``los()`` makes its thread, hindrance list (clear weather), what blocks in words and the ends'
Location names on first read (issue #22, item 4): what it then gives equals what the eager path
(any weather given) builds at once, in any order of reading, after other queries, from several
threads at once, and through copy, pickle's state and replace; and the dataclass, its
constructor and mypy agree on which fields are required."""
from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import random
import threading
from pathlib import Path

import pytest

from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.lineofsight import results
from hexwx.lineofsight.results import LosResult
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
        assert not set(results._LATER_FIELDS) & set(vars(lazy))   # nothing made yet
        los(village, b, a)     # another walk before the lazy read
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


def test_every_field_made_later_equals_the_eager_one(village):
    """Bypass ends, building levels and blocked pairs too: each of the fields made on first
    read (read first, one at a time) equals the eager path's."""
    m, clear, checked = village, AslWeather(), 0
    rnd = random.Random(4)
    for a, b in _pairs(m, 200, 3):
        la, lb = rnd.choice(list(m.levels_at(a))), rnd.choice(list(m.levels_at(b)))
        kw = dict(from_level=la, to_level=lb)
        if rnd.random() < 0.3:
            kw["from_hexside"] = next((k for k in range(6) if m.grid.neighbours[a, k] >= 0), None)
        for name in results._LATER_FIELDS:
            lazy, eager = los(m, a, b, **kw), los(m, a, b, weather=clear, **kw)
            assert getattr(lazy, name) == getattr(eager, name), (a, b, kw, name)
            checked += lazy.blocking_terrain is not None
    assert checked > 50        # blocked by terrain often enough to compare what blocks


def test_one_result_read_from_threads_at_once(village):
    eager = [los(village, a, b, weather=AslWeather()) for a, b in _pairs(village, 60, 5)]
    lazy = [los(village, a, b) for a, b in _pairs(village, 60, 5)]
    start = threading.Barrier(4)
    seen: list[list[tuple]] = []

    def read() -> None:
        start.wait()
        seen.append([(r.thread, r.hindrances, r.blocking_top, r.source_location) for r in lazy])

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    want = [(r.thread, r.hindrances, r.blocking_top, r.source_location) for r in eager]
    assert len(seen) == 4 and all(s == want for s in seen)


def test_copy_and_pickle_state_hold_made_values(village):
    r = los(village, 3, 140)
    state = r.__getstate__()
    assert "_later" not in state and state["thread"] and state["source_location"]
    assert set(state) == {f.name for f in dataclasses.fields(LosResult)}
    c = copy.copy(los(village, 3, 140))
    assert "_later" not in vars(c) and c == r and c.thread == r.thread


def test_required_fields_agree_for_mypy_and_the_runtime():
    """A field without a default in the class body (what mypy reads) is exactly one the
    constructor requires at run time (the descriptors of the fields made later are put on the
    class after the dataclass is made, so they add no default of their own)."""
    tree = ast.parse(inspect.getsource(results))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "LosResult").body
    written = {n.target.id: n.value is not None for n in body if isinstance(n, ast.AnnAssign)}
    params = inspect.signature(LosResult).parameters
    assert written == {k: p.default is not inspect.Parameter.empty for k, p in params.items()}
    assert not written["hindrances"] and written["thread"]
