"""Activations with a kink (ReLU, |u|, leaky ReLU, Min(u, 0)): exact arc-cosine kernels, certified balls that
contain the true values, and Gauss-Hermite's estimate flagged as no bound (docs/families.md, "Activations with a
kink").

The reference is written out here, independently of the package: for ``phi = a u + b relu(u)`` and centred
Gaussians ``u, v`` with variances ``q`` and covariance ``c`` (``rho = c / q``),
``E[phi(u) phi(v)] = a^2 c + a b c + b^2 q J_1(theta) / (2 pi)`` and
``E[phi'(u) phi'(v)] = a^2 + a b + b^2 J_0(theta) / (2 pi)``, ``theta = acos(rho)``, with Cho & Saul 2009, eq. (6):
``J_1 = sin theta + (pi - theta) cos theta``, ``J_0 = pi - theta`` (``E[relu(u) relu(v)] = q J_1 / (2 pi)``,
``E[1(u > 0) 1(v > 0)] = J_0 / (2 pi)``), and ``E[u relu(v)] = c / 2``.
"""

from __future__ import annotations

import warnings

import mpmath
import pytest
import sympy as sp

from symbolic_ti import Task, solve
from symbolic_ti.errors import ParameterError, UntrustedNumericWarning
from symbolic_ti.families import ActivationNNGP, ActivationNTK
from symbolic_ti.families.activation_certified import certified_kappas
from symbolic_ti.families.activation_quadrature import U, QuadratureKernel, parse_activation
from symbolic_ti.families.activations import relu_combination, relu_combination_kappas
from symbolic_ti.families.relu_kappas import relu_nngp_kappas

# activation -> (a, b) with phi = a u + b relu(u), found by hand
CASES = {"Max(u, 0)": (0, 1), "Abs(u)": (-1, 2), "Max(u, u/10)": (sp.Rational(1, 10), sp.Rational(9, 10)),
         "Min(u, 0)": (1, -1)}


def reference(a, b, kind, depth, w2, b2):
    """(kappa_o, kappa_d) from the Cho & Saul closed forms of the module docstring, in mpmath."""
    a, b, w2, b2 = (mpmath.mpf(sp.Rational(x).p) / sp.Rational(x).q for x in (a, b, w2, b2))

    def theta(q, c):
        return mpmath.acos(max(min(c / q, 1), -1))

    def v(q, c):
        t = theta(q, c)
        return a * a * c + a * b * c + b * b * q * (mpmath.sin(t) + (mpmath.pi - t) * mpmath.cos(t)) / (2 * mpmath.pi)

    def d(q, c):
        return a * a + a * b + b * b * (mpmath.pi - theta(q, c)) / (2 * mpmath.pi)

    sigma = [w2 * t + b2 for t in (mpmath.mpf(1), mpmath.mpf(1) / 2, mpmath.mpf(0))]
    ntk = list(sigma)
    for _ in range(depth):
        q = sigma[0]
        new = [w2 * v(q, c) + b2 for c in sigma]
        ntk = [n + w2 * th * d(q, c) for n, th, c in zip(new, ntk, sigma, strict=True)]
        sigma = new
    out = ntk if kind == "ntk" else sigma
    return out[1] / out[0], out[2] / out[0]


def test_relu_combination_finds_the_slopes():
    for text, ab in CASES.items():
        assert relu_combination(parse_activation(text)) == ab, text
    assert relu_combination(parse_activation("u*Heaviside(u)")) == (0, 1)
    assert relu_combination(parse_activation("3*u")) == (3, 0)
    for text in ("tanh(u)", "Max(u - 1, 0)", "Max(u, 0)**2", "u*Abs(u)"):
        assert relu_combination(parse_activation(text)) is None, text


@pytest.mark.parametrize("text", list(CASES))
@pytest.mark.parametrize("kind,depth,w_std,b_std", [("nngp", 1, 1, 0), ("ntk", 2, 1, 0), ("nngp", 2, 2, "1/2"),
                                                    ("ntk", 3, "3/2", "1/3")])
def test_arc_cosine_kappas_match_cho_saul(text, kind, depth, w_std, b_std):
    a, b = CASES[text]
    w2, b2 = sp.Rational(w_std) ** 2, sp.Rational(b_std) ** 2
    ko, kd, _ = relu_combination_kappas(a, b, depth, w2, b2, kind)
    with mpmath.workdps(40):
        ro, rd = reference(a, b, kind, depth, w2, b2)
        assert abs(mpmath.mpf(str(sp.N(ko, 40))) - ro) < mpmath.mpf(10) ** -32
        assert abs(mpmath.mpf(str(sp.N(kd, 40))) - rd) < mpmath.mpf(10) ** -32


def test_relu_depth_one_is_the_relu_family_exactly():
    ko, kd, _ = relu_combination_kappas(0, 1, 1)
    assert (ko, kd) == relu_nngp_kappas(1)
    # |u| at depth 1: E|u||v| = (2/pi)(sqrt(1 - rho^2) + rho asin(rho)) for unit variances (the folded-normal
    # product moment), so kappa_o = sqrt(3)/pi + 1/6 at rho = 1/2 and kappa_d = 2/pi at rho = 0
    ko, kd, _ = relu_combination_kappas(-1, 2, 1)
    assert sp.simplify(ko - (sp.sqrt(3) / sp.pi + sp.Rational(1, 6))) == 0 and sp.simplify(kd - 2 / sp.pi) == 0


def test_kinked_families_are_exact_and_solve_to_the_exact_kernel():
    fam = ActivationNTK(activation="Min(u, 0)", depth=2, b_std="1/2")
    assert fam.kernel_method == "arc-cosine" and fam.numeric_only
    with mpmath.workdps(40):
        ro, rd = reference(1, -1, "ntk", 2, 1, sp.Rational(1, 4))
        ko, kd = (mpmath.mpf(str(sp.N(x, 40))) for x in fam.kappas())
        assert abs(ko - ro) < 1e-32 and abs(kd - rd) < 1e-32
    with warnings.catch_warnings():
        warnings.simplefilter("error", UntrustedNumericWarning)
        numeric = solve(Task(5, ["4>2"]), fam, "1/10").f(4, 2)
    # the same solve with the exchangeable kernel built from the reference values
    from symbolic_ti.families import Exchangeable

    alpha = (1 + rd - 2 * ro) / (1 - rd)
    exact = solve(Task(5, ["4>2"]), Exchangeable(alpha=sp.Rational(str(mpmath.nstr(alpha, 25))),
                                                 kappa_d=sp.Rational(str(mpmath.nstr(rd, 25)))), "1/10").f(4, 2)
    assert abs(float(numeric) - float(exact)) < 1e-9


def test_certified_path_takes_min_and_negative_slopes():
    # Min(u, 0) = -relu(-u), |-u|/2 - u/2 = relu(-u): both have relu's kernel (u -> -u keeps the Gaussian)
    with mpmath.workdps(30):
        ro, rd = reference(0, 1, "nngp", 1, 1, 0)
    for text in ("Min(u, 0)",):
        r = certified_kappas(parse_activation(text), "nngp", 1, 1, 0, 10)
        assert r.certified, text
        assert r.kappa_o.contains(ro) or abs(float(r.kappa_o.mid()) - float(ro)) <= r.radius, text
        assert abs(float(r.kappa_d.mid()) - float(rd)) <= max(r.radius, 1e-16), text


def test_certified_refusal_names_the_obstacle():
    with pytest.raises(ParameterError, match=r"not k u for a non-zero number k.*kink must be at u = 0"):
        certified_kappas(parse_activation("Max(u - 1, 0)"), "nngp", 1)
    with pytest.raises(ParameterError, match="a Max of 3 expressions"):
        certified_kappas(parse_activation("Max(u, 0, -u)"), "nngp", 1)


_SLOW = pytest.mark.slow


@pytest.mark.parametrize("text,kind,depth,b_std", [
    ("Max(u, 0)", "nngp", 1, 0),
    pytest.param("Abs(-u)/2 - u/2", "nngp", 1, 0, marks=_SLOW),
    pytest.param("Abs(u)", "nngp", 1, 0, marks=_SLOW), pytest.param("Max(u, u/10)", "ntk", 1, 0, marks=_SLOW),
    pytest.param("Min(u, 0)", "nngp", 2, "1/2", marks=_SLOW), pytest.param("Max(u, 0)", "ntk", 2, 0, marks=_SLOW)])
def test_certified_radius_bounds_the_true_error(text, kind, depth, b_std):
    """The estimate-vs-true-error property of the certified path (one cheap case; the rest is slow)."""
    a, b = CASES.get(text, (0, 1))  # |-u|/2 - u/2 = relu(-u) has relu's kernel
    r = certified_kappas(parse_activation(text), kind, depth, 1, sp.Rational(b_std), 12)
    with mpmath.workdps(30):
        ro, rd = reference(a, b, kind, depth, 1, sp.Rational(b_std) ** 2)
        err = max(abs(mpmath.mpf(r.kappa_o.mid().str(30, radius=False)) - ro),
                  abs(mpmath.mpf(r.kappa_d.mid().str(30, radius=False)) - rd))
    assert r.certified and err <= r.radius


def test_gauss_hermite_says_its_estimate_is_no_bound_across_a_kink():
    fam = ActivationNNGP(activation="Max(u - 1, 0)")
    assert fam.kernel_method == "quadrature"
    quad = QuadratureKernel(parse_activation("Max(u, 0)"), "nngp", 1, 1, 0)
    assert not quad.bounded
    with pytest.warns(UntrustedNumericWarning, match="kink.*not a bound"):
        ko, kd = quad.kappas()
    with mpmath.workdps(30):
        to, td = reference(0, 1, "nngp", 1, 1, 0)
    assert max(abs(ko - float(to)), abs(kd - float(td))) > quad.error  # the finding (error 3.7e-3, estimate 1.9e-3): below the true error
    assert QuadratureKernel(sp.tanh(U), "nngp", 1, 1, 0, nodes=8).bounded


def test_kink_at_zero_without_closed_form_goes_to_the_certified_path():
    fam = ActivationNNGP(activation="Max(u, 0)**2")
    assert fam.kernel_method == "certified"
    # relu(u)^2 at depth 1, no bias: V = q^2 J_2 / (2 pi), J_2 = 3 sin t cos t + (pi - t)(1 + 2 cos^2 t)
    # (Cho & Saul 2009, eq. (6), n = 2); kappa_d = J_2(pi/2) / J_2(0) = (pi / 2) / (3 pi) = 1/6
    value = fam.kernel_numeric((1, 2), (3, 4), {"W_std": 1.0, "b_std": 0.0, "depth": 1.0})
    assert abs(value - 1 / 6) < 1e-11
