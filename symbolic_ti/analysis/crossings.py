r"""Critical parameter values: where the margin of a trial changes sign as one parameter grows.

Every margin of an exact result is a canceled rational function ``num / den`` of the free parameters
(:class:`symbolic_ti.results.Result`). Along one parameter ``x`` (``alpha``, ``kappa_o``, ``kappa_d`` or the
ridge ``lambda``), with every other parameter bound to an exact number, ``num`` and ``den`` are univariate
polynomials with rational coefficients, and the margin can change sign inside an open interval only at a
real root of odd multiplicity of ``num`` (a *zero*) or of ``den`` (a *pole*; not expected for a positive
semidefinite kernel with a positive ridge, but handled). Derived in docs/theory.md#critical-values.

:func:`critical_values` is the driver; the work is done by

* :mod:`.parameters`: which parameter may be scanned, and on which interval;
* :mod:`.margin_crossings`: the crossings of one margin (its coefficients read off the solver's
  :class:`~symbolic_ti.results.PolyFraction` when the result holds one, else from the canceled expression),
  exactly with the real-root engine :mod:`.roots`
  (factoring over ZZ in FLINT, Descartes' rule of signs with exact bisection, exact signs at rational points
  between the roots: ``"to_error"`` for ``+`` to ``-``, ``"to_correct"`` for ``-`` to ``+``, ``"touch"`` for a
  zero of even multiplicity), certified for irrational coefficients (:mod:`.roots.numeric`: exact
  algebraic roots, or ball arithmetic for pi and other transcendental constants), or as closed forms with
  direction ``"unknown"`` when other parameters are symbolic;
* :mod:`.gamma`: the effective-ridge path of exchangeable results (``method="laplacian"``);
* :mod:`.critical_report`: the report classes (re-exported here), rendered by :mod:`symbolic_ti.export.critical`.

No float enters the exact path: floats appear only in ``value_float`` and in the text display.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any

import sympy as sp

from ..arguments import parse_interval, resolve_trials
from ..errors import ParameterError
from ..progress import Progress
from ..results import PolyFraction, Result
from .. import symbols as S
from .critical_report import DIRECTIONS, CriticalReport, Crossing, LazyRoot, TrialCritical
from .effective_ridge import alpha_map, root_alpha_float
from .gamma import gamma_applies, margin_gammas
from .margin_crossings import (UncertainCrossing, exact_coefficient_trial, exact_trial, fraction_coefficients,
                               numeric_trial, rational_coefficients, ridgeless_notes, symbolic_trial)
from .parameters import check_parameter, joint_range
from .roots.numeric import NUMERIC_DPS

from ..deprecation import moved_names

# names this module had before the split (symbolic_ti 0.1): from their modules, with a DeprecationWarning, until 0.3
__getattr__ = moved_names(__name__, {"RIDGE_NAMES": "symbolic_ti.arguments", "exact_number": "symbolic_ti.arguments",
                                     "TaskError": "symbolic_ti.errors", "Family": "symbolic_ti.families.base",
                                     "Parameter": "symbolic_ti.families.base", "Task": "symbolic_ti.task"})

__all__ = ["Crossing", "TrialCritical", "CriticalReport", "critical_values", "DIRECTIONS", "check_parameter"]

Trial = tuple[int, int]


def _canceled_margin(result: Result, t: Trial) -> sp.Expr:
    return sp.cancel(sp.together(result.margin(*t)))


def _margin_form(result: Result, t: Trial) -> PolyFraction | None:
    """The margin ``g * f(t)`` as the solver's :class:`~symbolic_ti.results.PolyFraction` (``f`` or ``-f``: the
    tree of :meth:`Result.margin`), or ``None`` (no polynomial form, or no ground truth)."""
    form = result.fraction(*t)
    g = result.task.ground_truth(t)
    if form is None or g is None:
        return None
    return form if g == 1 else -form


def _laplacian_applies(result: Result, name: str, sym: sp.Symbol) -> bool:
    """Whether the effective-ridge analysis covers this scan: an exchangeable result on the Laplacian path in
    the alpha parametrization, scanning alpha, with a rational ridge (or ridgeless) and a rational kappa_d."""
    if name != "alpha" or not str(result.method).startswith("laplacian"):
        return False
    scale, alpha, kd = result.family.exchangeable_form()
    if alpha != sym or set(result.free_symbols) - {sym}:
        return False
    ridge_ok = result.ridge is None or (result.ridge.is_Rational and result.ridge >= 0)
    return bool(ridge_ok and sp.sympify(kd).is_Rational and sp.sympify(scale).is_Rational
                and gamma_applies(result.task) is None)  # counts 1, a rank solution of the task's graph


def _laplacian_trials(result: Result, chosen: list[Trial], lo: sp.Expr, hi: sp.Expr,
                      notes: list[str]) -> list[TrialCritical]:
    """Crossings in alpha from the sign structure of each margin in the effective ridge gamma.

    ``gamma = 2 (alpha + lambda') / (1 - alpha)`` grows with alpha, so the crossings in ``(lo, hi)`` are the
    roots ``gamma*`` in ``(gamma(lo), gamma(hi))``, with ``alpha* = (gamma* - 2 lambda') / (gamma* + 2)``;
    see :func:`symbolic_ti.analysis.gamma.margin_gammas`."""
    scale, _, kd = result.family.exchangeable_form()
    lam = sp.Integer(0) if result.ridge is None else sp.Rational(result.ridge / (scale * (1 - kd)))
    gammas = margin_gammas(result.task, chosen, lam)

    def gamma_of(a: sp.Expr) -> Fraction | None:
        if a == 1:
            return None
        g = sp.Rational(2 * (a + lam) / (1 - a))
        return Fraction(int(g.p), int(g.q))

    g_lo, g_hi = gamma_of(sp.Rational(lo)), gamma_of(sp.Rational(hi))
    assert g_lo is not None  # lo < hi <= 1
    out: list[TrialCritical] = []
    for t in chosen:
        tg = gammas[t]
        margin = partial(_canceled_margin, result, t)
        if tg.sign_at_zero == 0:
            notes.append(f"the margin of ({t[0]}, {t[1]}) is identically zero")
            out.append(TrialCritical(t, tg.category, margin, (), False, _margin_form(result, t)))
            continue
        start = tg.sign_after(sp.Rational(g_lo.numerator, g_lo.denominator)) < 0
        inside = []
        for r in tg.roots + tg.touches:
            root = r._root
            if root.compare_rational(g_lo) <= 0 or (g_hi is not None and root.compare_rational(g_hi) >= 0):
                continue
            inside.append((root, r.direction))
        crossings = tuple(
            Crossing(t, LazyRoot(root, S.alpha, alpha_map(lam), brief=True), root_alpha_float(root, lam), direction,
                     "zero")
            for root, direction in sorted(inside, key=lambda e: root_alpha_float(e[0], lam)))
        out.append(TrialCritical(t, tg.category, margin, crossings, start, _margin_form(result, t)))
    return out


def critical_values(result: Result, parameter: str, interval: Any = None, trials: Any = None,
                    method: str = "auto") -> CriticalReport:
    """Parameter values where the margins of a result change sign.

    Parameters
    ----------
    result : Result
        An exact result in which ``parameter`` is a free symbol (e.g. from :func:`symbolic_ti.derive` with
        ``alpha`` left symbolic).
    parameter : str
        A family parameter name (``"alpha"`` in [0, 1], ``"kappa_o"`` in [0, 1), ``"kappa_d"`` in [0, 1) for
        the exchangeable family), or ``"lambda"`` / ``"ridge"`` for the ridge, in [0, oo).
    interval : pair (a, b), optional
        Exact end points (ints, ``Fraction``, strings ``"1/2"``, decimals read exactly such as ``"0.1"``;
        ``b`` may be ``"oo"``), with ``a < b`` inside the parameter's domain. Default: the domain
        ``(p.lower, p.upper)`` of the family's parameter table, ``(0, oo)`` for the ridge; for the
        exchangeable family's kappa parametrization it is narrowed to where the kernel is positive
        semidefinite (``kappa_d <= kappa_o <= (1 + kappa_d)/2``), with a note. Crossings are reported in the
        open interval ``(a, b)``.
    trials : list of (i, j), optional
        Trials to analyse; default every trial with a margin (training trials and test trials with ground
        truth); items by number, or with item labels ``("E", "F")`` or ``"E>F"``. A single pair ``(i, j)`` (or
        ``("E", "F")``, ``"E>F"``) is refused with the list ``[(i, j)]`` it should be.
    method : {"auto", "generic", "laplacian"}
        ``"generic"`` isolates the roots of each canceled margin: its univariate coefficients are read off
        the solver's polynomial form (:meth:`symbolic_ti.results.Result.fraction`) when there is one and no
        other parameter or irrational constant occurs in it, else the margin is built as an expression and
        canceled; each crossing's float comes from its isolating interval and its exact value is built on first
        access. ``"laplacian"`` (chosen by ``"auto"`` when it applies: an exchangeable result on the Laplacian
        path, scanning ``alpha`` with a rational ridge or ridgeless and a rational ``kappa_d``) reads every
        crossing off one integer polynomial per trial in the effective ridge gamma
        (:func:`symbolic_ti.analysis.gamma.margin_gammas`) and builds margins and exact values only when they
        are accessed; n = 61, every trial, takes about a second instead of most of an hour. The two agree
        exactly (tests/test_critical.py).

    Returns
    -------
    CriticalReport
        Exact crossings per trial, the sign just above ``a`` and the order in which trials first fail.

    Raises
    ------
    ParameterError
        If ``parameter`` is not a parameter of the family (nor the ridge), is fixed to a value in
        ``result``, or is not used by the family's parametrization; if ``interval`` is not a pair of
        rational numbers with ``a < b`` inside the domain.
    TaskError
        If a trial is invalid or has no ground truth (both items in one exception's cycle).

    Notes
    -----
    Each margin ``num/den`` is canceled; its sign can change in ``(a, b)`` only at real roots of odd
    multiplicity of ``num`` or ``den``. With every other parameter numeric the roots are isolated exactly
    (:mod:`symbolic_ti.analysis.roots`: factoring over ZZ, Descartes' rule of signs with exact bisection) and
    the direction of each sign change is decided by exact
    evaluation at rational points between consecutive roots; no float enters that path. With other
    symbolic parameters only closed-form roots of factors of degree <= 2 are returned, with direction
    ``"unknown"``. For a ridgeless result the generic limit formula is analysed. Derived here, see
    docs/theory.md#critical-values.

    Examples
    --------
    >>> from symbolic_ti import derive
    >>> r = derive(9, ["6>4"], parameters={}, ridge="1/10")
    >>> rep = critical_values(r, "alpha", trials=[(3, 6)])
    >>> rep.trials[0].crossings[0].direction
    'to_error'
    """
    if not isinstance(result, Result):
        raise ParameterError(f"result must be a symbolic_ti Result, got {type(result).__name__}")
    if method not in ("auto", "generic", "laplacian"):
        raise ParameterError(f"method must be one of auto, generic, laplacian, got {method!r}")
    name, sym, lower, upper = check_parameter(result.family, result.ridge, parameter)
    fast = _laplacian_applies(result, name, sym)
    if method == "laplacian" and not fast:
        raise ParameterError("method 'laplacian' needs an exchangeable result on the Laplacian path (alpha "
                             "parametrization) scanned in alpha, with a rational ridge or ridgeless and a rational "
                             "kappa_d")
    fast = fast and method != "generic"
    notes: list[str] = []
    joint = joint_range(result, name)
    if interval is None and joint is not None:
        lo, hi = joint
        notes.append(f"default interval narrowed to [{lo}, {hi}], where {result.family.name} is positive "
                     f"semidefinite for every n")
    else:
        lo, hi = parse_interval(interval, name, lower, upper)
        if joint is not None and (bool(lo < joint[0]) or bool(hi > joint[1])):
            notes.append(f"part of ({lo}, {hi}) lies outside [{joint[0]}, {joint[1]}], where "
                         f"{result.family.name} is positive semidefinite for every n; crossings there "
                         "(and poles) describe a kernel that is not a valid representation")
    chosen = resolve_trials(result.task, trials)
    others = set(result.free_symbols) - {sym}
    symbolic = bool(others)
    if sym not in result.free_symbols:
        notes.append(f"the predictions do not depend on {name} in this result; no margin changes sign")
    if symbolic:
        notes.append("other parameters are symbolic (" + ", ".join(sorted(s.name for s in others)) + "): "
                     "directions and whether a root lies inside the interval are not decided")
    cats = result.task.categories
    out: list[TrialCritical] = []
    all_exact = True
    step = f"critical values of {name}"
    with Progress(n=result.task.n) as progress:  # on a terminal only; see symbolic_ti.progress
        if fast:
            progress.update(step)
            out = _laplacian_trials(result, chosen, lo, hi, notes)
            chosen = []
        for done, t in enumerate(chosen):
            progress.update(step, done, len(chosen))
            form = _margin_form(result, t)
            # its univariate coefficients, unless another parameter or an irrational constant occurs in it
            coeffs = None if form is None else fraction_coefficients(form, sym)
            start: bool | None = None
            if coeffs is not None:  # the solver's polynomials: no expression built or canceled
                crossings, start = exact_coefficient_trial(t, *coeffs, sym, lo, hi, notes)
                out.append(TrialCritical(t, cats[t], partial(_canceled_margin, result, t), crossings, start, form))
                continue
            margin = _canceled_margin(result, t)
            num, den = sp.fraction(margin)
            if margin.free_symbols - {sym}:
                crossings = symbolic_trial(t, num, sym, lo, hi, notes)
                all_exact = False
            elif not rational_coefficients(num, den, sym):
                notes.append("some margins have irrational coefficients (e.g. pi, square roots, the ReLU kernel "
                             "constants); their roots are certified: exact square-free parts, then exact algebraic "
                             "numbers when every coefficient is algebraic, else ball arithmetic (FLINT's arb, "
                             f"values to {NUMERIC_DPS // 2} digits), with directions and start signs from certified "
                             "signs between them")
                crossings, start = numeric_trial(t, num, den, sym, lo, hi, notes)
                if any(isinstance(c, UncertainCrossing) for c in crossings):
                    all_exact = False  # an uncertain root may be where the trial fails
            else:
                crossings, start = exact_trial(t, num, den, sym, lo, hi, notes)
            out.append(TrialCritical(t, cats[t], margin, crossings, start, form))
        if chosen:
            progress.update(step, len(chosen), len(chosen))
    if result.ridgeless:
        ridgeless_notes(result, sym, lo, hi, notes)
    order: list[tuple[Trial, float]] = []
    if all_exact:
        start_value = float(lo)
        for tc in out:
            if tc.error_at_start:
                order.append((tc.trial, start_value))
            elif tc.first_error is not None:
                order.append((tc.trial, tc.first_error.value_float))  # type: ignore[arg-type]
        order.sort(key=lambda e: e[1])  # stable: ties keep trial order
    label = result.label()
    return CriticalReport(name, (lo, hi), label, tuple(out), tuple(order), symbolic, tuple(dict.fromkeys(notes)),
                          "laplacian" if fast else "generic", tuple(sorted(s.name for s in others)), result.task)
