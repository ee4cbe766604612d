"""Fog LV in integers gives exactly the answers of the exact-fraction reading, over many cases."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.lineofsight.lv import fog_blind_zone, fog_hex_rule
from hexwx.weather.asl.state import AslWeather

ROOT = Path(__file__).resolve().parents[2]


def _reference(top, se, te, rs, rt, low):  # the per-hex reading, in Fractions as it was written
    top, se, te = Fraction(top), Fraction(se), Fraction(te)
    if rs == 0:
        return "E3.311" if se < top else None
    if rt == 0:
        return "E3.311" if te < top else None
    if low is not None and Fraction(low) >= top:
        return None
    hi, lo = max(se, te), min(se, te)
    if top > hi:
        return "E3.311"
    if top == hi and top > lo:
        return "E3.311, A6.2"
    if lo < top < hi:
        r_hi, r_lo = (rs, rt) if se > te else (rt, rs)
        if r_lo <= fog_blind_zone(top, hi, lo, r_hi):
            return "E3.311, A6.4"
    return None


def test_integer_rule_equals_the_fraction_reading() -> None:
    rng = np.random.default_rng(11)
    halves = [Fraction(k, 2) for k in range(-4, 16)]
    for _ in range(20000):
        top = int(rng.integers(0, 6))
        se, te = (halves[i] if rng.random() < 0.3 else int(halves[i]) for i in rng.integers(0, len(halves), 2))
        rs, rt = (int(x) for x in rng.integers(0, 25, 2))
        low = None if rng.random() < 0.3 else int(rng.integers(-1, 6))
        assert fog_hex_rule(top, se, te, rs, rt, low) == _reference(top, se, te, rs, rt, low), \
            (top, se, te, rs, rt, low)


def test_fogged_queries_over_many_pairs_match_the_reference_rule(monkeypatch) -> None:
    """The kernel's fog LV (integers, in C) against the reading in Fractions on each query's
    own thread."""
    from hexwx.lineofsight import lv
    m = load_map(ROOT / "maps" / "hill_village.toml")
    w = AslWeather(fog_level=0, fog_drm=1)
    rng = np.random.default_rng(5)
    pairs = rng.integers(0, len(m), size=(400, 2))
    results = [los(m, int(a), int(b), weather=w, from_level=0) for a, b in pairs if a != b]
    monkeypatch.setattr(lv, "_fog_hex_rule_scaled",
                        lambda top, se, te, rs, rt, low, d: _reference(
                            Fraction(top, d), Fraction(se, d), Fraction(te, d), rs, rt,
                            None if low is None else Fraction(low, d)))
    kernel = [r.lv for r in results]
    reading = [lv.total(lv.fog_lv(w, thread=r.thread, source_elevation=r.source_elevation,
                                  target_elevation=r.target_elevation)) for r in results]
    assert kernel == reading and any(kernel)
