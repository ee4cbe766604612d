"""The front end shared by the command line and the viewer: one parser per query, the JSON
answers as one library call each, and library errors naming parameters shown as CLI flags."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import hexwx
from hexwx.cli.app import FLAGS, flag_message, main
from hexwx.front import answers, options
from hexwx.io.scenario import load_scenario
from hexwx.lineofsight.reasons import LV_BLOCK_REASON, REASONS
from hexwx.serve import params

ROOT = Path(__file__).resolve().parents[2]
FOG = ROOT / "scenarios" / "fog_on_the_hill.toml"


def _parser(add) -> argparse.ArgumentParser:  # type: ignore[no-untyped-def]
    root = argparse.ArgumentParser()
    return add(root.add_subparsers())


def test_the_viewer_parses_queries_with_the_commands_own_options() -> None:
    for command, add in (("los", options.add_los_parser), ("path", options.add_path_parser),
                         ("reach", options.add_reach_parser),
                         ("exposure", options.add_exposure_parser)):
        cli = {a.dest for a in _parser(add)._actions}
        api = {a.dest for a in params.parser(command)._actions}
        assert cli == api, command


def test_los_answer_is_the_scenario_query(capsys) -> None:  # type: ignore[no-untyped-def]
    sc = load_scenario(FOG)
    args = _parser(options.add_los_parser).parse_args(["--scenario", str(FOG), "hill-squad",
                                                       "village-squad", "--mist"])
    text = answers.los_json_text(sc.map, sc, "hill-squad", "village-squad", args)
    weather = options.weather_from_args(args, scenario=sc)
    want = sc.los("hill-squad", "village-squad", weather=weather)
    assert json.loads(text) == {**want.to_json(), "weather": weather.to_json()}
    assert main(["los", "--scenario", str(FOG), "hill-squad", "village-squad", "--mist",
                 "--json"]) == 0
    assert capsys.readouterr().out == text + "\n"


def test_parameters_become_flags_in_cli_messages(capsys) -> None:  # type: ignore[no-untyped-def]
    assert flag_message("bad from_level 1.5; expected a whole number", "from_level") == \
        "bad --from-level 1.5; expected a whole number"
    assert flag_message("bad unit_count 3", "unit") == "bad unit_count 3"     # whole words only
    assert all(f.startswith("--") or f in ("FROM", "TO") for f in FLAGS.values())
    m = str(ROOT / "maps" / "hill_village.toml")
    assert main(["path", m, "A1", "B1"]) == 2
    assert "--unit is required" in capsys.readouterr().err


def test_reasons_cite_rules() -> None:
    assert LV_BLOCK_REASON[1] == "E3.1"
    assert all(rule is None or rule[0] in "ABEF" for _text, rule in REASONS.values())   # F: hillocks
    assert hexwx.los(hexwx.load_map(ROOT / "maps" / "hill_village.toml"), "J4", "C5").reason \
        in {t for t, _r in REASONS.values()}
