"""``hexwx path`` and ``hexwx reach``: movement costs under ASL E3 weather from the command line.

  hexwx path maps/village.toml A5 E5 --unit truck --mud
  hexwx path --scenario scenarios/winter_drifts.toml ski-squad K6 --unit infantry --json
  hexwx reach maps/village.toml C5 --unit infantry --mf 4 --deep-snow --plowed-roads

MAP is a hexwx map (.toml) or a VASL board archive (terrain table from --vasl-metadata or
$HEXWX_VASL_METADATA).  With --scenario, MAP may be left out (the scenario's map is used), the
scenario's weather applies unless weather flags are given, and FROM/TO may be unit ids
(:meth:`hexwx.Scenario.path` and :meth:`hexwx.Scenario.reach` answer).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from hexwx.errors import UsageError
from hexwx.front.options import add_path_parser, add_reach_parser


def register(subparsers: Any) -> None:
    """Add ``path`` and ``reach`` to the hexwx command line."""
    add_path_parser(subparsers).set_defaults(func=_cmd_path)
    add_reach_parser(subparsers).set_defaults(func=_cmd_reach)


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


def _counters(args: argparse.Namespace, m: Any, scn: Any) -> Any:
    """The counters on the map (rubble changes movement, B24): the scenario's or save's and
    --counter, none with --no-counters."""
    from hexwx.front.options import counters_from_args
    return counters_from_args(args, m, scenario=scn, source=getattr(args, "map", None))


def _check_mf(value: float | None) -> None:
    if value is not None and not value >= 0:
        raise UsageError(f"bad allowance {value:g} for --mf; expected a number >= 0")


def _cmd_path(args: argparse.Namespace) -> int:
    from hexwx.front.answers import path_answer, path_json
    _check_mf(args.mf)
    m, scn = _load(args)
    a, b, res = path_answer(m, scn, args, counters=_counters(args, m, scn))
    if args.json:
        print(path_json(m, a, b, res))
    elif res.found:
        print(res.describe())
    else:
        print(f"hexwx path: {res.describe()}", file=sys.stderr)
    return 0 if res.found else 1   # no route: exit 1 with one line; --json still says found: false


def _cmd_reach(args: argparse.Namespace) -> int:
    from hexwx.front.answers import reach_answer, reach_json_text
    _check_mf(args.mf)
    m, scn = _load(args)
    counters = _counters(args, m, scn)
    if args.json:
        print(reach_json_text(m, scn, args, counters=counters))
    else:
        print(reach_answer(m, scn, args, counters=counters).describe())
    return 0
