"""The level fill of overlay art drawn without levels (hexwx._native.fill_rows, used by
hexwx.io.overlays.overlay_terrain): each pixel without a level takes the nearest level to its
left on its image row, at a row's start the nearest to its right; a row with none keeps none.
Checked against a plain per-pixel reading of that sentence."""
from __future__ import annotations

import numpy as np
import pytest

from hexwx._native import fill_rows

NONE = -128


def by_the_sentence(values: np.ndarray) -> np.ndarray:
    out = values.copy()
    for y, row in enumerate(values):
        known = [x for x, v in enumerate(row) if v != NONE]
        for x, v in enumerate(row):
            if v == NONE and known:
                left = [k for k in known if k < x]
                out[y, x] = row[left[-1]] if left else row[min(k for k in known if k > x)]
    return out


@pytest.mark.parametrize("seed", range(25))
def test_fill_rows_is_the_nearest_level_along_the_row(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = (int(n) for n in rng.integers(1, 30, 2))
    values = np.where(rng.random((h, w)) < rng.random(), rng.integers(-3, 5, (h, w)), NONE)
    values = values.astype(np.int16)
    got = fill_rows(values, NONE)
    assert got.dtype == np.int16 and got.shape == values.shape
    assert np.array_equal(got, by_the_sentence(values))


def test_fill_rows_leaves_its_input_and_empty_rows_alone() -> None:
    values = np.array([[NONE, 2, NONE, NONE, 1, NONE], [NONE] * 6], np.int16)
    before = values.copy()
    assert fill_rows(values, NONE).tolist() == [[2, 2, 2, 2, 1, 1], [NONE] * 6]
    assert np.array_equal(values, before)
    # a transposed (non-contiguous) view is read as its rows
    assert fill_rows(values.T[:, :1].T, NONE).tolist() == [[2, 2, 2, 2, 1, 1]]
