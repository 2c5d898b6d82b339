"""Critical times of gradient flow: certified sign changes, checked independently.

* every reported crossing: the exact expression evaluated by sympy (60 digits) has the opposite sign at the
  bracket's lower end and the reported direction's sign at its upper end;
* between consecutive crossings the dense flow (``scipy.linalg.expm`` on the full Gram matrix) has the sign
  pattern the scan reports, at hypothesis-drawn tasks;
* the level time of the exception margin brackets the level.
"""

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from symbolic_ti import Task
from symbolic_ti.dynamics import critical_times, dynamics, level_time

from test_dynamics import dense_flow, kernel
from strategies import examples


def _exact_sign(d, x, t):
    g = d.task.ground_truth(x)
    v = (g * d.f(*x, sp.Rational(t.numerator, t.denominator))).evalf(60)
    assert abs(v) > sp.Float("1e-45")
    return 1 if v > 0 else -1


@pytest.fixture(scope="module")
def lm9():
    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    return d, critical_times(d)


def test_crossings_are_sign_changes_of_the_exact_expression(lm9):
    d, rep = lm9
    assert rep.order, "this task has crossings"
    seen = set()
    for c in rep.order:
        key = (min(c.trial), max(c.trial), c.lower)
        if key in seen:
            continue
        seen.add(key)
        after = 1 if c.direction == "to_correct" else -1
        assert _exact_sign(d, c.trial, c.lower) == -after
        assert _exact_sign(d, c.trial, c.upper) == after


def test_initial_and_final_states(lm9):
    d, rep = lm9
    for tt in rep.trials:
        first = tt.crossings[0].lower if tt.crossings else Fraction(1)
        assert _exact_sign(d, tt.trial, first / 4) == (1 if tt.initial == "correct" else -1)
        n_flips = len(tt.crossings)
        final = (1 if tt.initial == "correct" else -1) * (-1) ** n_flips
        assert final == (1 if tt.final > 0 else -1)
        assert tt.complete
    # the four trials the language models get wrong stay wrong from the start (alpha = 1/10, lambda = 1/10)
    states = {tt.trial: (tt.initial, len(tt.crossings)) for tt in rep.trials}
    for x in [(3, 6), (4, 7), (6, 3), (7, 4)]:
        assert states[x] == ("wrong", 0)


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 8), data=st.data(),
       alpha=st.sampled_from([Fraction(1, 20), Fraction(1, 5), Fraction(1, 2)]),
       ridge=st.sampled_from([Fraction(0), Fraction(1, 10)]))
def test_sign_pattern_matches_dense_flow(n, data, alpha, ridge):
    valid = [f"{w}>{l}" for l in range(1, n + 1) for w in range(l + 2, n + 1)]
    excs = data.draw(st.lists(st.sampled_from(valid), min_size=1, max_size=2, unique=True))
    task = Task(n, excs)
    d = dynamics(n, excs, parameters={"alpha": alpha}, ridge=ridge if ridge else "ridgeless")
    rep = critical_times(d)
    for t in np.geomspace(0.05, 60, 9):
        ref = dense_flow(task, lambda a, b: kernel(a, b, float(alpha), 0.0), float(ridge), float(t))
        for tt in rep.trials:
            g = task.ground_truth(tt.trial)
            m = g * ref[tt.trial]
            if abs(m) < 1e-8 or any(abs(c.value - t) < 1e-6 for c in tt.crossings):
                continue
            sign = 1 if tt.initial == "correct" else -1
            sign *= (-1) ** sum(1 for c in tt.crossings if c.upper < t)
            assert (m > 0) == (sign > 0), (tt.trial, t, m)


def test_level_time_brackets_the_level(lm9):
    d, _ = lm9
    c = level_time(d, "1/2")
    assert c is not None and c.trial == (6, 4)
    lo = d.f(6, 4, sp.Rational(c.lower.numerator, c.lower.denominator)).evalf(50)
    hi = d.f(6, 4, sp.Rational(c.upper.numerator, c.upper.denominator)).evalf(50)
    assert lo < sp.Rational(1, 2) < hi
    assert level_time(d, 1) is None  # the exception margin tends to 5509/7850 < 1


def test_early_stopping_window_matches_dense_errors():
    from symbolic_ti.dynamics.window import early_stopping

    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"})
    es = early_stopping(d)
    assert es.target == ((3, 6), (4, 7), (6, 3), (7, 4))
    (w,) = es.windows
    assert 3.93 < float(w.start) < 3.94 and 11.53 < float(w.end) < 11.54
    task = Task(9, ["6>4"])
    for t in (float(w.start) + 0.01, 8.0, float(w.end) - 0.01):
        ref = dense_flow(task, lambda a, b: kernel(a, b, 0.1, 0.0), 0.0, t)
        wrong = {x for x in task.trials if task.ground_truth(x) is not None and task.ground_truth(x) * ref[x] < 0}
        assert wrong == set(es.target)
    for p in es.phases[:-1]:  # inside every phase the dense flow has exactly the phase's errors
        t = float(p.start + p.end) / 2
        ref = dense_flow(task, lambda a, b: kernel(a, b, 0.1, 0.0), 0.0, t)
        wrong = {x for x in task.trials if task.ground_truth(x) is not None and task.ground_truth(x) * ref[x] < 0}
        assert wrong == set(p.errors)
