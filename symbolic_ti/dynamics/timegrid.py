r"""Fast evaluation of gradient-flow time courses on grids of (t, alpha, lambda), with an error bound and mpmath.

The eigenvalues ``mu_k`` and the weights ``W_x(mu_k)`` of :mod:`.modes` do not depend on ``alpha``, the ridge or
``t`` (exchangeable kernels: they are the comparison graph's), so they are computed once as balls and rounded to
float64 (and kept at high precision for the fallback). On a grid, with ``phi_k = (1 - exp(-rho_k t)) / rho_k``
computed as ``-expm1(-rho_k t) / rho_k`` (``t`` where ``rho_k = 0``),

    f_x = c0 sum_k W_xk phi_k + c1 sum_k mu_k W_xk phi_k,

two matrix products for all trials at once. Each term carries a relative rounding error of at most ``10 u``
(``u = 2^-53``: the rounded ``mu_k`` and ``W_xk``, the rate, expm1, the quotient and the products), and a float64
sum of ``K`` terms adds at most ``K u`` times the sum of their absolute values (Higham, *Accuracy and Stability
of Numerical Algorithms*, 2nd ed., section 4.2), so

    |error| <= (K + 10) u (|c0| sum_k |W_xk| phi_k + |c1| sum_k |mu_k W_xk| phi_k).

Points where this bound exceeds ``rtol |f_x|`` (default ``1e-10``; near a zero of the margin, where a float64 sign
could be wrong) are evaluated again with mpmath from 120-bit values of ``mu_k`` and ``W_xk``, at 30 digits. The
output is :class:`symbolic_ti.numeric.grid_values.GridValues`, as for :mod:`symbolic_ti.numeric.grid`.
Derived in docs/dynamics.md#grid-evaluation.
"""

from __future__ import annotations

from typing import Any

import flint
import mpmath
import numpy as np
import sympy as sp

from ..arguments import trial_entries
from ..errors import ParameterError
from ..families.base import Trial
from ..flint_values import arb_horner
from ..numeric.grid_values import GridValues
from .result import Dynamics
from .spectral import X

__all__ = ["evaluate_grid"]

_U = 2.0 ** -53
_CHUNK = 16384


def _modes(dyn: Dynamics, trials: list[Trial], prec: int = 160) -> tuple[list[Any], list[Any], np.ndarray, list]:
    """Every (group, root) mode: its nu (arb), the weight matrix W (trials x modes, arb) and the term kinds."""
    tc = dyn.course
    if tc is None:
        raise ParameterError("grid evaluation needs exact modes; this kernel's Gram matrix is irrational (certified "
                             "numeric path): evaluate points with Dynamics.enclosure or value")
    mus: list[Any] = []
    index: dict[tuple[int, int], int] = {}
    with flint.ctx.workprec(prec):
        for g, q in enumerate(tc.groups):
            roots = [flint.arb(0)] if q == X else [r.real for r, _ in q.complex_roots()]  # type: ignore[misc, has-type]
            for k, mu in enumerate(roots):
                index[(g, k)] = len(mus)
                mus.append(mu)
        weights = [[flint.arb(0)] * len(mus) for _ in trials]
        kinds = np.zeros(len(trials), dtype=int)
        node_values: dict[int, list[Any]] = {}  # (Laplacian) P_mu b at every item, once per mode
        nodes = tc.nodes or ()
        for g, entries in enumerate(nodes):
            for k in range(int(tc.groups[g].degree())):
                node_values[index[(g, k)]] = [arb_horner(e, mus[index[(g, k)]]) for e in entries]
        for row, x in enumerate(trials):
            for term in tc.terms[x]:
                kinds[row] = term.kind
                q = tc.groups[term.group]
                for k in range(int(q.degree())):
                    col = index[(term.group, k)]
                    mu = mus[col]
                    if term.group < len(nodes):
                        w = node_values[col][x[0] - 1] - node_values[col][x[1] - 1]
                        weights[row][col] = w / mu if term.kind == 1 else w
                    else:
                        weights[row][col] = arb_horner(term.weight, mu)
    return mus, weights, kinds, list(index)



def _coefficients(dyn: Dynamics, alpha: np.ndarray, lam: np.ndarray, lib: Any = np) -> tuple[Any, ...]:
    """``(a, b, (c0, c1) of kind 0, (c0, c1) of kind 1)`` on the grid."""
    if dyn.method == "laplacian":
        scale, _, kd = dyn.family.exchangeable_form()
        s = float(scale * (1 - kd)) if lib is np else mpmath.mpf(sp.Rational(scale * (1 - kd)).p) / int(
            sp.Rational(scale * (1 - kd)).q)
        a, b = s * alpha + lam, s * (1 - alpha) / 2
        return a, b, (b, 0 * b), (s * alpha, b)
    one = 1 + 0 * lam
    return lam, one, (one, 0 * one), (one, 0 * one)


def evaluate_grid(dyn: Dynamics, t: Any, alpha: Any = None, ridge: Any = None, trials: Any = None,
                  rtol: float = 1e-10) -> GridValues:
    """``f_t(i, j)`` of chosen trials on a broadcast grid of times, conjunctivities and ridges.

    Parameters
    ----------
    dyn : Dynamics
        Exchangeable (Laplacian modes: ``alpha`` may vary, ``kappa_d`` must be a number) or a Gram-matrix result
        (then only ``t`` and the ridge vary).
    t : array_like of float >= 0
    alpha : array_like of float in [0, 1], optional
        Default the family's value (required if it is symbolic).
    ridge : array_like of float >= 0, optional
        Default the result's ridge (0 without weight decay).
    trials : list of (i, j), optional
        Default every trial.
    rtol : float
        Relative error bound above which a point is recomputed with mpmath (module docstring).

    Returns
    -------
    GridValues
        ``values`` of shape ``(len(trials), *broadcast shape)``, ``fallback`` where mpmath was used.

    Raises
    ------
    ParameterError
        For a result without exact modes (irrational Gram matrix, ``dyn.course is None``);
        For negative times or ridges, alpha outside [0, 1], a symbolic value that is not given, or ``alpha`` with a
        Gram-matrix result.
    """
    if dyn.course is None:
        raise ParameterError("grid evaluation needs exact modes; this kernel's Gram matrix is irrational (certified "
                             "numeric path): evaluate points with Dynamics.enclosure or value")
    chosen = list(dyn.task.trials) if trials is None else [dyn.task.check_trial(x) for x in trial_entries(trials)]
    fam_alpha = dyn.family.exchangeable_form()[1] if dyn.method == "laplacian" else None
    if alpha is not None and dyn.method != "laplacian":
        raise ParameterError("alpha can vary on the grid only for exchangeable kernels (Laplacian modes)")
    if alpha is None and fam_alpha is not None:
        if sp.sympify(fam_alpha).free_symbols:
            raise ParameterError("alpha is symbolic in this result: give alpha values for the grid")
        alpha = float(fam_alpha)
    if ridge is None:
        if dyn.ridge is not None and dyn.ridge.free_symbols:
            raise ParameterError("the ridge is symbolic in this result: give ridge values for the grid")
        ridge = 0.0 if dyn.ridge is None else float(dyn.ridge)
    tt, aa, ll = np.broadcast_arrays(np.asarray(t, float), np.asarray(0.0 if alpha is None else alpha, float),
                                     np.asarray(ridge, float))
    if (tt < 0).any() or (ll < 0).any() or (aa < 0).any() or (aa > 1).any() or not np.isfinite(tt).all():
        raise ParameterError("grid values need t >= 0 (finite), ridge >= 0 and alpha in [0, 1]")
    for prec in (160, 320, 640, 1280, 2560, 5120):  # Horner's rule on large coefficients cancels: raise precision
        mus, weights, kinds, _ = _modes(dyn, chosen, prec)
        if all(w.rad() <= abs(w.mid()) * 2.0 ** -70 or w.rad() < 2.0 ** -1000 for row in weights for w in row):
            break
    mu = np.array([float(m.mid()) for m in mus])
    W = np.array([[float(w.mid()) for w in row] for row in weights]) if chosen else np.zeros((0, len(mus)))
    shape = tt.shape
    tf, af, lf = tt.ravel(), aa.ravel(), ll.ravel()
    values = np.empty((len(chosen), tf.size))
    bad = np.zeros((len(chosen), tf.size), dtype=bool)
    for lo in range(0, tf.size, _CHUNK):
        sl = slice(lo, lo + _CHUNK)
        values[:, sl], bad[:, sl] = _chunk(dyn, mu, W, kinds, tf[sl], af[sl], lf[sl], rtol)
    if bad.any():
        _fallback(dyn, mus, weights, kinds, tf, af, lf, values, bad)
    truths = [dyn.task.ground_truth(x) for x in chosen]
    g = np.array([np.nan if v is None else float(v) for v in truths])
    n_bad = int(bad.any(axis=0).sum())
    note = (f"float64 with a rounding bound; {n_bad} of {tf.size} points recomputed with mpmath at 30 digits"
            if n_bad else "float64 with a rounding bound below rtol everywhere; no mpmath fallback needed")
    out = values.reshape((len(chosen),) + shape)
    out.setflags(write=False)
    fb = bad.reshape((len(chosen),) + shape)
    params = {"t": tt, "alpha": aa, "lambda": ll}
    return GridValues(tuple(chosen), out, fb, np.zeros_like(fb), params, g, note)


def _chunk(dyn: Dynamics, mu: np.ndarray, W: np.ndarray, kinds: np.ndarray, tf: np.ndarray, af: np.ndarray,
           lf: np.ndarray, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    """Values and the mpmath mask on one chunk of points (plain vector sums over the modes, no BLAS)."""
    a, b, amp0, amp1 = _coefficients(dyn, af, lf)
    shape = (len(kinds), tf.size)
    if len(mu) >= 16:  # enough modes for matrix products to pay (few modes: plain sums, see module docstring)
        rho = a[None, :] + b[None, :] * mu[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            phi = np.where(rho > 0, -np.expm1(-rho * tf[None, :]) / rho, tf[None, :])
        Wm, aW = W * mu[None, :], np.abs(W)
        S0, S1, A0, A1 = W @ phi, Wm @ phi, aW @ phi, np.abs(Wm) @ phi
        return _combine(kinds, amp0, amp1, S0, S1, A0, A1, len(mu), rtol)
    S0, S1, A0, A1 = (np.zeros(shape) for _ in range(4))
    for k, m in enumerate(mu):
        col = W[:, k]
        if not col.any():
            continue
        rho = a + b * m
        with np.errstate(divide="ignore", invalid="ignore"):
            phi = np.where(rho > 0, -np.expm1(-rho * tf) / rho, tf)
        S0 += col[:, None] * phi
        S1 += (m * col)[:, None] * phi
        A0 += np.abs(col)[:, None] * phi
        A1 += np.abs(m * col)[:, None] * phi
    return _combine(kinds, amp0, amp1, S0, S1, A0, A1, len(mu), rtol)


def _combine(kinds: np.ndarray, amp0: Any, amp1: Any, S0: np.ndarray, S1: np.ndarray, A0: np.ndarray,
             A1: np.ndarray, modes: int, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    train = kinds[:, None] == 1
    c0 = np.where(train, amp1[0][None, :], amp0[0][None, :])
    c1 = np.where(train, amp1[1][None, :], amp0[1][None, :])
    values = c0 * S0 + c1 * S1
    bound = (modes + 10) * _U * (np.abs(c0) * A0 + np.abs(c1) * A1)
    return values, ~(bound <= rtol * np.abs(values)) & (bound > 1e-300)


def _fallback(dyn: Dynamics, mus: list, weights: list, kinds: np.ndarray, tf: np.ndarray, af: np.ndarray,
              lf: np.ndarray, values: np.ndarray, bad: np.ndarray) -> None:
    with mpmath.workdps(30):
        mu = [mpmath.mpf(m.mid().str(40, radius=False)) for m in mus]
        W: dict[int, list[Any]] = {}
        for r, p in zip(*np.nonzero(bad), strict=True):
            if r not in W:  # only the rows that need it
                W[r] = [mpmath.mpf(w.mid().str(40, radius=False)) if w != 0 else mpmath.mpf(0) for w in weights[r]]
            a, b, amp0, amp1 = _coefficients(dyn, mpmath.mpf(float(af[p])), mpmath.mpf(float(lf[p])), lib=mpmath)
            c0, c1 = amp1 if kinds[r] == 1 else amp0
            tp = mpmath.mpf(float(tf[p]))
            s = mpmath.mpf(0)
            for k, m in enumerate(mu):
                if W[r][k] == 0:
                    continue
                rho = a + b * m
                x = rho * tp
                phi = (-mpmath.expm1(-x) if x < 0.01 else 1 - mpmath.exp(-x)) / rho if rho > 0 else tp
                s += (c0 + c1 * m) * W[r][k] * phi
            values[r, p] = float(s)
