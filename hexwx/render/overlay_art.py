"""VASL overlays drawn on their board's picture, as the terrain LOS reads under them.

A map keeps where each overlay image lies (:attr:`hexwx.hexmap.board.HexMap.overlay_art`:
board, archive, image entry, top-left pixel on the upright board) and which were laid with
"persist elevation" (:attr:`~hexwx.hexmap.board.HexMap.overlay_persist`).  The picture draws
each image over its board in order, cut to the board (an overlay never paints onto a
neighbouring board); transparent pixels keep the board.  Where "persist elevation" leaves the
board's open ground to LOS (:func:`hexwx.io.overlays.board_kept`: open ground drawn over the
board's open ground), the picture shows the board there too, as VASL's own picture does
(its ``Overlay.transform`` makes those pixels transparent).  The board under an overlay is
read from the board's own LOSData (earlier overlays on the same board are not counted).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import numpy as np
from PIL import Image

if TYPE_CHECKING:
    from hexwx.hexmap.board import HexMap
    from hexwx.io.overlays import IndexedImage

Piece = tuple[str, str, int, int, bool]
"""One overlay image on a board: (archive, image entry, x, y, persist elevation)."""


def board_pieces(m: HexMap, board: int) -> list[Piece]:
    """The overlay images of board ``board`` (an index into ``m.board_images``), in drawing
    order, each with its "persist elevation" flag."""
    persist = set(m.overlay_persist)
    return [(a, e, x, y, k in persist) for k, (i, a, e, x, y) in enumerate(m.overlay_art)
            if i == board]


def paint(art: Image.Image, pieces: Iterable[Piece], m: HexMap | None = None,
          board: int = 0) -> Image.Image:
    """``art`` (an upright board's image, board size) with overlay images ``pieces`` drawn on
    it in order, cut to the board; transparent pixels keep the board, and so do the pixels a
    persisting overlay leaves to the board in LOS (board ``board`` of map ``m``)."""
    from hexwx.io.overlays import overlay_image_at
    out = art.convert("RGBA")
    for archive, entry, x, y, persist in pieces:
        image = overlay_image_at(archive, entry)
        rgba = image.rgba()
        if persist and m is not None:
            rgba = rgba.copy()
            rgba[_kept(m, board, image, archive, entry, x, y), 3] = 0
        im = Image.fromarray(np.ascontiguousarray(rgba), "RGBA")
        sx, sy = max(-x, 0), max(-y, 0)
        if sx < im.width and sy < im.height and x < out.width and y < out.height:
            out.alpha_composite(im.crop((sx, sy, min(im.width, out.width - x),
                                         min(im.height, out.height - y))),
                                dest=(max(x, 0), max(y, 0)))
    return out.convert("RGB")


def _kept(m: HexMap, board: int, image: IndexedImage, archive: str, entry: str, x: int,
          y: int) -> np.ndarray:
    """bool [height, width] of the image: the pixels LOS leaves to the board under it."""
    from hexwx.io.layout import read_board
    from hexwx.io.overlays import board_kept, colour_table
    raster = read_board(m.board_images[board][0])
    W, H = raster.terrain.shape
    h, w = image.index.shape
    under = np.zeros((h, w), np.uint8)
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x0 < x1 and y0 < y1:
        under[y0 - y:y1 - y, x0 - x:x1 - x] = raster.terrain[x0:x1, y0:y1].T
    name = entry[3:-5] if entry.lower().startswith("ovr") else entry   # ovr<name><o>.gif
    kept = board_kept(image, under, m.table, colour_table(m.table.source), name=name,
                      archive=Path(archive).name)
    return kept


def painted_board(m: HexMap, board: int, art: Image.Image) -> Image.Image:
    """Board ``board``'s picture ``art`` with the map's overlays on it (``art`` itself when
    the board has none)."""
    pieces = board_pieces(m, board)
    return paint(art, pieces, m, board) if pieces else art
