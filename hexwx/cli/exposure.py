"""``hexwx exposure``: for every hex, how many hexes (or which of given enemy hexes) see it.

  hexwx exposure maps/hill_village.toml --fog 0 --fog-drm 1
  hexwx exposure bd02 --from A7,N7,I4 --json
"""
from __future__ import annotations

import argparse
import json
import re
from typing import Any

from hexwx.errors import UsageError


def hex_list(text: str) -> list[str]:
    """``"A7,N7 I4"`` -> ``["A7", "N7", "I4"]`` (commas or spaces); UsageError when empty."""
    items = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not items:
        raise UsageError(f"expected a list of hexes such as 'A7,N7', got {text!r}")
    return items


def add_hexes_option(p: argparse.ArgumentParser, flag: str, dest: str, help_: str) -> None:
    """A repeatable option taking comma-separated hexes (collected into one list)."""
    p.add_argument(flag, dest=dest, action="append", metavar="HEXES", help=help_)


def hexes_of(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    out: list[str] = []
    for v in values:
        out += hex_list(v)
    return out


def register(subparsers: Any) -> None:
    from hexwx.cli.counter_opts import add_counter_options
    from hexwx.cli.hex import MAP_HELP, add_map_options
    from hexwx.cli.weather import add_weather_flags
    p = subparsers.add_parser(
        "exposure",
        description="The exposure heat map: for every hex, how many other hexes at ground level "
                    "have LOS to its location at --level (default 0), under the weather (terrain "
                    "+ LV of 6 or more blocks, E3.1).  With --from only those hexes count as "
                    "observers, and each hex lists which of them see it.",
        epilog="examples:\n  hexwx exposure maps/hill_village.toml --fog 0 --fog-drm 1\n"
               "  hexwx exposure bd02 --from A7,N7,I4 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("map", metavar="MAP", nargs="?", help=MAP_HELP)
    p.add_argument("--scenario", metavar="FILE",
                   help="a hex scenario instead of MAP: its map, weather and counters")
    p.add_argument("--level", type=int, default=0, metavar="N",
                   help="level of the exposed location in each hex (default 0; hexes without "
                        "that level are left out)")
    add_hexes_option(p, "--from", "observers",
                     "observer hexes, comma-separated (default: every hex); repeatable")
    p.add_argument("--top", type=int, default=10, metavar="N",
                   help="text output: how many most/least exposed hexes to list (default 10)")
    p.add_argument("--json", action="store_true", help="print the counts of every hex as JSON")
    add_map_options(p)
    add_counter_options(p)
    add_weather_flags(p)
    p.set_defaults(func=run)


def exposure_json(m: Any, args: argparse.Namespace, *, scenario: Any = None,
                  counters: Any = None) -> dict[str, Any]:
    """The JSON answer of ``hexwx exposure`` for map ``m`` and parsed flags ``args`` (weather:
    the flags, else the scenario's, else clear; counters: ``counters``, else the scenario's)."""
    from hexwx.cli.weather import weather_from_args
    from hexwx.lineofsight.exposure import exposure
    weather = weather_from_args(args, scenario=scenario)
    if counters is None and scenario is not None:
        counters = scenario.los_counters
    res = exposure(m, level=args.level, observers=hexes_of(args.observers), weather=weather,
                   counters=counters)
    data = {"map": m.name, **res.to_json()}
    if res.observers is not None and res.seen is not None:
        data["seen_by"] = {m.name_of(h): [o for o, s in zip(res.observers, res.seen[:, h]) if s]
                           for h in range(len(m)) if res.count[h] > 0}
    return data


def run(args: argparse.Namespace) -> int:
    from hexwx.cli.counter_opts import counters_from_args
    from hexwx.cli.hex import map_or_scenario
    from hexwx.cli.weather import weather_from_args
    from hexwx.lineofsight.exposure import exposure
    if args.top < 0:
        raise UsageError(f"--top must be >= 0, got {args.top}")
    m, scenario, source = map_or_scenario(args, args.map)
    counters = counters_from_args(args, m, scenario=scenario, source=source)
    if args.json:
        print(json.dumps(exposure_json(m, args, scenario=scenario, counters=counters), indent=2))
        return 0
    weather = weather_from_args(args, scenario=scenario)
    res = exposure(m, level=args.level, observers=hexes_of(args.observers), weather=weather,
                   counters=counters)
    print(res.describe(args.top))
    return 0
