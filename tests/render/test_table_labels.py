"""Tabletop renders: labels do not overlap each other or the bases (issue #26 item 4)."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import hexwx.render.table as rt
from hexwx.io.table_scenario import load_table_scenario
from hexwx.render.core import render_table
from hexwx.tabletop.sight import can_see

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("table_*.toml"))


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ox = min(a[2], b[2]) - max(a[0], b[0])
    oy = min(a[3], b[3]) - max(a[1], b[1])
    return ox * oy if ox > 0 and oy > 0 else 0.0


def test_a_label_takes_the_first_clear_candidate() -> None:
    img = Image.new("RGB", (400, 200))
    labels = rt.Labels(ImageDraw.Draw(img), img.size)
    labels.block((150, 80, 250, 120))                  # a base in the middle
    at = labels.place("wood", 20, [(200, 100), (200, 40), (200, 160)])
    assert at == (200, 40)                             # the first candidate is covered
    at2 = labels.place("wood", 20, [(200, 40), (200, 160)])
    assert at2 == (200, 160)                           # the second is taken by the first label


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_table_renders_have_no_overlapping_labels(path: Path, monkeypatch: Any) -> None:
    placed: list[tuple[str, tuple[float, ...]]] = []
    blocked: list[tuple[float, ...]] = []
    place, block = rt.Labels.place, rt.Labels.block

    def spy_place(self: rt.Labels, text: str, size: int, cands: Any) -> Any:
        n = len(self.boxes)
        at = place(self, text, size, cands)
        placed.append((text, self.boxes[n]))
        return at

    def spy_block(self: rt.Labels, box: Any) -> None:
        blocked.append(box)
        block(self, box)

    monkeypatch.setattr(rt.Labels, "place", spy_place)
    monkeypatch.setattr(rt.Labels, "block", spy_block)
    sc = load_table_scenario(path)
    units = sc.table.units
    ranges = [sc.fire(units[0].id, units[-1].id, 1)]
    sights = [can_see(sc.table, units[1].id, units[-2].id, rules=sc.rules,
                      visibility_cm=sc.visibility_cm(1))]
    render_table(sc, sights=sights, ranges=ranges, width_px=1200)
    names = {t for t, _ in placed}
    assert {u.id for u in units} <= names and {p.id for p in sc.table.terrain} <= {
        t.split(" (h")[0] for t in names}
    assert {f"{o.id} ({o.quality})" for o in sc.table.officers} <= names     # officers too
    bases = [b for b in blocked if all(b is not box for _, box in placed)]
    assert len(bases) > sum(len(u.bases) for u in units)     # the bases and the ruler numbers
    for (ta, a), (tb, b) in combinations(placed, 2):
        assert overlap(a, b) == 0, f"{ta!r} overlaps {tb!r}"
    # unit and terrain labels never sit on a base or a ruler number (line labels may, when
    # nothing near the line is clear)
    for text, box in placed:
        if "range" in text or " sees " in text or "cannot see" in text:
            continue
        assert all(overlap(box, b) == 0 for b in bases), f"{text!r} is on a base"
