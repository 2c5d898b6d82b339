"""Numeric kernel ridge predictions, written independently of the exact path, for cross-checks.

The exact solver (:mod:`symbolic_ti.gram`, :mod:`symbolic_ti.solvers.dense`) builds a halved Gram matrix of
sympy kernels in a polynomial domain. This module shares no code with it: it builds the FULL (unhalved)
Gram matrix of every training trial from :meth:`Family.kernel_numeric` (plain arithmetic on floats or mpmath
numbers, never sympy) and solves it with numpy (``precision="float64"``) or mpmath at a chosen number of
decimal digits. :func:`symbolic_ti.verify.verify` compares the two paths.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, Callable, Iterable, Mapping

import mpmath
import numpy as np
import sympy as sp

from .. import symbols as S
from ..arguments import RIDGE_NAMES, RIDGELESS_WORDS, SYMBOLIC_RIDGE_WORDS, exact_number
from ..errors import IllConditionedWarning, ParameterError, SolveError
from ..families.base import Family, Trial
from ..task import Task

__all__ = ["numeric_predictions", "numeric_result", "COND_WARN", "FLOAT64_RCOND", "MIN_DPS"]

#: float64 path: warn (:class:`~symbolic_ti.errors.IllConditionedWarning`) above this condition number.
COND_WARN = 1e10
#: float64 ridgeless path: eigenvalues of ``K`` below ``FLOAT64_RCOND * max |eigenvalue|`` count as zero.
FLOAT64_RCOND = 1e-10
#: Smallest number of decimal digits accepted for the mpmath path.
MIN_DPS = 5



# ------------------------------------------------------------------ input checks
def _parse_precision(precision: Any) -> int | None:
    """``None`` for float64, else the number of decimal digits (int >= MIN_DPS)."""
    if isinstance(precision, str):
        if precision.strip().lower() == "float64":
            return None
        raise ParameterError(
            f"precision must be 'float64' or an int number of decimal digits >= {MIN_DPS} (mpmath), "
            f"got {precision!r}"
        )
    if isinstance(precision, bool) or not isinstance(precision, (Integral, sp.Integer)):
        raise ParameterError(
            f"precision must be 'float64' or an int number of decimal digits >= {MIN_DPS} (mpmath), "
            f"got {precision!r}"
        )
    dps = int(precision)
    if dps < MIN_DPS:
        raise ParameterError(f"precision (decimal digits for mpmath) must be >= {MIN_DPS}, got {dps}")
    return dps


def _exact_value(value: Any, name: str) -> sp.Expr:
    """A number given by the caller as an exact real sympy number (floats and mpf are read exactly)."""
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ParameterError(f"{name} must be a finite number, got {value}")
        man, exp = value.man_exp
        return sp.Integer(man) * sp.Integer(2) ** exp
    if isinstance(value, np.generic):
        value = value.item()
    out = exact_number(value, name)
    if out.free_symbols:
        raise ParameterError(f"{name} must be a number, got the expression {out}")
    if out.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or not out.is_real:
        raise ParameterError(f"{name} must be a finite real number, got {out}")
    return out


def _normalize_point(point: Mapping[Any, Any] | None) -> dict[str, sp.Expr]:
    """Map each name (``"ridge"`` read as ``"lambda"``, Symbols by name) to an exact number."""
    if point is None:
        return {}
    if not isinstance(point, Mapping):
        raise ParameterError(
            f"point must be a mapping from parameter names to numbers, e.g. {{'alpha': 0.3, 'lambda': 0.1}}, "
            f"got {type(point).__name__}"
        )
    out: dict[str, sp.Expr] = {}
    for key, raw in point.items():
        if isinstance(key, sp.Symbol):
            name = key.name
        elif isinstance(key, str):
            name = key.strip()
        else:
            raise ParameterError(f"point keys must be parameter names or Symbols, got {key!r}")
        if name in RIDGE_NAMES:
            name = "lambda"
        if name in out:
            raise ParameterError(f"point gives {name} twice")
        out[name] = _exact_value(raw, f"point[{name!r}]")
    return out


def _parse_ridge(ridge: Any, point: dict[str, sp.Expr], bound: Mapping[str, sp.Expr]) -> sp.Expr | None:
    """The ridge as an exact number >= 0, or ``None`` for the ridgeless limit (also for ridge 0).

    A ridge expression is evaluated with ``point`` and the family's ``bound`` values."""
    if isinstance(ridge, str) and ridge.strip().lower() in RIDGELESS_WORDS:
        if "lambda" in point:
            raise ParameterError("point gives a value for lambda, but ridge='ridgeless' was asked")
        return None
    symbolic = ridge is None or (isinstance(ridge, sp.Symbol) and ridge == S.ridge) or (
        isinstance(ridge, str) and ridge.strip().lower() in SYMBOLIC_RIDGE_WORDS
    )
    if symbolic:
        if "lambda" not in point:
            raise ParameterError(
                "point: the ridge is symbolic (ridge=None or the Symbol lambda), so point must give its value, "
                "e.g. point={'lambda': 0.1}; or pass ridge=<number> or ridge='ridgeless'"
            )
        value = point["lambda"]
    elif isinstance(ridge, sp.Basic) and ridge.free_symbols:
        known = {**bound, **point}
        missing = sorted({s.name for s in ridge.free_symbols} - set(known))
        if missing:
            raise ParameterError(
                f"ridge {ridge} depends on {', '.join(missing)}; give their values in point"
            )
        value = _exact_value(ridge.xreplace({s: known[s.name] for s in ridge.free_symbols}), "ridge")
    else:
        if "lambda" in point:
            raise ParameterError(
                f"the ridge is given twice: ridge={ridge!r} and point['lambda']; give only one"
            )
        value = _exact_value(ridge, "ridge")
    if value < 0:
        raise ParameterError(f"ridge must be a number >= 0 or 'ridgeless', got the negative value {value}")
    if value == 0:
        return None  # lambda = 0 means the limit lambda -> 0+, as in symbolic_ti.solve
    return value


def _check_point(family: Family, values: dict[str, sp.Expr]) -> None:
    """Every free parameter has a value, no unknown or bound name is given, and values lie in the domain."""
    free = {p.name: p for p in family.free_parameters}
    bound = family.values
    for name in values:
        if name == "lambda" or name in free:
            continue
        if name in bound:
            if sp.simplify(values[name] - bound[name]) == 0:
                continue  # the same value as the family's: harmless
            raise ParameterError(
                f"point[{name!r}] = {values[name]}, but {family.describe()} binds {name} = {bound[name]}; "
                f"give point values only for its free parameters ({', '.join(free) or 'none'})"
            )
        known = ", ".join(list(free) + ["lambda"])
        raise ParameterError(f"point[{name!r}]: {family.name} has no free parameter {name!r}; expected one of {known}")
    missing = [p for name, p in free.items() if name not in values]
    if missing:
        text = ", ".join(f"{p.name} in {p.domain_text()}" for p in missing)
        raise ParameterError(
            f"point: a value is needed for the free parameter(s) {text} of {family.describe()}, "
            f"e.g. point={{{', '.join(repr(p.name) + ': ...' for p in missing)}}}"
        )
    if free:
        try:  # domains and joint constraints, through the family's own checks
            family.with_values(**{name: values[name] for name in free})
        except ParameterError as err:
            raise ParameterError(f"point: {err}") from None


# ------------------------------------------------------------------ numbers
def _float_converter() -> Callable[[sp.Expr], float]:
    def convert(v: sp.Expr) -> float:
        return float(v)

    return convert


def _mpf_converter(dps: int) -> Callable[[sp.Expr], Any]:
    def convert(v: sp.Expr) -> Any:  # called inside workdps(dps)
        v = sp.sympify(v)
        if v.is_Rational:
            return mpmath.mpf(int(v.p)) / int(v.q)
        return mpmath.mpf(sp.Float(v, dps + 10))

    return convert


# ------------------------------------------------------------------ solves
def _pinv_apply(eigvals: list, vecs: Callable[[int, int], Any], y: list, m: int, rcond: Any, zero_band: Any,
                one: Any, fsum: Callable) -> tuple[list, bool]:
    """``K^+ y`` from an eigendecomposition; also report whether an eigenvalue lies near the cutoff."""
    top = max(abs(w) for w in eigvals)
    cut = rcond * top
    ambiguous = any(zero_band * top < abs(w) <= cut for w in eigvals)
    coef = [0 * one] * m
    for k, w in enumerate(eigvals):
        if abs(w) <= cut:
            continue
        z = fsum(vecs(r, k) * y[r] for r in range(m)) / w
        for r in range(m):
            coef[r] += vecs(r, k) * z
    return coef, ambiguous


def _warn_ambiguous(cutoff: float, text: str) -> None:
    warnings.warn(
        f"ridgeless numeric solve: the Gram matrix has an eigenvalue just above round-off but below the rank "
        f"cutoff {cutoff:.1e} x largest ({text}); the minimum-norm interpolant may be unreliable. Use more "
        f"digits (precision=<dps>) or the exact solver.",
        IllConditionedWarning,
        stacklevel=4,  # _warn_ambiguous <- _solve_* <- numeric_predictions <- caller
    )


def numeric_predictions(
    task: Task,
    family: Family,
    point: Mapping[Any, Any] | None = None,
    ridge: Any = None,
    *,
    precision: "str | int" = "float64",
    trials: Iterable[Trial] | None = None,
    rcond: float | None = None,
) -> dict[Trial, Any]:
    """Kernel ridge predictions ``f(t) = k(t)^T (K + lambda I)^{-1} y`` computed numerically.

    Independent of the exact solver: the full Gram matrix of every training trial (no antisymmetric
    halving) is filled with :meth:`Family.kernel_numeric` and solved with numpy or mpmath.

    Parameters
    ----------
    task : Task
        Items and exceptions; the training trials ``task.training`` (``m = 2 (n - 1 + #exceptions)`` of them)
        index the Gram matrix ``K`` of shape ``(m, m)`` and the targets ``y`` of shape ``(m,)``.
    family : Family
        Representation family; its bound parameters are used exactly (converted to the working precision).
    point : mapping, optional
        Values of the family's free parameters by name or Symbol, e.g. ``{"alpha": 0.3}``, and of the ridge
        as ``"lambda"`` (or ``"ridge"``) when the ridge is symbolic. Numbers (int, float, Fraction, ``"p/q"``
        strings, sympy numbers, mpmath ``mpf``) are read exactly, so ``0.1`` is ``1/10``; each must lie in the
        parameter's domain (``family.free_parameters``). A value for a bound parameter must equal the bound value;
        an unknown name is an error.
    ridge : number, str, sympy expression or None, default None
        A number ``lambda >= 0``; ``"ridgeless"`` (or 0) for the limit ``lambda -> 0+``, the minimum-norm
        interpolant ``k(t)^T K^+ y``; ``None``, ``"lambda"``, or the Symbol ``lambda`` (a symbolic ridge, as in
        a :class:`~symbolic_ti.results.Result`) takes the value ``point["lambda"]``. A sympy expression in
        parameters is evaluated at ``point``.
    precision : "float64" or int, default "float64"
        ``"float64"``: numpy (``numpy.linalg.solve``; ridgeless through ``numpy.linalg.eigh``).
        An int ``dps >= 5``: mpmath with ``dps`` decimal digits inside ``mpmath.workdps(dps)`` (the global
        precision is not changed); ``mpmath.lu_solve``, ridgeless through ``mpmath.eigsy``.
    trials : iterable of (i, j), optional
        Trials to predict; default every ordered trial ``task.trials`` (``n (n - 1)`` of them).
    rcond : float, optional
        Ridgeless only: eigenvalues of ``K`` with ``|w| <= rcond * max |w|`` count as zero in the
        pseudo-inverse. Default ``1e-10`` (float64) or ``10^(-dps/2)`` (mpmath).

    Returns
    -------
    dict (i, j) -> float or mpmath.mpf
        ``f(i, j)`` for each asked trial: Python floats for float64, ``mpf`` numbers carrying ``dps`` digits
        for mpmath.

    Raises
    ------
    ParameterError
        For an unknown ``precision``; a missing, unknown, bound or out-of-domain value in ``point``; a negative,
        non-finite or doubly given ``ridge``; a bad ``rcond``; ``task``/``family`` of the wrong type.
    TaskError
        For a trial in ``trials`` that is not a trial of the task.
    SolveError
        If ``K + lambda I`` is numerically singular (a kernel outside its positive semidefinite domain).

    Warns
    -----
    IllConditionedWarning
        float64 with a ridge: when the condition number of ``K + lambda I`` exceeds ``COND_WARN = 1e10``
        (e.g. a tiny ridge on a singular ``K``); the message gives the condition number and suggests mpmath.
        Ridgeless (both precisions): when an eigenvalue of ``K`` lies between round-off and the rank cutoff,
        so that the numerical rank is ambiguous.

    Notes
    -----
    The ridge acts on the sum of squared errors: ``c = (K + lambda I)^{-1} y`` (docs/conventions.md). For a
    positive semidefinite ``K``, ``lim_{lambda -> 0+} k(t)^T (K + lambda I)^{-1} y = k(t)^T K^+ y`` since
    ``k(t)`` lies in the range of ``K`` (the minimum-norm interpolant); with ``K = Q diag(w) Q^T``,
    ``K^+ = Q diag(1/w_k for kept w_k) Q^T``. The mpmath path loses about ``log10(cond)`` of its ``dps``
    digits and does not warn.

    References
    ----------
    Lippl, Kay, Jensen, Ferrera, Abbott, "A mathematical theory of relational generalization in transitive
    inference", PNAS 2024 (kernel ridge model of TI). Golub and Van Loan, *Matrix Computations*, 4th ed.,
    sections 2.6 and 5.5 (condition numbers, pseudo-inverse and minimum-norm least squares).

    Examples
    --------
    >>> from symbolic_ti import Task, Exchangeable
    >>> f = numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=1)
    >>> round(f[(1, 4)] * 7, 12)
    5.0
    >>> g = numeric_predictions(Task(4), Exchangeable(), {"alpha": 0, "lambda": 1}, precision=30)
    >>> mpmath.nstr(g[(1, 4)] * 7, 20)
    '5.0'
    """
    if not isinstance(task, Task):
        raise ParameterError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    if not isinstance(family, Family):
        raise ParameterError(f"family must be a symbolic_ti Family (e.g. Exchangeable(alpha=...)), got {family!r}")
    family.check_task(task)  # e.g. an item-similarity matrix of another size than n
    dps = _parse_precision(precision)
    values = _normalize_point(point)
    lam = _parse_ridge(ridge, values, family.values)
    _check_point(family, values)
    if rcond is not None:
        if isinstance(rcond, bool) or not isinstance(rcond, (Real, mpmath.mpf)) or not 0 < rcond < 1:
            raise ParameterError(f"rcond must be a number in (0, 1), got {rcond!r}")
        if lam is not None:
            raise ParameterError("rcond applies only to ridge='ridgeless'")
    queries = task.trials if trials is None else tuple(task.check_trial(t, "trials entry") for t in trials)
    train = [t for t, _ in task.training]
    targets = [y for _, y in task.training]
    free_vals = {name: v for name, v in values.items() if name != "lambda" and name not in family.values}
    if dps is None:
        return _solve_float64(task, family, free_vals, lam, queries, train, targets, rcond)
    with mpmath.workdps(dps):
        return _solve_mpmath(family, free_vals, lam, queries, train, targets, rcond, dps)


def _solve_float64(task: Task, family: Family, free_vals: dict[str, sp.Expr], lam: sp.Expr | None,
                   queries: tuple[Trial, ...], train: list[Trial], targets: list[int],
                   rcond: float | None) -> dict[Trial, float]:
    convert = _float_converter()
    params = family.numeric_point({k: convert(v) for k, v in free_vals.items()}, convert)
    m = len(train)
    gram = np.array([[family.kernel_numeric(a, b, params) for b in train] for a in train], dtype=float)
    cross = np.array([[family.kernel_numeric(t, b, params) for b in train] for t in queries], dtype=float)
    y = np.array(targets, dtype=float)
    if lam is None:
        cut = FLOAT64_RCOND if rcond is None else float(rcond)
        w, v = np.linalg.eigh(gram)
        top = float(np.max(np.abs(w)))
        keep = np.abs(w) > cut * top
        band = 1e3 * m * np.finfo(float).eps
        if np.any((np.abs(w) > band * top) & ~keep):
            _warn_ambiguous(cut, "float64")
        elif keep.any() and top / float(np.min(np.abs(w[keep]))) > COND_WARN:
            warnings.warn(
                f"ridgeless float64 solve: the kept eigenvalues of K span a condition number "
                f"{top / float(np.min(np.abs(w[keep]))):.2e} > {COND_WARN:.0e}; results may have lost most "
                f"digits. Use precision=<dps> (mpmath), e.g. precision=50.",
                IllConditionedWarning,
                stacklevel=3,
            )
        z = (v.T @ y)
        z = np.where(keep, z / np.where(keep, w, 1.0), 0.0)
        coef = v @ z
    else:
        ridge = float(lam)
        mat = gram + ridge * np.eye(m)
        cond = float(np.linalg.cond(mat))
        if not np.isfinite(cond):
            raise SolveError(f"K + lambda I is singular at lambda = {lam} (is the kernel positive semidefinite?)")
        if cond > COND_WARN:
            warnings.warn(
                f"float64 solve of K + lambda I at lambda = {ridge:g} ({task.label()}): condition number "
                f"{cond:.2e} > {COND_WARN:.0e}, so only about {max(0, 16 - int(np.log10(cond)))} digits can be "
                f"trusted. Use precision=<dps> (mpmath), e.g. precision=50, or the exact solver.",
                IllConditionedWarning,
                stacklevel=3,
            )
        try:
            coef = np.linalg.solve(mat, y)
        except np.linalg.LinAlgError as err:  # pragma: no cover - cond is finite here
            raise SolveError(f"K + lambda I is singular at lambda = {lam} ({err})") from None
    pred = cross @ coef
    return {t: float(pred[r]) for r, t in enumerate(queries)}


def _solve_mpmath(family: Family, free_vals: dict[str, sp.Expr], lam: sp.Expr | None,
                  queries: tuple[Trial, ...], train: list[Trial], targets: list[int],
                  rcond: Any, dps: int) -> dict[Trial, Any]:
    mp = mpmath.mp
    convert = _mpf_converter(dps)
    params = family.numeric_point({k: convert(v) for k, v in free_vals.items()}, convert)
    m = len(train)
    one = mp.mpf(1)
    gram = mp.matrix(m, m)
    for r, a in enumerate(train):
        for c, b in enumerate(train):
            gram[r, c] = one * family.kernel_numeric(a, b, params)
    y = [mp.mpf(v) for v in targets]
    if lam is None:
        cut = mp.mpf(10) ** (-mp.mpf(dps) / 2) if rcond is None else mp.mpf(rcond)
        w, q = mp.eigsy(gram)
        eig = [w[k] for k in range(m)]
        band = 1000 * m * mp.mpf(10) ** (-dps)
        coef, ambiguous = _pinv_apply(eig, lambda r, k: q[r, k], y, m, cut, band, one, mp.fsum)
        if ambiguous:
            _warn_ambiguous(float(cut), f"mpmath, {dps} digits")
    else:
        mat = gram.copy()
        ridge = convert(lam)
        for r in range(m):
            mat[r, r] += ridge
        try:
            sol = mp.lu_solve(mat, mp.matrix(y))
        except ZeroDivisionError:
            raise SolveError(f"K + lambda I is singular at lambda = {lam} (is the kernel positive semidefinite?)") \
                from None
        coef = [sol[r] for r in range(m)]
    out: dict[Trial, Any] = {}
    for t in queries:
        out[t] = mp.fdot((one * family.kernel_numeric(t, b, params), coef[c]) for c, b in enumerate(train))
    return out


# ------------------------------------------------------------------ results from float data
#: :func:`numeric_result`: decimal digits of the mpmath cross-check, and the largest accepted deviation
#: ``|float64 - mpmath| / max(1, |mpmath|)`` before the mpmath values are used instead (with a warning).
CROSS_CHECK_DPS = 30
CROSS_CHECK_TOL = 1e-8


def numeric_result(task: Task, family: Family, ridge: sp.Expr | None, *, method: str = "auto") -> Any:
    """A :class:`~symbolic_ti.results.Result` of float64 predictions, cross-checked by an mpmath solve.

    For families whose data are floats (``family.numeric_only``, e.g. an ``embedding`` of hidden states): their
    kernel has no exact form, so :func:`symbolic_ti.solve` calls this instead of an exact method.
    :func:`numeric_predictions` runs twice, in float64 and with mpmath at :data:`CROSS_CHECK_DPS` digits.

    Parameters
    ----------
    task : Task
    family : Family
        Every parameter must be bound to a number.
    ridge : sympy number or None
        The parsed ridge (``None``: the ridgeless limit, the minimum-norm interpolant).
    method : str
        Must be ``"auto"`` (the exact methods need an exact kernel).

    Returns
    -------
    Result
        Predictions as sympy ``Float`` numbers (15 digits; never exact rationals), ``method``
        ``"numeric/float64 (mpmath 30-digit check, max deviation ...)"``, or ``"numeric/mpmath ..."`` when the
        two disagree by more than :data:`CROSS_CHECK_TOL`.

    Raises
    ------
    SolveError
        If a parameter or the ridge is symbolic, or an exact method is asked.

    Warns
    -----
    IllConditionedWarning
        If float64 and mpmath disagree by more than :data:`CROSS_CHECK_TOL`; the mpmath values are returned.
    """
    import time

    from ..results import Result

    start = time.perf_counter()
    if method != "auto":
        raise SolveError(f"method {method!r} needs an exact kernel, but {family.describe()} holds float data; "
                         f"use method='auto' (numeric solve), or give the data exactly (numeric=False)")
    free = [p.name for p in family.free_parameters]
    if free or (ridge is not None and sp.sympify(ridge).free_symbols):
        names = ", ".join(free + (["lambda (--ridge)"] if ridge is not None and sp.sympify(ridge).free_symbols
                                  else []))
        raise SolveError(f"{family.describe()} holds float data, so it is solved numerically and every parameter "
                         f"needs a value; symbolic: {names}")
    ridge_arg: Any = "ridgeless" if ridge is None else ridge
    f64 = numeric_predictions(task, family, ridge=ridge_arg)
    with mpmath.workdps(CROSS_CHECK_DPS):
        mp_vals = numeric_predictions(task, family, ridge=ridge_arg, precision=CROSS_CHECK_DPS)
        dev = max(float(abs(f64[t] - mp_vals[t]) / max(1, abs(mp_vals[t]))) for t in task.trials)
        mp_float = {t: sp.Float(mpmath.nstr(v, 17), 15) for t, v in mp_vals.items()}
    check = f"mpmath {CROSS_CHECK_DPS}-digit check, max deviation {dev:.1e}"
    if dev > CROSS_CHECK_TOL:
        warnings.warn(
            f"numeric solve of {family.describe()} ({task.label()}): float64 and mpmath ({CROSS_CHECK_DPS} digits) "
            f"disagree by up to {dev:.1e} > {CROSS_CHECK_TOL:g}; the mpmath values are used",
            IllConditionedWarning, stacklevel=3)
        preds, name = mp_float, f"numeric/mpmath (float64 disagreed: {check})"
    else:
        preds, name = {t: sp.Float(v, 15) for t, v in f64.items()}, f"numeric/float64 ({check})"
    return Result(task=task, family=family, ridge=ridge, predictions=preds, method=name,
                  seconds=time.perf_counter() - start)
