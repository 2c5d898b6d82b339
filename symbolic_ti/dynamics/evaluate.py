r"""Exact expressions, exact limits and ball (arb) values of the mode sums of :mod:`.modes`.

A trial's time course is ``f(t) = F - sum_k C_k exp(-rho_k t)`` with ``F = f(oo)``, ``C_k`` the amplitude
``(c0 + c1 mu_k) W(mu_k) / (a + b mu_k)`` and ``rho_k = a + b mu_k`` over every eigenvalue ``mu_k`` of every
term's factor. With rational parameters, sums over the roots of one factor are exact rationals (traces):
``F = sum Tr[(c0 + c1 mu) W(mu) / (a + b mu)]`` and the derivatives at 0,
``f^(j)(0) = (-1)^(j+1) sum Tr[(c0 + c1 mu) W(mu) (a + b mu)^(j-1)]``. Derived in
docs/theory.md#gradient-flow-in-laplacian-modes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from ..analysis.roots.ball import ball
from ..errors import SolveError
from ..families.base import Trial
from ..flint_values import arb_horner, to_fmpq
from .modes import MU, Term, TimeCourse
from .spectral import X, mod_inverse, trace

__all__ = ["exact_roots", "is_rational_course", "limit_exact", "derivative_at_zero", "expression",
           "ArbTerms", "arb_terms", "to_fmpq"]



def _sym_poly(q: flint.fmpq_poly) -> sp.Poly:
    return sp.Poly([sp.Rational(int(c.p), int(c.q)) for c in reversed(q.coeffs())], MU)


def exact_roots(q: flint.fmpq_poly) -> list[sp.Expr]:
    """The roots of an irreducible factor as exact sympy numbers, in increasing order: a Rational, radicals
    for a quadratic, ``CRootOf`` otherwise."""
    poly = _sym_poly(q)
    if poly.degree() <= 2:
        return sorted(sp.roots(poly, multiple=True), key=lambda r: float(r))
    return [sp.CRootOf(poly, k) for k in range(poly.degree())]


def _poly_value(w: flint.fmpq_poly, mu: sp.Expr) -> sp.Expr:
    return sp.Add(*[sp.Rational(int(c.p), int(c.q)) * mu ** k for k, c in enumerate(w.coeffs())])


def is_rational_course(tc: TimeCourse) -> bool:
    """Whether the rate and amplitude coefficients are rational numbers (no free parameter)."""
    vals = [*tc.rate, *tc.amplitudes[0], *tc.amplitudes[1]]
    return all(sp.sympify(v).is_Rational for v in vals)


def _coeffs(tc: TimeCourse, term: Term) -> tuple[flint.fmpq_poly, flint.fmpq_poly]:
    """``(c0 + c1 mu) W`` and ``a + b mu`` as polynomials (rational courses only)."""
    c0, c1 = (to_fmpq(v) for v in tc.amplitudes[term.kind])
    a, b = (to_fmpq(v) for v in tc.rate)
    return flint.fmpq_poly([c0, c1]) * term.weight, flint.fmpq_poly([a, b])


def limit_exact(tc: TimeCourse, trial: Trial, cache: dict | None = None) -> sp.Rational:
    """``f(oo)``, exactly, for a rational course (``cache``: the inverse rate modulo each group, shared).

    Raises
    ------
    SolveError
        If a mode of rate 0 carries weight (the flow then grows without bound).
    """
    total = flint.fmpq(0)
    inverses = {} if cache is None else cache
    for term in tc.terms[trial]:
        q = tc.groups[term.group]
        num, rate = _coeffs(tc, term)
        num, rate = num % q, rate % q
        if rate.is_zero():
            if num.is_zero():
                continue
            raise SolveError(f"trial {trial} has a mode of rate 0 with nonzero weight; f(t) grows without bound")
        if term.group not in inverses:
            inverses[term.group] = mod_inverse(rate, q)
        if term.kind == 0 and tc.nodes is not None and term.group < len(tc.nodes):
            total += _node_trace(tc, term.group, trial[0], inverses) - _node_trace(tc, term.group, trial[1], inverses)
            continue
        total += trace(num * inverses[term.group], q)
    return sp.Rational(int(total.p), int(total.q))


def _node_trace(tc: TimeCourse, group: int, item: int, cache: dict) -> flint.fmpq:
    """``Tr[c0 (P_mu b)_item / (a + b mu)]`` of one Laplacian group (the rank of ``item`` at ``t = oo``, per group),
    computed once per item so that a test trial's limit is a difference of two."""
    key = ("node", group, item)
    if key not in cache:
        q = tc.groups[group]
        assert tc.nodes is not None
        c0 = to_fmpq(tc.amplitudes[0][0])
        cache[key] = trace(tc.nodes[group][item - 1] * c0 * cache[group], q)
    return cache[key]


def derivative_at_zero(tc: TimeCourse, trial: Trial, order: int) -> Fraction:
    """``f^(order)(0)`` exactly (``order >= 1``), for a rational course."""
    total = flint.fmpq(0)
    for term in tc.terms[trial]:
        q = tc.groups[term.group]
        num, rate = _coeffs(tc, term)
        total += trace(num * rate ** (order - 1), q)
    total = total if order % 2 == 1 else -total
    return Fraction(int(total.p), int(total.q))


def _live(tc: TimeCourse, term: Term, mu: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    a, b = tc.rate
    c0, c1 = tc.amplitudes[term.kind]
    rate = sp.cancel(a + b * mu) if mu == 0 else a + b * mu
    num = (c0 + c1 * mu) * _poly_value(term.weight, mu)
    if rate == 0:
        if sp.expand(num) == 0:
            return None
        raise SolveError("a mode of rate 0 carries weight; f(t) grows without bound")
    return num, rate


def expression(tc: TimeCourse, trial: Trial, t: sp.Expr, limit: sp.Expr) -> sp.Expr:
    """``f(t) = limit - sum_k C_k exp(-rho_k t)`` as an exact sympy expression (``t`` a number or Symbol)."""
    if t == 0:
        return sp.Integer(0)
    if t is sp.oo:
        return limit
    parts = []
    rational = is_rational_course(tc)
    for term in tc.terms[trial]:
        q = tc.groups[term.group]
        roots = [sp.Integer(0)] if q == X else exact_roots(q)
        for mu in roots:
            live = _live(tc, term, mu)
            if live is None:
                continue
            num, rate = live
            if rational:  # reduce the amplitude to a polynomial in the root, degree < deg Q
                pn, pr = _coeffs(tc, term)
                amp = _poly_value((pn * mod_inverse(pr % q, q)) % q, mu) if q != X else num / rate
            else:
                amp = sp.cancel(num / rate) if not mu.has(sp.CRootOf) else num / rate
            if q.degree() == 2:
                amp = sp.radsimp(sp.expand(amp))
            parts.append(amp * sp.exp(-sp.expand(rate) * t))
    return limit - sp.Add(*parts)


@dataclass(frozen=True)
class ArbTerms:
    """A trial's course in balls: ``f(t) = limit - sum C_k exp(-rho_k t) + e(t)``, every ``rho_k > 0``.

    ``e`` is 0 on the exact path; on the certified numeric path (:mod:`.certified`) ``|e(t)| <= slack[0]`` and
    ``|e'(t)| <= slack[1]`` for every ``t``, and ``bounds`` holds per term an upper bound of the summed
    ``|C_mu|`` of its eigenvalues and the lowest and highest of their rates (for the tail and Taylor bounds of
    :mod:`.signs`).
    """

    limit: flint.arb
    amplitudes: tuple[flint.arb, ...]
    rates: tuple[flint.arb, ...]
    slack: tuple[flint.arb, flint.arb] | None = None
    bounds: tuple[tuple[flint.arb, flint.arb, flint.arb], ...] | None = None

    def value(self, t: flint.arb) -> flint.arb:
        """``f(t)`` as a ball."""
        s = self.limit
        for c, r in zip(self.amplitudes, self.rates, strict=True):
            s -= c * (-r * t).exp()
        return s if self.slack is None else s + flint.arb(0, self.slack[0])

    def derivative(self, t: flint.arb) -> flint.arb:
        """``f'(t)`` as a ball."""
        s = flint.arb(0)
        for c, r in zip(self.amplitudes, self.rates, strict=True):
            s += c * r * (-r * t).exp()
        return s if self.slack is None else s + flint.arb(0, self.slack[1])

    def magnitudes(self) -> tuple[tuple[flint.arb, flint.arb, flint.arb], ...]:
        """Per term: an upper bound of ``|C|``, the lowest and the highest rate."""
        if self.bounds is not None:
            return self.bounds
        return tuple((abs(c), r, r) for c, r in zip(self.amplitudes, self.rates, strict=True))

    def shifted(self, sign: int, shift: flint.arb) -> ArbTerms:
        """``sign f(t) - shift`` in the same form."""
        return ArbTerms(sign * self.limit - shift, tuple(sign * v for v in self.amplitudes), self.rates,
                        self.slack, self.bounds)



def arb_terms(tc: TimeCourse, trial: Trial, limit: sp.Expr, prec: int,
              root_cache: dict[int, list[flint.arb]] | None = None) -> ArbTerms:
    """The balls of one trial's course at working precision ``prec`` bits (numeric parameters only)."""
    a, b = (ball(sp.sympify(v), prec) for v in tc.rate)
    cache = {} if root_cache is None else root_cache
    amps, rates = [], []
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        for term in tc.terms[trial]:
            q = tc.groups[term.group]
            if term.group not in cache:
                cache[term.group] = [flint.arb(0)] if q == X else [r.real for r, _ in q.complex_roots()]  # type: ignore[misc, has-type]
            c0, c1 = (ball(sp.sympify(v), prec) for v in tc.amplitudes[term.kind])
            for mu in cache[term.group]:
                rate = a + b * mu
                if q == X and sp.cancel(tc.rate[0]) == 0:
                    continue  # rate exactly 0: weight checked by limit_exact / _live
                amps.append((c0 + c1 * mu) * arb_horner(term.weight, mu) / rate)
                rates.append(rate)
        return ArbTerms(ball(sp.sympify(limit), prec), tuple(amps), tuple(rates))
    finally:
        flint.ctx.prec = old
