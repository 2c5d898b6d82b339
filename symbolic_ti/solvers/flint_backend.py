"""Fraction-free ridge solves over ZZ[params] with FLINT's multivariate polynomials (python-flint).

The dense ridge system of a kernel whose entries are polynomials in several parameters (for example the
geometric family with ``alpha``, ``rho`` and the ridge symbolic) is solved here by fraction-free
Gauss-Jordan elimination (Bareiss' one-step rule applied to every row: each division is exact, and at the
end every diagonal entry equals ``det(K + lambda I)``), then every prediction ``k(t)^T adj(K + lambda I) y``
is divided by its gcd with the determinant. The algorithm is the one of
:meth:`sympy.polys.matrices.DomainMatrix.rref_den`; only the arithmetic moves from sympy's pure-Python
``PolyElement`` to FLINT's ``fmpz_mpoly`` (C), which is what removes the blow-up measured in
docs/performance.md#geometric-family-symbolic-item-geometry. The sympy path stays available (``backend="sympy"``) and the tests
compare the two.

Used by the dispatcher through :func:`symbolic_ti.solvers.dense.lazy_predictions` and
:func:`~symbolic_ti.solvers.dense.lazy_ridgeless_limit` whenever python-flint is installed and the Gram matrix
lies in a polynomial ring over ZZ or QQ with at least one generator (the closed forms stay FLINT polynomials,
:class:`Solution`), and by :func:`symbolic_ti.solvers.dense.predict_ridge` (sympy expressions) for two or more.
"""

from __future__ import annotations

import math
from typing import Any

import sympy as sp

from ..results import PolyFraction

__all__ = ["available", "fraction_free_solve", "Solution", "solve_predictions", "canceled", "as_form", "factor_list",
           "poly_expr"]

import flint as _flint  # python-flint, a dependency


def available() -> bool:
    """Always True: python-flint is a dependency (kept until 0.3; the library does not import without it).

    .. deprecated:: 0.2
    """
    import warnings

    warnings.warn("symbolic_ti.solvers.flint_backend.available() is deprecated and will be removed in symbolic_ti 0.3: python-flint is a "
                  "dependency, so it is always True", DeprecationWarning, stacklevel=2)
    return True


def _applies(domain: Any) -> bool:
    return bool(getattr(domain, "is_PolynomialRing", False)) and \
        (domain.domain.is_ZZ or domain.domain.is_QQ)


def _to_flint(rows: list[list[Any]], ctx: Any) -> tuple[list[list[Any]], int]:
    """Entries (sympy PolyElements over ZZ or QQ) as fmpz_mpoly after one common integer scaling; returns the
    rows and the scale."""
    lcm = 1
    for row in rows:
        for e in row:
            for c in e.values():
                lcm = math.lcm(lcm, int(getattr(c, "denominator", 1)))
    out = []
    for row in rows:
        out.append([ctx.from_dict({m: int(getattr(c, "numerator", c)) * (lcm // int(getattr(c, "denominator", 1)))
                                   for m, c in e.items()}) for e in row])
    return out, lcm


def _from_flint(p: Any, ring: Any) -> Any:
    return ring.from_dict({tuple(m): ring.domain(int(c)) for m, c in p.to_dict().items()})


class Solution:
    """The fraction-free solution of ``(gram + ridge I) c = targets`` in FLINT, read one query at a time.

    Built by :func:`fraction_free_solve`. ``gens`` are the ring's generators (sympy Symbols), ``ctx`` the ``fmpz_mpoly``
    context in their order (lex), ``names`` their names; :meth:`fraction` gives the canceled prediction of a
    query as two FLINT polynomials, :meth:`form` as a :class:`~symbolic_ti.results.PolyFraction`.
    """

    def __init__(self, ctx: Any, gens: tuple[sp.Expr, ...], det: Any, xnum: list[Any], crows: list[list[Any]],
                 cscale: int) -> None:
        self.ctx, self.gens, self.names = ctx, gens, tuple(str(g) for g in gens)
        self._det, self._xnum, self._crows, self._cscale = det, xnum, crows, cscale
        self.n_queries = len(crows)

    def fraction(self, t: int) -> tuple[Any, Any] | None:
        """``(N, D)`` of query ``t``: ``gcd(N, D) = 1`` (integer content included), ``D``'s leading coefficient
        positive (lex in :attr:`gens`); ``None`` when the prediction is 0."""
        num = self.ctx.from_dict({})
        for c, x in zip(self._crows[t], self._xnum, strict=True):
            if not c.is_zero():
                num = num + c * x
        if num.is_zero():
            return None
        return canceled(num, self._det * self._cscale)

    def form(self, t: int) -> PolyFraction | sp.Expr:
        """Query ``t``'s prediction as a PolyFraction of the FLINT polynomials (a sympy Rational when it is a
        number); its ``as_expr()`` is the expression :func:`solve_predictions` lists."""
        return as_form(self.fraction(t), self.gens)


def canceled(num: Any, den: Any) -> tuple[Any, Any]:
    """``num / den`` (FLINT polynomials, ``den != 0``) divided by their gcd, ``den``'s leading coefficient > 0."""
    g = num.gcd(den)
    if not g.is_one():
        num, den = num // g, den // g
    if den.leading_coefficient() < 0:
        num, den = -num, -den
    return num, den


def as_form(nd: tuple[Any, Any] | None, gens: tuple[sp.Expr, ...]) -> PolyFraction | sp.Expr:
    """A canceled pair of FLINT polynomials as the closed form a solver hands over: ``0`` for ``None``, a sympy
    Rational when both are constants, else a :class:`~symbolic_ti.results.PolyFraction` in ``gens``."""
    if nd is None:
        return sp.Integer(0)
    num, den = nd
    if num.is_constant() and den.is_constant():
        return sp.Rational(int(num.leading_coefficient()), int(den.leading_coefficient()))
    return PolyFraction.from_polys(num, den, gens=gens)


def fraction_free_solve(gram: Any, ridge: Any, targets: Any, cross: Any,
                        ridge_weights: Any = None) -> Solution | None:
    """Solve ``(gram + ridge I) c = targets`` fraction-free in FLINT (module docstring), or ``None`` if this
    backend does not apply (parameters of :func:`solve_predictions`; with ``ridge_weights`` the ridge term is
    ``ridge diag(ridge_weights)``).

    Raises
    ------
    ZeroDivisionError
        If ``gram + ridge I`` is singular (no nonzero pivot); the caller turns it into a SolveError.
    """
    dom = gram.domain
    if not _applies(dom):
        return None
    ring = dom.ring if hasattr(dom, "ring") else None
    if ring is None:  # pragma: no cover - sympy's PolynomialRing always has .ring
        return None
    names = tuple(str(g) for g in ring.symbols)
    ctx = _flint.fmpz_mpoly_ctx.get(names, "lex")
    m = gram.shape[0]
    a_rows = gram.to_list()
    if ridge is not None:
        for r in range(m):
            a_rows[r][r] = a_rows[r][r] + (ridge if ridge_weights is None else ridge * ridge_weights[r])
    aug = [a_rows[r] + [targets.to_list()[r][0]] for r in range(m)]
    mat, _ = _to_flint(aug, ctx)  # a common scale of K + lambda I and y leaves the solution unchanged
    zero = ctx.from_dict({})
    prev = ctx.from_dict({(0,) * len(names): 1})
    for k in range(m):  # fraction-free Gauss-Jordan
        piv = next((r for r in range(k, m) if not mat[r][k].is_zero()), None)
        if piv is None:
            raise ZeroDivisionError("singular ridge system")
        if piv != k:
            mat[k], mat[piv] = mat[piv], mat[k]
        p = mat[k][k]
        for r in range(m):
            if r == k:
                continue
            f = mat[r][k]
            row_r, row_k = mat[r], mat[k]
            new = []
            for c in range(m + 1):
                if c == k:
                    new.append(zero)
                    continue
                v = p * row_r[c] - f * row_k[c]
                new.append(v if prev.is_one() else v // prev)
            mat[r] = new
        prev = p
    # Every row r now reads  D_r x_r = b_r  with D_r the final pivot scale; bring them to det = prev.
    det = prev
    xnum = []
    for r in range(m):
        d_r = mat[r][r]
        b_r = mat[r][m]
        if d_r == det:
            xnum.append(b_r)
        else:
            q, rem = divmod(b_r * det, d_r)
            if not rem.is_zero():  # pragma: no cover - Cramer's rule makes det * x_r a polynomial
                raise ArithmeticError("internal: inexact division in the fraction-free solve")
            xnum.append(q)
    crows, cscale = _to_flint(cross.to_list(), ctx)
    return Solution(ctx, tuple(ring.symbols), det, xnum, crows, cscale)


def solve_predictions(gram: Any, ridge: Any, targets: Any, cross: Any, lazy: bool = False,
                      ridge_weights: Any = None) -> Any:
    """Predictions ``cross (gram + ridge I)^{-1} targets``, canceled, or ``None`` if this backend does not apply.

    Parameters
    ----------
    gram : DomainMatrix, shape (m, m)
        Over a polynomial ring ``ZZ[x_1..x_k]`` or ``QQ[x_1..x_k]``, ``k >= 1``.
    ridge : domain element or None
        Added to the diagonal (may be a generator, e.g. the ridge Symbol); ``None`` adds nothing.
    targets : DomainMatrix, shape (m, 1)
    cross : DomainMatrix, shape (T, m)

    lazy : bool
        Return a function ``t -> prediction of query t`` that cancels one prediction per call and returns it as
        a :class:`~symbolic_ti.results.PolyFraction` of the FLINT polynomials (turning large polynomials into
        sympy expressions is the slow part; its ``as_expr()`` is the expression the list holds), or a sympy
        Rational when the prediction is a number (:meth:`Solution.form`).
    ridge_weights : sequence of m domain elements, optional
        The ridge's weight on each row (``1 / count``, :attr:`symbolic_ti.gram.GramSystem.ridge_weights`): the
        system is ``(gram + ridge diag(ridge_weights)) c = targets``; default the identity.

    Returns
    -------
    list of T sympy expressions (or a callable, with ``lazy``), or None
        Each ``N / D`` with ``gcd(N, D) = 1`` (as sympy polynomials in the ring's generators).

    Raises
    ------
    ZeroDivisionError
        If ``gram + ridge I`` is singular (no nonzero pivot); the caller turns it into a SolveError.
    """
    sol = fraction_free_solve(gram, ridge, targets, cross, ridge_weights)
    if sol is None:
        return None
    if lazy:
        return sol.form
    dom = gram.domain
    ring = dom.ring

    def prediction(t: int) -> sp.Expr:
        nd = sol.fraction(t)
        if nd is None:
            return sp.Integer(0)
        return dom.to_sympy(_from_flint(nd[0], ring)) / dom.to_sympy(_from_flint(nd[1], ring))

    return [prediction(t) for t in range(sol.n_queries)]


def factor_list(expr: sp.Expr) -> tuple[sp.Expr, list[tuple[sp.Expr, int]]] | None:
    """``sympy.factor_list`` of a polynomial with rational coefficients in two or more symbols, computed with
    FLINT's multivariate factorization; ``None`` when it does not apply (then use sympy's).

    Returns
    -------
    (coefficient, [(factor, multiplicity), ...]) with ``coefficient * prod(factor**multiplicity) == expr``; the
    factors are primitive integer polynomials, as sympy returns them (signs may differ from sympy's choice).
    """
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    if len(syms) < 2:
        return None
    try:
        poly = sp.Poly(expr, *syms, domain="QQ")
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed):
        return None
    terms = poly.terms()
    lcm = 1
    for _, c in terms:
        lcm = math.lcm(lcm, int(c.q))
    ctx = _flint.fmpz_mpoly_ctx.get(tuple(s.name for s in syms), "lex")
    fp = ctx.from_dict({m: int(c.p) * (lcm // int(c.q)) for m, c in terms})
    content, facs = fp.factor()
    return sp.Rational(int(content), lcm), [(poly_expr(f, tuple(syms)), int(k)) for f, k in facs]


def poly_expr(p: Any, gens: tuple[sp.Expr, ...]) -> sp.Expr:
    """A FLINT integer polynomial in ``gens`` (its context's order) as an expanded sympy expression."""
    return sp.Add(*[sp.Integer(int(c)) * sp.Mul(*[g**e for g, e in zip(gens, m, strict=True) if e])
                    for m, c in p.to_dict().items()])
