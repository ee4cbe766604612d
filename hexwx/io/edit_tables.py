"""The ``[levels]``, ``[terrain]`` and ``[roads]`` tables of a map file, read once for both uses.

A drawn map file fills its hexes from them (:mod:`hexwx.io.mapfile`); a map file that lays out
VASL boards draws them onto the boards' raster (:mod:`hexwx.io.layout_edits`).  Both get the same
checks and the same one-line errors, naming the table key and the hex as written (a half hex on a
board join answers to both boards' names, and the error says which hex it is the same as).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from hexwx.errors import UsageError
from hexwx.hexmap.coords import Grid
from hexwx.hexmap.terrain import HEX_KEYS, HEXSIDE_KEYS
from hexwx.io.tomlfile import Table

LEVEL_RANGE = (-2, 9)
ROAD_HALF_WIDTH = 4.0
#: Road kind in a map file -> (terrain key, road level for movement: 1 dirt, 2 paved; B3).
ROAD_KINDS = {"dirt": ("road", 1), "paved": ("paved road", 2)}


def table_hex(grid: Grid, table: Table, key: str, name: object, *, example: str = "C4") -> int:
    """The hex named ``name`` under ``key`` of ``table``, or a one-line error naming both."""
    if not isinstance(name, str):
        raise table.error(key, f"expected a hex name like {example!r}, got {name!r}")
    try:
        return grid.parse(name)
    except UsageError:
        raise table.error(key, f"hex {name!r} is not on this map") from None


def hexes_once(grid: Grid, table: Table, key: str, owner: dict[int, tuple[str, str]],
               clash: Callable[[str], str], *, example: str = "C4") -> Iterator[int]:
    """The hexes listed under ``key`` of ``table``, each claimed for ``key`` in ``owner`` (hex ->
    (key, name as written)); a hex some key already holds is a one-line error whose end
    ``clash(that key)`` words."""
    for written in table.list(key):
        h = table_hex(grid, table, key, written, example=example)
        if h in owner:
            before, as_written = owner[h]
            raise table.error(key, f"hex {written!r}{same_as(written, as_written)} {clash(before)}")
        owner[h] = (key, written)
        yield h


def same_as(written: str, before: str) -> str:
    """" (the same hex as '1GG5')" when a hex is written under another name (a half hex on a
    board join answers to both boards' names), else ""."""
    return "" if written.upper() == before.upper() else f" (the same hex as {before!r})"


def read_levels(doc: Table, grid: Grid, *, example: str = "C4") -> dict[int, int]:
    """Hex -> ground level from ``[levels]`` (``1 = ["C4", ...]``); each hex at most once."""
    out: dict[int, int] = {}
    if "levels" not in doc:
        return out
    lv = doc.table("levels")
    seen: dict[int, tuple[str, str]] = {}
    for key, _ in lv.items():
        try:
            level = int(key)
        except ValueError:
            raise lv.error(key, f"expected a whole-number level as the key, e.g. 1 = [\"{example}\"]") from None
        if not LEVEL_RANGE[0] <= level <= LEVEL_RANGE[1]:
            raise lv.error(key, f"level {level} outside {LEVEL_RANGE[0]}..{LEVEL_RANGE[1]}")
        for h in hexes_once(grid, lv, key, seen, lambda before: f"already has level {before}",
                            example=example):
            out[h] = level
    return out


def read_terrain(doc: Table, grid: Grid, *, example: str = "C4") -> dict[str, list[int]]:
    """Terrain key -> its hexes from ``[terrain]`` (``woods = ["C4", ...]``); a hex has one terrain."""
    out: dict[str, list[int]] = {}
    if "terrain" not in doc:
        return out
    tt = doc.table("terrain")
    owner: dict[int, tuple[str, str]] = {}
    for key, _ in tt.items():
        if key not in HEX_KEYS:
            hint = " (hexside terrain goes in [hexsides])" if key in HEXSIDE_KEYS else ""
            raise tt.error(key, f"unknown terrain {key!r}{hint}; expected one of {', '.join(HEX_KEYS)}")
        out.setdefault(key, []).extend(
            hexes_once(grid, tt, key, owner, lambda before: f"is already {before!r}",
                       example=example))
    return out


@dataclass(frozen=True)
class RoadStep:
    """One step of a road run: from hex ``a`` across its hexside ``side`` into hex ``b``."""

    terrain: str   # terrain key of the road ("road", "paved road")
    level: int     # 1 dirt, 2 paved (movement)
    a: int
    b: int
    side: int


def read_roads(doc: Table, grid: Grid, *, example: str = "C4") -> list[RoadStep]:
    """Every step of every run in ``[roads]`` (``dirt = [["C4", "D4", ...]]``), in file order."""
    out: list[RoadStep] = []
    if "roads" not in doc:
        return out
    rt = doc.table("roads")
    for kind, _ in rt.items():
        if kind not in ROAD_KINDS:
            raise rt.error(kind, f"unknown road kind {kind!r}; expected dirt or paved")
        key, level = ROAD_KINDS[kind]
        for j, run in enumerate(rt.list(kind)):
            where = f"{kind}[{j}]"
            if not isinstance(run, list) or len(run) < 2:
                raise rt.error(where, "expected a list of at least two adjacent hexes")
            hexes = [table_hex(grid, rt, where, nm, example=example) for nm in run]
            for a, b in zip(hexes, hexes[1:]):
                try:
                    side = grid.side_towards(a, b)
                except UsageError as exc:
                    raise rt.error(where, str(exc)) from None
                out.append(RoadStep(key, level, a, b, side))
    return out
