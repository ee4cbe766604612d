"""A unit in bypass sees and is seen from the point of its bypassed hexside (D2.3,
hexwx.lineofsight.bypass): ``los(from_hexside=, to_hexside=)``, scenario units and saves with a
``hexside``, ``hexwx los --from-hexside`` and ``hexwx sight``."""
from __future__ import annotations

import json

import pytest

import hexwx
from hexwx.cli import main
from hexwx.errors import UsageError
from hexwx.io.scenario import ScenarioUnit
from hexwx.lineofsight.sight import sightings
from tests.vasl_boards import board


@pytest.fixture(scope="module")
def bd02():
    return board("bd02")


def _answer(r):
    return (r.blocked, r.reason, r.blocking_hex, r.hindrance, [h.hex for h in r.hindrances])


def test_a_bypass_end_is_traced_from_its_hexside(bd02) -> None:
    centre = hexwx.los(bd02, "V8", "Y8")
    assert centre.blocked and centre.blocking_hex == "X8"
    # from V8's north and north-east hexsides the LOS passes north of X8's obstacle; from the
    # south ones X8 blocks; from the western ones the LOS crosses V8's own building (D2.3)
    for side in (0, 1):
        r = hexwx.los(bd02, "V8", "Y8", from_hexside=side)
        assert not r.blocked, side
        assert r.source_location.endswith(f"in bypass {('N', 'NE', 'SE', 'S', 'SW', 'NW')[side]}")
    for side in (2, 3):
        assert hexwx.los(bd02, "V8", "Y8", from_hexside=side).blocking_hex == "X8"
    for side in (4, 5):
        r = hexwx.los(bd02, "V8", "Y8", from_hexside=side)
        assert r.blocking_hex == "V8" and r.blocking_terrain == "wooden building", side
    # and the other way: U7 sees Y8 from its centre, not from its north hexside (V6's hill)
    assert not hexwx.los(bd02, "U7", "Y8").blocked
    r = hexwx.los(bd02, "U7", "Y8", from_hexside=0)
    assert r.blocked and r.blocking_hex == "V6"


def test_bypass_is_reciprocal_and_absent_bypass_is_the_centre(bd02) -> None:
    compared = 0
    for a, b in (("V8", "Y8"), ("A5", "J5"), ("AA9", "CC6"), ("T0", "P0"), ("B3", "A6")):
        centre = hexwx.los(bd02, a, b)
        assert _answer(hexwx.los(bd02, a, b, from_hexside=None)) == _answer(centre)
        for side in range(6):
            try:
                there = hexwx.los(bd02, a, b, from_hexside=side)
            except UsageError:
                continue
            back = hexwx.los(bd02, b, a, to_hexside=side)
            assert (there.blocked, there.hindrance) == (back.blocked, back.hindrance), (a, b, side)
            assert there.range == centre.range
            compared += 1
    assert compared >= 20    # edge hexsides are refused; the others were all compared


def test_counters_are_met_by_the_los_from_the_hexside(bd02) -> None:
    smoke = ["White +3 Smoke@B4"]
    r = hexwx.los(bd02, "A5", "E5", counters=smoke)
    assert not r.blocked and [(h.hex, h.drm) for h in r.hindrances] == [("B4", 3)]
    # from A5's SE hexside the LOS runs south of B4 and misses the SMOKE
    r = hexwx.los(bd02, "A5", "E5", counters=smoke, from_hexside=2)
    assert not r.blocked and r.hindrances == ()
    assert hexwx.los(bd02, "E5", "A5", counters=smoke, to_hexside=2).hindrances == ()


def test_bad_hexsides_are_one_line_errors(bd02, capsys) -> None:
    for bad in (6, -1, "NE", True, 1.0):
        with pytest.raises(UsageError, match=r"^bad from_hexside .*; expected a hexside 0-5 "):
            hexwx.los(bd02, "V8", "Y8", from_hexside=bad)
    with pytest.raises(UsageError, match=r"^bad to_hexside 4; expected a hexside of A5 on the map"):
        hexwx.los(bd02, "J5", "A5", to_hexside=4)
    assert main(["los", "bd02", "V8", "Y8", "--from-hexside", "up"]) == 2
    err = capsys.readouterr().err
    assert "--from-hexside: expected a hexside N, NE, SE, S, SW, NW or 0-5, got 'up'" in err
    assert main(["los", "bd02", "A5", "J5", "--from-hexside", "SW"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["hexwx los: error: bad --from-hexside 4; expected a hexside of A5 on the map "
                   "(hexside 4 is its edge of the map)"]


def test_cli_los_from_a_hexside(bd02, capsys) -> None:
    assert main(["los", "bd02", "V8", "Y8", "--from-hexside", "NE", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = hexwx.los(bd02, "V8", "Y8", from_hexside=1)
    assert (got["blocked"], got["hindrance"]) == (want.blocked, want.hindrance) == (False, 0)
    assert got["source_location"] == want.source_location


def test_sight_traces_units_in_bypass_from_their_hexside(bd02) -> None:
    units = [ScenarioUnit("tank", "Allied", "V8", kind="vehicle", hexside=1),
             ScenarioUnit("squad", "Axis", "Y8"),
             ScenarioUnit("other", "Axis", "U7")]
    found = {(s.viewer, s.target): s.result for s in sightings(bd02, units)}
    for (a, b), r in found.items():
        ua, ub = (next(u for u in units if u.id == x) for x in (a, b))
        want = hexwx.los(bd02, ua.hex, ub.hex, from_hexside=ua.hexside, to_hexside=ub.hexside,
                         target_is_infantry=ub.kind == "infantry")
        assert _answer(r) == _answer(want)
    assert not found[("tank", "squad")].blocked and not found[("squad", "tank")].blocked
    assert hexwx.los(bd02, "V8", "Y8").blocked      # the same hexes from V8's centre


def test_a_save_vehicle_in_bypass_is_answered_from_its_hexside(tmp_path, capsys) -> None:
    from piece_helpers import game_save
    from hexwx.io.scenario import load_scenario
    scenario = tmp_path / "game.toml"
    assert main(["import-vsav", str(game_save(tmp_path)), "-o", str(scenario)]) == 0
    sc = load_scenario(scenario)
    assert sc.unit("ru-T-34-M43").hexside == 2
    capsys.readouterr()
    assert main(["sight", "--scenario", str(scenario), "--json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    tank = [p for p in pairs if "ru-T-34-M43" in (p["viewer"], p["target"])]
    assert tank, "the T-34 in bypass sees and is seen"
    for p in tank:
        mine = "viewer" if p["viewer"] == "ru-T-34-M43" else "target"
        assert p[f"{mine}_location"].endswith("in bypass SE")
        a, b = sc.unit(p["viewer"]), sc.unit(p["target"])
        r = hexwx.los(sc.map, a.hex, b.hex, from_level=a.level, to_level=b.level,
                      from_hexside=a.hexside, to_hexside=b.hexside, weather=sc.weather,
                      target_is_infantry=b.kind == "infantry", counters=sc.los_counters)
        assert (p["blocked"], p["range"]) == (r.blocked, r.range)
        assert r.blocked or p["hindrance"] == r.hindrance
    assert main(["sight", "--scenario", str(scenario)]) == 0
    assert "in bypass SE" in capsys.readouterr().out


def _moved_point_map(M, h, x, y):
    """The reference: the kernel map with hex ``h``'s LOS point moved to (x, y) (and each
    turned board's frame the same point turned round): what a bypass end was traced on
    before the kernel took the hexside per query."""
    import numpy as np
    from hexwx._native import HX_COLUMNS
    cx, cy = HX_COLUMNS.index("los_x"), HX_COLUMNS.index("los_y")
    hx = np.array(M[3], copy=True)
    hx[h, cx], hx[h, cy] = x, y
    rest = []
    for extra in M[9:]:
        if isinstance(extra, tuple):
            frames = []
            for f in extra:
                fx = np.array(f[1], copy=True)
                o = np.asarray(f[0]).ravel()
                fx[h, cx], fx[h, cy] = int(o[0]) - x, int(o[1]) - y
                frames.append((f[0], fx, *f[2:]))
            rest.append(tuple(frames))
        else:
            rest.append(extra)
    return (*M[:3], hx, *M[4:9], *rest)


@pytest.mark.parametrize("name", ["bd02", "r02/04"])
def test_the_kernel_traces_a_bypass_end_as_the_map_with_that_point_moved(name) -> None:
    """The kernel's per-query hexside (D2.3) answers exactly as the map whose end hex's LOS
    point is the hexside's point -- every rule reads the same point -- for every on-map
    hexside of seeded hexes, each end, with the thread, hindrance keys and blocking pixel;
    except where the bypassed hex's own obstacle blocks (which an end hex never does)."""
    import numpy as np
    from hexwx import _native as K
    from hexwx.io.load import load_map
    from hexwx.lineofsight.bypass import bypass_point
    from tests.vasl_boards import vasl_dir
    vasl_dir()                       # (skips, naming HEXWX_VASL_DIR, without VASL's data)
    m = board(name) if "/" not in name else load_map(name)
    M, T = m.kernel_map, m.kernel_terrain
    rng = np.random.default_rng(5)
    base = m.hexes.base
    compared = blocked = own = 0
    for h in rng.choice(len(m), 12, replace=False).tolist():
        for side in range(6):
            if not M[4][h, side, 0]:
                continue
            ref = _moved_point_map(M, h, *bypass_point(M, h, side))
            try:
                K.trace(ref, T, h, h, 0, 0)
            except ValueError:
                continue            # the moved point falls off a frame's raster: no reference
            for t in rng.choice(len(m), 10, replace=False).tolist():
                for fwd in (True, False):
                    a, b = (h, t) if fwd else (t, h)
                    e = (a, b, int(base[a]), int(base[b]) + (1 if t % 3 == 0 else 0), 0, 0)
                    want = K.trace_record(ref, T, *e)   # verdict, hindrance keys, thread
                    got = K.trace_record(M, T, *e, s_side=side if fwd else -1,
                                         t_side=-1 if fwd else side)
                    if got[0] != 0 and got[3] == h and h != t:
                        own += 1                # the bypassed hex's obstacle (D2.3)
                        assert m.table[int(m.terrain[got[1], got[2]])].obstacle
                        continue
                    assert got == want, (name, h, side, t, fwd)
                    compared += 1
                    blocked += got[0] != 0
    assert compared >= 400 and 0 < blocked < compared and own > 0


def test_cli_los_between_scenario_units_uses_their_bypass(tmp_path, capsys) -> None:
    from piece_helpers import game_save
    from hexwx.io.scenario import load_scenario
    scenario = tmp_path / "game.toml"
    assert main(["import-vsav", str(game_save(tmp_path)), "-o", str(scenario)]) == 0
    sc = load_scenario(scenario)
    capsys.readouterr()
    assert main(["los", "--scenario", str(scenario), "ru-T-34-M43", "ge-4-6-8-Esq", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["source_location"].endswith("in bypass SE")
    tank, squad = sc.unit("ru-T-34-M43"), sc.unit("ge-4-6-8-Esq")
    want = hexwx.los(sc.map, tank.hex, squad.hex, from_hexside=2, to_level=squad.level,
                     weather=sc.weather, counters=sc.los_counters)
    assert (got["blocked"], got["range"], got["reason"]) == (want.blocked, want.range, want.reason)
    # --from-hexside replaces the unit's own hexside
    assert main(["los", "--scenario", str(scenario), "ru-T-34-M43", "ge-4-6-8-Esq",
                 "--from-hexside", "N", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["source_location"].endswith("in bypass N")
    assert sc.los("ru-T-34-M43", "ge-4-6-8-Esq").source_location.endswith("in bypass SE")


def test_the_bypassed_woods_block_a_los_back_across_the_hex(bd02) -> None:
    """D2.3 (and VASL: a non-centre Location's own hex terrain, neither open nor hexside, is
    evaluated as any hex between): R8 is a woods hex; a vehicle bypassing it along its NE
    hexside sees U7 beyond that hexside (the open side), but not O10 on the far side of the
    woods: that LOS crosses R8's woods, which block it.  From R8's centre both are seen (an
    end hex's own terrain never blocks its occupant), and from the SW hexside the other way
    round.  Both directions agree (A6.1)."""
    assert bd02.terrain_of(bd02.parse("R8")).name == "Woods"
    for side, open_side, far_side in ((1, "U7", "O10"), (4, "O10", "U7")):
        assert not hexwx.los(bd02, "R8", open_side, from_hexside=side).blocked
        r = hexwx.los(bd02, "R8", far_side, from_hexside=side)
        assert r.blocked and r.blocking_hex == "R8" and r.blocking_terrain == "woods"
        assert r.rule == "A6.2"
        x, y = r.blocked_at
        assert bd02.geometry.hex_at[x, y] == bd02.parse("R8")      # inside the woods hex
        back = hexwx.los(bd02, far_side, "R8", to_hexside=side)
        assert back.blocked and back.blocking_hex == "R8"
        assert not hexwx.los(bd02, "R8", far_side).blocked
        assert not hexwx.los(bd02, "R8", open_side).blocked


def test_an_own_hex_block_is_always_the_obstacle_the_los_crosses(bd02) -> None:
    """Over every on-map hexside of every woods and building hex of bd02 and seeded targets:
    a LOS from a bypass hexside blocked in its own hex is blocked at a pixel of that hex's
    obstacle; and the batch (viewshed) gives the same."""
    import numpy as np
    rng = np.random.default_rng(9)
    on = bd02.kernel_map[4][:, :, 0]
    own = clear = 0
    for h in range(len(bd02)):
        t = bd02.terrain_of(h)
        if not (t.is_building or "woods" in t.name.lower()):
            continue
        for side in (k for k in range(6) if on[h, k]):
            vs = hexwx.viewshed(bd02, h, from_hexside=side)
            for tg in rng.choice(len(bd02), 6, replace=False).tolist():
                r = hexwx.los(bd02, h, tg, from_hexside=side)
                assert bool(vs.blocked[tg]) == r.blocked
                if r.blocked and r.blocking_hex == bd02.name_of(h) and tg != h:
                    x, y = r.blocked_at
                    assert bd02.table[int(bd02.terrain[x, y])].obstacle, (h, side, tg)
                    own += 1
                clear += not r.blocked
    assert own > 20 and clear > 20
