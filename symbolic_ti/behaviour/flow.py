r"""Fast float64 gradient-flow predictions for the learning-curve fit: the closed form through the eigenvectors of the
Gram matrix.

Gradient flow from zero output (CONVENTIONS.md, "Gradient flow"; docs/dynamics.md), with counts
``C = diag(c)`` of the training trials, gives ``f_tau(x) = k(x)^T (C K + lambda I)^{-1} (I - exp(-(C K + lambda I)
tau)) C y``. With ``D = C^{1/2}`` and the symmetric ``D K D = V diag(s) V^T`` (``numpy.linalg.eigh``) this is

    f_tau(x) = sum_m [k(x)^T D V]_m  (1 - exp(-(s_m + lambda) tau)) / (s_m + lambda)  [V^T D y]_m,

so one eigendecomposition per parameter point serves every time point (``-expm1(-r tau) / r``, and ``tau`` itself
where ``r tau`` underflows: a zero mode without weight decay grows linearly, and its weight ``k(x)^T D v`` is 0
for every input in the span of the features). :class:`FlowEvaluator` compiles the kernel entries once
(:func:`~symbolic_ti.behaviour.model.compile_predictions`) with the family's fitted parameters symbolic.
``method="dense"`` evaluates the same formula with ``scipy.linalg.expm`` and a linear solve at each time point
instead (the reference of ``benchmarks/bench_curves.py``). Both are checked against the exact
:func:`symbolic_ti.dynamics.dynamics` in ``tests/test_fit_curves.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

from ..families import Family
from ..task import Task
from .model import compile_predictions

__all__ = ["FlowEvaluator"]


class FlowEvaluator:
    """``f(i, j, tau)`` of every trial of ``task`` under gradient flow, in float64.

    Parameters
    ----------
    task : Task
        Any task; its training trials (with their counts) are trained.
    family : Family
        The kernel; the parameters in ``symbols`` stay symbolic and are arguments of :meth:`values`.
    symbols : sequence of sympy.Symbol, optional
        The family's fitted parameters, in the order :meth:`values` takes them; default: the family's free
        parameters that the kernel entries depend on, in the family's order.
    method : {"eigen", "dense"}
        The eigendecomposition closed form (default) or a dense ``expm`` and solve per time point.

    Attributes
    ----------
    trials : tuple of (i, j)
        The task's trials (rows of :meth:`values`).
    present : set of sympy.Symbol
        The symbols the kernel entries depend on.
    symbols : list of sympy.Symbol
        The arguments of :meth:`values`.
    """

    def __init__(self, task: Task, family: Family, symbols: Sequence[sp.Symbol] | None = None,
                 method: str = "eigen") -> None:
        if method not in ("eigen", "dense"):
            raise ValueError(f"method must be 'eigen' or 'dense', got {method!r}")
        self.method = method
        self.trials = task.trials
        rows = [t for t, _ in task.training]
        self.n_rows = len(rows)
        self.targets = np.array([y for _, y in task.training], dtype=float)
        counts = task.counts
        self.root_counts = np.sqrt(np.array([float(counts[t]) for t in rows], dtype=float))
        entries = [family.kernel(a, b) for a in rows for b in rows]
        entries += [family.kernel(x, b) for x in self.trials for b in rows]
        self.present = set().union(*(sp.sympify(e).free_symbols for e in entries))
        if symbols is None:
            symbols = [p.symbol for p in family.free_parameters if p.symbol in self.present]
        self.symbols = list(symbols)
        self._fn = compile_predictions(entries, self.symbols)

    def matrices(self, values: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
        """The Gram matrix of the training trials, shape ``(N, N)``, and the kernel between every trial and them,
        shape ``(T, N)``, at the parameter values ``values``."""
        ent = self._fn(*[float(v) for v in values])
        n = self.n_rows
        return ent[:n * n].reshape(n, n), ent[n * n:].reshape(len(self.trials), n)

    def values(self, values: Sequence[float], ridge: float, taus: np.ndarray) -> np.ndarray:
        """``f(x, tau)`` of every trial (rows, task order) at each flow time (columns).

        Parameters
        ----------
        values : sequence of float
            The fitted family parameters, in the order of ``symbols``.
        ridge : float
            ``lambda >= 0`` (0: no weight decay).
        taus : ndarray, shape (P,)
            Flow times ``>= 0``.

        Returns
        -------
        ndarray, shape (T, P)
            NaN everywhere if the kernel is not finite at ``values``.
        """
        taus = np.asarray(taus, dtype=float)
        gram, cross = self.matrices(values)
        if not (np.all(np.isfinite(gram)) and np.all(np.isfinite(cross))):
            return np.full((len(self.trials), len(taus)), np.nan)
        d = self.root_counts
        if self.method == "dense":
            return self._dense(gram, cross, ridge, taus)
        s, v = np.linalg.eigh(d[:, None] * gram * d[None, :])
        rates = s + ridge
        left = (cross * d[None, :]) @ v
        right = v.T @ (d * self.targets)
        rt = rates[:, None] * taus[None, :]
        safe = np.where(rates == 0, 1.0, rates)[:, None]
        g = np.where(np.abs(rt) < 1e-12, taus[None, :] * (1 - rt / 2), -np.expm1(-rt) / safe)
        return left @ (g * right[:, None])

    def _dense(self, gram: np.ndarray, cross: np.ndarray, ridge: float, taus: np.ndarray) -> np.ndarray:
        """The same values through ``scipy.linalg.expm`` of ``-(C K + lambda I) tau`` and a dense solve per time:
        ``a(tau) = (C K + lambda I)^{-1} (I - exp(-(C K + lambda I) tau)) C y`` (the minimum-norm least-squares solution where the matrix
        is singular, without weight decay: the null space of ``C K`` is that of ``K``, which no ``k(x)`` sees)."""
        from scipy.linalg import expm, lstsq

        c = self.root_counts ** 2
        m = c[:, None] * gram + ridge * np.eye(self.n_rows)
        cy = c * self.targets
        out = np.empty((len(self.trials), len(taus)))
        for k, tau in enumerate(taus):
            rhs = cy - expm(-m * tau) @ cy
            a = lstsq(m, rhs)[0] if ridge == 0 else np.linalg.solve(m, rhs)
            out[:, k] = cross @ a
        return out

