"""Graph-Laplacian reduction of exact kernel ridge regression for exchangeable kernels (fast path).

For the exchangeable family (kappa_d = 0 after rescaling the ridge to ``lambda' = lambda / (1 - kappa_d)``)
the feature map is ``phi(i, j) = [sqrt((1-alpha)/2) (e_i, e_j), sqrt(alpha) e_(i,j)]``. With the antisymmetry of
the solution, every prediction on a trial that is not trained is a difference of item ranks,
``f(i, j) = r_i - r_j``, and the ranks solve a ridge problem on the training comparison graph
(for the TI design the path ``1 - 2 - ... - n`` plus one edge ``W - L`` per exception; any other graph of comparisons
presented once each is solved by :mod:`symbolic_ti.solvers.graph_ranks`):

    (Lap + gamma I) r = b,     gamma = 2 (alpha + lambda') / (1 - alpha),

with ``Lap`` the graph Laplacian and ``b_k`` = (number of training wins of item k) - (number of losses).
A training trial ``e = (i, j)`` with target +1 adds a memorized share of its residual:
``f(e) = d_e + alpha / (alpha + lambda') (1 - d_e)``, ``d_e = r_i - r_j``. Derived in
docs/theory.md#graph-laplacian-reduction.

The ranks are rational functions of the single variable ``gamma``. They are computed exactly with the
path's Green's function, ``(Lap_path + gamma I)^{-1}[i, j] = theta_{min-1} theta_{n-max} / theta_n`` with the
continuants ``theta_0 = 1``, ``theta_1 = 1 + gamma``, ``theta_k = (2 + gamma) theta_{k-1} - theta_{k-2}``
(``k < n``), ``theta_n = (1 + gamma) theta_{n-1} - theta_{n-2}``, and a Woodbury (Sherman-Morrison for one
exception) update for the exception edges, all in univariate polynomials over ZZ (fraction free), in FLINT's
``fmpz_poly`` (C; returned as sympy ``PolyElement``, with the gcds of :meth:`RankSolution.rank_difference` also
taken in FLINT). Only then is ``gamma``
replaced by its expression in the family parameters and the ridge, trial by trial and on demand: with rational
coefficients in FLINT's ``fmpq_mpoly`` (Horner's rule in ``P``), the closed form handed over as a
:class:`~symbolic_ti.results.PolyFraction` whose sympy expression is built only when asked for (issue 17).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Sequence
from typing import Any, overload

import flint as _flint  # python-flint, a dependency: the rank solve runs in fmpz_poly
import sympy as sp
from sympy import ZZ
from sympy.polys.rings import PolyElement, ring

from .. import symbols as S
from ..errors import SolveError
from ..families.base import Family
from ..results import PolyFraction
from ..task import Task
from .graph_ranks import check_rank_task, graph_laplacian, graph_rank_polys
from .graph_ranks import solve_fraction_free as _solve_fraction_free

__all__ = ["GAMMA", "RankSolution", "RankNumerators", "rank_solution", "effective_parameters", "laplacian_predictor",
           "graph_laplacian", "check_rank_task"]

#: The effective ridge of the rank problem, as a sympy Symbol (``\gamma`` in LaTeX): :data:`symbolic_ti.symbols.gamma`.
GAMMA = S.gamma

_R, _g = ring("gamma", ZZ)


@dataclass(frozen=True)
class RankSolution:
    """Exact item ranks as rational functions of the effective ridge gamma.

    Attributes
    ----------
    task : Task
    numerators : sequence of PolyElement in ZZ[gamma], length n
        ``N_k`` with ``r_k = N_k / denominator`` (a :class:`RankNumerators`, computed on access, from
        :func:`rank_solution`).
    denominator : PolyElement in ZZ[gamma]
        ``det(Lap + gamma I)``, the determinant of the rank system.
    """

    task: Task
    numerators: Sequence[PolyElement]
    denominator: PolyElement
    _flint_polys: tuple[RankNumerators, Any] | None = field(default=None, compare=False, repr=False)

    def rank_difference(self, i: int, j: int) -> tuple[PolyElement, PolyElement]:
        """``r_i - r_j`` as a canceled pair (numerator, denominator) in ZZ[gamma], leading coefficient > 0."""
        if self._flint_polys is not None:  # the gcd in FLINT
            nums, fden = self._flint_polys
            fnum = nums.flint(i - 1) - nums.flint(j - 1)
            if fnum.is_zero():
                return _R.zero, _R.one
            fg = fnum.gcd(fden)
            fnum, fden = fnum // fg, fden // fg
            if fden.leading_coefficient() < 0:
                fnum, fden = -fnum, -fden
            return _to_ring(fnum), _to_ring(fden)
        num = self.numerators[i - 1] - self.numerators[j - 1]
        den = self.denominator
        if not num:
            return _R.zero, _R.one
        g = num.gcd(den)
        num, den = num.exquo(g), den.exquo(g)
        if den.LC < 0:
            num, den = -num, -den
        return num, den

    def rank_expr(self, k: int) -> sp.Expr:
        """``r_k`` as a sympy expression in the Symbol :data:`GAMMA`."""
        num, den = self.numerators[k - 1], self.denominator
        return sp.cancel(num.as_expr(GAMMA) / den.as_expr(GAMMA))


def _continuants(n: int) -> list[Any]:
    """``theta_0 .. theta_n`` of the path Laplacian plus gamma I (see the module docstring), as FLINT
    ``fmpz_poly`` in gamma."""
    g = _flint.fmpz_poly([0, 1])
    th = [_flint.fmpz_poly([1]), 1 + g]
    for _k in range(2, n):
        th.append((2 + g) * th[-1] - th[-2])
    th.append((1 + g) * th[n - 1] - th[n - 2])
    return th


def _to_ring(p: Any) -> PolyElement:
    return _R.from_list(list(reversed(p.coeffs()))) if not p.is_zero() else _R.zero


class RankNumerators(Sequence[PolyElement]):
    """The numerators ``N_1..N_n`` of a :class:`RankSolution`, each computed (in FLINT) on first access.

    A read-only sequence of sympy ``PolyElement`` in ZZ[gamma] (index ``k - 1`` for item ``k``); at large n only
    the items a caller reads are computed (one rank costs ``O(k)`` products of degree-n polynomials).
    """

    def __init__(self, n: int, item: Callable[[int], Any]) -> None:
        self._n = n
        self._item = item
        self._flint: dict[int, Any] = {}
        self._ring: dict[int, PolyElement] = {}

    def __len__(self) -> int:
        return self._n

    def _index(self, k: int) -> int:
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(k)
        return k

    def flint(self, k: int) -> Any:
        """``N_(k+1)`` as an ``fmpz_poly`` (0-based index, like ``self[k]``)."""
        k = self._index(k)
        if k not in self._flint:
            self._flint[k] = self._item(k + 1)
        return self._flint[k]

    @overload
    def __getitem__(self, k: int) -> PolyElement: ...

    @overload
    def __getitem__(self, k: slice) -> tuple[PolyElement, ...]: ...

    def __getitem__(self, k: int | slice) -> PolyElement | tuple[PolyElement, ...]:
        if isinstance(k, slice):
            return tuple(self[i] for i in range(*k.indices(self._n)))
        k = self._index(k)
        if k not in self._ring:
            self._ring[k] = _to_ring(self.flint(k))
        return self._ring[k]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(other) == self._n and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"RankNumerators(n={self._n}, computed={len(self._flint)})"


def rank_solution(task: Task) -> RankSolution:
    """Solve ``(Lap + gamma I) r = b`` exactly for the task's comparison graph, with gamma symbolic.

    The arithmetic is FLINT's ``fmpz_poly`` (C); the result is returned as sympy ``PolyElement`` in ZZ[gamma].
    The common denominator is computed here; each numerator on first access (:class:`RankNumerators`).

    Parameters
    ----------
    task : Task
        A TI task (its exceptions become extra edges of the path graph: continuants and a Woodbury update) or
        any comparison graph with every count 1 (one fraction-free solve of ``Lap + gamma I``).

    Returns
    -------
    RankSolution
        Numerators ``N_k`` and the common denominator ``det(Lap + gamma I)`` (monic).

    Raises
    ------
    SolveError
        For a task with counts other than 1 (:func:`check_rank_task`).
    """
    item, denom = _rank_polys(task)
    numer = RankNumerators(task.n, item)
    return RankSolution(task, numer, _to_ring(denom), _flint_polys=(numer, denom))


def _rank_polys(task: Task) -> tuple[Callable[[int], Any], Any]:
    """``(k -> N_k, denominator)`` of :func:`rank_solution`, as ``fmpz_poly``."""
    check_rank_task(task)
    if not task.is_ti_design:
        return graph_rank_polys(task)
    n = task.n
    th = _continuants(n)
    zero = _flint.fmpz_poly([])

    def green(i: int, k: int) -> Any:  # theta_n * (A0^{-1})[i, k], 1-based
        return th[min(i, k) - 1] * th[n - max(i, k)]

    def x(i: int) -> Any:  # theta_n A0^{-1} b0 with b0 = e_1 - e_n
        return th[n - i] - th[i - 1]

    excs = task.exceptions
    if not excs:
        return x, th[n]
    k = len(excs)

    def z(c: int, i: int) -> Any:  # theta_n A0^{-1} u_c at item i, u_c = e_W - e_L
        return green(i, excs[c].winner) - green(i, excs[c].loser)

    def xf(i: int) -> Any:  # theta_n A0^{-1} (b0 + U 1)
        return x(i) + sum((z(c, i) for c in range(k)), zero)

    # S = theta_n I + U^T Z; w = det(S) S^{-1} U^T xf = adj(S) U^T xf (up to one sign)
    s_rows = [[(th[n] if a == c else zero) + z(c, excs[a].winner) - z(c, excs[a].loser)
               for c in range(k)] + [xf(excs[a].winner) - xf(excs[a].loser)] for a in range(k)]
    det, w = _solve_fraction_free(s_rows)
    scale = th[n] ** k
    denom = det // (th[n] ** (k - 1))
    sign = -1 if denom.leading_coefficient() < 0 else 1  # det(Lap + gamma I) is monic; a row swap may flip it

    def item(i: int) -> Any:  # exact division (docs/theory.md#graph-laplacian-reduction)
        return sign * ((det * xf(i) - sum((z(a, i) * w[a] for a in range(k)), zero)) // scale)

    return item, sign * denom


def effective_parameters(family: Family, ridge: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(alpha, lambda', gamma)`` of an exchangeable family at a ridge, as exact expressions.

    ``lambda' = ridge / (scale (1 - kappa_d))`` is the rescaled ridge (:meth:`Family.exchangeable_form`) and ``gamma = 2 (alpha + lambda') / (1 - alpha)``
    the effective ridge of the rank problem (docs/theory.md#graph-laplacian-reduction). ``ridge`` is ``None``
    for the ridgeless limit, where ``lambda' = 0``.
    """
    scale, alpha, kd = family.exchangeable_form()
    _rational_in_parameters(scale, alpha, kd)
    lam = sp.Integer(0) if ridge is None else sp.cancel(ridge / (scale * (1 - kd)))
    gamma = sp.cancel(2 * (alpha + lam) / (1 - alpha)) if alpha != 1 else sp.oo
    return alpha, lam, gamma


def _rational_in_parameters(*exprs: Any) -> None:
    """Refuse, before any cancellation, a kernel that is not a rational function of its free parameters.

    ``sp.cancel`` of an expression such as ``acos(slope / pi)`` (the PNAS kernel from depth 2 with a symbolic
    slope) takes seconds before the homogenizer finds that it is no polynomial fraction: the same one line, at once.

    Raises
    ------
    SolveError
        If a function (``acos``, ``exp``, ...) of a free parameter appears in ``exprs``.
    """
    values = [sp.sympify(e) for e in exprs]
    gens = tuple(sorted(set().union(*(v.free_symbols for v in values)), key=lambda s: s.name))
    if not gens:
        return
    for v in values:
        if any(f.free_symbols for f in v.atoms(sp.Function)):
            names = ", ".join(g.name for g in gens)
            raise SolveError(f"the kernel is not a rational function of {names} (it contains "
                             f"{_transcendental(v, sp.Integer(1), gens)}): the exact solve needs a number for "
                             f"{names} (e.g. --set {gens[0].name}=1/2)")


def _transcendental(p: sp.Expr, q: sp.Expr, gens: tuple[sp.Symbol, ...]) -> str:
    """The first function of the parameters in ``p / q`` that is not a polynomial (for a message)."""
    for e in (p, q):
        for f in sp.sympify(e).atoms(sp.Function):
            if f.free_symbols & set(gens):
                return str(f)
    return "a non-polynomial function"


class _Homogenizer:
    """Replace gamma by ``P / Q`` in canceled univariate rational functions, exactly and without swell.

    ``N(gamma) / D(gamma)`` with degrees ``a``, ``b`` becomes
    ``[sum_k N_k P^k Q^(a-k)] Q^max(b-a, 0) / ([sum_k D_k P^k Q^(b-k)] Q^max(a-b, 0))``. When ``P`` and ``Q``
    are coprime polynomials and ``N, D`` are coprime, so are the two homogenized forms (distinct linear
    factors ``c P - e Q`` of coprime binary forms stay coprime), so no further cancellation is needed.
    """

    def __init__(self, p: sp.Expr, q: sp.Expr, gens: tuple[sp.Symbol, ...], polynomials: bool = True) -> None:
        self.gens = gens
        # exact rational coefficients use QQ; algebraic ones (e.g. alpha = sqrt(2)/4) sympy's EX domain
        try:
            rational = all(c.is_Rational for e in (p, q) for c in sp.Poly(e, *gens).coeffs()) if gens else \
                (sp.sympify(p).is_Rational and sp.sympify(q).is_Rational)
            polynomial = bool(gens)
        except sp.PolynomialError:  # gamma not a rational function of the parameters (e.g. acos(slope/pi))
            names = ", ".join(g.name for g in gens)
            raise SolveError(f"the kernel is not a rational function of {names} (it contains "
                             f"{_transcendental(p, q, gens)}): the exact solve needs a number for {names} "
                             f"(e.g. --set {gens[0].name}=1/2)") from None
        self.exact_rational = bool(rational)
        if polynomial:
            self.ring, *_ = ring(list(gens), sp.QQ if rational else sp.EX)
            self.p, self.q = self.ring(p), self.ring(q)
        else:
            self.ring = None
            self.p, self.q = sp.sympify(p), sp.sympify(q)
        self._pp = [self._one()]
        self._qq = [self._one()]
        gen_names = tuple(g.name for g in gens)
        # over QQ the forms are built in FLINT's fmpq_mpoly (lex order in gens, as the sympy ring) and handed over
        # as PolyFractions; sympy's ring stays for the EX domain and a memorized form with a common factor
        self.ctx: Any = _flint.fmpq_mpoly_ctx.get(gen_names, "lex") if polynomials and polynomial and \
            rational and len(set(gen_names)) == len(gen_names) else None
        if self.ctx is not None:
            self._fq = [self.ctx.from_dict({(0,) * len(gens): 1})]
            self._fp, fq = (self._mpoly(v) for v in (self.p, self.q))
            self._fqbase = fq
            self._shares: dict[sp.Expr, tuple[Any, Any]] = {}

    def _mpoly(self, poly: PolyElement) -> Any:
        """A QQ ring element as an ``fmpq_mpoly``."""
        return self.ctx.from_dict({m: _flint.fmpq(int(c.numerator), int(c.denominator)) for m, c in poly.terms()})

    def _fform(self, poly: PolyElement) -> tuple[Any, int]:
        """``sum_k N_k P^k Q^(a-k)`` in FLINT by Horner's rule in ``P`` (only powers of ``Q`` cached)."""
        deg = poly.degree()
        cs = {k: int(c) for (k,), c in poly.terms()}
        total = self._fq[0] * cs[deg]
        for k in range(deg - 1, -1, -1):
            total = total * self._fp
            if k in cs:
                total += cs[k] * self._pow(self._fq, self._fqbase, deg - k)
        return total, deg

    def _fpair(self, num: PolyElement, den: PolyElement) -> tuple[Any, Any]:
        """:meth:`pair` in FLINT (``fmpq_mpoly``)."""
        top, a = self._fform(num)
        bot, b = self._fform(den)
        if b > a:
            top = top * self._pow(self._fq, self._fqbase, b - a)
        elif a > b:
            bot = bot * self._pow(self._fq, self._fqbase, a - b)
        return top, bot

    def _one(self) -> Any:
        return self.ring.one if self.ring is not None else sp.Integer(1)

    def _pow(self, cache: list, base: Any, k: int) -> Any:
        while len(cache) <= k:
            cache.append(cache[-1] * base)
        return cache[k]

    def _form(self, poly: PolyElement) -> tuple[Any, int]:
        deg = poly.degree()
        total = self.ring.zero if self.ring is not None else sp.Integer(0)
        for (k,), c in poly.terms():
            total += int(c) * self._pow(self._pp, self.p, k) * self._pow(self._qq, self.q, deg - k)
        return total, deg

    def pair(self, num: PolyElement, den: PolyElement) -> tuple[Any, Any]:
        """Homogenized (numerator, denominator), ring elements (or sympy numbers without parameters)."""
        if not num:
            return (self.ring.zero if self.ring is not None else sp.Integer(0)), self._one()
        top, a = self._form(num)
        bot, b = self._form(den)
        if b > a:
            top = top * self._pow(self._qq, self.q, b - a)
        elif a > b:
            bot = bot * self._pow(self._qq, self.q, a - b)
        return top, bot

    def memorized(self, num: PolyElement, den: PolyElement, share: sp.Expr, target: int) -> sp.Expr | PolyFraction:
        """``d + share (target - d)`` with ``d = num/den`` in gamma, without a multivariate cancel.

        ``d = top/bot`` is canceled and ``share = s/t``, so a common factor of the result's numerator and
        ``t * bot`` can only divide ``t`` (low degree): only that gcd is taken.
        """
        if self.ctx is not None and num:
            if share not in self._shares:
                self._shares[share] = tuple(self._mpoly(self.ring(v)) for v in sp.fraction(sp.cancel(share)))
            fs_num, fs_den = self._shares[share]
            ftop, fbot = self._fpair(num, den)
            fnumer, fdenom = (fs_den - fs_num) * ftop + target * fs_num * fbot, fs_den * fbot
            if not fnumer.is_zero():  # (else sympy's ring below: its gcd(0, t) is not monic)
                g = fnumer.gcd(fs_den)  # monic in lex order, as sympy's gcd over QQ: the same quotients
                if not g.is_one():
                    fnumer, fdenom = fnumer / g, fdenom / g
                return PolyFraction.from_polys(fnumer, fdenom, self.gens)
        if self.ring is None or not self.exact_rational:
            top, bot = self.pair(num, den)
            d = top / bot if self.ring is None else top.as_expr() / bot.as_expr()
            return sp.cancel(d + share * (target - d))
        top, bot = self.pair(num, den)
        s_num, s_den = (self.ring(v) for v in sp.fraction(sp.cancel(share)))
        numer = (s_den - s_num) * top + target * s_num * bot
        denom = s_den * bot
        g = numer.gcd(s_den)
        if g != self.ring.one:
            numer, denom = numer.exquo(g), denom.exquo(g)
        return numer.as_expr() / denom.as_expr()

    def __call__(self, num: PolyElement, den: PolyElement) -> sp.Expr | PolyFraction:
        if not num:
            return sp.Integer(0)
        if self.ctx is not None:
            return PolyFraction.from_polys(*self._fpair(num, den), self.gens)
        top, bot = self.pair(num, den)
        if self.ring is None:
            value = top / bot
            return value if self.exact_rational else sp.radsimp(sp.expand(value))
        if self.exact_rational:
            return top.as_expr() / bot.as_expr()
        return sp.cancel(top.as_expr() / bot.as_expr())


def laplacian_predictor(task: Task, family: Family, ridge: sp.Expr | None, polynomials: bool = True):
    """Build the trial -> prediction function of the Laplacian fast path.

    Parameters
    ----------
    task : Task
    family : Family
        An exchangeable family (``family.exchangeable`` is True).
    ridge : sympy expression or None
        The ridge, or ``None`` for the ridgeless limit ``lambda -> 0+``.
    polynomials : bool
        With exact rational coefficients in the free parameters, build each closed form in FLINT
        (``fmpq_mpoly``) and return it as a :class:`~symbolic_ti.results.PolyFraction`, whose expression
        (``as_expr``) is the one ``polynomials=False`` returns: sympy's ring arithmetic and ``Expr`` (the path
        before issue 17, kept for comparison; benchmarks/bench_build.py).

    Returns
    -------
    (predict, conditions, ranks) : (callable (i, j) with i < j -> sympy expression or PolyFraction, tuple of
        expressions, RankSolution)
        ``conditions`` lists, for a ridgeless result with symbolic parameters, the polynomials whose
        non-vanishing the formulas need: the numerator of alpha (the memorized share ``alpha / (alpha + lambda')``
        jumps from 1 to 0 at ``alpha = 0``). Test-trial formulas hold for every alpha in [0, 1].
    """
    ranks = rank_solution(task)
    alpha, lam, _ = effective_parameters(family, ridge)
    # gamma = 2 (alpha + lam) / (1 - alpha) written as P / Q with coprime polynomials
    gam = sp.cancel(sp.together(2 * (alpha + lam) / (1 - alpha))) if alpha != 1 else None
    if gam is None:
        p, q = sp.Integer(1), sp.Integer(0)  # gamma = oo: ranks vanish
    else:
        p, q = sp.fraction(gam)
    gens = tuple(sorted((sp.sympify(p).free_symbols | sp.sympify(q).free_symbols | alpha.free_symbols
                         | sp.sympify(lam).free_symbols), key=lambda s: s.name))
    hom = _Homogenizer(p, q, gens, polynomials)
    conditions: tuple[sp.Expr, ...] = ()
    if ridge is None:
        a_num = sp.fraction(sp.cancel(alpha))[0]
        if a_num.free_symbols:
            share = sp.Integer(1)
            conditions = (sp.expand(a_num),)
        else:
            share = sp.Integer(0) if alpha == 0 else sp.Integer(1)
    else:
        share = sp.cancel(alpha / (alpha + lam)) if (alpha + lam) != 0 else sp.Integer(0)
    training = task.training_targets

    def predict(i: int, j: int) -> sp.Expr:
        target = training.get((i, j))
        if target is None:
            return hom(*ranks.rank_difference(i, j))
        if share == 1:
            return sp.Integer(target)
        if share == 0:
            return hom(*ranks.rank_difference(i, j))
        return hom.memorized(*ranks.rank_difference(i, j), share, target)

    return predict, conditions, ranks
