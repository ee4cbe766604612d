"""LOS of a unit in bypass: traced from the point of its bypassed hexside (D2.3).

A vehicle in bypass is not at its hex's centre but along one hexside of it (ASL D2.3; VASL
places it at the Location of that hexside, whose LOS point is the hexside's midpoint, the
``loc`` points of the kernel map).  Its LOS is traced from that point: the kernel's map arrays
are the map's own with the end hex's LOS point moved to the hexside's point (no other change),
so every rule of the pixel walk applies from there, and the end hex's own terrain acts as it
does for any end (it does not block its occupant).  The variant arrays are cached per
(map, hex, hexside), so the kernel's prepared copy of them is made once.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

import numpy as np

from hexwx._native import HX_COLUMNS
from hexwx.validate import whole

#: The kernel's per-hex columns of the LOS point.
_LOS_X, _LOS_Y = HX_COLUMNS.index("los_x"), HX_COLUMNS.index("los_y")
_CACHE: OrderedDict[tuple[int, int, int], tuple[Any, tuple[Any, ...]]] = OrderedDict()
_CACHE_SIZE = 32
_LOCK = Lock()


def check_hexside(side: Any, param: str) -> int | None:
    """``side`` as a hexside 0-5 (None: not in bypass); UsageError naming ``param`` else."""
    if side is None:
        return None
    return whole(side, param, 0, 5,
                 expected="a hexside 0-5 (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW) or None")


def bypass_point(M: tuple[Any, ...], h: int, side: int) -> tuple[int, int]:
    """The LOS point (map pixels) of hex ``h``'s hexside ``side``: its Location's point."""
    loc = M[6]
    return int(loc[h, side, 0]), int(loc[h, side, 1])


def bypass_map(M: tuple[Any, ...], ends: tuple[tuple[int, int], ...]) -> tuple[Any, ...]:
    """The kernel map ``M`` with each (hex, hexside) of ``ends`` traced from that hexside's
    point; ``M`` itself when ``ends`` is empty.  Turned boards' frames move the same point
    (a frame's pixel is its origin minus the map's)."""
    for h, side in ends:
        M = _one(M, h, side)
    return M


def _one(M: tuple[Any, ...], h: int, side: int) -> tuple[Any, ...]:
    key = (id(M), h, side)
    with _LOCK:
        got = _CACHE.get(key)
        if got is not None and got[0] is M:
            _CACHE.move_to_end(key)
            return got[1]
    x, y = bypass_point(M, h, side)
    hx = np.array(M[3], copy=True)
    hx[h, _LOS_X], hx[h, _LOS_Y] = x, y
    rest: list[Any] = []
    for extra in M[9:]:
        if isinstance(extra, tuple):      # the frames of turned boards
            frames = []
            for f in extra:
                fx = np.array(f[1], copy=True)
                origin = np.asarray(f[0]).ravel()
                fx[h, _LOS_X], fx[h, _LOS_Y] = int(origin[0]) - x, int(origin[1]) - y
                frames.append((f[0], fx, *f[2:]))
            rest.append(tuple(frames))
        else:
            rest.append(extra)
    out = (*M[:3], hx, *M[4:9], *rest)
    with _LOCK:
        _CACHE[key] = (M, out)   # M kept: its id stays that of the same map while cached
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return out
