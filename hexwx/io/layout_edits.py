"""A map file's tables editing a VASL layout: "take board 2 and change it", with no lossy import.

With ``[map] vasl_boards = ...`` the file's ``[levels]``, ``[terrain]``, ``[hexsides]`` and
``[roads]`` tables (the map-file keys of ``docs/mapfile.md``) are drawn onto the VASL raster:
a ``[terrain]`` hex is filled with that terrain (its hexside terrain kept), a ``[levels]`` hex is
raised or lowered as a whole, hexside terrain and roads are drawn as in a map file.  Terrain
names resolve to VASL's own table by their VASL name (``woods`` -> "Woods").
"""
from __future__ import annotations

import numpy as np

from hexwx.errors import UsageError
from hexwx.hexmap.board import HexMap, redrawn
from hexwx.hexmap.coords import parse_hexside
from hexwx.hexmap.raster import HEXSIDE_HALF_WIDTH, draw, strip
from hexwx.hexmap.terrain import HEXSIDE_KEYS, catalogue_type
from hexwx.io.edit_tables import ROAD_HALF_WIDTH, read_levels, read_roads, read_terrain, table_hex
from hexwx.io.tomlfile import Table

#: The tables that may edit a VASL layout.
EDIT_TABLES = ("levels", "terrain", "hexsides", "roads")


def _hex(m: HexMap, table: Table, key: str, name: object) -> int:
    return table_hex(m.grid, table, key, name, example="2I4")


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

    for h, level in read_levels(doc, m.grid, example="2C4").items():
        elevation[hex_at == h] = level
    if "terrain" in doc:
        tt = doc.table("terrain")
        for key, hexes in read_terrain(doc, m.grid, example="2C4").items():
            code = _vasl_code(m, tt, key)
            for h in hexes:
                terrain[(hex_at == h) & ~hexside_px] = code

    shapes: list[tuple[list[tuple[float, float]], int]] = []
    declared = np.zeros((len(m.grid), 6), np.int8)
    if "roads" in doc:
        rt = doc.table("roads")
        for step in read_roads(doc, m.grid, example="2C4"):
            declared[step.a, step.side] = step.level
            declared[step.b, (step.side + 3) % 6] = step.level
            shapes.append((strip(m.grid.centre(step.a), m.grid.centre(step.b), ROAD_HALF_WIDTH),
                           _vasl_code(m, rt, step.terrain)))

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
    edited = redrawn(m, elevation=elevation, terrain=terrain, source=doc.source)
    if declared.any():
        edited = redrawn(edited, roads=np.maximum(edited.road_sides, declared))
    return edited
