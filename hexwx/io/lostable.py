"""Writing a map's all-pairs LOS table to a file while the kernel runs (``los-table``, ``batch``).

Columns ``src,tgt,range,blocked,hindrance`` (and ``lv`` with weather); ``hindrance`` and ``lv``
are empty (null) when blocked.  Rows come in the kernel's order (see
:mod:`hexwx.lineofsight.pairs`): for each hex a in id order and each b after it, (a, b) then
(b, a).  Memory holds about one chunk of pairs plus the map, whatever the map's size.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hexwx.hexmap.board import HexMap
from hexwx.io.tablewriter import TableWriter
from hexwx.lineofsight.pairs import CHUNK_PAIRS, TableProgress, los_table_chunks

LOS_COLUMNS = (("src", "label"), ("tgt", "label"), ("range", "int"), ("blocked", "bool"),
               ("hindrance", "int"))


def write_los_table(m: HexMap, path: str | Path | None, *, weather: Any = None,
                    fmt: str | None = None, threads: int | None = None,
                    progress: Callable[[TableProgress], None] | None = None,
                    chunk_pairs: int = CHUNK_PAIRS, inputs: Iterable[object] = (),
                    from_level: int | None = None, to_level: int | None = None,
                    all_locations: bool = False, allow_empty: bool = False,
                    counters: Any = None) -> int:
    """Write every ordered pair's LOS at ground level to ``path`` (stdout for None or '-');
    returns the number of rows.  ``fmt``: csv, jsonl or parquet (default: from the suffix);
    ``inputs``: files the output must not overwrite (see :mod:`hexwx.outputs`).  With
    ``from_level``/``to_level``/``all_locations`` (see ``los_table``), pairs of locations with
    the columns src,src_level,tgt,tgt_level,range,blocked,hindrance[,lv]; a map with no
    location at a level asked for is a UsageError, or (``allow_empty``, for batches) a table
    of no rows.  ``counters``: the counters on the map (their hindrances are in ``hindrance``,
    see :func:`hexwx.lineofsight.engine.los`)."""
    levels = all_locations or from_level not in (None, 0) or to_level not in (None, 0)
    empty = False
    if levels and allow_empty:
        from hexwx.errors import UsageError
        from hexwx.lineofsight.engine import level_locations
        try:
            level_locations(m, from_level, to_level, all_locations)
        except UsageError:
            empty = True
    columns = list(LOS_COLUMNS)
    if levels:
        columns[1:1] = [("src_level", "int")]
        columns[3:3] = [("tgt_level", "int")]
    if weather is not None:
        columns.append(("lv", "int"))
    names = m.grid.names()
    with TableWriter(path, columns, labels={"src": names, "tgt": names}, fmt=fmt,
                     inputs=inputs) as out:
        if empty:
            return 0
        for t, p in los_table_chunks(m, weather=weather, threads=threads, chunk_pairs=chunk_pairs,
                                     from_level=from_level, to_level=to_level,
                                     all_locations=all_locations, counters=counters):
            values = {"src": t.src, "tgt": t.tgt, "range": t.range, "blocked": t.blocked,
                      "hindrance": t.hindrance}
            nulls = {"hindrance": t.blocked}
            if t.src_level is not None and t.tgt_level is not None:
                values["src_level"], values["tgt_level"] = t.src_level, t.tgt_level
            if t.lv is not None:
                values["lv"] = t.lv
                nulls["lv"] = t.blocked
            out.write(values, nulls)
            if progress is not None:
                progress(p)
        return out.rows
