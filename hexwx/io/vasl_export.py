"""Writing a hexwx map file from a loaded VASL board (``hexwx import-vasl``).

The export is whole-hex: each hex gets the catalogue terrain matching its centre terrain, its
ground level, its hexside terrain and road hexsides.  Artwork inside hexes (a wood covering half
a hex) is not kept; the VASL archive itself stays the faithful source.
"""
from __future__ import annotations

from collections import defaultdict

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import HEXSIDE_NAMES
from hexwx.hexmap.terrain import CATALOGUE_TYPES, Category
from hexwx.io.tomlwrite import dumps

#: Catalogue key for a VASL category when no catalogue terrain has the same name.
_BY_CATEGORY = {Category.WOODS: "woods", Category.BUILDING: "stone building",
                Category.FACTORY: "stone building", Category.MARKETPLACE: "open",
                Category.DEPRESSION: "gully", Category.WATER: "water", Category.ROAD: "road",
                Category.OPEN: "open", Category.BRIDGE: "road", Category.ENTRENCHMENT: "open"}


def catalogue_key(name: str, category: Category, hindrance: bool, obstacle: bool) -> str:
    """The hexwx catalogue key closest to VASL terrain ``name``."""
    for t in CATALOGUE_TYPES:
        if t.name == name:
            return t.key
    if category == Category.OTHER:
        return "woods" if obstacle else ("brush" if hindrance else "open")
    return _BY_CATEGORY.get(category, "open")


def export_mapfile(m: HexMap) -> str:
    """TOML text of a hexwx map equivalent (whole hexes) to board ``m``."""
    label = m.grid.boards[0].label
    levels: dict[int, list[str]] = defaultdict(list)
    terrain: dict[str, list[str]] = defaultdict(list)
    hexsides: dict[str, list[str]] = defaultdict(list)
    roads: dict[str, list[list[str]]] = defaultdict(list)
    n = len(m)
    for h in range(n):
        name = m.name_of(h)
        if m.ground_level(h):
            levels[m.ground_level(h)].append(name)
        t = m.terrain_of(h)
        key = catalogue_key(t.name, t.category, t.hindrance, t.obstacle)
        if key not in ("open", "road", "paved road"):
            terrain[key].append(name)
        for k in range(6):
            o = int(m.grid.neighbours[h, k])
            if o >= 0 and o < h:
                continue  # each shared hexside once, from the lower id
            st = m.hexside_terrain(h, k)
            if st is not None:
                hexsides[catalogue_key(st.name, st.category, False, True)
                         if st.name not in ("Wall", "Hedge", "Bocage", "Cliff") else st.name.lower()
                         ].append(f"{name}:{HEXSIDE_NAMES[k]}")
            if o >= 0 and m.road_sides[h, k]:
                roads["paved" if m.road_sides[h, k] == 2 else "dirt"].append([name, m.name_of(o)])
    doc = {
        "map": {"name": m.name, "boards": [[label]], "default": "open"},
        "levels": {str(lv): sorted(v) for lv, v in sorted(levels.items())},
        "terrain": {k: v for k, v in sorted(terrain.items())},
        "hexsides": {k: v for k, v in sorted(hexsides.items())
                     if k in ("wall", "hedge", "bocage", "cliff")},
        "roads": {k: v for k, v in sorted(roads.items())},
    }
    return dumps(doc, comments={"": ["hexwx map exported from a VASL board archive by "
                                     "`hexwx import-vasl`.",
                                     "Whole-hex approximation of the board's artwork; for your "
                                     "own use only."]})
