"""``symbolic_ti.display.iterencode`` (the encoder of ``dumps`` and of streamed reports) against the standard
library's ``json.dumps(indent=2, ensure_ascii=False, allow_nan=False)``: the same text for any JSON value
(hypothesis), the same errors, and ``Compact`` lists / ``JSONText`` on one line, read back to the same values."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_ti.display import Compact, JSONText, dumps, iterencode
from symbolic_ti.errors import ExportError
from strategies import examples

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=25)


@settings(max_examples=examples(100), deadline=None)
@given(values, st.integers(0, 4))
def test_same_text_as_the_standard_library(value, indent):
    assert "".join(iterencode(value, indent)) == json.dumps(value, indent=indent, ensure_ascii=False,
                                                             allow_nan=False)


def test_non_string_keys_and_errors_as_the_standard_library():
    d = {1: "a", 2.5: [], False: {}, None: 0}
    assert dumps(d) == json.dumps(d, indent=2)
    for bad in ({"x": float("nan")}, {"x": object()}, {(1, 2): 1}):
        with pytest.raises(ExportError, match="cannot write JSON"):
            dumps(bad)


def test_compact_lists_on_one_line():
    terms = [[[2, 0], "2"], [[0, 1], "-1/3"]]
    d = {"poly": {"gens": ["alpha"], "num": Compact(terms), "den": JSONText(json.dumps(terms))}, "x": [1]}
    text = dumps(d)
    assert '"num": [[[2, 0], "2"], [[0, 1], "-1/3"]],\n' in text and '"den": [[[2, 0], "2"], [[0, 1], "-1/3"]]\n' in text
    assert json.loads(text) == {"poly": {"gens": ["alpha"], "num": terms, "den": terms}, "x": [1]}
    assert dumps({"num": Compact(terms)}, indent=None) == json.dumps({"num": terms})
