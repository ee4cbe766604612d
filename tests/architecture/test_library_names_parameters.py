"""The library's errors name parameters (``vasl_metadata``), never command-line flags (#22).

A flag (``--vasl-metadata``) is the command line's word: :func:`hexwx.cli.app.flag_message`
maps the parameter an error names to its command's flag (``command_flags``: from the parser,
with the few special cases in ``PARAM_ALIASES``), so the CLI still says
``--vasl-metadata`` while a Python caller reads the keyword it can pass.  Only ``hexwx.cli`` and
``hexwx.front`` (the options the CLI and the viewer share) speak in flags.
"""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

from hexwx.cli.app import (COMMANDS, NOT_FLAGS, PARAM_ALIASES, WEATHER_DEST_PREFIX, actions_of,
                           build_parser, command_flags, flag_message, positional_words)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "hexwx"
FLAG_ROOMS = ("cli", "front")
FLAG = re.compile(r"(?<![\w-])--[a-z]")


def flags_in_raises(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string in a ``raise`` statement's exception that writes a flag."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            for part in ast.walk(node.exc):
                if isinstance(part, ast.Constant) and isinstance(part.value, str) \
                        and FLAG.search(part.value):
                    found.append((node.lineno, part.value))
    return found


def test_no_library_error_names_a_command_line_flag() -> None:
    hits = [f"{p.relative_to(ROOT)}:{line}: {text!r}"
            for p in sorted(PACKAGE.rglob("*.py"))
            if p.relative_to(PACKAGE).parts[0] not in FLAG_ROOMS
            for line, text in flags_in_raises(p.read_text(encoding="utf-8"))]
    assert not hits, "library errors naming flags (name the parameter; cli.app.command_flags maps it):\n" \
        + "\n".join(hits)


def test_the_scan_sees_a_flag_in_an_error() -> None:
    source = ('raise UsageError(f"give --vasl-metadata FILE or set {ENV}")\n'
              'raise UsageError("bad level -1; expected 0..3")\n'
              'raise DataError(f"{x}: give vasl_dir DIR", param="vasl_dir")\n')
    assert flags_in_raises(source) == [(1, "give --vasl-metadata FILE or set ")]


def test_the_cli_names_the_flags_of_the_parameters_a_message_names() -> None:
    assert flag_message("give vasl_metadata FILE or set X", "vasl_metadata") \
        == "give --vasl-metadata FILE or set X"
    assert flag_message("background='board' needs an image (use background='terrain')",
                        "background") == "--background board needs an image (use --background terrain)"
    assert flag_message("x: give ignore_board_extras=True to use the whole boards", None) \
        == "x: give --ignore-board-extras to use the whole boards"
    assert flag_message("address='tcp://h:8786': cannot reach the scheduler", "address") \
        == "--dask tcp://h:8786: cannot reach the scheduler"
    assert flag_message("no_counters answers as the bare map: leave out counters", "counters") \
        == "--no-counters answers as the bare map: leave out --counter"


# -- the flags come from the parsers ---------------------------------------------------------

#: validate.py's checks and the argument that names the parameter (0-based).
VALIDATORS = {"bad": 0, "renamed": 2, "whole": 1, "number": 1, "one_of": 2, "check_type": 2,
              "check_flag": 1, "check_text": 1, "check_texts": 1, "_missing": 0,
              "check_path": 1, "optional_path": 1, "optional_dir": 1, "source_text": 1}


def library_params() -> set[str]:
    """Every parameter name the library's errors carry as a literal: ``param="..."`` and the
    parameter argument of :mod:`hexwx.validate`'s checks (outside ``cli`` and ``front``)."""
    found: set[str] = set()
    for p in PACKAGE.rglob("*.py"):
        if p.relative_to(PACKAGE).parts[0] in FLAG_ROOMS:
            continue
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            values = [kw.value for kw in node.keywords if kw.arg == "param"]
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in VALIDATORS and len(node.args) > VALIDATORS[name]:
                values.append(node.args[VALIDATORS[name]])
            found.update(v.value for v in values
                         if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return found


def command_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Each command's own parser, built as ``main`` builds it for that command."""
    out = []
    for cmd in COMMANDS:
        top = build_parser((cmd.module,), cmd.name)
        [sub] = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
        out.append((cmd.name, sub.choices[cmd.name]))
    return out


def words_of(parser: argparse.ArgumentParser) -> tuple[set[str], dict[str, set[str]]]:
    """Every option string and positional metavar of ``parser`` and its subcommands, and each
    option dest's option strings."""
    words: set[str] = set()
    dests: dict[str, set[str]] = {}
    for act in actions_of(parser):
        if act.option_strings:
            words.update(act.option_strings)
            dests.setdefault(act.dest, set()).update(act.option_strings)
        else:
            words.update(positional_words(act))
    return words, dests


def test_every_parameter_a_library_error_names_maps_to_a_real_flag_of_the_command() -> None:
    params = library_params()
    assert {"vasl_metadata", "background", "address", "start", "goal", "fog_level"} <= params
    resolved: dict[str, set[str]] = {}
    for name, parser in command_parsers():
        flags = command_flags(parser)
        words, dests = words_of(parser)
        for param in params & set(flags):
            assert flags[param] in words, f"hexwx {name}: {param} -> {flags[param]}"
            resolved.setdefault(param, set()).add(name)
        # a parameter named as an option's dest (weather: without wx_) is that option
        for dest, options in dests.items():
            param = dest.removeprefix(WEATHER_DEST_PREFIX)
            if param in params and param not in NOT_FLAGS and param not in PARAM_ALIASES:
                assert flags[param] in options, f"hexwx {name}: {param} -> {flags[param]}"
        for param in params & NOT_FLAGS:
            assert param not in flags
    # every special case is one: a parameter the library names, given a flag by some command
    for param in PARAM_ALIASES:
        assert any(param in command_flags(p) for _n, p in command_parsers()), param
    assert {"fog_level", "counters", "address", "start", "goal", "viewer", "target",
            "vasl_metadata", "vasl_dir", "ignore_board_extras", "background"} <= set(resolved)
    assert resolved["address"] == {"batch"} and "render" in resolved["background"]


def test_each_command_names_its_own_flag() -> None:
    # render's --from is the viewshed's hex, exposure's --from its observers; render's --path
    # is an overlay, not the file a loader reads
    flags = dict(command_parsers())
    assert command_flags(flags["render"])["viewshed_from"] == "--from"
    assert command_flags(flags["exposure"])["observers"] == "--from"
    assert "observers" not in command_flags(flags["render"])
    assert "path" not in command_flags(flags["render"])
    assert command_flags(flags["path"])["goal"] == "TO"
    assert command_flags(flags["los"])["fog_level"] == "--fog"
    assert command_flags(flags["batch"])["address"] == "--dask"
    assert flag_message("path 'x.toml': no such file", "path", command_flags(flags["render"])) \
        == "path 'x.toml': no such file"
