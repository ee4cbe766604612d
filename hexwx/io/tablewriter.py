"""Writing big tables chunk by chunk: CSV (default), JSON lines, or Parquet.

A :class:`TableWriter` takes columns of numpy arrays one chunk at a time and appends them to
the output, so a table of any number of rows needs memory for one chunk only.  Used by
``los-table`` and ``batch`` (and any command writing per-pair tables).

Column kinds: ``"label"`` (int indices into a list of strings, such as hex names), ``"int"``,
``"bool"`` (``0``/``1`` in CSV, true/false in JSON and Parquet).  A column may have a null mask
(blocked pairs have no hindrance): empty in CSV, ``null`` in JSON, null in Parquet.

CSV and JSON text are built with numpy without Python objects per row: each column's distinct
values are formatted once into a small table of byte strings, the rows are gathered from those
tables side by side in one byte matrix, and the padding is squeezed out.

Files go through :func:`hexwx.outputs.open_output` (a fresh temporary file beside the target,
renamed over it when the table is complete; an interrupted run leaves the target as it was);
``-`` or None writes to stdout.  Text cells of CSV are made safe with
:func:`hexwx.outputs.csv_cell`.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from hexwx.errors import DataError, UsageError
from hexwx.validate import one_of
from hexwx.outputs import check_output, csv_cell, open_output

FORMATS = ("csv", "jsonl", "parquet")
KINDS = ("label", "int", "bool")

#: The suffix each format's files get in a batch directory.
SUFFIX = {"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}


def format_for(path: str | None, fmt: str | None) -> str:
    """The output format: ``fmt`` if given, else from the file suffix, else CSV."""
    if fmt is not None:
        return one_of(fmt, FORMATS, "fmt")
    suffix = Path(path).suffix.lower() if path not in (None, "-") else ""
    for f, s in SUFFIX.items():
        if suffix == s or (f == "jsonl" and suffix == ".ndjson"):
            return f
    return "csv"


def _padded(entries: list[bytes]) -> np.ndarray:
    """uint8 [len(entries), width]: the byte strings left-aligned, NUL-padded."""
    width = max((len(e) for e in entries), default=0)
    out = np.zeros((len(entries), max(width, 1)), np.uint8)
    for i, e in enumerate(entries):
        out[i, :len(e)] = np.frombuffer(e, np.uint8)
    return out


class TableWriter:
    """Append chunks of columns to a CSV, JSON lines or Parquet table.

    ``columns``: (name, kind) in output order; ``labels``: for each label column, the strings its
    indices stand for.  Use as a context manager: the file gets its real name on a clean exit
    and is removed on an error.
    """

    def __init__(self, path: str | Path | None, columns: Sequence[tuple[str, str]], *,
                 labels: Mapping[str, Sequence[str]] | None = None, fmt: str | None = None,
                 inputs: Iterable[object] = ()) -> None:
        self.fmt = format_for(None if path is None else str(path), fmt)
        self.columns = list(columns)
        for name, kind in self.columns:
            if kind not in KINDS:
                raise ValueError(f"column {name}: unknown kind {kind!r}")
        self.labels = {k: list(v) for k, v in (labels or {}).items()}
        for name, kind in self.columns:
            if kind == "label" and name not in self.labels:
                raise ValueError(f"column {name}: labels missing")
        self.rows = 0
        self.inputs = tuple(inputs)
        self.path = check_output(None if path is None else str(path), inputs=self.inputs)
        self._cm: Any = None
        self._out: IO[bytes] | None = None
        self._parquet: Any = None
        self._label_tables: dict[str, Any] = {}
        if self.fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
                import pyarrow.parquet  # noqa: F401
            except ImportError:
                raise UsageError("Parquet output needs pyarrow: pip install 'hexwx[parquet]'") from None
            if self.path is None:
                raise UsageError("Parquet output needs a file (-o FILE), not standard output")

    # -- context -------------------------------------------------------------------------------
    def __enter__(self) -> "TableWriter":
        self._cm = open_output(self.path, inputs=self.inputs)
        self._out = self._cm.__enter__()
        if self.fmt == "csv":
            self._write(",".join(csv_cell(name) for name, _ in self.columns).encode() + b"\n")
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self._cm.__exit__(exc_type, exc, tb)

    def _write(self, data: bytes) -> None:
        assert self._out is not None
        try:
            self._out.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise DataError(f"{self.path or 'standard output'}: cannot write: {exc.strerror}") from None

    def close(self) -> None:
        """Finish the table and give it its real name."""
        if self.fmt == "parquet":
            if self._parquet is None:  # no rows: still a table with its columns
                self._parquet_chunk({name: np.zeros(0, np.int32) for name, _ in self.columns}, {})
            self._parquet.close()
        self._cm.__exit__(None, None, None)

    # -- chunks --------------------------------------------------------------------------------
    def write(self, values: Mapping[str, np.ndarray], nulls: Mapping[str, np.ndarray] | None = None) -> None:
        """Append rows: ``values[name]`` per column (equal lengths); ``nulls[name]`` a bool mask
        of the rows where that column has no value."""
        nulls = nulls or {}
        if self.fmt == "parquet":
            self._parquet_chunk(values, nulls)
        else:
            self._write(self._text(values, nulls))
        self.rows += len(values[self.columns[0][0]])

    def _cell_table(self, name: str, kind: str, v: np.ndarray) -> tuple[list[bytes], np.ndarray, int]:
        """Formatted entries for a column's values, the index of each row into them, and the
        index offset (entries = formatted values of lo..hi)."""
        js = self.fmt == "jsonl"
        if kind == "label":
            labels = self.labels[name]
            return ([json.dumps(s).encode() for s in labels] if js
                    else [csv_cell(s).encode() for s in labels], v, 0)
        if kind == "bool":
            return ([b"false", b"true"] if js else [b"0", b"1"]), v.astype(np.int64), 0
        lo = int(v.min()) if len(v) else 0
        hi = int(v.max()) if len(v) else 0
        if hi - lo > 1 << 20:
            raise ValueError(f"column {name}: values {lo}..{hi} too spread for the text writer")
        return [str(x).encode() for x in range(lo, hi + 1)], v.astype(np.int64) - lo, lo

    def _text(self, values: Mapping[str, np.ndarray], nulls: Mapping[str, np.ndarray]) -> bytes:
        js = self.fmt == "jsonl"
        parts: list[np.ndarray] = []
        rows = len(values[self.columns[0][0]])
        if rows == 0:
            return b""

        def const(b: bytes) -> None:
            parts.append(np.broadcast_to(np.frombuffer(b, np.uint8), (rows, len(b))))

        for i, (name, kind) in enumerate(self.columns):
            v = np.asarray(values[name])
            if len(v) != rows:
                raise ValueError(f"column {name} has {len(v)} rows, expected {rows}")
            if kind == "label" and name in self._label_tables:
                table, idx = self._label_tables[name], v
            else:
                entries, idx, _ = self._cell_table(name, kind, v)
                table = _padded(entries + [b"null" if js else b""])
                if kind == "label":
                    self._label_tables[name] = table
            null = nulls.get(name)
            if null is not None:
                idx = np.where(null, len(table) - 1, idx)
            if js:
                const((b"{" if i == 0 else b",") + json.dumps(name).encode() + b":")
            elif i:
                const(b",")
            parts.append(table[idx])
        const(b"}\n" if js else b"\n")
        grid = np.concatenate(parts, axis=1)
        return grid[grid != 0].tobytes()

    def _parquet_chunk(self, values: Mapping[str, np.ndarray], nulls: Mapping[str, np.ndarray]) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq
        arrays = []
        for name, kind in self.columns:
            v = np.asarray(values[name])
            null = nulls.get(name)
            mask = None if null is None else np.asarray(null, bool)
            if kind == "label":
                if name not in self._label_tables:
                    self._label_tables[name] = pa.array(self.labels[name], pa.string())
                arr = self._label_tables[name].take(pa.array(v.astype(np.int32)))
                if mask is not None:
                    arr = pc.if_else(pa.array(mask), pa.scalar(None, pa.string()), arr)
            elif kind == "bool":
                arr = pa.array(v.astype(bool), mask=mask)
            else:
                arr = pa.array(v.astype(np.int32), mask=mask)
            arrays.append(arr)
        table = pa.Table.from_arrays(arrays, names=[name for name, _ in self.columns])
        if self._parquet is None:
            self._parquet = pq.ParquetWriter(pa.PythonFile(self._out, mode="w"), table.schema)
        self._parquet.write_table(table)
