"""The data of a phase diagram over two parameters: where the exception is memorized, where every transitive
margin is positive, which trial fails first, and the exact critical curves. No matplotlib: drawn by
:func:`symbolic_ti.figures.draw.phase`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..budgets import DEFAULT, BudgetLike, check_budget, check_grid_memory, grid_estimate
from ..errors import ParameterError
from ..families.base import Trial
from ..results import Result
from ..task import Task
from .scan import FigureArgumentError, axis_cells, figure_label, free_result, read_only, scanned_name
from ..formatting import rounded

__all__ = ["CriticalCurve", "PhaseData", "phase_data"]


@dataclass(frozen=True, eq=False)
class CriticalCurve:
    """An exact critical curve (or exact critical points) in the plane of a phase diagram.

    Attributes
    ----------
    kind : {"exception", "transitive"}
        Where the exception margin vanishes, or where transitive margins change sign.
    trials : tuple of (i, j)
        The trials whose margin vanishes on it.
    x, y : ndarray of float, shape (k,)
        Points on the curve in plot coordinates, in order along it (NaN separates branches). For
        ``exact="points"`` they are isolated exact crossings, one per scanned row.
    exact : str
        How it is exact: a closed form (e.g. ``"lambda/(1 - kappa_d) = gamma*(1 - alpha)/2 - alpha, gamma* = ..."``)
        sampled densely, or ``"points"``: exact critical values of ``x`` (:func:`symbolic_ti.critical_values`)
        at exact values of ``y``.
    """

    kind: str
    trials: tuple[Trial, ...]
    x: np.ndarray
    y: np.ndarray
    exact: str


@dataclass(frozen=True, eq=False)
class PhaseData:
    """Everything a phase diagram over two parameters shows.

    Arrays over the grid have shape ``(ny, nx)``: rows follow ``y``, columns ``x``.

    Attributes
    ----------
    label : str
    x_name, y_name : str
        The parameters on the axes (``"lambda"`` is the ridge).
    x, y : ndarray of float, shapes (nx,), (ny,)
        Cell centres.
    x_edges, y_edges : ndarray of float, shapes (nx + 1,), (ny + 1,)
        Cell edges (for ``pcolormesh``).
    x_log, y_log : bool
        Log-spaced axes.
    exception_margin : ndarray of float, shape (ny, nx), or None
        The smallest exception margin ``f(W, L)`` over the exceptions; ``None`` without exception.
    memorized : ndarray of bool, shape (ny, nx), or None
        Exception memorized: every exception margin ``> 0``.
    min_transitive_margin : ndarray of float, shape (ny, nx)
        Smallest margin over the test trials with ground truth.
    generalizes : ndarray of bool, shape (ny, nx)
        Every transitive margin ``> 0``.
    region : ndarray of int, shape (ny, nx)
        ``2 * memorized + generalizes`` (``generalizes`` alone without exception).
    groups : tuple of tuple of (i, j)
        Test trials grouped by identical margin (the same closed form, e.g. ``(3, 6)``, ``(4, 7)`` and their
        reverses for n=9 with 6>4).
    first_failure : ndarray of int, shape (ny, nx)
        Where some transitive margin is negative: the index in :attr:`groups` of the group with the smallest
        (most negative) margin, i.e. the trial that fails first when the point is approached from the
        generalizing region across the nearest boundary; ``-1`` where every transitive margin is positive.
    curves : tuple of CriticalCurve
        Exact critical curves, or exact critical points per row (see :class:`CriticalCurve`).
    note : str
        The grid evaluation's note (float64 or mpmath fallback) and how the curves were obtained.
    exceptions : tuple of (W, L)
        The exception trials.
    group_margins : ndarray of float, shape (len(groups), ny, nx), or None
        The margin of each group of :attr:`groups` over the grid (its zero level is the group's critical curve,
        which the drawing traces where only exact points per row are known).
    names : tuple of str or None
        The task's item labels (``Task.labels``), naming the trials of the curves' labels.
    """

    label: str
    x_name: str
    y_name: str
    x: np.ndarray
    y: np.ndarray
    x_edges: np.ndarray
    y_edges: np.ndarray
    x_log: bool
    y_log: bool
    exception_margin: np.ndarray | None
    memorized: np.ndarray | None
    min_transitive_margin: np.ndarray
    generalizes: np.ndarray
    region: np.ndarray
    groups: tuple[tuple[Trial, ...], ...]
    first_failure: np.ndarray
    curves: tuple[CriticalCurve, ...]
    note: str
    exceptions: tuple[Trial, ...] = field(default=())
    group_margins: np.ndarray | None = None
    names: tuple[str, ...] | None = None

    def region_name(self, code: int) -> str:
        """Words for a :attr:`region` code."""
        gen = "transitive margins all positive" if code & 1 else "some transitive trial wrong"
        if self.memorized is None:
            return gen
        return ("exception memorized, " if code & 2 else "exception not memorized, ") + gen


def _groups(compiled: Any, trials: Sequence[Trial], task: Task) -> tuple[list[tuple[Trial, ...]], np.ndarray]:
    """Trials with identical margins (same compiled rational function and the same sign of g * f)."""
    keys: dict[tuple[int, float], int] = {}
    groups: list[list[Trial]] = []
    index = np.empty(len(trials), dtype=int)
    for k, t in enumerate(trials):
        key = compiled.margin_key(t)
        if key not in keys:
            keys[key] = len(groups)
            groups.append([])
        groups[keys[key]].append(t)
        index[k] = keys[key]
    return [tuple(g) for g in groups], index


def phase_data(result: Result, x: str = "alpha", y: str = "lambda", *, values: Mapping[str, Any] | None = None,
               x_range: Any = None, y_range: Any = None, resolution: int | tuple[int, int] = (240, 200),
               x_log: bool | None = None, y_log: bool | None = None, curves: bool = True,
               curve_rows: int = 16, budget: BudgetLike = DEFAULT) -> PhaseData:
    """The data of a phase diagram over two parameters: where the exception is memorized, where every
    transitive margin is positive, and which trial fails first, with exact critical curves.

    Parameters
    ----------
    result : Result
        Any result; ``x`` and ``y`` are made free (solving again if needed), other free parameters are set
        from ``values``.
    x, y : str, default "alpha" and "lambda"
        Parameters on the horizontal and vertical axes (``"lambda"`` or ``"ridge"`` for the ridge).
    values : mapping name -> number, optional
        Values of the other free parameters (e.g. ``{"kappa_d": 0}``), read exactly.
    x_range, y_range : pair (low, high), optional
        Default: the parameter's domain (alpha: [0, 1]; cells are centred, so alpha = 1 itself is not
        evaluated), the ridge: [1e-3, 10].
    resolution : int or (nx, ny), default (240, 200)
        Cells per axis.
    x_log, y_log : bool, optional
        Log-spaced axis; default: only the ridge.
    curves : bool, default True
        Compute exact critical curves.
    curve_rows : int, default 16
        Where no closed-form curve is available: the number of exact ``y`` values at which exact critical
        values of ``x`` are computed (:func:`symbolic_ti.critical_values`).
    budget : DEFAULT, None or float
        Seconds of CPU above which the grid's evaluation (trials x cells, :func:`symbolic_ti.budgets.grid_estimate`)
        is refused before any value; ``None`` runs anyway. The grid is held in memory whole: a grid above
        :data:`symbolic_ti.budgets.GRID_MAX_BYTES` is refused whatever the budget.

    Returns
    -------
    PhaseData

    Raises
    ------
    ParameterError
        For unknown or equal parameters, a parameter both scanned and set, missing values, bad ranges or
        resolution, or a grid that would need more memory than a phase diagram may take.
    BudgetError
        If the grid's estimated cost is above ``budget``.

    Notes
    -----
    Region labels come from :mod:`symbolic_ti.numeric.grid` (float64 with the mpmath fallback where float64 cannot be
    trusted, so signs near the curves are right). Closed-form curves exist for the exchangeable family
    (alpha parametrization, rational ``kappa_d``) in the (alpha, lambda) plane: a test trial's margin vanishes
    where the effective ridge ``gamma = 2 (alpha + lambda') / (1 - alpha)`` equals a root ``gamma*``
    (:func:`symbolic_ti.analysis.conjunctivity.critical_gammas`), i.e. on ``lambda' = gamma* (1 - alpha)/2 - alpha``;
    the exception margin vanishes on the curve parametrized by ``gamma``,
    ``lambda'(gamma) = gamma D / (2 (D - E) - gamma E)``, ``alpha = (gamma - 2 lambda') / (gamma + 2)``, with
    ``r_W - r_L = E / D`` the rank difference in ``ZZ[gamma]`` (from the margin of a training trial,
    :func:`symbolic_ti.analysis.conjunctivity.margin_gammas`). Elsewhere exact critical points per row are given.
    """
    xn, yn = scanned_name(x), scanned_name(y)
    if xn == yn:
        raise FigureArgumentError("phase_data", "y", f"x and y must be different parameters, got {xn} twice")
    if isinstance(resolution, int) and not isinstance(resolution, bool):
        nx, ny = resolution, resolution
    else:
        nx, ny = tuple(resolution)  # type: ignore[arg-type]
    r = free_result(result, (xn, yn), values, "phase_data", ("x", "y"))
    xs, xe, xlog, xlo, xhi = axis_cells(xn, r, x_range, nx, x_log, "phase_data", "x_range")
    ys, ye, ylog, ylo, yhi = axis_cells(yn, r, y_range, ny, y_log, "phase_data", "y_range")
    task = r.task
    exc_trials = tuple((e.winner, e.loser) for e in task.exceptions)
    trans = tuple(t for t in task.test_trials if task.ground_truth(t) is not None)
    from ..numeric.grid import compile_result

    rows = len(exc_trials) + len(trans)
    try:  # before any value: 4000 x 4000 cells at n = 9 would take 28 GB
        check_grid_memory(rows, len(xs), len(ys))
    except ParameterError as err:
        raise FigureArgumentError("phase_data", "resolution", str(err)) from None
    check_budget("phase diagram", grid_estimate(rows, len(xs) * len(ys)), budget)
    compiled = compile_result(r, exc_trials + trans)
    arrays: dict[str, Any] = {}
    for name, vals, shape in ((xn, xs, (1, -1)), (yn, ys, (-1, 1))):
        if name in compiled.parameters:
            arrays["ridge" if name == "lambda" else name] = vals.reshape(shape)
    grid = compiled.evaluate(**arrays)
    margins = np.broadcast_to(grid.margins(), (len(compiled.trials), len(ys), len(xs)))
    ne = len(exc_trials)
    exc_margin: np.ndarray | None = margins[:ne].min(axis=0) if ne else None
    memorized: np.ndarray | None = None if exc_margin is None else exc_margin > 0
    tm = margins[ne:]
    min_tm = tm.min(axis=0)
    generalizes: np.ndarray = min_tm > 0
    groups, gindex = _groups(compiled, trans, task)
    group_margins = tm[[int(np.argmax(gindex == g)) for g in range(len(groups))]] if groups else None
    worst = np.argmin(tm, axis=0)
    first = np.where(generalizes, -1, gindex[worst])
    region = generalizes.astype(int) + (2 * memorized.astype(int) if memorized is not None else 0)
    curve_list: list[CriticalCurve] = []
    how = ""
    if curves:
        curve_list, how = _phase_curves(r, xn, yn, (xlo, xhi), (ylo, yhi), xs, ys, exc_trials, groups, first,
                                        curve_rows)
    note = grid.note + (" " + how if how else "")
    return PhaseData(figure_label(r, (xn, yn)), xn, yn, read_only(xs), read_only(ys), read_only(xe), read_only(ye), xlog, ylog,
                     None if exc_margin is None else read_only(exc_margin),
                     None if memorized is None else read_only(memorized), read_only(min_tm), read_only(generalizes),
                     read_only(region), tuple(groups), read_only(first), tuple(curve_list), note, exc_trials,
                     None if group_margins is None else read_only(group_margins), task.labels)


def _exchangeable_plane(r: Result, xn: str, yn: str) -> sp.Rational | None:
    """``kappa_d`` when the closed-form curves apply (exchangeable, alpha parametrization, (alpha, lambda))."""
    fam = r.family
    if not fam.exchangeable or fam.parametrization not in (None, "alpha"):
        return None
    if {xn, yn} != {"alpha", "lambda"}:
        return None
    kd = fam.values.get("kappa_d")
    if kd is None or not kd.is_Rational or not r.method.startswith("laplacian"):
        return None
    from ..analysis.gamma import gamma_applies

    if gamma_applies(r.task) is not None:  # counts, or a graph without a rank solution: the per-row scans
        return None
    return kd


def _phase_curves(r: Result, xn: str, yn: str, xr: tuple[float, float], yr: tuple[float, float],
                  xs: np.ndarray, ys: np.ndarray, exc_trials: tuple[Trial, ...],
                  groups: list[tuple[Trial, ...]], first: np.ndarray, rows: int) -> tuple[list[CriticalCurve], str]:
    kd = _exchangeable_plane(r, xn, yn)
    if kd is not None:
        return _exchangeable_curves(r, xn, kd, xr, yr, exc_trials), (
            "Critical curves: closed forms in the effective ridge gamma (exchangeable family).")
    return _row_points(r, xn, yn, xr, ys, exc_trials, groups, first, rows), (
        "Critical points: exact critical values of " + xn + " at exact values of " + yn + " (one per row).")


def _exchangeable_curves(r: Result, xn: str, kd: sp.Rational, xr: tuple[float, float], yr: tuple[float, float],
                         exc_trials: tuple[Trial, ...]) -> list[CriticalCurve]:
    from ..analysis.conjunctivity import critical_gammas
    from ..solvers.laplacian import rank_solution

    task = r.task
    scale = float(1 - kd)  # lambda = (1 - kappa_d) lambda'
    out: list[CriticalCurve] = []
    rs = rank_solution(task)
    alpha = np.linspace(max(xr[0], 0.0) if xn == "alpha" else max(yr[0], 0.0),
                        min(xr[1], 1.0) if xn == "alpha" else min(yr[1], 1.0), 2001)[:-1]
    gam = critical_gammas(task, ranks=rs)
    seen: list[tuple[Any, list[Trial]]] = []
    for t, tg in gam.items():
        for root in tg.roots:
            for other, trials in seen:
                if other.same_root(root):
                    trials.append(t)
                    break
            else:
                seen.append((root, [t]))
    for root, trials in seen:
        g = root.value_float
        lam = scale * (g * (1 - alpha) / 2 - alpha)
        ok = lam > 0
        if not ok.any():
            continue
        a, l = np.where(ok, alpha, np.nan), np.where(ok, lam, np.nan)
        x, y = (a, l) if xn == "alpha" else (l, a)
        out.append(CriticalCurve("transitive", tuple(trials), read_only(x), read_only(y),
                                 f"lambda/(1 - kappa_d) = gamma*(1 - alpha)/2 - alpha with gamma* = {root.value}"))
    for (w, l_) in exc_trials:
        e = (rs.numerators[w - 1] - rs.numerators[l_ - 1]).to_dense()
        d = rs.denominator.to_dense()
        gg = np.geomspace(1e-6, 1e6, 6001)
        with np.errstate(all="ignore"):
            ev = np.polyval([float(c) for c in e], gg)
            dv = np.polyval([float(c) for c in d], gg)
            lp = gg * dv / (2 * (dv - ev) - gg * ev)
            a = (gg - 2 * lp) / (gg + 2)
        ok = np.isfinite(lp) & (lp > 0) & (a > 0) & (a < 1)
        if not ok.any():
            continue
        a, lam = np.where(ok, a, np.nan), np.where(ok, scale * lp, np.nan)
        order = np.argsort(np.where(ok, a, np.inf), kind="stable")
        a, lam = a[order], lam[order]
        x, y = (a, lam) if xn == "alpha" else (lam, a)
        out.append(CriticalCurve("exception", ((w, l_),), read_only(x), read_only(y),
                                 "lambda'(gamma) = gamma D / (2 (D - E) - gamma E), alpha = (gamma - 2 lambda')/"
                                 "(gamma + 2), r_W - r_L = E/D"))
    return out


def _row_points(r: Result, xn: str, yn: str, xr: tuple[float, float], ys: np.ndarray,
                exc_trials: tuple[Trial, ...], groups: list[tuple[Trial, ...]], first: np.ndarray, n_rows: int,
                ) -> list[CriticalCurve]:
    from ..analysis.crossings import critical_values

    # every group's curve, not only those of the groups that fail first somewhere (as the closed forms show)
    chosen = list(exc_trials) + [g[0] for g in groups]
    if not chosen:
        return []
    if n_rows < 1:
        return []
    rows = np.unique(np.linspace(0, len(ys) - 1, min(len(ys), n_rows)).round().astype(int))
    pts: dict[Trial, list[tuple[float, float]]] = {t: [] for t in chosen}
    lo = sp.Rational(repr(float(xr[0])))
    hi = sp.Rational(repr(float(xr[1])))
    for k in rows:
        yv = sp.Rational(f"{rounded(ys[k], '.4g')}")
        try:
            rr = r.subs({yn: yv})
            rep = critical_values(rr, xn, interval=(lo, hi), trials=chosen)
        except Exception:  # noqa: BLE001 - a row that cannot be analysed exactly is left out
            continue
        for tc in rep.trials:
            for c in tc.crossings:
                if c.value_float is not None and c.direction != "touch":
                    pts[tc.trial].append((c.value_float, float(yv)))
    out = []
    for t in chosen:
        if not pts[t]:
            continue
        arr = np.array(pts[t])
        kind = "exception" if t in exc_trials else "transitive"
        trials = (t,) if kind == "exception" else next(g for g in groups if t in g)
        x, y = (arr[:, 0], arr[:, 1])
        out.append(CriticalCurve(kind, tuple(trials), read_only(x), read_only(y), "points"))
    return out
