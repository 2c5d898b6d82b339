r"""Figures of exact results: heatmaps over the item grid, phase diagrams over two parameters, margin curves.

Each figure has two halves, kept apart on purpose:

* a **data** function (:func:`heatmap_data`, :func:`phase_data`, :func:`curve_data`) computes an immutable object
  with every number the figure shows (values, masks, region labels, critical curves and points). It uses only
  numpy, sympy and :mod:`symbolic_ti.numeric.grid`, so it works without matplotlib and its content is what the tests
  check against independent computations;
* a **drawing** function (:func:`heatmap`, :func:`phase`, :func:`curve`) draws such an object (or builds it from a
  result) with matplotlib and returns the ``matplotlib.figure.Figure``. matplotlib is the optional extra ``plot``
  (``pip install "symbolic-ti[plot]"``); it is imported only inside the drawing functions and
  :func:`save_figure`, and a missing matplotlib raises :class:`~symbolic_ti.errors.ExportError` saying how to
  install it. No pyplot state is used: figures are plain ``Figure`` objects (no display needed).

Every function accepts symbolic and numeric results of every family. Parameters that a figure scans are left
symbolic by solving again when the result has them fixed (``phase_data(r, "alpha", "lambda")`` on a result at
``alpha = 1/10``, ``lambda = 1/10`` solves the task with both symbolic); the other free parameters must be given
in ``values``.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import sympy as sp

from ..arguments import parameter_name
from ..errors import ExportError, ParameterError, TaskError
from ..families.base import Trial
from ..results import Result
from ..task import CATEGORIES, Task

__all__ = [
    "HeatmapData", "PhaseData", "CriticalCurve", "CurveData", "CurveSeries", "CurveMarker",
    "heatmap_data", "phase_data", "curve_data", "heatmap", "phase", "curve", "save_figure", "FORMATS",
    "INSTALL_HINT",
]

#: Output formats of :func:`save_figure`, by file suffix.
FORMATS: Mapping[str, str] = MappingProxyType({".png": "png", ".pdf": "pdf", ".svg": "svg"})
#: How to install the optional plotting dependency.
INSTALL_HINT = 'pip install "symbolic-ti[plot]"'
QUANTITIES = ("f", "margin", "p_first")


def _require_matplotlib() -> Any:
    """Import matplotlib, or raise an ExportError that says how to install it."""
    try:
        import matplotlib
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise ExportError(f"plotting needs matplotlib, the optional extra 'plot' of symbolic-ti; install it with: "
                          f"{INSTALL_HINT}") from None
    return matplotlib


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.flags.writeable = False
    return a


def _name(p: str) -> str:
    if not isinstance(p, str):
        raise ParameterError(f"a parameter name must be a string such as 'alpha' or 'lambda', got {p!r}")
    p = p.strip()
    return parameter_name(p)


def _label(result: Result) -> str:
    from ..analysis.crossings import _result_label

    return _result_label(result)


# ============================================================================== results with chosen free parameters
def _free_result(result: Result, scanned: Sequence[str], values: Mapping[str, Any] | None, who: str) -> Result:
    """``result`` with exactly the parameters ``scanned`` free: solve again if one of them is fixed, then set the
    other free parameters from ``values`` (exactly)."""
    if not isinstance(result, Result):
        raise ParameterError(f"{who}: result must be a symbolic_ti Result, got {type(result).__name__}")
    from ..solvers.dispatch import solve

    values = {_name(k): v for k, v in dict(values or {}).items()}
    fam = result.family
    family_names = {p.name for p in fam.active_parameters}
    free = {s.name for s in result.free_symbols}
    for name in scanned:
        if name != "lambda" and name not in family_names:
            allowed = ", ".join(sorted(family_names) + ["lambda"])
            raise ParameterError(f"{who}: {name!r} is not a parameter of {fam.describe()}; allowed: {allowed}")
        if name in values:
            raise ParameterError(f"{who}: {name} is scanned by the figure, so it cannot also be set in values")
    for name in values:
        if name != "lambda" and name not in family_names:
            allowed = ", ".join(sorted(family_names) + ["lambda"])
            raise ParameterError(f"{who}: values names {name!r}, which is not a parameter of {fam.describe()}; "
                                 f"allowed: {allowed}")
    resolve = False
    fam_free = {}
    for name in scanned:
        if name != "lambda" and name not in free:
            fam_free[name] = "symbolic"
            resolve = True
    ridge: Any = "ridgeless" if result.ridgeless else result.ridge
    if "lambda" in scanned and "lambda" not in free:
        ridge, resolve = None, True
    if resolve:
        if fam_free:
            fam = fam.with_values(**fam_free)
        result = solve(result.task, fam, ridge)
    if values:
        result = result.subs(values)
    left = sorted({s.name for s in result.free_symbols} - set(scanned))
    if left:
        raise ParameterError(f"{who}: the result still depends on {', '.join(left)}; give "
                             + ("its value" if len(left) == 1 else "their values")
                             + " in values, e.g. values={" + ", ".join(f"'{x}': ..." for x in left) + "} (CLI: "
                             + " ".join(f"--set {x}=VALUE" if x != "lambda" else "--ridge VALUE" for x in left)
                             + ")")
    return result


def _to_float(v: sp.Expr) -> float:
    return float(sp.N(v, 30)) if not v.is_Rational else float(v)


def _task_masks(task: Task) -> dict[str, np.ndarray]:
    n = task.n
    masks = {k: np.zeros((n, n), dtype=bool) for k in ("training", "exception", "in_cycle", "no_ground_truth")}
    tt = task.training_targets
    for (i, j) in task.trials:
        masks["training"][i - 1, j - 1] = (i, j) in tt
        masks["exception"][i - 1, j - 1] = task.categories[(i, j)] == "exception"
        masks["in_cycle"][i - 1, j - 1] = any(e.loser <= i <= e.winner and e.loser <= j <= e.winner
                                              for e in task.exceptions)
        masks["no_ground_truth"][i - 1, j - 1] = task.ground_truth((i, j)) is None
    return masks


# ============================================================================================== heatmap
@dataclass(frozen=True, eq=False)
class HeatmapData:
    """Everything a heatmap over the item grid shows.

    Rows are the first item ``i`` and columns the second item ``j`` (as in the papers' figures): cell
    ``[i - 1, j - 1]`` is the trial ``(i, j)``. Every array has shape ``(n, n)`` and is read-only.

    Attributes
    ----------
    task : Task
    label : str
        Task, family and ridge.
    quantity : {"f", "margin", "p_first"}
        What :attr:`matrix` holds: ``f(i, j)``; the margin ``g * f(i, j)`` (NaN without ground truth); or
        ``P(first item wins) = 1 / (1 + exp(-f(i, j) / temperature))`` (the logistic read-out of ``f`` as a
        logit difference, as for the language models' ``P(" Yes")``).
    temperature : float
        Only for ``p_first``.
    matrix : ndarray of float, shape (n, n)
        The quantity; NaN on the diagonal.
    f : ndarray of float, shape (n, n)
        ``f(i, j)`` itself, NaN on the diagonal.
    training, exception, in_cycle, no_ground_truth, wrong : ndarray of bool, shape (n, n)
        Training trials; exception trials (both orders); trials with both items in one exception's cycle;
        trials without ground truth; trials with a negative margin (decided exactly).
    cycle_items : tuple of int
        Items that lie in some exception's cycle.
    """

    task: Task
    label: str
    quantity: str
    temperature: float
    matrix: np.ndarray
    f: np.ndarray
    training: np.ndarray
    exception: np.ndarray
    in_cycle: np.ndarray
    no_ground_truth: np.ndarray
    wrong: np.ndarray
    cycle_items: tuple[int, ...]


def heatmap_data(result: Result, values: Mapping[str, Any] | None = None, quantity: str = "f",
                 temperature: float = 1.0) -> HeatmapData:
    """The data of a heatmap of ``f(i, j)``, the margin or ``P(first item wins)`` over the item grid.

    Parameters
    ----------
    result : Result
        Any result. Its free parameters must be set in ``values`` (exactly, with :meth:`Result.subs`).
    values : mapping name -> number, optional
        Values of the free parameters, e.g. ``{"alpha": 0.1, "lambda": 0.1}`` (decimals read exactly).
    quantity : {"f", "margin", "p_first"}, default "f"
        See :class:`HeatmapData`.
    temperature : float > 0, default 1
        Scale of the logistic read-out for ``"p_first"``.

    Returns
    -------
    HeatmapData

    Raises
    ------
    ParameterError
        For an unknown quantity, a bad temperature, an unknown name in ``values``, or free parameters left
        without a value.
    """
    if quantity not in QUANTITIES:
        raise ParameterError(f"quantity must be one of {', '.join(QUANTITIES)}, got {quantity!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not temperature > 0 \
            or not math.isfinite(temperature):
        raise ParameterError(f"temperature must be a finite number > 0, got {temperature!r}")
    r = _free_result(result, (), values, "heatmap_data")
    task = r.task
    n = task.n
    f = np.full((n, n), np.nan)
    wrong = np.zeros((n, n), dtype=bool)
    for (i, j) in task.trials:
        v = r.f(i, j)
        f[i - 1, j - 1] = _to_float(v)
        m = r.margin(i, j)
        wrong[i - 1, j - 1] = m is not None and bool(m < 0)
    masks = _task_masks(task)
    if quantity == "f":
        mat = f.copy()
    elif quantity == "margin":
        g = np.full((n, n), np.nan)
        for t in task.trials:
            gt = task.ground_truth(t)
            if gt is not None:
                g[t[0] - 1, t[1] - 1] = gt
        mat = g * f
    else:
        mat = 1.0 / (1.0 + np.exp(-f / float(temperature)))
    cyc = tuple(sorted({k for e in task.exceptions for k in e.cycle}))
    return HeatmapData(task, _label(r), quantity, float(temperature), _ro(mat), _ro(f), _ro(masks["training"]),
                       _ro(masks["exception"]), _ro(masks["in_cycle"]), _ro(masks["no_ground_truth"]), _ro(wrong),
                       cyc)


# ================================================================================================ phase
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

    def region_name(self, code: int) -> str:
        """Words for a :attr:`region` code."""
        gen = "transitive margins all positive" if code & 1 else "some transitive trial wrong"
        if self.memorized is None:
            return gen
        return ("exception memorized, " if code & 2 else "exception not memorized, ") + gen


def _axis(name: str, result: Result, rng: Any, count: int, log: bool | None, who: str
          ) -> tuple[np.ndarray, np.ndarray, bool, float, float]:
    """Cell centres and edges of one axis."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 2:
        raise ParameterError(f"{who}: the resolution of {name} must be an integer >= 2, got {count!r}")
    if rng is None:
        if name == "lambda":
            lo, hi = 1e-3, 10.0
        else:
            p = result.family.parameter(name)
            lo = float(p.lower)
            hi = float(p.upper) if p.upper.is_finite else lo + 10.0
    else:
        try:
            lo, hi = (float(sp.Rational(str(v)) if isinstance(v, str) else v) for v in rng)
        except (TypeError, ValueError):
            raise ParameterError(f"{who}: the range of {name} must be a pair (low, high) of numbers, got {rng!r}") \
                from None
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ParameterError(f"{who}: the range of {name} must have finite low < high, got {rng!r}")
    if log is None:
        log = name == "lambda"
    if log:
        if lo <= 0:
            lo = 1e-3 if rng is None else lo
        if lo <= 0:
            raise ParameterError(f"{who}: a log axis for {name} needs a range with low > 0, got {rng!r}")
        edges = np.geomspace(lo, hi, count + 1)
        centres = np.sqrt(edges[:-1] * edges[1:])
    else:
        edges = np.linspace(lo, hi, count + 1)
        centres = (edges[:-1] + edges[1:]) / 2
    return centres, edges, bool(log), lo, hi


def _groups(compiled: Any, trials: Sequence[Trial], task: Task) -> tuple[list[tuple[Trial, ...]], np.ndarray]:
    """Trials with identical margins (same compiled rational function and the same sign of g * f)."""
    keys: dict[tuple[int, float], int] = {}
    groups: list[list[Trial]] = []
    index = np.empty(len(trials), dtype=int)
    for k, t in enumerate(trials):
        pos = compiled.trials.index(t)
        key = (int(compiled._trial_rational[pos]), float(compiled._trial_sign[pos] * task.ground_truth(t)))
        if key not in keys:
            keys[key] = len(groups)
            groups.append([])
        groups[keys[key]].append(t)
        index[k] = keys[key]
    return [tuple(g) for g in groups], index


def phase_data(result: Result, x: str = "alpha", y: str = "lambda", *, values: Mapping[str, Any] | None = None,
               x_range: Any = None, y_range: Any = None, resolution: "int | tuple[int, int]" = (240, 200),
               x_log: bool | None = None, y_log: bool | None = None, curves: bool = True,
               curve_rows: int = 16) -> PhaseData:
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

    Returns
    -------
    PhaseData

    Raises
    ------
    ParameterError
        For unknown or equal parameters, a parameter both scanned and set, missing values, bad ranges or
        resolution.

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
    xn, yn = _name(x), _name(y)
    if xn == yn:
        raise ParameterError(f"phase_data: x and y must be different parameters, got {xn} twice")
    nx, ny = (resolution, resolution) if isinstance(resolution, int) and not isinstance(resolution, bool) \
        else tuple(resolution)  # type: ignore[misc]
    r = _free_result(result, (xn, yn), values, "phase_data")
    xs, xe, xlog, xlo, xhi = _axis(xn, r, x_range, nx, x_log, "phase_data")
    ys, ye, ylog, ylo, yhi = _axis(yn, r, y_range, ny, y_log, "phase_data")
    task = r.task
    exc_trials = tuple((e.winner, e.loser) for e in task.exceptions)
    trans = tuple(t for t in task.test_trials if task.ground_truth(t) is not None)
    from ..numeric.grid import compile_result

    compiled = compile_result(r, exc_trials + trans)
    arrays = {}
    for name, vals, shape in ((xn, xs, (1, -1)), (yn, ys, (-1, 1))):
        if name in compiled.parameters:
            arrays["ridge" if name == "lambda" else name] = vals.reshape(shape)
    grid = compiled.evaluate(**arrays)
    margins = np.broadcast_to(grid.margins(), (len(compiled.trials), len(ys), len(xs)))
    ne = len(exc_trials)
    exc_margin = margins[:ne].min(axis=0) if ne else None
    memorized = exc_margin > 0 if ne else None
    tm = margins[ne:]
    min_tm = tm.min(axis=0)
    generalizes = min_tm > 0
    groups, gindex = _groups(compiled, trans, task)
    worst = np.argmin(tm, axis=0)
    first = np.where(generalizes, -1, gindex[worst])
    region = generalizes.astype(int) + (2 * memorized.astype(int) if memorized is not None else 0)
    curve_list: list[CriticalCurve] = []
    how = ""
    if curves:
        curve_list, how = _phase_curves(r, xn, yn, (xlo, xhi), (ylo, yhi), xs, ys, exc_trials, groups, first,
                                        curve_rows)
    note = grid.note + (" " + how if how else "")
    return PhaseData(_label(r), xn, yn, _ro(xs), _ro(ys), _ro(xe), _ro(ye), xlog, ylog,
                     None if exc_margin is None else _ro(exc_margin), None if memorized is None else _ro(memorized),
                     _ro(min_tm), _ro(generalizes), _ro(region), tuple(groups), _ro(first), tuple(curve_list), note,
                     exc_trials)


def _exchangeable_plane(r: Result, xn: str, yn: str) -> sp.Rational | None:
    """``kappa_d`` when the closed-form curves apply (exchangeable, alpha parametrization, (alpha, lambda))."""
    fam = r.family
    if not getattr(fam, "exchangeable", False) or getattr(fam, "parametrization", "alpha") != "alpha":
        return None
    if {xn, yn} != {"alpha", "lambda"}:
        return None
    kd = fam.values.get("kappa_d")
    if kd is None or not kd.is_Rational or not r.method.startswith("laplacian"):
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
        out.append(CriticalCurve("transitive", tuple(trials), _ro(x), _ro(y),
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
        out.append(CriticalCurve("exception", ((w, l_),), _ro(x), _ro(y),
                                 "lambda'(gamma) = gamma D / (2 (D - E) - gamma E), alpha = (gamma - 2 lambda')/"
                                 "(gamma + 2), r_W - r_L = E/D"))
    return out


def _row_points(r: Result, xn: str, yn: str, xr: tuple[float, float], ys: np.ndarray,
                exc_trials: tuple[Trial, ...], groups: list[tuple[Trial, ...]], first: np.ndarray, n_rows: int,
                ) -> list[CriticalCurve]:
    from ..analysis.crossings import critical_values

    present = sorted(set(int(v) for v in np.unique(first)) - {-1})
    chosen = list(exc_trials) + [groups[k][0] for k in present]
    if not chosen:
        return []
    if n_rows < 1:
        return []
    rows = np.unique(np.linspace(0, len(ys) - 1, min(len(ys), n_rows)).round().astype(int))
    pts: dict[Trial, list[tuple[float, float]]] = {t: [] for t in chosen}
    lo = sp.Rational(repr(float(xr[0])))
    hi = sp.Rational(repr(float(xr[1])))
    for k in rows:
        yv = sp.Rational(f"{ys[k]:.4g}")
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
        out.append(CriticalCurve(kind, tuple(trials), _ro(x), _ro(y), "points"))
    return out


# ================================================================================================ curves
@dataclass(frozen=True, eq=False)
class CurveSeries:
    """One line of a margin plot: the margin of one trial, or the smallest margin of a category.

    Attributes
    ----------
    label : str
    trials : tuple of (i, j)
        The trial, or the trials of the category.
    margin : ndarray of float, shape (k,)
        Over :attr:`CurveData.x`.
    """

    label: str
    trials: tuple[Trial, ...]
    margin: np.ndarray


@dataclass(frozen=True, eq=False)
class CurveMarker:
    """An exact critical value on a margin plot.

    Attributes
    ----------
    series : str
        Label of the series whose margin vanishes there.
    trials : tuple of (i, j)
        The trials of the series whose margin vanishes there.
    value : sympy.Expr
        The exact critical value.
    value_float : float
    direction : {"to_error", "to_correct", "touch", "unknown"}
    """

    series: str
    trials: tuple[Trial, ...]
    value: sp.Expr
    value_float: float
    direction: str


@dataclass(frozen=True, eq=False)
class CurveData:
    """Everything a plot of margins against one parameter shows.

    Attributes
    ----------
    label : str
    parameter : str
    x : ndarray of float, shape (k,)
    log : bool
    series : tuple of CurveSeries
    markers : tuple of CurveMarker
        Exact critical values inside the plotted range where a plotted margin changes sign.
    note : str
    """

    label: str
    parameter: str
    x: np.ndarray
    log: bool
    series: tuple[CurveSeries, ...]
    markers: tuple[CurveMarker, ...]
    note: str


def curve_data(result: Result, parameter: str = "alpha", trials: Iterable[Sequence[int]] | None = None, *,
               values: Mapping[str, Any] | None = None, x_range: Any = None, resolution: int = 400,
               log: bool | None = None, critical: bool = True) -> CurveData:
    """The data of a plot of margins against one parameter, with the exact critical values marked.

    Parameters
    ----------
    result : Result
        Any result; ``parameter`` is made free (solving again if needed), other free parameters are set from
        ``values``.
    parameter : str, default "alpha"
        The parameter on the horizontal axis (``"lambda"``/``"ridge"`` for the ridge).
    trials : iterable of (i, j), optional
        Trials whose margins are drawn (each must have a target or ground truth). Default: the smallest margin
        of each trial category that has margins.
    values : mapping name -> number, optional
        Values of the other free parameters.
    x_range : pair (low, high), optional
        Default as in :func:`phase_data`.
    resolution : int, default 400
    log : bool, optional
        Log-spaced axis; default only for the ridge.
    critical : bool, default True
        Mark the exact critical values (:func:`symbolic_ti.critical_values` on the plotted range).

    Returns
    -------
    CurveData

    Raises
    ------
    ParameterError
        As :func:`phase_data`.
    TaskError
        For an invalid trial or a trial without ground truth.
    """
    pn = _name(parameter)
    r = _free_result(result, (pn,), values, "curve_data")
    xs, _, xlog, lo, hi = _axis(pn, r, x_range, resolution, log, "curve_data")
    if not xlog:  # a curve includes the end points, except an excluded end of the domain
        xs = np.linspace(lo, hi, resolution)
        if pn != "lambda":
            p = r.family.parameter(pn)
            if p.upper_open or pn == "alpha":
                xs = xs[xs < hi] if hi >= float(p.upper) else xs
    else:
        xs = np.geomspace(lo, hi, resolution)
    task = r.task
    if trials is None:
        series_spec = []
        for cat in CATEGORIES:
            ts = tuple(t for t in task.trials if task.categories[t] == cat and task.ground_truth(t) is not None)
            if ts:
                series_spec.append((f"min {cat}", ts))
    else:
        if isinstance(trials, tuple) and len(trials) == 2 and all(isinstance(v, int) for v in trials):
            trials = [trials]
        series_spec = []
        for t in trials:
            tt = task.check_trial(t, "trials entry")
            if task.ground_truth(tt) is None:
                raise TaskError(f"curve_data: trial {tt} has no ground truth (both items lie in one exception's "
                                f"cycle), so it has no margin")
            series_spec.append((f"({tt[0]}, {tt[1]})", (tt,)))
        if not series_spec:
            raise ParameterError("curve_data: trials must name at least one trial (or be None)")
    all_trials = tuple(dict.fromkeys(t for _, ts in series_spec for t in ts))
    from ..numeric.grid import compile_result

    compiled = compile_result(r, all_trials)
    arrays = {("ridge" if pn == "lambda" else pn): xs} if compiled.parameters else {}
    grid = compiled.evaluate(**arrays)
    m = np.broadcast_to(grid.margins(), (len(all_trials), len(xs)))
    pos = {t: k for k, t in enumerate(compiled.trials)}
    series = []
    for lab, ts in series_spec:
        series.append(CurveSeries(lab, ts, _ro(m[[pos[t] for t in ts]].min(axis=0))))
    markers: list[CurveMarker] = []
    note = grid.note
    if critical and compiled.parameters:
        from ..analysis.crossings import critical_values

        rep = critical_values(r, pn, interval=(sp.Rational(repr(float(lo))), sp.Rational(repr(float(hi)))),
                              trials=list(all_trials))
        crossing_trials = [c for tc in rep.trials for c in tc.crossings if c.value_float is not None]
        if crossing_trials:
            at = np.array([c.value_float for c in crossing_trials])
            cm = compiled.evaluate(**{("ridge" if pn == "lambda" else pn): at}).margins()
            seen: dict[tuple[str, float], int] = {}
            for k, c in enumerate(crossing_trials):
                for lab, ts in series_spec:
                    if c.trial not in ts:
                        continue
                    others = cm[[pos[t] for t in ts], k]
                    if np.nanmin(others) < -1e-9:  # another trial of the series is lower: not its zero
                        continue
                    key = (lab, round(c.value_float, 12))
                    if key in seen:  # the same critical value of another trial of the series
                        old = markers[seen[key]]
                        markers[seen[key]] = CurveMarker(lab, old.trials + (c.trial,), old.value, old.value_float,
                                                         old.direction)
                        continue
                    seen[key] = len(markers)
                    markers.append(CurveMarker(lab, (c.trial,), c.value, c.value_float, c.direction))
        note += " Critical values: exact (critical_values)."
    return CurveData(_label(r), pn, _ro(xs), xlog, tuple(series), tuple(markers), note)


# =============================================================================================== drawing
def _figure(figsize: tuple[float, float]) -> Any:
    _require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, layout="constrained")


def _symbol(name: str) -> str:
    return {"alpha": r"$\alpha$", "lambda": r"ridge $\lambda$", "kappa_o": r"$\kappa_o$",
            "kappa_d": r"$\kappa_d$"}.get(name, name)


def heatmap(data: "HeatmapData | Result", values: Mapping[str, Any] | None = None, quantity: str = "f", *,
            temperature: float = 1.0, annotate: bool | None = None, title: str | None = None) -> Any:
    """Draw a heatmap over the item grid (rows: first item) and return the matplotlib Figure.

    Parameters
    ----------
    data : HeatmapData or Result
        A :class:`HeatmapData`, or a result passed to :func:`heatmap_data` with ``values``, ``quantity``,
        ``temperature``.
    annotate : bool, optional
        Write the value in each cell (default: when n <= 12).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Training trials are outlined in black, the exception in a thick magenta frame, wrong trials (negative
        margin) carry a cross, trials without ground truth are hatched, and the cycle's items are coloured on
        both axes.

    Raises
    ------
    ExportError
        If matplotlib is not installed (the message says how to install it).
    ParameterError
        As :func:`heatmap_data`.
    """
    _require_matplotlib()
    if not isinstance(data, HeatmapData):
        data = heatmap_data(data, values, quantity, temperature)
    from matplotlib.patches import Rectangle

    n = data.task.n
    fig = _figure((0.55 * n + 2.4, 0.55 * n + 1.2))
    ax = fig.add_subplot()
    mat = np.ma.masked_invalid(data.matrix)
    if data.quantity == "p_first":
        vmin, vmax, cmap, cb = 0.0, 1.0, "RdBu_r", "P(first item wins)"
    else:
        lim = float(np.nanmax(np.abs(data.matrix))) or 1.0
        vmin, vmax, cmap = -lim, lim, "RdBu_r"
        cb = "f(i, j)" if data.quantity == "f" else "margin g f(i, j)"
    im = ax.imshow(mat, cmap=cmap, vmin=vmin, vmax=vmax, origin="upper",
                   extent=(0.5, n + 0.5, n + 0.5, 0.5))
    fig.colorbar(im, ax=ax, shrink=0.85, label=cb)
    if annotate is None:
        annotate = n <= 12
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            if data.no_ground_truth[i - 1, j - 1]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.45",
                                       linewidth=0.0, alpha=0.8))
            if data.training[i - 1, j - 1]:
                exc = data.exception[i - 1, j - 1]
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False,
                                       edgecolor="magenta" if exc else "black", linewidth=2.6 if exc else 1.2))
            if data.wrong[i - 1, j - 1]:
                ax.plot([j], [i], marker="x", color="black", markersize=9, markeredgewidth=2)
            elif annotate and not np.isnan(data.matrix[i - 1, j - 1]):
                v = data.matrix[i - 1, j - 1]
                dark = abs(v - (0.5 if data.quantity == "p_first" else 0.0)) > 0.6 * (vmax - vmin) / 2
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color="white" if dark else "0.15")
    ax.set_xticks(range(1, n + 1))
    ax.set_yticks(range(1, n + 1))
    for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
        for lab, item in zip(labels, range(1, n + 1)):
            if item in data.cycle_items:
                lab.set_color("magenta")
                lab.set_fontweight("bold")
    ax.set_xlabel("second item j")
    ax.set_ylabel("first item i")
    ax.set_title(title if title is not None else data.label, fontsize=9)
    return fig


_REGION_COLORS = {3: "#a6dba0", 2: "#fdb863", 1: "#92c5de", 0: "#f4a582"}
_GROUP_COLORS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
                 "#1f78b4", "#b2df8a", "#fb9a99", "#cab2d6")


def phase(data: "PhaseData | Result", x: str = "alpha", y: str = "lambda", *, title: str | None = None,
          **kwargs: Any) -> Any:
    """Draw a phase diagram (regions, first failing trials, exact critical curves) and return the Figure.

    Parameters
    ----------
    data : PhaseData or Result
        A :class:`PhaseData`, or a result passed to :func:`phase_data` with ``x``, ``y`` and ``**kwargs``.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: left, the regions (exception memorized or not x transitive margins all positive or not);
        right, the group of test trials that fails first where some transitive margin is negative. Exact
        critical curves are drawn on both (solid: exception margin = 0; dashed: a transitive margin = 0).

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    ParameterError
        As :func:`phase_data`.
    """
    _require_matplotlib()
    if not isinstance(data, PhaseData):
        data = phase_data(data, x, y, **kwargs)
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    fig = _figure((11.0, 4.6))
    axes = fig.subplots(1, 2, sharey=True)
    codes = [3, 2, 1, 0] if data.memorized is not None else [1, 0]
    cmap = ListedColormap([_REGION_COLORS[c] for c in range(4)])
    axes[0].pcolormesh(data.x_edges, data.y_edges, data.region, cmap=cmap, vmin=-0.5, vmax=3.5, shading="flat",
                       rasterized=True)
    handles = [Patch(color=_REGION_COLORS[c], label=data.region_name(c)) for c in codes
               if np.any(data.region == c)]
    present = [int(g) for g in np.unique(data.first_failure) if g >= 0]
    colors = {g: _GROUP_COLORS[k % len(_GROUP_COLORS)] for k, g in enumerate(present)}
    ff = np.ma.masked_less(data.first_failure, 0)
    if present:
        gmap = ListedColormap([colors.get(g, "white") for g in range(max(present) + 1)])
        axes[1].pcolormesh(data.x_edges, data.y_edges, ff, cmap=gmap, vmin=-0.5, vmax=max(present) + 0.5,
                           shading="flat", rasterized=True)
    axes[1].set_facecolor("white")
    ghandles = []
    for g in present:
        ts = data.groups[g]
        shown = ", ".join(f"({i},{j})" for i, j in ts if i < j) or ", ".join(f"({i},{j})" for i, j in ts)
        ghandles.append(Patch(color=colors[g], label=f"{shown} first"))
    for ax in axes:
        for c in data.curves:
            style = dict(color="black", linewidth=1.8) if c.kind == "exception" else \
                dict(color="0.25", linewidth=0.9, linestyle="--")
            if c.exact == "points":
                ax.plot(c.x, c.y, linestyle="none", marker="o" if c.kind == "exception" else ".",
                        color=style["color"], markersize=4)
            else:
                ax.plot(c.x, c.y, **style)
        ax.set_xlim(data.x_edges[0], data.x_edges[-1])
        ax.set_ylim(data.y_edges[0], data.y_edges[-1])
        if data.x_log:
            ax.set_xscale("log")
        if data.y_log:
            ax.set_yscale("log")
        ax.set_xlabel(_symbol(data.x_name))
    axes[0].set_ylabel(_symbol(data.y_name))
    from matplotlib.lines import Line2D

    lines = []
    if any(c.kind == "exception" for c in data.curves):
        lines.append(Line2D([], [], color="black", linewidth=1.8, label="exception margin = 0 (exact)"))
    if any(c.kind == "transitive" for c in data.curves):
        lines.append(Line2D([], [], color="0.25", linewidth=0.9, linestyle="--",
                            label="a transitive margin = 0 (exact)"))
    axes[0].legend(handles=handles + lines, fontsize=7, loc="upper right", framealpha=0.85)
    if ghandles:
        axes[1].legend(handles=ghandles[:10], fontsize=7, loc="upper right", framealpha=0.85,
                       title="trial failing first", title_fontsize=7)
    axes[0].set_title("regions", fontsize=9)
    axes[1].set_title("first failing test trials (white: all transitive margins > 0)", fontsize=9)
    fig.suptitle(title if title is not None else data.label, fontsize=9)
    return fig


def curve(data: "CurveData | Result", parameter: str = "alpha", trials: Iterable[Sequence[int]] | None = None, *,
          title: str | None = None, **kwargs: Any) -> Any:
    """Draw margins against one parameter, with exact critical values marked, and return the Figure.

    Parameters
    ----------
    data : CurveData or Result
        A :class:`CurveData`, or a result passed to :func:`curve_data` with ``parameter``, ``trials`` and
        ``**kwargs``.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    ParameterError, TaskError
        As :func:`curve_data`.
    """
    _require_matplotlib()
    if not isinstance(data, CurveData):
        data = curve_data(data, parameter, trials, **kwargs)
    fig = _figure((7.0, 4.2))
    ax = fig.add_subplot()
    colors = {}
    for k, s in enumerate(data.series):
        (line,) = ax.plot(data.x, s.margin, label=s.label, linewidth=1.4)
        colors[s.label] = line.get_color()
    ax.axhline(0.0, color="black", linewidth=0.8)
    for mk in data.markers:
        ax.axvline(mk.value_float, color=colors.get(mk.series, "0.3"), linewidth=0.7, linestyle=":")
        ax.plot([mk.value_float], [0.0], marker="o", color=colors.get(mk.series, "0.3"), markersize=5)
        ax.annotate(f"{mk.value_float:.4g}", (mk.value_float, 0.0), textcoords="offset points", xytext=(3, 5),
                    fontsize=7, rotation=60)
    if data.log:
        ax.set_xscale("log")
    ax.set_xlabel(_symbol(data.parameter))
    ax.set_ylabel("margin")
    ax.legend(fontsize=7, loc="best")
    ax.set_title(title if title is not None else data.label, fontsize=9)
    return fig


# ================================================================================================ saving
def save_figure(fig: Any, path: "str | Path", *, dpi: float | None = None) -> Path:
    """Write a Figure to ``path`` atomically, in the format given by its suffix (.png, .pdf, .svg).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    path : str or Path
        Destination; its suffix picks the format. The file is either written whole or left untouched
        (temporary file and rename, as :func:`symbolic_ti.files.write_atomic`).
    dpi : float, optional
        Resolution for PNG (default: matplotlib's).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ExportError
        For an unknown suffix, an unwritable path, or a missing matplotlib.
    """
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise ExportError(f"cannot write {str(p)!r}: unknown figure format {p.suffix or '(no suffix)'!r}; use a "
                          f"file name ending in {', '.join(FORMATS)}")
    from ..files import check_writable, write_atomic

    check_writable(p)
    _require_matplotlib()
    buf = io.BytesIO()
    kw: dict[str, Any] = {"format": fmt}
    if dpi is not None:
        kw["dpi"] = dpi
    if fmt == "png":
        kw["metadata"] = {"Software": "symbolic_ti"}
    fig.savefig(buf, **kw)
    write_atomic(p, buf.getvalue())
    return p
