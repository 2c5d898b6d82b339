"""Immutable results of an exact solve: predictions, margins, per-category summaries, training fit.

A :class:`Result` is plain data. It shows itself through :class:`symbolic_ti.display.Rendered`:
``to_text()``, ``to_latex(notebook=..., standalone=...)``, ``to_dict()``, ``to_json()``, ``str()`` and the
notebook hooks ``_repr_latex_`` / ``_repr_html_`` look up the renderers that :mod:`symbolic_ti.export`
registers for :class:`Result` (text, LaTeX, JSON, HTML) and for :class:`Formula` (one labelled expression).
This module imports neither the export package nor the solvers.

Re-solving at bound values
--------------------------
:meth:`Result.subs` sometimes has to solve the task again (a parameter that already had a value, a limit,
a closed form built on access). That logic belongs to the solvers, which are a higher layer: it is
:func:`symbolic_ti.solvers.substitute.subs`. The solvers hand it down once, when they are imported
(``symbolic_ti/solvers/dispatch.py`` calls :func:`register_substitution`), in the same way as the export
package registers renderers with :func:`symbolic_ti.display.renderer`. A hook rather than a field on each
result: every :class:`Result` (exact, numeric, or built by hand) substitutes the same way, and results stay
plain values (equality and pickling see no function). ``import symbolic_ti`` always imports the solvers, so
the hook is registered before any result exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import sympy as sp

from .display import Rendered
from .errors import SolveError
from .families.base import Family, Trial
from .progress import Progress
from .task import CATEGORIES, ExceptionPair, Task

__all__ = ["Result", "CategorySummary", "TrainingFit", "LazyPredictions", "PolyFraction", "Formula",
           "Substitution", "register_substitution"]


Terms = dict[tuple[int, ...], Fraction]


class PolyFraction:
    """A canceled closed form ``N / D`` in ``gens`` (Symbols, irrational constants), which a solver may hand to
    :class:`Result` instead of an expression (built by :meth:`as_expr` on request, cached); printers and JSON work
    from the terms ``num``, ``den``: ``{exponents: Fraction}``, read on first access from ``polys``, the two
    polynomials given (:meth:`from_polys`). ``negated``: made as ``-f`` of a form ``f`` (``base``): the value is ``N / D`` (``N``
    negated) and :meth:`as_expr` is ``-f.as_expr()``, sympy's tree for ``-f`` (``Mul(-1, N, Pow(D, -1))``)."""

    def __init__(self, gens: tuple[sp.Expr, ...], num: Any, den: Any, negated: bool = False,
                 base: PolyFraction | None = None) -> None:
        self.gens, self.polys, self.negated = tuple(gens), (num, den), negated  # Terms or polynomials, as given
        self._terms_of: list[Terms | None] = [None, None]
        self._base = base if base is not None or not negated else PolyFraction(gens, _negate(num), den)

    @classmethod
    def from_polys(cls, num: Any, den: Any, gens: tuple[sp.Expr, ...] | None = None) -> PolyFraction:
        """From two coprime polynomials: sympy ``PolyElement`` or python-flint ``fmpz_mpoly`` / ``fmpq_mpoly``
        in the order of ``gens`` (default: the sympy ring's symbols), kept until :attr:`num` is read."""
        return cls(tuple(num.ring.symbols) if gens is None else gens, num, den)

    def _terms(self, k: int) -> Terms:
        p, terms = self.polys[k], self._terms_of[k]
        if terms is not None or type(p) is dict:
            return terms if terms is not None else p
        items = p.to_dict().items() if hasattr(p, "to_dict") else p.terms()
        terms = self._terms_of[k] = {tuple(int(x) for x in m): Fraction(int(c.numerator), int(c.denominator))
                                     for m, c in items}
        return terms

    num = property(lambda self: self._terms(0), doc="The numerator's terms ``{exponents: Fraction}``.")
    den = property(lambda self: self._terms(1), doc="The denominator's terms ``{exponents: Fraction}``.")

    @property
    def is_polynomial(self) -> bool:
        """Whether ``D == 1``."""
        den = self.polys[1]
        return den == {(0,) * len(self.gens): Fraction(1)} if type(den) is dict else bool(den == 1)

    def __neg__(self) -> PolyFraction:
        return self._base or PolyFraction(self.gens, _negate(self.polys[0]), self.polys[1], negated=True, base=self)

    def target_minus(self, y: int) -> PolyFraction:
        """``y - N / D = (y D - N) / D``, canceled (a common factor of it and ``D`` would divide ``N``)."""
        if not any(type(p) is dict for p in self.polys):  # (a sympy PolyElement is a dict subclass)
            return PolyFraction(self.gens, y * self.polys[1] - self.polys[0], self.polys[1])
        top = {m: y * c for m, c in self.den.items()}
        for m, c in self.num.items():
            top[m] = top.get(m, Fraction(0)) - c
        return PolyFraction(self.gens, {m: c for m, c in top.items() if c}, self.den)

    def as_expr(self) -> sp.Expr:
        """The sympy expression ``N / D`` (``Add`` of ``Mul`` terms; ``-f`` when negated), built once, cached."""
        if "_expr" not in self.__dict__:
            if self._base is not None:
                self._expr = -self._base.as_expr()
            else:
                num = _terms_expr(self.gens, self.num)
                self._expr = num if self.is_polynomial else num / _terms_expr(self.gens, self.den)
        return self.__dict__["_expr"]


def _negate(raw: Any) -> Any:
    return {m: -c for m, c in raw.items()} if type(raw) is dict else -raw


def _terms_expr(gens: tuple[sp.Expr, ...], terms: Terms) -> sp.Expr:
    return sp.Add(*[sp.Mul(sp.Rational(c.numerator, c.denominator),
                           *[g if e == 1 else sp.Pow(g, e) for g, e in zip(gens, m, strict=True) if e])
                    for m, c in terms.items()])


class LazyPredictions(Mapping[Trial, sp.Expr]):
    """Read-only mapping trial -> prediction whose closed forms are built on first access.

    Used by the Laplacian fast path, where every prediction comes from the same rank solution but turning all
    ``n (n - 1)`` of them into sympy expressions at large n would dominate the cost. ``f(j, i) = -f(i, j)`` is
    used, so each unordered pair is built once.

    Parameters
    ----------
    trials : tuple of (i, j)
        Every ordered trial, the mapping's keys.
    compute : callable (i, j) with i < j -> sympy expression or PolyFraction
        Builds ``f(i, j)`` for ``i < j``. A :class:`PolyFraction` is kept as it is (:meth:`fraction`); its
        expression is built when the mapping is indexed.
    free_symbols : tuple of Symbols
        Symbols the predictions may contain (known without building them).
    """

    def __init__(self, trials: tuple[Trial, ...], compute: Callable[[int, int], sp.Expr],
                 free_symbols: tuple[sp.Symbol, ...]) -> None:
        self._trials = tuple(trials)
        self._keys = frozenset(self._trials)
        self._compute = compute
        self._cache: dict[Trial, Any] = {}
        self.free_symbols = tuple(free_symbols)

    def _form(self, trial: Trial) -> Any:
        if trial not in self._keys:
            raise KeyError(trial)
        if trial not in self._cache:
            i, j = trial
            v = self._compute(min(i, j), max(i, j))
            self._cache[(min(i, j), max(i, j))] = v
            self._cache[(max(i, j), min(i, j))] = -v
        return self._cache[trial]

    def __getitem__(self, trial: Trial) -> sp.Expr:
        v = self._form(trial)
        return v.as_expr() if isinstance(v, PolyFraction) else v

    def fraction(self, trial: Trial) -> PolyFraction | None:
        """The polynomial form of ``f(trial)`` where the solver gave one (built on access), else ``None``."""
        v = self._form(trial)
        return v if isinstance(v, PolyFraction) else None

    def __iter__(self) -> Iterator[Trial]:
        return iter(self._trials)

    def __len__(self) -> int:
        return len(self._trials)

    def is_built(self, trial: Trial) -> bool:
        """Whether the closed form of ``trial`` has been built already (looking builds nothing)."""
        return trial in self._cache

    @property
    def n_built(self) -> int:
        """How many predictions have been built so far."""
        return len(self._cache)

    def build_all(self) -> None:
        """Build every prediction not built yet, showing progress on a terminal (:mod:`symbolic_ti.progress`);
        Ctrl-C stops it cleanly (built forms stay cached). Display, JSON and margins need all of them."""
        pairs = [t for t in self._trials if t[0] < t[1]]
        missing = [t for t in pairs if t not in self._cache]
        if not missing:
            return
        n = max(max(t) for t in self._trials)
        done = len(pairs) - len(missing)
        with Progress(n=n) as progress:
            progress.update("closed forms", done, len(pairs))
            for t in missing:
                self._form(t)
                done += 1
                progress.update("closed forms", done, len(pairs))


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
        if not isinstance(self.predictions, (LazyPredictions, MappingProxyType)):
            preds = {t: v.as_expr() if isinstance(v, PolyFraction) else v for t, v in self.predictions.items()}
            object.__setattr__(self, "predictions", MappingProxyType(preds))

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
        trials = tuple(t for t in self.task.trials if self.task.categories[t] == category)
        margins = {t: self.margin(*t) for t in trials}
        numeric = [m for m in margins.values() if m is not None]
        if numeric and all(not m.free_symbols for m in numeric):
            return CategorySummary(category, trials, MappingProxyType(margins), min(numeric),
                                   sum(1 for m in numeric if m < 0))
        return CategorySummary(category, trials, MappingProxyType(margins), None, None)

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
        if _SUBSTITUTION is None:  # pragma: no cover - import symbolic_ti registers it (solvers/dispatch.py)
            raise SolveError("Result.subs needs the solvers; import symbolic_ti first")
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
        from .symbols import ridge as lam  # noqa: PLC0415

        if self.ridgeless:
            ridge = "ridgeless (lambda -> 0+)"
        elif self.ridge == lam:
            ridge = "lambda symbolic"
        else:
            ridge = f"lambda = {self.ridge}"
        return f"{self.task.label()}; {self.family.describe()}; {ridge}"

    def __repr__(self) -> str:
        r = "ridgeless" if self.ridgeless else f"lambda={self.ridge}"
        return f"Result({self.task.label()}, {self.family.describe()}, {r}, method={self.method})"
