r"""Critical conjunctivity: the alpha at which each test trial of an exchangeable kernel starts to fail.

For the exchangeable family every test-trial prediction is a rank difference ``f(i, j) = r_i - r_j``, and the
ranks depend on ``alpha``, the ridge ``lambda`` and ``kappa_d`` only through the effective ridge

    gamma = 2 (alpha + lambda') / (1 - alpha),      lambda' = lambda / (1 - kappa_d)

(docs/theory.md#graph-laplacian-reduction). The margin of a test trial has the sign of one integer polynomial
in gamma on ``gamma > 0`` (:mod:`.gamma`), and as ``alpha`` grows from 0 to 1 at a fixed ridge, ``gamma``
grows monotonically from ``2 lambda'`` to infinity, so each positive root ``gamma* >= 2 lambda'`` of odd
multiplicity is a critical conjunctivity

    alpha* = (gamma* - 2 lambda') / (gamma* + 2),

one integer polynomial per trial serving every ridge and every ``kappa_d`` at once. Derived in
docs/critical_conjunctivity.md, which also states what is certified and how. The roots come from the one
real-root engine :mod:`symbolic_ti.analysis.roots`; the report classes live in :mod:`.conjunctivity_report`,
the gamma analysis in :mod:`.gamma`, the gamma <-> alpha map in :mod:`.effective_ridge` (all re-exported here).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arguments import exact_number, resolve_trials
from ..errors import ParameterError
from ..task import Task
from .conjunctivity_report import AlphaCrossing, ConjunctivityReport, FailureGroup, TrialConjunctivity
from .effective_ridge import alpha_from_gamma, gamma_from_alpha, rescaled_ridge
from .gamma import GammaAnalysis, GammaRoot, TrialGammas, critical_gammas, margin_gammas
from .roots import ROOT_ORDER, RealRoot

from ..deprecation import moved_names

# names this module had before the split (symbolic_ti 0.1): from their modules, with a DeprecationWarning, until 0.3
__getattr__ = moved_names(__name__, {"parse_ridge": "symbolic_ti.arguments", "TaskError": "symbolic_ti.errors",
                                     "GAMMA": "symbolic_ti.solvers.laplacian",
                                     "RankSolution": "symbolic_ti.solvers.laplacian",
                                     "rank_solution": "symbolic_ti.solvers.laplacian"})

__all__ = [
    "GammaRoot", "TrialGammas", "GammaAnalysis", "critical_gammas", "margin_gammas",
    "AlphaCrossing", "TrialConjunctivity", "FailureGroup", "ConjunctivityReport", "critical_conjunctivity",
    "alpha_from_gamma", "gamma_from_alpha", "rescaled_ridge",
]

Trial = tuple[int, int]


def critical_conjunctivity(task: Task, ridge: Any = "ridgeless", kappa_d: Any = 0, *, trials: Any = None,
                           gammas: dict[Trial, TrialGammas] | None = None) -> ConjunctivityReport:
    r"""Critical conjunctivities ``alpha*`` at which the test trials fail, exchangeable family, exactly.

    Parameters
    ----------
    task : Task
    ridge : "ridgeless", None, 0 or a rational number >= 0
        The ridge ``lambda`` (decimals read exactly: ``0.1`` is 1/10).
    kappa_d : rational in [0, 1), default 0
        Enters only through ``lambda' = lambda / (1 - kappa_d)``.
    trials : list of (i, j), optional
        Test trials with ground truth; default all of them.
    gammas : dict, optional
        A precomputed :func:`critical_gammas` of ``task`` covering ``trials`` (reused across ridges).

    Returns
    -------
    ConjunctivityReport
        Per trial the crossings ``alpha*`` in ``(0, 1)`` (``alpha* = (gamma* - 2 lambda')/(gamma* + 2)`` for the
        roots ``gamma* > 2 lambda'``), whether it is wrong as ``alpha -> 0+`` and as ``alpha -> 1``; the
        failure groups, the first failing trials and ``alpha*_first``.

    Raises
    ------
    ParameterError
        For a negative or irrational ridge, or ``kappa_d`` outside ``[0, 1)``; for ``gammas`` of another task
        or not covering ``trials``.
    TaskError
        For a training trial or a trial without ground truth.

    Notes
    -----
    Agrees with ``symbolic_ti.critical_values(derive(n, exceptions, ridge=ridge), "alpha", (0, 1),
    method="generic")`` on test trials (tests/test_conjunctivity.py), much faster: one univariate integer
    polynomial per trial, shared by all ridges. Crossings exactly at ``alpha = 0`` (``gamma* = 2 lambda'``) are
    not crossings in ``(0, 1)``; they decide ``wrong_at_start``. See docs/critical_conjunctivity.md.

    Examples
    --------
    >>> rep = critical_conjunctivity(Task(9, ["6>4"]), "ridgeless")
    >>> rep.alpha_first, rep.first_failing[:2]
    (4/3 - sqrt(13)/3, ((3, 6), (4, 7)))
    """
    start = time.perf_counter()
    if not isinstance(task, Task):
        raise ParameterError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    lam = rescaled_ridge(ridge, kappa_d)
    kd = sp.Rational(exact_number(kappa_d, "kappa_d"))
    ridge_value = None if lam == 0 else sp.Rational(exact_number(ridge, "ridge"))
    if gammas is None:  # critical_gammas validates the trials, once
        gammas = critical_gammas(task, trials)
        chosen = list(gammas)
    else:
        chosen = resolve_trials(task, trials, test_only=True)
        if getattr(gammas, "task", None) != task:
            other = getattr(gammas, "task", None)
            raise ParameterError(
                "gammas must come from critical_gammas(task) for this task "
                f"({task.label()}), got an analysis of {other.label() if other is not None else 'an unknown task'}")
    missing = [t for t in chosen if t not in gammas]
    if missing:
        raise ParameterError(f"gammas does not cover the trials {missing[:5]}")
    g0 = Fraction(2 * int(lam.p), int(lam.q))  # gamma at alpha = 0
    notes: list[str] = []
    entries: list[TrialConjunctivity] = []
    first: dict[Trial, RealRoot] = {}
    for t in chosen:
        tg = gammas[t]
        if tg.sign_at_zero == 0:
            notes.append(f"the margin of {t} is identically zero")
        sign = tg.sign_at_zero
        crossings = []
        for r in tg.roots:
            c = r._root.compare_rational(g0)
            if c <= 0:  # at or below alpha = 0: decides the sign as alpha -> 0+
                if c == 0:
                    notes.append(f"the margin of {t} vanishes exactly at alpha = 0 (gamma = {g0})")
                sign = -sign
                continue
            crossings.append(AlphaCrossing(t, r.direction, lam, r._root))
        wrong_start = sign < 0
        if not wrong_start:
            fe = next((c for c in crossings if c.direction == "to_error"), None)
            if fe is not None:
                first[t] = fe._root
        entries.append(TrialConjunctivity(t, tg.category, tuple(crossings), wrong_start, tg.sign_at_infinity < 0))
    groups: list[FailureGroup] = []
    at_start = tuple(e.trial for e in entries if e.wrong_at_start)
    if at_start:
        groups.append(FailureGroup(True, at_start, lam))
    by_root: dict[int, list[Trial]] = {}
    roots: dict[int, RealRoot] = {}
    for t, root in first.items():
        by_root.setdefault(id(root), []).append(t)
        roots[id(root)] = root
    for root in sorted(roots.values(), key=ROOT_ORDER):
        groups.append(FailureGroup(False, tuple(by_root[id(root)]), lam, root))
    return ConjunctivityReport(task, ridge_value, kd, lam, tuple(entries), tuple(groups),
                               tuple(dict.fromkeys(notes)), time.perf_counter() - start)
