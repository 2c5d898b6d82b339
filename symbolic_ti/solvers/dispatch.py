"""Exact kernel ridge solutions: the one place where the solving method is chosen.

``method="auto"`` uses the graph-Laplacian reduction (``"laplacian"``) for exchangeable kernels, the
antisymmetric halving (``"halved"``) for other kernels that are swap invariant, checked exactly, and the full
system (``"full"``) otherwise. Every method stays callable by name; tests compare them. The Laplacian path
solves one univariate problem in the effective ridge gamma and builds each closed form on first access.
For the ridgeless limit, ``ridgeless_method="auto"`` is ``"pinv"`` (normal equations) when every parameter is
numeric, and ``"limit"`` (symbolic ridge, then lambda -> 0+ from the lowest-order terms) when parameters remain
symbolic, because only it also returns where the generic formulas hold. When every parameter and the ridge are
rational numbers, the chosen method solves over QQ in FLINT (:mod:`symbolic_ti.solvers.rational`), with the
same values. Each checks the other in the tests. On the dense paths, a system whose entries are polynomials over
QQ (a parameter or the ridge symbolic) is solved in FLINT and its closed forms are kept as polynomials, built on
access (:func:`symbolic_ti.solvers.dense.lazy_predictions`, :func:`~symbolic_ti.solvers.dense.lazy_ridgeless_limit`;
issue 17). Timings: benchmarks/bench_solve.py, benchmarks/bench_dense_poly.py, docs/performance.md.
"""

from __future__ import annotations

import functools
import time

import sympy as sp

from .. import symbols as S
from ..budgets import DEFAULT, BudgetLike, check_budget, mirror_symmetric, resolve_budget, solve_estimate
from ..arguments import RidgeLike, RIDGELESS_METHODS, SOLVE_METHODS, check_choice, parse_ridge
from ..errors import ParameterError, SolveError
from ..families.base import Family
from ..gram import GramSystem, build_system, is_swap_invariant
from ..results import LazyPredictions, Result, register_substitution
from ..task import Task
from .dense import (condition_factors, flint_applies, lazy_predictions, lazy_ridgeless_limit, predict_ridge,
                    predict_ridgeless_pinv, ridgeless_limit, uses_flint)
from . import algebraic, rational, substitute
from .graph_ranks import check_rank_task
from .laplacian import laplacian_predictor

__all__ = ["solve", "RIDGELESS", "planned_method", "derive_plan", "input_digits"]

#: Pass as ``ridge`` to ask for the ridgeless limit lambda -> 0+.
RIDGELESS = "ridgeless"

def solve(
    task: Task,
    family: Family,
    ridge: RidgeLike = None,
    *,
    method: str = "auto",
    ridgeless_method: str = "auto",
    budget: BudgetLike = DEFAULT,
) -> Result:
    """Solve kernel ridge regression on a TI task exactly and return every prediction.

    Parameters
    ----------
    task : Task
        Items and exceptions.
    family : Family
        Representation family with some parameters bound; unbound ones stay symbolic.
    ridge : number, str, sympy expression, or None
        ``None`` (default) leaves the ridge symbolic (Symbol ``lambda``); a number ``>= 0`` (read exactly, so
        ``0.1`` is 1/10); ``"ridgeless"`` (or 0) for the limit ``lambda -> 0+``.
    method : {"auto", "laplacian", "halved", "full"}
        ``"laplacian"`` uses the graph-Laplacian reduction (exchangeable kernels only,
        docs/theory.md#graph-laplacian-reduction); ``"halved"`` uses the antisymmetry of the targets (requires
        a swap-invariant kernel); ``"full"`` solves the full system; ``"auto"`` picks the first that applies.
    ridgeless_method : {"auto", "pinv", "limit"}
        How the ridgeless limit is taken on the dense paths (see :mod:`symbolic_ti.solvers.dense`); naming one
        makes ``method="auto"`` use a dense path.
    budget : DEFAULT, None or float
        Seconds of CPU (estimated before the work from the input sizes on the reference machine,
        :mod:`symbolic_ti.budgets`) above which the solve is refused: the exact kernel values of a family whose
        cost grows with a parameter (a network's depth), and the solve itself
        (:func:`symbolic_ti.budgets.solve_estimate`: the method, n, the exceptions, the free symbols; closed
        forms are built on access and not counted). ``None`` runs anyway; default
        :data:`symbolic_ti.budgets.DEFAULT_SECONDS`.

    Returns
    -------
    Result
        Canceled rational functions ``f(i, j)`` of the free parameters for every ordered trial.

    Raises
    ------
    ParameterError
        For an invalid ridge or method name.
    BudgetError
        If the family's estimated exact cost (:meth:`Family.exact_cost`) or the solve's
        (:func:`symbolic_ti.budgets.solve_estimate`) is above ``budget``; the message gives both.
    SolveError
        If ``method="halved"`` is asked for a kernel that is not swap invariant, ``method="laplacian"`` for a
        kernel that is not exchangeable or for a task with counts other than 1, or the system is singular at a
        given positive ridge.

    Notes
    -----
    ``f(x) = k(x)^T (K + lambda I)^{-1} y`` with the ridge on the sum of squared errors
    (docs/conventions.md). Derived here, see docs/theory.md.
    """
    if not isinstance(task, Task):
        raise ParameterError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    if not isinstance(family, Family):
        raise ParameterError(f"family must be a symbolic_ti Family (e.g. Exchangeable(alpha=...)), got {family!r}")
    check_choice(method, "method", SOLVE_METHODS)
    check_choice(ridgeless_method, "ridgeless_method", RIDGELESS_METHODS)
    lam = parse_ridge(ridge)
    resolve_budget(budget)  # an invalid budget is refused whether or not a cost model applies
    family.check_task(task)  # e.g. an item-similarity matrix of another size than n
    cost = family.exact_cost()
    if cost is not None:
        check_budget(f"exact kernel values of {family.name}", cost, budget)
    if resolve_budget(budget) is not None:  # the solve's own cost, from the sizes (docs/performance.md#budgets)
        plan = _plan(task, family, lam, method, ridgeless_method)
        check_budget("solve", solve_estimate(task.n, _symbolic(family, lam), **plan), budget)  # type: ignore[arg-type]
    if family.numeric_only:  # float data (families/data/similarity.py): no exact kernel
        from ..numeric.predictions import numeric_result

        return numeric_result(task, family, lam, method=method)
    point = algebraic.algebraic_values(task, family, lam) if ridgeless_method == "auto" else {}
    if point and not family.exchangeable:  # issue 16: irrational algebraic values, solvers/algebraic.py
        return algebraic.solve_at_algebraic(task, family, lam, point, solve, method)
    start = time.perf_counter()
    kernel = functools.cache(family.kernel)  # the swap check and the system read the same entries
    if method == "auto":
        chosen = planned_method(family, lam, ridgeless_method, task)
        if chosen == "halved" and not is_swap_invariant(task, family, kernel):
            chosen = "full"
    else:
        chosen = method
        if chosen == "halved" and not is_swap_invariant(task, family, kernel):
            raise SolveError(f"method 'halved' needs a swap-invariant kernel; {family.describe()} is not")
        if chosen == "laplacian" and not family.exchangeable:
            raise SolveError(f"method 'laplacian' needs an exchangeable kernel; {family.describe()} is not")
        if chosen == "laplacian":
            check_rank_task(task)  # counts other than 1: the rank problem is not univariate in gamma
    if chosen == "laplacian":
        qq_predict = rational.laplacian_rational_predictor(task, family, lam)  # every parameter a rational
        if qq_predict is not None:
            predict, lap_conditions, syms = qq_predict, (), set()
        else:
            predict, lap_conditions, _ = laplacian_predictor(task, family, lam)
            if lam is None:  # the scale and kappa_d only rescale the (vanishing) ridge
                syms = set(sp.sympify(family.exchangeable_form()[1]).free_symbols)
            else:
                syms = set(family.free_symbols) | set(lam.free_symbols)
        lazy = LazyPredictions(task.trials, predict, tuple(syms))
        return Result(task=task, family=family, ridge=lam, predictions=lazy,
                      method="laplacian" if lam is not None else "laplacian/limit",
                      ridgeless_conditions=lap_conditions, seconds=time.perf_counter() - start)
    halved = chosen == "halved"
    conditions: tuple[sp.Expr, ...] = ()
    if lam is None:
        if family.free_symbols and S.ridge in family.free_symbols:  # pragma: no cover - no family uses lambda
            raise SolveError("a family parameter cannot use the ridge Symbol lambda")
        rmethod = ridgeless_method
        if rmethod == "auto":
            rmethod = "limit" if family.free_symbols else "pinv"
        if rmethod == "pinv":
            system = build_system(task, family, None, halved, kernel=kernel)
            values = _rational_values(system) or predict_ridgeless_pinv(system)
        else:
            system = build_system(task, family, S.ridge, halved, kernel=kernel)
            if flint_applies(system):  # the limit in FLINT, closed forms kept as polynomials (issue 17)
                lazy, conditions = lazy_ridgeless_limit(system)
                return Result(task=task, family=family, ridge=lam, predictions=lazy, method=f"{chosen}/limit",
                              ridgeless_conditions=conditions, seconds=time.perf_counter() - start)
            pairs = [ridgeless_limit(v, S.ridge) for v in predict_ridge(system)]
            values = [v for v, _ in pairs]
            conditions = condition_factors([c for _, c in pairs])
    else:
        rmethod = None
        system = build_system(task, family, lam, halved, kernel=kernel)
        if flint_applies(system):  # closed forms built on access; f(j, i) = -f(i, j) when halved
            lazy = lazy_predictions(system, tuple(set(family.free_symbols) | set(lam.free_symbols)))
            return Result(task=task, family=family, ridge=lam, predictions=lazy,
                          method=f"{chosen}/flint" if uses_flint(system) else chosen,
                          ridgeless_conditions=(), seconds=time.perf_counter() - start)
        values = _rational_values(system) or predict_ridge(system)
    preds = dict(zip(system.queries, values, strict=True))
    return Result(
        task=task,
        family=family,
        ridge=lam,
        predictions=preds,
        method=chosen if rmethod is None else f"{chosen}/{rmethod}",
        ridgeless_conditions=conditions,
        seconds=time.perf_counter() - start,
    )


def planned_method(family: Family, lam: sp.Expr | None, ridgeless_method: str = "auto",
                   task: Task | None = None) -> str:
    """The method ``solve(method="auto")`` takes, as far as it is decided without reading the kernel's entries.

    ``"laplacian"`` for an exchangeable family (unless a ridgeless method is named, or ``task`` has counts other
    than 1: the rank problem is then not univariate in gamma, docs/theory.md#graph-laplacian-reduction),
    ``"halved"`` for a family that declares swap invariance (:func:`solve` then checks it exactly and takes
    ``"full"`` if the check fails), ``"full"`` otherwise. :func:`solve` and the cost models of
    :mod:`symbolic_ti.budgets` (through :func:`derive_plan`) both ask this.
    """
    counts = task is not None and not task.uniform_counts
    if family.exchangeable and (lam is not None or ridgeless_method == "auto") and not counts:
        return "laplacian"
    return "halved" if family.swap_invariant else "full"


def derive_plan(task: Task, family: Family, ridge: RidgeLike = None, *, method: str = "auto",
                ridgeless_method: str = "auto") -> dict[str, object]:
    """What the cost of solving ``task`` depends on, read from the same facts :func:`solve` decides by: the
    method (:func:`planned_method`, or ``method`` when one is named), the number of free symbols (the family's
    and a symbolic ridge), whether the exceptions are mirror symmetric
    (:func:`symbolic_ti.budgets.mirror_symmetric`) and, on the dense paths, the degree of the kernel between the
    two farthest trials in the free symbols (``rho^(n-1)`` in the geometric family: the degree grows with n) and,
    on the Laplacian path of a comparison graph that is not the TI design, its number of comparisons
    (``graph``: the symbolic rank solve of :mod:`symbolic_ti.solvers.graph_ranks`, 0 otherwise).
    Keywords of :func:`symbolic_ti.budgets.derive_estimate`."""
    return _plan(task, family, parse_ridge(ridge), method, ridgeless_method)


def _symbolic(family: Family, lam: sp.Expr | None) -> bool:
    """Whether a free symbol is left (a family parameter or the ridge; ``lam`` None is the ridgeless limit)."""
    return bool(family.free_symbols) or (lam is not None and bool(lam.free_symbols))


def _plan(task: Task, family: Family, lam: sp.Expr | None, method: str = "auto",
          ridgeless_method: str = "auto") -> dict[str, object]:
    """:func:`derive_plan` of a parsed ridge (``None``: the ridgeless limit)."""
    syms = set(family.free_symbols)
    if family.numeric_only:
        method = "float"
    elif method == "auto":
        method = planned_method(family, lam, ridgeless_method, task=task)
    degree = 0
    if method in ("halved", "full") and syms:
        try:
            k = sp.expand(sp.sympify(family.kernel((1, task.n), (task.n, 1))))
            degree = max(0, sp.Poly(k, *sorted(syms, key=str)).total_degree())  # a zero entry: degree 0
        except Exception:  # noqa: BLE001 - not a polynomial (or no exact entry): as if the degree grew with n
            degree = task.n
    free = len(syms | (set(lam.free_symbols) if lam is not None else set()))  # lam None: the ridgeless limit
    # the dense system has one row per comparison (halved): n - 1 + exceptions for the TI design; any other task
    # is counted by its comparisons, so that the rows of derive_estimate are the system's
    extra = len(task.exceptions) if task.is_ti_design else len(task.comparisons) - (task.n - 1)
    graph = len(task.comparisons) if method == "laplacian" and not task.is_ti_design else 0
    return {"method": method, "free": free, "degree": degree, "exceptions": extra,
            "mirror": mirror_symmetric(task.n, [(e.winner, e.loser) for e in task.exceptions]),
            "digits": input_digits(family, lam), "graph": graph}


def input_digits(family: Family, lam: sp.Expr | None) -> int:
    """The most decimal digits of a numerator or denominator among the exact numbers given (the family's values
    and the ridge; ``10**5000`` has 5,001): the closed forms' numbers grow with them (docs/performance.md#budgets).
    """
    values = [v for v in family.values.values() if isinstance(v, sp.Basic)] + ([lam] if lam is not None else [])
    bits = 0
    for v in values:
        for q in v.atoms(sp.Rational):
            bits = max(bits, int(abs(q.p)).bit_length(), int(q.q).bit_length())
    return bits * 30103 // 100000 + 1 if bits else 0


def _rational_values(system: GramSystem) -> list[sp.Expr] | None:
    """Predictions of a Gram system over ZZ or QQ solved in FLINT's ``fmpq_mat``
    (:mod:`symbolic_ti.solvers.rational`), or ``None`` when its entries are not all rational numbers."""
    try:
        return rational.dense_rational_predictions(system)
    except ZeroDivisionError:
        raise SolveError("the ridge system K + lambda I is singular at this ridge") from None


# Result.subs solves again through this (symbolic_ti.results does not import the solvers; see its docstring).
register_substitution(functools.partial(substitute.subs, solve=solve))
