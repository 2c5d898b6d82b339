"""General-n closed forms (symbolic_ti.analysis.general) against independent computations.

Reference values come only from computations that do not use symbolic_ti.analysis.general: the dense Gram-matrix solve
(``method="halved"``), the Laplacian fast path (``method="laplacian"``, itself checked against the dense path in
tests/test_solve.py and tests/test_agreement.py), the mpmath Gram solve ``numeric_predictions``, the reference
table of CONVENTIONS.md, the continuant recurrence, and counts of premise pairs. Symbolic identities for all n
are checked by writing every ``exp(c mu)`` with ``c`` linear in the integer symbols as a monomial in independent
generators ``e^{mu/2}, e^{n mu/2}, e^{L mu/2}, ...`` and cancelling (a rational-function identity).

Fast tests: every (n <= 12, L, span 2..4) at three parameter points against the Laplacian path, a subset against
the dense ``halved`` solve; the full matrix against the dense solve is under ``@pytest.mark.slow``.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symbolic_ti
from symbolic_ti import Exchangeable, Task, numeric_predictions, solve
from symbolic_ti.analysis import general as G
from symbolic_ti import symbols as SY
from symbolic_ti.errors import ParameterError, TaskError
from symbolic_ti.export.jsonreport import expression_from_dict
from symbolic_ti.solvers.laplacian import GAMMA
from strategies import examples

R = sp.Rational
SPANS = (2, 3, 4)
ALL_POSITIONS = [(nn, l, d) for nn in range(3, 13) for d in SPANS for l in range(1, nn - d + 1)]
# (alpha, ridge, kappa_d): two rational points (one with kappa_d) and a ridgeless one
POINTS = [(R(1, 10), R(1, 10), 0), (R(1, 3), R(2, 3), R(1, 2)), (R(1, 5), "ridgeless", 0)]


def _family(alpha, kappa_d):
    return Exchangeable(alpha=alpha, kappa_d=kappa_d)


def _pos_id(p):
    return f"n{p[0]}_{p[1] + p[2]}>{p[1]}"


# ------------------------------------------------------------------------------ symbolic identity helper
_SYMS = (G.n, G.L, G.D, G.k, G.i, G.j)
_GEN = {s: sp.Symbol(f"E_{s}", positive=True) for s in _SYMS}
_GEN_HALF = sp.Symbol("E_half", positive=True)


def _to_generators(expr):
    """Rewrite in exp, then exp(mu (c0 + sum c_s s)) -> E_half^(2 c0) prod E_s^(2 c_s) (integer powers)."""
    mu = G.mu
    e = expr.replace(lambda z: isinstance(z, sp.chebyshevu),
                     lambda z: sp.sinh((z.args[0] + 1) * mu) / sp.sinh(mu))  # U_a(cosh mu), any integer a
    e = e.subs(G.x, sp.cosh(mu)).rewrite(sp.exp)

    def monomial(arg):
        p = sp.Poly(sp.expand(arg / mu), *_SYMS)
        assert p.total_degree() <= 1, arg
        out = _GEN_HALF ** int(2 * p.coeff_monomial(1))
        for s in _SYMS:
            c = 2 * p.coeff_monomial(s)
            assert c.is_integer, arg
            out *= _GEN[s] ** int(c)
        return out

    return e.replace(lambda z: isinstance(z, sp.exp), lambda z: monomial(z.args[0]))


def _identically_zero(expr):
    num, _ = sp.fraction(sp.together(_to_generators(expr)))
    return sp.expand(num) == 0


# ------------------------------------------------------------------------------------------ continuants
def _mpf(q):
    return mpmath.mpf(q.numerator) / q.denominator


def _continuants(nn, gamma):
    th = [F(1), 1 + gamma]
    for _ in range(2, nn):
        th.append((2 + gamma) * th[-1] - th[-2])
    th.append((1 + gamma) * th[nn - 1] - th[nn - 2])
    return th


@pytest.mark.parametrize("nn", [3, 4, 7, 10])
@pytest.mark.parametrize("gamma", [F(1, 3), F(2), F(7, 5)])
def test_continuants_are_chebyshev_v_and_cosh(nn, gamma):
    th = _continuants(nn, gamma)
    x0 = 1 + R(gamma.numerator, gamma.denominator) / 2
    mu0 = mpmath.acosh(_mpf(gamma) / 2 + 1)
    for kk in range(nn):
        assert G.path_continuant(kk, "chebyshev").subs(G.x, x0) == R(th[kk].numerator, th[kk].denominator)
        sinh_val = sp.lambdify(G.mu, G.path_continuant(kk, "sinh"), "mpmath")(mu0)
        assert abs(sinh_val - _mpf(th[kk])) < 1e-12 * abs(sinh_val)
    det = G.path_determinant("chebyshev", nn).subs(G.x, x0)
    assert det == R(th[nn].numerator, th[nn].denominator)
    det_s = sp.lambdify(G.mu, G.path_determinant("sinh", nn), "mpmath")(mu0)
    assert abs(det_s - _mpf(th[nn])) < 1e-12 * abs(det_s)


@pytest.mark.parametrize("nn", [3, 5, 6])
def test_path_green_function_is_the_inverse(nn):
    gamma = R(2, 3)
    lap = sp.zeros(nn, nn)
    for a in range(nn - 1):
        lap[a, a] += 1
        lap[a + 1, a + 1] += 1
        lap[a, a + 1] -= 1
        lap[a + 1, a] -= 1
    inv = (lap + gamma * sp.eye(nn)).inv()
    for form in G.FORMS:
        for a in range(1, nn + 1):
            for b in range(a, nn + 1):
                g = G.path_green(a, b, form).subs({G.n: nn})
                if form == "chebyshev":
                    assert sp.cancel(g.subs(G.x, 1 + gamma / 2)) == inv[a - 1, b - 1]
                else:
                    val = sp.N(g.subs(G.mu, sp.acosh(1 + gamma / 2)), 40)
                    assert abs(val - inv[a - 1, b - 1]) < 1e-30


# ------------------------------------------------------------------------------------------ no exception
def test_no_exception_sinh_equals_pnas_and_chebyshev_for_all_n():
    assert _identically_zero(G.prediction_no_exception("sinh") - G.pnas_closed_form())
    assert _identically_zero(G.rank_no_exception("chebyshev") - G.rank_no_exception("sinh"))
    # and the rank system: rows 1, interior, n of (Lap_path + gamma I) r = e_1 - e_n, 2 + gamma = 2 cosh(mu)
    r = lambda kk: G.rank_no_exception("sinh", kk)  # noqa: E731
    c = sp.cosh(G.mu)
    assert _identically_zero((2 * c - 1) * r(1) - r(2) - 1)
    assert _identically_zero(-r(G.k - 1) + 2 * c * r(G.k) - r(G.k + 1))
    assert _identically_zero((2 * c - 1) * r(G.n) - r(G.n - 1) + 1)


# CONVENTIONS.md reference values without exceptions (kappa_d = 0), f(i, j) for j > i
CONVENTION_VALUES = [
    (4, 0, 1, {(1, 2): F(2, 7), (1, 3): F(3, 7), (1, 4): F(5, 7), (2, 3): F(1, 7), (2, 4): F(3, 7), (3, 4): F(2, 7)}),
    (5, F(1, 2), F(1, 2), {(1, 2): F(17, 29), (1, 3): F(6, 29), (1, 4): F(7, 29), (1, 5): F(12, 29),
                           (2, 3): F(15, 29), (2, 4): F(2, 29), (2, 5): F(7, 29), (3, 4): F(15, 29),
                           (3, 5): F(6, 29), (4, 5): F(17, 29)}),
    (7, 0, 1, {(1, 2): F(11, 41), (1, 3): F(14, 41), (1, 4): F(15, 41), (1, 5): F(16, 41), (1, 6): F(19, 41),
               (1, 7): F(30, 41)}),
    (7, F(1, 10), "ridgeless", {(1, 2): F(1), (1, 3): F(2142, 1889), (1, 4): F(2871, 1889),
                                (1, 5): F(3600, 1889), (1, 6): F(4491, 1889), (1, 7): F(5742, 1889)}),
]


@pytest.mark.parametrize("nn,alpha,ridge,values", CONVENTION_VALUES, ids=lambda v: str(v)[:12])
def test_no_exception_reference_values(nn, alpha, ridge, values):
    for (a, b), v in values.items():
        assert G.evaluate_no_exception(nn, a, b, alpha, ridge) == R(v.numerator, v.denominator)
        s = G.evaluate_no_exception(nn, a, b, alpha, ridge, form="sinh", precision=40)
        with mpmath.workdps(40):
            assert abs(s - mpmath.mpf(v.numerator) / v.denominator) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("nn", range(3, 13))
def test_no_exception_every_trial_against_dense(nn):
    alpha, ridge, kd = R(1, 3), R(2, 3), R(1, 2)
    res = solve(Task(nn), _family(alpha, kd), ridge, method="halved")
    for t in res.task.trials:
        assert G.evaluate_no_exception(nn, *t, alpha, ridge, kd) == res.f(*t), t
        s = G.evaluate_no_exception(nn, *t, alpha, ridge, kd, form="sinh", precision=40)
        exact = res.f(*t)
        with mpmath.workdps(40):
            assert abs(s - mpmath.mpf(exact.p) / exact.q) < mpmath.mpf(10) ** -34, t


# ------------------------------------------------------------------------------------------- one exception
def test_one_exception_solves_the_rank_system_for_all_n():
    """A proof for symbolic n, L, D: every row of (Lap + gamma I) r = b holds, and adjacent pieces agree."""
    cf = G.exception_closed_form("sinh")
    rB, rI, rA = (lambda kk, reg=reg: cf.rank(reg).subs(G.k, kk) for reg in G.REGIONS)
    n, L, D, k = G.n, G.L, G.D, G.k
    W = L + D
    c = sp.cosh(G.mu)  # 2 + gamma = 2 cosh(mu)
    rows = {
        "interior before": -rB(k - 1) + 2 * c * rB(k) - rB(k + 1),
        "interior inside": -rI(k - 1) + 2 * c * rI(k) - rI(k + 1),
        "interior after": -rA(k - 1) + 2 * c * rA(k) - rA(k + 1),
        "row 1 (L >= 2)": (2 * c - 1) * rB(1) - rB(2) - 1,
        "row L (L >= 2)": -rB(L - 1) + (2 * c + 1) * rI(L) - rI(L + 1) - rI(W) + 1,
        "row 1 (L = 1)": (2 * c * rI(1) - rI(2) - rI(W)).subs(L, 1),
        "row W (W < n)": -rI(W - 1) + (2 * c + 1) * rI(W) - rA(W + 1) - rI(L) - 1,
        "row n (W = n)": (2 * c * rI(n) - rI(n - 1) - rI(L)).subs(n, L + D),
        "row n (W < n)": (2 * c - 1) * rA(n) - rA(n - 1) + 1,
        "continuity at L": rB(L) - rI(L),
        "continuity at W": rI(W) - rA(W),
    }
    for name, expr in rows.items():
        assert _identically_zero(expr), name


@pytest.mark.slow
def test_one_exception_forms_identical_for_all_n():
    cc, cs = G.exception_closed_form("chebyshev"), G.exception_closed_form("sinh")
    for reg in G.REGIONS:
        assert _identically_zero(cc.rank(reg) - cs.rank(reg)), reg


def _representative_trials(nn, l, w):
    """One trial per region pair present (both orders), plus the exception and a premise pair."""
    task = Task(nn, [(w, l)])
    chosen = {}
    for t in task.trials:
        chosen.setdefault((G.region_of(t[0], l, w), G.region_of(t[1], l, w)), t)
    return sorted(set(chosen.values()) | {(w, l), (l, w), (1, 2)})


def test_one_exception_forms_agree_numerically():
    cc, cs = G.exception_closed_form("chebyshev"), G.exception_closed_form("sinh")
    for nn, l, d in ALL_POSITIONS:
        for t in _representative_trials(nn, l, l + d):
            exact = cc.evaluate(nn, l, l + d, *t, R(2, 7), R(1, 9))
            approx = cs.evaluate(nn, l, l + d, *t, R(2, 7), R(1, 9), precision=50)
            with mpmath.workdps(50):
                assert abs(approx - mpmath.mpf(exact.p) / exact.q) < mpmath.mpf(10) ** -40, (nn, l, d, t)


def _check_all_trials(res, cf, l, w, alpha, ridge, kd):
    nn = res.task.n
    for t in res.task.trials:
        assert cf.evaluate(nn, l, w, *t, alpha, ridge, kd) == res.f(*t), (nn, l, w, t)


@pytest.mark.parametrize("alpha,ridge,kd", POINTS, ids=["a1_10_l1_10", "a1_3_l2_3_kd1_2", "a1_5_ridgeless"])
def test_one_exception_every_position_against_laplacian_path(alpha, ridge, kd):
    cf = G.exception_closed_form("chebyshev")
    for nn, l, d in ALL_POSITIONS:
        res = solve(Task(nn, [(l + d, l)]), _family(alpha, kd), ridge, method="laplacian")
        _check_all_trials(res, cf, l, l + d, alpha, ridge, kd)


DENSE_SUBSET = sorted({(9, l, d) for d in SPANS for l in range(1, 10 - d)}
                      | {(nn, l, d) for nn in (3, 4, 6, 12) for d in SPANS if d < nn
                         for l in {1, (nn - d + 1) // 2, nn - d} if l >= 1})


@pytest.mark.parametrize("pos", DENSE_SUBSET, ids=_pos_id)
def test_one_exception_subset_against_dense_gram(pos):
    nn, l, d = pos
    cf = G.exception_closed_form("chebyshev")
    points = POINTS if nn != 9 else POINTS[:1]
    for alpha, ridge, kd in points:
        res = solve(Task(nn, [(l + d, l)]), _family(alpha, kd), ridge, method="halved")
        _check_all_trials(res, cf, l, l + d, alpha, ridge, kd)


@pytest.mark.slow
@pytest.mark.parametrize("pos", ALL_POSITIONS, ids=_pos_id)
def test_one_exception_every_position_against_dense_gram(pos):
    nn, l, d = pos
    cf = G.exception_closed_form("chebyshev")
    for alpha, ridge, kd in POINTS:
        res = solve(Task(nn, [(l + d, l)]), _family(alpha, kd), ridge, method="halved")
        _check_all_trials(res, cf, l, l + d, alpha, ridge, kd)


def test_one_exception_conventions_reference_values():
    cf = G.exception_closed_form("chebyshev")
    assert cf.evaluate(9, 4, 6, 6, 4, R(1, 10), R(1, 10)) == R(5509, 7850)
    assert cf.evaluate(9, 4, 6, 1, 9, R(1, 10), R(1, 10)) == R(7902, 3925)
    assert cf.evaluate(9, 4, 6, 3, 7, R(1, 10), R(1, 10)) == R(162, 785)
    assert cf.evaluate(9, 4, 6, 3, 6, R(1, 10), R(1, 10)) == R(-387, 3925)
    assert cf.evaluate(9, 4, 6, 6, 4, 0, R(1, 10)) == R(110, 331)
    assert cf.evaluate(9, 4, 6, 4, 5, 0, R(1, 10)) == R(-55, 331)
    assert cf.evaluate(9, 4, 6, 3, 6, 0, R(1, 10)) == R(45, 331)
    assert cf.evaluate(6, 2, 5, 1, 6, R(1, 5), R(2, 3), R(1, 3)) == R(35, 79)
    assert cf.evaluate(6, 2, 5, 2, 5, R(1, 5), 1) == R(-169, 474)


@st.composite
def _cases(draw):
    nn = draw(st.integers(4, 40))
    d = draw(st.integers(2, min(nn - 1, 12)))
    l = draw(st.integers(1, nn - d))
    alpha = R(draw(st.integers(0, 19)), 20)
    ridge = R(draw(st.integers(1, 40)), 20)
    kd = R(draw(st.integers(0, 4)), 10)
    items = st.integers(1, nn)
    trials = draw(st.lists(st.tuples(items, items).filter(lambda t: t[0] != t[1]), min_size=2, max_size=4))
    return nn, l, d, alpha, ridge, kd, sorted(set(trials) | {(l + d, l), (1, nn)})


# the suite's largest single cost (a 50-digit Gram solve of up to 40 items per example): 8 fixed examples by
# default, 80 under HYPOTHESIS_PROFILE=thorough
@settings(max_examples=examples(8), deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_one_exception_sinh_form_against_mpmath_gram_solve(case):
    nn, l, d, alpha, ridge, kd, trials = case
    ref = numeric_predictions(Task(nn, [(l + d, l)]), _family(alpha, kd), ridge=ridge, precision=50,
                              trials=trials)
    cs = G.exception_closed_form("sinh")
    for t in trials:
        v = cs.evaluate(nn, l, l + d, *t, alpha, ridge, kd, precision=50)
        with mpmath.workdps(50):
            assert abs(v - ref[t]) < mpmath.mpf(10) ** -35 * max(1, abs(ref[t])), (case, t)


def test_sinh_form_at_an_algebraic_alpha_against_dense_gram():
    # alpha = sqrt(2)/3: x = cosh(mu) is algebraic; reference: the exact dense Gram solve, evaluated to 40 digits
    alpha, ridge = sp.sqrt(2) / 3, R(1, 7)
    ref = solve(Task(6, ["5>2"]), _family(alpha, 0), ridge=ridge, method="halved")
    cs = G.exception_closed_form("sinh")
    for t in [(1, 6), (5, 2), (2, 3), (3, 5)]:
        v = cs.evaluate(6, 2, 5, *t, alpha, ridge, precision=40)
        with mpmath.workdps(40):
            assert abs(v - mpmath.mpf(sp.N(ref.f(*t), 45))) < mpmath.mpf(10) ** -30, t
    ref = solve(Task(7), _family(alpha, 0), ridge=ridge, method="halved")
    for t in [(2, 5), (2, 3)]:
        v = G.evaluate_no_exception(7, *t, alpha, ridge, form="sinh", precision=40)
        with mpmath.workdps(40):
            assert abs(v - mpmath.mpf(sp.N(ref.f(*t), 45))) < mpmath.mpf(10) ** -30, t


# ---------------------------------------------------------------------------------------------------- limits
def test_limit_ridgeless_additive_without_exception_is_j_minus_i():
    assert sp.simplify(G.limit_ridgeless_additive() - (G.j - G.i)) == 0
    for nn in (3, 6, 11):
        for a, b in Task(nn).test_trials:
            assert G.evaluate_no_exception(nn, a, b, 0, "ridgeless") == b - a
            assert G.evaluate_no_exception(nn, a, b, 0, "ridgeless", form="sinh") == b - a


def test_limit_conjunctive_gives_zero_test_margins():
    assert G.limit_conjunctive() == 0
    cc, cs = G.exception_closed_form("chebyshev"), G.exception_closed_form("sinh")
    for nn, l, d in [(5, 1, 2), (9, 4, 2), (12, 3, 4), (12, 8, 4)]:
        task = Task(nn, [(l + d, l)])
        for t in task.trials:
            target = task.training_targets.get(t)
            for ridge in (R(1, 10), "ridgeless"):
                expect = 0 if target is None else target * (1 / (1 + R(1, 10)) if ridge != "ridgeless" else 1)
                assert cc.evaluate(nn, l, l + d, *t, 1, ridge) == expect, (nn, l, d, t)
                v = cs.evaluate(nn, l, l + d, *t, 1, ridge, precision=30)
                with mpmath.workdps(30):
                    assert abs(v - mpmath.mpf(R(expect).p) / R(expect).q) < mpmath.mpf(10) ** -25
        for t in Task(nn).test_trials:
            assert G.evaluate_no_exception(nn, *t, 1, R(1, 3)) == 0
    # the values tend to the limit: close to alpha = 1 the test margins are small
    near = cc.evaluate(12, 3, 7, 1, 12, 1 - R(1, 10 ** 6), R(1, 10))
    assert 0 < near < R(1, 10 ** 5)


def test_alpha_one_matches_dense_gram():
    res = solve(Task(7, ["5>2"]), Exchangeable(alpha=1), R(1, 4), method="halved")
    cf = G.exception_closed_form("chebyshev")
    _check_all_trials(res, cf, 2, 5, 1, R(1, 4), 0)


def _noncycle_count(a, b, l, w):
    """Signed number of premise pairs (c, c+1) between items a and b that are not inside the cycle l..w."""
    lo, hi = min(a, b), max(a, b)
    count = sum(1 for c in range(lo, hi) if not (l <= c and c + 1 <= w))
    return count if a < b else -count


def test_exception_ridgeless_additive_limit_collapses_the_cycle():
    ranks = G.exception_limit_ridgeless_additive()
    cf = G.exception_closed_form("chebyshev")
    cs = G.exception_closed_form("sinh")
    for nn, l, d in [p for p in ALL_POSITIONS if p[0] in (3, 5, 8)] + [(12, 1, 4), (12, 5, 3), (12, 10, 2)]:
        w = l + d
        vals = {G.n: nn, G.L: l, G.D: d}
        r = [ranks[G.region_of(kk, l, w)].subs(vals | {G.k: kk}) for kk in range(1, nn + 1)]
        assert sum(r) == 0  # the limit is the minimum-norm solution: orthogonal to the constant vector
        task = Task(nn, [(w, l)])
        for a, b in task.trials:
            count = _noncycle_count(a, b, l, w)
            assert r[a - 1] - r[b - 1] == count
            assert cf.evaluate(nn, l, w, a, b, 0, "ridgeless") == count  # share 0 at alpha = 0
        a, b = 1, nn
        assert cs.evaluate(nn, l, w, a, b, 0, 0) == _noncycle_count(a, b, l, w)


def test_ridgeless_additive_matches_dense_gram():
    res = solve(Task(9, ["6>4"]), Exchangeable(alpha=0), "ridgeless", method="halved")
    cf = G.exception_closed_form("chebyshev")
    _check_all_trials(res, cf, 4, 6, 0, "ridgeless", 0)


# ---------------------------------------------------------------------------------------- several exceptions
def test_fixed_position_ranks_several_exceptions():
    alpha, ridge = R(1, 10), R(1, 10)
    gamma = G.gamma_expr(alpha, ridge, 0)
    for nn, excs in [(8, ["6>4", "8>2"]), (7, ["3>1", "7>5", "6>2"])]:
        ranks = G.fixed_position_ranks(nn, excs)
        res = solve(Task(nn, excs), Exchangeable(alpha=alpha), ridge, method="halved")
        for a, b in res.task.test_trials:
            assert sp.cancel((ranks[a - 1] - ranks[b - 1]).subs(GAMMA, gamma)) == res.f(a, b)
    # one exception: the same ranks as the general closed form
    ranks = G.fixed_position_ranks(8, ["5>2"])
    cf = G.exception_closed_form("chebyshev")
    for kk in range(1, 9):
        piece = cf.rank(G.region_of(kk, 2, 5)).subs({G.n: 8, G.L: 2, G.D: 3, G.k: kk})
        assert sp.cancel(piece.subs(G.x, 1 + GAMMA / 2) - ranks[kk - 1]) == 0


# ------------------------------------------------------------------------------------------------- export
@pytest.mark.parametrize("form", G.FORMS)
def test_to_dict_schema_and_round_trip(form):
    cf = G.exception_closed_form(form)
    d = cf.to_dict()
    json.dumps(d)
    assert list(d) == ["meta", "kind", "form", "variable", "symbols", "definitions", "ranks", "predictions",
                       "training"]
    assert d["meta"]["format"] == "symbolic_ti.general_closed_form" and d["meta"]["format_version"] == 1
    assert d["form"] == form and len(d["ranks"]) == 3 and len(d["predictions"]) == 9

    def objects(node):
        if isinstance(node, dict):
            if "srepr" in node:
                yield node
            else:
                for v in node.values():
                    yield from objects(v)
        elif isinstance(node, list):
            for v in node:
                yield from objects(v)

    objs = list(objects(d))
    # every expression is an exact value (docs/general_n.md#json-format); all have free symbols: no float
    assert objs and all(set(o) == {"srepr", "latex", "text", "float"} and o["float"] is None for o in objs)
    if form == "sinh":  # chebyshevu is not in jsonreport's constructor table
        for entry in d["predictions"]:
            assert expression_from_dict(entry["expression"]) == cf.prediction(*entry["regions"])
        assert expression_from_dict(d["ranks"][0]["condition"]) == cf.condition("before")


@pytest.mark.parametrize("form", G.FORMS)
def test_text_and_latex(form):
    cf = G.exception_closed_form(form)
    text = cf.to_text()
    assert "i before, j after" in text and "Delta_0 =" in text and form in text
    latex = cf.to_latex()
    assert latex.count(r"\begin{align*}") == 2 and r"\Delta_{0}" in latex
    assert str(cf) == text


@pytest.mark.parametrize("form", G.FORMS)
def test_no_exception_report_renders(form):
    rep = G.no_exception_closed_form(form)
    d = json.loads(rep.to_json())
    assert list(d) == ["meta", "kind", "form", "variable", "rank", "prediction"]
    assert d["meta"] == {"format": "symbolic_ti.general_closed_form", "format_version": 1,
                         "symbolic_ti_version": symbolic_ti.__version__}
    assert d["kind"] == "no_exception" and d["form"] == form
    # the prediction read back from JSON equals the PNAS formula of CONVENTIONS.md at n = 8, (2, 7), mu = 1/3
    n, i, j, mu = G.n, G.i, G.j, G.mu
    m = (n + 1) / 2
    pnas = (sp.sinh((j - m) * mu) - sp.sinh((i - m) * mu)) / (sp.sinh((n + 1) * mu / 2) - sp.sinh((n - 1) * mu / 2))
    point = {n: 8, i: 2, j: 7, mu: R(1, 3), G.x: sp.cosh(R(1, 3))}
    back = expression_from_dict(d["prediction"]).subs(point)
    assert abs(sp.N(back - pnas.subs(point), 40)) < 1e-30
    text = rep.to_text()
    assert str(rep) == text and text.startswith(f"No exception, general n, {form} form;") and "r_k = " in text
    assert rep.to_latex().count(r"\begin{align*}") == 1
    assert rep.to_latex(notebook=True) == rep._repr_latex_() and rep._repr_latex_().startswith("$\\displaystyle")


def test_closed_form_is_frozen_and_cached():
    cf = G.exception_closed_form("sinh")
    assert cf is G.exception_closed_form("sinh")
    with pytest.raises(AttributeError):
        cf.form = "chebyshev"  # type: ignore[misc]
    hash(cf)


def test_errors():
    cf = G.exception_closed_form("chebyshev")
    with pytest.raises(ParameterError):
        G.exception_closed_form("cosh")
    with pytest.raises(TaskError):
        cf.evaluate(9, 4, 5, 1, 2, R(1, 10), 1)  # adjacent exception
    with pytest.raises(TaskError):
        cf.evaluate(9, 4, 6, 1, 1, R(1, 10), 1)
    with pytest.raises(ParameterError):
        cf.evaluate(9, 4, 6, 1, 2, R(3, 2), 1)
    with pytest.raises(ParameterError):
        cf.evaluate(9, 4, 6, 1, 2, R(1, 2), -1)
    with pytest.raises(ParameterError):
        cf.evaluate(9, 4, 6, 1, 2, R(1, 2), 1, kappa_d=1)
    with pytest.raises(ParameterError):
        cf.rank("middle")
    with pytest.raises(ParameterError):
        G.exception_closed_form("sinh").evaluate(9, 4, 6, 1, 2, R(1, 2), 1, precision=2)


def test_parametrization_matches_pnas():
    assert sp.simplify(G.cosh_mu(SY.alpha, SY.ridge, 0) - (1 + SY.ridge) / (1 - SY.alpha)) == 0
    assert sp.simplify(G.cosh_mu() - (1 + G.gamma_expr() / 2)) == 0
