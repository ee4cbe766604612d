"""Loading a map: a hexwx TOML map file or a VASL board archive, by looking at the file."""
from __future__ import annotations

import os
from pathlib import Path

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import Grid
from hexwx.errors import DataError
from hexwx.io.mapfile import load_mapfile
from hexwx.io.vasl import board_label, check_codes, is_vasl_archive, read_board_image, read_losdata, read_metadata

_CACHE: dict[tuple[str, float, str | None], HexMap] = {}


def load_map(path: str | Path, *, vasl_metadata: str | Path | None = None) -> HexMap:
    """Load ``path``: a VASL board archive (zip) or a hexwx map file (TOML).

    VASL archives need VASL's terrain table: ``vasl_metadata`` or ``$HEXWX_VASL_METADATA``.
    Loaded maps are immutable and cached per (path, modification time).
    """
    p = Path(path)
    try:
        mtime = p.stat().st_mtime
    except FileNotFoundError:
        raise DataError(f"{p}: no such file; expected a hexwx map (.toml) or a VASL board archive") from None
    except OSError as exc:
        raise DataError(f"{p}: cannot read: {exc.strerror}") from None
    if p.is_dir():
        raise DataError(f"{p}: is a directory; expected a hexwx map (.toml) or a VASL board archive")
    meta = str(vasl_metadata) if vasl_metadata else os.environ.get("HEXWX_VASL_METADATA")
    key = (str(p.resolve()), mtime, meta)
    if key in _CACHE:
        return _CACHE[key]
    if is_vasl_archive(p):
        m = _load_vasl(p, vasl_metadata)
    else:
        m = load_mapfile(p)
    _CACHE[key] = m
    return m


def _load_vasl(path: Path, vasl_metadata: str | Path | None) -> HexMap:
    raster = read_losdata(path)
    table = read_metadata(vasl_metadata)
    if (raster.hexes_wide, raster.hexes_high) != (33, 10) or raster.elevation.shape != (1800, 645):
        raise DataError(f"{path}: only geomorphic boards (33x10 hexes, 1800x645 pixels) are supported; "
                        f"this one is {raster.hexes_wide}x{raster.hexes_high} hexes, "
                        f"{raster.elevation.shape[0]}x{raster.elevation.shape[1]} pixels")
    check_codes(raster, table, str(path))
    return HexMap(name=path.name, grid=Grid.single(board_label(path)), table=table,
                  elevation=raster.elevation, terrain=raster.terrain, source=str(path), kind="vasl",
                  stairways=raster.stairways, image_bytes=read_board_image(path))
