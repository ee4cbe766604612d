"""ASL Chapter E3 weather: the state, the charts and rolls, drifts, effects, terrain changes.

Layer ``weather`` (imports only errors/dice/validate and ``hexwx.hexmap``).  Modules:
:mod:`~hexwx.weather.asl.charts` (the charts as data), :mod:`~hexwx.weather.asl.state`
(:class:`AslWeather`, :class:`Drift`), :mod:`~hexwx.weather.asl.records` (logged rolls and events),
:mod:`~hexwx.weather.asl.drifts` (placement, 3.75), :mod:`~hexwx.weather.asl.rolls` (DYO and the
Wind Change DR), :mod:`~hexwx.weather.asl.effects` (what a state does),
:mod:`~hexwx.weather.asl.terrain_changes` (snow changing terrain).
"""
from __future__ import annotations

from hexwx.weather.asl.drifts import board_of, place_drift
from hexwx.weather.asl.effects import TOPICS, Effect, effects
from hexwx.weather.asl.records import ChartRoll, WeatherEvent
from hexwx.weather.asl.rolls import (TurnRecord, advance_player_turn, fog_density, fog_level,
                                     fog_or_mist, next_player_turn, roll_weather, run_weather,
                                     snow_chart_drm, snow_condition, temperate_weather,
                                     wind_change)
from hexwx.weather.asl.state import AslWeather, Drift, parse_base, parse_month
from hexwx.weather.asl.terrain_changes import weather_changes

__all__ = [
    "AslWeather", "ChartRoll", "Drift", "Effect", "TOPICS", "TurnRecord", "WeatherEvent",
    "advance_player_turn", "board_of", "effects", "fog_density",
    "fog_level", "fog_or_mist", "next_player_turn", "parse_base", "parse_month", "place_drift",
    "roll_weather", "run_weather", "snow_chart_drm", "snow_condition", "temperate_weather",
    "weather_changes", "wind_change",
]
