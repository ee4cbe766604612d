"""Golden images: small renders compared with stored PNGs within a tolerance.

Regenerate after an intended change of style with ``python tools/regen_golden_png.py`` and look
at the new images before committing them.  The tolerance absorbs anti-aliasing and font
rasterisation differences between Pillow builds, not changes of colour or layout.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
import pytest
from PIL import Image

from hexwx.weather.asl.state import AslWeather, Drift

from render_helpers import blocked_los_by_woods, clear_los_through_grain, synthetic_map

GOLDEN = Path(__file__).parents[1] / "data" / "golden"
SCENARIOS = Path(__file__).parents[2] / "scenarios"
#: Largest allowed mean absolute difference per channel, and share of pixels off by > 64.
MEAN_TOL = 5.0
PIXEL_SHARE_TOL = 0.02


def _hex_los() -> Image.Image:
    m = synthetic_map()
    return render_map_small(m, los=clear_los_through_grain())


def _hex_blocked_fog() -> Image.Image:
    m = synthetic_map()
    return render_map_small(m, los=blocked_los_by_woods(m), weather=AslWeather(fog_level=0))


def _hex_snow_drift() -> Image.Image:
    m = synthetic_map()
    w = AslWeather(ground_snow=True, drifts=(Drift("D5", 2),))
    return render_map_small(m, weather=w)


def _table() -> Image.Image:
    from hexwx.render.core import render_table
    from hexwx.tabletop.sight import can_see
    from hexwx.io.table_scenario import load_table_scenario
    sc = load_table_scenario(SCENARIOS / "table_huzzah_fog_lifts.toml")
    s = can_see(sc.table, "french-1", "allied-2", rules=sc.rules, visibility_cm=sc.visibility_cm(1))
    return render_table(sc, sights=[s], width_px=300, legend=False).image


def render_map_small(m, **kw) -> Image.Image:
    from hexwx.render.core import render_map
    return render_map(m, window=("B2", "F6"), scale=0.5, legend=False, **kw).image


#: name -> function drawing the image (tools/regen_golden_png.py writes these).
CASES: dict[str, Callable[[], Image.Image]] = {
    "hex_los.png": _hex_los,
    "hex_blocked_fog.png": _hex_blocked_fog,
    "hex_snow_drift.png": _hex_snow_drift,
    "table_sight.png": _table,
}


def stored_form(img: Image.Image) -> Image.Image:
    """How a golden image is stored: quantised to 64 colours (a few KB); the tolerance covers
    the quantisation."""
    return img.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, share of pixels differing by > 64 somewhere)."""
    x = np.asarray(a.convert("RGB"), np.int16)
    y = np.asarray(b.convert("RGB"), np.int16)
    d = np.abs(x - y)
    return float(d.mean()), float((d.max(axis=2) > 64).mean())


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    path = GOLDEN / name
    if not path.exists():
        pytest.fail(f"missing golden image {path}; run python tools/regen_golden_png.py")
    got = CASES[name]()
    want = Image.open(path)
    assert got.size == want.size
    mean, share = difference(got, want)
    assert mean <= MEAN_TOL and share <= PIXEL_SHARE_TOL, (name, mean, share)


def test_golden_comparison_catches_a_changed_colour() -> None:
    img = CASES["hex_los.png"]()
    arr = np.asarray(img).copy()
    arr[: arr.shape[0] // 3] = (255, 0, 255)
    mean, share = difference(img, Image.fromarray(arr))
    assert mean > MEAN_TOL and share > PIXEL_SHARE_TOL
