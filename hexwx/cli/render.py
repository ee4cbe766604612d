"""``hexwx render``: annotated PNG images of hex maps, hex scenarios and tabletop scenarios.

The handler asks the library for every answer (LOS, viewshed, path, reach, sight, range) and
hands the result objects to :mod:`hexwx.render.core`; it prints the file written and the caption.
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from hexwx.errors import UsageError

_EPILOG = """\
examples:
  hexwx render maps/hill_village.toml -o map.png
  hexwx render bd02 --vasl-metadata SharedBoardMetadata.xml --background board -o bd02.png
  hexwx render bd02 --los I4 P6 -o los.png                 thread, hindrance/LV badges, caption
  hexwx render bd02 --from I4 --viewshed --fog 0 -o view.png
  hexwx render bd02 --path B3 K5 --unit infantry --mud -o path.png
  hexwx render bd02 --reach H5 --unit infantry --mf 4 --window E2 L8 -o reach.png
  hexwx render scenarios/winter_drifts.toml -o winter.png  (scenario weather: snow, drifts)
  hexwx render scenarios/table_agv_village_and_wood.toml --turn 4 --los 52nd rha-battery -o t.png

MAP is a hexwx map (.toml), a VASL board archive, a board name (bd02, r02 rotated) or a layout
("r05/r02/r04": rows by /, boards by ,; archives in --vasl-dir or HEXWX_VASL_DIR, VASL terrain
table from --vasl-metadata, HEXWX_VASL_METADATA or the board folder).  A TOML file with a [table] section renders a tabletop; one with a map =
key is a hex scenario (its weather is shaded unless weather flags are given).  The caption
under the image (also printed) explains each overlay.  See docs/rendering.md.
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "render",
        description="Draw a hex map (terrain, ground levels, hexsides, hex ids, board joins) or a "
                    "tabletop scenario (terrain, bases, visibility) as an annotated PNG, with "
                    "optional overlays: a LOS thread with its hindrances, a viewshed, a movement "
                    "path or reach, and the weather.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", metavar="MAP|SCENARIO",
                   help="hexwx map (.toml), VASL board archive or save (.vsav), board name or layout, "
                        "hex scenario (its units drawn) or table scenario")
    p.add_argument("-o", "--output", required=True, metavar="FILE.png",
                   help="PNG file to write (hex maps: .svg writes SVG overlays over the embedded "
                        "map picture)")
    from hexwx.front.options import add_map_options, hexside_arg
    add_map_options(p)
    from hexwx.front.options import add_counter_options
    add_counter_options(p)
    p.add_argument("--scenario", metavar="FILE",
                   help="hex scenario whose weather (and drifts) to shade on MAP")
    look = p.add_argument_group("image")
    look.add_argument("--background", choices=("terrain", "board"), default="terrain",
                      help="terrain: hexwx colours and patterns (default); board: a VASL "
                      "board's own artwork from its archive")
    look.add_argument("--scale", type=float, default=1.0, metavar="F",
                      help="pixels per map pixel (default 1: a board is 1800 px wide)")
    look.add_argument("--window", nargs=2, metavar=("HEX", "HEX"),
                      help="crop to the rectangle spanned by two hexes")
    look.add_argument("--no-ids", action="store_true", help="leave out hex ids")
    look.add_argument("--no-legend", action="store_true", help="leave out legend and caption")
    look.add_argument("--width", type=int, default=1600, metavar="PX",
                      help="tables: image width in pixels (default 1600)")
    ov = p.add_argument_group("overlays (hex maps)")
    ov.add_argument("--los", nargs=2, metavar=("FROM", "TO"),
                    help="LOS thread FROM -> TO (tables: unit ids) with hindrances and caption")
    ov.add_argument("--from-level", type=int, default=None, metavar="N",
                    help="level of FROM (default 0, or the unit's level)")
    ov.add_argument("--to-level", type=int, default=None, metavar="N",
                    help="level of TO (default 0, or the unit's level)")
    ov.add_argument("--from-hexside", type=hexside_arg, default=None, metavar="S",
                    help="FROM (--los) or the --viewshed viewer is in bypass along its hexside S "
                         "(N, NE, SE, S, SW, NW or 0-5; D2.3; default the unit's own)")
    ov.add_argument("--to-hexside", type=hexside_arg, default=None, metavar="S",
                    help="TO of --los is in bypass along its hexside S (default the unit's own)")
    ov.add_argument("--from", dest="from_hex", metavar="HEX", help="viewer hex for --viewshed")
    ov.add_argument("--viewshed", action="store_true",
                    help="shade what --from HEX sees: hindered hexes by DRM, the rest hatched")
    ov.add_argument("--exposure", action="store_true",
                    help="heat map: how many hexes (or --exposure-from hexes) see each hex")
    ov.add_argument("--exposure-from", action="append", metavar="HEXES",
                    help="observer hexes of --exposure, comma-separated (default every hex; "
                         "HEX:SIDE for one in bypass along that hexside)")
    ov.add_argument("--exposure-level", type=int, default=None, metavar="N",
                    help="level of the exposed location in each hex (default 0)")
    ov.add_argument("--path", nargs=2, metavar=("FROM", "TO"),
                    help="cheapest path for --unit with the cumulative cost at each hex")
    ov.add_argument("--reach", metavar="HEX", help="hexes --unit can reach from HEX with --mf")
    ov.add_argument("--unit", metavar="KIND", help="unit class for --path/--reach (e.g. infantry)")
    ov.add_argument("--mf", type=float, metavar="N", help="movement allowance for --reach")
    tb = p.add_argument_group("tables")
    tb.add_argument("--turn", type=int, default=1, metavar="N", help="game turn (default 1)")
    tb.add_argument("--range", nargs=2, metavar=("A", "B"), dest="range_",
                    help="range from unit A to unit B (with weapon range)")
    from hexwx.front.options import add_weather_flags
    add_weather_flags(p)
    p.set_defaults(func=run)


# -------------------------------------------------------------------------------------------
# what is the source?
# -------------------------------------------------------------------------------------------

def _load_map(path: str | Path, args: argparse.Namespace) -> Any:
    from hexwx.cli.hex import open_map
    return open_map(path, args)


def _inputs(args: argparse.Namespace) -> tuple[object, ...]:
    """The files this render reads, refused as its output."""
    return (args.source, args.scenario, args.vasl_metadata, os.environ.get("HEXWX_VASL_METADATA"))


def _check_output(args: argparse.Namespace) -> None:
    """Fail early (before any work) on an output path that cannot or must not be written."""
    from hexwx.outputs import check_output
    path = args.output
    check_output(path, inputs=_inputs(args))
    if Path(path).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"-o {path!r}: the output file must end in .png (or .svg for hex maps)")


def _check_options(args: argparse.Namespace, kind: str) -> None:
    if kind == "table":
        if Path(args.output).suffix.lower() == ".svg":
            raise UsageError(f"-o {args.output!r}: SVG is for hex maps; tables are drawn as PNG")
        hex_only = [f for f, v in (("--viewshed", args.viewshed), ("--exposure", args.exposure),
                                   ("--path", args.path),
                                   ("--reach", args.reach), ("--from", args.from_hex),
                                   ("--background board", args.background == "board"),
                                   ("--window", args.window)) if v]
        if hex_only:
            raise UsageError(f"{hex_only[0]} is for hex maps; {args.source!r} is a table scenario")
        return
    if args.range_:
        raise UsageError("--range is for table scenarios; use --los on hex maps")
    if args.viewshed and not args.from_hex:
        raise UsageError("--viewshed needs --from HEX (the viewer's hex)")
    if args.from_hex and not args.viewshed:
        raise UsageError("--from HEX is the viewer of --viewshed; add --viewshed")
    if (args.path or args.reach) and not args.unit:
        raise UsageError(f"{'--path' if args.path else '--reach'} needs --unit KIND (e.g. infantry)")
    if args.reach and args.mf is None:
        raise UsageError("--reach needs --mf N (the movement allowance)")
    if args.mf is not None and not args.reach:
        raise UsageError("--mf goes with --reach HEX")
    if (args.exposure_from or args.exposure_level) and not args.exposure:
        raise UsageError("--exposure-from and --exposure-level go with --exposure")


# -------------------------------------------------------------------------------------------
# the handler
# -------------------------------------------------------------------------------------------

def run(args: argparse.Namespace) -> int:
    _check_output(args)
    from hexwx.io.load import source_kind
    kind = source_kind(args.source)
    _check_options(args, kind)
    if Path(args.output).suffix.lower() == ".svg":
        from hexwx.outputs import write_output
        svg, caption = _render_hex(args, kind, svg=True)
        write_output(args.output, svg, inputs=_inputs(args) + (getattr(args, "map_source", None),))
        print(f"wrote {args.output} (SVG, {len(svg)} bytes)")
        print(caption)
        return 0
    rendering = _render_table(args) if kind == "table" else _render_hex(args, kind)
    rendering.save(args.output, inputs=_inputs(args) + (getattr(args, "map_source", None),))
    w, h = rendering.image.size
    print(f"wrote {args.output} ({w} x {h})")
    print(rendering.caption)
    return 0


def _render_hex(args: argparse.Namespace, kind: str, svg: bool = False) -> Any:
    from hexwx.front.options import weather_flags_given, weather_from_args
    from hexwx.render.core import render_map

    scenario = None
    units: tuple[Any, ...] = ()
    if kind == "scenario":
        from hexwx.io.scenario import load_scenario
        scenario = load_scenario(args.source)
        m = scenario.map
        units = tuple(scenario.units)
    else:
        m = _load_map(args.source, args)
        if Path(args.source).is_file() and _is_save(args.source):  # a save's pieces are drawn too
            from hexwx.io.vsav import read_save
            from hexwx.io.scenario import save_units
            units = save_units(read_save(args.source), m)
    args.map_source = m.source  # a scenario's map is an input too: never the output
    if args.scenario:
        from hexwx.io.scenario import load_scenario
        scenario = load_scenario(args.scenario)
        units = tuple(scenario.units)
    weather = weather_from_args(args, scenario=scenario)
    shade_weather = scenario is not None or weather_flags_given(args)
    from hexwx.front.options import counters_from_args
    from hexwx.render.hexmap import MapOptions
    counters = counters_from_args(args, m, scenario=scenario,
                                  source=args.source if kind == "map" else None)
    options = MapOptions(weather=weather if shade_weather else None, background=args.background,
                         scale=args.scale, window=args.window, hex_ids=not args.no_ids,
                         legend=not args.no_legend, units=units, counters=tuple(counters)
                         ).but(**_hex_overlays(args, m, weather, units, counters))
    if svg:
        from hexwx.render.svg import map_svg_parts
        return map_svg_parts(m, options)
    return render_map(m, options)


def _is_save(path: str) -> bool:
    from hexwx.io.vsav import is_vasl_save  # only for files: a board name or layout is none
    return is_vasl_save(path)


def _parse(m: Any, text: str, flag: str, units: Any = ()) -> int:
    """The hex named ``text`` (or of the scenario unit with that id); a UsageError naming the
    option if it is neither."""
    for u in units:
        if u.id == text:
            return m.grid.parse(u.hex)
    try:
        return m.grid.parse(text)
    except UsageError as exc:
        if units:
            ids = ", ".join(u.id for u in list(units)[:12]) + (", ..." if len(units) > 12 else "")
            raise UsageError(f"{flag}: {text!r} is neither a hex of the map nor a unit of the "
                             f"scenario (units: {ids})") from None
        raise UsageError(f"{flag}: {exc}") from None


def _unit(units: Any, text: str) -> Any:
    return next((u for u in units if u.id == text), None)


def _bypass(given: int | None, unit: Any) -> int | None:
    """An end's bypass hexside (D2.3): the one given, else its unit's (None: not in bypass)."""
    return given if given is not None else getattr(unit, "hexside", None)


def _entrenched(unit: Any, given_level: int | None) -> bool:
    """Is an end its unit in an entrenchment (B27.2): at the unit's own level only (a query at
    another level of its hex asks about another Location)."""
    return bool(getattr(unit, "entrenched", False)) and given_level in (None, unit.level)


def _hex_overlays(args: argparse.Namespace, m: Any, weather: Any, units: Any = (),
                  counters: Any = None) -> dict[str, Any]:
    """Ask the library for each requested overlay's result object (with ``counters``)."""
    out: dict[str, Any] = {}
    if args.los or args.viewshed:
        from hexwx.lineofsight import engine as los_mod
        if args.los:
            a, b = (_parse(m, h, "--los", units) for h in args.los)
            ua, ub = _unit(units, args.los[0]), _unit(units, args.los[1])
            from_level = args.from_level if args.from_level is not None else (ua.level if ua else 0)
            to_level = args.to_level if args.to_level is not None else (ub.level if ub else 0)
            out["los"] = los_mod.los(
                m, a, b, from_level=from_level, to_level=to_level, weather=weather,
                target_is_infantry=ub.kind == "infantry" if ub else True,
                target_winter_camouflage=bool(ub and ub.winter_camouflage), counters=counters,
                from_hexside=_bypass(args.from_hexside, ua), to_hexside=_bypass(args.to_hexside, ub),
                from_entrenched=_entrenched(ua, args.from_level),
                to_entrenched=_entrenched(ub, args.to_level))
        if args.viewshed:
            src = _parse(m, args.from_hex, "--from", units)
            uv = _unit(units, args.from_hex)
            level = args.from_level if args.from_level is not None else (uv.level if uv else 0)
            out["viewshed"] = los_mod.viewshed(m, src, level=level, weather=weather,
                                               counters=counters,
                                               from_hexside=_bypass(args.from_hexside, uv),
                                               from_entrenched=_entrenched(uv, args.from_level))
            out["viewshed_from"] = src
            out["viewshed_level"] = level
    if args.exposure:
        from hexwx.front.options import observers_of
        from hexwx.lineofsight.exposure import exposure
        observers, sides = observers_of(args.exposure_from, "--exposure-from")
        out["exposure"] = exposure(m, level=args.exposure_level or 0, observers=observers,
                                   weather=weather, counters=counters, observer_hexsides=sides)
    if args.path or args.reach:
        from hexwx.movement import paths as movement
        def hex_name(text: str, flag: str) -> str:
            return str(m.name_of(_parse(m, text, flag, units)))
        if args.path:
            start, end = (hex_name(h, "--path") for h in args.path)
            out["path"] = movement.path(m, start, end, unit=args.unit, weather=weather,
                                        counters=counters)
        if args.reach:
            out["reach"] = movement.reach(m, hex_name(args.reach, "--reach"), unit=args.unit,
                                          mf=args.mf, weather=weather, counters=counters)
    return out


def _render_table(args: argparse.Namespace) -> Any:
    from hexwx.render.core import render_table
    from hexwx.tabletop.sight import can_see
    from hexwx.io.table_scenario import load_table_scenario

    sc = load_table_scenario(args.source)
    sc.check_turn(args.turn)
    vis = sc.visibility_cm(args.turn)
    sights = [can_see(sc.table, *args.los, rules=sc.rules, visibility_cm=vis)] if args.los else []
    ranges = [sc.fire(args.range_[0], args.range_[1], args.turn)] if args.range_ else []
    return render_table(sc, turn=args.turn, sights=sights, ranges=ranges, width_px=args.width,
                        legend=not args.no_legend)
