"""``hexwx table``: questions about a tabletop scenario (sight, range, movement) on a turn."""
from __future__ import annotations

import argparse
import json
from typing import Any

from hexwx.errors import UsageError
from hexwx.units import count, ruler

_EPILOG = """\
examples:
  hexwx table scenarios/table_huzzah_fog_lifts.toml                   outline and weather
  hexwx table scenarios/table_huzzah_fog_lifts.toml --can-see french-1 allied-1 --turn 4
  hexwx table scenarios/table_huzzah_fog_lifts.toml --fire french-guns allied-guns --json
  hexwx table scenarios/table_agv_village_and_wood.toml --fire batterie-a-pied 52nd --turn 4
  hexwx table scenarios/table_agv_village_and_wood.toml --move 52nd --turn 5
  hexwx table scenarios/table_huzzah_fog_lifts.toml --advance french-1 cuirassiers -o adv.png
  hexwx table scenarios/table_huzzah_fog_lifts.toml --charge french-1 allied-1 --json
  hexwx table scenarios/table_huzzah_fog_lifts.toml --command general-foy

Lengths are shown in the table's unit (in or cm).  Sight is exact geometry: dense terrain and
hills block when higher than both ends, other units' bases block; the visibility distance is
the smaller of the weather's and (Mini-Nap 2) the time of day's.  See docs/tabletop.md.
"""


def register(subparsers: Any) -> None:
    from hexwx.tabletop.command import OFFICER_MOVE_CM
    from hexwx.tabletop.orders import DRIFT_CM, OUT_OF_RANGE_CM
    p = subparsers.add_parser(
        "table",
        description="Answer questions about a tabletop scenario file on a given turn: can a\n"
                    "unit see another, can it shoot at it (sight, range and band, arc, face, the\n"
                    "weather's effect on fire), a unit's movement allowance, and Huzzah!'s\n"
                    "orders as geometry.  With no question, print an outline of the scenario\n"
                    "and the turn's weather.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", metavar="SCENARIO", help="tabletop scenario file (.toml)")
    q = p.add_mutually_exclusive_group()
    q.add_argument("--can-see", nargs=2, metavar=("A", "B"),
                   help="can unit A see unit B (line of sight and visibility distance)")
    q.add_argument("--fire", "--range", nargs=2, metavar=("A", "B"), dest="range_",
                   help="can unit A shoot at unit B this turn: sight, range and band, arc (Huzzah!), "
                        "face hit, the weather's effect on fire, each with its rule (--range is "
                        "the same question)")
    q.add_argument("--move", metavar="UNIT", help="movement allowance of UNIT this turn")
    h = p.add_argument_group("Huzzah! orders (geometry and distances; the rolls stay the players')")
    q.add_argument("--advance", nargs="+", metavar="UNIT",
                   help="advance order to UNIT (several: a group): straight ahead up to the "
                        f"move, <= {DRIFT_CM:g} cm drift; a group at its slowest arm's rate (p.19)")
    q.add_argument("--retire", nargs="+", metavar="UNIT",
                   help="retire order: straight back up to half the move; a group at half the "
                        "slowest unit's (p.20)")
    q.add_argument("--charge", nargs=2, metavar=("A", "B"),
                   help="can A charge B straight ahead this turn, which face, squared up (p.19)")
    q.add_argument("--command", metavar="OFFICER", dest="officer",
                   help=f"the officer's command radius (units completely within) and "
                        f"{OFFICER_MOVE_CM:g} cm move")
    q.add_argument("--out-of-range", nargs="+", metavar="UNIT",
                   help=f"are the units beyond {OUT_OF_RANGE_CM:g} cm of the nearest enemy (p.18 "
                        f"'Out of range')")
    h.description = "--advance, --retire, --charge, --command, --out-of-range (Huzzah! only)"
    p.add_argument("--turn", type=int, default=1, metavar="N", help="game turn (default 1)")
    p.add_argument("--outline", action="store_true",
                   help="with --move: also where its bases may get this turn (the allowance "
                        "walked round water; JSON gives the polygons)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("-o", "--output", metavar="FILE.png",
                   help="with a Huzzah! order (--advance, --retire, --charge, --command): also "
                        "draw it on the table to this PNG")
    p.set_defaults(func=run)


def _fmt(v: float | None, unit: str) -> str:
    return "unlimited" if v is None else ruler(v, unit)


def move_json_text(sc: Any, unit_id: str, turn: int, *, outline: bool = False) -> str:
    """The exact text ``hexwx table ... --move UNIT --json`` prints (without the newline)."""
    return json.dumps(sc.move_json(unit_id, turn=turn, outline=outline), indent=2)


def run(args: argparse.Namespace) -> int:
    from hexwx.io.table_scenario import load_table_scenario, scenario_summary

    sc = load_table_scenario(args.scenario)
    if not 1 <= args.turn <= sc.turns:
        raise UsageError(f"--turn must be from 1 to {sc.turns}, got {args.turn}")
    if args.outline and not args.move:
        raise UsageError("--outline goes with --move UNIT")
    wline, rep, vis = sc.weather_line(args.turn)
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
        r = sc.fire(args.range_[0], args.range_[1], args.turn)
        if args.json:
            print(json.dumps({**r.to_json(), "weather_report": weather_json}, indent=2))
            return 0
        print(f"{r.firer} -> {r.target} ({sc.rules}, {wline})")
        print(r.text())
        return 0

    if args.output and not (args.advance or args.retire or args.charge or args.officer):
        raise UsageError("-o goes with --advance, --retire, --charge or --command")
    if args.advance or args.retire or args.charge or args.officer or args.out_of_range:
        if args.output:
            from hexwx.outputs import check_output
            check_output(args.output, inputs=(args.scenario,))
        return _orders(sc, args)

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


def _orders(sc: Any, args: argparse.Namespace) -> int:
    """``--advance``, ``--retire``, ``--charge``, ``--command``, ``--out-of-range``."""
    from hexwx.tabletop.command import command
    from hexwx.tabletop.orders import (DRIFT_CM, OUT_OF_RANGE_CM, charge, group_moves,
                                       need_huzzah, order_json, out_of_range)
    need_huzzah(sc.rules)
    t = sc.table
    f = lambda v: _fmt(None if v is None else t.to_unit(v), t.unit)  # noqa: E731
    if args.advance or args.retire:
        order = "advance" if args.advance else "retire"
        moves = group_moves(t, args.advance or args.retire, order)
        if args.json:
            print(json.dumps({"order": order, "units": [order_json(t, m) for m in moves]}, indent=2))
            return 0
        rule = (f"straight ahead, drift up to {DRIFT_CM:g} cm at the end (Huzzah! p.19)"
                if order == "advance"
                else "straight back, no drift (Huzzah! p.20)")
        _draw(sc, args, [(f"{m.unit_id}: {order} {f(m.distance)}", m.area, "reach") for m in moves],
              [f"{order}: {rule}"])
        print(f"{order} ({'group of ' + count(len(moves), 'unit') if len(moves) > 1 else 'one unit'}): {rule}")
        for m in moves:
            lim = f"; limited by {m.limited_by}" if m.limited_by else ""
            print(f"  {m.unit_id}: {f(m.distance)} (own move {f(m.own)}{lim}); area "
                  f"{t.to_unit(t.to_unit(m.area.area)):.1f} sq {t.unit}")
        return 0
    if args.charge:
        c = charge(t, *args.charge)
        import shapely
        _draw(sc, args, [(f"{c.charger}: charge straight ahead {f(c.allowance)}", c.swept, "reach")]
              + ([(f"{c.charger} squared up on {c.target}'s {c.face}",
                   shapely.union_all(list(c.squared)), "charge")] if c.squared else []),
              [f"{c.charger} charges {c.target}: " + (f"{c.face}: {c.face_rule}" if c.face else "no contact")])
        if args.json:
            print(json.dumps(order_json(t, c), indent=2))
            return 0
        print(f"{c.charger} charges {c.target}: straight ahead, no drift (Huzzah! p.19)")
        print(f"move {f(c.allowance)}; contact {f(c.contact) if c.contact is not None else 'none'} "
              f"ahead: {'reaches' if c.reaches else 'does not reach'}")
        if c.face:
            print(f"{'charges' if c.reaches else 'would charge'} the enemy's {c.face}: {c.face_rule}")
        if c.touches_with:
            print(f"first touches with its {c.touches_with}")
        for n in c.notes:
            print(f"  - {n}")
        return 0
    if args.officer:
        cmd = command(t, args.officer)
        _draw(sc, args, [(f"{cmd.officer}: command radius {f(cmd.radius)}", cmd.radius_area, "command"),
                         (f"{cmd.officer}: moves {f(cmd.move)}", cmd.move_area, "reach")],
              [f"{cmd.officer} ({cmd.quality}): command radius {f(cmd.radius)}, moves {f(cmd.move)}"])
        if args.json:
            print(json.dumps(cmd.to_json(t), indent=2))
            return 0
        print(f"{cmd.officer} ({cmd.quality}): command factor {cmd.command_factor}, radius "
              f"{f(cmd.radius)}, moves {f(cmd.move)} (Huzzah! p.16, p.20)")
        for u in cmd.units:
            print(f"  {u.unit_id}: farthest corner {f(u.farthest_corner)}: "
                  f"{'completely within' if u.within else 'not completely within'}")
        return 0
    o = out_of_range(t, args.out_of_range)
    if args.json:
        print(json.dumps(order_json(t, o), indent=2))
        return 0
    near = "no enemy on the table" if o.nearest_enemy is None else \
        f"nearest enemy {o.nearest_enemy} at {f(o.distance)}"
    print(f"{', '.join(o.units)}: {near}: {'out of range' if o.out_of_range else 'not out of range'} "
          f"(beyond {OUT_OF_RANGE_CM:g} cm of the nearest enemy, line of sight or not: "
          f"Huzzah! p.18)")
    return 0


def _draw(sc: Any, args: argparse.Namespace, outlines: list[tuple[str, Any, str]],
          notes: list[str]) -> None:
    """With ``-o``: the scenario on ``--turn`` with the order's outlines, saved as PNG."""
    if not args.output:
        return
    from hexwx.render.table import Outline, render_table
    r = render_table(sc, turn=args.turn, outlines=[Outline(*o) for o in outlines], notes=notes,
                     visibility=False)
    r.save(args.output, inputs=(args.scenario,))
