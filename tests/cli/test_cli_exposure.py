"""``hexwx exposure`` and ``hexwx path --avoid-sight-of`` from the command line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexwx.cli.app import main
from hexwx.io.load import load_map
from hexwx.lineofsight.exposure import exposure

MAP = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_exposure_json_is_the_library_answer(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "exposure", MAP, "--from", "J4,N7", "--from", "C5", "--fog", "0", "--json")
    d = json.loads(out)
    from hexwx.weather.asl.state import AslWeather
    e = exposure(load_map(MAP), observers=["J4", "N7", "C5"], weather=AslWeather(fog_level=0))
    assert rc == 0 and d["observers"] == ["J4", "N7", "C5"]
    assert d["hexes"] == {k: v for k, v in e.to_json()["hexes"].items()}
    assert all(set(v) <= {"J4", "N7", "C5"} and len(v) == d["hexes"][k] for k, v in d["seen_by"].items())


def test_exposure_text(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "exposure", MAP, "--top", "3")
    assert rc == 0 and "most seen:" in out and "least seen:" in out


@pytest.mark.parametrize("argv,code", [(["--from", "Z99"], 2), (["--level", "-1"], 2),
                                       (["--top", "-2"], 2), (["--fog", "9"], 2), (["--level", "x"], 2)])
def test_exposure_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], code: int) -> None:
    rc, _, err = run(capsys, "exposure", MAP, *argv)
    assert rc == code and err.strip().count("\n") == 0 and "Traceback" not in err


def test_path_avoiding_sight(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "path", MAP, "B3", "K6", "--unit", "infantry", "--avoid-sight-of", "J4")
    assert rc == 0 and "avoiding sight of J4" in out and "steps in sight" in out
    assert "[in sight of J4]" in out or "[out of sight]" in out
    rc, _, err = run(capsys, "path", MAP, "B3", "K6", "--unit", "infantry", "--avoid-sight-of", "Q99")
    assert rc == 2 and "Q99" in err
