""""Can I shoot?": one answer per rule set for a firer and a target on a turn.

The answer puts together, each with its rule: sight (geometry and the turn's visibility from
weather and time of day, :func:`hexwx.tabletop.sight.can_see`), the range and its band, the arc
of fire where the rule set has one, the face of the target the shot strikes, and what the
turn's weather does to this firer's fire (:class:`hexwx.weather.minis.common.FireRule`).
Hits and dice stay the players'.

Where the ranges come from (:func:`weapon_range`):

* **Huzzah!** gives them (p.11 "Weapon Ranges": infantry 20 cm, reserve foot and horse
  artillery 60 cm, reserve heavy artillery 80 cm; cavalry cannot fire); short range is "under
  half range" (p.12).  Only Huzzah! has an arc of fire (p.11, 45 degrees either side).
* **AGV, Mini-Nap 2, the Wesencraft gauge** give no weapon ranges: the scenario gives them per
  unit kind (``[ranges]``, e.g. ``artillery = [12, 24]``: short range up to 12, long range up
  to 24), or per unit (``range =``); without them the answer says the range is not given.
  "Long range" (strong winds stop artillery at long range) is beyond the scenario's short
  range; with no short range given it cannot be decided and the answer says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from hexwx.errors import UsageError
from hexwx.units import ruler
from hexwx.tabletop.faces import closest_visible_face
from hexwx.tabletop.model import TableTop, Unit, huzzah_class
from hexwx.tabletop.sight import (RANGE_METHOD, Sight, can_see, check_rules, in_arc,
                                  range_cm, range_points)
from hexwx.weather.minis.common import FireRule, fire_rules

if TYPE_CHECKING:
    from hexwx.weather.minis.common import TurnReport

#: Huzzah! p.11 "Weapon Ranges", cm, by (arm, guns).  Cavalry cannot fire (p.11).
HUZZAH_RANGE_CM: dict[tuple[str, str | None], float] = {
    ("infantry", None): 20.0,
    ("artillery", "foot"): 60.0,
    ("artillery", "horse"): 60.0,
    ("artillery", "heavy"): 80.0,
}
HUZZAH_RANGE_RULE = "Huzzah! p.11 Weapon Ranges"

#: The unit kinds a scenario's ``[ranges]`` may name: an arm, or a kind of artillery.
RANGE_KINDS = ("infantry", "cavalry", "artillery", "foot artillery", "horse artillery",
               "heavy artillery")

#: What answers "which face is hit" in each rule set.
FACE_RULE = {
    "huzzah": "Huzzah! p.12: +1 if firing on a target's flank or rear (closest visible face, p.11)",
    "agv": "geometry only: the AGV weather guidelines give no facing rule",
    "mininap": "geometry only: Mini-Nap 2 App. D gives no facing rule",
    "wesencraft": "geometry only: the weather gauge gives no facing rule",
}


@dataclass(frozen=True)
class WeaponRange:
    """A firer's weapon range in cm: ``short`` (None: not given) and ``long`` (the most), and
    where it comes from."""

    long: float
    short: float | None
    source: str


def range_kind(unit: Unit) -> list[str]:
    """The ``[ranges]`` keys that apply to ``unit``, most particular first."""
    kinds = [f"{unit.guns} artillery"] if unit.arm == "artillery" and unit.guns else []
    return kinds + [unit.arm]


def weapon_range(unit: Unit, rules: str,
                 ranges: Mapping[str, tuple[float | None, float]] | None = None
                 ) -> WeaponRange | None:
    """The unit's weapon range: its own ``range`` first; then Huzzah! p.11; then the scenario's
    ``ranges`` by unit kind (cm, ``kind -> (short or None, long)``); None when none applies."""
    check_rules(rules)
    if unit.range_cm is not None:
        short = unit.range_cm / 2.0 if rules == "huzzah" else None
        return WeaponRange(unit.range_cm, short, f"scenario: unit {unit.id!r} range")
    if rules == "huzzah":
        if unit.arm == "cavalry":
            return None
        cm = HUZZAH_RANGE_CM[huzzah_class(unit)]
        return WeaponRange(cm, cm / 2.0, HUZZAH_RANGE_RULE + " (short: under half, p.12)")
    for kind in range_kind(unit):
        if ranges and kind in ranges:
            short, long = ranges[kind]
            return WeaponRange(long, short, f"scenario: ranges.{kind} (the seed gives none)")
    return None


@dataclass(frozen=True)
class FireEffect:
    """One weather effect on fire and whether it touches this shot (``applies`` None: cannot
    be decided, e.g. long range not defined)."""

    rule: FireRule
    applies: bool | None
    why: str

    def to_json(self) -> dict[str, Any]:
        return {**self.rule.to_json(), "applies": self.applies, "why": self.why}


@dataclass(frozen=True)
class FireAnswer:
    """May ``firer`` shoot at ``target`` this turn, and on what terms; lengths in the table's
    unit.  ``band`` is "short", "long", "in range" (no short range given), "out of range" or
    None (no weapon range); ``in_arc`` None where the rule set has no arc; ``may_fire`` None
    when it cannot be decided (no weapon range).  ``modifiers`` are what changes this shot,
    ``(text, amount, rule)``: ``amount`` is added to the number the rule names, or None when
    the change is not an addition (AGV and Mini-Nap 2 showers halve the dice)."""

    firer: str
    target: str
    rules: str
    unit: str
    weather: str | None
    sight: Sight
    range: float
    method: str
    range_from: tuple[float, float]
    range_to: tuple[float, float]
    weapon_range: float | None
    short_range_limit: float | None
    range_source: str | None
    band: str | None
    in_arc: bool | None
    face: str
    face_kind: str
    face_rule: str
    effects: tuple[FireEffect, ...]
    modifiers: tuple[tuple[str, int | None, str], ...]
    may_fire: bool | None
    reasons: tuple[str, ...]

    # names kept from the earlier range answer
    @property
    def in_range(self) -> bool | None:
        return None if self.band is None else self.band != "out of range"

    @property
    def short_range(self) -> bool | None:
        return None if self.short_range_limit is None or self.band is None else self.band == "short"

    @property
    def can_fire(self) -> bool | None:
        return self.may_fire

    def to_json(self) -> dict[str, Any]:
        r = lambda v: None if v is None else round(v, 6)  # noqa: E731
        return {
            "firer": self.firer, "target": self.target, "rules": self.rules, "unit": self.unit,
            "weather": self.weather,
            "sight": {"los": self.sight.los, "visible": self.sight.visible,
                      "visibility": r(self.sight.visibility),
                      "within_visibility": self.sight.within_visibility,
                      "reason": self.sight.reason, "rule": self.sight.rule},
            "range": r(self.range), "method": self.method,
            "range_from": [r(v) for v in self.range_from], "range_to": [r(v) for v in self.range_to],
            "weapon_range": r(self.weapon_range), "short_range_limit": r(self.short_range_limit),
            "range_source": self.range_source, "band": self.band,
            "in_range": self.in_range, "short_range": self.short_range,
            "in_arc": self.in_arc, "face": self.face, "face_kind": self.face_kind,
            "face_rule": self.face_rule,
            "effects": [e.to_json() for e in self.effects],
            "modifiers": [{"text": t, "amount": a, "rule": why} for t, a, why in self.modifiers],
            "may_fire": self.may_fire, "can_fire": self.may_fire, "reasons": list(self.reasons),
        }

    def text(self) -> str:
        """The answer as the lines ``hexwx table --fire`` prints (without the heading)."""
        u = self.unit
        f = lambda v: "not given" if v is None else ruler(v, u)  # noqa: E731
        sight = self.sight
        geometry = "; ".join(sight.los_reasons)
        vis = "" if sight.visibility is None else (
            f"; within the visibility of {f(sight.visibility)}" if sight.within_visibility
            else f"; beyond the visibility of {f(sight.visibility)}")
        lines = [f"sight: {'yes' if sight.visible else 'no'}: line of sight {sight.los} "
                 f"({geometry}){vis}"]
        lines.append(f"range: {ruler(self.range, u)} ({self.method})")
        if self.weapon_range is None:
            lines.append("weapon range: not given (the rule set gives none: set [ranges] or "
                         "range = ... in the scenario)")
        else:
            short = "" if self.short_range_limit is None else \
                f", short under {ruler(self.short_range_limit, u)}" if self.rules == "huzzah" else \
                f", short up to {ruler(self.short_range_limit, u)}"
            lines.append(f"weapon range: {ruler(self.weapon_range, u)}{short} ({self.range_source}); "
                         f"band: {self.band}")
        lines.append("arc: " + ("none in this rule set" if self.in_arc is None else
                                "in the 45 degree arc (Huzzah! p.11)" if self.in_arc else
                                "outside the 45 degree arc (Huzzah! p.11)"))
        lines.append(f"face hit: {self.face} ({self.face_kind}; {self.face_rule})")
        if not self.effects:
            lines.append(f"weather ({self.weather}): no effect on fire")
        for e in self.effects:
            state = {True: "applies", False: "does not apply", None: "undecided"}[e.applies]
            lines.append(f"weather: {e.rule.words} ({e.rule.rule}): {state}: {e.why}")
        for text, amount, rule in self.modifiers:
            lines.append(f"modifier: {'' if amount is None else f'{amount:+d} '}{text} ({rule})")
        verdict = {True: "yes", False: "no", None: "cannot say"}[self.may_fire]
        lines.append(f"may fire: {verdict}")
        lines.extend(f"  - {why}" for why in self.reasons)
        return "\n".join(lines)


def _band(rng: float, wr: WeaponRange | None, rules: str) -> str | None:
    if wr is None:
        return None
    if rng > wr.long + 1e-9:
        return "out of range"
    if wr.short is None:
        return "in range"
    if rules == "huzzah":                       # p.12 "under half range"
        return "short" if rng < wr.short - 1e-9 else "long"
    return "short" if rng <= wr.short + 1e-9 else "long"


def _effect(rule: FireRule, firer: Unit, band: str | None) -> FireEffect:
    if firer.arm not in rule.arms:
        return FireEffect(rule, False, f"{firer.arm} is not touched (it covers "
                                       f"{', '.join(rule.arms)})")
    if rule.effect == "no long-range artillery":
        if band == "long":
            return FireEffect(rule, True, "the target is at long range")
        if band in ("short", "out of range"):
            return FireEffect(rule, False, f"the target is {'at short range' if band == 'short' else 'out of range anyway'}")
        return FireEffect(rule, None, "long range is not defined: give a short range "
                                      "([ranges] KIND = [short, long])")
    if rule.effect == "artillery factor":
        return FireEffect(rule, True, "the firer is artillery: it changes the army's artillery "
                                      "effectiveness throw this turn (p.10), not this shot's "
                                      "fire factor")
    return FireEffect(rule, True, f"the firer is {firer.arm}")


def fire_answer(table: TableTop, firer_id: str, target_id: str, *, rules: str,
                report: TurnReport | None = None, visibility_cm: float | None = None,
                ranges: Mapping[str, tuple[float | None, float]] | None = None,
                rivals: bool = True) -> FireAnswer:
    """May ``firer`` shoot at ``target`` under ``report`` (None: fair weather), with the
    visibility limit ``visibility_cm`` (None: unlimited) and the scenario's ``ranges`` by unit
    kind (cm).  See the module docstring for where each part comes from.

    Huzzah! p.11: "if possible targets exist both at short range and beyond short range, the
    firer must shoot at one of the targets at short range": with ``rivals`` (the default) a
    target beyond short range is refused when another enemy unit could be shot at short range."""
    check_rules(rules)
    firer, target = table.unit_by_id(firer_id), table.unit_by_id(target_id)
    if firer is target:
        raise UsageError(f"a unit cannot fire at itself: {firer_id!r}")
    sight = can_see(table, firer_id, target_id, rules=rules, visibility_cm=visibility_cm)
    face = closest_visible_face(target, firer.centre)
    p, q = range_points(firer, target, rules, face=face)
    rng = math.dist(p, q)
    wr = weapon_range(firer, rules, ranges)
    band = _band(rng, wr, rules)
    arc = in_arc(table, firer, target) if rules == "huzzah" else None
    face_kind = "front" if target.formation == "square" else face.kind
    weather = None if report is None else report.weather
    effects = tuple(_effect(r, firer, band) for r in
                    (fire_rules(rules, report.weather, report.ground) if report else ()))
    u = table.unit
    reasons: list[str] = []
    modifiers: list[tuple[str, int | None, str]] = []
    if rules == "huzzah":
        if firer.arm == "cavalry":
            reasons.append("cavalry cannot fire (Huzzah! p.11)")
        if firer.formation == "column":
            reasons.append("units in road column cannot fire (Huzzah! p.12)")
        if not arc:
            reasons.append("target outside the arc of 45 degrees either side (Huzzah! p.11)")
        if sight.partly_blocked_by_units:
            reasons.append("target partly blocked by unit " + ", ".join(
                repr(x) for x in sight.partly_blocked_by_units) + " (Huzzah! p.11)")
        if band == "short":
            modifiers.append(("target at short range (under half range)", +1, "Huzzah! p.12"))
        if face_kind in ("flank", "rear"):
            modifiers.append((f"firing on the target's {face_kind}", +1, "Huzzah! p.12"))
        if target.formation == "square":
            modifiers.append(("target is in square (it has no flank or rear, p.22)", +1,
                              "Huzzah! p.12"))
    if band == "out of range" and wr is not None:
        reasons.append(f"out of range: {ruler(table.to_unit(rng), u)} > "
                       f"{ruler(table.to_unit(wr.long), u)}")
    if sight.los == "blocked":
        reasons.append(f"no line of sight: {sight.reasons[0]}")
    if not sight.within_visibility:
        reasons.append(sight.visibility_reason + (f" ({sight.rule})" if sight.rule else ""))
    for e in effects:
        if e.applies and e.rule.effect in ("forbidden", "no long-range artillery"):
            reasons.append(f"{e.rule.words} ({e.rule.rule})")
        elif e.applies and e.rule.effect in ("per die", "fire factor"):
            modifiers.append((e.rule.text, e.rule.amount, e.rule.rule))
        elif e.applies and e.rule.effect == "half dice":      # fewer dice: not an addition
            modifiers.append((e.rule.text, None, e.rule.rule))
        # "artillery factor" stays an effect only: it changes the army's artillery
        # effectiveness throw (Huzzah! p.10), not this shot's fire factor (the p.12 list)
    undecided = any(e.applies is None for e in effects)
    if rules == "huzzah" and rivals and band == "long" and not reasons:
        # only a rival at short range can be one (the range alone, before its whole answer)
        short = [e for e in table.units if e.side != firer.side and e.id != target.id
                 and _band(range_cm(firer, e, rules), wr, rules) == "short"]
        others = [fire_answer(table, firer.id, e.id, rules=rules, report=report,
                              visibility_cm=visibility_cm, ranges=ranges, rivals=False)
                  for e in short]
        near = [a.target for a in others if a.band == "short" and a.may_fire]
        if near:
            reasons.append(f"a target at short range must be chosen: {', '.join(near)} "
                           f"(Huzzah! p.11)")
    if reasons:
        may: bool | None = False
    elif wr is None or undecided:
        may = None
        if wr is None and not (rules == "huzzah" and firer.arm == "cavalry"):
            reasons.append("no weapon range for this unit: the rule set gives none and neither "
                           "does the scenario")
        if undecided:
            reasons.append("long range is not defined for this firer: strong winds cannot be "
                           "applied")
    else:
        may = True
    to = table.to_unit
    return FireAnswer(
        firer=firer.id, target=target.id, rules=rules, unit=u, weather=weather, sight=sight,
        range=to(rng), method=RANGE_METHOD[rules], range_from=(to(p[0]), to(p[1])),
        range_to=(to(q[0]), to(q[1])),
        weapon_range=None if wr is None else to(wr.long),
        short_range_limit=None if wr is None or wr.short is None else to(wr.short),
        range_source=None if wr is None else wr.source, band=band, in_arc=arc,
        face=face.name if target.formation != "square" else "front (square)",
        face_kind=face_kind,
        face_rule=FACE_RULE[rules], effects=effects, modifiers=tuple(modifiers),
        may_fire=may, reasons=tuple(reasons))
