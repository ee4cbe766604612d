"""A map file's tables editing a VASL layout: "take board 2 and change it", with no lossy import.

With ``[map] vasl_boards = ...`` the file's ``[levels]``, ``[terrain]``, ``[hexsides]`` and
``[roads]`` tables (the map-file keys of ``docs/mapfile.md``) are drawn onto the VASL raster:
a ``[terrain]`` hex is filled with that terrain (its hexside terrain kept), a ``[levels]`` hex is
raised or lowered as a whole, hexside terrain and roads are drawn as in a map file.  Terrain
names resolve to VASL's own table by their VASL name (``woods`` -> "Woods").
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from hexwx.errors import UsageError
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import parse_hexside
from hexwx.hexmap.raster import HEXSIDE_HALF_WIDTH, draw, strip
from hexwx.hexmap.terrain import HEX_KEYS, HEXSIDE_KEYS, catalogue_type
from hexwx.io.tomlfile import Table

#: The tables that may edit a VASL layout.
EDIT_TABLES = ("levels", "terrain", "hexsides", "roads")
LEVEL_RANGE = (-2, 9)
ROAD_HALF_WIDTH = 4.0
ROAD_KINDS = {"dirt": ("road", 1), "paved": ("paved road", 2)}


def _hex(m: HexMap, table: Table, key: str, name: object) -> int:
    if not isinstance(name, str):
        raise table.error(key, f"expected a hex name like '2I4', got {name!r}")
    try:
        return m.grid.parse(name)
    except UsageError:
        raise table.error(key, f"hex {name!r} is not on this map") from None


def _vasl_code(m: HexMap, table: Table, key: str) -> int:
    name = catalogue_type(key).name
    try:
        return m.table.code_named(name)
    except UsageError:
        raise table.error(key, f"terrain {name!r} is not in VASL's terrain table {m.table.source}") from None


def edit_layout(m: HexMap, doc: Table) -> HexMap:
    """``m`` (a VASL layout) with the edit tables of map file ``doc`` drawn on it."""
    if not any(k in doc for k in EDIT_TABLES):
        return m
    elevation = m.elevation.copy()
    terrain = m.terrain.copy()
    hex_at = m.geometry.hex_at
    hexside_px = m.table.arrays()["hexside"][terrain].astype(bool)

    if "levels" in doc:
        lv = doc.table("levels")
        seen: dict[int, str] = {}
        for key, _ in lv.items():
            try:
                level = int(key)
            except ValueError:
                raise lv.error(key, "expected a whole-number level as the key, e.g. 1 = [\"2C4\"]") from None
            if not LEVEL_RANGE[0] <= level <= LEVEL_RANGE[1]:
                raise lv.error(key, f"level {level} outside {LEVEL_RANGE[0]}..{LEVEL_RANGE[1]}")
            for name in lv.list(key):
                h = _hex(m, lv, key, name)
                if h in seen:
                    raise lv.error(key, f"hex {name!r} already has level {seen[h]}")
                seen[h] = key
                elevation[hex_at == h] = level

    if "terrain" in doc:
        tt = doc.table("terrain")
        owner: dict[int, str] = {}
        for key, _ in tt.items():
            if key not in HEX_KEYS:
                hint = " (hexside terrain goes in [hexsides])" if key in HEXSIDE_KEYS else ""
                raise tt.error(key, f"unknown terrain {key!r}{hint}; expected one of {', '.join(HEX_KEYS)}")
            code = _vasl_code(m, tt, key)
            for name in tt.list(key):
                h = _hex(m, tt, key, name)
                if h in owner:
                    raise tt.error(key, f"hex {name!r} is already {owner[h]!r}")
                owner[h] = key
                terrain[(hex_at == h) & ~hexside_px] = code

    shapes: list[tuple[list[tuple[float, float]], int]] = []
    declared = np.zeros((len(m.grid), 6), np.int8)
    if "roads" in doc:
        rt = doc.table("roads")
        for kind, _ in rt.items():
            if kind not in ROAD_KINDS:
                raise rt.error(kind, f"unknown road kind {kind!r}; expected dirt or paved")
            key, level = ROAD_KINDS[kind]
            code = _vasl_code(m, rt, key)
            for j, run in enumerate(rt.list(kind)):
                if not isinstance(run, list) or len(run) < 2:
                    raise rt.error(f"{kind}[{j}]", "expected a list of at least two adjacent hexes")
                hexes = [_hex(m, rt, f"{kind}[{j}]", n) for n in run]
                for a, b in zip(hexes, hexes[1:]):
                    try:
                        side = m.grid.side_towards(a, b)
                    except UsageError as exc:
                        raise rt.error(f"{kind}[{j}]", str(exc)) from None
                    declared[a, side] = level
                    declared[b, (side + 3) % 6] = level
                    shapes.append((strip(m.grid.centre(a), m.grid.centre(b), ROAD_HALF_WIDTH), code))

    if "hexsides" in doc:
        hs = doc.table("hexsides")
        for key, _ in hs.items():
            if key not in HEXSIDE_KEYS:
                raise hs.error(key, f"unknown hexside terrain {key!r}; expected one of {', '.join(HEXSIDE_KEYS)}")
            code = _vasl_code(m, hs, key)
            for spec in hs.list(key):
                try:
                    name, side = parse_hexside(spec)
                except UsageError as exc:
                    raise hs.error(key, str(exc)) from None
                corners = m.grid.corners(_hex(m, hs, key, name))
                shapes.append((strip(corners[side], corners[(side + 1) % 6], HEXSIDE_HALF_WIDTH), code))

    if shapes:
        terrain = draw(terrain, shapes)
    edited = replace(m, elevation=elevation, terrain=terrain, source=doc.source)
    if declared.any():
        edited = replace(edited, roads=np.maximum(edited.road_sides, declared))
    return edited
