r"""Critical conjunctivity: the alpha at which each test trial of an exchangeable kernel starts to fail.

For the exchangeable family every test-trial prediction is a rank difference ``f(i, j) = r_i - r_j``, and the
ranks depend on ``alpha``, the ridge ``lambda`` and ``kappa_d`` only through the effective ridge

    gamma = 2 (alpha + lambda') / (1 - alpha),      lambda' = lambda / (1 - kappa_d)

(docs/theory.md#graph-laplacian-reduction). :func:`symbolic_ti.solvers.laplacian.rank_solution` gives the ranks
as ``r_k = N_k(gamma) / D(gamma)`` with ``N_k, D`` in ``ZZ[gamma]`` and ``D = det(Lap + gamma I)``, whose roots
are minus the Laplacian eigenvalues, all ``<= 0``; so ``D > 0`` for ``gamma > 0``. The margin of a test trial
``(i, j)`` with ground truth (``i < j``: ``r_i - r_j``; ``(j, i)`` has the same margin) therefore has the sign
of the integer polynomial ``M = N_i - N_j`` on ``gamma > 0``, and changes sign exactly at the positive real
roots of odd multiplicity of ``M``. As ``alpha`` grows from 0 to 1 at a fixed ridge, ``gamma`` grows
monotonically from ``2 lambda'`` to infinity, so each such root ``gamma* >= 2 lambda'`` is a critical
conjunctivity

    alpha* = (gamma* - 2 lambda') / (gamma* + 2),

one integer polynomial per trial serving every ridge and every ``kappa_d`` at once. Derived in
docs/critical_conjunctivity.md, which also states what is certified and how.

Method (exact; floats appear only as a search hint that is then certified, and for display):

1. ``M`` is taken without its gcd with ``D`` (common factors have roots ``<= 0`` and do not matter on
   ``gamma > 0``), and the factor ``gamma^k`` is divided out. The sign of the margin as ``gamma -> 0+`` is that
   of the lowest nonzero coefficient of ``M``, as ``gamma -> oo`` that of its leading coefficient.
2. Descartes' rule of signs: with no sign variation in its coefficients ``M`` has no positive root (the
   trial's sign never changes); with exactly one, ``M`` has exactly one positive root, and it is simple.
   (Single exceptions, n <= 25, spans 2..7: 76 of 196,090 margins have two variations, none more.)
3. One variation: the root is bracketed by rationals ``lo < hi`` with exact integer sign evaluations
   ``sign M(lo) = -sign M(hi)`` (a float bisection proposes the bracket; an exact bisection takes over if
   the two exact signs do not confirm it). More variations: ``M / gcd(M, D)`` is factored over ZZ and the
   positive roots of each irreducible factor are isolated (Descartes, exact bisection, ``Poly.intervals``).
4. Equal roots are detected exactly: two roots whose brackets are disjoint are distinct; when brackets
   overlap, the roots are equal exactly when ``gcd`` of their polynomials changes sign on the overlap (a
   trial divisibility test first). Equal roots then share one object (and the smaller polynomial), so
   "the same alpha*" is decided exactly; distinct roots are ordered by refining brackets until they separate.
5. Exact values are computed only on access: the minimal polynomial (a ``factor_list`` of the canceled
   numerator) and the index of the root among its real roots (``Poly.intervals``) give a ``Rational``, a
   radical (degree 2) or a ``CRootOf``; ``alpha*`` is a root of the Moebius-transformed polynomial.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cmp_to_key
from typing import Any, Iterable

import sympy as sp
from sympy.polys.rings import PolyElement

from .. import symbols as S
from ..arguments import exact_number, parse_ridge, resolve_trials
from ..errors import ParameterError, TaskError
from ..solvers.laplacian import _R, GAMMA, RankSolution, rank_solution
from ..task import Task

__all__ = [
    "GammaRoot", "TrialGammas", "critical_gammas", "margin_gammas",
    "AlphaCrossing", "TrialConjunctivity", "FailureGroup", "ConjunctivityReport", "critical_conjunctivity",
    "alpha_from_gamma", "gamma_from_alpha", "rescaled_ridge",
]

Trial = tuple[int, int]


# ===================================================================================== exact univariate tools
# Polynomials are tuples of Python ints, highest degree first. Points are fractions.Fraction.
def _sgn(x: int) -> int:
    return (x > 0) - (x < 0)


def _variations(coeffs: tuple[int, ...]) -> int:
    """Number of sign changes in the nonzero coefficients (Descartes' bound on positive roots)."""
    out, last = 0, 0
    for c in coeffs:
        if c:
            s = 1 if c > 0 else -1
            if last and s != last:
                out += 1
            last = s
    return out


def _sign_at(coeffs: tuple[int, ...], x: Fraction) -> int:
    """Exact sign of the polynomial at a rational point (homogeneous Horner in integers)."""
    a, b = x.numerator, x.denominator
    acc, bp = coeffs[0], 1
    for c in coeffs[1:]:
        bp *= b
        acc = acc * a + c * bp
    return _sgn(acc)


def _float_eval(fc: list[float], x: float) -> float:
    acc = 0.0
    for c in fc:
        acc = acc * x + c
    return acc


def _primitive(coeffs: Iterable[int]) -> tuple[int, ...]:
    cs = [int(c) for c in coeffs]
    g = 0
    for c in cs:
        g = math.gcd(g, c)
    if cs[0] < 0:
        g = -g
    return tuple(c // g for c in cs)


def _cauchy_bound(cs: tuple[int, ...]) -> Fraction:
    """A rational strictly above the absolute value of every root."""
    m = max(abs(c) for c in cs[1:])
    return Fraction(m, abs(cs[0])) + 1


def _divides(g: tuple[int, ...], p: tuple[int, ...]) -> bool:
    """Whether the primitive integer polynomial ``g`` divides ``p`` in ZZ[x] (exact long division)."""
    dg = len(g) - 1
    if len(p) - 1 < dg:
        return False
    rem = list(p)
    lc = g[0]
    for k in range(len(p) - dg):
        c = rem[k]
        if c == 0:
            continue
        q, r = divmod(c, lc)
        if r:
            return False  # Gauss: a primitive divisor of an integer polynomial leaves an integer quotient
        for m in range(1, dg + 1):
            rem[k + m] -= q * g[m]
    return not any(rem[len(p) - dg:])


def _ring(coeffs: tuple[int, ...]) -> PolyElement:
    return _R.from_list(list(coeffs))


def _to_coeffs(p: PolyElement) -> tuple[int, ...]:
    return tuple(int(c) for c in p.to_dense())


class _Root:
    """A positive real algebraic number: the only root of the integer polynomial ``poly`` in ``[s, t]``.

    Invariants: the root is simple in ``poly``; either ``s == t`` (the root is this rational) or ``s < t`` with
    ``poly(s)``, ``poly(t)`` nonzero and of opposite signs. ``poly`` may be replaced by a divisor that keeps the
    root (a gcd found while comparing, or the minimal polynomial once computed). Exact and float values are
    computed on first access.
    """

    __slots__ = ("poly", "s", "t", "_sign_s", "_den", "_min", "_index", "_exact", "_float", "_alpha")

    def __init__(self, poly: tuple[int, ...], s: Fraction, t: Fraction, den: tuple[int, ...] | None = None,
                 minimal: bool = False) -> None:
        self.poly, self.s, self.t, self._den = poly, s, t, den
        self._sign_s = _sign_at(poly, s) if s != t else 0
        self._min: tuple[int, ...] | None = None
        self._index: int | None = None
        if s == t:
            self._min, self._index = (s.denominator, -s.numerator), 0
        elif minimal:
            self._min = poly
        self._exact: sp.Expr | None = None
        self._float: float | None = None
        self._alpha: dict[sp.Rational, sp.Expr] = {}

    @property
    def rational(self) -> bool:
        return self.s == self.t

    def refine(self) -> None:
        """Halve the isolating interval (exact sign at the midpoint)."""
        if self.s == self.t:
            return
        m = (self.s + self.t) / 2
        sm = _sign_at(self.poly, m)
        if sm == 0:  # the root is this rational
            self.s = self.t = m
            self._min, self._index = (m.denominator, -m.numerator), 0
        elif sm == self._sign_s:
            self.s = m
        else:
            self.t = m

    def refine_to(self, rel: int) -> None:
        """Refine until ``t - s <= t / 2**rel``."""
        while self.t - self.s > self.t / 2**rel:
            self.refine()

    def compare_rational(self, c: Fraction) -> int:
        """-1, 0 or 1 as the root is below, equal to or above the rational ``c``."""
        while True:
            if self.s == self.t:
                return _sgn(self.s - c)
            if c <= self.s:
                return 1  # s is not a root, so the root is > s >= c
            if c >= self.t:
                return -1
            if _sign_at(self.poly, c) == 0:
                return 0
            self.refine()

    @property
    def value_float(self) -> float:
        if self._float is None:
            self.refine_to(54)
            self._float = float((self.s + self.t) / 2)
        return self._float

    def minimal(self) -> tuple[tuple[int, ...], int]:
        """(Coefficients of the minimal polynomial over ZZ, primitive, positive leading coefficient; index of
        the root among its real roots in increasing order). Factors ``poly`` once."""
        if self._min is None:
            p = _ring(self.poly)
            if self._den is not None:
                p = p.exquo(p.gcd(_ring(self._den)))  # factors of det(Lap + gamma I) have roots <= 0
            _, facs = p.factor_list()
            for g, _m in facs:
                gc = _primitive(_to_coeffs(g))
                if len(gc) >= 2 and _sign_at(gc, self.s) != _sign_at(gc, self.t):
                    self._min = gc
                    break
            else:  # pragma: no cover - the root is a root of exactly one irreducible factor
                raise AssertionError("internal: no factor vanishes in the isolating interval")
            self.poly = self._min
            self._sign_s = _sign_at(self.poly, self.s)
        if self._index is None:
            cs = self._min
            self._index = _roots_below(cs, self.s, GAMMA)
        return self._min, self._index

    @property
    def exact(self) -> sp.Expr:
        if self._exact is None:
            if self.rational:
                self._exact = sp.Rational(self.s.numerator, self.s.denominator)
            else:
                cs, index = self.minimal()
                self._exact = _exact_root(cs, index, GAMMA)
        return self._exact

    def alpha(self, lam: sp.Rational) -> sp.Expr:
        """``(gamma* - 2 lam) / (gamma* + 2)`` exactly (see :func:`_alpha_exact`)."""
        got = self._alpha.get(lam)
        if got is None:
            got = self._alpha[lam] = _alpha_exact(self, lam)
        return got


def _interval(r: _Root) -> tuple[sp.Rational, sp.Rational]:
    return (sp.Rational(r.s.numerator, r.s.denominator), sp.Rational(r.t.numerator, r.t.denominator))


def _exact_root(coeffs: tuple[int, ...], index: int, symbol: sp.Symbol) -> sp.Expr:
    """Rational, radical (degree 2) or ``CRootOf`` form of the real root number ``index`` (increasing order)
    of the irreducible integer polynomial ``coeffs`` (positive leading coefficient)."""
    if len(coeffs) == 2:
        return sp.Rational(-coeffs[1], coeffs[0])
    if len(coeffs) == 3:
        p, q, r = (sp.Integer(c) for c in coeffs)
        disc = sp.sqrt(q * q - 4 * p * r)
        pair = [(-q - disc) / (2 * p), (-q + disc) / (2 * p)]  # p > 0: increasing
        return pair[index]
    return sp.CRootOf(sp.Poly.from_list(list(coeffs), symbol, domain="ZZ"), index)


def _cmp_root(a: _Root, b: _Root) -> int:
    """Exact comparison of two roots known to be equal only if they are the same object."""
    if a is b:
        return 0
    while True:
        if a.t < b.s:
            return -1
        if b.t < a.s:
            return 1
        if a.rational and b.rational:  # pragma: no cover - distinct objects hold distinct numbers
            return _sgn(a.s - b.s)
        if (a.t - a.s) >= (b.t - b.s):
            a.refine()
        else:
            b.refine()


_ROOT_KEY = cmp_to_key(_cmp_root)


def _same_number(a: _Root, b: _Root) -> tuple[int, ...] | None:
    """If the two roots are equal, a common divisor of their polynomials that keeps the root; else None.

    Exact: with ``G = gcd(a.poly, b.poly)``, equality holds exactly when ``G`` has a root in the intersection
    of the two isolating intervals (then it is the only root of either polynomial there). ``G`` is simple at
    that root and nonzero at the intersection's end points (each is an end point of an isolating interval),
    so the test is a sign change.
    """
    if a.rational or b.rational:
        r, o = (a, b) if a.rational else (b, a)
        if o.rational:
            return r.poly if r.s == o.s else None
        if o.s < r.s < o.t and _sign_at(o.poly, r.s) == 0:
            return (r.s.denominator, -r.s.numerator)
        return None
    lo, hi = max(a.s, b.s), min(a.t, b.t)
    if lo >= hi:
        return None
    for x, y in ((a, b), (b, a)):
        if len(x.poly) <= len(y.poly) and _divides(x.poly, y.poly) \
                and _sign_at(x.poly, lo) * _sign_at(x.poly, hi) < 0:
            return x.poly
    g = _ring(a.poly).gcd(_ring(b.poly))
    if g.degree() < 1:
        return None
    gc = _primitive(_to_coeffs(g))
    return gc if _sign_at(gc, lo) * _sign_at(gc, hi) < 0 else None


def _roots_below(cs: tuple[int, ...], x: Fraction, symbol: sp.Symbol) -> int:
    """Number of real roots ``<= x`` of the squarefree integer polynomial ``cs`` (positive leading
    coefficient), ``x`` not a root. Exact: closed form for degree <= 2, Sturm sequences (sympy) otherwise."""
    if len(cs) == 2:
        return int(Fraction(-cs[1], cs[0]) < x)
    if len(cs) == 3:
        v = _sign_at(cs, x)
        if v < 0:
            return 1
        return 0 if x < Fraction(-cs[1], 2 * cs[0]) else 2
    g = sp.Poly.from_list(list(cs), symbol, domain="ZZ")
    # Isolate all real roots (continued fractions, much faster than Sturm sequences at high degree; bounding
    # the search by x instead is slow when x is very close to a root), then place x among the intervals. An
    # interval (a, b) containing x holds its root below x exactly when g changes sign on (a, x).
    sx = _sign_at(cs, x)
    count = 0
    for a, b in g.intervals(sqf=True):
        a, b = Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))
        if b < x or (a == b and a < x):
            count += 1
        elif a < x < b and _sign_at(cs, a) * sx < 0:
            count += 1
    return count


def _alpha_exact(root: _Root, lam: sp.Rational) -> sp.Expr:
    """Exact ``alpha* = (gamma* - 2 lam)/(gamma* + 2)`` from the minimal polynomial ``g`` of ``gamma*``.

    For degree >= 2, ``g`` is carried to ``h(a) = (1 - a)^d g((2 a + 2 lam)/(1 - a))`` (times a power of the
    denominator of ``lam``), irreducible like ``g`` (a Moebius transform) and of the same degree
    (``g(-2) != 0``). The map ``gamma -> alpha`` is increasing on ``gamma > -2``, so the isolating interval
    ``[s, t]`` of ``gamma*`` maps to one of ``alpha*``, and the index of ``alpha*`` among the real roots of
    ``h`` is the number of real roots of ``h`` below ``alpha(s)``.
    """
    if root.rational:
        g = sp.Rational(root.s.numerator, root.s.denominator)
        return (g - 2 * lam) / (g + 2)
    gc, _ = root.minimal()
    a = S.alpha
    d = len(gc) - 1
    p_, q_ = int(lam.p), int(lam.q)
    num = sp.Poly(2 * q_ * a + 2 * p_, a, domain="ZZ")  # q (2 a + 2 lam)
    den = sp.Poly(q_ - q_ * a, a, domain="ZZ")  # q (1 - a)
    npow, dpow = [sp.Poly(1, a, domain="ZZ")], [sp.Poly(1, a, domain="ZZ")]
    for _ in range(d):
        npow.append(npow[-1] * num)
        dpow.append(dpow[-1] * den)
    h = sp.Poly(0, a, domain="ZZ")
    for k, c in enumerate(reversed(gc)):  # c is the coefficient of gamma^k
        if c:
            h += c * npow[k] * dpow[d - k]
    hc = _primitive(int(c) for c in h.all_coeffs())
    lamf = Fraction(p_, q_)
    a_s = (root.s - 2 * lamf) / (root.s + 2)
    return _exact_root(hc, _roots_below(hc, a_s, a), a)


# ======================================================================================== gamma-level API
@dataclass(frozen=True, eq=False)
class GammaRoot:
    """A positive real root ``gamma*`` of the margin numerator of a test trial.

    Attributes
    ----------
    multiplicity : int
        Multiplicity as a root of the margin numerator; odd roots change the sign.
    direction : {"to_error", "to_correct", "touch"}
        As gamma (and alpha) grows: ``+ -> -``, ``- -> +``, or no sign change (even multiplicity).

    Properties (computed on first access, exact): ``value`` (a ``Rational``, a radical for a quadratic
    minimal polynomial, a ``CRootOf`` otherwise), ``value_float``, ``factor`` (the minimal polynomial over
    ZZ, a ``sympy.Poly`` in :data:`symbolic_ti.solvers.laplacian.GAMMA`), ``index`` (of the root among the real
    roots of ``factor``, increasing, as in ``CRootOf``) and ``interval`` (a rational isolating interval).
    Roots of different trials that are the same number share one internal object, so :meth:`same_root` is
    exact and cheap. ``==`` is identity; compare numbers with :meth:`same_root`.
    """

    multiplicity: int
    direction: str
    _root: _Root = field(repr=False, compare=False)

    @property
    def value(self) -> sp.Expr:
        return self._root.exact

    @property
    def value_float(self) -> float:
        return self._root.value_float

    @property
    def factor(self) -> sp.Poly:
        cs, _ = self._root.minimal()
        return sp.Poly.from_list(list(cs), GAMMA, domain="ZZ")

    @property
    def index(self) -> int:
        return self._root.minimal()[1]

    @property
    def interval(self) -> tuple[sp.Rational, sp.Rational]:
        return _interval(self._root)

    def __repr__(self) -> str:
        return f"GammaRoot({self.value_float:.10g}, {self.direction}, multiplicity {self.multiplicity})"

    def same_root(self, other: "GammaRoot") -> bool:
        """Whether the two roots are the same number (exact)."""
        return self._root is other._root or _same_number(self._root, other._root) is not None

    def compare(self, c: Any) -> int:
        """-1, 0 or 1 as ``gamma*`` is below, equal to or above the rational number ``c`` (exact)."""
        x = exact_number(c, "gamma")
        if not x.is_Rational:
            raise ParameterError(f"gamma must be a rational number to compare exactly, got {x}")
        return self._root.compare_rational(Fraction(int(x.p), int(x.q)))

    def alpha(self, ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Expr:
        """The conjunctivity ``(gamma* - 2 lambda')/(gamma* + 2)`` of this root at a ridge, exactly."""
        return self._root.alpha(rescaled_ridge(ridge, kappa_d))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary: exact value (text and LaTeX), float, direction, minimal polynomial."""
        return {"gamma": str(self.value), "gamma_latex": sp.latex(self.value), "gamma_float": self.value_float,
                "direction": self.direction, "multiplicity": self.multiplicity,
                "factor": str(self.factor.as_expr()), "index": self.index}


@dataclass(frozen=True)
class TrialGammas:
    """Sign structure of the margin of one test trial in the effective ridge gamma on ``(0, oo)``.

    Attributes
    ----------
    trial : (i, j)
    category : str
        Category of the trial (:data:`symbolic_ti.task.CATEGORIES`).
    roots : tuple of GammaRoot
        Positive roots of odd multiplicity, in increasing order: the sign changes.
    touches : tuple of GammaRoot
        Positive roots of even multiplicity (the margin vanishes without changing sign).
    sign_at_zero : int
        Sign of the margin as ``gamma -> 0+``: ``+1`` correct, ``-1`` wrong, ``0`` identically zero.
    sign_at_infinity : int
        Sign as ``gamma -> oo`` (the purely conjunctive limit ``alpha -> 1``).
    numerator : tuple of int
        Coefficients (highest degree first) of the margin numerator ``N_min(i,j) - N_max(i,j)`` with the factor
        ``gamma^k`` removed; on ``gamma > 0`` the margin has its sign.
    """

    trial: Trial
    category: str
    roots: tuple[GammaRoot, ...]
    touches: tuple[GammaRoot, ...]
    sign_at_zero: int
    sign_at_infinity: int
    numerator: tuple[int, ...] = field(repr=False)

    def sign_after(self, gamma0: Any) -> int:
        """Exact sign of the margin just above ``gamma0`` (a rational ``>= 0``)."""
        x = exact_number(gamma0, "gamma")
        c = Fraction(int(x.p), int(x.q))
        passed = sum(1 for r in self.roots if r._root.compare_rational(c) <= 0)
        return self.sign_at_zero * (-1) ** passed

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        return {"trial": list(self.trial), "category": self.category, "sign_at_zero": self.sign_at_zero,
                "sign_at_infinity": self.sign_at_infinity, "roots": [r.to_dict() for r in self.roots],
                "touches": [r.to_dict() for r in self.touches]}


def _float_root(cs: tuple[int, ...], s0: int) -> float | None:
    """Float estimate of the unique positive root (a hint only; ``None`` if floats overflow)."""
    try:
        fc = [float(c) for c in cs]
    except OverflowError:  # pragma: no cover - coefficients beyond the float range
        return None

    def sign(x: float) -> int | None:
        v = _float_eval(fc, x)
        if v != v or v in (math.inf, -math.inf):
            return None
        return (v > 0) - (v < 0)

    x = 1.0
    v = sign(x)
    if v is None:
        return None
    if v == s0:
        lo = x
        for _ in range(1100):
            x *= 2.0
            v = sign(x)
            if v is None:
                return None
            if v != s0:
                break
            lo = x
        hi = x
    else:
        hi = x
        for _ in range(1100):
            x *= 0.5
            v = sign(x)
            if v is None or x == 0.0:
                return None
            if v == s0:
                break
            hi = x
        lo = x
    for _ in range(64):
        m = 0.5 * (lo + hi)
        if m <= lo or m >= hi:
            break
        v = sign(m)
        if v is None:
            return None
        if v == s0:
            lo = m
        else:
            hi = m
    return 0.5 * (lo + hi)


def _bracket(cs: tuple[int, ...], s0: int) -> tuple[Fraction, Fraction]:
    """Certified bracket of the unique positive root of ``cs`` (one sign variation, so the root is simple and
    the sign is ``s0`` exactly below it, ``-s0`` above): ``(lo, hi)`` with exact signs ``s0`` at ``lo`` and
    ``-s0`` at ``hi``, or ``(x, x)`` for a rational root met on the way. A float bisection gives a hint that two
    exact sign evaluations certify; exact bisection when they do not."""
    hint = _float_root(cs, s0)
    if hint is not None and hint > 0:
        mid = Fraction(hint)
        for rel in (50, 40, 30, 20):
            eps = mid / 2**rel
            l2, h2 = mid - eps, mid + eps
            sl, sh = _sign_at(cs, l2), _sign_at(cs, h2)
            if sl == 0:
                return l2, l2
            if sh == 0:
                return h2, h2
            if sl == s0 and sh == -s0:
                return l2, h2
    # exact fallback: a dyadic octave by doubling or halving, then bisection
    hi = Fraction(1)
    v = _sign_at(cs, hi)
    if v == 0:
        return hi, hi
    if v == s0:
        lo = hi
        while True:
            hi = lo * 2
            v = _sign_at(cs, hi)
            if v == 0:
                return hi, hi
            if v != s0:
                break
            lo = hi
    else:
        while True:
            lo = hi / 2
            v = _sign_at(cs, lo)
            if v == 0:
                return lo, lo
            if v == s0:
                break
            hi = lo
    while hi - lo > hi / 2**40:
        m = (lo + hi) / 2
        v = _sign_at(cs, m)
        if v == 0:
            return m, m
        if v == s0:
            lo = m
        else:
            hi = m
    return lo, hi


class _RootFinder:
    """Per-task registry of the distinct positive roots met so far (see the module docstring, steps 3-4).

    Invariant: distinct registered objects are distinct numbers, so sorting needs only interval refinement.
    """

    def __init__(self, ranks: RankSolution) -> None:
        self.ranks = ranks
        self.den = _to_coeffs(ranks.denominator)
        self.known: list[_Root] = []
        self.factorizations = 0
        self.gcds = 0

    def register(self, new: _Root) -> _Root:
        """Return the registered root equal to ``new`` (merging polynomials), or register ``new``."""
        new.refine_to(40)
        for old in self.known:
            if old.t < new.s or new.t < old.s:
                continue  # disjoint isolating intervals: distinct numbers
            old.refine_to(40)
            while not (old.t < new.s or new.t < old.s):  # a few more halvings before an exact gcd
                wide = old if (old.t - old.s) * new.t >= (new.t - new.s) * old.t else new
                if wide.rational or wide.t - wide.s <= wide.t / 2**52:
                    break
                wide.refine()
            if old.t < new.s or new.t < old.s:
                continue
            self.gcds += 1
            common = _same_number(old, new)
            if common is not None:
                if len(common) < len(old.poly):
                    old.poly = common
                    old._sign_s = _sign_at(common, old.s) if not old.rational else 0
                if new._min is not None and old._min is None:
                    old._min = new._min
                return old
        self.known.append(new)
        return new

    def analyse(self, i: int, j: int) -> tuple[list[tuple[_Root, int]], int, int, tuple[int, ...]]:
        """Positive roots (registered, with multiplicity) and end signs of ``N_i - N_j``, ``gamma^k`` removed."""
        num = self.ranks.numerators[i - 1] - self.ranks.numerators[j - 1]
        return self.analyse_poly(num, lambda: self.ranks.rank_difference(i, j)[0], self.den)

    def analyse_poly(self, num: PolyElement, canceled: Any, den: tuple[int, ...] | None
                     ) -> tuple[list[tuple[_Root, int]], int, int, tuple[int, ...]]:
        """Positive roots (registered, with multiplicity) and the signs as ``gamma -> 0+`` and ``gamma -> oo`` of
        an integer polynomial ``num``; ``canceled()`` gives the polynomial to factor when Descartes' rule does
        not decide (``num`` without factors whose roots are ``<= 0``), ``den`` such a known factor or ``None``."""
        if not num:
            return [], 0, 0, ()
        cs = list(_to_coeffs(num))
        while cs[-1] == 0:
            cs.pop()
        cs = tuple(cs)
        s0, sinf = _sgn(cs[-1]), _sgn(cs[0])
        v = _variations(cs)
        if v == 0:
            return [], s0, sinf, cs
        if v == 1:  # Descartes: exactly one positive root, simple
            lo, hi = _bracket(cs, s0)
            return [(self.register(_Root(cs, lo, hi, den)), 1)], s0, sinf, cs
        # several sign variations: factor over ZZ
        self.factorizations += 1
        _, facs = canceled().factor_list()
        out: list[tuple[_Root, int]] = []
        for g, mult in facs:
            gc = _primitive(_to_coeffs(g))
            if len(gc) < 2 or _variations(gc) == 0:
                continue
            for root in _positive_roots(gc):
                out.append((self.register(root), mult))
        return out, s0, sinf, cs


def _positive_roots(gc: tuple[int, ...]) -> list[_Root]:
    """Isolated positive roots of an irreducible primitive integer polynomial."""
    if len(gc) == 2:
        x = Fraction(-gc[1], gc[0])
        return [_Root(gc, x, x, minimal=True)] if x > 0 else []
    v = _variations(gc)
    if v == 0:
        return []
    if v == 1:
        lo, hi = _bracket(gc, _sgn(gc[-1]))
        return [_Root(gc, lo, hi, minimal=True)]
    poly = sp.Poly.from_list(list(gc), GAMMA, domain="ZZ")
    out = []
    for (s, t), _m in sorted(poly.intervals(inf=0)):
        out.append(_Root(gc, Fraction(int(s.p), int(s.q)), Fraction(int(t.p), int(t.q)), minimal=True))
    return out


class GammaAnalysis(dict):
    """The mapping trial -> :class:`TrialGammas` returned by :func:`critical_gammas`, which remembers its task
    so that :func:`critical_conjunctivity` can refuse an analysis of another task."""

    def __init__(self, task: Task) -> None:
        super().__init__()
        self.task = task


def _sign_structure(key: Trial, analysed: tuple[list[tuple[_Root, int]], int, int, tuple[int, ...]]) -> tuple:
    """Odd roots as sign changes with their directions, even roots as touches, from :meth:`_RootFinder.analyse`."""
    roots, s0, sinf, cs = analysed
    mult: dict[int, int] = {}
    for r, m in roots:
        mult[id(r)] = mult.get(id(r), 0) + m
    uniq = {id(r): r for r, _ in roots}
    odd = sorted((r for k, r in uniq.items() if mult[k] % 2), key=_ROOT_KEY)
    even = sorted((r for k, r in uniq.items() if mult[k] % 2 == 0), key=_ROOT_KEY)
    crossing, sign = [], s0
    for r in odd:
        crossing.append(GammaRoot(mult[id(r)], "to_error" if sign > 0 else "to_correct", r))
        sign = -sign
    touch = tuple(GammaRoot(mult[id(r)], "touch", r) for r in even)
    if sign != sinf:  # pragma: no cover - Descartes/factoring agree with the end signs
        raise AssertionError(f"internal: inconsistent signs for trial {key}")
    return tuple(crossing), touch, s0, sinf, cs


def margin_gammas(task: Task, trials: Iterable[Trial], lambda_prime: Any,
                  ranks: RankSolution | None = None) -> dict[Trial, TrialGammas]:
    r"""Sign structure in gamma of the margins of training and test trials at a fixed rescaled ridge.

    Test trials as in :func:`critical_gammas`. A training trial ``(a, b)`` with target ``y`` has the prediction
    ``f = d + c (y - d)`` with ``d = r_a - r_b`` and the memorized share
    ``c = alpha / (alpha + lambda') = (gamma - 2 lambda') / ((1 + lambda') gamma)`` (docs/theory.md#graph-laplacian-reduction),
    so with ``e = y d = E / D`` and ``lambda' = p / q`` its margin is

        y f = [E (p + q) gamma + (q gamma - 2 p)(D - E)] / [D (p + q) gamma],

    whose denominator is positive for ``gamma > 0``. The roots of the numerator are analysed exactly as for
    test trials. Derived here, see docs/critical_conjunctivity.md#training-trials.

    Parameters
    ----------
    task : Task
    trials : iterable of (i, j)
        Trials with a margin (training trials, test trials with ground truth).
    lambda_prime : rational >= 0
        The rescaled ridge ``lambda / (1 - kappa_d)``; 0 for the ridgeless limit.
    ranks : RankSolution, optional

    Returns
    -------
    dict (i, j) -> TrialGammas
    """
    lam = exact_number(lambda_prime, "lambda_prime")
    if not lam.is_Rational or lam < 0:
        raise ParameterError(f"lambda_prime must be a rational number >= 0, got {lam}")
    p, q = int(lam.p), int(lam.q)
    rs = ranks if ranks is not None else rank_solution(task)
    finder = _RootFinder(rs)
    cats, targets = task.categories, task.training_targets
    done: dict[Trial, tuple] = {}
    out: dict[Trial, TrialGammas] = {}
    gam = _R.gens[0]
    for t in trials:
        if t in targets:
            y = targets[t]
            e = y * (rs.numerators[t[0] - 1] - rs.numerators[t[1] - 1])
            num = e * gam * (p + q) + (q * gam - 2 * p) * (rs.denominator - e)
            out[t] = TrialGammas(t, cats[t], *_sign_structure(t, finder.analyse_poly(num, lambda: num, None)))
            continue
        if task.ground_truth(t) is None:
            raise TaskError(f"trial {t} has no ground truth (both items lie in one exception's cycle)")
        key = (min(t), max(t))
        if key not in done:
            done[key] = _sign_structure(key, finder.analyse(*key))
        out[t] = TrialGammas(t, cats[t], *done[key])
    return out


def critical_gammas(task: Task, trials: Any = None, *, ranks: RankSolution | None = None
                    ) -> dict[Trial, TrialGammas]:
    """Positive roots in the effective ridge gamma at which test-trial margins change sign, exactly.

    Parameters
    ----------
    task : Task
        Any TI task (the exchangeable family is implied: its test predictions are rank differences).
    trials : list of (i, j), optional
        Test trials with ground truth; default all of them (both orders).
    ranks : RankSolution, optional
        A precomputed :func:`symbolic_ti.solvers.laplacian.rank_solution` of ``task``.

    Returns
    -------
    dict (i, j) -> TrialGammas
        For each trial: the positive roots of odd multiplicity of its margin numerator (sorted, exact on
        access, with float and direction), roots of even multiplicity, and the margin's sign as
        ``gamma -> 0+`` and ``gamma -> oo``. ``(i, j)`` and ``(j, i)`` have the same margin and share the
        analysis.

    Raises
    ------
    ParameterError
        If ``task`` is not a Task.
    TaskError
        If a requested trial is a training trial or has no ground truth.

    Notes
    -----
    ``gamma = 2 (alpha + lambda') / (1 - alpha)`` with ``lambda' = lambda / (1 - kappa_d)``; see
    :func:`critical_conjunctivity` for alpha. Method in the module docstring.

    Examples
    --------
    >>> g = critical_gammas(Task(9, ["6>4"]), [(3, 6)])
    >>> g[(3, 6)].roots[0].value
    -3/2 + sqrt(13)/2
    """
    if not isinstance(task, Task):
        raise ParameterError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    chosen = resolve_trials(task, trials, test_only=True)
    rs = ranks if ranks is not None else rank_solution(task)
    finder = _RootFinder(rs)
    cats = task.categories
    done: dict[Trial, tuple] = {}
    out: GammaAnalysis = GammaAnalysis(task)
    for t in chosen:
        key = (min(t), max(t))
        if key not in done:
            done[key] = _sign_structure(key, finder.analyse(*key))
        crossing, touch, s0, sinf, cs = done[key]
        out[t] = TrialGammas(t, cats[t], crossing, touch, s0, sinf, cs)
    return out


# ======================================================================================== alpha-level API
def rescaled_ridge(ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Rational:
    """``lambda' = lambda / (1 - kappa_d)`` as an exact rational (0 for ``"ridgeless"``, ``None`` or 0).

    Raises
    ------
    ParameterError
        If the ridge is negative or not a rational number, or ``kappa_d`` is outside ``[0, 1)``.
    """
    kd = exact_number(kappa_d, "kappa_d")
    if not kd.is_Rational or not (0 <= kd < 1):
        raise ParameterError(f"kappa_d must be a rational number in [0, 1), got {kd}")
    lam = parse_ridge(ridge, numeric=True)
    if lam is None:
        return sp.Integer(0)
    if not lam.is_Rational:
        raise ParameterError(f"ridge must be a rational number >= 0 or 'ridgeless', got {lam}")
    return sp.Rational(lam / (1 - kd))


def alpha_from_gamma(gamma: Any, ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Expr:
    """``alpha = (gamma - 2 lambda') / (gamma + 2)``: the conjunctivity at which the effective ridge is ``gamma``.

    In ``[0, 1)`` exactly when ``gamma >= 2 lambda'``; ``gamma = oo`` gives 1. Inverse of
    :func:`gamma_from_alpha`.
    """
    lam = rescaled_ridge(ridge, kappa_d)
    g = sp.sympify(gamma)
    if g == sp.oo:
        return sp.Integer(1)
    return sp.radsimp(sp.together((g - 2 * lam) / (g + 2)))


def gamma_from_alpha(alpha: Any, ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Expr:
    """``gamma = 2 (alpha + lambda') / (1 - alpha)`` (``oo`` at ``alpha = 1``), exactly."""
    lam = rescaled_ridge(ridge, kappa_d)
    a = exact_number(alpha, "alpha")
    if a == 1:
        return sp.oo
    return sp.cancel(2 * (a + lam) / (1 - a))


@dataclass(frozen=True)
class AlphaCrossing:
    """A sign change of a test-trial margin at a critical conjunctivity ``alpha*`` in ``(0, 1)``.

    Attributes
    ----------
    trial : (i, j)
    direction : {"to_error", "to_correct"}
    lambda_prime : sympy.Rational
        The rescaled ridge of the report.

    Properties (exact ones computed on first access): ``alpha`` (Rational, radical or ``CRootOf`` in the
    Symbol ``alpha``), ``alpha_float``, ``gamma`` (the effective ridge ``gamma*``), ``gamma_float``.
    """

    trial: Trial
    direction: str
    lambda_prime: sp.Rational
    _root: _Root = field(repr=False, compare=False)

    @property
    def alpha(self) -> sp.Expr:
        return self._root.alpha(self.lambda_prime)

    @property
    def gamma(self) -> sp.Expr:
        return self._root.exact

    @property
    def gamma_float(self) -> float:
        return self._root.value_float

    @property
    def alpha_float(self) -> float:
        return _alpha_float(self._root, self.lambda_prime)

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary; ``exact=False`` leaves out the closed forms (slow for high degrees) and keeps
        the floats and a certified rational interval of ``gamma*``."""
        out: dict[str, Any] = {"trial": list(self.trial), "direction": self.direction,
                               "alpha_float": self.alpha_float, "gamma_float": self.gamma_float,
                               "gamma_interval": [str(x) for x in _interval(self._root)]}
        if exact:
            out.update({"alpha": str(self.alpha), "alpha_latex": sp.latex(self.alpha), "gamma": str(self.gamma)})
        return out


def _alpha_float(root: _Root, lam: sp.Rational) -> float:
    if root.rational:
        x = root.s
    else:
        root.refine_to(56)
        x = (root.s + root.t) / 2
    lf = Fraction(int(lam.p), int(lam.q))
    return float((x - 2 * lf) / (x + 2))


@dataclass(frozen=True)
class TrialConjunctivity:
    """Critical conjunctivities of one test trial at a fixed ridge.

    Attributes
    ----------
    trial : (i, j)
    category : str
    crossings : tuple of AlphaCrossing
        Sign changes in ``0 < alpha < 1``, increasing.
    wrong_at_start : bool
        The margin is negative as ``alpha -> 0+``.
    wrong_at_end : bool
        The margin is negative as ``alpha -> 1-``.
    """

    trial: Trial
    category: str
    crossings: tuple[AlphaCrossing, ...]
    wrong_at_start: bool
    wrong_at_end: bool

    @property
    def first_error(self) -> AlphaCrossing | None:
        """The first ``"to_error"`` crossing, or ``None``."""
        return next((c for c in self.crossings if c.direction == "to_error"), None)

    @property
    def ever_wrong(self) -> bool:
        """Whether the trial is wrong somewhere in ``0 < alpha < 1``."""
        return self.wrong_at_start or self.first_error is not None

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary (``exact``: see :meth:`AlphaCrossing.to_dict`)."""
        return {"trial": list(self.trial), "category": self.category, "wrong_at_start": self.wrong_at_start,
                "wrong_at_end": self.wrong_at_end, "crossings": [c.to_dict(exact) for c in self.crossings]}


@dataclass(frozen=True)
class FailureGroup:
    """Trials that first become wrong together, at one exact ``alpha*`` (or already as ``alpha -> 0+``).

    Attributes
    ----------
    at_start : bool
        The trials are wrong already as ``alpha -> 0+``.
    trials : tuple of (i, j)
    lambda_prime : sympy.Rational

    Properties: ``alpha`` (exact, ``0`` when ``at_start``), ``alpha_float``, ``gamma`` (exact ``gamma*``,
    ``None`` when ``at_start``), ``gamma_float``.
    """

    at_start: bool
    trials: tuple[Trial, ...]
    lambda_prime: sp.Rational
    _root: _Root | None = field(repr=False, compare=False, default=None)

    @property
    def alpha(self) -> sp.Expr:
        return sp.Integer(0) if self._root is None else self._root.alpha(self.lambda_prime)

    @property
    def alpha_float(self) -> float:
        return 0.0 if self._root is None else _alpha_float(self._root, self.lambda_prime)

    @property
    def gamma(self) -> sp.Expr | None:
        return None if self._root is None else self._root.exact

    @property
    def gamma_float(self) -> float | None:
        return None if self._root is None else self._root.value_float

    @property
    def gamma_interval(self) -> tuple[sp.Rational, sp.Rational] | None:
        """A rational interval ``[s, t]`` certified to contain ``gamma*`` and no other root of its defining
        polynomial (``s == t`` for a rational root); ``None`` when ``at_start``."""
        return None if self._root is None else _interval(self._root)

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary (``exact``: see :meth:`AlphaCrossing.to_dict`)."""
        out: dict[str, Any] = {"at_start": self.at_start, "trials": [list(t) for t in self.trials],
                               "alpha_float": self.alpha_float, "gamma_float": self.gamma_float,
                               "gamma_interval": None if self._root is None else
                               [str(x) for x in _interval(self._root)]}
        if exact or self._root is None:
            out.update({"alpha": str(self.alpha), "alpha_latex": sp.latex(self.alpha),
                        "gamma": None if self.gamma is None else str(self.gamma)})
        return out


@dataclass(frozen=True)
class ConjunctivityReport:
    """Critical conjunctivities of the test trials of a task at one ridge (exchangeable family).

    Attributes
    ----------
    task : Task
    ridge : sympy.Rational or None
        ``None`` for the ridgeless limit.
    kappa_d : sympy.Rational
    lambda_prime : sympy.Rational
        The rescaled ridge ``lambda / (1 - kappa_d)`` (0 ridgeless); ``alpha = 0`` is ``gamma = 2 lambda'``.
    trials : tuple of TrialConjunctivity
        In trial order.
    groups : tuple of FailureGroup
        Every trial that is wrong somewhere in ``0 < alpha < 1``, grouped by the exact alpha at which it first
        fails, in increasing order (trials wrong as ``alpha -> 0+`` first).
    notes : tuple of str
    seconds : float
        Wall time of the analysis.
    """

    task: Task
    ridge: sp.Rational | None
    kappa_d: sp.Rational
    lambda_prime: sp.Rational
    trials: tuple[TrialConjunctivity, ...]
    groups: tuple[FailureGroup, ...]
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    # ------------------------------------------------------------------ access
    @property
    def first_failing(self) -> tuple[Trial, ...]:
        """The trials that fail first as alpha grows (empty when no test trial ever fails)."""
        return self.groups[0].trials if self.groups else ()

    @property
    def alpha_first(self) -> sp.Expr | None:
        """The critical conjunctivity of the first failure, exactly; ``0`` when some test trial is already
        wrong as ``alpha -> 0+``; ``None`` when none ever fails."""
        return self.groups[0].alpha if self.groups else None

    @property
    def alpha_first_float(self) -> float | None:
        """:attr:`alpha_first` as a float."""
        return self.groups[0].alpha_float if self.groups else None

    @property
    def wrong_at_start(self) -> tuple[Trial, ...]:
        """Test trials already wrong as ``alpha -> 0+``."""
        return tuple(t.trial for t in self.trials if t.wrong_at_start)

    @property
    def failure_order(self) -> tuple[tuple[Trial, float], ...]:
        """``(trial, alpha)`` in the order of first failure, as :attr:`symbolic_ti.CriticalReport.failure_order`
        (wrong-at-start trials with 0.0, then by first ``to_error`` crossing; ties in trial order)."""
        return tuple((t, g.alpha_float) for g in self.groups for t in g.trials)

    def trial(self, i: int, j: int) -> TrialConjunctivity:
        """The entry of trial ``(i, j)``.

        Raises
        ------
        ParameterError
            If the trial is not in the report.
        """
        for t in self.trials:
            if t.trial == (i, j):
                return t
        raise ParameterError(f"trial ({i}, {j}) is not in this report (test trials with ground truth only)")

    def ridge_text(self) -> str:
        """``"ridgeless"`` or ``"lambda = ..."`` (with kappa_d when nonzero)."""
        r = "ridgeless (lambda -> 0+)" if self.ridge is None else f"lambda = {self.ridge}"
        return r + (f", kappa_d = {self.kappa_d}" if self.kappa_d != 0 else "")

    # ----------------------------------------------------------------- display
    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary: exact values as sympy text and LaTeX, floats, certified intervals of
        ``gamma*``. ``exact=False`` leaves out the closed forms, which for large n are ``CRootOf`` of high
        degree and take a fraction of a second each (the first failure's ``alpha_first`` is always given)."""
        return {
            "task": {"n": self.task.n, "exceptions": [str(e) for e in self.task.exceptions]},
            "ridge": "ridgeless" if self.ridge is None else str(self.ridge),
            "kappa_d": str(self.kappa_d),
            "lambda_prime": str(self.lambda_prime),
            "first_failing": [list(t) for t in self.first_failing],
            "alpha_first": None if self.alpha_first is None else str(self.alpha_first),
            "alpha_first_float": self.alpha_first_float,
            "wrong_at_start": [list(t) for t in self.wrong_at_start],
            "groups": [g.to_dict(exact) for g in self.groups],
            "trials": [t.to_dict(exact) for t in self.trials],
            "notes": list(self.notes),
            "seconds": self.seconds,
        }

    def to_json(self, exact: bool = True, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON text (other keyword arguments go to :func:`json.dumps`)."""
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(exact), **kwargs)

    def to_text(self, max_groups: int | None = 12) -> str:
        """Plain-text summary: first failure, the first ``max_groups`` failure groups (exact and float; ``None``
        shows all), the counts of trials that are ever wrong."""
        lines = [f"Critical conjunctivity alpha* of the test trials: {self.task.label()}; exchangeable; "
                 f"{self.ridge_text()}",
                 f"(alpha = (gamma - 2 lambda')/(gamma + 2), lambda' = {self.lambda_prime})", ""]
        if not self.groups:
            lines.append("No test trial is wrong for any alpha in (0, 1).")
        else:
            g0 = self.groups[0]
            where = "already wrong as alpha -> 0+" if g0.at_start else f"alpha* = {g0.alpha} ~ {g0.alpha_float:.6g}"
            lines.append(f"First failing: {_trials_text(g0.trials)}: {where}")
            lines.append("")
            lines.append(f"{'alpha*':<12}{'gamma*':<12}trials (first error as alpha grows)   exact alpha*")
            shown = self.groups if max_groups is None else self.groups[:max_groups]
            for g in shown:
                if g.at_start:
                    lines.append(f"{'0+':<12}{'':<12}{_trials_text(g.trials)}   (wrong as alpha -> 0+)")
                else:
                    gam = g.gamma_float
                    lines.append(f"{g.alpha_float:<12.6g}{gam:<12.6g}{_trials_text(g.trials)}   {g.alpha}")
            if max_groups is not None and len(self.groups) > max_groups:
                lines.append(f"... {len(self.groups) - max_groups} more group(s)")
        never = [t for t in self.trials if not t.ever_wrong]
        recover = [t for t in self.trials if t.ever_wrong and not t.wrong_at_end]
        lines.append("")
        lines.append(f"{len(self.trials)} test trials with ground truth: {len(self.trials) - len(never)} wrong for "
                     f"some alpha, {len(never)} correct for every alpha in (0, 1)"
                     + (f"; {len(recover)} wrong ones are correct again as alpha -> 1" if recover else ""))
        if self.notes:
            lines += ["", "Notes:"] + [f"  - {n}" for n in self.notes]
        return "\n".join(lines)

    def to_latex(self, notebook: bool = False, max_groups: int | None = 12) -> str:
        """LaTeX table of the first ``max_groups`` failure groups (``None``: all); a ``tabular``, or with
        ``notebook=True`` a MathJax ``array``."""
        rows = []
        for g in (self.groups if max_groups is None else self.groups[:max_groups]):
            trials = ", ".join(f"({i},{j})" for i, j in g.trials if i < j) or \
                ", ".join(f"({i},{j})" for i, j in g.trials)
            if g.at_start:
                a = r"0^{+}"
            else:
                a = sp.latex(g.alpha) + ("" if g.alpha.is_Rational else rf" \approx {g.alpha_float:.5g}")
            rows.append((a, trials))
        if max_groups is not None and len(self.groups) > max_groups:
            rows.append((r"\dots", rf"\text{{{len(self.groups) - max_groups} more groups}}"))
        ridge = r"\lambda \to 0^{+}" if self.ridge is None else rf"\lambda = {sp.latex(self.ridge)}"
        title = rf"n = {self.task.n},\ " + ",\\ ".join(
            f"{e.winner}>{e.loser}" for e in self.task.exceptions) + rf",\ {ridge}"
        if notebook:
            body = [r"\begin{array}{ll}", r"\alpha^{*} & \text{trials } (i<j) \\ \hline"]
            body += [rf"{a} & {t} \\" for a, t in rows]
            body.append(r"\end{array}")
            return "$$" + title + r"\\" + "\n".join(body) + "$$"
        body = [rf"% critical conjunctivity: {self.task.label()}; {self.ridge_text()}",
                r"\begin{tabular}{ll}", rf"\multicolumn{{2}}{{l}}{{${title}$}} \\",
                r"$\alpha^{*}$ & trials ($i<j$; the reverses fail with them) \\ \hline"]
        body += [rf"${a}$ & ${t}$ \\" for a, t in rows]
        body.append(r"\end{tabular}")
        return "\n".join(body)

    def _repr_latex_(self) -> str:
        return self.to_latex(notebook=True)

    def _repr_html_(self) -> str:
        from ..export.notebook import conjunctivity_to_html

        return conjunctivity_to_html(self)

    def __str__(self) -> str:
        return self.to_text()


def _trials_text(trials: Iterable[Trial]) -> str:
    ts = list(trials)
    fwd = [t for t in ts if t[0] < t[1]]
    rev = {(j, i) for i, j in fwd}
    rest = [t for t in ts if t[0] > t[1] and t not in rev]
    parts = [f"({i},{j})" for i, j in fwd] + [f"({i},{j})" for i, j in rest]
    suffix = " and reverses" if fwd and all((j, i) in set(ts) for i, j in fwd) else ""
    return ", ".join(parts) + suffix


def critical_conjunctivity(task: Task, ridge: Any = "ridgeless", kappa_d: Any = 0, *, trials: Any = None,
                           gammas: dict[Trial, TrialGammas] | None = None) -> ConjunctivityReport:
    r"""Critical conjunctivities ``alpha*`` at which the test trials fail, exchangeable family, exactly.

    Parameters
    ----------
    task : Task
    ridge : "ridgeless", None, 0 or a rational number >= 0
        The ridge ``lambda`` (decimals read exactly: ``0.1`` is 1/10).
    kappa_d : rational in [0, 1), default 0
        Enters only through ``lambda' = lambda / (1 - kappa_d)``.
    trials : list of (i, j), optional
        Test trials with ground truth; default all of them.
    gammas : dict, optional
        A precomputed :func:`critical_gammas` of ``task`` covering ``trials`` (reused across ridges).

    Returns
    -------
    ConjunctivityReport
        Per trial the crossings ``alpha*`` in ``(0, 1)`` (``alpha* = (gamma* - 2 lambda')/(gamma* + 2)`` for the
        roots ``gamma* > 2 lambda'``), whether it is wrong as ``alpha -> 0+`` and as ``alpha -> 1``; the
        failure groups, the first failing trials and ``alpha*_first``.

    Raises
    ------
    ParameterError
        For a negative or irrational ridge, or ``kappa_d`` outside ``[0, 1)``.
    TaskError
        For a training trial or a trial without ground truth.

    Notes
    -----
    Agrees with ``symbolic_ti.critical_values(derive(n, exceptions, ridge=ridge), "alpha", (0, 1))`` on test
    trials (tests/test_conjunctivity.py), much faster: one univariate integer polynomial per trial, shared by
    all ridges. Crossings exactly at ``alpha = 0`` (``gamma* = 2 lambda'``) are not crossings in ``(0, 1)``;
    they decide ``wrong_at_start``. See docs/critical_conjunctivity.md.

    Examples
    --------
    >>> rep = critical_conjunctivity(Task(9, ["6>4"]), "ridgeless")
    >>> rep.alpha_first, rep.first_failing[:2]
    (4/3 - sqrt(13)/3, ((3, 6), (4, 7)))
    """
    start = time.perf_counter()
    if not isinstance(task, Task):
        raise ParameterError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    lam = rescaled_ridge(ridge, kappa_d)
    kd = sp.Rational(exact_number(kappa_d, "kappa_d"))
    ridge_value = None if lam == 0 else sp.Rational(exact_number(ridge, "ridge"))
    chosen = resolve_trials(task, trials, test_only=True)
    if gammas is None:
        gammas = critical_gammas(task, chosen)
    elif getattr(gammas, "task", None) != task:
        other = getattr(gammas, "task", None)
        raise ParameterError(
            "gammas must come from critical_gammas(task) for this task "
            f"({task.label()}), got an analysis of {other.label() if other is not None else 'an unknown task'}")
    missing = [t for t in chosen if t not in gammas]
    if missing:
        raise ParameterError(f"gammas does not cover the trials {missing[:5]}")
    g0 = Fraction(2 * int(lam.p), int(lam.q))  # gamma at alpha = 0
    notes: list[str] = []
    entries: list[TrialConjunctivity] = []
    first: dict[Trial, _Root] = {}
    for t in chosen:
        tg = gammas[t]
        if tg.sign_at_zero == 0:
            notes.append(f"the margin of {t} is identically zero")
        sign = tg.sign_at_zero
        crossings = []
        for r in tg.roots:
            c = r._root.compare_rational(g0)
            if c <= 0:  # at or below alpha = 0: decides the sign as alpha -> 0+
                if c == 0:
                    notes.append(f"the margin of {t} vanishes exactly at alpha = 0 (gamma = {g0})")
                sign = -sign
                continue
            crossings.append(AlphaCrossing(t, r.direction, lam, r._root))
        wrong_start = sign < 0
        if not wrong_start:
            fe = next((c for c in crossings if c.direction == "to_error"), None)
            if fe is not None:
                first[t] = fe._root
        entries.append(TrialConjunctivity(t, tg.category, tuple(crossings), wrong_start, tg.sign_at_infinity < 0))
    groups: list[FailureGroup] = []
    at_start = tuple(e.trial for e in entries if e.wrong_at_start)
    if at_start:
        groups.append(FailureGroup(True, at_start, lam))
    by_root: dict[int, list[Trial]] = {}
    roots: dict[int, _Root] = {}
    for t, r in first.items():
        by_root.setdefault(id(r), []).append(t)
        roots[id(r)] = r
    for r in sorted(roots.values(), key=_ROOT_KEY):
        groups.append(FailureGroup(False, tuple(by_root[id(r)]), lam, r))
    return ConjunctivityReport(task, ridge_value, kd, lam, tuple(entries), tuple(groups),
                               tuple(dict.fromkeys(notes)), time.perf_counter() - start)
