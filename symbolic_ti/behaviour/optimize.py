r"""Maximising the likelihood of a :class:`~symbolic_ti.behaviour.model.LikelihoodModel`, and profile intervals.

* :func:`minimize`: L-BFGS-B (scipy, optional extra ``fit``) on the negative log-likelihood in optimiser
  coordinates, some coordinates optionally held fixed;
* :func:`starting_points`: the centre of the domain, then random starts drawn with a seed;
* :func:`profile_interval`: the profile-likelihood interval of one parameter (Venzon & Moolgavkar, Appl.
  Statist. 37, 1988): the values ``x`` with ``-log L_profile(x) - (-log L_max) <= threshold``, where
  ``threshold = phi * chi2_1(level) / 2`` (docs/fitting.md). An end that reaches the optimiser box is reported
  as the domain end.
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from ..errors import ParameterError
from .model import LikelihoodModel

__all__ = ["scipy_optimize", "minimize", "starting_points", "profile_interval"]


def scipy_optimize() -> ModuleType:
    """``scipy.optimize`` (with ``scipy.special`` and ``scipy.stats`` loaded).

    Raises
    ------
    ParameterError
        If scipy is not installed (the message says how to install the extra ``fit``).
    """
    try:
        import scipy.optimize as opt
        import scipy.special  # noqa: F401
        import scipy.stats  # noqa: F401
    except ImportError:  # pragma: no cover - scipy is in the test extra
        raise ParameterError("fitting needs scipy; install the optional extra: pip install 'symbolic-ti[fit]'") \
            from None
    return opt


def minimize(model: LikelihoodModel, z0: np.ndarray, fixed: dict[int, float] | None = None
             ) -> tuple[np.ndarray, float, bool]:
    """L-BFGS-B from ``z0`` with the coordinates in ``fixed`` (index -> value) held fixed.

    Returns
    -------
    (z, negll, success)
        The end point (all coordinates, shape ``(len(model.coords),)``), the negative log-likelihood there and
        whether scipy reported success.
    """
    opt = scipy_optimize()
    fixed = fixed or {}
    free = [k for k in range(len(z0)) if k not in fixed]
    full = np.array(z0, dtype=float)
    for k, v in fixed.items():
        full[k] = v
    if not free:
        return full, model.negll(full), True

    def fun(x: np.ndarray) -> float:
        z = full.copy()
        z[free] = x
        return model.negll(z)

    bounds = [model.coords[k].zbounds for k in free]
    x0 = np.clip(full[free], [b[0] for b in bounds], [b[1] for b in bounds])
    res = opt.minimize(fun, x0, method="L-BFGS-B", bounds=bounds, options={"maxiter": 500})
    z = full.copy()
    z[free] = res.x
    return z, float(res.fun), bool(res.success)


def starting_points(model: LikelihoodModel, n_starts: int, seed: int) -> list[np.ndarray]:
    """``n_starts`` optimiser starts: the centre (logistic coordinates at 1/2 of the domain, ``beta = 3`` for
    choices or 1 for scores, a lapse rate at 0.02, a bias at 0, other positive parameters at 0.1), then uniform
    random starts (``seed``; a lapse rate between 0.001 and 0.27)."""
    rng = np.random.default_rng(seed)
    out = []
    center = []
    for c in model.coords:
        if c.name == "lapse":  # a lapse rate of 2%, not the middle of [0, 1)
            center.append(math.log(0.02 / 0.98))
        elif c.kind == "logistic":
            center.append(0.0)
        elif c.name == "beta":
            center.append(math.log(3.0) if model.choice else 0.0)
        elif c.kind == "exp":
            center.append(math.log(0.1))
        else:
            center.append(0.0)
    out.append(np.array(center))
    for _ in range(max(n_starts - 1, 0)):
        z = []
        for c in model.coords:
            if c.name == "lapse":  # epsilon in [1e-3, 0.27]
                z.append(rng.uniform(-7.0, -1.0))
            elif c.kind == "logistic":
                z.append(rng.uniform(-4.0, 4.0))
            elif c.name == "beta":
                z.append(rng.uniform(-1.0, 3.0))
            elif c.kind == "exp":
                z.append(rng.uniform(-7.0, 2.0))
            else:
                z.append(rng.normal())
        out.append(np.array(z))
    return out


def profile_interval(model: LikelihoodModel, zhat: np.ndarray, k: int, nll_min: float, threshold: float,
                     record: list[tuple[float, np.ndarray]] | None = None,
                     ends_z: list[np.ndarray] | None = None) -> tuple[float, float, bool, bool]:
    """Profile-likelihood interval of coordinate ``k`` in natural units.

    Parameters
    ----------
    model : LikelihoodModel
    zhat : ndarray, shape (len(model.coords),)
        The maximum-likelihood point in optimiser coordinates.
    k : int
        The coordinate.
    nll_min : float
        The negative log-likelihood at ``zhat``.
    threshold : float
        The allowed increase of the negative log-likelihood (``phi * chi2_1(level) / 2``).
    record : list, optional
        If given, receives ``(nll - nll_min, z)`` of the lowest point the profile met (negative: the profile
        found a higher likelihood than the fit, which then did not converge).
    ends_z : list, optional
        If given, receives the profile's optimum (all coordinates) at the lower and at the upper end: where the
        other parameters stand when this one is at an end (:func:`symbolic_ti.behaviour.estimate.maximise`
        reports an end that rests on another parameter at its optimiser limit).

    Returns
    -------
    (lower, upper, lower_at_bound, upper_at_bound)
        The ends; the flag is True when the interval reaches the optimiser box (within ``1e-3`` in ``z``). The
        end is then the domain end where the box stands for one (``0`` of an exponential coordinate, either end
        of a logistic one); otherwise it is the finite optimiser limit itself (e.g. ``e^9`` for the ridge,
        ``e^7`` for ``beta``, also when the likelihood has not dropped enough even there),
        which :func:`symbolic_ti.behaviour.diagnostics.limit_text` names. Each end is bracketed by doubling
        steps from ``zhat`` and found with ``brentq`` (``xtol = 1e-6`` in ``z``).
    """
    opt = scipy_optimize()
    coord = model.coords[k]
    lo_b, hi_b = coord.zbounds
    ends: list[float] = []
    at_bound: list[bool] = []
    for side in (-1, 1):
        warm = [zhat.copy()]
        seen: dict[float, np.ndarray] = {float(zhat[k]): zhat.copy()}

        def excess(zk: float, warm_box: list[np.ndarray] = warm, seen: dict[float, np.ndarray] = seen) -> float:
            z, nll, _ = minimize(model, warm_box[0], {k: zk})
            warm_box[0] = z
            seen[float(zk)] = z
            if record is not None and (not record or nll - nll_min < record[0][0]):
                record[:] = [(nll - nll_min, z.copy())]
            return nll - nll_min - threshold

        inside = float(zhat[k])
        step = 0.25
        outside = None
        bound = lo_b if side < 0 else hi_b
        while True:
            cand = inside + side * step
            if (side < 0 and cand <= bound) or (side > 0 and cand >= bound):
                if excess(bound) > 0:
                    outside = bound
                break
            if excess(cand) > 0:
                outside = cand
                break
            inside = cand
            step *= 2
        if outside is None:
            end = coord.natural_bound(side)  # a domain end, or else the optimiser limit (open there)
            ends.append(end if math.isfinite(end) else coord.to_natural(bound))
            at_bound.append(True)
            if ends_z is not None:
                ends_z.append(seen[min(seen, key=lambda v: abs(v - bound))])
            continue
        a, b = sorted((inside, outside))
        fa, fb = excess(a), excess(b)
        if fa * fb > 0:  # numerical noise at the MLE: fall back to the outside point
            root = outside
        else:
            root = opt.brentq(excess, a, b, xtol=1e-6)
        if ends_z is not None:
            ends_z.append(seen[min(seen, key=lambda v: abs(v - root))])
        if abs(root - bound) < 1e-3:  # the end is the box itself: a domain end, or else an optimiser limit
            end = coord.natural_bound(side)
            ends.append(end if math.isfinite(end) else coord.to_natural(bound))
            at_bound.append(True)
            continue
        ends.append(coord.to_natural(root))
        at_bound.append(False)
    return ends[0], ends[1], at_bound[0], at_bound[1]
