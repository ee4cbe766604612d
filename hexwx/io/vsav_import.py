"""From a VASL save to hexwx: the save's map, and a hex scenario of its pieces.

* :func:`load_save_map` composes the save's boards (with their SSRs, crops and overlays)
  through :func:`hexwx.io.layout.load_layout`.  Magnified boards and crops of turned boards
  among upright ones are refused with a one-line error naming them unless
  ``ignore_board_extras`` asks for the whole boards (no crops, no overlays).
* :func:`scenario_document` is the hex scenario (``docs/scenarios.md``) of a save: its layout
  and SSRs as the ``[map]`` table, one ``[[units]]`` entry per unit on the boards at its
  Location and one ``[[counters]]`` entry per LOS counter or location marker
  (:mod:`hexwx.io.vsav_pieces`); the pieces off the boards are returned separately so that the
  writer can list them.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Callable

from hexwx.errors import DataError, HexwxError
from hexwx.io.vsav import SavePiece, VaslSave, check_supported, read_save


def load_save_map(path: str | Path, *, vasl_dir: str | Path | None = None,
                  vasl_metadata: str | Path | None = None, ssr: tuple[str, ...] = (),
                  ignore_board_extras: bool = False) -> Any:
    """The map of VASL save ``path``: its boards laid out as in the save, its SSRs applied
    (then ``ssr``).  DataError naming the save for anything hexwx cannot compose."""
    return _save_map(read_save(path), str(path), vasl_dir=vasl_dir, vasl_metadata=vasl_metadata,
                     ssr=ssr, ignore_board_extras=ignore_board_extras, name=Path(path).name)


def _save_map(save: VaslSave, source: str, *, vasl_dir: str | Path | None,
              vasl_metadata: str | Path | None, ssr: tuple[str, ...] = (),
              ignore_board_extras: bool = False, name: str | None = None) -> Any:
    """The map of ``save`` (read from ``source``, which errors name)."""
    check_supported(save, ignore=ignore_board_extras)
    from hexwx.io.layout import load_layout
    rows, common = layout_spec(save, whole_boards=ignore_board_extras)
    try:
        m = load_layout(rows, vasl_dir=vasl_dir, vasl_metadata=vasl_metadata,
                        ssr=common + tuple(ssr), name=name,
                        persist_elevation=save.persist_elevation)
    except HexwxError as exc:   # an unknown board, a board missing from the folder, an SSR
        raise DataError(f"{source}: {exc}") from None
    return m


def board_command_map(cmd: str, *, source: str = "board command", vasl_dir: str | Path | None = None,
                      vasl_metadata: str | Path | None = None) -> Any:
    """The map a save's ``bd`` command text describes (its boards, crops and SSRs), as
    :func:`load_save_map` composes it; DataError naming ``source`` for what it cannot compose."""
    from hexwx.io.vsav import parse_board_command
    save = VaslSave(source, parse_board_command(cmd.strip("\x1b"), source), ())
    return _save_map(save, source, vasl_dir=vasl_dir, vasl_metadata=vasl_metadata)


def common_ssr(save: VaslSave) -> tuple[str, ...]:
    """The SSRs every board of the save names, in the order of the first board."""
    first = save.boards[0].ssr
    return tuple(s for s in first if all(s in b.ssr for b in save.boards))


def layout_spec(save: VaslSave, *, whole_boards: bool = False) -> tuple[list[list[Any]], tuple[str, ...]]:
    """The layout rows and the SSRs of the whole map.

    A row entry is the board name (``"r05"``), or ``{board, ssr, crop, overlays}`` for a board
    with SSRs of its own besides those every board has (which apply to the whole map, first),
    a crop (the save's pixel rectangle) or overlays; ``whole_boards`` leaves crops and
    overlays out (the whole boards as they are)."""
    save.require_boards()
    common = common_ssr(save)
    rows: list[list[Any]] = []
    for row in save.rows:
        out: list[Any] = []
        for b in row:
            own = [s for s in b.ssr if s not in common]
            entry: dict[str, Any] = {"board": b.written}
            if b.copy_label:
                entry["label"] = b.copy_label
            if own:
                entry["ssr"] = own
            if b.crop is not None and not whole_boards:
                entry["crop"] = list(b.crop)
            if b.overlays and not whole_boards:
                entry["overlays"] = list(b.overlays)
            out.append(entry if len(entry) > 1 else b.written)
        rows.append(out)
    return rows, common


def scenario_document(save: VaslSave, *, name: str, map_names: Callable[[str], str] | None = None,
                      m: Any = None, whole_boards: bool = False
                      ) -> tuple[dict[str, Any], list[SavePiece]]:
    """The hex scenario of ``save`` as a TOML-ready dict, and the pieces off the boards.

    Units (:mod:`hexwx.io.vsav_pieces`: squads, leaders, SW, guns, vehicles; markers and
    labels left out) become ``[[units]]`` at their Locations (level, bypass hexside,
    entrenched, concealed, hidden); LOS counters and location markers become ``[[counters]]``.
    ``map_names`` turns a hex name into the map's own name for it (a join hex is named by the
    board above / left of the join); ``m``, the save's map, checks the levels.
    ``whole_boards``: the boards without their crops and overlays (--ignore-board-extras).
    """
    from hexwx.io.vsav_pieces import board_shapes, save_contents
    if m is not None:        # pieces read against the boards' own hex grids
        save = save.on_boards(board_shapes(m))
    rows, common = layout_spec(save, whole_boards=whole_boards)
    map_table: dict[str, Any] = {"vasl_boards": rows}
    if common:
        map_table["ssr"] = list(common)
    if save.persist_elevation and not whole_boards:
        map_table["persist_elevation"] = True
    contents = save_contents(save, m, map_names)
    units = []
    for su in contents.units:
        u: dict[str, Any] = {"id": su.id, "hex": su.hex, "kind": su.kind}
        if su.side:
            u["side"] = su.side
        if su.nationality:
            u["nationality"] = su.nationality
        for key, value, default in (("level", su.level, 0), ("hexside", su.hexside, None),
                                    ("entrenched", su.entrenched, False),
                                    ("concealed", su.concealed, False),
                                    ("hidden", su.hidden, False)):
            if value != default:
                u[key] = value
        units.append(u)
    counters = []
    for c in contents.counters:
        entry: dict[str, Any] = {"name": c.name, "hex": c.hex}
        if c.level:
            entry["level"] = c.level
        if c.hexside is not None:
            entry["hexside"] = c.hexside
        counters.append(entry)
    doc: dict[str, Any] = {"name": name, "map": map_table}
    if units:
        doc["units"] = units
    if counters:
        doc["counters"] = counters
    return doc, save.off_board()


def off_board_summary(pieces: list[SavePiece]) -> list[str]:
    """The pieces off the boards, grouped: ``Russian 6-2-8 Esq x 38``."""
    counts = Counter((p.nationality or "", p.name or "(unnamed)") for p in pieces)
    return [f"{(nat + ' ') if nat else ''}{nm}{f' x {n}' if n > 1 else ''}"
            for (nat, nm), n in counts.items()]
