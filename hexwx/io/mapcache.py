"""The on-disk cache of loaded maps: each map's decoded raster and every array derived from it.

Loading a VASL board decodes its archive and derives the pixel geometry, the per-hex terrain
and the kernel's packed arrays: most of a cold ``hexwx los``.  The first load of a map (a
board, a layout, a map file) writes all of it here; later processes map it back in a few
milliseconds and get a map whose arrays are equal to a fresh one's, so it answers every query
the same.  Arrays a map derives later, on demand (road hexsides, buildings, movement's cover,
exposure's all-pairs trace, kept render layers: :meth:`~hexwx.hexmap.board.HexMap.derived`),
are added beside it the first time they are derived.

* Where: ``$HEXWX_CACHE_DIR``, else ``$XDG_CACHE_HOME/hexwx``, else ``~/.cache/hexwx``.
  ``HEXWX_NO_CACHE=1`` turns the cache off.  ``$HEXWX_CACHE_MAX_MB`` (default 1024) bounds
  its size: after each write the least recently used files are removed.
* Key: what was asked for (board specs, layout, SSRs, map name...), every input file's absolute
  path, size, ``st_mtime_ns``, inode and ``st_ctime_ns`` (board archives, VASL's terrain
  table, the map file; a map file's boards are checked again on every read), the input limits
  (``$HEXWX_MAX_*``), the cache format and a fingerprint of the hexwx code that derives the
  data (:data:`CODE`: the contents of those source files and of the compiled kernel).
  Touching an input or changing that code gives another key: never stale data.
* Content: the key's file ``<key>.npy`` is small: the map's name and source, and the name of
  its content entry ``<content>.npy``, a hash of what the map is (every array, the grid, the
  terrain table..., :func:`content_name`).  The same layout named by a board name, a map file
  and a save is stored once, and so is what it derives later (``<content>.<part>.npy``).
* Files: two plain ``.npy`` records -- a JSON header (its CRC-32 first: the key or content
  name, names, grid, terrain table, each array's dtype, shape and offset, the data's CRC-32),
  then one uint8 record holding every array at a 64-byte aligned offset.  No pickle: object
  arrays are refused.  A file is written under a temporary name, flushed to disk (``fsync``)
  and renamed (``os.replace``), so a reader (or a machine after a crash) sees a whole file or
  none.
* Reads: an entry is read into memory whole (not mapped: a file cut short under a running
  process cannot kill it with SIGBUS) and checked: its structure against its header (record
  types, exact length, every array's place inside the data), the key or content name, the
  format, and the CRC-32 of the header and of every byte of the data (~3 ms for a board's
  12 MiB).  Only regular files owned by the user are read (opened without following links or
  waiting on a FIFO), and only in a folder of the user's that no one else may write to.
  Content entries read once are shared by every map of the process made from them.
* Failure is a miss: a missing, truncated, corrupt or foreign file (another key or format)
  is ignored and rewritten (a content entry whose header and length are right is not read
  again to be stored: :func:`store` rewrites it once a read has found its data corrupt); a
  cache folder that cannot be created, read or written, or that others may write to, means
  no cache, without a message.
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import os
import re
import stat as statmod
import time
import weakref
import zlib
from dataclasses import astuple, fields
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import numpy as np
from numpy.lib import format as npformat

from hexwx._cache import megabytes_setting
from hexwx.hexmap.board import HexMap, seed
from hexwx.hexmap.coords import GEOMORPHIC, BoardPlacement, BoardShape, Grid, HexWindow
from hexwx.hexmap.derive import HexTerrain
from hexwx.hexmap.pixelgeom import PixelGeometry, PixelLookup  # (a geometry's parts, stored whole)
from hexwx.hexmap.terrain import CATALOGUE, Category, TerrainTable, TerrainType
from hexwx.limits import note_input

try:  # BLAKE2 without hashlib's OpenSSL start-up (a few ms of every cold start)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Pythons
    from hashlib import blake2b

#: Bump when the file layout or what a file holds changes.
FORMAT = 5
DIR_ENV = "HEXWX_CACHE_DIR"
OFF_ENV = "HEXWX_NO_CACHE"
MAX_ENV = "HEXWX_CACHE_MAX_MB"
DEFAULT_MAX_MB = 1024

#: The hexwx code whose results the cache holds, relative to the package: every module the
#: map loaders and derivations import (tests/io/test_mapcache.py checks the list is complete).
#: Their contents, with the compiled kernel's, make the code fingerprint of every key.
CODE = ("__init__.py", "_cache.py", "_kernel_bounds.py", "_native.py", "errors.py", "frozen.py",
        "limits.py", "validate.py", "hexmap/board.py", "hexmap/coords.py", "hexmap/derive.py",
        "hexmap/hillocks.py", "hexmap/pixelgeom.py", "hexmap/raster.py", "hexmap/roads.py",
        "hexmap/terrain.py", "hexmap/transform.py", "io/crop.py", "io/edit_tables.py",
        "io/layout.py", "io/layout_edits.py", "io/mapcache.py", "io/mapfile.py", "io/overlays.py",
        "io/ssr.py", "io/tomlfile.py", "io/vasl.py", "io/vasl_env.py",
        "movement/charts.py", "movement/costs.py", "weather/asl/charts.py",
        "weather/asl/state.py", "weather/asl/terrain_changes.py")

_PACKAGE = Path(__file__).resolve().parents[1]
_PART = re.compile(r"[a-z][a-z0-9_]{0,40}")
_fingerprint: str | None = None
_unwritable: set[str] = set()


#: Set (in this thread or task) by :func:`transient`: maps loaded now are not kept.
_TRANSIENT: contextvars.ContextVar[bool] = contextvars.ContextVar("hexwx_transient", default=False)


@contextlib.contextmanager
def transient() -> Iterator[None]:
    """Maps loaded inside the block (in this thread) are neither read from nor written to the
    cache folder, nor kept by :func:`hexwx.io.load.load_map`: for maps a caller asks for once
    and keeps itself, bounded (the viewer's ``ssr=`` variants, which any page may ask for)."""
    token = _TRANSIENT.set(True)
    try:
        yield
    finally:
        _TRANSIENT.reset(token)


def is_transient() -> bool:
    """Whether :func:`transient` is in force in this thread."""
    return _TRANSIENT.get()


def cache_dir() -> Path | None:
    """The cache folder, or None when ``HEXWX_NO_CACHE`` is set (to anything but 0), inside
    :func:`transient`, or when there is no folder to use."""
    if os.environ.get(OFF_ENV, "") not in ("", "0") or _TRANSIENT.get():
        return None
    d = os.environ.get(DIR_ENV)
    if d:
        return Path(d)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):   # (the XDG spec: a relative value is ignored)
        return Path(xdg) / "hexwx"
    try:
        return Path.home() / ".cache" / "hexwx"
    except (RuntimeError, KeyError):  # no home folder: no cache
        return None


def max_bytes() -> int:
    """The size bound: ``$HEXWX_CACHE_MAX_MB`` MiB (UsageError for a value that is no size)."""
    return megabytes_setting(MAX_ENV, DEFAULT_MAX_MB)


def fingerprint() -> str:
    """A hash of the contents of :data:`CODE` and of the compiled kernel (once per process)."""
    global _fingerprint
    if _fingerprint is None:
        h = blake2b(digest_size=16)
        for rel in CODE:
            h.update(rel.encode() + b"\0")
            try:
                h.update((_PACKAGE / rel).read_bytes())
            except OSError:
                h.update(b"missing")
        try:
            from hexwx import _loskernel
            h.update(Path(_loskernel.__file__ or "").read_bytes())
        except (ImportError, OSError):
            h.update(b"no kernel")
        _fingerprint = h.hexdigest()
    return _fingerprint


def stamp(path: str | os.PathLike[str]) -> list[Any]:
    """``[path as given, absolute real path, size, st_mtime_ns, st_ino, st_ctime_ns]`` of an
    input (OSError if gone): a file replaced, or edited with its mtime put back, changes its
    inode or ctime."""
    real = os.path.realpath(path)
    st = os.stat(real)
    note_input(st)       # (read through the cache, still an input: hexwx.outputs refuses it)
    return [os.fspath(path), real, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


class Key:
    """The key of one cached map: its canonical text (stored in the file) and the file stem."""

    __slots__ = ("text", "name")

    def __init__(self, text: str, name: str) -> None:
        self.text, self.name = text, name


def map_key(kind: str, request: Mapping[str, Any], inputs: Iterable[str | os.PathLike[str]]) -> Key | None:
    """The key of the map ``kind`` built for ``request`` (JSON values) from ``inputs``; None when
    the cache is off or an input cannot be read (then the loader just builds the map)."""
    if cache_dir() is None:
        return None
    # the input limits a map was read under (hexwx.limits: $HEXWX_MAX_*): lowering one must
    # refuse an input again, not serve what was read under the old bound
    limits = {k: v for k, v in os.environ.items() if k.startswith("HEXWX_MAX_")}
    try:
        stamps = [stamp(p) for p in inputs]
        text = json.dumps({"format": FORMAT, "code": fingerprint(), "kind": kind,
                           "request": request, "inputs": stamps, "limits": limits},
                          sort_keys=True)
    except (OSError, TypeError, ValueError):
        return None
    return Key(text, blake2b(text.encode(), digest_size=16).hexdigest())


# -- reading and writing one file -----------------------------------------------------------

#: Every array starts at a multiple of this in the file (and so in memory).
_ALIGN = 64
#: Hex digits of the CRC-32 that starts a file's header text.
_HEAD_CRC = 8


#: This user's id (None where there is none: Windows, whose folders have no POSIX modes).
_UID: int | None = os.getuid() if hasattr(os, "getuid") else None


def _private(folder: Path) -> bool:
    """Whether ``folder`` is a folder of this user that no one else may write to: entries in
    any other folder could be replaced by another user, so the cache is not used there."""
    try:
        st = os.stat(folder)
    except OSError:
        return False
    if _UID is None:
        return statmod.S_ISDIR(st.st_mode)
    return statmod.S_ISDIR(st.st_mode) and st.st_uid == _UID and not st.st_mode & 0o022


def _layout(items: Iterable[tuple[str, np.ndarray]]
            ) -> tuple[list[tuple[str, str, list[int], int]], int]:
    """Where :func:`_write` puts each array in the data record -- ``(name, dtype, shape,
    offset)``, every offset a multiple of :data:`_ALIGN` -- and the record's size in bytes."""
    layout: list[tuple[str, str, list[int], int]] = []
    offset = 0
    for name, a in items:
        offset += -offset % _ALIGN
        layout.append((name, a.dtype.str, list(a.shape), offset))
        offset += a.nbytes
    return layout, offset


def _write(path: Path, header: dict[str, Any], arrays: Mapping[str, np.ndarray]) -> bool:
    """Write ``header`` and ``arrays`` to ``path`` through a temporary file, as two ``.npy``
    records: the JSON header (its CRC-32 first, padded to a multiple of :data:`_ALIGN` bytes),
    then one uint8 record holding every array at an aligned offset, with the CRC-32 of the
    whole record in the header.  False on failure."""
    folder = path.parent
    if str(folder) in _unwritable:
        return False
    items = [(name, np.ascontiguousarray(a)) for name, a in arrays.items()]
    if any(a.dtype.hasobject for _, a in items):
        return False
    layout, offset = _layout(items)
    crc = done = 0
    for (_, a), (_, _, _, at) in zip(items, layout):
        crc = zlib.crc32(a.data, zlib.crc32(bytes(at - done), crc))
        done = at + a.nbytes
    text = json.dumps({**header, "arrays": layout, "size": offset, "crc": crc})
    text = f"{zlib.crc32(text.encode()):08x}{text}"
    head = np.frombuffer((text + " " * (-len(text) % _ALIGN)).encode(), np.uint8)
    import tempfile
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _private(folder):
            raise OSError(f"{folder}: others may write to it")
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".npy", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, head, allow_pickle=False)
            npformat.write_array_header_1_0(fh, {"descr": "|u1", "fortran_order": False,
                                                 "shape": (offset,)})
            done = 0
            for (name, a), (_, _, _, at) in zip(items, layout):
                fh.write(bytes(at - done))
                fh.write(a.data)
                done = at + a.nbytes
            fh.flush()
            os.fsync(fh.fileno())  # the data on disk before the name: a crash leaves no torn file
        os.replace(tmp, path)
        return True
    except OSError:
        _unwritable.add(str(folder))
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


class _Cursor:
    """A read position in a byte buffer, as numpy's ``.npy`` header readers want a file."""

    def __init__(self, data: memoryview) -> None:
        self.data, self.pos = data, 0

    def read(self, n: int = -1, /) -> bytes:
        end = len(self.data) if n < 0 else self.pos + n
        out = bytes(self.data[self.pos:end])
        self.pos += len(out)
        return out


def _next_array(cur: _Cursor, data: np.ndarray) -> np.ndarray:
    """The ``.npy`` record at ``cur``'s position, a view of ``data`` (object arrays, which
    would need pickle, are refused); ``cur`` moves past it.  ValueError if it is not whole."""
    version = npformat.read_magic(cur)
    if version == (1, 0):
        shape, fortran, dtype = npformat.read_array_header_1_0(cur)
    elif version == (2, 0):
        shape, fortran, dtype = npformat.read_array_header_2_0(cur)
    else:
        raise ValueError(f"npy format {version}")
    if fortran or dtype.hasobject:
        raise ValueError("not a C-ordered plain array")
    count = 1
    for n in shape:
        count *= n
    start = cur.pos
    end = start + count * dtype.itemsize
    if end > len(data):
        raise ValueError("truncated")
    cur.pos = end
    return np.frombuffer(data, dtype, count, start).reshape(shape)


@contextlib.contextmanager
def _open_own(path: Path) -> Iterator[tuple[Any, os.stat_result]]:
    """``(file, stat)`` of the entry at ``path`` opened for reading without following a link
    or waiting on a FIFO; the file is None unless it is a regular file of this user."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | \
        getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(path, flags), "rb", buffering=0) as fh:
        st = os.fstat(fh.fileno())
        ours = statmod.S_ISREG(st.st_mode) and (_UID is None or st.st_uid == _UID)
        yield (fh if ours else None), st


def _slurp(path: Path) -> np.ndarray | None:
    """The bytes of the entry at ``path`` in memory aligned to :data:`_ALIGN`, read-only; None
    unless it is a regular file of this user.  Read, not mapped: a file truncated or rewritten
    later cannot touch a map in use (a mapped file cut short kills its reader with SIGBUS),
    and a FIFO or device at the name is never waited on."""
    with _open_own(path) as (fh, st):
        if fh is None:
            return None
        size = st.st_size
        buf = np.empty(size + _ALIGN, np.uint8)
        start = -buf.ctypes.data % _ALIGN
        data = buf[start:start + size]
        view, got = memoryview(data.data), 0
        while got < size:
            n = fh.readinto(view[got:])
            if not n:
                return None   # cut short while read
            got += n
        if fh.read(1):
            return None       # grew while read
    buf.flags.writeable = data.flags.writeable = False
    return data


#: Entries already read by this process, by path (the buffer :func:`_slurp` read into): a
#: content entry's name is the hash of what it holds, so maps read from it again (from another
#: file naming the same layout) share its arrays instead of holding a copy each.  Held weakly:
#: gone with the last map using them.
_READ: weakref.WeakValueDictionary[str, np.ndarray] = weakref.WeakValueDictionary()


def _header(head: np.ndarray, ident: Mapping[str, Any]) -> dict[str, Any] | None:
    """The JSON header of an entry's first record ``head`` if its CRC-32 holds and it is of
    this :data:`FORMAT` and holds ``ident``; else None (ValueError for text that is not JSON)."""
    if head.dtype != np.uint8 or head.ndim != 1:
        return None
    text = head.tobytes().rstrip(b" ")
    if text[_HEAD_CRC:].strip() != text[_HEAD_CRC:] or \
            int(text[:_HEAD_CRC], 16) != zlib.crc32(text[_HEAD_CRC:]):
        return None
    header = json.loads(text[_HEAD_CRC:])
    if header.get("format") != FORMAT or any(header.get(k) != v for k, v in ident.items()):
        return None
    return dict(header)


def _whole_by_header(path: Path, ident: Mapping[str, Any],
                     arrays: Iterable[tuple[str, np.ndarray]]) -> bool:
    """Whether the entry at ``path`` is, by its header and length alone, the one ``ident``
    names holding ``arrays`` as :func:`_write` lays them out: a regular file of this user, the
    header's CRC-32, ``ident`` and layout right, and exactly as long as such a file is.  Its
    data are not read (the content name is the hash of what the entry holds): a flipped bit
    in them is found by the CRC-32 check of every read, which marks the entry stale for
    :func:`store`."""
    layout, size = _layout(arrays)
    try:
        with _open_own(path) as (fh, st):
            if fh is None:
                return False
            cur = _Cursor(memoryview(fh.read(_HEADER_READ)))
            header = _header(_next_array(cur, np.frombuffer(cur.data, np.uint8)), ident)
            if header is None or header.get("size") != size or \
                    header.get("arrays") != json.loads(json.dumps(layout)):
                return False
            version = npformat.read_magic(cur)
            read_header = npformat.read_array_header_1_0 if version == (1, 0) else \
                npformat.read_array_header_2_0
            shape, fortran, dtype = read_header(cur)
            return shape == (size,) and not fortran and dtype == np.uint8 and \
                cur.pos + size == st.st_size
    except Exception:  # unreadable, or a header longer than what was read: write it again
        return False


#: How much of an entry :func:`_whole_by_header` reads: its header (a few KiB) and more.
_HEADER_READ = 1 << 20

#: Content entries found broken or foreign by a read of this process (:func:`load`):
#: :func:`store` writes them again whatever their headers say.
_STALE: set[str] = set()


def _read(path: Path, ident: Mapping[str, Any], shared: bool = False
          ) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
    """The header and arrays of ``path`` if it is a whole, intact file of this user whose
    header holds ``ident`` (format, key or content name, part); else None.  Every byte is
    checked against the CRC-32s of the header and of the data.  ``shared``: the file's name
    says what it holds (a content entry), so a copy this process read already is used."""
    try:
        if not _private(path.parent):
            return None
        buf = _READ.get(str(path)) if shared else None
        known = buf is not None
        if buf is not None:
            start = -buf.ctypes.data % _ALIGN
            data = buf[start:start + len(buf) - _ALIGN]
        else:
            read = _slurp(path)
            if read is None:
                return None
            data = read
        cur = _Cursor(data.data)
        header = _header(_next_array(cur, data), ident)
        if header is None:
            return None
        blob = _next_array(cur, data)
        if blob.dtype != np.uint8 or blob.shape != (header["size"],) or cur.pos != len(data):
            return None   # (something after the data: not a file we wrote)
        if blob.ctypes.data % _ALIGN or (not known and zlib.crc32(blob.data) != header["crc"]):
            return None
        arrays: dict[str, np.ndarray] = {}
        for name, dt, shape, offset in header["arrays"]:
            dtype = np.dtype(dt)
            count = 1
            for n in shape:
                count *= n
            if dtype.hasobject or offset % _ALIGN or offset + count * dtype.itemsize > len(blob):
                return None
            arrays[name] = np.frombuffer(blob, dtype, count, offset).reshape(shape)
    except Exception:  # any unreadable, truncated or corrupt file is a miss, never an error
        return None
    if shared and data.base is not None:
        _READ[str(path)] = data.base   # (what the arrays' memory belongs to: kept while they live)
    return header, arrays


def _touch(path: Path) -> None:
    try:
        os.utime(path)  # least recently used goes first when pruning
    except OSError:
        pass


def prune(folder: Path | None = None, limit: int | None = None) -> None:
    """Remove the least recently used cache files until the folder holds at most ``limit``
    bytes (default :func:`max_bytes`), and temporary files left by killed writers."""
    folder = folder or cache_dir()
    if folder is None:
        return
    limit = max_bytes() if limit is None else limit
    try:
        files = []
        with os.scandir(folder) as it:
            for e in it:
                if not e.name.endswith(".npy") or not e.is_file(follow_symlinks=False):
                    continue
                st = e.stat(follow_symlinks=False)
                if e.name.startswith(".tmp-"):
                    if st.st_mtime < time.time() - 3600:
                        os.unlink(e.path)
                    continue
                files.append((st.st_mtime_ns, st.st_size, e.path))
    except OSError:
        return
    total = sum(size for _t, size, _p in files)
    for _t, size, p in sorted(files):
        if total <= limit:
            break
        try:
            os.unlink(p)
        except OSError:
            pass
        total -= size


# -- maps <-> files ---------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A map's mapping (read-only views, tuples) as plain JSON values."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot cache a value of type {type(value).__name__}")


def _table_record(table: TerrainTable) -> Any:
    if table is CATALOGUE:
        return "catalogue"
    names = [f.name for f in fields(TerrainType)]
    return {"source": table.source, "fields": names,
            "types": [[getattr(t, f) for f in names] for t in table.types]}


def _table(record: Any) -> TerrainTable:
    if record == "catalogue":
        return CATALOGUE
    names = record["fields"]
    types = []
    for row in record["types"]:
        kw = dict(zip(names, row))
        kw["category"] = Category(kw["category"])
        types.append(TerrainType(**kw))
    return TerrainTable(tuple(types), source=record["source"])


def _record(m: HexMap) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The map as (JSON header, arrays); an array that is another's object is stored once."""
    g, ht, km, kt = m.geometry, m.hexes, m.kernel_map, m.kernel_terrain
    arrays: dict[str, np.ndarray] = {}
    alias: dict[str, str] = {}
    seen: dict[int, str] = {}

    def put(name: str, a: np.ndarray) -> None:
        if id(a) in seen:
            alias[name] = seen[id(a)]
        else:
            seen[id(a)] = name
            arrays[name] = a

    put("elevation", m.elevation)
    put("terrain", m.terrain)
    for name in ("stairways", "roads", "fills"):
        if getattr(m, name) is not None:
            put(name, getattr(m, name))
    if m.image_bytes is not None:
        put("image_bytes", np.frombuffer(m.image_bytes, np.uint8))
    plain: dict[str, Any] = {}           # the geometry's other fields: sizes, turned boards
    for f in fields(PixelGeometry):
        v = getattr(g, f.name)
        if isinstance(v, np.ndarray):
            put(f"geometry.{f.name}", v)
        elif isinstance(v, PixelLookup):         # what the pixel lookup is made from
            for name in ("border", "first", "nrows", "remap"):
                if getattr(v, name) is not None:
                    put(f"geometry.lookup.{name}", getattr(v, name))
            for i, (_x0, _y0, cells) in enumerate(v.turns):
                put(f"geometry.lookup.turns.{i}", cells)
            plain[f.name] = [[int(x0), int(y0)] for x0, y0, _cells in v.turns]
        else:
            plain[f.name] = _plain(v)
    put("geometry.hex_at", g.hex_at)         # the pixel lookup itself (made on first use)
    for f in fields(HexTerrain):
        put(f"hexes.{f.name}", getattr(ht, f.name))

    def nested(prefix: str, v: Any) -> Any:
        """The kernel tuple's shape (arrays, and tuples of them: turned boards' frames)."""
        if isinstance(v, np.ndarray):
            put(prefix, v)
            return prefix
        if isinstance(v, tuple):
            return [nested(f"{prefix}.{i}", x) for i, x in enumerate(v)]
        raise TypeError(f"cannot cache a kernel entry of type {type(v).__name__}")

    for i, a in enumerate(kt):
        put(f"kernel_terrain.{i}", a)
    derived = m.derived_arrays()  # what HexMap.derived made on the way
    for name, v in derived.items():
        put(f"derived.{name}", v)
    header = {"name": m.name, "source": m.source, "kind": m.kind,
              "board_images": [list(b) for b in m.board_images],
              "overlay_art": [list(o) for o in m.overlay_art],
              "overlay_persist": list(m.overlay_persist),
              "shown_turned": m.shown_turned,
              "move_overrides": _plain(m.move_overrides),
              "grid": {"boards": [[b.label, b.bx, b.by, b.rotated, b.col0, b.row0,
                                   list(astuple(b.window)), list(astuple(b.shape))]
                                  for b in m.grid.boards],
                       "nbx": m.grid.nbx, "nby": m.grid.nby},
              "table": _table_record(m.table), "geometry": plain, "kernel": nested("kernel", km),
              "kernel_terrain": len(kt),
              "derived": sorted(derived), "alias": alias}
    return header, arrays


def _shape(record: list[Any]) -> BoardShape:
    """The board shape a header records (columns, rows, hex width, hex height, pixels, and
    the first printed column and row)."""
    cols, rows, hex_w, hex_h, w, h, *first = record
    shape = BoardShape(int(cols), int(rows), float(hex_w), float(hex_h), int(w), int(h),
                       *(int(v) for v in first[:2]))
    return GEOMORPHIC if shape == GEOMORPHIC else shape


def _map(header: dict[str, Any], arrays: dict[str, np.ndarray]) -> HexMap:
    """The map a header and its arrays describe (KeyError/ValueError if they do not fit)."""
    for name, target in header["alias"].items():
        arrays[name] = arrays[target]
    gr = header["grid"]
    grid = Grid(tuple(BoardPlacement(str(lb), int(bx), int(by), bool(rot),
                                     None if c0 is None else int(c0), None if r0 is None else int(r0),
                                     HexWindow(*(int(v) for v in win)), _shape(shape))
                      for lb, bx, by, rot, c0, r0, win, shape in gr["boards"]),
                int(gr["nbx"]), int(gr["nby"]))
    image = arrays.get("image_bytes")
    m = HexMap(name=header["name"], grid=grid, table=_table(header["table"]),
               elevation=arrays["elevation"], terrain=arrays["terrain"],
               source=header["source"], kind=header["kind"], stairways=arrays.get("stairways"),
               image_bytes=None if image is None else image.tobytes(),
               move_overrides=header["move_overrides"], roads=arrays.get("roads"),
               fills=arrays.get("fills"),
               board_images=tuple((str(p), int(x), int(y), bool(r),
                                   None if c is None else (int(c[0]), int(c[1]), int(c[2]), int(c[3])))
                                  for p, x, y, r, c in header["board_images"]),
               overlay_art=tuple((int(i), str(a), str(e), int(x), int(y))
                                 for i, a, e, x, y in header.get("overlay_art", ())),
               overlay_persist=tuple(int(i) for i in header.get("overlay_persist", ())),
               shown_turned=bool(header.get("shown_turned", False)))
    geo_args: dict[str, Any] = {}
    for f in fields(PixelGeometry):
        v = header["geometry"].get(f.name)
        if f.name == "lookup":
            geo_args[f.name] = PixelLookup(
                border=arrays["geometry.lookup.border"], first=arrays["geometry.lookup.first"],
                nrows=arrays["geometry.lookup.nrows"], remap=arrays.get("geometry.lookup.remap"),
                turns=tuple((int(x0), int(y0), arrays[f"geometry.lookup.turns.{i}"])
                            for i, (x0, y0) in enumerate(v)), shape=grid.shape)
        else:
            geo_args[f.name] = arrays[f"geometry.{f.name}"] if v is None else \
                tuple(v) if isinstance(v, list) else v
    geo = PixelGeometry(**geo_args)
    geo.__dict__["hex_at"] = arrays["geometry.hex_at"]    # (a cached property: made already)
    hexes = HexTerrain(**{f.name: arrays[f"hexes.{f.name}"] for f in fields(HexTerrain)})
    n = len(grid)
    if m.elevation.shape != (grid.width_px, grid.height_px) or geo.hex_at.shape != m.elevation.shape \
            or len(hexes.centre) != n or geo.border.shape != (n, 6, 2):
        raise ValueError("cached arrays do not fit the grid")

    def nested(spec: Any) -> Any:
        return arrays[spec] if isinstance(spec, str) else tuple(nested(x) for x in spec)

    kernel = nested(header["kernel"])
    if not isinstance(kernel, tuple):
        raise ValueError("cached kernel arrays are not a tuple")
    m.keep_derived({name: arrays[f"derived.{name}"] for name in header["derived"]})
    kt = tuple(arrays[f"kernel_terrain.{i}"] for i in range(int(header["kernel_terrain"])))
    return seed(m, geometry=geo, hexes=hexes, kernel_map=kernel, kernel_terrain=kt)


class _Parts:
    """The :class:`~hexwx.hexmap.board.DerivedStore` of a cached map: ``<content>.<part>.npy``
    (keyed by the map's content, so every file naming the same map shares them)."""

    def __init__(self, folder: Path, content: str) -> None:
        self.folder, self.content = folder, content

    def _path(self, name: str) -> Path | None:
        return self.folder / f"{self.content}.{name}.npy" if _PART.fullmatch(name) else None

    def load(self, name: str) -> np.ndarray | None:
        path = self._path(name)
        got = _read(path, {"content": self.content, "part": name}, shared=True) \
            if path is not None else None
        if got is None or name not in got[1]:
            return None
        _touch(path)  # type: ignore[arg-type]
        return got[1][name]

    def save(self, name: str, value: np.ndarray) -> None:
        path = self._path(name)
        if path is not None and _write(path, {"format": FORMAT, "content": self.content,
                                              "part": name}, {name: value}):
            prune(self.folder)


#: The header fields that name a map rather than describe it: kept in the entry of the file
#: that named it (:func:`store`), not in the content entry.
_LABEL = ("name", "source")
_CONTENT = re.compile(r"[0-9a-f]{32}")


def content_name(header: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> str:
    """The hash of what a map is (its header but for :data:`_LABEL` and what it derived, its
    arrays, the code that built it): the name of its content entry."""
    h = blake2b(digest_size=16)
    described = {k: v for k, v in header.items() if k not in _LABEL and k != "derived"}
    h.update(json.dumps([FORMAT, fingerprint(), described], sort_keys=True).encode())
    for name in sorted(arrays):
        if name.startswith("derived."):
            continue
        a = np.ascontiguousarray(arrays[name])
        h.update(f"\0{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(a.data)
    return h.hexdigest()


def load(key: Key | None) -> HexMap | None:
    """The cached map of ``key``, or None (no cache, no file, or a file that is not right).

    ``<key>.npy`` holds what names the map (:data:`_LABEL`) and the name of its content entry
    ``<content>.npy``, which holds the map itself, once for every file naming it."""
    folder = cache_dir()
    if key is None or folder is None:
        return None
    path = folder / f"{key.name}.npy"
    got = _read(path, {"key": key.text, "part": "names"})
    if got is None:
        return None
    names = got[0]
    try:
        for _given, real, *st in names["more_inputs"]:
            if stamp(real)[2:] != st:
                return None  # one of a map file's boards changed since
        content = str(names["content"])
        if not _CONTENT.fullmatch(content):
            return None
        entry = folder / f"{content}.npy"
        got = _read(entry, {"content": content, "part": "map"}, shared=True)
        if got is None:
            _STALE.add(str(entry))       # broken (or not ours): the next store rewrites it
            return None
        header, arrays = got
        m = _map({**header["map"], **names["label"]}, dict(arrays))
    except Exception:  # a header that does not describe a map is a miss
        return None
    _touch(path)
    _touch(entry)
    m.keep_on_disk(_Parts(folder, content))
    return m


def store(key: Key | None, m: HexMap, more_inputs: Iterable[str | os.PathLike[str]] = ()) -> HexMap:
    """Write ``m`` (with its geometry, per-hex terrain and kernel arrays, derived now) under
    ``key``, and give it the cache as the store of what it derives later.  ``more_inputs``:
    files found while building (a map file's boards), checked again on every read.  Returns
    ``m``; nothing happens when the cache is off, or ``m`` is already a cached map.

    The map goes to its content entry (:func:`content_name`), written only when none is there
    whose header and length say it holds that content (:func:`_whole_by_header`: the entry's
    data are not read again) and no read of this process found it broken; ``<key>.npy`` names
    it, with the map's name and source."""
    folder = cache_dir()
    if key is None or folder is None or m.kept_on_disk or str(folder) in _unwritable:
        return m
    try:
        header, arrays = _record(m)
        more = [stamp(p) for p in more_inputs]
        label = {k: header.pop(k) for k in _LABEL}
        content = content_name(header, arrays)
    except (OSError, TypeError, ValueError):
        return m
    entry = folder / f"{content}.npy"
    ident = {"content": content, "part": "map"}
    ok = (str(entry) not in _STALE and _whole_by_header(entry, ident, arrays.items())) \
        or _write(entry, {"format": FORMAT, **ident, "map": header}, arrays)
    if ok:
        _STALE.discard(str(entry))
    ok = ok and _write(folder / f"{key.name}.npy", {"format": FORMAT, "key": key.text,
                                                    "part": "names", "content": content,
                                                    "label": label, "more_inputs": more}, {})
    if ok:
        m.keep_on_disk(_Parts(folder, content))
        prune(folder)
    return m
