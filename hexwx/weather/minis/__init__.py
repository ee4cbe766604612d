"""Weather for miniatures rules: one registry of rule sets, one runner, exact and Monte Carlo odds.

Layer ``weather``.  Modules: :mod:`~hexwx.weather.minis.registry` (the rule sets),
:mod:`~hexwx.weather.minis.common` (the turn report, runner and odds),
:mod:`~hexwx.weather.minis.spells` (the spell machine and the chart AGV and Mini-Nap 2 share),
:mod:`~hexwx.weather.minis.agv`, :mod:`~hexwx.weather.minis.mininap` (with dawn and dusk),
:mod:`~hexwx.weather.minis.huzzah`, :mod:`~hexwx.weather.minis.wesencraft`.
"""
from __future__ import annotations

import warnings
from typing import Any

from hexwx.weather.minis.common import (ENDED, TurnReport, exact_distribution, frequencies,
                                        initial_probabilities, model, run_minis_weather, simulate)
from hexwx.weather.minis.registry import RULE_NAMES, RULE_SETS, RuleSet, check_rules

__all__ = [
    "ENDED", "RULE_NAMES", "RULE_SETS", "RuleSet", "TurnReport", "check_rules",
    "exact_distribution", "frequencies", "initial_probabilities", "model", "run_minis_weather",
    "simulate",
]


def __getattr__(name: str) -> Any:
    """``run_weather``: the old name of :func:`run_minis_weather` (deprecated; the ASL runner
    is ``hexwx.run_weather``, one name per concept)."""
    if name == "run_weather":
        warnings.warn("hexwx.weather.minis.run_weather is deprecated: use run_minis_weather",
                      DeprecationWarning, stacklevel=2)
        return run_minis_weather
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
