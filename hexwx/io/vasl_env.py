"""Where VASL's data is found when no path is given: the environment variables that
:mod:`hexwx.io.vasl` (the board reader) and :mod:`hexwx.io.layout` (the layouts) both read."""

#: VASL's terrain table (SharedBoardMetadata.xml).
METADATA_ENV = "HEXWX_VASL_METADATA"
#: The folder of VASL board archives (DIR or DIR/boards), with SharedBoardMetadata.xml.
VASL_DIR_ENV = "HEXWX_VASL_DIR"
