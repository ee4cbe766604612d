"""Where VASL's data is found when no path is given: the environment variables that
:mod:`hexwx.io.vasl` (the board reader), :mod:`hexwx.io.layout` (the layouts) and
:mod:`hexwx.io.overlays` read."""
from __future__ import annotations

import os
from pathlib import Path

#: VASL's terrain table (SharedBoardMetadata.xml).
METADATA_ENV = "HEXWX_VASL_METADATA"
#: The folder of VASL board archives (DIR or DIR/boards), with SharedBoardMetadata.xml.
VASL_DIR_ENV = "HEXWX_VASL_DIR"


def vasl_dir_of(vasl_dir: str | Path | None) -> Path | None:
    """The VASL folder: ``vasl_dir``, else ``$HEXWX_VASL_DIR``; None when neither is set."""
    d = vasl_dir if vasl_dir else os.environ.get(VASL_DIR_ENV)
    return Path(d) if d else None
