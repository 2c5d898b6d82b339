"""Immutable results of an exact solve: predictions, margins, per-category summaries, training fit.

A :class:`Result` is plain data. It shows itself through :class:`symbolic_ti.display.Rendered`:
``to_text()``, ``to_latex(notebook=..., standalone=...)``, ``to_dict()``, ``to_json()``, ``str()`` and the
notebook hooks ``_repr_latex_`` / ``_repr_html_`` look up the renderers that :mod:`symbolic_ti.export`
registers for :class:`Result` (text, LaTeX, JSON, HTML) and for :class:`Formula` (one labelled expression).
This package imports neither the export package nor the solvers. The closed forms a solver may hand over
unbuilt, :class:`PolyFraction` and :class:`LazyPredictions`, live in :mod:`symbolic_ti.results.lazy` (importable
from here).

Re-solving at bound values
--------------------------
:meth:`Result.subs` sometimes has to solve the task again (a parameter that already had a value, a limit,
a closed form built on access). That logic belongs to the solvers, which are a higher layer: it is
:func:`symbolic_ti.solvers.substitute.subs`. The solvers hand it down once, when they are imported
(``symbolic_ti/solvers/dispatch.py`` calls :func:`register_substitution`), in the same way as the export
package registers renderers with :func:`symbolic_ti.display.renderer`. A hook rather than a field on each
result: every :class:`Result` (exact, numeric, or built by hand) substitutes the same way, and results stay
plain values (equality and pickling see no function). ``import symbolic_ti`` imports the solvers lazily, so
:meth:`Result.subs` imports :data:`SUBSTITUTION_MODULE` by name when nothing is registered yet (a result built
by hand); ``tests/test_api_contract.py`` checks that in a fresh process, since the layer test cannot see it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from ..display import Rendered, render
from ..arguments import ARGUMENTS, check_mapping
from ..digits import message_text
from ..errors import SolveError, TaskError
from ..families.base import Family, Trial
from ..task import CATEGORIES, ExceptionPair, Task
from .frozen import FrozenMapping
from .lazy import LazyPredictions, PolyFraction, Terms, lifted_terms

__all__ = ["Result", "CategorySummary", "TrainingFit", "LazyPredictions", "PolyFraction", "Terms", "Formula",
           "Substitution", "register_substitution", "lifted_terms", "FrozenMapping"]


@dataclass(frozen=True)
class CategorySummary:
    """Margins of one trial category.

    Attributes
    ----------
    category : str
        One of :data:`symbolic_ti.task.CATEGORIES`.
    trials : tuple of (i, j)
        The ordered trials of the category.
    margins : mapping (i, j) -> sympy expression, or None where there is no ground truth
    min_margin : sympy number or None
        Smallest margin when every margin is numeric, else ``None``.
    n_errors : int or None
        Number of trials with a negative margin when every margin is numeric, else ``None``.
    """

    category: str
    trials: tuple[Trial, ...]
    margins: Mapping[Trial, sp.Expr | None]
    min_margin: sp.Expr | None
    n_errors: int | None


@dataclass(frozen=True)
class TrainingFit:
    """Fit of one training trial: target ``y``, prediction ``f`` and residual ``y - f``."""

    trial: Trial
    target: int
    prediction: sp.Expr
    residual: sp.Expr


@dataclass(frozen=True)
class Formula(Rendered):
    r"""One expression with a label, for display: ``label = value``, factored as in the LaTeX export.

    Plain data like :class:`Result`: ``to_latex()`` (``label = value`` without ``$``, which reads back with
    :func:`symbolic_ti.export.latex.parse_exported`), ``str()`` (text) and ``_repr_latex_`` (MathJax, for a
    notebook) come from the renderers of :mod:`symbolic_ti.export.notebook`. Also importable as
    ``symbolic_ti.export.notebook.Formula``.

    Parameters
    ----------
    expr : sympy expression or number
        Stored as ``sympy.sympify(expr)``.
    label : str, optional
        LaTeX of the left-hand side, e.g. ``"f(3, 6)"``.

    Examples
    --------
    >>> Formula(sp.Rational(-387, 3925), "f(3, 6)")._repr_latex_()
    '$\\displaystyle f(3, 6) = - \\frac{387}{3925}$'
    """

    expr: sp.Expr
    label: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "expr", sp.sympify(self.expr))

    def __repr__(self) -> str:
        return f"Formula({self.expr!r}, label={self.label!r})"


#: Signature of the function behind :meth:`Result.subs`: ``(result, values) -> new result``.
Substitution = Callable[["Result", Mapping[Any, object]], "Result"]

_SUBSTITUTION: Substitution | None = None
#: The module whose import registers the substitution; :meth:`Result.subs` imports it by name when nothing is
#: registered yet (a result built by hand after a plain ``import symbolic_ti``, which imports the solvers lazily).
SUBSTITUTION_MODULE = "symbolic_ti.solvers.dispatch"


def register_substitution(func: Substitution) -> Substitution:
    """Make ``func`` the function behind :meth:`Result.subs` (module docstring: why a hook).

    ``symbolic_ti/solvers/dispatch.py`` registers :func:`symbolic_ti.solvers.substitute.subs` when it is
    imported; a later registration replaces the earlier one.

    Parameters
    ----------
    func : callable (Result, mapping) -> Result

    Returns
    -------
    callable
        ``func`` itself.
    """
    global _SUBSTITUTION
    _SUBSTITUTION = func
    return func


def _rebuild(cls: type[Result], state: dict[str, Any]) -> Result:
    """A result from its fields (how results unpickle, :meth:`Result.__reduce__`)."""
    return cls(**state)


@dataclass(frozen=True)
class Result(Rendered):
    """Exact kernel ridge predictions on every ordered trial of a task.

    Attributes
    ----------
    task : Task
    family : Family
        The representation family, with its bound parameter values.
    ridge : sympy expression or None
        The ridge (a number or the Symbol ``lambda``); ``None`` for the ridgeless limit ``lambda -> 0+``.
    predictions : mapping (i, j) -> sympy expression
        ``f(i, j)`` for every ordered trial, canceled rational functions of the free parameters.
    method : str
        How it was solved, e.g. ``"halved"``, ``"full"`` or ``"halved/limit"`` (ridgeless).
    ridgeless_conditions : tuple of sympy expressions
        Ridgeless results with free parameters only: irreducible polynomials in the free parameters such
        that every formula equals the limit ``lambda -> 0+`` wherever none of them vanishes. At a root,
        :meth:`subs` solves again with the value set. Empty otherwise.
    seconds : float
        Wall time of the solve (not part of equality).
    """

    task: Task
    family: Family
    ridge: sp.Expr | None
    predictions: Mapping[Trial, sp.Expr]
    method: str
    ridgeless_conditions: tuple[sp.Expr, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:  # values: sympy expressions or PolyFractions (kept only in LazyPredictions)
        if not isinstance(self.predictions, (LazyPredictions, FrozenMapping)):
            preds = {t: v.as_expr() if isinstance(v, PolyFraction) else v for t, v in self.predictions.items()}
            object.__setattr__(self, "predictions", FrozenMapping(preds))

    def __hash__(self) -> int:  # equal results have equal tasks, families, ridges, methods and conditions
        return hash((self.task, self.family, self.ridge, self.method, self.ridgeless_conditions))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as plain data: every closed form built (:meth:`build_all`) and kept as the solver made it (a
        :class:`LazyPredictions` pickles its PolyFractions' polynomials, not the functions that built them), so
        that an unpickled result prints, writes LaTeX and JSON byte for byte as the original."""
        self.build_all()
        return (_rebuild, (type(self), {f.name: getattr(self, f.name) for f in fields(self)}))

    # --------------------------------------------------------------- basics
    @property
    def ridgeless(self) -> bool:
        """Whether this is the ridgeless limit ``lambda -> 0+``."""
        return self.ridge is None

    @property
    def free_symbols(self) -> tuple[sp.Symbol, ...]:
        """Symbols that remain in the predictions, sorted by name."""
        if isinstance(self.predictions, LazyPredictions):
            return tuple(sorted(self.predictions.free_symbols, key=lambda s: s.name))
        syms: set[sp.Symbol] = set()
        for v in self.predictions.values():
            syms |= v.free_symbols
        return tuple(sorted(syms, key=lambda s: s.name))

    @property
    def is_numeric(self) -> bool:
        """Whether every prediction is a number (no free parameter)."""
        return not self.free_symbols

    def f(self, i: int, j: int) -> sp.Expr:
        """The prediction ``f(i, j)``; positive means "i beats j".

        Raises
        ------
        TaskError
            If ``(i, j)`` is not a trial of the task.
        """
        return self.predictions[self.task.check_trial((i, j))]

    def fraction(self, i: int, j: int) -> PolyFraction | None:
        """``f(i, j)`` as the solver's :class:`PolyFraction` (no sympy expression built), or ``None``."""
        preds = self.predictions
        return preds.fraction(self.task.check_trial((i, j))) if isinstance(preds, LazyPredictions) else None

    def margin(self, i: int, j: int) -> sp.Expr | None:
        """``g * f(i, j)`` with ``g`` the target or ground truth; ``None`` for a trial without ground truth."""
        g = self.task.ground_truth((i, j))
        return None if g is None else g * self.predictions[(i, j)]

    def build_all(self) -> None:
        """Build every closed form now, with progress on a terminal (no-op when already built).

        Only results of the fast paths build their closed forms on access (:class:`LazyPredictions`); the
        renderers of :mod:`symbolic_ti.export` call this first, since a whole report needs every prediction.
        """
        if isinstance(self.predictions, LazyPredictions):
            self.predictions.build_all()

    @property
    def margins(self) -> dict[Trial, sp.Expr]:
        """Margins of every trial that has a target or a ground truth."""
        self.build_all()
        out = {}
        for t in self.task.trials:
            m = self.margin(*t)
            if m is not None:
                out[t] = m
        return out

    @property
    def exception_margins(self) -> dict[ExceptionPair, sp.Expr]:
        """The exception margin ``f(W, L)`` of each exception."""
        return {e: self.predictions[(e.winner, e.loser)] for e in self.task.exceptions}

    @property
    def transitive_margins(self) -> dict[Trial, sp.Expr]:
        """Margins of the test trials that have ground truth (generalization margins)."""
        tt = self.task.training_targets
        return {t: m for t, m in self.margins.items() if t not in tt}

    # ---------------------------------------------------------- categories
    def category_summary(self, category: str) -> CategorySummary:
        """Margins, minimum margin and number of errors of one category (see :class:`CategorySummary`)."""
        if category not in CATEGORIES:
            raise TaskError(f"category must be {ARGUMENTS['category'].allowed} ({', '.join(CATEGORIES)}), "
                            f"got {category!r}")
        trials = tuple(t for t in self.task.trials if self.task.categories[t] == category)
        margins = {t: self.margin(*t) for t in trials}
        numeric = [m for m in margins.values() if m is not None]
        if numeric and all(not m.free_symbols for m in numeric):
            return CategorySummary(category, trials, FrozenMapping(margins), min(numeric),
                                   sum(1 for m in numeric if m < 0))
        return CategorySummary(category, trials, FrozenMapping(margins), None, None)

    @property
    def categories(self) -> dict[str, CategorySummary]:
        """Summaries of every category present in the task, in the order of :data:`CATEGORIES`."""
        present = set(self.task.categories.values())
        self.build_all()
        return {c: self.category_summary(c) for c in CATEGORIES if c in present}

    @property
    def errors(self) -> tuple[Trial, ...]:
        """Trials with a negative margin (answered wrongly), in trial order.

        Raises
        ------
        SolveError
            If the result has free parameters: the sign of a margin then depends on them. Set them with
            :meth:`subs`, or find where margins change sign with :func:`symbolic_ti.critical`.
        """
        if self.free_symbols:
            raise SolveError("errors are decided only for numeric results; this one depends on "
                             + ", ".join(s.name for s in self.free_symbols)
                             + " (set them with subs(), or use critical() for where margins change sign)")
        return tuple(t for t, m in self.margins.items() if m < 0)

    @property
    def training_fit(self) -> tuple[TrainingFit, ...]:
        """Target, prediction and residual of every training trial, in the task's training order."""
        out = []
        for t, y in self.task.training:
            f = self.predictions[t]
            num, den = sp.fraction(f)  # canceled already, so (y den - num) / den is canceled too
            out.append(TrainingFit(t, y, f, sp.expand(y * den - num) / den if den != 1 else y - f))
        return tuple(out)

    # ------------------------------------------------------------ helpers
    def subs(self, values: Mapping[Any, object]) -> Result:
        """A new result with parameters set to exact values.

        Parameters
        ----------
        values : mapping
            Parameter names (``"alpha"``, ``"kappa_d"``, ``"lambda"`` or ``"ridge"``) or their Symbols, to
            numbers (read exactly: ``0.1`` is 1/10). Names must be parameters of this result's family (in its
            parametrization) or the ridge.

        Returns
        -------
        Result

        Notes
        -----
        Symbolic parameters are substituted into the closed forms (results of the fast paths, whose closed forms
        are built on access, are solved again with the values instead, which is faster and equal). A parameter
        that has a value already (including the default ``kappa_d = 0``) or a numeric/ridgeless ridge that is
        changed makes the task be solved again with the new values. Limits are never replaced by substitution:
        setting the ridge to 0 takes the limit ``lambda -> 0+`` after the other values are set, and for a
        ridgeless result whose ``ridgeless_conditions`` vanish at the new values, the task is solved again.

        The work is done by :func:`symbolic_ti.solvers.substitute.subs`, reached through
        :func:`register_substitution` (module docstring), so this module never imports the solvers.

        Raises
        ------
        ParameterError
            For a name that is not a parameter of this result, or a value outside its domain.
        """
        values = check_mapping(values, "values", symbols=True, none=False)  # subs(None): no values to set
        if _SUBSTITUTION is None:  # the solvers are not imported yet (import symbolic_ti imports them lazily)
            importlib.import_module(SUBSTITUTION_MODULE)  # registers it (tests/test_api_contract.py, fresh process)
        if _SUBSTITUTION is None:  # pragma: no cover - SUBSTITUTION_MODULE registers it
            raise SolveError(f"Result.subs: {SUBSTITUTION_MODULE} did not register the substitution")
        return _SUBSTITUTION(self, values)

    def formula(self, i: int, j: int) -> Formula:
        """``f(i, j)`` as a :class:`Formula` labelled ``f(i, j)``, which a notebook shows as LaTeX.

        Raises
        ------
        TaskError
            If ``(i, j)`` is not a trial of the task.
        """
        return Formula(self.f(i, j), f"f({i}, {j})")

    def label(self) -> str:
        """One line naming the result: task, family and ridge, e.g. ``n=9, exception 6>4;
        exchangeable(kappa_d=0, alpha symbolic); lambda = 1/10`` (the ridge as ``ridgeless (lambda -> 0+)``,
        ``lambda symbolic`` or ``lambda = VALUE``). Used as the title of reports and figures."""
        from ..symbols import ridge as lam  # noqa: PLC0415

        if self.ridgeless:
            ridge = "ridgeless (lambda -> 0+)"
        elif isinstance(self.ridge, sp.Symbol) and self.ridge.name == lam.name:  # by name, as subs matches it
            ridge = "lambda symbolic"
        else:
            ridge = f"lambda = {message_text(self.ridge)}"
        return f"{self.task.label()}; {self.family.describe()}; {ridge}"

    def __repr__(self) -> str:
        r = "ridgeless" if self.ridgeless else f"lambda={message_text(self.ridge)}"
        return f"Result({self.task.label()}, {self.family.describe()}, {r}, method={self.method})"

    def __str__(self) -> str:
        """The text report, or for a large result its summary at once (``print(result)``; the whole report is
        ``to_text()``; ``symbolic_ti.export.notebook``)."""
        return str(render("display_text", self))
