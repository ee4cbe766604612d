"""VASL saves and scenario units: ``import-vsav`` and ``sight``.

``hexwx import-vsav GAME.vsav -o SCENARIO.toml`` writes the hex scenario of a save (its board
layout and SSRs, one ``[[units]]`` entry per piece on the boards; the pieces off the boards are
listed in a comment and on stderr).  ``hexwx sight --scenario FILE`` answers who sees whom:
every pair of units on opposing sides, with the LOS verdict, terrain hindrance and weather LV.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hexwx.errors import UsageError


# -- import-vsav -------------------------------------------------------------------------------

def _cmd_import_vsav(args: argparse.Namespace) -> int:
    from hexwx.cli.hex import write_text
    from hexwx.io.tomlwrite import dumps
    from hexwx.io.vsav import read_save
    from hexwx.io.vsav_import import load_save_map, off_board_summary, scenario_document
    from hexwx.outputs import check_output

    check_output(args.output, inputs=(args.save,))
    save = read_save(args.save)
    m = load_save_map(args.save, vasl_dir=getattr(args, "vasl_dir", None),
                      vasl_metadata=args.vasl_metadata,
                      ignore_board_extras=args.ignore_board_extras)

    def canonical(name: str) -> str:
        return str(m.name_of(m.parse(name)))

    name = args.name or Path(args.save).stem
    doc, off = scenario_document(save, name=name, map_names=canonical, m=m,
                                 whole_boards=args.ignore_board_extras)
    units = doc.get("units", [])
    counters = doc.get("counters", [])
    from hexwx.io.vsav_pieces import save_contents
    contents = save_contents(save, m, canonical)
    by_class = ", ".join(f"{c}: {n}" for c, n in contents.by_class().items() if n)
    head = [f"hex scenario written by hexwx import-vsav from {Path(args.save).name}",
            f"boards: {save.layout_text()}" + (f"; SSR: {' '.join(save.ssr)}" if save.ssr else ""),
            f"pieces on the boards: {by_class or 'none'}",
            f"{len(units)} unit(s) become [[units]] at the Location their stack gives them "
            f"(Building Level markers, entrenchments, bypass); {len(counters)} LOS counter(s) "
            f"and location marker(s) become [[counters]]"]
    head += [f"note: {u.id}: {u.note}" for u in contents.units if u.note]
    head += [f"ignored: {line}" for line in contents.unknown]
    extras = save.unsupported(with_crops=args.ignore_board_extras)
    if args.ignore_board_extras:
        extras += [f"board {b.written} has overlay {o!r}" for b in save.boards for o in b.overlays]
    if extras:
        head.append("IGNORED (--ignore-board-extras): " + "; ".join(extras))
    if off:
        head.append(f"{len(off)} piece(s) off the boards (set-up areas), not placed:")
        head += [f"  {line}" for line in off_board_summary(off)]
    write_text(args.output, dumps(doc, comments={"": head}), inputs=(args.save,))
    print(f"{args.save}: {len(units)} unit(s) and {len(counters)} counter(s) on "
          f"{save.layout_text()}, {len(off)} piece(s) off the boards"
          + (f" -> {args.output}" if args.output not in (None, "-") else ""), file=sys.stderr)
    return 0


# -- sight -------------------------------------------------------------------------------------

def _cmd_sight(args: argparse.Namespace) -> int:
    from hexwx.io.scenario import hex_names_of, load_scenario
    from hexwx.lineofsight.sight import SIGHT_KINDS, sightings
    from hexwx.outputs import printable

    sc = load_scenario(args.scenario)
    m = sc.map
    if args.turn is None:
        if args.seed is not None:
            raise UsageError("--seed goes with --turn N (it drives the wind change DRs)")
        weather, when = sc.weather, "setup"
    else:
        weather = sc.weather_at(args.turn, seed=args.seed, hexes=hex_names_of(m))
        when = f"turn {args.turn}"
    kinds = ("infantry", "vehicle", "other") if args.all_pieces else SIGHT_KINDS
    for u in sc.units:
        try:
            m.parse(u.hex)
        except UsageError as exc:
            raise UsageError(f"{sc.source}: unit {u.id!r}: {exc}") from None
    from hexwx.front.options import counter_notes, counters_from_args
    counters = counters_from_args(args, m, scenario=sc)
    notes = counter_notes(m, counters, weather)   # SMOKE the weather leaves out (E3.53, E3.734)
    found = sightings(m, sc.units, weather=weather, kinds=kinds, counters=counters,
                      side=args.side, visible_only=args.visible_only)
    sides = sorted({u.side for u in sc.units if u.side and u.kind in kinds})
    if args.json:
        print(json.dumps({"scenario": str(sc.source), "name": sc.name, "turn": args.turn,
                          "weather": weather.to_json(), "sides": sides,
                          "counters": counters.to_json(), "notes": list(notes),
                          "side": args.side, "visible_only": args.visible_only,
                          "pairs": [s.to_json() for s in found]}, indent=2))
        return 0
    n_units = sum(1 for u in sc.units if u.side and u.kind in kinds)
    sees = sum(1 for s in found if s.sees)
    print(f"{printable(sc.name)} ({when}): {weather.describe()}")
    if counters:
        print(f"counters: {printable(', '.join(c.spec() for c in counters))}")
    for note in notes:
        print(f"note: {printable(note)}")
    which = (f", viewers of side {printable(args.side)}" if args.side else "") + \
        (", those with LOS only" if args.visible_only else "")
    print(f"{n_units} unit(s) on {len(sides)} side(s) ({printable(', '.join(sides)) or 'none'}): "
          f"{len(found)} ordered pair(s){which}, {sees} with LOS")
    for s in found:
        print(s.line())
    return 0


# -- registration ------------------------------------------------------------------------------

def register(subparsers: Any) -> None:
    from hexwx.front.options import add_map_options
    p = subparsers.add_parser(
        "import-vsav",
        description="Read a VASL save and write a hexwx hex scenario: the save's board layout "
                    "and terrain SSRs as the [map] table, and one [[units]] entry (id, hex, "
                    "kind, side, nationality) per piece on the boards.  Pieces off the boards "
                    "(set-up areas) are listed, not placed.  See docs/saves.md.",
        epilog="example:\n  hexwx import-vsav game.vsav -o game.toml\n"
               "  hexwx sight --scenario game.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("save", metavar="GAME.vsav", help="the VASL save")
    p.add_argument("-o", "--output", metavar="FILE", help="the scenario .toml to write (default stdout)")
    p.add_argument("--name", help="scenario name (default: the save's file name)")
    add_map_options(p)
    p.set_defaults(func=_cmd_import_vsav)

    p = subparsers.add_parser(
        "sight",
        description="Every ordered pair of units on opposing sides of a hex scenario: LOS "
                    "blocked or clear, the DRM and its parts (terrain, SMOKE and other counters, "
                    "vehicles, weather LV) under the scenario's weather (at setup, or at Game "
                    "Turn N with --turn) and with its counters.  Concealed ('?') and HIP units "
                    "are marked.  Units with no side (markers) are left out, and so are pieces "
                    "of kind 'other' unless --all-pieces.",
        epilog="examples:\n  hexwx sight --scenario scenarios/fog_on_the_hill.toml\n"
               "  hexwx sight --scenario game.toml --turn 3 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", required=True, metavar="FILE", help="a hex scenario")
    p.add_argument("--turn", type=int, metavar="N",
                   help="weather of Game Turn N: the scenario's weather run turn by turn (E3.4)")
    p.add_argument("--seed", type=int, metavar="N",
                   help="dice seed of the weather run (default: the scenario's seed, else 0)")
    p.add_argument("--all-pieces", action="store_true",
                   help="include pieces of kind 'other' (support weapons, guns, concealment)")
    p.add_argument("--side", metavar="SIDE", help="only the units of SIDE as viewers")
    p.add_argument("--visible-only", action="store_true", help="only the pairs with a LOS")
    p.add_argument("--json", action="store_true", help="print JSON")
    from hexwx.front.options import add_counter_options
    add_counter_options(p)
    p.set_defaults(func=_cmd_sight)

