"""Annotated images of hex maps: terrain, ground levels, hexsides, hex ids, and overlays.

:func:`render_map` draws a :class:`~hexwx.hexmap.board.HexMap` and returns a
:class:`~hexwx.render.style.Rendering` (image, caption text, overlay markers).  Overlays only
*read* result objects made by the library: a LOS result (:func:`hexwx.lineofsight.engine.los`), a viewshed
(:func:`hexwx.lineofsight.engine.viewshed`), a movement path or reach (:mod:`hexwx.movement.paths`) and an ASL weather
state (:class:`hexwx.weather.asl.state.AslWeather`).  Nothing here computes LOS or movement.

Geometry: map pixels in VASL's convention (a board is 1800 x 645); the image has ``scale``
final pixels per map pixel (default 1.0, so a board is 1800 px wide) and is drawn at
:data:`~hexwx.render.style.SUPERSAMPLE` times that size, then averaged down (anti-aliasing).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
import weakref
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

import numpy as np
from PIL import Image, ImageDraw

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.pixelgeom import PixelGeometry
from hexwx.hexmap.transform import transformed
from hexwx.weather.asl.terrain_changes import weather_changes
from hexwx.hexmap.coords import HEX_HEIGHT_PX, HEX_WIDTH_PX, Hex, split_name
from hexwx.errors import UsageError
from hexwx.validate import bad, one_of
from hexwx.render.style import (
    BOARD_JOIN, CONTOUR, GRID_LINE, HEXSIDE_STYLES, OVERLAY, PATTERNS, RGB, TERRAIN_STYLES, Frame,
    Marker, Rendering, downsample, font, halo_label, halo_text, legend_strip, level_colour,
    line_swatch, marker_swatch, pattern_mask, stack, swatch,
)
from hexwx.hexmap.terrain import Category, TerrainTable, TerrainType
from hexwx.weather.asl.state import AslWeather, Drift

if TYPE_CHECKING:  # result types only: importing them would load the LOS kernel and networkx
    from hexwx.lineofsight.engine import LosResult, Viewshed
    from hexwx.lineofsight.results import Hindrance
    from hexwx.lineofsight.exposure import Exposure
    from hexwx.movement.paths import MovePath, Reach

BACKGROUNDS = ("terrain", "board")
#: Hindrance kinds drawn as weather (LV) badges; everything else is a terrain hindrance.
LV_KINDS = ("lv", "fog", "mist", "rain", "snow", "dust", "weather", "camouflage", "night")


# -------------------------------------------------------------------------------------------
# terrain classification (which TERRAIN_STYLES entry a terrain type is drawn with)
# -------------------------------------------------------------------------------------------

def terrain_class(t: TerrainType) -> str:
    """The :data:`~hexwx.render.style.TERRAIN_STYLES` key of terrain ``t``."""
    n, c = t.name, t.category
    if c == Category.HEXSIDE:
        return "hexside"
    if c == Category.ROAD:
        return "road"
    if c == Category.WATER or n in ("Ocean", "Shallow Ocean", "Flooded Stream", "Canal"):
        return "water"
    if c == Category.DEPRESSION:
        return "stream"
    if c == Category.BRIDGE:
        return "bridge"
    if c == Category.ENTRENCHMENT or n in ("Pillbox", "Sangar"):
        return "entrenchment"
    if n == "Shellholes":
        return "shellholes"
    if n == "Graveyard":
        return "graveyard"
    if n == "Crags":
        return "crags"
    if n in ("Hillock", "Hillock Summit", "Sand Dune", "Sand", "Soft Sand", "Hammada") or \
            n.startswith("Beach"):
        return "sand"
    if n == "Plowed Field":
        return "plowed field"
    if c == Category.WOODS or n in ("Forest", "Bamboo", "Palm Trees"):
        return "woods"
    if "Rubble" in n or n in ("Debris", "Collapsed Huts"):
        return "rubble"
    if t.is_building:
        return "wooden building" if ("Wooden" in n or n == "Huts") else "stone building"
    if "Orchard" in n or "Light Woods" in n or n in ("Olive Grove", "Vineyard", "Lumberyard"):
        return "light woods"
    if n in ("Grain", "Kunai", "Rice Paddy, In Season"):
        return "grain"
    if n in ("Brush", "Cactus Patch", "Scrub"):
        return "brush"
    if n in ("Marsh", "Swamp", "Mudflats"):
        return "marsh"
    if t.hindrance or t.obstacle or c == Category.OTHER:
        return "hindrance"
    if c == Category.OPEN and n not in PLAIN_OPEN:
        return "other ground"       # VASL's rarer ground (ford, runway, panji...): its own name
    return "open"


#: Open terrain drawn as plain ground of its level.
PLAIN_OPEN = ("Open Ground", "Rooftop")


def hexside_style_key(t: TerrainType) -> str | None:
    """The :data:`~hexwx.render.style.HEXSIDE_STYLES` key of hexside terrain ``t`` (None: not drawn)."""
    if t.category != Category.HEXSIDE:
        return None  # rowhouse and interior factory walls show in the raster
    n = t.name
    for key in ("bocage", "hedge", "wall", "cliff"):
        if key in n.lower():
            return key
    return "other"


_CLASS_KEYS = tuple(TERRAIN_STYLES)


@dataclass(frozen=True)
class _Palette:
    """Per-code lookup arrays of one terrain table: class index and fill colour."""

    cls: np.ndarray      # uint8 [256]
    fill: np.ndarray     # uint8 [len(classes), 3]
    has_fill: np.ndarray  # bool [len(classes)]


_PALETTES: weakref.WeakKeyDictionary[TerrainTable, _Palette] = weakref.WeakKeyDictionary()


def _palette(table: TerrainTable) -> _Palette:
    """Style class and fill of every terrain code of ``table`` (made once per table)."""
    cache = _PALETTES.get(table)
    if cache is not None:
        return cache
    cls = np.zeros(256, np.uint8)
    for t in table.types:
        cls[t.code] = _CLASS_KEYS.index(terrain_class(t))
    fill = np.zeros((len(_CLASS_KEYS), 3), np.uint8)
    has = np.zeros(len(_CLASS_KEYS), bool)
    for i, k in enumerate(_CLASS_KEYS):
        st = TERRAIN_STYLES[k]
        if st.fill is not None:
            fill[i], has[i] = st.fill, True
    pal = _Palette(cls, fill, has)
    _PALETTES[table] = pal
    return pal


# -------------------------------------------------------------------------------------------
# the view: which part of the map, at what scale
# -------------------------------------------------------------------------------------------

#: A window of the map (map pixels x0..x1, y0..y1, whole numbers; y down) at ``scale`` final
#: px per map px: the frame shared with tables (:class:`~hexwx.render.style.Frame`).
View = Frame


def make_view(m: HexMap, *, scale: float = 1.0, window: Sequence[str | Hex] | None = None) -> View:
    """The :class:`View` of ``m`` at ``scale``; ``window`` (two hexes) crops to their bounding box."""
    if not (isinstance(scale, (int, float)) and 0.05 <= scale <= 4):
        raise UsageError(f"scale must be a number from 0.05 to 4, got {scale!r}")
    W, H = m.grid.width_px, m.grid.height_px
    turned = bool(getattr(m, "shown_turned", False))   # drawn as VASL shows it
    if window is None and m.grid.cropped:
        # a cropped map: the crop, cut through the centres of its outer hexes
        g = m.grid
        return View(max(0, math.floor(g.centre_x.min())), max(0, math.floor(g.centre_y.min())),
                    min(W, math.ceil(g.centre_x.max())), min(H, math.ceil(g.centre_y.max())),
                    float(scale), turned=turned)
    if window is None:
        return View(0, 0, W, H, float(scale), turned=turned)
    if len(window) != 2:
        raise UsageError(f"a window is two hexes (opposite corners), got {list(window)!r}")
    hs = [_hex(m, w, "window") for w in window]
    pts = [p for h in hs for p in m.grid.corners(h)]
    pad = HEX_WIDTH_PX / 2                         # half a hex around the two hexes
    x0 = max(0, math.floor(min(p[0] for p in pts) - pad))
    y0 = max(0, math.floor(min(p[1] for p in pts) - pad))
    x1 = min(W, math.ceil(max(p[0] for p in pts) + pad))
    y1 = min(H, math.ceil(max(p[1] for p in pts) + pad))
    return View(x0, y0, x1, y1, float(scale), turned=turned)


def _hex(m: HexMap, h: str | Hex, what: str) -> Hex:
    """Hex id of ``h`` (a name or an id); UsageError naming the parameter or overlay ``what``
    if not on the map."""
    return m.grid.hex(h, what)


# -------------------------------------------------------------------------------------------
# base layer: terrain raster or the board's own artwork
# -------------------------------------------------------------------------------------------

def _window(m_array: np.ndarray, view: View) -> np.ndarray:
    """The view's window of an x-major map raster, y-major and C-contiguous (one copy); turned
    round when the view is."""
    x0, y0, x1, y1 = (int(v) for v in (view.x0, view.y0, view.x1, view.y1))
    part = m_array[x0:x1, y0:y1]
    return np.ascontiguousarray((part[::-1, ::-1] if view.turned else part).T)


def _upsample(arr_yx: np.ndarray, view: View) -> np.ndarray:
    """A y-major uint8 map-pixel array resized (nearest) to the final image size (itself,
    uncopied, when it has that size already: scale 1)."""
    if arr_yx.shape[::-1] == view.size:
        return arr_yx
    img = Image.fromarray(np.ascontiguousarray(arr_yx), "L")
    return np.asarray(img.resize(view.size, Image.Resampling.NEAREST))


def _contours(elev_yx: np.ndarray) -> np.ndarray:
    """Bool mask (y-major, map res) of pixels where the ground level changes to a neighbour."""
    e = elev_yx
    mask = np.zeros(e.shape, bool)
    mask[:, 1:] |= e[:, 1:] != e[:, :-1]
    mask[1:, :] |= e[1:, :] != e[:-1, :]
    return mask


def terrain_layer(m: HexMap, view: View) -> tuple[Image.Image, list[int], list[int]]:
    """The coloured terrain raster of the view at final size, with the terrain codes and the
    ground levels it shows (for the legend: :func:`legend_terrain`).  The raster is the artwork's own resolution (one
    map pixel), so it is coloured directly at the final size; vectors are drawn at 2x.

    One lookup does it all: every pixel gets the index (class, on-pattern, level or contour)
    into a small colour table of 4-byte RGBX words, so the cost is a few passes over the image.
    """
    pal = _palette(m.table)
    codes = _window(m.terrain, view)
    elev = _window(m.elevation, view)
    cls_small = pal.cls[codes]
    lo, hi = int(elev.min()), int(elev.max())
    lvl_colours = np.array([level_colour(v) for v in range(lo, hi + 1)], np.uint8)
    # (uint16 only when the levels and the contour index pass 255: a board of -128..127)
    lvl_small = (elev.astype(np.int16) - lo).astype(np.uint8 if hi - lo < 255 else np.uint16)
    levels = [lo + int(i) for i in np.flatnonzero(np.bincount(lvl_small.ravel()))]
    nlev = len(lvl_colours) + 1                     # the last "level" is the contour colour
    lvl_small[_contours(elev)] = nlev - 1
    rgbx = np.zeros((len(_CLASS_KEYS) * 2 * nlev, 4), np.uint8)
    rgbx[:, :3] = _colour_table(pal, lvl_colours).reshape(-1, 3)
    lut = rgbx.view(np.uint32).ravel()
    cls = _upsample(cls_small, view)
    lvl = _upsample(lvl_small, view)
    bits = _pattern_bits(cls.shape, _period(view))
    on = (bits >> _PATTERN_BIT[cls]) & 1
    index = (cls.astype(np.uint16) * 2 + on) * nlev + lvl
    image = Image.frombytes("RGB", view.size, lut[index], "raw", "RGBX")
    present = np.flatnonzero(np.bincount(codes.ravel(), minlength=256))
    return image, [int(c) for c in present], levels


def legend_terrain(table: TerrainTable, codes: Iterable[int]) -> list[tuple[str, str]]:
    """(style class, label) of every class of terrain ``codes`` shows, in the styles' order;
    the label names the class's terrain types shown, in their own words ("graveyard",
    "orchard, lumberyard"), not the class."""
    from hexwx.lineofsight.locations import terrain_words
    names: dict[str, list[str]] = {}
    for c in codes:
        if not table.has(c):
            continue
        t = table[c]
        words = names.setdefault(terrain_class(t), [])
        w = terrain_words(t)
        if w not in words:
            words.append(w)
    return [(k, ", ".join(sorted(names[k]))) for k in TERRAIN_STYLES if k in names]


def kept_terrain_layer(m: HexMap, view: View) -> tuple[Image.Image, list[int], list[int]]:
    """:func:`terrain_layer` of a whole-map view, kept with the map in the on-disk map cache
    (:func:`_kept_picture`): a later render of the map at this scale reads the pixels instead
    of colouring them."""
    def draw() -> tuple[Image.Image, list[int]]:
        image, codes, levels = terrain_layer(m, view)
        return image, [len(codes)] + codes + levels

    image, meta = _kept_picture(m, view, "terrain", "RGB", draw)
    n_codes = meta[0]
    return image, meta[1:1 + n_codes], meta[1 + n_codes:]


def kept_decorations_layer(m: HexMap, view: View, hexes: Iterable[int],
                           hex_ids: bool) -> tuple[Image.Image, set[str]]:
    """:func:`decorations_layer` of a whole-map view, kept with the map in the on-disk map
    cache (:func:`_kept_picture`), with and without hex ids apart."""
    keys = list(HEXSIDE_STYLES)

    def draw() -> tuple[Image.Image, list[int]]:
        image, sides = decorations_layer(m, view, hexes, hex_ids)
        return image, sorted(keys.index(k) for k in sides)

    image, meta = _kept_picture(m, view, "lines_ids" if hex_ids else "lines", "RGBA", draw)
    return image, {keys[i] for i in meta}


def _kept_picture(m: HexMap, view: View, what: str, mode: str,
                  draw: Callable[[], tuple[Image.Image, list[int]]]) -> tuple[Image.Image, list[int]]:
    """The picture ``draw()`` makes of a whole-map view (at final size, in ``mode``) with a few
    whole numbers about it (what the legend needs), kept as one array with the map
    (:meth:`HexMap.derived`: on disk when the map came through the map cache).  The array's
    name covers ``what``, the view and the drawing code (:func:`_drawing_code_tag`), so a change
    of colours, lines or fonts never shows a stale picture."""
    name = f"render_{what}_{_view_tag(view)}"
    made: list[tuple[Image.Image, list[int]]] = []

    def packed() -> np.ndarray:
        made.append(draw())
        image, meta = made[0]
        return np.concatenate([np.asarray([len(meta), *meta], np.int32).view(np.uint8),
                               np.asarray(image, np.uint8).ravel()])

    data = m.derived(name, packed)
    if made:
        return made[0]
    n_meta = int(data[:4].view(np.int32)[0])
    head = 4 * (1 + n_meta)
    meta = [int(v) for v in data[4:head].view(np.int32)]
    return Image.frombytes(mode, view.size, data[head:].tobytes()), meta


@lru_cache(maxsize=1)
def _drawing_code_tag() -> str:
    """A digest of what decides a kept picture's pixels: the code of this module and of the
    style, and the Pillow release (its built-in font and text rasteriser)."""
    import zlib
    from pathlib import Path
    import PIL
    from hexwx.render import style
    crc = zlib.crc32(PIL.__version__.encode())
    for f in (Path(__file__), Path(style.__file__)):
        crc = zlib.crc32(f.read_bytes(), crc)
    return f"{crc:08x}"


def _view_tag(view: View) -> str:
    """Short name of a whole-map view at its scale, with the drawing code's digest."""
    import zlib
    spec = f"{view.x0!r} {view.y0!r} {view.x1!r} {view.y1!r} {view.scale!r} {view.size} {view.turned}"
    return f"{_drawing_code_tag()}_{zlib.crc32(spec.encode()):08x}"


#: Bit of each pattern in :func:`_pattern_bits`; 7 = no pattern (never set).
_PATTERN_NUMBER = {name: i for i, name in enumerate(PATTERNS)}
_PATTERN_BIT = np.array([_PATTERN_NUMBER.get(TERRAIN_STYLES[k].pattern or "", 7)
                         for k in _CLASS_KEYS], np.uint8)


@lru_cache(maxsize=8)
def _pattern_bits(shape: tuple[int, int], period: int) -> np.ndarray:
    """uint8 [h, w]: bit i set where pattern PATTERNS[i] has ink (cached per canvas size).
    Every pattern repeats every ``period`` pixels both ways, so one tile is computed and
    tiled."""
    ys, xs = np.ogrid[0:period, 0:period]
    tile = np.zeros((period, period), np.uint8)
    for name, i in _PATTERN_NUMBER.items():
        tile |= pattern_mask(name, xs, ys, period).astype(np.uint8) << i
    h, w = shape
    bits = np.tile(tile, (-(-h // period), -(-w // period)))[:h, :w]
    bits.setflags(write=False)
    return bits


def _colour_table(pal: _Palette, lvl_colours: np.ndarray) -> np.ndarray:
    """uint8 [classes, 2 (on pattern), levels + contour, 3]."""
    nlev = len(lvl_colours) + 1
    lut = np.zeros((len(_CLASS_KEYS), 2, nlev, 3), np.uint8)
    ground = np.vstack([lvl_colours, np.array([CONTOUR], np.uint8)])
    for i, k in enumerate(_CLASS_KEYS):
        st = TERRAIN_STYLES[k]
        lut[i, :, :] = ground if st.fill is None else st.fill
        if st.pattern:
            lut[i, 1, :] = st.ink
    return lut


def board_layer(m: HexMap, view: View) -> Image.Image:
    """The boards' own artwork (VASL archive images, rotated where the board is) for the view:
    a new image, cut from :func:`board_art`."""
    art = board_art(m).crop((int(view.x0), int(view.y0), int(view.x1), int(view.y1)))
    if view.turned:
        art = art.rotate(180)
    return art if art.size == view.size else art.resize(view.size, Image.Resampling.LANCZOS)


#: Decoded board art by map object (:func:`board_art`); at most this many maps' art is kept.
_ART: weakref.WeakKeyDictionary[HexMap, Image.Image] = weakref.WeakKeyDictionary()
_ART_MAPS = 4


def board_art(m: HexMap) -> Image.Image:
    """The whole map's board artwork, RGB at map size: each board's image from its archive at
    its place, turned round where the board is rotated.  Decoded once per map object: later
    renders of the same map (any window, scale or overlay) reuse it, so treat it as read-only."""
    art = _ART.get(m)
    if art is None:
        art = compose_art(m)
        while len(_ART) >= _ART_MAPS:
            del _ART[next(iter(_ART))]
        _ART[m] = art
    return art


#: What :func:`compose_art` does with a board whose image is missing or unreadable.
ART_ERRORS = ("raise", "blank")


def compose_art(m: HexMap, *, errors: str = "raise",
                ground: tuple[int, int, int] = (255, 255, 255)) -> Image.Image:
    """The whole map's board artwork, a new RGB image at map size on ``ground``: each board's
    image from its archive (with its overlays' art) at its place, turned round where the board
    is rotated, only its crop where it is cropped.  ``errors``: "raise" (a render asked for the
    art) a :class:`UsageError` naming ``background`` for a board without an image, a
    :class:`DataError` naming the archive for one that cannot be decoded; or leave such a board
    "blank" (the viewer's picture shows the other boards)."""
    one_of(errors, ART_ERRORS, "errors")
    size = (m.grid.width_px, m.grid.height_px)
    placed = m.board_images
    if not placed or (len(placed) == 1 and m.image_bytes and placed[0][1:] == (0, 0, False, None)
                      and not m.overlay_art):
        # one board whose image the loader already holds: no second read of the archive
        if not m.image_bytes:
            if errors == "blank":
                return Image.new("RGB", size, ground)
            raise UsageError(f"background='board' needs a VASL board archive with its image; "
                             f"{m.name or m.source!r} has none (use background='terrain')",
                             param="background")
        art = _open_art(m.image_bytes, m.source or m.name, errors)
        if art is None:
            return Image.new("RGB", size, ground)
        return art if art.size == size else art.resize(size, Image.Resampling.LANCZOS)
    from hexwx.io.vasl import read_board_image
    from hexwx.render.overlay_art import painted_board
    canvas = Image.new("RGB", size, ground)
    for i, (path, x, y, rotated, clip) in enumerate(placed):
        data = read_board_image(path)
        if not data:
            if errors == "blank":
                continue
            raise UsageError(f"background='board': the archive {path} has no board image "
                             f"(use background='terrain')", param="background")
        art = _open_art(data, str(path), errors)
        if art is None:
            continue                         # an unreadable image: the board stays blank
        board = (m.grid.shape.width_px, m.grid.shape.height_px)   # the boards' own size
        if art.size != board:
            art = art.resize(board, Image.Resampling.LANCZOS)
        art = painted_board(m, i, art)
        paste_art(canvas, art.rotate(180) if rotated else art, int(x), int(y), clip)
    return canvas


def paste_art(canvas: Image.Image, art: Image.Image, x: int, y: int,
              clip: tuple[int, int, int, int] | None) -> None:
    """Paste a board's art with its top left at map pixel (x, y); only its ``clip``
    rectangle (board pixels: a cropped board's crop) when given."""
    if clip is None:
        canvas.paste(art, (x, y))
    else:
        cx, cy, cw, ch = clip
        canvas.paste(art.crop((cx, cy, cx + cw, cy + ch)), (x + cx, y + cy))


def _open_art(data: bytes, source: str, errors: str = "raise") -> Image.Image | None:
    """The decoded image; for an unreadable one, None when ``errors`` is "blank"."""
    from hexwx.errors import DataError
    from hexwx.limits import open_image  # header checked before decoding: no pixel bombs
    try:
        return open_image(data, source=source, what="board image").convert("RGB")
    except (OSError, ValueError, DataError):
        if errors == "blank":
            return None
        raise


# -------------------------------------------------------------------------------------------
# vector layers: grid, hexsides, board joins, hex ids
# -------------------------------------------------------------------------------------------

def visible_hexes(m: HexMap, view: View) -> np.ndarray:
    """Ids of hexes whose centre lies in (or within a hex of) the view."""
    g = m.grid
    x, y = g.centre_x, g.centre_y
    sel = ((x >= view.x0 - HEX_WIDTH_PX) & (x <= view.x1 + HEX_WIDTH_PX)
           & (y >= view.y0 - HEX_HEIGHT_PX) & (y <= view.y1 + HEX_HEIGHT_PX))
    return np.nonzero(sel)[0]


def _hex_poly(m: HexMap, view: View, h: Hex) -> list[tuple[float, float]]:
    return [view.c(x, y) for x, y in m.grid.corners(h)]


def grid_runs(m: HexMap, hexes: Iterable[int]) -> list[tuple[Hex, int, int]]:
    """The hex outlines of ``hexes`` as runs ``(hex, first side, number of sides)``, every
    hexside once: a hex leaves out the sides it shares with a listed hex of lower id (that
    hex draws them)."""
    listed = np.zeros(len(m.grid), bool)
    ids = np.asarray(list(hexes), np.int64)
    listed[ids] = True
    nb = m.grid.neighbours
    runs: list[tuple[Hex, int, int]] = []
    for h in ids.tolist():
        own = [not (0 <= nb[h, k] < h and listed[nb[h, k]]) for k in range(6)]
        if all(own):
            runs.append((h, 0, 6))
            continue
        for k in range(6):                 # a run starts at an own side after a shared one
            if own[k] and not own[k - 1]:
                n = 1
                while own[(k + n) % 6]:
                    n += 1
                runs.append((h, k, n))
    return runs


def decorations_layer(m: HexMap, view: View, hexes: Iterable[int],
                      hex_ids: bool) -> tuple[Image.Image, set[str]]:
    """The map's fixed line work over ``hexes`` as one transparent RGBA layer at final size,
    drawn at SUPERSAMPLE x and averaged down: the grid (:func:`grid_mask`), hexside features
    (their style keys are returned, for the legend), board joins and, with ``hex_ids``, hex
    names.  Pasted over the terrain and its veils it gives the pixels drawing each straight on
    the picture gives (to a level or two; a little more at a few pixels where a name's halo
    crosses the translucent grid), so it can be kept with the map
    (:func:`kept_decorations_layer`) and serve every render of the view."""
    layer = Image.new("RGBA", view.canvas_size, (*GRID_LINE[:3], 0))
    layer.putalpha(grid_mask(m, view, hexes))
    d = ImageDraw.Draw(layer)
    sides = draw_hexsides(d, m, view, hexes)
    draw_board_joins(d, m, view)
    if hex_ids:
        draw_hex_ids(d, m, view, hexes)
    return downsample(layer, view.size), sides


def grid_mask(m: HexMap, view: View, hexes: Iterable[int]) -> Image.Image:
    """The thin translucent hex outlines as an alpha mask at SUPERSAMPLE x, each hexside drawn
    once (:func:`grid_runs`), so where lines meet at a vertex the tone stays even."""
    mask = Image.new("L", view.canvas_size, 0)
    md = ImageDraw.Draw(mask)
    w = max(1, round(view.k * 0.9))
    for h, k, n in grid_runs(m, hexes):
        pts = _hex_poly(m, view, h)
        md.line([pts[(k + i) % 6] for i in range(n + 1)], fill=GRID_LINE[3], width=w)
    return mask


def _hexside_segments(m: HexMap, hexes: Iterable[int]) -> list[tuple[str, Hex, int]]:
    """(style key, hex, side) of every drawn hexside feature, each shared hexside once."""
    side_t = m.hexes.side_terrain
    seen: set[tuple[int, int]] = set()
    out: list[tuple[str, Hex, int]] = []
    for h in hexes:
        h = int(h)
        for k in range(6):
            code = int(side_t[h, k])
            if code < 0:
                continue
            key = hexside_style_key(m.table[code])
            if key is None:
                continue
            nb = int(m.grid.neighbours[h, k])
            ident = (min(h, nb), max(h, nb)) if nb >= 0 else (h, -1 - k)
            if ident in seen:
                continue
            seen.add(ident)
            out.append((key, h, k))
    return out


def _side_points(m: HexMap, h: Hex, k: int) -> tuple[tuple[float, float], tuple[float, float]]:
    c = m.grid.corners(h)
    return c[k], c[(k + 1) % 6]


def dashed_line(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
                fill: RGB, width: int, dash: float, gap: float) -> None:
    """A dashed straight line from ``a`` to ``b`` (canvas px)."""
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line((a[0] + ux * t, a[1] + uy * t, a[0] + ux * e, a[1] + uy * e), fill=fill, width=width)
        t = e + gap


def draw_hexsides(d: ImageDraw.ImageDraw, m: HexMap, view: View, hexes: Iterable[int]) -> set[str]:
    """Walls, hedges, bocage, cliffs on their hexsides; returns the style keys drawn."""
    used: set[str] = set()
    for key, h, k in _hexside_segments(m, hexes):
        _label, colour, width, dash = HEXSIDE_STYLES[key]
        a, b = (view.c(*p) for p in _side_points(m, h, k))
        w = view.px(width * 0.6)
        d.line((*a, *b), fill=(255, 255, 255), width=w + view.px(2))
        if dash:
            dashed_line(d, a, b, colour, w, dash[0] * view.k, dash[1] * view.k)
        else:
            d.line((*a, *b), fill=colour, width=w)
        if key == "cliff":
            _cliff_ticks(d, m, view, h, k, a, b, colour)
        used.add(key)
    return used


def _cliff_ticks(d: ImageDraw.ImageDraw, m: HexMap, view: View, h: Hex, k: int,
                 a: tuple[float, float], b: tuple[float, float], colour: RGB) -> None:
    """Short ticks on a cliff, pointing into the lower of the two hexes."""
    nb = int(m.grid.neighbours[h, k])
    low = nb if nb >= 0 and m.ground_level(nb) < m.ground_level(h) else h
    cx, cy = view.c(*m.grid.centre(low))
    for t in (0.2, 0.4, 0.6, 0.8):
        px, py = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        dx, dy = cx - px, cy - py
        n = math.hypot(dx, dy) or 1.0
        L = 7 * view.k
        d.line((px, py, px + dx / n * L, py + dy / n * L), fill=colour, width=view.px(1.6))


def draw_board_joins(d: ImageDraw.ImageDraw, m: HexMap, view: View) -> None:
    """Heavy lines where boards meet, and each board's number in its top-left corner."""
    g = m.grid
    bw, bh = g.shape.width_px, g.shape.height_px
    w = view.px(3)
    for bx in range(1, g.nbx):
        x = bx * bw
        d.line((*view.c(x, 0), *view.c(x, g.height_px)), fill=BOARD_JOIN, width=w)
    for by in range(1, g.nby):
        y = by * bh
        d.line((*view.c(0, y), *view.c(g.width_px, y)), fill=BOARD_JOIN, width=w)
    for b in g.boards:
        if not b.label:
            continue
        x, y = b.bx * bw + 8, b.by * bh + 6
        if view.sees(x, y, 0):
            cx, cy = view.c(x, y)
            halo_text(d, (cx, cy), f"board {b.label}", round(15 * view.k), anchor="la")


def draw_hex_ids(d: ImageDraw.ImageDraw, m: HexMap, view: View, hexes: Iterable[int]) -> None:
    """Each hex's name near its top edge, dark on a light halo (legible on any terrain).  The
    names are stamped from their column and row parts (:func:`~hexwx.render.style.halo_label`),
    each part rendered once: a board's 346 names come from 44 renderings."""
    size = round(10.5 * view.k)
    up = -HEX_HEIGHT_PX * 0.36 * (-1 if view.turned else 1)     # the top of the hex as drawn
    for h in hexes:
        x, y = m.grid.centre(int(h))
        halo_label(d, view.c(x, y + up), _name_parts(m.grid.name(int(h))), size)


def _name_parts(name: str) -> tuple[str, ...]:
    """``"2GG10"`` -> ``("2GG", "10")``: a hex name cut before its row number
    (:func:`~hexwx.hexmap.coords.split_name`)."""
    parts = split_name(name)
    if parts is None:
        return (name,)
    row = str(parts[2])
    return (name[:-len(row)], row)


# -------------------------------------------------------------------------------------------
# per-hex veils (viewshed, reach, fog): one value per hex, painted through the pixel->hex lookup
# -------------------------------------------------------------------------------------------

def hex_veil(base: Image.Image, m: HexMap, view: View, alpha: np.ndarray, colour: RGB,
             pattern: str | None = None) -> None:
    """Blend ``colour`` over every hex with ``alpha[h]`` (0-255) on the final-size ``base``; a
    pattern raises the alpha on its lines, so the veil is visible without colour.  One gather
    through the view's hex index (:func:`_veil_index`, shared by every veil) and one paste
    inside the box the veil covers."""
    alpha = np.clip(np.asarray(alpha), 0, 255).astype(np.uint8)
    if not alpha.any():
        return
    a_big = np.append(alpha, np.uint8(0)).take(_veil_index(m.geometry, view, len(alpha)))
    if pattern:
        on = (_pattern_bits(a_big.shape, _period(view)) >> _PATTERN_NUMBER[pattern]) & 1
        a_big = np.where(on.astype(bool), _BOOSTED[a_big], a_big)
    mask = Image.fromarray(a_big, "L")
    box = mask.getbbox()
    if box is not None:
        base.paste(colour, box, mask.crop(box))


#: Alpha on a pattern's lines: raised, so that a veil shows without colour (0 stays 0).
_BOOSTED = np.minimum(255, np.arange(256) * 2 + 40).astype(np.uint8)
_BOOSTED[0] = 0


@lru_cache(maxsize=4)
def _veil_index(geo: PixelGeometry, view: View, n: int) -> np.ndarray:
    """int32 [h, w] at final size: the hex of every pixel of the view, ``n`` where there is
    none.  Made once per geometry and view: every veil of a render (fog, snow, viewshed,
    reach...) gathers its per-hex alpha through it."""
    hex_at = _window(geo.hex_at, view)
    index = np.where(hex_at >= 0, hex_at, n).astype(np.int32)
    if index.shape[::-1] != view.size:
        index = np.asarray(Image.fromarray(index, "I").resize(view.size, Image.Resampling.NEAREST))
    index.setflags(write=False)
    return index


def _period(view: View) -> int:
    """Pattern period in final pixels (8 at full scale, never below 4)."""
    return max(4, round(8 * view.scale))


# -------------------------------------------------------------------------------------------
# badges and lines
# -------------------------------------------------------------------------------------------

def badge(d: ImageDraw.ImageDraw, view: View, centre_map: tuple[float, float], text: str,
          colour: RGB, shape: str, *, kind: str, target: str) -> Marker:
    """A filled badge (``square`` or ``circle``) with ``text``; the marker's sample point is a
    solid part of the badge away from the text."""
    size = 15 * view.k if text else 10 * view.k
    tw = font(round(11 * view.k)).getlength(text) if text else 0
    half_w = max(size / 2, tw / 2 + 7 * view.k)
    half_h = size / 2
    cx, cy = view.c(*centre_map)
    box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    outline_w = view.px(1.2)
    if shape == "circle":
        d.rounded_rectangle(box, radius=half_h, fill=colour, outline=(0, 0, 0), width=outline_w)
    else:
        d.rectangle(box, fill=colour, outline=(0, 0, 0), width=outline_w)
    if text:
        d.text((cx, cy), text, font=font(round(11 * view.k)), fill=(0, 0, 0), anchor="mm")
    sample_x = centre_map[0] - (half_w - 3.5 * view.k) / view.k
    return Marker(kind, target, view.final(sample_x, centre_map[1]), colour, text)


def thick_line(d: ImageDraw.ImageDraw, view: View, a: tuple[float, float], b: tuple[float, float],
               colour: RGB, width: float, *, dashed: bool = False) -> None:
    """A line between map points with a white casing, solid or dashed."""
    ca, cb = view.c(*a), view.c(*b)
    d.line((*ca, *cb), fill=(255, 255, 255), width=view.px(width + 2.5))
    if dashed:
        dashed_line(d, ca, cb, colour, view.px(width), 9 * view.k, 6 * view.k)
    else:
        d.line((*ca, *cb), fill=colour, width=view.px(width))


def ring(d: ImageDraw.ImageDraw, m: HexMap, view: View, h: Hex, colour: RGB, width: float = 3.0) -> None:
    """An outline along the inside of hex ``h``."""
    x, y = m.grid.centre(h)
    pts = [view.c(x + (px - x) * 0.92, y + (py - y) * 0.92) for px, py in m.grid.corners(h)]
    d.line(pts + [pts[0]], fill=colour, width=view.px(width), joint="curve")


def x_mark(d: ImageDraw.ImageDraw, view: View, p: tuple[float, float], colour: RGB, *,
           kind: str, target: str) -> Marker:
    """The blocking point: a filled disk with a white X; the sample point is inside the disk."""
    r = 9 * view.k
    cx, cy = view.c(*p)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(255, 255, 255), width=view.px(1.5))
    q = r * 0.5
    w = view.px(2)
    d.line((cx - q, cy - q, cx + q, cy + q), fill=(255, 255, 255), width=w)
    d.line((cx - q, cy + q, cx + q, cy - q), fill=(255, 255, 255), width=w)
    return Marker(kind, target, view.final(p[0], p[1] - 6.0), colour)


# -------------------------------------------------------------------------------------------
# overlays
# -------------------------------------------------------------------------------------------

def is_lv(kind: str) -> bool:
    words = set(re.findall(r"[a-z]+", str(kind).lower()))
    return bool(words & set(LV_KINDS))


def _sgn(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _end(r: LosResult, which: str) -> str:
    """One end of a LOS as players name it, with its elevation: ``J4 (hill level 3)``,
    ``D4 rooftop, elevation 3``."""
    name = str(getattr(r, which))
    level = getattr(r, f"{which}_level", 0)
    loc = getattr(r, f"{which}_location", "")     # results drawn from elsewhere may lack these
    elev = getattr(r, f"{which}_elevation", None)
    if not loc or elev is None:
        return name + (f" level {level}" if level else "")
    if level == 0 or "elevation" in loc:          # "J4 (hill level 3)" says it already
        return loc
    return f"{loc}, elevation {elev}"


def los_caption(result: LosResult) -> str:
    """The caption of a LOS result: ends, range, verdict with the reason and rule, every
    hindrance and LV hex with its DRM, and the total.  Tests compare it with the result."""
    r = result
    head = f"LOS {_end(r, 'source')} -> {_end(r, 'target')}, range {r.range}: "
    if r.blocked:    # (the hindrances of a six-or-more total are listed below)
        verdict = r.verdict_text(parts=False)
    else:
        verdict = f"clear: {r.reason}" if r.reason and r.reason != "clear" else "clear"
        if r.rule:
            verdict += f" ({r.rule})"
    parts = [head + verdict]
    hs = r.hindrances
    if hs:
        parts.append("hindrances: " + "; ".join(
            (f"{x.hex} " if x.hex else "") + f"{x.kind} {_sgn(int(x.drm))}"
            + (f" {x.name}" if getattr(x, "name", None) else "")
            + (f", {x.note}" if getattr(x, "note", "") else "")
            + (f" ({x.rule})" if x.rule else "") for x in hs))
    parts += [f"note: {n}" for n in getattr(r, "notes", ())]
    if r.drm is not None:   # a blocked LOS has no DRM (text, JSON and .drm agree)
        parts.append(f"terrain hindrance {_sgn(int(r.hindrance))}, LV {_sgn(int(r.lv))}, "
                     f"total DRM {_sgn(int(r.drm))}")
    return "\n".join(parts)


def draw_los(d: ImageDraw.ImageDraw, m: HexMap, view: View, r: LosResult) -> list[Marker]:
    """The LOS thread (green clear; red dashed past the blocking point, marked with an X) and a
    badge with the DRM on every hindrance (square, orange) and LV (round, sky blue) hex."""
    a = m.grid.centre(_hex(m, r.source, "los"))
    b = m.grid.centre(_hex(m, r.target, "los"))
    markers: list[Marker] = []
    if r.blocked and r.blocked_at is not None:
        p = (float(r.blocked_at[0]), float(r.blocked_at[1]))
        thick_line(d, view, a, p, OVERLAY["los clear"], 3.5)
        thick_line(d, view, p, b, OVERLAY["los blocked"], 3.5, dashed=True)
        markers.append(x_mark(d, view, p, OVERLAY["los blocked"], kind="blocked",
                              target=r.blocking_hex or ""))
    elif r.blocked:
        thick_line(d, view, a, b, OVERLAY["los blocked"], 3.5, dashed=True)
    else:
        thick_line(d, view, a, b, OVERLAY["los clear"], 3.5)
    markers += _hindrance_badges(d, m, view, r.hindrances)
    for p_end in (a, b):
        _end_dot(d, view, p_end)
    return markers


def _end_dot(d: ImageDraw.ImageDraw, view: View, p: tuple[float, float]) -> None:
    r = 6 * view.k
    cx, cy = view.c(*p)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(0, 0, 0), outline=(255, 255, 255), width=view.px(1.5))


def hindrance_place(m: HexMap, where: str) -> tuple[list[Hex], tuple[float, float]]:
    """Hexes of a hindrance's place (``"F7"``, or ``"E7/F7"`` for a hexside) and its centre."""
    hs = [_hex(m, part, "hindrance") for part in str(where).split("/")]
    pts = [m.grid.centre(h) for h in hs]
    return hs, (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _hindrance_badges(d: ImageDraw.ImageDraw, m: HexMap, view: View,
                      hs: Iterable[Hindrance]) -> list[Marker]:
    """A badge with the DRM for every hindrance tied to a place: square orange for terrain,
    round sky blue for LV; a second badge in the same place goes to the other side."""
    markers: list[Marker] = []
    count: dict[tuple[float, float], int] = {}
    for x in hs:
        if not x.hex:
            continue  # range-based LV (mist, rain, camouflage): in the caption only
        hexes, (cx, cy) = hindrance_place(m, x.hex)
        lv = is_lv(x.kind)
        colour = OVERLAY["lv" if lv else "hindrance"]
        if len(hexes) == 1:
            ring(d, m, view, hexes[0], colour, 2.5)
        n = count.get((cx, cy), 0)
        count[(cx, cy)] = n + 1
        pos = (cx + (14 if n % 2 == 0 else -14), cy + 16 + 14 * (n // 2))
        markers.append(badge(d, view, pos, _sgn(int(x.drm)), colour, "circle" if lv else "square",
                             kind="lv" if lv else "hindrance", target=str(x.hex)))
    return markers


def veil_viewshed(base: Image.Image, m: HexMap, view: View, vs: Viewshed) -> None:
    """Hexes out of LOS under a dark hatched veil; hindered hexes under an orange veil that
    deepens with the DRM."""
    blocked = np.asarray(vs.blocked, bool)
    drm = np.asarray(vs.drm, np.int32)
    hidden = np.where(blocked, 120, 0)
    hex_veil(base, m, view, hidden, OVERLAY["viewshed hidden"], "backhatch")
    hind = np.where(~blocked & (drm > 0), np.clip(60 + 40 * drm, 0, 200), 0)
    hex_veil(base, m, view, hind, OVERLAY["viewshed hindered"])


def label_viewshed(d: ImageDraw.ImageDraw, m: HexMap, view: View, vs: Viewshed, source: Hex,
                   hexes: Iterable[int]) -> list[Marker]:
    """The DRM printed in every hindered hex; the viewer's hex ringed in black."""
    blocked = np.asarray(vs.blocked, bool)
    drm = np.asarray(vs.drm, np.int32)
    markers: list[Marker] = []
    for h in hexes:
        h = int(h)
        if not blocked[h] and drm[h] > 0:
            cx, cy = m.grid.centre(h)
            halo_text(d, view.c(cx, cy + 8), _sgn(int(drm[h])), round(13 * view.k))
            markers.append(Marker("viewshed hindered", m.grid.name(h),
                                  view.final(cx - 18, cy + 10), OVERLAY["viewshed hindered"],
                                  _sgn(int(drm[h]))))
    ring(d, m, view, source, OVERLAY["source"], 4)
    return markers


def veil_exposure(base: Image.Image, m: HexMap, view: View, ex: Exposure) -> None:
    """The exposure heat map: a vermillion cross-hatched veil deepening with the count of
    observers that see the hex; hexes without the level left bare."""
    count = np.asarray(ex.count, np.int32)
    top = max(1, int(count.max()))
    alpha = np.where(count > 0, 25 + (150 * count) // top, 0)
    hex_veil(base, m, view, alpha, OVERLAY["exposure"], "cross")


def label_exposure(d: ImageDraw.ImageDraw, m: HexMap, view: View, ex: Exposure,
                   hexes: Iterable[int]) -> list[Marker]:
    """The count of observers printed in every hex that has the level."""
    count = np.asarray(ex.count, np.int32)
    markers: list[Marker] = []
    for h in hexes:
        h = int(h)
        if count[h] >= 0:
            cx, cy = m.grid.centre(h)
            halo_text(d, view.c(cx, cy + 8), str(int(count[h])), round(13 * view.k))
            markers.append(Marker("exposure", m.grid.name(h), view.final(cx - 18, cy + 10),
                                  OVERLAY["exposure"], str(int(count[h]))))
    return markers


def exposure_caption(ex: Exposure) -> str:
    obs = getattr(ex, "observers", None)
    who = f"of {', '.join(obs)}" if obs else "hexes"
    return (f"exposure at level {ex.level}: how many {who} see each hex "
            f"({getattr(ex, 'weather', 'Clear')}); most seen {int(np.asarray(ex.count).max())} "
            "(deeper red = seen by more)")


def viewshed_caption(m: HexMap, vs: Viewshed, source: Hex, level: int) -> str:
    blocked = np.asarray(vs.blocked, bool)
    drm = np.asarray(vs.drm, np.int32)
    seen = int((~blocked).sum()) - 1
    hindered = int(((~blocked) & (drm > 0)).sum())
    from hexwx.lineofsight.locations import elevation, location_name
    where = location_name(m, source, level)
    if level and "elevation" not in where:
        where += f", elevation {elevation(m, source, level)}"
    return (f"viewshed of {where}: {seen} of {len(m.grid) - 1} hexes in LOS, "
            f"{hindered} of them hindered (DRM shown), {int(blocked.sum())} out of LOS (hatched)")


# -------------------------------------------------------------------------------------------
# weather
# -------------------------------------------------------------------------------------------

def draw_weather(base: Image.Image, m: HexMap, view: View, w: AslWeather) -> None:
    """Fog over every hex at or below the fog level (3.31), a mud or snow veil (on ``base``)."""
    levels = m.hexes.base
    if w.fog_level is not None:
        alpha = np.where(levels <= w.fog_level, 130, 0)
        hex_veil(base, m, view, alpha, OVERLAY["fog"], "hlines")
    if w.mud:
        hex_veil(base, m, view, np.full(len(m.grid), 45), OVERLAY["mud"], "dots")
    if w.ground_snow or w.deep_snow:     # a light wash and white flakes: the art stays legible
        a = SNOW_ALPHA["deep" if w.deep_snow else "ground"]
        hex_veil(base, m, view, np.full(len(m.grid), a), OVERLAY["snow"], "dots")


#: Alpha (0-255) of the snow wash between its flakes (the flakes get :data:`_BOOSTED`'s).
SNOW_ALPHA = {"ground": 30, "deep": 55}


def draw_drifts(d: ImageDraw.ImageDraw, m: HexMap, view: View, w: AslWeather) -> list[Marker]:
    return [draw_drift(d, m, view, dr) for dr in w.drifts]


def draw_drift(d: ImageDraw.ImageDraw, m: HexMap, view: View, drift: Drift) -> Marker:
    """A drift: a white bar with a blue casing along its hexside."""
    h = _hex(m, drift.hex, "drift")
    a, b = (view.c(*p) for p in _side_points(m, h, int(drift.hexside)))
    d.line((*a, *b), fill=OVERLAY["drift outline"], width=view.px(10))
    d.line((*a, *b), fill=OVERLAY["drift"], width=view.px(6))
    (ax, ay), (bx, by) = _side_points(m, h, int(drift.hexside))
    return Marker("drift", m.grid.name(h), view.final((ax + bx) / 2, (ay + by) / 2), OVERLAY["drift"])


def weather_caption(w: AslWeather) -> str:
    bits = [f"weather: {w.describe()}"]
    if w.fog_level is not None:
        bits.append(f"fog veils hexes of ground level {w.fog_level} and lower")
    if w.drifts:
        bits.append("drifts: " + ", ".join(str(x) for x in w.drifts))
    return "; ".join(bits)


# -------------------------------------------------------------------------------------------
# movement (reads hexwx.movement.paths results)
# -------------------------------------------------------------------------------------------

def _path_steps(p: MovePath) -> list[tuple[str, str]]:
    """(hex name, cumulative cost label) of each hex of a :class:`~hexwx.movement.paths.MovePath`:
    the start at 0, then the running sum of the steps' own costs ("all" once a step takes the
    whole move, e.g. across a drift)."""
    hexes = p.hexes
    if not hexes:
        return []
    out = [(str(hexes[0]), "0")]
    total: float | None = 0.0
    for name, st in zip(hexes[1:], p.steps):
        cost = st.cost
        total = None if (total is None or cost is None) else total + float(cost)
        out.append((str(name), "all" if total is None else f"{total:g}"))
    return out


def draw_path(d: ImageDraw.ImageDraw, m: HexMap, view: View, p: MovePath) -> list[Marker]:
    """The path as a blue line through hex centres with the cumulative cost at each hex."""
    steps = _path_steps(p)
    pts = [m.grid.centre(_hex(m, h, "path")) for h, _ in steps]
    for a, b in zip(pts, pts[1:]):
        thick_line(d, view, a, b, OVERLAY["path"], 3.5)
    markers = []
    for (name, cost), (x, y) in zip(steps, pts):
        markers.append(badge(d, view, (x, y), cost, tint_badge(OVERLAY["path"]), "circle",
                             kind="path", target=name))
    return markers


def tint_badge(rgb: RGB) -> RGB:
    """A lighter badge fill so black text on it stays legible (blue is too dark for black)."""
    return tuple(round(c + (255 - c) * 0.55) for c in rgb)  # type: ignore[return-value]


def veil_reach(base: Image.Image, m: HexMap, view: View, r: Reach) -> None:
    """Reachable hexes under a hatched sky-blue veil."""
    alpha = np.zeros(len(m.grid), np.int32)
    for h in reach_costs(m, r):
        alpha[h] = 110
    hex_veil(base, m, view, alpha, OVERLAY["reach"], "hatch")


def label_reach(d: ImageDraw.ImageDraw, m: HexMap, view: View, r: Reach,
                source: Hex) -> list[Marker]:
    """The cost printed in every reachable hex; the start ringed."""
    markers = []
    for h, c in reach_costs(m, r).items():
        cx, cy = m.grid.centre(h)
        if view.sees(cx, cy, 0):
            halo_text(d, view.c(cx, cy + 12), f"{c:g}", round(12 * view.k))
            markers.append(Marker("reach", m.grid.name(h), view.final(cx - 20, cy + 14),
                                  OVERLAY["reach"], f"{c:g}"))
    ring(d, m, view, source, OVERLAY["source"], 4)
    return markers


def reach_costs(m: HexMap, r: Reach) -> dict[Hex, float]:
    """{hex id: cost} of a reach result."""
    return {_hex(m, h, "reach"): float(c) for h, c in r.costs.items()}


# -------------------------------------------------------------------------------------------
# the whole picture
# -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MapOptions:
    """What a map picture shows and how: the answers drawn over the map (each optional), the
    weather, and the framing.  One typed value passed through :func:`render_map`,
    :func:`hexwx.render.svg.map_svg` and the notebook pictures.

    ``background``: ``"terrain"`` (our colours, patterns and level contours) or ``"board"`` (a
    VASL board's own artwork).  ``window``: two hexes, crop to their bounding box.  ``units``:
    scenario units (``id``, ``side``, ``hex``, ``kind``) drawn as counters
    (:mod:`hexwx.render.units`).  ``counters``: the counters on the map (SMOKE, wrecks, ...)
    drawn as small tiles (:mod:`hexwx.render.counters`); the LOS result's own counter
    hindrances carry their badges on the thread.  ``viewshed_from``/``reach_from``: the hex
    the viewshed or reach is counted from (default: the answer's own).
    """

    los: LosResult | None = None
    viewshed: Viewshed | None = None
    viewshed_from: str | Hex | None = None
    viewshed_level: int = 0
    path: MovePath | None = None
    reach: Reach | None = None
    reach_from: str | Hex | None = None
    exposure: Exposure | None = None
    weather: AslWeather | None = None
    background: str = "terrain"
    scale: float = 1.0
    window: Sequence[str | Hex] | None = None
    hex_ids: bool = True
    legend: bool = True
    title: str | None = None
    units: Sequence[object] = ()
    counters: Sequence[object] = ()

    def __post_init__(self) -> None:
        one_of(self.background, BACKGROUNDS, "background")
        if self.weather is not None and not isinstance(self.weather, AslWeather):
            raise bad("weather", self.weather, "an AslWeather or None")

    def but(self, **changes: object) -> MapOptions:
        """These options with ``changes`` (field names; an unknown name is a UsageError)."""
        unknown = sorted(set(changes) - set(MapOptions.__dataclass_fields__))
        if unknown:
            raise bad(unknown[0], changes[unknown[0]],
                      f"no such picture option; the options are {', '.join(MapOptions.__dataclass_fields__)}")
        return replace(self, **changes)  # type: ignore[arg-type]


def render_map(m: HexMap, options: MapOptions | None = None, /, **changes: object) -> Rendering:
    """Draw hex map ``m`` with the answers and weather ``options`` names (:class:`MapOptions`;
    its fields may also be given as keywords: ``render_map(m, los=r, window=("A1", "N10"))``);
    returns a :class:`Rendering` whose ``caption`` is the text printed under the map (LOS
    verdict, weather, ...)."""
    o = (options or MapOptions()).but(**changes) if changes else (options or MapOptions())
    los, viewshed, viewshed_from, viewshed_level = o.los, o.viewshed, o.viewshed_from, o.viewshed_level
    path, reach, reach_from, exposure = o.path, o.reach, o.reach_from, o.exposure
    weather, background, scale, window = o.weather, o.background, o.scale, o.window
    hex_ids, legend, title, units = o.hex_ids, o.legend, o.title, o.units
    art_map = m                                    # the boards' art is the same in any weather
    m = transformed(m, weather_changes(weather))  # snow turns brush / marsh to open ground (E3 3.7)
    counters = list(o.counters)
    if counters:                                   # rubble counters redraw their hexes (B24)
        from hexwx.lineofsight.counter_los import with_counters
        m = with_counters(m, counters)[0]
    if viewshed is not None and viewshed_from is None:
        viewshed_from = viewshed.source
    view = make_view(m, scale=scale, window=window)
    vs_src = _hex(m, viewshed_from, "viewshed_from") if viewshed is not None and viewshed_from is not None else 0
    reach_src = None
    if reach is not None:
        reach_src = _hex(m, reach_from if reach_from is not None else reach.start, "reach_from")
    codes: list[int]
    levels: list[int]
    keep = window is None and m.kept_on_disk      # a whole-map view: its layers kept with the map
    if background == "board":
        base, codes, levels = board_layer(art_map, view), [], []
    elif keep:
        base, codes, levels = kept_terrain_layer(m, view)
    else:
        base, codes, levels = terrain_layer(m, view)
    hexes = visible_hexes(m, view)
    markers: list[Marker] = []
    captions: list[str] = [title or _title(m)]
    overlays: list[str] = []
    # 1. per-hex veils on the base, at final size
    if weather is not None:
        draw_weather(base, m, view, weather)
        captions.append(weather_caption(weather))
        overlays += _weather_keys(weather)
    if viewshed is not None:
        veil_viewshed(base, m, view, viewshed)
        captions.append(viewshed_caption(m, viewshed, vs_src, viewshed_level))
        captions += [f"note: {n}" for n in getattr(viewshed, "notes", ())]   # (E3.53, E3.734)
        overlays += ["viewshed"]
    if exposure is not None:
        veil_exposure(base, m, view, exposure)
        captions.append(exposure_caption(exposure))
        overlays += ["exposure"]
    if reach is not None:
        veil_reach(base, m, view, reach)
        captions.append(reach_caption(m, reach, reach_src))
        overlays += ["reach"]
    # 2. the fixed line work (grid, hexsides, joins, hex ids), one layer pasted over
    if keep:
        lines, sides = kept_decorations_layer(m, view, hexes, hex_ids)
    else:
        lines, sides = decorations_layer(m, view, hexes, hex_ids)
    base.paste(lines, (0, 0), lines)
    # 3. overlays: lines and text at SUPERSAMPLE x on the picture enlarged, then averaged down
    drifts = weather is not None and bool(weather.drifts)
    image = base
    if drifts or units or counters or any(a is not None
                                          for a in (viewshed, exposure, reach, path, los)):
        canvas = base.resize(view.canvas_size, Image.Resampling.NEAREST)
        d = ImageDraw.Draw(canvas)
        if viewshed is not None:
            markers += label_viewshed(d, m, view, viewshed, vs_src, hexes)
        if exposure is not None:
            markers += label_exposure(d, m, view, exposure, hexes)
        if reach is not None:
            markers += label_reach(d, m, view, reach, reach_src if reach_src is not None else 0)
        if weather is not None:
            markers += draw_drifts(d, m, view, weather)
        if path is not None:
            markers += draw_path(d, m, view, path)
        if counters:
            from hexwx.render.counters import draw_counters
            markers += draw_counters(d, m, view, counters)
        if units:
            from hexwx.render.units import draw_units
            markers += draw_units(d, m, view, units)
        if los is not None:
            markers += draw_los(d, m, view, los)
        image = downsample(canvas, view.size)
    if path is not None:
        captions.append(path_caption(path))
        overlays += ["path"]
    if units:
        from hexwx.render.units import units_caption
        captions.append(units_caption(units))
    if counters:
        from hexwx.render.counters import counters_caption
        captions.append(counters_caption(counters))
    if los is not None:
        captions.append(los_caption(los))
        overlays += ["los"]
    caption = "\n".join(captions)
    entries = legend_entries(legend_terrain(m.table, codes), levels, sides, overlays)
    if legend:
        image = stack([image, legend_strip(entries, captions, image.width,
                                           size=max(11, round(15 * min(1.0, view.scale * 1.2))))])
    return Rendering(image=image, caption=caption, markers=tuple(markers), scale=view.scale,
                     origin=((float(view.x1), float(view.y1)) if view.turned
                             else (float(view.x0), float(view.y0))), turned=view.turned,
                     legend=tuple(label for _img, label in entries))


def _title(m: HexMap) -> str:
    boards = ", ".join(b.label for b in m.grid.boards if b.label)
    what = f"board {boards}" if boards and m.kind == "vasl" else (m.name or "map")
    return f"{what}" if what == m.name else f"{m.name}: {what}" if m.name else what


def _weather_keys(w: AslWeather) -> list[str]:
    keys = []
    if w.fog_level is not None:
        keys.append("fog")
    if w.mud:
        keys.append("mud")
    if w.ground_snow or w.deep_snow:
        keys.append("snow")
    if w.drifts:
        keys.append("drift")
    return keys


def path_caption(p: MovePath) -> str:
    if not p.found:
        return f"path: none for {p.unit}: {p.reason}"
    steps = _path_steps(p)
    if not steps:
        return "path: none"
    total = p.total
    cost = "the whole move" if total is None else f"{float(total):g}"
    measure = p.measure
    unit = p.unit
    who = f" for {unit}" if unit else ""
    return (f"path {steps[0][0]} -> {steps[-1][0]}{who}: {len(steps) - 1} steps, cost {cost} "
            f"{measure} (cumulative cost at each hex)")


def reach_caption(m: HexMap, r: Reach, src: Hex | None) -> str:
    n = len(reach_costs(m, r))
    mf = r.mf
    start = f" from {m.grid.name(src)}" if src is not None else ""
    who = f" for {r.unit}" if r.unit else ""
    lim = f" with {mf:g} MF/MP" if isinstance(mf, (int, float)) else ""
    return f"reach{start}{who}{lim}: {n} hexes (cumulative cost shown)"


def legend_entries(terrain: list[tuple[str, str]], levels: list[int], sides: set[str],
                   overlays: list[str], size: int = 20) -> list[tuple[Image.Image, str]]:
    """Legend swatches: ground levels, terrain shown ((class, label): :func:`legend_terrain`),
    hexside lines, overlay keys."""
    from hexwx.render.style import OVERLAY as O, level_colour as lc
    out: list[tuple[Image.Image, str]] = []
    for lv in levels:
        out.append((swatch(size, lc(lv), None, (0, 0, 0)), f"level {lv}"))
    for k, label in terrain:
        if k not in ("open", "hexside"):
            st = TERRAIN_STYLES[k]
            out.append((swatch(size, st.fill or lc(0), st.pattern, st.ink), label or st.label))
    for k in HEXSIDE_STYLES:
        if k in sides:
            label, colour, width, dash = HEXSIDE_STYLES[k]
            out.append((line_swatch(size, colour, width * 0.8, dash), label))
    keys = {
        "los": [(line_swatch(size, O["los clear"], 4), "LOS clear"),
                (line_swatch(size, O["los blocked"], 4, (5, 3)), "LOS blocked"),
                (marker_swatch(size, O["los blocked"], "circle"), "blocking point"),
                (marker_swatch(size, O["hindrance"], "square"), "hindrance DRM"),
                (marker_swatch(size, O["lv"], "circle"), "LV DRM")],
        "viewshed": [(swatch(size, (110, 110, 110), "backhatch", (40, 40, 40)), "out of LOS"),
                     (swatch(size, tint_badge(O["viewshed hindered"]), None, (0, 0, 0)), "hindered (DRM)")],
        "path": [(line_swatch(size, O["path"], 4), "path (cumulative cost)")],
        "reach": [(swatch(size, tint_badge(O["reach"]), "hatch", O["reach"]), "reachable")],
        "exposure": [(swatch(size, tint_badge(O["exposure"]), "cross", O["exposure"]),
                      "seen by many (count)")],
        "fog": [(swatch(size, (215, 220, 226), "hlines", (160, 170, 180)), "fog")],
        "mud": [(swatch(size, tint_badge(O["mud"]), "dots", O["mud"]), "mud")],
        "snow": [(swatch(size, (245, 248, 252), "dots", (180, 190, 200)), "snow")],
        "drift": [(line_swatch(size, O["drift outline"], 6), "drift (hexside)")],
    }
    for k in overlays:
        out += keys.get(k, [])
    return out
