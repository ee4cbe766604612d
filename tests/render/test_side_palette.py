"""One palette of sides for hex renders, table renders and the viewer (issue #26 item 4)."""
from __future__ import annotations

from pathlib import Path

from hexwx.io.table_scenario import load_table_scenario
from hexwx.render.style import OI, SIDE_COLOURS, side_colours, side_colours_hex
from hexwx.render.table import _side_colours
from hexwx.render.units import side_colours as hex_side_colours

ROOT = Path(__file__).resolve().parents[2]


class U:
    def __init__(self, side: str) -> None:
        self.side = side


def test_named_sides_keep_their_colours_and_others_share_the_rest() -> None:
    assert side_colours(["Axis", "Allied"]) == {"Axis": OI["blue"], "Allied": OI["vermillion"]}
    # "allied" (any case) keeps vermillion; french takes the first colour left: blue
    assert side_colours(["french", "allied"]) == {"french": OI["blue"], "allied": OI["vermillion"]}
    # with no named side the palette is shared in order of first appearance
    assert side_colours(["british", "french", "british", "prussian"]) == {
        "british": SIDE_COLOURS[0], "french": SIDE_COLOURS[1], "prussian": SIDE_COLOURS[2]}
    # a named side met late still gets its own colour, not one already given out
    c = side_colours(["russian", "swede", "Axis"])
    assert c["Axis"] == OI["blue"] and OI["blue"] not in (c["russian"], c["swede"])
    assert side_colours_hex(["Axis"]) == {"Axis": "#0072b2"}


def test_hex_render_table_render_and_viewer_agree() -> None:
    sc = load_table_scenario(ROOT / "scenarios" / "table_huzzah_fog_lifts.toml")
    table = _side_colours(sc.table)
    hexes = hex_side_colours(U(u.side) for u in sc.table.units)
    assert table == hexes == {"french": OI["blue"], "allied": OI["vermillion"]}
