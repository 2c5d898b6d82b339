r"""Certified kernels of a smooth activation: rigorous Gaussian integrals in ball arithmetic (python-flint).

The recursion of :mod:`symbolic_ti.families.activations` needs ``V(q, c) = E[phi(u) phi(v)]`` and
``D(q, c) = E[phi'(u) phi'(v)]`` (centred Gaussians, variances ``q``, covariance ``c``). Here every one is an
Arb ball guaranteed to contain it (Johansson 2017, Arb; ``acb.integral`` is Arb's ``acb_calc_integrate``, Gauss-
Legendre on adaptively bisected subintervals with error bounds from the integrand's supremum on ellipses,
Petras' algorithm: rigorous for integrands analytic on a neighbourhood of the path, checked in ball arithmetic).

* **Integrand.** ``phi`` is translated from sympy by :func:`acb_function`, a whitelist evaluator of the
  expression tree: ``+``, ``*``, integer powers, ``sqrt`` and ``log`` (with Arb's analyticity check on the branch
  cut), ``exp``, ``erf``, ``erfc``, ``tanh``, ``atan``, ``sin``, ``cos``, exact rationals and ``pi``, ``E``
  (``sympy.lambdify`` would turn ``1/3`` into a float), and kinks at ``u = 0`` only (``|k u|``, ``sign(k u)``,
  ``Heaviside(k u)``, and ``Max(a, b)``, ``Min(a, b)`` with ``a - b = k u``, for any real ``k != 0``: ReLU, ``|u|``,
  leaky ``Max(u, u/10)``, ``Min(u, 0)``): every integral is split at 0 and each half uses its analytic branch.
* **Reduction to 1-D.** ``c = q`` is ``E[f(u)^2]``; otherwise Mehler's expansion
  ``E[f(u) f(v)] = sum_n rho^n b_n^2``, ``rho = c / q``, ``b_n = E[f(sqrt(q) z) He_n(z)] / sqrt(n!)``, with the
  tail after ``N`` terms at most ``|rho|^(N+1) (E[f(u)^2] - sum_{n <= N} b_n^2)`` by Parseval
  (:func:`gaussian_expectation`); ``V`` and ``D`` are both of this form (``f = phi``, ``f = phi'``).
* **Truncation and tails.** Each integral runs over ``[-T, T]`` of the standard normal variable. The tails are
  bounded in closed form from the growth bound ``|phi(x)| <= P(|x|)`` for real ``x``, ``P`` a polynomial with
  non-negative coefficients, **derived** from the expression by :func:`growth_bound` (``u -> |u|``; bounded
  functions: ``|tanh|, |erf|, |sin|, |cos|, |sign|, Heaviside <= 1``, ``|atan| <= pi/2``, ``erfc <= 2``;
  ``exp(g) <= 1`` when ``g <= 0`` on the reals (sympy decides it); ``0 <= log(c + exp(g)) <= log c + log 2 + |g|``
  for ``c >= 1``; ``exp(g) / (c + exp(g)) <= 1``; ``sqrt(y) <= 1 + y``; sums and products of bounds). The tail of
  ``E|z|^k`` beyond ``T`` is ``t_k(T) = 2^{k/2} Gamma((k+1)/2, T^2/2) / sqrt(pi)`` (upper incomplete gamma, in
  Arb); the Hermite factor is bounded by Cramer's inequality (:func:`gaussian_expectation`). An activation whose
  growth is not polynomial by these rules is refused (no certificate).
* **Result.** The recursion runs on the balls; :class:`CertifiedKappas` holds the balls of ``kappa_o`` and
  ``kappa_d``, their radius and whether it is below ``10^-dps``; if not, the result says so and
  :class:`~symbolic_ti.errors.UntrustedNumericWarning` is issued.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flint
import sympy as sp

from ..errors import ParameterError, UntrustedNumericWarning
from .activation_quadrature import U, derivative_ae
from ..formatting import rounded

__all__ = ["CertifiedKappas", "acb_function", "growth_bound", "gaussian_expectation", "certified_kappas"]

_ANALYTIC = {sp.exp: flint.acb.exp, sp.erf: flint.acb.erf, sp.erfc: flint.acb.erfc, sp.tanh: flint.acb.tanh,
             sp.atan: flint.acb.atan, sp.sin: flint.acb.sin, sp.cos: flint.acb.cos}
_BOUNDED = {sp.tanh: sp.Integer(1), sp.erf: sp.Integer(1), sp.sin: sp.Integer(1), sp.cos: sp.Integer(1),
            sp.atan: sp.pi / 2, sp.erfc: sp.Integer(2)}
AcbFunction = Callable[[Any, bool, int], Any]
Poly = list[sp.Expr]  # coefficients of a bound in |u|, constant term first


def _refuse(expr: sp.Basic, why: str) -> ParameterError:
    return ParameterError(f"activation: cannot certify {expr} ({why}); certified quadrature takes +, *, integer "
                          f"powers, sqrt, log, exp, erf, erfc, tanh, atan, sin, cos of u with polynomial growth")


_KINKS = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min)


def _kink_slope(e: sp.Basic) -> int:
    """The sign (+1 or -1) of ``k`` for a kink at ``u = 0``: ``Abs``, ``sign``, ``Heaviside`` of ``k u``, or ``Max`` /
    ``Min`` of two expressions whose difference (first minus second) is ``k u``, ``k`` a non-zero real number.

    On the side ``s`` (+1: ``u > 0``, -1: ``u < 0``) the argument ``k u`` (or the difference) has the sign
    ``s * sign(k)``, so each side has one analytic branch.

    Raises
    ------
    ParameterError
        If the kink is not of that form (the message says what it is).
    """
    if isinstance(e, (sp.Max, sp.Min)):
        if len(e.args) != 2:
            raise _refuse(e, f"a {type(e).__name__} of {len(e.args)} expressions; only two are taken")
        arg = sp.expand(e.args[0] - e.args[1])
        what = f"the difference of its arguments, {arg},"
    else:
        arg, what = e.args[0], f"its argument {e.args[0]}"
    k = sp.simplify(arg / U)
    if k.free_symbols or not k.is_real or k.is_zero is not False:
        raise _refuse(e, f"{what} is not k u for a non-zero number k: the certified path splits the integrals at "
                         f"u = 0 only, so every kink must be at u = 0 with a linear argument")
    return 1 if k.is_positive else -1


def acb_function(expr: sp.Expr) -> AcbFunction:
    """``f(x, analytic, side)``: the sympy expression ``expr`` in :data:`U` on an ``acb`` ball (module docstring).

    The function is ``f(x, analytic, side)``: ``side`` +1 / -1 picks the branch on ``u > 0`` / ``u < 0`` of kinks at
    ``u = 0`` (``|k u| = side sign(k) k u``, ``sign(k u) = side sign(k)``, ``Heaviside(k u) = [side sign(k) > 0]``,
    ``Max(a, b)`` / ``Min(a, b)`` with ``a - b = k u``: ``a`` or ``b`` by the sign of ``side k``; ``k`` any non-zero
    real number, so ``Min(u, 0)``, ``Max(-u, 0)``, leaky ``Max(u, u/10)`` are taken), so that each branch is analytic
    and integrals split at 0 stay rigorous.

    Raises
    ------
    ParameterError
        For an operation outside the whitelist.
    """
    def ev(e: sp.Basic, x: Any, analytic: bool, side: int) -> Any:
        if e == U:
            return x
        if e.is_Rational:
            return flint.acb(flint.arb(int(e.p)) / int(e.q))
        if e == sp.pi:
            return flint.acb(flint.arb.pi())
        if e == sp.E:
            return flint.acb(flint.arb(1).exp())
        if e.is_Add:
            return sum((ev(a, x, analytic, side) for a in e.args[1:]), ev(e.args[0], x, analytic, side))
        if e.is_Mul:
            out = ev(e.args[0], x, analytic, side)
            for a in e.args[1:]:
                out = out * ev(a, x, analytic, side)
            return out
        if e.is_Pow:
            base, exp = e.args
            if exp.is_Integer:
                b = ev(base, x, analytic, side)
                return b ** int(exp) if exp >= 0 else 1 / b ** int(-exp)
            if exp == sp.Rational(1, 2):
                return ev(base, x, analytic, side).sqrt(analytic=analytic)
            if exp == sp.Rational(-1, 2):
                return 1 / ev(base, x, analytic, side).sqrt(analytic=analytic)
            raise _refuse(e, "a non-integer power")
        if isinstance(e, _KINKS):
            positive = side * _kink_slope(e) > 0  # whether the argument (or a - b) is positive on this side
            if isinstance(e, sp.Abs):
                inner = ev(e.args[0], x, analytic, side)
                return inner if positive else -inner
            if isinstance(e, sp.sign):
                return flint.acb(1 if positive else -1)
            if isinstance(e, sp.Heaviside):
                return flint.acb(1 if positive else 0)
            first = positive == isinstance(e, sp.Max)  # Max(a, b) = a where a > b; Min(a, b) = a where a < b
            return ev(e.args[0] if first else e.args[1], x, analytic, side)
        if isinstance(e, sp.log) and len(e.args) == 1:
            return ev(e.args[0], x, analytic, side).log(analytic=analytic)
        if isinstance(e, sp.Function) and type(e) in _ANALYTIC and len(e.args) == 1:
            return _ANALYTIC[type(e)](ev(e.args[0], x, analytic, side))
        raise _refuse(e, "not in the whitelist of analytic operations")

    for node in sp.preorder_traversal(expr):  # refuse early, not inside the integrator
        if isinstance(node, _KINKS):
            _kink_slope(node)
        elif isinstance(node, sp.Function) and not (type(node) in _ANALYTIC or isinstance(node, sp.log)):
            raise _refuse(node, "not in the whitelist of analytic operations")
    return lambda x, analytic, side: ev(expr, x, analytic, side)


def _padd(p: Poly, q: Poly) -> Poly:
    n = max(len(p), len(q))
    return [(p[k] if k < len(p) else 0) + (q[k] if k < len(q) else 0) for k in range(n)]


def _pmul(p: list[Any], q: list[Any], zero: Any = sp.S.Zero) -> list[Any]:
    """Product of two coefficient lists (constant first); ``zero`` of the coefficients' type."""
    out: list[Any] = [zero] * (len(p) + len(q) - 1)
    for j, a in enumerate(p):
        for k, b in enumerate(q):
            out[j + k] += a * b
    return out


def _exp_ratio(e: sp.Mul) -> tuple[sp.Expr, sp.Expr] | None:
    """``(exp(g), rest)`` if ``e = exp(g) * (c + exp(g))^-1 * rest`` with ``c >= 0`` a number (the pair is <= 1)."""
    exps = [a for a in e.args if isinstance(a, sp.exp)]
    for a in e.args:
        if a.is_Pow and a.args[1] == -1 and a.args[0].is_Add:
            for ex in exps:
                c = a.args[0] - ex
                if c.is_number and c.is_nonnegative:
                    return ex, sp.Mul(*[f for f in e.args if f is not a and f is not ex])
    return None


def growth_bound(expr: sp.Expr) -> Poly:
    """Coefficients ``p_k >= 0`` with ``|expr(x)| <= sum p_k |x|^k`` for every real ``x`` (module docstring's rules).

    Raises
    ------
    ParameterError
        If no polynomial bound follows from the rules.
    """
    if expr == U:
        return [sp.Integer(0), sp.Integer(1)]
    if not expr.has(U):
        if not (expr.is_number and expr.is_real):
            raise _refuse(expr, "not a real constant")
        return [abs(expr)]
    if expr.is_Add:
        out: Poly = [sp.Integer(0)]
        for a in expr.args:
            out = _padd(out, growth_bound(a))
        return out
    if expr.is_Mul:
        pair = _exp_ratio(expr)
        if pair is not None:
            return growth_bound(pair[1])
        out = [sp.Integer(1)]
        for a in expr.args:
            out = _pmul(out, growth_bound(a))
        return out
    if expr.is_Pow and expr.args[1].is_Integer and expr.args[1] >= 0:
        base = growth_bound(expr.args[0])
        out = [sp.Integer(1)]
        for _ in range(int(expr.args[1])):
            out = _pmul(out, base)
        return out
    if expr.is_Pow and expr.args[1] == sp.Rational(1, 2) and expr.args[0].is_nonnegative:
        return _padd([sp.Integer(1)], growth_bound(expr.args[0]))  # sqrt(y) <= 1 + y
    if isinstance(expr, (sp.sign, sp.Heaviside)):
        return [sp.Integer(1)]
    if isinstance(expr, sp.Abs):
        return growth_bound(expr.args[0])
    if isinstance(expr, (sp.Max, sp.Min)):  # |Max(a, b)|, |Min(a, b)| <= |a| + |b|
        out = [sp.Integer(0)]
        for a in expr.args:
            out = _padd(out, growth_bound(a))
        return out
    if type(expr) in _BOUNDED and expr.args[0].is_real:
        return [_BOUNDED[type(expr)]]
    if isinstance(expr, sp.exp) and expr.args[0].is_nonpositive:
        return [sp.Integer(1)]
    if isinstance(expr, sp.log) and expr.args[0].is_Add:
        for ex in (a for a in expr.args[0].args if isinstance(a, sp.exp)):
            c = expr.args[0] - ex
            if c.is_number and (c - 1).is_nonnegative:  # 0 <= log(c + e^g) <= log(c) + log(2) + max(g, 0)
                return _padd([sp.log(c) + sp.log(2)], growth_bound(ex.args[0]))
    raise _refuse(expr, "no polynomial growth bound from the rules")


def _upper(x: Any) -> flint.arb:
    """An arb upper bound (``mid + rad``) of a real ball, as an exact ball."""
    return flint.arb(x.mid()) + flint.arb(x.rad())


def _enclose(x: sp.Expr, digits: int) -> flint.arb:
    """A ball containing the real number ``x``: exact for a rational, else ``digits`` digits widened by
    ``10^-(digits - 5) (1 + |x|)`` (sympy's ``N`` is accurate to its requested digits)."""
    if x.is_Rational:
        return flint.arb(int(x.p)) / int(x.q)
    mid = flint.arb(str(sp.N(x, digits)))
    return mid + flint.arb(0, _upper((1 + abs(mid)) * flint.arb(10) ** (5 - digits)))


def _arb_poly(p: Poly) -> list[flint.arb]:
    """Upper bounds of the (non-negative) coefficients of a growth bound, as exact balls."""
    return [_upper(_enclose(c, 30)) for c in p]


def _moments(k_max: int, t: flint.arb) -> tuple[list[flint.arb], list[flint.arb]]:
    """``M_k`` and ``t_k(T)`` for ``k = 0..k_max`` (module docstring)."""
    root_pi = flint.arb.pi().sqrt()
    full, tail = [], []
    for k in range(k_max + 1):
        s = flint.arb(k + 1) / 2
        scale = flint.arb(2) ** (flint.arb(k) / 2) / root_pi
        full.append(scale * s.gamma())
        tail.append(scale * (t * t / 2).gamma_upper(s))
    return full, tail


def _scale(p: list[flint.arb], sigma: flint.arb) -> list[flint.arb]:
    """Coefficients of ``p(sigma x)`` (``sigma >= 0``, upper bounds)."""
    return [_upper(c * _upper(abs(sigma)) ** k) for k, c in enumerate(p)]


def _expect(h: Any, bound: list[flint.arb], tol: flint.arb, cut: float, hermite: bool = False) -> flint.arb:
    """Ball of ``E[h(z)]``, ``z`` standard normal, with ``|h(z)| <= sum bound_k |z|^k``: ``[-T, T]`` plus tails.

    ``h`` is ``h(z, analytic, side)``: the integral is split at 0, each half with its branch of kinks at 0.
    ``hermite``: ``h = f He_n / sqrt(n!)`` and ``bound`` is ``f``'s; Cramer's inequality
    ``|He_n(z)| <= 1.086435 sqrt(n!) e^{z^2/4}`` (Abramowitz & Stegun 22.14.17) gives the tail
    ``1.0865 sum_k p_k 2^{(k+1)/2} t_k(T / sqrt 2)``."""
    value = flint.arb(0)
    for sd, lo, hi in ((-1, -cut, 0.0), (1, 0.0, cut)):
        def integrand(z: Any, an: bool, sd: int = sd) -> Any:
            return (-(z * z) / 2).exp() * h(z, an, sd)
        value += flint.acb.integral(integrand, lo, hi, abs_tol=tol).real
    if hermite:
        _, tail = _moments(len(bound), flint.arb(cut) / flint.arb(2).sqrt())
        tail = [flint.arb("1.0865") * flint.arb(2) ** (flint.arb(k + 1) / 2) * t for k, t in enumerate(tail)]
    else:
        _, tail = _moments(len(bound), flint.arb(cut))
    err = _upper(sum((b * tk for b, tk in zip(bound, tail, strict=False)), flint.arb(0)))
    return value / (2 * flint.arb.pi()).sqrt() + flint.arb(0, err)


def gaussian_expectation(f: AcbFunction, bound_f: Poly, q: flint.arb, c: Any, tol: flint.arb, cut: float,
                         max_terms: int = 200) -> flint.arb:
    r"""A ball containing ``E[f(u) f(v)]``, ``(u, v)`` centred Gaussian with variances ``q`` and covariance ``c``.

    Reduced to 1-D integrals by Mehler's expansion (the Hermite expansion of the bivariate normal density):
    with ``rho = c / q`` and ``b_n = E[f(sqrt(q) z) He_n(z)]``,
    ``E[f(u) f(v)] = sum_n rho^n b_n^2 / n!``; by Parseval, ``sum_n b_n^2 / n! = E[f(u)^2]``, so the terms after
    ``N`` are at most ``|rho|^(N+1) (E[f(u)^2] - sum_{n <= N} b_n^2 / n!)``: a rigorous tail from 1-D integrals
    only (each ``b_n / sqrt(n!)`` computed with the normalized Hermite recurrence, Mehler 1866; Abramowitz &
    Stegun 22.7). ``c = q`` is ``E[f(u)^2]``; ``c = 0`` is ``b_0^2``.

    Parameters
    ----------
    f : acb function ``(x, analytic, side)`` (:func:`acb_function`)
    bound_f : growth bound of ``f`` (:func:`growth_bound`)
    q : arb > 0
    c : arb with ``|c| < q``, or the string ``"diag"`` (``c = q``)
    tol : arb
        Absolute tolerance asked of each ``acb.integral``.
    cut : float
        Truncation ``T`` (standard normal units).
    max_terms : int
        Cap on ``N``.

    Returns
    -------
    flint.arb
    """
    sq = q.sqrt()
    pf = _scale(_arb_poly(bound_f), sq)

    def f_at(z: Any, an: bool, side: int) -> Any:
        return f(sq * z, an, side)

    second = _expect(lambda z, an, side: f_at(z, an, side) ** 2, _pmul(pf, pf, flint.arb(0)), tol, cut)
    if isinstance(c, str):
        return second
    b0 = _expect(f_at, pf, tol, cut)
    if c.is_zero():
        return b0 * b0
    rho = c / q
    r_up = float(_upper(abs(rho)))
    if not r_up < 1:
        raise ParameterError(f"certified quadrature: correlation {rho} is not below 1 in absolute value")
    goal = float(tol.mid()) / 10
    n_max = min(max_terms, max(1, math.ceil(math.log(goal / max(float(_upper(second)), 1e-300)) / math.log(r_up))))
    total, parseval, power = b0 * b0, b0 * b0, flint.arb(1)
    for n in range(1, n_max + 1):

        def h(z: Any, an: bool, side: int, n: int = n) -> Any:
            prev, cur = flint.acb(1), flint.acb(z)
            for k in range(1, n):  # normalized recurrence h_{k+1} = (z h_k - sqrt(k) h_{k-1}) / sqrt(k + 1)
                prev, cur = cur, (z * cur - flint.arb(k).sqrt() * prev) / flint.arb(k + 1).sqrt()
            return f_at(z, an, side) * cur

        b = _expect(h, pf, tol, cut * math.sqrt(2), hermite=True)
        power = power * rho
        total += power * b * b
        parseval += b * b
    rest = _upper(second - parseval)
    rest = rest if rest > 0 else flint.arb(0)
    return total + flint.arb(0, _upper(_upper(abs(rho)) ** (n_max + 1) * rest))


@dataclass(frozen=True)
class CertifiedKappas:
    """Certified ``(kappa_o, kappa_d)`` of an activation's NNGP or NTK.

    Attributes
    ----------
    kappa_o, kappa_d : flint.arb
        Balls guaranteed to contain the kernel values (module docstring).
    radius : float
        The larger radius (an upper bound of the error of the midpoints).
    dps : int
        Requested decimal digits.
    certified : bool
        Whether ``radius <= 10^-dps``.
    """

    kappa_o: flint.arb
    kappa_d: flint.arb
    radius: float
    dps: int
    certified: bool


def certified_kappas(activation: sp.Expr, kind: str, depth: int, w_std: Any = 1, b_std: Any = 0,
                     dps: int = 15, max_terms: int = 200) -> CertifiedKappas:
    r"""``(kappa_o, kappa_d)`` of ``activation-nngp`` / ``activation-ntk`` as certified balls.

    The recursion of :mod:`symbolic_ti.families.activations` (neural-tangents' parameterization) with every
    Gaussian expectation a ball (:func:`gaussian_expectation`).

    Parameters
    ----------
    activation : sympy expression in :data:`~symbolic_ti.families.activation_quadrature.U` (analytic, polynomial
        growth: module docstring)
    kind : {"nngp", "ntk"}
    depth : int >= 1
    w_std, b_std : exact numbers, ``W_std > 0``, ``b_std >= 0``
    dps : int in [5, 40]
        Requested decimal digits: the radius must be at most ``10^-dps``.
    max_terms : int >= 1
        Cap on the terms of each Mehler expansion (:func:`gaussian_expectation`).

    Returns
    -------
    CertifiedKappas

    Raises
    ------
    ParameterError
        For an activation outside the whitelist or without a polynomial growth bound, or bad arguments.

    Warns
    -----
    UntrustedNumericWarning
        If the radius exceeds ``10^-dps`` (``certified`` is then False).
    """
    if kind not in ("nngp", "ntk"):
        raise ParameterError(f"kind must be 'nngp' or 'ntk', got {kind!r}")
    if isinstance(dps, bool) or not isinstance(dps, int) or not 5 <= dps <= 40:
        raise ParameterError(f"dps must be an integer in [5, 40], got {dps!r}")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ParameterError(f"depth must be an integer >= 1, got {depth!r}")
    f, bf = acb_function(activation), growth_bound(activation)
    df: AcbFunction | None = None
    bdf: Poly = [sp.Integer(0)]
    if kind == "ntk":  # phi' almost everywhere (jumps of phi are not taken: their DiracDelta terms are dropped)
        dphi = derivative_ae(activation)
        df, bdf = acb_function(dphi), growth_bound(dphi)
    old = flint.ctx.prec
    flint.ctx.prec = int((dps + 8) * 3.33) + 30
    try:
        tol = flint.arb(10) ** -(dps + 3)
        cut = math.sqrt(2 * (dps + 4) * math.log(10)) + 1.0
        w2, b2 = (_enclose(sp.sympify(x) ** 2, dps + 20) for x in (w_std, b_std))
        sigma = [w2 * t + b2 for t in (flint.arb(1), flint.arb(1) / 2, flint.arb(0))]
        theta = list(sigma)
        for _ in range(depth):
            q = sigma[0]
            covs: list[Any] = ["diag", sigma[1], sigma[2]]
            new = [w2 * gaussian_expectation(f, bf, q, c, tol, cut, max_terms) + b2 for c in covs]
            if df is not None:
                theta = [nw + w2 * th * gaussian_expectation(df, bdf, q, c, tol, cut, max_terms)
                         for nw, th, c in zip(new, theta, covs, strict=True)]
            sigma = new
        out = theta if kind == "ntk" else sigma
        ko, kd = out[1] / out[0], out[2] / out[0]
        radius = float(max(ko.rad(), kd.rad()))
    finally:
        flint.ctx.prec = old
    ok = radius <= 10.0 ** -dps
    if not ok:
        warnings.warn(f"activation {activation}: certified quadrature reached radius {rounded(radius, '.2g')}, not the "
                      f"requested 1e-{dps}; the balls are rigorous but wider", UntrustedNumericWarning, stacklevel=2)
    return CertifiedKappas(ko, kd, radius, dps, ok)
