"""The short public API: ``derive`` does what ``symbolic-ti derive`` does."""

from __future__ import annotations


from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal, overload

from .arguments import ARGUMENTS, ExactLike, IntervalLike, RidgeLike, TrialsLike, check_mapping
from .budgets import DEFAULT, BudgetLike
from .errors import ParameterError
from .families import Family, make_family
from .results import Result
from .solvers.dispatch import solve
from .task import ExceptionLike, Task

if TYPE_CHECKING:  # pragma: no cover
    from .analysis.crossings import CriticalReport
    from .dynamics import CriticalTimes

__all__ = ["derive", "make_family", "critical"]  # make_family: from symbolic_ti.families


def derive(
    n: int | Task,
    exceptions: Iterable[ExceptionLike] = (),
    *,
    family: str | Family = "exchangeable",
    parameters: Mapping[str, ExactLike] | None = None,
    ridge: RidgeLike = None,
    method: str = "auto",
    ridgeless_method: str = "auto",
    budget: BudgetLike = DEFAULT,
) -> Result:
    """Exact kernel ridge predictions of every trial of a TI task, as closed forms.

    Parameters
    ----------
    n : int or Task
        Number of items, ``n >= 3``; or a :class:`~symbolic_ti.task.Task` of any paradigm
        (:meth:`~symbolic_ti.task.Task.paradigm`, :meth:`~symbolic_ti.task.Task.from_comparisons`,
        :meth:`~symbolic_ti.task.Task.from_file`), then without ``exceptions``.
    exceptions : iterable of ``"W>L"`` or ``(W, L)``
        Exceptions, each with ``L + 2 <= W <= n``.
    family : str or Family
        Representation family name (see ``symbolic-ti families``) or instance.
    parameters : mapping name -> value, optional
        Exact values of family parameters, e.g. ``{"alpha": "1/10"}``; decimals are read exactly. Parameters
        not given stay symbolic.
    ridge : number, str or None
        ``None`` keeps the ridge symbolic; a number ``>= 0``; ``"ridgeless"`` (or 0) for ``lambda -> 0+``.
    method : {"auto", "laplacian", "halved", "full"}
        Solver method, see :func:`symbolic_ti.solve` (auto: the graph-Laplacian reduction for
        exchangeable kernels).
    ridgeless_method : {"auto", "pinv", "limit"}
        How a dense path takes the ridgeless limit (see :func:`symbolic_ti.solve`): ``"pinv"`` is much
        faster for symbolic item geometries, ``"limit"`` (auto when parameters are symbolic) also records where
        the generic formulas hold.
    budget : DEFAULT, None or float
        Seconds of CPU, estimated before the work from the input sizes (:mod:`symbolic_ti.budgets`,
        docs/performance.md#budgets), above which the solve is refused (the exact kernel values of a deep
        network family, and the solve itself: :func:`symbolic_ti.solve`); ``None`` runs anyway. The closed
        forms themselves are built on access.

    Returns
    -------
    Result

    Raises
    ------
    TaskError, FamilyError, ParameterError, SolveError
        For invalid input; each message names the argument and what is allowed.
    BudgetError
        If the estimated cost is above ``budget`` (the message gives both).

    Examples
    --------
    >>> r = derive(4, family="exchangeable", parameters={"alpha": 0}, ridge=1)
    >>> r.f(1, 4)
    5/7
    """
    task = Task.of(n, exceptions)  # Task reads any iterable and says what it expected
    return solve(task, make_family(family, parameters), ridge, method=method, ridgeless_method=ridgeless_method,
                 budget=budget)


@overload
def critical(n: int | Task, exceptions: Iterable[ExceptionLike] = (), *, parameter: Literal["time"],  # type: ignore[overload-overlap]
             trials: TrialsLike = None, family: str | Family = "exchangeable",
             parameters: Mapping[str, ExactLike] | None = None, ridge: RidgeLike = None,
             interval: IntervalLike = None, budget: BudgetLike = DEFAULT) -> CriticalTimes: ...
@overload
def critical(n: int | Task, exceptions: Iterable[ExceptionLike] = (), *, parameter: str, trials: TrialsLike = None,
             family: str | Family = "exchangeable", parameters: Mapping[str, ExactLike] | None = None,
             ridge: RidgeLike = None, interval: IntervalLike = None,
             budget: BudgetLike = DEFAULT) -> CriticalReport: ...
def critical(
    n: int | Task,
    exceptions: Iterable[ExceptionLike] = (),
    *,
    parameter: str,
    trials: TrialsLike = None,
    family: str | Family = "exchangeable",
    parameters: Mapping[str, ExactLike] | None = None,
    ridge: RidgeLike = None,
    interval: IntervalLike = None,
    budget: BudgetLike = DEFAULT,
) -> CriticalReport | CriticalTimes:
    """Critical values of one parameter: where the margins of a TI task change sign, exactly.

    Derives the result with :func:`derive` (leaving ``parameter`` symbolic) and calls
    :func:`symbolic_ti.critical_values`.

    Parameters
    ----------
    n : int or Task
        Number of items, ``n >= 3``; or a :class:`~symbolic_ti.task.Task` of any paradigm
        (:meth:`~symbolic_ti.task.Task.paradigm`, :meth:`~symbolic_ti.task.Task.from_comparisons`,
        :meth:`~symbolic_ti.task.Task.from_file`), then without ``exceptions``.
    exceptions : iterable of ``"W>L"`` or ``(W, L)``
        Exceptions, each with ``L + 2 <= W <= n``.
    parameter : str
        The parameter to scan: a family parameter name (exchangeable: ``"alpha"`` in [0, 1], ``"kappa_o"``,
        ``"kappa_d"`` in [0, 1)) or ``"lambda"`` / ``"ridge"`` for the ridge, in [0, oo). A family parameter
        not given in ``parameters`` is left symbolic automatically. ``"time"``: the gradient-flow training time
        (as ``symbolic-ti critical -p time``): the certified critical times of
        :func:`symbolic_ti.dynamics.critical_times`, every parameter a number, no ridge if ``ridge`` is None.
    trials : list of (i, j), optional
        Trials to analyse; default every trial with a margin. With item labels, items may be named:
        ``[("E", "F")]`` or ``["E>F"]`` (:meth:`symbolic_ti.task.Task.check_trial`); a task's own test trials
        are ``trials=task.default_trials``.
    family : str or Family
        Representation family name or instance.
    parameters : mapping name -> value, optional
        Exact values of the other family parameters (decimals read exactly). Parameters not given stay
        symbolic; then crossings are closed forms in them with undecided direction.
    ridge : number, str or None
        ``None`` keeps the ridge symbolic (required for ``parameter="lambda"``); a number ``>= 0``;
        ``"ridgeless"`` (or 0) for the limit ``lambda -> 0+``.
    interval : pair (a, b), optional
        Exact end points with ``a < b`` inside the parameter's domain (``b`` may be ``"oo"``); default the
        domain.
    budget : DEFAULT, None or float
        As for :func:`derive` (the exact kernel values of a deep network family).

    Returns
    -------
    CriticalReport
        Or :class:`~symbolic_ti.dynamics.CriticalTimes` for ``parameter="time"`` (the crossings inside
        ``interval`` of time, default ``(0, oo)``).

    Raises
    ------
    TaskError
        For an invalid task or trial, or a trial without ground truth.
    FamilyError
        For an unknown family.
    ParameterError
        If ``parameter`` is not a parameter of the family nor the ridge, is fixed to a value (in
        ``parameters``, the family instance or ``ridge``), or ``interval`` is invalid or outside the domain.

    Notes
    -----
    Derived here, see docs/theory.md#critical-values.

    Examples
    --------
    >>> rep = critical(9, ["6>4"], parameter="alpha", ridge="ridgeless", trials=[(3, 6)])
    >>> rep.trials[0].crossings[0].value
    4/3 - sqrt(13)/3
    """
    from .analysis.crossings import critical_values  # (here: derive alone needs none of the analysis)
    from .analysis.parameters import check_parameter
    from .arguments import parse_interval, parse_ridge, resolve_trials

    if not isinstance(parameter, str):
        raise ParameterError(f"parameter must be {ARGUMENTS['parameter'].allowed}, got {parameter!r}")
    params = check_mapping(parameters, "parameters")
    name = parameter.strip()
    if name == "time":  # gradient-flow training time: symbolic-ti critical -p time
        return _critical_times(n, exceptions, trials, family, params, ridge, interval, budget)
    fam = make_family(family, params)
    given = set(params) | (set(fam.values) if isinstance(family, Family) else set())
    if name not in ("lambda", "ridge") and name not in given and name in {p.name for p in fam.parameters}:
        params[name] = "symbolic"  # scan a family parameter that was not given: leave it symbolic
        fam = make_family(family, params)
    # fail on bad input before the (longer) exact solve; critical_values checks again on the result
    _, _, lower, upper = check_parameter(fam, parse_ridge(ridge), name)
    parse_interval(interval, name, lower, upper)
    task = Task.of(n, exceptions)
    resolve_trials(task, trials)
    result = derive(task, family=fam, ridge=ridge, budget=budget)
    return critical_values(result, name, interval=interval, trials=trials)


def _critical_times(n: int | Task, exceptions: Iterable[ExceptionLike], trials: TrialsLike, family: str | Family,
                    parameters: Mapping[str, ExactLike], ridge: RidgeLike, interval: IntervalLike,
                    budget: BudgetLike) -> CriticalTimes:
    """``critical(..., parameter="time")``: the certified critical times of the gradient flow (no weight decay
    without ``ridge``), keeping the crossings inside ``interval``."""
    import sympy as sp

    from .arguments import parse_interval
    from .dynamics import critical_times, dynamics

    bounds = None if interval is None else parse_interval(interval, "time", sp.Integer(0), sp.oo)
    d = dynamics(n, exceptions, family=family, parameters=parameters, ridge="ridgeless" if ridge is None else ridge,
                 budget=budget)
    report = critical_times(d, trials)
    return report if bounds is None else report.within(*bounds)
