r"""The data of a critical-value report: crossings per trial, the failure order, notes.

Plain data; :mod:`symbolic_ti.export.critical` renders it (text, LaTeX, JSON, notebook HTML). Margins and exact
values are computed only on first access (:class:`LazyRoot`), on the effective-ridge path
(:func:`symbolic_ti.analysis.crossings.critical_values` with ``method="laplacian"``) and for the exact crossings
of the generic path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy as sp

from ..display import Rendered, render
from .roots import RealRoot

if TYPE_CHECKING:  # pragma: no cover
    from ..task import Task

__all__ = ["Crossing", "TrialCritical", "CriticalReport", "DIRECTIONS", "LazyRoot"]

Trial = tuple[int, int]

#: Possible values of :attr:`Crossing.direction`.
DIRECTIONS: tuple[str, ...] = ("to_error", "to_correct", "touch", "unknown")

_MAX_FACTOR_DEGREE = 12  # a lazy root's exact value is judged short only if factoring up to this degree says so


class LazyRoot:
    """The exact value of a root (:meth:`symbolic_ti.analysis.roots.RealRoot.exact` in ``symbol``), or of its
    image ``(a x + b) / (c x + d)`` under an increasing Moebius map (:meth:`~symbolic_ti.analysis.roots.RealRoot.image`),
    computed on call.

    Used by both paths of :func:`symbolic_ti.analysis.crossings.critical_values`: the effective-ridge path
    (``alpha* = (gamma* - 2 lambda') / (gamma* + 2)`` of a root in gamma, ``brief=True``: a value of degree > 2
    is judged long without looking at it) and the generic path (the root itself, judged long only when a lower
    bound on the length of its text says so, :meth:`readable`).
    """

    def __init__(self, root: RealRoot, symbol: sp.Symbol, moebius: tuple[int, int, int, int] | None = None,
                 brief: bool = False) -> None:
        self.root, self.symbol, self.moebius, self.brief = root, symbol, moebius, brief

    def __call__(self) -> sp.Expr:
        if self.moebius is not None:
            return self.root.image(*self.moebius, self.symbol)
        return self.root.exact(self.symbol)

    def readable(self, max_chars: int | None = None) -> bool:
        """Whether the exact value may be short, decided without building it: rational or quadratic roots are;
        with ``brief``, nothing else is (the polynomial is factored only up to degree ``_MAX_FACTOR_DEGREE``);
        otherwise a ``CRootOf`` is not when its text is certainly longer than ``max_chars`` (:func:`_text_floor`)."""
        r = self.root
        if r.rational:
            return True
        if self.brief and r._min is None and len(r.poly) - 1 > _MAX_FACTOR_DEGREE:
            return False
        if not self.brief and max_chars is None:
            return True
        cs = r._min if r._min is not None else r.minimal()[0]  # (minimal() would also find the root's index)
        if len(cs) - 1 <= 2:
            return True
        return False if self.brief else _text_floor(cs, self.symbol) <= int(max_chars)  # type: ignore[arg-type]


def _text_floor(cs: tuple[int, ...], symbol: sp.Symbol) -> int:
    """A lower bound on ``len(str(CRootOf(p, k)))`` for the integer polynomial ``cs`` (degree >= 3) in ``symbol``.

    sympy may divide the polynomial's coefficients by powers of an integer (``x -> b x``,
    ``sympy.polys.polyroots.preprocess_roots``), so only what that keeps is counted: ``CRootOf(``, ``, k)``, the
    digits of the leading coefficient, ``symbol`` (and ``**e``) in each nonzero term of degree ``e >= 1``, and the
    three characters `` + `` or `` - `` between terms."""
    d = len(cs) - 1
    exps = [d - k for k, c in enumerate(cs) if c]
    out = len("CRootOf(, 0)") + (len(str(cs[0])) + 1 if cs[0] != 1 else 0) + 3 * (len(exps) - 1)
    name = len(str(symbol))
    return out + sum(name + (2 + len(str(e)) if e >= 2 else 0) for e in exps if e >= 1)


def _force(obj: Any, attr: str) -> Any:
    """The value stored in ``obj.attr``; a zero-argument callable is called once and replaced by its value."""
    v = getattr(obj, attr)
    if callable(v) and not isinstance(v, sp.Basic):
        v = v()
        object.__setattr__(obj, attr, v)
    return v


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
        """The exact critical value (an exact root's value is computed on first access, :class:`LazyRoot`; see
        :func:`symbolic_ti.analysis.crossings.critical_values`)."""
        return _force(self, "_value")

    def has_short_form(self, max_chars: int | None = None) -> bool:
        """False when the exact value is known, without computing it, to be long: an algebraic number of degree
        > 2 on the effective-ridge path, a ``CRootOf`` whose text is certainly longer than ``max_chars`` on the
        generic path (:meth:`LazyRoot.readable`); True otherwise."""
        v = self._value
        return v.readable(max_chars) if isinstance(v, LazyRoot) else True

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary (:mod:`symbolic_ti.export.critical`)."""
        out: dict[str, Any] = render("dict", self)
        return out


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
    margin_form : PolyFraction or None
        The margin as the solver's :class:`~symbolic_ti.results.PolyFraction` (``f`` or ``-f``), where the
        result holds one: its value equals :attr:`margin`, and ``--margins`` prints it from its terms
        (:func:`symbolic_ti.export.values.exact_value`) without building the expression.
    """

    trial: Trial
    category: str
    _margin: Any = field(compare=False)
    crossings: tuple[Crossing, ...]
    error_at_start: bool | None
    margin_form: Any = field(default=None, compare=False, repr=False)

    @property
    def margin(self) -> sp.Expr:
        """The exact margin ``g * f(i, j)``, canceled (built on first access where the scan did not need it)."""
        return _force(self, "_margin")

    @property
    def first_error(self) -> Crossing | None:
        """The first ``"to_error"`` crossing, or ``None``."""
        return next((c for c in self.crossings if c.direction == "to_error"), None)

    def to_dict(self, margins: bool = True) -> dict[str, Any]:
        """JSON-ready dictionary; ``margins=False`` leaves out the exact margin (printed from :attr:`margin_form`
        where there is one, else built and canceled: slow for large n)."""
        out: dict[str, Any] = render("dict", self, margins=margins)
        return out


@dataclass(frozen=True)
class CriticalReport(Rendered):
    """Critical values of one parameter for the margins of some trials of a result.

    Rendered by :mod:`symbolic_ti.export.critical`: ``to_text()``, ``to_latex(notebook=False)``,
    ``to_dict(margins=True)``, ``to_json(margins=True)`` and the notebook hooks.

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
        effective-ridge analysis (:func:`symbolic_ti.analysis.gamma.margin_gammas`), which builds margins
        and exact values only on access.
    symbolic_parameters : tuple of str
        The names of the other free parameters (sorted; empty unless ``symbolic``).
    task : Task or None
        The task of the result (written into the JSON's ``task`` block for any task but ``Task(n,
        exceptions)``); ``None`` for a report built by hand.
    """

    parameter: str
    interval: tuple[sp.Expr, sp.Expr]
    result_label: str
    trials: tuple[TrialCritical, ...]
    failure_order: tuple[tuple[Trial, float], ...]
    symbolic: bool
    notes: tuple[str, ...] = field(default=())
    method: str = "generic"
    symbolic_parameters: tuple[str, ...] = field(default=())
    task: Task | None = field(default=None, repr=False, compare=False)

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

    def failure_values(self) -> tuple[tuple[Trial, sp.Expr], ...]:
        """The exact values behind :attr:`failure_order`: the interval's lower end for a trial wrong from the
        start, else the exact value of its first ``"to_error"`` crossing."""
        by_trial = {tc.trial: tc for tc in self.trials}
        out = []
        for t, _ in self.failure_order:
            tc = by_trial[t]
            first = tc.first_error
            out.append((t, self.interval[0] if tc.error_at_start or first is None else first.value))
        return tuple(out)

