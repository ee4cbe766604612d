"""Building VASL saves for tests: the VASSAL encodings written out independently of the reader.

``save_bytes(text)`` obfuscates a save text the way VASSAL does (``!VCSK``, a key byte, the
text XOR'd with it as hex digits); ``write_save`` zips it as a ``.vsav``; ``piece_command`` and
``board_command`` build commands with VASSAL's escaping (a delimiter inside an element gets a
backslash; a trait chain nests one escaping level per trait).
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from vasl_boards import vasl_dir  # the one place that finds the shared VASL folder

ESC = "\x1b"


def real_save(name: str) -> Path:
    p = vasl_dir() / "saves" / name
    if not p.exists():
        pytest.skip(f"{p} is missing")
    return p


def escape(s: str, delim: str) -> str:
    out = s.replace(delim, "\\" + delim)
    if out.endswith("\\") or (out.startswith("'") and out.endswith("'")):
        out = "'" + out + "'"
    return out


def chain(traits: list[str]) -> str:
    """A trait chain (outermost first, basic piece last) as VASSAL nests it."""
    s = traits[-1]
    for t in reversed(traits[:-1]):
        s = escape(t, "\t") + "\t" + escape(s, "\t")
    return s


def piece_command(gid: str, name: str, x: int, y: int, *, image: str = " ",
                  nationality: str | None = None, counter_type: str = "unit",
                  extra_traits: tuple[str, ...] = (), map_name: str = "Main Map") -> str:
    types = [f"mark;DBCounterType", *extra_traits]
    states = [counter_type, *([""] * len(extra_traits))]
    if nationality:
        types.append(f"conceal;C;{nationality}/{nationality}qmark;{nationality};;x")
        states.append("null;")
    types.append(f"piece;K;D;{image};{name}")
    states.append(f"{map_name};{x};{y};{gid}")
    return "+/" + gid + "/" + escape(chain(types), "/") + "/" + escape(chain(states), "/")


def board_command(*boards: str) -> str:
    """``bd`` command from per-board strings such as ``"0\\t0\\tr05\\tVER\\t6.3"``."""
    return "".join("bd\t" + b + "\t" for b in boards)


def save_text(commands: list[str]) -> str:
    """The text of a save holding ``commands`` (nested the way VASSAL writes a game)."""
    inner = ESC.join([""] + commands)
    return ESC.join(["begin_save", "", escape(inner, ESC), "end_save"])


def save_bytes(text: str, key: int = 0x3C) -> bytes:
    body = bytes(b ^ key for b in text.encode("utf-8"))
    return b"!VCSK" + f"{key:02x}".encode() + body.hex().encode()


def write_save(path: Path, text: str | None = None, *, data: bytes | None = None,
               entries: dict[str, bytes] | None = None) -> Path:
    """A .vsav at ``path`` with ``savedGame`` = ``data`` or the obfuscated ``text``."""
    with zipfile.ZipFile(path, "w") as zf:
        if text is not None or data is not None:
            zf.writestr("savedGame", data if data is not None else save_bytes(text or ""))
        zf.writestr("moduledata", b"<data/>")
        for k, v in (entries or {}).items():
            zf.writestr(k, v)
    return path


def hex_centre_px(board_x: int, board_y: int, col: int, row_index: int, *,
                  rotated: bool = False) -> tuple[int, int]:
    """Map pixel (margin included) of the centre of the hex at board column ``col`` (0 = A),
    row index ``row_index`` (0-based in the column), on board (X, Y) of unrotated 1800x645
    boards; ``rotated`` turns the board's pixels round (VASL ``ASLBoard.globalCoordinates``)."""
    x = col * 56.25
    y = 32.25 + row_index * 64.5 - (col % 2) * 32.25
    if rotated:
        x, y = 1800 - x, 645 - y
    return round(400 + 1800 * board_x + x), round(400 + 645 * board_y + y)
