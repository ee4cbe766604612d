"""hexwx: line of sight, hindrances and movement under weather.

Two worlds share one engine: ASL-style hex maps (geomorphic boards, VASL archives, E3 weather)
and miniatures tabletops measured in inches or centimetres.  Everything a user needs is here as
``hexwx.X``::

    import hexwx
    m = hexwx.load_map("maps/hill_village.toml")
    r = hexwx.los(m, "J4", "C5", weather=hexwx.AslWeather(fog_level=0, fog_drm=1))

Names are imported on first use, so ``import hexwx`` (and ``hexwx --help``) stays cheap.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hexwx.errors import DataError, HexwxError, UsageError

__version__ = "0.1.0"

#: Public name -> the module that defines it (imported lazily, PEP 562).
_EXPORTS: dict[str, str] = {
    # files -> maps and scenarios
    "load_map": "hexwx.io.load",
    "load_layout": "hexwx.io.layout",
    "load_scenario": "hexwx.io.scenario",
    "load_table_scenario": "hexwx.io.table_scenario",
    "HexMap": "hexwx.hexmap.board",
    "Scenario": "hexwx.io.scenario",
    "TableScenario": "hexwx.io.table_scenario",
    # line of sight
    "los": "hexwx.lineofsight.engine",
    "viewshed": "hexwx.lineofsight.engine",
    "los_table": "hexwx.lineofsight.engine",
    "LosResult": "hexwx.lineofsight.results",
    "Viewshed": "hexwx.lineofsight.results",
    "LosTable": "hexwx.lineofsight.results",
    "Hindrance": "hexwx.lineofsight.results",
    # the counters on the map (game state, like the weather)
    "Counter": "hexwx.lineofsight.counters",
    "Counters": "hexwx.lineofsight.counters",
    # movement
    "path": "hexwx.movement.paths",
    "reach": "hexwx.movement.paths",
    "MovePath": "hexwx.movement.paths",
    "Reach": "hexwx.movement.paths",
    "Step": "hexwx.movement.paths",
    # weather
    "AslWeather": "hexwx.weather.asl.state",
    "Drift": "hexwx.weather.asl.state",
    "roll_weather": "hexwx.weather.asl.rolls",
    "run_weather": "hexwx.weather.asl.rolls",
    "Dice": "hexwx.dice",
    "Roll": "hexwx.dice",
    # tabletop
    "can_see": "hexwx.tabletop.sight",
    "Sight": "hexwx.tabletop.sight",
}

__all__ = ["HexwxError", "DataError", "UsageError", "__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hexwx' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function; a submodule import cannot rebind it
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # for type checkers and IDEs: the same names, eagerly
    from hexwx.dice import Dice, Roll
    from hexwx.hexmap.board import HexMap
    from hexwx.io.layout import load_layout
    from hexwx.io.load import load_map
    from hexwx.io.scenario import Scenario, load_scenario
    from hexwx.io.table_scenario import TableScenario, load_table_scenario
    from hexwx.lineofsight.engine import los, los_table, viewshed
    from hexwx.lineofsight.counters import Counter, Counters
    from hexwx.lineofsight.results import Hindrance, LosResult, LosTable, Viewshed
    from hexwx.movement.paths import MovePath, Reach, Step, path, reach
    from hexwx.tabletop.sight import Sight, can_see
    from hexwx.weather.asl.rolls import roll_weather, run_weather
    from hexwx.weather.asl.state import AslWeather, Drift
