"""PNG bytes of a picture, written straight with zlib (the PNG specification, ISO/IEC 15948).

Why not Pillow's encoder: it picks a filter for every row by trying all five, which is most of
its time on a render.  hexwx's pictures are flat colours, patterns and line work (and VASL's board
art is drawn the same way), which compress best with no filter at all.  Measured on a board
render (1800 x 707 RGB): Pillow at zlib level 3, 29-52 ms and 281 KiB; no filter at level 3,
11-15 ms and 239 KiB; on the board's own art 294 KiB against Pillow's 375.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np
from PIL import Image

#: zlib level of the PNGs hexwx writes (levels 1-2 are larger and no faster; 6 takes 3x as long
#: for 18 % less on a board render).
PNG_COMPRESS_LEVEL = 3

#: PNG colour type of each Pillow mode written as it is (others are converted first).
_COLOUR_TYPE = {"L": 0, "RGB": 2, "LA": 4, "RGBA": 6}

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_bytes(image: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """The PNG file of ``image``: 8 bits a sample, filter type 0 on every row, one IDAT chunk.
    Modes other than L, LA, RGB and RGBA are converted to RGBA when they carry transparency,
    else to RGB."""
    if image.mode not in _COLOUR_TYPE:
        transparent = "A" in image.getbands() or "transparency" in image.info
        image = image.convert("RGBA" if transparent else "RGB")
    w, h = image.size
    if w == 0 or h == 0:
        raise ValueError(f"a PNG needs at least one pixel, got a picture of {w} x {h}")
    samples = np.asarray(image, np.uint8).reshape(h, -1)
    rows = np.zeros((h, 1 + samples.shape[1]), np.uint8)      # each row: filter byte 0, pixels
    rows[:, 1:] = samples
    header = struct.pack(">IIBBBBB", w, h, 8, _COLOUR_TYPE[image.mode], 0, 0, 0)
    return b"".join([_SIGNATURE, _chunk(b"IHDR", header),
                     _chunk(b"IDAT", zlib.compress(rows.data, level)), _chunk(b"IEND", b"")])


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One chunk: length, type, data, CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
