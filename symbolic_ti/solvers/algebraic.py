"""Exact solutions at algebraic parameter values (``alpha = sqrt(2)/3``, nested radicals, several values).

Building the Gram system over a number field ``QQ<theta>[rho, lambda]`` and solving it there with sympy
(``DomainMatrix`` over an algebraic field, ``cancel`` and a limit on sympy expressions) is slow: converting each
entry looks up a minimal polynomial per term, and the fraction-field gcds run subresultant sequences over the
number field (measured in docs/performance.md#algebraic-parameter-values). Instead:

1. the parameters bound to irrational algebraic values (and an irrational ridge) are made symbolic again, and
   the task is solved with rational coefficients on the fast paths (FLINT's multivariate polynomials);
2. every closed form ``N/D`` (``N, D`` in ``QQ[a_1..a_k, x]``, ``x`` the other symbols) is specialised exactly:
   the algebraic values are written in one primitive element ``theta`` of ``QQ(a_1..a_k)`` with minimal
   polynomial ``m``, ``a_i = A_i(theta)``, and ``N(A(t), x) mod m(t)`` is computed in FLINT (``compose`` then
   the remainder by ``m``, its normal form in ``QQ[t]/(m)[x]``);
3. the ridgeless limit ``lambda -> 0+`` is taken after the values are set, from the lowest-order terms in
   ``lambda`` of the specialised numerator and denominator (a limit, never the substitution ``lambda = 0``);
4. the fraction is reduced over ``QQ<theta>``: a common factor of ``N`` and ``D`` divides both norms
   ``Res_t(N, m)`` and ``Res_t(D, m)`` (FLINT), so when those are coprime nothing cancels; otherwise sympy's gcd
   over the number field divides it out.

:func:`symbolic_ti.solvers.solve` calls :func:`solve_at_algebraic` when :func:`algebraic_values` finds such
values, the kernel is not exchangeable (the graph-Laplacian path is univariate and already fast there) and
``ridgeless_method`` is ``"auto"`` (naming ``"pinv"`` or ``"limit"`` keeps the number-field solve, which the
tests compare with). See docs/theory.md#numeric-trust ("Algebraic parameter values").

Step 2 is exact because the solution is a rational function of the kernel entries (Cramer's rule) whose
denominator does not vanish at the values: with the ridge symbolic, ``D`` divides ``det(K + lambda I)``, which is
monic in ``lambda``; at a numeric ridge ``> 0``, ``K + lambda I`` is positive definite. A denominator that
vanishes at the values is nevertheless checked and raises :class:`~symbolic_ti.errors.SolveError`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sympy as sp
from sympy.polys.constructor import construct_domain
from sympy.polys.orderings import lex
from sympy.polys.rings import PolyRing

from .. import symbols as S
from ..errors import ParameterError, SolveError
from ..families.base import Family
from ..flint_values import to_fmpq
from ..results import LazyPredictions, PolyFraction, Result, lifted_terms
from ..task import Task
from .dense import condition_factors
from .flint_limit import DIVERGES, lowest_order

__all__ = ["algebraic_values", "NumberFieldValues", "solve_at_algebraic"]

import flint as _flint  # python-flint, a dependency

#: ``solve(task, family, ridge, method=..., ridgeless_method=...)``: the exact solver for the generic system.
GenericSolver = Callable[..., Result]


def _is_irrational_algebraic(value: object) -> bool:
    v = sp.sympify(value)
    return bool(v.is_number and not v.is_Rational and v.is_algebraic and v.is_real)


def algebraic_values(task: Task, family: Family, ridge: sp.Expr | None) -> dict[sp.Symbol, sp.Expr]:
    """The irrational algebraic values of ``family``'s bound parameters and of ``ridge``, by their Symbol.

    Returns an empty mapping when there are none, when the family cannot leave
    those parameters symbolic (e.g. a sum of families whose values are all bound), or when the kernel with them
    symbolic still has irrational coefficients (an embedding whose cosines are square roots, the ReLU
    constants); then the caller solves over the number field directly (slow, but exact).
    """
    active = {p.name: p for p in family.active_parameters}
    out: dict[sp.Symbol, sp.Expr] = {}
    for name, value in family.values.items():
        if name in active and _is_irrational_algebraic(value):
            out[active[name].symbol] = sp.sympify(value)
    if ridge is not None and _is_irrational_algebraic(ridge):
        out[S.ridge] = sp.sympify(ridge)
    if not out:
        return out
    generic = family
    if any(s != S.ridge for s in out):
        try:
            generic = family.with_values(**{s.name: "symbolic" for s in out if s != S.ridge})
        except (ParameterError, TypeError):
            return {}
    gens = tuple(generic.free_symbols)
    train = [t for t, _ in task.training]
    if not all(_rational_terms(generic.kernel(a, b), gens, strict=True) is not None
               for a in task.trials for b in train):
        return {}
    return out


class NumberFieldValues:
    """Algebraic values written in one primitive element ``theta``: ``value_i = A_i(theta)``, ``m(theta) = 0``.

    Parameters
    ----------
    values : mapping Symbol -> sympy expression
        Irrational real algebraic numbers (square roots, rational powers, nested radicals, ...).

    Attributes
    ----------
    field : sympy AlgebraicField
        ``QQ<theta>``, found by :func:`sympy.polys.constructor.construct_domain` with ``extension=True``.
    degree : int
        The degree of ``m``.
    """

    def __init__(self, values: Mapping[sp.Symbol, sp.Expr]):
        self.symbols = tuple(values)
        self.field, elems = construct_domain(list(values.values()), extension=True)
        if not self.field.is_Algebraic:  # pragma: no cover - the caller passes irrational algebraic values
            raise SolveError(f"internal: {list(values.values())} do not generate a number field")
        self.degree = int(self.field.mod.degree())
        self._reps = [list(reversed(e.to_list())) for e in elems]  # A_i, lowest degree first
        self._mod = list(reversed(self.field.mod.to_list()))

    def specialise(self, exprs: Sequence[Any], gens: Sequence[sp.Symbol],
                   term_gens: Sequence[sp.Expr] | None = None) -> list[Any]:
        """Each polynomial of ``exprs`` (rational coefficients, in ``self.symbols`` and ``gens``) at the values.

        ``exprs`` are sympy expressions, or (with ``term_gens``) term dictionaries ``{exponents: Fraction}`` in
        ``term_gens`` (the terms of a :class:`~symbolic_ti.results.PolyFraction`: no expression is built).

        Returns
        -------
        list of ``fmpq_mpoly`` in ``(t, *gens)``
            ``p(A(t), gens) mod m(t)``: the normal form (degree in ``t`` below ``degree``), zero exactly when
            the polynomial vanishes at the values.
        """
        names_in = tuple(s.name for s in self.symbols) + tuple(g.name for g in gens)
        tname = "theta_"
        while tname in names_in:  # pragma: no cover - no parameter has this name
            tname += "_"
        ctx_in = _flint.fmpq_mpoly_ctx.get(names_in, "lex")
        ctx_out = _flint.fmpq_mpoly_ctx.get((tname,) + tuple(g.name for g in gens), "lex")
        nvar = 1 + len(gens)

        def in_t(coeffs: Sequence[Any]) -> Any:
            return ctx_out.from_dict({tuple(e if k == 0 else 0 for k in range(nvar)): to_fmpq(c)
                                      for e, c in enumerate(coeffs) if c})

        images = [in_t(rep) for rep in self._reps]
        images += [ctx_out.from_dict({tuple(1 if k == 1 + i else 0 for k in range(nvar)): 1})
                   for i in range(len(gens))]
        modulus = in_t(self._mod)
        all_gens = self.symbols + tuple(gens)
        where = None if term_gens is None else [all_gens.index(g) for g in term_gens]
        out = []
        for expr in exprs:
            if where is None:
                terms = _rational_terms(expr, all_gens)
                assert terms is not None
            else:  # exponents in term_gens -> in all_gens
                terms = lifted_terms(expr, where, len(all_gens))
            p_in = ctx_in.from_dict({m: to_fmpq(c) for m, c in terms.items()})
            out.append(divmod(p_in.compose(*images, ctx=ctx_out), modulus)[1])
        return out

    def to_ring(self, p: Any, ring: Any) -> Any:
        """An ``fmpq_mpoly`` in ``(t, *gens)`` from :meth:`specialise` as an element of ``ring``, a sympy
        polynomial ring in ``gens`` over :attr:`field`."""
        groups: dict[tuple[int, ...], list[Any]] = {}
        for mon, c in p.to_dict().items():
            coeffs = groups.setdefault(tuple(mon[1:]), [sp.QQ(0)] * self.degree)
            coeffs[mon[0]] = sp.QQ(int(c.p), int(c.q))
        return ring.from_dict({m: self.field(list(reversed(cs))) for m, cs in groups.items()})

    def norm(self, p: Any) -> Any:
        """The norm ``Res_t(p, m)`` of a specialised polynomial, in ``QQ[gens]`` (FLINT): a factor common to
        two polynomials over ``QQ<theta>`` divides both norms."""
        ctx = p.context()
        nvar = ctx.nvars()
        modulus = ctx.from_dict({tuple(e if k == 0 else 0 for k in range(nvar)): to_fmpq(c)
                                 for e, c in enumerate(self._mod) if c})
        return p.resultant(modulus, ctx.names()[0])

    def element(self, p: Any) -> Any:
        """A specialised polynomial without other variables (an ``fmpq_mpoly`` in ``t`` alone) as a field
        element."""
        coeffs = [sp.QQ(0)] * self.degree
        for mon, c in p.to_dict().items():
            coeffs[mon[0]] = sp.QQ(int(c.p), int(c.q))
        return self.field(list(reversed(coeffs)))


def _rational_terms(expr: sp.Expr, gens: Sequence[sp.Symbol], strict: bool = False) -> dict[tuple[int, ...], Any] | None:
    """``{exponents: coefficient}`` of an expanded polynomial with rational coefficients in ``gens``, read
    from its terms (the generic solve's forms are expanded); for any other shape ``sympy.Poly`` over QQ, or
    ``None`` with ``strict``."""
    index = {g: k for k, g in enumerate(gens)}
    out: dict[tuple[int, ...], Any] = {}
    for term in sp.Add.make_args(expr):
        coeff = sp.Integer(1)
        mon = [0] * len(gens)
        for f in sp.Mul.make_args(term):
            if f.is_Rational:
                coeff = coeff * f
            elif f in index:
                mon[index[f]] += 1
            elif f.is_Pow and f.base in index and f.exp.is_Integer and f.exp > 0:
                mon[index[f.base]] += int(f.exp)
            elif strict:
                return None
            else:
                return {m: c for m, c in sp.Poly(expr, *gens, domain=sp.QQ).terms()}
        key = tuple(mon)
        out[key] = out.get(key, 0) + coeff
    return {m: c for m, c in out.items() if c != 0}



def specialised_prediction(nf: NumberFieldValues, value: sp.Expr | PolyFraction, gens: tuple[sp.Symbol, ...],
                           ridgeless: bool) -> tuple[sp.Expr, sp.Expr | None]:
    """One closed form ``N/D`` of the generic solve at the algebraic values, reduced over ``QQ<theta>``.

    Parameters
    ----------
    nf : NumberFieldValues
    value : sympy expression or PolyFraction
        ``N/D`` with rational coefficients in ``nf.symbols`` and ``gens`` (a :class:`PolyFraction` of the generic
        solve is read from its terms, without building its expression).
    gens : tuple of Symbols
        The symbols that stay; must contain the ridge Symbol when ``ridgeless``.
    ridgeless : bool
        Take the limit ``lambda -> 0+`` after setting the values (module docstring, step 3).

    Returns
    -------
    (prediction, condition)
        ``condition`` (ridgeless only, else ``None``) is the lowest-order coefficient in ``lambda`` of the
        specialised denominator: where it does not vanish, ``prediction`` is the limit (it is a multiple of
        the condition of the reduced fraction, so it may name more points, never fewer).

    Raises
    ------
    SolveError
        If the denominator vanishes at the values, or the ridgeless prediction diverges.
    """
    if isinstance(value, PolyFraction) and all(g in nf.symbols or g in gens for g in value.gens):
        pn, pd = nf.specialise([value.num, value.den], gens, term_gens=value.gens)
    else:
        num, den = sp.fraction(sp.sympify(value.as_expr() if isinstance(value, PolyFraction) else value))
        pn, pd = nf.specialise([num, den], gens)  # N/D as the generic solve returns it (canceled)
    if pd.is_zero():
        raise SolveError("the ridge system is singular at these algebraic parameter values")
    rest = gens
    condition = None
    if ridgeless:
        index = gens.index(S.ridge)
        rest = gens[:index] + gens[index + 1:]
        ctx_out = pd.context().drop_gens([pd.context().names()[1 + index]])
        b, pd = lowest_order(pd, 1 + index, ctx_out)
        if pn.is_zero():
            return sp.Integer(0), _monic_expr(nf, pd, rest)
        a, pn = lowest_order(pn, 1 + index, ctx_out)
        if a < b:
            raise SolveError(DIVERGES)
        condition = _monic_expr(nf, pd, rest)
        if a > b:
            return sp.Integer(0), condition
    elif pn.is_zero():
        return sp.Integer(0), None
    if not rest:
        return nf.field.to_sympy(nf.field.quo(nf.element(pn), nf.element(pd))), condition
    rng = PolyRing(tuple(rest), nf.field, lex)
    fn, fd = nf.to_ring(pn, rng), nf.to_ring(pd, rng)
    if not nf.norm(pn).gcd(nf.norm(pd)).is_constant():  # else coprime: a common factor divides both norms
        g = fn.gcd(fd)  # sympy's gcd over the number field (slow in several variables, rarely needed)
        fn, fd = fn.exquo(g), fd.exquo(g)
    lc = fd.LC
    return fn.quo_ground(lc).as_expr() / fd.quo_ground(lc).as_expr(), condition


def _monic_expr(nf: NumberFieldValues, p: Any, gens: tuple[sp.Symbol, ...]) -> sp.Expr:
    """A nonzero specialised polynomial made monic, as a sympy expression (``1`` without ``gens``)."""
    if not gens:
        return sp.Integer(1)
    q = nf.to_ring(p, PolyRing(tuple(gens), nf.field, lex))
    return q.quo_ground(q.LC).as_expr()


def solve_at_algebraic(task: Task, family: Family, ridge: sp.Expr | None, values: Mapping[sp.Symbol, sp.Expr],
                       solve: GenericSolver, method: str = "auto") -> Result:
    """Solve ``task`` at the irrational algebraic ``values`` of ``family``'s parameters (and of the ridge).

    Parameters
    ----------
    task : Task
    family : Family
        With the algebraic values bound.
    ridge : sympy expression or None
        The parsed ridge: a number, the ridge Symbol, or ``None`` for the ridgeless limit.
    values : mapping Symbol -> value
        From :func:`algebraic_values`; the ridge Symbol when the ridge is the algebraic value.
    solve : callable
        The exact solver (:func:`symbolic_ti.solvers.solve`), called on the generic system: the algebraic
        parameters symbolic, the ridge symbolic when it is algebraic or ridgeless.
    method : str
        Passed on to ``solve``.

    Returns
    -------
    Result
        Closed forms in the remaining free parameters over ``QQ<theta>``, equal to a solve over the number field
        (module docstring); ``method`` ends in ``/algebraic``. With the limit, ``ridgeless_conditions`` are the
        factors of the lowest-order denominator coefficients (a superset of the reduced ones).

    Raises
    ------
    SolveError
        If the system is singular at the values.
    """
    start = time.perf_counter()
    generic_family = family.with_values(**{s.name: "symbolic" for s in values if s != S.ridge})
    ridgeless = ridge is None
    generic_ridge = S.ridge if ridgeless or S.ridge in values else ridge
    generic = solve(task, generic_family, generic_ridge, method=method)
    nf = NumberFieldValues(values)
    free = set(generic_family.free_symbols) | ({S.ridge} if generic_ridge == S.ridge else set())
    gens = tuple(sorted(free - set(values), key=lambda s: s.name))
    if ridgeless and S.ridge not in gens:
        gens = gens + (S.ridge,)
    conditions: dict[str, sp.Expr] = {}  # distinct ones first: factoring over the number field is the slow part

    def one(i: int, j: int) -> sp.Expr:
        form = generic.fraction(i, j)  # the generic solve's polynomials where it kept them (issue 17)
        value, cond = specialised_prediction(nf, generic.predictions[(i, j)] if form is None else form, gens,
                                             ridgeless)
        if cond is not None and cond.free_symbols:
            conditions.setdefault(sp.srepr(cond), cond)
        return value

    preds: Any
    if isinstance(generic.predictions, LazyPredictions):  # antisymmetric (f(j, i) = -f(i, j)) as the generic one
        preds = LazyPredictions(task.trials, one, tuple(s for s in gens if s != S.ridge or not ridgeless),
                                antisymmetric=generic.predictions.antisymmetric)
        if ridgeless:  # the conditions are needed now
            preds.build_all()
    else:
        preds = {t: one(*t) for t in task.trials}
    return Result(task=task, family=family, ridge=ridge, predictions=preds, method=f"{generic.method}/algebraic",
                  ridgeless_conditions=condition_factors(list(conditions.values())) if ridgeless else (),
                  seconds=time.perf_counter() - start)
