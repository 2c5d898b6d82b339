"""Choosing the presentations of a design under a budget (issue 26): greedy selection with its guarantee, and
exhaustive search of small spaces.

A selection adds ``budget`` presentations, one at a time, to the counts ``initial`` (zero by default) of the
candidate trials. Two objectives:

* ``"log-bayes-factor"``: the expected log Bayes factor of ``true`` against ``other``,
  ``sum_t counts_t KL(p[true, t] || p[other, t])``. It is additive (linear in the counts), so the greedy
  selection, which puts every presentation on a trial of largest divergence, is optimal.
* ``"mutual-information"``: ``I(H; K)`` between the hypothesis and the outcomes. The presentations are
  observations conditionally independent given the hypothesis, so ``I(H; Y_A)`` is a monotone submodular
  function of the set ``A`` of presentations (Krause & Guestrin 2005, "Near-optimal nonmyopic value of
  information in graphical models", UAI: the information gain of observations conditionally independent given
  the hidden variable is submodular), and the greedy selection under a cardinality budget
  reaches at least ``1 - 1/e`` (about 63%) of the best selection's information (Nemhauser, Wolsey & Fisher 1978).
  That bound holds for exact gains; when the outcomes are too many to enumerate the gains are Monte Carlo
  estimates with stated standard errors and the bound holds only up to them.

The gain of one more presentation of trial ``t`` after the selection ``A`` is computed exactly from the outcome
table of ``A`` (the chain rule): ``I(H; Y_t | K_A) = sum_k P(k) sum_h post_h(k) KL(p[h, t] || q_t(k))``,
``post(k)`` the posterior after outcome ``k`` and ``q_t(k)`` its predictive probability of a win: a sum of
nonnegative terms, so that small gains are not differences of large entropies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np

from ..budgets import BudgetLike, Estimate, check_budget
from ..errors import BudgetError, ParameterError
from ..progress import Progress
from . import _arrays
from ._arrays import (
    FrozenArrays,
    _counts,
    _index,
    _kl_float,
    _logsumexp,
    _outcome_count,
    _outcome_blocks,
    _prior,
    _probabilities,
    _reduce,
    _xlogy,
)
from .information import MAX_OUTCOMES, kl_per_trial, mutual_information

__all__ = ["GreedySelection", "ExhaustiveRanking", "greedy_trials", "exhaustive_best", "greedy_estimate"]

#: The cost model of the greedy search (docs/performance.md#budgets). One step computes the gain of every
#: candidate trial from the outcome table of the presentations placed so far: about ``GAIN_CELL_SECONDS`` of CPU
#: per cell (outcome vector x hypothesis x candidate trial; Monte Carlo: simulated experiment x hypothesis x
#: candidate) plus ``GAIN_STEP_SECONDS``. Measured 2026-12-02 on the shared two-core machine: 5 items, 2
#: hypotheses, 12 candidates, 0.14 s for the step at 60,840 outcome vectors (9.6e-8 s a cell); 7 items, 3
#: hypotheses, 30 candidates, 0.28 s at 18,744 (1.6e-7 s a cell); 0.5 to 1.3 ms for a step of few outcomes.
GAIN_CELL_SECONDS = 1.5e-7
GAIN_STEP_SECONDS = 1e-3
#: The outcome vectors after ``s`` presentations are ``prod_t (n_t + 1)`` over the trials that received them; the
#: greedy search concentrates them on few trials (measured: 1 or 2 distinct trials after 300 to 1000
#: presentations in the runs above and on 9 items), so the estimate takes them spread evenly over
#: ``GREEDY_SPREAD`` trials, ``(s / 2 + 1)^2``: 0.86 to 10 times the measured CPU of those runs (5 items, 1000
#: presentations: 303 s estimated, 53 to 80 s measured; 7 items, 300: 32 s against 37 s; 9 items, 300: 13 s against
#: 1.3 s). A search that spreads wider costs more than estimated; its steps are checked as they go
#: (:func:`greedy_trials`).
GREEDY_SPREAD = 2

Objective = Literal["mutual-information", "log-bayes-factor"]

GUARANTEES = {
    "log-bayes-factor": "optimal: the expected log Bayes factor is additive over presentations",
    "mutual-information": ("at least 1 - 1/e of the best selection's information: mutual information is monotone "
                           "submodular in presentations conditionally independent given the hypothesis "
                           "(Krause & Guestrin 2005; Nemhauser, Wolsey & Fisher 1978)"),
    "mutual-information-mc": ("1 - 1/e of the best up to the Monte Carlo error of the gains (outcomes too many to "
                              "enumerate; see gain_errors)"),
}


@dataclass(frozen=True, eq=False)
class GreedySelection(FrozenArrays):
    """Presentations chosen one at a time.

    Attributes
    ----------
    counts : numpy.ndarray, shape (T,)
        ``initial`` plus the chosen presentations.
    order : tuple of int
        The trial chosen at each step.
    gains : tuple of float
        The objective's increase at each step (nats).
    gain_errors : tuple of float
        Standard errors of the gains (0 when exact).
    value : float
        The objective at ``counts`` (the sum of the gains plus its value at ``initial``).
    objective : {"mutual-information", "log-bayes-factor"}
    guarantee : str
        What the greedy selection is guaranteed to reach.
    """

    counts: np.ndarray
    order: tuple[int, ...]
    gains: tuple[float, ...]
    gain_errors: tuple[float, ...]
    value: float
    objective: Objective
    guarantee: str

    def __post_init__(self) -> None:
        self._freeze()


@dataclass(frozen=True, eq=False)
class ExhaustiveRanking(FrozenArrays):
    """Every allocation of the budget, ranked by the objective (largest first).

    Attributes
    ----------
    counts : numpy.ndarray, shape (R, T)
        The ``R = min(top, evaluated)`` best count vectors.
    values : numpy.ndarray, shape (R,)
        Their objective values (nats).
    standard_errors : numpy.ndarray, shape (R,)
        0 where exact (Monte Carlo mutual information otherwise).
    evaluated : int
        Allocations evaluated (all of them).
    objective : {"mutual-information", "log-bayes-factor"}
    """

    counts: np.ndarray
    values: np.ndarray
    standard_errors: np.ndarray
    evaluated: int
    objective: Objective

    def __post_init__(self) -> None:
        self._freeze()


def _setup(p: Any, prior: Any, budget: Any, objective: str, true: Any, other: Any, initial: Any,
           candidates: Any) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray | None]:
    arr = _probabilities(p)
    h, t = arr.shape
    w = _prior(prior, h)
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 1:
        raise ParameterError(f"budget: expected a positive number of presentations, got {budget!r}")
    if objective not in ("mutual-information", "log-bayes-factor"):
        raise ParameterError(f"objective: expected 'mutual-information' or 'log-bayes-factor', got {objective!r}")
    start = np.zeros(t, dtype=np.int64) if initial is None else _counts(initial, t, "initial")
    if candidates is None:
        cand = np.arange(t)
    else:
        cand = np.unique(np.asarray(candidates))
        if cand.size == 0 or cand.dtype.kind not in "iu" or cand.min() < 0 or cand.max() >= t:
            raise ParameterError(f"candidates: expected a nonempty set of trial indices in 0..{t - 1}")
    kl = None
    if objective == "log-bayes-factor":
        if true is None or other is None:
            raise ParameterError("true, other: the log Bayes factor objective needs both hypothesis indices")
        kl = kl_per_trial(arr[_index(true, h, "true")], arr[_index(other, h, "other")])
    return arr, w, int(budget), start, cand, kl


def _bernoulli_information(post: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Shape (c, C): ``I(H; Y_t)`` of one presentation of each candidate under each posterior ``post[:, j]``,
    as ``sum_h post_h KL(p_ht || q_t)`` with ``q_t = sum_h post_h p_ht`` (terms that are all nonnegative, unlike
    the difference of entropies ``H_b(q_t) - sum_h post_h H_b(p_ht)``)."""
    q = post.T @ pc
    out = np.zeros(q.shape)
    for h in range(pc.shape[0]):
        with np.errstate(invalid="ignore"):
            out += np.where(post[h][:, None] > 0, post[h][:, None] * _kl_float(np.broadcast_to(pc[h], q.shape), q),
                            0.0)
    return out


def _gains(p: np.ndarray, w: np.ndarray, counts: np.ndarray, cand: np.ndarray, max_outcomes: int, samples: int,
           rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Exact (or Monte Carlo) ``I(H; Y_t | K_A) = E_k[I(H; Y_t | K_A = k)]`` for every candidate ``t``."""
    h = p.shape[0]
    pc = p[:, cand]
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
    rp, rn = _reduce(p, counts)  # the posterior depends on the informative trials' pooled wins only
    if len(rn) == 0:
        return _bernoulli_information(w[:, None], pc)[0], np.zeros(len(cand))
    if _outcome_count(rn) <= max_outcomes:
        expected = np.zeros(len(cand))
        # blocks of (H, c) outcomes and (c, candidates) informations, about BLOCK_CELLS / 8 each
        cells = h * max(1, _arrays.BLOCK_CELLS // (8 * max(h, len(cand))))
        for log_lik in _outcome_blocks(rp, rn, True, cells):
            joint = log_w[:, None] + log_lik  # (H, c)
            log_marg = _logsumexp(joint, axis=0)
            post = np.exp(joint - log_marg[None, :])  # (H, c): the posterior after each outcome
            expected += np.exp(log_marg) @ _bernoulli_information(post, pc)
        return expected, np.zeros(len(cand))
    per = max(2, -(-samples // h))
    value = np.zeros(len(cand))
    var = np.zeros(len(cand))
    for a in range(h):
        if w[a] == 0:
            continue
        k = rng.binomial(rn[None, :], rp[a][None, :], size=(per, len(rn))).astype(float)
        ll = (_xlogy(k[None], rp[:, None, :]) + _xlogy((rn - k)[None], 1.0 - rp[:, None, :])).sum(axis=2)
        joint = log_w[:, None] + ll
        post = np.exp(joint - _logsumexp(joint, axis=0)[None, :])
        info = _bernoulli_information(post, pc)  # (per, C)
        value += w[a] * info.mean(axis=0)
        var += w[a] ** 2 * info.var(axis=0, ddof=1) / per
    return value, np.sqrt(var)


def _step_cells(outcomes: float, max_outcomes: int, samples: int) -> float:
    """The outcome vectors (or Monte Carlo experiments) one greedy step evaluates, per hypothesis and candidate."""
    return float(outcomes) if outcomes <= max_outcomes else float(samples)


def greedy_estimate(hypotheses: int, candidates: int, budget: int, *, max_outcomes: int = MAX_OUTCOMES,
                    samples: int = 20000) -> Estimate:
    """The estimated cost of :func:`greedy_trials` placing ``budget`` presentations by mutual information, for
    ``hypotheses`` hypotheses and ``candidates`` candidate trials (:data:`GAIN_CELL_SECONDS`,
    :data:`GREEDY_SPREAD`): it grows as ``budget^3`` until the outcome vectors pass ``max_outcomes``, then
    linearly (Monte Carlo gains of ``samples`` experiments).

    >>> round(greedy_estimate(2, 12, 1000).seconds)
    303
    """
    r = GREEDY_SPREAD
    steps = float(min(budget, 10**18))
    # s at which (s / r + 1)^r passes max_outcomes; the exact steps before it, the Monte Carlo ones after
    switch = r * (max_outcomes ** (1 / r) - 1)
    exact = min(steps, switch)
    cells = r / (r + 1) * ((exact / r + 1) ** (r + 1) - 1)  # the integral of (s / r + 1)^r from 0 to exact
    cells += max(0.0, steps - switch) * _step_cells(max_outcomes + 1, max_outcomes, samples)
    seconds = GAIN_CELL_SECONDS * hypotheses * candidates * cells + GAIN_STEP_SECONDS * steps
    return Estimate(seconds, f"the greedy search of {budget:,} presentation{'s' if budget != 1 else ''} over "
                             f"{candidates:,} trial{'s' if candidates != 1 else ''}, growing as total^3 up to "
                             f"{max_outcomes:,} outcome vectors a step, then linearly (Monte Carlo gains)")


def greedy_trials(p: Any, prior: Any, budget: int, *, objective: Objective = "mutual-information",
                  true: int | None = None, other: int | None = None, initial: Any = None, candidates: Any = None,
                  max_outcomes: int = MAX_OUTCOMES, samples: int = 20000, seed: Any = 0,
                  cost_budget: BudgetLike = None) -> GreedySelection:
    """Add ``budget`` presentations one at a time, each to the candidate trial of largest gain.

    Parameters
    ----------
    p : array_like, shape (H, T)
        Choice probabilities in [0, 1].
    prior : array_like, shape (H,)
        Nonnegative weights with a positive sum (used by mutual information).
    budget : int
        Presentations to add, at least 1.
    objective : {"mutual-information", "log-bayes-factor"}
        See the module docstring for the guarantee of each.
    true, other : int, optional
        Hypothesis indices of the log Bayes factor objective.
    initial : array_like, shape (T,), optional
        Presentations already in the design.
    candidates : sequence of int, optional
        Trials that may receive presentations (all by default).
    max_outcomes : int
        Exact gains while the current design has at most this many outcome vectors; Monte Carlo beyond.
    samples, seed
        Monte Carlo gains: simulated experiments per step, seed of ``numpy.random.default_rng``.
    cost_budget : DEFAULT, None or float
        Seconds of estimated CPU (:mod:`symbolic_ti.budgets`; default None, no limit). Before each step of the
        mutual-information search, the cost of the steps done plus a lower bound of the rest (every later step
        evaluates at least ``min(outcomes now, samples)`` cells, :data:`GAIN_CELL_SECONDS`) is checked against
        it; progress is shown (:class:`symbolic_ti.progress.Progress`).

    Returns
    -------
    GreedySelection
        Ties between trials go to the smallest index.

    Raises
    ------
    ParameterError
        Bad inputs, a budget below 1, a missing ``true``/``other`` for the log Bayes factor.
    BudgetError
        When the search would certainly cost more than ``cost_budget`` (one line with the estimate).
    """
    arr, w, budget, counts, cand, kl = _setup(p, prior, budget, objective, true, other, initial, candidates)
    order: list[int] = []
    gains: list[float] = []
    errors: list[float] = []
    if kl is not None:
        best = int(cand[np.argmax(kl[cand])])
        order, gains, errors = [best] * budget, [float(kl[best])] * budget, [0.0] * budget
        counts = counts.copy()
        counts[best] += budget
        with np.errstate(invalid="ignore"):
            value = float(np.sum(np.where(counts > 0, counts * kl, 0.0)))
        return GreedySelection(counts, tuple(order), tuple(gains), tuple(errors), value, "log-bayes-factor",
                               GUARANTEES["log-bayes-factor"])
    rng = np.random.default_rng(seed)
    start = mutual_information(arr, w, counts, max_outcomes=max_outcomes, samples=samples, seed=seed)
    counts = counts.copy()
    exact = start.method == "exact"
    spent = 0.0
    per_cell = GAIN_CELL_SECONDS * arr.shape[0] * len(cand)
    with Progress() as progress:
        for step in range(budget):
            progress.update("greedy search: presentations", step, budget)
            if cost_budget is not None:
                _, rn = _reduce(arr, counts)
                cells = _step_cells(_outcome_count(rn), max_outcomes, samples)
                rest = (budget - step) * (per_cell * min(cells, samples) + GAIN_STEP_SECONDS)
                check_budget(f"design: total {budget:,}", Estimate(spent + rest, (
                    f"the greedy search at presentation {step:,} of {budget:,}: {int(cells):,} outcome vectors x "
                    f"{arr.shape[0]} hypotheses x {len(cand)} trials a step, and growing")), cost_budget)
                spent += per_cell * cells + GAIN_STEP_SECONDS
            _greedy_step(arr, w, counts, cand, max_outcomes, samples, rng, order, gains, errors)
    exact = exact and not any(e > 0 for e in errors)
    guarantee = GUARANTEES["mutual-information" if exact else "mutual-information-mc"]
    return GreedySelection(counts, tuple(order), tuple(gains), tuple(errors), start.value + float(sum(gains)),
                           "mutual-information", guarantee)


def _greedy_step(arr: np.ndarray, w: np.ndarray, counts: np.ndarray, cand: np.ndarray, max_outcomes: int,
                 samples: int, rng: np.random.Generator, order: list[int], gains: list[float],
                 errors: list[float]) -> None:
    """One presentation on the candidate of largest gain (``counts`` and the lists updated in place)."""
    g, se = _gains(arr, w, counts, cand, max_outcomes, samples, rng)
    i = int(np.argmax(g))
    counts[cand[i]] += 1
    order.append(int(cand[i]))
    gains.append(float(g[i]))
    errors.append(float(se[i]))


def exhaustive_best(p: Any, prior: Any, budget: int, *, objective: Objective = "mutual-information",
                    true: int | None = None, other: int | None = None, initial: Any = None, candidates: Any = None,
                    top: int = 10, max_designs: int = 100000, max_outcomes: int = MAX_OUTCOMES,
                    samples: int = 20000, seed: Any = 0) -> ExhaustiveRanking:
    """Evaluate every way of adding ``budget`` presentations to the candidate trials and rank them.

    There are ``C(budget + c - 1, c - 1)`` allocations over ``c`` candidates; each is evaluated exactly (or, for
    mutual information with too many outcomes, by Monte Carlo with the same seed and a stated standard error).

    Parameters
    ----------
    p, prior, budget, objective, true, other, initial, candidates, max_outcomes, samples, seed
        As in :func:`greedy_trials`.
    top : int
        How many of the best allocations to return.
    max_designs : int
        Refuse when there are more allocations.

    Returns
    -------
    ExhaustiveRanking
        Ties keep the enumeration order (lexicographic in the candidates' counts, largest first).

    Raises
    ------
    ParameterError
        Bad inputs, a budget below 1, ``top < 1``.
    symbolic_ti.errors.BudgetError
        More than ``max_designs`` allocations.
    """
    arr, w, budget, start, cand, kl = _setup(p, prior, budget, objective, true, other, initial, candidates)
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise ParameterError(f"top: expected a positive integer, got {top!r}")
    total = math.comb(budget + len(cand) - 1, len(cand) - 1)
    if total > max_designs:
        raise BudgetError(f"budget: {total} allocations of {budget} presentations over {len(cand)} trials, above "
                          f"max_designs={max_designs}; use greedy_trials or fewer candidates")
    rows, values, errors = [], [], []
    # stars and bars: the bar positions among budget + c - 1 slots
    for bars in combinations(range(budget + len(cand) - 1), len(cand) - 1):
        edges = (-1, *bars, budget + len(cand) - 1)
        alloc = np.array([edges[i + 1] - edges[i] - 1 for i in range(len(cand))], dtype=np.int64)
        counts = start.copy()
        counts[cand] += alloc
        if kl is not None:
            with np.errstate(invalid="ignore"):
                values.append(float(np.sum(np.where(counts > 0, counts * kl, 0.0))))
            errors.append(0.0)
        else:
            est = mutual_information(arr, w, counts, max_outcomes=max_outcomes, samples=samples, seed=seed)
            values.append(est.value)
            errors.append(est.standard_error)
        rows.append(counts)
    rank = np.argsort(-np.array(values), kind="stable")[:top]
    return ExhaustiveRanking(np.array(rows)[rank], np.array(values)[rank], np.array(errors)[rank], total,
                             objective)
