"""SVG of a weather run: one row per turn with its weather, wind and a visibility bar."""
from __future__ import annotations

from typing import Any, Sequence
from xml.sax.saxutils import escape

ROW = 24
WIDTH = 760


def _row(r: Any) -> tuple[str, str, float | None]:
    """(turn label, text, visibility in cm or None) of an ASL TurnRecord or a minis TurnReport."""
    state = getattr(r, "state", None)
    if state is not None:                                    # ASL E3: a Player Turn
        events = "; ".join(str(e) for e in getattr(r, "events", ()))
        text = f"DR {r.dr}: {state.describe()}" + (f" -- {events}" if events else "")
        return f"{r.turn}.{r.player_turn}", text, None
    bits = [str(getattr(r, "weather", ""))]
    if getattr(r, "time_of_day", None):
        bits.append(str(r.time_of_day))
    if getattr(r, "ground", "normal") != "normal":
        bits.append(f"ground {r.ground}")
    if getattr(r, "battle_ends", False):
        bits.append("battle ends")
    return str(getattr(r, "turn", "?")), ", ".join(bits), getattr(r, "visibility_cm", None)


def run_svg(records: Sequence[Any]) -> str:
    """The SVG text of a weather run (ASL or miniatures)."""
    rows = [_row(r) for r in records]
    vis = [v for _t, _x, v in rows if v is not None]
    top = max(vis) if vis else None
    bar_w = 140 if top else 0
    h = ROW * (len(rows) + 1) + 6
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{h}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{h}" fill="white"/>',
           '<text x="6" y="16" font-weight="bold">turn</text>',
           f'<text x="{56 + bar_w}" y="16" font-weight="bold">weather</text>']
    if top:
        out.append('<text x="56" y="16" font-weight="bold">visibility</text>')
    for i, (turn, text, v) in enumerate(rows):
        y = ROW * (i + 1) + 4
        if i % 2 == 0:
            out.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{ROW}" fill="#f3f1ec"/>')
        out.append(f'<text x="6" y="{y + 16}">{escape(turn)}</text>')
        if top:
            if v is None:
                out.append(f'<text x="56" y="{y + 16}">unlimited</text>')
            else:
                w = max(2.0, (bar_w - 20) * v / top)
                out.append(f'<rect x="56" y="{y + 5}" width="{w:.1f}" height="{ROW - 10}" fill="#56b4e9" '
                           f'data-visibility-cm="{v:g}"><title>{v:g} cm</title></rect>')
        out.append(f'<text x="{56 + bar_w}" y="{y + 16}">{escape(text[:110])}</text>')
    out.append("</svg>\n")
    return "".join(out)
