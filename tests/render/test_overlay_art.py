"""The picture of an overlaid board shows what LOS uses (issue #24): with VASL's game-wide
"persist elevation" choice, open ground an overlay draws over the board's open ground is the
board's in LOS (the board keeps its level), so the picture shows the board there, not the
overlay's level shading; without it, the overlay.  VASL's data from ``$HEXWX_VASL_DIR``."""
from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from vasl_boards import archive, board, metadata, vasl_dir
from hexwx.io.layout import load_layout
from hexwx.io.overlays import overlay_image_at
from hexwx.render.hexmap import board_art
from hexwx.render.overlay_art import board_pieces


def _maps(overlay: str) -> tuple:  # type: ignore[type-arg]
    kw = {"vasl_dir": vasl_dir(), "vasl_metadata": metadata()}
    rows = [[{"board": "04", "overlays": [overlay]}]]
    return (load_layout(rows, **kw), load_layout(rows, persist_elevation=True, **kw))


@pytest.mark.parametrize("overlay", ["hi8 H4 I5", "2 H5 H4"])
def test_persist_elevation_pictures_the_board_where_los_reads_the_board(overlay: str) -> None:
    """Hill overlays on board 4 draw their hills as level shading of open ground.  Persisting,
    LOS keeps board 4's open ground and levels there: the picture shows board 4's own art at
    those pixels, where the plain overlay's picture shows the hill shading LOS reads."""
    from PIL import Image
    plain, persisting = _maps(overlay)
    bare = board("bd04")
    (_i, a, e, x, y), = persisting.overlay_art
    assert persisting.overlay_persist == (0,) and plain.overlay_persist == ()
    assert [p[4] for p in board_pieces(persisting, 0)] == [True]
    assert [p[4] for p in board_pieces(plain, 0)] == [False]
    rgba = overlay_image_at(a, e).rgba()
    with zipfile.ZipFile(archive("bd04")) as zf:
        own = np.asarray(Image.open(io.BytesIO(zf.read("bd04.gif"))).convert("RGB")).astype(int)
    shown_plain = np.asarray(board_art(plain)).astype(int)
    shown_persist = np.asarray(board_art(persisting)).astype(int)
    W, H = bare.terrain.shape                     # the overlay's pixels on the board
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + rgba.shape[1], W), min(y + rgba.shape[0], H)
    box = (slice(x0, x1), slice(y0, y1))          # (x-major rasters)
    art = rgba[y0 - y:y1 - y, x0 - x:x1 - x]
    board_in_los = ((persisting.terrain[box] == bare.terrain[box])
                    & (persisting.elevation[box] == bare.elevation[box])).T
    hill = (plain.elevation[box] != bare.elevation[box]).T
    from hexwx.hexmap.terrain import Category
    open_board = (bare.table.arrays()["category"][bare.terrain[box]] == Category.OPEN).T
    where = (art[:, :, 3] > 0) & board_in_los & hill & open_board
    assert where.sum() > 1000
    rows, cols = np.nonzero(where)
    near = lambda p, q: np.abs(p - q).sum(axis=-1) < 30   # noqa: E731
    # persisting: the board's own art wherever LOS reads the board ...
    assert near(shown_persist[rows + y0, cols + x0], own[rows + y0, cols + x0]).mean() > 0.97
    # ... without: the overlay's art, which there is not the board's
    assert near(shown_plain[rows + y0, cols + x0], art[rows, cols, :3]).mean() > 0.97
    assert (~near(art[rows, cols, :3], own[rows + y0, cols + x0])).mean() > 0.5
    # at the hexes whose centre lies there: the board's level when persisting, the hill's not
    covered = []
    for h in range(len(bare)):
        cx, cy = (int(v) for v in bare.grid.centre(h))
        if x0 <= cx < x1 and y0 <= cy < y1 and where[cy - y0, cx - x0]:
            covered.append(h)
    assert covered
    assert all(persisting.hexes.base[h] == bare.hexes.base[h] for h in covered)
    assert any(plain.hexes.base[h] != bare.hexes.base[h] for h in covered)


def test_without_persist_the_picture_is_unchanged_by_the_choice_for_og_overlays() -> None:
    """An ``og`` overlay (open ground laid on purpose) is drawn whole either way, as VASL keeps
    its open ground when persisting; so is every overlay pixel LOS reads from the overlay."""
    plain, persisting = _maps("og3 H5 H4") if (vasl_dir() / "overlays" / "ovrOG").exists() \
        else pytest.skip(f"no ovrOG in {vasl_dir() / 'overlays'} ($HEXWX_VASL_DIR)")
    assert np.array_equal(np.asarray(board_art(plain)), np.asarray(board_art(persisting)))

