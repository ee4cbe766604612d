"""Every value the C LOS kernel indexes with, checked once per map before its first query.

The kernel (``hexwx/_loskernel.c``) reads per-hex rows by the hex id packed in a pixel, the
neighbour of a hexside, the frame of a turned board, and terrain attribute rows by the terrain
code of a hex, a hexside or a fill; it walks pixels between two hexes' LOS points.  It does
not check those values itself (the walk is the hot loop), so a map whose arrays hold one out of
range -- a damaged file, a bug in a deriving step, arrays made by hand through the API -- is
refused here with a ValueError naming the array, instead of reading outside an array.  A
whole-map pass of a few milliseconds (two reductions over the packed pixels), paid once per
map and process by :class:`hexwx._native._Prepared`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

#: Rows of the terrain attribute table: terrain codes are one byte.
CODES = 256


def _within(a: np.ndarray, low: int, high: int, what: str) -> None:
    """ValueError unless every value of ``a`` lies in ``low..high - 1``."""
    if a.size and (int(a.min()) < low or int(a.max()) >= high):
        raise ValueError(f"kernel array {what} holds {int(a.min())}..{int(a.max())}, "
                         f"expected {low}..{high - 1}")


def _check_frame(hx: np.ndarray, h6: np.ndarray, pix: np.ndarray, walked: np.ndarray | None,
                 n: int, nframes: int, hx_col: Sequence[str], h6_col: Sequence[str],
                 where: str) -> int:
    """Check one frame's per-hex rows and pixels (the map itself is frame ``where="map"``;
    ``walked``: the hexes whose walks a frame traces, those of its board, None for all);
    returns the largest range between two of its hexes (the hindrance keys a walk writes)."""
    height, width = pix.shape
    c = {name: i for i, name in enumerate(hx_col)}
    s = {name: i for i, name in enumerate(h6_col)}
    # a pixel packs code | (elevation + 128) << 8 | (hex id + 1) << 16: hex id -1..n-1
    _within(pix, 0, (n + 1) << 16, f"pix ({where})")
    ends = hx if walked is None else hx[walked]     # a walk runs between two such LOS points
    _within(ends[:, c["los_x"]], 0, width, f"HX los_x ({where})")
    _within(ends[:, c["los_y"]], 0, height, f"HX los_y ({where})")
    _within(hx[:, c["centre"]], 0, CODES, f"HX centre ({where})")
    _within(hx[:, c["fill"]], -1, CODES, f"HX fill ({where})")
    if nframes:     # (read only when the map has frames)
        _within(hx[:, c["frame"]], -1, nframes, f"HX frame ({where})")
    _within(h6[..., s["neighbour"]], -1, n, f"H6 neighbour ({where})")
    _within(h6[..., s["side_terrain"]], -1, CODES, f"H6 side_terrain ({where})")
    _within(h6[..., s["loc_terrain"]], 0, CODES, f"H6 loc_terrain ({where})")
    if not n:
        return 0
    col, dy2 = hx[:, c["col"]].astype(np.int64), hx[:, c["dy2"]].astype(np.int64)
    return int(col.max() - col.min() + (dy2.max() - dy2.min()) // 2)


def check_kernel_map(hx: np.ndarray, h6: np.ndarray, pix: np.ndarray,
                     frames: Sequence[tuple[np.ndarray, ...]],
                     hx_col: Sequence[str], h6_col: Sequence[str]) -> int:
    """Check a map's kernel arrays (``frames``: each turned board's ``(HX, H6, ..., pix)``,
    the arrays of :class:`hexwx._native._Prepared`); ValueError naming the first value out of
    range.  Returns the largest range a walk can key a hindrance by, over every frame."""
    n = hx.shape[0]
    longest = _check_frame(hx, h6, pix, None, n, len(frames), hx_col, h6_col, "map")
    frame_of = hx[:, list(hx_col).index("frame")]
    for i, f in enumerate(frames):
        longest = max(longest, _check_frame(f[0], f[1], f[-1], frame_of == i, n, len(frames),
                                            hx_col, h6_col, f"frame {i}"))
    return longest
