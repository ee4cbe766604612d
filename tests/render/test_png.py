"""hexwx's PNG writer (hexwx.render.png): files Pillow reads back pixel for pixel, with valid
chunks, smaller than Pillow's own at the same zlib level on a real render."""
from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from hexwx.io.load import load_map
from hexwx.render.core import render_map
from hexwx.render.png import PNG_COMPRESS_LEVEL, png_bytes

MAP = Path(__file__).parents[2] / "maps" / "hill_village.toml"


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(type, data) of every chunk, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        assert crc == zlib.crc32(kind + body), kind
        out.append((kind, body))
        at += 12 + n
    return out


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(["L", "LA", "RGB", "RGBA"]), w=st.integers(1, 40), h=st.integers(1, 30),
       seed=st.integers(0, 2**32 - 1))
def test_pillow_reads_back_every_pixel(mode: str, w: int, h: int, seed: int) -> None:
    bands = len(mode)
    pixels = np.random.default_rng(seed).integers(0, 256, (h, w, bands), dtype=np.uint8)
    image = Image.fromarray(pixels[:, :, 0] if bands == 1 else pixels, mode)
    data = png_bytes(image)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == mode and back.size == (w, h)
    assert np.array_equal(np.asarray(back), np.asarray(image))
    assert [k for k, _ in chunks(data)] == [b"IHDR", b"IDAT", b"IEND"]


def test_other_modes_are_converted() -> None:
    pal = Image.new("P", (5, 4))
    pal.putpalette([10, 20, 30, 200, 100, 0] + [0] * 762)
    pal.putpixel((2, 1), 1)
    back = Image.open(io.BytesIO(png_bytes(pal)))
    assert back.mode == "RGB" and back.getpixel((2, 1)) == (200, 100, 0) and back.getpixel((0, 0)) == (10, 20, 30)
    assert Image.open(io.BytesIO(png_bytes(Image.new("1", (3, 3), 1)))).getpixel((1, 1)) == (255, 255, 255)


def test_an_empty_picture_is_refused() -> None:
    with pytest.raises(ValueError, match="0 x 3"):
        png_bytes(Image.new("RGB", (0, 3)))


def test_a_render_is_smaller_than_pillows_png_at_the_same_level() -> None:
    image = render_map(load_map(MAP), scale=0.6).image
    ours = png_bytes(image)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    assert len(ours) < len(buf.getvalue())
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(ours))), np.asarray(image))
