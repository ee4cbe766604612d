"""Safe output files (issue #17, item 2): hexwx.outputs and the commands that write files.

Nothing but the requested path is ever created, replaced or deleted; special files and the
command's own inputs are refused with one line; an empty ``-o`` is a usage error.
"""
from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from hexwx.cli import main
from hexwx.errors import DataError, UsageError
from hexwx.outputs import check_output, open_output, write_output

MAP = """\
[map]
name = "out"
[terrain]
woods = ["C4"]
"""


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    p = tmp_path / "m.toml"
    p.write_text(MAP)
    return p


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def listing(d: Path) -> dict[str, str]:
    """Every entry of ``d``: name -> kind and, for files and links, content or link target."""
    out = {}
    for p in sorted(d.iterdir()):
        st = p.lstat()
        if stat.S_ISLNK(st.st_mode):
            out[p.name] = "link->" + os.readlink(p)
        elif stat.S_ISREG(st.st_mode):
            out[p.name] = "file:" + p.read_bytes().hex()[:64] + f":{st.st_size}"
        else:
            out[p.name] = "special"
    return out


def test_planted_link_at_the_old_temp_name_is_not_followed(tmp_path, map_file, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "out.csv.tmp").symlink_to(victim)
    rc, _, err = run(capsys, "los-table", map_file, "-o", tmp_path / "out.csv")
    assert rc == 0, err
    assert victim.read_text() == "precious\n"
    assert os.readlink(tmp_path / "out.csv.tmp") == str(victim)
    assert (tmp_path / "out.csv").read_text().startswith("src,tgt,range,blocked,hindrance\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.toml", "out.csv", "out.csv.tmp",
                                                          "victim.txt"]


def test_only_the_requested_path_changes(tmp_path, map_file, capsys):
    (tmp_path / "b.csv.tmp").write_text("mine\n")
    (tmp_path / ".b.csv.0.tmp").write_text("mine too\n")
    before = listing(tmp_path)
    rc, _, err = run(capsys, "los-table", map_file, "-o", tmp_path / "b.csv")
    assert rc == 0, err
    after = listing(tmp_path)
    assert set(after) - set(before) == {"b.csv"}
    assert {k: v for k, v in after.items() if k != "b.csv"} == before


def test_output_that_is_a_link_replaces_the_link_not_its_target(tmp_path, map_file, capsys):
    elsewhere = tmp_path / "elsewhere.csv"
    elsewhere.write_text("keep\n")
    (tmp_path / "out.csv").symlink_to(elsewhere)
    rc, _, err = run(capsys, "los-table", map_file, "-o", tmp_path / "out.csv")
    assert rc == 0, err
    assert elsewhere.read_text() == "keep\n"
    assert not (tmp_path / "out.csv").is_symlink()
    assert (tmp_path / "out.csv").read_text().startswith("src,")


def test_fifo_as_output_is_refused(tmp_path, map_file, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    rc, out, err = run(capsys, "los-table", map_file, "-o", fifo)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "FIFO" in err and "Traceback" not in err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.toml", "pipe"]


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
def test_device_as_output_is_refused(map_file, capsys, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    rc, _, err = run(capsys, "los-table", map_file, "-o", device)
    assert rc == 2 and err.count("\n") == 1 and "character device" in err
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_link_to_a_fifo_is_refused(tmp_path, map_file, capsys):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "out.csv").symlink_to(tmp_path / "pipe")
    rc, _, err = run(capsys, "los-table", map_file, "-o", tmp_path / "out.csv")
    assert rc == 2 and "FIFO" in err


def test_own_input_is_refused_as_output(tmp_path, map_file, capsys):
    before = map_file.read_bytes()
    for target in (map_file, tmp_path / "." / "m.toml"):
        rc, _, err = run(capsys, "los-table", map_file, "-o", target)
        assert rc == 2 and err.count("\n") == 1 and "own input" in err
    (tmp_path / "alias.toml").symlink_to(map_file)
    rc, _, err = run(capsys, "los-table", tmp_path / "alias.toml", "-o", map_file)
    assert rc == 2 and "own input" in err
    assert map_file.read_bytes() == before


def test_import_vasl_refuses_its_own_archive(tmp_path, capsys):
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "boards" / "bd04").exists():
        pytest.skip("HEXWX_VASL_DIR with boards/bd04 is needed for this check")
    board = tmp_path / "bd04"
    shutil.copy(Path(env) / "boards" / "bd04", board)
    before = board.read_bytes()
    rc, _, err = run(capsys, "import-vasl", board, "-o", board,
                     "--vasl-metadata", Path(env) / "SharedBoardMetadata.xml")
    assert rc == 2 and "own input" in err and err.count("\n") == 1
    assert board.read_bytes() == before
    meta = tmp_path / "meta.xml"
    shutil.copy(Path(env) / "SharedBoardMetadata.xml", meta)
    rc, _, err = run(capsys, "import-vasl", board, "-o", meta, "--vasl-metadata", meta)
    assert rc == 2 and "own input" in err


def test_render_refuses_special_and_empty_outputs(tmp_path, map_file, capsys):
    os.mkfifo(tmp_path / "x.png")
    rc, _, err = run(capsys, "render", map_file, "-o", tmp_path / "x.png")
    assert rc == 2 and "FIFO" in err and err.count("\n") == 1
    rc, _, err = run(capsys, "render", map_file, "-o", "")
    assert rc == 2 and "expected a file name" in err
    rc, _, err = run(capsys, "render", map_file, "-o", tmp_path / "ok.png")
    assert rc == 0 and (tmp_path / "ok.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.toml", "ok.png", "x.png"]


@pytest.mark.parametrize("cmd", ["los-table", "import-vasl"])
def test_empty_output_name_is_a_usage_error(map_file, capsys, cmd):
    rc, out, err = run(capsys, cmd, map_file, "-o", "")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "expected a file name" in err and "Traceback" not in err


def test_missing_directory_is_a_data_error(tmp_path, map_file, capsys):
    rc, _, err = run(capsys, "los-table", map_file, "-o", tmp_path / "nope" / "x.csv")
    assert rc == 1 and "does not exist" in err and not (tmp_path / "nope").exists()


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text("old\n")
    with pytest.raises(RuntimeError):
        with open_output(target) as f:
            f.write(b"half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]


def test_permissions_of_a_replaced_file_are_kept(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    write_output(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_concurrent_writers_each_leave_a_whole_file(tmp_path):
    target = tmp_path / "t.txt"
    bodies = [(f"{i}\n" * 20000).encode() for i in range(8)]
    threads = [threading.Thread(target=write_output, args=(target, b)) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.read_bytes() in bodies
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]


def test_check_output_api(tmp_path):
    assert check_output(None) is None and check_output("-") is None
    with pytest.raises(UsageError, match="expected a file name"):
        check_output("  ")
    with pytest.raises(UsageError, match="NUL"):
        check_output("a\x00b")
    with pytest.raises(DataError, match="it is a directory"):
        check_output(tmp_path)
    layout = "02/04"  # a map argument that is not a file is ignored as an input
    assert check_output(tmp_path / "x.csv", inputs=(layout, None)) == tmp_path / "x.csv"


@pytest.mark.parametrize("text", ["A1", "2I4", "x,y", "=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)",
                                  '"quoted"', "line\nbreak", "\tTab", " padded ", "\uff1d1+2"])
def test_csv_cell_keeps_one_field_and_no_formula(text):
    import csv
    import io
    from hexwx.outputs import csv_cell
    line = ",".join([csv_cell(text), "1", csv_cell(text)]) + "\n"
    rows = list(csv.reader(io.StringIO(line)))
    assert len(rows) == 1 and len(rows[0]) == 3 and rows[0][1] == "1"
    field = rows[0][0]
    assert field.lstrip("'") == text
    assert not field.startswith(("=", "+", "-", "@", "\t", "\r", "\uff1d"))
    if text.isalnum():
        assert csv_cell(text) == text  # ordinary names are written as they are


def test_dev_stdout_redirected_to_a_file_is_not_replaced(tmp_path, map_file):
    """As root, renaming over /dev/stdout would replace the system's link: refused."""
    import subprocess
    import sys
    out = tmp_path / "o.csv"
    with open(out, "w") as f:
        p = subprocess.run([sys.executable, "-m", "hexwx", "los-table", str(map_file), "-o",
                            "/dev/stdout"], stdout=f, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert p.returncode == 2 and "system directory" in p.stderr
    assert os.path.islink("/dev/stdout")


# -- issue #25 O1/O2: every file read is an input; signals and killed writers -------------------

def vasl_copy(tmp_path: Path) -> Path:
    """A VASL folder of our own (terrain table, boards 2 and 4) that a failed test may damage."""
    from vasl_boards import vasl_dir
    src = vasl_dir()
    d = tmp_path / "vasl"
    (d / "boards").mkdir(parents=True)
    shutil.copyfile(src / "SharedBoardMetadata.xml", d / "SharedBoardMetadata.xml")
    for b in ("bd02", "bd04"):
        shutil.copyfile(src / "boards" / b, d / "boards" / b)
    return d


@pytest.mark.parametrize("target", ["SharedBoardMetadata.xml", "boards/bd02", "boards/bd04"])
@pytest.mark.parametrize("cmd", [["los-table", "bd02,bd04"], ["los-table", "SAVE"],
                                 ["import-vsav", "SAVE"]])
def test_files_found_through_the_vasl_folder_are_inputs(tmp_path, capsys, monkeypatch, cmd, target):
    """The terrain table and the board archives a command finds by itself (through
    $HEXWX_VASL_DIR, a save's boards) are refused as -o, read from the map cache or not."""
    from vsav_helpers import board_command, save_text, write_save
    d = vasl_copy(tmp_path)
    monkeypatch.setenv("HEXWX_VASL_DIR", str(d))
    monkeypatch.delenv("HEXWX_VASL_METADATA", raising=False)
    if cmd[1] == "SAVE":
        save = tmp_path / "game.vsav"
        write_save(save, save_text([board_command("0\t0\t02\tVER\t6.4", "1\t0\t04\tVER\t6.1")]))
        cmd = [cmd[0], str(save)]
        if cmd[0] == "los-table":
            cmd.append("--ignore-board-extras")
    before = listing(d / "boards"), (d / "SharedBoardMetadata.xml").read_bytes()
    for attempt in ("first", "cached"):
        rc, out, err = run(capsys, *cmd, "-o", d / target)
        assert rc == 2, (attempt, err)
        assert "is a file the command read" in err and len(err.strip().splitlines()) == 1
        assert (listing(d / "boards"), (d / "SharedBoardMetadata.xml").read_bytes()) == before
        assert not list(d.rglob(".*.tmp"))


def test_inputs_are_tracked_per_command(tmp_path, map_file, capsys):
    """A file read by one command (in one process) may be the output of the next."""
    out = tmp_path / "copy.toml"
    out.write_text(MAP)
    assert run(capsys, "los", out, "C4", "C6")[0] == 0
    assert run(capsys, "los-table", map_file, "-o", out)[0] == 0


def test_a_dead_writers_temporary_file_is_removed_by_the_next_write(tmp_path, map_file, capsys):
    import fcntl
    import time
    out = tmp_path / "t.csv"
    stale = tmp_path / ".t.csv.0123456789ab.tmp"
    stale.write_text("half a table")
    live = tmp_path / ".t.csv.ba9876543210.tmp"
    live.write_text("another writer, still running")
    mine = tmp_path / ".t.csv.tmp"                       # not a name hexwx makes
    mine.write_text("the user's own")
    time.sleep(2.5)                                      # (a file just made may be being locked)
    with open(live, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)                 # (a live writer holds its lock)
        assert run(capsys, "los-table", map_file, "-o", out)[0] == 0
    assert not stale.exists() and live.exists() and mine.exists() and out.read_text()


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_during_a_write_leaves_no_temporary_file(tmp_path, sig):
    """SIGTERM and SIGHUP clean up like Ctrl-C: the half-written temporary file goes, the old
    target stays, exit 128 + the signal's number, one line."""
    import signal
    import subprocess
    import sys
    import time
    from vasl_boards import vasl_dir
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "big.csv"
    out.write_text("old")
    env = {**os.environ, "PYTHONPATH": str(root), "HEXWX_VASL_DIR": str(vasl_dir()),
           "HEXWX_NO_CACHE": "1"}
    # (a command started in the background by a shell without job control inherits SIGINT
    # ignored, and Python then never raises KeyboardInterrupt: give the child Ctrl-C back)
    proc = subprocess.Popen([sys.executable, "-m", "hexwx", "los-table", "bd02,bd04,bd05/bd06,bd09,bd10",
                             "-o", str(out), "-q"], env=env, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".big.csv.*.tmp")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    proc.send_signal(getattr(signal, sig))
    _, err = proc.communicate(timeout=60)
    number = getattr(signal, sig).value
    assert proc.returncode == 128 + number, err
    assert len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.glob(".*.tmp")) and out.read_text() == "old"


def test_a_signal_right_after_the_temporary_file_is_created_leaves_nothing(tmp_path, monkeypatch):
    """The window between creating the temporary file and entering the block that removes it:
    a signal there (simulated by an interrupt raised as the file appears) still leaves no
    temporary file once the command unwinds."""
    import hexwx.outputs as outputs
    from hexwx.cli.app import _run_interruptible
    created = outputs._temp_beside

    def create_then_interrupt(p):
        created(p)
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs, "_temp_beside", create_then_interrupt)
    target = tmp_path / "out.csv"

    def command(_args):
        with outputs.open_output(target) as f:
            f.write(b"never")

    with pytest.raises(KeyboardInterrupt):
        _run_interruptible(command, None)
    assert not list(tmp_path.iterdir())


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_whose_exception_a_finalizer_swallows_still_stops_the_write(tmp_path, sig):
    """A signal that lands while a finalizer runs: Python reports the handler's exception as
    "Exception ignored" and goes on, so the command would finish and commit its output.  The
    signal was noted: the output is not committed, the old target stays, no temporary file is
    left, and the command ends as the signal asks."""
    import gc
    import signal
    import sys
    import hexwx.outputs as outputs
    from hexwx.cli.app import _run_interruptible
    signum = getattr(signal, sig)
    target = tmp_path / "out.csv"
    target.write_text("old")

    class Finalized:
        def __del__(self):
            os.kill(os.getpid(), signum)          # the handler runs here; its raise is lost

    def command(_args):
        with outputs.open_output(target) as f:
            f.write(b"new")
            Finalized()
            gc.collect()
            f.write(b" and more")                 # the command goes on as if nothing happened
        return 0

    expected = KeyboardInterrupt if sig == "SIGINT" else outputs.Terminated
    seen = []
    hook = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        with pytest.raises(expected):
            _run_interruptible(command, None)
    finally:
        sys.unraisablehook = hook
    assert seen == []                             # not printed as "Exception ignored"
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]
