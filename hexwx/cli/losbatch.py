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
from pathlib import Path
from typing import Any

import numpy as np

from hexwx.errors import DataError, UsageError

#: Output fields, in order: the keys of ``LosResult.to_json`` a batch can give.
FIELDS = ("source", "target", "source_level", "target_level", "source_elevation",
          "target_elevation", "source_location", "target_location", "range", "blocked",
          "hindrance", "lv", "drm", "reason", "rule", "blocked_at", "blocking_hex")


def read_pairs(path: str) -> tuple[str, list[str], list[str], list[str], list[str], list[int]]:
    """(label, src, tgt, src_level, tgt_level, line numbers) of a pairs CSV ('-' = stdin).

    Columns ``src,tgt`` and optionally ``src_level,tgt_level`` (empty = 0), any order, by header.
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
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        raise DataError(f"{label}: empty file (expected a header with columns src,tgt"
                        f"[,src_level,tgt_level])")
    cols = {c.strip().lower(): i for i, c in enumerate(header)}
    for need in ("src", "tgt"):
        if need not in cols:
            raise DataError(f"{label}: no column {need!r} in the header {','.join(header)!r} "
                            f"(expected src,tgt[,src_level,tgt_level])")
    idx = [cols["src"], cols["tgt"], cols.get("src_level", -1), cols.get("tgt_level", -1)]
    out: list[list[str]] = [[], [], [], []]
    lines: list[int] = []
    for line_no, row in enumerate(reader, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        for k, i in enumerate(idx):
            if i < 0:
                out[k].append("")
            elif i < len(row):
                out[k].append(row[i].strip())
            elif k < 2:
                raise DataError(f"{label} line {line_no}: {('src', 'tgt')[k]} is missing")
            else:
                out[k].append("")
        lines.append(line_no)
    return label, out[0], out[1], out[2], out[3], lines


def _parse_levels(label: str, values: list[str], lines: list[int], column: str) -> np.ndarray:
    out = np.zeros(len(values), np.int64)
    for i, v in enumerate(values):
        if not v:
            continue
        try:
            out[i] = int(v)
        except ValueError:
            raise DataError(f"{label} line {lines[i]}: {column} {v!r} is not a whole number "
                            f"(a level in the hex: 0 ground, building levels, rooftop)") from None
    return out


def answer_pairs(m: Any, label: str, src: list[str], tgt: list[str], sl: list[str], tl: list[str],
                 lines: list[int], weather: Any = None) -> Any:
    """Parse and answer the pairs; DataError naming the file and line of the first bad row."""
    from hexwx.lineofsight.batch import check_levels, hex_ids, los_pairs
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
    return los_pairs(m, ids[0], ids[1], levels[0], levels[1], weather=weather)


def rows(m: Any, a: Any) -> list[dict[str, Any]]:
    """One dict per pair with :data:`FIELDS`, as ``LosResult.to_json`` has them."""
    from hexwx.lineofsight.locations import location_name
    names = m.grid.names()
    where: dict[tuple[int, int], str] = {}

    def loc(h: int, lv: int) -> str:
        key = (h, lv)
        if key not in where:
            where[key] = location_name(m, h, lv)
        return where[key]

    reasons = {int(c): a.reason_of(i) for c, i in zip(*np.unique(a.reason, return_index=True))}
    lv = a.lv if a.lv is not None else np.zeros(len(a), np.int32)
    cols = [x.tolist() for x in (a.src, a.tgt, a.src_level, a.tgt_level, a.src_elevation,
                                  a.tgt_elevation, a.range, a.blocked, a.hindrance, lv,
                                  a.reason, a.blocking_hex, a.blocked_at[:, 0], a.blocked_at[:, 1])]
    out = []
    for s, t, sl, tl, se, te, r, b, h, v, code, bh, bx, by in zip(*cols):
        text, rule = reasons[code]
        terrain = code > 0
        out.append({
            "source": names[s], "target": names[t], "source_level": sl, "target_level": tl,
            "source_elevation": se, "target_elevation": te,
            "source_location": loc(s, sl), "target_location": loc(t, tl),
            "range": r, "blocked": b,
            "hindrance": None if b else h, "lv": None if b else v, "drm": None if b else h + v,
            "reason": text, "rule": rule,
            "blocked_at": [bx, by] if terrain else None,
            "blocking_hex": names[bh] if terrain and bh >= 0 else None,
        })
    return out


def to_csv(records: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(FIELDS)
    w.writerows([_cell(f, r[f]) for f in FIELDS] for r in records)
    return buf.getvalue()


def _cell(field: str, v: Any) -> Any:
    if v is None:
        return ""
    if field == "blocked_at":
        return f"{v[0]} {v[1]}"
    return int(v) if isinstance(v, bool) else v


def to_jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def _cmd_los_batch(args: argparse.Namespace) -> int:
    from hexwx.cli.hex import open_map, write_text
    from hexwx.cli.hex import map_inputs
    from hexwx.cli.weather import weather_flags_given, weather_from_args
    from hexwx.outputs import check_output
    inputs = map_inputs(args, args.map, None if args.pairs == "-" else args.pairs)
    check_output(args.output, inputs=inputs)
    m = open_map(args.map, args)
    weather = None
    if weather_flags_given(args):
        weather = weather_from_args(args)
    label, src, tgt, sl, tl, lines = read_pairs(args.pairs)
    answers = answer_pairs(m, label, src, tgt, sl, tl, lines, weather)
    fmt = args.format
    if fmt is None:
        fmt = "jsonl" if str(args.output or "").lower().endswith((".jsonl", ".ndjson", ".json")) else "csv"
    records = rows(m, answers)
    write_text(args.output, to_jsonl(records) if fmt == "jsonl" else to_csv(records),
               inputs=inputs + (m.source,))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    from hexwx.cli.hex import add_map_options
    from hexwx.cli.weather import add_weather_flags
    p = subparsers.add_parser(
        "los-batch", help="LOS of every pair listed in a CSV, at any levels",
        description="Answer every pair of PAIRS.csv (columns src,tgt and optionally src_level,"
                    "tgt_level: the level in the hex, 0 ground, building levels, rooftop) on MAP "
                    "with the kernel of `hexwx los`, in one pass.  Output: CSV (default) or JSON "
                    "lines with the fields of `hexwx los --json` but the hindrance list and thread:\n"
                    "  " + ",".join(FIELDS) + "\n"
                    "hindrance, lv and drm are empty (null) when blocked; blocked_at is 'x y'.",
        epilog="example:\n  hexwx los-batch bd10 pairs.csv -o answers.jsonl --vasl-metadata SharedBoardMetadata.xml",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("map", metavar="MAP", help="hexwx map (.toml) or VASL board archive")
    p.add_argument("pairs", metavar="PAIRS.csv", help="CSV of pairs, '-' for stdin")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    p.add_argument("--format", choices=("csv", "jsonl"), default=None,
                   help="output format (default: jsonl when FILE ends .jsonl/.ndjson/.json, else csv)")
    add_map_options(p)
    add_weather_flags(p)
    p.set_defaults(func=_cmd_los_batch)
