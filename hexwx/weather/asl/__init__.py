"""ASL Chapter E3 weather: the state, the charts and rolls, drifts, effects, terrain changes.

Layer ``weather`` (imports only errors/dice/validate and ``hexwx.hexmap``).  Modules:
:mod:`~hexwx.weather.asl.charts` (the charts as data), :mod:`~hexwx.weather.asl.state`
(:class:`AslWeather`, :class:`Drift`), :mod:`~hexwx.weather.asl.records` (logged rolls and events),
:mod:`~hexwx.weather.asl.drifts` (placement, 3.75), :mod:`~hexwx.weather.asl.rolls` (DYO and the
Wind Change DR), :mod:`~hexwx.weather.asl.effects` (what a state does),
:mod:`~hexwx.weather.asl.terrain_changes` (snow changing terrain).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Public name -> the module that defines it, imported on first use (PEP 562): a command that
#: needs only the state (``render``, ``los``) does not load the rolls, drifts and effects.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(("board_of", "place_drift"), "drifts"),
    **dict.fromkeys(("TOPICS", "Effect"), "effects"),   # the function effects(): from the module
    # (its name is the submodule's, so the package attribute is always the module)
    **dict.fromkeys(("ChartRoll", "WeatherEvent"), "records"),
    **dict.fromkeys(("TurnRecord", "advance_player_turn", "fog_density", "fog_level",
                     "fog_or_mist", "next_player_turn", "roll_weather", "run_weather",
                     "snow_chart_drm", "snow_condition", "temperate_weather", "wind_change"),
                    "rolls"),
    **dict.fromkeys(("AslWeather", "Drift", "parse_base", "parse_month"), "state"),
    "weather_changes": "terrain_changes",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hexwx.weather.asl' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # for type checkers: the same names, eagerly
    from hexwx.weather.asl.drifts import board_of, place_drift
    from hexwx.weather.asl.effects import TOPICS, Effect
    from hexwx.weather.asl.records import ChartRoll, WeatherEvent
    from hexwx.weather.asl.rolls import (TurnRecord, advance_player_turn, fog_density,
                                         fog_level, fog_or_mist, next_player_turn,
                                         roll_weather, run_weather, snow_chart_drm,
                                         snow_condition, temperate_weather, wind_change)
    from hexwx.weather.asl.state import AslWeather, Drift, parse_base, parse_month
    from hexwx.weather.asl.terrain_changes import weather_changes
