"""VASL board layouts: several boards side by side or stacked, some turned round (geomorphic,
half or Deluxe boards: a layout's boards share one hex size).

A layout is rows of boards, top to bottom, each row left to right.  A board is written as VASL
writes it: ``2``, ``02`` or ``bd02`` is board 2, a leading ``r`` turns it 180 degrees
(``r05``); on the command line rows are separated by ``/`` and boards by ``,``
(``"r05/r02/r04"``, ``"01,r03"``).  Hexes are named ``<label><printed hex>``: the label is the
board number without leading zeros or ``r`` (or a ``label`` given for a second copy of a board),
and a rotated board keeps its printed ids.  The half hexes on a join are one playing hex
answering to both names, printed with the upper / left board's (:mod:`hexwx.hexmap.coords`).

Composition follows VASL (see ``golden-multi/README``): board (X, Y) occupies the pixels from
(1800 X, 645 Y); a rotated board's raster is turned round in its rectangle; the composed join hex
takes its centre terrain and base level from the board right of / below the join, and the hexsides
on each side keep their own board's data.  Rotation follows the physical board: when every board
is rotated the whole layout is composed turned round (the same boards, upright, in reverse
order), so each board answers exactly as the upright board does for the same printed hexes;
among upright boards a rotated board's hexes are the upright board's turned round and LOS on
it is traced in its own frame (:mod:`hexwx.hexmap.pixelgeom`, :mod:`hexwx._native`), to the
same effect.
Archives come from ``vasl_dir`` (``$HEXWX_VASL_DIR``, its ``boards/`` folder) or by path.
"""
from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from hexwx.errors import DataError, UsageError
from hexwx.limits import LAYOUT_BOARDS, note_input
from hexwx.validate import (bad, check_flag, check_text, check_texts, optional_dir, optional_path,
                            renamed)
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import WHOLE_BOARD, BoardPlacement, BoardShape, Grid
from hexwx.io.crop import Crop, parse_crop
from hexwx.hexmap.transform import TerrainChange, apply_changes
from hexwx.io import mapcache
from hexwx.io.overlays import OverlaySpec, parse_overlay
from hexwx.io.ssr import ssr_changes
from hexwx.io.vasl_env import METADATA_ENV, VASL_DIR_ENV, vasl_dir_of

if TYPE_CHECKING:  # the archive reader is imported on a cache miss (hexwx.io.mapcache)
    from hexwx.io.vasl import VaslRaster

#: The most boards a layout may have: hexwx.limits.LAYOUT_BOARDS (one limit for layouts in
#: map files, on the command line and in saves; $HEXWX_MAX_BOARDS raises it).  Bigger layouts
#: are refused before anything is read: memory and derive time grow with it.
MAX_LAYOUT_BOARDS = LAYOUT_BOARDS.default

_BOARD_RE = re.compile(r"^(?P<rot>[rR])?(?:bd|BD)?(?P<num>[0-9]{1,3}[a-zA-Z]?|[a-zA-Z][a-zA-Z0-9]{0,7})"
                       r"(?:\[(?P<crop>[^\]]*)\])?$")


@dataclass(frozen=True)
class BoardSpec:
    """One board of a layout: its archive name (``"02"``), rotation and hex-name label."""

    number: str
    rotated: bool = False
    label: str = ""
    path: str | None = None      # an explicit archive path (else found in the board folder)
    ssr: tuple[str, ...] = ()    # SSRs for this board only (VASL saves give them per board)
    crop: Crop | None = None     # the part of the board in play (hexwx.io.crop)
    overlays: tuple[OverlaySpec, ...] = ()   # VASL overlays laid on this board, in order

    @property
    def written(self) -> str:
        text = ("r" if self.rotated else "") + (self.path or self.number)
        return text + (f"[{self.crop.text}]" if self.crop is not None else "")


def parse_board(text: str) -> BoardSpec:
    """``"r02"`` -> board 02 rotated, label "2"; ``"04+x11:L5:K5"`` board 4 with overlay x11
    (:func:`hexwx.io.overlays.parse_overlay`, one ``+NAME:HEX1:HEX2`` per overlay);
    UsageError for anything else."""
    t, *extra = text.strip().split("+")
    t = t.strip()
    m = _BOARD_RE.match(t)
    if not m or m["num"].lower() in ("r",):
        raise UsageError(f"board {text!r} is not a VASL board name; expected e.g. '2', '02', "
                         f"'bd02' or 'r02' (rotated)")
    num = m["num"]
    label = num.lstrip("0") or "0" if num[0].isdigit() else num
    crop = None if m["crop"] is None else parse_crop(m["crop"], f"board {t!r}: crop")
    overlays = tuple(parse_overlay(o, f"board {t!r}") for o in extra)
    return BoardSpec(number=num, rotated=bool(m["rot"]), label=label, overlays=overlays, crop=crop)


def is_layout_text(text: str) -> bool:
    """True if ``text`` reads as a board name or an inline layout (``"r05/r02"``, ``"01,r03"``)."""
    rows = [r.split(",") for r in text.split("/")]
    return bool(text.strip()) and all(_BOARD_RE.match(b.split("+")[0].strip()) for r in rows for b in r)


def parse_layout_text(text: str) -> list[list[BoardSpec]]:
    """An inline layout: rows separated by ``/``, boards in a row by ``,``; a board may carry
    a crop in brackets (``"02[A-P],03[P-GG]"``, :mod:`hexwx.io.crop`)."""
    return [[parse_board(b) for b in row.split(",")] for row in text.split("/")]


def board_spec(item: Any, where: str = "layout") -> BoardSpec:
    """A layout entry: a board name, ``{board = "r02", label = "2b"}`` or a BoardSpec."""
    if isinstance(item, BoardSpec):
        return item
    if isinstance(item, int) and not isinstance(item, bool):
        item = str(item)
    if isinstance(item, str):
        if _BOARD_RE.match(item.split("+")[0].strip()):
            return parse_board(item)
        p = Path(item)
        if p.exists():
            from hexwx.io.vasl import board_label
            return BoardSpec(number=p.name, label=board_label(p) or p.stem, path=str(p))
        return parse_board(item)  # raises with the expected forms
    if isinstance(item, Mapping):
        unknown = set(item) - {"board", "label", "ssr", "overlays", "crop"}
        if unknown or "board" not in item:
            raise UsageError(f"{where}: a board entry is {{board = \"r02\", label = \"2b\", "
                             f"ssr = [...], overlays = [...], crop = \"A-P;1-5\"}} (board "
                             f"required), got {dict(item)!r}")
        spec = board_spec(item["board"], where)
        label = item.get("label", spec.label)
        if not isinstance(label, str) or not re.fullmatch(r"[0-9A-Za-z]{1,12}", label):
            raise UsageError(f"{where}: board label {label!r} must be 1-12 letters or digits")
        ssr = item.get("ssr", ())
        if not (isinstance(ssr, (list, tuple)) and all(isinstance(s, str) for s in ssr)):
            raise UsageError(f"{where}: ssr of board {spec.written!r} must be a list of SSR names")
        crop = spec.crop
        if "crop" in item:
            if crop is not None:
                raise UsageError(f"{where}: board {spec.written!r} is cropped twice (in its name "
                                 f"and in crop = ...); give the crop once")
            crop = parse_crop(item["crop"], f"{where}: crop of board {spec.written!r}")
        ovr = item.get("overlays", ())
        if not isinstance(ovr, (list, tuple)):
            raise UsageError(f"{where}: overlays of board {spec.written!r} must be a list like "
                             f"[\"x11 L5 K5\"], got {ovr!r}")
        overlays = spec.overlays + tuple(
            o if isinstance(o, OverlaySpec) else parse_overlay(o, f"{where}: board {spec.written!r}")
            for o in ovr)
        return BoardSpec(spec.number, spec.rotated, label, spec.path, tuple(ssr), crop=crop,
                         overlays=overlays)
    raise UsageError(f"{where}: expected a board name like 'r02' or {{board = ..., label = ...}}, "
                     f"got {item!r}")


def check_shape(rows: Sequence[Sequence[Any]], where: str = "layout") -> None:
    """UsageError unless ``rows`` is a non-empty, rectangular, bounded layout."""
    if not isinstance(rows, (list, tuple)) or not rows or not all(
            isinstance(r, (list, tuple)) and r for r in rows):
        raise UsageError(f"{where}: expected rows of boards like [[\"r05\"], [\"r02\"]], got {rows!r}")
    widths = [len(r) for r in rows]
    if len(set(widths)) != 1:
        raise UsageError(f"{where}: every row of the layout must have the same number of boards; "
                         f"rows have {', '.join(map(str, widths))}")
    total = widths[0] * len(rows)
    if total > LAYOUT_BOARDS.value:
        raise UsageError(f"{where}: a layout of {widths[0]}x{len(rows)} = {total} boards is over "
                         f"the limit of {LAYOUT_BOARDS.value} boards"
                         f" (set ${LAYOUT_BOARDS.env} to raise it)")


# -- where the data is -------------------------------------------------------------------------

def metadata_path(metadata: str | Path | None, vasl_dir: str | Path | None = None) -> Path:
    """VASL's terrain table: ``metadata``, ``$HEXWX_VASL_METADATA`` or ``<vasl dir>/SharedBoardMetadata.xml``."""
    if metadata:
        return Path(metadata)
    env = os.environ.get(METADATA_ENV)
    if env:
        return Path(env)
    d = vasl_dir_of(vasl_dir)
    if d is not None and (d / "SharedBoardMetadata.xml").is_file():
        return d / "SharedBoardMetadata.xml"
    raise UsageError(f"VASL boards need VASL's terrain table: give vasl_metadata FILE or set "
                     f"{METADATA_ENV} (or {VASL_DIR_ENV} to a folder holding SharedBoardMetadata.xml)",
                     param="vasl_metadata")


def find_archive(spec: BoardSpec, vasl_dir: str | Path | None) -> Path:
    """The archive of ``spec``: its path, or ``bdNN`` in the board folder; DataError if absent."""
    if spec.path:
        return Path(spec.path)
    d = vasl_dir_of(vasl_dir)
    if d is None:
        raise UsageError(f"board {spec.written!r}: no board folder; give vasl_dir DIR or set "
                         f"{VASL_DIR_ENV} (archives in DIR or DIR/boards)", param="vasl_dir")
    folder = d / "boards" if (d / "boards").is_dir() else d
    num = spec.number
    names = [f"bd{num}", f"bd{num.zfill(2)}", f"bd{num.lstrip('0') or '0'}", num]
    for n in dict.fromkeys(names):
        for cand in (folder / n, folder / f"{n}.zip"):
            if cand.is_file():
                return cand
    raise DataError(f"board {spec.written!r}: no archive bd{num.zfill(2)} in {folder} (and no such "
                    f"file here); expected a VASL board name like bd02 or a map file")


# -- loading -----------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def _raster(path: str, mtime: float) -> VaslRaster:
    from hexwx.io.vasl import read_losdata
    return read_losdata(path)


def read_board(path: str | Path) -> VaslRaster:
    """The decoded LOSData of board archive ``path`` (read once per file version)."""
    return _read(Path(path))


def _read(path: Path) -> VaslRaster:
    try:
        mtime = path.stat().st_mtime
    except OSError:
        raise DataError(f"{path}: no such file; expected a VASL board archive") from None
    if path.is_dir():
        raise DataError(f"{path}: is a directory; expected a VASL board archive")
    return _raster(str(path), mtime)


def load_layout(rows: Sequence[Sequence[Any]], *, vasl_dir: str | Path | None = None,
                vasl_metadata: str | Path | None = None, ssr: Sequence[str] = (),
                name: str | None = None, persist_elevation: bool = False,
                metadata: str | Path | None = None) -> HexMap:
    """Compose VASL board archives laid out in ``rows`` into one immutable :class:`HexMap`.

    Entries are board names (``"r02"``, ``"04+x11:L5:K5"``), ``{"board": "r02", "label": "2b",
    "ssr": [...], "overlays": ["x11 L5 K5"]}`` or archive paths.  ``ssr`` names VASL terrain
    SSRs applied to every board in order (each board's own ``ssr`` after them); a board's own
    overlay SSRs (SSO/BSO) lay that board's overlay image.  Overlays (:mod:`hexwx.io.overlays`)
    are laid on their board before the SSRs; ``persist_elevation`` keeps the boards' ground
    levels under every overlay (VASL's game-wide choice).  ``vasl_metadata`` and ``vasl_dir``
    as in :func:`hexwx.load_map` (``metadata=`` is the former name of ``vasl_metadata``, still
    accepted with a DeprecationWarning).  UsageError / DataError name the board, overlay or
    rule at fault.
    """
    vasl_metadata = renamed(vasl_metadata, metadata, "vasl_metadata", "metadata", "load_layout")
    if not isinstance(rows, (list, tuple)) or not rows or not all(
            isinstance(r, (list, tuple)) and r for r in rows):
        raise bad("rows", rows, 'rows of boards like [["r05"], ["r02"]]')
    check_shape(rows)                      # a huge layout is refused before anything is read
    vasl_metadata = optional_path(vasl_metadata, "vasl_metadata")
    vasl_dir = optional_dir(vasl_dir, "vasl_dir")
    ssr = check_texts(ssr, "ssr", "a list of VASL SSR names")
    if name is not None:
        check_text(name, "name")
    check_flag(persist_elevation, "persist_elevation")
    specs = [[board_spec(b) for b in r] for r in rows]
    flat = [s for r in specs for s in r]
    labels = [s.label.upper() for s in flat]
    dup = next((s for s in flat if labels.count(s.label.upper()) > 1), None)
    if dup is not None:
        raise UsageError(f"board label {dup.label!r} is used twice in the layout; give each copy "
                         f"its own label, e.g. {{board = \"{dup.written}\", label = \"{dup.label}b\"}}")
    meta = metadata_path(vasl_metadata, vasl_dir)
    paths = [find_archive(s, vasl_dir) for s in flat]
    for p in [*paths, meta]:      # inputs of the command, read or found in memory (hexwx.outputs)
        with contextlib.suppress(OSError):
            note_input(p.stat())
    stamps = tuple((str(p), p.stat().st_mtime) for p in paths)
    overlay_files: tuple[str, ...] = ()
    if any(s.overlays for s in flat):     # (found here, read on a cache miss only)
        from hexwx.io.overlays import find_overlay_archive
        overlay_files = tuple(sorted({
            str(find_overlay_archive(o.name, vasl_dir, f"board {s.written!r}: overlay {o.written!r}"))
            for s in flat for o in s.overlays}))
    return _compose(tuple(tuple(r) for r in specs), stamps, str(meta), tuple(ssr), name,
                    persist_elevation, overlay_files, str(vasl_dir_of(vasl_dir) or ""))


@lru_cache(maxsize=2)  # composed maps are cached, bounded by bytes, by hexwx.io.load
def _compose(specs: tuple[tuple[BoardSpec, ...], ...], stamps: tuple[tuple[str, float], ...],
             meta: str, ssr: tuple[str, ...], name: str | None, persist: bool = False,
             overlay_files: tuple[str, ...] = (), vasl_dir: str = "") -> HexMap:
    """The composed map, from the on-disk cache (:mod:`hexwx.io.mapcache`) when it holds it."""
    request: dict[str, Any] = {
        "specs": [[[s.number, s.rotated, s.label, s.path, list(s.ssr)]
                   + ([[o.written for o in s.overlays]] if s.overlays else [])
                   + ([s.crop.text] if s.crop is not None else []) for s in row]
                  for row in specs],
        "meta": meta, "ssr": list(ssr), "name": name}
    if overlay_files or persist:
        request["persist"] = persist
    key = mapcache.map_key("layout", request, [p for p, _ in stamps] + [meta] + list(overlay_files))
    hit = mapcache.load(key)
    if hit is not None:
        return hit
    return mapcache.store(key, _build(specs, stamps, meta, ssr, name, persist, vasl_dir))


def _build(specs: tuple[tuple[BoardSpec, ...], ...], stamps: tuple[tuple[str, float], ...],
           meta: str, ssr: tuple[str, ...], name: str | None, persist: bool,
           vasl_dir: str) -> HexMap:
    from hexwx.io.overlays import (apply_overlays, colour_table, picture_persists,
                                   place_board_overlays)
    from hexwx.io.vasl import check_codes, read_board_image, read_metadata
    table = read_metadata(meta)
    nby, nbx = len(specs), len(specs[0])
    flat = [s for r in specs for s in r]
    turned = all(s.rotated for s in flat)  # compose the whole layout turned round (exact)
    rasters = [_read(Path(path)) for path, _ in stamps]
    shapes = [r.shape for r in rasters]
    if any(s.crop is not None for s in flat):
        placements = cropped_placements(specs, shapes)
    else:
        placements = []
        for by, row in enumerate(specs):
            for bx, s in enumerate(row):
                shape = shapes[by * nbx + bx]
                if turned:
                    placements.append(BoardPlacement(s.label, nbx - 1 - bx, nby - 1 - by, False,
                                                     shape=shape))
                else:
                    placements.append(BoardPlacement(s.label, bx, by, s.rotated, shape=shape))
    grid = Grid(tuple(placements), nbx, nby)
    W, H = grid.shape.width_px, grid.shape.height_px
    elevation = np.zeros((grid.width_px, grid.height_px), np.int8)
    terrain = np.zeros((grid.width_px, grid.height_px), np.uint8)
    stairs = np.zeros(len(grid), bool)
    images: list[tuple[str, int, int, bool, tuple[int, int, int, int] | None]] = []
    crops: list[tuple[int, int, np.ndarray, np.ndarray, tuple[int, int, int, int]]] = []
    art: list[tuple[int, str, str, int, int]] = []
    persisting: list[int] = []
    for i, (s, pl, (path, _), r) in enumerate(zip(flat, placements, stamps, rasters)):
        check_codes(r, table, path)
        elev, terr = r.elevation, r.terrain
        laid = place_board_overlays(s, Path(path), ssr + s.ssr, vasl_dir or None, meta,
                                    r.shape)
        changes = ssr_changes(laid.los_ssr, meta)   # (the board's overlay SSRs left out)
        if laid.placements:
            elev, terr = apply_overlays(elev, terr, laid.placements, table, colour_table(meta),
                                        persist=persist, shape=r.shape)
            keep = picture_persists(laid.placements, persist)
            persisting += [len(art) + k for k, p in enumerate(laid.placements) if keep[k]]
            art += [(i, p.archive, p.image, p.x, p.y) for p in laid.placements]
        if changes:
            try:
                elev, terr, _ = apply_changes(elev, terr, table, changes)
            except DataError as exc:
                raise DataError(f"board {s.written!r}: {exc}") from None
        if pl.rotated:
            elev, terr = elev[::-1, ::-1], terr[::-1, ::-1]
        x0, y0 = grid.px_x(pl.origin[0]), grid.px_y(pl.origin[1])
        elevation[x0:x0 + W, y0:y0 + H] = elev
        terrain[x0:x0 + W, y0:y0 + H] = terr
        clip = s.crop.rectangle(shape=r.shape) if s.crop is not None else None
        if clip is not None:
            crops.append((x0, y0, elev, terr, clip))
        cells = grid.board_cells(i)     # VASL's column-major order: the stairway bytes' order
        on_stairs = cells[r.stairways[:len(cells)]]
        stairs[on_stairs[on_stairs >= 0]] = True
        images.append((path, x0, y0, pl.rotated, clip))
    # cropped boards placed close together overlap: each board's crop rectangle is its own
    # (painted after the whole boards, which fill only what no crop claims)
    for x0, y0, elev, terr, (cx, cy, cw, ch) in crops:
        elevation[x0 + cx:x0 + cx + cw, y0 + cy:y0 + cy + ch] = elev[cx:cx + cw, cy:cy + ch]
        terrain[x0 + cx:x0 + cx + cw, y0 + cy:y0 + cy + ch] = terr[cx:cx + cw, cy:cy + ch]
    written = "/".join(",".join(s.written for s in row) for row in specs)
    label = name or (written if len(flat) > 1 or flat[0].crop else Path(stamps[0][0]).name)
    if ssr:
        label += f" ({', '.join(ssr)})"
    if not name and any(s.overlays for s in flat):
        label += " with overlays " + "; ".join(
            f"{s.label}: {', '.join(o.written for o in s.overlays)}" for s in flat if s.overlays)
    image = read_board_image(stamps[0][0]) if len(flat) == 1 and not placements[0].rotated else None
    return HexMap(name=label, grid=grid, table=table, elevation=elevation, terrain=terrain,
                  source=written if len(flat) > 1 else stamps[0][0], kind="vasl",
                  stairways=_stairway_bytes(stairs), image_bytes=image,
                  board_images=tuple(images), overlay_art=tuple(art),
                  overlay_persist=tuple(persisting),
                  shown_turned=turned)


def cropped_placements(specs: Sequence[Sequence[BoardSpec]],
                       shapes: Sequence[BoardShape]) -> list[BoardPlacement]:
    """Where the boards of a layout with crops lie, as VASL places them: each board right of
    the boards before it in its row and below those above it in its column, by their cropped
    sizes (ASLMap.buildVASLMap).  Board (0, 0) keeps its own columns (a crop starting at hexrow
    P keeps P at its printed place); a board whose hex columns would not mesh with the first
    board's is refused by :class:`Grid`.  ``shapes``: each board's hex grid, in the order of
    the boards.  When every board is turned round the layout is
    composed upright in reverse order, as :func:`load_layout` composes it (each crop is a
    rectangle of its physical board); turned boards among upright ones cannot be cropped yet."""
    nbx = len(specs[0])
    grid_shapes = [list(shapes[by * nbx:(by + 1) * nbx]) for by in range(len(specs))]
    turned = all(s.rotated for row in specs for s in row)
    if turned:      # the same boards upright, in reverse order (as load_layout composes them)
        specs = [list(reversed(row)) for row in reversed(specs)]
        grid_shapes = [list(reversed(row)) for row in reversed(grid_shapes)]
    for row in specs:
        for s in row:
            if s.rotated and not turned:
                raise UsageError(f"board {s.written!r}: a layout with cropped boards cannot have "
                                 f"boards turned round (rotated) among upright ones yet; turn "
                                 f"every board or none, or leave the crops out")
    rects = [[(s.crop.rectangle(f"board {s.written!r}: crop", sh) if s.crop else
               (0, 0, sh.width_px, sh.height_px)) for s, sh in zip(row, shrow)]
             for row, shrow in zip(specs, grid_shapes)]
    hw, hh = grid_shapes[0][0].hex_width, grid_shapes[0][0].hex_height
    out: list[tuple[BoardSpec, int, int, int, int]] = []
    for by, row in enumerate(specs):
        for bx, s in enumerate(row):
            x = sum(rects[by][k][2] for k in range(bx))
            y = sum(rects[k][bx][3] for k in range(by))
            cx, cy = rects[by][bx][:2]
            out.append((s, bx, by, round((x - cx) / hw), round((y - cy) / hh)))
    c_first, r_first = out[0][3], out[0][4]
    col_shift = -min(c - c_first for _s, _bx, _by, c, _r in out)
    col_shift += col_shift % 2
    row_shift = -min(r - r_first for _s, _bx, _by, _c, r in out)
    placed = [BoardPlacement(s.label, bx, by, False, c - c_first + col_shift,
                             r - r_first + row_shift,
                             s.crop.window(f"board {s.written!r}: crop", grid_shapes[by][bx])
                             if s.crop else WHOLE_BOARD, shape=grid_shapes[by][bx])
              for s, bx, by, c, r in out]
    if turned:      # back in the order of the boards as written
        n = len(placed)
        return [placed[n - 1 - i] for i in range(n)]
    return placed


def _stairway_bytes(stairs: np.ndarray) -> np.ndarray:
    return stairs.astype(np.uint8)


def load_layout_text(text: str, **kwargs: Any) -> HexMap:
    """``load_layout`` of an inline layout string such as ``"r05/r02/r04"`` or ``"bd02"``."""
    rows = [r.split(",") for r in text.split("/")]
    check_shape(rows, f"layout {text if len(text) <= 40 else text[:37] + '...'!r}")
    return load_layout(parse_layout_text(text), **kwargs)
