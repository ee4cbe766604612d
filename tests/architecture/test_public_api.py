"""The public API: ``import hexwx`` gives every name of ``__all__``; the README's Python runs."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from import_helpers import modules_loaded_by

import hexwx

ROOT = Path(__file__).resolve().parents[2]


def test_every_name_of_all_is_there() -> None:
    for name in hexwx.__all__:
        assert getattr(hexwx, name) is not None, name
    assert set(hexwx.__all__) <= set(dir(hexwx))
    for name in ("load_map", "load_scenario", "load_table_scenario", "los", "viewshed",
                 "los_table", "path", "reach", "AslWeather", "roll_weather", "Dice",
                 "LosResult", "Viewshed", "LosTable", "MovePath", "Reach", "HexwxError"):
        assert name in hexwx.__all__, name


def test_los_stays_the_function_whatever_is_imported() -> None:
    code = ("import hexwx, hexwx.lineofsight, hexwx.lineofsight.engine, hexwx.movement.paths\n"
            "import types\n"
            "assert callable(hexwx.los) and not isinstance(hexwx.los, types.ModuleType)\n"
            "assert hexwx.los is hexwx.lineofsight.engine.los\n"
            "assert callable(hexwx.path) and hexwx.path is hexwx.movement.paths.path\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_import_hexwx_is_cheap() -> None:
    loaded = modules_loaded_by("import hexwx")
    assert "hexwx" in loaded and "numpy" not in loaded


def _python_blocks(doc: str) -> list[str]:
    text = (ROOT / doc).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def _readme_blocks() -> list[str]:
    return _python_blocks("README.md")


def test_the_readme_has_python_examples_with_hexwx_names_only() -> None:
    blocks = _readme_blocks()
    assert blocks
    for block in blocks:
        imports = re.findall(r"^\s*(?:from|import)\s+(\S+)", block, flags=re.M)
        assert set(imports) <= {"hexwx"}, imports


@pytest.mark.parametrize("index", range(len(_readme_blocks())))
def test_the_readme_python_runs(index: int, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(_readme_blocks()[index], f"README.md python block {index + 1}", "exec"), {})
    assert capsys.readouterr().out.strip()  # the examples print their answers


def test_the_api_guide_runs_top_to_bottom(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/api.md is one session (load, query, explain, draw, errors): its blocks run in order
    in one namespace, each prints what it shows, and their asserts hold."""
    monkeypatch.chdir(ROOT)
    blocks = _python_blocks("docs/api.md")
    assert len(blocks) >= 8
    names: dict[str, object] = {}
    for i, block in enumerate(blocks):
        imports = re.findall(r"^\s*(?:from|import)\s+(\S+)", block, flags=re.M)
        assert all(x == "hexwx" or x.startswith("hexwx.") for x in imports), imports
        exec(compile(block, f"docs/api.md python block {i + 1}", "exec"), names)
        assert capsys.readouterr().out.strip() or "assert" in block, f"block {i + 1} shows nothing"


def test_the_api_guide_names_every_public_function() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name in ("load_map", "load_scenario", "load_table_scenario", "los", "viewshed",
                 "los_table", "path", "reach", "AslWeather", "HexwxError", "UsageError"):
        assert f"hexwx.{name}" in text, name
