"""One answer, said the same way everywhere (issue #14 item 14): a blocked LOS has no DRM --
``LosResult.drm`` is None, JSON ``drm`` is null, the text and the render caption print no total."""
from __future__ import annotations

import json
from pathlib import Path

from hexwx.cli import main
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.render.core import los_caption
from hexwx.weather.asl.state import AslWeather

HILL = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"
HEAVY_RAIN = AslWeather(base="Overcast", rain=True, heavy=True)


def test_blocked_los_has_no_drm_anywhere(capsys) -> None:
    # hill_village A7 -> N7, range 13: terrain +3 (two orchards, brush) and heavy rain +3
    # (3.51: +1 at every range on top of the 13-18 hex band's +2) = 6: blocked (E3.1).
    r = los(load_map(HILL), "A7", "N7", weather=HEAVY_RAIN)
    assert r.blocked and r.rule == "E3.1"
    assert r.drm is None
    assert r.to_json()["drm"] is None
    assert "+" not in r.explain().splitlines()[1]
    assert "total DRM" not in los_caption(r)
    rc = main(["los", str(HILL), "A7", "N7", "--rain", "--heavy", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["blocked"] and d["drm"] is None and d["lv"] is None


def test_clear_los_drm_is_the_sum_everywhere() -> None:
    # The same LOS in plain rain: 13-18 hexes is +2 (3.32, 3.52); +3 +2 = 5 < 6: clear.
    r = los(load_map(HILL), "A7", "N7", weather=AslWeather(base="Overcast", rain=True))
    assert not r.blocked and (r.hindrance, r.lv, r.drm) == (3, 2, 5)
    assert r.to_json()["drm"] == 5
    assert "total +5" in r.explain() and "total DRM +5" in los_caption(r)
