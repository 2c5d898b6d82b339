"""Exact predictions of each hypothesis on a design's trials, the response model's choice probabilities at a
stated precision, and the closed-form derivatives of the logits for the Fisher information.

For a hypothesis (:class:`~symbolic_ti.design.hypotheses.Hypothesis`) and a task, ``f(i, j)`` is the exact
kernel ridge prediction (:func:`symbolic_ti.solvers.dispatch.solve`: a rational or algebraic number), or the
gradient-flow prediction at the hypothesis's training time (:func:`symbolic_ti.dynamics.gradient_flow`). The
response model is the one of ``fit`` (:mod:`symbolic_ti.behaviour.model`): ``P(first item wins) =
sigmoid(beta f(i, j))``, evaluated with mpmath from the exact value at ``dps`` digits (plus guard digits).

The logit's derivatives ``d (beta f) / d theta`` come from the closed forms with ``theta`` symbolic (the same
solve with those parameters left free, differentiated by sympy and evaluated exactly at the hypothesis's values);
``d (beta f) / d beta = f``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mpmath
import sympy as sp

from .. import symbols as S
from ..budgets import BudgetLike
from ..errors import ParameterError
from ..task import Task
from .hypotheses import Hypothesis

__all__ = ["GUARD_DIGITS", "exact_predictions", "choice_probabilities", "logit_jacobian", "fisher_parameters"]

Trial = tuple[int, int]

#: Digits carried beyond ``dps`` while the probabilities are computed (so that ``log(1 - p)`` of a ``p`` close
#: to 1 keeps ``dps`` correct digits where the exact value allows it).
GUARD_DIGITS = 10


def exact_predictions(task: Task, h: Hypothesis, trials: Sequence[Trial], *, budget: BudgetLike = None,
                      dps: int = 30) -> tuple[sp.Expr, ...]:
    """``f(i, j)`` of each trial under ``h``, exactly.

    Parameters
    ----------
    task : Task
    h : Hypothesis
    trials : sequence of (int, int), length T
        Trials of the task.
    budget : DEFAULT, None or float
        Of the solve (:mod:`symbolic_ti.budgets`).
    dps : int
        Digits of the certified numeric path of gradient flow when its modes have no exact form.

    Returns
    -------
    tuple of sympy.Expr, length T
        Rational or algebraic numbers; with a training time, exact sums of exponentials.
    """
    if h.time is not None:
        from ..dynamics import gradient_flow

        dyn = gradient_flow(task, h.family, "ridgeless" if h.ridge is None else h.ridge, dps=max(dps, 10),
                            budget=budget)
        return tuple(dyn.f(i, j, h.time) for i, j in trials)
    from ..solvers.dispatch import solve

    result = solve(task, h.family, "ridgeless" if h.ridge is None else h.ridge, budget=budget)
    return tuple(result.predictions[t] for t in trials)


def _mpf(value: sp.Expr, dps: int) -> mpmath.mpf:
    """``value`` as an mpmath number at ``dps`` digits (sympy evaluates it, exactly rounded)."""
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / int(value.q)
    return mpmath.mpf(sp.Float(sp.N(value, dps), dps)._to_mpmath(mpmath.mp.prec))


def choice_probabilities(values: Sequence[sp.Expr], beta: sp.Expr, dps: int) -> tuple[mpmath.mpf, ...]:
    """``sigmoid(beta f)`` of each value, as mpmath numbers at ``dps + GUARD_DIGITS`` digits.

    Parameters
    ----------
    values : sequence of sympy.Expr
        Exact ``f(i, j)``.
    beta : sympy.Expr
        The response scale, > 0.
    dps : int
        Decimal digits asked for.
    """
    with mpmath.workdps(dps + GUARD_DIGITS):
        b = _mpf(sp.sympify(beta), dps + GUARD_DIGITS)
        return tuple(1 / (1 + mpmath.exp(-b * _mpf(sp.sympify(v), dps + GUARD_DIGITS))) for v in values)


def fisher_parameters(h: Hypothesis, names: Sequence[str] | None) -> tuple[str, ...]:
    """The parameters of the Fisher information of ``h``: ``names`` (family parameters, ``lambda``, ``beta``)
    checked, or by default (``None``) the conjunctivity and the family's own parameters (not ``kappa_o``,
    ``kappa_d`` nor the cross-position weights) and ``beta``; only ``beta`` for a hypothesis with a training time.

    Raises
    ------
    ParameterError
        For a name that is not a parameter of the family, ``lambda`` of a ridgeless hypothesis (the limit sits at
        the end of the ridge's domain) or of one with a training time.
    """
    active = [p.name for p in h.family.active_parameters]
    if names is None:
        if h.time is not None:  # (gradient flow: only beta has closed-form derivatives here)
            return ("beta",)
        return tuple(p for p in active if p not in ("kappa_o", "kappa_d", "beta", "delta")) + ("beta",)
    out = []
    for name in names:
        name = "lambda" if name == "ridge" else name
        if name not in active + ["lambda", "beta"]:
            raise ParameterError(f"fisher: {name!r} is not a parameter of {h.name} ({h.family.name}: "
                                 f"{', '.join(active)}, or lambda, beta)")
        if name == "lambda" and h.ridge is None:
            raise ParameterError(f"fisher: {h.name} is ridgeless, at the end of the ridge's domain; the Fisher "
                                 f"information in lambda needs a ridge > 0")
        if name in out:
            raise ParameterError(f"fisher: the parameter {name} is given twice")
        out.append(name)
    if h.time is not None and [n for n in out if n != "beta"]:
        raise ParameterError(f"fisher: {h.name} has a training time; only beta has closed-form derivatives here")
    return tuple(out)


def logit_jacobian(task: Task, h: Hypothesis, trials: Sequence[Trial], parameters: Sequence[str],
                   values: Sequence[sp.Expr], *, budget: BudgetLike = None) -> tuple[tuple[sp.Expr, ...], ...]:
    """``d (beta f(i, j)) / d theta_k`` of each trial, exactly, at the values of ``h``.

    Parameters
    ----------
    task, h, trials
        As :func:`exact_predictions`.
    parameters : sequence of str, length K
        From :func:`fisher_parameters`.
    values : sequence of sympy.Expr, length T
        The exact predictions (the ``beta`` column).
    budget
        Of the solve with the parameters symbolic.

    Returns
    -------
    tuple of T tuples of K sympy numbers
        The Jacobian of the logits ``eta_t = beta f_t``, shape ``(T, K)``.
    """
    from ..solvers.dispatch import solve

    family_names = [p for p in parameters if p not in ("lambda", "beta")]
    columns: dict[str, tuple[sp.Expr, ...]] = {}
    if "beta" in parameters:
        columns["beta"] = tuple(sp.sympify(v) for v in values)
    symbolic = family_names or "lambda" in parameters
    if symbolic:
        fam = h.family.with_values(**{p: "symbolic" for p in family_names}) if family_names else h.family
        ridge: Any = "lambda" if "lambda" in parameters else ("ridgeless" if h.ridge is None else h.ridge)
        result = solve(task, fam, ridge, budget=budget)
        point = {h.family.parameter(p).symbol: h.family.values[p] for p in family_names}
        if "lambda" in parameters:
            point[S.ridge] = h.ridge
        syms = [h.family.parameter(p).symbol if p != "lambda" else S.ridge
                for p in parameters if p != "beta"]
        derivatives: dict[str, list[sp.Expr]] = {p: [] for p in parameters if p != "beta"}
        for t in trials:
            form = result.predictions[t]
            fast = _rational_gradient(form, syms, point)
            for k, (name, sym) in enumerate(zip(derivatives, syms, strict=True)):
                d = fast[k] if fast is not None else sp.cancel(sp.diff(form, sym).subs(point))
                derivatives[name].append(sp.expand(h.beta * d))
        columns.update({k: tuple(v) for k, v in derivatives.items()})
    return tuple(tuple(columns[p][k] for p in parameters) for k in range(len(trials)))


def _rational_gradient(form: sp.Expr, syms: Sequence[sp.Symbol], point: dict[sp.Basic, Any]
                       ) -> list[sp.Rational] | None:
    """The partial derivatives of ``form`` in ``syms`` at the rational ``point``, exactly, where ``form`` is a
    rational function of ``syms`` over QQ (the closed forms of rational parameters): differentiated in the field
    ``QQ(syms)``, the same numbers as sympy's ``diff`` then ``subs``, without its assumption queries. ``None``
    where ``form`` or the point is not of that kind (the caller differentiates with sympy)."""
    exact = [sp.sympify(point[s]) for s in syms]
    if not all(v.is_Rational for v in exact):
        return None
    values = [sp.QQ.from_sympy(v) for v in exact]
    try:
        field, *gens = sp.field(list(syms), sp.QQ)
        element = field.from_expr(form)
    except (ValueError, TypeError, sp.polys.polyerrors.PolynomialError, sp.polys.polyerrors.CoercionFailed):
        return None
    out = []
    for g in gens:
        d = element.diff(g)
        num, den = d.numer(*values), d.denom(*values)
        if den == 0:  # pragma: no cover - a pole at the hypothesis's values: let sympy report it
            return None
        out.append(sp.QQ.to_sympy(num / den))
    return out
