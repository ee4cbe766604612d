"""hexwx installs like numpy does: from a wheel, with no compiler (issue #21 item 4).

``python -m build`` makes an sdist and one stable-ABI wheel (``cp311-abi3``) holding the
compiled kernel, the viewer's static files and ``py.typed``; the wheel installs into a fresh
virtual environment whose PATH holds no C compiler, and the README's first command and
``hexwx serve --help`` run from there.  Slow (a build and an install from the package index):
``python -m pytest -m slow tests/test_wheel.py``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

#: Executables of C compilers that must not be reachable from the venv's PATH.
COMPILERS = ("cc", "gcc", "clang", "cl", "x86_64-linux-gnu-gcc")


def _run(cmd: list, **kw) -> subprocess.CompletedProcess[str]:
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=900, **kw)
    assert r.returncode == 0, f"{cmd} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="the wheel test needs `build` (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", out, ROOT])
    return out


def test_build_gives_an_sdist_and_one_abi3_wheel_with_the_package_data(dist: Path) -> None:
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in dist.iterdir())
    assert "-cp311-abi3-" in wheels[0].name, wheels[0].name
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    assert "hexwx/py.typed" in names
    static = {f"hexwx/serve/static/{p.name}" for p in (ROOT / "hexwx" / "serve" / "static").iterdir()
              if p.is_file()}
    assert static and static <= names, static - names
    kernels = [n for n in names if n.startswith("hexwx/_loskernel.") and not n.endswith(".c")]
    assert len(kernels) == 1 and (".abi3." in kernels[0] or kernels[0].endswith(".pyd")), kernels
    # a portable kernel: no threads library behind it (hexwx._native shares out the blocks)
    assert b"pthread_create" not in zipfile.ZipFile(wheels[0]).read(kernels[0])


def test_the_wheel_installs_and_runs_with_no_compiler_on_path(dist: Path, tmp_path: Path) -> None:
    wheel = next(dist.glob("*.whl"))
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", venv])
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    empty = tmp_path / "no-compiler"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PATH", "PYTHONPATH", "PYTHONHOME", "HEXWX_VASL_DIR", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join([str(bindir), str(empty)])
    env["HEXWX_CACHE_DIR"] = str(tmp_path / "cache")
    for exe in COMPILERS:
        assert shutil.which(exe, path=env["PATH"]) is None, f"{exe} is reachable"
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    # wheels only: nothing may be built here
    _run([python, "-m", "pip", "install", "-q", "--only-binary", ":all:", wheel], env=env, cwd=tmp_path)
    where = _run([python, "-c", "import hexwx._native as K; print(K.clib()._name)"], env=env,
                 cwd=tmp_path).stdout.strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), where
    hexwx = bindir / ("hexwx.exe" if os.name == "nt" else "hexwx")
    # the README's first command (after its install), from the clone's folder
    got = _run([hexwx, "los", "maps/hill_village.toml", "A7", "N7", "--json"], env=env, cwd=ROOT).stdout
    source_env = dict(os.environ, PYTHONPATH=str(ROOT), HEXWX_CACHE_DIR=str(tmp_path / "cache2"))
    want = _run([sys.executable, "-m", "hexwx", "los", "maps/hill_village.toml", "A7", "N7", "--json"],
                env=source_env, cwd=ROOT).stdout
    assert got == want and "blocked" in json.loads(got), got
    usage = _run([hexwx, "serve", "--help"], env=env, cwd=tmp_path).stdout
    assert usage.startswith("usage: hexwx serve"), usage[:200]
