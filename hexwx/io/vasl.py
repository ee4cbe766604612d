"""Importing VASL board archives: the LOSData raster and VASL's terrain table.

A board archive is a zip.  Its ``LOSData`` entry is a gzip'ed Java serialization stream
(magic ``AC ED 00 05``) whose payload sits in block-data records (``0x77`` + 1-byte length,
``0x7A`` + 4-byte big-endian length).  The payload holds four big-endian int32 (hexes wide,
hexes high, pixel grid width, pixel grid height), then for each pixel column x and each row y a
signed elevation byte and an unsigned terrain-code byte, then one stairway byte per hex
(LOS-SPEC 2.1).  Terrain codes resolve through ``terrainType`` elements of VASL's
``SharedBoardMetadata.xml``.
"""
from __future__ import annotations

import io
import math
import os
import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from hexwx.errors import DataError, UsageError
from hexwx.limits import check_input, gunzip, is_zip, open_zip, read_bytes_input, read_zip_entry
from hexwx.hexmap.coords import GEOMORPHIC, BoardShape
from hexwx.hexmap.terrain import Category, TerrainTable, TerrainType
from hexwx.io.vasl_env import METADATA_ENV

if TYPE_CHECKING:  # the XML parser is imported when a terrain table is read
    from xml.etree import ElementTree



@dataclass(frozen=True, eq=False)
class VaslRaster:
    """The decoded LOSData of one board: per-pixel elevation and terrain code, stairways."""

    hexes_wide: int
    hexes_high: int
    elevation: np.ndarray   # int8 [width, height] (x-major like VASL)
    terrain: np.ndarray     # uint8 [width, height]
    stairways: np.ndarray   # bool, one per hex in VASL column-major order
    image_name: str | None  # the board image in the archive (bdNN.gif), kept for rendering
    shape: BoardShape = GEOMORPHIC  # the hex grid (:func:`board_shape`)


def _block_payload(stream: bytes, source: str) -> bytes:
    """Concatenate the block-data records of a Java serialization stream."""
    if stream[:4] != b"\xac\xed\x00\x05":
        raise DataError(f"{source}: LOSData is not a Java serialization stream (bad magic "
                        f"{stream[:4].hex()!r}, expected 'aced0005')")
    out = bytearray()
    i, n = 4, len(stream)
    while i < n:
        tag = stream[i]
        if tag == 0x77:
            if i + 2 > n:
                break
            length = stream[i + 1]
            start = i + 2
        elif tag == 0x7A:
            if i + 5 > n:
                break
            length = struct.unpack_from(">i", stream, i + 1)[0]
            start = i + 5
        else:
            raise DataError(f"{source}: LOSData has an unexpected record tag 0x{tag:02x} at byte "
                            f"{i}; expected block data (0x77 or 0x7a)")
        if length < 0 or start + length > n:
            raise DataError(f"{source}: LOSData is truncated (a block of {length} bytes at byte "
                            f"{i} runs past the end)")
        out += stream[start:start + length]
        i = start + length
    return bytes(out)


def read_losdata(archive: str | Path) -> VaslRaster:
    """Decode the LOSData of a VASL board archive; DataError naming the file if anything is wrong."""
    path = Path(archive)
    source = str(path)
    with open_zip(path, "a VASL board archive") as zf:
        names = zf.namelist()
        if "LOSData" not in names:
            raise DataError(f"{source}: no LOSData entry in the archive; expected a VASL board "
                            f"archive (found {', '.join(names[:5]) or 'nothing'})")
        packed = read_zip_entry(zf, "LOSData", source=source)
        image = _board_image_name(path, names)
        meta = (read_zip_entry(zf, "BoardMetadata.xml", source=source)
                if "BoardMetadata.xml" in names else None)
    stream = gunzip(packed, source=source, what="LOSData")
    payload = _block_payload(stream, source)
    if len(payload) < 16:
        raise DataError(f"{source}: LOSData is truncated (header of {len(payload)} bytes, expected 16)")
    wide, high, gw, gh = struct.unpack_from(">4i", payload, 0)
    if not (0 < wide < 1000 and 0 < high < 1000 and 0 < gw < 20000 and 0 < gh < 20000):
        raise DataError(f"{source}: LOSData header is implausible (hexes {wide}x{high}, "
                        f"grid {gw}x{gh})")
    nhex = sum(high + (c % 2) for c in range(wide))
    need = 16 + 2 * gw * gh
    if len(payload) < need:
        raise DataError(f"{source}: LOSData is truncated ({len(payload)} bytes, expected at least "
                        f"{need} for a {gw}x{gh} grid)")
    pairs = np.frombuffer(payload, dtype=np.uint8, count=2 * gw * gh, offset=16).reshape(gw, gh, 2)
    elevation = pairs[:, :, 0].view(np.int8).copy()
    terrain = pairs[:, :, 1].copy()
    stairs = np.frombuffer(payload, dtype=np.uint8, count=min(nhex, len(payload) - need),
                           offset=need)
    stairways = np.zeros(nhex, dtype=bool)
    stairways[:len(stairs)] = stairs == 1
    shape = board_shape(wide, high, gw, gh, meta, source)
    return VaslRaster(wide, high, elevation, terrain, stairways, image, shape)


#: BoardMetadata.xml attributes of a board's hex grid (VASL's BoardMetadata; missing: derived)
_GRID_ATTRS = ("hexWidth", "hexHeight", "A1CenterX", "A1CenterY")


def board_shape(wide: int, high: int, gw: int, gh: int, metadata: bytes | None,
                source: str) -> BoardShape:
    """The hex grid of a board: ``wide`` x ``high`` hexes in a ``gw`` x ``gh`` pixel raster
    (the LOSData header), hex width and height from the archive's ``BoardMetadata.xml``
    (``hexWidth``/``hexHeight``, as VASL reads them), else the raster's size over the hexes
    (``gw / (wide - 1)``, ``gh / high``: 56.25 x 64.5 on a geomorphic board).  Hex A1's centre
    is (0, hexHeight / 2) or whole columns / rows before the board (:func:`_first_hex`);
    DataError naming the file otherwise."""
    attrs: dict[str, str] = {}
    if metadata is not None:
        from xml.etree import ElementTree
        try:
            root = ElementTree.fromstring(metadata)
        except ElementTree.ParseError as exc:
            raise DataError(f"{source}: BoardMetadata.xml is malformed XML ({exc})") from None
        attrs = {k: v.strip() for k, v in root.attrib.items() if k in _GRID_ATTRS}
    try:
        got = {k: float(v) for k, v in attrs.items()}
    except ValueError:
        raise DataError(f"{source}: BoardMetadata.xml: {', '.join(f'{k}={v!r}' for k, v in attrs.items())}; "
                        f"expected numbers of pixels") from None
    if wide < 2:
        raise DataError(f"{source}: LOSData has {wide} hex column(s); expected at least 2")
    hex_w = got.get("hexWidth", gw / (wide - 1))
    hex_h = got.get("hexHeight", gh / high)
    a1 = (got.get("A1CenterX", 0.0), got.get("A1CenterY", hex_h / 2))
    if not (math.isfinite(hex_w) and math.isfinite(hex_h) and hex_w > 3 and hex_h > 3):
        raise DataError(f"{source}: BoardMetadata.xml: hex size {hex_w:g}x{hex_h:g} pixels is "
                        f"implausible; expected positive sizes such as 56.25x64.5")
    first_col, first_row = _first_hex(a1, hex_w, hex_h, source)
    if abs(hex_w * (wide - 1) - gw) > 1 or abs(hex_h * high - gh) > 1:
        raise DataError(f"{source}: {wide}x{high} hexes of {hex_w:g}x{hex_h:g} pixels do not fill "
                        f"the {gw}x{gh} pixel board; expected hexWidth = width / (columns - 1) "
                        f"and hexHeight = height / rows")
    shape = BoardShape(wide, high, hex_w, hex_h, gw, gh, first_col, first_row)
    return GEOMORPHIC if shape == GEOMORPHIC else shape


def _first_hex(a1: tuple[float, float], hex_w: float, hex_h: float,
               source: str) -> tuple[int, int]:
    """(first column, first row) of a board whose hex A1 VASL centres at ``a1``: (0, 0) when
    A1 is the board's first hex, at (0, hexHeight / 2); a negative centre puts A1 whole
    columns to the left (boards 1b-15b: -901 = 16 columns of 56.3125, so the board starts at
    column Q) or whole rows above (BFPDW1b-7b: -612.75 = 32.25 - 10 rows, rows start at 11),
    as VASL names such boards' hexes (``Map.getGEOHexName``).  DataError for any other A1."""
    cols = -a1[0] / hex_w
    rows = (hex_h / 2 - a1[1]) / hex_h
    whole = (abs(cols - round(cols)) < 1e-6 and abs(rows - round(rows)) < 1e-6
             and round(cols) >= 0 and round(rows) >= 0 and round(cols) % 2 == 0)
    if not whole:
        raise DataError(f"{source}: hex A1's centre lies at ({a1[0]:g}, {a1[1]:g}); hexwx reads "
                        f"boards whose A1 centre is (0, hexHeight/2 = {hex_h / 2:g}) or whole "
                        f"columns (an even number) left or rows above it, as VASL's boards 1b "
                        f"(-901) and BFPDW1b (-612.75)")
    return round(cols), round(rows)


def _board_image_name(path: Path, names: list[str]) -> str | None:
    stem = path.name.split(".")[0]
    for cand in (f"{stem}.gif", f"{stem}.png"):
        if cand in names:
            return cand
    gifs = [n for n in names if re.fullmatch(r"bd\w+\.(gif|png)", n)]
    return gifs[0] if gifs else None


def read_board_image(archive: str | Path) -> bytes | None:
    """The bytes of the board's own image inside the archive (for rendering), or None."""
    path = Path(archive)
    with open_zip(path, "a VASL board archive") as zf:
        name = _board_image_name(path, zf.namelist())
        return read_zip_entry(zf, name, source=str(path)) if name else None


# -- the terrain table -----------------------------------------------------------------------

def _flag(attrs: dict[str, str], key: str, source: str, code: str) -> bool:
    value = attrs.get(key, "FALSE").strip().upper()
    if value not in ("TRUE", "FALSE"):
        raise DataError(f"{source}: terrainType {code}: {key} must be TRUE or FALSE, got {value!r}")
    return value == "TRUE"


@lru_cache(maxsize=4)
def metadata_root(path: str, mtime: float) -> ElementTree.Element:
    """The parsed XML of VASL's terrain table (read once per file version); DataError naming
    the file when it is not XML.  Terrain types (here) and SSR rules (:mod:`hexwx.io.ssr`)."""
    from xml.etree import ElementTree
    text = read_bytes_input(path, "VASL's terrain table (SharedBoardMetadata.xml)")
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise DataError(f"{path}: malformed XML ({exc}); expected VASL's SharedBoardMetadata.xml") from None


@lru_cache(maxsize=8)
def _read_metadata_cached(path: str, mtime: float) -> TerrainTable:
    source = path
    root = metadata_root(path, mtime)
    types: dict[int, TerrainType] = {}
    for el in root.iter("terrainType"):
        a = el.attrib
        code_s = a.get("typeCode", "?")
        try:
            code = int(code_s)
            height_f = float(a.get("height", "0"))
            split = float(a.get("split", "0"))
        except ValueError:
            raise DataError(f"{source}: terrainType {a.get('name', '?')!r}: typeCode/height/split "
                            f"must be numbers, got typeCode={code_s!r} height={a.get('height')!r} "
                            f"split={a.get('split')!r}") from None
        if not (math.isfinite(height_f) and -100 <= height_f <= 100):
            raise DataError(f"{source}: terrainType {a.get('name', '?')!r}: height must be a "
                            f"number of levels from -100 to 100, got {a.get('height')!r}")
        if not (math.isfinite(split) and 0 <= split <= 100):
            raise DataError(f"{source}: terrainType {a.get('name', '?')!r}: split must be a "
                            f"number from 0 to 100, got {a.get('split')!r}")
        height = int(height_f)
        if not 0 <= code <= 255:
            raise DataError(f"{source}: terrainType {a.get('name')!r}: typeCode {code} outside 0-255")
        cat_name = a.get("LOSCategory", "OPEN").upper()
        try:
            category = Category[cat_name]
        except KeyError:
            raise DataError(f"{source}: terrainType {code}: unknown LOSCategory {cat_name!r}") from None
        if code in types:  # VASL lists "Scrub" twice (LOS-SPEC 7.9); keep the first
            continue
        types[code] = TerrainType(
            name=a.get("name", f"code {code}"), code=code, category=category,
            obstacle=_flag(a, "isLOSObstacle", source, code_s),
            hindrance=_flag(a, "isLOSHindrance", source, code_s),
            half_level=_flag(a, "isHalfLevelHeight", source, code_s),
            inherent=_flag(a, "isInherentTerrain", source, code_s),
            split=split,
            lower_obstacle=_flag(a, "isLowerLOSObstacle", source, code_s),
            lower_hindrance=_flag(a, "isLowerLOSHindrance", source, code_s),
            height=height,
            rule="VASL SharedBoardMetadata.xml",
        )
    if not types:
        raise DataError(f"{source}: no terrainType elements; expected VASL's SharedBoardMetadata.xml")
    return TerrainTable(tuple(types.values()), source=source)


def read_metadata(path: str | Path | None = None) -> TerrainTable:
    """VASL's terrain table from ``path``, or from ``$HEXWX_VASL_METADATA`` when path is None."""
    if path is None:
        env = os.environ.get(METADATA_ENV)
        if not env:
            raise UsageError(f"a VASL board archive needs VASL's terrain table: give "
                             f"vasl_metadata FILE or set {METADATA_ENV}", param="vasl_metadata")
        path = env
    p = Path(path)
    check_input(p, "VASL's terrain table (SharedBoardMetadata.xml)")
    return _read_metadata_cached(str(p), p.stat().st_mtime)


def is_vasl_archive(path: str | Path) -> bool:
    """True if ``path`` is a zip file (a VASL board archive rather than a TOML map)."""
    return is_zip(path)


def board_label(path: str | Path) -> str:
    """The board number of an archive named like ``bd02`` -> ``"2"`` ("" if none)."""
    m = re.match(r"bd0*(\w+?)(\.\w+)?$", Path(path).name)
    return m.group(1) if m else ""


def check_codes(raster: VaslRaster, table: TerrainTable, source: str) -> None:
    """DataError if the raster uses a terrain code the table does not define."""
    used = np.flatnonzero(np.bincount(raster.terrain.ravel(), minlength=256))
    missing = [int(c) for c in used if not table.has(int(c))]
    if missing:
        raise DataError(f"{source}: terrain code {missing[0]} is not in the VASL terrain table "
                        f"{table.source} ({len(missing)} unknown code(s): {missing[:8]})")


_ = io  # (io kept for callers that pass BytesIO archives)
