"""The ``hexwx`` command line: argparse subcommands, ``main(argv) -> int``.

Each group of subcommands lives in its own module of :mod:`hexwx.cli` with a
``register(subparsers)`` function that adds parsers and sets ``func`` (a handler taking the
parsed arguments and returning the exit code).  :data:`COMMANDS` names every command, its help
line and its module, so ``hexwx --help`` imports no command module and ``hexwx los ...`` imports
only :mod:`hexwx.cli.hex` (and, inside its handler, what LOS needs).  Errors never escape as
tracebacks: a :class:`HexwxError` prints one line and exits 1 (bad data) or 2 (usage); argparse
usage errors exit 2.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from hexwx import __version__
from hexwx.errors import HexwxError
from hexwx.outputs import Terminated, clear_stops, note_stop, raise_if_stopped


#: Library parameters (as a HexwxError names them) whose command-line word has another name,
#: which argparse cannot know: parameter -> the dests (or positional metavars) that set it, the
#: first a command has wins.  Every other parameter is found by its dest (:func:`command_flags`).
PARAM_ALIASES: dict[str, tuple[str, ...]] = {
    "fog_level": ("wx_fog",), "counters": ("counter",), "address": ("dask",),
    "viewshed_from": ("from_hex",),
    "reach_from": ("reach",),
    "a": ("FROM",), "start": ("FROM",), "viewer": ("FROM",),
    "b": ("TO",), "goal": ("TO",), "target": ("TO",),
}
#: Library parameters that share a name with some command's option but not its meaning: never
#: turned into that option (``path`` is a file a loader reads; ``render --path`` an overlay).
NOT_FLAGS = frozenset({"path"})
#: Weather flags' dests start with this (:mod:`hexwx.front.options`); the rest is the name.
WEATHER_DEST_PREFIX = "wx_"


def actions_of(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every option and positional of ``parser`` and of its subcommands, at any depth."""
    todo = [parser]
    while todo:
        for act in todo.pop()._actions:
            if isinstance(act, argparse._SubParsersAction):
                todo.extend(act.choices.values())
            else:
                yield act


def positional_words(act: argparse.Action) -> tuple[str, ...]:
    """The word(s) a positional shows in usage: its metavar(s), or its dest in capitals."""
    meta = act.metavar
    return tuple(meta) if isinstance(meta, tuple) else (meta or act.dest.upper(),)


def command_flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Parameter -> command-line flag for the command ``parser`` (and its subcommands):
    each option's dest (without :data:`WEATHER_DEST_PREFIX`) -> its first long option string
    (its first option string if it has no long one); then :data:`PARAM_ALIASES`, whose
    targets may also be positional metavars (``FROM``, ``TO``); :data:`NOT_FLAGS` left out."""
    found: dict[str, str] = {}
    words: set[str] = set()
    for act in actions_of(parser):
        if act.option_strings:
            if isinstance(act, (argparse._HelpAction, argparse._VersionAction)):
                continue
            flag = next((o for o in act.option_strings if o.startswith("--")),
                        act.option_strings[0])
            found.setdefault(act.dest, flag)
            found.setdefault(act.dest.removeprefix(WEATHER_DEST_PREFIX), flag)
        else:
            words.update(positional_words(act))
    for param, targets in PARAM_ALIASES.items():
        for t in targets:
            if t in found or t in words:
                found[param] = found.get(t, t)
                break
    return {k: v for k, v in found.items() if k not in NOT_FLAGS}


def _all_flags() -> dict[str, str]:
    """:func:`command_flags` of every command, the first command (in ``--help`` order) that
    has a parameter giving its flag: what :func:`flag_message` uses without a command."""
    parser = build_parser()
    out: dict[str, str] = {}
    for act in parser._actions:
        if isinstance(act, argparse._SubParsersAction):
            for sub in act.choices.values():
                for k, v in command_flags(sub).items():
                    out.setdefault(k, v)
    return out


def __getattr__(name: str) -> Any:
    """``FLAGS``: :func:`_all_flags`, built on first use (it imports every command)."""
    if name == "FLAGS":
        flags = _all_flags()
        globals()["FLAGS"] = flags
        return flags
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def flag_message(message: str, param: str | None, flags: dict[str, str] | None = None) -> str:
    """``message`` with the parameters it names replaced by their command-line flags
    (``flags``: a command's, :func:`command_flags`; default every command's): any
    parameter written with a value as Python spells it (``background='terrain'`` is
    ``--background terrain``, ``ignore_board_extras=True`` is ``--ignore-board-extras``), the
    error's own ``param``, and any other parameter whose name has an underscore."""
    table = __getattr__("FLAGS") if flags is None else flags
    for name, flag in table.items():
        message = re.sub(rf"(?<![\w-]){re.escape(name)}=True\b", flag, message)
        message = re.sub(rf"(?<![\w-]){re.escape(name)}=(['\"])(.*?)\1", rf"{flag} \2", message)
    for name, flag in table.items():
        if name == param or "_" in name:
            message = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", flag, message,
                             count=0 if "_" in name else 1)
    return message


class Command(NamedTuple):
    """A top-level command: its name, the help line ``hexwx --help`` shows, its module."""

    name: str
    help: str
    module: str


#: Every top-level command in ``--help`` order.  A module's commands are listed together, in the
#: order its ``register`` adds them (tests/cli/test_app.py checks this table against them).
COMMANDS: tuple[Command, ...] = (
    Command("los", "line of sight between two locations, with DRM and reasons", "hexwx.cli.hex"),
    Command("los-table", "LOS between every ordered pair of hexes, as CSV", "hexwx.cli.hex"),
    Command("import-vasl", "write a hexwx map file from a VASL board archive", "hexwx.cli.hex"),
    Command("los-batch", "LOS of every pair listed in a CSV, at any levels", "hexwx.cli.losbatch"),
    Command("path", "cheapest path for a unit class under weather, with the cost of each step",
            "hexwx.cli.move"),
    Command("reach", "every hex a unit class can reach with N MF/MP under weather",
            "hexwx.cli.move"),
    Command("weather", "ASL E3 weather: DYO roll, turn-by-turn run, effects", "hexwx.cli.weather"),
    Command("minis", "miniatures weather (AGV, Mini-Nap 2, Wesencraft, Huzzah!) and random terrain",
            "hexwx.cli.minis"),
    Command("table", "sight, range and movement on a miniatures tabletop scenario",
            "hexwx.cli.table"),
    Command("render", "draw a map, scenario or table with overlays to a PNG", "hexwx.cli.render"),
    Command("import-vsav", "write a hex scenario from a VASL save (.vsav)", "hexwx.cli.saves"),
    Command("sight", "who sees whom: LOS between the units of opposing sides", "hexwx.cli.saves"),
    Command("exposure", "for every hex, how many hexes (or enemy hexes) see it, under weather",
            "hexwx.cli.exposure"),
    Command("batch", "LOS tables for many maps x levels x weather states (local pool or Dask)",
            "hexwx.cli.batch"),
    Command("serve", "the map in a local web page (click two hexes for their LOS) and a JSON API",
            "hexwx.cli.serve"),
)

#: Command modules in ``--help`` order (each once).
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(c.module for c in COMMANDS))


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: ``hexwx los: error: ...`` and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every argument it adds; given the width, the formatter
        # does not import shutil (and with it bz2 and lzma) into every start-up
        return self.formatter_class(prog=self.prog, width=help_width())  # type: ignore[call-arg]


def help_width() -> int:
    """The width argparse gives its help: ``shutil.get_terminal_size().columns - 2``, found the
    same way ($COLUMNS, else the terminal of stdout, else 80) without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns - 2


class _Ignored:
    """Stands for a parser that is not built: every call is accepted and ignored."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> "_Ignored":
        return self


class _Registrar:
    """The subparsers action as a command module's ``register`` sees it: each command's help
    line comes from :data:`COMMANDS` (written once, there), and when only ``command`` runs,
    the module's other commands are not built (a start-up does not need them)."""

    def __init__(self, action: Any, command: str | None) -> None:
        self._action, self._command = action, command

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self._command is not None and name != self._command:
            return _Ignored()
        return self._action.add_parser(name, help=_HELP[name], **kwargs)


_HELP = {c.name: c.help for c in COMMANDS}


def build_parser(load: Sequence[str] | None = None, command: str | None = None) -> argparse.ArgumentParser:
    """The ``hexwx`` parser.  The modules in ``load`` (default: every command module) add their
    real subcommands; every other command is a bare entry with its name and help line, so the
    top-level help and errors are the same whichever modules were imported.  With ``command``
    (a valid command name: main() runs it), only that command is built: the others are left
    out, since the top-level help and choices cannot show once the command is known."""
    wanted = COMMAND_MODULES if load is None else tuple(load)
    parser = _Parser(
        prog="hexwx",
        description="Line of sight, hindrances and movement under weather, "
        "for ASL-style hex maps and miniatures tabletops.",
    )
    parser.add_argument("--version", action="version", version=f"hexwx {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    done: set[str] = set()
    for cmd in COMMANDS:
        if command is not None and cmd.module not in wanted:
            continue
        if cmd.module not in wanted:
            subparsers.add_parser(cmd.name, help=cmd.help)
        elif cmd.module not in done:
            done.add(cmd.module)
            importlib.import_module(cmd.module).register(_Registrar(subparsers, command))
    return parser


def _flags_of(parser: argparse.ArgumentParser, command: str) -> dict[str, str]:
    """:func:`command_flags` of ``command``'s parser in ``parser``."""
    for act in parser._actions:
        if isinstance(act, argparse._SubParsersAction) and command in act.choices:
            return command_flags(act.choices[command])
    return {}


def _command_of(argv: Sequence[str]) -> Command | None:
    """The command ``argv`` names (its first word that is not an option)."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return next((c for c in COMMANDS if c.name == first), None)


#: Environment variables that set OpenBLAS's thread count (it reads them in this order).
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _one_blas_thread() -> None:
    """No command does linear algebra, but importing numpy starts OpenBLAS's pool of one thread
    per CPU, which costs start-up time when other jobs share the cores (about 50 ms of a 140 ms
    ``import numpy`` on this project's busy 2-core machine): ask for one thread, unless the
    user chose a number.  Takes effect only before numpy is imported (as in a command run from
    the shell); the LOS kernel's own threads are not BLAS's."""
    if not any(os.environ.get(v) for v in BLAS_THREAD_VARS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0 ok, 1 bad data, 2 usage).

    Whatever the input, the user sees one line on stderr, never a traceback: HexwxError and
    OSError are reported as errors; running out of memory or recursion depth, and any other
    exception (a bug), as one line that says so (``HEXWX_DEBUG=1`` shows the traceback).
    """
    _tolerant_streams()
    _one_blas_thread()
    argv = list(sys.argv[1:] if argv is None else argv)
    cmd = _command_of(argv)
    parser = build_parser(() if cmd is None else (cmd.module,), None if cmd is None else cmd.name)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    name = f"hexwx {args.command}"
    from hexwx.limits import track_inputs
    track_inputs()      # every file the command reads is an input -o refuses (hexwx.outputs)
    try:
        return _run_interruptible(args.func, args)
    except HexwxError as exc:
        _say(f"{name}: error: {flag_message(str(exc), exc.param, _flags_of(parser, args.command))}")
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except Terminated as exc:
        import signal
        _say(f"hexwx: stopped by {signal.Signals(exc.signum).name}")
        return 128 + exc.signum
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


def _raise_terminated(signum: int, _frame: object) -> None:
    note_stop(signum)
    raise Terminated(signum)


def _quiet_stops(hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``hook`` for every unraisable exception but a stop signal's (a finalizer ran when the
    signal landed): that one is noted and acted on (:func:`hexwx.outputs.raise_if_stopped`),
    not printed as "Exception ignored" -- the command still says one line."""
    def quiet(info: Any) -> None:
        if not isinstance(info.exc_value, KeyboardInterrupt):
            hook(info)
    return quiet


def _raise_interrupt(signum: int, _frame: object) -> None:
    note_stop(signum)
    raise KeyboardInterrupt


def _run_interruptible(func: Callable[[Any], Any], args: Any) -> int:
    """``func(args)`` with SIGTERM and SIGHUP (what ``kill``, systemd and job schedulers send)
    raising :class:`Terminated`, unless they were ignored when hexwx started (``nohup``) or
    this is not the main thread, and Ctrl-C raising KeyboardInterrupt; each noted
    (:func:`hexwx.outputs.note_stop`), so that a signal whose exception a finalizer swallowed
    still stops the command before it commits an output or ends; the old handlers come back
    afterwards."""
    import signal
    import threading
    old: dict[int, Any] = {}
    clear_stops()
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
                old[signum] = signal.signal(signum, _raise_terminated)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            old[signal.SIGINT] = signal.signal(signal.SIGINT, _raise_interrupt)
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_stops(unraisable)
    try:
        code = int(func(args) or 0)
        raise_if_stopped()
        return code
    finally:
        sys.unraisablehook = unraisable
        for signum, handler in old.items():
            signal.signal(signum, handler)
        from hexwx.outputs import remove_live_temporaries
        remove_live_temporaries()   # a signal between a temp file's creation and its try block


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
