"""The ``hexwx`` command line: argparse subcommands, ``main(argv) -> int``.

Each group of subcommands lives in its own ``cli_*.py`` module with a ``register(subparsers)``
function that adds parsers and sets ``func`` (a handler taking the parsed arguments and
returning the exit code).  Errors never escape as tracebacks: a :class:`HexwxError` prints one
line and exits 1 (bad data) or 2 (usage); argparse usage errors exit 2.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from hexwx import __version__
from hexwx.errors import HexwxError

#: Modules that add subcommands, in the order they appear in ``--help``.
COMMAND_MODULES = (
    "hexwx.cli.hex",      # los, los-table, import-vasl
    "hexwx.cli.losbatch", # los-batch
    "hexwx.cli.move",     # path, reach
    "hexwx.cli.weather",  # weather roll / run / effects
    "hexwx.cli.minis",    # minis weather, table
    "hexwx.cli.table",    # table
    "hexwx.cli.render",   # render
    "hexwx.cli.saves",    # import-vsav, sight
    "hexwx.cli.exposure",  # exposure
    "hexwx.cli.batch",    # batch
    "hexwx.cli.serve",    # serve
)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: ``hexwx los: error: ...`` and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hexwx",
        description="Line of sight, hindrances and movement under weather, "
        "for ASL-style hex maps and miniatures tabletops.",
    )
    parser.add_argument("--version", action="version", version=f"hexwx {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command group not built yet
            if exc.name == name:
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0 ok, 1 bad data, 2 usage).

    Whatever the input, the user sees one line on stderr, never a traceback: HexwxError and
    OSError are reported as errors; running out of memory or recursion depth, and any other
    exception (a bug), as one line that says so (``HEXWX_DEBUG=1`` shows the traceback).
    """
    _tolerant_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    name = f"hexwx {args.command}"
    try:
        return int(args.func(args) or 0)
    except HexwxError as exc:
        _say(f"{name}: error: {exc}")
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        _say("hexwx: interrupted")
        return 130
    except OSError as exc:
        _say(f"{name}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        return 1
    except MemoryError:
        _say(f"{name}: error: out of memory; the input is too large for this machine")
        return 1
    except RecursionError:
        _say(f"{name}: error: the input is nested too deeply to process")
        return 1
    except Exception as exc:  # a bug: still one line, with a way to see the traceback
        if os.environ.get("HEXWX_DEBUG"):
            raise
        _say(f"{name}: internal error: {type(exc).__name__}: {exc} (a bug in hexwx; "
             f"set HEXWX_DEBUG=1 for the traceback)")
        return 3


def _say(message: str) -> None:
    """Print ``message`` to stderr on one line (newlines inside it become spaces)."""
    print(" ".join(message.split("\n")).replace("\r", " "), file=sys.stderr)


def _tolerant_streams() -> None:
    """Characters the terminal cannot show ("½" under PYTHONIOENCODING=ascii) are escaped
    rather than raising UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError, TypeError):
                pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
