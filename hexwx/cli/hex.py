"""Hex-map commands: ``los``, ``los-table`` and ``import-vasl``."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwx.errors import DataError, UsageError
from hexwx.front.options import MAP_HELP, add_los_parser, add_map_options

if TYPE_CHECKING:  # map loading and the kernel are imported when a command runs
    from hexwx.hexmap.board import HexMap


def open_map(path: str | Path, args: argparse.Namespace) -> HexMap:
    from hexwx.io.load import load_map
    return load_map(path, vasl_metadata=getattr(args, "vasl_metadata", None),
                    vasl_dir=getattr(args, "vasl_dir", None), ssr=tuple(getattr(args, "ssr", ()) or ()),
                    ignore_board_extras=bool(getattr(args, "ignore_board_extras", False)))


def map_inputs(args: argparse.Namespace, *paths: object) -> tuple[object, ...]:
    """The files a map command reads (for refusing them as its output): ``paths`` and metadata."""
    import os
    return (*paths, getattr(args, "vasl_metadata", None) or os.environ.get("HEXWX_VASL_METADATA"))


def write_text(path: str | None, text: str, *, inputs: tuple[object, ...] = ()) -> None:
    """Write ``text`` to ``path`` (or stdout for None / '-') through :mod:`hexwx.outputs`."""
    from hexwx.outputs import write_output
    write_output(path, text, inputs=inputs)


# -- los ---------------------------------------------------------------------------------------

def _cmd_los(args: argparse.Namespace) -> int:
    from hexwx.front.answers import los_answer, los_json_text
    from hexwx.front.options import counters_from_args
    scenario = None
    source = None
    items = list(args.items)
    if args.scenario:
        from hexwx.io.scenario import load_scenario
        scenario = load_scenario(args.scenario)
        if len(items) == 3:
            m = open_map(items.pop(0), args)
        elif len(items) == 2:
            m = scenario.map
        else:
            raise UsageError("expected FROM TO (hexes or unit ids) after --scenario FILE")
    else:
        if len(items) != 3:
            raise UsageError("expected MAP FROM TO (or --scenario FILE FROM TO)")
        source = items.pop(0)
        m = open_map(source, args)
    counters = counters_from_args(args, m, scenario=scenario, source=source)
    if args.json:
        print(los_json_text(m, scenario, items[0], items[1], args, counters=counters))
    else:
        print(los_answer(m, scenario, items[0], items[1], args, counters=counters)[0].explain())
    return 0


# -- los-table ---------------------------------------------------------------------------------

def _cmd_los_table(args: argparse.Namespace) -> int:
    from hexwx.cli.progress import Progress
    from hexwx.front.options import counters_from_args, print_counter_notes
    from hexwx.front.options import weather_flags_given, weather_from_args
    from hexwx.io.lostable import write_los_table
    from hexwx.outputs import check_output
    inputs = map_inputs(args, args.map or args.scenario)
    check_output(args.output, inputs=inputs)          # before anything is read
    m, scenario, source = map_or_scenario(args, args.map)
    weather = None
    if weather_flags_given(args):
        weather = weather_from_args(args)
    elif scenario is not None:
        weather = weather_from_args(args, scenario=scenario)
    counters = counters_from_args(args, m, scenario=scenario, source=source)
    print_counter_notes(m, counters, weather)
    name = Path(source or args.scenario).name
    bar = Progress(len(m) * (len(m) - 1), f"los-table {name}", quiet=args.quiet)
    try:
        write_los_table(m, args.output, weather=weather, fmt=args.format, threads=args.threads,
                        progress=lambda p: bar.update(p.done), inputs=inputs + (m.source,),
                        from_level=args.from_level, to_level=args.to_level,
                        all_locations=args.all_locations, counters=counters)
    finally:
        bar.close()
    return 0


def map_or_scenario(args: argparse.Namespace, map_arg: str | None) -> tuple[Any, Any, str | None]:
    """(map, scenario or None, MAP as given or None) of a command taking MAP or --scenario."""
    scenario_path = getattr(args, "scenario", None)
    if scenario_path:
        if map_arg:
            raise UsageError("give MAP or --scenario FILE, not both")
        from hexwx.io.scenario import load_scenario
        sc = load_scenario(scenario_path)
        return sc.map, sc, None
    if not map_arg:
        raise UsageError("expected MAP (or --scenario FILE)")
    return open_map(map_arg, args), None, map_arg


def add_threads_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="kernel threads (default: the CPUs this process may use, by its affinity)")


def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return v


# -- import-vasl -------------------------------------------------------------------------------

def _cmd_import_vasl(args: argparse.Namespace) -> int:
    from hexwx.io.vasl import is_vasl_archive
    from hexwx.io.vasl_export import export_mapfile
    from hexwx.outputs import check_output
    inputs = map_inputs(args, args.archive)
    check_output(args.output, inputs=inputs)
    if not is_vasl_archive(args.archive):
        raise DataError(f"{args.archive}: not a VASL board archive (expected a zip file with LOSData)")
    m = open_map(args.archive, args)
    write_text(args.output, export_mapfile(m), inputs=inputs + (m.source,))
    if args.output not in (None, "-"):
        print(f"wrote {args.output} ({len(m)} hexes)", file=sys.stderr)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    from hexwx.front.options import add_counter_options, add_weather_flags
    p = add_los_parser(subparsers)
    p.set_defaults(func=_cmd_los)

    p = subparsers.add_parser(
        "los-table",
        description="CSV of src,tgt,range,blocked,hindrance for every ordered pair of distinct "
                    "hexes at ground level (hindrance empty when blocked).  With weather flags "
                    "an lv column holds each pair's LV DRM, and terrain + LV of 6 or more blocks.  "
                    "With --from-level/--to-level (every hex that has that location: a building "
                    "level, a rooftop) or --all-locations (every pair of locations of the map) "
                    "the columns are src,src_level,tgt,tgt_level,range,blocked,hindrance[,lv].  "
                    "Rows are written while the kernel runs, in its order (ground level: for "
                    "each hex A and each hex B after it, A->B then B->A; with levels: by source "
                    "location); memory stays bounded on any map.  A progress bar shows on a "
                    "terminal for runs over 2 s.")
    p.add_argument("map", metavar="MAP", nargs="?", help=MAP_HELP)
    p.add_argument("--scenario", metavar="FILE",
                   help="a hex scenario instead of MAP: its map, weather and counters")
    p.add_argument("--from-level", type=int, default=None, metavar="N",
                   help="sources: every hex's location at level N in the hex (default 0, ground)")
    p.add_argument("--to-level", type=int, default=None, metavar="N",
                   help="targets: every hex's location at level N in the hex (default 0, ground)")
    p.add_argument("--all-locations", action="store_true",
                   help="every ordered pair of locations: each hex's ground, building levels and rooftop")
    p.add_argument("-o", "--output", metavar="FILE", help="write the table here (default stdout)")
    p.add_argument("--format", choices=("csv", "jsonl", "parquet"), default=None,
                   help="csv (default), jsonl (JSON lines) or parquet (needs pyarrow: the "
                        "'parquet' extra); default from the -o suffix, else csv")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_threads_option(p)
    add_map_options(p)
    add_counter_options(p)
    add_weather_flags(p)
    p.set_defaults(func=_cmd_los_table)

    p = subparsers.add_parser(
        "import-vasl",
        description="Convert a VASL board archive into a hexwx TOML map (whole-hex terrain, "
                    "ground levels, hexside terrain and roads) for your own use.")
    p.add_argument("archive", metavar="ARCHIVE", help="VASL board archive, e.g. bd02")
    p.add_argument("-o", "--output", metavar="FILE", help="the .toml to write (default stdout)")
    add_map_options(p)
    p.set_defaults(func=_cmd_import_vasl)
