"""TableWriter: CSV, JSON lines and Parquet give the same table, chunk by chunk, atomically."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from hexwx.errors import UsageError
from hexwx.io.tablewriter import TableWriter, format_for

COLS = [("src", "label"), ("n", "int"), ("ok", "bool"), ("h", "int")]
LABELS = {"src": ["A1", "GG10", "x\"y"]}


def _chunks(rng: np.random.Generator) -> list[tuple[dict, dict]]:
    out = []
    for size in (0, 1, 17, 500):
        v = {"src": rng.integers(0, 3, size), "n": rng.integers(-40, 300, size),
             "ok": rng.integers(0, 2, size).astype(bool), "h": rng.integers(0, 6, size)}
        out.append((v, {"h": ~v["ok"]}))
    return out


def _expected(chunks: list) -> list[dict]:
    rows = []
    for v, nulls in chunks:
        for i in range(len(v["n"])):
            rows.append({"src": LABELS["src"][v["src"][i]], "n": int(v["n"][i]), "ok": bool(v["ok"][i]),
                         "h": None if nulls["h"][i] else int(v["h"][i])})
    return rows


def test_csv_and_jsonl_hold_every_row(tmp_path: Path) -> None:
    chunks = _chunks(np.random.default_rng(1))
    want = _expected(chunks)
    for fmt in ("csv", "jsonl"):
        path = tmp_path / f"t.{fmt}"
        with TableWriter(path, COLS, labels=LABELS) as w:
            for v, nulls in chunks:
                w.write(v, nulls)
        assert w.rows == len(want)
        text = path.read_text()
        if fmt == "csv":
            got = [{"src": r["src"], "n": int(r["n"]), "ok": r["ok"] == "1",
                    "h": None if r["h"] == "" else int(r["h"])}
                   for r in csv.DictReader(io.StringIO(text))]
            assert text.startswith("src,n,ok,h\n")
        else:
            got = [json.loads(line) for line in text.splitlines()]
        assert got == want, fmt
        assert not (tmp_path / f"t.{fmt}.tmp").exists()


def test_parquet_holds_every_row(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    chunks = _chunks(np.random.default_rng(2))
    path = tmp_path / "t.parquet"
    with TableWriter(path, COLS, labels=LABELS) as w:
        for v, nulls in chunks:
            w.write(v, nulls)
    assert pq.read_table(path).to_pylist() == _expected(chunks)


def test_an_error_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    with pytest.raises(RuntimeError):
        with TableWriter(path, COLS, labels=LABELS) as w:
            w.write(*_chunks(np.random.default_rng(3))[2])
            raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []


def test_format_from_suffix_or_flag() -> None:
    assert format_for("a.csv", None) == "csv"
    assert format_for("a.jsonl", None) == "jsonl"
    assert format_for("a.parquet", None) == "parquet"
    assert format_for(None, None) == "csv"
    assert format_for("a.csv", "jsonl") == "jsonl"
    with pytest.raises(UsageError, match="bad fmt"):
        format_for("a", "xml")
