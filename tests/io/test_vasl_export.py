"""import-vasl writes valid TOML whatever the archive is called (issue #14 item 16)."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from hexwx.cli import main
from hexwx.io.mapfile import load_mapfile

from vasl_boards import archive, metadata


def test_names_are_escaped_in_the_written_toml(tmp_path: Path) -> None:
    odd = tmp_path / 'bd02 "old" \\ copy'
    shutil.copy(archive("bd02"), odd)
    out = tmp_path / "out.toml"
    assert main(["import-vasl", str(odd), "-o", str(out), "--vasl-metadata", str(metadata())]) == 0
    doc = tomllib.loads(out.read_text())
    assert doc["map"]["name"] == 'bd02 "old" \\ copy'
    assert load_mapfile(out).name == 'bd02 "old" \\ copy'
