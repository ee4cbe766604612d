"""``hexwx table``: questions about a tabletop scenario (sight, range, movement) on a turn."""
from __future__ import annotations

import argparse
import json
from typing import Any

from hexwx.errors import UsageError
from hexwx.units import count

_EPILOG = """\
examples:
  hexwx table scenarios/table_huzzah_fog_lifts.toml                   outline and weather
  hexwx table scenarios/table_huzzah_fog_lifts.toml --can-see french-1 allied-1 --turn 4
  hexwx table scenarios/table_huzzah_fog_lifts.toml --range french-guns allied-guns --json
  hexwx table scenarios/table_agv_village_and_wood.toml --move 52nd --turn 5

Lengths are shown in the table's unit (in or cm).  Sight is exact geometry: dense terrain and
hills block when higher than both ends, other units' bases block; the visibility distance is
the smaller of the weather's and (Mini-Nap 2) the time of day's.  See docs/tabletop.md.
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "table",
        description="Answer questions about a tabletop scenario file on a given turn: can a "
                    "unit see another, the range and arc of fire, and a unit's movement "
                    "allowance under the weather and ground.  With no question, print an "
                    "outline of the scenario and the turn's weather.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", metavar="SCENARIO", help="tabletop scenario file (.toml)")
    q = p.add_mutually_exclusive_group()
    q.add_argument("--can-see", nargs=2, metavar=("A", "B"),
                   help="can unit A see unit B (line of sight and visibility distance)")
    q.add_argument("--range", nargs=2, metavar=("A", "B"), dest="range_",
                   help="range from unit A to unit B, arc of fire, weapon range, may A fire")
    q.add_argument("--move", metavar="UNIT", help="movement allowance of UNIT this turn")
    p.add_argument("--turn", type=int, default=1, metavar="N", help="game turn (default 1)")
    p.add_argument("--outline", action="store_true",
                   help="with --move: also where its bases may get this turn (the allowance "
                        "walked round water; JSON gives the polygons)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def move_json_text(sc: Any, unit_id: str, turn: int, *, outline: bool = False) -> str:
    """The exact text ``hexwx table ... --move UNIT --json`` prints (without the newline)."""
    return json.dumps(sc.move_json(unit_id, turn=turn, outline=outline), indent=2)


def run(args: argparse.Namespace) -> int:
    from hexwx.tabletop.sight import range_info
    from hexwx.io.table_scenario import length_text as _fmt, load_table_scenario, scenario_summary

    sc = load_table_scenario(args.scenario)
    if not 1 <= args.turn <= sc.turns:
        raise UsageError(f"--turn must be from 1 to {sc.turns}, got {args.turn}")
    if args.outline and not args.move:
        raise UsageError("--outline goes with --move UNIT")
    rep, vis, wline = sc.report(args.turn), sc.visibility_cm(args.turn), sc.weather_line(args.turn)
    t = sc.table
    weather_json = sc.weather_json(args.turn)

    if args.can_see:
        s = sc.can_see(*args.can_see, turn=args.turn)
        if args.json:
            print(json.dumps({**s.to_json(), "weather": weather_json}, indent=2))
            return 0
        print(f"{s.viewer} -> {s.target} ({sc.rules}, {wline})")
        print(f"line of sight: {s.los}; {len(s.bases_with_line)} of "
              f"{count(s.bases_total, 'base')} {'has' if len(s.bases_with_line) == 1 else 'have'} "
              f"a line ({', '.join(s.bases_with_line) or 'none'}); sight region "
              f"{100 * s.clear_fraction:.0f}% clear")
        if s.obstacles:
            print("in the way: " + ", ".join(f"{o.kind} {o.id}" for o in s.obstacles))
        if s.seen_over:
            print("seen over or out of (not higher than both ends, or occupied): "
                  + ", ".join(s.seen_over))
        print(f"visible: {'yes' if s.visible else 'no'}: {s.reason}")
        if s.rule:
            print(f"rule: {s.rule}")
        return 0

    if args.range_:
        r = range_info(t, *args.range_, rules=sc.rules, visibility_cm=vis)
        if args.json:
            print(json.dumps({**r.to_json(), "weather": weather_json}, indent=2))
            return 0
        print(f"{r.firer} -> {r.target} ({sc.rules}, {wline})")
        print(f"range: {_fmt(r.range, t.unit)} ({r.method})")
        print(f"in arc (45 degrees either side of facing): {'yes' if r.in_arc else 'no'}")
        if r.weapon_range is None:
            print("weapon range: not given (set range = ... on the unit)")
        else:
            print(f"weapon range: {_fmt(r.weapon_range, t.unit)}; in range: "
                  f"{'yes' if r.in_range else 'no'}; short range: {'yes' if r.short_range else 'no'}")
        if r.can_fire is not None:
            print(f"may fire: {'yes' if r.can_fire else 'no'}")
        for why in r.reasons:
            print(f"  - {why}")
        return 0

    if args.move:
        if args.json:
            print(move_json_text(sc, args.move, args.turn, outline=args.outline))
            return 0
        from hexwx.tabletop.move import allowance
        a = allowance(t, args.move, rules=sc.rules, report=rep)
        print(f"{a.unit_id} ({sc.rules}, {wline})")
        print(f"base move {_fmt(a.base_move, t.unit)} ({a.source})")
        print(f"weather x{a.weather_multiplier:g}, terrain {a.terrain} x{a.terrain_factor:g}"
              + (f" ({', '.join(a.terrain_pieces)})" if a.terrain_pieces else "")
              + f" -> net x{a.net_factor:g}")
        print(f"allowance: {_fmt(a.allowance, t.unit)}"
              + (f" (retire {_fmt(a.retire, t.unit)})" if a.retire is not None else ""))
        for n in a.notes:
            print(f"  - {n}")
        if args.outline:
            reach = sc.move_json(args.move, turn=args.turn, outline=True)["reach"]
            print(f"reach: {reach['area']:.1f} sq {t.unit} ({count(len(reach['polygons']), 'area')}), "
                  f"{reach['reading']}")
        return 0

    summary = scenario_summary(sc)
    if args.json:
        print(json.dumps({**summary, "weather": weather_json}, indent=2))
        return 0
    print(f"{summary['name']} ({sc.rules}): table {summary['size'][0]:g} x {summary['size'][1]:g} "
          f"{t.unit}, {sc.turns} turns, weather {sc.weather_mode}")
    print(wline)
    for e in rep.fire_effects:
        print(f"  fire: {e}")
    print("terrain: " + (", ".join(f"{p['id']} ({p['kind']})" for p in summary["terrain"]) or "none"))
    for u in summary["units"]:
        print(f"  {u['id']:<16} {u['side']:<10} {u['arm']:<9} {u['formation']:<7} "
              f"{count(u['bases'], 'base')} at ({u['centre'][0]:g}, {u['centre'][1]:g}) facing {u['facing']:g}")
    return 0
