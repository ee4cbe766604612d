"""The options of the hex queries (``los``, ``path``, ``reach``, ``exposure``), the map,
counter and ASL weather flags.

Weather flags have dest names starting with ``wx_``; :func:`weather_from_args` turns them (or a
scenario's weather) into an :class:`~hexwx.weather.asl.state.AslWeather`.
"""
from __future__ import annotations

import argparse
import re
from typing import Any

from hexwx.errors import UsageError
from hexwx.weather.asl import charts as C
from hexwx.weather.asl.state import AslWeather, Drift, parse_month

MAP_HELP = ("hexwx map (.toml), VASL board archive, VASL save (.vsav), board name (bd02, r02: "
            "rotated) or layout (\"r05/r02/r04\": rows by /, boards by ,)")

def add_map_options(p: argparse.ArgumentParser, metadata: bool = True) -> None:
    """--vasl-metadata, --vasl-dir and --ssr: how MAP's VASL boards are found and changed."""
    if metadata:
        p.add_argument("--vasl-metadata", metavar="FILE",
                       help="VASL's SharedBoardMetadata.xml, needed for VASL boards "
                            "(default: $HEXWX_VASL_METADATA, else the one in --vasl-dir)")
    p.add_argument("--vasl-dir", metavar="DIR",
                   help="folder of VASL board archives (DIR or DIR/boards) for board names and "
                        "layouts (default: $HEXWX_VASL_DIR)")
    p.add_argument("--ssr", action="append", default=[], metavar="NAME",
                   help="a VASL terrain SSR (LOSSSRule of SharedBoardMetadata.xml, e.g. NoGrain); "
                        "repeatable, applied in order")
    p.add_argument("--ignore-board-extras", action="store_true",
                   help="MAP is a VASL save with cropped boards or overlays: use the whole boards "
                        "without them (otherwise an error names them)")


# -- ASL weather --------------------------------------------------------------------------------

WIND_HELP = "wind force: none, mild (Mild Breeze), heavy (Heavy Winds), gusts (default none)"

#: dest names of the boolean weather flags, with the flag and its help.
BOOL_FLAGS: tuple[tuple[str, str, str], ...] = (
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
    ("wx_plowed_roads", "--plowed-roads", "roads are plowed (SSR; E3.723, E3.733)"),
)


def month_arg(text: str) -> str:
    """argparse type of a month option."""
    try:
        return parse_month(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def drift_arg(text: str) -> Drift:
    """argparse type of ``--drift HEX:SIDE``."""
    try:
        return Drift.parse(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_fog_and_state_flags(g: Any, *, fog_drm_help: str) -> None:
    """--fog, --fog-drm and the boolean weather flags (to a parser or argument group)."""
    g.add_argument("--fog", dest="wx_fog", type=int, metavar="LEVEL",
                   help="fog at LEVEL and lower, -1..4 (E3.31)")
    g.add_argument("--fog-drm", dest="wx_fog_drm", type=int, metavar="N", choices=(1, 2, 3),
                   help=fog_drm_help)
    for dest, flag, help_ in BOOL_FLAGS:
        g.add_argument(flag, dest=dest, action="store_true", help=help_)


def add_weather_flags(parser: argparse.ArgumentParser, *, month: bool = True) -> None:
    """Add the ASL weather flags (DESIGN.md) to ``parser`` in a group "ASL weather".

    ``--fog LEVEL --fog-drm N --mist --rain --falling-snow --heavy --ground-snow --deep-snow
    --mud --month MON --wind FORCE --overcast --gusty --extreme-winter --plowed-roads
    --drift HEX:SIDE`` (repeatable).  Dest names start with ``wx_``.  ``month=False`` leaves out
    ``--month`` for parsers that define it themselves.
    """
    g = parser.add_argument_group("ASL weather (E3)")
    add_fog_and_state_flags(g, fog_drm_help="fog density DRM per hex, 1-3 (E3.311; default 1)")
    if month:
        g.add_argument("--month", dest="wx_month", type=month_arg, metavar="MON",
                       help="month (Jan..Dec): snow chart drm, reports")
    g.add_argument("--wind", dest="wx_wind", choices=C.WIND_FORCES, help=WIND_HELP)
    g.add_argument("--drift", dest="wx_drift", type=drift_arg, action="append", metavar="HEX:SIDE",
                   help="a drift in HEX on hexside SIDE (0=N,1=NE,2=SE,3=S,4=SW,5=NW or the "
                   "letters); repeatable (E3.75)")


def weather_flags_given(args: argparse.Namespace) -> bool:
    """True if any weather-defining flag (not just --month/--wind) was given."""
    if getattr(args, "wx_fog", None) is not None or getattr(args, "wx_fog_drm", None) is not None:
        return True
    if getattr(args, "wx_drift", None):
        return True
    return any(getattr(args, dest, False) for dest, _f, _h in BOOL_FLAGS)


def weather_from_args(args: argparse.Namespace, *, scenario: Any = None) -> AslWeather:
    """The :class:`AslWeather` the flags describe.

    Without weather flags: the scenario's weather (``scenario.weather``) or Clear.  With flags:
    exactly what they say (the scenario's weather is replaced; its month is the default month).
    ``--month`` and ``--wind`` alone adjust the scenario's or the clear weather.  Any Fog Level
    Chart result (-1..4, E3.31) is legal on any map: fog above every hex veils it all, fog
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
    return AslWeather(
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


# -- counters on the map -------------------------------------------------------------------------

def add_counter_options(p: argparse.ArgumentParser) -> None:
    """``--counter NAME@HEX[:LEVEL]`` (repeatable) and ``--no-counters``: the counters a map
    command answers with (:func:`counters_from_args`)."""
    p.add_argument("--counter", action="append", default=[], metavar="NAME@HEX[:LEVEL]",
                   help="a counter on the map, by the name VASL's piece carries ('White +3 "
                        "Smoke@I4', 'Burnt Out Wreck@K5', 'Stone Rubble@M2', 'vehicle:T-34@F3', "
                        "'Blaze@M2:1' inside level 1; '@HEX/S' in bypass at hexside S, 0-5 or N..NW); "
                        "repeatable, added to a scenario's or save's counters (docs/counters.md)")
    p.add_argument("--no-counters", action="store_true",
                   help="answer as the bare map: no counters from the scenario, the save or "
                        "--counter")


def counters_from_args(args: argparse.Namespace, m: Any, *, scenario: Any = None,
                       source: Any = None) -> Any:
    """The :class:`~hexwx.lineofsight.counters.Counters` of a command: the scenario's (its
    ``[[counters]]`` and vehicles, D9) or, when ``source`` (MAP as given) is a VASL save, the
    save's LOS counters and vehicles (:mod:`hexwx.io.vsav_pieces`); then every ``--counter``.
    ``--no-counters``: none (the bare map).  Names, hexes and levels are checked against ``m``
    here: a bad counter is a one-line UsageError before any work."""
    from hexwx.lineofsight.counter_los import prepare
    from hexwx.lineofsight.counters import Counters, parse_counter
    given = list(getattr(args, "counter", None) or [])
    if getattr(args, "no_counters", False):
        if given:
            raise UsageError("--no-counters answers as the bare map: leave out --counter")
        return Counters()
    items: list[Any] = []
    if scenario is not None:
        items += scenario.los_counters
    elif source is not None and str(source).lower().endswith(".vsav"):
        from hexwx.io.vsav import is_vasl_save   # (not imported for other maps: start-up)
        if is_vasl_save(source):
            from hexwx.io.scenario import save_los_counters
            items += save_los_counters(source, m)
    try:
        items += [parse_counter(t) for t in given]
        counters = Counters(tuple(items))
        prepare(m, counters)
    except UsageError as exc:
        raise UsageError(f"--counter: {exc}") from None
    return counters


def counter_notes(m: Any, counters: Any, weather: Any) -> tuple[str, ...]:
    """One note per counter the answers leave out under ``weather`` (SMOKE that cannot exist
    during rain, Mud or Deep Snow: E3.53, E3.734)."""
    from hexwx.lineofsight.counter_los import weather_notes
    return weather_notes(m, counters, weather)


def print_counter_notes(m: Any, counters: Any, weather: Any) -> None:
    """:func:`counter_notes` as ``note: ...`` lines on stderr, for the commands whose answer
    (CSV, a table) has no place for them."""
    import sys
    for n in counter_notes(m, counters, weather):
        print(f"note: {n}", file=sys.stderr)


# -- hex lists ----------------------------------------------------------------------------------

def hex_list(text: str) -> list[str]:
    """``"A7,N7 I4"`` -> ``["A7", "N7", "I4"]`` (commas or spaces); UsageError when empty."""
    items = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not items:
        raise UsageError(f"expected a list of hexes such as 'A7,N7', got {text!r}")
    return items


def hexes_of(values: list[str] | None, flag: str) -> list[str] | None:
    """The hexes of the repeatable comma-separated option ``flag`` (None when not given); an
    empty one is a one-line UsageError naming ``flag``."""
    if not values:
        return None
    out: list[str] = []
    for v in values:
        try:
            out += hex_list(v)
        except UsageError as e:
            raise UsageError(f"bad {flag}: {e}", param=flag) from None
    return out


def observers_of(values: list[str] | None, flag: str = "--from"
                 ) -> tuple[list[str] | None, list[int | None] | None]:
    """(hexes, bypass hexsides) of ``--from`` observers (``flag``): each ``HEX`` or ``HEX:SIDE``
    (in bypass along SIDE, D2.3); the hexsides are None when no observer gives one.  A bad
    SIDE is a one-line UsageError naming ``flag``."""
    hexes = hexes_of(values, flag)
    if hexes is None or not any(":" in h for h in hexes):
        return hexes, None
    from hexwx.hexmap.coords import parse_hexside

    def one(h: str) -> tuple[str, int | None]:
        if ":" not in h:
            return h, None
        try:
            return parse_hexside(h)
        except UsageError as e:
            raise UsageError(f"bad {flag}: {e}", param=flag) from None
    pairs = [one(h) for h in hexes]
    return [h for h, _ in pairs], [s for _, s in pairs]


def entrenched_observers(m: Any, observers: list[str] | None,
                         values: list[str] | None) -> list[bool] | None:
    """One flag per ``--from`` observer: in an entrenchment when its hex is among the
    ``--entrenched`` hexes (B27.2); None when none is.  A one-line UsageError for an
    ``--entrenched`` hex that is no observer."""
    hexes = hexes_of(values, "--entrenched")
    if not hexes:
        return None
    if observers is None:
        raise UsageError("--entrenched needs --from: name the observers, then which of them are "
                         "in an entrenchment", param="--entrenched")
    ids = [m.hex(h, "--from") for h in observers]
    flags = [False] * len(ids)
    for h in hexes:
        got = m.hex(h, "--entrenched")
        if got not in ids:
            raise UsageError(f"--entrenched {h!r} is not one of the --from observers "
                             f"({', '.join(observers)})", param="--entrenched")
        flags[ids.index(got)] = True
    return flags


# -- the query parsers ---------------------------------------------------------------------------

def hexside_arg(text: str) -> int:
    """A hexside given as N, NE, SE, S, SW, NW or 0-5 (argparse type: a one-line error else)."""
    from hexwx.hexmap.coords import hexside_number
    number = hexside_number(text)
    if number is not None:
        return number
    raise argparse.ArgumentTypeError(f"expected a hexside N, NE, SE, S, SW, NW or 0-5, got {text!r}")


def add_los_parser(subparsers: Any) -> argparse.ArgumentParser:
    """``hexwx los`` (and ``/api/los``)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "los",
        description="Line of sight from FROM to TO on MAP (a hexwx .toml map, a VASL board\n"
                    "archive, a board name such as bd02 or r02, or a layout such as \"r05/r02/r04\";\n"
                    "see docs/layouts.md): blocked or clear, where and why, every hindrance and LV DRM with\n"
                    "its hex and rule, and the range.  With --scenario, FROM and TO may be unit\n"
                    "ids and the scenario's map and weather are used.",
        epilog="examples:\n  hexwx los maps/hill_village.toml J4 C5 --json\n"
               "  hexwx los bd02 I4 B5 --fog 0 --fog-drm 1 --vasl-metadata SharedBoardMetadata.xml\n"
               "  hexwx los \"01,r03\" 1Y5 3I4 --ssr NoGrain      (boards 1 and 3, 3 turned round)\n"
               "  hexwx los --scenario scenarios/fog_on_the_hill.toml hill-squad village-squad",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("items", nargs="*", metavar="MAP FROM TO", help="map (file, board name or layout), source and target hex")
    p.add_argument("--from-level", type=int, default=None, metavar="N",
                   help="level of the source location in its hex (0 ground, building levels, rooftop)")
    p.add_argument("--to-level", type=int, default=None, metavar="N", help="level of the target location")
    p.add_argument("--from-hexside", type=hexside_arg, default=None, metavar="S",
                   help="the source is in bypass along its hexside S (N, NE, SE, S, SW, NW or 0-5; "
                        "D2.3): its LOS is traced from that hexside")
    p.add_argument("--to-hexside", type=hexside_arg, default=None, metavar="S",
                   help="the target is in bypass along its hexside S")
    p.add_argument("--from-entrenched", action="store_true", default=None,
                   help="the source is a unit in an entrenchment (foxholes, trench, A-T ditch; "
                        "B27.2: hexside terrain blocks its LOS to a non-adjacent unit at its "
                        "elevation or lower)")
    p.add_argument("--to-entrenched", action="store_true", default=None,
                   help="the target is a unit in an entrenchment")
    p.add_argument("--scenario", metavar="FILE", help="a hex scenario: its map, weather and units")
    p.add_argument("--target-camouflaged", action="store_true",
                   help="the target has Winter Camouflage (E3.712: +1 LV in snow beyond 8 "
                        "hexes, 16 for a vehicle, unless its Location has a positive TEM)")
    p.add_argument("--target-vehicle", action="store_true",
                   help="the target is a vehicle, not Infantry (winter camouflage range)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_map_options(p)
    add_counter_options(p)
    add_weather_flags(p)
    return p


def unit_help() -> str:
    """Help of ``--unit`` (the movement classes load with the movement charts)."""
    from hexwx.movement.charts import MOVE_CLASSES
    return ("unit class: " + ", ".join(MOVE_CLASSES) +
            " (also fully-tracked, halftrack, truck, armoured-car)")


def _move_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unit", metavar="KIND", help=unit_help() + "; default: the scenario unit's "
                   "kind when FROM is an infantry unit of --scenario")
    p.add_argument("--scenario", metavar="FILE", help="hex scenario: its map (if MAP is left "
                   "out), weather, drifts and unit ids")
    add_map_options(p)
    add_counter_options(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_weather_flags(p)


def add_path_parser(subparsers: Any) -> argparse.ArgumentParser:
    """``hexwx path`` (and ``/api/path``)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "path",
        description="The cheapest path from FROM to TO for a unit class under ASL E3 weather: "
        "each step's cost with its parts and rule citations (chapter B defaults; rain E3.54, "
        "mud E3.64, ground snow E3.723-E3.724, deep snow E3.733-E3.7331, drifts E3.752).",
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
    _move_common(p)
    return p


def add_reach_parser(subparsers: Any) -> argparse.ArgumentParser:
    """``hexwx reach`` (and ``/api/reach``)."""
    r: argparse.ArgumentParser = subparsers.add_parser(
        "reach",
        description="Every hex a unit class can reach from FROM with N MF (infantry, cavalry) "
        "or MP (vehicles) under ASL E3 weather, with its cost.  Hexes reached only with the "
        "road bonus (B3.4) are marked *, hexes across a drift (whole move, E3.752) !.",
        epilog="example:\n  hexwx reach maps/village.toml C5 --unit infantry --mf 4 --deep-snow",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("map", nargs="?", metavar="MAP", help=MAP_HELP)
    r.add_argument("frm", metavar="FROM", help="start hex (or a unit id of --scenario)")
    r.add_argument("--mf", type=float, required=True, metavar="N", help="movement allowance (>= 0)")
    _move_common(r)
    return r


def add_exposure_parser(subparsers: Any) -> argparse.ArgumentParser:
    """``hexwx exposure`` (and ``/api/exposure``)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
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
    p.add_argument("--from", dest="observers", action="append", metavar="HEXES",
                   help="observer hexes, comma-separated (default: every hex); HEX:SIDE for an "
                        "observer in bypass along that hexside (e.g. V8:NE, D2.3); repeatable")
    p.add_argument("--entrenched", action="append", metavar="HEXES",
                   help="which --from observers are units in an entrenchment (foxholes, trench; "
                        "B27.2), comma-separated hexes; repeatable")
    p.add_argument("--top", type=int, default=10, metavar="N",
                   help="text output: how many most/least exposed hexes to list (default 10)")
    p.add_argument("--json", action="store_true", help="print the counts of every hex as JSON")
    add_map_options(p)
    add_counter_options(p)
    add_weather_flags(p)
    return p
