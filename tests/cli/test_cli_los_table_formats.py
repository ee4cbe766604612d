"""``hexwx los-table``: formats, threads, progress bar; the same table however it is written."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from hexwx.cli import main
from hexwx.cli.progress import Progress

ROOT = Path(__file__).resolve().parents[2]
HILL = ROOT / "maps" / "hill_village.toml"


def _csv_rows(path: Path) -> list[dict]:
    return [{"src": r["src"], "tgt": r["tgt"], "range": int(r["range"]), "blocked": r["blocked"] == "1",
             "hindrance": None if r["hindrance"] == "" else int(r["hindrance"])}
            for r in csv.DictReader(io.StringIO(path.read_text()))]


def test_threads_do_not_change_a_byte(tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert main(["los-table", str(HILL), "-o", str(a), "--threads", "1"]) == 0
    assert main(["los-table", str(HILL), "-o", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()


def test_jsonl_and_parquet_hold_the_csv_table(tmp_path: Path) -> None:
    c, j = tmp_path / "t.csv", tmp_path / "t.jsonl"
    assert main(["los-table", str(HILL), "-o", str(c), "-q"]) == 0
    assert main(["los-table", str(HILL), "-o", str(j)]) == 0
    want = _csv_rows(c)
    assert [json.loads(line) for line in j.read_text().splitlines()] == want
    pq = pytest.importorskip("pyarrow.parquet")
    p = tmp_path / "t.out"
    assert main(["los-table", str(HILL), "-o", str(p), "--format", "parquet"]) == 0
    assert pq.read_table(p).to_pylist() == want


def test_bad_threads_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los-table", str(HILL), "--threads", "0"]) == 2
    err = capsys.readouterr().err
    assert "--threads" in err and len(err.strip().splitlines()) == 1


def test_no_progress_bar_when_piped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los-table", str(HILL), "-o", str(tmp_path / "t.csv")]) == 0
    assert capsys.readouterr().err == ""


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only_after_the_delay() -> None:
    s = _Tty()
    p = Progress(100, "x", delay=3600, stream=s)
    p.update(50)
    assert s.getvalue() == ""                       # a short run shows nothing
    p = Progress(100, "x", delay=0, stream=s)
    p.update(50)
    assert "50.0%" in s.getvalue()
    p.close()
    assert s.getvalue().endswith("\r")
    q = _Tty()
    quiet = Progress(100, "x", delay=0, stream=q, quiet=True)
    quiet.update(50)
    assert q.getvalue() == ""
