"""Gram matrices of the ridge system as DomainMatrix; the number domain is chosen here and only here.

The training trials come in pairs ``p`` and ``swap(p) = (p[1], p[0])`` with opposite targets. When the kernel
is swap invariant, ``K(swap a, swap b) = K(a, b)``, the dual coefficients satisfy ``c[swap p] = -c[p]``
(the ridge solution is unique and the swap maps solutions to solutions), so the system halves to the
positive-target trials ``P`` with the Gram matrix

    H[p, q] = K(p, q) - K(p, swap q),        p, q in P,

and every prediction is ``f(t) = sum_p c_p (K(t, p) - K(t, swap p))``. See docs/theory.md#antisymmetric-halving.

Counts (presentations, docs/paradigms.md#counts): a comparison with count ``c_k`` weighs its squared errors by
``c_k``. Minimizing ``sum_k c_k (y_k - f_k)^2 + lambda ||f||^2`` gives ``(K + lambda C^{-1}) a = y`` with
``C = diag(c)`` (equivalently ``(C K + lambda I) a = C y``), the same as repeating each row ``c_k`` times for an
integer count. Both orders of a comparison share its count, so the halving holds with ``H + lambda C^{-1}`` on
the positive rows. The ridgeless limit of the weighted ridge is the minimum-norm solution of the weighted least
squares, from the normal equations ``K C K a = K C y`` (any solution gives the same predictions).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.polys.constructor import construct_domain
from sympy.polys.domains import Domain
from sympy.polys.matrices import DomainMatrix

from .families.base import Family, Trial
from .task import Task

__all__ = ["GramSystem", "build_system", "system_entries", "row_counts", "is_swap_invariant", "swap", "Kernel"]

#: ``kernel(a, b) -> K(a, b)``, exact: ``Family.kernel``, or a memo of it shared by :func:`is_swap_invariant`
#: and :func:`build_system` (the solver passes ``functools.cache(family.kernel)``: the check reads every entry
#: the system needs, so the system is built without computing a kernel value twice).
Kernel = Callable[[Trial, Trial], sp.Expr]


def swap(t: Trial) -> Trial:
    """The trial with its two items exchanged."""
    return (t[1], t[0])


@dataclass(frozen=True)
class GramSystem:
    """A ridge system ready for exact solving.

    Attributes
    ----------
    rows : tuple of trials, length m
        The unknowns' trials: the positive-target training trials (halved) or every training trial (full).
    targets : DomainMatrix of shape (m, 1)
        Training targets of ``rows``.
    gram : DomainMatrix of shape (m, m)
        The (halved or full) Gram matrix, without the ridge.
    ridge : domain element or None
        The ridge in the same domain, or ``None`` when no ridge is added (ridgeless).
    queries : tuple of trials, length T
        The trials whose predictions are wanted.
    cross : DomainMatrix of shape (T, m)
        Kernel between each query and each row (antisymmetrized when halved).
    halved : bool
        Whether the antisymmetric halving was used.
    counts : tuple of m domain elements, or None
        Each row's count ``c_k`` (module docstring); ``None`` when every count is 1.
    ridge_weights : tuple of m domain elements, or None
        ``1 / c_k``, the ridge's weight on each row: the system is ``(gram + ridge diag(ridge_weights)) a =
        targets``; ``None`` when every count is 1 (the ridge times the identity).
    """

    rows: tuple[Trial, ...]
    targets: DomainMatrix
    gram: DomainMatrix
    ridge: object
    queries: tuple[Trial, ...]
    cross: DomainMatrix
    halved: bool
    counts: tuple[object, ...] | None = None
    ridge_weights: tuple[object, ...] | None = None

    @property
    def domain(self) -> Domain:
        """The common number domain (QQ, ZZ[alpha, lambda], QQ(...), EX, ...)."""
        return self.gram.domain

    def ridge_diagonal(self) -> list[object] | None:
        """The ridge term's diagonal, ``ridge / c_k`` per row (``ridge`` when every count is 1), in the domain;
        ``None`` for the ridgeless limit."""
        if self.ridge is None:
            return None
        m = self.gram.shape[0]
        if self.ridge_weights is None:
            return [self.ridge] * m
        ridge: Any = self.ridge  # a domain element
        return [ridge * w for w in self.ridge_weights]

    def regularized(self) -> DomainMatrix:
        """``gram + ridge C^{-1}`` (``gram`` itself for the ridgeless limit)."""
        diag = self.ridge_diagonal()
        if diag is None:
            return self.gram
        return self.gram + DomainMatrix.diag(diag, self.domain)

    def normal_equations(self) -> tuple[DomainMatrix, DomainMatrix]:
        """``(K C K, K C y)`` of the ridgeless limit (``(K^2, K y)`` when every count is 1; module docstring)."""
        g = self.gram
        if self.counts is None:
            return g * g, g * self.targets
        gc = g * DomainMatrix.diag(list(self.counts), self.domain)
        return gc * g, gc * self.targets


def _common_domain(exprs: list[sp.Expr]) -> tuple[Domain, list]:
    """One domain for all entries: ZZ/QQ, QQ[params] or QQ(params); for algebraic numbers (sqrt(2), ...) an
    algebraic field QQ<...> or a polynomial ring over it; sympy's EX only as the last resort."""
    dom, elems = construct_domain(exprs)
    if not dom.is_EX:
        return dom, elems
    gens = sorted(set().union(*(e.free_symbols for e in exprs)), key=lambda s: s.name)
    try:
        coeffs = [c for e in exprs for c in sp.Poly(e, *gens).coeffs()] if gens else list(exprs)
        ground, _ = construct_domain(coeffs, extension=True)
        if ground.is_EX:
            return dom, elems
        ring_dom = ground[tuple(gens)] if gens else ground
        return ring_dom, [ring_dom.from_sympy(e) for e in exprs]
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed, NotImplementedError):
        return dom, elems


def is_swap_invariant(task: Task, family: Family, kernel: Kernel | None = None) -> bool:
    """Check ``K(swap a, swap b) == K(a, b)`` exactly for every trial ``a`` and every training trial ``b``.

    This is what the antisymmetric halving needs (module docstring): then ``c[swap p] = -c[p]``.

    Parameters
    ----------
    task : Task
    family : Family
    kernel : callable (a, b) -> sympy expression, optional
        Default ``family.kernel`` (:data:`Kernel`).

    Returns
    -------
    bool
        Whether every such difference expands to 0.
    """
    k = family.kernel if kernel is None else kernel
    train = [t for t, _ in task.training]
    for a in task.trials:
        for b in train:
            if sp.expand(k(swap(a), swap(b)) - k(a, b)) != 0:
                return False
    return True


def system_entries(task: Task, family: Family, halved: bool, queries: tuple[Trial, ...] | None = None,
                   kernel: Kernel | None = None) -> tuple[tuple[Trial, ...], list[sp.Expr], list[sp.Expr], list[int]]:
    """The rows, Gram entries, query-kernel entries and targets of the ridge system, as sympy expressions (no
    common domain: :func:`build_system` puts them in one; the certified numeric dynamics read them as balls).

    Parameters
    ----------
    task : Task
    family : Family
    halved : bool
        The antisymmetric halving (swap-invariant kernels only; the caller checks).
    queries : tuple of trials, optional
        Default every ordered trial of the task.
    kernel : callable (a, b) -> sympy expression, optional
        Default ``family.kernel`` (:data:`Kernel`).

    Returns
    -------
    (rows, gram, cross, targets)
        ``rows`` the m training trials of the system; ``gram`` its m x m entries row by row; ``cross`` the
        ``len(queries) x m`` query kernels row by row; ``targets`` the m targets. Halved: rows
        ``task.positive_training``, targets 1, ``K(p, q) - K(p, swap q)``; full: every training trial, its
        target, ``K(p, q)`` (docs/theory.md#antisymmetric-halving).
    """
    queries = task.trials if queries is None else queries
    kern = family.kernel if kernel is None else kernel
    k: Kernel
    if halved:
        rows = task.positive_training
        targets = [1] * len(rows)

        def k(a: Trial, b: Trial) -> sp.Expr:
            return kern(a, b) - kern(a, swap(b))
    else:
        rows = tuple(t for t, _ in task.training)
        targets = [y for _, y in task.training]
        k = kern
    return (rows, [k(p, q) for p in rows for q in rows], [k(t, q) for t in queries for q in rows], targets)


def row_counts(task: Task, rows: tuple[Trial, ...]) -> list[sp.Rational] | None:
    """The count of each row (``task.counts``), or ``None`` when every count of the task is 1."""
    if task.uniform_counts:
        return None
    counts = task.counts
    return [counts[r] for r in rows]


def build_system(
    task: Task,
    family: Family,
    ridge: sp.Expr | None,
    halved: bool,
    queries: tuple[Trial, ...] | None = None,
    kernel: Kernel | None = None,
) -> GramSystem:
    """Build the Gram matrix, targets and query kernels of the ridge system in one common domain.

    Parameters
    ----------
    task : Task
        Its training trials (premise pairs, then exceptions, each followed by its reverse) are the rows.
    family : Family
        Gives every entry through :meth:`Family.kernel` (exact sympy expressions).
    ridge : sympy expression or None
        The ridge (a number, a Symbol, an expression); ``None`` for the ridgeless limit (no ridge added).
    halved : bool
        Use the antisymmetric halving (only valid for swap-invariant kernels; the caller checks).
    queries : tuple of trials, optional
        Trials to predict; default every ordered trial of the task.
    kernel : callable (a, b) -> sympy expression, optional
        Default ``family.kernel`` (:data:`Kernel`); the same values.

    Returns
    -------
    GramSystem
        Halved: rows ``task.positive_training``, targets 1, ``gram[p, q] = K(p, q) - K(p, swap q)`` and
        ``cross[t, q] = K(t, q) - K(t, swap q)`` (module docstring; docs/theory.md#antisymmetric-halving). Full:
        rows every training trial, its target, ``gram[p, q] = K(p, q)``, ``cross[t, q] = K(t, q)``. Every entry
        in the one domain of :attr:`GramSystem.domain`. With counts (a task whose counts are not all 1), each
        row's count and its reciprocal, the ridge's weight (:attr:`GramSystem.ridge_weights`), in that domain too.
    """
    queries = task.trials if queries is None else queries
    rows, gram_entries, cross_entries, targets = system_entries(task, family, halved, queries, kernel)
    m = len(rows)
    counts = row_counts(task, rows)
    weights = [] if counts is None else counts + [1 / c for c in counts]
    extra = [sp.sympify(ridge)] if ridge is not None else []
    dom, elems = _common_domain(gram_entries + cross_entries + [sp.Integer(y) for y in targets] + weights + extra)
    g = elems[: m * m]
    c = elems[m * m: m * m + len(queries) * m]
    y = elems[m * m + len(queries) * m: m * m + len(queries) * m + m]
    w = elems[m * m + len(queries) * m + m: m * m + len(queries) * m + m + len(weights)]
    gram = DomainMatrix([g[r * m:(r + 1) * m] for r in range(m)], (m, m), dom)
    cross = DomainMatrix([c[r * m:(r + 1) * m] for r in range(len(queries))], (len(queries), m), dom)
    tgt = DomainMatrix([[v] for v in y], (m, 1), dom)
    return GramSystem(rows, tgt, gram, elems[-1] if extra else None, tuple(queries), cross, halved,
                      tuple(w[:m]) if counts is not None else None, tuple(w[m:]) if counts is not None else None)
