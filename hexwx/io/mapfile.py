"""Reading hexwx map files (TOML) into a :class:`~hexwx.hexmap.board.HexMap`.

A map file lists ground levels and terrain by hex (whole hexes), hexside terrain, roads, and
optional explicit depictions of terrain inside hexes as polygons.  On loading, everything is
drawn into a pixel raster in VASL's geometry (DESIGN principle 2), so the same LOS engine
serves map files and VASL boards.  The format is documented in ``docs/mapfile.md``.
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Sequence

import numpy as np

from typing import TYPE_CHECKING

from hexwx.hexmap.board import HexMap, seed
from hexwx.hexmap.coords import HEX_WIDTH_PX, Grid, parse_hexside
from hexwx.errors import HexwxError, UsageError
from hexwx.hexmap.transform import transformed
from hexwx.io import mapcache
from hexwx.io.layout import load_layout, metadata_path, vasl_dir_of
from hexwx.io.ssr import ssr_changes
from hexwx.hexmap.pixelgeom import build_geometry
from hexwx.hexmap.terrain import CATALOGUE, HEX_KEYS, HEXSIDE_KEYS, catalogue_type

if TYPE_CHECKING:  # the TOML reader and the drawing code (Pillow) load only on a cache miss
    from hexwx.io.tomlfile import Table

#: How far (in hex widths from the centre) a depiction's points may reach: the hex itself
#: reaches about 0.67; a little more lets terrain run to and over its hexsides.
DEPICTION_REACH = 1.0
MAP_KEYS = ("map", "levels", "terrain", "hexsides", "roads", "depiction", "movement")


def _hex(grid: Grid, table: Table, key: str, name: object) -> int:
    from hexwx.io.edit_tables import table_hex
    return table_hex(grid, table, key, name)


def load_mapfile(path: str | Path, *, vasl_dir: str | Path | None = None,
                 vasl_metadata: str | Path | None = None, ssr: Sequence[str] = ()) -> HexMap:
    """Read a hexwx TOML map; DataError naming the file and key on any problem.

    ``[map] vasl_boards`` lays out VASL boards (edited by the file's tables, see
    :mod:`hexwx.io.layout_edits`); ``[map] ssr`` and then ``ssr`` name VASL terrain SSRs.
    The map and its derived arrays come from the on-disk cache (:mod:`hexwx.io.mapcache`)
    while the file, VASL's terrain table and the boards it lays out are unchanged.
    """
    key = _cache_key(path, vasl_dir, vasl_metadata, ssr)
    hit = mapcache.load(key)
    if hit is not None:
        return hit
    m = _read_mapfile(path, vasl_dir=vasl_dir, vasl_metadata=vasl_metadata, ssr=ssr)
    boards = sorted({p for p, *_ in m.board_images} | {a for _, a, *_ in m.overlay_art})
    return mapcache.store(key, m, more_inputs=boards + sorted({os.path.dirname(p) or "." for p in boards}))


def _cache_key(path: str | Path, vasl_dir: str | Path | None, vasl_metadata: str | Path | None,
               ssr: Sequence[str]) -> mapcache.Key | None:
    """The cache key of a map file: the file, the SSRs asked for, and VASL's terrain table and
    board folder as they would be found (a map file may name VASL SSRs and boards)."""
    try:
        meta: str | None = str(metadata_path(vasl_metadata, vasl_dir))
    except UsageError:
        meta = None
    folder = vasl_dir_of(vasl_dir)
    request = {"path": str(path), "ssr": list(ssr), "meta": meta,
               "vasl_dir": None if folder is None else str(folder)}
    inputs = [path] + ([meta] if meta is not None and os.path.isfile(meta) else [])
    return mapcache.map_key("mapfile", request, inputs)


def _read_mapfile(path: str | Path, *, vasl_dir: str | Path | None, vasl_metadata: str | Path | None,
                  ssr: Sequence[str]) -> HexMap:
    from hexwx.io.tomlfile import load_toml
    doc = load_toml(path)
    doc.check_keys(MAP_KEYS)
    head = doc.table("map")
    head.check_keys(("name", "boards", "default", "description", "vasl_boards", "ssr",
                     "persist_elevation"))
    name = head.str("name", Path(path).stem)
    rules = list(head.list("ssr", []))
    if not all(isinstance(r, str) for r in rules):
        raise head.error("ssr", f"expected a list of VASL SSR names like [\"NoGrain\"], got {rules!r}")
    rules += list(ssr)
    if "vasl_boards" in head:
        return _load_vasl_layout(doc, head, name, rules, vasl_dir, vasl_metadata)
    if rules:
        m = _load_drawn(doc, head, name, path)
        try:
            return transformed(m, ssr_changes(rules, metadata_path(vasl_metadata, vasl_dir)))
        except HexwxError as exc:
            raise head.error("ssr", str(exc)) from None
    return _load_drawn(doc, head, name, path)


def _load_vasl_layout(doc: Table, head: Table, name: str, rules: list[str],
                      vasl_dir: str | Path | None, vasl_metadata: str | Path | None) -> HexMap:
    """A map file laying out VASL boards, edited by its own tables."""
    from hexwx.io.layout_edits import edit_layout
    if "boards" in head or "default" in head or "depiction" in doc or "movement" in doc:
        raise head.error("vasl_boards", "a map of VASL boards takes no boards/default keys and no "
                         "[[depiction]] or [movement] tables (edit the boards with [terrain], "
                         "[levels], [hexsides], [roads])")
    rows = head.raw("vasl_boards")
    persist = head.bool("persist_elevation", False)
    try:
        ssr_changes(rules, metadata_path(vasl_metadata, vasl_dir))
    except HexwxError as exc:
        raise head.error("ssr", str(exc)) from None
    try:
        m = load_layout(rows, vasl_dir=vasl_dir, metadata=vasl_metadata, ssr=tuple(rules), name=name,
                        persist_elevation=persist)
    except UsageError as exc:
        raise head.error("vasl_boards", str(exc)) from None
    return edit_layout(m, doc)


def _load_drawn(doc: Table, head: Table, name: str, path: str | Path) -> HexMap:
    """A map file drawn from its own tables."""
    from hexwx.hexmap.raster import HEXSIDE_HALF_WIDTH, draw, strip
    from hexwx.io.edit_tables import ROAD_HALF_WIDTH, read_levels, read_roads, read_terrain
    boards = head.list("boards", [[""]])
    if not (boards and all(isinstance(r, list) and r and all(isinstance(b, (str, int)) for b in r)
                           for r in boards)):
        raise head.error("boards", f"expected rows of board labels like [[\"1\", \"2\"]], got {boards!r}")
    try:
        grid = Grid.single(str(boards[0][0])) if len(boards) == 1 and len(boards[0]) == 1 \
            else Grid.layout([[str(b) for b in r] for r in boards])
    except UsageError as exc:
        raise head.error("boards", str(exc)) from None
    default = head.str("default", "open", choices=HEX_KEYS)
    n = len(grid)
    levels = np.zeros(n, np.int32)
    hex_code = np.full(n, catalogue_type(default).code, np.int32)

    for h, level in read_levels(doc, grid).items():
        levels[h] = level
    for key, hexes in read_terrain(doc, grid).items():
        hex_code[hexes] = catalogue_type(key).code

    geo = build_geometry(grid)
    W, H = grid.width_px, grid.height_px
    hex_at = geo.hex_at
    terrain = np.where(hex_at >= 0, hex_code[np.maximum(hex_at, 0)], hex_code[0]).astype(np.uint8)
    elevation = np.where(hex_at >= 0, levels[np.maximum(hex_at, 0)], 0).astype(np.int8)

    shapes: list[tuple[list[tuple[float, float]], int]] = []  # drawn in order, later on top
    fills = hex_code.copy()  # whole-hex fills; hexes with a depiction are drawn, not filled
    # explicit depictions of terrain inside hexes (polygons in hex widths around the centre)
    for i, dep in enumerate(doc.tables("depiction", [])):
        dep.check_keys(("hex", "terrain", "polygon"))
        h = _hex(grid, dep, "hex", dep.raw("hex"))
        key = dep.str("terrain")
        if key not in HEX_KEYS:
            raise dep.error("terrain", f"unknown terrain {key!r}; expected one of {', '.join(HEX_KEYS)}")
        pts = dep.list("polygon")
        if len(pts) < 3 or not all(isinstance(p, list) and len(p) == 2 and
                                   all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                       for v in p) for p in pts):
            raise dep.error("polygon", "expected at least three [x, y] points in hex widths")
        bad = [p for p in pts if not all(math.isfinite(v) and abs(v) <= DEPICTION_REACH for v in p)]
        if bad:
            raise dep.error("polygon", f"point {bad[0]!r} is not inside the hex; expected x and y "
                                       f"from -{DEPICTION_REACH} to {DEPICTION_REACH} hex widths "
                                       f"around the centre")
        fills[h] = -1
        cx, cy = grid.centre(h)
        poly = [(cx + float(px) * HEX_WIDTH_PX, cy + float(py) * HEX_WIDTH_PX) for px, py in pts]
        shapes.append((poly, catalogue_type(key).code))

    # roads: strips from centre to centre, and the road hexsides for movement
    roads = np.zeros((n, 6), np.int8)
    for step in read_roads(doc, grid):
        roads[step.a, step.side] = step.level
        roads[step.b, (step.side + 3) % 6] = step.level
        shapes.append((strip(grid.centre(step.a), grid.centre(step.b), ROAD_HALF_WIDTH),
                       catalogue_type(step.terrain).code))

    # hexside terrain drawn along the hexside line
    if "hexsides" in doc:
        hs = doc.table("hexsides")
        side_owner: dict[tuple[int, int], tuple[str, str]] = {}
        for key, _ in hs.items():
            if key not in HEXSIDE_KEYS:
                raise hs.error(key, f"unknown hexside terrain {key!r}; expected one of {', '.join(HEXSIDE_KEYS)}")
            code = catalogue_type(key).code
            for spec in hs.list(key):
                try:
                    name_, side = parse_hexside(spec)
                except UsageError as exc:
                    raise hs.error(key, str(exc)) from None
                h = _hex(grid, hs, key, name_)
                o = int(grid.neighbours[h, side])
                one = min((h, side), (o, (side + 3) % 6)) if o >= 0 else (h, side)
                if one in side_owner:   # a hexside is shared: D5:NE is E5:SW
                    before, as_written = side_owner[one]
                    same = "" if as_written == spec else f" (the same hexside as {as_written!r})"
                    raise hs.error(key, f"hexside {spec!r}{same} already has {before}; one hexside "
                                        "takes one hexside terrain")
                side_owner[one] = (key, str(spec))
                corners = grid.corners(h)
                shapes.append((strip(corners[side], corners[(side + 1) % 6], HEXSIDE_HALF_WIDTH), code))

    if shapes:
        terrain = draw(terrain, shapes)
    overrides: dict = {}
    if "movement" in doc:
        mv = doc.table("movement")
        for key, value in mv.items():
            if not isinstance(value, dict):
                raise mv.error(key, f"expected a table like {{ infantry = 2 }}, got {value!r}")
            overrides[key] = dict(value)
        from hexwx.movement.costs import MOVE_CLASSES, Chart
        for unit in MOVE_CLASSES:  # every cost checked now, not when a path first needs it
            Chart(CATALOGUE, unit, overrides, str(path))
    m = HexMap(name=name, grid=grid, table=CATALOGUE, elevation=elevation, terrain=terrain,
               source=str(path), kind="hexwx", move_overrides=overrides, roads=roads, fills=fills)
    return seed(m, geometry=geo)  # built once, above: the map does not build it again


