"""What a piece of hexwx code imports, measured in a fresh interpreter.

The interpreter starts with ``-S``: the machine's ``.pth`` files (a certificate hook that imports
certifi, and with it shutil and tempfile, say) would otherwise load modules before any of ours and
make a test of our imports pass or fail by the machine. The project and the site-packages folders
are put on ``PYTHONPATH`` instead, so the same numpy and Pillow are found.
"""
from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path
from typing import Mapping

ROOT = Path(__file__).resolve().parents[1]


def _search_path() -> str:
    folders = [str(ROOT), *site.getsitepackages(), site.getusersitepackages()]
    return os.pathsep.join(f for f in folders if os.path.isdir(f))


def modules_loaded_by(code: str, env: Mapping[str, str] | None = None) -> set[str]:
    """Run ``code`` (it may end in SystemExit) and name every module then loaded that was not
    loaded when the interpreter started. ``env`` adds to this process's environment."""
    marker = "--- modules ---"
    script = ("import sys\n_before = set(sys.modules)\ntry:\n"
              + "".join(f"    {line}\n" for line in code.splitlines())
              + "except SystemExit:\n    pass\n"
              f"print({marker!r})\nprint('\\n'.join(sorted(set(sys.modules) - _before)))\n")
    full_env = {**os.environ, **(env or {}), "PYTHONPATH": _search_path()}
    out = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True,
                         env=full_env, check=True).stdout
    return set(out.split(marker, 1)[1].split())
