"""The power with every free parameter refitted (``refit="all"``, issue 26): each hypothesis's family parameters,
its ridge where it is free, and ``beta`` are fitted by maximum likelihood to each simulated experiment, through
the likelihood and the optimiser of :func:`symbolic_ti.behaviour.fit`.

For a hypothesis ``h`` (:class:`~symbolic_ti.design.hypotheses.Hypothesis`) the refitted model is ``fit``'s
:class:`~symbolic_ti.behaviour.model.LikelihoodModel` of the design's presented trials, with the family
parameters that ``h`` sets to nonzero values left symbolic (those :func:`.experiment.free_parameter_count`
counts; a zero, such as the exchangeable default ``kappa_d = 0``, stays fixed, as do family parameters named
like the response model's ``beta``, ``lapse`` or ``bias``), the ridge fitted unless ``h`` is ridgeless, and
``beta``. Each simulated experiment's wins replace the model's observations and the binomial log-likelihood is
maximised by :func:`symbolic_ti.behaviour.optimize.minimize` (L-BFGS-B in ``fit``'s optimiser coordinates and
box) from ``starts`` starts: the hypothesis's own values first, then the starts of ``fit``
(:func:`~symbolic_ti.behaviour.optimize.starting_points`: the centre of the domain, then random ones drawn with
``seed``). Starting at the hypothesis's values makes the refitted maximum at least the likelihood at those values
(L-BFGS-B only descends), so the refit never scores a hypothesis below its fixed-parameter likelihood. The
log-likelihoods returned leave out the binomial coefficients, common to every hypothesis (as
:func:`symbolic_ti.design.power.power` does), and BIC counts the coordinates actually fitted.

Cost (:func:`refit_estimate`): one exact solve with the refitted parameters symbolic per hypothesis and task, and
per simulated experiment and hypothesis ``starts`` optimiser runs (``fit``'s cost model,
:mod:`symbolic_ti.behaviour.cost`, without its intervals and report).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..budgets import DEFAULT, BudgetLike, Estimate, check_budget
from ..errors import ParameterError
from ..families import Family
from ..progress import Progress
from ..task import Task
from .hypotheses import Hypothesis

__all__ = ["REFIT_STARTS", "REFIT_EVALUATION_SECONDS", "RESPONSE_NAMES", "refitted_family", "refit_estimate", "scan_computations", "RefitAll",
           "smallest_presentations_refitted"]

Trial = tuple[int, int]

#: Default optimiser starts per refit (``--refit-starts``): the hypothesis's values and the centre of the domain.
REFIT_STARTS = 2
#: Seconds of one likelihood evaluation of a refit, L-BFGS-B's step included, with one BLAS thread
#: (:func:`_one_blas_thread`): 0.11 ms at n = 7 and 9 (alpha, lambda and beta fitted), 0.22 ms at n = 4 (alpha and
#: beta), 120 to 180 evaluations per start; measured 2026-12-02 at load average 12 on the shared two-core machine.
REFIT_EVALUATION_SECONDS = 2.5e-4
#: Names of the response model's parameters: a family parameter called so is held at its value.
RESPONSE_NAMES = ("beta", "lapse", "bias")


def refitted_family(h: Hypothesis) -> tuple[Family, Any, tuple[str, ...]]:
    """The family of ``h`` with its refitted parameters symbolic, the ridge argument of the fit, and notes.

    Parameters
    ----------
    h : Hypothesis
        Without a training time (``fit``'s likelihood has none).

    Returns
    -------
    (Family, "fit" or "ridgeless", tuple of str)
        The parameters at nonzero values left symbolic (except those named like a response parameter, held with
        a note); ``"fit"`` when ``h`` has a ridge, ``"ridgeless"`` otherwise.

    Raises
    ------
    ParameterError
        If ``h`` has a gradient-flow training time.
    """
    if h.time is not None:
        raise ParameterError(f"refit: 'all' refits through fit's likelihood, which has no training time; "
                             f"hypothesis {h.name} has time={h.time} (use refit='none' or 'beta')")
    names = [name for name, value in h.family.values.items() if value != 0]
    held = tuple(f"{h.name}: the family parameter {name} is held at {h.family.values[name]} (its name is the "
                 f"response model's)" for name in names if name in RESPONSE_NAMES)
    free = {name: "symbolic" for name in names if name not in RESPONSE_NAMES}
    return h.family.with_values(**free), "ridgeless" if h.ridge is None else "fit", held


def refit_estimate(tasks: Sequence[Task], hypotheses: Sequence[Hypothesis], starts: int, fits: int) -> Estimate:
    """The estimated cost of refitting every hypothesis ``fits`` times on each task (docs/performance.md#budgets).

    ``fit``'s cost model (:func:`symbolic_ti.behaviour.estimate.fit_cost`) without its intervals and its fixed
    report cost: the closed forms with the refitted parameters symbolic, derived and compiled once per hypothesis
    and task, then ``starts`` times :data:`~symbolic_ti.behaviour.cost.FIT_EVALUATIONS_PER_START` likelihood
    evaluations per fit of :data:`REFIT_EVALUATION_SECONDS` each (one BLAS thread) plus the compiled closed forms'
    part. An upper bound where simulated data sets repeat (each distinct one is fitted once).
    """
    from ..behaviour.cost import FIT_EVALUATIONS_PER_START, FIT_FIXED_SECONDS, FIT_FORMS_EVALUATION_SECONDS_AT_15
    from ..behaviour.estimate import fit_cost

    build, evaluations, each = 0.0, 0, 0.0
    for task in tasks:
        for h in hypotheses:
            fam, ridge, _ = refitted_family(h)
            build += fit_cost(task, [fam], ridge, starts=0, intervals=False).seconds - FIT_FIXED_SECONDS
        each = max(each, REFIT_EVALUATION_SECONDS + FIT_FORMS_EVALUATION_SECONDS_AT_15 * (task.n / 15) ** 4)
        evaluations += len(hypotheses) * fits * starts * FIT_EVALUATIONS_PER_START
    return Estimate(build + evaluations * each,
                    f"{fits:,} refits of each of {len(hypotheses)} hypotheses on {len(tasks)} "
                    f"task{'s' if len(tasks) != 1 else ''}, {starts} start{'s' if starts != 1 else ''} each: "
                    f"{evaluations:,} likelihood evaluations")


def scan_computations(p: Any, counts: Any, target: float) -> int:
    """About how many power computations :func:`symbolic_ti.design.power.smallest_presentations` does for
    hypothesis 0 against 1 (``p`` of shape (2, T)): ``2 m*`` (its scan of every ``m``) plus its doubling, ``m*``
    from the normal approximation of the log likelihood ratio, ``power(m) ~ Phi(sqrt(m) mu / sigma)`` with ``mu``
    and ``sigma^2`` its mean and variance per base design under hypothesis 0, so ``m* = (z_target sigma / mu)^2``.
    A pair the design cannot tell apart (``mu = 0``) costs the doubling alone (13 computations up to 4096)."""
    import math
    from statistics import NormalDist

    q = np.clip(np.asarray(p, dtype=float), 1e-300, 1 - 1e-16)
    n = np.asarray(counts, dtype=float)
    a, b = q[0], q[1]
    step = np.log(a * (1 - b) / (b * (1 - a)))
    mu = float(np.sum(n * (a * np.log(a / b) + (1 - a) * np.log((1 - a) / (1 - b)))))
    var = float(np.sum(n * a * (1 - a) * step**2))
    z = max(NormalDist().inv_cdf(min(target, 1 - 1e-12)), 0.0)
    return 13 if not mu > 0 else min(2 * 4096, 2 * math.ceil((z * math.sqrt(var) / mu) ** 2) + 13)


class RefitAll:
    """Maximised log-likelihoods of every hypothesis refitted to simulated experiments on one design.

    Parameters
    ----------
    task : Task
    trials : sequence of (int, int), length T
        The design's trials (those with zero presentations are left out of each fit).
    hypotheses : sequence of Hypothesis, length H
    starts : int
        Optimiser starts per fit, >= 1 (the hypothesis's values, then ``fit``'s starts).
    seed : int
        Seed of ``fit``'s random starts.
    budget : DEFAULT, None or float
        Of each exact solve with the refitted parameters symbolic.

    Attributes
    ----------
    fits, unconverged : int
        Fits done (one per distinct simulated data set and hypothesis), and those of which no start reported
        convergence.
    notes : list of str
        Parameters held fixed, and those the predictions do not depend on (not fitted).

    Raises
    ------
    ParameterError
        For ``starts < 1`` or a hypothesis with a training time.
    """

    def __init__(self, task: Task, trials: Sequence[Trial], hypotheses: Sequence[Hypothesis], *,
                 starts: int = REFIT_STARTS, seed: int = 0, budget: BudgetLike = DEFAULT) -> None:
        if isinstance(starts, bool) or not isinstance(starts, (int, np.integer)) or starts < 1:
            raise ParameterError(f"refit_starts: expected an integer >= 1, got {starts!r}")
        self.task, self.trials, self.hypotheses = task, tuple(trials), tuple(hypotheses)
        self.starts, self.seed, self.budget = int(starts), int(seed), budget
        self.families = [refitted_family(h) for h in self.hypotheses]
        self.notes: list[str] = [note for _, _, held in self.families for note in held]
        self._models: dict[tuple[int, tuple[bool, ...]], Any] = {}
        self._columns: dict[tuple[int, tuple[bool, ...]], np.ndarray] = {}
        self._memo: dict[tuple[int, bytes, bytes], np.ndarray] = {}
        self.fits = self.unconverged = 0

    def model(self, h: int, presented: np.ndarray) -> Any:
        """``fit``'s :class:`~symbolic_ti.behaviour.model.LikelihoodModel` of hypothesis ``h`` on the trials
        where ``presented`` (shape (T,)) is True, built once per pattern (its rows are in the task's order; the
        design's column of each is kept beside it)."""
        key = (h, tuple(bool(x) for x in presented))
        if key not in self._models:
            from ..behaviour.data import behaviour_from_arrays
            from ..behaviour.model import LikelihoodModel

            rows = [t for t, shown in zip(self.trials, presented, strict=True) if shown]
            data = behaviour_from_arrays(self.task, rows, [0.5] * len(rows), [1.0] * len(rows))
            fam, ridge, _ = self.families[h]
            model = LikelihoodModel(data, fam, ridge, budget=self.budget)
            # the data's rows are in the task's order: the columns of the design's presented trials, in that order
            self._columns[key] = np.array([self.trials.index(t) for t in data.trials])
            self.notes += [f"{self.hypotheses[h].name}: {n}" for n in model.notes if
                           f"{self.hypotheses[h].name}: {n}" not in self.notes]
            self._models[key] = model
        return self._models[key]

    def n_params(self, h: int, counts: Any) -> int:
        """The coordinates fitted for hypothesis ``h`` (family parameters, a fitted ridge, ``beta``): BIC's ``k``."""
        return len(self.model(h, np.asarray(counts) > 0).coords)

    def _start(self, h: int, model: Any) -> np.ndarray:
        """The optimiser coordinates of the hypothesis's own values."""
        hyp = self.hypotheses[h]
        values = {**{k: v for k, v in hyp.family.values.items()}, "beta": hyp.beta, "lambda": hyp.ridge}
        return np.array([c.to_z(float(sp.N(values[c.name]))) for c in model.coords])

    def log_likelihoods(self, h: int, wins: Any, counts: Any) -> np.ndarray:
        """The maximised log-likelihood (binomial coefficients left out) of hypothesis ``h`` on each experiment.

        Parameters
        ----------
        h : int
        wins : array_like, shape (S, T)
            First-item wins per experiment and trial.
        counts : array_like, shape (T,)
            Presentations per trial.

        Returns
        -------
        numpy.ndarray, shape (S,)
            Each distinct row of ``wins`` is fitted once (the same data give the same maximum).
        """
        from ..behaviour.optimize import minimize, starting_points

        k = np.asarray(wins, dtype=float)
        n = np.asarray(counts, dtype=float)
        key = (h, k.tobytes(), n.tobytes())
        if key in self._memo:
            return self._memo[key]
        presented = n > 0
        if not presented.any():  # no presentation: every hypothesis gives the empty data likelihood 1
            return np.zeros(k.shape[0])
        model = self.model(h, presented)
        starts = [self._start(h, model), *starting_points(model, self.starts - 1, self.seed)][:self.starts]
        rows, inverse = np.unique(k, axis=0, return_inverse=True)  # the same data give the same maximum
        best_ll = np.empty(rows.shape[0])
        with Progress() as progress, _one_blas_thread():
            for s, row in enumerate(rows):
                progress.update(f"refit {self.hypotheses[h].name}: data set", s, rows.shape[0])
                cols = self._columns[(h, tuple(bool(x) for x in presented))]
                model.observations(row[cols] / n[cols], n[cols], True)
                best, converged, zbest = np.inf, False, starts[0]
                for z0 in starts:
                    z, nll, ok = minimize(model, z0)
                    if nll < best:
                        best, zbest = nll, z
                    converged = converged or ok
                best = min(best, _onto_an_end(model, zbest, best, minimize))
                best_ll[s] = -best - model.const
                self.fits += 1
                self.unconverged += not converged
        out = best_ll[np.asarray(inverse).reshape(-1)]
        self._memo[key] = out
        return out

    def pair(self, hypotheses: Sequence[int]) -> Any:
        """``log_likelihood(wins (S, T), counts (T,)) -> (len(hypotheses), S)`` for
        :func:`symbolic_ti.design.power.power`'s ``log_likelihood``, the hypotheses in the given order."""
        def log_likelihood(wins: np.ndarray, counts: np.ndarray) -> np.ndarray:
            return np.stack([self.log_likelihoods(h, wins, counts) for h in hypotheses])

        return log_likelihood


#: A refitted coordinate this close to an end of its domain (fraction of a bounded domain, or distance above the
#: lower end of a half-line) is tried at that end, the others re-maximised (see :func:`_onto_an_end`).
NEAR_END = 0.01


def _onto_an_end(model: Any, z: np.ndarray, nll: float, minimize: Any) -> float:
    """The negative log-likelihood after each family or ridge coordinate near an end of its domain is put on that
    end (its optimiser bound) with the others re-maximised, where that is lower: L-BFGS-B stops short of an end
    where the likelihood flattens toward it (e.g. ``alpha ~ 1e-4`` for a maximum at the additive end 0), which
    would score a hypothesis that contains another one (nested) below it by the optimiser's tolerance, not a tie.
    The same optimiser, :func:`symbolic_ti.behaviour.optimize.minimize`, with that coordinate held."""
    best = nll
    for k, c in enumerate(model.coords[:model.n_kernel]):
        x = c.to_natural(float(z[k]))
        if c.kind == "logistic":
            q = (x - c.lower) / (c.upper - c.lower)
            side = -1 if q < NEAR_END else 1 if q > 1 - NEAR_END else 0
        else:
            side = -1 if c.kind == "exp" and x - c.lower < NEAR_END else 0
        if side:
            _, held, _ = minimize(model, z, {k: c.zbounds[0] if side < 0 else c.zbounds[1]})
            best = min(best, held)
    return best


def _one_blas_thread() -> Any:
    """BLAS limited to one thread while the fits run, where threadpoolctl is installed: L-BFGS-B's tiny BLAS
    calls are about 20 times slower with OpenBLAS's threads (0.8 ms against 16 ms of CPU per scipy minimize of a
    3-parameter quadratic measured on the development machine, 2026-12-02); the results are the same."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn (the test extra)
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(1, user_api="blas")


def smallest_presentations_refitted(p: Any, counts_shape: Any, refit: RefitAll, pair: Sequence[int],
                                    target: float, *, criterion: Any = "likelihood-ratio",
                                    simulations: int = 4000, seed: Any = 0, max_multiplier: int = 4096,
                                    budget: BudgetLike = DEFAULT, **options: Any) -> Any:
    """:func:`symbolic_ti.design.power.smallest_presentations` with every parameter refitted, after its cost is
    estimated and checked against ``budget``.

    Parameters
    ----------
    p : array_like, shape (2, T)
        Choice probabilities of ``pair`` (the true hypothesis first).
    counts_shape : array_like, shape (T,)
    refit : RefitAll
    pair : (int, int)
        Indices into ``refit.hypotheses``: the true one, the other.
    target, criterion, simulations, seed, max_multiplier, options
        As for :func:`~symbolic_ti.design.power.smallest_presentations`.
    budget : DEFAULT, None or float
        The scan's estimated cost (:func:`scan_computations` power computations, each ``simulations`` refits of
        both hypotheses, :func:`refit_estimate`) above which it is refused.

    Returns
    -------
    SmallestPresentations

    Raises
    ------
    symbolic_ti.errors.BudgetError
        One line with the estimate when it is above ``budget``.
    """
    from .power import smallest_presentations

    base = np.asarray(counts_shape)
    computations = scan_computations(p, base, float(target))
    one = refit_estimate([refit.task], [refit.hypotheses[i] for i in pair], refit.starts,
                         computations * int(simulations))
    check_budget("smallest_presentations: refit all", Estimate(
        one.seconds, f"about {computations} power computations of {int(simulations)} experiments: {one.detail}"),
        budget)
    n_params = [refit.n_params(i, base) for i in pair]
    return smallest_presentations(p, base, 0, target, criterion=criterion, n_params=n_params,
                                  simulations=simulations, seed=seed, max_multiplier=max_multiplier,
                                  log_likelihood=refit.pair(pair), **options)


def refit_notes(refits: Sequence[Any]) -> tuple[str, ...]:
    """The report's lines of ``refit="all"``: the fits and their starts, and the parameters held or not fitted."""
    fits = sum(r.fits for r in refits)
    bad = sum(r.unconverged for r in refits)
    starts = refits[0].starts
    text = (f"refit all: every free parameter of each hypothesis refitted by maximum likelihood (fit's likelihood "
            f"and optimiser) to each simulated experiment: {fits:,} fits, {starts} optimiser start"
            f"{'s' if starts != 1 else ''} each (the hypothesis's values" + (", then fit's starts" if starts > 1
                                                                           else "") + ")")
    if bad:
        text += f"; {bad:,} of them did not report convergence from any start (more --refit-starts)"
    seen: list[str] = []
    for r in refits:
        seen += [n for n in r.notes if n not in seen]
    return (text, *seen)
