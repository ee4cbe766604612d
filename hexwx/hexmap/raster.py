"""Drawing terrain into a map's pixel raster: shared by map files and derived (drifted) maps."""
from __future__ import annotations

from typing import Iterable

import numpy as np
from PIL import Image, ImageDraw

Point = tuple[float, float]

#: Half-width in pixels of a hexside terrain strip (covers the hexside location points,
#: which lie one pixel inside the hexside; LOS-SPEC 1.8).
HEXSIDE_HALF_WIDTH = 2.5


def strip(a: Point, b: Point, half: float) -> list[Point]:
    """The polygon of a strip of half-width ``half`` pixels from a to b."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    nx, ny = -dy / length * half, dx / length * half
    return [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]


def draw(terrain: np.ndarray, shapes: Iterable[tuple[list[Point], int]]) -> np.ndarray:
    """A copy of an x-major uint8 terrain raster with each (polygon, code) drawn in order."""
    img = Image.fromarray(np.ascontiguousarray(terrain.T))
    pen = ImageDraw.Draw(img)
    for poly, code in shapes:
        pen.polygon(poly, fill=int(code))
    return np.ascontiguousarray(np.asarray(img, dtype=np.uint8).T)
