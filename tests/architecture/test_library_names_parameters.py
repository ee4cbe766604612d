"""The library's errors name parameters (``vasl_metadata``), never command-line flags (#22).

A flag (``--vasl-metadata``) is the command line's word: :func:`hexwx.cli.app.flag_message`
maps the parameter an error names to its flag in one place (``FLAGS``), so the CLI still says
``--vasl-metadata`` while a Python caller reads the keyword it can pass.  Only ``hexwx.cli`` and
``hexwx.front`` (the options the CLI and the viewer share) speak in flags.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from hexwx.cli.app import flag_message

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
    assert not hits, "library errors naming flags (name the parameter; cli.app.FLAGS maps it):\n" \
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
