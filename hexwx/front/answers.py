"""The JSON answers of the hex queries, as ``hexwx los|path|reach|exposure --json`` prints them
and ``hexwx serve``'s ``/api/...`` returns them: parsed options in, one library call, a JSON
document out.  Endpoints are hex names or, with a scenario, unit ids
(:meth:`hexwx.Scenario.los` and its siblings resolve them).  ``counters``: the counters on
the map (:func:`~hexwx.front.options.counters_from_args`; None: the scenario's own)."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from hexwx.front.options import counter_notes, entrenched_observers, hexes_of, observers_of
from hexwx.front.options import weather_from_args

if TYPE_CHECKING:
    from hexwx.hexmap.board import HexMap
    from hexwx.io.scenario import Scenario
    from hexwx.lineofsight.counters import Counters
    from hexwx.lineofsight.results import LosResult
    from hexwx.weather.asl.state import AslWeather


def scenario_of(m: HexMap, scenario: Scenario | None) -> Scenario:
    """``scenario``, or a scenario of ``m`` with no units (its queries take hexes only)."""
    from hexwx.io.scenario import Scenario
    return scenario if scenario is not None else Scenario.on_map(m)


def los_answer(m: HexMap, scenario: Scenario | None, a_text: str, b_text: str,
               args: argparse.Namespace, *, counters: Counters | None = None
               ) -> tuple[LosResult, AslWeather]:
    """(LosResult, weather) of ``hexwx los`` for endpoints given as hexes or unit ids."""
    weather = weather_from_args(args, scenario=scenario)
    result = scenario_of(m, scenario).los(
        a_text, b_text, from_level=args.from_level, to_level=args.to_level, weather=weather,
        target_vehicle=bool(getattr(args, "target_vehicle", False)),
        target_camouflaged=bool(getattr(args, "target_camouflaged", False)), map=m,
        counters=counters, from_hexside=getattr(args, "from_hexside", None),
        to_hexside=getattr(args, "to_hexside", None),
        from_entrenched=getattr(args, "from_entrenched", None),
        to_entrenched=getattr(args, "to_entrenched", None))
    return result, weather


def los_json_text(m: HexMap, scenario: Scenario | None, a_text: str, b_text: str,
                  args: argparse.Namespace, *, counters: Counters | None = None) -> str:
    """The text ``hexwx los ... --json`` prints (without the final newline)."""
    result, weather = los_answer(m, scenario, a_text, b_text, args, counters=counters)
    return json.dumps({**result.to_json(), "weather": weather.to_json()}, indent=2)


def path_answer(m: HexMap, scenario: Scenario | None, args: argparse.Namespace, *,
                counters: Counters | None = None) -> tuple[str, str, Any]:
    """(from hex, to hex, MovePath or CoveredPath) of ``hexwx path`` on a loaded map."""
    sc = scenario_of(m, scenario)
    res = sc.path(args.frm, args.to, unit=args.unit, mf=args.mf, map=m,
                  weather=weather_from_args(args, scenario=scenario),
                  avoid_sight_of=tuple(hexes_of(getattr(args, "avoid_sight_of", None),
                                                "--avoid-sight-of") or ()),
                  counters=counters)
    return sc.place(args.frm, map=m).hex, sc.place(args.to, map=m).hex, res


def path_json(m: HexMap, a: str, b: str, res: Any) -> str:
    """The JSON text of one path answer (without the final newline)."""
    return json.dumps({"map": m.name, "from": a, "to": b, **res.to_json()},
                      indent=2, ensure_ascii=False)


def path_json_text(m: HexMap, scenario: Scenario | None, args: argparse.Namespace, *,
                   counters: Counters | None = None) -> str:
    """The text ``hexwx path ... --json`` prints (without the final newline)."""
    return path_json(m, *path_answer(m, scenario, args, counters=counters))


def reach_answer(m: HexMap, scenario: Scenario | None, args: argparse.Namespace, *,
                 counters: Counters | None = None) -> Any:
    """The Reach of ``hexwx reach`` on a loaded map."""
    return scenario_of(m, scenario).reach(args.frm, mf=args.mf, unit=args.unit, map=m,
                                          weather=weather_from_args(args, scenario=scenario),
                                          counters=counters)


def reach_json_text(m: HexMap, scenario: Scenario | None, args: argparse.Namespace, *,
                    counters: Counters | None = None) -> str:
    """The text ``hexwx reach ... --json`` prints (without the final newline)."""
    res = reach_answer(m, scenario, args, counters=counters)
    return json.dumps({"map": m.name, **res.to_json()}, indent=2, ensure_ascii=False)


def exposure_json(m: HexMap, args: argparse.Namespace, *, scenario: Scenario | None = None,
                  counters: Counters | None = None) -> dict[str, Any]:
    """The JSON answer of ``hexwx exposure`` for map ``m`` and parsed flags ``args`` (weather:
    the flags, else the scenario's, else clear; counters: ``counters``, else the scenario's)."""
    from hexwx.lineofsight.exposure import exposure
    weather = weather_from_args(args, scenario=scenario)
    if counters is None and scenario is not None:
        counters = scenario.los_counters
    observers, sides = observers_of(args.observers)
    res = exposure(m, level=args.level, observers=observers, weather=weather,
                   counters=counters, observer_hexsides=sides,
                   observer_entrenched=entrenched_observers(m, observers,
                                                            getattr(args, "entrenched", None)))
    data = {"map": m.name, **res.to_json(),
            "notes": list(counter_notes(m, counters, weather))}
    if res.observers is not None and res.seen is not None:
        data["seen_by"] = {m.name_of(h): [o for o, s in zip(res.observers, res.seen[:, h]) if s]
                           for h in range(len(m)) if res.count[h] > 0}
    return data
