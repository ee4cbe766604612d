"""``hexwx weather roll|run|effects``: ASL E3 weather from the command line.

Also home of the shared weather flags: :func:`add_weather_flags` adds DESIGN.md's ASL weather
flags to any parser (``los``, ``path``, ``reach`` use it) and :func:`weather_from_args` turns
the parsed flags (or a scenario) into an :class:`~hexwx.weather.asl.state.AslWeather`.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from hexwx.errors import HexwxError, UsageError
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.state import AslWeather, Drift, parse_month

if TYPE_CHECKING:  # the dice, rolls and effects load when a weather command runs
    from hexwx.dice import Dice

WIND_HELP = "wind force: none, mild (Mild Breeze), heavy (Heavy Winds), gusts (default none)"

#: dest names of the boolean weather flags, with the flag and its help.
_BOOL_FLAGS: tuple[tuple[str, str, str], ...] = (
    ("wx_mist", "--mist", "Mist: LV +1 per started 6 hexes beyond 6 (E3.32)"),
    ("wx_rain", "--rain", "rain falls (E3.51): causes mist; overcast; EC wet"),
    ("wx_falling_snow", "--falling-snow", "falling snow (E3.71): causes mist; overcast"),
    ("wx_heavy", "--heavy", "precipitation intensified: mist +1 at every range (E3.51/E3.71)"),
    ("wx_ground_snow", "--ground-snow", "ground snow (E3.72)"),
    ("wx_deep_snow", "--deep-snow", "deep snow (E3.73)"),
    ("wx_mud", "--mud", "mud (E3.6)"),
    ("wx_overcast", "--overcast", "overcast (E3.5): rain may start on wind change DR >= 10"),
    ("wx_gusty", "--gusty", "gusty (E3.4): gusts on wind change DR >= 10"),
    ("wx_extreme_winter", "--extreme-winter", "extreme winter (E3.74)"),
    ("wx_plowed_roads", "--plowed-roads", "roads are plowed (SSR; 3.723, 3.733)"),
)


def _month(text: str) -> str:
    try:
        return parse_month(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _drift(text: str) -> Drift:
    try:
        return Drift.parse(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_weather_flags(parser: argparse.ArgumentParser, *, month: bool = True) -> None:
    """Add the ASL weather flags (DESIGN.md) to ``parser`` in a group "ASL weather".

    ``--fog LEVEL --fog-drm N --mist --rain --falling-snow --heavy --ground-snow --deep-snow
    --mud --month MON --wind FORCE --overcast --gusty --extreme-winter --plowed-roads
    --drift HEX:SIDE`` (repeatable).  Dest names start with ``wx_``.  ``month=False`` leaves out
    ``--month`` for parsers that define it themselves.
    """
    g = parser.add_argument_group("ASL weather (E3)")
    g.add_argument("--fog", dest="wx_fog", type=int, metavar="LEVEL",
                   help="fog at LEVEL and lower, -1..4 (E3.31)")
    g.add_argument("--fog-drm", dest="wx_fog_drm", type=int, metavar="N", choices=(1, 2, 3),
                   help="fog density DRM per hex, 1-3 (E3.311; default 1)")
    for dest, flag, help_ in _BOOL_FLAGS:
        g.add_argument(flag, dest=dest, action="store_true", help=help_)
    if month:
        g.add_argument("--month", dest="wx_month", type=_month, metavar="MON",
                       help="month (Jan..Dec): snow chart drm, reports")
    g.add_argument("--wind", dest="wx_wind", choices=C.WIND_FORCES, help=WIND_HELP)
    g.add_argument("--drift", dest="wx_drift", type=_drift, action="append", metavar="HEX:SIDE",
                   help="a drift in HEX on hexside SIDE (0=N,1=NE,2=SE,3=S,4=SW,5=NW or the "
                   "letters); repeatable (E3.75)")


def weather_flags_given(args: argparse.Namespace) -> bool:
    """True if any weather-defining flag (not just --month/--wind) was given."""
    if getattr(args, "wx_fog", None) is not None or getattr(args, "wx_fog_drm", None) is not None:
        return True
    if getattr(args, "wx_drift", None):
        return True
    return any(getattr(args, dest, False) for dest, _f, _h in _BOOL_FLAGS)


def weather_from_args(args: argparse.Namespace, *, scenario: Any = None) -> AslWeather:
    """The :class:`AslWeather` the flags describe.

    Without weather flags: the scenario's weather (``scenario.weather``) or Clear.  With flags:
    exactly what they say (the scenario's weather is replaced; its month is the default month).
    ``--month`` and ``--wind`` alone adjust the scenario's or the clear weather.  Any Fog Level
    Chart result (-1..4, E3 3.31) is legal on any map: fog above every hex veils it all, fog
    below every hex veils nothing.
    Raises :class:`UsageError` for contradictions (e.g. ``--heavy`` without rain or snow).
    """
    month = getattr(args, "wx_month", None)
    wind = getattr(args, "wx_wind", None)
    base_state: AslWeather = scenario.weather if scenario is not None else AslWeather()
    if not weather_flags_given(args):
        changes: dict[str, Any] = {}
        if month:
            changes["month"] = month
        if wind:
            changes["wind"] = wind
        return base_state.replace(**changes) if changes else base_state
    comps = [c for dest, c in (("wx_mist", "Mist"), ("wx_overcast", "Overcast"),
                               ("wx_gusty", "Gusty"), ("wx_mud", "Mud"))
             if getattr(args, dest, False)]
    state = AslWeather(
        base=" & ".join(comps) or "Clear",
        month=month or base_state.month,
        fog_level=getattr(args, "wx_fog", None),
        fog_drm=getattr(args, "wx_fog_drm", None),
        rain=args.wx_rain, falling_snow=args.wx_falling_snow, heavy=args.wx_heavy,
        ground_snow=args.wx_ground_snow, deep_snow=args.wx_deep_snow,
        extreme_winter=args.wx_extreme_winter, plowed_roads=args.wx_plowed_roads,
        drifts=tuple(getattr(args, "wx_drift", None) or ()),
        wind=wind or "none",
    )
    return state


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
    r.add_argument("--month", required=True, type=_month, metavar="MON", help="month Jan..Dec")
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
    u.add_argument("--month", type=_month, metavar="MON", help="month Jan..Dec (rolls the start "
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
    g.add_argument("--fog", dest="wx_fog", type=int, metavar="LEVEL",
                   help="fog at LEVEL and lower, -1..4 (E3.31)")
    g.add_argument("--fog-drm", dest="wx_fog_drm", type=int, metavar="N", choices=(1, 2, 3),
                   help="fog density DRM per hex (E3.311)")
    for dest, flag, help_ in _BOOL_FLAGS:
        g.add_argument(flag, dest=dest, action="store_true", help=help_)
    g.add_argument("--drift", dest="wx_drift", type=_drift, action="append", metavar="HEX:SIDE",
                   help="a drift in HEX on hexside SIDE; repeatable (E3.75)")


def _checked_run(args: argparse.Namespace) -> int:
    if args.turns < 1:
        raise UsageError(f"bad --turns {args.turns}; expected a whole number >= 1")
    from hexwx.limits import TURNS, check_count
    check_count(args.turns, TURNS, "--turns")
    return _cmd_run(args)
