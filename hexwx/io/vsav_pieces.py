"""What the pieces of a VASL save are: units with their Locations, LOS counters, markers.

Every piece on the boards is classified (:data:`CLASSES`):

* ``unit``: a squad, half-squad, crew, leader, support weapon or gun, or vehicle (VASL's
  ``DBCounterType`` *unit*, or a *common* piece of a nationality such as an LMG);
* ``los counter``: SMOKE, WP, Blaze, wreck, rubble, FFE (by the name VASSAL gives the piece:
  its Embellishment layer names and label, :func:`vassal_name`);
* ``location marker``: Building Level n, roof, entrenchments, crests, climbs;
* ``concealment``: a "?" -- it conceals the units under it in its stack (A12);
* ``no effect``: perimeters, labels, turn track, roadblocks and other markers.

Stacks are read bottom to top (VASSAL's ``Stack`` state).  A unit's Location comes from its
stack as VASL derives it (``../shared/vasl/counters/levels/README.md``): the nearest location
marker *below* it that applies to the pieces above (building levels, roof, Trench BRT), else
the nearest *above* it that applies to the pieces below (foxholes, trench, A-T ditch); a piece
nearer a hexside's location point than its hex centre is in bypass at that hexside.  Where
VASL is not the rule, hexwx follows the rule (docs/vasl-conformance.md): "Building Roof Level"
puts the unit on the rooftop (B23.8), a hidden marker still counts, and a level the hex does
not have is refused in favour of the highest it has (noted).  A piece's side comes from its
nationality (:data:`hexwx.io.vsav.NATIONALITIES`).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from hexwx.errors import UsageError
from hexwx.hexmap.coords import BoardShape, Grid
from hexwx.hexmap.pixelgeom import hexside_point_offsets
from hexwx.io.vsav import PlacedPiece, VaslSave, split_sequence, unit_ids
from hexwx.lineofsight.counters import Counter, CounterType, Counters, counter_type

CLASSES: tuple[str, ...] = ("unit", "los counter", "location marker", "concealment", "no effect")
#: Unit roles, from the piece (A1.1 personnel, A21 support weapons, C guns, D vehicles).
ROLES: tuple[str, ...] = ("squad", "half-squad", "crew", "leader", "sw", "gun", "vehicle", "unit")

_LEADER = re.compile(r"^\d+[-+]\d+$")
_SQUAD = re.compile(r"^\d-\d+-\d+")


@dataclass(frozen=True)
class SaveItem:
    """One piece on the boards: its VASSAL name, class, unit role, counter type, where it
    stands (hex, stack position bottom first, bypass hexside) and its hidden/concealed state."""

    placed: PlacedPiece
    name: str
    cls: str
    role: str | None = None
    type: CounterType | None = None
    stack: int = -1                 # index of its stack in the save (-1: alone)
    index: int = 0                  # 0 = bottom of the stack
    hexside: int | None = None      # in bypass at this hexside
    hidden: bool = False            # HIP (A12.3)
    concealed: bool = False         # its own "?" side shown, or a "?" above it (A12)
    note: str = ""

    @property
    def hex(self) -> str:
        return self.placed.hex


@dataclass(frozen=True)
class SaveUnit:
    """A unit of the save at its Location: level in the hex (0 ground, n building level,
    top + 1 rooftop), entrenched, bypass hexside, concealed / hidden, and its side."""

    id: str
    name: str
    role: str
    kind: str                      # infantry / vehicle / other (hexwx.io.scenario.UNIT_KINDS)
    side: str
    nationality: str
    hex: str
    level: int = 0
    hexside: int | None = None
    entrenched: bool = False
    concealed: bool = False
    hidden: bool = False
    location: str = ""             # the Location in words: "Building Level 1", "1S Foxhole"
    note: str = ""


@dataclass(frozen=True)
class SaveContents:
    """Everything on the boards of a save, classified: units, the LOS counters as
    :class:`Counters`, and every item (markers included) in the save's order."""

    items: tuple[SaveItem, ...]
    units: tuple[SaveUnit, ...]
    counters: Counters
    unknown: tuple[str, ...] = field(default=())   # pieces whose LOS effect is unknown

    def by_class(self) -> dict[str, int]:
        out = {c: 0 for c in CLASSES}
        for it in self.items:
            out[it.cls] += 1
        return out


# -- the name VASSAL gives a piece ------------------------------------------------------------

def vassal_name(traits: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> str:
    """The piece's name as VASSAL's ``getName()`` gives it: the basic piece's name, changed by
    each Embellishment's active layer (a name replaces it; ``"X +"`` puts X in front, ``"+ X"``
    after) and by a label (``$pieceName$ ($label$)``), innermost first."""
    if not traits:
        return ""
    basic = traits[-1][0].split(";")
    name = ";".join(basic[4:]) if len(basic) > 4 else ""
    for t, s in reversed(traits[:-1]):
        kind = t.split(";", 1)[0]
        if kind == "emb2":
            name = _layer_name(t, s, name)
        elif kind == "label" and s:
            fields = t.split(";")
            fmt = fields[12] if len(fields) > 12 and fields[12] else "$pieceName$ ($label$)"
            name = fmt.replace("$pieceName$", name).replace("$label$", s)
    return name.strip()


def _layer_name(type_: str, state: str, name: str) -> str:
    fields = type_.split(";")
    if len(fields) < 18:
        return name
    try:
        level = int(state.split(";")[0])
    except ValueError:
        return name
    names = split_sequence(fields[17], ",")
    if level < 1 or level > len(names):
        return name
    layer = names[level - 1]
    if not layer:
        return name
    if layer.endswith("+") and not layer.endswith("\\+"):
        return layer[:-1] + name
    if layer.startswith("+"):
        return name + layer[1:]
    return layer.replace("\\+", "+")


# -- classification -------------------------------------------------------------------------

def _trait(traits: tuple[tuple[str, str], ...], kind: str) -> tuple[str, str] | None:
    for t, s in traits:
        if t.split(";", 1)[0] == kind:
            return t, s
    return None


def _is_hidden(traits: tuple[tuple[str, str], ...]) -> bool:
    """HIP: VASSAL's ``hide`` trait holds the hiding player's id ("null" when shown)."""
    h = _trait(traits, "hide")
    return h is not None and h[1] not in ("", "null")


def _is_concealed(traits: tuple[tuple[str, str], ...]) -> bool:
    """The unit shows its "?" side: VASL's ``conceal`` trait state names the concealing
    player ("null" when not concealed)."""
    c = _trait(traits, "conceal")
    return c is not None and c[1].split(";")[0] not in ("", "null")


def _role(p: PlacedPiece) -> str:
    pc = p.piece
    if pc.kind == "vehicle":
        return "vehicle"
    if pc.counter_type == "unit" and pc.kind == "other":
        return "gun"
    if pc.counter_type != "unit":
        return "sw"
    n = pc.name
    if "crew" in n.lower():
        return "crew"
    if _LEADER.match(vassal_name(pc.traits)) or n.endswith(("LDR", "COM")):
        return "leader"
    if _SQUAD.match(n):
        return "half-squad" if re.search(r"\bh\.?s\b", n, re.I) else "squad"
    return "unit"


def classify(p: PlacedPiece) -> SaveItem:
    """The class (:data:`CLASSES`), role and counter type of one piece on the boards."""
    pc = p.piece
    traits = pc.traits
    name = vassal_name(traits) or pc.name
    hidden = _is_hidden(traits)
    if _trait(traits, "concealment") is not None or name == "?":
        return SaveItem(p, name, "concealment", hidden=hidden)
    if pc.counter_type == "unit" or (pc.counter_type == "common" and pc.nationality):
        return SaveItem(p, pc.name or name, "unit", _role(p), hidden=hidden,
                        concealed=_is_concealed(traits))
    try:
        t = counter_type(name)
    except UsageError:
        note = ""
        if any(ty == "mark;Hindrance" for ty, _ in traits) and pc.counter_type != "global":
            note = "has VASL's Hindrance marker but no known LOS effect: ignored"
        return SaveItem(p, name, "no effect", hidden=hidden, note=note)
    if t.kind in ("location", "entrenchment"):
        return SaveItem(p, name, "location marker", type=t, hidden=hidden)
    if t.kind == "no effect":
        return SaveItem(p, name, "no effect", type=t, hidden=hidden)
    return SaveItem(p, name, "los counter", type=t, hidden=hidden)


def bypass_hexside(p: PlacedPiece) -> int | None:
    """The hexside a piece stands in bypass at (nearer that hexside's location point than its
    hex centre; on a turned board the hexside is turned too), or None at the centre."""
    g = _board_grid(p.board.shape)
    h = g.parse(p.printed)
    cx, cy = float(g.centre_x[h]), float(g.centre_y[h])
    x, y = p.local
    best, side = math.hypot(x - cx, y - cy), None
    for k, (dx, dy) in enumerate(hexside_point_offsets(p.board.shape).tolist()):
        d = math.hypot(x - (cx + dx), y - (cy + dy))
        if d < best:
            best, side = d, k
    if side is not None and p.board.rotated:
        side = (side + 3) % 6
    return side


def board_shapes(m: Any) -> dict[str, BoardShape]:
    """Board label -> hex grid of the boards of map ``m``."""
    return {b.label: b.shape for b in m.grid.boards}


@lru_cache(maxsize=8)
def _board_grid(shape: BoardShape) -> Grid:
    """One board's grid (piece positions are read against it)."""
    return Grid.single("", shape)


# -- stacks and Locations --------------------------------------------------------------------

def location_marker(stack: list[SaveItem], i: int) -> SaveItem | None:
    """The location marker that places ``stack[i]`` (bottom first), as VASL searches: down
    from the piece for a marker whose Location is above it (building levels, roof, Trench
    BRT), then up for one whose Location is below it (foxholes, trench, A-T ditch); the
    nearest wins.  A piece alone is placed by its own name (a lone marker)."""
    for j in range(i, -1, -1):
        t = stack[j].type
        if t is not None and (t.kind == "location" or t.name == "Trench BRT"):
            return stack[j]
    for j in range(i, len(stack)):
        t = stack[j].type
        if t is not None and t.kind == "entrenchment" and t.name != "Trench BRT":
            return stack[j]
    return None


def marker_level(m: Any, hex_name: str, marker: SaveItem | None) -> tuple[int, str]:
    """The level in the hex a marker puts a piece at, and a note when the hex lacks it."""
    if marker is None or marker.type is None or marker.type.kind != "location":
        return 0, ""
    want = marker.type.level
    if m is None:
        return (want if want is not None else 0), ""
    h = m.parse(hex_name)
    top = m.levels_at(h)[-1]
    if want is None:       # the roof marker: the rooftop (B23.8), where the building has one
        if m.is_rooftop(h, top) and top > 0:
            return top, ""
        return 0, f"{marker.name}: {hex_name} has no rooftop; ground level"
    if want in m.levels_at(h):
        return want, ""
    return top, f"{marker.name}: {hex_name} has no level {want}; level {top}, its highest"


def save_contents(save: VaslSave, m: Any = None,
                  map_names: Any = None) -> SaveContents:
    """Every piece on the boards of ``save`` classified, the units at their Locations and the
    LOS counters (with their levels and bypass hexsides).  ``m``: the save's map, to check
    levels against its hexes; ``map_names`` turns a save hex name into the map's own."""
    if m is not None:        # pieces read against the boards' own hex grids
        save = save.on_boards(board_shapes(m))
    placed = save.placed()
    items = [classify(p) for p in placed]
    by_gid = {p.piece.gid: i for i, p in enumerate(placed)}
    where: dict[int, tuple[int, int]] = {}
    stacks: list[list[int]] = []
    for sid, members in enumerate(save.stacks):
        idx = [by_gid[g] for g in members if g in by_gid]
        stacks.append(idx)
        for k, i in enumerate(idx):
            where[i] = (sid, k)
    named = (lambda n: n) if map_names is None else map_names
    out_items: list[SaveItem] = []
    for i, it in enumerate(items):
        sid, k = where.get(i, (-1, 0))
        side = bypass_hexside(it.placed)
        concealed = it.concealed
        if sid >= 0 and it.cls == "unit":
            above = [items[j] for j in stacks[sid][k + 1:]]
            concealed = concealed or any(a.cls == "concealment" for a in above)
        out_items.append(SaveItem(it.placed, it.name, it.cls, it.role, it.type, sid, k, side,
                                  it.hidden, concealed, it.note))
    units: list[SaveUnit] = []
    counters: list[Counter] = []
    unit_pieces = [it for it in out_items if it.cls == "unit"]
    ids = unit_ids([it.placed for it in unit_pieces])
    for uid, it in zip(ids, unit_pieces):
        stack = [out_items[j] for j in stacks[it.stack]] if it.stack >= 0 else [it]
        marker = location_marker(stack, it.index)
        hex_name = named(it.hex)
        level, note = marker_level(m, hex_name, marker)
        entrenched = marker is not None and marker.type is not None and \
            marker.type.kind == "entrenchment"
        pc = it.placed.piece
        # (a unit under an entrenchment marker is in that Location, not in bypass: B27, D2.3)
        units.append(SaveUnit(uid, it.name, it.role or "unit", pc.kind, pc.side or "",
                              pc.nationality or "", hex_name, level,
                              None if entrenched else it.hexside, entrenched,
                              it.concealed, it.hidden, marker.name if marker else "", note))
    for it in out_items:
        if it.cls in ("los counter", "location marker") and it.type is not None:
            level = 0
            if it.type.hinders and it.stack >= 0:
                stack = [out_items[j] for j in stacks[it.stack]]
                level, _n = marker_level(m, named(it.hex), location_marker(stack, it.index))
            keep_side = it.hexside if it.type.kind in ("vehicle", "wreck") else None
            counters.append(Counter(it.type.name if it.type.kind != "vehicle" else it.name,
                                    named(it.hex), level, keep_side))
    unknown = tuple(f"{it.name} in {it.hex}: {it.note}" for it in out_items if it.note)
    return SaveContents(tuple(out_items), tuple(units), Counters(tuple(counters)), unknown)
