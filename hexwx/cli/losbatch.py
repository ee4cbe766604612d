"""``hexwx los-batch MAP PAIRS.csv``: LOS of any list of location pairs, CSV or JSON lines out.

Every row is answered by :func:`hexwx.lineofsight.batch.los_pairs` -- the kernel of ``hexwx
los``, one call for the whole list -- so each output row says what ``hexwx los MAP SRC TGT
--from-level L --to-level L --json`` says for that pair (without the per-hex hindrance list and
the thread).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import Any, NamedTuple

import numpy as np

from hexwx.errors import DataError, UsageError

#: Output fields, in order: the keys of ``LosResult.to_json`` a batch can give.
FIELDS = ("source", "target", "source_level", "target_level", "source_elevation",
          "target_elevation", "source_location", "target_location", "range", "blocked",
          "hindrance", "lv", "drm", "reason", "rule", "blocked_at", "blocking_hex")


class PairRows(NamedTuple):
    """The rows of a pairs CSV: each column's cells (text, empty where absent) and the line
    number of each row."""

    label: str
    src: list[str]
    tgt: list[str]
    src_level: list[str]
    tgt_level: list[str]
    src_hexside: list[str]
    tgt_hexside: list[str]
    lines: list[int]
    src_entrenched: list[str]
    tgt_entrenched: list[str]


def read_pairs(path: str) -> PairRows:
    """The rows of a pairs CSV ('-' = stdin).

    Columns ``src,tgt`` and optionally ``src_level,tgt_level`` (empty = 0) and
    ``src_hexside,tgt_hexside`` (N, NE, SE, S, SW, NW or 0-5: that end is in bypass along it,
    D2.3; empty = not) and ``src_entrenched,tgt_entrenched`` (1/0, true/false, yes/no: that
    end is a unit in an entrenchment, B27.2; empty = not), any order, by header.
    """
    label = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:  # hexwx.limits: a regular file (no FIFO, no /dev/zero), bounded in size
            from hexwx.limits import read_text_input
            text = read_text_input(path, "a CSV of pairs").removeprefix("\ufeff")
    except OSError as exc:
        raise DataError(f"{label}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DataError(f"{label}: not a text (UTF-8) CSV file") from None
    try:
        data = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise DataError(f"{label}: not a CSV file ({exc})") from None
    if not data:
        raise DataError(f"{label}: empty file (expected a header with columns src,tgt"
                        f"[,src_level,tgt_level])")
    header, body = data[0], data[1:]
    cols = {c.strip().lower(): i for i, c in enumerate(header)}
    for need in ("src", "tgt"):
        if need not in cols:
            raise DataError(f"{label}: no column {need!r} in the header {','.join(header)!r} "
                            f"(expected src,tgt[,src_level,tgt_level])")
    keep = [k for k, row in enumerate(body) if any(c.strip() for c in row)]   # blank lines
    rows = [body[k] for k in keep]
    lines = [k + 2 for k in keep]
    width = max(cols["src"], cols["tgt"]) + 1
    for row, line in zip(rows, lines):
        if len(row) < width:
            raise DataError(f"{label} line {line}: src or tgt is missing")

    def column(name: str) -> list[str]:
        i = cols.get(name, -1)
        if i < 0:
            return [""] * len(rows)
        return [row[i].strip() if i < len(row) else "" for row in rows]
    return PairRows(label, column("src"), column("tgt"), column("src_level"), column("tgt_level"),
                    column("src_hexside"), column("tgt_hexside"), lines,
                    column("src_entrenched"), column("tgt_entrenched"))


def _parse_levels(label: str, values: list[str], lines: list[int], column: str) -> np.ndarray:
    out = np.zeros(len(values), np.int64)
    for i, v in enumerate(values):
        if not v:
            continue
        level: int | None
        try:
            level = int(v)
        except ValueError:
            level = None
        if level is None or len(v) > 6:   # (no map has a level of 7 digits)
            raise DataError(f"{label} line {lines[i]}: {column} {v[:40]!r} is not a whole number "
                            f"of up to 6 digits (a level in the hex: 0 ground, building levels, "
                            f"rooftop)")
        out[i] = level
    return out


def _parse_hexsides(m: Any, label: str, values: list[str], hexes: np.ndarray,
                    lines: list[int], column: str) -> np.ndarray | None:
    """The bypass hexside of each row (-1: empty, not in bypass); None when every cell is
    empty.  DataError naming the file, line and column of a cell that is not a hexside of its
    hex on the map."""
    from hexwx.hexmap.coords import HEXSIDE_NAMES, hexside_number
    if not any(values):
        return None
    out = np.full(len(values), -1, np.int64)
    on_map = m.kernel_map[4][:, :, 0]
    for i, v in enumerate(values):
        if not v:
            continue
        side = hexside_number(v)
        if side is None:
            raise DataError(f"{label} line {lines[i]}: {column} {v[:40]!r} is not a hexside "
                            f"(expected {', '.join(HEXSIDE_NAMES)} or 0-5, or empty)")
        if not on_map[hexes[i], side]:
            raise DataError(f"{label} line {lines[i]}: {column} {v!r} is the edge of the map "
                            f"for {m.name_of(int(hexes[i]))} (a unit cannot bypass along it)")
        out[i] = side
    return out


#: The cells of an entrenchment column, as they read (B27.2); an empty cell is "no".
_FLAG_WORDS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def _parse_entrenched(label: str, values: list[str], levels: np.ndarray, lines: list[int],
                      column: str, level_column: str) -> np.ndarray | None:
    """Whether each row's end is in an entrenchment (bools); None when none is.  DataError
    naming the file, line and column of a cell that is not a yes/no, or of an entrenched end
    not at ground level."""
    if not any(values):
        return None
    out = np.zeros(len(values), bool)
    for i, v in enumerate(values):
        if not v:
            continue
        flag = _FLAG_WORDS.get(v.lower())
        if flag is None:
            raise DataError(f"{label} line {lines[i]}: {column} {v[:40]!r} is not 1/0, true/false "
                            f"or yes/no (an end in an entrenchment, B27.2), or empty")
        if flag and levels[i] != 0:
            raise DataError(f"{label} line {lines[i]}: {level_column} {int(levels[i])} with "
                            f"{column}: a unit in an entrenchment is at its hex's ground level "
                            f"(B27); expected 0 or empty")
        out[i] = flag
    return out if out.any() else None


def answer_pairs(m: Any, rows: PairRows, weather: Any = None, counters: Any = None) -> Any:
    """Parse and answer the pairs; DataError naming the file and line of the first bad row."""
    from hexwx.lineofsight.batch import check_levels, hex_ids, los_pairs
    label, src, tgt, sl, tl, lines = (rows.label, rows.src, rows.tgt, rows.src_level,
                                      rows.tgt_level, rows.lines)
    ids = []
    for column, names in (("src", src), ("tgt", tgt)):
        try:
            ids.append(hex_ids(m, names))
        except UsageError:
            index = {n.upper() for n in m.grid.names()}
            i = next(i for i, n in enumerate(names) if n.upper() not in index)
            raise DataError(f"{label} line {lines[i]}: {column} {names[i]!r} is not a hex of "
                            f"this map") from None
    levels = [_parse_levels(label, sl, lines, "src_level"), _parse_levels(label, tl, lines, "tgt_level")]
    for column, h, lv in (("src_level", ids[0], levels[0]), ("tgt_level", ids[1], levels[1])):
        try:
            check_levels(m, h, lv)
        except UsageError as exc:
            top = (m.hexes.levels + m.hexes.rooftop.astype(bool)).astype(np.int64)
            i = int(np.flatnonzero((lv < 0) | (lv > top[h]))[0])
            raise DataError(f"{label} line {lines[i]}: {column}: {exc}") from None
    sides = [_parse_hexsides(m, label, rows.src_hexside, ids[0], lines, "src_hexside"),
             _parse_hexsides(m, label, rows.tgt_hexside, ids[1], lines, "tgt_hexside")]
    ents = [_parse_entrenched(label, rows.src_entrenched, levels[0], lines, "src_entrenched",
                              "src_level"),
            _parse_entrenched(label, rows.tgt_entrenched, levels[1], lines, "tgt_entrenched",
                              "tgt_level")]
    return los_pairs(m, ids[0], ids[1], levels[0], levels[1], weather=weather, counters=counters,
                     src_hexside=sides[0], tgt_hexside=sides[1], src_entrenched=ents[0],
                     tgt_entrenched=ents[1])


def encode(m: Any, a: Any, fmt: str) -> str:
    """The answers as CSV (header + one row per pair) or JSON lines, fields :data:`FIELDS`.

    Built column by column from the few distinct names, locations and reasons, so that writing
    100,000 rows costs about as much as answering them.  JSON values are exactly those of
    ``LosResult.to_json``; in CSV, null is empty, true/false are 1/0 and blocked_at is "x y".
    """
    from hexwx.lineofsight.locations import end_words, location_name
    from hexwx.outputs import csv_cell
    jsonl = fmt == "jsonl"
    quote = json.dumps if jsonl else csv_cell
    null = "null" if jsonl else ""
    names = np.array([quote(x) for x in m.grid.names()], dtype=object)

    def locs(h: np.ndarray, lv: np.ndarray, side: np.ndarray | None,
             ent: np.ndarray | None) -> np.ndarray:
        key = ((h * 4096 + lv) * 8 + (0 if side is None else side + 1)) * 2 + \
            (0 if ent is None else ent.astype(np.int64))
        uniq, inverse = np.unique(key, return_inverse=True)
        texts = np.array([quote(end_words(
            location_name(m, int(k) // 16 // 4096, int(k) // 16 % 4096), int(k) // 2 % 8 - 1,
            bool(k % 2))) for k in uniq], dtype=object)
        return texts[inverse.reshape(-1)]

    def nums(x: np.ndarray) -> np.ndarray:
        return x.astype(str).astype(object)

    terrain = a.reason > 0
    codes, inverse = np.unique(a.reason, return_inverse=True)
    texts = [a.reason_of(int(np.flatnonzero(a.reason == c)[0])) for c in codes]
    reason = np.array([quote(t) for t, _ in texts], dtype=object)[inverse.reshape(-1)]
    rule = np.array([null if r is None else quote(r) for _, r in texts], dtype=object)[inverse.reshape(-1)]
    lv = a.lv if a.lv is not None else np.zeros(len(a), np.int32)

    def unless_blocked(x: np.ndarray) -> np.ndarray:
        return np.where(a.blocked, null, nums(x)).astype(object)
    at = a.blocked_at
    at_text = (("[" + nums(at[:, 0]) + ", " + nums(at[:, 1]) + "]") if jsonl
               else (nums(at[:, 0]) + " " + nums(at[:, 1])))
    bhex = names[np.maximum(a.blocking_hex, 0)]
    cols = [names[a.src], names[a.tgt], nums(a.src_level), nums(a.tgt_level),
            nums(a.src_elevation), nums(a.tgt_elevation),
            locs(a.src, a.src_level, a.src_hexside, a.src_entrenched),
            locs(a.tgt, a.tgt_level, a.tgt_hexside, a.tgt_entrenched), nums(a.range),
            np.where(a.blocked, "true" if jsonl else "1", "false" if jsonl else "0").astype(object),
            unless_blocked(a.hindrance), unless_blocked(lv), unless_blocked(a.hindrance + lv),
            reason, rule, np.where(terrain, at_text, null).astype(object),
            np.where(terrain & (a.blocking_hex >= 0), bhex, null).astype(object)]
    rows = zip(*(c.tolist() for c in cols))
    if jsonl:
        template = "{{" + ", ".join(f'"{f}": {{}}' for f in FIELDS) + "}}\n"
        return "".join(template.format(*r) for r in rows)
    return ",".join(FIELDS) + "\n" + "".join(",".join(r) + "\n" for r in rows)


def _cmd_los_batch(args: argparse.Namespace) -> int:
    from hexwx.cli.hex import map_inputs, map_or_scenario, write_text
    from hexwx.front.options import counters_from_args, print_counter_notes
    from hexwx.front.options import weather_flags_given, weather_from_args
    from hexwx.outputs import check_output
    items = list(args.items)
    if len(items) != (1 if args.scenario else 2):
        raise UsageError("expected MAP PAIRS.csv (or --scenario FILE PAIRS.csv)")
    pairs = items[-1]
    map_arg = items[0] if len(items) == 2 else None
    inputs = map_inputs(args, map_arg or args.scenario, None if pairs == "-" else pairs)
    check_output(args.output, inputs=inputs)          # before anything is read
    m, scenario, source = map_or_scenario(args, map_arg)
    weather = None
    if weather_flags_given(args) or scenario is not None:
        weather = weather_from_args(args, scenario=scenario)
    counters = counters_from_args(args, m, scenario=scenario, source=source)
    print_counter_notes(m, counters, weather)
    answers = answer_pairs(m, read_pairs(pairs), weather, counters)
    fmt = args.format
    if fmt is None:
        fmt = "jsonl" if str(args.output or "").lower().endswith((".jsonl", ".ndjson", ".json")) else "csv"
    write_text(args.output, encode(m, answers, fmt), inputs=inputs + (m.source,))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    from hexwx.front.options import MAP_HELP, add_counter_options, add_map_options
    from hexwx.front.options import add_weather_flags
    p = subparsers.add_parser(
        "los-batch",
        description="Answer every pair of PAIRS.csv (columns src,tgt and optionally src_level,"
                    "tgt_level: the level in the hex, 0 ground, building levels, rooftop; "
                    "src_hexside,tgt_hexside: N, NE, SE, S, SW, NW or 0-5 for an end in bypass "
                    "along that hexside, D2.3, traced from it; src_entrenched,tgt_entrenched: "
                    "1/0, true/false or yes/no for a unit in an entrenchment, B27.2) on MAP "
                    "with the kernel of `hexwx los`, in one pass.  Output: CSV (default) or JSON "
                    "lines with the fields of `hexwx los --json` but the hindrance list and thread:\n"
                    "  " + ",".join(FIELDS) + "\n"
                    "hindrance, lv and drm are empty (null) when blocked; blocked_at is 'x y'.",
        epilog="example:\n  hexwx los-batch bd10 pairs.csv -o answers.jsonl --vasl-metadata SharedBoardMetadata.xml",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("items", nargs="+", metavar="[MAP] PAIRS.csv",
                   help=f"{MAP_HELP} (left out with --scenario); then the CSV of pairs, '-' "
                        f"for stdin")
    p.add_argument("--scenario", metavar="FILE",
                   help="a hex scenario instead of MAP: its map, weather and counters")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    p.add_argument("--format", choices=("csv", "jsonl"), default=None,
                   help="output format (default: jsonl when FILE ends .jsonl/.ndjson/.json, else csv)")
    add_map_options(p)
    add_counter_options(p)
    add_weather_flags(p)
    p.set_defaults(func=_cmd_los_batch)
