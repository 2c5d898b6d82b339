r"""Critical parameter values: where the margin of a trial changes sign as one parameter grows.

Every margin of an exact result is a canceled rational function ``num / den`` of the free parameters
(:class:`symbolic_ti.results.Result`). Along one parameter ``x`` (``alpha``, ``kappa_o``, ``kappa_d`` or the
ridge ``lambda``), with every other parameter bound to an exact number, ``num`` and ``den`` are univariate
polynomials with rational coefficients, and the margin can change sign inside an open interval only at a
real root of odd multiplicity of ``num`` (a *zero*) or of ``den`` (a *pole*; not expected for a positive
semidefinite kernel with a positive ridge, but handled). This module isolates those roots exactly and
decides the direction of each sign change by exact evaluation at rational points between consecutive roots.

Method (derived here, see docs/theory.md#critical-values):

1. ``num`` and ``den`` are factored over the rationals (``factor_list``) into irreducible factors with
   multiplicities; distinct irreducible factors have no common root.
2. The real roots of each factor are isolated in intervals with rational end points (``Poly.intervals``);
   intervals are refined (``Poly.refine_root``) until all of them are pairwise disjoint and each lies
   strictly inside or strictly outside the open interval ``(a, b)``.
3. Each root in ``(a, b)`` is written exactly: a ``Rational`` for a linear factor, a radical
   ``(-q +- sqrt(D)) / (2 p)`` for a quadratic factor, a ``CRootOf`` otherwise; ``value_float`` is its
   30-digit evaluation, used only for sorting displays and for :attr:`CriticalReport.failure_order`.
4. Between consecutive isolating intervals, and between ``a`` (``b``) and the first (last) one, a rational
   test point is chosen; the sign of the margin there is computed exactly (``Poly.eval`` on rationals). The
   sign on the left and on the right of a root gives its direction: ``"to_error"`` (``+`` to ``-``),
   ``"to_correct"`` (``-`` to ``+``) or ``"touch"`` (a zero of even multiplicity: no sign change).

With other parameters left symbolic the signs cannot be decided: the module returns the roots of the
irreducible factors of ``num`` of degree at most 2 in ``x`` as closed forms (``sympy.roots``), with direction
``"unknown"`` (``"touch"`` for even multiplicity), and says in :attr:`CriticalReport.notes` which factors have
no closed form. Whether such a root lies inside the interval is not decided either.

No float enters the exact path: floats appear only in ``value_float`` and in the text display.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import sympy as sp

from .. import symbols as S
from ..arguments import RIDGE_NAMES, exact_number, parse_interval, resolve_trials
from ..errors import ParameterError, TaskError
from ..families.base import Family, Parameter
from ..progress import Progress
from ..results import Result
from ..task import Task

__all__ = ["Crossing", "TrialCritical", "CriticalReport", "critical_values", "DIRECTIONS"]

Trial = tuple[int, int]

#: Possible values of :attr:`Crossing.direction`.
DIRECTIONS: tuple[str, ...] = ("to_error", "to_correct", "touch", "unknown")



def _force(obj: Any, attr: str) -> Any:
    """The value stored in ``obj.attr``; a zero-argument callable is called once and replaced by its value."""
    v = getattr(obj, attr)
    if callable(v) and not isinstance(v, sp.Basic):
        v = v()
        object.__setattr__(obj, attr, v)
    return v


# --------------------------------------------------------------------------------------------- data classes
@dataclass(frozen=True)
class Crossing:
    """A parameter value where the margin of one trial vanishes (or has a pole) inside the interval.

    Attributes
    ----------
    trial : (i, j)
        The ordered trial.
    value : sympy.Expr
        The critical value, exact: a ``Rational``, a radical (quadratic factor), a ``CRootOf`` algebraic
        number, or, when other parameters are symbolic, a closed-form expression in them.
    value_float : float or None
        ``value`` evaluated to 30 digits and rounded to a float; ``None`` only when ``value`` is symbolic.
    direction : {"to_error", "to_correct", "touch", "unknown"}
        ``"to_error"``: the margin goes from positive to negative as the parameter grows through ``value``;
        ``"to_correct"``: from negative to positive; ``"touch"``: the margin vanishes without changing sign
        (a zero of even multiplicity); ``"unknown"``: the sign change cannot be decided because other
        parameters are symbolic.
    kind : {"zero", "pole"}
        ``"zero"`` for a root of the margin's numerator, ``"pole"`` for a root of its denominator (the
        prediction diverges there; not expected for a positive semidefinite kernel with a positive ridge).
    """

    trial: Trial
    _value: Any = field(compare=False)
    value_float: float | None
    direction: str
    kind: str = "zero"

    @property
    def value(self) -> sp.Expr:
        """The exact critical value (computed on first access when the report was built from the effective
        ridge, see :func:`critical_values`)."""
        return _force(self, "_value")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary: exact value as sympy text and LaTeX, float, direction, kind."""
        return {
            "trial": list(self.trial),
            "value": str(self.value),
            "value_latex": sp.latex(self.value),
            "value_float": self.value_float,
            "direction": self.direction,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class TrialCritical:
    """Sign changes of the margin of one trial along the parameter.

    Attributes
    ----------
    trial : (i, j)
    category : str
        Category of the trial (:data:`symbolic_ti.task.CATEGORIES`).
    margin : sympy.Expr
        The exact margin ``g * f(i, j)`` as a rational function of the free parameters.
    crossings : tuple of Crossing
        Sorted by ``value_float`` (in exact order) when the other parameters are numeric.
    error_at_start : bool or None
        Whether the margin is negative just above the interval's lower end; ``None`` when other parameters
        are symbolic.
    """

    trial: Trial
    category: str
    _margin: Any = field(compare=False)
    crossings: tuple[Crossing, ...]
    error_at_start: bool | None

    @property
    def margin(self) -> sp.Expr:
        """The exact margin ``g * f(i, j)``, canceled (built on first access on the Laplacian path)."""
        return _force(self, "_margin")

    @property
    def first_error(self) -> Crossing | None:
        """The first ``"to_error"`` crossing, or ``None``."""
        return next((c for c in self.crossings if c.direction == "to_error"), None)

    def to_dict(self, margins: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary; ``margins=False`` leaves out the exact margin (slow to build for large n)."""
        out: dict[str, Any] = {"trial": list(self.trial), "category": self.category}
        if margins:
            out["margin"] = str(self.margin)
        out.update({"error_at_start": self.error_at_start, "crossings": [c.to_dict() for c in self.crossings]})
        return out


@dataclass(frozen=True)
class CriticalReport:
    """Critical values of one parameter for the margins of some trials of a result.

    Attributes
    ----------
    parameter : str
        The parameter name (``"lambda"`` for the ridge).
    interval : (sympy.Expr, sympy.Expr)
        The interval ``(a, b)`` scanned; crossings are reported in the open interval.
    result_label : str
        Task, family and ridge of the result.
    trials : tuple of TrialCritical
        One entry per trial, in trial order.
    failure_order : tuple of ((i, j), float)
        Trials in the order in which they first become errors as the parameter grows: trials already wrong
        just above ``a`` come first with the value ``float(a)``, then the others by the value of their first
        ``"to_error"`` crossing. Trials that are never wrong are omitted. Empty when ``symbolic``.
    symbolic : bool
        Whether other free parameters remained in the result.
    notes : tuple of str
        Remarks: factors without closed-form roots, poles, ridgeless exceptional values, and the like.
    method : {"generic", "laplacian"}
        ``"generic"``: root isolation on each canceled margin; ``"laplacian"``: the exchangeable family's
        effective-ridge analysis (:func:`symbolic_ti.analysis.conjunctivity.margin_gammas`), which builds margins
        and exact values only on access.
    """

    parameter: str
    interval: tuple[sp.Expr, sp.Expr]
    result_label: str
    trials: tuple[TrialCritical, ...]
    failure_order: tuple[tuple[Trial, float], ...]
    symbolic: bool
    notes: tuple[str, ...] = field(default=())
    method: str = "generic"

    # ------------------------------------------------------------------ access
    @property
    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing of every trial, sorted by ``value_float`` when numeric."""
        out = [c for t in self.trials for c in t.crossings]
        if not self.symbolic or all(c.value_float is not None for c in out):
            out.sort(key=lambda c: (c.value_float if c.value_float is not None else float("inf"), c.trial))
        return tuple(out)

    def trial(self, i: int, j: int) -> TrialCritical:
        """The :class:`TrialCritical` of trial ``(i, j)``.

        Raises
        ------
        KeyError
            If the trial is not part of the report.
        """
        for t in self.trials:
            if t.trial == (i, j):
                return t
        raise KeyError(f"trial ({i}, {j}) is not in this critical-value report")

    # ----------------------------------------------------------------- display
    def to_dict(self, margins: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary (exact values as sympy text and LaTeX, plus floats); ``margins=False`` leaves
        out each trial's exact margin, which for large n takes most of the time."""
        return {
            "parameter": self.parameter,
            "interval": [str(self.interval[0]), str(self.interval[1])],
            "result": self.result_label,
            "symbolic": self.symbolic,
            "method": self.method,
            "trials": [t.to_dict(margins) for t in self.trials],
            "failure_order": [{"trial": list(t), "value": v} for t, v in self.failure_order],
            "notes": list(self.notes),
        }

    def to_json(self, margins: bool = True, **kwargs: Any) -> str:
        """:meth:`to_dict` as a JSON string (other keyword arguments go to :func:`json.dumps`)."""
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(margins), **kwargs)

    def to_text(self) -> str:
        """Plain-text report: crossings per trial, trials without sign change, failure order, notes."""
        p = self.parameter
        a, b = self.interval
        lines = [f"Critical values of {p} on ({a}, {b})", self.result_label, ""]
        with_cross = [t for t in self.trials if t.crossings]
        without = [t for t in self.trials if not t.crossings]
        if with_cross:
            lines.append(f"{'trial':<9}{'category':<16}{'at start':<10}crossings")
            for t in with_cross:
                start = _start_word(t.error_at_start)
                parts = []
                for c in t.crossings:
                    shown = _fmt(c.value_float) if c.value_float is not None else str(c.value)
                    exact = "" if c.value_float is None else _exact_text(c)
                    kind = " (pole)" if c.kind == "pole" else ""
                    parts.append(f"{p} = {shown}{exact} {c.direction}{kind}")
                lines.append(f"{_trial_text(t.trial):<9}{t.category:<16}{start:<10}" + "; ".join(parts))
        else:
            lines.append("No trial changes sign on this interval.")
        if without:
            wrong = [t for t in without if t.error_at_start]
            right = [t for t in without if t.error_at_start is False]
            unknown = [t for t in without if t.error_at_start is None]
            lines.append("")
            lines.append(f"{len(without)} trial(s) without crossing: {len(right)} correct throughout, "
                         f"{len(wrong)} wrong throughout" + (f", {len(unknown)} undecided" if unknown else ""))
            if wrong:
                lines.append("  wrong throughout: " + ", ".join(_trial_text(t.trial) for t in wrong))
        lines.append("")
        if self.symbolic or any(t.error_at_start is None for t in self.trials):
            lines.append("Failure order: not decidable (symbolic or irrational parameters).")
        elif self.failure_order:
            lines.append(f"Failure order as {p} grows (trials already wrong at {p} -> {a}+ first):")
            start = {tc.trial for tc in self.trials if tc.error_at_start}
            for t, v in self.failure_order:
                where = f"wrong from the start ({p} -> {a}+)" if t in start else f"{p} = {_fmt(v)}"
                lines.append(f"  {_trial_text(t):<9}{where}")
        else:
            lines.append("Failure order: no trial becomes an error on this interval.")
        if self.notes:
            lines.append("")
            lines.append("Notes:")
            lines += [f"  - {n}" for n in self.notes]
        return "\n".join(lines)

    def _latex_rows(self, notebook: bool) -> list[tuple[str, str, str, str]]:
        sym = _param_latex(self.parameter)
        rows = []
        for t in self.trials:
            if not t.crossings:
                continue
            cells = []
            for c in t.crossings:
                approx = "" if c.value_float is None or c.value.is_Rational else rf" \approx {c.value_float:.6g}"
                kind = r",\ \text{pole}" if c.kind == "pole" else ""
                cells.append(rf"{sym} = {sp.latex(c.value)}{approx}\ (\text{{{c.direction.replace('_', ' ')}}}{kind})")
            cat = t.category if notebook else t.category.replace("_", r"\_")  # MathJax \text is literal
            rows.append((rf"({t.trial[0]}, {t.trial[1]})", cat,
                         _start_word(t.error_at_start), r",\quad ".join(cells)))
        return rows

    def to_latex(self, notebook: bool = False) -> str:
        """LaTeX table of the crossings (a ``tabular``; ``notebook=True`` gives a MathJax ``array``)."""
        sym = _param_latex(self.parameter)
        a, b = self.interval
        title = rf"\text{{Critical values of }} {sym} \text{{ on }} \left({sp.latex(a)}, {sp.latex(b)}\right)"
        rows = self._latex_rows(notebook)
        order = ", ".join(rf"({t[0]}, {t[1]})\ [{v:.4g}]" for t, v in self.failure_order)
        if notebook:
            body = [rf"\begin{{array}}{{llll}}",
                    r"\text{trial} & \text{category} & \text{at start} & \text{crossings} \\ \hline"]
            for tr, cat, start, cells in rows:
                body.append(rf"{tr} & \text{{{cat}}} & \text{{{start}}} & {cells} \\")
            body.append(r"\end{array}")
            out = [rf"{title}\\ \text{{{self.result_label}}}\\", "\n".join(body)]
            if order:
                out.append(rf"\\ \text{{failure order: }} {order}")
            return "$$" + "\n".join(out) + "$$"
        body = [rf"% {self.result_label}", rf"\begin{{tabular}}{{llll}}",
                r"trial & category & at start & crossings \\ \hline"]
        for tr, cat, start, cells in rows:
            body.append(rf"${tr}$ & {cat} & {start} & ${cells}$ \\")
        body.append(r"\end{tabular}")
        head = rf"${title}$ \\ {_latex_escape_text(self.result_label)}"
        tail = [rf"Failure order: ${order}$" if order else ""]
        return "\n".join([head, *body, *[t for t in tail if t]])

    def _repr_latex_(self) -> str:
        return self.to_latex(notebook=True)

    def _repr_html_(self) -> str:
        from ..export.notebook import critical_to_html

        return critical_to_html(self)

    def __str__(self) -> str:
        return self.to_text()


_MAX_EXACT_TEXT = 120
_MAX_FACTOR_DEGREE = 12  # text reports factor a root's polynomial to show its exact value only up to this degree


class _LazyAlpha:
    """The exact ``alpha*`` of a root in gamma, computed on call (see :class:`Crossing`)."""

    def __init__(self, root: Any, lam: sp.Rational) -> None:
        self.root, self.lam = root, lam

    def __call__(self) -> sp.Expr:
        return self.root.alpha(self.lam)

    def readable(self) -> bool:
        """Whether the exact value is short (rational or quadratic), deciding it cheaply: factoring is tried
        only for polynomials of degree <= ``_MAX_FACTOR_DEGREE``."""
        r = self.root
        if r.rational:
            return True
        if r._min is None and len(r.poly) - 1 > _MAX_FACTOR_DEGREE:
            return False
        return len(r.minimal()[0]) - 1 <= 2


def _exact_text(c: Crossing) -> str:
    """`` [exact value]`` for the text report, or ``""`` when it is an integer or too long to read (a ``CRootOf``
    of high degree: then ``--format json`` or ``report.trial(i, j)`` has it)."""
    if isinstance(c._value, _LazyAlpha) and not c._value.readable():
        return " [algebraic; exact value in --format json]"
    v = c.value
    if v.is_Integer:
        return ""
    text = str(v)
    if len(text) > _MAX_EXACT_TEXT:
        return " [algebraic; exact value in --format json]"
    return f" [{text}]"


def _fmt(v: float) -> str:
    """Six significant digits, more where that would round a non-integer to an integer (0.9999996 -> not "1")."""
    text = f"{v:.6g}"
    if float(text) == round(v) and v != round(v):
        text = f"{v:.12g}"
    return text


def _trial_text(t: Trial) -> str:
    return f"({t[0]}, {t[1]})"


def _start_word(flag: bool | None) -> str:
    return "wrong" if flag else ("correct" if flag is False else "?")


def _param_latex(name: str) -> str:
    sym = S.ridge if name in RIDGE_NAMES else sp.Symbol(name)
    return sp.latex(sym)


def _latex_escape_text(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"),
                 ("{", r"\{"), ("}", r"\}"), (">", r"\textgreater{}")):
        text = text.replace(a, b)
    return text


# ------------------------------------------------------------------------------------------- validation
def check_parameter(family: Family, ridge: sp.Expr | None, parameter: Any) -> tuple[str, sp.Symbol, sp.Expr, sp.Expr]:
    """Check that ``parameter`` can be scanned for this family and ridge; return its name, Symbol and domain.

    Parameters
    ----------
    family : Family
        The family with its bound values.
    ridge : sympy expression or None
        The ridge of the result (``None`` for the ridgeless limit, the Symbol ``lambda`` when symbolic).
    parameter : str
        A family parameter name, or ``"lambda"`` / ``"ridge"``.

    Returns
    -------
    (name, symbol, lower, upper)
        ``name`` is ``"lambda"`` for the ridge; ``lower, upper`` bound its domain (``0, oo`` for the ridge).

    Raises
    ------
    ParameterError
        If ``parameter`` is not a name, not a parameter of the family nor the ridge, is fixed to a value, or
        is not used by the family's parametrization.
    """
    if not isinstance(parameter, str):
        raise ParameterError(f"parameter must be a name such as 'alpha' or 'lambda', got {parameter!r}")
    name = parameter.strip()
    if name in RIDGE_NAMES:
        if ridge is None:
            raise ParameterError(
                "parameter lambda (the ridge) is fixed to the ridgeless limit lambda -> 0+ in this result; "
                "derive with ridge=None to leave the ridge symbolic"
            )
        if not sp.sympify(ridge).has(S.ridge):
            raise ParameterError(
                f"parameter lambda (the ridge) is fixed to the value {ridge} in this result; "
                "derive with ridge=None to leave it symbolic"
            )
        return "lambda", S.ridge, sp.Integer(0), sp.oo
    table: dict[str, Parameter] = {p.name: p for p in family.parameters}
    if name not in table:
        names = ", ".join(table)
        raise ParameterError(
            f"parameter {name!r} is not in the family {family.name!r}; its parameters are {names}, "
            "or 'lambda' (also 'ridge') for the ridge"
        )
    p = table[name]
    bound = family.values
    if name in bound:
        raise ParameterError(
            f"parameter {name} is fixed to the value {bound[name]} in this result ({family.describe()}); "
            f"leave it symbolic to scan it"
        )
    if p not in family.active_parameters:
        active = ", ".join(q.name for q in family.active_parameters)
        raise ParameterError(
            f"parameter {name} is not used by this parametrization of {family.name!r} (active parameters: "
            f"{active}); leave it symbolic explicitly, e.g. parameters={{{name!r}: 'symbolic'}}"
        )
    return name, p.symbol, p.lower, p.upper


def _joint_range(result: Result, name: str) -> tuple[sp.Expr, sp.Expr] | None:
    """The part of the table domain where joint constraints between parameters hold, when they bind.

    Exchangeable family, kappa parametrization: the kernel is positive semidefinite for every n exactly when
    ``kappa_d <= kappa_o <= (1 + kappa_d)/2`` (its docstring); with the other kappa numeric this is an
    interval of the scanned one.
    """
    fam = result.family
    if getattr(fam, "parametrization", None) != "kappa":
        return None
    vals = fam.values
    if name == "kappa_o" and "kappa_d" in vals and not vals["kappa_d"].free_symbols:
        kd = vals["kappa_d"]
        return kd, (1 + kd) / 2
    if name == "kappa_d" and "kappa_o" in vals and not vals["kappa_o"].free_symbols:
        ko = vals["kappa_o"]
        return sp.Max(sp.Integer(0), 2 * ko - 1), ko
    return None


# ---------------------------------------------------------------------------------------- exact isolation
class _Root:
    """A real root of an irreducible factor, isolated in the closed interval [s, t] with rational ends."""

    __slots__ = ("poly", "mult", "kind", "s", "t", "index")

    def __init__(self, poly: sp.Poly, mult: int, kind: str, s: sp.Rational, t: sp.Rational, index: int):
        self.poly, self.mult, self.kind, self.s, self.t, self.index = poly, mult, kind, s, t, index

    @property
    def rational(self) -> bool:
        return self.s == self.t

    def refine(self) -> None:
        if self.rational:
            return
        s, t = self.poly.refine_root(self.s, self.t, eps=(self.t - self.s) / 4)
        self.s, self.t = sp.Rational(s), sp.Rational(t)

    def exact(self) -> sp.Expr:
        g = self.poly
        if self.rational:
            return self.s
        if g.degree() == 2:
            p, q, r = g.all_coeffs()
            disc = sp.sqrt(q * q - 4 * p * r)
            lo_hi = [(-q - disc) / (2 * p), (-q + disc) / (2 * p)]
            if p < 0:
                lo_hi.reverse()
            return lo_hi[self.index]
        return sp.CRootOf(g.as_expr(), self.index)


def _real_roots(poly: sp.Poly, kind: str) -> list[_Root]:
    """Every real root of ``poly`` (over QQ), one :class:`_Root` per distinct root, with multiplicity."""
    out: list[_Root] = []
    if poly.degree() <= 0:
        return out
    _, factors = poly.factor_list()
    for g, mult in factors:
        if g.degree() <= 0:
            continue
        if g.degree() == 1:
            c1, c0 = g.all_coeffs()
            x = sp.Rational(-c0, c1)
            out.append(_Root(g, mult, kind, x, x, 0))
            continue
        ivs = sorted((sp.Rational(s), sp.Rational(t)) for (s, t), _ in g.intervals())
        for k, (s, t) in enumerate(ivs):
            out.append(_Root(g, mult, kind, s, t, k))
    return out


def _separate(roots: list[_Root], lo: sp.Expr, hi: sp.Expr) -> list[_Root]:
    """Refine until every root interval lies strictly inside or outside (lo, hi); keep the inside ones,
    pairwise disjoint and sorted."""
    inside: list[_Root] = []
    for r in roots:
        while True:
            if r.rational:
                if lo < r.s < hi:
                    inside.append(r)
                break
            if r.t <= lo or r.s >= hi:
                break
            if r.s > lo and r.t < hi:
                inside.append(r)  # strictly inside, so test points never fall on lo or hi
                break
            r.refine()
    while True:
        inside.sort(key=lambda r: (r.s, r.t))
        clash = False
        for a, b in zip(inside, inside[1:]):
            if a.t >= b.s:
                a.refine()
                b.refine()
                clash = True
        if not clash:
            return inside


def _test_points(roots: list[_Root], lo: sp.Expr, hi: sp.Expr) -> list[sp.Rational]:
    """Rational points strictly between lo, the roots (in order) and hi: len(roots) + 1 of them."""
    ends = [lo] + [x for r in roots for x in (r.s, r.t)] + [hi]
    return _points_between(zip(ends[0::2], ends[1::2]), sp.oo, sp.Integer(0))


def _points_between(gaps: Iterable[tuple[Any, Any]], inf: Any, zero: Any) -> list[Any]:
    """One point inside each open gap ``(left, right)``: the midpoint, or a unit step in from a finite end when
    the other is infinite (``inf`` is the arithmetic's infinity: ``sympy.oo`` or ``mpmath.inf``)."""
    pts = []
    for left, right in gaps:
        if left == -inf and right == inf:
            pts.append(zero)
        elif left == -inf:
            pts.append(right - 1)
        elif right == inf:
            pts.append(left + 1)
        else:
            pts.append((left + right) / 2)
    return pts


def _rational_coefficients(num: sp.Expr, den: sp.Expr, sym: sp.Symbol) -> bool:
    """Whether ``num`` and ``den`` are polynomials in ``sym`` with rational coefficients."""
    try:
        sp.Poly(num, sym, domain="QQ"), sp.Poly(den, sym, domain="QQ")
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed):
        return False
    return True


def _sign_at(num: sp.Poly, den: sp.Poly, x: sp.Rational) -> int:
    v = num.eval(x) * den.eval(x)
    return 1 if v > 0 else (-1 if v < 0 else 0)


def _exact_trial(trial: Trial, num: sp.Expr, den: sp.Expr, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                 notes: list[str]) -> tuple[tuple[Crossing, ...], bool]:
    pn, pd = sp.Poly(num, sym, domain="QQ"), sp.Poly(den, sym, domain="QQ")
    if pn.is_zero:
        notes.append(f"the margin of ({trial[0]}, {trial[1]}) is identically zero")
        return (), False
    roots = _separate(_real_roots(pn, "zero") + _real_roots(pd, "pole"), lo, hi)
    pts = _test_points(roots, lo, hi)
    signs = [_sign_at(pn, pd, x) for x in pts]
    if 0 in signs:  # cannot happen: every root of num and den in (lo, hi) is isolated away from pts
        raise AssertionError("internal: a test point hit a root")
    crossings = []
    for k, r in enumerate(roots):
        left, right = signs[k], signs[k + 1]
        if left == right:
            if r.kind == "pole":
                notes.append(f"the margin of ({trial[0]}, {trial[1]}) has a pole without sign change at "
                             f"{_root_text(r)}")
                continue
            direction = "touch"
        else:
            direction = "to_error" if left > 0 else "to_correct"
        value = r.exact()
        crossings.append(Crossing(trial, value, float(sp.N(value, 30)), direction, r.kind))
        if r.kind == "pole":
            notes.append(f"the margin of ({trial[0]}, {trial[1]}) changes sign through a pole at {_root_text(r)}")
    return tuple(crossings), signs[0] < 0


_NUMERIC_DPS = 60


def _numeric_trial(trial: Trial, num: sp.Expr, den: sp.Expr, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                   notes: list[str]) -> tuple[tuple[Crossing, ...], bool]:
    """Crossings of a margin whose coefficients are irrational numbers: roots by ``mpmath.polyroots`` at
    :data:`_NUMERIC_DPS` digits, signs by evaluation between them (values are Floats, said in the notes)."""
    import mpmath

    with mpmath.workdps(_NUMERIC_DPS):
        def coeffs(expr: sp.Expr) -> list[Any]:
            return [mpmath.mpf(str(sp.N(c, _NUMERIC_DPS + 20))) for c in sp.Poly(expr, sym).all_coeffs()]

        cn, cd = coeffs(num), coeffs(den)
        if all(c == 0 for c in cn):
            notes.append(f"the margin of ({trial[0]}, {trial[1]}) is identically zero")
            return (), False
        lo_f = mpmath.mpf(str(sp.N(lo, _NUMERIC_DPS))) if lo != -sp.oo else -mpmath.inf
        hi_f = mpmath.mpf(str(sp.N(hi, _NUMERIC_DPS))) if hi != sp.oo else mpmath.inf
        tol = mpmath.mpf(10) ** (-_NUMERIC_DPS // 2)

        def real_roots(c: list[Any], kind: str) -> list[tuple[Any, str]]:
            while c and c[0] == 0:
                c = c[1:]
            if len(c) < 2:
                return []
            found = mpmath.polyroots(c, maxsteps=400, extraprec=4 * _NUMERIC_DPS)
            return [(mpmath.re(z), kind) for z in found
                    if abs(mpmath.im(z)) <= tol * (1 + abs(z)) and lo_f < mpmath.re(z) < hi_f]

        roots = sorted(real_roots(cn, "zero") + real_roots(cd, "pole"), key=lambda e: e[0])
        merged: list[tuple[Any, str]] = []
        for x, kind in roots:  # a multiple root comes back as a cluster: keep one
            if merged and abs(x - merged[-1][0]) <= tol * (1 + abs(x)) and kind == merged[-1][1]:
                continue
            merged.append((x, kind))

        def sign_at(x: Any) -> int:
            v = mpmath.polyval(cn, x) * mpmath.polyval(cd, x)
            return 1 if v > 0 else (-1 if v < 0 else 0)

        ends = [lo_f] + [x for x, _ in merged] + [hi_f]
        signs = [sign_at(x) for x in _points_between(zip(ends, ends[1:]), mpmath.inf, mpmath.mpf(0))]
        out = []
        for k, (x, kind) in enumerate(merged):
            left, right = signs[k], signs[k + 1]
            if left == right:
                if kind == "pole":
                    continue
                direction = "touch"
            else:
                direction = "to_error" if left > 0 else "to_correct"
            value = sp.Float(mpmath.nstr(x, _NUMERIC_DPS // 2), _NUMERIC_DPS // 2)
            out.append(Crossing(trial, value, float(x), direction, kind))
        return tuple(out), signs[0] < 0


def _root_text(r: _Root) -> str:
    return f"{float(sp.N(r.exact(), 30)):.6g}"


def _symbolic_trial(trial: Trial, num: sp.Expr, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                    notes: list[str]) -> tuple[Crossing, ...]:
    if num == 0:
        notes.append(f"the margin of ({trial[0]}, {trial[1]}) is identically zero")
        return ()
    _, factors = sp.factor_list(sp.expand(num))
    out = []
    for g, mult in factors:
        pg = sp.Poly(g, sym)
        d = pg.degree()
        if d <= 0:
            continue
        if d > 2:
            notes.append(
                f"({trial[0]}, {trial[1]}): a factor of degree {d} in {sym} has no closed-form roots here; "
                "bind the other parameters to numbers for exact algebraic roots"
            )
            continue
        found = sp.roots(pg, multiple=True)
        direction = "touch" if mult % 2 == 0 else "unknown"
        for v in dict.fromkeys(found):
            v = sp.simplify(v) if d == 1 else v
            if not v.free_symbols:  # a number: keep it only inside the open interval, as in the exact path
                if not (v.is_real and bool(lo < v) and bool(v < hi)):
                    continue
                out.append(Crossing(trial, v, float(sp.N(v, 30)), direction, "zero"))
                continue
            if (v <= lo) is sp.true or (v >= hi) is sp.true:  # outside for every value of the other parameters
                continue
            out.append(Crossing(trial, v, None, direction, "zero"))
    return tuple(out)


def _ridgeless_notes(result: Result, sym: sp.Symbol, lo: sp.Expr, hi: sp.Expr, notes: list[str]) -> None:
    for cond in getattr(result, "ridgeless_conditions", ()) or ():
        cond = sp.sympify(cond)
        if not cond.has(sym):
            continue
        if cond.free_symbols - {sym}:
            notes.append(f"ridgeless limit: the formulas hold where {cond} != 0; "
                         "at its roots solve again with the value set")
            continue
        for r in _separate(_real_roots(sp.Poly(cond, sym, domain="QQ"), "zero"), lo, hi):
            notes.append(f"ridgeless limit: at {sym} = {r.exact()} (~{_root_text(r)}) the formulas may differ "
                         "from the limit; solve again with that value to check")


# --------------------------------------------------------------------------------------------- public API
def _laplacian_applies(result: Result, name: str, sym: sp.Symbol) -> bool:
    """Whether the effective-ridge analysis covers this scan: an exchangeable result on the Laplacian path in
    the alpha parametrization, scanning alpha, with a rational ridge (or ridgeless) and a rational kappa_d."""
    if name != "alpha" or not str(result.method).startswith("laplacian"):
        return False
    scale, alpha, kd = result.family.exchangeable_form()
    if alpha != sym or set(result.free_symbols) - {sym}:
        return False
    ridge_ok = result.ridge is None or (result.ridge.is_Rational and result.ridge >= 0)
    return bool(ridge_ok and sp.sympify(kd).is_Rational and sp.sympify(scale).is_Rational)


def _laplacian_trials(result: Result, chosen: list[Trial], lo: sp.Expr, hi: sp.Expr,
                      notes: list[str]) -> list[TrialCritical]:
    """Crossings in alpha from the sign structure of each margin in the effective ridge gamma.

    ``gamma = 2 (alpha + lambda') / (1 - alpha)`` grows with alpha, so the crossings in ``(lo, hi)`` are the
    roots ``gamma*`` in ``(gamma(lo), gamma(hi))``, with ``alpha* = (gamma* - 2 lambda') / (gamma* + 2)``;
    see :func:`symbolic_ti.analysis.conjunctivity.margin_gammas`."""
    from fractions import Fraction

    from .conjunctivity import _alpha_float, margin_gammas

    scale, _, kd = result.family.exchangeable_form()
    lam = sp.Integer(0) if result.ridge is None else sp.Rational(result.ridge / (scale * (1 - kd)))
    gammas = margin_gammas(result.task, chosen, lam)

    def gamma_of(a: sp.Expr) -> Fraction | None:
        if a == 1:
            return None
        g = sp.Rational(2 * (a + lam) / (1 - a))
        return Fraction(int(g.p), int(g.q))

    g_lo, g_hi = gamma_of(sp.Rational(lo)), gamma_of(sp.Rational(hi))
    out: list[TrialCritical] = []
    for t in chosen:
        tg = gammas[t]
        margin = (lambda t=t: sp.cancel(sp.together(result.margin(*t))))
        if tg.sign_at_zero == 0:
            notes.append(f"the margin of ({t[0]}, {t[1]}) is identically zero")
            out.append(TrialCritical(t, tg.category, margin, (), False))
            continue
        start = tg.sign_after(sp.Rational(g_lo.numerator, g_lo.denominator)) < 0
        inside = []
        for r in tg.roots + tg.touches:
            root = r._root
            if root.compare_rational(g_lo) <= 0 or (g_hi is not None and root.compare_rational(g_hi) >= 0):
                continue
            inside.append((root, r.direction))
        crossings = tuple(
            Crossing(t, _LazyAlpha(root, lam), _alpha_float(root, lam), direction, "zero")
            for root, direction in sorted(inside, key=lambda e: _alpha_float(e[0], lam)))
        out.append(TrialCritical(t, tg.category, margin, crossings, start))
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
        truth). A single pair ``(i, j)`` is accepted.
    method : {"auto", "generic", "laplacian"}
        ``"generic"`` isolates the roots of each canceled margin. ``"laplacian"`` (chosen by ``"auto"`` when it
        applies: an exchangeable result on the Laplacian path, scanning ``alpha`` with a rational ridge or
        ridgeless and a rational ``kappa_d``) reads every crossing off one integer polynomial per trial in the
        effective ridge gamma (:func:`symbolic_ti.analysis.conjunctivity.margin_gammas`) and builds margins and exact
        values only when they are accessed; n = 61, every trial, takes about a second instead of most of an
        hour. The two agree exactly (tests/test_critical.py).

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
    (rational intervals, ``factor_list``) and the direction of each sign change is decided by exact
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
    joint = _joint_range(result, name)
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
            margin = sp.cancel(sp.together(result.margin(*t)))
            num, den = sp.fraction(margin)
            start: bool | None = None
            if margin.free_symbols - {sym}:
                crossings = _symbolic_trial(t, num, sym, lo, hi, notes)
                all_exact = False
            elif not _rational_coefficients(num, den, sym):
                notes.append(f"some margins have irrational coefficients (e.g. pi, square roots, the ReLU kernel "
                             f"constants); their crossings are real roots computed numerically at "
                             f"{_NUMERIC_DPS} digits (mpmath.polyroots), with directions and start signs from "
                             f"{_NUMERIC_DPS}-digit evaluations between them, not exact algebraic numbers")
                crossings, start = _numeric_trial(t, num, den, sym, lo, hi, notes)
            else:
                crossings, start = _exact_trial(t, num, den, sym, lo, hi, notes)
            out.append(TrialCritical(t, cats[t], margin, crossings, start))
        if chosen:
            progress.update(step, len(chosen), len(chosen))
    if result.ridgeless:
        _ridgeless_notes(result, sym, lo, hi, notes)
    order: list[tuple[Trial, float]] = []
    if all_exact:
        start_value = float(lo)
        for tc in out:
            if tc.error_at_start:
                order.append((tc.trial, start_value))
            elif tc.first_error is not None:
                order.append((tc.trial, tc.first_error.value_float))  # type: ignore[arg-type]
        order.sort(key=lambda e: e[1])  # stable: ties keep trial order
    label = _result_label(result)
    return CriticalReport(name, (lo, hi), label, tuple(out), tuple(order), symbolic, tuple(dict.fromkeys(notes)),
                          "laplacian" if fast else "generic")


def _result_label(result: Result) -> str:
    if result.ridgeless:
        ridge = "ridgeless (lambda -> 0+)"
    elif result.ridge == S.ridge:
        ridge = "lambda symbolic"
    else:
        ridge = f"lambda = {result.ridge}"
    return f"{result.task.label()}; {result.family.describe()}; {ridge}"
