"""The real-root engine (symbolic_ti.analysis.roots, isolation, polynomials) against independent computations.

References that share no code with the engine:

* sympy's ``Poly.real_roots`` (continued-fraction isolation, ``CRootOf`` indices) and ``Poly.count_roots``
  (Sturm sequences) for root count, order, multiplicity and exact value;
* ``mpmath.polyroots`` at 60 digits for the numerical value of every root;
* sympy's ``Poly`` arithmetic (``compose``, ``gcd``, ``factor_list``, ``is_irreducible``) for the polynomial
  tools.

The polynomials are random products of small integer factors with multiplicities, so repeated roots, rational
roots (also at dyadic points, where the bisection lands exactly on a root) and irrational ones all occur.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic_ti.analysis.roots import isolation, polynomials as P
from symbolic_ti.analysis.roots import (RealRoot, RootRegistry, compare, exact_root, real_roots, roots_below,
                                        same_number, separate)
from strategies import examples

X = sp.Symbol("x")


def _poly(cs) -> sp.Poly:
    return sp.Poly.from_list([int(c) for c in cs], X, domain="ZZ")


@st.composite
def _factors(draw):
    """A list of (integer factor, multiplicity), factors of degree 1..3 with small coefficients."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        d = draw(st.integers(1, 3))
        lead = draw(st.sampled_from([1, 2, 3, 4, -1, -2, 8]))
        rest = [draw(st.integers(-6, 6)) for _ in range(d)]
        out.append(((lead, *rest), draw(st.integers(1, 3))))
    return out


def _product(factors) -> tuple[int, ...]:
    p: tuple[int, ...] = (1,)
    for f, m in factors:
        for _ in range(m):
            p = P.multiply(p, f)
    return p


def _reference(cs):
    """Distinct real roots in increasing order with multiplicities, from sympy (independent isolation)."""
    out: list[list] = []
    for r in _poly(cs).real_roots():
        if out and out[-1][0] == r:
            out[-1][1] += 1
        else:
            out.append([r, 1])
    return out


def _equal(a: sp.Expr, b: sp.Expr) -> bool:
    """Exact equality of two real algebraic numbers (Rational, radical or CRootOf)."""
    if isinstance(a, sp.CRootOf) and isinstance(b, sp.CRootOf):
        return a.poly.monic() == b.poly.monic() and a.index == b.index
    if a.is_Rational and b.is_Rational:
        return a == b
    mp = sp.minimal_polynomial(a - b, X)  # exact: the difference is 0 iff its minimal polynomial is x
    return mp == X


@settings(max_examples=examples(60), deadline=None)
@given(_factors())
def test_real_roots_against_sympy_and_mpmath(factors):
    cs = _product(factors)
    if len(cs) < 2:
        return
    mine = real_roots(cs)
    theirs = _reference(cs)
    assert len(mine) == len(theirs), (cs, mine, theirs)  # root count
    squarefree = [int(c) for c in _poly(cs).sqf_part().all_coeffs()]  # polyroots converges on simple roots
    with mpmath.workdps(60):
        approx = sorted(mpmath.re(z) for z in mpmath.polyroots(squarefree, maxsteps=500, extraprec=100)
                        if abs(mpmath.im(z)) < mpmath.mpf(10) ** -20)
    assert len(approx) == len(mine)  # root count, numerically
    for (root, mult), (ref, ref_mult) in zip(mine, theirs, strict=True):
        assert mult == ref_mult, cs  # multiplicity
        value = root.exact(X)
        assert _equal(value, ref), (cs, value, ref)  # exact value, hence order too
        close = [a for a in approx if abs(a - mpmath.mpf(str(sp.N(ref, 40)))) < mpmath.mpf(10) ** -15]
        assert len(close) == 1  # mpmath finds it, once
        assert abs(float(close[0]) - root.value_float) <= 1e-12 * (1 + abs(root.value_float))
    # order: strictly increasing by exact comparison
    for (a, _), (b, _) in zip(mine, mine[1:], strict=False):
        assert compare(a, b) == -1 and compare(b, a) == 1


@settings(max_examples=examples(60), deadline=None)
@given(_factors())
def test_isolate_certifies_every_interval(factors):
    """Squarefree part: each interval holds exactly one root (Sturm count) with a sign change at its ends."""
    sq = tuple(int(c) for c in _poly(_product([(f, 1) for f, _ in factors])).sqf_part().all_coeffs())
    if len(sq) < 2:
        return
    ivs = isolation.isolate(sq)
    assert len(ivs) == _poly(sq).count_roots()
    for (_, t), (s2, _) in zip(ivs, ivs[1:], strict=False):
        assert t < s2 or (t == s2 and P.sign_at(sq, t) != 0)  # consecutive intervals share only a non-root
    for s, t in ivs:
        if s == t:
            assert P.sign_at(sq, s) == 0
        else:
            assert P.sign_at(sq, s) * P.sign_at(sq, t) < 0
            assert _poly(sq).count_roots(sp.Rational(s.numerator, s.denominator),
                                         sp.Rational(t.numerator, t.denominator)) == 1


def test_isolate_with_roots_on_bisection_points():
    """(2x - 1)(4x - 3)(x - 2)(x^2 - 2)(8x + 5): rational roots at dyadic points, where bisection lands on them."""
    cs = (1,)
    for f in ((2, -1), (4, -3), (1, -2), (1, 0, -2), (8, 5)):
        cs = P.multiply(cs, f)
    ivs = isolation.isolate(cs)
    exact = [Fraction(s) for s, t in ivs if s == t]
    assert set(exact) <= {Fraction(1, 2), Fraction(3, 4), Fraction(2), Fraction(-5, 8)}
    assert len(ivs) == 6
    assert isolation.isolate(cs, positive=True) == [iv for iv in ivs if iv[1] > 0]  # the positive ones, the same
    for (s, t), ref in zip(ivs, sorted([-sp.sqrt(2), sp.Rational(-5, 8), sp.Rational(1, 2), sp.Rational(3, 4),
                                       sp.sqrt(2), sp.Integer(2)], key=float), strict=True):
        assert sp.Rational(s.numerator, s.denominator) <= ref <= sp.Rational(t.numerator, t.denominator)
        if s != t:
            assert P.sign_at(cs, s) * P.sign_at(cs, t) < 0


def test_pure_python_isolation_matches_flint(monkeypatch):
    """The bisection on pure-Python integer tuples (tests/roots_oracle.py) gives FLINT's intervals."""
    from roots_oracle import _Python

    polys = [(1, 0, -2), (1, -3, -1, 2, 1), tuple(int(c) for c in sp.Poly(sp.chebyshevt(9, X), X).all_coeffs())]
    flint_ivs = [isolation.isolate(p) for p in polys]
    monkeypatch.setattr(isolation, "_ops", lambda: _Python)
    assert [isolation.isolate(p) for p in polys] == flint_ivs
    # Chebyshev T_9: roots cos((2k - 1) pi / 18), all real and simple
    assert len(flint_ivs[2]) == 9


def test_single_positive_root_brackets():
    """One sign variation: exactly one positive root, bracketed with exact signs (mpmath for the value)."""
    for cs in ((1, 3, -1), (5, 0, 0, -2), (1, 1, 1, -10**6), (3, -1), (1, 2, 1, -4)):
        assert P.variations(cs) == 1
        s0 = P.sgn(cs[-1])
        lo, hi = isolation.single_positive_root(cs, s0)
        with mpmath.workdps(50):
            pos = [mpmath.re(z) for z in mpmath.polyroots(list(cs), extraprec=200)
                   if abs(mpmath.im(z)) < 1e-30 and mpmath.re(z) > 0]
        assert len(pos) == 1
        assert mpmath.mpf(lo.numerator) / lo.denominator <= pos[0] <= mpmath.mpf(hi.numerator) / hi.denominator
        if lo != hi:
            assert P.sign_at(cs, lo) == s0 and P.sign_at(cs, hi) == -s0


def test_equal_roots_of_different_polynomials():
    """sqrt(2) as a root of x^2 - 2 and of (x^2 - 2)(x^3 - 5): recognized as equal (gcd), and merged."""
    a_cs, b_cs = (1, 0, -2), P.multiply((1, 0, -2), (1, 0, 0, -5))
    a = next(r for r, _ in real_roots(a_cs) if r.value_float > 0)
    s, t = Fraction(1), Fraction(3, 2)  # sqrt(2) is the only root of b in [1, 3/2]
    b = RealRoot(b_cs, s, t)
    assert same_number(a, b) is not None and compare(a, b) == 0
    reg = RootRegistry()
    assert reg.register(a) is a and reg.register(b) is a
    c = next(r for r, _ in real_roots((1, 0, 0, -5)))  # 5^(1/3) > sqrt(2)
    assert same_number(a, c) is None and compare(a, c) == -1 and reg.register(c) is c


def test_separate_and_rational_comparison():
    roots = [r for r, _ in real_roots(P.multiply((1, 0, -2), (3, -1)))]  # -sqrt(2), 1/3, sqrt(2)
    inside = separate(roots, Fraction(0), None)
    assert [float(r.exact(X)) for r in inside] == pytest.approx([1 / 3, 2 ** 0.5])
    assert inside[0].t < inside[1].s and inside[0].s > 0
    assert inside[1].compare_rational(Fraction(141, 100)) == 1 and inside[1].compare_rational(Fraction(3, 2)) == -1
    assert inside[0].compare_rational(Fraction(1, 3)) == 0


def test_exact_root_and_roots_below():
    """Quadratic formula and CRootOf indices against sympy."""
    assert exact_root((3, -8, 1), 0, X) == sp.Rational(4, 3) - sp.sqrt(13) / 3
    assert exact_root((3, -8, 1), 1, X) == sp.Rational(4, 3) + sp.sqrt(13) / 3
    cs = (1, 0, -4, 1)  # three real roots
    for k, r in enumerate(_poly(cs).real_roots()):
        assert exact_root(cs, k, X) == r
        below = float(r) + 1e-9
        assert roots_below(cs, Fraction(below)) == k + 1


def test_moebius_image_is_exact():
    """alpha = (gamma - 2 lam)/(gamma + 2) at lam = 1/10 of gamma* = (sqrt(13) - 3)/2: (41 - 11 sqrt(13))/30
    (docs/lm_hierarchies.md), and for a cubic the image is a root of the transformed polynomial."""
    gamma = next(r for r, _ in real_roots((1, 3, -1)) if r.value_float > 0)
    assert sp.simplify(gamma.image(10, -2, 10, 20, X) - (41 - 11 * sp.sqrt(13)) / 30) == 0
    cubic = next(r for r, _ in real_roots((1, 0, -4, 1)) if r.value_float > 1)
    y = cubic.image(1, -1, 1, 2, X)
    assert isinstance(y, sp.CRootOf)
    ref = (sp.N(sp.CRootOf(X**3 - 4 * X + 1, 2), 40) - 1) / (sp.N(sp.CRootOf(X**3 - 4 * X + 1, 2), 40) + 2)
    assert abs(sp.N(y, 40) - ref) < 1e-35
    # the transformed polynomial, against sympy's substitution x = (2 y + 1)/(1 - y)
    h = P.moebius_transform((1, 0, -4, 1), 1, -1, 1, 2)
    ref_h = sp.Poly(sp.numer(sp.together(((2 * X + 1) / (1 - X)) ** 3 - 4 * (2 * X + 1) / (1 - X) + 1)), X)
    assert _poly(h).monic() == ref_h.monic()


def test_polynomial_tools_against_sympy():
    a = P.multiply(P.multiply((1, 0, -2), (2, 1)), (1, 1))
    b = P.multiply(P.multiply((1, 0, -2), (1, 1)), (1, 5))
    assert _poly(P.gcd(a, b)) == _poly(a).gcd(_poly(b))
    assert P.exquo(a, P.gcd(a, b)) == tuple(int(c) for c in _poly(a).exquo(_poly(a).gcd(_poly(b))).all_coeffs())
    content, facs = P.factor(P.multiply((-6,), P.multiply(a, a)))
    rebuilt = _poly((content,))
    for g, m in facs:
        assert _poly(g).is_irreducible and g[0] > 0
        rebuilt *= _poly(g) ** m
    assert rebuilt == _poly(P.multiply((-6,), P.multiply(a, a)))
    assert P.taylor_shift((1, -3, 2)) == tuple(int(c) for c in _poly((1, -3, 2)).compose(_poly((1, 1))).all_coeffs())
    c, p = P.from_rationals([sp.Rational(-1, 2), 0, sp.Rational(3, 4)])
    assert p == (2, 0, -3) and c == Fraction(-1, 4)
