"""``hexwx path`` and ``hexwx reach``: movement costs under ASL E3 weather from the command line.

  hexwx path maps/village.toml A5 E5 --unit truck --mud
  hexwx path --scenario scenarios/winter_drifts.toml ski-squad K6 --unit infantry --json
  hexwx reach maps/village.toml C5 --unit infantry --mf 4 --deep-snow --plowed-roads

MAP is a hexwx map (.toml) or a VASL board archive (terrain table from --vasl-metadata or
$HEXWX_VASL_METADATA).  With --scenario, MAP may be left out (the scenario's map is used), the
scenario's weather applies unless weather flags are given, and FROM/TO may be unit ids.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hexwx.cli.hex import MAP_HELP, add_map_options
from hexwx.cli.weather import add_weather_flags, weather_from_args
from hexwx.errors import UsageError
from hexwx.movement.costs import parse_unit
from hexwx.movement.charts import MOVE_CLASSES

UNIT_HELP = ("unit class: " + ", ".join(MOVE_CLASSES) +
             " (also fully-tracked, halftrack, truck, armoured-car)")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unit", metavar="KIND", help=UNIT_HELP + "; default: the scenario unit's "
                   "kind when FROM is an infantry unit of --scenario")
    p.add_argument("--scenario", metavar="FILE", help="hex scenario: its map (if MAP is left "
                   "out), weather, drifts and unit ids")
    add_map_options(p)
    from hexwx.cli.counter_opts import add_counter_options
    add_counter_options(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_weather_flags(p)


def register(subparsers: Any) -> None:
    """Add ``path`` and ``reach`` to the hexwx command line."""
    p = subparsers.add_parser(
        "path",
        description="The cheapest path from FROM to TO for a unit class under ASL E3 weather: "
        "each step's cost with its parts and rule citations (chapter B defaults; rain 3.54, "
        "mud 3.64, ground snow 3.723-3.724, deep snow 3.733-3.7331, drifts 3.752).",
        epilog="examples:\n  hexwx path maps/village.toml A5 E5 --unit truck --mud\n"
        "  hexwx path --scenario scenarios/winter_drifts.toml ski-squad K6 --unit infantry\n"
        "A drift hexside takes the whole move (E3.752): it is used only for a one-step path.  "
        "Exit 0 also when there is no path (the JSON says found: false).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("map", nargs="?", metavar="MAP", help=MAP_HELP)
    p.add_argument("frm", metavar="FROM", help="start hex (or a unit id of --scenario)")
    p.add_argument("to", metavar="TO", help="goal hex (or a unit id of --scenario)")
    p.add_argument("--mf", type=float, metavar="N",
                   help="movement allowance: say whether the path fits it (drift steps cost it all)")
    p.add_argument("--avoid-sight-of", dest="avoid_sight_of", action="append", metavar="HEXES",
                   help="covered approach: the path with the fewest steps in LOS of these hexes "
                        "(comma-separated; repeatable), cheapest among those; each step says who "
                        "sees it")
    _common(p)
    p.set_defaults(func=_cmd_path)

    r = subparsers.add_parser(
        "reach",
        description="Every hex a unit class can reach from FROM with N MF (infantry, cavalry) "
        "or MP (vehicles) under ASL E3 weather, with its cost.  Hexes reached only with the "
        "road bonus (B3.4) are marked *, hexes across a drift (whole move, 3.752) !.",
        epilog="example:\n  hexwx reach maps/village.toml C5 --unit infantry --mf 4 --deep-snow",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("map", nargs="?", metavar="MAP", help=MAP_HELP)
    r.add_argument("frm", metavar="FROM", help="start hex (or a unit id of --scenario)")
    r.add_argument("--mf", type=float, required=True, metavar="N", help="movement allowance (>= 0)")
    _common(r)
    r.set_defaults(func=_cmd_reach)


def _load(args: argparse.Namespace) -> tuple[Any, Any]:
    """(map, scenario or None) from MAP / --scenario."""
    scn = None
    if args.scenario:
        from hexwx.io.scenario import load_scenario
        scn = load_scenario(args.scenario)
    if args.map:
        from hexwx.io.load import load_map
        meta = args.vasl_metadata or (scn.vasl_metadata if scn is not None else None)
        m = load_map(args.map, vasl_metadata=meta, vasl_dir=args.vasl_dir, ssr=tuple(args.ssr),
                     ignore_board_extras=bool(getattr(args, "ignore_board_extras", False)))
    elif scn is not None:
        m = scn.map
    else:
        raise UsageError("give a MAP (a .toml map or VASL board archive) or --scenario FILE")
    return m, scn


def _hex_of(text: str, scn: Any) -> tuple[str, Any]:
    """A hex name, or a scenario unit id -> (its hex, the unit)."""
    if scn is not None:
        for u in scn.units:
            if u.id == text:
                return u.hex, u
    return text, None


def _unit(args: argparse.Namespace, unit: Any) -> str:
    if args.unit:
        return parse_unit(args.unit)
    if unit is not None and unit.kind == "infantry":
        return "infantry"
    raise UsageError("--unit KIND is required; expected one of " + ", ".join(MOVE_CLASSES))


def _weather(args: argparse.Namespace, m: Any, scn: Any) -> Any:
    return weather_from_args(args, scenario=scn)


def _check_mf(value: float | None) -> None:
    if value is not None and not value >= 0:
        raise UsageError(f"bad allowance {value:g} for --mf; expected a number >= 0")


def path_answer(m: Any, scn: Any, args: argparse.Namespace) -> tuple[str, str, Any]:
    """(from hex, to hex, MovePath or CoveredPath) of ``hexwx path`` on a loaded map."""
    _check_mf(args.mf)
    a, unit_a = _hex_of(args.frm, scn)
    b, _ = _hex_of(args.to, scn)
    unit = _unit(args, unit_a)
    weather = _weather(args, m, scn)
    if getattr(args, "avoid_sight_of", None):
        from hexwx.cli.exposure import hexes_of
        from hexwx.movement.covered import covered_path
        watchers = [_hex_of(h, scn)[0] for h in hexes_of(args.avoid_sight_of) or []]
        return a, b, covered_path(m, a, b, unit=unit, watchers=watchers, weather=weather,
                                  mf=args.mf)
    from hexwx.movement.paths import path
    return a, b, path(m, a, b, unit=unit, weather=weather, mf=args.mf,
                      counters=_counters(args, m, scn))


def _counters(args: argparse.Namespace, m: Any, scn: Any) -> Any:
    """The counters on the map (rubble changes movement, B24): the scenario's or save's and
    --counter, none with --no-counters."""
    from hexwx.cli.counter_opts import counters_from_args
    return counters_from_args(args, m, scenario=scn, source=getattr(args, "map", None))


def path_json_text(m: Any, scn: Any, args: argparse.Namespace) -> str:
    """The text ``hexwx path ... --json`` prints (without the final newline)."""
    return path_json(m, *path_answer(m, scn, args))


def path_json(m: Any, a: str, b: str, res: Any) -> str:
    """The JSON text of one path answer (without the final newline)."""
    return json.dumps({"map": getattr(m, "name", ""), "from": a, "to": b, **res.to_json()},
                      indent=2, ensure_ascii=False)


def reach_answer(m: Any, scn: Any, args: argparse.Namespace) -> Any:
    """The Reach of ``hexwx reach`` on a loaded map."""
    _check_mf(args.mf)
    a, unit_a = _hex_of(args.frm, scn)
    unit = _unit(args, unit_a)
    from hexwx.movement.paths import reach
    return reach(m, a, unit=unit, mf=args.mf, weather=_weather(args, m, scn),
                 counters=_counters(args, m, scn))


def reach_json_text(m: Any, scn: Any, args: argparse.Namespace) -> str:
    """The text ``hexwx reach ... --json`` prints (without the final newline)."""
    res = reach_answer(m, scn, args)
    return json.dumps({"map": getattr(m, "name", ""), **res.to_json()}, indent=2,
                      ensure_ascii=False)


def _cmd_path(args: argparse.Namespace) -> int:
    _check_mf(args.mf)
    m, scn = _load(args)
    a, b, res = path_answer(m, scn, args)
    if args.json:
        print(path_json(m, a, b, res))
    elif res.found:
        print(res.describe())
    else:
        print(f"hexwx path: {res.describe()}", file=sys.stderr)
    return 0 if res.found else 1   # no route: exit 1 with one line; --json still says found: false


def _cmd_reach(args: argparse.Namespace) -> int:
    _check_mf(args.mf)
    m, scn = _load(args)
    if args.json:
        print(reach_json_text(m, scn, args))
    else:
        print(reach_answer(m, scn, args).describe())
    return 0
