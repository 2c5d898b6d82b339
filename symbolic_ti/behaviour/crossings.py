r"""When each margin changes sign, in the data's own units, with delta-method intervals (learning-curve fits).

The times come from :func:`symbolic_ti.dynamics.critical_times` (certified brackets, exact dynamics at the fitted
values as rationals); each ``tau*`` is carried to the data's units by the inverse of the fitted map,
``x* = T^{-1}(tau*)``. Its interval is the delta method on ``log x*``: ``log x* +- z sqrt(phi g^T H^{-1} g)``, with
``H`` the Hessian of the negative log-likelihood in optimiser coordinates (central differences), ``g`` the
gradient of ``log x*`` in the same coordinates (central differences, each perturbed ``tau*`` the root of the
margin of the fast evaluator near the certified one, ``scipy.optimize.brentq``), ``phi`` the interval widening of
the fit (the dispersion, when above 1) and ``z`` the normal quantile of the level. Coordinates at a bound of
their domain or of the optimiser are held fixed (the local quadratic approximation does not hold there); the
method line of the report names them. The log scale keeps the interval positive.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from ..display import Rendered
from ..formatting import rounded
from ..task import Task
from .curves import CurveModel
from .estimate import Estimate

__all__ = ["Crossing", "crossings_in_data_units", "exact_dynamics", "exact_point", "rational", "RATIONAL_DENOMINATOR",
           "HESSIAN_STEP", "GRADIENT_STEP"]

Trial = tuple[int, int]

#: The fitted values enter the exact dynamics as the nearest fractions with at most this denominator.
RATIONAL_DENOMINATOR = 10 ** 6

#: Step of the central-difference Hessian in optimiser coordinates.
HESSIAN_STEP = 1e-3
#: Step of the central-difference gradient of ``log x*``.
GRADIENT_STEP = 1e-4
#: Relative tolerance within which two crossings are the same time (mirror trials).
SAME_TIME = 1e-9
#: Largest disagreement allowed between the fast evaluator and the exact dynamics before a note.
CHECK_TOLERANCE = 1e-8


@dataclass(frozen=True)
class Crossing(Rendered):
    """A certified sign change of margins at the fitted parameters, in flow time and in the data's units.

    Attributes
    ----------
    trials : tuple of (i, j)
        The trials whose margins change sign at this time (mirror trials share it).
    direction : {"to_correct", "to_error", "unresolved"}
    tau, tau_lower, tau_upper : float
        The certified bracket's midpoint and ends (flow time, :func:`symbolic_ti.dynamics.critical_times`).
    x : float
        The data time, ``T^{-1}(tau)``; ``inf`` when the map never reaches ``tau``.
    x_lower, x_upper : float
        Its delta-method interval (NaN when it could not be computed: ``note`` says why).
    within_data : bool
        Whether ``x`` lies inside the observed times.
    note : str
    """

    trials: tuple[Trial, ...]
    direction: str
    tau: float
    tau_lower: float
    tau_upper: float
    x: float
    x_lower: float
    x_upper: float
    within_data: bool
    note: str = ""


def _hessian(model: CurveModel, z: np.ndarray, free: list[int]) -> np.ndarray:
    h = HESSIAN_STEP
    p = len(free)
    out = np.empty((p, p))
    f0 = model.negll(z)
    for a in range(p):
        for b in range(a, p):
            ea = np.zeros_like(z)
            eb = np.zeros_like(z)
            ea[free[a]] = h
            eb[free[b]] = h
            if a == b:
                v = (model.negll(z + ea) - 2 * f0 + model.negll(z - ea)) / h ** 2
            else:
                v = (model.negll(z + ea + eb) - model.negll(z + ea - eb) - model.negll(z - ea + eb)
                     + model.negll(z - ea - eb)) / (4 * h ** 2)
            out[a, b] = out[b, a] = v
    return out


def _tau_root(model: CurveModel, nat: Mapping[str, float], row: int, g: int, tau0: float) -> float:
    """The sign change of ``g f(trial, tau)`` nearest ``tau0`` (fast evaluator), NaN if none within a factor 2."""
    from scipy.optimize import brentq

    values = [nat[name] for name in model._family_names]
    lam = model.ridge_of(nat)

    def margin(tau: float) -> float:
        return float(g * model.flow.values(values, lam, np.array([tau]))[row, 0])

    for width in (1e-3, 1e-2, 0.1, 0.5, 1.0):
        lo, hi = tau0 * (1 - width / (1 + width)), tau0 * (1 + width)
        a, b = margin(lo), margin(hi)
        if a * b < 0:
            return float(brentq(margin, lo, hi, xtol=1e-14 * max(tau0, 1.0), rtol=1e-13))
    return math.nan


def crossings_in_data_units(model: CurveModel, est: Estimate, level: float, dyn: Any
                            ) -> tuple[tuple[Any, ...], str, list[str]]:
    """The crossings of every margin at the fitted point (module docstring).

    Returns
    -------
    (crossings, method, notes)
        :class:`~symbolic_ti.behaviour.curve_fit.Crossing` in time order, the method as one line, and notes
        (the check of the fast evaluator against the exact dynamics, uncertified signs).
    """
    from scipy.stats import norm

    from ..dynamics import critical_times

    nat = est.nat
    notes = list(_check_against_exact(model, nat, dyn))
    report = critical_times(dyn)
    notes += list(report.notes)
    zhat = np.array([c.to_z(nat[c.name]) for c in model.coords])
    fixed = [e.name for e in est.estimates if e.at_bound]
    free = [k for k, c in enumerate(model.coords) if c.name not in fixed]
    hess = _hessian(model, zhat, free)
    try:
        cov = np.linalg.inv(hess)
        ok = bool(np.all(np.linalg.eigvalsh(hess) > 0))
    except np.linalg.LinAlgError:
        cov, ok = np.full_like(hess, np.nan), False
    q = float(norm.ppf(0.5 + level / 2))
    top = float(model.times.max())
    index = {t: k for k, t in enumerate(model.task.trials)}
    groups: list[list[Any]] = []
    for c in report.order:
        for grp in groups:
            ref = grp[0]
            if c.direction == ref.direction and abs(c.value - ref.value) <= SAME_TIME * max(abs(ref.value), 1.0):
                grp.append(c)
                break
        else:
            groups.append([c])
    out = []
    base = exact_point(model, nat)
    for grp in groups:
        c = grp[0]
        tau = c.value
        x = model.timemap.x_of(tau, nat)
        lo = hi = math.nan
        note = ""
        if not math.isfinite(x):
            note = (f"never reached: the fitted map tends to tau = {rounded(model.timemap.supremum(nat), '.4g')}")
        elif not ok:
            note = "no interval: the observed information is not positive definite at the fit"
        else:
            row = index[c.trial]
            g = int(model.task.ground_truth(c.trial))  # type: ignore[arg-type]
            grad = np.empty(len(free))
            for a, kk in enumerate(free):
                vals = []
                for sgn in (1, -1):
                    z = zhat.copy()
                    z[kk] += sgn * GRADIENT_STEP
                    pn = dict(base)
                    pn.update({cc.name: cc.to_natural(float(v)) for cc, v in zip(model.coords, z, strict=True)
                               if cc.name == model.coords[kk].name})
                    t_new = _tau_root(model, pn, row, g, tau)
                    x_new = model.timemap.x_of(t_new, pn) if math.isfinite(t_new) else math.nan
                    vals.append(math.log(x_new) if x_new > 0 and math.isfinite(x_new) else math.nan)
                grad[a] = (vals[0] - vals[1]) / (2 * GRADIENT_STEP)
            var = float(grad @ cov @ grad) * est.scale
            if math.isfinite(var) and var >= 0:
                sd = math.sqrt(var)
                lo, hi = x * math.exp(-q * sd), x * math.exp(q * sd)
            else:
                note = "no interval: the crossing disappears under a small change of the parameters"
        trials = tuple(sorted({cc.trial for cc in grp}))
        out.append(Crossing(trials, c.direction, tau, float(c.lower), float(c.upper), x, lo, hi,
                            math.isfinite(x) and x <= top, note))
    held = f"; held fixed at their bounds: {', '.join(fixed)}" if fixed else ""
    method = (f"certified critical times of the exact dynamics (symbolic_ti.dynamics.critical_times) at the fitted "
              f"values as fractions (denominator <= 10^6), in data units through the inverse fitted map; "
              f"{round(100 * level)}% intervals by the delta method on log x* (observed information in optimiser "
              f"coordinates{', widened by the dispersion' if est.scale > 1 else ''}{held})")
    return tuple(out), method, notes


def _check_against_exact(model: CurveModel, nat: Mapping[str, float], dyn: Any) -> list[str]:
    """Compare the fast evaluator with the exact dynamics at the first, middle and last time points (every trial
    ``(i, j)`` with ``i < j``); one note if they differ by more than :data:`CHECK_TOLERANCE`."""
    point = exact_point(model, nat)
    taus = model.taus(point)
    pick = sorted({0, len(taus) // 2, len(taus) - 1})
    fast = model.curves(point)
    worst = 0.0
    for k in pick:
        for row, (i, j) in enumerate(model.task.trials):
            if i < j and taus[k] > 0:
                worst = max(worst, abs(float(dyn.value(i, j, float(taus[k]))) - float(fast[row, k])))
    if worst > CHECK_TOLERANCE:
        return [f"the fast flow evaluator differs from the exact dynamics by up to {rounded(worst, '.2g')} at the "
                "fitted point"]
    return []


def rational(value: float) -> sp.Rational:
    """The nearest fraction to ``value`` with denominator at most :data:`RATIONAL_DENOMINATOR`."""
    q = Fraction(value).limit_denominator(RATIONAL_DENOMINATOR)
    return sp.Rational(q.numerator, q.denominator)


def exact_dynamics(model: CurveModel, nat: Mapping[str, float]) -> Any:
    """The exact :class:`~symbolic_ti.dynamics.Dynamics` at the fitted family values and ridge as rationals."""
    from ..dynamics import gradient_flow

    task: Task = model.task
    values = {name: rational(nat[name]) for name in model._family_names}
    fam = model.family.with_values(**values) if values else model.family
    ridge: Any = model.ridge_value if model.ridge_value is not None else rational(model.ridge_of(nat))
    if ridge == 0:
        ridge = "ridgeless"
    return gradient_flow(task, fam, ridge, budget=None)


def exact_point(model: CurveModel, nat: Mapping[str, float]) -> dict[str, float]:
    """``nat`` with the family values and a fitted ridge replaced by the rationals of :func:`exact_dynamics`."""
    out = dict(nat)
    for name in model._family_names + (["lambda"] if model.ridge_mode == "fitted" else []):
        out[name] = float(rational(nat[name]))
    return out
