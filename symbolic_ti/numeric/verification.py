"""Check exact closed forms against an independent high-precision numeric solve.

:func:`verify` draws random exact rational values of a result's free parameters, evaluates every closed form
``f(i, j)`` exactly there, and compares it with :func:`symbolic_ti.numeric.predictions.numeric_predictions` (the
full, unhalved Gram matrix from ``Family.kernel_numeric``, solved by mpmath), which shares no code with the
exact solver.

Numeric values that the mpmath solve flags as untrusted (``NumericPredictions.untrusted``, an
:class:`~symbolic_ti.errors.UntrustedNumericWarning`: it could not show that they meet its tolerance,
docs/theory.md#numeric-trust) decide nothing: such a comparison is *undecided*, counted apart from the agreeing and
disagreeing ones, and the report's ``status`` is ``"undecided"`` (``ok`` false) when no decided comparison
disagrees but some are undecided.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

import mpmath
import sympy as sp

from .. import symbols as S
from ..arguments import check_int, exact_number, parameter_name
from ..digits import message_repr, message_text
from ..display import Rendered
from ..budgets import DEFAULT, BudgetLike, check_budget, verify_estimate
from ..errors import ParameterError, UntrustedNumericWarning
from ..progress import Progress
from ..families.base import Trial
from ..results import FrozenMapping, Result
from .predictions import MAX_DPS, MIN_DPS, numeric_predictions

__all__ = ["verify", "VerifyReport", "REL_ERROR_FLOOR", "DEFAULT_RIDGE_INTERVAL"]

#: Relative errors are ``|exact - numeric| / max(|exact|, REL_ERROR_FLOOR)``: relative for predictions of
#: magnitude >= 1 and absolute below (predictions live on the scale of the +-1 targets; an exact 0 must not
#: turn round-off into a huge "relative" error).
REL_ERROR_FLOOR = 1
#: Interval from which a symbolic ridge ``lambda`` is drawn by default.
DEFAULT_RIDGE_INTERVAL = (sp.Integer(0), sp.Integer(2))
#: Draws are ``lo + (hi - lo) * k / _DENOMINATOR`` with ``0 < k < _DENOMINATOR`` (a prime, so that the
#: points avoid the simple rationals where a ridgeless limit may not commute with substitution).
_DENOMINATOR = 1009
_MAX_TRIES = 200

#: ``verify(interval=...)``: one pair ``(low, high)`` of exact numbers for every free parameter, or pairs by name
#: (or Symbol; ``ridge`` and ``lambda`` both name the ridge).
IntervalArgument: TypeAlias = tuple[object, object] | Mapping[str | sp.Symbol, tuple[object, object]] | None


@dataclass(frozen=True)
class VerifyReport(Rendered):
    """Outcome of :func:`verify`; plain data, shown by :mod:`symbolic_ti.export.verification`
    (``to_text()`` / ``str()``, ``to_dict()``, ``to_json()``).

    Attributes
    ----------
    label : str
        The verified result (task, family, ridge).
    dps : int
        Decimal digits of the mpmath solve.
    tol : float
        Tolerance on the largest relative error.
    points : tuple of mappings name -> sympy Rational
        The exact parameter points (free family parameters, and ``lambda`` for a symbolic ridge); a single
        empty mapping when nothing is free.
    point_errors : tuple of float
        Largest relative error at each point.
    max_abs_error, max_rel_error : float
        Largest ``|exact - numeric|`` and largest ``|exact - numeric| / max(|exact|, REL_ERROR_FLOOR)`` over
        every trial and point (``REL_ERROR_FLOOR = 1``: relative above magnitude 1, absolute below).
    worst_trial : (i, j)
        Trial with the largest relative error.
    worst_point : mapping name -> Rational
        Point where it occurs.
    worst_exact, worst_numeric : str
        The two values there (exact rational, and the numeric value to 20 digits).
    worst_exact_value : sympy expression
        The exact value there as an expression (``worst_exact`` is its text).
    n_comparisons : int
        Number of decided (point, trial) comparisons: those whose numeric value is trusted.
    ridgeless : bool
        Whether the result is the ridgeless limit (compared with the mpmath minimum-norm interpolant).
    ok : bool
        ``status == "agree"``: every comparison decided, and ``max_rel_error < tol``.
    status : {"agree", "disagree", "undecided"}
        ``"disagree"`` when a decided comparison exceeds ``tol``; else ``"undecided"`` when some numeric value was
        flagged untrusted (see ``undecided``); else ``"agree"``.
    undecided : tuple of ((i, j), int)
        The comparisons left undecided: trial and index into ``points`` of each numeric value flagged untrusted
        (not counted in the errors above).
    """

    label: str
    dps: int
    tol: float
    points: tuple[Mapping[str, sp.Expr], ...]
    point_errors: tuple[float, ...]
    max_abs_error: float
    max_rel_error: float
    worst_trial: Trial
    worst_point: Mapping[str, sp.Expr]
    worst_exact: str
    worst_exact_value: sp.Expr
    worst_numeric: str
    n_comparisons: int
    ridgeless: bool
    ok: bool
    status: str = "agree"
    undecided: tuple[tuple[Trial, int], ...] = ()

    def __bool__(self) -> bool:
        return self.ok


def _intervals(names: list[str], result: Result, interval: IntervalArgument) -> dict[str, tuple[sp.Expr, sp.Expr]]:
    """The drawing interval of every name: the parameter's domain, (0, 2) for lambda, or ``interval``."""
    out: dict[str, tuple[sp.Expr, sp.Expr]] = {}
    for name in names:
        if name == "lambda":
            out[name] = DEFAULT_RIDGE_INTERVAL
            continue
        p = result.family.parameter(name)
        lo, hi = p.lower, p.upper
        if lo.is_infinite and hi.is_infinite:
            lo, hi = sp.Integer(-2), sp.Integer(2)
        elif hi.is_infinite:
            hi = lo + 2
        elif lo.is_infinite:
            lo = hi - 2
        out[name] = (lo, hi)
    if interval is None:
        return out
    if isinstance(interval, Mapping):
        given = {}
        for key, pair in interval.items():
            name = parameter_name(key.name if isinstance(key, sp.Symbol) else str(key))
            if name not in out:
                raise ParameterError(
                    f"interval: {name!r} is not a free parameter of the result; free: {', '.join(names) or 'none'}"
                )
            given[name] = pair
    else:
        given = {name: interval for name in names}
    for name, pair in given.items():
        try:
            lo, hi = pair
        except (TypeError, ValueError):
            raise ParameterError(f"interval for {name} must be a pair (low, high), got {pair!r}") from None
        lo, hi = exact_number(lo, f"interval low of {name}"), exact_number(hi, f"interval high of {name}")
        if lo.free_symbols or hi.free_symbols or not bool(lo < hi):
            raise ParameterError(f"interval for {name} must be numbers with low < high, got ({message_text(lo)}, {message_text(hi)})")
        if name == "lambda" and lo < 0:
            raise ParameterError(f"interval for lambda must lie in [0, oo), got ({message_text(lo)}, {message_text(hi)})")
        out[name] = (lo, hi)
    return out


def _to_mpf(value: sp.Expr, dps: int) -> Any:
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / int(value.q)
    return mpmath.mpf(sp.N(value, dps + 10))


def verify(
    result: Result,
    n_points: int = 5,
    dps: int = 50,
    seed: int = 0,
    interval: IntervalArgument = None,
    *,
    tol: float | None = None,
    budget: BudgetLike = DEFAULT,
) -> VerifyReport:
    """Compare every closed form of ``result`` with an independent mpmath solve at random exact points.

    Parameters
    ----------
    result : Result
        An exact result from :func:`symbolic_ti.solve`.
    n_points : int, default 5
        Number of random points; ignored (one point) when nothing is free.
    dps : int, default 50
        Decimal digits of the mpmath solve, from 5 to 100000 (:data:`~symbolic_ti.numeric.predictions.MAX_DPS`).
    seed : int, default 0
        Seed of the random draws (``random.Random(seed)``); the same seed gives the same points.
    interval : pair or mapping name -> pair, optional
        Drawing interval ``(low, high)`` for every free parameter, or per name. Default: the family's domain
        (``Parameter.lower``/``upper`` of ``result.family.free_parameters``) and ``(0, 2)`` for ``lambda``.
        Draws are interior: ``low + (high - low) k / 1009`` with ``0 < k < 1009``; points outside the family's
        joint domain, at roots of ``result.ridgeless_conditions`` or at a pole of a closed form are redrawn.
    tol : float, optional
        Tolerance of ``ok`` on the largest relative error; default ``10^(-dps/2)``.
    budget : DEFAULT, None or float
        Seconds of CPU above which the run is refused, estimated before the work from the number of closed forms,
        points and digits (:func:`symbolic_ti.budgets.verify_estimate`, docs/performance.md#budgets); ``None``
        runs anyway; default :data:`symbolic_ti.budgets.DEFAULT_SECONDS`.

    Returns
    -------
    VerifyReport
        Points, largest absolute and relative errors, worst trial, ``status`` and ``ok``. A numeric value
        flagged untrusted (``NumericPredictions.untrusted``, :class:`symbolic_ti.numeric.trusted.NumericPredictions`)
        is neither agreement nor disagreement: the comparison is listed in ``undecided`` and left out of the
        errors, ``status`` is ``"undecided"`` unless a decided comparison disagrees, and ``ok`` is false.

    Warns
    -----
    UntrustedNumericWarning
        When some comparisons are undecided (one warning naming how many; the numeric solver's own warnings are
        not repeated).

    Raises
    ------
    BudgetError
        If the estimated cost is above ``budget`` (the message gives both).
    ParameterError
        For a wrong argument type or value, a free symbol that is neither a family parameter nor ``lambda``,
        or an interval where no valid point can be drawn.

    Notes
    -----
    Every free family parameter is drawn (also one absent from the closed forms, such as ``kappa_d`` in a
    ridgeless result: the numeric side then checks the independence), plus ``lambda`` when the ridge is
    symbolic. For a ridgeless result the closed forms are the generic limit ``lambda -> 0+``; at a random
    point they must equal the minimum-norm interpolant ``k^T K^+ y`` computed numerically there.
    The relative error is ``|exact - numeric| / max(|exact|, 1)`` (:data:`REL_ERROR_FLOOR`).

    Examples
    --------
    >>> from symbolic_ti import Task, Exchangeable, solve
    >>> verify(solve(Task(5, ["4>2"]), Exchangeable()), n_points=2).ok
    True
    """
    if not isinstance(result, Result):
        raise ParameterError(f"result must be a symbolic_ti Result (from solve), got {type(result).__name__}")
    n_points = check_int(n_points, "n_points", minimum=1)
    dps = check_int(dps, "dps", minimum=MIN_DPS, maximum=MAX_DPS)
    seed = check_int(seed, "seed")
    if tol is None:
        tol_mp = mpmath.mpf(10) ** (-mpmath.mpf(dps) / 2)
    else:
        if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 < tol < float("inf"):
            raise ParameterError(f"tol must be a finite positive number, got {message_repr(tol)}")
        tol_mp = mpmath.mpf(tol)

    family = result.family
    ridge_expr = None if result.ridge is None else sp.sympify(result.ridge)
    names = [p.name for p in family.free_parameters]
    if ridge_expr is not None and S.ridge in ridge_expr.free_symbols:
        names.append("lambda")
    by_symbol = {p.symbol: p.name for p in family.free_parameters}
    by_symbol[S.ridge] = "lambda"
    for sym in result.free_symbols:
        if by_symbol.get(sym) not in names:
            raise ParameterError(
                f"result has the free symbol {sym}, which is neither a free parameter of {family.describe()} "
                f"nor the ridge; verify cannot draw it"
            )
    check_budget("verify", verify_estimate(result.task.n, len(result.task.trials), n_points if names else 1, dps),
                 budget)
    name_to_symbol = {name: sym for sym, name in by_symbol.items()}
    bounds = _intervals(names, result, interval)
    rng = random.Random(seed)
    preds = dict(result.predictions)
    conditions = tuple(result.ridgeless_conditions)
    ridge_arg: Any = "ridgeless" if ridge_expr is None else ridge_expr

    def draw() -> dict[str, sp.Expr]:
        pt = {}
        for name in names:
            lo, hi = bounds[name]
            pt[name] = lo + (hi - lo) * sp.Rational(rng.randint(1, _DENOMINATOR - 1), _DENOMINATOR)
        return pt

    def exact_at(pt: dict[str, sp.Expr]) -> dict[Trial, sp.Expr] | None:
        """Exact closed forms at the point, or None when the point is not admissible."""
        fam = {k: v for k, v in pt.items() if k != "lambda"}
        if fam:
            try:
                family.with_values(**fam)
            except ParameterError:
                return None
        sub = {name_to_symbol[k]: v for k, v in pt.items()}
        for c in conditions:
            if sp.sympify(c).xreplace(sub) == 0:
                return None
        out = {}
        for t, expr in preds.items():
            v = sp.sympify(expr).xreplace(sub)
            if v.free_symbols:  # pragma: no cover - excluded by the free-symbol check above
                raise ParameterError(f"f{t} keeps the symbols {v.free_symbols} at {pt}")
            if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                return None
            out[t] = v
        return out

    with Progress(n=result.task.n) as progress:
        points: list[dict[str, sp.Expr]] = []
        exacts: list[dict[Trial, sp.Expr]] = []
        wanted = n_points if names else 1
        tries = 0
        while len(points) < wanted:
            tries += 1
            if tries > _MAX_TRIES * wanted:
                raise ParameterError(
                    f"verify could not draw {wanted} admissible points for {', '.join(names)} from "
                    + ", ".join(f"{k} in ({message_text(lo)}, {message_text(hi)})" for k, (lo, hi) in bounds.items())
                    + f" within the domain of {family.describe()}; pass a narrower interval"
                )
            pt = draw()
            progress.update("verify: exact values at the points", len(points), wanted)
            ex = exact_at(pt)
            if ex is not None:
                points.append(pt)
                exacts.append(ex)

        worst: tuple[Trial, int, sp.Expr, Any] | None = None
        point_errors: list[float] = []
        undecided: list[tuple[Trial, int]] = []
        n_cmp = 0
        with mpmath.workdps(dps):
            one = mpmath.mpf(1)
            floor = one * REL_ERROR_FLOOR
            max_abs = max_rel = 0 * one
            for k, (pt, ex) in enumerate(zip(points, exacts, strict=True)):
                progress.update("verify: mpmath solves", k, len(points))
                with warnings.catch_warnings():  # reported once below, as undecided comparisons
                    warnings.simplefilter("ignore", UntrustedNumericWarning)
                    num = numeric_predictions(result.task, family, point=pt, ridge=ridge_arg, precision=dps,
                                              trials=tuple(ex))
                flagged = set(getattr(num, "untrusted", ()))
                point_max = 0 * one
                for t, e in ex.items():
                    if t in flagged:
                        undecided.append((t, k))
                        continue
                    e_mp = _to_mpf(e, dps)
                    err = abs(e_mp - num[t])
                    rel = err / max(abs(e_mp), floor)
                    n_cmp += 1
                    if err > max_abs:
                        max_abs = err
                    if rel > point_max:
                        point_max = rel
                    if worst is None or rel > max_rel:
                        max_rel = rel
                        worst = (t, k, e, num[t])
                point_errors.append(float(point_max))
            agree = bool(max_rel < tol_mp)
            status = "disagree" if not agree else ("undecided" if undecided else "agree")
            if worst is None:  # every comparison undecided
                t_w, k_w = undecided[0]
                e_w, worst_numeric = exacts[k_w][t_w], "undecided"
            else:
                t_w, k_w, e_w, n_w = worst
                worst_numeric = mpmath.nstr(n_w, 20)
    if undecided:
        message = (f"verify: {len(undecided)} of {len(undecided) + n_cmp} comparisons undecided: the mpmath values "
                   f"of {sorted({t for t, _ in undecided})} could not be shown to meet their tolerance "
                   f"(status {status!r})")
        warnings.warn(UntrustedNumericWarning(message), stacklevel=2)
    label = f"{result.task.label()}, {family.describe()}, " + (
        "ridgeless" if ridge_expr is None else f"lambda={ridge_expr}"
    )
    frozen_points: tuple[FrozenMapping[str, sp.Expr], ...] = tuple(FrozenMapping(p) for p in points)
    return VerifyReport(
        label=label,
        dps=dps,
        tol=float(tol_mp),
        points=frozen_points,
        point_errors=tuple(point_errors),
        max_abs_error=float(max_abs),
        max_rel_error=float(max_rel),
        worst_trial=t_w,
        worst_point=frozen_points[k_w],
        worst_exact=str(e_w),
        worst_exact_value=e_w,
        worst_numeric=worst_numeric,
        n_comparisons=n_cmp,
        ridgeless=ridge_expr is None,
        ok=status == "agree",
        status=status,
        undecided=tuple(undecided),
    )
