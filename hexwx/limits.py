"""Bounded reading: every reader checks the size of its work before doing it.

A small hostile file must not cost gigabytes or minutes.  Each limit has a name, a default
generous for any real game, and (where a user may really need more) an environment variable
that raises it; every refusal is a one-line :class:`~hexwx.errors.DataError` naming the file,
the limit and how to raise it.

* :func:`check_input` -- an input must be a regular file (not a FIFO, device or directory)
  no larger than the limit for its kind;
* :func:`read_text_input` / :func:`read_bytes_input` -- read such a file, bounded;
* :func:`open_zip` / :func:`read_zip_entry` -- archives (VASL boards, VASL saves): the entry's
  declared *and* actual decompressed size are bounded, encrypted entries and unsupported
  compression are refused;
* :func:`gunzip` -- a gzip stream inflated to at most a given size;
* :func:`open_image` -- image dimensions checked from the header before any pixel is decoded;
* :func:`check_count` -- counts (turns, games, bases, boards) against a named limit.
"""
from __future__ import annotations

import io
import os
import stat
import zlib
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from hexwx.errors import DataError, UsageError

if TYPE_CHECKING:  # zipfile is imported when an archive is opened
    import zipfile

__all__ = ["Limit", "limit", "track_inputs", "note_input", "inputs_read", "check_input", "read_text_input", "read_bytes_input", "open_zip",
           "read_zip_entry", "gunzip", "open_image", "check_count", "toml_depth",
           "MAX_LAYOUT_BOARDS"]

MB = 1 << 20


@dataclass(frozen=True)
class Limit:
    """A named bound: ``default`` unless the environment variable ``env`` sets another."""

    name: str
    default: int
    unit: str = ""
    env: str | None = None

    @property
    def value(self) -> int:
        if self.env:
            raw = os.environ.get(self.env)
            if raw:
                try:
                    v = int(raw) if len(raw.strip()) <= 18 else -1    # (beyond: no real bound)
                except ValueError:
                    raise UsageError(f"${self.env}={raw[:40]!r}: expected a whole number "
                                     f"({self.name})") from None
                if v <= 0:
                    raise UsageError(f"${self.env}={raw[:40]!r}: expected a whole number from 1 "
                                     f"to 18 digits ({self.name})")
                return v * (MB if self.unit == "MB" else 1)
        return self.default

    def describe(self) -> str:
        v = self.value
        shown = f"{v // MB} MB" if self.unit == "MB" else f"{v:,}"
        raise_it = f" (set ${self.env} to raise it)" if self.env else ""
        return f"the limit of {shown} for {self.name}{raise_it}"


#: Size of one input file (map, scenario, terrain table, archive, save).
INPUT_FILE = Limit("an input file", 256 * MB, "MB", "HEXWX_MAX_INPUT_MB")
#: Decompressed size of one archive entry or gzip stream (a VASL board's LOSData is ~2.3 MB).
UNPACKED = Limit("the unpacked size of an archive entry", 64 * MB, "MB", "HEXWX_MAX_UNPACKED_MB")
#: Entries in one archive.
ZIP_ENTRIES = Limit("the entries of an archive", 10_000, "", "HEXWX_MAX_ZIP_ENTRIES")
#: Pixels of an image read (a VASL board image is 1800 x 645 = 1.2 million).
IMAGE_PIXELS = Limit("the pixels of an image", 50_000_000, "", "HEXWX_MAX_IMAGE_PIXELS")
#: Boards in one layout (the largest real scenario maps use about a dozen): memory and derive
#: time grow with it.  The one limit for layouts in map files, on the command line and in saves.
LAYOUT_BOARDS = Limit("the boards of a layout", 24, "", "HEXWX_MAX_BOARDS")
MAX_LAYOUT_BOARDS = LAYOUT_BOARDS.default
#: Game turns of one weather run (hex or miniatures).
TURNS = Limit("the turns of a weather run", 10_000, "", "HEXWX_MAX_TURNS")
#: Game turns x games of one vectorised weather simulation (one byte each in memory).
SIMULATED_TURNS = Limit("games x turns of a weather simulation", 200_000_000, "",
                        "HEXWX_MAX_SIMULATED_TURNS")
#: Bases of one tabletop unit.
BASES = Limit("the bases of one unit", 1_000)
#: Nesting depth of a TOML document (tables and arrays).
TOML_DEPTH = Limit("the nesting depth of a TOML file", 32)

_LIMITS = {lim.name: lim for lim in (INPUT_FILE, UNPACKED, ZIP_ENTRIES, IMAGE_PIXELS, LAYOUT_BOARDS,
                                     TURNS, SIMULATED_TURNS, BASES, TOML_DEPTH)}


def limit(name: str) -> Limit:
    """The limit called ``name`` (see the constants of this module)."""
    return _LIMITS[name]


_SPECIAL = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
            (stat.S_ISDIR, "a directory"))


#: The files read since :func:`track_inputs` (device, inode), or None when not tracking.
_inputs_read: set[tuple[int, int]] | None = None


def track_inputs() -> None:
    """Remember every file read from now on (a command's inputs, however it found them: the
    terrain table, board archives in the VASL folder, a save's boards, a scenario's map),
    so that :mod:`hexwx.outputs` refuses to write over any of them.  The command line turns
    it on for each command."""
    global _inputs_read
    _inputs_read = set()


def note_input(st: os.stat_result) -> None:
    """Record a file read (its ``stat``) when tracking (:func:`track_inputs`)."""
    if _inputs_read is not None:
        _inputs_read.add((st.st_dev, st.st_ino))


def inputs_read() -> frozenset[tuple[int, int]]:
    """(device, inode) of every file read since :func:`track_inputs` (empty when not tracking)."""
    return frozenset(_inputs_read or ())


def check_input(path: str | os.PathLike[str], what: str = "an input file",
                lim: Limit = INPUT_FILE) -> int:
    """The size of input file ``path``; DataError unless it is a regular file within ``lim``.

    Refusing FIFOs and devices up front means a named pipe cannot hang a reader and
    ``/dev/zero`` cannot fill memory.
    """
    src = os.fspath(path)
    try:
        st = os.stat(src)
    except FileNotFoundError:
        raise DataError(f"{src}: no such file; expected {what}") from None
    except (OSError, ValueError) as exc:
        raise DataError(f"{src}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    note_input(st)
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _SPECIAL if test(st.st_mode)), "not a regular file")
        raise DataError(f"{src}: is {kind}; expected {what} (a regular file)")
    if st.st_size > lim.value:
        raise DataError(f"{src}: {st.st_size:,} bytes exceeds {lim.describe()}")
    return st.st_size


def read_bytes_input(path: str | os.PathLike[str], what: str = "an input file",
                     lim: Limit = INPUT_FILE) -> bytes:
    """The bytes of regular file ``path``, refused beyond ``lim`` (checked before and while reading)."""
    check_input(path, what, lim)
    src = os.fspath(path)
    try:
        with open(src, "rb") as f:
            data = f.read(lim.value + 1)
    except OSError as exc:
        raise DataError(f"{src}: cannot read: {exc.strerror or exc}") from None
    if len(data) > lim.value:
        raise DataError(f"{src}: larger than {lim.describe()}")
    return data


def read_text_input(path: str | os.PathLike[str], what: str = "an input file",
                    lim: Limit = INPUT_FILE) -> str:
    """The UTF-8 text of regular file ``path`` (bounded as :func:`read_bytes_input`)."""
    data = read_bytes_input(path, what, lim)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{os.fspath(path)}: not UTF-8 text (byte {exc.start}); expected {what}") from None


# -- archives --------------------------------------------------------------------------------

#: Compression methods read (zipfile.ZIP_STORED, ZIP_DEFLATED, ZIP_BZIP2, ZIP_LZMA).
_METHODS = {0: "stored", 8: "deflated", 12: "bzip2", 14: "LZMA"}


def is_zip(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` is a regular file that starts like a zip archive (a VASL board or
    save); a FIFO or device is never opened to look (it could hang)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as fh:
            return fh.read(4) == b"PK\x03\x04"
    except (OSError, ValueError):
        return False


def open_zip(source: str | os.PathLike[str] | bytes | IO[bytes], what: str = "a zip archive") -> zipfile.ZipFile:
    """A :class:`zipfile.ZipFile` of a regular file (or bytes / a binary file object) whose
    entry count is within limits; DataError naming the file otherwise.  Close it after use."""
    import zipfile
    fobj: IO[bytes] | None
    if isinstance(source, (bytes, bytearray)):
        name, fobj = "<bytes>", io.BytesIO(source)
    elif isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        check_input(name, what)
        fobj = None
    else:
        name, fobj = str(getattr(source, "name", "<stream>")), source
    declared = _declared_entries(fobj if fobj is not None else name)
    if declared > ZIP_ENTRIES.value:      # before zipfile reads every entry's record
        raise DataError(f"{name}: {declared:,} entries exceeds {ZIP_ENTRIES.describe()}")
    try:
        zf = zipfile.ZipFile(fobj if fobj is not None else name)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, NotImplementedError) as exc:
        raise DataError(f"{name}: not a readable zip archive ({exc}); expected {what}") from None
    except OSError as exc:
        raise DataError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(zf.infolist()) > ZIP_ENTRIES.value:
        zf.close()
        raise DataError(f"{name}: {len(zf.infolist()):,} entries exceeds {ZIP_ENTRIES.describe()}")
    return zf


#: The end of an archive: the end-of-central-directory record (22 bytes) and its comment.
_EOCD_REACH = 22 + 0xFFFF


def _declared_entries(source: str | IO[bytes]) -> int:
    """The entry count an archive's end records declare (the ZIP64 one when present), read
    from its last 64 KiB; 0 when none is found (zipfile then says what is wrong).  The count
    is known before :class:`zipfile.ZipFile` builds a record of every entry: 5 million
    entries cost it gigabytes and a minute."""
    import struct
    try:
        fh = open(source, "rb") if isinstance(source, str) else source
        try:
            start = fh.tell()
            size = fh.seek(0, 2)
            fh.seek(max(0, size - _EOCD_REACH))
            tail = fh.read(_EOCD_REACH)
            at = tail.rfind(b"PK\x05\x06")
            if at < 0 or at + 22 > len(tail):
                return 0
            count = struct.unpack_from("<H", tail, at + 10)[0]
            loc = at - 20                           # the ZIP64 locator comes right before it
            if loc >= 0 and tail[loc:loc + 4] == b"PK\x06\x07":
                end64 = struct.unpack_from("<Q", tail, loc + 8)[0]
                if end64 + 56 <= size:
                    fh.seek(end64)
                    rec = fh.read(56)
                    if rec[:4] == b"PK\x06\x06":
                        count = max(count, struct.unpack_from("<Q", rec, 32)[0])
            fh.seek(start)
            return int(count)
        finally:
            if isinstance(source, str):
                fh.close()
    except (OSError, ValueError, struct.error):
        return 0


def read_zip_entry(zf: zipfile.ZipFile, member: str, *, source: str | None = None,
                   lim: Limit = UNPACKED) -> bytes:
    """The decompressed bytes of ``member``, never more than ``lim``.

    The declared size is checked before reading and the actual size while inflating (a forged
    header cannot slip by); encrypted entries, unsupported compression and corrupt data are
    one-line DataErrors naming ``source`` and the entry.
    """
    import zipfile
    src = source or str(zf.filename or "<zip>")
    try:
        info = zf.getinfo(member)
    except KeyError:
        raise DataError(f"{src}: no entry {member!r} in the archive") from None
    if info.flag_bits & 0x1:
        raise DataError(f"{src}: entry {member!r} is encrypted; expected an unencrypted archive")
    if info.compress_type not in _METHODS:
        raise DataError(f"{src}: entry {member!r} uses compression method {info.compress_type}; "
                        f"expected one of {', '.join(_METHODS.values())}")
    cap = lim.value
    if info.file_size > cap:
        raise DataError(f"{src}: entry {member!r} unpacks to {info.file_size:,} bytes, which "
                        f"exceeds {lim.describe()}")
    out = bytearray()
    try:
        with zf.open(info) as f:
            while True:
                chunk = f.read(min(1 << 20, cap + 1 - len(out)))
                if not chunk:
                    break
                out += chunk
                if len(out) > cap:
                    raise DataError(f"{src}: entry {member!r} unpacks to more than "
                                    f"{lim.describe()}")
    except DataError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
            ValueError, OSError) as exc:
        raise DataError(f"{src}: entry {member!r} cannot be read ({_one_line(exc)})") from None
    except Exception as exc:  # lzma.LZMAError, bz2 errors: corrupt compressed data
        if type(exc).__module__ in ("lzma", "_lzma", "bz2", "_bz2"):
            raise DataError(f"{src}: entry {member!r} cannot be read ({_one_line(exc)})") from None
        raise
    return bytes(out)


def gunzip(data: bytes, *, source: str, what: str = "gzip data", lim: Limit = UNPACKED) -> bytes:
    """Inflate gzip ``data`` to at most ``lim`` bytes; DataError if larger or corrupt."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    cap = lim.value
    try:
        out = d.decompress(data, cap + 1)
        if len(out) > cap or d.unconsumed_tail:
            raise DataError(f"{source}: {what} unpacks to more than {lim.describe()}")
        if not d.eof:
            raise DataError(f"{source}: {what} is not valid gzip data (truncated stream)")
    except zlib.error as exc:
        raise DataError(f"{source}: {what} is not valid gzip data ({exc})") from None
    return out


# -- images ----------------------------------------------------------------------------------

def open_image(data: bytes, *, source: str, what: str = "image", lim: Limit = IMAGE_PIXELS) -> Any:
    """A Pillow image of ``data`` whose size was checked from its header before decoding.

    DataError (one line) if it is not an image Pillow reads or has more pixels than ``lim``.
    """
    import warnings

    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))  # reads the header only
    except Image.DecompressionBombError:
        raise DataError(f"{source}: the {what} has more pixels than Pillow's decompression-bomb "
                        f"limit, which exceeds {lim.describe()}") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise DataError(f"{source}: the {what} cannot be read ({_one_line(exc)})") from None
    w, h = im.size
    if w <= 0 or h <= 0 or w * h > lim.value:
        raise DataError(f"{source}: the {what} is {w} x {h} pixels, which exceeds {lim.describe()}")
    try:
        im.load()
    except (OSError, ValueError, SyntaxError, MemoryError) as exc:
        raise DataError(f"{source}: the {what} cannot be read ({_one_line(exc)})") from None
    return im


# -- counts ----------------------------------------------------------------------------------

def check_count(value: Any, lim: Limit, what: str, *, minimum: int = 1) -> int:
    """``value`` as an int from ``minimum`` to the limit; UsageError naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what}: expected a whole number, got {value!r}")
    if value < minimum:
        raise UsageError(f"{what}: expected a number >= {minimum}, got {value}")
    if value > lim.value:
        raise UsageError(f"{what}: {value:,} exceeds {lim.describe()}")
    return value


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def toml_depth(data: Any, *, source: str, lim: Limit = TOML_DEPTH) -> None:
    """DataError if parsed TOML ``data`` nests deeper than ``lim`` (iterative: no recursion)."""
    stack = [(data, 0)]
    cap = lim.value
    while stack:
        v, d = stack.pop()
        if d > cap:
            raise DataError(f"{source}: tables or arrays nested more than {cap} deep exceed "
                            f"{lim.describe()}")
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
