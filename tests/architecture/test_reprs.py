"""Short reprs everywhere: a result printed in a notebook or a log is one readable line, not
thousands of characters (issue #22: MovePath's repr was 2,935 characters)."""
from __future__ import annotations

from pathlib import Path

import hexwx
from hexwx.frozen import short_repr
from hexwx.io.scenario import load_scenario
from hexwx.io.table_scenario import load_table_scenario
from hexwx.movement.covered import covered_path

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_value_has_a_short_repr() -> None:
    m = hexwx.load_map(ROOT / "maps" / "hill_village.toml")
    fog = hexwx.AslWeather(fog_level=0, fog_drm=1)
    far = hexwx.path(m, "A1", "K6", unit="infantry", weather=fog)
    dice = hexwx.Dice(seed=3)
    state, rolls = hexwx.roll_weather("Jan", dice)
    table = load_table_scenario(ROOT / "scenarios" / "table_agv_village_and_wood.toml")
    a, b = table.table.units[0].id, table.table.units[-1].id
    values = [m, fog, state, dice, rolls[0], far, far.steps[0],
              hexwx.reach(m, "C5", unit="infantry", mf=6, weather=fog),
              hexwx.los(m, "J4", "C5", weather=fog), hexwx.viewshed(m, "J4"), hexwx.los_table(m),
              covered_path(m, "A1", "K6", unit="infantry", watchers=["J4"]),
              load_scenario(ROOT / "scenarios" / "fog_on_the_hill.toml"), table,
              *hexwx.run_weather(state, dice, 2), table.can_see(a, b)]
    for v in values:
        text = repr(v)
        assert len(text) <= 400 and "\n" not in text, (type(v).__name__, len(text), text[:120])
    assert repr(far) == f"MovePath(A1 -> K6, infantry, clear: {len(far.steps)} steps, {far.total:g} MF)"


def test_short_repr_leaves_out_defaults_and_shortens_long_fields() -> None:
    assert short_repr(hexwx.AslWeather()) == "AslWeather()"
    assert short_repr(hexwx.AslWeather(rain=True)) == \
        "AslWeather(base='Overcast', rain=True, rained=True)"
    s = hexwx.load_scenario(ROOT / "scenarios" / "fog_on_the_hill.toml")
    assert "... (" not in short_repr(s.units[0])
