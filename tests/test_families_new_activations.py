"""activation-nngp / activation-ntk: erf, sign, step closed forms against independent computations.

Independent references:
* mpmath quadrature at 30 digits of one-dimensional integrals, the inner Gaussian expectation taken in closed form
  (``E_w[erf(m + s w)] = erf(m / sqrt(1 + 2 s^2))``, ``E_w[sign(m + s w)] = erf(m / (s sqrt 2))``,
  ``E_w[1(m + s w > 0)] = Phi(m / s)``, ``E_w[erf'(m + s w)] = 2 exp(-m^2/(1 + 2 s^2)) / sqrt(pi (1 + 2 s^2))``):
  no arcsine formula involved;
* Monte Carlo over random one-hidden-layer networks (numpy, fixed seed): at depth 1 the expectation over the
  weights of ``f(x) f(x')`` and of the empirical NTK equals the infinite-width kernels at any width (the hidden
  units are i.i.d.), so the estimate is unbiased; asserted within 5 standard errors;
* the closed-form family against the quadrature family given the same activation as an expression.
"""

from __future__ import annotations

import warnings

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy.special import erf as np_erf

from symbolic_ti import Task, solve
from symbolic_ti.errors import ParameterError
from symbolic_ti.families import FAMILIES, ActivationNNGP, ActivationNTK
from symbolic_ti.families.activations import activation_kappas
from symbolic_ti.numeric.predictions import numeric_predictions

R = sp.Rational
g = lambda z: mpmath.exp(-z * z / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731


def _inner(act, m, s):
    if act == "erf":
        return mpmath.erf(m / mpmath.sqrt(1 + 2 * s * s))
    if act == "sign":
        return mpmath.erf(m / (s * mpmath.sqrt(2))) if s > 0 else mpmath.sign(m)
    return mpmath.ncdf(m / s) if s > 0 else (1 if m > 0 else 0)


def _phi(act, u):
    return mpmath.erf(u) if act == "erf" else (mpmath.sign(u) if act == "sign" else (1 if u > 0 else 0))


def _expect(act, q, c, deriv=False):
    """E[phi(u) phi(v)] (or phi') by 1-D quadrature, u = sqrt(q) z, v = (c/q) u + s w."""
    a, s = c / q, mpmath.sqrt(q - c * c / q)
    if deriv:
        if act != "erf":
            return mpmath.mpf(0)
        d = lambda x: 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-x * x)  # noqa: E731
        k = 1 + 2 * s * s
        inner = lambda m: 2 * mpmath.exp(-m * m / k) / mpmath.sqrt(mpmath.pi * k)  # noqa: E731
        return mpmath.quad(lambda z: g(z) * d(mpmath.sqrt(q) * z) * inner(a * mpmath.sqrt(q) * z),
                           [-mpmath.inf, 0, mpmath.inf])
    return mpmath.quad(lambda z: g(z) * _phi(act, mpmath.sqrt(q) * z) * _inner(act, a * mpmath.sqrt(q) * z, s),
                       [-mpmath.inf, 0, mpmath.inf])


def _reference(act, depth, w2, b2, kind):
    sigma = [w2 * t + b2 for t in (mpmath.mpf(1), mpmath.mpf(1) / 2, mpmath.mpf(0))]
    theta = list(sigma)
    for _ in range(depth):
        q = sigma[0]
        new = [w2 * _expect(act, q, c) + b2 for c in sigma]
        theta = [nw + w2 * th * _expect(act, q, c, True) for nw, th, c in zip(new, theta, sigma, strict=True)]
        sigma = new
    out = theta if kind == "ntk" else sigma
    return out[1] / out[0], out[2] / out[0]


@pytest.mark.parametrize("act", ["erf", "sign", "step"])
@pytest.mark.parametrize("depth,w,b", [(1, 1, 0), (2, R(3, 2), R(1, 2))])
def test_closed_forms_against_quadrature(act, depth, w, b):
    with mpmath.workdps(30):
        for kind in ("nngp", "ntk"):
            if act != "erf" and kind == "ntk" and depth == 1:
                continue
            w2, b2 = (mpmath.mpf(R(v).p) ** 2 / R(v).q ** 2 for v in (w, b))
            ref = _reference(act, depth, w2, b2, kind)
            ko, kd, _ = activation_kappas(act, depth, R(w) ** 2, R(b) ** 2, kind)
            for mine, theirs in ((ko, ref[0]), (kd, ref[1])):
                assert abs(mpmath.mpf(str(sp.N(mine, 35))) - theirs) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("act", ["erf", "sign", "step"])
def test_monte_carlo_depth_one(act):
    """Random networks f(x) = (w/sqrt m) v . phi(w U x + b g) + b beta; the empirical NTK by hand."""
    rng = np.random.default_rng(12)
    w, b, m, nets = 1.5, 0.5, 32, 4000
    phi = {"erf": np_erf, "sign": np.sign, "step": lambda x: (x > 0).astype(float)}[act]
    dphi = (lambda x: 2 / np.sqrt(np.pi) * np.exp(-x * x)) if act == "erf" else (lambda x: 0 * x)
    n = 4  # inputs (1,2), (1,3), (3,4): t = 1/2 and 0 with the first
    x = np.zeros((3, 2 * n))
    for r, (i, j) in enumerate([(1, 2), (1, 3), (3, 4)]):
        x[r, i - 1] = x[r, n + j - 1] = 1 / np.sqrt(2)
    U = rng.standard_normal((nets, m, 2 * n))
    gam = rng.standard_normal((nets, m, 1))
    v = rng.standard_normal((nets, m, 1))
    h = w * np.einsum("kmd,rd->kmr", U, x) + b * gam  # (nets, m, 3)
    nngp = w ** 2 / m * np.einsum("kmr,kms->krs", phi(h), phi(h)) + b ** 2  # E over v, beta taken exactly
    dd = v ** 2 * dphi(h)
    ntk = nngp + w ** 2 / m * np.einsum("kmr,kms->krs", dd, dphi(h)) * (w ** 2 * (x @ x.T) + b ** 2)
    for kind, sample in (("nngp", nngp), ("ntk", ntk)):
        ko, kd, diag = activation_kappas(act, 1, R(9, 4), R(1, 4), kind)
        exact = [float(diag), float(ko * diag), float(kd * diag)]
        for (r, s), want in zip([(0, 0), (0, 1), (0, 2)], exact, strict=True):
            vals = sample[:, r, s]
            assert abs(vals.mean() - want) < 5 * vals.std(ddof=1) / np.sqrt(nets) + 1e-12


def test_quadrature_family_matches_closed_form():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quad = ActivationNNGP(activation="erf(u)")
        assert quad.numeric_only
        ko = quad.kernel_numeric((1, 2), (1, 3), {"W_std": 1.0, "b_std": 0.0, "depth": 1.0})
    exact = float(ActivationNNGP(activation="erf").kappas()[0])
    assert abs(ko - exact) < max(quad._quadrature.error, 1e-12) * 10


@pytest.mark.parametrize("depth", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_solver_and_numeric_agree(depth):
    task = Task(9, ["6>4"])
    fam = ActivationNTK(activation="erf", W_std=R(3, 2), b_std=R(1, 2), depth=depth)
    exact = solve(task, fam, R(1, 10))
    num = numeric_predictions(task, fam, ridge=0.1)
    for t in [(6, 4), (3, 6)]:
        assert abs(float(exact.f(*t)) - num[t]) < 1e-10


def test_bad_values(capsys):
    assert FAMILIES["activation-ntk"] is ActivationNTK
    with pytest.raises(ParameterError, match="does not parse"):
        ActivationNNGP(activation="tanh(")
    with pytest.raises(ParameterError, match="one variable u"):
        ActivationNNGP(activation="tanh(x)")
    with pytest.raises(ParameterError, match="W_std"):
        ActivationNNGP(activation="erf", W_std=0)
    from symbolic_ti.cli import main  # in-process (the console command's contract: tests/test_cli_contract.py)

    code = main(["derive", "-n", "5", "--family", "activation-nngp", "--set", "activation=foo(", "--ridge", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "activation" in err
