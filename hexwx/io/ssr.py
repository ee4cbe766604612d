"""VASL's terrain SSRs: the ``LOSSSRule`` entries of ``SharedBoardMetadata.xml`` as data.

Each entry names a scenario special rule and how it changes the LOS raster: ``terrainMap``,
``elevationMap``, ``terrainToElevationMap``, ``elevationToTerrainMap`` (pure data, applied by
:mod:`hexwx.hexmap.transform`), ``ignore`` (artwork only: accepted, changes nothing) or
``customCode`` (implemented only in VASL's Java code: refused, as are names VASL does not list).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from hexwx.errors import DataError, UsageError
from hexwx.hexmap.transform import KINDS, TerrainChange

if TYPE_CHECKING:
    from hexwx.hexmap.board import HexMap

#: Rule types that change nothing in the LOS data.
IGNORED = "ignore"
#: Rule types VASL implements in code only (hexwx refuses them rather than guess).
CODE_ONLY = "customCode"


@lru_cache(maxsize=4)
def _rules_cached(path: str, mtime: float) -> dict[str, tuple[str, str, str]]:
    from hexwx.io.vasl import metadata_root
    root = metadata_root(path, mtime)
    rules: dict[str, tuple[str, str, str]] = {}
    for el in root.iter("LOSSSRule"):
        a = el.attrib
        name = a.get("name", "")
        if name and name not in rules:  # VASL lists NoWhiteHexIDs twice; keep the first
            rules[name] = (a.get("type", ""), a.get("fromValue", ""), a.get("toValue", ""))
    return rules


def ssr_rules(metadata: str | Path) -> dict[str, tuple[str, str, str]]:
    """name -> (type, fromValue, toValue) for every LOSSSRule in VASL's terrain table."""
    p = Path(metadata)
    try:
        mtime = p.stat().st_mtime
    except OSError:
        raise DataError(f"{p}: no such file (VASL terrain table with the SSR rules)") from None
    return _rules_cached(str(p), mtime)


def ssr_changes(names: Iterable[str], metadata: str | Path) -> tuple[TerrainChange, ...]:
    """The raster changes of the SSRs ``names``, in the order given.

    UsageError naming the rule for a name VASL does not list or a rule VASL implements only
    in code; ``ignore`` rules contribute nothing.
    """
    rules = ssr_rules(metadata)
    out: list[TerrainChange] = []
    for name in names:
        if not isinstance(name, str) or name not in rules:
            close = [n for n in rules if n.lower() == str(name).lower()]
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(f"unknown SSR {name!r}{hint}: not a LOSSSRule of {metadata}")
        kind, frm, to = rules[name]
        if kind == IGNORED:
            continue
        if kind == CODE_ONLY:
            raise UsageError(f"SSR {name!r} exists only as Java code in VASL (type customCode); "
                             f"hexwx cannot apply it")
        if kind not in KINDS:
            raise DataError(f"{metadata}: LOSSSRule {name!r} has unknown type {kind!r}; expected "
                            f"one of {', '.join(KINDS + (IGNORED, CODE_ONLY))}")
        out.append(TerrainChange(kind, frm, to, name=name, rule=f"VASL LOSSSRule {name}"))
    return tuple(out)


def ssrs_that_change(m: "HexMap", metadata: str | Path) -> list[str]:
    """The names of VASL's terrain SSRs that change map ``m``'s LOS data (its terrain or
    levels hold what the rule maps), sorted; artwork-only and code-only rules left out."""
    import numpy as np

    from hexwx.hexmap.transform import changes_anything
    codes = frozenset(int(c) for c in np.unique(m.terrain))
    levels = frozenset(int(v) for v in np.unique(m.elevation))
    out = []
    for name, (kind, frm, to) in ssr_rules(metadata).items():
        if kind not in KINDS:
            continue
        try:
            if changes_anything(TerrainChange(kind, frm, to, name=name), m.table, codes, levels):
                out.append(name)
        except DataError:           # a value hexwx cannot apply (VASL's "_1" for level -1)
            continue
    return sorted(out)
