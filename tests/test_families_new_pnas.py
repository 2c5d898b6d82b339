"""pnas-hidden and pnas-ntk: exact kappas against the PNAS recursion written here from its definition.

Independent references:
* the recursion of Lippl et al. (PNAS 2024), ``R/coeffs.R`` (``get_kappas``, ``get_kappas_ntk``), transcribed
  below in mpmath at 40 digits, list-based as in R (index j = 1..l+1);
* the ReLU families (slope = 1, p = 0), whose kappas come from the arc-cosine recursion of relu_kappas.py;
* the activation ``phi(u) = a u + b |u|`` with ``slope = 2 b^2 / (a^2 + b^2)``: its normalized Gaussian
  expectation by mpmath quadrature (no arc-cosine formula);
* the float64 numeric solver (dense Gram solve of ``kernel_numeric``).
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from symbolic_ti import Task, solve
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import FAMILIES, get_family
from symbolic_ti.families.kernel_values import NetworkKernelValue
from symbolic_ti.families.pnas import PnasHidden, PnasNTK, pnas_conjunctivity, pnas_kappas
from symbolic_ti.families.relu import ReluNNGP, ReluNTK, relu_nngp_kappas, relu_ntk_kappas
from symbolic_ti.numeric.predictions import numeric_predictions

R = sp.Rational


def _r_get_kappas(rho, l, lambd):
    """R/coeffs.R get_kappas, transcribed (lists indexed from 1 in R, from 0 here)."""
    k = lambda x: x + rho * (mpmath.sqrt(1 - x ** 2) - mpmath.acos(x) * x) / mpmath.pi  # noqa: E731
    ko, kd = mpmath.mpf(1) / 2, mpmath.mpf(0)
    o_lst, d_lst = [ko], [kd]
    for _j in range(2, l + 2):
        kd = k(kd)
        ko = (1 - lambd) * k(ko) + lambd / 2 * (1 + kd)
        o_lst.append(ko)
        d_lst.append(kd)
    return o_lst, d_lst


def _r_get_kappas_ntk(rho, l, lambd):
    """R/coeffs.R get_kappas_ntk, transcribed."""
    kp = lambda x: 1 - rho / mpmath.pi * mpmath.acos(x)  # noqa: E731
    o_h, d_h = _r_get_kappas(rho, l, lambd)
    ko, kd = mpmath.mpf(1) / 2, mpmath.mpf(0)
    for j in range(2, l + 2):  # R's j; Python index j - 1
        ko = (o_h[j - 1] + (j - 1) * ko * kp(o_h[j - 2])) / j
        kd = (d_h[j - 1] + (j - 1) * kd * kp(d_h[j - 2])) / j
        ko = (1 - lambd) * ko + lambd / 2 * (1 + kd)
    return ko, kd


@pytest.mark.parametrize("slope,p,depth", [(R(1, 2), 0, 1), (R(3, 2), R(1, 4), 1), (2, R(1, 2), 2),
                                           (R(1, 3), 1, 2), (R(3, 2), R(1, 4), 2),
                                           pytest.param(R(1, 2), R(1, 3), 3, marks=pytest.mark.slow)])
def test_kappas_match_the_r_recursion(slope, p, depth):
    with mpmath.workdps(40):
        rho = mpmath.mpf(R(slope).p) / R(slope).q
        lam = mpmath.mpf(R(p).p) / R(p).q
        o_h, d_h = _r_get_kappas(rho, depth, lam)
        ntk = _r_get_kappas_ntk(rho, depth, lam)
        for kind, (ro, rd) in (("hidden", (o_h[-1], d_h[-1])), ("ntk", ntk)):
            ko, kd = pnas_kappas(slope, depth, p, kind)
            assert abs(mpmath.mpf(str(sp.N(ko, 35))) - ro) < mpmath.mpf(10) ** -30
            assert abs(mpmath.mpf(str(sp.N(kd, 35))) - rd) < mpmath.mpf(10) ** -30
            a = pnas_conjunctivity(slope, depth, p, kind)
            assert abs(mpmath.mpf(str(sp.N(a, 35))) - (1 + rd - 2 * ro) / (1 - rd)) < mpmath.mpf(10) ** -28


@pytest.mark.parametrize("depth", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_slope_one_is_relu(depth):
    for kind, relu in (("hidden", relu_nngp_kappas), ("ntk", relu_ntk_kappas)):
        ours, theirs = pnas_kappas(1, depth, 0, kind), relu(depth)
        for a, b in zip(ours, theirs, strict=True):
            assert abs(sp.N(a - b, 40)) < 1e-35
    if depth == 1:  # identical closed forms
        assert pnas_kappas(1, 1, 0, "hidden") == relu_nngp_kappas(1)
        assert pnas_kappas(1, 1, 0, "ntk") == relu_ntk_kappas(1)


def test_slope_one_predictions_equal_relu():
    task = Task(9, ["6>4"])
    for ours, theirs in ((PnasHidden(slope=1, depth=2), ReluNNGP(depth=2)), (PnasNTK(slope=1), ReluNTK())):
        a, b = solve(task, ours, R(1, 10)), solve(task, theirs, R(1, 10))
        for t in [(6, 4), (1, 9), (3, 6)]:
            assert sp.simplify(a.f(*t) - b.f(*t)) == 0


def test_linear_and_additive_limits():
    # slope = 0 is a linear network: the kernel stays the input kernel, alpha = 0 at every depth and p
    for depth in (1, 2, 4):
        for p in (0, R(1, 3)):
            assert pnas_conjunctivity(0, depth, p, "hidden") == 0
            assert pnas_kappas(0, depth, p, "ntk") == (R(1, 2), 0)
    # p = 1: all units additive, kappa_o = (1 + kappa_d)/2, alpha = 0
    assert sp.simplify(pnas_conjunctivity(R(3, 2), 2, 1, "hidden")) == 0


def test_symbolic_slope_depth_one():
    s = sp.Symbol("slope", nonnegative=True)
    ko, kd = pnas_kappas(s, 1)
    # hand derivation: k(0) = s/pi; k(1/2) = 1/2 + s (sqrt(3)/2 - pi/6)/pi
    assert sp.simplify(kd - s / sp.pi) == 0
    assert sp.simplify(ko - (R(1, 2) + s * (sp.sqrt(3) / 2 - sp.pi / 6) / sp.pi)) == 0
    alpha = pnas_conjunctivity(s, 1)
    for v in (R(1, 2), 1, R(7, 4)):
        assert sp.simplify(alpha.subs(s, v) - pnas_conjunctivity(v, 1)) == 0


@pytest.mark.parametrize("slope", [R(1, 2), R(3, 2), 2])
def test_phi_au_plus_b_abs_u_by_quadrature(slope):
    """slope = 2 b^2/(a^2 + b^2): the map k is E[phi(u) phi(v)] / E[phi^2] for unit normals, correlation c."""
    b2 = sp.Rational(slope) / 2  # a^2 + b^2 = 1
    a, b = mpmath.sqrt(1 - mpmath.mpf(b2.p) / b2.q), mpmath.sqrt(mpmath.mpf(b2.p) / b2.q)
    g = lambda z: mpmath.exp(-z * z / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
    with mpmath.workdps(30):
        for c, exact in ((mpmath.mpf(1) / 2, pnas_kappas(slope, 1)[0]), (mpmath.mpf(0), pnas_kappas(slope, 1)[1])):
            s = mpmath.sqrt(1 - c * c)
            def integrand(u, c=c, s=s):
                m = c * u  # E[|m + s w|] over w ~ N(0, 1), in closed form; v = c u + s w
                abs_mean = m * (2 * mpmath.ncdf(m / s) - 1) + 2 * s * g(m / s)
                return g(u) * (a * u + b * abs(u)) * (a * m + b * abs_mean)

            val = mpmath.quad(integrand, [-mpmath.inf, 0, mpmath.inf])
            assert abs(val - mpmath.mpf(str(sp.N(exact, 35)))) < mpmath.mpf(10) ** -15


def test_solver_against_numeric():
    task = Task(9, ["6>4"])
    for fam in (PnasHidden(slope=R(1, 2), p=R(1, 4), depth=2), PnasNTK(slope=R(3, 2), depth=2)):
        exact = solve(task, fam, R(1, 10))
        assert fam.exchangeable_form()[2].atoms(NetworkKernelValue)
        num = numeric_predictions(task, fam, ridge=0.1)
        for t in [(6, 4), (3, 6)]:
            assert abs(float(exact.f(*t)) - num[t]) < 1e-10


def test_registry_and_bad_values():
    assert FAMILIES["pnas-hidden"] is PnasHidden and FAMILIES["pnas-ntk"] is PnasNTK
    with pytest.raises(ParameterError, match="slope"):
        get_family("pnas-hidden", slope=3)
    with pytest.raises(ParameterError, match="p = 2"):
        get_family("pnas-ntk", slope=1, p=2)
    with pytest.raises(ParameterError, match="depth"):
        get_family("pnas-ntk", slope=1, depth="symbolic")
    with pytest.raises(ParameterError, match="depth"):
        get_family("pnas-ntk", slope=1, depth=0)


def test_named_constants_decide_signs():
    """Sign tests on forms in the named constants (the errors list) agree with the float64 solve."""
    task = Task(9, ["6>4"])
    fam = PnasNTK(slope=R(3, 2), depth=2)
    res = solve(task, fam, "ridgeless")
    num = numeric_predictions(task, fam, ridge="ridgeless")
    assert (res.margin(3, 6) < 0) is sp.true and abs(float(res.f(3, 6)) - num[(3, 6)]) < 1e-9
    assert (3, 6) in res.errors
