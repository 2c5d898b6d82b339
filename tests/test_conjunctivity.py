"""Critical conjunctivity (symbolic_ti.analysis.conjunctivity): checked against independent paths.

* ``symbolic_ti.critical_values(..., method="generic")`` on an exact ``derive`` (the general path: cancel each
  margin as a rational function of alpha, factor it over QQ, isolate every real root, decide directions by exact
  evaluation; it never goes through the effective ridge gamma), on results of the Laplacian and of the dense
  ``"halved"`` Gram solve;
* exact dense Gram solves (``solve(..., method="halved")``) at rational alpha just below and above alpha*;
* sympy's Sturm-sequence root counting (``Poly.count_roots``) of the canceled margin numerators, for the
  end-item theorem of docs/critical_conjunctivity.md;
* the expected first failures listed in docs/lm_hierarchies.md.
"""

from __future__ import annotations

import json
import time

import pytest
import sympy as sp

from symbolic_ti import Exchangeable, ParameterError, Task, TaskError, critical_values, derive, solve
import symbolic_ti.export  # noqa: F401  (registers the report renderers, whatever the import order)
from symbolic_ti.analysis.conjunctivity import (ConjunctivityReport, alpha_from_gamma, critical_conjunctivity,
                                       critical_gammas, gamma_from_alpha, rescaled_ridge)
from symbolic_ti.solvers.laplacian import GAMMA, rank_solution

LM = [(9, "6>4"), (11, "7>5"), (11, "8>4")]
RIDGES = ["ridgeless", "1/10"]


def _test_trials(task):
    return [t for t in task.test_trials if task.ground_truth(t) is not None]


def _same_number(a: sp.Expr, b: sp.Expr) -> bool:
    """Exact equality of two algebraic numbers given as Rational, radical or CRootOf."""
    if isinstance(a, sp.CRootOf) or isinstance(b, sp.CRootOf):
        if not (isinstance(a, sp.CRootOf) and isinstance(b, sp.CRootOf)):
            return False
        return a.poly.monic() == b.poly.monic() and a.index == b.index
    return sp.simplify(a - b) == 0


def _compare(rep: ConjunctivityReport, cv) -> None:
    """Every test trial: same wrong-at-start flag, same crossings (exact values, directions), same order."""
    assert len(rep.trials) == len(cv.trials)
    for tc in cv.trials:
        mine = rep.trial(*tc.trial)
        assert mine.wrong_at_start == tc.error_at_start, tc.trial
        theirs = [c for c in tc.crossings if c.kind == "zero"]
        assert [c.direction for c in mine.crossings] == [c.direction for c in theirs], tc.trial
        for a, b in zip(mine.crossings, theirs, strict=True):
            assert a.alpha_float == pytest.approx(b.value_float, rel=1e-12, abs=1e-15)
            assert _same_number(a.alpha, b.value), (tc.trial, a.alpha, b.value)
    assert [t for t, _ in rep.failure_order] == [t for t, _ in cv.failure_order]
    for (_, a), (_, b) in zip(rep.failure_order, cv.failure_order, strict=True):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15)


# --------------------------------------------------------------------------- agreement with critical_values
@pytest.mark.parametrize("n, exc", LM)
@pytest.mark.parametrize("ridge", RIDGES)
def test_agrees_with_critical_values(n, exc, ridge):
    task = Task(n, [exc])
    rep = critical_conjunctivity(task, ridge)
    cv = critical_values(derive(n, [exc], ridge=ridge), "alpha", (0, 1), trials=_test_trials(task), method="generic")
    assert cv.method == "generic"
    _compare(rep, cv)


@pytest.mark.parametrize("ridge", RIDGES)
def test_agrees_with_critical_values_dense_path(ridge):
    """The same comparison with the dense antisymmetric-halving Gram solve instead of the Laplacian path."""
    task = Task(9, ["6>4"])
    res = derive(9, ["6>4"], ridge=ridge, method="halved")
    assert not res.method.startswith("laplacian")
    cv = critical_values(res, "alpha", (0, 1), trials=_test_trials(task))
    assert cv.method == "generic"
    _compare(critical_conjunctivity(task, ridge), cv)


def test_agrees_with_critical_values_two_exceptions():
    task = Task(8, ["5>3", "8>6"])
    cv = critical_values(derive(8, ["5>3", "8>6"], ridge="1/10"), "alpha", (0, 1), trials=_test_trials(task),
                         method="generic")
    assert cv.method == "generic"
    _compare(critical_conjunctivity(task, "1/10"), cv)


# ------------------------------------------------------------------------- expected values (lm_hierarchies)
def test_lm_first_failures():
    rep = critical_conjunctivity(Task(9, ["6>4"]), "ridgeless")
    assert set(rep.first_failing) == {(3, 6), (4, 7), (6, 3), (7, 4)}
    assert sp.simplify(rep.alpha_first - (4 - sp.sqrt(13)) / 3) == 0
    assert rep.groups[1].alpha == sp.Rational(1, 3)
    assert {t for t in rep.groups[1].trials if t[0] < t[1]} == {(2, 6), (3, 5), (3, 7), (4, 8), (5, 7)}
    rep = critical_conjunctivity(Task(9, ["6>4"]), "1/10")
    assert sp.simplify(rep.alpha_first - (41 - 11 * sp.sqrt(13)) / 30) == 0
    assert rep.groups[1].alpha == sp.Rational(4, 15)
    rep = critical_conjunctivity(Task(11, ["7>5"]), "1/10")
    assert rep.groups[0].at_start and rep.alpha_first == 0
    assert set(rep.first_failing) == {(4, 7), (5, 8), (7, 4), (8, 5)}
    assert rep.groups[1].alpha_float == pytest.approx(0.0887302, abs=1e-7)
    rep = critical_conjunctivity(Task(11, ["8>4"]), "ridgeless")
    a = rep.alpha_first
    assert isinstance(a, sp.CRootOf)
    x = a.poly.gen
    assert a.poly.monic() == sp.Poly(x**4 + 2 * x**3 - 28 * x**2 + 46 * x - 5, x).monic()
    assert rep.alpha_first_float == pytest.approx(0.11695, abs=1e-5)


def test_gamma_roots_n9():
    g = critical_gammas(Task(9, ["6>4"]))
    r = g[(3, 6)].roots
    assert len(r) == 1 and r[0].direction == "to_error"
    assert sp.simplify(r[0].value - (sp.sqrt(13) - 3) / 2) == 0
    assert g[(6, 3)].roots[0].same_root(r[0])
    assert g[(3, 6)].sign_at_zero == 1 and g[(3, 6)].sign_at_infinity == -1
    assert g[(4, 8)].roots[0].value == 1 and g[(4, 8)].roots[0].compare(1) == 0
    assert g[(1, 9)].roots == () and g[(1, 9)].sign_at_zero == 1
    s, t = r[0].interval
    assert s < (sp.sqrt(13) - 3) / 2 < t
    assert r[0].factor.monic() == sp.Poly(GAMMA**2 + 3 * GAMMA - 1, GAMMA).monic()
    # the numerator's sign on gamma > 0 is the margin's (the denominator det(Lap + gamma I) is positive)
    assert g[(3, 6)].sign_after(sp.Rational(1, 10)) == 1 and g[(3, 6)].sign_after(1) == -1


# ------------------------------------------------------------------ independent exact solves around alpha*
def _bracket_alpha(alpha_float: float, gamma_root, ridge) -> tuple[sp.Rational, sp.Rational]:
    """Rationals a_lo < alpha* < a_hi, certified by comparing gamma(a) with gamma* exactly."""
    lo = sp.Rational(int(alpha_float * 10**6), 10**6)
    hi = lo + sp.Rational(1, 10**6)
    assert gamma_root.compare(gamma_from_alpha(lo, ridge)) > 0 > gamma_root.compare(gamma_from_alpha(hi, ridge))
    return lo, hi


@pytest.mark.parametrize("n, exc, ridge", [(9, "6>4", "ridgeless"), (9, "6>4", "1/10"), (11, "8>4", "1/10"),
                                           (11, "7>5", "ridgeless")])
def test_signs_by_exact_dense_solves(n, exc, ridge):
    task = Task(n, [exc])
    rep = critical_conjunctivity(task, ridge)
    g0 = rep.groups[0]
    trial = g0.trials[0]
    gam = critical_gammas(task, [trial])[trial].roots[0]
    lo, hi = _bracket_alpha(g0.alpha_float, gam, ridge)
    ridge_arg = "ridgeless" if ridge == "ridgeless" else sp.Rational(1, 10)
    before = solve(task, Exchangeable(alpha=lo), ridge_arg, method="halved")
    after = solve(task, Exchangeable(alpha=hi), ridge_arg, method="halved")
    for t in g0.trials:
        assert before.margin(*t) > 0 > after.margin(*t), t
    # a trial that never fails stays correct at both points
    safe = next(t.trial for t in rep.trials if not t.ever_wrong)
    assert before.margin(*safe) > 0 and after.margin(*safe) > 0


def test_wrong_at_start_by_exact_solve():
    """n=11, 7>5 at lambda=1/10: (4, 7) is already wrong at alpha = 0 and at alpha = 1/100."""
    task = Task(11, ["7>5"])
    for a in (sp.Integer(0), sp.Rational(1, 100)):
        res = solve(task, Exchangeable(alpha=a), sp.Rational(1, 10), method="halved")
        assert res.margin(4, 7) < 0 and res.margin(7, 4) < 0
    assert critical_conjunctivity(task, "1/10").trial(4, 7).wrong_at_start


# --------------------------------------------------------------------------------------- gamma <-> alpha
@pytest.mark.parametrize("ridge, kappa_d, lam", [("ridgeless", 0, 0), ("1/10", 0, sp.Rational(1, 10)),
                                                 (sp.Rational(2, 3), sp.Rational(1, 3), 1)])
def test_gamma_alpha_mapping(ridge, kappa_d, lam):
    assert rescaled_ridge(ridge, kappa_d) == lam
    for a in (sp.Integer(0), sp.Rational(1, 5), sp.Rational(9, 10)):
        g = gamma_from_alpha(a, ridge, kappa_d)
        assert g == 2 * (a + lam) / (1 - a)
        assert alpha_from_gamma(g, ridge, kappa_d) == a
    assert gamma_from_alpha(1, ridge, kappa_d) == sp.oo and alpha_from_gamma(sp.oo, ridge, kappa_d) == 1
    assert alpha_from_gamma(2 * lam, ridge, kappa_d) == 0  # alpha = 0 is gamma = 2 lambda'
    g = (sp.sqrt(13) - 3) / 2
    assert sp.simplify(alpha_from_gamma(g, ridge, kappa_d) - (g - 2 * lam) / (g + 2)) == 0


def test_gamma_root_alpha_two_ridges():
    """One gamma* serves every ridge: alpha*(lambda) = (gamma* - 2 lambda)/(gamma* + 2), checked exactly."""
    root = critical_gammas(Task(11, ["8>4"]), [(3, 8)])[(3, 8)].roots[0]
    gam = root.value
    assert isinstance(gam, sp.CRootOf)
    for ridge, lam in (("ridgeless", 0), ("1/10", sp.Rational(1, 10))):
        a = root.alpha(ridge)
        assert sp.N(a, 40) == pytest.approx(float(sp.N((gam - 2 * lam) / (gam + 2), 40)), rel=1e-14)
        # a is a root of its CRootOf polynomial, and gamma(a) is a root of the gamma polynomial
        ga = sp.N(2 * (a + lam) / (1 - a), 50)
        assert abs(root.factor.as_expr().subs(GAMMA, ga)) < 1e-30


def test_kappa_d_only_rescales_the_ridge():
    task = Task(9, ["6>4"])
    a = critical_conjunctivity(task, sp.Rational(2, 3), kappa_d=sp.Rational(1, 3))
    b = critical_conjunctivity(task, 1)
    assert a.lambda_prime == b.lambda_prime == 1
    assert [(g.trials, g.alpha) for g in a.groups] == [(g.trials, g.alpha) for g in b.groups]
    cv = critical_values(derive(9, ["6>4"], parameters={"kappa_d": "1/3"}, ridge="2/3"), "alpha", (0, 1),
                         trials=_test_trials(task), method="generic")
    assert cv.method == "generic"
    _compare(a, cv)


# ----------------------------------------------------------------------- general facts for one exception
@pytest.mark.parametrize("n, exc", [(9, "6>4"), (10, "8>3"), (8, "4>1"), (7, "7>5")])
def test_additive_ridgeless_limit_counts_outside_steps(n, exc):
    """gamma = 0 (alpha -> 0+, ridgeless): f(i, j) = number of premise steps between i and j outside the cycle,
    so every test trial with ground truth is correct (docs/critical_conjunctivity.md, "gamma = 0"). Dense solve."""
    task = Task(n, [exc])
    w, l = task.exceptions[0].winner, task.exceptions[0].loser
    res = solve(task, Exchangeable(alpha=0), "ridgeless", method="halved")
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            if (i, j) in task.training_targets:
                continue
            assert res.f(i, j) == sum(1 for k in range(i, j) if not l <= k < w), (i, j)
    g = critical_gammas(task)
    assert all(tg.sign_at_zero > 0 for tg in g.values())


def test_which_trials_can_fail():
    """One exception W>L: a test trial (i, j), i < j, that is wrong for some gamma > 0 has i < W, j > L,
    i != W, j != L (never within a section, never (i, L) with i < L or (W, j) with j > W)."""
    for n in range(5, 13):
        for d in range(2, 6):
            for l in range(1, n - d + 1):
                w = l + d
                for (i, j), tg in critical_gammas(Task(n, [(w, l)])).items():
                    if i < j and (tg.roots or tg.sign_at_zero < 0):
                        assert i < w and j > l and i != w and j != l, (n, w, l, i, j)
    # independent spot check at a large conjunctivity and a ridge: within-section margins stay positive
    task = Task(10, ["6>4"])
    res = solve(task, Exchangeable(alpha=sp.Rational(99, 100)), sp.Rational(1, 10), method="halved")
    for t in ((1, 3), (2, 4), (7, 9), (7, 10), (8, 10), (1, 4), (6, 8), (6, 10)):
        assert res.margin(*t) > 0, t


# ----------------------------------------------------------------------------- end items (the theorem)
def _end_cases(n_max=15, spans=(2, 3, 4)):
    for d in spans:
        for n in range(d + 1, n_max + 1):
            yield n, d, (1 + d, 1)
            if n != d + 1:
                yield n, d, (n, n - d)


def test_end_item_theorem():
    """Exception touching item 1 or item n (docs/critical_conjunctivity.md#end-items): a test trial is ever
    wrong exactly when the span is >= 3 and at least 3 items lie outside the cycle; then exactly the trials
    predicted fail, only for large gamma, and never the within-section ones. Checked with sympy's Sturm root
    counting on the canceled numerators (independent of the Descartes/bisection code) for n <= 15."""
    for n, d, (w, l) in _end_cases():
        task = Task(n, [(w, l)])
        ranks = rank_solution(task)
        outside = n - d - 1
        expect_errors = d >= 3 and outside >= 3
        wrong = set()
        for i, j in _test_trials(task):
            if i > j:
                continue
            num, den = ranks.rank_difference(i, j)
            # the pair's terms in ZZ[gamma] as sympy Polys (not through expressions: 7 of the test's 11 s)
            p, q = (sp.Poly.from_dict(dict(x), GAMMA, domain=sp.ZZ) for x in (num, den))
            assert not p.is_zero and q.count_roots(0, None) == 0  # q > 0 on [0, oo): the sign is p's
            coeffs = [c for c in p.all_coeffs() if c != 0]
            if all(c > 0 for c in coeffs) or all(c < 0 for c in coeffs):
                positive = 0  # no sign variation: no positive root (Descartes)
            else:  # Sturm sequences: distinct real roots in [0, oo), minus a root at 0
                positive = p.count_roots(0, None) - (1 if p.eval(0) == 0 else 0)
            near_zero = p.terms()[-1][1]  # lowest-order coefficient: the sign as gamma -> 0+
            if positive or near_zero < 0:
                wrong.add((i, j))
                assert task.category((i, j)) == "one_in_cycle"
                # correct near gamma = 0, one sign change, wrong for every larger gamma
                assert positive == 1 and near_zero > 0 and p.LC() < 0
        assert bool(wrong) == expect_errors, (n, w, l, wrong)
        if expect_errors:  # the trial pairing the cycle item two steps from the free end with the next item
            probe = (l + 1, w + 1) if l == 1 else (l - 1, w - 1)
            assert (min(probe), max(probe)) in wrong
        g = critical_gammas(task)
        assert {t for t, tg in g.items() if t[0] < t[1] and (tg.roots or tg.sign_at_zero < 0)} == wrong


def test_end_item_span_two_never_fails_at_any_ridge():
    for n in range(4, 16):
        for exc in ("3>1", f"{n}>{n - 2}"):
            for ridge in ("ridgeless", "1/10", 3):
                rep = critical_conjunctivity(Task(n, [exc]), ridge)
                assert rep.groups == () and rep.alpha_first is None


# ------------------------------------------------------------------------------------- window crossings
def test_two_crossings_window():
    """n=24, 11>8: (10, 13) fails and recovers (to_error then to_correct), as the exact solve confirms."""
    task = Task(24, ["11>8"])
    tg = critical_gammas(task, [(10, 13)])[(10, 13)]
    assert [r.direction for r in tg.roots] == ["to_error", "to_correct"]
    g1, g2 = tg.roots
    assert tg.sign_after(0) == 1 and tg.sign_after(sp.Rational(1, 4)) == -1 and tg.sign_at_infinity == 1
    assert g1.compare(sp.Rational(1, 4)) < 0 < g2.compare(sp.Rational(1, 4))
    rep = critical_conjunctivity(task, "ridgeless", trials=[(10, 13)])
    t = rep.trial(10, 13)
    assert [c.direction for c in t.crossings] == ["to_error", "to_correct"] and not t.wrong_at_end
    # independent: exact Laplacian-free check with the dense solve at gamma = 1/4 (alpha = 1/9) is too slow
    # for n = 24; the numeric solve in high precision confirms the sign inside the window instead
    from symbolic_ti import numeric_predictions
    for a, sign in ((sp.Rational(1, 20), 1), (sp.Rational(1, 9), -1), (sp.Rational(1, 4), 1)):
        f = numeric_predictions(task, Exchangeable(alpha=a), ridge="ridgeless", precision=40, trials=[(10, 13)])
        assert (f[(10, 13)] > 0) == (sign > 0), a


# ------------------------------------------------------------------------------------- report and errors
def test_report_outputs():
    rep = critical_conjunctivity(Task(9, ["6>4"]), "1/10")
    text = rep.to_text()
    assert "First failing: (3,6), (4,7) and reverses" in text and "4/15" in text
    d = json.loads(rep.to_json())
    assert d["alpha_first"] == str(rep.alpha_first) and d["first_failing"][0] == [3, 6]
    assert d["groups"][1]["alpha"] == "4/15" and d["ridge"] == "1/10"
    # every exact value also as an expression object (docs/json_schema.md); values of docs/lm_hierarchies.md
    from symbolic_ti.export.jsonreport import expression_from_dict

    assert d["meta"]["format"] == "symbolic_ti.conjunctivity"
    assert sp.simplify(expression_from_dict(d["alpha_first_exact"]) - (41 - 11 * sp.sqrt(13)) / 30) == 0
    g1 = d["groups"][1]
    assert expression_from_dict(g1["alpha_exact"]) == sp.Rational(4, 15) and expression_from_dict(g1["gamma_exact"]) == 1
    g0 = d["groups"][0]
    s, t = (expression_from_dict(x) for x in g0["gamma_interval_exact"])
    assert s < (sp.sqrt(13) - 3) / 2 < t and [str(s), str(t)] == g0["gamma_interval"]
    assert expression_from_dict(d["ridge_exact"]) == sp.Rational(1, 10)
    assert expression_from_dict(d["lambda_prime_exact"]) == sp.Rational(1, 10) and d["kappa_d_exact"]["text"] == "0"
    slim = rep.to_dict(exact=False)
    assert "alpha_exact" not in slim["groups"][0] and slim["groups"][0]["gamma_interval_exact"] is not None
    assert critical_conjunctivity(Task(9, ["6>4"]), "ridgeless").to_dict()["ridge_exact"] is None
    tex = rep.to_latex()
    assert r"\begin{tabular}" in tex and r"\frac{4}{15}" in tex
    assert rep._repr_latex_().startswith("$$")
    assert rep.trial(3, 6).first_error.direction == "to_error"
    assert rep.wrong_at_start == ()
    with pytest.raises(ParameterError, match="not in this report"):
        rep.trial(4, 5)


def test_errors():
    task = Task(9, ["6>4"])
    with pytest.raises(TaskError, match="training"):
        critical_gammas(task, [(4, 5)])
    with pytest.raises(TaskError, match="no ground truth"):
        critical_conjunctivity(Task(9, ["7>4"]), trials=[(4, 6)])
    with pytest.raises(ParameterError):
        critical_conjunctivity(task, -1)
    with pytest.raises(ParameterError):
        critical_conjunctivity(task, "ridgeless", kappa_d=1)
    with pytest.raises(ParameterError):
        critical_gammas("9 items")
    # a ridge of 0 (= ridgeless) is accepted; a single trial is refused with the list it should be, as derive
    # refuses a single exception (one helper: symbolic_ti.arguments.single_pair_error)
    assert critical_conjunctivity(task, 0, trials=[(3, 6)]).ridge is None
    with pytest.raises(TaskError, match=r"^trials must be a list such as \[\(3, 6\)\], got the single trial \(3, 6\)$"):
        critical_conjunctivity(task, 0, trials=(3, 6))


# ------------------------------------------------------------------------------------------- performance
@pytest.mark.slow
def test_performance_n61():
    start = time.perf_counter()
    task = Task(61, ["32>30"])
    g = critical_gammas(task)
    reps = [critical_conjunctivity(task, r, gammas=g) for r in RIDGES]
    _ = [r.alpha_first for r in reps]
    assert time.perf_counter() - start < 10
    assert set(reps[0].first_failing) == {(29, 32), (30, 33), (32, 29), (33, 30)}


def test_gammas_of_another_task_are_refused():
    from symbolic_ti.analysis.conjunctivity import critical_gammas, critical_conjunctivity
    from symbolic_ti import ParameterError, Task
    with pytest.raises(ParameterError, match="gammas must come from critical_gammas"):
        critical_conjunctivity(Task(9, ["6>4"]), gammas=critical_gammas(Task(11, ["6>4"])))
    with pytest.raises(ParameterError, match="not in this report"):
        critical_conjunctivity(Task(9, ["6>4"])).trial(1, 20)
