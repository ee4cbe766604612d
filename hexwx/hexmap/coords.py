"""Hex ids and geometry of ASL geomorphic boards, alone or laid side by side.

A geomorphic board has 33 columns of flat-topped hexes lettered A..Z, AA..GG.  Odd-lettered
columns (A, C, ...; column *index* 0, 2, ...) hold rows 1-10; even-lettered columns (B, D, ...)
hold rows 0-10 shifted half a hex down, so B0 and B10 are half hexes on the board edges
(RULES-NOTES "ASL board geometry").  Pixel geometry follows VASL: a board image of 1800 x 645
pixels, hex width 1800/32, hex height 645/10, centre of column index c, row index r at
(c * 56.25, 32.25 + 64.5 r - 32.25 (c mod 2)) (LOS-SPEC 1.1-1.3).

Inside hexwx a hex is a small int (:data:`Hex`), the index of its *cell* in a :class:`Grid`.
Names such as ``"I4"``, ``"2I4"`` or ``"GG10"`` appear only at the edges, through
:meth:`Grid.parse` and :meth:`Grid.name`.

Several boards form a map by laying them in rows and columns.  Neighbouring boards overlap by
their edge half hexes (board 1's GG column lies on board 2's A column; a row-10 half hex lies on
the next board's row-0 half hex), which form one playing hex: such a cell answers to both names
and prints with the first board's.  Hexes of different boards are otherwise distinct
(``1I4`` is not ``2I4``).  A board turned round (rotated 180 degrees) keeps its printed ids:
its A1 lies at the bottom right of its place (:meth:`BoardPlacement.cell_of`).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Iterable, Mapping, Sequence

import numpy as np

from hexwx.errors import UsageError
from hexwx.limits import LAYOUT_BOARDS
from hexwx.frozen import freeze
from hexwx.validate import is_whole

Hex = int
"""A hex id: index of a cell in its :class:`Grid` (column-major, top to bottom)."""

BOARD_COLUMNS = 33
BOARD_ROWS = 10
BOARD_WIDTH_PX = 1800
BOARD_HEIGHT_PX = 645
HEX_WIDTH_PX = BOARD_WIDTH_PX / 32      # 56.25: centre-to-centre distance of columns
HEX_HEIGHT_PX = BOARD_HEIGHT_PX / 10    # 64.5: flat side to flat side
HEX_SIDE_PX = 2 * HEX_WIDTH_PX / 3      # 37.5


@dataclass(frozen=True)
class BoardShape:
    """A board's hex grid as its archive gives it: ``columns`` x ``rows`` flat-topped hexes
    (B-type columns one more, their first and last half hexes), ``hex_width`` the distance of
    column centres and ``hex_height`` flat side to flat side, in a ``width_px`` x
    ``height_px`` image, the first column's first hex centred at (0, hex_height / 2).  Geomorphic
    boards are :data:`GEOMORPHIC`; VASL's half boards (17 x 20 hexes of 56.3125 x 64.5 pixels)
    and Deluxe boards (15 x 5 hexes of 168.79 x 194.2) differ only in these numbers.

    ``first_column`` and ``first_row`` are where the printed names start: half boards ``1b`` ..
    ``15b`` print columns Q..GG (``first_column`` 16), BFP boards ``BFPDW1b`` .. ``7b`` rows
    from 11 (``first_row`` 10).  VASL stores this as a negative centre of hex A1
    (``A1CenterX = -901``, ``A1CenterY = -612.75`` in ``BoardMetadata.xml``): A1 lies that many
    columns / rows before the board's first hex (:meth:`vasl_origin`)."""

    columns: int = BOARD_COLUMNS
    rows: int = BOARD_ROWS
    hex_width: float = HEX_WIDTH_PX
    hex_height: float = HEX_HEIGHT_PX
    width_px: int = BOARD_WIDTH_PX
    height_px: int = BOARD_HEIGHT_PX
    first_column: int = 0
    first_row: int = 0

    @property
    def hex_side(self) -> float:
        """Length of a hexside (a third of two column widths)."""
        return 2 * self.hex_width / 3

    @property
    def geomorphic(self) -> bool:
        """True for a board of a geomorphic board's size and hexes (whatever its names)."""
        return self.size == GEOMORPHIC.size

    @property
    def size(self) -> tuple[int, int, float, float, int, int]:
        """Hexes, hex size and pixels: what two boards must share to lie on one map."""
        return (self.columns, self.rows, self.hex_width, self.hex_height, self.width_px,
                self.height_px)

    def describe(self) -> str:
        return (f"{self.columns}x{self.rows} hexes of {self.hex_width:g}x{self.hex_height:g} "
                f"pixels")

    def printed(self, bc: int, brow: int) -> str:
        """The printed name of the board's hex at column index ``bc`` (0 = its first column),
        row number ``brow`` (as on a board whose names start at A1): ``"Q1"`` on board 1b."""
        return f"{column_letters(bc + self.first_column)}{brow + self.first_row}"

    def local_column(self, letters: str) -> int | None:
        """Column index on this board (0 = its first column) of printed column ``letters``;
        None if the board has no such column."""
        c = column_index(letters)
        c = None if c is None else c - self.first_column
        return c if c is not None and 0 <= c < self.columns else None

    @property
    def column_span(self) -> str:
        """The printed columns, ``"A-GG"`` (``"Q-GG"`` on board 1b)."""
        last = self.first_column + self.columns - 1
        return f"{column_letters(self.first_column)}-{column_letters(last)}"

    @property
    def name_span(self) -> str:
        """The printed columns and rows, ``"columns A-GG and rows 0-10"`` on a geomorphic
        board (rows from 0: B-type columns' half hexes)."""
        return (f"columns {self.column_span} and rows {self.first_row}-"
                f"{self.first_row + self.rows}")

    def vasl_origin(self) -> tuple[int, int]:
        """VASL's whole-pixel centre of hex A1 (``ASLHexGrid`` origin: ``(int) A1CenterX``,
        ``(int) A1CenterY``, truncated toward zero as Java's cast): (0, 32) on a geomorphic
        board, (-901, 32) on board 1b, (0, -612) on BFPDW1b."""
        return (int(-self.first_column * self.hex_width),
                int(self.hex_height / 2 - self.first_row * self.hex_height))

    def vasl_location(self, col: int, row: int) -> tuple[int, int]:
        """The pixel VASL's board grid gives printed column index ``col`` (A = 0, whatever
        the board's first column) and printed row ``row`` (``ASLHexGrid.getLocation``:
        ``(int)(dx col + .5)`` and ``(int)(dy (row - 1) + .5)``, half a hex less in B-type
        columns, plus :meth:`vasl_origin`)."""
        x0, y0 = self.vasl_origin()
        shift = 1.0 if col % 2 == 0 else 0.5
        return (int(self.hex_width * col + 0.5) + x0,
                int(self.hex_height * (row - shift) + 0.5) + y0)


GEOMORPHIC = BoardShape()

#: Hexside (and direction) numbers: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW (LOS-SPEC 1.4).
HEXSIDE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

#: Neighbour offsets (dcol, drow) by column parity (index 0 = A-type columns) and hexside.
NEIGHBOUR_OFFSETS: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (
    ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),     # even index: A, C, E, ...
    ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),   # odd index: B, D, F, ...
)

# board label (digits, or any label such as "2b"), column (a letter, possibly doubled), row
_NAME_RE = re.compile(r"^(?P<board>\w*?)(?P<col>([A-Za-z])(?i:\3)?)(?P<row>\d{1,2})$", re.ASCII)


def parse_hexside(text: str) -> tuple[str, int]:
    """``"D5:NE"`` or ``"D5:1"`` -> (``"D5"``, 1): a hex name and a hexside 0-5."""
    if not isinstance(text, str) or ":" not in text:
        raise UsageError(f"expected HEX:SIDE such as 'D5:NE', got {text!r}")
    hex_name, side = text.rsplit(":", 1)
    number = hexside_number(side)
    if number is None:
        raise UsageError(f"expected a hexside N, NE, SE, S, SW, NW or 0-5 in {text!r}")
    return hex_name.strip(), number


def hexside_number(text: str) -> int | None:
    """A hexside written N, NE, SE, S, SW, NW or 0-5 as its number 0-5; None if it is neither."""
    side = text.strip().upper()
    if side in HEXSIDE_NAMES:
        return HEXSIDE_NAMES.index(side)
    if side in ("0", "1", "2", "3", "4", "5"):
        return int(side)
    return None


def board_px_x(col0: int, shape: "BoardShape") -> int:
    """Map pixel x of global column ``col0`` (a board's column A) on boards of ``shape``, to
    the nearest whole pixel."""
    return int(math.floor(shape.hex_width * col0 + 0.5))


def board_px_y(row0: int, shape: "BoardShape") -> int:
    """Map pixel y where a board of ``shape`` whose row index 0 lies at global row ``row0``
    starts."""
    return int(math.floor(shape.hex_height * row0 + 0.5))


def column_letters(col: int) -> str:
    """Letters of board column index ``col`` (0 -> A, 25 -> Z, 26 -> AA, 32 -> GG)."""
    return chr(ord("A") + col % 26) * (1 + col // 26)


def column_index(letters: str) -> int | None:
    """Board column index of ``letters`` (``"GG"`` -> 32), or None if not a column name."""
    letters = letters.upper()
    if not letters or len(set(letters)) != 1 or len(letters) > 2:
        return None
    col = ord(letters[0]) - ord("A") + 26 * (len(letters) - 1)
    return col if 0 <= col < BOARD_COLUMNS else None


def rows_in_column(col: int, rows: int = BOARD_ROWS) -> range:
    """Row numbers printed in board column index ``col`` of a board of ``rows`` rows: 1-10 or
    0-10 on a geomorphic board."""
    return range(1, rows + 1) if col % 2 == 0 else range(0, rows + 1)


def split_name(text: str) -> tuple[str, str, int] | None:
    """``"2I4"`` -> (``"2"``, ``"I"``, 4); ``"gg10"`` -> (``""``, ``"GG"``, 10); None if
    ``text`` is not a hex name (board label, column letter(s) A-Z or doubled, row 0-99).

    The only hex-name parser: :meth:`Grid.parse`, drifts and scenario files all use it."""
    m = _NAME_RE.match(text.strip()) if isinstance(text, str) else None
    if m is None:
        return None
    return m["board"], m["col"].upper(), int(m["row"])


def is_hex_name(text: object) -> bool:
    """True if ``text`` has the shape of a hex name (``"C5"``, ``"2C5"``); not checked on a map."""
    return isinstance(text, str) and split_name(text) is not None


def board_neighbour(name: str, side: int) -> str | None:
    """The neighbour of ``name`` across hexside ``side`` on the same geomorphic board, or None
    when it leaves the board (or ``name`` is not a board hex).  Name arithmetic only, for when no
    map is at hand (drift placement without a map)."""
    parts = split_name(name)
    if parts is None:
        return None
    board, letters, row = parts
    c = column_index(letters)
    if c is None:
        return None
    r = row - 1 if c % 2 == 0 else row              # row index inside the column
    dc, dr = NEIGHBOUR_OFFSETS[c % 2][side]
    c2, r2 = c + dc, r + dr
    if not 0 <= c2 < BOARD_COLUMNS or not 0 <= r2 < len(rows_in_column(c2)):
        return None
    return f"{board}{column_letters(c2)}{rows_in_column(c2)[r2]}"


@dataclass(frozen=True)
class HexWindow:
    """The printed hexes of a board a crop keeps: columns ``col_lo..col_hi`` (indices, A = 0),
    rows ``a_lo..a_hi`` of the A-type columns (A, C, ...) and ``b_lo..b_hi`` of the B-type
    columns (B, D, ..., whose rows 0 and 10 are the board's half hexes).  The whole board is
    (0, 32, 1, 10, 0, 10)."""

    col_lo: int = 0
    col_hi: int = BOARD_COLUMNS - 1
    a_lo: int = 1
    a_hi: int = BOARD_ROWS
    b_lo: int = 0
    b_hi: int = BOARD_ROWS

    def holds(self, bc: int, brow: int) -> bool:
        """True if the board's printed hex (column index ``bc``, row number ``brow``) is kept
        (every hex of an uncropped board, whatever its shape)."""
        if self.whole:
            return True
        lo, hi = (self.a_lo, self.a_hi) if bc % 2 == 0 else (self.b_lo, self.b_hi)
        return self.col_lo <= bc <= self.col_hi and lo <= brow <= hi

    @property
    def whole(self) -> bool:
        return self == WHOLE_BOARD


WHOLE_BOARD = HexWindow()


@dataclass(frozen=True)
class BoardPlacement:
    """One geomorphic board of a map: its label (e.g. ``"2"``) and place in the layout.

    ``col0``/``row0`` put the board's column A / row index 0 at that global column and row
    index (default: ``32 * bx``, ``10 * by``, boards side by side); a cropped board keeps only
    the hexes of its ``window`` and may lie closer to its neighbours (VASL places cropped
    boards by their cropped sizes).  ``col0`` is even: the hex grids of two boards mesh only
    when their A-type columns line up."""

    label: str
    bx: int  # board column in the layout (0 = leftmost)
    by: int  # board row in the layout (0 = top)
    rotated: bool = False  # turned 180 degrees: printed hex ids run from the bottom right
    col0: int | None = None
    row0: int | None = None
    window: HexWindow = WHOLE_BOARD
    shape: BoardShape = GEOMORPHIC

    @property
    def origin(self) -> tuple[int, int]:
        """(global column, global row index) of the board's column A, row index 0."""
        return ((self.shape.columns - 1) * self.bx if self.col0 is None else self.col0,
                self.shape.rows * self.by if self.row0 is None else self.row0)

    def cell_of(self, bc: int, brow: int) -> tuple[int, int]:
        """Global (column, row index) of the board's printed hex (column index ``bc``, row
        number ``brow``), following the physical board when it is rotated."""
        ri = brow - 1 if bc % 2 == 0 else brow
        if self.rotated:
            ri = self.shape.rows - 1 + bc % 2 - ri
            bc = self.shape.columns - 1 - bc
        c0, r0 = self.origin
        return c0 + bc, r0 + ri

    def printed_at(self, c: int, r: int) -> tuple[int, int] | None:
        """(column index, row number) of the board's printed hex at global column ``c``, row
        index ``r``; None if the board has none there (or its crop leaves it out)."""
        c0, r0 = self.origin
        bc, ri = c - c0, r - r0
        if not 0 <= bc < self.shape.columns:
            return None
        if self.rotated:
            bc = self.shape.columns - 1 - bc
            ri = self.shape.rows - 1 + bc % 2 - ri
        brow = ri + 1 if bc % 2 == 0 else ri
        return (bc, brow) if brow in rows_in_column(bc, self.shape.rows) and self.window.holds(bc, brow) else None

    def printed_hexes(self) -> Iterable[tuple[int, int]]:
        """(column index, row number) of every printed hex of the board, in its own order
        (column A top to bottom, then B, ...: VASL's column-major order)."""
        for bc in range(self.shape.columns):
            for brow in rows_in_column(bc, self.shape.rows):
                yield bc, brow


@dataclass(frozen=True, eq=False)
class Grid:
    """The hex cells of a map of one or more geomorphic boards, with their geometry.

    Cells are numbered column-major over the whole map: global column ``c`` (0 .. ncols - 1)
    and row index ``r`` (0-based within the column: even-index columns have ``nrows`` rows,
    odd-index columns ``nrows + 1``).  A cropped board's hexes outside its crop are not cells
    of the map (ids count the kept hexes only).  All per-cell geometry is precomputed as numpy
    arrays.
    """

    boards: tuple[BoardPlacement, ...]
    nbx: int
    nby: int
    #: every cell of the boards' rectangle, kept or not (the geometry a cropped map's is cut from)
    whole_rectangle: bool = False
    ncols: int = field(init=False)
    nrows: int = field(init=False)
    col: np.ndarray = field(init=False, repr=False)
    row: np.ndarray = field(init=False, repr=False)
    dy2: np.ndarray = field(init=False, repr=False)
    neighbours: np.ndarray = field(init=False, repr=False)
    centre_x: np.ndarray = field(init=False, repr=False)
    centre_y: np.ndarray = field(init=False, repr=False)
    _first: np.ndarray = field(init=False, repr=False)
    _sub: np.ndarray = field(init=False, repr=False)
    _outside: Mapping[str, str] = field(init=False, repr=False)
    _names: tuple[str, ...] = field(init=False, repr=False)
    _lookup: Mapping[str, int] = field(init=False, repr=False)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def single(cls, label: str = "", shape: BoardShape = GEOMORPHIC) -> "Grid":
        """A map of one board; ``label`` is its board number ("" for an unnamed board)."""
        return cls((BoardPlacement(label, 0, 0, shape=shape),), 1, 1)

    @classmethod
    def layout(cls, rows: Sequence[Sequence[str]]) -> "Grid":
        """A map of boards laid out in rows, e.g. ``[["1", "2"], ["3", "4"]]``."""
        if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
            raise UsageError(f"a board layout needs equal, non-empty rows of board labels, got {rows!r}")
        if len(rows) * len(rows[0]) > LAYOUT_BOARDS.value:
            raise UsageError(f"a layout of {len(rows[0])}x{len(rows)} = {len(rows) * len(rows[0])} "
                             f"boards is over the limit of {LAYOUT_BOARDS.value} boards "
                             f"(set ${LAYOUT_BOARDS.env} to raise it)")
        placements = [BoardPlacement(str(lbl), bx, by)
                      for by, r in enumerate(rows) for bx, lbl in enumerate(r)]
        labels = [p.label for p in placements]
        if len(set(labels)) != len(labels):
            raise UsageError(f"board labels must be distinct, got {labels!r}")
        return cls(tuple(placements), len(rows[0]), len(rows))

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        shape = self.boards[0].shape
        odd = next((b for b in self.boards if b.shape.size != shape.size), None)
        if odd is not None:
            raise UsageError(f"board {odd.label!r} ({odd.shape.describe()}) cannot share a map with "
                             f"board {self.boards[0].label!r} ({shape.describe()}): VASL lays "
                             f"together only boards of the same hex size")
        ncols = max(b.origin[0] for b in self.boards) + shape.columns
        nrows = max(b.origin[1] for b in self.boards) + shape.rows
        if any(b.origin[0] % 2 or b.origin[0] < 0 or b.origin[1] < 0 for b in self.boards):
            bad = next(b for b in self.boards if b.origin[0] % 2 or min(b.origin) < 0)
            raise UsageError(f"board {bad.label!r} cannot lie at column {bad.origin[0]}, row "
                             f"{bad.origin[1]} of the map: its hexes would not mesh with the "
                             f"others'; expected a crop that meets its neighbour on a hex "
                             f"column of the same kind (A, C, ... next to A, C, ...)")
        set_(self, "ncols", ncols)
        set_(self, "nrows", nrows)
        per_col = nrows + np.arange(ncols, dtype=np.int32) % 2  # rows_in_global_column
        first = np.zeros(ncols + 1, dtype=np.int32)
        np.cumsum(per_col, out=first[1:])
        col = np.repeat(np.arange(ncols, dtype=np.int32), per_col)
        row = (np.arange(len(col), dtype=np.int32) - first[col]).astype(np.int32)
        # the hexes some board keeps (a crop leaves the others out of the map)
        covered = np.zeros(len(col), bool)
        for b in self.boards:
            for bc, brow in b.printed_hexes():
                if b.window.holds(bc, brow):
                    c, r = b.cell_of(bc, brow)
                    covered[int(first[c]) + r] = True
        if self.whole_rectangle:
            covered[:] = True
        kept = np.flatnonzero(covered).astype(np.int32)
        sub = np.full(len(col) + 1, -1, np.int32)      # full cell -> map hex (index -1: none)
        sub[kept] = np.arange(len(kept), dtype=np.int32)
        # neighbours of every hex at once: cell(c + dc, r + dr) or -1 off the map
        offs = np.array(NEIGHBOUR_OFFSETS, dtype=np.int32)[col % 2]      # [n, 6, 2]
        c2 = col[:, None] + offs[:, :, 0]
        r2 = row[:, None] + offs[:, :, 1]
        inside = (c2 >= 0) & (c2 < ncols)
        c2c = np.where(inside, c2, 0)
        inside &= (r2 >= 0) & (r2 < per_col[c2c])
        nb = np.where(inside, first[c2c] + r2, -1).astype(np.int32)
        nb = sub[nb[kept]]
        col, row = col[kept], row[kept]
        set_(self, "col", col)
        set_(self, "row", row)
        set_(self, "_first", first)
        set_(self, "_sub", sub)
        set_(self, "dy2", 2 * row + (1 - col % 2))
        hw, hh = shape.hex_width, shape.hex_height
        set_(self, "centre_x", col * hw)
        set_(self, "centre_y", hh / 2 + row * hh - (col % 2) * hh / 2)
        set_(self, "neighbours", nb)
        names: list[str] = [""] * len(col)
        lookup: dict[str, int] = {}
        outside: dict[str, str] = {}
        multi = len(self.boards) > 1
        for b in self.boards:
            for bc, brow in b.printed_hexes():
                plain = b.shape.printed(bc, brow)
                full = f"{b.label}{plain}"
                if not b.window.holds(bc, brow):
                    outside[full.upper()] = b.label
                    if not multi:
                        outside[plain] = b.label
                    continue
                h = self.cell(*b.cell_of(bc, brow))
                if not names[h]:
                    names[h] = full if multi else plain
                lookup[full.upper()] = h
                if not multi:
                    lookup[plain] = h
        set_(self, "_names", tuple(names))
        set_(self, "_lookup", lookup)
        set_(self, "_outside", {k: v for k, v in outside.items() if k not in lookup})
        freeze(self, "col", "row", "dy2", "neighbours", "centre_x", "centre_y", "_first", "_sub",
               "_lookup", "_outside")
        self._check_labels()

    @property
    def cropped(self) -> bool:
        """True if a crop leaves some hexes of the boards' rectangle out of the map."""
        return len(self.col) < int(self._first[-1])

    @property
    def kept(self) -> np.ndarray:
        """int32 [n]: each map hex's index among all cells of the boards' rectangle."""
        return np.flatnonzero(self._sub[:-1] >= 0).astype(np.int32)

    @property
    def remap(self) -> np.ndarray:
        """int32 [cells + 1]: the map hex of each cell of the boards' rectangle, -1 where a
        crop leaves it out (and at index -1)."""
        return self._sub

    def uncropped(self) -> "Grid":
        """The boards' whole rectangle: every cell, whether a board's crop keeps it or not."""
        return Grid(tuple(replace(b, window=WHOLE_BOARD) for b in self.boards), self.nbx, self.nby,
                    whole_rectangle=True)

    def _check_labels(self) -> None:
        """UsageError unless every hex of every board can be addressed by its name: a label
        such as ``"a"`` would make ``"aA1"`` read as hex AA1, and ``"x,y"`` is no hex name."""
        for b in self.boards:
            if not b.label:
                continue
            if not re.fullmatch(r"[A-Za-z0-9]{1,12}", b.label, re.ASCII):
                raise UsageError(f"board label {b.label!r} cannot start a hex name; expected "
                                 f"letters and digits such as '2' or '2b'")
            if len(self.boards) == 1:
                continue  # a single board's hexes answer to their plain names too
            if sum(o.label.upper() == b.label.upper() for o in self.boards) > 1:
                raise UsageError(f"board label {b.label!r} is used twice (labels are read "
                                 f"without regard to case)")
            for bc in range(b.window.col_lo, min(b.window.col_hi, b.shape.columns - 1) + 1):
                brow = b.shape.rows if b.window.whole else b.window.a_hi if bc % 2 == 0 else b.window.b_hi
                if not b.window.holds(bc, brow):
                    continue
                name = f"{b.label}{b.shape.printed(bc, brow)}"
                try:
                    ok = self.parse(name) == self._lookup[name.upper()]
                except UsageError:
                    ok = False
                if not ok:
                    raise UsageError(f"board label {b.label!r} cannot be told from the column "
                                     f"letters: {name!r} does not name hex "
                                     f"{b.shape.printed(bc, brow)} "
                                     f"of board {b.label!r}; expected a label such as '2' or '2b'")

    # -- cells -------------------------------------------------------------------------------
    def rows_in_global_column(self, c: int) -> int:
        return self.nrows + (c % 2)

    def cell(self, c: int, r: int) -> int:
        """The hex at global column ``c``, row index ``r``, or -1 if off the map (or cropped)."""
        if 0 <= c < self.ncols and 0 <= r < self.rows_in_global_column(c):
            return int(self._sub[int(self._first[c]) + r])
        return -1

    def full_cell(self, c: int, r: int) -> int:
        """Index of (``c``, ``r``) among all cells of the boards' rectangle, cropped or not
        (the pixel lookup's numbering); -1 outside the rectangle."""
        if 0 <= c < self.ncols and 0 <= r < self.rows_in_global_column(c):
            return int(self._first[c]) + r
        return -1

    def __len__(self) -> int:
        return len(self.col)

    @property
    def size(self) -> int:
        return len(self.col)

    @property
    def shape(self) -> BoardShape:
        """The hex grid of the map's boards (all alike: :meth:`__post_init__`)."""
        return self.boards[0].shape

    @property
    def width_px(self) -> int:
        return self.px_x(self.ncols - self.shape.columns) + self.shape.width_px

    @property
    def height_px(self) -> int:
        return self.px_y(self.nrows - self.shape.rows) + self.shape.height_px

    def px_x(self, col0: int) -> int:
        """Map pixel x of global column ``col0`` (a board's column A), to the nearest whole pixel."""
        return board_px_x(col0, self.shape)

    def px_y(self, row0: int) -> int:
        """Map pixel y where a board whose row index 0 lies at global row ``row0`` starts."""
        return board_px_y(row0, self.shape)

    # -- names -------------------------------------------------------------------------------
    def name(self, h: Hex) -> str:
        """The printed name of hex ``h`` (board prefix only on maps of several boards)."""
        return self._names[h]

    def names(self, hexes: Iterable[Hex] | None = None) -> list[str]:
        return list(self._names) if hexes is None else [self._names[h] for h in hexes]

    def parse(self, text: str) -> Hex:
        """The hex named ``text`` (``"I4"``, ``"2I4"``, ``"gg10"``); UsageError if not on the map."""
        parts = split_name(text)
        if parts:
            board, col, row = parts
            key = f"{board.upper()}{col}{row}"
            if key in self._lookup:
                return self._lookup[key]
            if board and len(self.boards) == 1 and board.upper() == self.boards[0].label.upper():
                key = f"{col}{row}"
                if key in self._lookup:
                    return self._lookup[key]
            if key in self._outside:
                raise UsageError(f"hex {text!r} is outside the crop of board "
                                 f"{self._outside[key]!r}: a cropped board keeps only the hexes "
                                 f"inside its crop; expected a hex such as {self.name(0)!r}")
        boards = ", ".join(b.label for b in self.boards if b.label) or "unnamed"
        first = self.boards[0]
        example = first.shape.printed(8, 4)        # I4 on a board named from A1
        spans = {b.label: b.shape.name_span for b in self.boards}
        names = (next(iter(spans.values())) if len(set(spans.values())) == 1 else
                 "; ".join(f"board {label}: {span}" for label, span in spans.items()))
        raise UsageError(
            f"hex {text!r} is not on this map (boards: {boards}); expected a name like "
            f"{example!r} or '{first.label or '2'}{example}' with {names}")

    def hex(self, h: Hex | str, param: str | None = None) -> Hex:
        """Hex id of ``h``, a name (see :meth:`parse`) or an id; UsageError if not on the map,
        naming the function parameter ``param`` when given."""
        if isinstance(h, str):
            try:
                return self.parse(h)
            except UsageError as exc:
                if param is None:
                    raise
                raise UsageError(f"bad {param}: {exc}", param=param) from None
        if is_whole(h, 0, len(self.col) - 1):
            return int(h)
        raise UsageError(f"{f'bad {param}: ' if param else ''}hex {h!r} is not on this map; "
                         f"expected a name such as {self.name(0)!r} or an id "
                         f"0-{len(self.col) - 1}", param=param)

    def inner_hexside(self, text: str, side: int, what: str = "drift") -> Hex:
        """The hex named ``text`` whose hexside ``side`` lies between two hexes of the map.

        UsageError naming ``what`` if the hex is not on the map or the hexside is on the map's
        edge (terrain there, such as a drift (E3 3.75), would lie between the map and nothing).
        """
        if not is_whole(side, 0, 5):
            raise UsageError(f"{what} {text}:{side!r}: expected a hexside 0-5 (N, NE, SE, S, SW, NW)")
        try:
            h = self.parse(text)
        except UsageError:
            raise UsageError(f"{what} hex {text!r} is not on this map (hexside "
                             f"{HEXSIDE_NAMES[side]}); expected a hex such as {self.name(0)}") from None
        if self.neighbours[h, side] < 0:
            raise UsageError(f"{what} {text}:{HEXSIDE_NAMES[side]} is on the edge of the map; "
                             f"expected a hexside between two hexes of the map")
        return h

    def is_half_hex(self, h: Hex) -> bool:
        """True for a half hex on the map's outer edge (its first and last columns, and the
        first and last rows of B-type columns; a crop's cut makes half hexes too)."""
        c, r = int(self.col[h]), int(self.row[h])
        rows = self.row[self.col == c]
        return c in (int(self.col[0]), int(self.col[-1])) or (
            c % 2 == 1 and r in (int(rows.min()), int(rows.max())))

    # -- geometry ----------------------------------------------------------------------------
    def distance(self, a: Hex, b: Hex) -> int:
        """Range in hexes between the centres of ``a`` and ``b``."""
        dc = abs(int(self.col[a]) - int(self.col[b]))
        dy = abs(int(self.dy2[a]) - int(self.dy2[b]))
        return dc + max(0, (dy - dc) // 2)

    def ranges(self, a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
        """Range between hexes ``a`` and ``b``, arrays (or ids) that broadcast together: int32
        of their broadcast shape (the formula of :meth:`distance`, vectorised)."""
        col, dy2 = self.col.astype(np.int32, copy=False), self.dy2.astype(np.int32, copy=False)
        dc = np.abs(col[a] - col[b])
        dy = np.abs(dy2[a] - dy2[b])
        out: np.ndarray = (dc + np.maximum(0, (dy - dc) // 2)).astype(np.int32, copy=False)
        return out

    def distances_from(self, a: Hex) -> np.ndarray:
        """Range from ``a`` to every hex, as an int32 array."""
        return self.ranges(int(a), np.arange(len(self.col)))

    def distance_matrix(self) -> np.ndarray:
        """All-pairs range matrix (n x n int16)."""
        n = np.arange(len(self.col))
        return self.ranges(n[:, None], n[None, :]).astype(np.int16)

    def neighbour(self, h: Hex, side: int) -> Hex:
        """The hex across hexside ``side`` (0 N .. 5 NW) of ``h``, or -1 off the map."""
        return int(self.neighbours[h, side])

    def adjacent(self, h: Hex) -> list[Hex]:
        return [int(n) for n in self.neighbours[h] if n >= 0]

    def side_towards(self, a: Hex, b: Hex) -> int:
        """The hexside of ``a`` shared with adjacent hex ``b``; UsageError if not adjacent."""
        for side in range(6):
            if self.neighbours[a, side] == b:
                return side
        raise UsageError(f"hexes {self.name(a)!r} and {self.name(b)!r} are not adjacent")

    def centre(self, h: Hex) -> tuple[float, float]:
        """Exact centre of ``h`` in map pixels (VASL geometry, LOS-SPEC 1.3)."""
        return float(self.centre_x[h]), float(self.centre_y[h])

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six vertices v0..v5 of ``h`` (LOS-SPEC 1.4; hexside k runs v_k -> v_k+1)."""
        x, y = self.centre(h)
        s, hh = self.shape.hex_side, self.shape.hex_height / 2
        return [(x - s / 2, y - hh), (x + s / 2, y - hh), (x + s, y),
                (x + s / 2, y + hh), (x - s / 2, y + hh), (x - s, y)]

    def board_cells(self, i: int) -> np.ndarray:
        """int32 [346 on a geomorphic board]: the hexes of board ``self.boards[i]`` in the order of the board's own
        printed hexes (column A top to bottom, then B, ...: the ids of the board alone); -1
        for a hex its crop leaves out."""
        b = self.boards[i]
        return np.array([self.cell(*b.cell_of(bc, brow)) if b.window.holds(bc, brow) else -1
                         for bc, brow in b.printed_hexes()], np.int32)

    @cached_property
    def owners(self) -> np.ndarray:
        """int32 [n]: which board (index in :attr:`boards`) holds each hex's centre -- for a
        join hex the later board of the two, right of or below the join, as VASL composes."""
        out = np.full(len(self.col), -1, np.int32)
        for i in sorted(range(len(self.boards)), key=lambda i: (self.boards[i].by, self.boards[i].bx)):
            cells = self.board_cells(i)
            out[cells[cells >= 0]] = i
        out.setflags(write=False)
        return out

    @cached_property
    def join_hexes(self) -> np.ndarray:
        """bool [n]: the hex lies on a join, two boards' half hexes forming one playing hex."""
        count = np.zeros(len(self.col), np.int32)
        for i in range(len(self.boards)):
            cells = self.board_cells(i)
            count[cells[cells >= 0]] += 1
        out: np.ndarray = count > 1
        out.setflags(write=False)
        return out

    def board_of(self, h: Hex) -> BoardPlacement:
        """The board whose hex ``h`` is (for seam cells, the first board in layout order)."""
        c, r = int(self.col[h]), int(self.row[h])
        for b in self.boards:
            if b.printed_at(c, r) is not None:
                return b
        raise AssertionError("cell outside every board")  # pragma: no cover
