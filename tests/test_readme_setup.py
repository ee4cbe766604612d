"""The README's set-up promise (issue #21): its test command passes as written, with and
without VASL's reference data, and tests that need the data skip with a message naming
``HEXWX_VASL_DIR``.

CI (``.ci/run``) runs the test command with the data; these tests make sure that the path a
new user takes -- no data at all -- cannot silently break again.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"
VASL_ENV = ("HEXWX_VASL_DIR", "HEXWX_VASL_METADATA")

#: Skip reasons that have nothing to do with VASL's data (the browser tests need Chromium).
OTHER_SKIPS = ("chromium is not installed",)


def setup_commands() -> list[str]:
    """The indented command lines of the README's set-up section, in order."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Set-up.*?$(.*?)^## ", text, re.S | re.M)
    assert section, "README.md has no '## Set-up' section"
    return [line.strip() for line in section.group(1).splitlines()
            if line.startswith("    ") and "pip install" in line]


def test_readme_has_the_two_setup_commands():
    commands = setup_commands()
    assert len(commands) == 2, commands
    main_job, tests = commands
    assert "hexwx " in main_job and "maps/" in main_job
    assert "pytest" in tests and "mypy" in tests


def test_ci_runs_the_readme_test_command_and_a_pass_without_vasl_data():
    script = CI_RUN.read_text(encoding="utf-8")
    lines = [ln.strip() for ln in script.splitlines() if not ln.lstrip().startswith("#")]
    assert setup_commands()[1] in lines, "CI must run the README's test command as written"
    unset = [ln for ln in lines if "pytest" in ln and all(f"-u {v}" in ln for v in VASL_ENV)]
    assert unset, ".ci/run must also run the suite with HEXWX_VASL_DIR and HEXWX_VASL_METADATA unset"


def vasl_test_modules() -> list[str]:
    """Every test module that reads VASL's data (directly or through a helper)."""
    here = Path(__file__).resolve()
    found = []
    for f in sorted((ROOT / "tests").rglob("test_*.py")):
        if f.resolve() != here and re.search(r"vasl", f.read_text(encoding="utf-8"), re.I):
            found.append(str(f.relative_to(ROOT)))
    return found


def test_tests_that_read_vasl_data_skip_without_it():
    """Those modules, run as the README runs them but with no VASL data: no failure, no error,
    and every skip names the variable to set (or a reason that has nothing to do with VASL)."""
    modules = vasl_test_modules()
    assert len(modules) >= 10, modules
    env = {k: v for k, v in os.environ.items() if k not in VASL_ENV}
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                        *modules], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=900, stdin=subprocess.DEVNULL)
    tail = p.stdout[-3000:]
    assert p.returncode == 0, tail
    assert re.search(r"\d+ passed", tail) and "failed" not in tail and " error" not in tail, tail
    skips = [ln for ln in p.stdout.splitlines() if ln.startswith("SKIPPED")]
    assert skips, "without VASL's data some tests must skip"
    silent = [ln for ln in skips
              if "HEXWX_VASL_DIR" not in ln and not any(o in ln for o in OTHER_SKIPS)]
    assert not silent, "skips that do not say which variable to set:\n" + "\n".join(silent)
