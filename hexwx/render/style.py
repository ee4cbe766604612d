"""Shared drawing style for hexwx images: palettes as data, fonts, the 2x canvas, the result.

Colours follow the Okabe–Ito colour-blind-safe palette (Okabe & Ito 2008, "Color Universal
Design"): overlays use its eight hues at full strength; terrain uses lighter or darker tints of
the same hues, and every terrain class whose colour alone would carry the meaning also gets a
pattern (hatching, dots) in the legend and on the map.  Ground levels are a sequential brown
ramp with dark contour lines where the level changes, so levels read without colour.

Drawing happens on a canvas :data:`SUPERSAMPLE` times the final size (a :class:`Frame` maps
map or table coordinates onto it) and is averaged down block by block at the end, which
anti-aliases every line and label.  Text always has a halo (a stroke
in the opposite tone), so labels stay legible on dark terrain.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

from hexwx.errors import DataError
from hexwx.render.png import png_bytes

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

#: Drawing is done at this multiple of the final size, then downsampled (anti-aliasing).
SUPERSAMPLE = 2


def hex_rgb(text: str) -> RGB:
    """``"#E69F00"`` -> ``(230, 159, 0)``."""
    t = text.lstrip("#")
    return (int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16))


#: The Okabe–Ito palette, by name.
OKABE_ITO: dict[str, RGB] = {
    "black": hex_rgb("#000000"),
    "orange": hex_rgb("#E69F00"),
    "sky blue": hex_rgb("#56B4E9"),
    "bluish green": hex_rgb("#009E73"),
    "yellow": hex_rgb("#F0E442"),
    "blue": hex_rgb("#0072B2"),
    "vermillion": hex_rgb("#D55E00"),
    "reddish purple": hex_rgb("#CC79A7"),
}
OI = OKABE_ITO


def tint(rgb: RGB, amount: float) -> RGB:
    """``rgb`` mixed with white (amount > 0) or black (amount < 0); amount in -1..1."""
    target = 255 if amount > 0 else 0
    a = abs(amount)
    return tuple(round(c + (target - c) * a) for c in rgb)  # type: ignore[return-value]


# -------------------------------------------------------------------------------------------
# overlay colours (full-strength Okabe–Ito); each overlay also differs by shape or dash
# -------------------------------------------------------------------------------------------

OVERLAY: dict[str, RGB] = {
    "los clear": OI["bluish green"],     # solid line
    "los blocked": OI["vermillion"],     # dashed line after the blocking point, X marker
    "hindrance": OI["orange"],           # square badge with the DRM
    "lv": OI["sky blue"],                # round badge with the LV DRM
    "path": OI["blue"],                  # line with round cost badges
    "reach": OI["sky blue"],             # translucent fill + outline
    "viewshed hidden": (40, 40, 40),     # dark veil with hatching
    "viewshed hindered": OI["orange"],   # orange veil, stronger with the DRM
    "source": OI["black"],
    "drift": (255, 255, 255),            # white bar with a blue outline
    "drift outline": OI["blue"],
    "fog": (232, 236, 240),              # pale veil with horizontal stripes
    "mud": tint(OI["vermillion"], -0.55),
    "snow": (250, 252, 255),
    "exposure": OI["vermillion"],        # veil deepening with the count, count printed
}

# -------------------------------------------------------------------------------------------
# hex-map terrain classes: (label, colour, pattern) — pattern is one of PATTERNS or None
# -------------------------------------------------------------------------------------------

PATTERNS = ("hatch", "backhatch", "dots", "hlines", "cross", "vlines", "craters")


@dataclass(frozen=True)
class TerrainStyle:
    """How one class of terrain is drawn: legend label, fill colour, pattern and ink.  The
    legend names the terrain types of the class that the picture shows (their own names, e.g.
    "graveyard"); ``label`` names the class where no type is known."""

    label: str
    fill: RGB | None          # None: the ground-level colour shows through
    pattern: str | None = None
    ink: RGB = (0, 0, 0)      # pattern colour


TERRAIN_STYLES: dict[str, TerrainStyle] = {
    "open": TerrainStyle("open ground", None),
    "road": TerrainStyle("road", (205, 200, 190)),
    "water": TerrainStyle("water", tint(OI["sky blue"], 0.15), "hlines", tint(OI["blue"], -0.1)),
    "stream": TerrainStyle("stream / gully", tint(OI["sky blue"], 0.55), "dots", OI["blue"]),
    "woods": TerrainStyle("woods", tint(OI["bluish green"], -0.35), "dots", tint(OI["bluish green"], 0.55)),
    "light woods": TerrainStyle("orchard / light woods", tint(OI["bluish green"], 0.45), "dots",
                                tint(OI["bluish green"], -0.5)),
    "grain": TerrainStyle("grain", tint(OI["yellow"], 0.25), "hatch", tint(OI["orange"], -0.2)),
    "brush": TerrainStyle("brush", (185, 200, 120), "backhatch", (80, 100, 30)),
    "marsh": TerrainStyle("marsh", tint(OI["sky blue"], 0.45), "hlines", tint(OI["bluish green"], -0.4)),
    "hindrance": TerrainStyle("other hindrance", tint(OI["reddish purple"], 0.45), "dots",
                              tint(OI["reddish purple"], -0.5)),
    "shellholes": TerrainStyle("shellholes", None, "craters", (120, 80, 40)),
    "graveyard": TerrainStyle("graveyard", (206, 208, 196), "cross", (95, 95, 100)),
    "crags": TerrainStyle("crags", None, "backhatch", (80, 75, 70)),
    "sand": TerrainStyle("sand, dunes, hillocks", (234, 218, 168), "dots", (170, 140, 80)),
    "plowed field": TerrainStyle("plowed field", None, "hlines", (175, 150, 115)),
    "other ground": TerrainStyle("other ground", None, "vlines", (120, 120, 120)),
    "stone building": TerrainStyle("stone building", (120, 120, 130), "cross", (60, 60, 66)),
    "wooden building": TerrainStyle("wooden building", tint(OI["vermillion"], -0.15)),
    "rubble": TerrainStyle("rubble", (165, 160, 150), "dots", (70, 70, 70)),
    "entrenchment": TerrainStyle("entrenchment", (150, 120, 80), "hatch", (60, 45, 20)),
    "bridge": TerrainStyle("bridge", (150, 150, 150)),
    "hexside": TerrainStyle("wall / hedge (raster)", (60, 60, 60)),
}

#: Hexside terrain lines: (label, colour, width in map px, dash pattern in map px or None).
HEXSIDE_STYLES: dict[str, tuple[str, RGB, float, tuple[float, float] | None]] = {
    "wall": ("wall", (45, 45, 45), 5.0, None),
    "hedge": ("hedge", tint(OI["bluish green"], -0.45), 5.0, (7.0, 3.0)),
    "bocage": ("bocage", tint(OI["bluish green"], -0.65), 8.0, None),
    "cliff": ("cliff", (0, 0, 0), 4.0, None),                 # with ticks on the low side
    "other": ("other hexside", OI["reddish purple"], 4.0, (4.0, 4.0)),
}

#: Ground level -> colour (a sequential ramp, light to dark); contour lines also mark changes.
LEVEL_COLOURS: dict[int, RGB] = {
    -2: (200, 215, 228),
    -1: (218, 228, 236),
    0: (244, 239, 225),
    1: (227, 208, 160),
    2: (205, 170, 110),
    3: (170, 126, 72),
    4: (130, 92, 50),
    5: (100, 70, 40),
}
CONTOUR: RGB = (90, 60, 30)
GRID_LINE: RGBA = (40, 40, 40, 110)
BOARD_JOIN: RGB = (0, 0, 0)
TEXT: RGB = (0, 0, 0)
HALO: RGB = (255, 255, 255)
PAPER: RGB = (255, 255, 255)

#: Table (miniatures) terrain by kind: (fill, pattern, ink, line width in cm for line kinds).
TABLE_STYLES: dict[str, tuple[RGB, str | None, RGB, float]] = {
    "wood": (tint(OI["bluish green"], -0.2), "dots", tint(OI["bluish green"], 0.6), 0.0),
    "built-up": ((125, 125, 135), "cross", (60, 60, 66), 0.0),
    "hill": ((214, 186, 130), None, CONTOUR, 0.0),
    "water": (tint(OI["sky blue"], 0.2), "hlines", OI["blue"], 0.0),
    "rough": ((196, 180, 150), "dots", (90, 70, 40), 0.0),
    "orchard": (tint(OI["bluish green"], 0.5), "dots", tint(OI["bluish green"], -0.5), 0.0),
    "road": ((205, 200, 190), None, (150, 140, 125), 4.0),
    "hedge": (tint(OI["bluish green"], -0.45), None, tint(OI["bluish green"], -0.45), 1.5),
    "wall": ((45, 45, 45), None, (45, 45, 45), 1.2),
}
TABLE_CLOTH: RGB = (222, 230, 200)
#: The one palette of sides, for hex maps, tables and the viewer alike: a side named in
#: :data:`NAMED_SIDES` (any case) keeps its colour; every other side takes the first colour of
#: :data:`SIDE_COLOURS` not yet taken, in order of first appearance.
SIDE_COLOURS: tuple[RGB, ...] = (OI["blue"], OI["vermillion"], OI["bluish green"],
                                 OI["reddish purple"], OI["orange"], OI["sky blue"])
NAMED_SIDES: dict[str, RGB] = {"axis": OI["blue"], "allied": OI["vermillion"]}


def side_colours(sides: Iterable[str]) -> dict[str, RGB]:
    """The colour of each side in ``sides`` (see :data:`SIDE_COLOURS`): named sides keep
    theirs, the others share out the rest in order (repeating past the end)."""
    order = list(dict.fromkeys(sides))
    reserved = {NAMED_SIDES[s.lower()] for s in order if s.lower() in NAMED_SIDES}
    free = [c for c in SIDE_COLOURS if c not in reserved] or list(SIDE_COLOURS)
    out: dict[str, RGB] = {}
    k = 0
    for side in order:
        named = NAMED_SIDES.get(side.lower())
        if named is None:
            named, k = free[k % len(free)], k + 1
        out[side] = named
    return out


def side_colours_hex(sides: Iterable[str]) -> dict[str, str]:
    """:func:`side_colours` as CSS "#rrggbb" strings (the viewer's)."""
    return {side: "#%02x%02x%02x" % rgb for side, rgb in side_colours(sides).items()}


def level_colour(level: int) -> RGB:
    """The ground colour of ``level`` (levels beyond the ramp take its ends)."""
    lo, hi = min(LEVEL_COLOURS), max(LEVEL_COLOURS)
    return LEVEL_COLOURS[max(lo, min(hi, level))]


# -------------------------------------------------------------------------------------------
# fonts and text
# -------------------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``size`` px (no system fonts; Pillow >= 10.1 scales it)."""
    try:
        return ImageFont.load_default(size=max(6, int(size)))
    except TypeError:  # pragma: no cover - Pillow < 10.1: fixed-size bitmap font
        return ImageFont.load_default()


def halo_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, *,
              fill: RGB = TEXT, halo: RGB = HALO, anchor: str = "mm") -> None:
    """Draw ``text`` with a halo of ``max(2, size/6)`` px so it reads on any background."""
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor,
              stroke_width=max(2, size // 6), stroke_fill=halo)


def halo_label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], pieces: Sequence[str],
               size: int, *, fill: RGB = TEXT, halo: RGB = HALO) -> None:
    """Draw ``"".join(pieces)`` as :func:`halo_text` does (centred on ``xy``, rounded to a
    whole pixel) from masks of the pieces, each rendered once per process: labels that share
    pieces (hex ids share their column letters and row numbers) cost four bitmap stamps
    instead of a FreeType rendering each.  For pieces the font does not kern against each
    other (letters and digits of the built-in font: tests compare with ``halo_text``)."""
    masks = [_label_masks(piece, size) for piece in pieces]
    x = round(xy[0]) - math.ceil(sum(m[3] for m in masks) / 2)   # the "mm" anchor as Pillow
    y = round(xy[1]) + _middle_to_baseline(size)                   # places it
    stamps = []
    for halo_mask, ink_mask, (dx, dy), advance in masks:
        stamps.append((halo_mask, ink_mask, (x + dx, y + dy)))
        x += round(advance)
    for halo_mask, _ink, at in stamps:       # every halo first: a halo never covers ink
        draw.bitmap(at, halo_mask, fill=halo)
    for _halo, ink_mask, at in stamps:
        draw.bitmap(at, ink_mask, fill=fill)


@lru_cache(maxsize=32)
def _middle_to_baseline(size: int) -> int:
    """Pixels from the middle anchor ("m") down to the baseline ("s") at font ``size``."""
    return round(font(size).getbbox("A1", anchor="mm")[1] - font(size).getbbox("A1", anchor="ls")[1])


@lru_cache(maxsize=4096)
def _label_masks(text: str, size: int) -> tuple[Image.Image, Image.Image, tuple[int, int], float]:
    """(halo mask, ink mask, offset of their top-left corner from the left end of the
    baseline, advance width) of ``text`` drawn by :func:`halo_text` at ``size``."""
    f = font(size)
    stroke = max(2, size // 6)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(text, stroke_width=stroke, anchor="ls"))
    halo = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(halo).text((-x0, -y0), text, font=f, fill=255, anchor="ls",
                              stroke_width=stroke, stroke_fill=255)
    ink = Image.new("L", halo.size, 0)
    ImageDraw.Draw(ink).text((-x0, -y0), text, font=f, fill=255, anchor="ls")
    return halo, ink, (x0, y0), f.getlength(text)


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def wrap(text: str, size: int, width: float) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` px at font ``size``.  A line growing
    word by word is measured whole only near the limit: below it, the sum of its words'
    widths (each measured once) decides, with a pixel of slack for each join."""
    lines: list[str] = []
    space = _word_width(" ", size)
    for para in text.split("\n"):
        line, approx, words = "", 0.0, 0
        for word in para.split(" "):
            w = _word_width(word, size)
            if not line:
                line, approx, words = word, w, 1
                continue
            cand = f"{line} {word}"
            near = approx + space + w + 2 * (words + 1) >= width
            if near and text_width(cand, size) > width:
                lines.append(line)
                line, approx, words = word, w, 1
            else:
                line, approx, words = cand, approx + space + w, words + 1
        lines.append(line)
    return lines


@lru_cache(maxsize=4096)
def _word_width(word: str, size: int) -> float:
    return text_width(word, size)


# -------------------------------------------------------------------------------------------
# patterns on numpy rasters and on swatches
# -------------------------------------------------------------------------------------------

def pattern_mask(name: str, xs, ys, period: int = 8):
    """Boolean mask of ``name`` over pixel coordinate arrays ``xs``, ``ys`` (broadcastable)."""
    if name == "hatch":
        return (xs + ys) % period < 2
    if name == "backhatch":
        return (xs - ys) % period < 2
    if name == "cross":
        return ((xs + ys) % period < 1) | ((xs - ys) % period < 1)
    if name == "hlines":
        return ys % period < 2
    if name == "vlines":
        return xs % period < 1
    if name == "craters":      # sparse rings: a shellhole's crater every other cell
        cx, cy = xs % (2 * period) - period, ys % (2 * period) - period
        r2 = cx * cx + cy * cy
        return (r2 >= (period // 3) ** 2) & (r2 <= (period // 2) ** 2)
    if name == "dots":
        return (xs % period < 2) & (ys % period < 2) | ((xs + period // 2) % period < 2) & \
            ((ys + period // 2) % period < 2)
    raise ValueError(f"unknown pattern {name!r}; expected one of {', '.join(PATTERNS)}")


def swatch(size: int, fill: RGB, pattern: str | None, ink: RGB) -> Image.Image:
    """A ``size`` x ``size`` legend swatch with the same pattern as the map."""
    import numpy as np

    arr = np.empty((size, size, 3), dtype=np.uint8)
    arr[:] = fill
    if pattern:
        ys, xs = np.mgrid[0:size, 0:size]
        arr[pattern_mask(pattern, xs, ys, period=max(6, size // 3))] = ink
    img = Image.fromarray(arr, "RGB")
    ImageDraw.Draw(img).rectangle((0, 0, size - 1, size - 1), outline=(0, 0, 0), width=max(1, size // 16))
    return img


# -------------------------------------------------------------------------------------------
# the frame: which rectangle of the map or table, at what scale, on the 2x canvas
# -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Frame:
    """The rectangle ``x0..x1``, ``y0..y1`` of a map (map pixels) or a table (cm) drawn at
    ``scale`` final pixels per unit, on a canvas :data:`SUPERSAMPLE` times the final size.
    ``flip_y``: y grows up the picture (tables), so ``y1`` is the image's top edge."""

    x0: float
    y0: float
    x1: float
    y1: float
    scale: float
    flip_y: bool = False
    ss: int = SUPERSAMPLE
    #: drawn turned round (a map VASL shows turned: HexMap.shown_turned): the rectangle's
    #: corner (x1, y1) is the picture's top left; text stays upright
    turned: bool = False

    @property
    def size(self) -> tuple[int, int]:
        """Final image size (at least 1 x 1)."""
        return (max(1, round((self.x1 - self.x0) * self.scale)),
                max(1, round((self.y1 - self.y0) * self.scale)))

    @property
    def canvas_size(self) -> tuple[int, int]:
        w, h = self.size
        return (w * self.ss, h * self.ss)

    @property
    def k(self) -> float:
        """Canvas px per unit."""
        return self.scale * self.ss

    def _offset(self, x: float, y: float) -> tuple[float, float]:
        if self.turned:
            return (self.x1 - x, self.y1 - y)
        return (x - self.x0, (self.y1 - y) if self.flip_y else (y - self.y0))

    def c(self, x: float, y: float) -> tuple[float, float]:
        """Canvas point of point (x, y)."""
        dx, dy = self._offset(x, y)
        return (dx * self.k, dy * self.k)

    def final(self, x: float, y: float) -> tuple[int, int]:
        """Final-image pixel of point (x, y)."""
        dx, dy = self._offset(x, y)
        return (round(dx * self.scale), round(dy * self.scale))

    def px(self, length: float) -> int:
        """A length of ``length`` units (map pixels, cm) on the canvas (at least 1)."""
        return max(1, round(length * self.k))

    def fpx(self, final_px: float) -> int:
        """A length of ``final_px`` final pixels on the canvas (at least 1)."""
        return max(1, round(final_px * self.ss))

    def sees(self, x: float, y: float, margin: float = 0.0) -> bool:
        """True if point (x, y) lies in the rectangle grown by ``margin`` units."""
        return (self.x0 - margin <= x <= self.x1 + margin
                and self.y0 - margin <= y <= self.y1 + margin)


# -------------------------------------------------------------------------------------------
# the result of a render
# -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Marker:
    """Something drawn for an overlay: its kind, the hex or object it marks, and a point (final
    image pixels) that is painted solidly in ``colour`` (tests sample it)."""

    kind: str
    target: str
    xy: tuple[int, int]
    colour: RGB
    label: str = ""


@dataclass(frozen=True, eq=False)
class Rendering:
    """An annotated image: ``image`` (PIL, RGB), the ``caption`` printed under it, the overlay
    ``markers`` and the transform from map coordinates to image pixels."""

    image: Image.Image
    caption: str
    markers: tuple[Marker, ...] = ()
    scale: float = 1.0                 # image px per map unit (map pixel or cm)
    origin: tuple[float, float] = (0.0, 0.0)  # map coordinates of image pixel (0, 0)
    flip_y: float | None = None        # tables: y grows upwards; image y = (flip_y - y) * scale
    legend: tuple[str, ...] = field(default=())
    turned: bool = False               # drawn turned round: ``origin`` is the map point at the
                                       # image's top left, and x, y grow the other way

    def to_image(self, x: float, y: float) -> tuple[int, int]:
        """Image pixel of map point (x, y)."""
        if self.turned:
            return (round((self.origin[0] - x) * self.scale), round((self.origin[1] - y) * self.scale))
        if self.flip_y is not None:
            return (round((x - self.origin[0]) * self.scale), round((self.flip_y - y) * self.scale))
        return (round((x - self.origin[0]) * self.scale), round((y - self.origin[1]) * self.scale))

    def markers_of(self, kind: str) -> list[Marker]:
        return [m for m in self.markers if m.kind == kind]

    def to_png(self) -> bytes:
        return png_bytes(self.image)

    def _repr_png_(self) -> bytes:
        return self.to_png()

    def save(self, path: str | Path, *, inputs: tuple[object, ...] = ()) -> Path:
        """Write the image as PNG to ``path``; DataError (one line) if it cannot be written."""
        return save_png(self.image, path, inputs=inputs)


def save_png(image: Image.Image, path: str | Path, *, inputs: tuple[object, ...] = ()) -> Path:
    """Save ``image`` to ``path`` (PNG) through :mod:`hexwx.outputs` (temporary file, rename);
    a one-line UsageError/DataError naming the path on failure.  ``inputs`` are refused as
    the output."""
    from hexwx.errors import UsageError
    from hexwx.outputs import open_output
    if str(path) in ("", "-"):
        raise UsageError(f"output file {str(path)!r}: expected a file name ending in .png")
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise UsageError(f"output file {str(p)!r} must end in .png")
    with open_output(p, inputs=inputs) as f:
        f.write(png_bytes(image))
    return p


def downsample(canvas: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The final image: ``canvas`` (drawn at SUPERSAMPLE x) reduced to ``size``.  An exact
    multiple is averaged block by block (``Image.reduce``: each final pixel the mean of its
    SUPERSAMPLE x SUPERSAMPLE canvas pixels, alpha-weighted; several times cheaper than a
    LANCZOS resize of the whole canvas); any other size is resized with LANCZOS."""
    if canvas.size == size:
        return canvas
    f = canvas.width // size[0]
    if f > 1 and canvas.size == (size[0] * f, size[1] * f):
        if canvas.mode not in ("RGBA", "LA") or canvas.height <= _STRIP_ROWS * f:
            return canvas.reduce(f)
        # with alpha, reduce() weights by it through two whole-image copies (premultiplied and
        # back): strip by strip they stay small (the same pixels: each block is averaged alone)
        out = Image.new(canvas.mode, size)
        for y in range(0, canvas.height, _STRIP_ROWS * f):
            strip = canvas.crop((0, y, canvas.width, min(canvas.height, y + _STRIP_ROWS * f)))
            out.paste(strip.reduce(f), (0, y // f))
        return out
    return canvas.resize(size, Image.Resampling.LANCZOS)


#: Final rows per strip when a canvas with alpha is averaged down (:func:`downsample`).
_STRIP_ROWS = 256


def stack(parts: Sequence[Image.Image], background: RGB = PAPER) -> Image.Image:
    """Images stacked top to bottom, left-aligned, on ``background``."""
    w = max(p.width for p in parts)
    h = sum(p.height for p in parts)
    out = Image.new("RGB", (w, h), background)
    y = 0
    for p in parts:
        out.paste(p, (0, y))
        y += p.height
    return out


def legend_strip(entries: Iterable[tuple[Image.Image, str]], caption_lines: Sequence[str],
                 width: int, *, size: int = 14) -> Image.Image:
    """A strip under the map: swatches with labels in rows, then the caption lines (final px)."""
    entries = list(entries)
    sw = size + 4
    pad = max(6, size // 2)
    # lay the swatches out in rows
    rows: list[list[tuple[Image.Image, str, int]]] = [[]]
    x = pad
    for img, label in entries:
        w = sw + 6 + int(text_width(label, size)) + 2 * pad
        if rows[-1] and x + w > width:
            rows.append([])
            x = pad
        rows[-1].append((img, label, x))
        x += w
    if not entries:
        rows = []
    line_h = size + 8
    text_lines = [ln for c in caption_lines for ln in wrap(c, size, width - 2 * pad)]
    height = pad + len(rows) * (sw + 6) + len(text_lines) * line_h + pad
    strip = Image.new("RGB", (width, max(height, 1)), PAPER)
    d = ImageDraw.Draw(strip)
    y = pad
    for row in rows:
        for img, label, x in row:
            strip.paste(img.resize((sw, sw), Image.Resampling.NEAREST), (x, y))
            d.text((x + sw + 6, y + sw // 2), label, font=font(size), fill=TEXT, anchor="lm")
        y += sw + 6
    for ln in text_lines:
        d.text((pad, y + line_h // 2), ln, font=font(size), fill=TEXT, anchor="lm")
        y += line_h
    return strip


def line_swatch(size: int, colour: RGB, width: float, dash: tuple[float, float] | None = None) -> Image.Image:
    """A legend swatch showing a line style."""
    img = Image.new("RGB", (size, size), PAPER)
    d = ImageDraw.Draw(img)
    w = max(2, int(width))
    if dash:
        x = 0.0
        while x < size:
            d.line((x, size / 2, min(size, x + dash[0]), size / 2), fill=colour, width=w)
            x += dash[0] + dash[1]
    else:
        d.line((0, size / 2, size, size / 2), fill=colour, width=w)
    return img


def marker_swatch(size: int, colour: RGB, shape: str) -> Image.Image:
    """A legend swatch of a badge: ``square``, ``circle`` or ``x``."""
    img = Image.new("RGB", (size, size), PAPER)
    d = ImageDraw.Draw(img)
    m = size // 6
    if shape == "square":
        d.rectangle((m, m, size - m, size - m), fill=colour, outline=(0, 0, 0))
    elif shape == "circle":
        d.ellipse((m, m, size - m, size - m), fill=colour, outline=(0, 0, 0))
    else:
        w = max(2, size // 6)
        d.line((m, m, size - m, size - m), fill=colour, width=w)
        d.line((m, size - m, size - m, m), fill=colour, width=w)
    return img
