r"""The early-stopping window and the correspondence between stopping time and ridge.

Between consecutive certified critical times (:mod:`.times`) the set of wrong trials is constant; the
**early-stopping window** of a target set is the union of the phases in which the wrong trials are exactly that
set (default: the test trials that fail first as conjunctivity grows,
:func:`symbolic_ti.analysis.conjunctivity.critical_conjunctivity`, for exchangeable kernels; otherwise the errors at
``t = oo``). Phase ends are brackets of critical times; a
window is reported from the upper end of the opening bracket to the lower end of the closing one, so every time
inside it is certified to have exactly those errors.

The **time <-> ridge correspondence** lists, for each trial, the ridges at which its ``t = oo`` margin changes sign
(:func:`symbolic_ti.critical_values` with ``parameter="lambda"``, exact algebraic numbers) next to the times at
which its gradient-flow margin changes sign. Gradient flow stopped at time ``t`` filters the mode of rate ``rho``
by ``1 - exp(-rho t)``, ridge ``lambda`` by ``rho / (rho + lambda)``; both are 1/2 at ``rho t = log 2`` and
``rho = lambda``, the heuristic ``lambda ~ log(2) / t`` that the table lets one check. Derived in docs/dynamics.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ..analysis.conjunctivity import critical_conjunctivity
from ..analysis.crossings import critical_values
from ..analysis.gamma import gamma_applies
from ..display import Rendered
from ..families.base import Trial
from ..solvers.dispatch import solve
from .result import Dynamics
from .times import CriticalTimes, critical_times
from ..formatting import rounded

__all__ = ["Phase", "RidgeFlip", "EarlyStopping", "early_stopping", "default_target"]


@dataclass(frozen=True)
class Phase:
    """A time interval ``(start, end)`` (``end`` None for ``oo``) on which the wrong trials are ``errors``."""

    start: Fraction
    end: Fraction | None
    errors: tuple[Trial, ...]


@dataclass(frozen=True)
class RidgeFlip:
    """One trial: its critical ridges (exact, at ``t = oo``) and its critical times (brackets' midpoints)."""

    trial: Trial
    ridges: tuple[sp.Expr, ...]
    ridge_directions: tuple[str, ...]
    times: tuple[float, ...]
    time_directions: tuple[str, ...]


@dataclass(frozen=True)
class EarlyStopping(Rendered):
    """Phases of constant errors, the window of a target set and the time <-> ridge table.

    Attributes
    ----------
    label : str
    target : tuple of trials
    phases : tuple of Phase
        All phases, in time order (the first starts at 0).
    windows : tuple of Phase
        The phases whose errors are exactly ``target``.
    ridge_table : tuple of RidgeFlip
        Empty unless asked for.
    notes : tuple of str
    """

    label: str
    target: tuple[Trial, ...]
    phases: tuple[Phase, ...]
    windows: tuple[Phase, ...]
    ridge_table: tuple[RidgeFlip, ...] = ()
    notes: tuple[str, ...] = ()


def default_target(dyn: Dynamics) -> tuple[Trial, ...]:
    """The test trials that fail first as conjunctivity grows (exchangeable kernels) at the dynamics' ridge and
    ``kappa_d``; for other kernels, and for exchangeable ones whose rescaled ridge is irrational (relu-nngp,
    relu-ntk with a ridge), and for tasks the effective-ridge analysis does not cover
    (:func:`symbolic_ti.analysis.gamma.gamma_applies`: counts, a comparison graph without a rank solution), the
    errors at ``t = oo``."""
    if dyn.family.exchangeable and gamma_applies(dyn.task) is None:
        scale, _, kd = dyn.family.exchangeable_form()
        if dyn.ridge is None:  # ridgeless: kappa_d and the scale do not change the predictions
            return tuple(critical_conjunctivity(dyn.task, "ridgeless", 0).first_failing)
        ridge = sp.cancel(dyn.ridge / scale)
        if ridge.is_Rational and sp.sympify(kd).is_Rational:
            return tuple(critical_conjunctivity(dyn.task, ridge, kd).first_failing)
    return dyn.errors_at("oo")


def _phases(rep: CriticalTimes) -> tuple[list[Phase], list[str]]:
    notes = []
    state = {tt.trial: tt.initial == "wrong" for tt in rep.trials}
    events = sorted({(c.lower, c.upper) for c in rep.order})
    for (a_lo, a_hi), (b_lo, _) in zip(events, events[1:], strict=False):
        if b_lo < a_hi:
            notes.append(f"critical times near {rounded(float(a_lo), '.6g')} and {rounded(float(b_lo), '.6g')} are not separated; "
                         "their order is not certified")
    phases, start = [], Fraction(0)
    for lo, hi in events:
        phases.append(Phase(start, lo, tuple(x for x, w in state.items() if w)))
        for c in rep.order:
            if (c.lower, c.upper) == (lo, hi):
                state[c.trial] = c.direction == "to_error"
        start = hi
    phases.append(Phase(start, None, tuple(x for x, w in state.items() if w)))
    return phases, notes


def _ridge_table(dyn: Dynamics, rep: CriticalTimes, trials: tuple[Trial, ...]) -> tuple[RidgeFlip, ...]:
    res = solve(dyn.task, dyn.family, None)  # symbolic ridge
    crit = critical_values(res, "lambda", trials=list(trials))
    by_trial = {tt.trial: tt for tt in rep.trials}
    out = []
    for tc in crit.trials:
        tt = by_trial[tc.trial]
        out.append(RidgeFlip(tc.trial, tuple(c.value for c in tc.crossings), tuple(c.direction for c in tc.crossings),
                             tuple(c.value for c in tt.crossings), tuple(c.direction for c in tt.crossings)))
    return tuple(out)


def early_stopping(dyn: Dynamics, errors: Any = None, *, ridges: bool = False,
                   times: CriticalTimes | None = None) -> EarlyStopping:
    """The early-stopping window of a set of errors, and optionally the time <-> ridge table.

    Parameters
    ----------
    dyn : Dynamics
        A numeric result.
    errors : list of (i, j), optional
        The target set of wrong trials (both orders are added); default :func:`default_target`.
    ridges : bool
        Also compute the ridge <-> time table for the trials that flip (exact critical ridges at the same
        family parameters).
    times : CriticalTimes, optional
        Reuse a :func:`critical_times` report of ``dyn``.

    Returns
    -------
    EarlyStopping

    Raises
    ------
    ParameterError
        For a result with free parameters or an invalid trial.
    """
    rep = times if times is not None else critical_times(dyn)
    if errors is None:
        target = set(default_target(dyn))
    else:
        target = set()
        for x in dyn.trials_with_margin(errors):
            target |= {x, (x[1], x[0])}
    phases, notes = _phases(rep)
    if any(not tt.complete for tt in rep.trials):
        notes.append("some margins are not certified constant at late times (see critical_times notes)")
    windows = tuple(p for p in phases if set(p.errors) == target)
    table: tuple[RidgeFlip, ...] = ()
    if ridges:
        flipping = tuple(tt.trial for tt in rep.trials if tt.crossings and tt.trial[0] < tt.trial[1])
        table = _ridge_table(dyn, rep, flipping) if flipping else ()
    return EarlyStopping(dyn.label(), tuple(sorted(target)), tuple(phases), windows, table, tuple(notes))
