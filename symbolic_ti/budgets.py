"""Budgets: the cost of a run estimated from its input sizes before the work, and refused above a stated limit.

Every entry point whose work grows with an input (the number of items, a network's depth, the number of times or
of random points) estimates its cost *before* the work, from the measured cost models of docs/performance.md
("Budgets"), and refuses with :class:`~symbolic_ti.errors.BudgetError` when the estimate is above its budget.
The estimate is a function of the input sizes only, never of timing or of the host's memory, so the same input
gets the same decision on every machine. Its unit is seconds of CPU on the project's reference machine (the
shared two-core machine of docs/performance.md); the message also names the size that drives it.

The default budget is :data:`DEFAULT_SECONDS`. ``budget=None`` in Python and ``--no-budget`` on the command line
run anyway; ``budget=SECONDS`` / ``--budget SECONDS`` set another limit.

Examples
--------
>>> check_budget("derive", Estimate(30.0, "all 3,660 closed forms"), DEFAULT)
>>> try:
...     check_budget("derive", Estimate(9100.0, "all 250,500 closed forms"), 60)
... except BudgetError as err:
...     print(err)  # doctest: +NORMALIZE_WHITESPACE
derive: estimated 2:31:40 h of CPU (all 250,500 closed forms), above the budget of 60 s
(docs/performance.md#budgets); pass budget=None to run it anyway, or a larger budget=SECONDS
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator
from typing import NamedTuple

from .errors import BudgetError, ParameterError

__all__ = ["DEFAULT_SECONDS", "DEFAULT", "BudgetLike", "Estimate", "resolve_budget", "check_budget",
           "override_hint", "format_seconds", "format_bytes", "derive_estimate", "layered_estimate",
           "dynamics_estimate", "verify_estimate"]

#: The default budget: estimated seconds of CPU on the reference machine (docs/performance.md#budgets).
DEFAULT_SECONDS = 120.0


class _Default:
    """The marker of the default budget (``budget=DEFAULT``, the default of every entry point)."""

    def __repr__(self) -> str:
        return "DEFAULT"


#: The default of every ``budget`` argument: :data:`DEFAULT_SECONDS`.
DEFAULT = _Default()

#: A budget as the API takes it: :data:`DEFAULT`, ``None`` (no limit) or a positive number of seconds.
BudgetLike = _Default | float | int | None

_HINT: contextvars.ContextVar[str] = contextvars.ContextVar(
    "symbolic_ti_budget_hint", default="pass budget=None to run it anyway, or a larger budget=SECONDS")


class Estimate(NamedTuple):
    """An estimated cost: ``seconds`` of CPU on the reference machine, and what drives it (``detail``)."""

    seconds: float
    detail: str


def format_seconds(seconds: float) -> str:
    """``1.5 s``, ``120 s``, ``12:05 min``, ``3:20:00 h``, or ``more than 10^k years`` beyond any run."""
    if not math.isfinite(seconds) or seconds > 3.15e10:  # a thousand years
        exponent = 3 if not math.isfinite(seconds) else max(3, int(math.log10(seconds / 3.15e7)))
        return f"more than 10^{exponent} years"
    if seconds < 600:
        return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}:{sec:02d} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{sec:02d} h"


def format_bytes(size: float) -> str:
    """``12 kB``, ``3.4 MB``, ``910 GB`` (powers of 1000)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if size < 1000 or unit == "PB":
            return f"{size:.3g} {unit}"
        size /= 1000
    raise AssertionError  # pragma: no cover


def resolve_budget(budget: BudgetLike, name: str = "budget") -> float | None:
    """The budget in seconds: :data:`DEFAULT_SECONDS` for :data:`DEFAULT`, ``None`` for no limit.

    Raises
    ------
    ParameterError
        For anything but DEFAULT, None or a positive finite number.
    """
    if budget is DEFAULT:
        return DEFAULT_SECONDS
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) or budget <= 0:
        raise ParameterError(f"{name} must be a positive number of seconds, or None for no limit, got {budget!r}")
    return float(budget)


@contextlib.contextmanager
def override_hint(text: str) -> Iterator[None]:
    """Within the block, refusals say ``text`` for how to run anyway (the CLI: ``--no-budget``)."""
    token = _HINT.set(text)
    try:
        yield
    finally:
        _HINT.reset(token)


def check_budget(what: str, estimate: Estimate, budget: BudgetLike) -> None:
    """Refuse ``what`` when its estimated cost is above ``budget`` (see the module docstring).

    Parameters
    ----------
    what : str
        The entry point and its argument, e.g. ``"derive"`` or ``"verify: n_points"``.
    estimate : Estimate
        From the entry point's cost model (docs/performance.md#budgets).
    budget : DEFAULT, None or positive float
        Seconds; None never refuses.

    Raises
    ------
    BudgetError
        With one line: the estimate, what drives it, the budget and how to run anyway.
    ParameterError
        For an invalid ``budget``.
    """
    limit = resolve_budget(budget)
    if limit is None or estimate.seconds <= limit:
        return
    raise BudgetError(f"{what}: estimated {format_seconds(estimate.seconds)} of CPU ({estimate.detail}), above the "
                      f"budget of {format_seconds(limit)} (docs/performance.md#budgets); {_HINT.get()}")


# ------------------------------------------------------------------------------------- cost models
# Each is measured on the reference machine (docs/performance.md#budgets gives the runs) and is a function of
# the input sizes only.

#: ``derive`` with every parameter a number: building all ``n (n - 1)`` exact predictions took 164 s of CPU at
#: n = 1001 (1.77 s at 201, 19.7 s at 501: about ``n^3``); each has about ``2.5 n`` digits.
NUMERIC_FORMS_SECONDS_1001 = 164.0
#: ``derive`` with a free symbol: solve, build and write every closed form of exchangeable n = 61 (alpha and
#: lambda symbolic, one exception): seconds of CPU and bytes written per format; both grow as ``n^4``.
SYMBOLIC_FORMS_AT_61: dict[str, tuple[float, float]] = {
    "json": (1.98, 200e6), "json-poly": (2.03, 108e6), "latex": (2.61, 168e6), "text": (1.99, 123e6),
    "gram": (1.99, 123e6),
}
#: ``derive --trial``: one symbolic closed form built as a sympy expression (``Result.f``) at n = 61 (0.070 s;
#: 4.9 s at n = 201), growing as ``n^4`` like its number of terms.
SYMBOLIC_FORM_SECONDS_AT_61 = 0.07
#: Network families (``relu-*``, ``pnas-*``, ``activation-*``): derive and print n = 5 at depth 2 took 4.3 s, and
#: each further layer multiplies it by about 6.8 (the nested closed forms are evaluated as trees).
LAYER_SECONDS_AT_2, LAYER_FACTOR = 4.3, 6.8
#: ``dynamics`` tables: seconds per printed value (one trial at one time) at n = 9; the modes grow with n.
DYNAMICS_CELL_SECONDS = 2.5e-4
#: ``verify``: seconds per comparison (one trial at one point, 50 digits) at n = 25 (1.8 ms; 1.1 ms at n = 9).
VERIFY_COMPARISON_SECONDS = 1.8e-3


def derive_estimate(n: int, symbolic: bool, fmt: str = "text", trials: int | None = None) -> Estimate:
    """Cost of ``derive`` writing the closed forms of ``n`` items (every trial, or ``trials`` of them).

    Parameters
    ----------
    n : int
        Number of items.
    symbolic : bool
        Whether any parameter or the ridge is left symbolic.
    fmt : {"text", "json", "json-poly", "latex", "gram"}
    trials : int, optional
        Number of trials written (``--trial``); default every ordered trial.
    """
    total = n * (n - 1)
    share = 1.0 if trials is None else min(1.0, trials / total)
    if symbolic and trials is not None:
        seconds = SYMBOLIC_FORM_SECONDS_AT_61 * trials * (n / 61) ** 4
        return Estimate(seconds, f"{trials:,} symbolic closed form{'s' if trials != 1 else ''} of n = {n}, "
                                 f"each about {SYMBOLIC_FORM_SECONDS_AT_61 * (n / 61) ** 4:.3g} s, growing as n^4")
    if symbolic:
        seconds, size = SYMBOLIC_FORMS_AT_61.get(fmt, SYMBOLIC_FORMS_AT_61["latex"])
        scale = (n / 61) ** 4 * share
        return Estimate(seconds * scale, f"{round(total * share):,} symbolic closed forms of n = {n}, about "
                                         f"{format_bytes(size * scale)} of {fmt}, growing as n^4")
    seconds = NUMERIC_FORMS_SECONDS_1001 * (n / 1001) ** 3 * share
    count = round(total * share)
    return Estimate(seconds, f"{count:,} exact prediction{'s' if count != 1 else ''} of n = {n} with about "
                             f"{round(2.5 * n):,} digits each, growing as n^3")


def layered_estimate(family: str, depth: int) -> Estimate:
    """Cost of the exact kernel values of a network family with ``depth`` hidden layers: geometric in the depth,
    since every layer nests the closed forms of the one below (the quadrature activations grow more slowly; the
    ReLU model bounds them: erf NTK at depth 3 took about 20 s)."""
    if depth <= 2:
        seconds = LAYER_SECONDS_AT_2
    else:
        exponent = (depth - 2) * math.log10(LAYER_FACTOR)
        seconds = 1e300 if exponent > 299 else LAYER_SECONDS_AT_2 * LAYER_FACTOR ** (depth - 2)
    return Estimate(seconds, f"{family} at depth {depth}: about {LAYER_FACTOR} times more per layer above depth 2")


def dynamics_estimate(n: int, trials: int, times: int) -> Estimate:
    """Cost of a ``dynamics`` table of ``trials`` trials at ``times`` training times, ``n`` items."""
    cells = trials * times
    return Estimate(DYNAMICS_CELL_SECONDS * cells * max(1.0, n / 9),
                    f"{cells:,} exact values: {trials:,} trials at {times:,} times")


def verify_estimate(n: int, trials: int, points: int, dps: int = 50) -> Estimate:
    """Cost of :func:`symbolic_ti.numeric.verification.verify`: ``trials`` closed forms at ``points`` points."""
    comparisons = trials * points
    return Estimate(VERIFY_COMPARISON_SECONDS * comparisons * max(1.0, n / 25) * max(1.0, dps / 50),
                    f"{comparisons:,} comparisons: {trials:,} closed forms at {points:,} points, {dps} digits")
