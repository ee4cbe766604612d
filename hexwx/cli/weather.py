"""``hexwx weather roll|run|effects``: ASL E3 weather from the command line.

The ASL weather flags every hex command shares, and how they become an
:class:`~hexwx.weather.asl.state.AslWeather`, are in :mod:`hexwx.front.options`.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from hexwx.errors import HexwxError, UsageError
from hexwx.front.options import (WIND_HELP, add_fog_and_state_flags, add_weather_flags,
                                 drift_arg, month_arg, weather_flags_given, weather_from_args)
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.state import AslWeather

__all__ = ["add_weather_flags", "weather_from_args", "register"]

if TYPE_CHECKING:  # the dice, rolls and effects load when a weather command runs
    from hexwx.dice import Dice

# ------------------------------------------------------------------------------------------
# subcommands
# ------------------------------------------------------------------------------------------


def _seed(args: argparse.Namespace) -> int:
    import random
    return args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)


def _dice(seed: int) -> Dice:
    from hexwx.dice import Dice
    return Dice(seed=seed)


def _print_json(data: Any) -> None:
    import json
    print(json.dumps(data, indent=2))


def _cmd_roll(args: argparse.Namespace) -> int:
    from hexwx.weather.asl.rolls import roll_weather
    seed = _seed(args)
    dice = _dice(seed)
    state, rolls = roll_weather(args.month, dice, wind=args.wind or "none")
    if args.json:
        _print_json({"month": args.month, "seed": seed, "state": state.to_json(),
                     "rolls": [r.to_json() for r in rolls]})
        return 0
    print(f"E3 DYO weather for {args.month} (seed {seed})")
    for r in rolls:
        print(f"  {r}")
    print(f"weather: {state.describe()}")
    return 0


def _start_state(args: argparse.Namespace, dice: Dice) -> tuple[AslWeather, list]:
    scenario = None
    if getattr(args, "scenario", None):
        from hexwx.io.scenario import hex_names_of, load_scenario
        scenario = load_scenario(args.scenario)
        if scenario.map_path.exists():
            try:
                args.map_hexes = hex_names_of(scenario.map)
                args.map_forbidden = getattr(scenario.map, "interior_building_hexside", None)
            except HexwxError:
                args.map_hexes = None
    month = getattr(args, "month", None)
    if month:
        args.wx_month = month
    if scenario is not None or weather_flags_given(args):
        return weather_from_args(args, scenario=scenario), []
    if not month:
        raise UsageError("no starting weather: give --month MON to roll it, weather flags, "
                         "or --scenario FILE")
    from hexwx.weather.asl.rolls import roll_weather
    state, rolls = roll_weather(month, dice, wind=args.wind or "none")
    return state, rolls


def _cmd_run(args: argparse.Namespace) -> int:
    from hexwx.weather.asl.rolls import run_weather
    seed = _seed(args)
    dice = _dice(seed)
    args.wx_wind = args.wind
    state, rolls = _start_state(args, dice)
    if args.wind:
        state = state.replace(wind=args.wind)
    hexes = getattr(args, "map_hexes", None)
    records = run_weather(state, dice, args.turns, hexes=hexes,
                          forbidden=getattr(args, "map_forbidden", None))
    if args.json:
        _print_json({"seed": seed, "start": state.to_json(),
                     "rolls": [r.to_json() for r in rolls],
                     "turns": [r.to_json() for r in records]})
        return 0
    print(f"E3 weather run, {args.turns} turn(s) (seed {seed})")
    for r in rolls:
        print(f"  {r}")
    print(f"start: {state.describe()}")
    if args.scenario and hexes is None and (state.ground_snow or state.deep_snow):
        print("  (map not loaded: drifts are placed on a whole geomorphic board, unchecked)")
    for rec in records:
        head = f"turn {rec.turn}.{rec.player_turn}  wind change DR {rec.dr:>2}"
        texts = [f"{e.text} ({e.rule})" for e in rec.events]
        print(f"{head}: " + ("; ".join(texts) if texts else "no change"))
    print(f"end: {records[-1].state.describe()}")
    return 0


def _cmd_effects(args: argparse.Namespace) -> int:
    scenario = None
    if args.scenario:
        from hexwx.io.scenario import load_scenario
        scenario = load_scenario(args.scenario)
    state = weather_from_args(args, scenario=scenario)
    from hexwx.weather.asl.effects import effects
    found = effects(state)
    if args.json:
        _print_json({"state": state.to_json(), "effects": [e.to_json() for e in found]})
        return 0
    print(f"weather: {state.describe()}")
    topic = None
    for e in found:
        if e.topic != topic:
            topic = e.topic
            print(f"{topic}:")
        print(f"  {e.text} ({e.rule})")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hexwx weather`` with its ``roll``, ``run`` and ``effects`` subcommands."""
    p = subparsers.add_parser(
        "weather",
        description="ASL Chapter E3 weather: roll DYO weather for a month, run the Wind Change "
        "DR turn by turn, or list what a weather state does (with rule numbers).")
    sub = p.add_subparsers(dest="weather_command", metavar="SUBCOMMAND",
                           parser_class=type(p))
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])

    r = sub.add_parser("roll", help="roll DYO weather for a month (E3 chart, fog, snow charts)",
                       description="Roll the whole E3 DYO weather determination for MON: the "
                       "Temperate Weather Chart DR, then Fog/Mist, Fog Level and Density dr, or "
                       "the Snow Chart dr(s).  Every roll is printed with its rule.",
                       epilog="example: hexwx weather roll --month Jan --seed 7")
    r.add_argument("--month", required=True, type=month_arg, metavar="MON", help="month Jan..Dec")
    r.add_argument("--seed", type=int, help="dice seed (default: random, printed)")
    r.add_argument("--wind", choices=C.WIND_FORCES, help=WIND_HELP)
    r.add_argument("--json", action="store_true", help="print JSON")
    r.set_defaults(func=_cmd_roll)

    u = sub.add_parser("run", help="run the weather turn by turn (Wind Change DR each RPh)",
                       description="Run N Game Turns (two Player Turns each).  At each RPh a "
                       "Wind Change DR (2d6) may start, stop or intensify rain/falling snow, "
                       "bring gusts, lift fog and create drifts (E3.312, E3.4, E3.51, E3.71, "
                       "3.75).  The start is rolled for --month, or given by weather flags or "
                       "--scenario.",
                       epilog="example: hexwx weather run --month Oct --turns 4 --wind heavy "
                       "--seed 3")
    u.add_argument("--month", type=month_arg, metavar="MON", help="month Jan..Dec (rolls the start "
                   "weather unless weather flags or --scenario are given)")
    u.add_argument("--turns", type=int, required=True, metavar="N", help="game turns to run")
    u.add_argument("--seed", type=int, help="dice seed (default: random, printed)")
    u.add_argument("--wind", choices=C.WIND_FORCES, help=WIND_HELP)
    u.add_argument("--scenario", metavar="FILE", help="start from this scenario's weather")
    u.add_argument("--json", action="store_true", help="print JSON")
    _add_state_flags(u)
    u.set_defaults(func=_checked_run)

    e = sub.add_parser("effects", help="list what a weather state does, with rules",
                       description="List every effect of the weather given by flags or by a "
                       "scenario file: EC, LV, movement, HE, entrenching, smoke, air support, "
                       "fires, bog, terrain, extreme winter, drifts.",
                       epilog="example: hexwx weather effects --deep-snow --falling-snow --heavy")
    e.add_argument("--scenario", metavar="FILE", help="take the weather from this scenario")
    e.add_argument("--json", action="store_true", help="print JSON")
    add_weather_flags(e)
    e.set_defaults(func=_cmd_effects)


def _add_state_flags(parser: argparse.ArgumentParser) -> None:
    """The weather flags without --month and --wind (``run`` has its own)."""
    g = parser.add_argument_group("starting weather (instead of rolling it)")
    add_fog_and_state_flags(g, fog_drm_help="fog density DRM per hex (E3.311)")
    g.add_argument("--drift", dest="wx_drift", type=drift_arg, action="append", metavar="HEX:SIDE",
                   help="a drift in HEX on hexside SIDE; repeatable (E3.75)")


def _checked_run(args: argparse.Namespace) -> int:
    if args.turns < 1:
        raise UsageError(f"bad --turns {args.turns}; expected a whole number >= 1")
    from hexwx.limits import TURNS, check_count
    check_count(args.turns, TURNS, "--turns")
    return _cmd_run(args)
