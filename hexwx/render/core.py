"""Annotated images of hex maps and tables (Pillow): the public entry points.

* :func:`render_map` — a hex map with terrain, levels, hexsides, hex ids and overlays (LOS,
  viewshed, path, reach, weather); see :mod:`hexwx.render.hexmap`.
* :func:`render_table` — a miniatures table with terrain, bases, visibility, sights and
  ranges; see :mod:`hexwx.render.table`.
* :func:`map_png`, :func:`los_png` — PNG bytes for notebooks (``_repr_png_``).

Every render returns a :class:`Rendering`: ``image`` (PIL), ``caption`` (the text printed
under the image, which tests compare with the result objects), ``markers`` and ``save(path)``.
Rendering only reads result objects; it never computes LOS or movement.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from hexwx.render.hexmap import los_caption, make_view, render_map, terrain_class
from hexwx.render.png import png_bytes
from hexwx.render.style import Marker, Rendering, save_png
from hexwx.render.table import render_table, sight_caption

if TYPE_CHECKING:
    from hexwx.hexmap.board import HexMap
    from hexwx.lineofsight.engine import LosResult

__all__ = ["Marker", "Rendering", "los_caption", "los_png", "make_view", "map_png", "render_map",
           "render_table", "save_png", "sight_caption", "terrain_class"]

#: Scale of notebook previews (final px per map px): a board is 900 px wide.
NOTEBOOK_SCALE = 0.5


def map_png(m: HexMap) -> bytes:
    """PNG bytes of hex map ``m`` at notebook size (for ``HexMap._repr_png_``)."""
    return render_map(m, scale=NOTEBOOK_SCALE).to_png()


def los_png(result: LosResult, m: HexMap | None = None) -> bytes | None:
    """PNG bytes of a LOS result drawn on its map, cropped to the two ends (for
    ``LosResult._repr_png_``).  The map is ``m`` or the result's ``map`` attribute; None (no
    image) when neither is available."""
    m = m if m is not None else result.map
    if m is None:
        return None
    return render_map(m, los=result, window=(result.source, result.target),
                      weather=getattr(result, "weather", None), scale=NOTEBOOK_SCALE * 2).to_png()


def window_of(m: HexMap, hexes: Iterable[str | int]) -> tuple[str, str] | None:
    """Two hexes whose window covers every hex in ``hexes`` (names or ids); None if empty."""
    import numpy as np
    ids = [m.hex(h) for h in hexes]
    if not ids:
        return None
    g = m.grid
    xs, ys = g.centre_x[ids], g.centre_y[ids]
    def nearest(x: float, y: float) -> str:
        return g.name(int(np.argmin((g.centre_x - x) ** 2 + (g.centre_y - y) ** 2)))
    return nearest(float(xs.min()), float(ys.min())), nearest(float(xs.max()), float(ys.max()))


def result_png(m: HexMap, hexes: Sequence[str | int], **overlays: Any) -> bytes:
    """PNG bytes of ``m`` with ``overlays`` (render_map keywords), cropped to ``hexes`` (the
    hexes that matter: those seen, reached, on the path); for ``_repr_png_``."""
    window = window_of(m, hexes)
    small = window is not None and len(list(hexes)) < len(m) // 2
    scale = NOTEBOOK_SCALE * 2 if small else NOTEBOOK_SCALE
    return render_map(m, window=window, scale=scale, **overlays).to_png()


def sight_png(sight: Any, margin_frac: float = 0.12) -> bytes:
    """PNG bytes of a tabletop sight drawn on its table, cropped to the two units (with a
    margin of ``margin_frac`` of the table's width), for ``Sight._repr_png_``."""
    table = sight.table
    r = render_table(table, sights=[sight], width_px=1200, legend=False)
    pts = [c for uid in (sight.viewer, sight.target)
           for b in table.unit_by_id(uid).bases for c in b.corners]
    margin = margin_frac * table.width
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    (x0, y0), (x1, y1) = r.to_image(min(xs) - margin, max(ys) + margin), r.to_image(max(xs) + margin, min(ys) - margin)
    box = (max(0, min(x0, x1)), max(0, min(y0, y1)), min(r.image.width, max(x0, x1)),
           min(r.image.height, max(y0, y1)))
    return png_bytes(r.image.crop(box))


def table_png(obj: Any) -> bytes:
    """PNG bytes of a table scenario (or table) on turn 1, for ``TableScenario._repr_png_``."""
    return render_table(obj, width_px=900).to_png()
