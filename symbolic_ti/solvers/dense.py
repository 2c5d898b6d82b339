"""Exact solution of the kernel ridge system with DomainMatrix (fraction-free over polynomial rings).

Counts (weights) enter as ``(K + lambda C^{-1}) c = y`` and ``K C K c = K C y`` (:mod:`symbolic_ti.gram`).

* ridge (numeric or symbolic): ``(K + lambda I) c = y`` by ``solve_den``, which returns a numerator vector
  and one common denominator without fractions in the ground domain; predictions ``k(t)^T c`` are then
  canceled once in the fraction field.
* ridgeless (``lambda -> 0+``), two independent methods:

  - ``"pinv"``: the limit equals ``k(t)^T K^+ y`` (minimum-norm interpolant) because ``k(t)`` lies in the
    range of a positive semidefinite ``K``; any least-squares solution ``c`` of ``K c ~ y`` gives the same
    ``k(t)^T c``, and the normal equations ``K^2 c = K y`` are always consistent. Solved by fraction-free
    RREF, so a singular ``K`` is handled exactly.
  - ``"limit"``: solve with a symbolic ridge, then take the one-sided limit of each rational function of
    lambda at 0 from its lowest-order terms.

  With symbolic parameters both give the generic limit, valid for every parameter value except the finitely
  many roots of a leading coefficient; ``"limit"`` also returns those coefficients (the result's
  ``ridgeless_conditions``), so ``"auto"`` uses it whenever parameters remain symbolic. At such a root,
  solve again with the value set.
  See docs/theory.md#ridgeless-limit.

Closed forms kept as polynomials (issue 17): when the system lies in a polynomial ring over ZZ or QQ with at
least one generator (:func:`flint_applies`), the dispatcher calls :func:`lazy_predictions` (a ridge) and
:func:`lazy_ridgeless_limit` (the ``"limit"`` method) instead of :func:`predict_ridge`, :func:`ridgeless_limit`
and :func:`condition_factors`: the same fraction-free solve in FLINT (:mod:`symbolic_ti.solvers.flint_backend`),
the limit and its conditions in FLINT (:mod:`symbolic_ti.solvers.flint_limit`), and every closed form handed
over as a :class:`~symbolic_ti.results.PolyFraction`, built on access, with the same values. The sympy
functions stay (``backend="sympy"``); the tests compare the two.
"""

from __future__ import annotations

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from .. import symbols as S
from ..errors import SolveError
from ..gram import GramSystem
from ..results import LazyPredictions, PolyFraction
from . import flint_backend, flint_limit

__all__ = ["predict_ridge", "predict_ridgeless_pinv", "ridgeless_limit", "condition_factors", "uses_flint",
           "flint_applies", "lazy_predictions", "lazy_ridgeless_limit"]


def uses_flint(system: GramSystem) -> bool:
    """Whether ``predict_ridge(system)`` uses the FLINT backend: python-flint is installed, the Gram matrix is
    over a multivariate polynomial ring over ZZ or QQ (the method's name then ends in ``/flint``)."""
    return flint_applies(system) and len(system.domain.symbols) >= 2


def flint_applies(system: GramSystem) -> bool:
    """Whether :func:`lazy_predictions` and :func:`lazy_ridgeless_limit` apply: python-flint is installed and the
    Gram matrix is over a polynomial ring over ZZ or QQ with at least one generator (``fmpz_mpoly`` with one
    generator is ~50x faster than sympy's ``solve_den`` there too: docs/performance.md)."""
    dom = system.domain
    return flint_backend._applies(dom) and len(dom.symbols) >= 1


def _flint_solution(system: GramSystem) -> flint_backend.Solution:
    try:
        sol = flint_backend.fraction_free_solve(system.gram, system.ridge, system.targets, system.cross,
                                                system.ridge_weights)
    except ZeroDivisionError:
        raise SolveError("the ridge system K + lambda I is singular at this ridge") from None
    if sol is None:
        raise SolveError(f"the FLINT solve needs python-flint and a Gram matrix over ZZ[...] or QQ[...]; this one "
                         f"is over {system.domain}")
    return sol


def lazy_predictions(system: GramSystem, free_symbols: tuple[sp.Symbol, ...]) -> LazyPredictions:
    """Every prediction ``k(t)^T (K + lambda I)^{-1} y`` of a system with a ridge, solved in FLINT, each closed form
    canceled on first access and kept as a :class:`~symbolic_ti.results.PolyFraction`.

    Parameters
    ----------
    system : GramSystem
        With a ridge (a number or the ridge Symbol), :func:`flint_applies`, queries every ordered trial.
    free_symbols : tuple of Symbols
        The symbols the forms may contain (the free parameters and the ridge Symbol if it is one).

    Returns
    -------
    LazyPredictions
        ``antisymmetric`` for a halved system (``f(j, i) = -f(i, j)``, module docstring of
        :mod:`symbolic_ti.gram`; ``f(j, i)`` is :meth:`~symbolic_ti.results.PolyFraction.opposite`, the tree of
        the query solved directly); the full system builds every ordered trial. Each value equals the
        corresponding entry of ``predict_ridge(system, backend="sympy")``.

    Raises
    ------
    SolveError
        If ``K + lambda I`` is singular (a ridge equal to a root of its determinant).
    """
    sol = _flint_solution(system)
    index = {t: k for k, t in enumerate(system.queries)}
    return LazyPredictions(system.queries, lambda i, j: sol.form(index[(i, j)]), tuple(free_symbols),
                           antisymmetric=system.halved, negate=_opposite)


def _opposite(form: PolyFraction | sp.Expr) -> PolyFraction | sp.Expr:
    """``f(j, i)`` of a halved system from ``f(i, j)``: ``(-N) / D``, the tree the direct solve of the query gives."""
    return form.opposite() if isinstance(form, PolyFraction) else -form


def lazy_ridgeless_limit(system: GramSystem) -> tuple[LazyPredictions, tuple[sp.Expr, ...]]:
    """The ridgeless limit ``lambda -> 0+`` of every prediction and its conditions, in FLINT.

    Solves the system with the ridge Symbol (:func:`flint_backend.fraction_free_solve`), takes the limit of each
    canceled prediction from its lowest-order terms in lambda and factors the conditions
    (:mod:`symbolic_ti.solvers.flint_limit`): the values of :func:`ridgeless_limit` on each prediction of
    :func:`predict_ridge`, and the tuple :func:`condition_factors` gives for their conditions. Every limit is taken
    now (the conditions need every denominator); on a halved system f(j, i) is ``(-N) / D`` of f(i, j).

    Parameters
    ----------
    system : GramSystem
        Built with the ridge Symbol ``lambda`` (:func:`symbolic_ti.gram.build_system`), :func:`flint_applies`,
        queries every ordered trial.

    Returns
    -------
    (predictions, conditions)
        :class:`~symbolic_ti.results.LazyPredictions` of PolyFractions in the other generators (numbers as sympy
        Rationals), whose ``free_symbols`` are the symbols the limits contain; the result's
        ``ridgeless_conditions``.

    Raises
    ------
    SolveError
        If a prediction diverges as lambda -> 0+ (impossible for a positive semidefinite kernel).
    """
    sol = _flint_solution(system)
    index = {t: k for k, t in enumerate(system.queries)}
    taken = [index[t] for t in system.queries if t[0] < t[1] or not system.halved]
    n = max(max(t) for t in system.queries)
    forms, conditions, gens, _ = flint_limit.ridgeless_limits(sol, S.ridge, taken, n)
    used = [False] * len(gens)
    for f in forms.values():
        if isinstance(f, PolyFraction):
            for p in f.polys:
                used = [u or bool(d) for u, d in zip(used, p.degrees(), strict=True)]
    lazy = LazyPredictions(system.queries, lambda i, j: forms[index[(i, j)]],
                           tuple(g for g, u in zip(gens, used, strict=True) if u), antisymmetric=system.halved,
                           negate=_opposite)
    return lazy, flint_limit.flint_condition_factors(conditions, gens)


def _field_values(system: GramSystem, num: DomainMatrix, den: object) -> list[sp.Expr]:
    """``num[t] / den`` for each query, canceled in the fraction field, as sympy expressions."""
    dom = num.domain
    field = dom.get_field() if not dom.is_Field else dom
    den_f = field.convert_from(den, dom)
    out = []
    for (v,) in num.to_list():
        q = field.convert_from(v, dom) / den_f
        out.append(field.to_sympy(q))
    return out


def predict_ridge(system: GramSystem, backend: str = "auto") -> list[sp.Expr]:
    """Predictions ``k(t)^T (K + lambda I)^{-1} y`` for every query, exactly.

    Parameters
    ----------
    system : GramSystem
    backend : {"auto", "flint", "sympy"}
        Arithmetic of the fraction-free solve: ``"flint"`` (:mod:`symbolic_ti.solvers.flint_backend`, FLINT's
        multivariate polynomials; only for polynomial rings over ZZ or QQ), ``"sympy"`` (DomainMatrix
        ``solve_den``), ``"auto"``: flint where it applies.

    Raises
    ------
    SolveError
        If ``K + lambda I`` is singular (only possible for a ridge equal to a root of its determinant), or
        ``backend="flint"`` does not apply.
    """
    if backend not in ("auto", "flint", "sympy"):
        raise SolveError(f"backend must be auto, flint or sympy, got {backend!r}")
    if backend != "sympy" and uses_flint(system):
        try:
            values = flint_backend.solve_predictions(system.gram, system.ridge, system.targets, system.cross,
                                                     ridge_weights=system.ridge_weights)
        except ZeroDivisionError:
            raise SolveError("the ridge system K + lambda I is singular at this ridge") from None
        assert values is not None
        return values
    if backend == "flint":
        raise SolveError(f"backend 'flint' needs python-flint and a Gram matrix over ZZ[...] or QQ[...]; this "
                         f"one is over {system.domain}")
    mat = system.regularized()  # K + lambda C^{-1} (C the counts; the identity when every count is 1)
    try:
        xnum, xden = mat.solve_den(system.targets)
    except Exception as err:  # DMNonInvertibleMatrixError and friends
        raise SolveError(f"the ridge system K + lambda I is singular at this ridge ({err})") from None
    return _field_values(system, system.cross * xnum, xden)


def predict_ridgeless_pinv(system: GramSystem) -> list[sp.Expr]:
    """Ridgeless predictions ``k(t)^T K^+ y`` through the consistent normal equations ``K^2 c = K y``; with counts
    ``C`` the weighted ones ``K C K c = K C y`` (the limit of the weighted ridge; module docstring of
    :mod:`symbolic_ti.gram`)."""
    m = system.gram.shape[0]
    lhs, rhs = system.normal_equations()
    aug = lhs.hstack(rhs)
    rref, den, pivots = aug.rref_den()
    if m in pivots:  # cannot happen for a symmetric matrix: K y lies in the range of K^2
        raise SolveError("internal: normal equations of the ridgeless limit are inconsistent")
    dom = rref.domain
    zero = dom.zero
    rows = rref.to_list()
    x = [zero] * m
    for r, col in enumerate(pivots):
        x[col] = rows[r][m]
    xnum = DomainMatrix([[v] for v in x], (m, 1), dom)
    return _field_values(system, system.cross * xnum, den)


def ridgeless_limit(expr: sp.Expr, lam: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """One-sided limit ``lam -> 0+`` of a rational function of ``lam`` (coefficients in other symbols).

    Writes ``expr = lam^a p(lam) / (lam^b q(lam))`` with ``p(0), q(0)`` not identically zero; the limit is
    ``p(0)/q(0)`` when ``a == b`` and ``0`` when ``a > b``.

    Returns
    -------
    (limit, condition) : tuple of sympy expressions
        ``condition = q(0)``, a polynomial in the other symbols: at any parameter point where it does not
        vanish, the formula ``limit`` is the limit of the prediction at that point (the reduced denominator
        keeps its lowest-order coefficient there). At a root of ``condition``, solve again with the value set.

    Raises
    ------
    SolveError
        If ``a < b``: the prediction diverges (impossible for a positive semidefinite kernel).
    """
    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    pn, pd = sp.Poly(num, lam), sp.Poly(den, lam)
    b = min(m[0] for m in pd.monoms())
    lead_den = pd.coeff_monomial(lam**b)
    if pn.is_zero:
        return sp.Integer(0), lead_den
    a = min(m[0] for m in pn.monoms())
    if a < b:
        raise SolveError(flint_limit.DIVERGES)
    if a > b:
        return sp.Integer(0), lead_den
    return sp.cancel(pn.coeff_monomial(lam**a) / lead_den), lead_den


def condition_factors(conditions: list[sp.Expr]) -> tuple[sp.Expr, ...]:
    """The distinct irreducible non-constant factors of ``conditions``, sorted by their string (monic-ish)."""
    seen: dict[str, sp.Expr] = {}
    for c in conditions:
        if not c.free_symbols:
            continue
        _, factors = sp.factor_list(c)
        for fac, _mult in factors:
            if fac.free_symbols:
                fac = sp.expand(fac if sp.Poly(fac).LC() > 0 else -fac)
                seen.setdefault(str(fac), fac)
    return tuple(seen[k] for k in sorted(seen))
