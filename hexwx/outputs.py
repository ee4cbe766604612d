"""Safe output files: every command that writes a file goes through :func:`open_output`.

A file is written to a fresh temporary file beside the target -- a unique name, created with
``O_CREAT | O_EXCL | O_NOFOLLOW`` so it can never be an existing file or a planted link --
and then renamed over the target with :func:`os.replace`.  So:

* nothing but the requested path is created, replaced or deleted: a link planted at any
  temporary name is never followed, a user's own ``out.csv.tmp`` is never touched, and a
  failed or interrupted write (Ctrl-C, and SIGTERM or SIGHUP in the command line) removes
  only the temporary file it created itself; the temporary file of an earlier write killed
  outright (SIGKILL) is removed by the next write of the same target (a writer holds a lock
  on its temporary file while it lives: only unlocked ones are removed);
* readers of the target see the old file or the whole new one, never a partial file;
* when the target is a symbolic link, the link itself is replaced by the new file (the file
  it pointed to is left alone);
* special files (FIFO, device, socket, directory) are refused as outputs, and so are the
  command's own input files -- those given and every file it read
  (:func:`hexwx.limits.track_inputs`) -- each with a one-line :class:`~hexwx.errors.UsageError`; an
  empty name (``-o ""``, an unset ``$VAR``) is a usage error too.

``-`` (or ``None``) means standard output.  Use :func:`check_output` before long work so a
bad ``-o`` fails at once, then :func:`write_output` (whole text or bytes) or
:func:`open_output` (a binary file object, for streamed output).
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from hexwx.errors import DataError, UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, stale files stay
    fcntl = None  # type: ignore[assignment]
from hexwx.limits import inputs_read

__all__ = ["check_output", "csv_cell", "open_output", "printable", "remove_stale_temporaries",
           "write_output", "STDOUT"]

#: The name that means standard output.
STDOUT = "-"

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a directory"))
_SYSTEM_DIRS = ("/dev", "/proc", "/sys")  # /dev/stdout is a link: never replaced by a file
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


def _kind(mode: int) -> str | None:
    """'a FIFO (named pipe)', ... for a special file's mode; None for a regular file or link."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return None


def _identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def check_output(path: str | os.PathLike[str] | None, *, inputs: Iterable[object] = (),
                 option: str = "-o") -> Path | None:
    """The output path checked before any work; None for standard output.

    UsageError (one line, naming ``option``) for an empty name, a special file or directory,
    or one of ``inputs`` (paths the command reads; names that are not existing files, such
    as a VASL layout string, are ignored).  DataError if the directory does not exist.
    """
    if path is None or str(path) == STDOUT:
        return None
    text = os.fspath(path)
    if text == "" or text.strip() == "":
        raise UsageError(f"{option} {text!r}: expected a file name (or '-' for standard output); "
                         f"an empty name is often an unset variable")
    if "\x00" in text:
        raise UsageError(f"{option} {text!r}: a file name cannot contain a NUL character")
    p = Path(text)
    try:
        lst = os.lstat(p)
    except FileNotFoundError:
        lst = None
    except OSError as exc:
        raise DataError(f"cannot write {text!r}: {exc.strerror or exc}") from None
    if lst is not None:
        kind = _kind(lst.st_mode)
        if kind is None and stat.S_ISLNK(lst.st_mode):
            try:
                kind = _kind(os.stat(p).st_mode)
            except OSError:
                kind = None  # a dangling link: replaced by the new file
        if kind == "a directory":
            raise DataError(f"cannot write {text!r}: it is a directory")
        if kind is not None:
            raise UsageError(f"{option} {text!r} is {kind}; expected a regular file "
                             f"(or '-' for standard output)")
        me = _identity(p)
        if me is not None and me in inputs_read():
            raise UsageError(f"{option} {text!r} is a file the command read (one of its inputs); "
                             f"expected a different output file")
        for src in inputs:
            if src is None or isinstance(src, (bytes, int)):
                continue
            try:
                same = me is not None and _identity(os.fspath(src)) == me  # type: ignore[call-overload]
            except TypeError:
                continue
            if same:
                raise UsageError(f"{option} {text!r} is the command's own input {os.fspath(src)!r}"  # type: ignore[call-overload]
                                 f"; expected a different output file")
    parent = p.parent
    if os.path.realpath(parent) in _SYSTEM_DIRS or os.path.realpath(parent).startswith(("/proc/", "/sys/")):
        raise UsageError(f"{option} {text!r} is in the system directory {str(parent)!r}; expected "
                         f"a regular file elsewhere (or '-' for standard output)")
    if not parent.is_dir():
        raise DataError(f"cannot write {text!r}: directory {str(parent)!r} does not exist")
    return p


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP received: unwound as Ctrl-C is, so every ``finally`` runs (a
    half-written output's temporary file is removed)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The stop signals received (the command line's handlers note them, :func:`note_stop`).  A
#: handler's exception is lost when the signal lands while a finalizer or weakref callback
#: runs (Python reports it as "Exception ignored" and goes on): no output is committed after a
#: stop signal all the same (:func:`raise_if_stopped`).
_STOPS: list[int] = []


def note_stop(signum: int) -> None:
    """Note a stop signal (SIGINT, SIGTERM, SIGHUP) received by this process."""
    _STOPS.append(signum)


def clear_stops() -> None:
    """Forget the stop signals noted (a command starting in this process)."""
    _STOPS.clear()


def raise_if_stopped() -> None:
    """KeyboardInterrupt (Ctrl-C) or :class:`Terminated` if a stop signal was noted and its
    exception lost: called before an output is committed and when a command ends."""
    if _STOPS:
        signum = _STOPS[0]
        if signum == getattr(signal, "SIGINT", 2):
            raise KeyboardInterrupt
        raise Terminated(signum)


#: Temporary files this process has created and not yet renamed or removed.  A name is noted
#: before its file is created, so a signal at any moment leaves nothing that
#: :func:`remove_live_temporaries` does not know of.
_LIVE: set[Path] = set()


def remove_live_temporaries() -> None:
    """Remove every temporary file of a write this process left unfinished (the command line
    calls it when a signal or an error ends a command)."""
    for tmp in list(_LIVE):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _LIVE.discard(tmp)


def _temp_beside(p: Path) -> tuple[int, Path]:
    """Create a new, unique, empty file beside ``p``: (descriptor, path); never follows links.
    The file is locked (``flock``) while its writer lives: see :func:`remove_stale_temporaries`."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
    for _ in range(100):
        tmp = p.with_name(f".{p.name}.{os.urandom(6).hex()}.tmp")  # as secrets.token_hex
        _LIVE.add(tmp)
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:
            _LIVE.discard(tmp)
            continue
        if fcntl is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd, tmp
    raise DataError(f"cannot write {str(p)!r}: no unused temporary name in {str(p.parent)!r}")


def remove_stale_temporaries(p: str | os.PathLike[str], min_age: float = 2.0) -> None:
    """Remove the temporary files of earlier writes of ``p`` whose writer died (killed with
    SIGKILL, or the machine went down): regular files of this user named as
    :func:`_temp_beside` names them, that nobody holds locked, at least ``min_age`` seconds
    old (a writer locks its file right after creating it).  A live writer holds its lock."""
    p = Path(p)
    if fcntl is None:
        return
    name = re.compile(re.escape(f".{p.name}.") + r"[0-9a-f]{12}\.tmp")
    with contextlib.suppress(OSError), os.scandir(p.parent) as it:
        stale = [e.path for e in it if name.fullmatch(e.name)]
    for path in stale:
        try:
            fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            # (a writer locks its file right after creating it: a file seconds old is not
            # one being created now)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and \
                    st.st_ctime <= time.time() - min_age:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # OSError: a live writer's
                os.unlink(path)
        except OSError:
            pass
        finally:
            os.close(fd)


@contextlib.contextmanager
def open_output(path: str | os.PathLike[str] | None, *, inputs: Iterable[object] = (),
                option: str = "-o") -> Iterator[BinaryIO]:
    """A binary file to write the output to; the target is replaced when the block ends.

    On an exception inside the block the temporary file is removed and the target is left as
    it was.  For standard output (``None`` or ``'-'``) the block writes to ``sys.stdout``'s
    binary buffer.
    """
    inputs = tuple(inputs)
    p = check_output(path, inputs=inputs, option=option)
    if p is None:
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a text-only stdout (tests capturing it): write text through it
            out = _TextBridge(sys.stdout)
        yield out  # type: ignore[misc]
        out.flush()
        return
    remove_stale_temporaries(p)
    fd, tmp = _temp_beside(p)
    done = False
    try:
        try:
            old = os.stat(p)
            if stat.S_ISREG(old.st_mode):
                os.chmod(fd, stat.S_IMODE(old.st_mode))  # keep the old file's permissions
        except OSError:
            pass
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        check_output(p, inputs=inputs, option=option)  # nothing swapped in meanwhile
        raise_if_stopped()        # a stop signal whose exception a finalizer swallowed
        os.replace(tmp, p)
        done = True
    except OSError as exc:
        raise DataError(f"cannot write {str(p)!r}: {exc.strerror or exc}") from None
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        _LIVE.discard(tmp)


class _TextBridge:
    """Bytes written to a text stream (for a replaced ``sys.stdout`` without a buffer)."""

    def __init__(self, stream: object) -> None:
        self._s = stream

    def write(self, data: bytes) -> int:
        self._s.write(data.decode("utf-8"))  # type: ignore[attr-defined]
        return len(data)

    def flush(self) -> None:
        self._s.flush()  # type: ignore[attr-defined]


def write_output(path: str | os.PathLike[str] | None, data: str | bytes, *,
                 inputs: Iterable[object] = (), option: str = "-o") -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` safely, or to standard output."""
    if isinstance(data, str) and (path is None or str(path) == STDOUT):
        sys.stdout.write(data)
        return
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with open_output(path, inputs=inputs, option=option) as f:
        f.write(raw)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(text: str) -> str:
    """``text`` as one safe CSV field: quoted if it holds a comma, quote or line break, and
    prefixed with ``'`` inside quotes if it starts like a spreadsheet formula (``= + - @``,
    tab, CR: the OWASP CSV-injection advice).  Ordinary names come back unchanged.

    Use it for every text field a command writes to CSV (hex names, board labels, unit ids);
    numbers are written as they are.
    """
    s = str(text)
    formula = s.startswith(_FORMULA_START)
    if formula:
        s = "'" + s
    if formula or any(ch in s for ch in ',"\n\r') or s != s.strip():
        return '"' + s.replace('"', '""') + '"'
    return s


#: Characters a text answer never prints as they are: C0 and C1 controls and DEL (a newline in
#: a piece name would forge a line, an ESC drive the terminal), line and paragraph separators,
#: and the bidirectional overrides and isolates (text that reads in another order than stored).
_UNPRINTABLE = {c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
                for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F),
                          *range(0x2066, 0x206A)]}


def printable(text: object) -> str:
    """``text`` for a line of text output, with every control character (and the others of
    :data:`_UNPRINTABLE`) written as an escape (``\\x0a``), so a name read from a file stays
    on its line and cannot drive the terminal.  Ordinary names come back unchanged."""
    return str(text).translate(_UNPRINTABLE)
