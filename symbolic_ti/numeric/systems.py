"""The numeric kernel system of a task: Gram matrices from the family's independent numeric kernel, and its rank.

:class:`KernelSystem` holds what a numeric solve needs (family, exact parameter values, exact ridge, training
trials, targets, queried trials) and builds the FULL (unhalved) Gram matrix ``K`` of the training trials, the
cross-kernel rows of the queried trials and the targets from :meth:`Family.kernel_numeric` -- in float64, in
mpmath at a chosen precision, or in exact rational arithmetic (``flint.fmpq``) when the numeric kernel
stays rational for rational parameters. Nothing here uses the exact solver's sympy kernel.

:func:`training_basis` finds the rank of ``K`` and a set of linearly independent training trials (a basis of the
span of the training kernel sections): exactly, as the rank of the exact rational ``K`` (python-flint), or --
when the numeric kernel is not rational (ReLU families, algebraic parameter values, float data) -- from a
symmetric elimination with diagonal pivoting in mpmath at two precisions ``p`` and ``2p`` that must give the same
rank, with ``p`` raised until they do (docs/theory.md#numeric-trust).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import flint
import mpmath
import numpy as np
import sympy as sp

from ..families.base import Family, Trial

__all__ = ["KernelSystem", "Basis", "training_basis", "RANK_START_DPS", "RANK_MAX_DPS"]

#: High-precision rank: first precision (decimal digits) of the pivoted elimination; it is doubled until the ranks
#: at ``p`` and ``2p`` agree, up to :data:`RANK_MAX_DPS`.
RANK_START_DPS = 40
RANK_MAX_DPS = 1280


class _NotRational(Exception):
    """The numeric kernel does not stay rational (a parameter value or the kernel itself is irrational)."""


def _rational(v: sp.Expr) -> Any:
    v = sp.sympify(v)
    if not v.is_Rational:
        raise _NotRational(str(v))
    return flint.fmpq(int(v.p), int(v.q))


def _mpf(v: sp.Expr) -> Any:
    """An exact sympy number as an mpf at the working precision (inside ``mpmath.workdps``)."""
    v = sp.sympify(v)
    if v.is_Rational:
        return mpmath.mpf(int(v.p)) / int(v.q)
    return mpmath.mpf(sp.N(v, mpmath.mp.dps + 10))


@dataclass
class KernelSystem:
    """One numeric kernel ridge problem.

    Attributes
    ----------
    family : Family
    free_values : dict str -> exact sympy number
        Values of the family's free parameters (bound ones come from the family).
    ridge : exact sympy number > 0, or None
        ``None`` for the ridgeless limit ``lambda -> 0+``.
    train : tuple of trials, length m
        Training trials, the rows and columns of ``K``.
    targets : tuple of int, length m
    queries : tuple of trials, length q
        Trials to predict.
    counts : tuple of exact positive numbers, length m, or None
        Each training trial's count (presentations), the weight of its squared error; ``None`` when every count
        is 1. The weighted problem ``min sum_k c_k (y_k - f_k)^2 + lambda ||f||^2`` is the unweighted one of the
        scaled system ``K' = S K S``, ``y' = S y``, cross rows ``X S`` with ``S = diag(sqrt(c))``
        (``(K + lambda C^{-1}) a = y`` with ``a = S b`` is ``(K' + lambda I) b = y'``, and ``f = X a = X S b``;
        its ridgeless limit is the weighted one). :meth:`float64` and :meth:`mp` return the scaled system;
        :meth:`exact_gram` the unscaled ``K`` (for the rank, which the scaling keeps, as it keeps the independent
        columns).
    """

    family: Family
    free_values: dict[str, sp.Expr]
    ridge: sp.Expr | None
    train: tuple[Trial, ...]
    targets: tuple[int, ...]
    queries: tuple[Trial, ...]
    counts: tuple[sp.Expr, ...] | None = None
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def m(self) -> int:
        """Number of training trials."""
        return len(self.train)

    def _point(self, convert: Callable[[sp.Expr], Any]) -> dict[str, Any]:
        return self.family.numeric_point({k: convert(v) for k, v in self.free_values.items()}, convert)

    def float64(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(K, X, y)`` in float64: ``K`` of shape (m, m), cross-kernel rows ``X`` of shape (q, m), ``y`` (m,)."""
        if "float64" not in self._cache:
            p = self._point(float)
            kern = self.family.kernel_numeric
            gram = np.array([[kern(a, b, p) for b in self.train] for a in self.train], dtype=float)
            cross = np.array([[kern(t, b, p) for b in self.train] for t in self.queries], dtype=float)
            cross = cross.reshape(len(self.queries), self.m)
            y = np.array(self.targets, float)
            if self.counts is not None:  # the weighted problem as the scaled unweighted one (class docstring)
                sc = np.sqrt(np.array([float(c) for c in self.counts]))
                gram, cross, y = gram * np.outer(sc, sc), cross * sc, y * sc
            self._cache["float64"] = (gram, cross, y)
        return self._cache["float64"]

    def mp(self) -> tuple[Any, list[list[Any]], list[Any]]:
        """``(K, X, y)`` at the current mpmath precision (call inside ``mpmath.workdps``): ``K`` an
        ``mpmath.matrix`` (m, m), ``X`` a list of q rows of m mpf, ``y`` a list of m mpf."""
        key = ("mp", mpmath.mp.prec)
        if key not in self._cache:
            p = self._point(_mpf)
            kern = self.family.kernel_numeric
            one = mpmath.mpf(1)
            gram = mpmath.matrix(self.m, self.m)
            for r, a in enumerate(self.train):
                for c, b in enumerate(self.train):
                    gram[r, c] = one * kern(a, b, p)
            cross = [[one * kern(t, b, p) for b in self.train] for t in self.queries]
            y = [mpmath.mpf(v) for v in self.targets]
            sc = self._mp_scale()
            if sc is not None:  # the weighted problem as the scaled unweighted one (class docstring)
                for r in range(self.m):
                    for c in range(self.m):
                        gram[r, c] *= sc[r] * sc[c]
                cross = [[v * sc[c] for c, v in enumerate(row)] for row in cross]
                y = [v * sc[r] for r, v in enumerate(y)]
            self._cache[key] = (gram, cross, y)
        return self._cache[key]

    def _mp_scale(self) -> list[Any] | None:
        """``sqrt(c_k)`` at the current mpmath precision, or ``None`` when every count is 1."""
        if self.counts is None:
            return None
        return [mpmath.sqrt(_mpf(c)) for c in self.counts]

    def mp_gram(self) -> Any:
        """Only ``K`` at the current mpmath precision (no cross-kernel rows; for the rank)."""
        key = ("mp", mpmath.mp.prec)
        if key in self._cache:
            return self._cache[key][0]
        p = self._point(_mpf)
        kern = self.family.kernel_numeric
        one = mpmath.mpf(1)
        gram = mpmath.matrix(self.m, self.m)
        sc = self._mp_scale()
        for r, a in enumerate(self.train):
            for c, b in enumerate(self.train[r:], r):
                gram[r, c] = gram[c, r] = one * kern(a, b, p) * (1 if sc is None else sc[r] * sc[c])
        return gram

    def exact_gram(self) -> Any:
        """``K`` as an exact ``flint.fmpq_mat``, or ``None`` if the numeric kernel does not stay rational."""
        if "exact" not in self._cache:
            self._cache["exact"] = self._exact_gram()
        return self._cache["exact"]

    def _exact_gram(self) -> Any:
        try:
            p = self._point(_rational)
            kern = self.family.kernel_numeric
            rows: list[list[Any]] = [[flint.fmpq(0)] * self.m for _ in range(self.m)]
            for r, a in enumerate(self.train):
                for c in range(r, self.m):
                    v = kern(a, self.train[c], p)
                    if isinstance(v, bool) or not isinstance(v, (int, flint.fmpz, flint.fmpq)):
                        return None  # the kernel left exact arithmetic (float data, math functions)
                    rows[r][c] = rows[c][r] = flint.fmpq(v)
            return flint.fmpq_mat(rows)
        except (_NotRational, TypeError, ValueError, ArithmeticError):
            return None


@dataclass(frozen=True)
class Basis:
    """The rank of ``K`` and linearly independent training trials spanning its range.

    Attributes
    ----------
    rank : int or None
        ``None`` if it could not be decided (high-precision ranks still disagreeing at :data:`RANK_MAX_DPS`, or an
        exact ``K`` that is not positive semidefinite).
    indices : tuple of int
        Positions (in ``train``) of ``rank`` training trials whose Gram columns are linearly independent, in
        pivot order (largest remaining diagonal first).
    source : str
        ``"exact"`` or ``"mpmath <p>/<2p> digits"``.
    """

    rank: int | None
    indices: tuple[int, ...]
    source: str


def _pivot_order(rows: list[list[Any]], cut: Any) -> tuple[list[int], bool, Any]:
    """Symmetric Gaussian elimination with diagonal pivoting (LDL^T) of a PSD matrix given as a list of rows.

    A pivot ``<= cut * first pivot`` ends the elimination. Returns the pivot order, whether the rest of the
    Schur complement is negligible by the same rule (``False``: a remaining diagonal <= 0 next to a larger
    off-diagonal entry, i.e. the matrix is not positive semidefinite), and the largest remaining entry relative
    to the first pivot."""
    s = [row[:] for row in rows]
    remaining = list(range(len(s)))
    order: list[int] = []
    first = None
    while remaining:
        k = max(remaining, key=lambda i: s[i][i])
        d = s[k][k]
        first = d if first is None else first
        if d <= 0 or d <= cut * first:
            rest = max((abs(s[i][j]) for i in remaining for j in remaining), default=0)
            return order, bool(rest <= cut * first), (rest / first if first > 0 else rest)
        order.append(k)
        remaining.remove(k)
        col = {i: s[i][k] for i in remaining}
        for i in remaining:
            ci = col[i] / d
            if ci == 0:
                continue
            row = s[i]
            for j in remaining:
                if j >= i:
                    row[j] -= ci * col[j]
                    s[j][i] = row[j]
    return order, True, 0


def _float64_order(gram: np.ndarray) -> list[int]:
    """Diagonal-pivoting order of a float64 PSD matrix (vectorized rank-one updates), while pivots exceed
    round-off."""
    s = np.array(gram, dtype=float)
    m = s.shape[0]
    active = np.ones(m, dtype=bool)
    order: list[int] = []
    top = float(np.max(np.abs(np.diag(s)))) if m else 0.0
    for _ in range(m):
        diag = np.where(active, np.diag(s), -np.inf)
        k = int(np.argmax(diag))
        if not diag[k] > 1e3 * m * np.finfo(float).eps * top:
            break
        order.append(k)
        active[k] = False
        col = s[:, k].copy()
        s -= np.outer(col, col) / col[k]
    return order


def _rref_pivots(mat: Any, rank: int) -> list[int]:
    """Pivot columns of the reduced row echelon form of an exact matrix (independent columns, natural order)."""
    red, _ = mat.rref()
    out: list[int] = []
    for r in range(rank):
        out.append(next(c for c in range(mat.ncols()) if red[r, c] != 0))
    return out


def _independent(mat: Any, cols: list[int]) -> bool:
    sub = flint.fmpq_mat([[mat[r, c] for c in cols] for r in cols])
    return sub.rank() == len(cols)


def _high_precision_order(system: KernelSystem, dps: int) -> tuple[list[int], bool, bool]:
    """Pivot order at ``dps`` digits (cut ``10^(-dps/2)``), whether it ended consistently, and whether what it
    dropped is at round-off level (below ``10^(-3 dps/4)`` of the first pivot), so that no real pivot hides
    under the cut."""
    with mpmath.workdps(dps):
        g = system.mp_gram()
        rows = [[g[r, c] for c in range(system.m)] for r in range(system.m)]
        order, ok, rest = _pivot_order(rows, mpmath.mpf(10) ** (-mpmath.mpf(dps) / 2))
        return order, ok, bool(rest <= mpmath.mpf(10) ** (-3 * mpmath.mpf(dps) / 4))


def training_basis(system: KernelSystem) -> Basis:
    """The rank of the Gram matrix ``K`` of ``system`` and a basis of training trials (exact when possible).

    Exact: the numeric kernel evaluated in exact rational arithmetic (``flint.fmpq``), the rank of that exact
    matrix (``flint.fmpq_mat.rank``), and as basis the first ``rank`` pivots of a diagonal-pivoting elimination of
    the float64 ``K`` (well conditioned), checked to be exactly independent (else the pivot columns of the exact
    reduced row echelon form). Otherwise: symmetric elimination with diagonal pivoting in mpmath at ``p`` and ``2p``
    digits (``p`` from :data:`RANK_START_DPS`), where a pivot ``<= 10^(-q/2)`` times the first counts as zero at
    ``q`` digits; ``p`` is doubled until the two ranks agree and what ``2p`` digits dropped is below
    ``10^(-3p/2)`` of the first pivot (round-off, not a real pivot under the cut; docs/theory.md#numeric-trust).

    Returns
    -------
    Basis
    """
    exact = system.exact_gram()
    if exact is not None:
        rank = exact.rank()
        order = _float64_order(system.float64()[0])[:rank]
        if len(order) < rank or not _independent(exact, order):
            order = _rref_pivots(exact, rank)
        return Basis(rank, tuple(order), "exact")
    dps = RANK_START_DPS
    low, low_ok, _ = _high_precision_order(system, dps)
    while 2 * dps <= RANK_MAX_DPS:
        high, high_ok, clean = _high_precision_order(system, 2 * dps)
        if low_ok and high_ok and clean and len(low) == len(high):
            return Basis(len(high), tuple(high), f"mpmath {dps}/{2 * dps} digits")
        dps, low, low_ok = 2 * dps, high, high_ok
    return Basis(None, tuple(low), f"undecided up to {dps} digits")
