"""scikit-learn bridge: the ridge as ``KernelRidge(alpha=...)``, and the Gram matrices in its precomputed layout.

scikit-learn's ``KernelRidge`` minimizes ``||y - K c||^2 + alpha c^T K c`` (the squared errors summed, not
averaged) and predicts ``K_test_train c`` with ``c = (K + alpha I)^{-1} y`` and no intercept (scikit-learn user
guide, "Kernel ridge regression"; ``sklearn/kernel_ridge.py``). That is symbolic_ti's ridge exactly
(docs/conventions.md): ``alpha = lambda``. ``alpha = 0`` is the ridgeless limit only for a nonsingular Gram
matrix: on a singular one scikit-learn's Cholesky solve usually does not fail (it warns of an ill-conditioned
matrix) and returns coefficients dominated by rounding, so its least-squares fallback is not reached and the
predictions can be off by units. The ridgeless predictions are the minimum-norm ``k^T K^+ y``, e.g.
``float_test_train @ numpy.linalg.lstsq(float_train, y_train, rcond=None)[0]`` (docs/interop.md). With
``kernel="precomputed"``, ``fit`` takes the train x train Gram matrix and ``predict`` the test x train cross-Gram
matrix; :func:`precomputed_gram` builds both (docs/interop.md).

**Counts.** A comparison presented ``c`` times weighs its squared errors by ``c`` (symbolic_ti's weighted ridge
``k^T (K + lambda C^{-1})^{-1} y``, docs/theory.md#gradient-flow-with-counts). ``KernelRidge.fit(K, y,
sample_weight=w)`` solves ``(diag(sqrt w) K diag(sqrt w) + alpha I) d = sqrt(w) y`` and uses ``sqrt(w) d``
(``sklearn/kernel_ridge.py``, ``_solve_cholesky_kernel``), which is ``(K + alpha W^{-1})^{-1} y``: the same model
with ``sample_weight = counts`` (:attr:`PrecomputedGram.sample_weight`). Tools that cannot weight rows
(neural-tangents) take integer counts as repeated rows (:meth:`PrecomputedGram.repeated`), which is the same loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from ..arguments import RidgeLike, parse_ridge
from ..errors import ParameterError
from ..families.base import Family, Trial
from ..task import Task

__all__ = ["PrecomputedGram", "kernel_ridge_alpha", "numeric_ridge", "precomputed_gram"]


def numeric_ridge(ridge: RidgeLike, tool: str) -> sp.Expr:
    """The exact ridge as a number for a numeric tool: ``lambda``, or 0 for the ridgeless limit.

    Parameters
    ----------
    ridge : number >= 0, ``"ridgeless"`` or 0
        Read exactly by :func:`symbolic_ti.arguments.parse_ridge`.
    tool : str
        The tool's name, for the error message (``"scikit-learn"``, ``"neural-tangents"``).

    Returns
    -------
    sympy number

    Raises
    ------
    ParameterError
        For a negative or symbolic ridge.
    """
    lam = parse_ridge(ridge)
    if lam is None:
        return sp.Integer(0)
    if lam.free_symbols:
        raise ParameterError(f"ridge: {tool} needs a number, got the symbolic ridge {lam}")
    return lam


def kernel_ridge_alpha(ridge: RidgeLike) -> float:
    """scikit-learn's ``KernelRidge(alpha=...)`` for a symbolic_ti ridge: ``alpha = lambda`` (0 for ridgeless).

    ``alpha = 0`` gives the ridgeless limit only when the Gram matrix is nonsingular; with a singular one use a
    minimum-norm least-squares solve instead (module docstring, docs/interop.md).

    Parameters
    ----------
    ridge : number >= 0, ``"ridgeless"`` or 0
        Read exactly by :func:`symbolic_ti.arguments.parse_ridge`.

    Returns
    -------
    float

    Raises
    ------
    ParameterError
        For a negative or symbolic ridge (scikit-learn needs a number).

    Examples
    --------
    >>> kernel_ridge_alpha("1/10")
    0.1
    """
    return float(numeric_ridge(ridge, "scikit-learn"))


@dataclass(frozen=True)
class PrecomputedGram:
    """Gram (train x train) and cross-Gram (test x train) matrices of a task and family, with the targets.

    Attributes
    ----------
    task : Task
    family : Family
    ridge : sympy number or None
        ``None`` for the ridgeless limit.
    train : tuple of trials, length m
        The training trials (premise pairs and exceptions, both orders), rows and columns of ``k_train``.
    targets : tuple of int, length m
    test : tuple of trials, length q
        Every ordered trial (``task.trials``), the rows of ``k_test_train``.
    k_train, k_test_train : sympy.ImmutableMatrix or None
        Exact entries, shapes ``(m, m)`` and ``(q, m)``; ``None`` for float data (``family.numeric_only``).
    float_train, float_test_train : numpy.ndarray
        The same in float64.
    counts : tuple of sympy Rationals, length m
        Each training trial's count (presentations; all 1 for a task without counts).
    """

    task: Task
    family: Family
    ridge: sp.Expr | None
    train: tuple[Trial, ...]
    targets: tuple[int, ...]
    test: tuple[Trial, ...]
    k_train: sp.ImmutableMatrix | None
    k_test_train: sp.ImmutableMatrix | None
    float_train: np.ndarray
    float_test_train: np.ndarray
    counts: tuple[sp.Rational, ...] = ()

    @property
    def sample_weight(self) -> np.ndarray:
        """``KernelRidge.fit(..., sample_weight=...)``: each training trial's count as a float64 vector of length
        m (module docstring); all ones without counts."""
        return np.array([float(c) for c in self.counts] if self.counts else [1.0] * len(self.train), dtype=float)

    def repeated(self, tool: str = "neural-tangents") -> PrecomputedGram:
        """The same matrices with each training trial repeated ``count`` times (for a tool that cannot weight
        rows: the loss ``sum_k c_k (f_k - y_k)^2`` is that of the repeated rows); itself when every count is 1.

        Raises
        ------
        ParameterError
            For a count that is not a whole number (rows cannot be repeated a fractional number of times).
        """
        if all(c == 1 for c in self.counts):
            return self
        for t, c in zip(self.train, self.counts, strict=True):
            if not sp.sympify(c).is_integer:
                raise ParameterError(f"{tool} cannot weight training rows and trial {t[0]}>{t[1]} has count {c}; "
                                     f"repeating rows needs whole-number counts")
        index = [r for r, c in enumerate(self.counts) for _ in range(int(c))]

        def pick(mat: sp.ImmutableMatrix | None, rows: bool) -> sp.ImmutableMatrix | None:
            if mat is None:
                return None
            cols = mat.extract(list(range(mat.rows)), index)
            return cols.extract(index, list(range(cols.cols))) if rows else cols

        return PrecomputedGram(self.task, self.family, self.ridge, tuple(self.train[r] for r in index),
                               tuple(self.targets[r] for r in index), self.test, pick(self.k_train, True),
                               pick(self.k_test_train, False), self.float_train[np.ix_(index, index)],
                               self.float_test_train[:, index], tuple(sp.Integer(1) for _ in index))

    @property
    def alpha(self) -> float:
        """``KernelRidge(alpha=...)``: the ridge (0 for ridgeless, which is the ridgeless limit only when
        ``k_train`` is nonsingular; otherwise solve by minimum-norm least squares, docs/interop.md)."""
        return 0.0 if self.ridge is None else float(self.ridge)

    @property
    def y_train(self) -> np.ndarray:
        """The targets as a float64 vector of length m."""
        return np.array(self.targets, dtype=float)


def precomputed_gram(task: Task, family: Family, ridge: RidgeLike = "ridgeless") -> PrecomputedGram:
    """The matrices that scikit-learn's ``KernelRidge(kernel="precomputed")`` takes, for ``task`` and ``family``.

    Parameters
    ----------
    task : Task
    family : Family
        Every parameter bound to a number.
    ridge : number >= 0 or ``"ridgeless"``
        Recorded for :attr:`PrecomputedGram.alpha` (the matrices do not depend on it).

    Returns
    -------
    PrecomputedGram

    Raises
    ------
    ParameterError
        If a family parameter or the ridge is symbolic, or the family does not fit the task.

    Examples
    --------
    >>> from symbolic_ti.families import Exchangeable
    >>> g = precomputed_gram(Task(4), Exchangeable(alpha=0), 1)
    >>> g.float_train.shape, g.float_test_train.shape, g.alpha
    ((6, 6), (12, 6), 1.0)

    With counts, pass ``sample_weight=g.sample_weight`` to ``KernelRidge.fit`` (module docstring).
    """
    from ..errors import ParameterError

    lam = parse_ridge(ridge)
    if family.free_symbols or (lam is not None and lam.free_symbols):
        names = [p.name for p in family.free_parameters] + ([] if lam is None or not lam.free_symbols else ["lambda"])
        raise ParameterError(f"a precomputed Gram matrix needs numbers; give values for {', '.join(names)}")
    family.check_task(task)
    train = tuple(t for t, _ in task.training)
    targets = tuple(int(y) for _, y in task.training)
    test = tuple(task.trials)
    counts = tuple(task.counts[t] for t in train)
    if family.numeric_only:
        point = family.numeric_point({}, float)
        ft = np.array([[family.kernel_numeric(a, b, point) for b in train] for a in train], dtype=float)
        fx = np.array([[family.kernel_numeric(a, b, point) for b in train] for a in test], dtype=float)
        return PrecomputedGram(task, family, lam, train, targets, test, None, None, ft, fx, counts)
    cache: dict[Any, float] = {}

    def to_float(v: sp.Expr) -> float:
        if v not in cache:
            cache[v] = float(sp.N(v, 30))
        return cache[v]

    kt = sp.ImmutableMatrix([[family.kernel(a, b) for b in train] for a in train])
    kx = sp.ImmutableMatrix([[family.kernel(a, b) for b in train] for a in test])
    ft = np.array([[to_float(v) for v in kt.row(r)] for r in range(kt.rows)], dtype=float)
    fx = np.array([[to_float(v) for v in kx.row(r)] for r in range(kx.rows)], dtype=float)
    return PrecomputedGram(task, family, lam, train, targets, test, kt, kx, ft, fx, counts)
