r"""Sign changes of exchangeable-kernel margins in the effective ridge gamma, exactly.

:func:`symbolic_ti.solvers.laplacian.rank_solution` gives the ranks as ``r_k = N_k(gamma) / D(gamma)`` with
``N_k, D`` in ``ZZ[gamma]`` and ``D = det(Lap + gamma I) > 0`` for ``gamma > 0``. The margin of a test trial
``(i, j)`` with ground truth therefore has the sign of the integer polynomial ``M = N_min(i,j) - N_max(i,j)`` on
``gamma > 0`` and changes sign exactly at the positive roots of odd multiplicity of ``M``; a training trial's
margin has another integer numerator (:func:`margin_gammas`). Derived in docs/critical_conjunctivity.md.

Method (docs/critical_conjunctivity.md#method-and-what-is-certified), on the engine of :mod:`.roots`:

1. ``gamma^k`` is divided out of ``M``; the sign as ``gamma -> 0+`` is that of the lowest nonzero coefficient,
   as ``gamma -> oo`` that of the leading one.
2. Descartes' rule of signs: no sign variation, no positive root; one variation, exactly one positive root,
   simple, bracketed by :func:`symbolic_ti.analysis.roots.isolation.single_positive_root` (the fast path).
3. More variations: ``M / gcd(M, D)`` (FLINT) is factored over ZZ (FLINT) and the positive roots of each
   irreducible factor are isolated (Descartes with exact bisection).
4. Equal roots of different trials share one object (:class:`symbolic_ti.analysis.roots.RootRegistry`), so
   "the same gamma*" is decided exactly; distinct roots are ordered by refining brackets.
5. Exact values only on access: minimal polynomial and index give a ``Rational``, a radical or a ``CRootOf``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arguments import exact_number, resolve_trials
from ..display import render
from ..errors import ParameterError, SolveError, TaskError
from ..solvers.laplacian import GAMMA, RankSolution, rank_solution
from ..solvers.graph_ranks import graph_laplacian
from ..task import Task
from .roots import polynomials as P
from .effective_ridge import rescaled_ridge, root_alpha
from .roots.isolation import single_positive_root
from .roots.polynomials import IntPoly, sgn, variations
from .roots import ROOT_ORDER, RealRoot, RootRegistry, positive_roots, same_number
from ..formatting import rounded

__all__ = ["GammaRoot", "TrialGammas", "GammaAnalysis", "critical_gammas", "margin_gammas", "gamma_applies"]

Trial = tuple[int, int]


@dataclass(frozen=True, eq=False)
class GammaRoot:
    """A positive real root ``gamma*`` of the margin numerator of a trial.

    Attributes
    ----------
    multiplicity : int
        Multiplicity as a root of the margin numerator; odd roots change the sign.
    direction : {"to_error", "to_correct", "touch"}
        As gamma (and alpha) grows: ``+ -> -``, ``- -> +``, or no sign change (even multiplicity).

    Properties (computed on first access, exact): ``value`` (a ``Rational``, a radical for a quadratic
    minimal polynomial, a ``CRootOf`` otherwise), ``value_float``, ``factor`` (the minimal polynomial over
    ZZ, a ``sympy.Poly`` in :data:`symbolic_ti.solvers.laplacian.GAMMA`), ``index`` (of the root among the real
    roots of ``factor``, increasing, as in ``CRootOf``) and ``interval`` (a rational isolating interval).
    Roots of different trials that are the same number share one internal object, so :meth:`same_root` is
    exact and cheap. ``==`` is identity; compare numbers with :meth:`same_root`.
    """

    multiplicity: int
    direction: str
    _root: RealRoot = field(repr=False, compare=False)

    @property
    def value(self) -> sp.Expr:
        """The exact ``gamma*``."""
        return self._root.exact(GAMMA)

    @property
    def value_float(self) -> float:
        """``gamma*`` as a float (midpoint of a certified interval of relative width ``2**-54``)."""
        return self._root.value_float

    @property
    def factor(self) -> sp.Poly:
        """The minimal polynomial of ``gamma*`` over ZZ, in :data:`symbolic_ti.solvers.laplacian.GAMMA`."""
        cs, _ = self._root.minimal()
        return sp.Poly.from_list(list(cs), GAMMA, domain="ZZ")

    @property
    def index(self) -> int:
        """The index of ``gamma*`` among the real roots of :attr:`factor` (increasing, as in ``CRootOf``)."""
        return self._root.minimal()[1]

    @property
    def interval(self) -> tuple[sp.Rational, sp.Rational]:
        """A rational interval certified to contain ``gamma*`` and no other root of its polynomial."""
        return self._root.interval()

    def __repr__(self) -> str:
        return f"GammaRoot({rounded(self.value_float, '.10g')}, {self.direction}, multiplicity {self.multiplicity})"

    def same_root(self, other: GammaRoot) -> bool:
        """Whether the two roots are the same number (exact)."""
        return self._root is other._root or same_number(self._root, other._root) is not None

    def compare(self, c: Any) -> int:
        """-1, 0 or 1 as ``gamma*`` is below, equal to or above the rational number ``c`` (exact).

        Raises
        ------
        ParameterError
            If ``c`` is not a rational number.
        """
        x = exact_number(c, "gamma")
        if not x.is_Rational:
            raise ParameterError(f"gamma must be a rational number to compare exactly, got {x}")
        return self._root.compare_rational(Fraction(int(x.p), int(x.q)))

    def alpha(self, ridge: Any = "ridgeless", kappa_d: Any = 0) -> sp.Expr:
        """The conjunctivity ``(gamma* - 2 lambda')/(gamma* + 2)`` of this root at a ridge, exactly."""
        return root_alpha(self._root, rescaled_ridge(ridge, kappa_d))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary (:mod:`symbolic_ti.export.conjunctivity`)."""
        out: dict[str, Any] = render("dict", self)
        return out


@dataclass(frozen=True)
class TrialGammas:
    """Sign structure of the margin of one trial in the effective ridge gamma on ``(0, oo)``.

    Attributes
    ----------
    trial : (i, j)
    category : str
        Category of the trial (:data:`symbolic_ti.task.CATEGORIES`).
    roots : tuple of GammaRoot
        Positive roots of odd multiplicity, in increasing order: the sign changes.
    touches : tuple of GammaRoot
        Positive roots of even multiplicity (the margin vanishes without changing sign).
    sign_at_zero : int
        Sign of the margin as ``gamma -> 0+``: ``+1`` correct, ``-1`` wrong, ``0`` identically zero.
    sign_at_infinity : int
        Sign as ``gamma -> oo`` (the purely conjunctive limit ``alpha -> 1``).
    numerator : tuple of int
        Coefficients (highest degree first) of the margin numerator (for a test trial
        ``N_min(i,j) - N_max(i,j)``) with the factor ``gamma^k`` removed; on ``gamma > 0`` the margin has its sign.
    """

    trial: Trial
    category: str
    roots: tuple[GammaRoot, ...]
    touches: tuple[GammaRoot, ...]
    sign_at_zero: int
    sign_at_infinity: int
    numerator: tuple[int, ...] = field(repr=False)

    def sign_after(self, gamma0: Any) -> int:
        """Exact sign of the margin just above ``gamma0`` (a rational ``>= 0``)."""
        x = exact_number(gamma0, "gamma")
        c = Fraction(int(x.p), int(x.q))
        passed = sum(1 for r in self.roots if r._root.compare_rational(c) <= 0)
        return self.sign_at_zero * (-1) ** passed

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary (:mod:`symbolic_ti.export.conjunctivity`)."""
        out: dict[str, Any] = render("dict", self)
        return out


class GammaAnalysis(dict[Trial, "TrialGammas"]):
    """The mapping trial -> :class:`TrialGammas` returned by :func:`critical_gammas`, which remembers its task
    so that :func:`symbolic_ti.analysis.conjunctivity.critical_conjunctivity` can refuse an analysis of another
    task."""

    def __init__(self, task: Task) -> None:
        super().__init__()
        self.task = task


Analysed = tuple[list[tuple[RealRoot, int]], int, int, IntPoly]


def _solves_graph(task: Task, rs: RankSolution) -> bool:
    """Whether ``N(g) = D(g) (Lap + g I)^{-1} b`` holds for the task's own comparison graph at ``g = 1, 2, 3``
    (exact integers), with ``D`` of degree ``n`` (``det(Lap + g I)``). Three points of a degree-``n`` identity
    do not prove it; they catch a rank solution of another graph (the TI path structure) on this one."""
    n = task.n
    lap, b = graph_laplacian(task)
    if rs.denominator.degree() != n:
        return False
    for g in (1, 2, 3):
        d = int(rs.denominator(g))
        r = [int(rs.numerators[k](g)) for k in range(n)]
        for i in range(n):
            if sum(lap[i][k] * r[k] for k in range(n)) + g * r[i] != d * b[i]:
                return False
    return True


def gamma_applies(task: Task) -> str | None:
    """Why the effective-ridge (gamma) analysis does not apply to ``task``, or ``None`` when it does.

    It needs every count 1 (unequal counts weigh the Laplacian's edges by ``alpha`` and the ridge, and equal
    counts ``c`` rescale the ridge) and a rank solution of the task's own comparison graph: always for the TI
    design, and on another graph when :func:`symbolic_ti.solvers.laplacian.rank_solution` solves it (checked).
    """
    return _applies(task, None)[0]


_LAST: list[tuple[Task, RankSolution]] = []  # the last general task's checked rank solution (shared by the check
# of gamma_applies and the analysis that follows it)


def _applies(task: Task, ranks: RankSolution | None) -> tuple[str | None, RankSolution | None]:
    if not task.uniform_counts:
        return "the effective-ridge (gamma) analysis needs every count 1 (counts change the Laplacian's weights)", None
    if task.is_ti_design:
        return None, ranks
    if ranks is None and _LAST and _LAST[0][0] == task:
        return None, _LAST[0][1]
    rs = ranks if ranks is not None else rank_solution(task)
    if not _solves_graph(task, rs):
        return ("the effective-ridge (gamma) analysis needs the Laplacian rank solution of this comparison graph, "
                "which the solver does not give (it assumes the TI path structure)"), None
    _LAST[:] = [(task, rs)]
    return None, rs


def _ranks(task: Task, ranks: RankSolution | None) -> RankSolution:
    why, rs = _applies(task, ranks)
    if why is not None:
        raise SolveError(f"{why}; use critical_values on a derived result (method 'generic')")
    return rs if rs is not None else rank_solution(task)


def _oriented(task: Task, t: Trial) -> Trial:
    """The order ``(a, b)`` of a test trial's items with ground truth ``+1`` (its margin is ``r_a - r_b``); the
    item order ``(min, max)`` on the TI design."""
    return t if task.ground_truth(t) == 1 else (t[1], t[0])


class _RootFinder:
    """Per-task analysis of margin numerators; equal roots are merged by one :class:`RootRegistry`."""

    def __init__(self, ranks: RankSolution) -> None:
        self.ranks = ranks
        self.den: IntPoly = tuple(int(c) for c in ranks.denominator.to_dense())
        self._nums: dict[int, IntPoly] = {}  # rank numerators as integer tuples, converted once each
        self.registry = RootRegistry()
        self.factorizations = 0

    @property
    def gcds(self) -> int:
        """Number of exact gcd tests made while merging equal roots."""
        return self.registry.gcds

    def analyse(self, i: int, j: int) -> Analysed:
        """Positive roots (registered, with multiplicity) and end signs of ``N_i - N_j``, ``gamma^k`` removed."""
        return self.analyse_poly(P.subtract(self.numerator(i), self.numerator(j)), self.den)

    def numerator(self, i: int) -> IntPoly:
        """The rank numerator ``N_i`` as an integer tuple (converted from sympy once per item)."""
        got = self._nums.get(i)
        if got is None:
            got = self._nums[i] = tuple(int(c) for c in self.ranks.numerators[i - 1].to_dense())
        return got

    def analyse_poly(self, num: IntPoly, den: IntPoly | None) -> Analysed:
        """Positive roots (registered, with multiplicity) and the signs as ``gamma -> 0+`` and ``gamma -> oo`` of
        an integer polynomial; ``den`` is a polynomial positive on ``gamma > 0`` whose common factors with
        ``num`` are dropped before factoring (when Descartes' rule does not decide), or ``None``."""
        if not any(num):
            return [], 0, 0, ()
        cs, _ = P.strip_low(num)
        s0, sinf = sgn(cs[-1]), sgn(cs[0])
        v = variations(cs)
        if v == 0:
            return [], s0, sinf, cs
        if v == 1:  # Descartes: exactly one positive root, simple
            lo, hi = single_positive_root(cs, s0)
            return [(self.registry.register(RealRoot(cs, lo, hi, den)), 1)], s0, sinf, cs
        # several sign variations: factor over ZZ
        self.factorizations += 1
        canceled = cs if den is None else P.exquo(cs, P.gcd(cs, den))
        out: list[tuple[RealRoot, int]] = []
        for g, mult in P.factor(canceled)[1]:
            if len(g) < 2 or variations(g) == 0:
                continue
            for root in positive_roots(g):
                out.append((self.registry.register(root), mult))
        return out, s0, sinf, cs


def _sign_structure(key: Trial, analysed: Analysed) -> tuple[Any, ...]:
    """Odd roots as sign changes with their directions, even roots as touches, from :meth:`_RootFinder.analyse`."""
    roots, s0, sinf, cs = analysed
    mult: dict[int, int] = {}
    for r, m in roots:
        mult[id(r)] = mult.get(id(r), 0) + m
    uniq = {id(r): r for r, _ in roots}
    odd = sorted((r for k, r in uniq.items() if mult[k] % 2), key=ROOT_ORDER)
    even = sorted((r for k, r in uniq.items() if mult[k] % 2 == 0), key=ROOT_ORDER)
    crossing, sign = [], s0
    for r in odd:
        crossing.append(GammaRoot(mult[id(r)], "to_error" if sign > 0 else "to_correct", r))
        sign = -sign
    touch = tuple(GammaRoot(mult[id(r)], "touch", r) for r in even)
    if sign != sinf:  # pragma: no cover - Descartes/factoring agree with the end signs
        raise AssertionError(f"internal: inconsistent signs for trial {key}")
    return tuple(crossing), touch, s0, sinf, cs


def margin_gammas(task: Task, trials: Iterable[Trial], lambda_prime: Any,
                  ranks: RankSolution | None = None) -> dict[Trial, TrialGammas]:
    r"""Sign structure in gamma of the margins of training and test trials at a fixed rescaled ridge.

    Test trials as in :func:`critical_gammas`. A training trial ``(a, b)`` with target ``y`` has the prediction
    ``f = d + c (y - d)`` with ``d = r_a - r_b`` and the memorized share
    ``c = alpha / (alpha + lambda') = (gamma - 2 lambda') / ((1 + lambda') gamma)``
    (docs/theory.md#graph-laplacian-reduction), so with ``e = y d = E / D`` and ``lambda' = p / q`` its margin is

        y f = [E (p + q) gamma + (q gamma - 2 p)(D - E)] / [D (p + q) gamma],

    whose denominator is positive for ``gamma > 0``. The roots of the numerator are analysed exactly as for
    test trials. Derived here, see docs/critical_conjunctivity.md#training-trials.

    Parameters
    ----------
    task : Task
    trials : iterable of (i, j)
        Trials with a margin (training trials, test trials with ground truth).
    lambda_prime : rational >= 0
        The rescaled ridge ``lambda / (1 - kappa_d)``; 0 for the ridgeless limit.
    ranks : RankSolution, optional

    Returns
    -------
    dict (i, j) -> TrialGammas

    Raises
    ------
    ParameterError
        If ``lambda_prime`` is not a rational number ``>= 0``.
    TaskError
        If a test trial has no ground truth.
    """
    lam = exact_number(lambda_prime, "lambda_prime")
    if not lam.is_Rational or lam < 0:
        raise ParameterError(f"lambda_prime must be a rational number >= 0, got {lam}")
    p, q = int(lam.p), int(lam.q)
    rs = _ranks(task, ranks)
    finder = _RootFinder(rs)
    cats, targets = task.categories, task.training_targets
    done: dict[Trial, tuple[Any, ...]] = {}
    out: dict[Trial, TrialGammas] = {}
    gam = rs.denominator.ring.gens[0]
    for t in trials:
        if t in targets:
            y = targets[t]
            e = y * (rs.numerators[t[0] - 1] - rs.numerators[t[1] - 1])
            num = e * gam * (p + q) + (q * gam - 2 * p) * (rs.denominator - e)
            analysed = finder.analyse_poly(tuple(int(c) for c in num.to_dense()), None)
            out[t] = TrialGammas(t, cats[t], *_sign_structure(t, analysed))
            continue
        if task.ground_truth(t) is None:
            raise TaskError(f"trial {t} has no ground truth (both items lie in one cycle, or the reference order "
                            "does not relate them)")
        key = _oriented(task, t)
        if key not in done:
            done[key] = _sign_structure(key, finder.analyse(*key))
        out[t] = TrialGammas(t, cats[t], *done[key])
    return out


def critical_gammas(task: Task, trials: Any = None, *, ranks: RankSolution | None = None
                    ) -> GammaAnalysis:
    """Positive roots in the effective ridge gamma at which test-trial margins change sign, exactly.

    Parameters
    ----------
    task : Task
        Any TI task (the exchangeable family is implied: its test predictions are rank differences).
    trials : list of (i, j), optional
        Test trials with ground truth; default all of them (both orders).
    ranks : RankSolution, optional
        A precomputed :func:`symbolic_ti.solvers.laplacian.rank_solution` of ``task``.

    Returns
    -------
    GammaAnalysis
        A dict (i, j) -> :class:`TrialGammas`. For each trial: the positive roots of odd multiplicity of its
        margin numerator (sorted, exact on access, with float and direction), roots of even multiplicity, and
        the margin's sign as ``gamma -> 0+`` and ``gamma -> oo``. ``(i, j)`` and ``(j, i)`` have the same margin
        and share the analysis.

    Raises
    ------
    ParameterError
        If ``task`` is not a Task.
    TaskError
        If a requested trial is a training trial or has no ground truth.
    SolveError
        If the analysis does not apply to the task (:func:`gamma_applies`: counts other than 1, or no rank
        solution of its comparison graph).

    Notes
    -----
    ``gamma = 2 (alpha + lambda') / (1 - alpha)`` with ``lambda' = lambda / (1 - kappa_d)``; see
    :func:`symbolic_ti.analysis.conjunctivity.critical_conjunctivity` for alpha. Method in the module docstring.

    Examples
    --------
    >>> g = critical_gammas(Task(9, ["6>4"]), [(3, 6)])
    >>> g[(3, 6)].roots[0].value
    -3/2 + sqrt(13)/2
    """
    if not isinstance(task, Task):
        raise ParameterError(f"task must be a symbolic_ti.Task, got {type(task).__name__}")
    chosen = resolve_trials(task, trials, test_only=True)
    rs = _ranks(task, ranks)
    finder = _RootFinder(rs)
    cats = task.categories
    done: dict[Trial, tuple[Any, ...]] = {}
    out: GammaAnalysis = GammaAnalysis(task)
    for t in chosen:
        key = _oriented(task, t)
        if key not in done:
            done[key] = _sign_structure(key, finder.analyse(*key))
        crossing, touch, s0, sinf, cs = done[key]
        out[t] = TrialGammas(t, cats[t], crossing, touch, s0, sinf, cs)
    return out
