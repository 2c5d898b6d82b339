"""The fast critical-conjunctivity path (FLINT signs, float-indexed root registry) against independent
computations: margins from ``derive`` as exact rational functions of alpha and sympy's ``real_roots`` of their
numerators; the pure-Python sign reference; the reversal symmetry of the task."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import symbolic_ti as sti
from symbolic_ti.analysis.roots import polynomials as P
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity
from symbolic_ti.symbols import alpha as ALPHA
from strategies import examples


def _same_number(a: sp.Expr, b: sp.Expr) -> bool:
    """Exact equality of two real algebraic numbers (canonical CRootOf, or a zero minimal polynomial)."""
    if isinstance(a, sp.CRootOf) or isinstance(b, sp.CRootOf):
        return a == b
    x = sp.Dummy("x")
    return sp.minimal_polynomial(sp.nsimplify(a - b), x) == x


def _direct(n: int, exception: str, ridge: str) -> tuple[sp.Expr | None, set, dict]:
    """alpha*_first, the first failing trials and the wrong-at-start flags, from derive's margins only."""
    res = sti.derive(n, [exception], ridge=ridge)
    task = res.task
    starts: dict = {}
    first: dict = {}
    for t in task.test_trials:
        if task.ground_truth(t) is None:
            continue
        num, den = sp.fraction(sp.cancel(sp.together(res.margin(*t))))
        pn, pd = sp.Poly(num, ALPHA), sp.Poly(den, ALPHA)
        low = next(c for c in reversed(pn.all_coeffs()) if c != 0)  # sign of num as alpha -> 0+
        dlow = next(c for c in reversed(pd.all_coeffs()) if c != 0)
        wrong = sp.sign(low) * sp.sign(dlow) < 0
        starts[t] = bool(wrong)
        if wrong:
            continue
        roots = sp.real_roots(pn)
        odd = sorted({r for r in roots if roots.count(r) % 2 and 0 < r < 1}, key=lambda r: float(r))
        if odd:
            first[t] = odd[0]
    if any(starts.values()):
        return sp.Integer(0), {t for t, w in starts.items() if w}, starts
    if not first:
        return None, set(), starts
    best = min(first.values(), key=lambda r: float(r))
    return best, {t for t, r in first.items() if _same_number(r, best)}, starts


@settings(max_examples=examples(10), deadline=None)
@given(n=st.integers(5, 11), data=st.data(), ridge=st.sampled_from(["ridgeless", "1/100", "1/10", "1"]))
def test_first_failure_matches_derive_margins(n, data, ridge):
    span = data.draw(st.integers(2, min(6, n - 1)))
    low = data.draw(st.integers(1, n - span))
    exception = f"{low + span}>{low}"
    rep = critical_conjunctivity(sti.Task(n, [exception]), ridge)
    alpha, trials, starts = _direct(n, exception, ridge)
    assert {e.trial: e.wrong_at_start for e in rep.trials} == starts
    if alpha is None:
        assert rep.alpha_first is None and not rep.first_failing
        return
    assert set(rep.first_failing) == trials
    assert _same_number(rep.alpha_first, alpha)


@settings(max_examples=examples(200), deadline=None)
@given(cs=st.lists(st.integers(-10**40, 10**40), min_size=12, max_size=40).filter(lambda c: c[0] != 0),
       num=st.integers(-10**30, 10**30), den=st.integers(1, 10**30))
def test_flint_sign_equals_python_sign(cs, num, den):
    x = Fraction(num, den)
    assert P.sign_at(tuple(cs), x) == P.sign_at_python(tuple(cs), x)


def test_flint_sign_at_a_root_and_near_it():
    # (3x - 1)^2 (x^10 + 1) * (x - 2): exactly 0 at 1/3 and 2; near 1/3 the ball must give way to exact arithmetic
    cs = P.multiply(P.multiply(P.multiply((3, -1), (3, -1)), (1,) + (0,) * 9 + (1,)), (1, -2))
    for x in (Fraction(1, 3), Fraction(2), Fraction(1, 3) + Fraction(1, 2**200), Fraction(2) - Fraction(1, 2**300)):
        assert P.sign_at(cs, x) == P.sign_at_python(cs, x)
    assert P.sign_at(cs, Fraction(1, 3)) == 0


def test_reversal_symmetry_gives_the_same_alpha():
    # i -> n + 1 - i maps W>L to (n+1-L)>(n+1-W) and the trial (i, j) to (n+1-j, n+1-i) with the same margin
    n = 13
    for ex, mirrored, ridge in (("6>4", "10>8", "1/10"), ("9>4", "10>5", "ridgeless"), ("3>1", "13>11", "1")):
        a = critical_conjunctivity(sti.Task(n, [ex]), ridge)
        b = critical_conjunctivity(sti.Task(n, [mirrored]), ridge)
        assert a.alpha_first == b.alpha_first
        assert {(n + 1 - j, n + 1 - i) for i, j in a.first_failing} == set(b.first_failing)
