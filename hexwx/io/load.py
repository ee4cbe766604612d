"""Loading a map: a hexwx TOML map file, a VASL board archive, a board name or a board layout.

``load_map`` looks at what it is given: an existing file is a VASL board archive (a zip) or a
hexwx map file (TOML, which may itself lay out VASL boards); otherwise a VASL board name
(``bd02``, ``r02``) or an inline layout (``"r05/r02/r04"``, ``"01,r03"``, see
:mod:`hexwx.io.layout`) read from the board folder.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from hexwx._cache import ByteLRU
from hexwx.errors import DataError
from hexwx.limits import check_input, is_zip, note_input
from hexwx.hexmap.board import HexMap
from hexwx.io.layout import BoardSpec, is_layout_text, load_layout, load_layout_text, metadata_path

#: Loaded maps, least recently used first, bounded by the bytes they hold (hexwx._cache:
#: ``$HEXWX_MAP_CACHE_MB``, 512 MiB by default), so a long batch over many maps stays bounded.
_CACHE: ByteLRU[HexMap] = ByteLRU()


def load_map(path: str | Path, *, vasl_metadata: str | Path | None = None,
             vasl_dir: str | Path | None = None, ssr: Sequence[str] = (),
             ignore_board_extras: bool = False) -> HexMap:
    """Load ``path``: a VASL board archive, a hexwx map file, a board name or a layout.

    VASL boards need VASL's terrain table: ``vasl_metadata``, ``$HEXWX_VASL_METADATA`` or
    ``SharedBoardMetadata.xml`` in ``vasl_dir`` / ``$HEXWX_VASL_DIR``; board names are looked
    up in ``vasl_dir`` (or its ``boards/`` folder).  ``ssr`` names VASL terrain SSRs applied in
    order (after a map file's own).  A VASL save (``.vsav``) gives its own layout and SSRs
    (:mod:`hexwx.io.vsav_import`); its crops and overlays are refused unless
    ``ignore_board_extras``.  Loaded maps are immutable and cached.
    """
    p = Path(path)
    try:
        mtime = p.stat().st_mtime
    except FileNotFoundError:
        if is_layout_text(str(path)):
            lkey = ("layout", str(path), str(vasl_metadata), str(vasl_dir),
                    os.environ.get("HEXWX_VASL_METADATA"), os.environ.get("HEXWX_VASL_DIR"), tuple(ssr))
            hit = _CACHE.get(lkey)
            if hit is not None:
                return _inputs_noted(hit)
            return _kept(lkey, load_layout_text(str(path), vasl_dir=vasl_dir,
                                                metadata=vasl_metadata, ssr=tuple(ssr)))
        raise DataError(f"{p}: no such file; expected a hexwx map (.toml), a VASL board archive, "
                        f"a board name like bd02 or a layout like \"r05/r02\"") from None
    except OSError as exc:
        raise DataError(f"{p}: cannot read: {exc.strerror}") from None
    if p.is_dir():
        raise DataError(f"{p}: is a directory; expected a hexwx map (.toml) or a VASL board archive")
    check_input(p, "a hexwx map (.toml) or a VASL board archive")  # no FIFO, device, huge file
    meta = str(vasl_metadata) if vasl_metadata else os.environ.get("HEXWX_VASL_METADATA")
    vdir = str(vasl_dir) if vasl_dir else os.environ.get("HEXWX_VASL_DIR")
    key = (str(p.resolve()), mtime, meta, vdir, tuple(ssr), ignore_board_extras)
    hit = _CACHE.get(key)
    if hit is not None:
        return _inputs_noted(hit)
    m: HexMap
    if p.suffix.lower() == ".vsav" or is_zip(p):  # the readers of zips only for zips
        from hexwx.io.vsav import is_vasl_save
        if is_vasl_save(p):
            from hexwx.io.vsav_import import load_save_map
            m = load_save_map(p, vasl_dir=vasl_dir, vasl_metadata=vasl_metadata, ssr=tuple(ssr),
                              ignore_board_extras=ignore_board_extras)
        else:                                         # a zip that is not a save: a board
            from hexwx.io.vasl import board_label
            m = load_layout([[BoardSpec(number=p.name, label=board_label(p), path=str(p))]],
                            vasl_dir=vasl_dir, metadata=metadata_path(vasl_metadata, vasl_dir),
                            ssr=tuple(ssr))
    else:
        from hexwx.io.mapfile import load_mapfile
        m = load_mapfile(p, vasl_dir=vasl_dir, vasl_metadata=vasl_metadata, ssr=tuple(ssr))
    return _kept(key, m)


def _kept(key: tuple[object, ...], m: HexMap) -> HexMap:
    """``m``, kept in :data:`_CACHE` unless loaded inside :func:`hexwx.io.mapcache.transient`."""
    from hexwx.io.mapcache import is_transient
    return m if is_transient() else _CACHE.put(key, m)


def _inputs_noted(m: HexMap) -> HexMap:
    """``m``, kept in memory, with the files it was read from (its board archives and terrain
    table) noted as inputs again, as reading them would (:func:`hexwx.limits.track_inputs`)."""
    for path in [p for p, *_ in m.board_images] + [m.table.source]:
        try:
            note_input(os.stat(path))
        except (OSError, ValueError, TypeError):
            pass
    return m
