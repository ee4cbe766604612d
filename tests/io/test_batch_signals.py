"""``hexwx batch`` when things die (issue #25 B1, B2, A2): its workers die with it whatever
signal ends it (SIGKILL included); a worker killed mid-job is one line naming the jobs, exit 1,
with no temporary files left; an unreachable Dask scheduler fails within seconds.  Real
processes: the batch runs as ``python -m hexwx`` and the tests find its descendants in /proc."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vasl_boards import vasl_dir

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc's parent links)."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":
                parent[int(d.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for p in pids:
        try:
            st = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        if st[st.rindex(")") + 2] != "Z":
            out.add(p)
    return out


def start_batch(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    """A batch of two slow jobs (a six-board layout, no map cache) on two worker processes,
    returned once a worker is writing its table."""
    spec = tmp_path / "spec.toml"
    spec.write_text('maps = ["bd02,bd04,bd05/bd06,bd09,bd10"]\nlevels = [0]\n'
                    '[[weather]]\nname = "clear"\n[[weather]]\nname = "fog"\nfog = 0\nfog_drm = 1\n')
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEXWX_VASL_DIR": str(vasl_dir()),
           "HEXWX_NO_CACHE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "hexwx", "batch", str(spec), "-o", str(out),
                             "--jobs", "2", "-q"], env=env, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 180
    while proc.poll() is None and time.monotonic() < deadline:
        if out.is_dir() and list(out.glob(".*.tmp")):
            return proc, out
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"the batch wrote no table in time: {proc.stderr.read() if proc.stderr else ''}")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_workers_die_with_the_batch(tmp_path: Path, sig: signal.Signals) -> None:
    proc, out = start_batch(tmp_path)
    below = descendants(proc.pid)
    assert len(below) >= 2                       # the forkserver and the workers
    proc.send_signal(sig)
    if sig != signal.SIGKILL:
        proc.wait(timeout=60)
    deadline = time.monotonic() + 10           # (a killed batch is not reaped meanwhile)
    while alive(below) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive(below)
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, f"{len(left)} process(es) outlived the batch after {sig.name}"
    proc.wait(timeout=60)
    if sig != signal.SIGKILL:
        assert proc.returncode == 128 + sig.value
        assert not list(out.glob(".*.tmp"))


def test_a_dead_worker_is_one_line_naming_the_jobs(tmp_path: Path) -> None:
    proc, out = start_batch(tmp_path)
    below = descendants(proc.pid)
    servers = {p for p in below if b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()}
    workers = sorted(set().union(*(descendants(s) for s in servers)))   # (forked by it)
    assert workers, below
    os.kill(workers[-1], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert len(err.strip().splitlines()) == 1 and "worker process died" in err, err
    assert "bd02,bd04,bd05/bd06,bd09,bd10 under" in err and "internal error" not in err
    assert not list(out.glob(".*.tmp"))


def test_an_unreachable_dask_scheduler_fails_within_seconds(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    spec = tmp_path / "spec.toml"
    spec.write_text(f'maps = ["{ROOT / "maps" / "hill_village.toml"}"]\n[[weather]]\nname = "clear"\n')
    t = time.monotonic()
    got = subprocess.run([sys.executable, "-m", "hexwx", "batch", str(spec), "-o", str(tmp_path / "o"),
                          "--dask", "127.0.0.1:1"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 1 and "cannot reach the scheduler" in got.stderr, got.stderr
    assert len(got.stderr.strip().splitlines()) == 1
    assert time.monotonic() - t < 10            # (5 s to connect, and Python's start-up)
