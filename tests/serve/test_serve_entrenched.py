"""The viewer's API with entrenched units (B27.2): ``/api/exposure`` takes ``entrenched``
(as ``hexwx exposure --entrenched``) and lists the observers as asked; ``/api/viewshed`` of a
scenario's entrenched unit is the library's viewshed from an entrenchment."""
from __future__ import annotations

import json
from typing import Any

from serve_helpers import get_json, running
from vasl_boards import archive, board

from hexwx.cli.app import main
from hexwx.lineofsight.engine import viewshed


def test_api_exposure_with_entrenched_observers_matches_the_cli(capsys: Any) -> None:
    bd02 = archive("bd02")
    with running(bd02) as srv:
        status, got = get_json(srv, "/api/exposure?from=E5,V8:NE&entrenched=E5")
    assert status == 200
    assert main(["exposure", str(bd02), "--from", "E5,V8:NE", "--entrenched", "E5", "--json"]) == 0
    assert got == json.loads(capsys.readouterr().out)
    assert got["observer_entrenched"] == [True, False] and got["observer_hexsides"] == [None, 1]


def test_api_viewshed_of_an_entrenched_scenario_unit(tmp_path: Any) -> None:
    path = tmp_path / "dug_in.toml"
    path.write_text(f'name = "Dug in"\nmap = "{archive("bd02")}"\n\n[[units]]\nid = "dug-in"\n'
                    f'side = "German"\nhex = "E5"\nentrenched = true\n\n[[units]]\nid = "rifles"\n'
                    f'side = "American"\nhex = "A5"\n')
    with running(path) as srv:
        status, dug_in = get_json(srv, "/api/viewshed?from=dug-in")
        status2, rifles = get_json(srv, "/api/viewshed?from=rifles")
    assert status == status2 == 200
    assert dug_in["entrenched"] is True and "entrenched" not in rifles
    want = viewshed(board("bd02"), "E5", from_entrenched=True)
    assert dug_in["hexes"]["A5"] is None and want.blocked[board("bd02").parse("A5")]
    assert [h for h, d in dug_in["hexes"].items() if d is None] == \
        [h for h, d in want.to_json()["hexes"].items() if d is None]
