"""Conformance with counters on the map: VASL's own answers for the counter sets of
$HEXWX_VASL_DIR/counters (tools/counter_conformance.py scores them; the report is
``tools/vasl_conformance.py --counters``).

Scored where hexwx and VASL agree without the counters.  Differences are allowed only under a
named cause (docs/vasl-conformance.md): where VASL is not the rule, hexwx follows the rule.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tool_helpers import load_tool
from vasl_boards import vasl_dir


def tool() -> ModuleType:
    """tools/counter_conformance.py: the scoring its report prints."""
    return load_tool("counter_conformance")


def _sets() -> list[str]:
    import os
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "counters").is_dir():
        return ["bd02__set1"]
    return tool().counter_sets(Path(env))


@pytest.mark.parametrize("stem", _sets())
def test_counter_set_agrees_where_vasl_follows_the_rules(stem: str) -> None:
    d = vasl_dir()
    if not (d / "counters" / f"{stem}.counters.csv").is_file():
        pytest.skip(f"{stem} is not in {d / 'counters'}")
    r = tool().compare_set(d, stem)
    assert r["scored"] >= 0.9 * r["pairs"]
    assert r["agree_blocked"] >= 0.99 * r["scored"]
    assert r["rule_same"] >= 0.995 * r["rule_rows"]
    assert "other" not in r["causes"], r["examples"].get("other")


def test_set_nine_reads_module_names_as_the_rules_do() -> None:
    """Set 9's pieces carry module names VASL reads as vehicles: hexwx reads "Red FFE:1" as an
    FFE, "+3 Smoke" and "White +3 Smoke (A)" as SMOKE, "PzKpfw IVH Wreck" as a wreck."""
    d = vasl_dir()
    p = d / "counters" / "bd02__set9.counters.csv"
    if not p.is_file():
        pytest.skip(f"{p} is missing")
    counters, _ = tool().set_counters(tool().read_set(p))
    kinds = {c.name: c.kind for c in counters}
    assert kinds["Red FFE:1"] == "oba" and kinds["+3 Smoke"] == "smoke"
    assert kinds["White +3 Smoke (A)"] == "smoke" and kinds["PzKpfw IVH Wreck"] == "wreck"
