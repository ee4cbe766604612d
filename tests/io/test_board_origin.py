"""Where a board's printed names start, read from hex A1's centre in its BoardMetadata.xml
(``A1CenterX`` / ``A1CenterY``): boards 1b-15b start at column Q (-901 = 16 columns of 56.3125),
BFPDW1b-7b at row 11 (-612.75 = 32.25 - 10 rows of 64.5); any other A1 is a one-line DataError
naming the file (hexwx.io.vasl.board_shape).  No VASL files needed: the header is written here."""
from __future__ import annotations

import pytest

from hexwx.errors import DataError
from hexwx.io.vasl import board_shape

HALF = (17, 20, 901, 1290)      # a half board: 17 x 20 hexes of 56.3125 x 64.5 pixels


def meta(a1x: str, a1y: str) -> bytes:
    return (f'<boardMetadata hexWidth = "56.3125" hexHeight = "64.5" A1CenterX = "{a1x}" '
            f'A1CenterY = "{a1y}"/>').encode()


@pytest.mark.parametrize("a1x,a1y,first,names", [
    ("0", "32.25", (0, 0), ("A1", "Q20")),
    ("-901", "32.25", (16, 0), ("Q1", "GG20")),
    ("0", "-612.75", (0, 10), ("A11", "Q30")),
])
def test_a1_before_the_board_moves_the_printed_names(a1x: str, a1y: str, first: tuple[int, int],
                                                     names: tuple[str, str]) -> None:
    shape = board_shape(*HALF, meta(a1x, a1y), "bdX")
    assert (shape.first_column, shape.first_row) == first
    assert (shape.printed(0, 1), shape.printed(16, 20)) == names


@pytest.mark.parametrize("a1x,a1y", [
    ("-844.6875", "32.25"),     # 15 columns: an odd number would turn A- and B-type columns
    ("-900", "32.25"),          # not whole columns
    ("56.3125", "32.25"),       # A1 right of the board's first column
    ("0", "0"),                 # half a row
    ("0", "96.75"),             # A1 a row below the board's first row
])
def test_any_other_a1_is_a_one_line_data_error(a1x: str, a1y: str) -> None:
    with pytest.raises(DataError) as exc:
        board_shape(*HALF, meta(a1x, a1y), "bdX")
    msg = str(exc.value)
    assert msg.startswith("bdX: hex A1's centre lies at") and "\n" not in msg
