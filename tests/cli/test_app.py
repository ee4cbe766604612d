"""The command table of hexwx.cli.app: what --help shows without importing the command modules."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest
from import_helpers import modules_loaded_by

from hexwx.cli import (app, batch, exposure, hex as hex_commands, losbatch, minis, move, render,
                       saves, serve, table, weather)

_ALL = {m.__name__: m for m in (hex_commands, losbatch, move, weather, minis, table, render, saves,
                                 exposure, serve, batch)}
MODULES = tuple(_ALL[name] for name in app.COMMAND_MODULES)


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(a.dest, a.help) for a in sub._choices_actions]


def test_the_static_table_matches_what_the_modules_register() -> None:
    real = _commands(app.build_parser())  # every module registers its commands
    assert real == [(c.name, c.help) for c in app.COMMANDS]
    assert _commands(app.build_parser(())) == real


def test_each_command_parses_with_only_its_own_module_loaded() -> None:
    for cmd in app.COMMANDS:
        parser = app.build_parser((cmd.module,))
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        assert sub.choices[cmd.name].get_default("func") is not None, cmd.name


def test_each_command_parses_with_only_itself_built() -> None:
    """What main() builds for a command: that command alone, as with its whole module built."""
    for cmd in app.COMMANDS:
        parser = app.build_parser((cmd.module,), cmd.name)
        assert _commands(parser) == [(cmd.name, cmd.help)]
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        assert sub.choices[cmd.name].get_default("func") is not None, cmd.name
        full = next(a for a in app.build_parser((cmd.module,))._actions
                    if isinstance(a, argparse._SubParsersAction)).choices[cmd.name]
        assert sub.choices[cmd.name].format_help() == full.format_help()


def _imported_by(args: list[str]) -> set[str]:
    return modules_loaded_by(f"from hexwx.cli import main\nmain({args!r})")


def test_help_imports_no_numpy_and_no_command_module() -> None:
    mods = _imported_by(["--help"])
    assert "numpy" not in mods
    assert not any(m.startswith("hexwx.cli.") and m != "hexwx.cli.app" for m in mods)


@pytest.mark.skipif(not os.environ.get("HEXWX_VASL_DIR"), reason="HEXWX_VASL_DIR is not set: needs board bd02")
def test_los_on_a_vasl_board_imports_no_networkx_shapely_or_pillow() -> None:
    mods = _imported_by(["los", "bd02", "I4", "P6"])
    assert "hexwx.lineofsight.engine" in mods
    assert not {"networkx", "shapely", "PIL"} & mods


def test_each_module_registers_exactly_its_rows_of_the_table() -> None:
    assert set(_ALL) == set(app.COMMAND_MODULES)  # a new command module is tested here too
    for module in MODULES:
        parser = argparse.ArgumentParser()
        module.register(app._Registrar(parser.add_subparsers(), None))   # help: the table's
        assert _commands(parser) == [(c.name, c.help) for c in app.COMMANDS
                                     if c.module == module.__name__]


@pytest.mark.parametrize("columns", [None, "100", "7", "junk"])
def test_help_is_as_wide_as_argparse_makes_it(columns: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parsers give argparse its width (so that it need not import shutil): the same width."""
    import shutil
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert app.help_width() == shutil.get_terminal_size().columns - 2
    parser = app.build_parser(("hexwx.cli.hex",), "los")
    los = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["los"]
    plain = argparse.ArgumentParser(prog=los.prog, description=los.description, epilog=los.epilog,
                                    formatter_class=los.formatter_class)
    plain._actions, plain._action_groups = los._actions, los._action_groups
    plain._mutually_exclusive_groups = los._mutually_exclusive_groups
    assert los.format_help() == plain.format_help()


def test_help_imports_no_shutil() -> None:
    assert "shutil" not in _imported_by(["los", "--help"])


def test_commands_ask_for_one_blas_thread_unless_the_user_chose_a_number(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for var in app.BLAS_THREAD_VARS:
        monkeypatch.setenv(var, "")               # unset (restored after the test)
    assert app.main(["--version"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "")
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert app.main(["--version"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == ""  # the user's OMP_NUM_THREADS rules
