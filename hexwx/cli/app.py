"""The ``hexwx`` command line: argparse subcommands, ``main(argv) -> int``.

Each group of subcommands lives in its own ``cli_*.py`` module with a ``register(subparsers)``
function that adds parsers and sets ``func`` (a handler taking the parsed arguments and
returning the exit code).  Errors never escape as tracebacks: a :class:`HexwxError` prints one
line and exits 1 (bad data) or 2 (usage); argparse usage errors exit 2.
"""
from __future__ import annotations

import argparse
import importlib
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
    """Run the command line; return the exit code (0 ok, 1 bad data, 2 usage)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except HexwxError as exc:
        print(f"hexwx {args.command}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("hexwx: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"hexwx {args.command}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
