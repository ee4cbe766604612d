"""The SSRs the viewer offers for a VASL board: exactly the terrain rules that change it."""
from __future__ import annotations

from hexwx.errors import DataError
from hexwx.hexmap.transform import KINDS, transformed
from hexwx.io.ssr import ssr_changes, ssr_rules, ssrs_that_change
from tests.vasl_boards import board, metadata


def test_listed_rules_change_the_board_and_the_others_do_not() -> None:
    m, meta = board("bd02"), metadata()
    listed = ssrs_that_change(m, meta)
    rules = ssr_rules(meta)
    assert 0 < len(listed) < len(rules)
    assert {"NoGrain", "WoodsToBrush", "NoWalls"} <= set(listed)
    for name, (kind, _f, _t) in rules.items():
        if kind not in KINDS:
            assert name not in listed            # artwork-only and code-only rules
            continue
        try:
            changed = transformed(m, ssr_changes([name], meta)) is not m
        except DataError:                         # a value hexwx cannot apply
            assert name not in listed
            continue
        assert changed == (name in listed), name
