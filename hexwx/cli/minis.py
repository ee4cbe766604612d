"""``hexwx minis weather|terrain``: miniatures weather turn by turn, its odds, random terrain."""
from __future__ import annotations

import argparse
import json
import random
import re
from fractions import Fraction
from typing import Any

from hexwx.dice import Dice
from hexwx.errors import UsageError
from hexwx.units import ruler_cm
from hexwx.tabletop.terrain_gen import (CHOOSABLE, FOOTPRINTS, TABLE_DEPTH_CM, TABLE_WIDTH_CM,
                               generate_terrain)
from hexwx.weather.minis.registry import RULE_NAMES, RULE_SETS
from hexwx.weather.minis.common import (TurnReport, exact_distribution, frequencies,
                                 initial_probabilities, model, run_minis_weather)

MAX_GAMES = 5_000_000


_WEATHER_EPILOG = """\
examples:
  hexwx minis weather --rules agv --turns 12 --seed 7
  hexwx minis weather --rules agv --turns 12 --rethrow --dislike snow rain
  hexwx minis weather --rules mininap --turns 20 --seed 3 --json
  hexwx minis weather --rules wesencraft --turns 12 --stats 100000
  hexwx minis weather --rules huzzah --turns 8 --weather "dense fog" --ground mud \\
      --change 4:weather=clear --change 6:ground=normal

rules: agv (A Glorious Victory!, seed 000), mininap (Mini-Nap 2 Appendix D, seed 001),
wesencraft (weather gauge, seed 003), huzzah (Huzzah! Glorious Empires, seed 002; no dice).
Without --seed a seed is chosen and printed, so every run can be repeated.  See
docs/minis-weather.md.
"""

_TERRAIN_EPILOG = """\
examples:
  hexwx minis terrain --seed 3
  hexwx minis terrain --seed 3 --choice-a wood --choice-b hill --json
  hexwx minis terrain --seed 3 --choice-a wood -o table.toml && hexwx render table.toml -o table.png

The 6 ft x 2 ft 6 in table is split into 12 sectors (two rows of six, 1 ft x 1 ft 3 in);
a die of 4-6 puts a piece in a sector, a second die its type (seed 003).  Units are cm.
"""


def register(subparsers: Any) -> None:
    """Add ``minis weather`` and ``minis terrain`` to the ``hexwx`` parser."""
    minis = subparsers.add_parser(
        "minis",
        description="Weather for miniatures rules, turn by turn, with its exact odds and a Monte "
                    "Carlo over many games; and the seed 003 random terrain generator.")
    sub = minis.add_subparsers(dest="minis_command", metavar="SUBCOMMAND",
                               parser_class=type(minis))
    _add_weather(sub)
    _add_terrain(sub)
    minis.set_defaults(func=lambda args: _missing(minis))


def _missing(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _add_weather(sub: Any) -> None:
    p = sub.add_parser(
        "weather", help="run a rule set's weather for N turns (or --stats over many games)",
        description="Run the weather of one game turn by turn and print each turn's weather, "
                    "visibility, movement, ground, fire effects and the dice thrown.  With "
                    "--stats, print the share of each weather on each turn over many games "
                    "and the exact odds of the pre-game throw and of turn 1.",
        epilog=_WEATHER_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", required=True, choices=RULE_NAMES, metavar="RULES",
                   help=f"rule set: {', '.join(RULE_NAMES)}")
    p.add_argument("--turns", required=True, type=int, metavar="N", help="number of game turns")
    p.add_argument("--seed", type=int, metavar="N", help="dice seed (default: chosen and printed)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--stats", type=int, metavar="GAMES",
                   help="Monte Carlo over GAMES games plus exact odds, instead of one game")
    g = p.add_argument_group("AGV and Mini-Nap 2 options")
    g.add_argument("--rethrow", action="store_true",
                   help="take the one agreed re-throw of the pre-game weather")
    g.add_argument("--dislike", nargs="+", metavar="WEATHER",
                   help="weather the players re-throw (default: everything but clear)")
    h = p.add_argument_group("Huzzah! options (scenario conditions; no dice)")
    h.add_argument("--weather", metavar="W", help="clear, dense fog, heavy snow or heavy rain")
    h.add_argument("--ground", metavar="G", help="normal, soft (mud, heavy snow) or hard (sun-baked)")
    h.add_argument("--change", action="append", metavar="TURN:KEY=VALUE",
                   help="change from TURN on, e.g. 4:weather=clear or 6:ground=normal (repeatable)")
    p.set_defaults(func=run_weather_command)


def _add_terrain(sub: Any) -> None:
    p = sub.add_parser(
        "terrain", help="random terrain for a 6 ft x 2 ft 6 in table (seed 003)",
        description="Throw the seed 003 random terrain generator: 12 sectors, a die each for a "
                    "piece (4-6) and its type; print the pieces with their outlines in cm.",
        epilog=_TERRAIN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, metavar="N", help="dice seed (default: chosen and printed)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--choice-a", metavar="KIND", help=f"player A's pick on a 5: {', '.join(CHOOSABLE)}")
    p.add_argument("--choice-b", metavar="KIND", help=f"player B's pick on a 6: {', '.join(CHOOSABLE)}")
    p.add_argument("-o", "--output", metavar="TABLE.toml",
                   help="also write the pieces as a table scenario file (hexwx table, render, "
                        "serve load it; weather rolled from the same seed)")
    p.add_argument("--rules", choices=RULE_NAMES, default="wesencraft", metavar="RULES",
                   help="with -o: the scenario's rule set (default wesencraft, seed 003's)")
    p.set_defaults(func=run_terrain_command)


# ----------------------------------------------------------------------------- options

def _seed(args: argparse.Namespace) -> int:
    return args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)


def parse_change(text: str) -> tuple[int, str, str]:
    """``"4:weather=clear"`` -> (4, "weather", "clear")."""
    m = re.fullmatch(r"\s*(\d+)\s*:\s*(\w+)\s*=\s*(.+?)\s*", text)
    if not m:
        raise UsageError(f"bad --change {text!r}: expected TURN:weather=VALUE or TURN:ground=VALUE")
    return int(m.group(1)), m.group(2), m.group(3)


def weather_options(args: argparse.Namespace) -> dict[str, Any]:
    """The model options given on the command line (only those given)."""
    options: dict[str, Any] = {}
    if args.rethrow:
        options["rethrow"] = True
    if args.dislike:
        options["dislike"] = list(args.dislike)
    if args.weather is not None:
        options["weather"] = args.weather
    if args.ground is not None:
        options["ground"] = args.ground
    if args.change:
        changes: dict[int, dict[str, str]] = {}
        for text in args.change:
            turn, key, value = parse_change(text)
            changes.setdefault(turn, {})[key] = value
        options["changes"] = changes
    return options


# ----------------------------------------------------------------------------- weather

def run_weather_command(args: argparse.Namespace) -> int:
    """``hexwx minis weather``: one game's log, or --stats."""
    options = weather_options(args)
    seed = _seed(args)
    if args.stats is not None:
        return _stats(args, seed, options)
    dice = Dice(seed=seed)
    reports = run_minis_weather(args.rules, args.turns, dice=dice, **options)
    if args.json:
        print(json.dumps({"rules": args.rules, "seed": seed, "turns": args.turns,
                          "options": options, "reports": [r.to_json() for r in reports],
                          "log": dice.log_as_json()}, indent=2))
        return 0
    dice_text = "no dice (scenario conditions)" if args.rules == "huzzah" else f"seed {seed}"
    print(f"{RULE_SETS[args.rules].title} weather, {dice_text}, {args.turns} turns")
    for r in reports:
        print(format_report(r))
    return 0


def _length(value_cm: float | None, rules: str) -> str:
    """A visibility in the rule set's own unit, as a ruler reads it ("12 in", "24 cm")."""
    return "unlimited" if value_cm is None else ruler_cm(value_cm, RULE_SETS[rules].unit)


def format_report(r: TurnReport) -> str:
    """A turn as text: a headline, the dice, then each effect on its own line."""
    head = [f"turn {r.turn:>2}"]
    if r.time_of_day:
        head.append(f"{r.time_of_day:>8}")
    from hexwx.tabletop.sight import visibility_text
    unset = r.visibility_cm is None and visibility_text(r.rules, r.weather, None, "cm") != \
        "visibility unlimited"
    shown = "not set" if unset else _length(r.visibility_cm, r.rules)
    head += [f"{r.weather:<12}", f"visibility {shown:<10}",
             f"move x{r.movement_multiplier:g}", f"ground {r.ground}"]
    if r.pattern and r.pattern != r.weather:
        head.append(f"[{r.pattern}]")
    if r.battle_ends:
        head.append("BATTLE ENDS")
    lines = ["  ".join(head)]
    if r.rolls:
        lines.append("        dice: " + "; ".join(str(x) for x in r.rolls))
    lines += [f"        - {text}" for text in (*r.fire_effects, *r.notes)]
    if unset:
        lines.append(f"        - {visibility_text(r.rules, r.weather, None, 'cm')}")
    return "\n".join(lines)


def _odds_json(odds: dict[str, Fraction]) -> dict[str, dict[str, Any]]:
    return {k: {"fraction": str(v), "probability": float(v)} for k, v in odds.items()}


def _stats(args: argparse.Namespace, seed: int, options: dict[str, Any]) -> int:
    games = args.stats
    if isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--stats must be a number of games from 1 to {MAX_GAMES}, got {games!r}")
    per_turn = frequencies(args.rules, games, args.turns, seed=seed, **options)
    initial = initial_probabilities(args.rules, **options)
    order = model(args.rules).WEATHERS
    first = exact_distribution(args.rules, 1, **options)[0]
    first = {w: first[w] for w in order if w in first}
    if args.json:
        print(json.dumps({"rules": args.rules, "games": games, "turns": args.turns, "seed": seed,
                          "options": options, "per_turn": per_turn,
                          "initial_exact": _odds_json(initial),
                          "first_turn_exact": _odds_json(first)}, indent=2))
        return 0
    names = list(dict.fromkeys(k for turn in per_turn for k in turn))
    print(f"{RULE_SETS[args.rules].title} weather over {games} games, seed {seed}: share of games per turn")
    print("turn  " + "  ".join(f"{n:>12}" for n in names))
    for i, turn in enumerate(per_turn, start=1):
        print(f"{i:>4}  " + "  ".join(f"{100 * turn.get(n, 0.0):>11.2f}%" for n in names))
    print("exact odds of the pre-game throw:")
    for name, p in initial.items():
        print(f"  {name:<14} {str(p):>10}  {100 * float(p):6.2f}%")
    print("exact odds of turn 1's weather (Monte Carlo in the first row above):")
    for name, p in first.items():
        print(f"  {name:<14} {str(p):>10}  {100 * float(p):6.2f}%")
    return 0


# ----------------------------------------------------------------------------- terrain

def run_terrain_command(args: argparse.Namespace) -> int:
    """``hexwx minis terrain``: the generated pieces and the dice."""
    seed = _seed(args)
    dice = Dice(seed=seed)
    pieces = generate_terrain(dice, choice_a=args.choice_a, choice_b=args.choice_b)
    if args.output:
        from hexwx.io.table_scenario import generated_table_toml
        from hexwx.outputs import check_output, write_output
        check_output(args.output)
        write_output(args.output, generated_table_toml(pieces, seed=seed, rules=args.rules))
    if args.json:
        print(json.dumps({"seed": seed, "table_cm": [TABLE_WIDTH_CM, TABLE_DEPTH_CM],
                          "pieces": [p.to_json() for p in pieces], "log": dice.log_as_json()},
                         indent=2))
        return 0
    print(f"random terrain, seed {seed}: {len(pieces)} pieces on a "
          f"{TABLE_WIDTH_CM:g} x {TABLE_DEPTH_CM:g} cm table (6 ft x 2 ft 6 in), 12 sectors")
    for p in pieces:
        c = p.polygon.centroid
        _, width, depth = FOOTPRINTS[p.kind]
        print(f"  sector {p.sector:>2}: {p.kind:<18} {width:g} x {depth:g} cm, "
              f"centre ({c.x:.2f}, {c.y:.2f})")
    print("dice:")
    for roll in dice.log:
        print(f"  {roll}")
    if args.output:
        print(f"wrote {args.output} (a {args.rules} table scenario: hexwx table {args.output})")
    return 0



