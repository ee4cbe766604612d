"""The TOML writer: whatever it writes, tomllib reads back unchanged."""
from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from hexwx.io.tomlwrite import dumps, key, quote

text = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
scalars = st.one_of(text, st.integers(-2**63, 2**63 - 1), st.booleans(),
                    st.floats(allow_nan=False))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=8)
tables = st.dictionaries(text, values, max_size=5)


@settings(max_examples=80, deadline=None)
@given(doc=st.dictionaries(text, st.one_of(values, tables, st.lists(tables, min_size=1, max_size=3)),
                           max_size=6))
def test_round_trip(doc):
    assert tomllib.loads(dumps(doc)) == doc


def test_escapes_and_comments():
    s = 'a "quoted" \\ back\tslash\nnew \x00 \x7f é'
    assert tomllib.loads(f"k = {quote(s)}")["k"] == s
    out = dumps({"name": s, "map": {"vasl_boards": [["r05"], ["r02"]]},
                 "units": [{"id": "a b", "hex": "5I4"}, {"id": "c", "hex": "2K3"}]},
                comments={"": ["first line", "off the boards:\n  x", "ctrl \x01 char"]})
    assert out.startswith("# first line\n# off the boards:")
    doc = tomllib.loads(out)
    assert doc["units"][1] == {"id": "c", "hex": "2K3"} and doc["name"] == s


def test_refuses_what_toml_cannot_hold():
    with pytest.raises(TypeError):
        dumps({"x": object()})
    with pytest.raises(TypeError):
        dumps({"x": None})


def test_key_with_a_trailing_newline_is_quoted():
    # found by hypothesis: a "^...$" pattern accepts "0\n" as a bare key, which TOML refuses
    assert key("0\n") == '"0\\n"'
    assert tomllib.loads(dumps({"0\n": [], "k": {"a\n": 1}})) == {"0\n": [], "k": {"a\n": 1}}
