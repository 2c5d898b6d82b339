"""The exact solve over QQ (symbolic_ti/solvers/rational.py) against independent computations.

* the reference values of CONVENTIONS.md (tests/reference_cases.py), solved through the default dispatch;
* the existing symbolic paths at the same numbers: the Laplacian rank solve in gamma followed by substitution
  (``laplacian_predictor``) and sympy's fraction-free ``DomainMatrix`` solve (``predict_ridge(backend="sympy")``,
  ``predict_ridgeless_pinv``), on hypothesis-drawn tasks with several exceptions, for every family whose numeric
  parameters give rational Gram entries (exchangeable, geometric, similarity with a rational matrix);
* a kernel ridge solve in ``fractions.Fraction`` written here from the conventions (kernel formula, training
  set), a Gauss-Jordan elimination of the full Gram system (n = 21; n = 201 under the slow marker), and at
  n = 201 the exact certificate ``c = (y - f_train) / lambda``, ``K c = f_train`` in Fractions (the unique
  solution of ``(K + lambda I) c = y``), with ``k(t)^T c`` on sampled test trials.
"""

from fractions import Fraction as F
import random

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from reference_cases import REFERENCE_CASES, solve_linear, training_set
from symbolic_ti import Exchangeable, Task, get_family, solve
from symbolic_ti.gram import build_system
from symbolic_ti.solvers import rational
from symbolic_ti.solvers.dense import predict_ridge, predict_ridgeless_pinv
from symbolic_ti.solvers.laplacian import laplacian_predictor
from strategies import examples, family_parameter, parameter_values

SETTINGS = settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _q(x: F) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _ridge(r):
    return None if r == "ridgeless" or r == 0 else sp.Rational(r)


@pytest.mark.parametrize("name,n,exceptions,params,ridge,expected", REFERENCE_CASES,
                         ids=[c[0] for c in REFERENCE_CASES])
def test_reference_values_through_qq(name, n, exceptions, params, ridge, expected):
    task = Task(n, exceptions)
    fam = Exchangeable(**params)
    assert rational.laplacian_rational_predictor(task, fam, _ridge(ridge)) is not None  # the QQ path applies
    res = solve(task, fam, ridge)
    for (i, j), v in expected.items():
        assert res.f(i, j) == _q(v), (name, i, j)
    dense = solve(task, fam, ridge, method="full")  # the dense QQ solve, other reduction
    for (i, j), v in expected.items():
        assert dense.f(i, j) == _q(v), (name, i, j)


@st.composite
def tasks(draw, n_min=3, n_max=11, max_exceptions=3):
    n = draw(st.integers(n_min, n_max))
    valid = [f"{w}>{lo}" for lo in range(1, n + 1) for w in range(lo + 2, n + 1)]
    excs = draw(st.lists(st.sampled_from(valid), max_size=max_exceptions, unique=True))
    return Task(n, excs)


# alpha from the exchangeable family's table: [0, 1], alpha = 1 included (gamma infinite)
alphas = parameter_values(family_parameter(Exchangeable, "alpha"), max_denominator=20)
kappa_ds = st.sampled_from([F(0), F(1, 3), F(1, 2)])
ridges = st.one_of(st.just("ridgeless"), st.fractions(F(1, 20), 3, max_denominator=20))


@SETTINGS
@given(task=tasks(), alpha=alphas, kd=kappa_ds, ridge=ridges)
def test_laplacian_qq_equals_symbolic_rank_path(task, alpha, kd, ridge):
    kappa_o = (1 + kd - alpha * (1 - kd)) / 2  # alpha = (1 + kappa_d - 2 kappa_o) / (1 - kappa_d)
    fam = Exchangeable(kappa_o=_q(kappa_o), kappa_d=_q(kd))
    lam = _ridge(ridge)
    fast = rational.laplacian_rational_predictor(task, fam, lam)
    assert fast is not None
    symbolic, _, _ = laplacian_predictor(task, fam, lam)  # rank solve in gamma, then substitution
    for i in range(1, task.n + 1):
        for j in range(i + 1, task.n + 1):
            assert fast(i, j) == symbolic(i, j), (i, j)


def _dense_families(n):
    sim = [[sp.Rational(1, 1 + abs(a - b)) for b in range(n)] for a in range(n)]
    return [get_family("geometric", alpha="1/3", rho="1/2"),
            get_family("geometric", alpha="2/5", rho="1/3", beta="1/5", delta="1/7"),
            get_family("similarity", matrix=sim, alpha="1/4"),
            Exchangeable(alpha="1/10")]


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task=tasks(n_max=7, max_exceptions=2), ridge=ridges, halved=st.booleans(), which=st.integers(0, 3))
def test_dense_qq_equals_sympy_domainmatrix(task, ridge, halved, which):
    fam = _dense_families(task.n)[which]
    lam = _ridge(ridge)
    system = build_system(task, fam, lam, halved)
    fast = rational.dense_rational_predictions(system)
    assert fast is not None
    slow = predict_ridge(system, backend="sympy") if lam is not None else predict_ridgeless_pinv(system)
    assert fast == slow


def test_dense_dispatch_uses_qq_values():
    task = Task(7, ["5>2", "7>4"])
    fam = get_family("geometric", alpha="1/3", rho="1/2")
    res = solve(task, fam, "1/10", method="halved")
    system = build_system(task, fam, sp.Rational(1, 10), True)
    expected = dict(zip(system.queries, predict_ridge(system, backend="sympy"), strict=True))
    assert dict(res.predictions) == expected


def test_algebraic_values_fall_back():
    fam = Exchangeable(alpha=sp.sqrt(2) / 4)
    assert rational.rational_parameters(fam, sp.Rational(1, 10)) is None


# ------------------------------------------------------------------ independent Fraction solve
def _kernel(a, b, alpha, kd):
    """CONVENTIONS.md: K = kd + (1 - kd) [(1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]]."""
    (i, j), (k, l) = a, b
    return kd + (1 - kd) * ((1 - alpha) / 2 * ((i == k) + (j == l)) + alpha * ((i == k) and (j == l)))


def _fraction_solve(n, exceptions, alpha, lam, kd=F(0)):
    train = training_set(n, exceptions)
    rows = [t for t, _ in train]
    a = [[_kernel(p, q, alpha, kd) + (lam if p == q else 0) for q in rows] for p in rows]
    c = solve_linear(a, [F(y) for _, y in train])
    return lambda t: sum(_kernel(t, q, alpha, kd) * cq for q, cq in zip(rows, c, strict=True))


def test_qq_equals_fraction_solve_n21():
    n, excs, alpha, lam = 21, [(12, 9), (20, 3)], F(1, 10), F(1, 7)
    f = _fraction_solve(n, excs, alpha, lam, kd=F(1, 4))
    res = solve(Task(n, [f"{w}>{lo}" for w, lo in excs]), Exchangeable(alpha=_q(alpha), kappa_d="1/4"), _q(lam))
    for t in [(1, n), (12, 9), (9, 12), (8, 13), (2, 3), (20, 3), (5, 17), (10, 11)]:
        assert res.f(*t) == _q(f(t)), t


def test_qq_fraction_certificate_n201():
    """At n = 201: the QQ training predictions satisfy the ridge equations exactly (Fractions), so they are
    the solution; sampled test trials equal ``k(t)^T c``."""
    n, excs, alpha, lam = 201, [(103, 100), (150, 40)], F(1, 10), F(1, 10)
    res = solve(Task(n, [f"{w}>{lo}" for w, lo in excs]), Exchangeable(alpha=_q(alpha)), _q(lam))
    train = training_set(n, excs)
    rows = [t for t, _ in train]
    ftrain = [F(int(sp.numer(res.f(*t))), int(sp.denom(res.f(*t)))) for t in rows]
    c = [(y - fv) / lam for (_, y), fv in zip(train, ftrain, strict=True)]
    # K is sparse: a trial shares an item with few others; sum only over the nonzero kernel entries
    by_item: dict[tuple[int, int], list[int]] = {}
    for q, (i, j) in enumerate(rows):
        by_item.setdefault((0, i), []).append(q)
        by_item.setdefault((1, j), []).append(q)

    def kc(t):
        qs = set(by_item.get((0, t[0]), [])) | set(by_item.get((1, t[1]), []))
        return sum((_kernel(t, rows[q], alpha, F(0)) * c[q] for q in qs), F(0))

    for p, fv in zip(rows, ftrain, strict=True):
        assert kc(p) == fv, p
    rng = random.Random(18)
    sample = [(1, n), (100, 103), (99, 104), (40, 150)] + [tuple(rng.sample(range(1, n + 1), 2)) for _ in range(12)]
    for t in sample:
        assert res.f(*t) == _q(kc(t)), t


@pytest.mark.slow
def test_qq_equals_fraction_gauss_jordan_n201():
    n, excs, alpha, lam = 201, [(103, 100)], F(1, 10), F(1, 10)
    f = _fraction_solve(n, excs, alpha, lam)
    res = solve(Task(n, ["103>100"]), Exchangeable(alpha=_q(alpha)), _q(lam))
    rng = random.Random(201)
    for t in [(1, n), (103, 100), (99, 104)] + [tuple(rng.sample(range(1, n + 1), 2)) for _ in range(5)]:
        assert res.f(*t) == _q(f(t)), t


# ------------------------------------------------------------------ the rank solve in fmpz_poly (gamma symbolic)
def _sympy_rank_solve(task):
    """``(Lap + gamma I) r = b`` by sympy's fraction-free ``DomainMatrix.solve_den`` over ZZ[g], the Laplacian
    written from its definition (path plus one edge per exception; b = wins minus losses of the targets)."""
    n, g = task.n, sp.Symbol("g")
    edges = [(i, i + 1) for i in range(1, n)] + [(e.winner, e.loser) for e in task.exceptions]
    lap = sp.zeros(n, n)
    b = sp.zeros(n, 1)
    for w, lo in edges:
        lap[w - 1, w - 1] += 1
        lap[lo - 1, lo - 1] += 1
        lap[w - 1, lo - 1] -= 1
        lap[lo - 1, w - 1] -= 1
        b[w - 1] += 1
        b[lo - 1] -= 1
    from sympy.polys.matrices import DomainMatrix

    num, den = DomainMatrix.from_Matrix(lap + g * sp.eye(n)).convert_to(sp.ZZ[g]).solve_den(
        DomainMatrix.from_Matrix(b).convert_to(sp.ZZ[g]))
    den = den.as_expr() if hasattr(den, "as_expr") else sp.ZZ[g].to_sympy(den)
    return g, [sp.cancel(v / den) for v in num.to_Matrix()]


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task=tasks(n_max=8, max_exceptions=3))
def test_rank_solution_in_flint_equals_sympy_solve(task):
    from symbolic_ti.solvers.laplacian import rank_solution

    g, ranks = _sympy_rank_solve(task)
    rs = rank_solution(task)
    assert rs.denominator.LC > 0
    for k in range(1, task.n + 1):
        mine = rs.numerators[k - 1].as_expr(g) / rs.denominator.as_expr(g)
        assert sp.cancel(mine - ranks[k - 1]) == 0, k
    for i in range(1, task.n + 1):
        for j in range(i + 1, task.n + 1):
            num, den = rs.rank_difference(i, j)
            assert sp.cancel(num.as_expr(g) / den.as_expr(g) - (ranks[i - 1] - ranks[j - 1])) == 0


# ------------------------------------------------------------------ general-n closed forms at large n
def _general_n_check(n, alpha, ridge, trials_of):
    from symbolic_ti.analysis.general import evaluate_no_exception, exception_closed_form

    lo, w = n // 2 - 1, n // 2 + 2
    plain = solve(Task(n), Exchangeable(alpha=alpha), ridge)
    one = solve(Task(n, [f"{w}>{lo}"]), Exchangeable(alpha=alpha), ridge)
    form = exception_closed_form("chebyshev")
    for i, j in trials_of(n, lo, w):
        assert evaluate_no_exception(n, i, j, alpha, ridge) == plain.f(i, j), (n, i, j)
        assert form.evaluate(n, lo, w, i, j, alpha, ridge) == one.f(i, j), (n, i, j)


def _some_trials(n, lo, w):
    return [(1, n), (n, 1), (lo, w), (w, lo), (lo - 1, w + 1), (2, 3), (lo + 1, w - 1), (3, n - 2)]


@pytest.mark.parametrize("alpha,ridge", [(sp.Rational(1, 10), sp.Rational(1, 10)), (sp.Rational(1, 3), "ridgeless"),
                                         (sp.Integer(0), "ridgeless")])
def test_general_n_closed_forms_equal_qq_solve_n61(alpha, ridge):
    _general_n_check(61, alpha, ridge, _some_trials)


@pytest.mark.slow
def test_general_n_closed_forms_equal_qq_solve_n1001():
    _general_n_check(1001, sp.Rational(1, 10), sp.Rational(1, 10), _some_trials)
