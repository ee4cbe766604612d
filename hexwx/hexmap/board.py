"""The immutable hex map: grid, terrain raster, derived per-hex terrain, ready for queries.

A :class:`HexMap` is built once from a VASL board archive or a hexwx map file (see
:mod:`hexwx.io.load`).  Everything queries need is precomputed here: pixel geometry, per-hex
terrain, and the array tuples the compiled LOS kernel reads.  Nothing in it changes afterwards;
weather and other state live outside (DESIGN principle 5).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, Callable, Mapping, Protocol

import numpy as np

from hexwx.hexmap.coords import Grid, Hex
from hexwx.errors import UsageError
from hexwx.frozen import freeze, frozen_mapping
from hexwx.validate import whole
from hexwx.hexmap.derive import HexTerrain, derive
from hexwx.hexmap.hillocks import hillock_groups
from hexwx.hexmap.pixelgeom import SIDE_TURNED, PixelGeometry, board_corner, build_geometry, turn_origin
from hexwx.hexmap.terrain import Category, TerrainTable, TerrainType


class DerivedStore(Protocol):
    """Where a map keeps arrays derived from it between processes (:mod:`hexwx.io.mapcache`)."""

    def load(self, name: str) -> np.ndarray | None:
        """The array stored as ``name``, or None when there is none (or it is unreadable)."""

    def save(self, name: str, value: np.ndarray) -> None:
        """Keep ``value`` as ``name`` (silently nothing when it cannot be written)."""


#: Derived data a loader may hand over ready-made (:func:`seed`): the cached properties that
#: depend only on the map's fields.
SEEDABLE = ("geometry", "hexes", "kernel_map", "kernel_terrain")


@dataclass(frozen=True, eq=False, repr=False)  # (its own __repr__ below)
class HexMap:
    """A loaded hex map.  ``elevation``/``terrain`` are x-major rasters [width, height]."""

    name: str
    grid: Grid
    table: TerrainTable
    elevation: np.ndarray
    terrain: np.ndarray
    source: str = ""
    kind: str = "hexwx"               # "hexwx" map file or "vasl" archive
    stairways: np.ndarray | None = None
    image_bytes: bytes | None = field(default=None, repr=False)  # a VASL board's own image
    move_overrides: Mapping[str, Any] = field(default_factory=dict, repr=False)
    roads: np.ndarray | None = field(default=None, repr=False)   # bool [n, 6]: road hexsides (map files)
    fills: np.ndarray | None = field(default=None, repr=False)   # int32 [n]: whole-hex fill code, -1 none
    #: VASL layouts: (archive path, x, y, rotated, clip) of each board's art on the map's
    #: pixels, painted in this order; clip (x, y, w, h) in the board's pixels keeps only that
    #: part of the art (a cropped board's crop), None the whole art.
    board_images: tuple[tuple[str, int, int, bool, tuple[int, int, int, int] | None], ...] = \
        field(default=(), repr=False)
    #: VASL overlays on those boards: (index into board_images, overlay archive, image entry,
    #: x, y of the image on the upright board), in drawing order.
    overlay_art: tuple[tuple[int, str, str, int, int], ...] = field(default=(), repr=False)
    #: Which of :attr:`overlay_art` were laid with "persist elevation" (indices): the board
    #: under them keeps its open ground in LOS, and pictures show the board there.
    overlay_persist: tuple[int, ...] = field(default=(), repr=False)
    #: VASL shows this map turned round: every board of its layout is rotated, and hexwx
    #: composed the same boards upright in reverse order (hexwx.io.layout).  Pictures turn it
    #: back (hexwx.render, the viewer); hex names and answers do not depend on it.
    shown_turned: bool = False
    #: Arrays :meth:`derived` made and the on-disk store of them (:meth:`keep_on_disk`); the
    #: derived properties are the standard library's ``cached_property``, filled in by
    #: :func:`seed` through ``object.__setattr__`` as a frozen dataclass sets its own fields.
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        freeze(self, "elevation", "terrain", "stairways", "roads", "fills")
        object.__setattr__(self, "move_overrides", frozen_mapping(self.move_overrides))

    def __repr__(self) -> str:
        boards = ", ".join(b.label for b in self.grid.boards if b.label)
        where = f" boards {boards}" if boards else ""
        return (f"HexMap({self.name!r}, {self.kind},{where} {len(self.grid)} hexes, "
                f"{self.elevation.shape[0]} x {self.elevation.shape[1]} px)")

    # -- derived data (computed once) ------------------------------------------------------
    def derived(self, name: str, build: Callable[[], np.ndarray]) -> np.ndarray:
        """The array ``name`` derived from this map by ``build()``, computed once: kept on the
        map, and kept on disk when the map came through the on-disk cache (its
        :class:`DerivedStore`, set by :mod:`hexwx.io.mapcache`), so a later process reads it
        instead of deriving it again.  Read-only."""
        value = self.kept(name)
        if value is None:
            value = np.asarray(build())
            store: DerivedStore | None = self._memo.get("_store")
            if store is not None:
                store.save(name, value)
            value.setflags(write=False)
            self._memo.setdefault("_derived", {})[name] = value
        return value

    def kept(self, name: str) -> np.ndarray | None:
        """The array :meth:`derived` made as ``name``, when it is in memory or in the on-disk
        map cache; None otherwise (nothing is built)."""
        memo: dict[str, np.ndarray] = self._memo.setdefault("_derived", {})
        if name in memo:
            return memo[name]
        store: DerivedStore | None = self._memo.get("_store")
        value = store.load(name) if store is not None else None
        if value is not None:
            value.setflags(write=False)
            memo[name] = value
        return value

    @property
    def kept_on_disk(self) -> bool:
        """Whether what :meth:`derived` makes is also kept in the on-disk map cache."""
        return "_store" in self._memo

    def keep_on_disk(self, store: DerivedStore) -> None:
        """From now on keep what :meth:`derived` makes in ``store`` too (the on-disk map cache
        gives a map it wrote or read its store)."""
        self._memo["_store"] = store

    def keep_derived(self, arrays: Mapping[str, np.ndarray]) -> None:
        """Take ``arrays`` as already derived (:meth:`derived`), e.g. read back from the
        on-disk map cache; the caller answers for them being what ``build`` would make."""
        memo = self._memo.setdefault("_derived", {})
        for name, value in arrays.items():
            value.setflags(write=False)
            memo[name] = value

    def derived_arrays(self) -> dict[str, np.ndarray]:
        """The arrays :meth:`derived` has made so far (for the on-disk cache to write)."""
        return dict(self._memo.get("_derived", {}))

    def holds(self, name: str) -> bool:
        """Whether the derived value ``name`` (:data:`SEEDABLE`) is computed or seeded."""
        return name in vars(self)

    @cached_property
    def geometry(self) -> PixelGeometry:
        return build_geometry(self.grid)

    @cached_property
    def hexes(self) -> HexTerrain:
        return derive(self.grid, self.geometry, self.elevation, self.terrain, self.table,
                      self.stairways)

    @cached_property
    def thread_capacity(self) -> int:
        """The most pixels one LOS thread on this map can hold (the kernel's scratch length):
        a walk visits at most one pixel per step along both axes, with room to spare."""
        return 2 * (self.grid.width_px + self.grid.height_px) + 64

    @cached_property
    def kernel_map(self) -> tuple[Any, ...]:
        """The packed array tuple ``M`` the LOS kernel reads (layout in hexwx._native)."""
        return kernel_arrays(self, self.geometry, self.hexes)

    @cached_property
    def kernel_terrain(self) -> tuple[np.ndarray, ...]:
        """The packed terrain attributes ``T = (TA [256, 15], split [256], fast class [256])``."""
        from hexwx._native import TA_COLUMNS
        a = self.table.arrays()
        cols = [np.zeros(256) if c == "split" else a[c] for c in TA_COLUMNS]
        from hexwx._native import FAST_BUILDING, FAST_END_SKIP, FAST_HEXSIDE, FAST_PLAIN
        fast = (a["plain"] * FAST_PLAIN + a["building"] * FAST_BUILDING
                + a["end_skip"] * FAST_END_SKIP + a["hexside"] * FAST_HEXSIDE).astype(np.int32)
        return (np.stack(cols, axis=1).astype(np.int32), a["split"].astype(np.float64), fast)

    @cached_property
    def _fills(self) -> np.ndarray:
        """Whole-hex fill code per hex (map files), -1 where the hex is drawn otherwise."""
        if self.fills is not None:
            return self.fills
        return np.full(len(self.grid), -1, np.int32)

    def _inherent_near(self, ht: HexTerrain) -> np.ndarray:
        """int8 [n]: the hex or a neighbour may be read as its own terrain on a hexspine
        (inherent centre terrain, or a map-file fill that is not plain)."""
        a = self.table.arrays()
        fills = self._fills
        inh = a["inherent"][ht.centre].astype(bool) | (
            (fills >= 0) & (a["plain"][np.maximum(fills, 0)] == 0))
        nb = self.grid.neighbours
        near: np.ndarray = inh | (inh[np.maximum(nb, 0)] & (nb >= 0)).any(axis=1)
        return near.astype(np.int8)

    def _repr_png_(self) -> bytes:
        """The map drawn with its terrain and levels, for notebooks."""
        from hexwx.render.core import map_png
        return map_png(self)

    def with_hexside_terrain(self, sides: tuple[tuple[Hex, int], ...], name: str) -> "HexMap":
        """A new map with terrain ``name`` (e.g. "Hedge") drawn on the given (hex, hexside)s.

        Hexsides that already carry hexside terrain keep it.  Used for weather that acts as
        hexside terrain, such as drifts (treated as hedges, E3 3.752).  Cached per map.
        """
        return _with_hexsides(self, tuple(sorted(set(sides))), name)

    # -- per-hex facts ---------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.grid)

    def parse(self, name: str) -> Hex:
        return self.grid.parse(name)

    def hex(self, h: Hex | str, param: str | None = None) -> Hex:
        """Hex id of ``h``, a name or an id (:meth:`Grid.hex`); UsageError if not on the map
        (naming the function parameter ``param`` when given)."""
        return self.grid.hex(h, param)

    def name_of(self, h: Hex) -> str:
        return self.grid.name(h)

    def ground_level(self, h: Hex) -> int:
        """Base ground level of hex ``h`` (the level at its centre dot)."""
        return int(self.hexes.base[h])

    def terrain_of(self, h: Hex) -> TerrainType:
        """The terrain of hex ``h``: a map file's fill, else the terrain at its centre dot."""
        if self.fills is not None and self.fills[h] >= 0:
            return self.table[int(self.fills[h])]
        return self.table[int(self.hexes.centre[h])]

    def hexside_terrain(self, h: Hex, side: int) -> TerrainType | None:
        code = int(self.hexes.side_terrain[h, side])
        return None if code < 0 else self.table[code]

    def levels_at(self, h: Hex | str) -> range:
        """The location levels of hex ``h`` (a name or an id): 0, its building levels and its
        rooftop (B23.8).  Cellars are not modelled."""
        i = h if type(h) is int and 0 <= h < len(self.grid) else self.hex(h)  # (hot: ids pass)
        top = int(self.hexes.levels[i]) + (1 if self.hexes.rooftop[i] else 0)
        return range(0, top + 1)

    def check_level(self, h: Hex, level: int, param: str | None = None) -> int:
        """``level`` if it is a whole number and a location of hex ``h``; else a UsageError
        naming the function parameter ``param`` (when given)."""
        level = whole(level, param or "level")
        lv = self.levels_at(h)
        if level not in lv:
            head = f"bad {param}: " if param else ""
            where = self.name_of(h)
            if len(lv) == 1:
                raise UsageError(f"{head}level {level} does not exist in hex {where}: it has only "
                                 f"ground level 0 (no building levels)", param=param)
            raise UsageError(f"{head}level {level} does not exist in hex {where}: expected "
                             f"0-{lv[-1]}", param=param)
        return level

    def is_rooftop(self, h: Hex, level: int) -> bool:
        return bool(self.hexes.rooftop[h]) and level == int(self.hexes.levels[h]) + 1

    @cached_property
    def building_ids(self) -> np.ndarray:
        """int32 [n]: which building each hex belongs to (-1 for none).

        Reading of "the same building" (E3 3.8): a building is one drawn building, by its own
        extent.  Two adjacent building hexes are joined when the building's pixels run across
        their shared hexside (:func:`building_joins`); a building is every hex reached through
        such joins.  Two one-hex buildings side by side are two buildings.
        """
        return self.derived("building_ids", self._building_ids)

    def _building_ids(self) -> np.ndarray:
        n = len(self.grid)
        bld = np.array([self.terrain_of(h).is_building for h in range(n)])
        joins = building_joins(self, bld)
        ids = np.full(n, -1, np.int32)
        for start in np.flatnonzero(bld):
            if ids[start] >= 0:
                continue
            ids[start] = start
            stack = [int(start)]
            while stack:
                h = stack.pop()
                for k, o in enumerate(self.grid.neighbours[h]):
                    if o >= 0 and ids[o] < 0 and joins[h, k]:
                        ids[o] = start
                        stack.append(int(o))
        return ids

    def interior_building_hexside(self, name: str, side: int) -> bool:
        """True when hexside ``side`` of hex ``name`` lies inside one building: both hexes belong
        to it (:attr:`building_ids`).  A drift placed there is rolled again (E3 3.75)."""
        h = self.parse(name)
        o = int(self.grid.neighbours[h, side])
        bid = self.building_ids
        return o >= 0 and bid[h] >= 0 and bool(bid[h] == bid[o])

    @cached_property
    def road_sides(self) -> np.ndarray:
        """int8 [n, 6]: 0 no road across the hexside, 1 unpaved road, 2 paved road.

        Map files declare roads; on a VASL board the road is followed as drawn, from hex centre
        to hex centre (:func:`hexwx.hexmap.roads.drawn_road_sides`).
        """
        if self.roads is not None:
            return self.roads
        from hexwx.hexmap.roads import drawn_road_sides
        return self.derived("road_sides", lambda: drawn_road_sides(self))

    @cached_property
    def lowest_ground(self) -> np.ndarray:
        """int32 [n]: the lowest ground level drawn anywhere in each hex (a level-1 hill hex with
        a level-0 portion has 0; E3 3.311 example: fog "exists in the level 0 portion" of G4)."""
        return self.derived("lowest_ground", self._lowest_ground)

    def _lowest_ground(self) -> np.ndarray:
        n = len(self.grid)
        # which (hex, level) pairs occur: linear in pixels (np.minimum.at is slow on big maps),
        # a block of columns at a time (small temporaries)
        hex_at = self.geometry.hex_at
        pairs = np.zeros(n * 256, bool)
        for x0 in range(0, hex_at.shape[0], _BLOCK):
            key = hex_at[x0:x0 + _BLOCK] * 256      # int32: n * 256 stays far below 2**31
            key += self.elevation[x0:x0 + _BLOCK]
            key += 128
            pairs[key[key >= 0]] = True
        seen = pairs.reshape(n, 256)
        low: np.ndarray = np.where(seen.any(axis=1), seen.argmax(axis=1) - 128,
                                   self.hexes.base).astype(np.int32)
        return low

    @cached_property
    def max_ground_level(self) -> int:
        return int(self.hexes.base.max())

    @cached_property
    def min_ground_level(self) -> int:
        return int(self.hexes.base.min())


def kernel_arrays(m: HexMap, g: PixelGeometry, ht: HexTerrain) -> tuple[Any, ...]:
    """The packed array tuple ``M`` the LOS kernel reads for map ``m`` with geometry ``g`` and
    hex terrain ``ht`` (layout in hexwx._native): ``m.kernel_map`` is this with the map's own;
    a board turned round (``g.turned``) gets its frame, the map turned round about it."""
    grid = m.grid
    n = len(grid)
    frame = np.full(n, -1, np.int32)
    for f, i in enumerate(g.turned):
        frame[grid.owners == i] = f
    hx = np.stack([g.los_x, g.los_y, grid.col, grid.dy2, ht.centre, ht.base, ht.depression,
                   ht.levels, ht.rooftop, ht.stairway, ht.cliff.any(axis=1),
                   m._inherent_near(ht), np.zeros(n), m._fills, np.arange(n), frame,
                   m.lowest_ground,
                   hillock_groups(ht.centre, m.table.arrays()["flags"], grid.neighbours)],
                  axis=1).astype(np.int32)
    h6 = np.stack([g.side_on_map, grid.neighbours, ht.side_terrain, ht.loc_terrain,
                   ht.loc_depression, ht.cliff], axis=2).astype(np.int32)
    bbox = _bbox(g.ext)
    # packed per pixel (hex + 1, elevation + 128, terrain), row-major; packed and transposed
    # a block of columns at a time (cache-friendly, small temporaries: a plain transposition
    # is slow on maps of stacked boards)
    W, H = g.hex_at.shape
    pix = np.empty((H, W), np.int32)
    for x0 in range(0, W, _BLOCK):
        xm = g.hex_at[x0:x0 + _BLOCK] + 1
        xm <<= 16
        el = m.elevation[x0:x0 + _BLOCK].astype(np.int32)
        el += 128
        el <<= 8
        xm |= el
        xm |= m.terrain[x0:x0 + _BLOCK]
        pix[:, x0:x0 + _BLOCK] = xm.T
    ext = np.ascontiguousarray(g.ext, np.int32)
    loc = np.ascontiguousarray(g.loc, np.int32)
    out: tuple[Any, ...] = (m.elevation, m.terrain, g.hex_at, hx, h6, ext, loc, bbox, pix)
    if g.turned:
        out += (tuple(_frame(grid, i, hx, h6, ext, loc, pix) for i in g.turned),)
    if not grid.shape.geomorphic:
        out += (np.array([grid.shape.hex_width, grid.shape.hex_height], np.float64),)
    return out


def _bbox(ext: np.ndarray) -> np.ndarray:
    return np.stack([ext[:, :, 0].min(1), ext[:, :, 0].max(1),
                     ext[:, :, 1].min(1), ext[:, :, 1].max(1)], axis=1).astype(np.int32)


def _frame(grid: Grid, i: int, hx: np.ndarray, h6: np.ndarray, ext: np.ndarray, loc: np.ndarray,
           pix: np.ndarray) -> tuple[np.ndarray, ...]:
    """The frame of turned board ``i``: the kernel arrays of the map turned round about the
    board, so that the board lies upright in it (layout in hexwx._native)."""
    from hexwx._native import HX_COLUMNS
    ox, oy = turn_origin(grid, i)
    x0, y0 = board_corner(grid, i)
    w, h = grid.shape.width_px, grid.shape.height_px
    turn = np.array(SIDE_TURNED)
    o = np.array([ox, oy], np.int32)                  # map pixel p is o - p upright
    fx = hx.copy()
    fx[:, 0] = o[0] - hx[:, 0]
    fx[:, 1] = o[1] - hx[:, 1]
    order, frame = HX_COLUMNS.index("order"), HX_COLUMNS.index("frame")
    fx[:, order] = len(hx) - 1 - hx[:, order]        # the upright board's order of its hexes
    fx[:, frame] = -1
    f_ext = np.ascontiguousarray(o - ext[:, turn], np.int32)
    f_loc = np.ascontiguousarray(o - loc[:, turn], np.int32)
    f_pix = np.ascontiguousarray(pix[y0:y0 + h, x0:x0 + w][::-1, ::-1])
    origin = np.array([ox, oy], np.int64)
    return (origin, fx, np.ascontiguousarray(h6[:, turn]), f_ext, f_loc, _bbox(f_ext), f_pix)


def seed(m: HexMap, **derived: Any) -> HexMap:
    """``m`` with derived data (:data:`SEEDABLE`: ``geometry``, ``hexes``, the kernel's arrays) that a
    loader already has -- built on the way, or read from the on-disk cache -- so that it is
    never computed again.  The caller answers for it being what the property would compute."""
    for name, value in derived.items():
        if name not in SEEDABLE:
            raise ValueError(f"cannot seed {name!r}; expected one of {', '.join(SEEDABLE)}")
        object.__setattr__(m, name, value)   # (a cached_property has no setter: kept as computed)
    return m


def redrawn(m: HexMap, **changes: Any) -> HexMap:
    """``dataclasses.replace(m, **changes)`` for a map drawn differently on the same grid: the
    pixel geometry depends only on the grid, so the new map takes ``m``'s instead of building
    it again (its per-hex terrain and kernel arrays are derived anew from the new raster)."""
    new = replace(m, **changes)
    if "grid" not in changes and m.holds("geometry"):
        seed(new, geometry=m.geometry)
    if "table" not in changes and m.holds("kernel_terrain"):
        seed(new, kernel_terrain=m.kernel_terrain)
    if set(changes) <= _NOT_RASTER:
        seed(new, **{k: getattr(m, k) for k in ("hexes", "kernel_map") if m.holds(k)})
    return new


#: Pixel columns per block when a whole raster is worked through (packing, lowest ground).
_BLOCK = 128

#: Fields that neither the per-hex terrain nor the kernel arrays read.
_NOT_RASTER = frozenset({"name", "source", "roads", "move_overrides", "image_bytes", "board_images",
                         "overlay_art", "overlay_persist"})


@lru_cache(maxsize=16)
def _with_hexsides(m: HexMap, sides: tuple[tuple[Hex, int], ...], name: str) -> HexMap:
    from hexwx.hexmap.raster import HEXSIDE_HALF_WIDTH, draw, strip
    code = m.table.code_named(name)
    shapes = []
    for h, side in sides:
        if m.hexes.side_terrain[h, side] >= 0:
            continue  # a wall (or other hexside terrain) already there takes precedence
        corners = m.grid.corners(h)
        shapes.append((strip(corners[side], corners[(side + 1) % 6], HEXSIDE_HALF_WIDTH), code))
    if not shapes:
        return m
    return redrawn(m, terrain=draw(m.terrain, shapes), name=f"{m.name} (+{len(shapes)} {name.lower()})")


#: How a building is followed across a hexside: points along the middle 80 % of the hexside,
#: and the pixel offsets across it that must all be building there (3 px each side).
_JOIN_SAMPLES = np.linspace(0.1, 0.9, 33)
_JOIN_ACROSS = (-3.0, 0.0, 3.0)


def building_joins(m: HexMap, is_building: np.ndarray) -> np.ndarray:
    """bool [n, 6]: the building of hex h runs across hexside k into the neighbour's building.

    True when both hexes are building hexes and, somewhere along the hexside (away from its
    vertices), the pixels on the hexside and 3 pixels to either side of it are all building
    terrain: the drawn building crosses the hexside (E3 3.8 reading in :attr:`HexMap.building_ids`).
    """
    n = len(m.grid)
    nb = m.grid.neighbours
    out = np.zeros((n, 6), bool)
    hs, ks = np.nonzero((nb >= 0) & is_building[:, None] & is_building[np.maximum(nb, 0)])
    if len(hs) == 0:
        return out
    pix = m.table.arrays()["building"][m.terrain].astype(bool)
    W, H = pix.shape
    corners = np.array([m.grid.corners(int(h)) for h in range(n)])      # [n, 6, 2]
    p0 = corners[hs, ks]
    p1 = corners[hs, (ks + 1) % 6]
    d = p1 - p0
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.hypot(d[:, 0], d[:, 1])[:, None]
    along = p0[:, None, :] + _JOIN_SAMPLES[None, :, None] * d[:, None, :]     # [m, s, 2]
    ok = np.ones(along.shape[:2], bool)
    for off in _JOIN_ACROSS:
        q = np.rint(along + off * normal[:, None, :]).astype(np.int64)
        inside = (q[..., 0] >= 0) & (q[..., 0] < W) & (q[..., 1] >= 0) & (q[..., 1] < H)
        ok &= inside & pix[np.clip(q[..., 0], 0, W - 1), np.clip(q[..., 1], 0, H - 1)]
    out[hs, ks] = ok.any(axis=1)
    return out
