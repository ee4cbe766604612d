"""A script of ``tools/`` loaded as a module, so that a test checks the very scoring (or counter
mix) the script's report prints."""
from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[1] / "tools"


@lru_cache(maxsize=None)
def load_tool(name: str) -> ModuleType:
    """``tools/NAME.py`` as module ``NAME`` (registered in ``sys.modules``: its dataclasses
    look their module up), loaded once."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
