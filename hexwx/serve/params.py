"""Query strings -> the CLI's own parsed arguments.

An API parameter is the CLI flag with ``_`` for ``-`` (``from_level=1`` is ``--from-level 1``,
``deep_snow=1`` is ``--deep-snow``), parsed by the very parser of the command, so the API
accepts and rejects exactly what the command line does.  Options that name files (``scenario``,
``vasl_metadata``, ``output``) or change the output form are not parameters: the server answers
only about the map it loaded.  Every problem is a :class:`~hexwx.errors.UsageError` (HTTP 400).
"""
from __future__ import annotations

import argparse
import re
import threading
from typing import Any, Iterable

from hexwx.errors import UsageError

#: Limits on a query (hostile or mistaken requests get a 400, not work).
MAX_PARAMS = 48
MAX_VALUE = 200
_KEY_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_TRUE = ("", "1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")

#: dests that are never API parameters (files, output form, help).
FORBIDDEN = frozenset({"scenario", "vasl_metadata", "vasl_dir", "ignore_board_extras", "output", "json",
                       "help", "top"})


class ApiParser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError instead of printing and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        raise UsageError((message or "bad parameters").strip())

    def print_help(self, file: Any = None) -> None:  # never write to the server's stdout
        raise UsageError("no help here; see docs/viewer.md")


_PARSERS: dict[str, argparse.ArgumentParser] = {}
_LOCK = threading.Lock()


def _viewshed_parser(sub: Any) -> None:
    from hexwx.cli.weather import add_weather_flags
    p = sub.add_parser("viewshed")
    p.add_argument("frm", metavar="FROM")
    p.add_argument("--from-level", type=int, default=0)
    add_weather_flags(p)


def _sight_parser(sub: Any) -> None:
    from hexwx.cli.weather import add_weather_flags
    p = sub.add_parser("sight")
    p.add_argument("unit", metavar="UNIT")
    add_weather_flags(p)


def _table_parser(sub: Any) -> None:
    p = sub.add_parser("table-sight")
    p.add_argument("--turn", type=int, default=1)
    p.add_argument("--from", dest="frm")
    p.add_argument("--to")


def _table_fire_parser(sub: Any) -> None:
    p = sub.add_parser("table-fire")
    p.add_argument("--turn", type=int, default=1)
    p.add_argument("--from", dest="frm", required=True)
    p.add_argument("--to", required=True)


def _table_move_parser(sub: Any) -> None:
    p = sub.add_parser("table-move")
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("--turn", type=int, default=1)
    p.add_argument("--outline", action="store_true")


def parser(command: str) -> argparse.ArgumentParser:
    """The parser of ``hexwx COMMAND`` (los, path, reach, exposure) or of an API-only query
    (viewshed, sight, table-sight, table-move, table-fire), built from the CLI's own ``register`` functions."""
    with _LOCK:
        if not _PARSERS:
            from hexwx.cli import exposure, hex, move
            root = ApiParser(prog="hexwx", add_help=False)
            sub = root.add_subparsers(dest="command", parser_class=ApiParser)
            for mod in (hex, move, exposure):
                mod.register(sub)
            _viewshed_parser(sub)
            _sight_parser(sub)
            _table_parser(sub)
            _table_move_parser(sub)
            _table_fire_parser(sub)
            _PARSERS.update(sub.choices)
    if command not in _PARSERS:
        raise UsageError(f"no such query {command!r}")
    return _PARSERS[command]


def check_query(query: dict[str, list[str]]) -> None:
    """Reject oversized or malformed queries before any parsing."""
    n = sum(len(v) for v in query.values())
    if n > MAX_PARAMS:
        raise UsageError(f"too many parameters ({n}); at most {MAX_PARAMS}")
    for key, values in query.items():
        if not _KEY_RE.match(key):
            raise UsageError(f"bad parameter name {key[:40]!r}; expected lower-case letters, "
                             "digits and _")
        for v in values:
            if len(v) > MAX_VALUE:
                raise UsageError(f"parameter {key!r} is too long ({len(v)} characters; at most "
                                 f"{MAX_VALUE})")
            if any(ord(c) < 32 for c in v):
                raise UsageError(f"parameter {key!r} contains control characters")


def options_of(p: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """API parameter name -> the option's action (only the options an API may set)."""
    out: dict[str, argparse.Action] = {}
    for act in p._actions:
        if not act.option_strings or act.dest in FORBIDDEN:
            continue
        long = [s for s in act.option_strings if s.startswith("--")]
        if long:
            out[long[0][2:].replace("-", "_")] = act
    return out


def parse(command: str, query: dict[str, list[str]], positionals: Iterable[str],
          *, consumed: Iterable[str] = ()) -> argparse.Namespace:
    """Parse ``query`` (name -> values) as ``hexwx COMMAND POSITIONALS --flags``.

    ``consumed`` are query names already used as positionals (``from``, ``to``).
    """
    check_query(query)
    p = parser(command)
    opts = options_of(p)
    argv: list[str] = []
    skip = set(consumed)
    for key, values in query.items():
        if key in skip:
            continue
        act = opts.get(key)
        if act is None:
            allowed = ", ".join(sorted(opts))
            raise UsageError(f"unknown parameter {key!r}; expected one of: {allowed}")
        flag = [s for s in act.option_strings if s.startswith("--")][0]
        if act.nargs == 0:  # a switch: key=1/true/yes/on or bare key; 0/false/no/off leaves it out
            v = values[-1].strip().lower()
            if v in _TRUE:
                argv.append(flag)
            elif v not in _FALSE:
                raise UsageError(f"parameter {key!r} is a switch; expected 1 or 0, got {values[-1]!r}")
            continue
        if act.nargs not in (None, "?"):
            raise UsageError(f"parameter {key!r} is not available in the API")
        for v in values:
            argv.append(f"{flag}={v}")
    positionals = list(positionals)
    for v in positionals:
        if not isinstance(v, str) or not v or len(v) > MAX_VALUE:
            raise UsageError("a hex or unit parameter is missing or too long")
    pos = list(positionals)
    return p.parse_args(argv + (["--", *pos] if pos else []))
