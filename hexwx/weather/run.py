"""A weather run (turn by turn) that draws itself in a notebook.

:class:`WeatherRun` is a plain list of per-turn records (ASL ``TurnRecord`` or miniatures
``TurnReport``) -- equal to the list, JSON-ready as before -- with ``_repr_svg_``: one row per
turn with its weather, and a visibility bar where the rules give a distance
(:mod:`hexwx.render.weather_svg`).
"""
from __future__ import annotations

from typing import Any


class WeatherRun(list):  # type: ignore[type-arg]
    """The records of a weather run, one per turn (or Player Turn), in order."""

    def _repr_svg_(self) -> str:
        from hexwx.render.weather_svg import run_svg
        return run_svg(list(self))

    def __repr__(self) -> str:
        return f"WeatherRun({list.__repr__(self)})"

    def to_json(self) -> list[Any]:
        return [r.to_json() for r in self]
