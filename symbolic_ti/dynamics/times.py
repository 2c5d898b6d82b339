r"""Critical times of gradient flow: when each trial's margin changes sign, certified, and their order.

A margin ``m(t) = g f_t(x)`` is an exponential sum that starts at 0; :func:`.signs.scan_signs` isolates its sign
changes with ball arithmetic (no float root finder) and gives the sign just after 0 from the first nonzero
exact derivative. A level ``c`` of the exception margin is the sign change of ``m(t) - c``. Derived in
docs/theory.md#critical-times.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import sympy as sp

from ..arguments import exact_number
from ..display import Rendered
from ..errors import ParameterError
from ..families.base import Trial
from ..progress import Progress
from ..task import Task
from .evaluate import ArbTerms
from .certified import bits_of
from .result import Dynamics
from .signs import SignChange, SignScan, scan_signs
from ..formatting import rounded

__all__ = ["CriticalTime", "TrialTimes", "CriticalTimes", "critical_times", "level_time"]

_DIRECTION = {1: "to_correct", -1: "to_error", 0: "unresolved"}
_STATE = {1: "correct", -1: "wrong", 0: "zero"}


@dataclass(frozen=True)
class CriticalTime:
    """A certified sign change of one trial's margin: the only one in ``(lower, upper)``.

    Attributes
    ----------
    trial : (i, j)
    lower, upper : Fraction
        Rational bracket (relative width about 1e-12).
    direction : {"to_correct", "to_error", "unresolved"}
        The margin's sign after the time; ``unresolved``: a piece where neither a single simple root nor none
        could be certified (a tangency or an even root), reported rather than guessed.
    """

    trial: Trial
    lower: Fraction
    upper: Fraction
    direction: str

    @property
    def value(self) -> float:
        """The bracket's midpoint (display)."""
        return float((self.lower + self.upper) / 2)


@dataclass(frozen=True)
class TrialTimes:
    """One trial: its state just after ``t = 0``, its crossings in time order, and its final margin."""

    trial: Trial
    initial: str
    crossings: tuple[CriticalTime, ...]
    final: sp.Expr
    complete: bool


@dataclass(frozen=True)
class CriticalTimes(Rendered):
    """Critical times of every chosen trial and their order (:func:`critical_times`).

    Attributes
    ----------
    label : str
        The dynamics' description.
    trials : tuple of TrialTimes
    notes : tuple of str
        What could not be certified, if anything.
    """

    label: str
    trials: tuple[TrialTimes, ...]
    notes: tuple[str, ...] = ()

    @property
    def order(self) -> tuple[CriticalTime, ...]:
        """Every crossing, sorted by time (mirror trials (i, j), (j, i) share their times)."""
        return tuple(sorted((c for tt in self.trials for c in tt.crossings), key=lambda c: (c.lower, c.trial)))

    def within(self, lower: sp.Expr, upper: sp.Expr) -> CriticalTimes:
        """The same report with only the crossings certified inside the open interval ``(lower, upper)`` of time
        (``upper`` may be ``oo``)."""
        keep = tuple(TrialTimes(tt.trial, tt.initial, tuple(c for c in tt.crossings if lower < c.lower and
                                                            (upper is sp.oo or c.upper < upper)), tt.final,
                                tt.complete) for tt in self.trials)
        return CriticalTimes(self.label, keep, self.notes)

    def times_of(self, i: int, j: int) -> tuple[CriticalTime, ...]:
        """The crossings of trial ``(i, j)``."""
        for tt in self.trials:
            if tt.trial == (i, j):
                return tt.crossings
        raise ParameterError(f"trial {(i, j)} is not among the analysed trials")


def _scan(dyn: Dynamics, trial: Trial, shift: sp.Rational, g: int) -> SignScan:
    """Scan ``g f_t(trial) - shift`` (``g`` the ground truth). On the certified numeric path a scan with an
    unresolved piece or an uncertified tail is repeated at twice and four times the precision."""
    c = flint.arb(flint.fmpq(int(shift.p), int(shift.q)))

    def balls(prec: int) -> ArbTerms:
        return dyn.balls(trial, prec).shifted(g, c)

    value0 = -Fraction(int(shift.p), int(shift.q))
    if dyn.dps is None:
        return scan_signs(balls, value0, lambda j: g * dyn.derivative_at_zero(*trial, j))
    base = bits_of(dyn.dps)
    for prec in (base, 2 * base, 4 * base):
        scan = scan_signs(balls, value0, lambda j: g * dyn.derivative_at_zero(*trial, j), prec=prec)
        if scan.tail and all(ch.direction != 0 for ch in scan.changes) and scan.initial != 0:
            break
    return scan


def _times(trial: Trial, changes: tuple[SignChange, ...]) -> tuple[CriticalTime, ...]:
    return tuple(CriticalTime(trial, c.lower, c.upper, _DIRECTION[c.direction]) for c in changes)


def critical_times(dyn: Dynamics, trials: Any = None) -> CriticalTimes:
    """The times at which the margins of ``trials`` change sign, certified (module docstring).

    Parameters
    ----------
    dyn : Dynamics
        A numeric result (numbers for every parameter and the ridge).
    trials : list of (i, j), optional
        Default every trial with a target or ground truth.

    Returns
    -------
    CriticalTimes

    Raises
    ------
    ParameterError
        For a result with free parameters, or a trial without ground truth.
    """
    dyn._check_numeric("critical times")
    task: Task = dyn.task
    chosen = dyn.trials_with_margin(trials)
    out: list[TrialTimes] = []
    notes: list[str] = []
    with Progress(n=task.n) as progress:  # on a terminal only (symbolic_ti.progress)
        for done, x in enumerate(chosen):
            progress.update("critical times", done, len(chosen))
            out.append(_trial_times(dyn, x, notes))
    return CriticalTimes(dyn.label(), tuple(out), tuple(notes))


def _trial_times(dyn: Dynamics, x: Trial, notes: list[str]) -> TrialTimes:
    """The certified sign changes of one trial's margin (appends what could not be certified to ``notes``)."""
    task: Task = dyn.task
    g = task.ground_truth(x)
    assert g is not None
    scan = _scan(dyn, x, sp.Integer(0), g)
    ct = _times(x, scan.changes)
    if not scan.tail:
        notes.append(f"{x}: sign not certified constant after t = {rounded(float(scan.horizon), '.6g')}")
    if any(c.direction == "unresolved" for c in ct):
        notes.append(f"{x}: a piece without a certified simple root (possible tangency)"
                     + ("" if dyn.dps is None else f", even at {4 * dyn.dps} digits"))
    if scan.initial == 0 and dyn.dps is not None:
        notes.append(f"{x}: its sign just after t = 0 could not be certified at {4 * dyn.dps} digits")
    return TrialTimes(x, _STATE[scan.initial], ct, g * dyn.limits[x], scan.tail)


def level_time(dyn: Dynamics, level: Any, trial: Any = None) -> CriticalTime | None:
    """The first time at which a trial's margin reaches ``level`` (default the first exception's margin).

    Parameters
    ----------
    dyn : Dynamics
        A numeric result.
    level : number
        Exact level, read by :func:`symbolic_ti.arguments.exact_number`.
    trial : (i, j), optional
        Default the first exception ``(W, L)``.

    Returns
    -------
    CriticalTime or None
        The first certified crossing of ``m(t) = level`` (direction: the sign of ``m - level`` after it), or None
        if the margin never reaches it.

    Raises
    ------
    ParameterError
        Without an exception and without ``trial``, or for a trial without ground truth.
    """
    dyn._check_numeric("level times")
    lev = exact_number(level, "level")
    if not lev.is_Rational:
        raise ParameterError(f"level must be a rational number, got {lev}")
    if trial is None:
        if not dyn.task.exceptions:
            raise ParameterError("level time: the task has no exception; name a trial")
        e = dyn.task.exceptions[0]
        x = (e.winner, e.loser)
    else:
        x = dyn.task.check_trial(trial)
    g = dyn.task.ground_truth(x)
    if g is None:
        raise ParameterError(f"trial {x} has no ground truth, so no margin")
    scan = _scan(dyn, x, lev, g)
    return _times(x, scan.changes)[0] if scan.changes else None
