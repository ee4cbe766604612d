"""The miniatures rule sets hexwx knows: one registry for weather, tabletop sight and the CLI."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from hexwx.validate import one_of
from hexwx.errors import UsageError


@dataclass(frozen=True)
class RuleSet:
    """A rule set: its short name (``--rules``, ``rules =``), printed title, weather module,
    seed and the unit its text measures in (AGV is an inches game; the others use cm)."""

    name: str
    title: str
    module: str
    seed: str
    unit: str = "cm"


#: Short name -> rule set, in the order the help lists them.
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType({r.name: r for r in (
    RuleSet("agv", "A Glorious Victory!", "hexwx.weather.minis.agv", "000", "in"),
    RuleSet("mininap", "Mini-Nap 2", "hexwx.weather.minis.mininap", "001"),
    RuleSet("wesencraft", "Wesencraft gauge", "hexwx.weather.minis.wesencraft", "003"),
    RuleSet("huzzah", "Huzzah! Glorious Empires", "hexwx.weather.minis.huzzah", "002"),
)})

#: The short names, in order.
RULE_NAMES: tuple[str, ...] = tuple(RULE_SETS)


def check_rules(rules: str) -> str:
    """``rules`` if it names a rule set; else a :class:`UsageError` listing them."""
    return one_of(rules, RULE_NAMES, "rules")
