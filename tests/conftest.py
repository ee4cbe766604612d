"""Shared test set-up: the tests folder's helper modules are importable from every sub-folder,
and the on-disk map cache (hexwx.io.mapcache) is a fresh folder of this test session, removed at
the end: the suite never reads or writes the user's own cache (``~/.cache/hexwx``), and it works
the same from a fresh clone.  Subprocesses started by the tests inherit it."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

#: The session's cache folder (set before any test module loads a map).
CACHE_DIR = tempfile.mkdtemp(prefix="hexwx-test-cache-")
os.environ["HEXWX_CACHE_DIR"] = CACHE_DIR


def pytest_unconfigure(config: object) -> None:
    shutil.rmtree(CACHE_DIR, ignore_errors=True)
