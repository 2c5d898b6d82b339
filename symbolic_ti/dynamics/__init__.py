r"""Learning dynamics in closed form: gradient-flow predictions over training time (docs/dynamics.md).

:func:`dynamics` gives every trial's ``f_t(i, j)`` as an exact sum of decaying modes (the graph-Laplacian
reduction for exchangeable kernels, the Gram matrix's eigenvalues otherwise), with certified critical times
(:mod:`.times`), the early-stopping window and the time <-> ridge correspondence (:mod:`.window`) and a fast
grid evaluation (:mod:`.timegrid`). Derived in docs/theory.md#gradient-flow-in-laplacian-modes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import sympy as sp

from ..arguments import ExactLike, RidgeLike, parse_ridge
from ..budgets import DEFAULT, BudgetLike, check_budget, resolve_budget
from ..digits import message_repr
from ..errors import ParameterError
from ..families import Family, make_family
from ..solvers.dispatch import solve
from ..task import ExceptionLike, Task
from .evaluate import is_rational_course, limit_exact
from .certified import gram_entries
from ..deprecation import moved_names
from .modes import EIGENVALUE, TimeCourse, equal_count, time_course
from .result import TIME, Dynamics, parse_time
from .timegrid import evaluate_grid
from .times import CriticalTime, CriticalTimes, TrialTimes, critical_times, level_time

__all__ = ["dynamics", "Dynamics", "TimeCourse", "TIME", "EIGENVALUE", "parse_time", "CriticalTime", "CriticalTimes",
           "TrialTimes", "critical_times", "level_time", "gradient_flow", "evaluate_grid"]

# MU, the eigenvalue variable's name before 0.2 (now EIGENVALUE, the Symbol nu): with a DeprecationWarning until 0.3
__getattr__ = moved_names(__name__, {"MU": "symbolic_ti.symbols:nu"})


def gradient_flow(task: Task, family: Family, ridge: RidgeLike = "ridgeless", *, method: str = "auto",
                  dps: int = 30, budget: BudgetLike = DEFAULT) -> Dynamics:
    """The gradient-flow :class:`Dynamics` of any task (any comparison graph, with counts) and family.

    With counts ``c_k`` (``C = diag(c)`` over the training trials) the flow minimises the weighted loss
    ``1/2 sum_k c_k (f_k - y_k)^2 + lambda/2 ||w||^2``, so that ``f_t(x) = k(x)^T a(t)`` with
    ``a(t) = (C K + lambda I)^{-1} (I - exp(-(C K + lambda I) t)) C y`` (derived in :mod:`.modes` and
    docs/theory.md#gradient-flow-with-counts); ``C = I`` is :func:`dynamics`' formula and ``t -> oo`` gives the
    ridge solution with counts, ``(K + lambda C^{-1})^{-1} y`` (ridgeless: its limit ``lambda -> 0+``). Equal
    counts take the Laplacian modes (exchangeable kernels, any comparison graph), unequal counts the modes of
    ``C`` times the Gram matrix, which need rational parameter values. Arguments, result and errors as
    :func:`dynamics`.

    Examples
    --------
    >>> from symbolic_ti.task import Task
    >>> tp = Task.paradigm("transverse-patterning", n=3)
    >>> d = gradient_flow(tp, make_family("exchangeable", {"alpha": 1}), 1)
    >>> d.f(1, 2, "oo")
    1/2
    """
    lam = parse_ridge(ridge)
    resolve_budget(budget)  # an invalid budget is refused whether or not a cost model applies
    cost = family.exact_cost()
    if cost is not None:
        check_budget(f"exact kernel values of {family.name}", cost, budget)
    if isinstance(dps, bool) or not isinstance(dps, int) or not 10 <= dps <= 1000:
        raise ParameterError(f"dps must be an integer number of digits from 10 to 1000, got {message_repr(dps)}")
    family.check_task(task)
    symbolic = bool(family.free_symbols) or (lam is not None and bool(sp.sympify(lam).free_symbols))
    course: TimeCourse | None = None
    generic = method in ("gram", "halved", "full") or (
        method == "auto" and (not family.exchangeable or equal_count(task) is None))  # unequal counts: C K modes
    entries = gram_entries(task, family) if generic and not symbolic else None
    if entries is None or entries.rational:
        course = time_course(task, family, lam, "gram" if generic else method)
    # else: an irrational Gram matrix: certified numeric modes only (docs/dynamics.md#the-certified-numeric-path)
    limits: Mapping[tuple[int, int], Any]
    if course is not None and is_rational_course(course):
        inverses: dict = {}
        limits = {x: limit_exact(course, x, inverses) for x in task.trials}
        return Dynamics(task, family, lam, course, limits, course.method)
    res = solve(task, family, "ridgeless" if lam is None else lam, budget=None)  # (checked above)
    limits = res.predictions  # built on access (the Laplacian path's closed forms are lazy)
    kind = course.method if course is not None else ("halved" if entries is not None and entries.halved else "full")
    dyn = Dynamics(task, family, lam, course, limits, kind, None if symbolic else dps)
    if entries is not None:
        dyn._balls["entries"] = entries
    return dyn


def dynamics(
    n: int | Task,
    exceptions: Iterable[ExceptionLike] = (),
    *,
    family: str | Family = "exchangeable",
    parameters: Mapping[str, ExactLike] | None = None,
    ridge: RidgeLike = "ridgeless",
    method: str = "auto",
    dps: int = 30,
    budget: BudgetLike = DEFAULT,
) -> Dynamics:
    """Exact gradient-flow predictions ``f_t(i, j)`` of every trial of a TI task, as functions of time.

    Gradient flow from zero output, unit learning rate, on ``1/2 sum_train (f - y)^2 + lambda/2 ||w||^2``
    (CONVENTIONS.md, "Gradient flow"): ``f_t(x) = k(x)^T (K + lambda I)^{-1} (I - exp(-(K + lambda I) t)) y``.
    For any other task (a paradigm, comparisons with counts) use :func:`gradient_flow`.

    Parameters
    ----------
    n : int or Task
        Number of items, ``n >= 3``; or a :class:`~symbolic_ti.task.Task` of any paradigm, then without
        ``exceptions``.
    exceptions : iterable of ``"W>L"`` or ``(W, L)``
        Exceptions, each with ``L + 2 <= W <= n``.
    family : str or Family
        Representation family name or instance. Exchangeable kernels may keep ``alpha`` (and the ridge) symbolic;
        other families keep no parameter symbolic (irrational values take the certified numeric path, ``dps``).
    parameters : mapping name -> value, optional
        Exact values of family parameters (decimals read exactly).
    ridge : number, str or None
        Weight decay ``lambda >= 0``: ``"ridgeless"``, 0 or None (default) for none, so that ``t -> oo`` gives the
        ridgeless limit; ``"lambda"`` for a symbolic ridge (exchangeable kernels).
    method : {"auto", "laplacian", "gram", "halved", "full"}
        ``"laplacian"``: the graph-Laplacian modes (exchangeable only); ``"gram"`` (``"halved"``, ``"full"``):
        the eigenvalues of the halved (or full) Gram matrix.
    dps : int
        Decimal digits (10 to 1000, default 30) of the certified numeric path, used for every number (values,
        signs, critical times) when the exact modes are not rational: an irrational Gram matrix (relu-nngp,
        relu-ntk through ``method="gram"``, algebraic parameter values, embeddings; then ``f`` at finite ``t``
        is a Float expression) or irrational rates of exact modes (relu-ntk's Laplacian modes). See
        :attr:`Dynamics.path`; exact results are unaffected.
    budget : DEFAULT, None or float
        Seconds of CPU (estimated from the input sizes, :mod:`symbolic_ti.budgets`) above which the exact kernel
        values of a deep network family are refused; ``None`` runs anyway.

    Returns
    -------
    Dynamics
        Immutable; ``f(i, j, t)``, ``margins_at(t)``, ``critical_times()``, ``early_stopping()``;
        ``path`` says whether its numbers are exact or certified numeric.

    Raises
    ------
    TaskError, FamilyError, ParameterError
        For invalid input (each message names the argument).
    BudgetError
        If the family's estimated exact cost is above ``budget``.

    Notes
    -----
    Derived in docs/theory.md#gradient-flow-in-laplacian-modes; at ``t = oo`` the predictions equal
    :func:`symbolic_ti.derive` exactly, at ``t = 0`` they are 0.

    Examples
    --------
    >>> d = dynamics(4, parameters={"alpha": 0})
    >>> d.f(1, 4, "oo")
    3
    """
    if method not in ("auto", "laplacian", "gram", "halved", "full"):
        raise ParameterError(f"method must be one of auto, laplacian, gram, halved, full, got {method!r}")
    task = Task.of(n, exceptions)  # Task reads any iterable and says what it expected
    return gradient_flow(task, make_family(family, parameters), ridge, method=method, dps=dps, budget=budget)
