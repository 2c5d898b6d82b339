"""Immutable results of an exact solve: predictions, margins, per-category summaries, training fit.

A :class:`Result` knows how to show itself as LaTeX (``_repr_latex_`` in a notebook, :meth:`Result.to_latex`),
JSON (:meth:`Result.to_dict`) and plain text (:meth:`Result.to_text`); the formats live in
:mod:`symbolic_ti.export`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping

import sympy as sp

from .families.base import Family, Trial
from .task import CATEGORIES, ExceptionPair, Task

__all__ = ["Result", "CategorySummary", "TrainingFit", "LazyPredictions"]


class LazyPredictions(Mapping):
    """Read-only mapping trial -> prediction whose closed forms are built on first access.

    Used by the Laplacian fast path, where every prediction comes from the same rank solution but turning all
    ``n (n - 1)`` of them into sympy expressions at large n would dominate the cost. ``f(j, i) = -f(i, j)`` is
    used, so each unordered pair is built once.

    Parameters
    ----------
    trials : tuple of (i, j)
        Every ordered trial, the mapping's keys.
    compute : callable (i, j) with i < j -> sympy expression
        Builds ``f(i, j)`` for ``i < j``.
    free_symbols : tuple of Symbols
        Symbols the predictions may contain (known without building them).
    """

    def __init__(self, trials: tuple[Trial, ...], compute: Callable[[int, int], sp.Expr],
                 free_symbols: tuple[sp.Symbol, ...]) -> None:
        self._trials = tuple(trials)
        self._keys = frozenset(self._trials)
        self._compute = compute
        self._cache: dict[Trial, sp.Expr] = {}
        self.free_symbols = tuple(free_symbols)

    def __getitem__(self, trial: Trial) -> sp.Expr:
        if trial not in self._keys:
            raise KeyError(trial)
        if trial not in self._cache:
            i, j = trial
            v = self._compute(min(i, j), max(i, j))
            self._cache[(min(i, j), max(i, j))] = v
            self._cache[(max(i, j), min(i, j))] = -v
        return self._cache[trial]

    def __iter__(self) -> Iterator[Trial]:
        return iter(self._trials)

    def __len__(self) -> int:
        return len(self._trials)

    @property
    def n_built(self) -> int:
        """How many predictions have been built so far."""
        return len(self._cache)

    def build_all(self) -> None:
        """Build every prediction not built yet, showing progress on a terminal (:mod:`symbolic_ti.progress`).

        Display, JSON and margins need all of them; at large n with free parameters this takes long (n = 25
        with symbolic alpha and ridge: about 20 s), and Ctrl-C stops it cleanly (built forms stay cached).
        """
        pairs = [t for t in self._trials if t[0] < t[1]]
        missing = [t for t in pairs if t not in self._cache]
        if not missing:
            return
        from .progress import Progress

        n = max(max(t) for t in self._trials)
        done = len(pairs) - len(missing)
        with Progress(n=n) as progress:
            progress.update("closed forms", done, len(pairs))
            for t in missing:
                self[t]
                done += 1
                progress.update("closed forms", done, len(pairs))


def _is_number(e: sp.Expr) -> bool:
    return not e.free_symbols


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
class Result:
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

    def __post_init__(self) -> None:
        if not isinstance(self.predictions, (LazyPredictions, MappingProxyType)):
            object.__setattr__(self, "predictions", MappingProxyType(dict(self.predictions)))

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

    def margin(self, i: int, j: int) -> sp.Expr | None:
        """``g * f(i, j)`` with ``g`` the target or ground truth; ``None`` for a trial without ground truth."""
        g = self.task.ground_truth((i, j))
        return None if g is None else g * self.predictions[(i, j)]

    def _build_all(self) -> None:
        """Build every lazy closed form at once, with progress on a terminal (no-op when already built)."""
        if isinstance(self.predictions, LazyPredictions):
            self.predictions.build_all()

    @property
    def margins(self) -> dict[Trial, sp.Expr]:
        """Margins of every trial that has a target or a ground truth."""
        self._build_all()
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
        trials = tuple(t for t in self.task.trials if self.task.categories[t] == category)
        margins = {t: self.margin(*t) for t in trials}
        numeric = [m for m in margins.values() if m is not None]
        if numeric and all(_is_number(m) for m in numeric):
            return CategorySummary(category, trials, MappingProxyType(margins), min(numeric),
                                   sum(1 for m in numeric if m < 0))
        return CategorySummary(category, trials, MappingProxyType(margins), None, None)

    @property
    def categories(self) -> dict[str, CategorySummary]:
        """Summaries of every category present in the task, in the order of :data:`CATEGORIES`."""
        present = set(self.task.categories.values())
        self._build_all()
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
            from .errors import SolveError

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
    def subs(self, values: Mapping[Any, Any]) -> "Result":
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
        that has a value already
        (including the default ``kappa_d = 0``) or a numeric/ridgeless ridge that is changed makes the task be
        solved again with the new values. Limits are never replaced by substitution: setting the ridge to 0 takes
        the limit ``lambda -> 0+`` after the other values are set, and for a ridgeless result whose
        ``ridgeless_conditions`` vanish at the new values, the task is solved again.

        Raises
        ------
        ParameterError
            For a name that is not a parameter of this result, or a value outside its domain.
        """
        from .arguments import exact_number
        from .errors import ParameterError
        from .solvers.dispatch import solve
        from .symbols import ridge as lam_symbol

        active = {p.name: p for p in self.family.active_parameters}
        fam_values: dict[str, sp.Expr] = {}
        ridge_value: sp.Expr | None = None
        for k, v in values.items():
            name = k if isinstance(k, str) else getattr(k, "name", None)
            name = "lambda" if name == "ridge" else name
            if name != "lambda" and name not in active:
                allowed = ", ".join(list(active) + ["lambda"])
                raise ParameterError(f"subs: {k!r} is not a parameter of this result ({self.family.describe()}); "
                                     f"allowed: {allowed}")
            value = exact_number(v, str(name))
            if value.free_symbols:
                raise ParameterError(f"subs: {name} must be set to a number, got {value}")
            if name == "lambda":
                if value < 0:
                    raise ParameterError(f"subs: the ridge lambda must be >= 0, got {value}")
                ridge_value = value
            else:
                fam_values[name] = value
        family = self.family.with_values(**fam_values) if fam_values else self.family  # validates domains
        bound = self.family.values
        ridge_was_symbol = self.ridge == lam_symbol
        lazy = isinstance(self.predictions, LazyPredictions)  # a fast path: solving again beats substituting
        if lazy or any(name in bound for name in fam_values) or (ridge_value is not None and not ridge_was_symbol):
            ridge = ridge_value if ridge_value is not None else ("ridgeless" if self.ridge is None else self.ridge)
            return solve(self.task, family, ridge)
        sub = {active[name].symbol: v for name, v in fam_values.items()}
        if self.ridgeless and any(c.subs(sub) == 0 for c in self.ridgeless_conditions):
            return solve(self.task, family, "ridgeless")
        self._build_all()
        preds = {t: sp.cancel(v.subs(sub)) for t, v in self.predictions.items()}
        ridge = self.ridge
        if ridge_value is not None:
            if ridge_value == 0:
                from .solvers.dense import condition_factors, ridgeless_limit

                pairs = {t: ridgeless_limit(v, lam_symbol) for t, v in preds.items()}
                if any(c == 0 for _, c in pairs.values()):
                    return solve(self.task, family, "ridgeless")
                return replace(self, predictions={t: v for t, (v, _) in pairs.items()}, family=family, ridge=None,
                               method=self.method + "/limit",
                               ridgeless_conditions=condition_factors([c for _, c in pairs.values()]))
            preds = {t: sp.cancel(v.subs(lam_symbol, ridge_value)) for t, v in preds.items()}
            ridge = ridge_value
        conditions = tuple(c for c in (sp.expand(c.subs(sub)) for c in self.ridgeless_conditions) if c.free_symbols)
        return replace(self, predictions=preds, family=family, ridge=ridge, ridgeless_conditions=conditions)

    # ------------------------------------------------------------ display
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary (schema: docs/json_schema.md)."""
        self._build_all()
        from .export.jsonreport import result_to_dict

        return result_to_dict(self)

    def to_latex(self, **kwargs: Any) -> str:
        """LaTeX: the upper-triangle table of ``f(i, j)`` and the margins (see :mod:`symbolic_ti.export.latex`)."""
        self._build_all()
        from .export.latex import result_to_latex

        return result_to_latex(self, **kwargs)

    def to_text(self) -> str:
        """Plain-text report."""
        self._build_all()
        from .export.text import result_to_text

        return result_to_text(self)

    def _repr_latex_(self) -> str:
        self._build_all()
        from .export.latex import result_to_latex

        return result_to_latex(self, notebook=True)

    def _repr_html_(self) -> str | None:
        """Notebook HTML of a numeric result (table of ``f(i, j)``, per-category summary); ``None`` for a
        symbolic result, which then shows as LaTeX."""
        if not self.is_numeric:
            return None
        from .export.notebook import result_to_html

        self._build_all()
        return result_to_html(self)

    def formula(self, i: int, j: int) -> Any:
        """``f(i, j)`` as a :class:`symbolic_ti.export.notebook.Formula`, which a notebook shows as LaTeX.

        Raises
        ------
        TaskError
            If ``(i, j)`` is not a trial of the task.
        """
        from .export.notebook import Formula

        return Formula(self.f(i, j), f"f({i}, {j})")

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        r = "ridgeless" if self.ridgeless else f"lambda={self.ridge}"
        return f"Result({self.task.label()}, {self.family.describe()}, {r}, method={self.method})"
