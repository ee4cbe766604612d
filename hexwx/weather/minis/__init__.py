"""Weather for miniatures rules: one registry of rule sets, one runner, exact and Monte Carlo odds.

Layer ``weather``.  Modules: :mod:`~hexwx.weather.minis.registry` (the rule sets),
:mod:`~hexwx.weather.minis.common` (the turn report, runner and odds),
:mod:`~hexwx.weather.minis.spells` (the spell machine and the chart AGV and Mini-Nap 2 share),
:mod:`~hexwx.weather.minis.agv`, :mod:`~hexwx.weather.minis.mininap` (with dawn and dusk),
:mod:`~hexwx.weather.minis.huzzah`, :mod:`~hexwx.weather.minis.wesencraft`.
"""
from __future__ import annotations

from hexwx.weather.minis.common import (ENDED, TurnReport, exact_distribution, frequencies,
                                        initial_probabilities, model, run_weather, simulate)
from hexwx.weather.minis.registry import RULE_NAMES, RULE_SETS, RuleSet, check_rules

__all__ = [
    "ENDED", "RULE_NAMES", "RULE_SETS", "RuleSet", "TurnReport", "check_rules",
    "exact_distribution", "frequencies", "initial_probabilities", "model", "run_weather",
    "simulate",
]
