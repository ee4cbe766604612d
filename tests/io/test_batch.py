"""``hexwx batch``: the spec, one file per (map, level, state), reruns skip, and the same bytes
on a local process pool, on a Dask LocalCluster and from single ``los-table`` runs."""
from __future__ import annotations

from pathlib import Path

import pytest

from hexwx.cli import main
from hexwx.errors import DataError
from hexwx.io.batch import load_spec, run_dask, run_local

ROOT = Path(__file__).resolve().parents[2]
HILL = ROOT / "maps" / "hill_village.toml"
FIELDS = ROOT / "maps" / "hedgerow_fields.toml"

SPEC = f"""\
maps = ["{HILL}", "{FIELDS}"]
levels = LEVELS
month = "Oct"
[[weather]]
name = "clear"
[[weather]]
name = "fog"
fog = 3
fog_drm = 1
[[weather]]
name = "rolled"
roll = true
seeds = [3]
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    p = tmp_path / "spec.toml"
    p.write_text(SPEC.replace("LEVELS", "[0, 1]"))
    return p


def _files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_spec_gives_one_task_per_map_and_state(spec: Path) -> None:
    s = load_spec(spec)
    assert [st.name for st in s.states] == ["clear", "fog", "rolled-s3"]
    assert s.states[0].weather is None and s.states[1].weather.fog_level == 3
    tasks = s.tasks(spec.parent / "out")
    assert len(tasks) == 2 * 3 and all(t.levels == (0, 1) for t in tasks)
    assert tasks[1].output(1).name == "hill_village__L1__fog.csv"


def test_local_dask_and_single_runs_give_the_same_bytes(tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.replace("LEVELS", "[0]"))
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert main(["batch", str(spec), "-o", str(local), "--jobs", "2", "-q"]) == 0
    files = _files(local)
    assert len(files) == 2 * 3
    s = load_spec(spec)
    dask.mkdir()
    run_dask(s.tasks(dask), "local", 1,
             cluster_options={"processes": False, "n_workers": 1, "threads_per_worker": 2})
    assert _files(dask) == files
    # single los-table runs give the same bytes
    single = tmp_path / "single.csv"
    assert main(["los-table", str(HILL), "-o", str(single), "--fog", "3", "--fog-drm", "1", "-q"]) == 0
    assert single.read_bytes() == files["hill_village__L0__fog.csv"]
    assert files["hill_village__L0__rolled-s3.csv"].split(b"\n", 1)[0].endswith(b",lv")


def test_a_rerun_skips_what_is_done(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    s = load_spec(spec)
    tasks = s.tasks(out)
    out.mkdir()
    first = run_local(tasks[:1], 1)
    assert len(first[0].written) == 2
    done = out / "hill_village__L0__clear.csv"
    stamp = done.stat().st_mtime_ns
    again = run_local(tasks[:2], 1)
    by_state = {r.state: r for r in again}
    assert len(by_state["clear"].skipped) == 2 and by_state["clear"].written == ()
    assert len(by_state["fog"].written) == 2
    assert done.stat().st_mtime_ns == stamp
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))
    single = tmp_path / "single.csv"
    assert main(["los-table", str(HILL), "-o", str(single), "--from-level", "1", "-q"]) == 0
    assert single.read_bytes() == (out / "hill_village__L1__clear.csv").read_bytes()


def test_a_level_with_no_location_gives_a_table_of_no_rows(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    fields_fog = [t for t in load_spec(spec).tasks(out) if "hedgerow" in t.slug and t.state.name == "fog"]
    run_local(fields_fog, 1)
    # so a rerun knows it is done
    assert (out / "hedgerow_fields__L1__fog.csv").read_bytes() == \
        b"src,src_level,tgt,tgt_level,range,blocked,hindrance,lv\n"


@pytest.mark.parametrize("text, needle", [
    ('maps = []', "maps"),
    ('maps = ["x.toml"]\nlevels = [-1]', "levels"),
    ('maps = ["x.toml"]\n[[weather]]\nname = "r"\nroll = true', "month"),
    ('maps = ["x.toml"]\n[[weather]]\nname = "a b"', "name"),
    ('maps = ["x.toml"]\n[[weather]]\nname = "f"\nfog = 9', "fog"),
    ('maps = ["nothing/*.toml"]', "glob"),
    ('maps = ["x.toml"]\nformat = "xml"', "format"),
])
def test_bad_specs_name_the_key(tmp_path: Path, text: str, needle: str) -> None:
    p = tmp_path / "s.toml"
    p.write_text(text)
    with pytest.raises(DataError, match=needle):
        load_spec(p)


def test_cli_bad_spec_is_one_line_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.toml"
    p.write_text("maps = 3")
    assert main(["batch", str(p), "-o", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "maps" in err
