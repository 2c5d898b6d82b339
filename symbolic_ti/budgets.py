"""Budgets: the cost of a run estimated from its input sizes before the work, and refused above a stated limit.

Every entry point whose work grows with an input (the number of items, a network's depth, the number of times or
of random points) estimates its cost *before* the work, from the measured cost models of docs/performance.md
("Budgets"), and refuses with :class:`~symbolic_ti.errors.BudgetError` when the estimate is above its budget.
The estimate is a function of the input sizes only, never of timing or of the host's memory, so the same input
gets the same decision on every machine. Its unit is seconds of CPU on the project's reference machine (the
shared two-core machine of docs/performance.md); the message also names the size that drives it. Where a model
also estimates the peak memory (``Estimate.memory``: ``derive`` writing every symbolic closed form), a run whose
estimated peak is above the memory available *now* (:func:`symbolic_ti.peak_memory.available_memory`, read when the check runs, never at
import) is refused too, with that estimate (:func:`check_memory`): the only decision that depends on the machine,
taken where the work is known.

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
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .formatting import rounded
from .errors import BudgetError, ParameterError
from .peak_memory import available_memory, symbolic_peak

__all__ = ["DEFAULT_SECONDS", "DEFAULT", "BudgetLike", "Estimate", "resolve_budget", "check_budget",
           "override_hint", "format_seconds", "format_bytes", "available_memory", "check_memory", "symbolic_peak", "derive_estimate", "solve_estimate", "mirror_symmetric", "layered_estimate",
           "dynamics_estimate", "verify_estimate", "grid_estimate", "check_grid_memory", "GRID_MAX_BYTES"]

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
    """An estimated cost: ``seconds`` of CPU on the reference machine, and what drives it (``detail``);
    ``memory``: the estimated peak memory in bytes, where a model has it (else ``None``)."""

    seconds: float
    detail: str
    memory: float | None = None


def format_seconds(seconds: float) -> str:
    """``1.5 s``, ``120 s``, ``12:05 min``, ``3:20:00 h``, or ``more than 10^k years`` beyond any run."""
    if not math.isfinite(seconds) or seconds > 3.15e10:  # a thousand years
        exponent = 3 if not math.isfinite(seconds) else max(3, int(math.log10(seconds / 3.15e7)))
        return f"more than 10^{exponent} years"
    if seconds < 600:
        return f"{rounded(seconds, '.2g')} s" if seconds < 10 else f"{rounded(seconds, '.0f')} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}:{sec:02d} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{sec:02d} h"


def format_bytes(size: float) -> str:
    """``12 kB``, ``3.4 MB``, ``910 GB`` (powers of 1000)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if size < 1000 or unit == "PB":
            return f"{rounded(size, '.3g')} {unit}"
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
    if limit is None:
        return
    if estimate.seconds > limit:  # first the time, the same decision on every machine
        shown, bound = _distinct(estimate.seconds, limit)
        raise BudgetError(f"{what}: estimated {shown} of CPU ({estimate.detail}), above the "
                          f"budget of {bound} (docs/performance.md#budgets); {_HINT.get()}")
    check_memory(what, estimate)  # then, within the time, the memory this machine has now


def check_memory(what: str, estimate: Estimate) -> None:
    """Refuse ``what`` when its estimated peak memory (``estimate.memory``) is above the memory available now
    (:func:`symbolic_ti.peak_memory.available_memory`). Called by :func:`check_budget` where the work is known (never at import), so a
    spec or task is valid on every machine; the run that will not fit on this one is refused with its estimate.

    Raises
    ------
    BudgetError
        With one line: the estimated peak, what drives it, the memory available and how to run anyway.
    """
    free = available_memory()
    if estimate.memory is None or free is None or estimate.memory <= free:
        return
    anyway = _HINT.get().split(", or ")[0]  # a larger budget of seconds does not give memory
    raise BudgetError(f"{what}: estimated peak memory {format_bytes(estimate.memory)} ({estimate.detail}), above "
                      f"the {format_bytes(max(free, 0.0))} available on this machine (docs/performance.md#budgets); "
                      f"{anyway}")


def _distinct(seconds: float, limit: float) -> tuple[str, str]:
    """The estimate and the budget as :func:`format_seconds` writes them, or, when they would read the same
    (120.4 s against 120 s), both in seconds with as many digits as make the estimate visibly larger.

    >>> _distinct(120.4, 120.0)
    ('120.4 s', '120 s')
    >>> _distinct(130.0, 120.0)
    ('130 s', '120 s')
    """
    shown, bound = format_seconds(seconds), format_seconds(limit)
    if shown != bound or not math.isfinite(seconds):
        return shown, bound
    for digits in range(4, 18):
        shown, bound = f"{rounded(seconds, f'.{digits}g')} s", f"{rounded(limit, f'.{digits}g')} s"
        if shown != bound:
            return shown, bound
    return shown, bound  # pragma: no cover - distinct floats differ within 17 significant digits


# ------------------------------------------------------------------------------------- cost models
# Each is measured on the reference machine (docs/performance.md#budgets gives the runs) and is a function of
# the input sizes only.

#: ``derive`` with every parameter a number: building all ``n (n - 1)`` exact predictions took 164 s of CPU at
#: n = 1001 (1.77 s at 201, 19.7 s at 501: about ``n^3``); each has about ``2.5 n`` digits.
NUMERIC_FORMS_SECONDS_1001 = 164.0
#: ``derive`` with a free symbol: solve, build and write every closed form of exchangeable n = 61 (alpha and
#: lambda symbolic, no exception or a mirror-symmetric one): seconds of CPU (the import's 1.5 s taken off) and
#: bytes written per format. Remeasured 2026-12-02 at load 1.4 to 2.8 (the first model read 2.0 s at 61, 3.5 times
#: low): text 1.4 s at n = 41, 7.0 at 61, 24.1 at 81, 69.6 at 101 (peak memory 0.17, 0.60, 1.85, 5.4 GB; n^4.6 to
#: n^4.8 from 61 up); JSON 5.4 s at 61, 71.2 at 101 (n^5.1; 0.16 and 1.3 GB). Seconds modelled as ``n^5``, bytes
#: written as ``n^4.4`` (text 113 MB at 61, 1.07 GB at 101; JSON 185 MB and 1.54 GB).
SYMBOLIC_FORMS_AT_61: dict[str, tuple[float, float]] = {
    "json": (5.4, 185e6), "json-poly": (5.5, 100e6), "latex": (5.8, 155e6), "text": (7.0, 113e6),
    "gram": (7.0, 113e6),
}
#: Growth of the mirror-symmetric symbolic forms' seconds and bytes with n (:data:`SYMBOLIC_FORMS_AT_61`).
SYMBOLIC_FORMS_EXPONENT, SYMBOLIC_BYTES_EXPONENT = 5.0, 4.4
#: ``derive`` with a free symbol when the exceptions are not mirror symmetric (:func:`mirror_symmetric`): JSON of
#: exchangeable n = 51, 26>24, alpha and lambda symbolic: 30.8 s of CPU, 866 MB written, 553 MB peak memory
#: (n = 21: 1.7 s, 21 MB; 31: 3.2 s, 89 MB; 41: 10.1 s, 322 MB: about n^5 from 41 to 51, bytes n^4.5; measured
#: 2026-12-01, one run at a time, load 2.3 to 3.6 on the shared two-core machine). Other formats scale as at 61.
ASYMMETRIC_FORMS_AT_51 = (30.8, 866e6)
#: ``derive`` with every parameter a number, exchangeable: the exact solve (Laplacian path over QQ) and one row
#: form, ``--trial 1,n`` of 502>499-like tasks: 1.55 s at n = 251, 3.04 s at 501, 8.48 s at 1001 (about
#: n^2, 2026-12-01, load 3.6 to 3.8), kept as the solve's cost (the import and the one form included: errs high).
LAPLACIAN_NUMERIC_SOLVE_SECONDS_1001 = 8.5
#: Dense paths (every non-exchangeable family: ``halved`` or ``full``), every value a number: the exact QQ solve
#: of geometric alpha = 1/10, rho = 1/2, ridge 1/10, ``--trial 1,n``: 2.81 s at n = 25, 8.42 s at 40, 29.4 s at
#: 60 (halved, n rows; n^3.1 from 40 to 60; 2026-12-01, load 3.8 to 4.5). Scaled by the rows of the system.
DENSE_NUMERIC_SECONDS_AT_60, DENSE_NUMERIC_EXPONENT = 29.4, 3.2
#: The margin of the dense numeric model over other parameter values: n = 40, 20>18, alpha = 1/10, ``--trial
#: 1,40``, in one session (2026-12-02, load 12 to 14): rho = 1/2, ridge 1/10: 9.37 s; ridge 1/10^6: 9.34;
#: ridgeless: 9.56; rho = 99/100, ridge 1/10: 11.83; rho = 99/100, ridgeless: 11.02; rho = 999/1000, ridge
#: 1/10^6: 12.33 (1.32 times the first: the powers rho^k of a many-digit rho have more digits; the ridge's digits
#: hardly count, it is on the diagonal only).
DENSE_NUMERIC_MARGIN = 1.35
#: Dense paths with free symbols where the kernel's degree grows with n (geometric with rho free): every closed
#: form of geometric, alpha, rho and lambda free, text: 1.5 s at n = 7, 2.5 s at 9, 5.2 s at 11, 13.7 s at 13,
#: 36.1 s at 15 (500 MB peak, 92 MB written), a factor 2.63 per two items (1.62 per item; 1.65 kept; 2026-12-01,
#: load 3.4 to 4.6). With alpha = 1/10 (rho and lambda free) n = 13 took 3.9 s: this model errs high there.
DENSE_POWERS_SECONDS_AT_15, DENSE_POWERS_GROWTH = 36.1, 1.65
#: Dense paths with free symbols in a kernel of bounded degree (geometric with rho a number, similarity and
#: embedding matrices): every closed form of geometric, rho = 1/2, alpha and lambda free, text: 2.2 s at n = 13,
#: 10.6 s at 21, 40.0 s at 25 (224 MB peak, 23 MB written), more than 190 s at 31 (stopped); 1.39 per item from
#: 21 to 25, 1.4 kept (2026-12-01, load 3.5 to 4.7).
DENSE_SYMBOLIC_SECONDS_AT_25, DENSE_SYMBOLIC_GROWTH = 40.0, 1.4
#: Long exact numbers given (a ridge or a parameter of D digits): text of exchangeable n = 9, 6>4, alpha = 1/10,
#: ridge ``133...3/7``: 1.45 s of CPU at D = 1000, 1.63 at 2000, 2.08 at 4000, 4.14 at 8000, 11.6 at 16000, 38.9
#: at 32000 (2026-12-02, load 8 to 9 on the shared two-core machine; about D^1.9 above 8000: CPython writes an
#: integer of d digits in time d^2), so 0.52 s more per closed form at D = 32000, whose forms have 4.84 D digits.
#: The digits per form, per digit given, grow with n: 4.84 at n = 9, 14.3 at 13, 28.1 at 17, 37.0 at 25 (D = 200
#: and 1000); the model takes ``min(5.2 (n / 9)^2.8, 2.5 n)`` (2.5 n: the digits of the short numbers' forms) and
#: the cost per form as the square of its digits. n = 31 with D = 8000 ran past 97 s of CPU (stopped; estimated
#: 2:08:00 h).
DIGITS_FORM_SECONDS, DIGITS_PER_FORM_AT_9, LONG_NUMBER_DIGITS = 0.52, 4.84, 100


def _digits_per_form(n: int, digits: int) -> float:
    """Digits of each closed form when the numbers given have ``digits`` digits (see :data:`DIGITS_FORM_SECONDS`)."""
    return digits * min(5.2 * (n / 9) ** 2.8, 2.5 * n)


#: The symbolic rank solve on a comparison graph that is not the TI design (:mod:`symbolic_ti.solvers.graph_ranks`:
#: one fraction-free n x n solve over ZZ[gamma]; banded transverse patterning, linked lists with an inner link,
#: separate lists, any task file), alpha symbolic, ``solve`` alone (2026-12-02, CPU of the process without the
#: import, load 1 to 9 on the shared two-core machine): two lists of n/2 items linked at their middles, n - 1
#: comparisons: 0.31 s at n = 40, 1.14 at 60, 3.38 at 80, 7.43 at 100, 13.0 at 120, 46.3 at 160 (load 9; n^3.5
#: from 80 to 100, n^4.4 from 120 to 160); banded transverse patterning, 2n comparisons: 0.50 s at 40, 2.26 at 60,
#: 6.85 at 80, 16.8 at 100, 33.0 at 120, 124 at 160 (n^3.7 to n^4.6). Modelled as
#: ``3.4 (n/80)^4.2 x comparisons / (n - 1)`` s (errs high on the lists, within 10% on banded TP). Transverse
#: patterning and a link from the end of one list to the start of the other are TI designs (the continuant path:
#: 0.1 s at n = 160, no model); with every value a number the graph solve is one QQ solve, 2.3 s at n = 800
#: (n^2.3 from 200 to 800), inside the numeric Laplacian model below.
GRAPH_RANK_SECONDS_AT_80, GRAPH_RANK_EXPONENT = 3.4, 4.2
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


def mirror_symmetric(n: int, exceptions: Iterable[tuple[int, int]]) -> bool:
    """Whether the exceptions ``(W, L)`` map onto themselves under the item reversal ``k -> n + 1 - k`` (``32>30``
    of 61 items does, ``31>29`` does not): then the exchangeable closed forms pair up and are about 10 times
    cheaper to write (measured, docs/performance.md#budgets)."""
    pairs = {(int(w), int(l)) for w, l in exceptions}
    return {(n + 1 - l, n + 1 - w) for w, l in pairs} == pairs


def graph_rank_estimate(n: int, comparisons: int) -> Estimate:
    """Cost of the symbolic rank solve on a comparison graph of ``n`` items and ``comparisons`` trained comparisons
    that is not the TI design (:data:`GRAPH_RANK_SECONDS_AT_80`; docs/performance.md#budgets).

    >>> round(graph_rank_estimate(80, 79).seconds, 2)
    3.4
    """
    seconds = GRAPH_RANK_SECONDS_AT_80 * (n / 80) ** GRAPH_RANK_EXPONENT * comparisons / max(1, n - 1)
    return Estimate(seconds, f"the symbolic rank solve on the comparison graph ({comparisons:,} comparisons, "
                             f"n = {n}), growing as n^{rounded(GRAPH_RANK_EXPONENT, 'g')}")


def _with_graph(est: Estimate, n: int, graph: int) -> Estimate:
    """``est`` plus the graph rank solve of ``graph`` comparisons (none when ``graph`` is 0)."""
    if not graph:
        return est
    solve = graph_rank_estimate(n, graph)
    return Estimate(est.seconds + solve.seconds, f"{solve.detail}, then {est.detail}")


def derive_estimate(n: int, symbolic: bool, fmt: str = "text", trials: int | None = None, *,
                    method: str = "laplacian", free: int = 2, mirror: bool = True, exceptions: int = 0,
                    degree: int = 0, digits: int = 0, graph: int = 0) -> Estimate:
    """Cost of ``derive`` solving ``n`` items and writing the closed forms (every trial, or ``trials`` of them).

    Parameters
    ----------
    n : int
        Number of items.
    symbolic : bool
        Whether any parameter or the ridge is left symbolic.
    fmt : {"text", "json", "json-poly", "latex", "gram"}
    trials : int, optional
        Number of trials written (``--trial``); default every ordered trial.
    method : {"laplacian", "halved", "full", "float"}
        The solver's method (:func:`symbolic_ti.solvers.dispatch.planned_method`; ``"float"``: float data, no
        exact kernel, estimated as the exact numeric predictions, which bounds it).
    free : int
        Number of free symbols (a family's parameters and a symbolic ridge), on the dense paths.
    mirror : bool
        Whether the exceptions map onto themselves under the item reversal (:func:`mirror_symmetric`).
    exceptions : int
        Number of exceptions (the dense system has ``n - 1 + exceptions`` rows when halved, twice that in full).
    degree : int
        On the dense paths, the total degree of the kernel between ``(1, n)`` and ``(n, 1)`` in the free symbols;
        above 2 it grows with n (``rho^(n - 1)``) and so does the cost, exponentially.
    digits : int
        The most digits of a numerator or denominator among the numbers given
        (:func:`symbolic_ti.solvers.dispatch.input_digits`): above :data:`LONG_NUMBER_DIGITS` each closed form
        written costs more, as the square of its digits (:data:`DIGITS_FORM_SECONDS`).
    graph : int
        On the Laplacian path with a free symbol, the number of comparisons of a comparison graph that is not the
        TI design (0 for the TI design): its rank solve is added (:func:`graph_rank_estimate`).

    The keywords come from :func:`symbolic_ti.solvers.dispatch.derive_plan`; the defaults are the exchangeable
    family's calibrated case.
    """
    est = _forms_estimate(n, symbolic, fmt, trials, method=method, free=free, mirror=mirror, exceptions=exceptions,
                          degree=degree)
    if symbolic and method not in ("halved", "full", "float"):
        est = _with_graph(est, n, graph)
    if digits <= LONG_NUMBER_DIGITS:
        return est
    count = n * (n - 1) if trials is None else min(n * (n - 1), trials)
    size = _digits_per_form(n, digits)
    each = DIGITS_FORM_SECONDS * (size / (32000 * DIGITS_PER_FORM_AT_9)) ** 2
    return Estimate(est.seconds + count * each, f"{est.detail}; with numbers of {digits:,} digits given, about "
                                                f"{round(size):,} digits and {format_seconds(each)} more per closed "
                                                f"form, growing as their square")


def _forms_estimate(n: int, symbolic: bool, fmt: str, trials: int | None, *, method: str, free: int,
                    mirror: bool, exceptions: int, degree: int) -> Estimate:
    """:func:`derive_estimate` of numbers of few digits."""
    total = n * (n - 1)
    share = 1.0 if trials is None else min(1.0, trials / total)
    count = round(total * share)
    if method in ("halved", "full"):
        plural = "s" if free != 1 else ""
        rows = (n - 1 + exceptions) * (1 if method == "halved" else 2)
        if symbolic and degree > 2:  # the kernel's degree grows with n (rho free): exponential in the rows
            growth = rows - 15
            seconds = 1e300 if growth > 1000 else DENSE_POWERS_SECONDS_AT_15 * DENSE_POWERS_GROWTH ** growth
            return Estimate(seconds, f"a dense {rows} x {rows} system in {free} free symbol{plural} whose kernel has "
                                     f"degree {degree} ({method}, n = {n}), about {DENSE_POWERS_GROWTH} times more "
                                     f"per item, and {count:,} closed forms")
        if symbolic:
            growth = rows - 25
            seconds = 1e300 if growth > 1500 else DENSE_SYMBOLIC_SECONDS_AT_25 * DENSE_SYMBOLIC_GROWTH ** growth
            return Estimate(seconds, f"a dense {rows} x {rows} system in {free} free symbol{plural} ({method}, n = {n}), "
                                     f"about {DENSE_SYMBOLIC_GROWTH} times more per item, and {count:,} closed forms")
        seconds = DENSE_NUMERIC_SECONDS_AT_60 * DENSE_NUMERIC_MARGIN * (rows / 60) ** DENSE_NUMERIC_EXPONENT
        return Estimate(seconds, f"a dense {rows} x {rows} exact rational system ({method}, n = {n}), growing as "
                                 f"n^{rounded(DENSE_NUMERIC_EXPONENT, 'g')}, and {count:,} exact prediction{'s' if count != 1 else ''}")
    if symbolic and trials is not None:
        seconds = SYMBOLIC_FORM_SECONDS_AT_61 * trials * (n / 61) ** 4
        return Estimate(seconds, f"{trials:,} symbolic closed form{'s' if trials != 1 else ''} of n = {n}, "
                                 f"each about {rounded(SYMBOLIC_FORM_SECONDS_AT_61 * (n / 61) ** 4, '.3g')} s, growing as n^4")
    if symbolic:
        seconds, size = SYMBOLIC_FORMS_AT_61.get(fmt, SYMBOLIC_FORMS_AT_61["latex"])
        if mirror:
            scale = (n / 61) ** SYMBOLIC_FORMS_EXPONENT * share
            size *= (n / 61) ** (SYMBOLIC_BYTES_EXPONENT - SYMBOLIC_FORMS_EXPONENT)
            kind = f"mirror-symmetric exceptions, growing as n^{rounded(SYMBOLIC_FORMS_EXPONENT, 'g')}"
        else:  # the asymmetric runs, scaled by the format's ratio to JSON at 61
            seconds = ASYMMETRIC_FORMS_AT_51[0] * seconds / SYMBOLIC_FORMS_AT_61["json"][0]
            size = ASYMMETRIC_FORMS_AT_51[1] * size / SYMBOLIC_FORMS_AT_61["json"][1]
            scale = (n / 51) ** 5 * share
            kind = "growing as n^5"
        return Estimate(seconds * scale, f"{count:,} symbolic closed forms of n = {n}, about "
                                         f"{format_bytes(size * scale)} of {fmt}, {kind}",
                        symbolic_peak(n, fmt, mirror))
    seconds = (LAPLACIAN_NUMERIC_SOLVE_SECONDS_1001 * (n / 1001) ** 2
               + NUMERIC_FORMS_SECONDS_1001 * (n / 1001) ** 3 * share)
    return Estimate(seconds, f"the exact solve (growing as n^2) and {count:,} exact prediction"
                             f"{'s' if count != 1 else ''} of n = {n} with about {round(2.5 * n):,} digits each "
                             f"(growing as n^3)")


def solve_estimate(n: int, symbolic: bool, *, method: str = "laplacian", free: int = 2, mirror: bool = True,
                   exceptions: int = 0, degree: int = 0, digits: int = 0, graph: int = 0) -> Estimate:
    """Cost of :func:`symbolic_ti.solve` (and :func:`symbolic_ti.derive`) alone: the exact solve, whose closed
    forms are built on access (each symbolic form of the Laplacian path about ``0.07 s (n / 61)^4``).

    The dense paths and the numeric Laplacian path cost their system's solve, as in :func:`derive_estimate` with
    one trial written (the measured runs wrote one, so it errs high); the symbolic Laplacian path solves one
    univariate problem in the effective ridge (0.9 s at n = 101 and at 201, the import included: no model), and
    is estimated as free on the TI design; on any other comparison graph (``graph`` comparisons) it costs
    :func:`graph_rank_estimate`. The keywords come from :func:`symbolic_ti.solvers.dispatch.derive_plan`.

    >>> solve_estimate(9, True).seconds
    0.0
    >>> round(solve_estimate(2002, False).seconds)
    34
    """
    if symbolic and method not in ("halved", "full"):
        if graph:
            solve = graph_rank_estimate(n, graph)
            return Estimate(solve.seconds, f"{solve.detail}; closed forms built on access")
        return Estimate(0.0, f"the univariate solve of n = {n}; closed forms built on access")
    est = _forms_estimate(n, symbolic, "text", 1, method=method, free=free, mirror=mirror, exceptions=exceptions,
                          degree=degree)
    if method in ("halved", "full"):  # the system, without the ", and N closed forms" written by derive
        return Estimate(est.seconds, est.detail.rsplit(", and ", 1)[0])
    return Estimate(est.seconds, f"the exact solve of n = {n} ({method}), growing as n^2")


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


#: Seconds of CPU per margin value of a phase diagram's grid (one trial at one cell), measured 2026-12-02 (load 4):
#: 1.2 s for 55 trials x 640,000 cells (n = 9, 6>4, 800 x 800), with a margin of 1.2.
GRID_VALUE_SECONDS = 4e-8
#: Bytes held per margin value at the peak of a phase diagram's evaluation (measured 2026-12-02: 0.96 GB above the
#: start for 55 trials x 640,000 cells, 27 bytes a value), with a margin.
GRID_VALUE_BYTES = 32
#: The most memory a phase diagram's grid may take, the same on every machine (never read from the host).
GRID_MAX_BYTES = 4_000_000_000


def grid_estimate(trials: int, cells: int) -> Estimate:
    """Cost of evaluating ``trials`` margins at ``cells`` cells of a phase diagram (docs/performance.md#budgets)."""
    values = trials * cells
    return Estimate(GRID_VALUE_SECONDS * values, f"{trials:,} trials x {cells:,} cells")


def check_grid_memory(trials: int, nx: int, ny: int, name: str = "resolution") -> None:
    """Refuse a phase diagram whose grid of ``trials`` margins at ``nx x ny`` cells would need more than
    :data:`GRID_MAX_BYTES` (the grid is held in memory whole), naming the largest square resolution that fits.

    Raises
    ------
    ParameterError
        Naming ``name``, the memory needed and the largest resolution allowed at this number of trials.
    """
    need = GRID_VALUE_BYTES * trials * nx * ny
    if need <= GRID_MAX_BYTES:
        return
    side = max(2, int(math.isqrt(GRID_MAX_BYTES // (GRID_VALUE_BYTES * max(trials, 1)))))
    raise ParameterError(f"{name} {nx},{ny} needs about {format_bytes(need)} of memory for {trials:,} trials x "
                         f"{nx * ny:,} cells, above the {format_bytes(GRID_MAX_BYTES)} a phase diagram may take; "
                         f"give a resolution of at most {side},{side} (docs/performance.md#budgets)")
