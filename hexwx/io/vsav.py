"""Reading VASL saves (``.vsav``): the board layout, its SSRs and the pieces on the boards.

A save is a zip archive.  Its ``savedGame`` entry is ``!VCSK``, two hex digits giving a key
byte, then the save text as hex digits, each byte XOR'd with the key.  The text is VASSAL's
command sequence: commands separated by ESC (0x1b), where a command that is itself a sequence
has its ESCs escaped with a backslash (VASSAL's ``SequenceEncoder``: a delimiter inside an
element is preceded by ``\\``; an element ending in ``\\`` or quoted in ``'`` is wrapped in
quotes).  The commands read here:

* ``bd<TAB>X<TAB>Y<TAB>NAME<TAB>[x<TAB>y<TAB>w<TAB>h<TAB>]VER<TAB>ver<TAB>[OVR<TAB>name<TAB>h1<TAB>h2<TAB>]*
  [SSR<TAB>rules][<TAB>ZOOM<TAB>z][<TAB>FH<TAB>true|false]``, repeated (``bd<TAB>`` again) for
  every board: the board at column X, row Y of the layout, ``r`` before NAME = turned 180
  degrees, ``x y w h`` its crop (VASL's ``ASLBoard.getState``; :func:`parse_board_command`).
  ``bd<TAB>`` alone: no boards chosen yet.
* ``+/id/type/state``: a piece.  Type and state are VASSAL trait chains: the outermost trait
  first, each inner chain tab-joined and escaped one level deeper, the basic piece last
  (``piece;clone;delete;image;name`` with state ``map;x;y;...``).  ``x, y`` are pixels of the
  composed map including VASL's 400-pixel margin (:data:`MAP_MARGIN_PX`).

Where pieces lie: board (X, Y) starts at the sum of the widths of the boards left of it in its
row and of the heights of the boards above it in its column (each its board's size, 1800 x 645
for a geomorphic board, unless cropped: :meth:`VaslSave.on_boards` gives half and Deluxe sizes),
offset by the margin; a turned board counts its pixels from its far corner; a cropped board adds
its crop origin (VASL ``ASLBoard.localCoordinates``).  The hex is the one whose centre is
nearest to the piece on the board's own printed grid (its hex size and names), so a turned board
keeps its printed ids.
"""
from __future__ import annotations

import binascii
import re
import zipfile
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np

from hexwx.limits import LAYOUT_BOARDS, Limit, is_zip, open_zip, read_zip_entry
from hexwx.errors import DataError
from hexwx.hexmap.coords import GEOMORPHIC, BoardShape, Grid

MAGIC = b"!VCSK"
ESC = "\x1b"
#: VASL's map margin: the boards start at pixel (400, 400) of the composed map.
MAP_MARGIN_PX = 400
#: The VASL map that holds the boards.
MAIN_MAP = "Main Map"
#: The largest save read (bytes of ``savedGame``): real saves hold a few kilobytes per piece.
MAX_SAVED_GAME_BYTES = 64 * 1024 * 1024
#: The unpacked size limit of a save's savedGame entry ($HEXWX_MAX_SAVE_MB raises it).
SAVED_GAME = Limit("the unpacked size of a save's savedGame", MAX_SAVED_GAME_BYTES, "MB",
                   "HEXWX_MAX_SAVE_MB")
#: The most traits one piece may have, and the longest piece command: real VASL counters have
#: about 40 traits in under 5 kB; the bounds keep a hostile save from costing minutes.
MAX_TRAITS = 256
MAX_PIECE_CHARS = 1 << 20

#: VASL's nationality directories (counter image prefixes) -> nationality and ASL side.
#: The side is the one the nationality normally fights on (ASL A25 nationality
#: distinctions); a scenario where it differs can edit ``side`` in the written scenario.
NATIONALITIES: dict[str, tuple[str, str]] = {
    "ge": ("German", "Axis"), "it": ("Italian", "Axis"), "ja": ("Japanese", "Axis"),
    "fi": ("Finnish", "Axis"), "ax": ("Axis Minor", "Axis"),
    "ru": ("Russian", "Allied"), "am": ("American", "Allied"), "br": ("British", "Allied"),
    "fr": ("French", "Allied"), "ch": ("Chinese", "Allied"), "al": ("Allied Minor", "Allied"),
    "gr": ("Greek", "Allied"), "po": ("Polish", "Allied"), "us": ("American", "Allied"),
}

UNIT_KINDS = ("infantry", "vehicle", "other")


# -- decoding ----------------------------------------------------------------------------------

def split_sequence(text: str, delim: str) -> list[str]:
    """The elements of a VASSAL ``SequenceEncoder`` string (delimiters escaped with ``\\``).

    A delimiter preceded by a backslash belongs to the element (the backslash is dropped); an
    element wrapped in single quotes loses them.
    """
    out: list[str] = []
    parts: list[str] = []
    start = i = 0
    while True:
        j = text.find(delim, i)
        if j < 0:
            parts.append(text[start:])
            out.append(_unquote("".join(parts)))
            return out
        if j > 0 and text[j - 1] == "\\":
            parts.append(text[start:j - 1] + delim)
            start = i = j + 1
            continue
        parts.append(text[start:j])
        out.append(_unquote("".join(parts)))
        parts = []
        start = i = j + 1


def _split_first(text: str, delim: str) -> tuple[str, str | None]:
    """The first element of a sequence and the rest (still one level escaped), or (text, None)."""
    i = 0
    while True:
        j = text.find(delim, i)
        if j < 0:
            return text, None
        if j > 0 and text[j - 1] == "\\":
            i = j + 1
            continue
        head = _unquote(text[:j].replace("\\" + delim, delim))
        return head, _unquote(text[j + 1:].replace("\\" + delim, delim))


def _unquote(s: str) -> str:
    return s[1:-1] if len(s) >= 2 and s[0] == "'" and s[-1] == "'" else s


def decode_saved_game(data: bytes, source: str) -> str:
    """The save text of a ``savedGame`` entry (``!VCSK`` + key + XOR'd hex); DataError if bad."""
    if not data.startswith(MAGIC):
        raise DataError(f"{source}: savedGame does not start with {MAGIC.decode()!r}; expected an "
                        f"obfuscated VASSAL save (found {data[:8]!r})")
    body = data[len(MAGIC):].strip()
    if len(body) < 2:
        raise DataError(f"{source}: savedGame is truncated (no key byte after {MAGIC.decode()!r})")
    if len(body) % 2:
        raise DataError(f"{source}: savedGame is truncated or garbled (an odd number of hex "
                        f"digits, {len(body)}); expected pairs of hex digits")
    try:
        raw = binascii.unhexlify(body)
    except (binascii.Error, ValueError):
        bad = re.search(rb"[^0-9A-Fa-f]", body)
        where = bad.start() + len(MAGIC) if bad else "?"
        raise DataError(f"{source}: savedGame is garbled (a non-hex character at byte {where}); "
                        f"expected hex digits after {MAGIC.decode()!r}") from None
    key = raw[0]
    plain = (np.frombuffer(raw, dtype=np.uint8, offset=1) ^ np.uint8(key)).tobytes()
    try:
        text = plain.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(f"{source}: savedGame does not decode to text with its key byte "
                        f"0x{key:02x} (wrong key or garbled data)") from None
    if not text.startswith("begin_save"):
        raise DataError(f"{source}: savedGame decodes to {text[:20]!r}, not a VASSAL save "
                        f"(expected it to start with 'begin_save'; wrong key or garbled data)")
    return text


def iter_commands(text: str) -> Iterator[str]:
    """Every command of a save text, nested sequences flattened, in order."""
    for cmd in split_sequence(text, ESC):
        if ESC in cmd:
            yield from iter_commands(cmd)
        elif cmd:
            yield cmd


def trait_chain(type_: str, state: str) -> list[tuple[str, str]]:
    """The (type, state) of every trait of a piece, outermost first, the basic piece last."""
    out: list[tuple[str, str]] = []
    t: str | None = type_
    st: str | None = state
    while t is not None:
        if len(out) >= MAX_TRAITS:
            raise DataError(f"more than {MAX_TRAITS} traits (nested decorators); expected a "
                            f"VASL counter")
        head, t = _split_first(t, "\t")
        shead, st = _split_first(st, "\t") if st is not None else ("", None)
        out.append((head, shead))
    return out


# -- the board layout --------------------------------------------------------------------------

@dataclass(frozen=True)
class SaveBoard:
    """One board of a save: where it lies in the layout, turned or not, crop, overlays, SSRs."""

    name: str                     # as VASL writes it, without the "r": "05"
    x: int                        # layout column
    y: int                        # layout row
    rotated: bool = False
    version: str = ""
    crop: tuple[int, int, int, int] | None = None   # x, y, width, height (-1 = uncropped)
    overlays: tuple[str, ...] = ()                  # "name hex1 hex2"
    ssr: tuple[str, ...] = ()
    zoom: float = 1.0
    copy_label: str = ""          # set for a second copy of a board: "2b", "2c", ...
    full_hex: bool | None = None  # FH: the crop was made to the nearest full hex row
    extras: tuple[str, ...] = ()  # fields of newer VASL versions hexwx does not know
    #: the board's hex grid (geomorphic until the save is read against its map:
    #: :meth:`VaslSave.on_boards`)
    shape: BoardShape = GEOMORPHIC

    @property
    def written(self) -> str:
        """The board as a layout names it: ``r05``."""
        return ("r" if self.rotated else "") + self.name

    @property
    def label(self) -> str:
        """The hex-name label: the board number without leading zeros (``05`` -> ``5``); a
        second copy of a board in the save is ``2b``, a third ``2c``."""
        if self.copy_label:
            return self.copy_label
        return (self.name.lstrip("0") or "0") if self.name[:1].isdigit() else self.name

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels as the board lies on the map (after any crop)."""
        w, h = self.shape.width_px, self.shape.height_px
        if self.crop is not None:
            cw, ch = self.crop[2], self.crop[3]
            w = cw if cw > 0 else w - self.crop[0]
            h = ch if ch > 0 else h - self.crop[1]
        return w, h


#: A whole number as a save writes it: coordinates and sizes, at most 9 digits (a longer one
#: is no real position, and a 5,000-digit one would stall or break int()).
_INT = re.compile(r"-?\d{1,9}$")
#: The board magnifications read (VASL offers 0.25 to 4).
_ZOOMS = (0.01, 100.0)
#: A field keyword of a board entry: upper-case letters only (VER, OVR, SSR, ZOOM, FH and any
#: newer one).  VASL's terrain SSR names all have lower-case letters (NoGrain, WoodsToBrush).
_KEYWORD = re.compile(r"[A-Z]{2,}$")
#: Keywords and how many values follow them (SSR: every value up to the next keyword; OVR may
#: add a fourth, VASL's "persist elevation" true/false).
_FIELD_VALUES = {"VER": 1, "OVR": 3, "ZOOM": 1, "FH": 1}


def parse_board_command(cmd: str, source: str) -> tuple[SaveBoard, ...]:
    """The boards of a ``bd`` command (none for ``bd<TAB>`` alone: no map chosen yet);
    DataError naming the save on a malformed one.

    Per board, after ``X Y [r]NAME``: an optional crop ``x y w h`` (board pixels, -1 = that
    side uncropped; both sizes -1 or 0 = no crop, as VASL reads it), then keyword fields in any
    order: ``VER v``, ``OVR name hex1 hex2 [true|false]`` (an overlay, kept as the string
    ``"name hex1 hex2[ persist]"`` in :attr:`SaveBoard.overlays` for :mod:`hexwx.io.overlays`:
    never an SSR), ``SSR`` followed by terrain SSR names up to the next keyword, ``ZOOM z``,
    ``FH true|false`` (newer VASL: the crop was made to the nearest full hex row; the hexes it
    keeps are the same).  Any other upper-case keyword is a field of a newer VASL: it and its
    values (up to the next keyword) are kept in :attr:`SaveBoard.extras`, never read as SSRs.
    """
    count = cmd.count("bd\t")   # checked before any board is read (their layout is quadratic)
    if count > LAYOUT_BOARDS.value:
        raise DataError(f"{source}: {count:,} boards exceeds {LAYOUT_BOARDS.describe()}")
    boards = []
    for chunk in cmd.split("bd\t")[1:]:
        f = [t.strip() for t in chunk.split("\t")]
        if not any(f):
            continue                  # "bd<TAB>" and nothing else: no board chosen yet
        if len(f) < 3 or not (_INT.match(f[0]) and _INT.match(f[1])) or not f[2]:
            raise DataError(f"{source}: malformed board entry 'bd\\t{chunk[:40]}' in the save; "
                            f"expected bd<TAB>X<TAB>Y<TAB>NAME")
        name = f[2]
        rotated = name.startswith("r") and len(name) > 1
        if rotated:
            name = name[1:]
        rest = [t for t in f[3:] if t]
        crop = None
        if len(rest) >= 4 and all(_INT.match(t) for t in rest[:4]):
            crop = (int(rest[0]), int(rest[1]), int(rest[2]), int(rest[3]))
            rest = rest[4:]
        if crop is not None and crop[2] <= 0 and crop[3] <= 0:
            crop = None
        fields = _keyword_fields(rest)
        version = next((v[0] for k, v in fields if k == "VER" and v), "")
        overlays = tuple(" ".join(v[:3]) + (" persist" if v[3:4] and v[3].lower() == "true" else "")
                         for k, v in fields if k == "OVR")
        ssr = tuple(s for k, v in fields if k == "SSR" for s in v)
        zoom = 1.0
        full_hex: bool | None = None
        extras: list[str] = []
        for k, v in fields:
            if k == "ZOOM" and v:
                zoom = _zoom(v[0], source, name)
            elif k == "FH":
                if not v or v[0].lower() not in ("true", "false"):
                    raise DataError(f"{source}: board {name}: FH {' '.join(v)!r} is not true or "
                                    f"false")
                full_hex = v[0].lower() == "true"
            elif k not in _FIELD_VALUES and k != "SSR":
                extras.append(" ".join([k, *v]).strip())
        boards.append(SaveBoard(name, int(f[0]), int(f[1]), rotated, version, crop,
                                overlays, ssr, zoom, full_hex=full_hex, extras=tuple(extras)))
    seen: dict[str, int] = {}
    for i, b in enumerate(boards):
        n = seen.get(b.label, 0)
        seen[b.label] = n + 1
        if n:
            if n > 24:
                raise DataError(f"{source}: board {b.name} is laid {n + 1} times; expected at most 25 copies")
            boards[i] = replace(b, copy_label=f"{b.label}{'bcdefghijklmnopqrstuvwxyz'[n - 1]}")
    return tuple(boards)


def _keyword_fields(tokens: list[str]) -> list[tuple[str, list[str]]]:
    """(keyword, values) of a board entry's fields, in order.  SSR names may also come as one
    space-separated field; a token before the first keyword is a field of its own (extras)."""
    words = [w for t in tokens for w in t.split()]
    out: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(words):
        k = words[i]
        if not _KEYWORD.match(k):
            out.append(("", [k]))          # a stray value: kept as an extra
            i += 1
            continue
        n = _FIELD_VALUES.get(k)
        j = i + 1
        while j < len(words) and (n is None or j - i - 1 < n) and not (
                _KEYWORD.match(words[j]) and (n is None or k == "SSR")):
            j += 1
        if k == "OVR" and j < len(words) and words[j].lower() in ("true", "false"):
            j += 1                             # VASL's "persist elevation" flag
        out.append((k, words[i + 1:j]))
        i = j
    return out


def _zoom(text: str, source: str, board: str) -> float:
    try:
        zoom = float(text)
    except ValueError:
        raise DataError(f"{source}: board {board}: ZOOM {text[:40]!r} is not a number") from None
    if not _ZOOMS[0] <= zoom <= _ZOOMS[1]:     # (nan fails both)
        raise DataError(f"{source}: board {board}: ZOOM {text[:40]!r}; expected a magnification "
                        f"from {_ZOOMS[0]} to {_ZOOMS[1]:g}")
    return zoom


# -- pieces ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SavePiece:
    """One piece of a save: VASSAL id, name, counter image, kind, side and map position."""

    gid: str
    name: str
    image: str
    kind: str                  # infantry / vehicle / other
    nationality: str | None    # "German" ... (None for markers)
    side: str | None           # "Axis" / "Allied" / a nationality code (None for markers)
    map: str
    x: int
    y: int
    counter_type: str = ""     # VASL's DBCounterType: unit, common, global
    #: every trait's (type, state), outermost first (hexwx.io.vsav_pieces reads them)
    traits: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)


def _piece(gid: str, type_: str, state: str) -> SavePiece | None:
    chain = trait_chain(type_, state)
    basic_t, basic_s = chain[-1]
    bt = basic_t.split(";")
    if bt[0] != "piece":
        return None
    image = bt[3] if len(bt) > 3 else ""
    name = ";".join(bt[4:]) if len(bt) > 4 else ""
    bs = basic_s.split(";")
    if len(bs) < 3 or not (_INT.match(bs[1]) and _INT.match(bs[2])):
        return None
    marks: dict[str, str] = {}
    nat_code = None
    images = [image]
    vehicle_trait = False
    for t, s in chain[:-1]:
        f = t.split(";")
        if f[0] == "mark" and len(f) > 1:
            marks.setdefault(f[1], s)
        elif f[0] == "conceal" and len(f) > 3 and f[3]:
            nat_code = nat_code or f[3]
        elif f[0] == "concealment" and len(f) > 2 and f[2]:
            nat_code = nat_code or f[2]
        elif f[0] == "emb2":
            images += [im for part in f if "/" in part for im in part.split(",")]
        elif f[0] in ("turr", "info"):
            vehicle_trait = vehicle_trait or f[0] == "turr"
    if nat_code is None:   # the counter's own image folder, else its layers' (ge/ge467S)
        for im in images:
            m = re.match(r"([a-z]{2})/", im.strip())
            if m and m.group(1) in NATIONALITIES:
                nat_code = m.group(1)
                break
    ctype = marks.get("DBCounterType", "")
    kind = "other"
    if ctype == "unit":
        vehicle = vehicle_trait or any(re.search(r"(^|/)veh/", im) for im in images)
        ordnance = any(re.search(r"(^|/)ord/", im) for im in images)
        kind = "vehicle" if vehicle else ("other" if ordnance else "infantry")
    nationality = side = None
    if nat_code:
        nationality, side = NATIONALITIES.get(nat_code, (nat_code, nat_code))
    return SavePiece(gid, name.strip(), image.strip(), kind, nationality, side,
                     bs[0], int(bs[1]), int(bs[2]), ctype, tuple(chain))


# -- the save ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlacedPiece:
    """A piece on a board: the board, its printed hex there and the layout's hex name."""

    piece: SavePiece
    board: SaveBoard
    printed: str      # the board's own printed hex id, e.g. "I4"
    hex: str          # the hex name on the save's map: "5I4" (or "I4" on a one-board map)
    #: the piece's pixel on its board as printed (a turned board counted from its far corner)
    local: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class VaslSave:
    """A decoded VASL save: its boards (in the save's order) and pieces."""

    source: str
    boards: tuple[SaveBoard, ...]
    pieces: tuple[SavePiece, ...]
    #: VASL's game-wide "persist elevation" choice: overlays keep the boards' ground levels.
    persist_elevation: bool = False
    #: each stack's member ids, bottom first (VASSAL ``Stack`` state)
    stacks: tuple[tuple[str, ...], ...] = ()
    _origins: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict, repr=False,
                                                              compare=False)

    def __post_init__(self) -> None:
        self._check_grid()
        sizes = {(b.x, b.y): b.size for b in self.boards}
        origins = {}
        for b in self.boards:
            ox = sum(sizes[(i, b.y)][0] for i in range(b.x))
            oy = sum(sizes[(b.x, j)][1] for j in range(b.y))
            origins[(b.x, b.y)] = (MAP_MARGIN_PX + ox, MAP_MARGIN_PX + oy)
        self._origins.update(origins)

    def _check_grid(self) -> None:
        cells = [(b.x, b.y) for b in self.boards]
        if not cells:
            return                    # no boards yet: a map is refused when asked for (rows)
        if len(set(cells)) != len(cells):
            dup = next(c for c in cells if cells.count(c) > 1)
            raise DataError(f"{self.source}: two boards at layout column {dup[0]}, row {dup[1]}")
        nx = max(c[0] for c in cells) + 1
        ny = max(c[1] for c in cells) + 1
        if min(min(c) for c in cells) < 0 or len(cells) != nx * ny:
            raise DataError(f"{self.source}: the boards {', '.join(b.written for b in self.boards)} "
                            f"do not fill a {nx}x{ny} rectangle; expected every row to have "
                            f"the same number of boards")

    # -- layout ----------------------------------------------------------------------------
    def require_boards(self) -> None:
        """DataError in one line if the save has no boards (its board command is empty)."""
        if not self.boards:
            raise DataError(f"{self.source}: the save has no boards (its board command is empty: "
                            f"no map was chosen in VASL yet); expected a save with boards")

    @property
    def rows(self) -> list[list[SaveBoard]]:
        """The boards as layout rows, top to bottom, each left to right."""
        self.require_boards()
        nx = max(b.x for b in self.boards) + 1
        ny = max(b.y for b in self.boards) + 1
        at = {(b.x, b.y): b for b in self.boards}
        return [[at[(x, y)] for x in range(nx)] for y in range(ny)]

    def layout_text(self) -> str:
        """The layout as an inline string: ``"r05/r02/r04"``."""
        return "/".join(",".join(b.written for b in row) for row in self.rows)

    @property
    def ssr(self) -> tuple[str, ...]:
        """The SSRs the save names, each once, in the order first named."""
        out: list[str] = []
        for b in self.boards:
            out += [s for s in b.ssr if s not in out]
        return tuple(out)

    @property
    def multi_board(self) -> bool:
        return len(self.boards) > 1

    def origin(self, b: SaveBoard) -> tuple[int, int]:
        """The map pixel of the board's top-left corner (margin included)."""
        return self._origins[(b.x, b.y)]

    def on_boards(self, shapes: Mapping[str, BoardShape]) -> "VaslSave":
        """The save with each board's hex grid from ``shapes`` (board label -> shape, as the
        save's map has them: half boards, Deluxe boards), so that pieces are read against
        the boards' real sizes and hexes."""
        boards = tuple(replace(b, shape=shapes.get(b.label, b.shape)) for b in self.boards)
        if boards == self.boards:
            return self
        return VaslSave(self.source, boards, self.pieces, self.persist_elevation, self.stacks)

    # -- pieces ----------------------------------------------------------------------------
    def locate(self, piece: SavePiece) -> PlacedPiece | None:
        """Where ``piece`` lies on the boards, or None if it is off them (set-up areas)."""
        if piece.map != MAIN_MAP:
            return None
        for b in self.boards:
            ox, oy = self.origin(b)
            w, h = b.size
            lx, ly = piece.x - ox, piece.y - oy
            if not (0 <= lx < w and 0 <= ly < h):
                continue
            if b.rotated:
                lx, ly = w - lx, h - ly
            if b.zoom != 1.0:
                lx, ly = round(lx / b.zoom), round(ly / b.zoom)
            if b.crop is not None:
                lx, ly = lx + max(b.crop[0], 0), ly + max(b.crop[1], 0)
            printed = printed_hex_at(lx, ly, b.shape)
            name = f"{b.label}{printed}" if self.multi_board else printed
            return PlacedPiece(piece, b, printed, name, (float(lx), float(ly)))
        return None

    def placed(self) -> list[PlacedPiece]:
        """Every piece on the boards, in the save's order."""
        return [p for p in (self.locate(pc) for pc in self.pieces) if p is not None]

    def off_board(self) -> list[SavePiece]:
        """Every piece not on a board (set-up areas, charts, other windows)."""
        return [pc for pc in self.pieces if self.locate(pc) is None]

    # -- what hexwx cannot compose ---------------------------------------------------------
    def unsupported(self, *, with_crops: bool = False) -> list[str]:
        """Board features hexwx does not apply to the map, one phrase each (empty if none);
        ``with_crops``: every crop too (what --ignore-board-extras leaves out).  Overlays are
        applied (:mod:`hexwx.io.overlays`), crops too (:mod:`hexwx.io.crop`) in layouts whose
        boards are all upright or all turned round."""
        out = []
        # crops are composed when no board or every board is turned round
        turned = any(b.rotated for b in self.boards) and not all(b.rotated for b in self.boards)
        for b in self.boards:
            if b.crop is not None and (turned or with_crops):
                out.append(f"board {b.written} is cropped to x={b.crop[0]} y={b.crop[1]} "
                           f"w={b.crop[2]} h={b.crop[3]}"
                           + (" in a layout with turned and upright boards"
                              if turned and not with_crops else ""))
            if b.zoom != 1.0:
                out.append(f"board {b.written} is magnified x{b.zoom:g}")
        return out


@lru_cache(maxsize=8)
def _centres(shape: BoardShape) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    g = Grid.single("", shape)
    return g.centre_x.astype(float), g.centre_y.astype(float), tuple(g.names())


def printed_hex_at(x: float, y: float, shape: BoardShape = GEOMORPHIC) -> str:
    """The printed id of the hex of a board of ``shape`` (geomorphic unless given) holding
    board pixel (x, y).

    On a regular hex grid the hex holding a point is the one with the nearest centre.
    """
    cx, cy, names = _centres(shape)
    return names[int(np.argmin((cx - x) ** 2 + (cy - y) ** 2))]


def parse_save_text(text: str, source: str) -> VaslSave:
    """A :class:`VaslSave` from the decoded text of a save."""
    boards: tuple[SaveBoard, ...] | None = None
    pieces: list[SavePiece] = []
    stacks: list[tuple[str, ...]] = []
    persist = False
    for cmd in iter_commands(text):
        if cmd.startswith(PERSIST_COMMAND):
            persist = cmd[len(PERSIST_COMMAND):].strip().lower() == "true"
        elif cmd.startswith("bd\t"):
            boards = parse_board_command(cmd, source)   # a later bd command replaces an earlier
        elif cmd.startswith("+/"):
            parts = split_sequence(cmd[2:], "/")
            if len(parts) >= 3 and parts[1] == "stack":
                members = "/".join(parts[2:]).split(";")[3:]
                if members:
                    stacks.append(tuple(members))
                continue
            if len(parts) < 3:
                continue
            if len(cmd) > MAX_PIECE_CHARS:
                raise DataError(f"{source}: piece {parts[0][:20]!r} is {len(cmd)} characters long, "
                                f"over the limit of {MAX_PIECE_CHARS}; expected a VASL counter")
            try:
                pc = _piece(parts[0], parts[1], "/".join(parts[2:]))
            except DataError as exc:
                raise DataError(f"{source}: piece {parts[0][:20]!r}: {exc}") from None
            if pc is not None:
                pieces.append(pc)
    if boards is None:
        raise DataError(f"{source}: the save has no board layout (no 'bd' command); expected a "
                        f"VASL game with boards")
    return VaslSave(source, boards, tuple(pieces), persist, tuple(stacks))


#: The command in which VASL stores its game-wide "persist elevation" choice for overlays.
PERSIST_COMMAND = "command.los.persistelevation|"


def is_vasl_save(path: str | Path) -> bool:
    """True if ``path`` is named ``.vsav`` or is a zip archive with a ``savedGame`` entry."""
    p = Path(path)
    if p.suffix.lower() == ".vsav":
        return True
    if not is_zip(p):
        return False
    try:
        with open_zip(p) as zf:        # (its entry count checked before they are read)
            return "savedGame" in zf.namelist()
    except (OSError, DataError, zipfile.BadZipFile, ValueError, NotImplementedError, EOFError):
        return False


def read_save(path: str | Path) -> VaslSave:
    """Read a VASL save; DataError naming the file on anything unreadable."""
    p = Path(path)
    return _read_cached(str(p.resolve()), _mtime(p), str(p))


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except FileNotFoundError:
        raise DataError(f"{p}: no such file; expected a VASL save (.vsav)") from None
    except OSError as exc:
        raise DataError(f"{p}: cannot read: {exc.strerror}") from None


@lru_cache(maxsize=16)
def _read_cached(resolved: str, mtime: float, source: str) -> VaslSave:
    # hexwx.limits: a regular file, a bounded number of entries, savedGame unpacked to at most
    # SAVED_GAME bytes (declared and actual size), no encrypted or unknown compression
    with open_zip(resolved, "a VASL save (.vsav)") as zf:
        if "savedGame" not in zf.namelist():
            raise DataError(f"{source}: no savedGame entry in the archive; expected a VASL save "
                            f"(found {', '.join(zf.namelist()[:5]) or 'nothing'})")
        data = read_zip_entry(zf, "savedGame", source=source, lim=SAVED_GAME)
    return parse_save_text(decode_saved_game(data, source), source)


# -- units -------------------------------------------------------------------------------------

_ID_BAD = re.compile(r"[^A-Za-z0-9.+-]+")


def unit_ids(placed: list[PlacedPiece]) -> list[str]:
    """Ids for pieces from their names, unique in order: ``ge-LMG``, ``ge-LMG-2``, ...

    The name's runs of other characters become ``-``; a nationality code is put in front
    unless the name starts with it (``geLDR``); an empty name becomes ``piece``.
    """
    codes = {v[0]: k for k, v in NATIONALITIES.items()}
    out: list[str] = []
    used: set[str] = set()
    count: dict[str, int] = {}
    for p in placed:
        base = _ID_BAD.sub("-", p.piece.name).strip("-") or "piece"
        code = codes.get(p.piece.nationality or "")
        if code and not base.lower().startswith(code):
            base = f"{code}-{base}"
        n = count.get(base, 0) + 1
        uid = base if n == 1 else f"{base}-{n}"
        while uid in used:
            n += 1
            uid = f"{base}-{n}"
        count[base] = n
        used.add(uid)
        out.append(uid)
    return out


def check_supported(save: VaslSave, *, ignore: bool = False) -> None:
    """DataError naming the zoom (and crops of turned boards among upright ones) hexwx would
    not apply, unless ``ignore``; DataError if the save has no boards."""
    save.require_boards()
    bad = save.unsupported()
    if bad and not ignore:
        raise DataError(f"{save.source}: {'; '.join(bad)}: hexwx composes unmagnified boards, "
                        f"crops only among boards all upright or all turned round; give "
                        f"ignore_board_extras=True to use the whole boards as they are (pieces "
                        f"keep their hexes)",
                        param="ignore_board_extras")
