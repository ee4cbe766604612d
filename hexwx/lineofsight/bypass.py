"""LOS of a unit in bypass: traced from the point of its bypassed hexside (D2.3).

A vehicle in bypass is not at its hex's centre but along one hexside of it (ASL D2.3; VASL
places it at the Location of that hexside, whose LOS point is the hexside's location point,
the ``loc`` points of the kernel map, LOS-SPEC 1.8).  Its LOS is traced from that point: the
kernel takes the end's hexside per query (``s_side`` / ``t_side`` of
:func:`hexwx._native.trace` and :func:`~hexwx._native.trace_many`) and reads that point
wherever it would read the end hex's LOS point, so every rule of the pixel walk applies from
there and nothing is prepared per bypass end.  The obstacle of the bypassed hex still blocks a
LOS traced across its inside (docs/counters.md, "Units in bypass").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexwx.errors import UsageError
from hexwx.validate import bad, whole

#: The words of a hexside number, as the CLI and a Location name write them.
_EXPECTED = "a hexside 0-5 (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW) or None"


def check_hexside(side: Any, param: str) -> int | None:
    """``side`` as a hexside 0-5 (None: not in bypass); UsageError naming ``param`` else."""
    if side is None:
        return None
    return whole(side, param, 0, 5, expected=_EXPECTED)


def bypass_point(M: tuple[Any, ...], h: int, side: int) -> tuple[int, int]:
    """The LOS point (map pixels) of hex ``h``'s hexside ``side``: its Location's point."""
    loc = M[6]
    return int(loc[h, side, 0]), int(loc[h, side, 1])


def check_on_map(M: tuple[Any, ...], name: Any, h: int, side: int | None, param: str) -> None:
    """UsageError naming ``param`` when hexside ``side`` of hex ``h`` (named ``name(h)``) is
    the map's edge: a unit cannot bypass along it there."""
    if side is not None and not M[4][h, side, 0]:
        raise bad(param, side, f"a hexside of {name(h)} on the map (hexside {side} is its edge "
                               f"of the map)")


def sides_array(m: Any, hexes: np.ndarray, sides: Any, param: str) -> np.ndarray | None:
    """One bypass hexside per entry of ``hexes`` (int64, -1: not in bypass) from None (none in
    bypass), one hexside for all, or a sequence of hexsides and None; None when no entry is in
    bypass.  UsageError naming ``param`` for a value that is not a hexside 0-5 or for a
    hexside on the map's edge."""
    if sides is None:
        return None
    if isinstance(sides, (list, tuple, np.ndarray)):
        if len(sides) != len(hexes):
            raise UsageError(f"{len(sides)} {param} for {len(hexes)} pairs: give one per pair "
                             f"(None: not in bypass) or one for all", param=param)
        out = np.array([_side_or_none(s, param) for s in list(sides)], np.int64)
    else:
        out = np.full(len(hexes), check_hexside(sides, param), np.int64)
    on = out >= 0
    if not on.any():
        return None
    edge = ~m.kernel_map[4][hexes[on], out[on], 0].astype(bool)
    if edge.any():
        i = int(np.flatnonzero(on)[np.flatnonzero(edge)[0]])
        check_on_map(m.kernel_map, m.name_of, int(hexes[i]), int(out[i]), param)
    return out


def _side_or_none(side: Any, param: str) -> int:
    """One entry of a per-pair list of hexsides: -1 for None or -1 (not in bypass)."""
    if side is None or (isinstance(side, (int, np.integer)) and not isinstance(side, bool)
                        and side == -1):
        return -1
    got = check_hexside(side, param)
    assert got is not None
    return got
