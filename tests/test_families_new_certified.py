"""Certified Gaussian quadrature of activation kernels (symbolic_ti.families.activation_certified).

References, independent of the code under test: the erf closed form (Williams 1997, arcsin; exact sympy values
from ``activation_kappas``), the ReLU closed forms (Arora et al. 2019 / Cho & Saul 2009 arc-cosine kernels,
``relu_nngp_kappas``, ``relu_ntk_kappas``) evaluated at 40 digits, and the Gauss-Hermite estimate of
``activation_quadrature`` for tanh and GELU. The ball must contain the reference and be narrower than
``10^-(dps - 5)``.
"""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic_ti.errors import ParameterError, UntrustedNumericWarning
from symbolic_ti.families.activation_certified import certified_kappas, growth_bound
from symbolic_ti.families.activation_quadrature import U, QuadratureKernel
from symbolic_ti.families.activations import activation_kappas
from symbolic_ti.families.relu_kappas import relu_nngp_kappas, relu_ntk_kappas

Q = sp.Rational
GELU = U * (1 + sp.erf(U / sp.sqrt(2))) / 2


def _contains(ball, exact, dps):
    mid = sp.Float(ball.mid().str(dps + 15, radius=False), dps + 15)
    rad = sp.Float(ball.rad().str(5, radius=False), 10)
    assert rad < sp.Float(10) ** (5 - dps), (ball, rad)
    assert abs(mid - sp.N(exact, dps + 15)) <= rad + sp.Float(10) ** (-dps - 12), (ball, sp.N(exact, 25))


@pytest.mark.parametrize("kind", ["nngp", "ntk"])
def test_erf_ball_contains_the_arcsin_closed_form(kind):
    r = certified_kappas(sp.erf(U), kind, 1, 2, Q(1, 2), dps=10)
    ko, kd, _ = activation_kappas("erf", 1, 4, Q(1, 4), kind)
    assert r.certified
    _contains(r.kappa_o, ko, 10)
    _contains(r.kappa_d, kd, 10)


def test_relu_ball_contains_the_arc_cosine_closed_form():
    # the kink at 0 is handled by splitting every integral at 0 (each branch analytic)
    r = certified_kappas(sp.Max(U, 0), "ntk", 1, dps=12)
    ko, kd = relu_ntk_kappas(1)  # exact arc-cosine forms (docs/families.md, ReLU table)
    _contains(r.kappa_o, ko, 12)
    _contains(r.kappa_d, kd, 12)


@pytest.mark.slow
@pytest.mark.parametrize("expr, kind, depth", [(sp.erf(U), "ntk", 3), (sp.Max(U, 0), "nngp", 2),
                                               ((U + sp.Abs(U)) / 2, "ntk", 2)])
def test_deeper_balls_contain_the_closed_forms(expr, kind, depth):
    r = certified_kappas(expr, kind, depth, 1, Q(1, 3) if expr == sp.erf(U) else 0, dps=15)
    if expr == sp.erf(U):
        ko, kd, _ = activation_kappas("erf", depth, 1, Q(1, 9), kind)
    else:
        ko, kd = (relu_nngp_kappas if kind == "nngp" else relu_ntk_kappas)(depth)
    assert r.certified
    _contains(r.kappa_o, ko, 15)
    _contains(r.kappa_d, kd, 15)


@pytest.mark.parametrize("expr", [sp.tanh(U), GELU], ids=["tanh", "gelu"])
def test_agrees_with_the_gauss_hermite_estimate(expr):
    r = certified_kappas(expr, "nngp", 1, dps=10)
    quad = QuadratureKernel(expr, "nngp", 1, 1, 0)
    with pytest.warns(UntrustedNumericWarning) if expr == sp.tanh(U) else _nothing():
        ko, kd = quad.kappas()
    # the estimate's own error (tanh: 6.9e-8, GELU: < 1e-10) bounds the distance to the certified ball
    for ball, est in ((r.kappa_o, ko), (r.kappa_d, kd)):
        assert abs(float(ball.mid()) - est) <= max(quad.error, 1e-12) + float(ball.rad())
    assert r.certified and r.radius < 1e-10


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_uncertifiable_precision_is_said_and_warned():
    with pytest.warns(UntrustedNumericWarning, match="not the requested"):
        r = certified_kappas(sp.tanh(U), "nngp", 1, dps=10, max_terms=2)
    assert not r.certified and r.radius > 1e-10
    ko = QuadratureKernel(sp.tanh(U), "nngp", 1, 1, 0)._run(48)[0]
    lo, hi = float(r.kappa_o.mid() - r.kappa_o.rad()), float(r.kappa_o.mid() + r.kappa_o.rad())
    assert lo <= float(ko) <= hi  # still a rigorous (wide) ball


def test_growth_bounds_and_refusals():
    assert growth_bound(sp.tanh(U)) == [1]
    assert growth_bound(GELU)[1] == 1  # |u (1 + erf) / 2| <= |u|
    assert growth_bound(sp.log(1 + sp.exp(U))) == [sp.log(2), 1]
    for bad in (sp.exp(U), sp.Abs(U - 1), sp.gamma(U)):
        with pytest.raises(ParameterError, match="cannot certify"):
            certified_kappas(bad, "nngp", 1, dps=8)


def test_family_method_gives_the_certified_balls():
    from symbolic_ti.families import get_family
    family = get_family("activation-nngp", activation="tanh(u)")
    r = family.certified_kappas(10)
    assert r.certified and abs(float(r.kappa_o.mid()) - 0.4725513994) < 1e-9  # the value certified above
    with pytest.raises(ParameterError, match="closed form"):
        get_family("activation-nngp", activation="erf").certified_kappas(10)
