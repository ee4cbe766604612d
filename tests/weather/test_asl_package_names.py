"""The weather.asl package resolves each public name the same way whatever was imported first."""
import importlib
import subprocess
import sys


def test_effects_is_always_the_module():
    # in a fresh interpreter, in both import orders: the package attribute is the submodule
    for first in ("import hexwx.weather.asl.effects", "from hexwx.weather.asl import Effect"):
        code = (f"{first}\nimport types, hexwx.weather.asl as p\n"
                "assert isinstance(p.effects, types.ModuleType), p.effects\n"
                "assert callable(p.effects.effects)")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


def test_lazy_names_resolve():
    pkg = importlib.import_module("hexwx.weather.asl")
    for name in pkg.__all__:     # each name is its submodule's own object
        home = importlib.import_module(f"hexwx.weather.asl.{pkg._EXPORTS[name]}")
        assert getattr(pkg, name) is getattr(home, name), name
