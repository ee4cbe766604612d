"""E3 weather that changes the terrain itself, as raster rules (:mod:`hexwx.hexmap.transform`).

The same rules VASL's terrain SSRs use, so one transformation serves LOS, movement and render:
ground snow (and deep snow, which includes it) turns marsh and mudflats into Open Ground
(E3 3.722); deep snow turns brush into Open Ground (E3 3.73).
"""
from __future__ import annotations

from hexwx.hexmap.transform import TerrainChange
from hexwx.weather.asl.state import AslWeather

#: E3 3.722: "Marsh and Mudflats are treated as Open Ground" under Ground Snow (and Deep Snow).
GROUND_SNOW_CHANGES: tuple[TerrainChange, ...] = (
    TerrainChange("terrainMap", "Marsh", "Open Ground", name="snow: marsh", rule="E3.722"),
    TerrainChange("terrainMap", "Mudflats", "Open Ground", name="snow: mudflats", rule="E3.722"),
)
#: E3 3.73: Deep Snow turns Brush into Open Ground.
DEEP_SNOW_CHANGES: tuple[TerrainChange, ...] = (
    TerrainChange("terrainMap", "Brush", "Open Ground", name="deep snow: brush", rule="E3.73"),
)


def weather_changes(weather: AslWeather | None) -> tuple[TerrainChange, ...]:
    """The terrain changes an ASL weather state makes (none for None)."""
    if weather is None:
        return ()
    deep = weather.deep_snow
    snow = deep or weather.ground_snow
    return (GROUND_SNOW_CHANGES if snow else ()) + (DEEP_SNOW_CHANGES if deep else ())
