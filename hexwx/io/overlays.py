"""VASL overlays: where an overlay lies on its board, and the terrain its art draws there.

An overlay is a transparent picture laid on one board (``OVR x11 L5 K5`` in a save's ``bd``
command: overlay ``x11``, its first hex on L5, turned so that its second hex is K5).  Its
archive (``ovrX`` in the board folder's ``overlays/``) holds one image per orientation a-f and a
``data`` file giving, per overlay, the hex of the image that each orientation puts on the
first hex.  The art is the terrain: each opaque pixel's colour names a terrain and usually a
level in VASL's colour table (``<colors>`` of ``SharedBoardMetadata.xml``); transparent pixels
keep the board.  The composed raster then gives every hex its terrain exactly as a board's
does (:mod:`hexwx.hexmap.derive`), so LOS and movement read overlay terrain like board terrain.

What hexwx does, and where it differs from VASL's own overlay code, is written in
``docs/vasl-conformance.md`` ("Overlays").  The rules as data are next to their source:
:data:`BUILDING_OVERLAYS`, :data:`ARCHIVE_RULES`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np

from hexwx._native import fill_rows
from hexwx.errors import DataError, UsageError
from hexwx.hexmap.coords import GEOMORPHIC, BoardShape, column_index
from hexwx.hexmap.terrain import Category, TerrainTable

if TYPE_CHECKING:
    from hexwx.io.layout import BoardSpec

#: The orientations, as VASL names them (the image ``ovr<name><o>.gif`` of each).
ORIENTATIONS = "abcdef"

#: VASL overlays that share one set of images (VASL's ``Overlay.equivalence``).
_SHARED_IMAGES = (("be2", "be1"), ("be3", "be1"), ("be5", "be4"), ("be6", "be4"),
                  ("oc2", "oc1"), ("oc4", "oc3"))

#: The building type of each building overlay ``x<N>``: VASL's overlay LOS code
#: (``setBuildingTerrainFromOverlay``) reads it from the overlay number, since the building
#: colours are shared by all types; numbers not listed (and mixed sheets 14, 15, 18, 32-37)
#: keep the colour table's type.  hexwx applies it to the x overlays only, the building
#: overlays it was written for.
BUILDING_OVERLAYS: dict[int, str] = {
    **{n: "Stone Building" for n in (1, 2, 4, 5, 6, 7, 11)},
    **{n: "Wooden Building" for n in (3, 9, 26, 28, 29)},
    **{n: "Stone Building, 1 Level" for n in (12, 17, 19, 20, 21, 22, 23, 24, 25, 27, 30, 39)},
    **{n: "Wooden Building, 1 Level" for n in (13, 41)},
    **{n: "Stone Building, 2 Level" for n in (8, 16, 38, 40)},
    10: "Wooden Building, 2 Level",
}


@dataclass(frozen=True)
class ArchiveRule:
    """How the art of one overlay archive becomes terrain where the colour table alone is not
    the rule: ``colours`` (RGB -> terrain name) read before the table, ``raised`` the terrain of
    every pixel the table puts above level 0, and ``board_levels``: the overlay never changes
    the ground level (its level colours only shade the picture)."""

    colours: tuple[tuple[tuple[int, int, int], str], ...] = ()
    raised: str | None = None
    board_levels: bool = False
    rule: str = ""


#: Desert overlays (ASL chapter F).  Their art shades the sand with the colour table's desert
#: level colours, so by the table alone a hillock would be a level-3 hill (what VASL's newest
#: code gives with this table).  By the rules and the art: a hillock is Hillock terrain (F6; the
#: darkest shade, 114,83,42, its summit, as VASL's desert code and newer colour table read it)
#: on the board's ground; a wadi's bed and banks are Wadi, a depression below the board's
#: ground (F5), the lighter shading round it sand; a dier's floor is Dier (F4).
ARCHIVE_RULES: dict[str, ArchiveRule] = {
    "ovrH": ArchiveRule(colours=(((114, 83, 42), "Hillock Summit"),), raised="Hillock",
                        board_levels=True, rule="F6 hillocks"),
    "ovrW": ArchiveRule(colours=(((164, 120, 0), "Wadi"), ((202, 152, 0), "Open Ground")),
                        board_levels=True, rule="F5 wadis"),
    "ovrD": ArchiveRule(colours=(((252, 223, 89), "Dier"), ((202, 152, 0), "Open Ground")),
                        board_levels=True, rule="F4 diers"),
}

#: Overlays VASL draws but whose LOS another rule gives (VASL skips them too).
_PICTURE_ONLY = ("NoCliffs", "LightWoods", "RB_Gutted")


# -- what the user writes ------------------------------------------------------------------

@dataclass(frozen=True)
class OverlaySpec:
    """One overlay on one board: ``name`` (``"x11"``), the board hex its first hex lies on and
    the hex giving its orientation (equal for one-hex overlays), and ``persist``: keep the
    board's ground levels under it (VASL's "persist elevation")."""

    name: str
    hex1: str
    hex2: str
    persist: bool = False

    @property
    def written(self) -> str:
        """``"x11 L5 K5"`` (with `` persist`` when set): the form :func:`parse_overlay` reads."""
        return f"{self.name} {self.hex1} {self.hex2}" + (" persist" if self.persist else "")


_OVR_NAME = re.compile(r"^[A-Za-z0-9_]{1,24}$")
_OVR_HEX = re.compile(r"^[A-Za-z]{1,2}-?[0-9]{1,2}$")


def parse_overlay(text: str, where: str = "overlay") -> OverlaySpec:
    """``"x11 L5 K5"``, ``"x11:L5:K5"``, ``"x10 L5"`` (one-hex overlay), with an optional
    ``persist`` last word; UsageError naming ``where`` otherwise."""
    if not isinstance(text, str):
        raise UsageError(f"{where}: expected an overlay like 'x11 L5 K5', got {text!r}")
    parts = [p for p in re.split(r"[\s:]+", text.strip()) if p]
    persist = bool(parts) and parts[-1].lower() in ("persist", "true")
    if persist or (parts and parts[-1].lower() == "false"):
        parts = parts[:-1]
    if len(parts) == 2:
        parts.append(parts[1])
    if len(parts) != 3 or not _OVR_NAME.match(parts[0]) or not all(_OVR_HEX.match(h) for h in parts[1:]):
        raise UsageError(f"{where}: {text!r} is not an overlay; expected NAME HEX1 HEX2 such as "
                         f"'x11 L5 K5' (or NAME HEX for a one-hex overlay, 'persist' to keep "
                         f"the board's levels)")
    return OverlaySpec(parts[0], parts[1].upper(), parts[2].upper(), persist)


# -- archives ------------------------------------------------------------------------------

def _shared_image_name(name: str) -> str:
    for own, shared in _SHARED_IMAGES:
        if name.startswith(own):
            return shared + name[len(own):]
    return name


def archive_stem(name: str) -> str:
    """The archive holding overlay ``name``: ``x11`` -> ``ovrX``, ``og3`` -> ``ovrOG``,
    ``2`` -> ``ovr2``, ``be3`` -> ``ovrBE`` (VASL's naming: the trailing number dropped, except
    for an overlay named by its number alone)."""
    base = _shared_image_name(name)
    if not base[:1].isdigit():
        base = base.rstrip("0123456789") or base
    return "ovr" + base.upper()


def image_entry(name: str, orientation: str) -> str:
    """The image of ``name`` in ``orientation``: ``ovrx11f.gif``."""
    return f"ovr{_shared_image_name(name + orientation)}.gif"


def overlay_folder(vasl_dir: str | Path | None) -> Path:
    """``<board folder>/overlays`` (``vasl_dir`` or ``$HEXWX_VASL_DIR``); UsageError if unset."""
    from hexwx.io.vasl_env import VASL_DIR_ENV, vasl_dir_of
    d = vasl_dir_of(vasl_dir)
    if d is None:
        raise UsageError(f"overlays need the VASL folder: give vasl_dir DIR or set "
                         f"{VASL_DIR_ENV} (overlay archives in DIR/overlays)", param="vasl_dir")
    return d / "overlays" if (d / "overlays").is_dir() else d


def find_overlay_archive(name: str, vasl_dir: str | Path | None, what: str = "") -> Path:
    """The archive of overlay ``name``; DataError naming the overlay (and ``what``: the
    board) if there is none."""
    folder = overlay_folder(vasl_dir)
    stem = archive_stem(name)
    for cand in (folder / stem, folder / f"{stem}.zip"):
        if cand.is_file():
            return cand
    for cand in folder.glob(f"{stem}*") if folder.is_dir() else ():
        if cand.stem.lower() == stem.lower() and cand.is_file():   # case differs on disk
            return cand
    raise DataError(f"{what or 'overlay ' + repr(name)}: unknown overlay (no archive {stem} in {folder}); "
                    f"expected a VASL overlay name like x11, og3, wd2 or hi8")


@dataclass(frozen=True)
class OverlayArchive:
    """One overlay archive: its entries and its ``data`` file (origins per overlay)."""

    path: str
    entries: frozenset[str]
    origins: dict[str, str] = field(hash=False, compare=False)
    place_at: tuple[str, str] | None = None

    def has(self, entry: str) -> bool:
        return entry.lower() in self.entries


@lru_cache(maxsize=64)
def _archive(path: str, mtime: float) -> OverlayArchive:
    from hexwx.limits import open_zip, read_zip_entry
    with open_zip(path, "a VASL overlay archive") as zf:
        names = zf.namelist()
        text = read_zip_entry(zf, "data", source=path).decode("latin-1") if "data" in names else ""
    origins: dict[str, str] = {}
    place_at = None
    for line in text.splitlines():
        words = line.split()
        if len(words) < 2:
            continue
        head = words[0].lower()
        if head == "placeat" and len(words) >= 3:
            place_at = (words[1].upper(), words[2].upper())
        elif head != "version":
            origins.setdefault(head, line.strip()[len(words[0]):].strip())
    return OverlayArchive(path, frozenset(n.lower() for n in names), origins, place_at)


def read_archive(path: Path) -> OverlayArchive:
    """The overlay archive at ``path`` (read once per file version)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        raise DataError(f"{path}: no such file; expected a VASL overlay archive") from None
    return _archive(str(path), mtime)


# -- placement -----------------------------------------------------------------------------

_VASL_HEX = re.compile(r"([A-Za-z]+)(-?[0-9]+)")


def hex_location(shape: BoardShape, hex_name: str, what: str, *,
                 shift: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """The pixel VASL's board grid gives hex ``hex_name`` (``"c3"``, ``"gg10"``, ``"t-1"``:
    a column as printed, :func:`~hexwx.hexmap.coords.column_index`, and a row that may be
    negative) on a board of ``shape`` (:meth:`BoardShape.vasl_location`), its column and row
    moved by ``shift`` first; DataError naming ``what`` if it is no hex name."""
    m = _VASL_HEX.fullmatch(hex_name.strip())
    col = column_index(m.group(1)) if m else None
    if m is None or col is None:
        raise DataError(f"{what}: {hex_name!r} is not a hex; expected a column letter and a "
                        f"row such as 'c3'")
    return shape.vasl_location(col + shift[0], int(m.group(2)) + shift[1])


@dataclass(frozen=True)
class Placement:
    """Where an overlay's image lies: ``x``, ``y`` (its top-left corner in pixels of the
    upright, uncropped board), ``width`` x ``height``, the image entry and the orientation."""

    spec: OverlaySpec
    archive: str
    image: str
    orientation: str
    origin: str
    x: int
    y: int
    width: int
    height: int


def orientation_of(p1: tuple[int, int], p2: tuple[int, int]) -> str:
    """The orientation a-f that hex1 at ``p1`` and hex2 at ``p2`` give (VASL's rule: from
    hex1 to hex2 straight up a, up-left b... compared by pixel centres)."""
    (x1, y1), (x2, y2) = p1, p2
    if (x1, y1) == (x2, y2):
        return "a"
    if x1 == x2:
        return "d" if y1 < y2 else "a"
    if x1 > x2:
        return "f" if y1 > y2 else "e"
    return "b" if y1 > y2 else "c"


def place(spec: OverlaySpec, *, board: str, vasl_dir: str | Path | None,
          shape: BoardShape = GEOMORPHIC) -> Placement:
    """Where ``spec`` lies on ``board`` (a board of ``shape``) as VASL places it; one-line
    errors for an unknown overlay, hexes that are not neighbours, an orientation the overlay
    has no image for.

    VASL's ``Overlay.setBounds``: the image's corner is the board grid's pixel of hex1 less
    that of the origin hex the archive gives for the orientation, both on the board's own grid
    and the image at its own size.  On a board whose names start later (1b: column Q, BFPDW1b:
    row 11) the origin moves with them (VASL's ``Overlay.offset`` does so for boards 1b-15b and
    BFPDW1b-7b by name; hexwx by the board's first column and row, the same boards), so an
    overlay lies on such a board as on board A1's.  On a Deluxe board VASL neither refuses nor
    scales the art: it lies at its own size, placed on the Deluxe grid (hexwx does the same)."""
    what = f"board {board!r}: overlay {spec.written!r}"
    path = find_overlay_archive(spec.name, vasl_dir, what)
    arc = read_archive(path)
    hex1, hex2 = arc.place_at or (spec.hex1, spec.hex2)
    single = arc.has(image_entry(spec.name, "a")) and not arc.has(image_entry(spec.name, "d"))
    if single and hex1 != hex2:
        raise DataError(f"{what}: {spec.name} covers one hex; give one hex (or the same hex "
                        f"twice), not {hex1} and {hex2}")
    if not single and hex1 == hex2:
        raise DataError(f"{what}: give two neighbouring hexes, the first under the overlay's "
                        f"first hex, the second setting its orientation")
    p1 = hex_location(shape, hex1, what)
    p2 = hex_location(shape, hex2, what)
    dx = shape.vasl_location(1, 1)[0] - shape.vasl_location(0, 1)[0]   # VASL: B1 - A1
    dy = shape.vasl_location(1, 1)[1] - shape.vasl_location(1, 0)[1]   # VASL: B1 - B0
    if abs(p2[0] - p1[0]) > 1.1 * dx or abs(p2[1] - p1[1]) > 1.1 * dy:
        raise DataError(f"{what}: {hex1} and {hex2} are not neighbouring hexes; the second hex "
                        f"sets the orientation and must be next to the first")
    o = orientation_of(p1, p2)
    entry = image_entry(spec.name, o)
    if not arc.has(entry):
        raise DataError(f"{what}: no image {entry} in {path} for orientation {o!r} "
                        f"({hex1} to {hex2}); this overlay cannot lie that way")
    origins = arc.origins.get(spec.name.lower()) or _DEFAULT_ORIGINS.get(spec.name.lower())
    tokens = [t.strip() for t in origins.split(";")] if origins else []
    k = ORIENTATIONS.index(o)
    if k >= len(tokens) or not tokens[k]:
        raise DataError(f"{what}: {path} gives no origin for orientation {o!r} ({hex1} to "
                        f"{hex2}); expected an origin hex per orientation in its data file")
    ox, oy = hex_location(shape, tokens[k], f"{path}: origin of {spec.name}{o}",
                          shift=(shape.first_column, shape.first_row))
    size = _image_size(str(path), path.stat().st_mtime, entry)
    return Placement(spec, str(path), entry, o, tokens[k], p1[0] - ox, p1[1] - oy, *size)


#: VASL's built-in origins of overlays whose archive ``data`` file has no line for them
#: (``Overlay.getDefaultOriginList``; the archives in use carry their own).
_DEFAULT_ORIGINS: dict[str, str] = {
    "1": "b2; ; ;l8; ; ", "2": "b2; ; ;l8; ; ", "3": "b2; ; ;l8; ; ", "4": "b0; ; ;j10; ; ",
    "5": "c2; ; ;g9; ; ", "e1": "a1; ; ;gg10; ; ",
}


@lru_cache(maxsize=256)
def _image_size(path: str, mtime: float, entry: str) -> tuple[int, int]:
    im = _image(path, mtime, entry)
    return int(im.index.shape[1]), int(im.index.shape[0])


@dataclass(frozen=True, eq=False)
class IndexedImage:
    """An overlay image as palette indices [height, width] (image rows: the transpose of the
    rasters' x-major layout) and its palette [n, 4] of RGBA colours (a GIF's own; other images
    get one made of their colours): the colour table is read once per palette entry."""

    index: np.ndarray
    palette: np.ndarray

    def rgba(self) -> np.ndarray:
        """The RGBA pixels [height, width, 4]."""
        return self.palette[self.index]


@lru_cache(maxsize=32)
def _image(path: str, mtime: float, entry: str) -> IndexedImage:
    from hexwx.limits import open_image, open_zip, read_zip_entry
    with open_zip(path, "a VASL overlay archive") as zf:
        real = next((n for n in zf.namelist() if n.lower() == entry.lower()), entry)
        data = read_zip_entry(zf, real, source=path)
    im = open_image(data, source=f"{path}:{entry}", what="overlay image")
    if im.mode == "P" and isinstance(im.info.get("transparency", 0), int):   # a GIF
        index = np.asarray(im, np.uint8)
        pal = np.zeros((256, 4), np.uint8)
        colours = np.frombuffer(bytes(im.getpalette() or b""), np.uint8)[:768].reshape(-1, 3)
        pal[:len(colours), :3] = colours
        pal[:, 3] = 255
        if "transparency" in im.info:
            pal[int(im.info["transparency"]), 3] = 0
    else:
        rgba = np.asarray(im.convert("RGBA"))
        packed = rgba.astype(np.uint32) @ np.array([1 << 24, 1 << 16, 1 << 8, 1], np.uint32)
        keys, inverse = np.unique(packed, return_inverse=True)
        pal = np.stack([(keys >> k) & 255 for k in (24, 16, 8, 0)], axis=1).astype(np.uint8)
        index = inverse.reshape(packed.shape).astype(np.int32)
    index = np.ascontiguousarray(index)
    index.setflags(write=False)
    pal.setflags(write=False)
    return IndexedImage(index, pal)


def overlay_image(p: Placement) -> IndexedImage:
    """The image of a placed overlay (read once per file version; read-only arrays)."""
    return overlay_image_at(p.archive, p.image)


def overlay_image_at(archive: str, entry: str) -> IndexedImage:
    """Image ``entry`` of overlay (or board) archive ``archive`` (read once per file version)."""
    return _image(archive, Path(archive).stat().st_mtime, entry)


# -- the colour table ----------------------------------------------------------------------

#: Level of a colour whose table entry has none (``elevation="UNKNOWN"``).
NO_LEVEL = -128


@dataclass(frozen=True, eq=False)
class ColourTable:
    """VASL's board colours: sorted 24-bit RGB keys, each one's terrain code (-1: none) and
    level (:data:`NO_LEVEL`: none).  A colour listed twice takes its first entry, as VASL reads
    it (white is "White", no terrain, before "L0Winter")."""

    keys: np.ndarray
    terrain: np.ndarray
    level: np.ndarray

    def lookup(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Terrain codes and levels of 24-bit colours ``rgb`` (any shape)."""
        i = np.clip(np.searchsorted(self.keys, rgb), 0, max(len(self.keys) - 1, 0))
        hit = self.keys[i] == rgb if len(self.keys) else np.zeros(rgb.shape, bool)
        return (np.where(hit, self.terrain[i], -1).astype(np.int16),
                np.where(hit, self.level[i], NO_LEVEL).astype(np.int16))


@lru_cache(maxsize=4)
def _colours(meta: str, mtime: float) -> ColourTable:
    from hexwx.io.vasl import metadata_root, read_metadata
    root = metadata_root(meta, mtime)
    table = read_metadata(meta)
    rows: dict[int, tuple[int, int]] = {}
    code_of = {t.name: t.code for t in reversed(table.types)}   # (first of a name wins)
    for el in root.iter("color"):
        a = el.attrib
        if "red" not in a:
            continue          # a colour named by an SSR rule, not a colour entry
        try:
            rgb = (int(a["red"]) << 16) | (int(a.get("green", "")) << 8) | int(a.get("blue", ""))
        except ValueError:
            raise DataError(f"{meta}: color {a.get('name', '?')!r}: red/green/blue must be "
                            f"whole numbers") from None
        name, level = a.get("terrain", "UNKNOWN"), a.get("elevation", "UNKNOWN")
        code = code_of.get(name, -1)         # UNKNOWN, or a terrain this table lacks: none
        lv = int(level) if re.fullmatch(r"-?[0-9]+", level) else NO_LEVEL
        rows.setdefault(rgb, (code, lv))
    keys = np.array(sorted(rows), np.int64)
    return ColourTable(keys, np.array([rows[k][0] for k in keys], np.int16),
                       np.array([rows[k][1] for k in keys], np.int16))


def colour_table(meta: str | Path) -> ColourTable:
    """The colour table of VASL's ``SharedBoardMetadata.xml`` (read once per file version),
    terrain names resolved through the same file's terrain types."""
    p = Path(meta)
    return _colours(str(p), p.stat().st_mtime)


# -- the terrain an overlay draws ----------------------------------------------------------

#: Where a pixel whose colour names no terrain (outlines, hex dots, shading VASL's table
#: lacks) looks for a neighbour that does: at (d - 1, d), (d - 1, -d), (1 - d, d), (1 - d, -d)
#: for d = 2..6, nearest first (the neighbours VASL's overlay code reads, in its order).
_NEAR = range(2, 7)


def _nearest_with_terrain(terr: np.ndarray, missing: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each ``missing`` pixel of the [height, width] arrays, its nearest neighbour in
    :data:`_NEAR` whose terrain is known (``terr`` >= 0), both as flat indices (pixel, its
    neighbour); pixels with none are left out.  Works on the missing pixels only (outlines and
    dots: a few per cent of an overlay)."""
    H, W = terr.shape
    flat = terr.reshape(-1)
    pos = np.flatnonzero(missing)
    ys, xs = np.divmod(pos, W)
    found = np.full(len(pos), -1, np.int64)
    todo = np.arange(len(pos))                  # the pixels still without a neighbour
    for d in _NEAR:
        for sx, sy in ((d - 1, d), (d - 1, -d), (1 - d, d), (1 - d, -d)):
            if not len(todo):
                break
            cx, cy = xs[todo] + sx, ys[todo] + sy
            cand = pos[todo] + (sy * W + sx)
            ok = (cx >= 0) & (cx < W) & (cy >= 0) & (cy < H)
            ok &= flat.take(np.where(ok, cand, 0)) >= 0
            found[todo[ok]] = cand[ok]
            todo = todo[~ok]
    keep = found >= 0
    return pos[keep], found[keep]


def _drawn(image: IndexedImage, table: TerrainTable, colours: ColourTable, name: str,
           archive: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(terrain codes, levels, sets) [height, width] the art of ``image`` draws: each opaque
    pixel's colour's terrain and level (a colour with none takes both from its nearest
    neighbour with one; the archive's own rules and a building overlay's building type
    applied); ``sets`` marks the pixels that draw terrain (codes elsewhere are meaningless)."""
    rule = ARCHIVE_RULES.get(archive)
    pal = image.palette.astype(np.int64)
    rgb = (pal[:, 0] << 16) | (pal[:, 1] << 8) | pal[:, 2]
    p_terr, p_level = colours.lookup(rgb)          # per palette entry
    p_opaque = pal[:, 3] > 0
    if rule is not None:
        own = np.isin(rgb, [(r << 16) | (g << 8) | b for (r, g, b), _ in rule.colours])
        if rule.raised is not None:
            p_terr[p_opaque & (p_level > 0) & (p_terr >= 0) & ~own] = table.code_named(rule.raised)
        for (r, g, b), tname in rule.colours:
            p_terr[rgb == ((r << 16) | (g << 8) | b)] = table.code_named(tname)
    p_terr[~p_opaque] = -1
    p_level[~p_opaque | (p_terr < 0)] = NO_LEVEL
    idx = image.index
    # (per palette entry first, then one gather per image array)
    terr, level = p_terr.take(idx), p_level.take(idx)
    sets = terr >= 0
    at, near = _nearest_with_terrain(terr, (p_opaque & (p_terr < 0)).take(idx))
    t_flat, l_flat = terr.reshape(-1), level.reshape(-1)        # (views: take made them whole)
    t_flat[at], l_flat[at] = t_flat[near], l_flat[near]         # (both from that neighbour)
    sets.reshape(-1)[at] = True                                 # (opaque, and now terrain)
    if archive == "ovrX":
        a = table.arrays()
        num = re.fullmatch(r"x([0-9]+)", name.lower())
        kind = BUILDING_OVERLAYS.get(int(num.group(1))) if num else None
        if kind is not None:
            bldg = sets & a["building_terrain"][np.maximum(terr, 0)].astype(bool) \
                & ~a["hexside"][np.maximum(terr, 0)].astype(bool)
            terr[bldg] = table.code_named(kind)
    return terr, level, sets


def _persist_keeps(codes: np.ndarray, board_terrain: np.ndarray, table: TerrainTable,
                   name: str) -> np.ndarray:
    """Where "persist elevation" leaves the board under an overlay: open ground drawn over the
    board's open ground (VASL draws those pixels transparent), in any overlay but an ``og``
    one."""
    if name.lower().startswith("og"):
        return np.zeros(codes.shape, bool)
    a = table.arrays()
    open_ground = codes == table.code_named("Open Ground")
    return open_ground & (a["category"][board_terrain] == Category.OPEN)


def overlay_terrain(image: IndexedImage, board_elevation: np.ndarray, board_terrain: np.ndarray,
                    table: TerrainTable, colours: ColourTable, *, name: str, archive: str,
                    persist: bool) -> tuple[np.ndarray, np.ndarray]:
    """The terrain (uint8) and levels (int8) [height, width] of the board's area under the
    overlay ``image`` once it is laid, from the board's own rasters of that area (also
    [height, width], image rows).

    Opaque pixels take their colour's terrain and level; a colour with no terrain (outlines, hex
    dots) takes both from its nearest neighbour with one; a pixel still without a level (woods
    are drawn without one) takes the level of the nearest pixel to its left on its image row
    that has one (at a row's start: to its right), else the board's.  Depression terrain lies
    a level below that.  With ``persist`` the board keeps its ground levels, and open ground
    drawn over the board's open ground leaves the board as it is (VASL draws those pixels
    transparent).  Transparent pixels, and opaque ones with no terrain anywhere near, keep the
    board.
    """
    rule = ARCHIVE_RULES.get(archive)
    terr, level, sets = _drawn(image, table, colours, name, archive)
    a = table.arrays()
    board_e = np.ascontiguousarray(board_elevation)
    board_t = np.ascontiguousarray(board_terrain)
    below = (a["category"] == Category.DEPRESSION).astype(np.int16)   # per terrain code
    codes = terr.astype(np.uint8)                     # (-1, no terrain, is masked by sets)
    if persist or (rule is not None and rule.board_levels):
        ground = board_e.astype(np.int16)
    else:
        level = fill_rows(level, NO_LEVEL)   # (only pixels that set terrain have levels)
        ground = np.where(level == NO_LEVEL, board_e, level)
    if persist:
        sets &= ~_persist_keeps(codes, board_t, table, name)
    elev = np.clip(ground - below[codes], -128, 127).astype(np.int8)
    return np.where(sets, codes, board_t), np.where(sets, elev, board_e)


def board_kept(image: IndexedImage, board_terrain: np.ndarray, table: TerrainTable,
               colours: ColourTable, *, name: str, archive: str) -> np.ndarray:
    """bool [height, width]: the pixels of ``image`` laid with "persist elevation" that LOS
    leaves to the board under it (``board_terrain``, [height, width] image rows): a picture
    that shows what LOS uses draws the board there, not the overlay."""
    terr, _level, sets = _drawn(image, table, colours, name, archive)
    return sets & _persist_keeps(terr.astype(np.uint8), np.ascontiguousarray(board_terrain),
                                 table, name)


def picture_persists(placements: Sequence[Placement], persist: bool) -> list[bool]:
    """For each of ``placements`` (in order): laid with "persist elevation" (the game-wide
    ``persist`` or its own) and drawing terrain (not a picture-only overlay)."""
    return [(persist or p.spec.persist) and not any(s in p.spec.name for s in _PICTURE_ONLY)
            for p in placements]


def apply_overlays(elevation: np.ndarray, terrain: np.ndarray, placements: Sequence[Placement],
                   table: TerrainTable, colours: ColourTable, *, persist: bool = False,
                   shape: BoardShape = GEOMORPHIC) -> tuple[np.ndarray, np.ndarray]:
    """A board's rasters (x-major, upright; a board of ``shape``) with ``placements`` laid on
    them in order; each overlay is cut to the board (it never paints onto a neighbouring
    board)."""
    elev, terr = elevation.copy(), terrain.copy()
    W, H = elev.shape
    for p in placements:
        if any(s in p.spec.name for s in _PICTURE_ONLY):
            continue
        image = overlay_image(p)
        x0, y0 = max(p.x, 0), max(p.y, 0)
        x1, y1 = min(p.x + p.width, W), min(p.y + p.height, H)
        if x0 >= x1 or y0 >= y1:
            continue
        part = IndexedImage(image.index[y0 - p.y:y1 - p.y, x0 - p.x:x1 - p.x], image.palette)
        t, e = overlay_terrain(part, elev[x0:x1, y0:y1].T, terr[x0:x1, y0:y1].T, table, colours,
                               name=p.spec.name, archive=Path(p.archive).name,
                               persist=persist or p.spec.persist)
        terr[x0:x1, y0:y1], elev[x0:x1, y0:y1] = t.T, e.T
    if any(Path(p.archive).name in _LIPPED for p in placements):
        terr = dier_lips(terr, table, shape)
    return elev, terr


#: Archives whose depressions get a lip on their edge hexsides (F4: a dier's lip).
_LIPPED = ("ovrD",)


def dier_lips(terrain: np.ndarray, table: TerrainTable,
              shape: BoardShape = GEOMORPHIC) -> np.ndarray:
    """An upright board's terrain raster (a board of ``shape``) with "Dier Lip" drawn along
    every hexside of a dier hex (centre pixel Dier) that borders a hex that is not one (F4;
    VASL's ``setDierLip`` does the same on its hexes)."""
    from hexwx.hexmap.coords import Grid
    from hexwx.hexmap.raster import HEXSIDE_HALF_WIDTH, draw, strip
    dier, lip = table.code_named("Dier"), table.code_named("Dier Lip")
    g = Grid.single(shape=shape)
    W, H = terrain.shape
    cx = np.clip(g.centre_x.astype(int), 0, W - 1)
    cy = np.clip(g.centre_y.astype(int), 0, H - 1)
    is_dier = terrain[cx, cy] == dier
    shapes = []
    for h in np.flatnonzero(is_dier):
        corners = g.corners(int(h))
        for k in range(6):
            o = g.neighbours[h, k]
            if o < 0 or not is_dier[o]:
                shapes.append((strip(corners[k], corners[(k + 1) % 6], HEXSIDE_HALF_WIDTH), lip))
    return draw(terrain, shapes) if shapes else terrain


# -- board-specific overlays given as SSRs (SSO / BSO) -----------------------------------------

@lru_cache(maxsize=32)
def _board_overlay_rules(path: str, mtime: float) -> dict[str, tuple[str, int, int]]:
    from xml.etree import ElementTree

    from hexwx.limits import open_zip, read_zip_entry
    with open_zip(path, "a VASL board archive") as zf:
        if "BoardMetadata.xml" not in zf.namelist():
            return {}
        text = read_zip_entry(zf, "BoardMetadata.xml", source=path)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise DataError(f"{path}: BoardMetadata.xml is malformed XML ({exc})") from None
    rules: dict[str, tuple[str, int, int]] = {}
    for el in root.iter("overlaySSRule"):
        a = el.attrib
        try:
            rules.setdefault(a["name"], (a["image"], int(a.get("x", "0")), int(a.get("y", "0"))))
        except (KeyError, ValueError):
            raise DataError(f"{path}: overlaySSRule {a.get('name', '?')!r} needs name, image and "
                            f"whole-number x and y") from None
    return rules


def board_overlay_rules(board_archive: str | Path) -> dict[str, tuple[str, int, int]]:
    """A board's own overlay SSRs (``overlaySSRule`` of its ``BoardMetadata.xml``): name ->
    (image entry, x, y), e.g. ``SSO_A74`` -> (``4_SSO_A74.gif``, 892, 1)."""
    p = Path(board_archive)
    return _board_overlay_rules(str(p), p.stat().st_mtime)


def board_overlay(board_archive: str | Path, name: str) -> Placement:
    """The placement of the board's overlay SSR ``name`` (its image at the board's x, y)."""
    image, x, y = board_overlay_rules(board_archive)[name]
    path = str(board_archive)
    w, h = _image_size(path, Path(path).stat().st_mtime, image)
    return Placement(OverlaySpec(name, "", ""), path, image, "a", "", x, y, w, h)


@dataclass(frozen=True)
class BoardOverlays:
    """What is laid on one board: its overlays and overlay SSRs in drawing order, and the
    terrain SSRs (``LOSSSRule``) left to apply to it."""

    placements: tuple[Placement, ...]
    los_ssr: tuple[str, ...]


def place_board_overlays(spec: BoardSpec, archive: Path, ssr: Sequence[str],
                         vasl_dir: str | Path | None, meta: str | Path,
                         shape: BoardShape = GEOMORPHIC) -> BoardOverlays:
    """The overlays of layout board ``spec`` (archive ``archive``, a board of ``shape``)
    placed, then the overlay SSRs among ``ssr`` (all SSRs that board takes, in order)."""
    if not ssr and not spec.overlays:
        return BoardOverlays((), ())
    from hexwx.io.ssr import ssr_rules
    los, own = split_ssr(ssr, archive, ssr_rules(meta)) if ssr else ((), ())
    placed = [place(o, board=spec.written, vasl_dir=vasl_dir, shape=shape) for o in spec.overlays]
    placed += [board_overlay(archive, n) for n in own]
    return BoardOverlays(tuple(placed), los)


def split_ssr(names: Iterable[str], board_archive: str | Path,
              los_rules: Mapping[str, tuple[str, str, str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(terrain SSRs, board overlay SSRs) of ``names``: a name that is one of the board's
    ``overlaySSRule`` entries is an overlay laid on it, unless VASL's terrain table gives it
    as data (an ``LOSSSRule`` hexwx applies to the raster); a rule VASL keeps in code only or
    ignores in LOS (``DenseJungle``, ``NoRoads``) is read from its art instead."""
    from hexwx.io.ssr import CODE_ONLY, IGNORED
    own = board_overlay_rules(board_archive)
    names = tuple(names)
    overlays = tuple(n for n in names if n in own and (
        n not in los_rules or los_rules[n][0] in (IGNORED, CODE_ONLY)))
    return tuple(n for n in names if n not in overlays), overlays
