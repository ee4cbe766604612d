"""``hexwx exposure``: for every hex, how many hexes (or which of given enemy hexes) see it.

  hexwx exposure maps/hill_village.toml --fog 0 --fog-drm 1
  hexwx exposure bd02 --from A7,N7,I4 --json
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from hexwx.errors import UsageError
from hexwx.front.options import add_exposure_parser


def register(subparsers: Any) -> None:
    add_exposure_parser(subparsers).set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hexwx.cli.hex import map_or_scenario
    from hexwx.front.answers import exposure_json
    from hexwx.front.options import counter_notes, counters_from_args
    from hexwx.front.options import entrenched_observers, observers_of, weather_from_args
    from hexwx.lineofsight.exposure import exposure
    if args.top < 0:
        raise UsageError(f"--top must be >= 0, got {args.top}")
    m, scenario, source = map_or_scenario(args, args.map)
    counters = counters_from_args(args, m, scenario=scenario, source=source)
    if args.json:
        print(json.dumps(exposure_json(m, args, scenario=scenario, counters=counters), indent=2))
        return 0
    weather = weather_from_args(args, scenario=scenario)
    observers, sides = observers_of(args.observers)
    res = exposure(m, level=args.level, observers=observers, weather=weather,
                   counters=counters, observer_hexsides=sides,
                   observer_entrenched=entrenched_observers(m, observers, args.entrenched))
    print(res.describe(args.top))
    for note in counter_notes(m, counters, weather):
        print(f"note: {note}")
    return 0
