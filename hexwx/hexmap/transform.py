"""Terrain transformations: rules that change a map's raster (SSRs, snow), as data.

A :class:`TerrainChange` is one of VASL's four pixel rules (the ``LOSSSRule`` types of its
``SharedBoardMetadata.xml``): terrain -> terrain, level -> level, terrain -> level (the pixels
become Open Ground at that level) and level -> terrain (the pixels drop to level 0 and take the
terrain).  Changes apply one after another, each to the result of the one before, so order
matters (``WoodsToBrush`` then ``BrushToOpenGround`` clears woods; the reverse leaves brush).

:func:`transformed` gives a new immutable :class:`HexMap` (cached per map and rule list); every
layer (LOS, movement, render) reads the transformed map, so one transformation serves them all.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from hexwx.errors import DataError, UsageError
from hexwx.hexmap.board import HexMap, redrawn
from hexwx.hexmap.terrain import TerrainTable

#: The kinds of change, named as VASL's rule types.
KINDS = ("terrainMap", "elevationMap", "terrainToElevationMap", "elevationToTerrainMap")


@dataclass(frozen=True)
class TerrainChange:
    """One raster rule: ``kind`` (one of :data:`KINDS`), from and to value as written (terrain
    names or levels), the rule's name (e.g. ``"NoGrain"``) and its citation."""

    kind: str
    from_value: str
    to_value: str
    name: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DataError(f"terrain change {self.name or '?'}: unknown kind {self.kind!r}; "
                            f"expected one of {', '.join(KINDS)}")


def _level(value: str, change: TerrainChange) -> int:
    try:
        return int(value)
    except ValueError:
        raise DataError(f"terrain change {change.name!r}: {value!r} is not a whole level "
                        f"(in {change.rule or 'its rule data'})") from None


def _code(table: TerrainTable, name: str) -> int | None:
    """The code of terrain ``name`` in ``table``; None if the table has no such terrain."""
    try:
        return table.code_named(name)
    except UsageError:
        return None


def apply_changes(elevation: np.ndarray, terrain: np.ndarray, table: TerrainTable,
                  changes: tuple[TerrainChange, ...], fills: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """New (elevation, terrain, fills) arrays with ``changes`` applied in order.

    A terrain the table does not know (e.g. "Mudflats" on a map-file catalogue) matches
    nothing; a target terrain it does not know is an error naming the change.
    """
    elev = elevation.copy()
    terr = terrain.copy()
    fl = None if fills is None else fills.copy()
    for ch in changes:
        if ch.kind == "terrainMap":
            src = _code(table, ch.from_value)
            if src is None:
                continue
            dst = _need(table, ch.to_value, ch)
            terr[terr == src] = dst
            if fl is not None:
                fl[fl == src] = dst
        elif ch.kind == "elevationMap":
            lo, hi = _level(ch.from_value, ch), _level(ch.to_value, ch)
            elev[elev == lo] = hi
        elif ch.kind == "terrainToElevationMap":
            src = _code(table, ch.from_value)
            level = _level(ch.to_value, ch)
            if src is None:
                continue
            open_ = _need(table, "Open Ground", ch)
            sel = terr == src
            elev[sel] = level
            terr[sel] = open_
            if fl is not None:
                fl[fl == src] = open_
        else:  # elevationToTerrainMap
            level = _level(ch.from_value, ch)
            dst = _need(table, ch.to_value, ch)
            sel = elev == level
            elev[sel] = 0
            terr[sel] = dst
    return elev, terr, fl


def changes_anything(change: TerrainChange, table: TerrainTable, terrain_codes: frozenset[int],
                     levels: frozenset[int]) -> bool:
    """Whether ``change`` would change a map whose raster holds ``terrain_codes`` and ground
    ``levels`` (as :func:`apply_changes` applies it): its from-terrain or from-level is there
    and it maps to something else."""
    if change.kind in ("terrainMap", "terrainToElevationMap"):
        src = _code(table, change.from_value)
        if src is None or src not in terrain_codes:
            return False
        if change.kind == "terrainToElevationMap":
            return _level(change.to_value, change) is not None      # (a bad level raises)
        return _code(table, change.to_value) != src
    lo = _level(change.from_value, change)
    if change.kind == "elevationMap":
        return lo in levels and _level(change.to_value, change) != lo
    return lo in levels                                  # elevationToTerrainMap


def _need(table: TerrainTable, name: str, change: TerrainChange) -> int:
    code = _code(table, name)
    if code is None:
        raise DataError(f"terrain change {change.name!r}: terrain {name!r} is not in the terrain "
                        f"table {table.source}")
    return code


def transformed(m: HexMap, changes: tuple[TerrainChange, ...]) -> HexMap:
    """``m`` with ``changes`` applied to its raster (the same map if there are none)."""
    if not changes:
        return m
    return _transformed(m, tuple(changes))


@lru_cache(maxsize=32)
def _transformed(m: HexMap, changes: tuple[TerrainChange, ...]) -> HexMap:
    elev, terr, fills = apply_changes(m.elevation, m.terrain, m.table, changes, m.fills)
    if np.array_equal(elev, m.elevation) and np.array_equal(terr, m.terrain) and (
            fills is None or (m.fills is not None and np.array_equal(fills, m.fills))):
        return m
    return redrawn(m, elevation=elev, terrain=terr, fills=fills)
