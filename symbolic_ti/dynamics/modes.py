r"""Gradient-flow time courses as exact sums of decaying modes, for every trial of a task (any comparison graph).

Gradient flow from zero output with unit learning rate on the weighted loss
``1/2 sum_k c_k (f_k - y_k)^2 + lambda/2 ||w||^2`` (``c_k`` the count of training trial ``k``, ``C = diag(c)``)
gives dual coefficients ``c(t) = (C K + lambda I)^{-1} (I - exp(-(C K + lambda I) t)) C y``: with ``w = Phi^T a``
(``w(0) = 0`` stays in the row space), ``dw/dt = -Phi^T C (Phi w - y) - lambda w`` is ``da/dt = -(C K + lambda I) a
+ C y``. With ``C = I`` this is CONVENTIONS.md's formula ("Gradient flow"); ``C K`` is similar to the symmetric
``C^(1/2) K C^(1/2)``, so it is diagonalizable with real eigenvalues ``>= 0``, and ``t -> oo`` gives
``(K + lambda C^{-1})^{-1} y``, the ridge solution with count weights (derived in docs/theory.md#gradient-flow-with-counts).
Every prediction is then

    f_t(x) = sum_Q sum_{Q(nu) = 0} (c0 + c1 nu) W_x(nu) / (a + b nu) * (1 - exp(-(a + b nu) t)),

one term per eigenvalue ``nu`` of a rational symmetric matrix, grouped by the irreducible factor ``Q`` of its
characteristic polynomial (:mod:`.spectral`), with ``W_x`` a polynomial of degree ``< deg Q``:

* **exchangeable kernels** (``scale (1 - kappa_d) = s``): ``nu`` runs over the nonzero eigenvalues of the comparison
  graph's Laplacian, rate ``a + b nu = s alpha + lambda + s (1 - alpha) nu / 2``; test trials ``(c0, c1) = (b, 0)``,
  ``W = (P_nu b)_i - (P_nu b)_j``; training trials ``(c0, c1) = (s alpha, b)``, ``W = [(P_nu b)_i - (P_nu b)_j] / nu``,
  plus the cycle modes (``nu = 0`` of the edge Laplacian, rate ``s alpha + lambda``);
  (on any comparison graph, connected or not; with equal counts ``c`` the scale is ``c s``, since ``C K = c K``;
  unequal counts do not reduce to the Laplacian and take the Gram-matrix modes);
* **other kernels** (and exchangeable ones with unequal counts): ``nu`` runs over the eigenvalues of ``C`` times
  the halved (or full) Gram matrix, rate ``nu + lambda``, ``(c0, c1) = (1, 0)``, ``W_x = k(x)^T P_nu C y``.

Derived in docs/theory.md#gradient-flow-in-laplacian-modes.
"""

from __future__ import annotations

import copyreg
from dataclasses import dataclass
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint
import sympy as sp

from .. import symbols as S
from ..deprecation import moved_names
from ..errors import ParameterError, SolveError
from ..families.base import Family, Trial
from ..gram import build_system, is_swap_invariant
from ..task import Task
from .spectral import Factor, X, mod_inverse, spectral_components

__all__ = ["Term", "TimeCourse", "time_course", "EIGENVALUE", "NotRational"]


class NotRational(ParameterError):
    """The exact Gram-matrix modes need a rational Gram matrix (the certified numeric path takes over)."""

#: The eigenvalue variable of the mode groups, ``nu`` (:data:`symbolic_ti.symbols.nu`; it was ``mu`` before 0.2,
#: the conventions' letter of the closed forms without exceptions).
EIGENVALUE = S.nu

# MU, its name before 0.2: served with a DeprecationWarning until 0.3
__getattr__ = moved_names(__name__, {"MU": "symbolic_ti.symbols:nu"})


@dataclass(frozen=True)
class Term:
    """The modes of one factor in one trial's time course.

    Attributes
    ----------
    group : int
        Index into :attr:`TimeCourse.groups`.
    weight : fmpq_poly
        ``W(nu)``, degree below the group's degree, nonzero.
    kind : int
        0: amplitude ``(c0, c1)`` of test trials; 1: of training trials (exchangeable); generic families use 0.
    """

    group: int
    weight: flint.fmpq_poly
    kind: int


def _fmpq_poly_from(coefficients: tuple[tuple[int, int], ...]) -> flint.fmpq_poly:
    return flint.fmpq_poly([flint.fmpq(p, q) for p, q in coefficients])


def _fmpq_poly_reduce(poly: flint.fmpq_poly) -> tuple[Callable[..., flint.fmpq_poly], tuple[Any, ...]]:
    """How an ``fmpq_poly`` pickles (python-flint's types do not): its coefficients, lowest first, as integer pairs,
    so that time courses and the :class:`~symbolic_ti.dynamics.Dynamics` holding them pickle."""
    return (_fmpq_poly_from, (tuple((int(c.p), int(c.q)) for c in poly.coeffs()),))


copyreg.pickle(flint.fmpq_poly, _fmpq_poly_reduce)


@dataclass(frozen=True)
class TimeCourse:
    """All mode data of a task under gradient flow.

    Attributes
    ----------
    groups : tuple of fmpq_poly
        Monic irreducible factors ``Q(nu)``; the factor ``nu`` stands for a zero eigenvalue (exchangeable: the
        cycle modes of the training trials).
    rate : (a, b)
        Exact sympy expressions: the mode of ``nu`` decays at rate ``a + b nu``.
    amplitudes : ((c0, c1), (c0, c1))
        Exact sympy expressions for term kinds 0 and 1 (see :class:`Term`).
    terms : dict trial -> tuple of Term
        Every ordered trial (reverse trials carry negated weights).
    method : str
        ``"laplacian"`` or ``"halved"`` / ``"full"`` (the Gram matrix used).
    nodes : tuple of tuple of fmpq_poly, optional
        Laplacian modes only: entry ``k`` of ``P_nu b`` for each item (per group, cycle group excluded), so that a
        test weight is ``nodes[g][i-1] - nodes[g][j-1]`` and a training weight that divided by ``nu``.
    """

    groups: tuple[flint.fmpq_poly, ...]
    rate: tuple[sp.Expr, sp.Expr]
    amplitudes: tuple[tuple[sp.Expr, sp.Expr], tuple[sp.Expr, sp.Expr]]
    terms: dict[Trial, tuple[Term, ...]]
    method: str
    nodes: tuple[tuple[flint.fmpq_poly, ...], ...] | None = None

    @property
    def degrees(self) -> tuple[int, ...]:
        """Degree of each group's factor."""
        return tuple(int(q.degree()) for q in self.groups)


def _frac(x: sp.Expr) -> Fraction:
    r = sp.Rational(x)
    return Fraction(int(r.p), int(r.q))


def _laplacian(task: Task) -> tuple[list[list[int]], list[int]]:
    n = task.n
    lap = [[0] * n for _ in range(n)]
    b = [0] * n
    for i, j in task.positive_training:
        a, c = i - 1, j - 1
        lap[a][a] += 1
        lap[c][c] += 1
        lap[a][c] -= 1
        lap[c][a] -= 1
        b[a] += 1
        b[c] -= 1
    return lap, b


def _pseudo_solve(lap: list[list[int]], b: list[int], components: tuple[frozenset[int], ...]) -> list[flint.fmpq]:
    """``L^+ b`` for ``b`` orthogonal to the ones vector of every connected component: solve
    ``(L + sum_comp J_comp / |comp|) r = b`` (positive definite; on the range of ``L`` it inverts ``L``)."""
    n = len(b)
    shift = [[flint.fmpq(0)] * n for _ in range(n)]
    for comp in components:
        for i in comp:
            for j in comp:
                shift[i - 1][j - 1] = flint.fmpq(1, len(comp))
    m = flint.fmpq_mat(n, n, [flint.fmpq(lap[i][j]) + shift[i][j] for i in range(n) for j in range(n)])
    r = m.solve(flint.fmpq_mat(n, 1, b))
    return [r[i, 0] for i in range(n)]


def equal_count(task: Task) -> sp.Rational | None:
    """The common count of every comparison, or ``None`` when the counts differ."""
    counts = {c.count for c in task.comparisons}
    return next(iter(counts)) if len(counts) == 1 else None


def _exchangeable(task: Task, family: Family, ridge: sp.Expr) -> TimeCourse:
    count = equal_count(task)
    if count is None:
        raise ParameterError("method 'laplacian' needs equal counts (the Laplacian modes of the weighted loss "
                             "do not separate otherwise); use method 'gram' with rational parameter values")
    scale, alpha, kd = family.exchangeable_form()
    s = sp.cancel(count * scale * (1 - kd))  # C K = c K: equal counts scale the kernel
    a, b = sp.cancel(s * alpha + ridge), sp.cancel(s * (1 - alpha) / 2)
    lap, bvec = _laplacian(task)
    factors = [f for f in spectral_components(lap, bvec) if f.poly != X]
    groups = [f.poly for f in factors]
    inv_mu = [mod_inverse(X, q) for q in groups]
    r = _pseudo_solve(lap, bvec, task.components)
    cycle = len(groups)
    training = task.training_targets
    terms: dict[Trial, tuple[Term, ...]] = {}
    for (i, j) in task.trials:
        y = training.get((i, j))
        out = []
        for g, f in enumerate(factors):
            w = f.entries[i - 1] - f.entries[j - 1]
            if y is not None:
                w = (w * inv_mu[g]) % f.poly
            if not w.is_zero():
                out.append(Term(g, w, 0 if y is None else 1))
        if y is not None:
            w_cycle = y * (1 - y * (r[i - 1] - r[j - 1]))
            if w_cycle != 0:
                out.append(Term(cycle, flint.fmpq_poly([w_cycle]), 1))
        terms[(i, j)] = tuple(out)
    if any(t.group == cycle for ts in terms.values() for t in ts):
        groups.append(X)
    amps = ((b, sp.Integer(0)), (sp.cancel(s * alpha), b))
    return TimeCourse(tuple(groups), (a, b), amps, terms, "laplacian", tuple(f.entries for f in factors))


def _generic(task: Task, family: Family, ridge: sp.Expr) -> TimeCourse:
    halved = is_swap_invariant(task, family)
    system = build_system(task, family, None, halved)
    if not system.domain.is_QQ and not system.domain.is_ZZ:
        free = ", ".join(s.name for s in family.free_symbols) or "none free, but irrational values"
        if family.exchangeable:  # here only with unequal counts (or method 'gram')
            raise NotRational(
                f"dynamics of the {family.name} family through the Gram-matrix modes (unequal counts or method "
                f"'gram') needs exact rational values of every parameter (left: {free}) and a numeric ridge")
        raise NotRational(
            f"dynamics of the {family.name} family needs exact rational values of every parameter (left: {free}); "
            "only exchangeable kernels keep parameters symbolic")
    dom = system.domain
    counts = task.counts
    weights = [_frac(counts[row]) for row in system.rows]
    gram = [[w * _frac(dom.to_sympy(x)) for x in row] for w, row in zip(weights, system.gram.to_list(), strict=True)]
    y = [w * _frac(dom.to_sympy(row[0])) for w, row in zip(weights, system.targets.to_list(), strict=True)]
    cross = [[_frac(dom.to_sympy(x)) for x in row] for row in system.cross.to_list()]
    factors: list[Factor] = spectral_components(gram, y)  # C K and C y (module docstring)
    terms: dict[Trial, tuple[Term, ...]] = {}
    for q_index, x in enumerate(system.queries):
        out = []
        row = cross[q_index]
        for g, f in enumerate(factors):
            w = flint.fmpq_poly([0])
            for c, e in zip(row, f.entries, strict=True):
                if c:
                    w += e * flint.fmpq(c.numerator, c.denominator)
            w = w % f.poly
            if not w.is_zero():
                if f.poly == X and ridge == 0:
                    raise SolveError(f"trial {x} has a component along a zero eigenvalue of the Gram matrix; "
                                     "its ridgeless gradient flow grows without bound")
                out.append(Term(g, w, 0))
        terms[x] = tuple(out)
    one, zero = sp.Integer(1), sp.Integer(0)
    return TimeCourse(tuple(f.poly for f in factors), (sp.sympify(ridge), one), ((one, zero), (one, zero)), terms,
                      "halved" if halved else "full")


def time_course(task: Task, family: Family, ridge: sp.Expr | None, method: str = "auto") -> TimeCourse:
    """The mode decomposition of every trial's gradient-flow time course.

    Parameters
    ----------
    task : Task
    family : Family
        Exchangeable families may keep parameters symbolic; others need exact rational values.
    ridge : sympy expression or None
        The ridge; ``None`` (ridgeless) is gradient flow without weight decay (``lambda = 0``).
    method : {"auto", "laplacian", "gram"}
        ``"laplacian"``: the graph-Laplacian reduction (exchangeable kernels with equal counts); ``"gram"``:
        ``C`` times the halved (or full) Gram matrix; ``"auto"``: the first that applies.

    Returns
    -------
    TimeCourse

    Raises
    ------
    ParameterError
        For a non-exchangeable family (or unequal counts) with non-rational parameters, or
        ``method="laplacian"`` for a kernel that is not exchangeable or for unequal counts.
    """
    lam = sp.Integer(0) if ridge is None else sp.sympify(ridge)
    if method not in ("auto", "laplacian", "gram"):
        raise ParameterError(f"method must be one of auto, laplacian, gram, got {method!r}")
    if method == "laplacian" or (method == "auto" and family.exchangeable and equal_count(task) is not None):
        if not family.exchangeable:
            raise ParameterError(f"method 'laplacian' needs an exchangeable kernel; {family.describe()} is not")
        return _exchangeable(task, family, lam)
    return _generic(task, family, lam)
