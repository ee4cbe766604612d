"""The answers of line-of-sight queries: frozen values that explain themselves.

:class:`LosResult` (one LOS: verdict, reason, rule, every hindrance with its hex, DRM and rule),
:class:`Viewshed` (one location to every hex), :class:`LosTable` (many pairs at once),
:class:`Hindrance` (one terrain or LV DRM) and :class:`ThreadHex` (one hex a LOS passes).
Arrays in them are read-only; their reprs fit on a line.  A LosResult from
:func:`hexwx.lineofsight.engine.los` makes what most callers never read (its thread, the
hindrance list without weather, what blocks in words, the ends' Location names) on first read
(:func:`later_result`).
:mod:`hexwx.lineofsight.engine` makes them; nothing here computes LOS.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from hexwx.frozen import freeze
from hexwx.lineofsight.locations import end_words

if TYPE_CHECKING:
    from collections.abc import Callable

    from hexwx.hexmap.board import HexMap


class _OnFirstRead:
    """A field of :class:`LosResult` that :func:`later_result` may leave out, made the first
    time it is read: the descriptor asks the result's maker (``__dict__["_later"]``, given
    the field's name) for a dict of made fields, keeps them in the instance's ``__dict__``
    (as :func:`functools.cached_property` keeps its value, so later reads are plain) and
    returns this one.  A result made by ``__init__`` holds every field and never asks: equality,
    hash, ``dataclasses.replace`` and pickling read the made values.  Installed on the class
    after the dataclass is made (:data:`_LATER_FIELDS`), so the dataclass and mypy see plain
    fields with plain defaults."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        for key, value in d["_later"](self.name).items():
            d.setdefault(key, value)    # (two threads may make a field at once: one value kept)
        return d[self.name]


#: The rules of a LOS blocked by a hindrance total of six or more: terrain alone (LOS-SPEC 5),
#: terrain and weather LV together (E3.1: LV is treated like a LOS hindrance).
HINDRANCE_SIX_RULE, LV_SIX_RULE = "B.10", "E3.1"


@dataclass(frozen=True)
class Hindrance:
    """One hindrance DRM on a LOS, terrain or LV: the hex it comes from (None for range-based
    ones such as mist), DRM, kind and rule.  :mod:`hexwx.lineofsight.engine` reports terrain hindrances with it
    too."""

    hex: str | None
    drm: int
    kind: str
    rule: str
    #: why it counts, in words, where the kind alone does not say: "range 17: 13-18 hexes"
    note: str = ""
    name: str | None = None     # a counter's name ("White +3 Smoke"), None for terrain and LV

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"hex": self.hex, "drm": self.drm, "kind": self.kind,
                                  "rule": self.rule, "note": self.note or None}
        if self.name is not None:
            out["name"] = self.name
        return out

    def explain(self) -> str:
        """One line: ``+2 mist, range 17: 13-18 hexes (E3.32)``, ``+3 smoke (White +3 Smoke)
        in C2 (A24)``."""
        what = f"{self.kind} ({self.name})" if self.name else self.kind
        where = f" in {self.hex}" if self.hex else ""
        note = f", {self.note}" if self.note else ""
        return f"+{self.drm} {what}{where}{note} ({self.rule})"


@dataclass(frozen=True)
class ThreadHex:
    """A hex of a LOS thread (see the module docstring for the fields)."""

    name: str
    rs: int
    rt: int
    ground: int = 0
    key: int = -1
    low: int | None = None     # lowest ground drawn in the hex; None = not known (fog assumed)

    def __post_init__(self) -> None:
        if self.key == -1:
            object.__setattr__(self, "key", hash(self.name))


@dataclass(frozen=True, repr=False)  # (its own __repr__; not generating one saves start-up)
class LosResult:
    """The answer to one LOS query, with everything needed to explain it."""

    source: str
    target: str
    source_level: int
    target_level: int
    range: int
    blocked: bool
    reason: str
    rule: str | None
    blocked_at: tuple[int, int] | None
    blocking_hex: str | None
    hindrance: int
    lv: int
    hindrances: tuple[Hindrance, ...]
    thread: tuple[ThreadHex, ...] = ()
    map: HexMap | None = field(repr=False, compare=False, default=None)  # for drawing
    #: absolute elevation of each end: ground level + level in the hex (hexwx.lineofsight.locations)
    source_elevation: int = 0
    target_elevation: int = 0
    #: each end as players name it: "J4 (hill level 3)", "D4 level 2 (stone building)", "D4 rooftop"
    source_location: str = ""
    target_location: str = ""
    #: what blocks, at ``blocked_at``: the terrain ("orchard", "hill", "wall"), the ground level
    #: there and the top of the obstacle in levels (ground + its height; None when blocked by
    #: hindrances or a rule of the ends, not by terrain)
    blocking_terrain: str | None = None
    blocking_ground: int | None = None
    blocking_top: float | None = None
    #: facts that explain the answer beyond its DRMs (why winter camouflage did or did not count)
    notes: tuple[str, ...] = ()
    #: the weather asked about (an AslWeather or None), for drawing its veil
    weather: Any = field(repr=False, compare=False, default=None)

    def __getstate__(self) -> dict[str, Any]:
        """Every field, made (pickle and :mod:`copy` keep values, not the maker)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __repr__(self) -> str:
        a = self.source_location or self.source
        b = self.target_location or self.target
        verdict = f"blocked: {self.reason}" if self.blocked else f"clear, DRM +{self.drm}"
        return f"LosResult({a} -> {b}, range {self.range}, {verdict})"

    def _repr_png_(self) -> bytes | None:
        """The LOS drawn on its map, for notebooks."""
        from hexwx.render.core import los_png
        return los_png(self, self.map)

    @property
    def drm(self) -> int | None:
        """Total hindrance DRM: terrain plus weather LV; None when the LOS is blocked (a blocked
        LOS has no DRM: no fire can use it).  ``hindrance`` and ``lv`` keep the parts counted
        up to the verdict, for explanation only."""
        return None if self.blocked else self.hindrance + self.lv

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "target": self.target,
            "source_level": self.source_level, "target_level": self.target_level,
            "source_elevation": self.source_elevation, "target_elevation": self.target_elevation,
            "source_location": self.source_location or self.source,
            "target_location": self.target_location or self.target,
            "range": self.range, "blocked": self.blocked,
            "hindrance": None if self.blocked else self.hindrance,
            "lv": None if self.blocked else self.lv,
            "drm": self.drm,
            "reason": self.reason, "rule": self.rule,
            "blocked_at": list(self.blocked_at) if self.blocked_at else None,
            "blocking_hex": self.blocking_hex,
            "blocking_terrain": self.blocking_terrain,
            "blocking_ground": self.blocking_ground,
            "blocking_top": self.blocking_top,
            "blocked_by": self.blocked_by,
            "verdict": self.verdict,
            "hindrances": [h.to_json() for h in self.hindrances],
            "notes": list(self.notes),
            "thread": [t.name for t in self.thread],
            "explain": self.explain(),
        }

    def _reason_here(self) -> str:
        """The reason with this LOS's ends named where that says more: a blind hex names
        which end is hidden from which."""
        if not self.reason.startswith("blind hex") or self.source_elevation == self.target_elevation:
            return self.reason
        low, high = (self.source, self.target) if self.source_elevation < self.target_elevation \
            else (self.target, self.source)
        what = "crest" if "crest" in self.reason else "obstacle"
        return f"blind hex: {low} lies too close behind this {what} to be seen from {high}, above it"

    @property
    def by_hindrances(self) -> bool:
        """Blocked because the hindrance DRMs (terrain and LV) reached six (A6.7, E3.1)."""
        return self.blocked and self.rule in (HINDRANCE_SIX_RULE, LV_SIX_RULE)

    @property
    def blocked_by(self) -> str | None:
        """What blocks, in words: ``"orchard in P6 (top at level 1: ground level 0 + 1)"``,
        ``"hindrances +3 +3 +3 = 9"``; None when clear."""
        if not self.blocked:
            return None
        if self.by_hindrances:
            drms = " ".join(f"+{h.drm}" for h in self.hindrances)
            return f"hindrances {drms} = {sum(h.drm for h in self.hindrances)}"
        if self.blocking_terrain is None:
            return None
        where = f" in {self.blocking_hex}" if self.blocking_hex else ""
        return f"{self.blocking_terrain}{where}{_height_words(self)}"

    @property
    def verdict(self) -> str:
        """The verdict on one line: ``BLOCKED by orchard in P6 (top at level 1: ground level 0
        + 1): a height advantage ... (A6.2)``, ``BLOCKED: ... six or more (E3.1): +3 fog in C5,
        ... = 9``, ``CLEAR: hindrance DRM +1, LV DRM +2, total +3``."""
        return self.verdict_text()

    def verdict_text(self, *, parts: bool = True) -> str:
        """:attr:`verdict`; ``parts=False`` leaves out the DRMs of a six-or-more total."""
        if not self.blocked:
            return f"CLEAR: hindrance DRM +{self.hindrance}, LV DRM +{self.lv}, total +{self.drm}"
        rule = f" ({self.rule})" if self.rule else ""
        where = f" in {self.blocking_hex}" if self.blocking_hex else ""
        if self.by_hindrances:
            total = sum(h.drm for h in self.hindrances)
            if not parts:
                return f"BLOCKED{where}: {self.reason}{rule}, {total} in all"
            each = ", ".join(h.explain().split(" (")[0] for h in self.hindrances)
            return f"BLOCKED{where}: {self.reason}{rule}: {each} = {total}"
        if self.blocking_terrain is not None:
            return f"BLOCKED by {self.blocked_by}: {self._reason_here()}{rule}"
        return f"BLOCKED{where}: {self.reason}{rule}"

    def explain(self) -> str:
        """The answer in words, one fact a line: the ends, the verdict, every hindrance (of a
        clear LOS, or the parts of a six-or-more total) with its rule, then the notes."""
        a = self.source_location or f"{self.source} (level {self.source_level})"
        b = self.target_location or f"{self.target} (level {self.target_level})"
        lines = [f"{a} -> {b}: range {self.range}"]
        lines.append(self.verdict_text(parts=False) + (":" if self.by_hindrances else ""))
        if not self.blocked or self.by_hindrances:
            lines += [f"  {h.explain()}" for h in self.hindrances]
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


#: The fields of a LosResult that :func:`later_result` may leave to be made on first read.
_LATER_FIELDS = ("hindrances", "thread", "source_location", "target_location", "blocking_terrain",
                 "blocking_ground", "blocking_top")
for _name in _LATER_FIELDS:
    setattr(LosResult, _name, _OnFirstRead(_name))
del _name


def later_result(values: dict[str, Any], later: Callable[[str], dict[str, Any]]) -> LosResult:
    """A LosResult of ``values`` (taken as its ``__dict__``, not copied) without running its
    ``__init__``: each field of :data:`_LATER_FIELDS` left out is made on first read by
    ``later(name)``, a dict of that field and any others made along with it (pure: it may run
    in two threads at once, one answer is kept).  Other fields left out read their defaults.
    The cheap way to make one: a single query's answer is a few microseconds of walk."""
    values["_later"] = later
    r = object.__new__(LosResult)
    object.__setattr__(r, "__dict__", values)
    return r


def _height_words(r: LosResult) -> str:
    """`` (top at level 1: ground level 0 + 1)`` for an obstacle, `` (ground level 2)`` for
    ground; empty when not known."""
    g, top = r.blocking_ground, r.blocking_top
    if g is None or top is None:
        return ""
    if top == g:
        return f" (ground level {g})"
    height = top - g
    h = f"{height:g}" if height != 0.5 else "½"
    return f" (top at level {top:g}: ground level {g} + {h})"


@dataclass(frozen=True, repr=False)
class Viewshed:
    """What one location sees: per hex ``blocked`` (bool) and ``drm`` (terrain + LV), ``range``;
    ``hexside``: the viewer is in bypass along that hexside (D2.3), None when not;
    ``entrenched``: the viewer is a unit in an entrenchment (B27.2)."""

    source: str
    level: int
    blocked: np.ndarray
    drm: np.ndarray
    range: np.ndarray
    map: HexMap | None = field(default=None, repr=False, compare=False)   # for drawing
    #: the weather asked about (an AslWeather or None), for drawing its veil
    weather: Any = field(repr=False, compare=False, default=None)
    hexside: int | None = None
    #: what the answer left out and why (SMOKE the weather does not allow: E3.53, E3.734)
    notes: tuple[str, ...] = ()
    entrenched: bool = False

    def __post_init__(self) -> None:
        freeze(self, "blocked", "drm", "range")

    def __repr__(self) -> str:
        lv = f" level {self.level}" if self.level else ""
        lv = end_words(lv, self.hexside, self.entrenched)   # (as los's ends)
        return (f"Viewshed({self.source}{lv}: {int((~self.blocked).sum())} of {len(self.blocked)} "
                "hexes in LOS)")

    def _repr_png_(self) -> bytes | None:
        """The viewshed drawn on its map, cropped to the hexes seen, for notebooks."""
        if self.map is None:
            return None
        from hexwx.render.core import result_png
        from hexwx.render.hexmap import MapOptions
        seen = [self.map.name_of(int(h)) for h in np.flatnonzero(~self.blocked)] or [self.source]
        return result_png(self.map, seen, MapOptions(viewshed=self, viewshed_from=self.source,
                                                     viewshed_level=self.level,
                                                     weather=self.weather))

    def to_json(self) -> dict[str, Any]:
        """Per hex: null when blocked, else the DRM (terrain + LV); and the ranges."""
        names = self.map.grid.names() if self.map is not None else [str(i) for i in range(len(self.drm))]
        out: dict[str, Any] = {"source": self.source, "level": self.level}
        if self.hexside is not None:
            out["hexside"] = self.hexside
        if self.entrenched:
            out["entrenched"] = True
        return {**out, "seen": int((~self.blocked).sum()),
                "hexes": {n: (None if b else int(d))
                          for n, b, d in zip(names, self.blocked.tolist(), self.drm.tolist())},
                "notes": list(self.notes)}


@dataclass(frozen=True, repr=False)
class LosTable:
    """Ordered pairs of locations: hex ids, range, blocked, hindrance (and LV with weather).

    ``src_level``/``tgt_level`` (levels in the hex) are None for the ground-level table.
    """

    src: np.ndarray
    tgt: np.ndarray
    range: np.ndarray
    blocked: np.ndarray
    hindrance: np.ndarray
    lv: np.ndarray | None = None
    src_level: np.ndarray | None = None
    tgt_level: np.ndarray | None = None

    def __post_init__(self) -> None:
        freeze(self, "src", "tgt", "range", "blocked", "hindrance", "lv", "src_level", "tgt_level")

    def __repr__(self) -> str:
        extra = (", with LV" if self.lv is not None else "") + \
            (", by level" if self.src_level is not None else "")
        return f"LosTable({len(self.src)} pairs, {int(self.blocked.sum())} blocked{extra})"
