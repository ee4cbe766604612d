"""Hillocks as the LOS rules count them: each group of connected hillock hexes is one hillock
(ASL F6.4; VASL's ``Map.buildHillocks``).

A hex is a hillock hex when its centre terrain is Hillock (its inherent terrain, LOS-SPEC 2.2
step 6).  :func:`hillock_groups` numbers the hillocks of a map once, for the LOS kernel's
per-hex column ``hillock`` (:mod:`hexwx._native`).
"""
from __future__ import annotations

import numpy as np

from hexwx.hexmap.terrain import F_HILLOCK


def hillock_groups(centre: np.ndarray, flags: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """int32 [n]: the hillock of each hex, numbered by its lowest hex id, or -1 for a hex that
    is not a hillock hex.  ``centre`` [n] holds the hexes' centre terrain codes, ``flags`` [256]
    the terrain name flags, ``neighbours`` [n, 6] the hex across each hexside (-1: none).

    Two hillock hexes sharing a hexside belong to one hillock.  A map without hillocks costs
    one pass over ``centre``; otherwise labels spread to the lowest id among neighbours until
    they settle (as many rounds as a hillock is wide)."""
    hill = (flags[centre] & F_HILLOCK) != 0
    n = len(centre)
    group = np.where(hill, np.arange(n), n).astype(np.int64)
    if hill.any():
        nb = np.where(neighbours >= 0, neighbours, n)
        ext = np.append(group, n)
        while True:
            low = np.minimum(group, ext[nb].min(axis=1))
            low[~hill] = n
            if np.array_equal(low, group):
                break
            group = low
            ext[:n] = group
    return np.where(hill, group, -1).astype(np.int32)
