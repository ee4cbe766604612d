"""Cropped boards: the part of a board (geomorphic, half or Deluxe) a scenario is played on.

A scenario card names it by hexrows and coords ("board 2, hexrows A-P", "coords 1-5"); a VASL
save stores the pixel rectangle VASL's board picker made of that (``x y w h`` in the board's
pixels, -1 = that side uncropped).  Both come here as a :class:`Crop`, and both end as the same
two things: the printed hexes the crop keeps (:class:`~hexwx.hexmap.coords.HexWindow`: every
hex whose centre lies inside the rectangle) and the rectangle itself (its size places the board
next to its neighbours, as VASL places cropped boards).  Hex names stay the printed ones; a
hex outside the crop does not exist on the map.

Written forms (one parser for layouts, map files and inline layout strings):

* ``A-P`` hexrows A to P, ``1-5`` coords 1 to 5, ``A-P;1-5`` both: the cut runs through the
  middle of the last hexrow / coord (VASL's "crop to middle of hex row", the only kind VASL
  can trace LOS on), so the hexes on the cut are half hexes of the new map;
* ``...;full`` the rectangle reaches the outer edge of those hexes instead (VASL's "crop to
  nearest full hex row"): the same hexes are kept, only the picture shows them whole;
* ``0 0 844 -1``: four integers, the pixel rectangle of a save's ``bd`` command.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from hexwx.errors import UsageError
from hexwx.hexmap.coords import GEOMORPHIC, BoardShape, HexWindow, column_index, column_letters

_RANGE = re.compile(r"^\s*([A-Za-z]{1,2})\s*-\s*([A-Za-z]{1,2})\s*$")
_COORDS = re.compile(r"^\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$")
_PIXELS = re.compile(r"^\s*(-?\d{1,5})\s+(-?\d{1,5})\s+(-?\d{1,5})\s+(-?\d{1,5})\s*$")
#: how far (pixels) a hex centre may lie outside the rectangle and still count as inside it:
#: VASL rounds the cut to whole pixels (P's centre 843.75 -> 844)
_SLACK = 1.0


@dataclass(frozen=True)
class Crop:
    """A crop as written: hexrow columns and/or coords (scenario card), or a pixel rectangle."""

    cols: tuple[int, int] | None = None     # column indices (A = 0)
    rows: tuple[int, int] | None = None     # coords 1-10
    full: bool = False                      # "nearest full hex row" instead of "middle"
    pixels: tuple[int, int, int, int] | None = None

    @property
    def text(self) -> str:
        """The crop written back in the form :func:`parse_crop` reads."""
        if self.pixels is not None:
            return " ".join(str(v) for v in self.pixels)
        parts = []
        if self.cols is not None:
            parts.append(f"{column_letters(self.cols[0])}-{column_letters(self.cols[1])}")
        if self.rows is not None:
            parts.append(f"{self.rows[0]}-{self.rows[1]}")
        if self.full:
            parts.append("full")
        return ";".join(parts)

    def rectangle(self, where: str = "crop",
                  shape: BoardShape = GEOMORPHIC) -> tuple[int, int, int, int]:
        """(x, y, w, h) in pixels of a board of ``shape``, -1 sizes resolved; UsageError if it
        is empty or leaves the board.  Hexrows and coords are cut as VASL's ``ASLBoard.crop``
        cuts them, on the board's own grid (:meth:`BoardShape.vasl_location`)."""
        W, H = shape.width_px, shape.height_px
        if self.pixels is not None:
            _check_form(self, where)
            x, y, w, h = self.pixels
            w = W - x if w == -1 else w
            h = H - y if h == -1 else h
            if x + w > W or y + h > H or w <= 0 or h <= 0:
                raise UsageError(f"{where} {self.text!r}: the rectangle {x},{y} {w}x{h} leaves the "
                                 f"board ({W}x{H} pixels)")
            return x, y, w, h
        x, w, y, h = 0, W, 0, H
        hw, hh = shape.hex_width, shape.hex_height
        if self.cols is not None:
            lo, hi = (self._local(c, shape.local_column, shape.column_span, "hexrows", where)
                      for c in self.cols)
            if self.full:
                x = max(0, math.floor(hw * lo - shape.hex_side))
                w = min(W, math.ceil(hw * hi + shape.hex_side)) - x
            else:   # VASL's ASLBoard.crop: the centres of the first and last hexrow
                x = shape.vasl_location(self.cols[0], 0)[0]
                w = shape.vasl_location(self.cols[1], 0)[0] - x
        if self.rows is not None:
            first, last = shape.first_row + 1, shape.first_row + shape.rows
            for r in self.rows:
                self._local(r, lambda v: v if first <= v <= last else None,
                            f"{first}-{last}", "coords", where)
            half = int(hh / 2)       # VASL: (int)(dy / 2) = 32
            top = shape.vasl_location(0, self.rows[0])[1]   # centre of A<lo>, whole pixels
            bottom = shape.vasl_location(0, self.rows[1])[1]
            if self.full:
                y = max(0, math.floor(top - hh / 2))
                h = min(H, math.ceil(bottom + hh / 2)) - y
            else:
                y = top - half
                h = bottom + half - y
        if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > W or y + h > H:
            raise UsageError(f"{where} {self.text!r}: the rectangle {x},{y} {w}x{h} leaves the "
                             f"board ({W}x{H} pixels)")
        return x, y, w, h

    def _local(self, v: int, index: Callable[[Any], int | None], span: str, what: str,
               where: str) -> int:
        """``v`` on the board (its local index for a column), UsageError if the board lacks it."""
        out = index(column_letters(v) if what == "hexrows" else v)
        if out is None:
            raise UsageError(f"{where} {self.text!r}: {what} leave the board; expected "
                             f"{what} {span} on this board")
        return out

    def window(self, where: str = "crop", shape: BoardShape = GEOMORPHIC) -> HexWindow:
        """The hexes of a board of ``shape`` the crop keeps: those whose centre lies inside
        :meth:`rectangle` (columns and rows counted on the board, 0 = its first column)."""
        x, y, w, h = self.rectangle(where, shape)
        hw, hh, rows = shape.hex_width, shape.hex_height, shape.rows
        cols = [c for c in range(shape.columns)
                if x - _SLACK <= hw * c <= x + w + _SLACK]
        a_rows = [r for r in range(1, rows + 1)
                  if y - _SLACK <= hh * (r - 0.5) <= y + h + _SLACK]
        b_rows = [r for r in range(0, rows + 1)
                  if y - _SLACK <= hh * r <= y + h + _SLACK]
        win = HexWindow(cols[0] if cols else 1, cols[-1] if cols else 0,
                        a_rows[0] if a_rows else 1, a_rows[-1] if a_rows else 0,
                        b_rows[0] if b_rows else 1, b_rows[-1] if b_rows else 0)
        if not any(win.holds(c, r) for c in cols for r in range(rows + 1)):
            raise UsageError(f"{where} {self.text!r}: the rectangle {x},{y} {w}x{h} holds no hex "
                             f"centre; expected a crop of at least one hex")
        return win


def parse_crop(text: object, where: str = "crop") -> Crop:
    """A crop as written in a layout (module docstring); UsageError naming ``where`` if not."""
    if isinstance(text, (list, tuple)) and len(text) == 4 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in text):
        text = " ".join(str(v) for v in text)
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"{where}: expected a crop such as 'A-P', '1-5', 'A-P;1-5', "
                         f"'A-P;full' or a pixel rectangle '0 0 844 -1', got {text!r}")
    m = _PIXELS.match(text)
    if m:
        crop = Crop(pixels=(int(m[1]), int(m[2]), int(m[3]), int(m[4])))
        _check_form(crop, where)
        return crop
    cols = rows = None
    full = False
    for part in text.split(";"):
        p = part.strip()
        if p.lower() in ("full", "middle"):
            full = p.lower() == "full"
        elif _RANGE.match(p):
            if cols is not None:
                raise UsageError(f"{where} {text!r}: hexrows given twice")
            cols = _span(p, _RANGE, column_index, "hexrows", "left", "columns A-GG such as 'A-P'",
                         f"{where} {text!r}")
        elif _COORDS.match(p):
            if rows is not None:
                raise UsageError(f"{where} {text!r}: coords given twice")
            rows = _span(p, _COORDS, _coord, "coords", "top", f"coords 1-{_MAX_COORD}",
                         f"{where} {text!r}")
        else:
            raise UsageError(f"{where} {text!r}: {p!r} is neither hexrows ('A-P'), coords "
                             f"('1-5') nor 'full'")
    if cols is None and rows is None:
        raise UsageError(f"{where} {text!r}: expected hexrows ('A-P') and/or coords ('1-5')")
    return Crop(cols, rows, full)   # (whether it fits its board: when the board is read)


#: The highest coord any board prints (half boards: 20, BFPDW boards: 11-20).
_MAX_COORD = 20


def _check_form(crop: Crop, where: str) -> None:
    """UsageError for what is wrong with a pixel ``crop`` on any board: a negative corner, a
    width or height that is 0 or below -1.  Whether a crop fits its board (of whatever shape)
    is checked when the board is read (:meth:`Crop.rectangle`, :meth:`Crop.window`)."""
    if crop.pixels is not None:
        x, y, w, h = crop.pixels
        for name, v in (("x", x), ("y", y)):
            if v < 0:
                raise UsageError(f"{where} {crop.text!r}: {name} = {v} is left of / above the "
                                 f"board; expected 0 or more")
        if w < -1 or h < -1 or w == 0 or h == 0:
            raise UsageError(f"{where} {crop.text!r}: width and height must be positive (or "
                             f"-1 for the rest of the board), got {w} x {h}")


def _coord(text: str) -> int | None:
    """Coord ``text`` (1-20) as a number, None if it is off every board."""
    return int(text) if 1 <= int(text) <= _MAX_COORD else None


def _span(part: str, pattern: re.Pattern[str], index: Callable[[str], int | None], what: str,
          first: str, expected: str, where: str) -> tuple[int, int]:
    """(first, last) of a range ``part`` such as ``"A-P"`` or ``"1-5"``; UsageError naming
    ``where`` if an end is off the board or the range runs backwards."""
    a, b = pattern.match(part).groups()  # type: ignore[union-attr]
    ia, ib = index(a), index(b)
    if ia is None or ib is None:
        raise UsageError(f"{where}: {what} {part!r} leave the board; expected {expected}")
    if ia > ib:
        raise UsageError(f"{where}: {what} {part!r} run backwards; expected the {first} one "
                         f"first, e.g. '{b.upper()}-{a.upper()}'")
    return ia, ib
