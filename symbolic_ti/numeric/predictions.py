"""Numeric kernel ridge predictions, written independently of the exact path, that meet a stated tolerance.

The exact solver (:mod:`symbolic_ti.gram`, :mod:`symbolic_ti.solvers.dense`) builds a halved Gram matrix of
sympy kernels in a polynomial domain. This module shares no code with it: it builds the FULL (unhalved)
Gram matrix of every training trial from :meth:`Family.kernel_numeric` (plain arithmetic on floats or mpmath
numbers, never sympy; :mod:`symbolic_ti.numeric.systems`) and solves it with numpy (``precision="float64"``) or
mpmath at a chosen number of decimal digits (:mod:`symbolic_ti.numeric.trusted`). Every value either meets the
stated tolerance (float64: ``1e-8``; mpmath at ``dps`` digits: ``10^(2 - dps)``; relative above magnitude 1,
absolute below) or is listed in the result's ``untrusted`` with an :class:`~symbolic_ti.errors.UntrustedNumericWarning`
(docs/theory.md#numeric-trust). :func:`symbolic_ti.numeric.verification.verify` compares the two paths.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real
from typing import Any
from collections.abc import Iterable, Mapping

import mpmath
import sympy as sp

from .. import symbols as S
from ..arguments import MAX_DIGITS, RIDGE_NAMES, RIDGELESS_WORDS, SYMBOLIC_RIDGE_WORDS, check_trials, exact_number
from ..digits import message_text
from ..errors import IllConditionedWarning, ParameterError, SolveError, UntrustedNumericWarning
from ..families.base import Family, Trial
from ..task import Task
from .systems import Basis, KernelSystem, training_basis
from .trusted import (COND_LIMIT, FLOAT64_TOL, NumericPredictions, float64_condition, float64_solve,
                      mpmath_solve, mpmath_tolerance, pinv_values)
from ..formatting import rounded

__all__ = ["numeric_predictions", "numeric_result", "NumericPredictions", "COND_WARN", "FLOAT64_RCOND", "MIN_DPS", "MAX_DPS",
           "FLOAT64_TOL", "FALLBACK_DPS"]

#: float64 path: above this condition number the values come from the mpmath solve instead (see
#: :data:`symbolic_ti.numeric.trusted.COND_LIMIT`).
COND_WARN = COND_LIMIT
#: Ridgeless eigenvalue cut-off ``FLOAT64_RCOND * max |eigenvalue|``, used only when the rank of ``K`` cannot be
#: decided (the values are then reported as untrusted); otherwise the exact rank is used.
FLOAT64_RCOND = 1e-10
#: Smallest number of decimal digits accepted for the mpmath path.
MIN_DPS = 5
#: Largest number of decimal digits accepted for the mpmath path (``precision``, ``verify(dps=...)``).
MAX_DPS = MAX_DIGITS
#: float64 values that float64 cannot deliver within :data:`FLOAT64_TOL` come from mpmath asked for this many
#: digits (tolerance ``1e-15``), then rounded to float64.
FALLBACK_DPS = 17


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
    if dps > MAX_DPS:
        raise ParameterError(f"precision (decimal digits for mpmath) must be <= {MAX_DPS}, got {message_text(dps)}")
    return dps


def _exact_value(value: Any, name: str) -> sp.Expr:
    """A number given by the caller as an exact real sympy number (read by :func:`~symbolic_ti.arguments.exact_number`:
    floats, numpy scalars and mpf by their shortest round-tripping decimal)."""
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
        raise ParameterError(f"ridge must be a number >= 0 or 'ridgeless', got the negative value {message_text(value)}")
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


def numeric_predictions(
    task: Task,
    family: Family,
    point: Mapping[Any, Any] | None = None,
    ridge: Any = None,
    *,
    precision: str | int = "float64",
    trials: Iterable[Trial] | None = None,
    rcond: float | None = None,
) -> NumericPredictions:
    """Kernel ridge predictions ``f(t) = k(t)^T (K + lambda I)^{-1} y`` computed numerically, each within a stated
    tolerance or flagged.

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
        strings, sympy numbers, numpy scalars, mpmath ``mpf``) are read exactly by
        :func:`~symbolic_ti.arguments.exact_number`, so ``0.1`` is ``1/10``; each must lie in the
        parameter's domain (``family.free_parameters``). A value for a bound parameter must equal the bound value;
        an unknown name is an error.
    ridge : number, str, sympy expression or None, default None
        A number ``lambda >= 0``; ``"ridgeless"`` (or 0) for the limit ``lambda -> 0+``, the minimum-norm
        interpolant ``k(t)^T K^+ y``; ``None``, ``"lambda"``, or the Symbol ``lambda`` (a symbolic ridge, as in
        a :class:`~symbolic_ti.results.Result`) takes the value ``point["lambda"]``. A sympy expression in
        parameters is evaluated at ``point``.
    precision : "float64" or int, default "float64"
        ``"float64"``: numpy (``numpy.linalg.solve``; ridgeless through ``numpy.linalg.eigh`` at the exact rank of
        ``K``), with an a-posteriori error bound per trial; where float64 cannot meet :data:`FLOAT64_TOL` = 1e-8
        (condition number above ``1e10`` or a bound above the tolerance) the values come from the mpmath solve
        asked for :data:`FALLBACK_DPS` digits, rounded to float64, and ``method`` says so.
        An int ``dps >= 5``: mpmath (``mpmath.lu_solve``; ridgeless: ``mpmath.lu_solve`` least squares on a basis
        of training trials at the exact rank), at a working precision above ``dps`` chosen from the condition
        number and raised until two precisions agree, so that each value meets ``10^(2 - dps)``; the values are
        rounded to ``dps`` digits. The global mpmath precision is not changed.
    trials : iterable of (i, j), optional
        Trials to predict; default every ordered trial ``task.trials`` (``n (n - 1)`` of them).
    rcond : float, optional
        Ridgeless only: eigenvalues of ``K`` with ``|w| <= rcond * max |w|`` count as zero in the
        pseudo-inverse. By default the rank of ``K`` is its exact rank (of the exact rational Gram matrix, or of
        a high-precision one when the kernel is not rational: :func:`symbolic_ti.numeric.systems.training_basis`).
        A cut-off that keeps another number of eigenvalues than the exact rank gives untrusted values.

    Returns
    -------
    NumericPredictions
        A ``dict`` ``(i, j) -> f(i, j)`` for each asked trial (Python floats for float64, ``mpf`` numbers
        carrying ``dps`` digits for mpmath) with the attributes ``tolerance``, ``trusted``, ``untrusted`` (the
        trials whose value could not be shown to meet the tolerance), ``error_bound``, ``method``, ``condition``,
        ``rank``, ``rank_source``, and ``summary()`` / ``to_text()`` (the same in words).

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
    UntrustedNumericWarning
        (a subclass of :class:`~symbolic_ti.errors.IllConditionedWarning`) when some value could not be shown to
        meet the tolerance: the mpmath solve did not settle below its largest working precision, the rank of
        ``K`` could not be decided, or ``rcond`` keeps another number of eigenvalues than the exact rank. The
        message names the worst trial and its error bound; the result lists every such trial in ``untrusted``.

    Notes
    -----
    The ridge acts on the sum of squared errors: ``c = (K + lambda I)^{-1} y`` (docs/conventions.md). For a
    positive semidefinite ``K``, ``lim_{lambda -> 0+} k(t)^T (K + lambda I)^{-1} y = k(t)^T K^+ y`` since
    ``k(t)`` lies in the range of ``K`` (the minimum-norm interpolant); with ``K = Q diag(w) Q^T``,
    ``K^+ = Q diag(1/w_k for the rank(K) largest w_k) Q^T``. Equivalently, with ``B`` a set of ``rank(K)``
    training trials whose Gram columns are independent, ``f(t) = K[t, B] w`` with ``w`` the least-squares
    solution of ``K[:, B] w = y`` (the mpmath ridgeless path). The error bounds and the precision rule are
    derived in docs/theory.md#numeric-trust. A task with counts ``c`` (presentations) weighs each squared error:
    the system solved is the scaled ``S K S``, ``S y``, ``k(t)^T S`` with ``S = diag(sqrt(c))``, the same problem
    (:class:`~symbolic_ti.numeric.systems.KernelSystem`).

    References
    ----------
    Lippl, Kay, Jensen, Ferrera, Abbott, "A mathematical theory of relational generalization in transitive
    inference", PNAS 2024 (kernel ridge model of TI). Golub and Van Loan, *Matrix Computations*, 4th ed.,
    sections 2.6, 5.5 and 8.6 (condition numbers, pseudo-inverse, minimum-norm least squares, eigenvector
    perturbation). Wedin, "Perturbation theory for pseudo-inverses", BIT 13 (1973).

    Examples
    --------
    >>> from symbolic_ti import Task, Exchangeable
    >>> f = numeric_predictions(Task(4), Exchangeable(alpha=0), ridge=1)
    >>> round(f[(1, 4)] * 7, 12), f.trusted
    (5.0, True)
    >>> g = numeric_predictions(Task(4), Exchangeable(), {"alpha": 0, "lambda": 1}, precision=30)
    >>> mpmath.nstr(g[(1, 4)] * 7, 20)
    '5.0'
    >>> h = numeric_predictions(Task(9, ["6>4"]), Exchangeable(alpha="1e-12"), ridge="ridgeless")
    >>> round(h[(6, 4)], 9), h.trusted, h.method.startswith("float64 via mpmath")
    (1.0, True, True)
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
    queries = check_trials(task, trials)
    free_vals = {name: v for name, v in values.items() if name != "lambda" and name not in family.values}
    counts = None if task.uniform_counts else tuple(task.counts[t] for t, _ in task.training)
    system = KernelSystem(family, free_vals, lam, tuple(t for t, _ in task.training),
                          tuple(y for _, y in task.training), tuple(queries), counts)
    basis = training_basis(system) if lam is None else None
    try:
        if dps is None:
            out = _float64_predictions(system, basis, None if rcond is None else float(rcond))
        else:
            out = _mpmath_predictions(system, basis, rcond, dps)
    except SolveError as err:
        where = "ridgeless" if lam is None else f"lambda = {lam}"
        raise SolveError(f"{err} ({task.label()}, {family.describe()}, {where})") from None
    if not out.trusted:
        _warn_untrusted(out, task)
    return out


def _float64_predictions(system: KernelSystem, basis: Basis | None, rcond: float | None) -> NumericPredictions:
    res = float64_solve(system, basis, rcond, FLOAT64_RCOND)
    values, bounds, ok, method = res.values, res.bounds, res.trusted, "float64"
    if not all(ok) and not res.rank_problem:  # near-singular: mpmath at a precision from the condition number
        mp_res = mpmath_solve(system, basis, FALLBACK_DPS, float64_condition(system, basis))
        values = [float(v) for v in mp_res.values]
        bounds, ok = mp_res.bounds, mp_res.trusted
        method = f"float64 via mpmath ({mp_res.note}; float64: {res.note})"
    elif res.note:
        method = f"float64 ({res.note})"
    return _package(system, basis, values, bounds, ok, "float64", FLOAT64_TOL, method, res.condition)


def _mpmath_predictions(system: KernelSystem, basis: Basis | None, rcond: Any, dps: int) -> NumericPredictions:
    tol = mpmath_tolerance(dps)
    if system.ridge is None and (rcond is not None or basis is None or basis.rank is None):
        with mpmath.workdps(dps):  # eigenvalue cut-off: only to honour rcond, or when the rank is undecided
            cut = mpmath.mpf(10) ** (-mpmath.mpf(dps) / 2) if rcond is None else mpmath.mpf(rcond)
            gram, cross, y = system.mp()
            w, qv = mpmath.mp.eigsy(gram)
            top = max(abs(w[k]) for k in range(system.m))
            keep = [k for k in range(system.m) if abs(w[k]) > cut * top]
            if basis is None or basis.rank is None or len(keep) != basis.rank:
                vals = pinv_values(w, lambda r, k: qv[r, k], lambda t, c: cross[t][c], y, system.m,
                                   len(system.queries), keep, mpmath.mp.fsum)
                why = ("the rank of K could not be decided" if basis is None or basis.rank is None else
                       f"rcond keeps {len(keep)} eigenvalues but the exact rank of K is {basis.rank}")
                q = len(system.queries)
                return _package(system, basis, vals, [math.inf] * q, [False] * q, dps, tol,
                                f"mpmath {dps} digits, eigenvalue cut-off {mpmath.nstr(cut, 3)} ({why})", math.inf)
    res = mpmath_solve(system, basis, dps, float64_condition(system, basis))
    with mpmath.workdps(dps):
        values = [+v for v in res.values]  # rounded to the asked precision
    return _package(system, basis, values, res.bounds, res.trusted, dps, tol, f"mpmath {dps} digits ({res.note})",
                    res.condition)


def _package(system: KernelSystem, basis: Basis | None, values: list, bounds: list, ok: list, precision: Any,
             tol: Any, method: str, condition: float) -> NumericPredictions:
    queries = system.queries
    return NumericPredictions(
        dict(zip(queries, values, strict=True)), precision=precision, tolerance=tol,
        untrusted=tuple(t for t, good in zip(queries, ok, strict=True) if not good), error_bound=dict(zip(queries, bounds, strict=True)),
        method=method, condition=condition, rank=None if basis is None else basis.rank,
        rank_source=None if basis is None else basis.source)


def _warn_untrusted(out: NumericPredictions, task: Task) -> None:
    worst = max(out.untrusted, key=lambda t: out.error_bound.get(t, math.inf))
    warnings.warn(
        f"numeric solve ({task.label()}, precision {out.precision}): {len(out.untrusted)} of {len(out)} values could "
        f"not be shown to meet the tolerance (worst error bound {rounded(out.error_bound.get(worst, math.inf), '.1e')} at "
        f"{worst}); {out.method}. Their trials are in result.untrusted. Use the exact solver (symbolic_ti.solve) "
        f"or more digits (precision=<dps>).",
        UntrustedNumericWarning,
        stacklevel=3,  # _warn_untrusted <- numeric_predictions <- caller
    )


# ------------------------------------------------------------------ results from float data
#: :func:`numeric_result`: decimal digits of the mpmath cross-check, and the largest accepted deviation
#: ``|float64 - mpmath| / max(1, |mpmath|)`` before the mpmath values are used instead (with a warning).
CROSS_CHECK_DPS = 30
CROSS_CHECK_TOL = 1e-8


def numeric_result(task: Task, family: Family, ridge: sp.Expr | None, *, method: str = "auto") -> Any:
    """A :class:`~symbolic_ti.results.Result` of float64 predictions, cross-checked by an mpmath solve.

    For families whose data are floats (``family.numeric_only``, e.g. an ``embedding`` of hidden states): their
    kernel has no exact form, so :func:`symbolic_ti.solve` calls this instead of an exact method.
    :func:`numeric_predictions` runs twice, in float64 and with mpmath at :data:`CROSS_CHECK_DPS` digits (whose
    working precision rises with the condition number, so that its values meet ``10^(2 - 30)``); the exact
    reference is the kernel of the data read exactly (for ``embedding`` the mpmath side recomputes the cosines
    from the vectors).

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
        Predictions as sympy ``Float`` numbers (15 digits; never exact rationals). ``method`` says how far they are
        trusted: ``"numeric/float64 (mpmath 30-digit check, max deviation ...)"``; ``"numeric/float64 via mpmath
        (...)"`` when float64 alone could not meet its tolerance 1e-8; ``"numeric/mpmath (float64 disagreed:
        ...)"`` when the float64 values were not trusted or differ from mpmath by more than
        :data:`CROSS_CHECK_TOL`; ``"numeric/UNTRUSTED ..."`` when no value could be shown to meet a tolerance.

    Raises
    ------
    SolveError
        If a parameter or the ridge is symbolic, or an exact method is asked.

    Warns
    -----
    IllConditionedWarning
        If the float64 values are not used; the mpmath values are returned.
    UntrustedNumericWarning
        If the mpmath values could not be shown to meet their tolerance either (``method`` starts with
        ``"numeric/UNTRUSTED"``).
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UntrustedNumericWarning)  # one warning below says what is used
        f64 = numeric_predictions(task, family, ridge=ridge_arg)
        mp_vals = numeric_predictions(task, family, ridge=ridge_arg, precision=CROSS_CHECK_DPS)
    with mpmath.workdps(CROSS_CHECK_DPS):
        dev = max(float(abs(f64[t] - mp_vals[t]) / max(1, abs(mp_vals[t]))) for t in task.trials)
        mp_float = {t: sp.Float(mpmath.nstr(v, 17), 15) for t, v in mp_vals.items()}
    check = f"mpmath {CROSS_CHECK_DPS}-digit check, max deviation {rounded(dev, '.1e')}"
    label = f"numeric solve of {family.describe()} ({task.label()})"
    if f64.trusted and dev <= CROSS_CHECK_TOL:
        preds = {t: sp.Float(v, 15) for t, v in f64.items()}
        name = f"numeric/float64 ({check})" if f64.method == "float64" else f"numeric/{f64.method} ({check})"
    elif mp_vals.trusted:
        why = (f"float64 and mpmath ({CROSS_CHECK_DPS} digits) disagree by up to {rounded(dev, '.1e')} > {rounded(CROSS_CHECK_TOL, 'g')}"
               if f64.trusted else f"the float64 values could not be shown to meet 1e-8 ({f64.method})")
        warnings.warn(f"{label}: {why}; the mpmath values are used", IllConditionedWarning, stacklevel=3)
        preds, name = mp_float, f"numeric/mpmath (float64 disagreed: {check})"
    else:
        warnings.warn(f"{label}: {mp_vals.summary()}; the values are NOT within a stated tolerance. Give the data "
                      f"exactly (numeric=False) or use a larger ridge", UntrustedNumericWarning, stacklevel=3)
        preds = mp_float
        name = f"numeric/UNTRUSTED ({mp_vals.summary()}; {check})"
    return Result(task=task, family=family, ridge=ridge, predictions=preds, method=name,
                  seconds=time.perf_counter() - start)
