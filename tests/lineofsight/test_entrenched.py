"""Entrenched units and hexside terrain (ASL B27.2; LOS-SPEC 4.6 R3 step 2, VASL's
``checkHexsideTerrainRule``): a unit in an entrenchment cannot see over hexside terrain to a
non-adjacent unit at its own elevation or lower, nor be seen over it -- any wall or hedge pixel
on the thread blocks, its own hexsides included (no B9.2 exemption for it).  Board 2: the wall
on E5's SW hexside (LOS-SPEC 8 example 9: E5 and A5 see each other over it, the wall being
E5's own)."""
from __future__ import annotations

import pytest
from vasl_boards import board as vasl_board

import hexwx


@pytest.fixture(scope="module")
def bd02():
    return vasl_board("bd02")


def test_a_wall_of_the_units_own_hex_is_no_obstacle_unless_it_is_entrenched(bd02) -> None:
    """B9.2: E5 sees A5 over its own wall; B27.2: from a foxhole in E5 it does not."""
    plain = hexwx.los(bd02, "E5", "A5")
    assert not plain.blocked and plain.range == 4
    for r in (hexwx.los(bd02, "E5", "A5", from_entrenched=True),
              hexwx.los(bd02, "A5", "E5", to_entrenched=True)):
        assert r.blocked and r.rule == "B27.2", r
        assert "entrenchment" in r.reason
    # the other end entrenched (E5 not): the wall still blocks (VASL's scope: any hexside
    # terrain on the thread), and both directions agree
    a = hexwx.los(bd02, "A5", "E5", from_entrenched=True)
    b = hexwx.los(bd02, "E5", "A5", to_entrenched=True)
    assert a.blocked and b.blocked and a.rule == b.rule == "B27.2"
    assert hexwx.los(bd02, "E5", "A5", from_entrenched=True).source_location.endswith(
        "in an entrenchment")


def test_an_adjacent_unit_is_seen_over_the_wall(bd02) -> None:
    """B27.2 concerns non-adjacent units: D5 lies across E5's walled SW hexside."""
    r = hexwx.los(bd02, "E5", "D5", from_entrenched=True)
    assert r.range == 1 and not r.blocked


def test_a_lower_entrenched_unit_is_not_blocked_by_the_rule(bd02) -> None:
    """C4 (level 0) and E7 (level-1 hill) see each other; the hexside terrain between blocks
    only when the entrenched end is the higher one (or level with the other)."""
    assert bd02.ground_level(bd02.hex("C4", "a")) < bd02.ground_level(bd02.hex("E7", "b"))
    assert not hexwx.los(bd02, "C4", "E7").blocked
    assert not hexwx.los(bd02, "C4", "E7", from_entrenched=True).blocked
    assert not hexwx.los(bd02, "E7", "C4", to_entrenched=True).blocked
    high = hexwx.los(bd02, "C4", "E7", to_entrenched=True)
    assert high.blocked and high.rule == "B27.2"
    assert hexwx.los(bd02, "E7", "C4", from_entrenched=True).blocked


def test_an_entrenched_end_must_be_at_ground_level(bd02) -> None:
    with pytest.raises(hexwx.HexwxError, match="to_level"):
        hexwx.los(bd02, "E5", "A5", to_level=1, to_entrenched=True)
    with pytest.raises(hexwx.HexwxError, match="from_entrenched"):
        hexwx.los(bd02, "E5", "A5", from_entrenched="yes")  # type: ignore[arg-type]


def test_a_scenario_unit_in_foxholes_sees_as_one(tmp_path) -> None:
    """A scenario's ``entrenched`` unit (a save's unit above a foxhole counter is one) gets
    B27.2 through Scenario.los and sight; the same unit out of its foxhole sees over the wall."""
    from vasl_boards import archive
    from hexwx.io.scenario import load_scenario
    from hexwx.lineofsight.sight import sightings
    board_file = archive("bd02")
    path = tmp_path / "dug_in.toml"
    units = ('[[units]]\nid = "dug-in"\nside = "German"\nhex = "E5"\nlevel = 0\nkind = "infantry"\n'
             'entrenched = {flag}\n\n[[units]]\nid = "rifles"\nside = "American"\nhex = "A5"\n'
             'level = 0\nkind = "infantry"\n')
    for flag, blocked in (("true", True), ("false", False)):
        path.write_text(f'name = "Dug in"\nmap = "{board_file}"\n\n{units.format(flag=flag)}')
        sc = load_scenario(path)
        assert sc.unit("dug-in").entrenched is (flag == "true")
        for r in (sc.los("dug-in", "rifles"), sc.los("rifles", "dug-in")):
            assert r.blocked is blocked and (r.rule == "B27.2") is blocked, r
        seen = sightings(sc.map, sc.units)
        assert len(seen) == 2 and all(s.result.blocked is blocked for s in seen)
        assert dict(sc.sight("rifles"))[sc.unit("dug-in")].blocked is blocked


def test_cli_los_takes_entrenched_ends(bd02, capsys) -> None:
    import json

    from vasl_boards import archive, metadata
    from hexwx.cli.app import main
    common = [str(archive("bd02")), "--vasl-metadata", str(metadata()), "--json"]
    assert main(["los", common[0], "E5", "A5", *common[1:]]) == 0
    assert json.loads(capsys.readouterr().out)["blocked"] is False
    assert main(["los", common[0], "E5", "A5", "--to-entrenched", *common[1:]]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["blocked"] is True and got["rule"] == "B27.2"
    assert got["target_location"].endswith("in an entrenchment")


def test_fields_made_later_keep_the_entrenchment(bd02) -> None:
    """A clear-weather answer traces its thread and hindrance list again when they are first
    read (engine._later_fields): that trace keeps the ends' entrenchment, so they are the eager
    path's (any weather given), and they differ from the open ends' where B27.2 stops the walk
    before the hindrances beyond the wall."""
    import numpy as np
    from hexwx.weather.asl.state import AslWeather
    h6 = bd02.kernel_map[4]
    walled = np.flatnonzero((h6[:, :, 2] >= 0).any(axis=1)).tolist()
    rng = np.random.default_rng(5)
    changed = 0
    for a, b in zip(rng.choice(walled, 300).tolist(), rng.choice(len(bd02), 300).tolist()):
        kw = dict(from_entrenched=True, to_entrenched=bool(rng.random() < 0.3))
        lazy, eager = hexwx.los(bd02, a, b, **kw), hexwx.los(bd02, a, b, weather=AslWeather(), **kw)
        assert (lazy.thread, lazy.hindrances) == (eager.thread, eager.hindrances), (a, b, kw)
        assert sum(h.drm for h in lazy.hindrances) == lazy.hindrance
        open_ = hexwx.los(bd02, a, b, to_entrenched=kw["to_entrenched"])
        changed += (lazy.thread, lazy.hindrances) != (open_.thread, open_.hindrances)
    assert changed >= 10
