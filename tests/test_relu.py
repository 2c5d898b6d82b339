"""relu-nngp and relu-ntk families: exact kernel values against independent computations, solver agreement, CLI.

Independent references:
* Gaussian quadrature (mpmath, 30 digits) of ``2 E[relu(u) relu(v)]`` and ``2 E[1(u>0) 1(v>0)]`` written as
  one-dimensional integrals with the closed-form inner Gaussian expectation (no arc-cosine formula involved);
* a Monte Carlo estimate with a wide random network in numpy (fixed seed, 5 standard errors);
* the numeric solvers (float64 and mpmath), which fill the Gram matrix from ``kernel_numeric`` (the recursion on
  the angle, written apart from the sympy forms) and solve it densely.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from symbolic_ti import Task, derive
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import FAMILIES, get_family
from symbolic_ti.families.relu import (ReluKernelConstant, ReluNNGP, ReluNTK, relu_conjunctivity, relu_explicit,
                                       relu_nngp_kappas, relu_ntk_kappas)
from symbolic_ti.numeric.predictions import numeric_predictions

pi, sqrt3 = sp.pi, sp.sqrt(3)


# ----------------------------------------------------------------------------- independent quadrature
def _phi(x):
    return mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)


def _Phi(x):
    return mpmath.ncdf(x)


def _quad_maps(c):
    """(2 E[relu(u) relu(v)], 2 E[1(u>0) 1(v>0)]) for unit normals with correlation c, by quadrature.

    u = z, v = c z + s w with s = sqrt(1 - c^2); the inner expectation over w is E[relu(a + s w)] =
    a Phi(a/s) + s phi(a/s) and P(a + s w > 0) = Phi(a/s).
    """
    s = mpmath.sqrt(1 - c * c)
    relu = mpmath.quad(lambda z: _phi(z) * z * (c * z * _Phi(c * z / s) + s * _phi(c * z / s)), [0, mpmath.inf])
    step = mpmath.quad(lambda z: _phi(z) * _Phi(c * z / s), [0, mpmath.inf])
    return 2 * relu, 2 * step


def _quad_kappas(depth, kind):
    out = []
    for dot in (mpmath.mpf(1) / 2, mpmath.mpf(0)):
        c, theta = dot, dot
        for _ in range(depth):
            k1, k0 = _quad_maps(c)
            theta = theta * k0 + k1
            c = k1
        out.append(c if kind == "nngp" else theta / (depth + 1))
    return out


@pytest.mark.parametrize("kind", ["nngp", "ntk"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_kappas_match_gaussian_quadrature(kind, depth):
    exact = (relu_nngp_kappas if kind == "nngp" else relu_ntk_kappas)(depth)
    with mpmath.workdps(30):
        ref = _quad_kappas(depth, kind)
        for e, r in zip(exact, ref, strict=True):
            assert abs(mpmath.mpf(str(sp.N(e, 40))) - r) < mpmath.mpf(10) ** -25


def test_depth_one_closed_forms():
    ko, kd = relu_nngp_kappas(1)
    assert sp.simplify(ko - (sqrt3 / (2 * pi) + sp.Rational(1, 3))) == 0 and sp.simplify(kd - 1 / pi) == 0
    ko, kd = relu_ntk_kappas(1)
    assert sp.simplify(ko - (sqrt3 / (4 * pi) + sp.Rational(1, 3))) == 0 and sp.simplify(kd - 1 / (2 * pi)) == 0
    a_nngp = ReluNNGP(depth=1).alpha_value()
    a_ntk = ReluNTK(depth=1).alpha_value()
    assert sp.simplify(a_nngp - (pi + 3 - 3 * sqrt3) / (3 * (pi - 1))) == 0
    assert sp.simplify(a_ntk - (2 * pi + 3 - 3 * sqrt3) / (3 * (2 * pi - 1))) == 0
    assert abs(float(a_nngp) - 0.1471553159745) < 1e-12 and abs(float(a_ntk) - 0.2578641890476) < 1e-12


def test_depth_two_nngp_kappa_d_closed_form():
    # c_1(0) = 1/pi, c_2 = (sqrt(1 - 1/pi^2) + (pi - acos(1/pi))/pi)/pi, written out by hand
    expected = (sp.sqrt(1 - 1 / pi ** 2) + (pi - sp.acos(1 / pi)) / pi) / pi
    assert abs(sp.N(relu_nngp_kappas(2)[1] - expected, 50)) < sp.Float(10) ** -45


@pytest.mark.parametrize("cls", [ReluNNGP, ReluNTK])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_kernel_numeric_float_and_mpmath_match_exact(cls, depth):
    fam = cls(depth=depth)
    ko, kd = fam.kappas()
    trials = {(1, 2): 1, (1, 3): ko, (3, 2): ko, (3, 4): kd}
    for b, expected in trials.items():
        val = fam.kernel_numeric((1, 2), b, {"depth": float(depth)})
        assert abs(val - float(expected)) < 1e-13
        with mpmath.workdps(40):
            val = fam.kernel_numeric((1, 2), b, {"depth": mpmath.mpf(depth)})
            assert abs(val - mpmath.mpf(str(sp.N(expected, 50)))) < mpmath.mpf(10) ** -35
        assert fam.kernel((1, 2), b) == sp.expand(expected)


def test_kappas_ordered_and_alpha_in_unit_interval():
    for depth in (1, 2, 3):
        for fn in (relu_nngp_kappas, relu_ntk_kappas):
            ko, kd = (float(v) for v in fn(depth))
            assert 0 < kd < ko < (1 + kd) / 2 < 1
            alpha = float(relu_conjunctivity(*fn(depth)))
            assert 0 < alpha < 1


# ----------------------------------------------------------------------------- Monte Carlo, depth 1
def _mc_check(samples, exact):
    mean = float(np.mean(samples))
    se = float(np.std(samples, ddof=1)) / math.sqrt(samples.size)
    assert abs(mean - float(exact)) < 5 * se, (mean, float(exact), se)
    assert se < 0.01  # the test has power: 5 SE is a tight tolerance


def test_depth_one_monte_carlo_wide_network():
    n, m = 4, 200_000
    rng = np.random.default_rng(20260522)

    def x(i, j):
        v = np.zeros(2 * n)
        v[i - 1] = v[n + j - 1] = 1 / math.sqrt(2)
        return v

    w = rng.standard_normal((m, 2 * n))  # first layer, N(0, 1) entries (NTK parameterization)
    a = rng.standard_normal(m)  # readout
    ref = x(1, 2)
    nngp_ko, nngp_kd = relu_nngp_kappas(1)
    ntk_ko, ntk_kd = relu_ntk_kappas(1)
    for other, ko_or_kd in ((x(1, 3), 0), (x(3, 4), 1)):
        z1, z2 = w @ ref, w @ other
        # NNGP: E over one hidden unit of 2 relu(w.x) relu(w.x')
        nngp = 2 * np.maximum(z1, 0) * np.maximum(z2, 0)
        _mc_check(nngp, (nngp_ko, nngp_kd)[ko_or_kd])
        # empirical NTK per hidden unit of f = sqrt(2/m) sum_k a_k relu(w_k.x): readout gradient plus first-layer
        # gradient, divided by L + 1 = 2
        ntk = (2 * np.maximum(z1, 0) * np.maximum(z2, 0) + 2 * a ** 2 * (z1 > 0) * (z2 > 0) * (ref @ other)) / 2
        _mc_check(ntk, (ntk_ko, ntk_kd)[ko_or_kd])


# ----------------------------------------------------------------------------- exact solves
def test_registered_and_parameter_errors():
    assert FAMILIES["relu-nngp"] is ReluNNGP and FAMILIES["relu-ntk"] is ReluNTK
    assert get_family("relu-ntk").depth == 1  # default depth
    with pytest.raises(ParameterError, match=r"depth = 0 is outside its domain \[1, oo\)"):
        ReluNTK(depth=0)
    with pytest.raises(ParameterError, match="depth must be an integer"):
        ReluNNGP(depth="3/2")
    with pytest.raises(ParameterError, match="depth cannot be symbolic"):
        ReluNTK(depth="symbolic")
    with pytest.raises(ParameterError, match="depth must be an integer >= 1"):
        relu_ntk_kappas(0)


def test_named_constants_are_the_closed_forms():
    c = ReluKernelConstant(1, 2, sp.Rational(1, 2))
    assert c.explicit() == relu_ntk_kappas(2)[0]
    assert c.rewrite(sp.acos) == relu_ntk_kappas(2)[0]
    assert abs(sp.N(c, 40) - sp.N(relu_ntk_kappas(2)[0], 40)) < sp.Float(10) ** -35
    assert sp.latex(c) == r"\kappa_{o}^{\mathrm{NTK},2}" and str(c) == "kappa_o_ntk2"
    with pytest.raises(ParameterError, match="depth >= 2"):
        ReluKernelConstant(1, 1, 0)


def test_depth_one_base_case_errors_ridgeless():
    # alpha_NTK ~ 0.2579 and alpha_NNGP ~ 0.1472 both exceed the critical 4/3 - sqrt(13)/3 ~ 0.1315 of (3, 6)
    for fam in ("relu-ntk", "relu-nngp"):
        r = derive(9, ["6>4"], family=fam, parameters={"depth": 1}, ridge="ridgeless")
        assert r.errors == ((3, 6), (4, 7), (6, 3), (7, 4))
        assert r.f(6, 4) == 1  # ridgeless: the exception is interpolated
        assert not r.f(3, 6).free_symbols and r.f(3, 6).has(pi)


@pytest.mark.parametrize("fam,depth", [("relu-ntk", 1), ("relu-nngp", 1), ("relu-ntk", 2),
                                       pytest.param("relu-nngp", 3, marks=pytest.mark.slow)])
@pytest.mark.parametrize("ridge", ["1/10", "ridgeless"])
def test_exact_matches_numeric_solvers(fam, depth, ridge):
    task = Task(6, ("5>2",))
    r = derive(6, ["5>2"], family=fam, parameters={"depth": depth}, ridge=ridge)
    family = get_family(fam, depth=depth)
    f64 = numeric_predictions(task, family, ridge=ridge)
    with mpmath.workdps(30):
        mp30 = numeric_predictions(task, family, ridge=ridge, precision=30)
        for t in task.trials:
            exact = r.f(*t)
            assert abs(float(exact) - f64[t]) < 1e-10, t
            assert abs(mpmath.mpf(str(sp.N(exact, 40))) - mp30[t]) < mpmath.mpf(10) ** -22, t


def test_explicit_form_of_a_prediction():
    r = derive(4, family="relu-ntk", parameters={"depth": 2}, ridge="1/10")
    v = r.f(1, 4)
    assert v.atoms(ReluKernelConstant) and not relu_explicit(v).atoms(ReluKernelConstant)
    assert relu_explicit(v).has(sp.acos)
    assert abs(sp.N(relu_explicit(v), 30) - sp.N(v, 30)) < sp.Float(10) ** -25


def test_cli_derive_relu_ntk_depth_two(capsys):
    import json

    from symbolic_ti.cli import main  # in-process (the console command's contract: tests/test_cli_contract.py)

    cmd = ["derive", "-n", "5", "--family", "relu-ntk", "--set", "depth=2", "--ridge", "0.1", "--format", "json"]
    assert main(cmd) == 0
    data = json.loads(capsys.readouterr().out)
    values = {tuple(p["trial"]): p["value"]["float"] for p in data["predictions"]}
    ref = numeric_predictions(Task(5), ReluNTK(depth=2), ridge="1/10")
    for t, v in ref.items():
        assert abs(values[t] - v) < 1e-10
    assert main(cmd[:6] + ["depth=0"]) == 2  # the refusal: one line, exit 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "depth = 0" in err
