"""No module of the package imports another module's private (``_name``) names (issue #22).

What two modules share is public in the module that defines it; a private module (``_native``,
the compiled ``_loskernel``) may be imported whole, but nothing named ``_x`` is taken out of
another module.  Dunder names (``__version__``) and ``from __future__`` are not private names.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "hexwx"


def _resolve(module: str | None, level: int, path: Path) -> str:
    """The absolute dotted name a (possibly relative) ``from`` import refers to."""
    if level == 0:
        return module or ""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    base = parts[:-level]      # (a package's __init__ counts as one part, like a module)
    return ".".join(base + ([module] if module else []))


def _is_module(dotted: str) -> bool:
    """True if ``dotted`` names a module or package of the source tree (or a compiled one)."""
    where = ROOT.joinpath(*dotted.split("."))
    return (where.with_suffix(".py").exists() or where.is_dir()
            or any(where.parent.glob(where.name + ".*.so")) or where.with_suffix(".so").exists())


def private_imports(source: str, path: Path) -> list[str]:
    """Each ``from M import _name`` in ``source`` (the text of ``path``) where M is the package's
    and ``_name`` is not a module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = _resolve(node.module, node.level, path)
        if module != "hexwx" and not module.startswith("hexwx."):
            continue
        for alias in node.names:
            name = alias.name
            if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
                continue
            if _is_module(f"{module}.{name}"):
                continue
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {module} import {name}")
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    found = [hit for p in sorted(PACKAGE.rglob("*.py"))
             for hit in private_imports(p.read_text(encoding="utf-8"), p)]
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_the_check_sees_a_private_import() -> None:
    where = PACKAGE / "render" / "svg.py"
    text = ("from __future__ import annotations\n"
            "from hexwx.render.hexmap import MapOptions, _secret\n"
            "from hexwx import _native, __version__\n"
            "from .hexmap import _relative\n"
            "from os import _exit\n")
    assert private_imports(text, where) == [
        "hexwx/render/svg.py:2: from hexwx.render.hexmap import _secret",
        "hexwx/render/svg.py:4: from hexwx.render.hexmap import _relative"]
