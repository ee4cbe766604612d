"""Exposure heat maps agree with single LOS queries, pair by pair."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from hexwx.errors import UsageError
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.lineofsight.exposure import exposure
from hexwx.weather.asl.state import AslWeather, Drift

MAP = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"
WEATHERS = [None, AslWeather(fog_level=0, fog_drm=1), AslWeather(base="Mist"),
            AslWeather(rain=True, heavy=True), AslWeather(ground_snow=True, drifts=(Drift("D6", 0), Drift("I4", 3)))]


@pytest.fixture(scope="module")
def m():  # type: ignore[no-untyped-def]
    return load_map(MAP)


def _seen_by(m, observers, h, level, w) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for o in observers if o != h and not los(m, o, h, to_level=level, weather=w).blocked)


@pytest.mark.parametrize("w", WEATHERS, ids=lambda w: "clear" if w is None else w.describe()[:20])
def test_counts_equal_single_queries(m, w) -> None:  # type: ignore[no-untyped-def]
    e = exposure(m, weather=w)
    rnd = random.Random(7)
    for h in rnd.sample(range(len(m)), 6):
        assert e.count[h] == _seen_by(m, range(len(m)), h, 0, w), m.name_of(h)
    obs = ["J4", "N7", "C5"]
    e2 = exposure(m, observers=obs, weather=w)
    ids = [m.parse(o) for o in obs]
    for h in rnd.sample(range(len(m)), 40):
        assert e2.count[h] == _seen_by(m, ids, h, 0, w)
        assert e2.seen_by(m.name_of(h)) == [o for o, i in zip(obs, ids)
                                            if i != h and not los(m, i, h, weather=w).blocked]


def test_upper_level_counts_only_hexes_with_that_level(m) -> None:  # type: ignore[no-untyped-def]
    e = exposure(m, level=1, observers=["J4", "A1", "N7"])
    has = np.flatnonzero(m.hexes.levels + m.hexes.rooftop >= 1)
    assert len(has) and (e.count[has] >= 0).all()
    assert (np.delete(e.count, has) == -1).all()
    for h in has:
        assert e.count[h] == _seen_by(m, [m.parse(o) for o in ("J4", "A1", "N7")], int(h), 1, None)
    assert e.of(m.name_of(int(has[0]))) is not None and e.of("A1") is None


def test_json_and_words(m) -> None:  # type: ignore[no-untyped-def]
    e = exposure(m, observers=["J4"])
    d = e.to_json()
    assert d["observers"] == ["J4"] and d["max"] == 1 and len(d["hexes"]) == len(m)
    assert "most seen" in e.describe()
    assert e._repr_png_()[:4] == b"\x89PNG"


@pytest.mark.parametrize("bad", [{"level": -1}, {"level": 1.5}, {"observers": ["Z99"]},
                                 {"observers": [10_000]}])
def test_bad_input_is_a_usage_error(m, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError):
        exposure(m, **bad)


def test_concurrent_askers_share_one_all_pairs_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from hexwx.lineofsight import exposure as E
    m = load_map(Path(__file__).resolve().parents[2] / "maps" / "hedgerow_fields.toml")
    calls: list[int] = []
    real = E.K.all_pairs_matrix

    def counting(*a):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*a)
    monkeypatch.setattr(E.K, "all_pairs_matrix", counting)
    out: list[np.ndarray] = []
    ts = [threading.Thread(target=lambda w=w: out.append(exposure(m, weather=w).count))
          for w in WEATHERS[:4]]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(calls) <= 1 and len(out) == 4
    assert all(any((o == exposure(m, weather=w).count).all() for o in out) for w in WEATHERS[:4])
