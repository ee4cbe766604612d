"""The package's architecture, checked on the source (AST): layers, cycles, tests of every module.

Layers, lowest first (docs/architecture.md): a module imports only modules of its own or a
lower layer.  The one exception: a notebook display method (``_repr_png_``, ``_repr_svg_``) may
import the renderer.  Imports under
``if TYPE_CHECKING:`` are for type checkers only and do not count.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "hexwx"
TESTS = ROOT / "tests"

#: Layer of each top-level part of the package (docs/architecture.md, PROTOCOL/DESIGN order).
LAYERS: dict[str, int] = {
    "hexwx": 0, "errors": 0, "dice": 0, "_native": 0, "_loskernel": 0, "validate": 0, "units": 0,
    "outputs": 0, "limits": 0, "frozen": 0, "_cache": 0, "_kernel_bounds": 0,
    "hexmap": 1,
    "weather": 2,
    "tabletop": 3,
    "lineofsight": 4,
    "movement": 5,
    "io": 6,
    "render": 7,
    "cli": 8, "serve": 8, "__main__": 8,
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    parts = module.split(".")
    key = parts[1] if len(parts) > 1 else "hexwx"
    if key not in LAYERS:
        raise AssertionError(f"{module}: not in any layer; add its part to LAYERS and "
                             "docs/architecture.md")
    return LAYERS[key]


def _resolve(target: str, name: str | None) -> str | None:
    """The hexwx module an import names (``from A import B``: A.B when that is a module)."""
    if not (target == "hexwx" or target.startswith("hexwx.")):
        return None
    if name is not None and f"{target}.{name}" in MODULES:
        return f"{target}.{name}"
    return target if target in MODULES else None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path) -> list[tuple[str, int, bool, bool]]:
    """(imported hexwx module, line, at module level, inside a ``_repr_png_``) of every runtime
    import in ``path``."""
    out: list[tuple[str, int, bool, bool]] = []

    def visit(node: ast.AST, top: bool, png: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    visit(sub, top, png)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, False, png or (child.name.startswith("_repr_") and child.name.endswith("_")))
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    mod = _resolve(alias.name, None)
                    if mod:
                        out.append((mod, child.lineno, top, png))
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    mod = _resolve(child.module, alias.name)
                    if mod:
                        out.append((mod, child.lineno, top, png))
            visit(child, top and not isinstance(child, ast.ClassDef) or top, png)

    visit(ast.parse(path.read_text(encoding="utf-8")), True, False)
    return out


def test_every_module_is_in_a_layer() -> None:
    for name in MODULES:
        layer_of(name)


def test_no_module_imports_a_higher_layer() -> None:
    bad = []
    for name, path in MODULES.items():
        if name == "hexwx":
            continue  # the public API: lazy imports by name (PEP 562), checked below
        mine = layer_of(name)
        for target, line, _top, png in imports_of(path):
            if png and target.startswith("hexwx.render"):
                continue  # a _repr_png_ / _repr_svg_ may draw itself
            if layer_of(target) > mine:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {name} (layer {mine}) imports "
                           f"{target} (layer {layer_of(target)})")
    assert not bad, "\n".join(bad)


def test_no_import_cycles() -> None:
    """No cycle among the imports a module makes when it is imported (module level): such a
    cycle makes ``import X`` fail or depend on what was imported first.  Imports inside
    functions run later, when every module is loaded (e.g. a scenario loads its map lazily)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for target, _line, top, _png in imports_of(path):
            if target != name and top:
                graph[name].add(target)
    # a package's __init__ re-exporting its own submodules is not a cycle with them
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = dfs(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = dfs(node)
            assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_public_api_imports_only_the_errors_eagerly() -> None:
    top = [t for t, _line, top, _png in imports_of(PACKAGE / "__init__.py") if top]
    assert set(top) <= {"hexwx.errors"}


def _tested_modules() -> set[str]:
    seen: set[str] = set()
    for path in TESTS.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    seen.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                parts = node.module.split(".")
                seen.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
                seen.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in (
                    "run_module", "import_module"):
                seen.update(a.value for a in node.args
                            if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return seen


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_is_imported_by_a_test(module: str) -> None:
    assert module in _TESTED, f"no test imports {module}"


_TESTED = _tested_modules()
