"""Pickling keeps the closed forms as the solver made them (issue 24): an unpickled result writes the same JSON
(forms table and its ``numerator_sign`` sharing included), LaTeX and text, byte for byte, as the original."""

from __future__ import annotations

import json
import pickle
import re

import pytest
import sympy as sp
from sympy.polys.rings import ring

import symbolic_ti as st
from symbolic_ti.results import LazyPredictions, PolyFraction

_CREATED = re.compile(r'"created": "[^"]*"')  # meta.created: the clock of the call, not of the result

# one case per path that hands PolyFractions (or numbers) to the result
CASES = {
    "laplacian, symbolic (fmpq_mpoly)": lambda: st.derive(9, ["6>4"]),
    "laplacian, univariate": lambda: st.derive(7, ["5>3"], parameters={"alpha": "1/10"}),
    "dense flint (fmpz_mpoly)": lambda: st.derive(5, family="geometric"),
    "ridgeless, symbolic": lambda: st.derive(5, family="geometric", ridge="ridgeless"),
    "ridgeless, laplacian limit": lambda: st.derive(7, ["5>3"], ridge="ridgeless"),
    "numbers only": lambda: st.derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10"),
}


def _outputs(result: st.Result) -> tuple[str, str, str]:
    return _CREATED.sub("", result.to_json()), result.to_latex(), result.to_text()


@pytest.mark.parametrize("label", list(CASES))
def test_an_unpickled_result_prints_byte_for_byte_as_the_original(label):
    original = CASES[label]()
    back = pickle.loads(pickle.dumps(original))
    assert _outputs(back) == _outputs(original), label
    assert back == original and hash(back) == hash(original), label
    # what the solver handed over stays: the same kind of closed form on every trial
    for t in original.task.trials:
        a, b = original.fraction(*t), back.fraction(*t)
        assert (a is None) == (b is None), (label, t)
        if a is not None:
            assert [type(p) for p in a.polys] == [type(p) for p in b.polys], (label, t)
            assert a.negated == b.negated and a.as_expr() == b.as_expr(), (label, t)
    # and a second round trip changes nothing
    assert _outputs(pickle.loads(pickle.dumps(back))) == _outputs(original), label


def test_the_forms_table_keeps_its_sharing_after_pickling():
    """derive(9, ["6>4"]) with symbolic parameters: the original's forms table has 25 entries (f(j, i) shares
    f(i, j)'s entry); before the fix an unpickled result held sympy expressions and wrote 30."""
    original = st.derive(9, ["6>4"])
    back = pickle.loads(pickle.dumps(original))
    forms = [len(json.loads(r.to_json())["forms"]) for r in (original, back)]
    assert forms[0] == forms[1] == 25
    assert isinstance(back.predictions, LazyPredictions)
    assert back.predictions.n_built == len(original.task.trials)


def test_a_fraction_of_sympy_ring_polynomials_round_trips():
    R, a, b = ring("a,b", sp.QQ)
    form = PolyFraction.from_polys(a**2 - sp.Rational(1, 3) * b, a + 2)
    x, y = sp.symbols("a b")
    value = (x**2 - y / 3) / (x + 2)
    for f, sign in ((form, 1), (-form, -1), (form.opposite(), -1)):
        back = pickle.loads(pickle.dumps(f))
        assert type(back.polys[0]) is type(f.polys[0]) and back.polys == f.polys
        assert back.negated == f.negated and back.as_expr() == f.as_expr()
        assert sp.cancel(back.as_expr() - sign * value) == 0


# ------------------------------------------------------------------ compiled results, numeric predictions, dynamics
@pytest.mark.parametrize("result", [
    st.derive(5, ["4>2"]),  # alpha and lambda free
    st.derive(5, ["4>2"], ridge="ridgeless"),  # ridgeless: its conditions are compiled too
    st.derive(5, ["4>2"], parameters={"alpha": "1/10"}, ridge="1/10"),  # numbers only: no program
], ids=["symbolic", "ridgeless", "numbers"])
def test_a_compiled_result_pickles_and_evaluates_as_the_original(result):
    from symbolic_ti.numeric import compile_result

    compiled = compile_result(result)
    back = pickle.loads(pickle.dumps(compiled))
    point = {"alpha": sp.Rational(1, 3), "lambda": sp.Rational(1, 4)}
    arrays = {name: float(point[name]) for name in compiled.parameters}
    values = back.evaluate(**arrays).values
    assert back.parameters == compiled.parameters and back.trials == compiled.trials
    assert (values == compiled.evaluate(**arrays).values).all()
    # the values are the exact closed forms at the point (to float64's rounding)
    at = {s: point[s.name] for s in result.free_symbols}
    for k, t in enumerate(compiled.trials):
        assert values[k] == pytest.approx(float(result.f(*t).subs(at)), rel=1e-12, abs=1e-15), t
    assert pickle.loads(pickle.dumps(back)).evaluate(**arrays).values.tolist() == values.tolist()


def test_numeric_predictions_pickle_with_their_attributes_and_are_not_hashable():
    from symbolic_ti.numeric import numeric_predictions

    p = numeric_predictions(st.Task(5, ["4>2"]), st.Exchangeable(alpha="1/10"), ridge="1/10", precision=30)
    back = pickle.loads(pickle.dumps(p))
    assert back == p and vars(back) == vars(p) and back.summary() == p.summary()
    with pytest.raises(TypeError):  # a dict, mutable (documented)
        hash(p)


def test_dynamics_pickle_equal_and_hash_equal():
    d = st.learning_dynamics(4, parameters={"alpha": 0})
    back = pickle.loads(pickle.dumps(d))
    assert back == d and hash(back) == hash(d) and len({d, back}) == 1
    assert back.f(1, 4, 1) == d.f(1, 4, 1)
