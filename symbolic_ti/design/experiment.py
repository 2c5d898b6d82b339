"""``design_experiment``: which design of a design space tells the hypotheses apart best, from exact predictions.

For each design the exact predictions of every hypothesis (:mod:`symbolic_ti.design.predictions`) give the
choice probabilities ``p`` of shape ``(H, T)``; the information layer (``symbolic_ti.design.information``,
``symbolic_ti.design.search``) turns them into per-trial divergences, expected log Bayes factors, mutual
information and Fisher information; the designs are ranked (:mod:`symbolic_ti.design.report`).

The cost is estimated before the work (one exact solve per hypothesis and task, one with the Fisher parameters
symbolic: :func:`symbolic_ti.budgets.solve_estimate`), progress is shown on long searches
(:class:`symbolic_ti.progress.Progress`), and a Ctrl-C stops the run with nothing returned half-built.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import mpmath
import sympy as sp

from ..arguments import check_choice, check_int
from ..budgets import DEFAULT, BudgetLike, Estimate, check_budget, resolve_budget, solve_estimate
from ..digits import message_repr
from ..errors import ParameterError
from ..formatting import rounded
from ..progress import Progress
from ..results import FrozenMapping
from .hypotheses import Hypothesis, normalised
from .information import MAX_OUTCOMES, MAX_SAMPLES, MP_MAX_OUTCOMES
from .refit import REFIT_STARTS, RefitAll, refit_estimate, refit_notes
from .predictions import GUARD_DIGITS, _mpf, choice_probabilities, exact_predictions, fisher_parameters, logit_jacobian
from .report import CRITERIA, POWER_CRITERIA, DesignEvaluation, DesignReport, FisherSummary, PowerSummary, \
    TrialInformation
from .space import DesignSpace, ExperimentDesign, as_design_space, design_trials

__all__ = ["design_experiment", "MI_METHODS", "REFITS", "OUTCOMES", "design_estimate", "scan_estimate", "free_parameter_count"]

#: How the mutual information is computed (the information layer's ``method``).
MI_METHODS = ("auto", "exact", "monte-carlo")
#: Estimated seconds of one design's information values per ordered hypothesis pair and trial (the mpmath
#: divergences from the exact logits at 30 digits; measured 20 items, 342 test trials, 2 hypotheses: 0.5 s, 7e-4
#: s each, 2026-12-02; was 2e-5, 35 times too low).
_PAIR_TRIAL_SECONDS = 8e-4
#: Estimated seconds of one simulated experiment's trial in a Monte Carlo power (numpy; 0.1 s for 4000
#: experiments of 54 trials measured on the development machine), and the power computations of one pair and
#: criterion: the power at the design, then the doubling and bisection of the multiplier search (typically;
#: the 13 single-exception designs of docs/design.md with --power 0.8 took 12 s of CPU against 31 s estimated).
_POWER_TRIAL_SECONDS = 5e-7
#: Estimated seconds of a Monte Carlo mutual information per sample and trial (numpy, measured on the development
#: machine at load 8: 1.5e-7 s at 10 presentations a trial (342 trials, 2 or 3 hypotheses), 2.3e-7 s at 100).
_MC_SAMPLE_TRIAL_SECONDS = 2e-7
#: Estimated seconds of the exact mutual information in mpmath per outcome vector and hypothesis (where at most
#: ``MP_MAX_OUTCOMES`` are enumerated; measured 5 items, one presentation of 12 test trials, 1296 outcome vectors
#: after the exact reductions, 2 hypotheses: 0.6 s).
_MP_OUTCOME_SECONDS = 2.5e-4
_POWER_EVALUATIONS = 4
#: Estimated seconds of the Fisher information per trial and symbolic parameter (the closed form with that one
#: parameter symbolic, built and differentiated at the hypothesis's values; :func:`.predictions.logit_jacobian`),
#: for families other than the exchangeable one and for it: measured 9 items with 6>4, 54 test trials, geometric
#: alpha and rho 5.9 s (0.05 s each), exchangeable alpha 0.45 s (0.008 s each), on the development machine.
_FISHER_FORM_SECONDS = {False: 0.06, True: 0.01}
#: The refit of ``beta`` (:func:`symbolic_ti.design.power.beta_refit`) costs this many simulated trials per
#: simulated trial and hypothesis (its bisection steps, each a sigmoid of the experiments x trials).
_REFIT_FACTOR = 48
#: How the hypotheses are scored in the power: at their values only (``"none"``), or also with ``beta``
#: refitted by maximum likelihood to each simulated experiment (``"beta"``), or with every free parameter refitted
#: through ``fit``'s likelihood and optimiser (``"all"``, :mod:`symbolic_ti.design.refit`).
REFITS = ("none", "beta", "all")
#: The outcomes of a presentation: a binomial choice, or a real score (fit's Gaussian model, :mod:`.scores`).
OUTCOMES = ("binomial", "score")


def design_estimate(space: DesignSpace, hypotheses: Sequence[Hypothesis], fisher: bool,
                    power_simulations: int = 0, refit: str = "none", refit_starts: int = REFIT_STARTS,
                    mi_method: str = "exact", samples: int = 0) -> Estimate:
    """The estimated cost of :func:`design_experiment` (docs/performance.md#budgets): the exact solves (one per
    hypothesis and task at its values, and with the Fisher information one with the parameters symbolic), then
    the information values of every ordered pair of hypotheses and trial, and with ``power_simulations > 0`` the
    Monte Carlo power of every ordered pair, both criteria and the multiplier search (an upper bound where the
    power is exact); with ``refit="all"`` the refits of every hypothesis to the experiments simulated from each
    hypothesis in each design (:func:`symbolic_ti.design.refit.refit_estimate`); with ``samples``, the Monte Carlo
    mutual information of every design where ``mi_method`` draws it (``"auto"``: where its outcome vectors are
    above :data:`~symbolic_ti.design.information.MAX_OUTCOMES` before the exact reductions, or under a greedy
    search)."""
    seconds, trials, sampled = 0.0, 0, 0
    for task in space.tasks:
        for h in hypotheses:
            method = "laplacian" if h.family.exchangeable else "halved"
            seconds += solve_estimate(task.n, False, method=method, exceptions=len(task.exceptions)).seconds
            if fisher:  # one solve per parameter with that one symbolic, and each trial's derivative
                k = max(1, len(fisher_parameters(h, None)) - 1)
                per_form = _FISHER_FORM_SECONDS[h.family.exchangeable]
                seconds += k * (solve_estimate(task.n, True, method=method, free=1,
                                               exceptions=len(task.exceptions)).seconds
                                + per_form * len(task.trials))
        trials += len(task.trials)
        shown = len(design_trials(task, space.trials))
        if mi_method == "monte-carlo" or (mi_method == "auto" and (space.total is not None or (
                space.presentations + 1) ** shown > MAX_OUTCOMES)):
            sampled += shown
        elif space.total is None and (space.presentations + 1) ** shown <= MP_MAX_OUTCOMES:  # mpmath, exact
            seconds += _MP_OUTCOME_SECONDS * len(hypotheses) * (space.presentations + 1) ** shown
        if space.total is not None:  # the greedy search over the design's trials
            from .search import greedy_estimate

            seconds += greedy_estimate(len(hypotheses), len(design_trials(task, space.trials)), space.total).seconds
    pairs = len(hypotheses) * (len(hypotheses) - 1)
    seconds += _PAIR_TRIAL_SECONDS * pairs * trials + _MC_SAMPLE_TRIAL_SECONDS * samples * sampled
    seconds += _POWER_TRIAL_SECONDS * power_simulations * _POWER_EVALUATIONS * 2 * pairs * trials
    if refit == "beta":
        seconds += _POWER_TRIAL_SECONDS * power_simulations * _REFIT_FACTOR * 2 * 2 * pairs * trials
    search = "" if space.total is None else (f", a greedy search of {space.total:,} presentations each (growing as "
                                             f"total^3 while a step's outcome vectors are at most "
                                             f"{MAX_OUTCOMES:,}, then linearly: Monte Carlo gains)")
    if refit == "all" and power_simulations:
        per_task = -(-len(space) // len(space.tasks))  # designs per task, rounded up
        full = refit_estimate(space.tasks, hypotheses, refit_starts, per_task * len(hypotheses) * power_simulations)
        return Estimate(seconds + full.seconds, f"{len(space)} design{'s' if len(space) != 1 else ''}, "
                                                f"{len(hypotheses)} hypotheses, {trials} trials{search}; {full.detail}")
    return Estimate(seconds, f"{len(space)} design{'s' if len(space) != 1 else ''}, {len(hypotheses)} hypotheses, "
                             f"{trials} trial{'s' if trials != 1 else ''}{search}"
                             + (f", a Monte Carlo mutual information of {samples:,} samples" if sampled and samples
                                else ""))


def design_experiment(hypotheses: Iterable[Hypothesis | str], designs: Any, *, trials: Any = "test",
                      presentations: int = 10, total: int | None = None, fisher: Sequence[str] | None = (),
                      criterion: str = "mutual-information", mi_method: str = "auto", samples: int = 20000,
                      seed: int = 0, dps: int = 30, power: float | None = None, simulations: int = 4000,
                      refit: str = "none", refit_starts: int = REFIT_STARTS, outcome: str = "binomial",
                      score_sd: Any = None, budget: BudgetLike = DEFAULT) -> DesignReport:
    """Rank the designs of a design space by how well they tell the hypotheses apart.

    Parameters
    ----------
    hypotheses : iterable of Hypothesis or str
        Two or more (:func:`symbolic_ti.design.parse_hypothesis` texts such as ``'exchangeable:alpha=1/10'``);
        prior weights are normalised.
    designs : DesignSpace, Task, list of Task, or int
        The designs (:func:`symbolic_ti.design.design_space`); a Task or a number of items is one design.
    trials : "test", "all" or list of (int, int)
        Trials presented, when ``designs`` is not a DesignSpace.
    presentations : int
        Presentations of each trial (>= 1), when ``designs`` is not a DesignSpace.
    total : int, optional
        A budget of presentations in all (>= 1), placed by the greedy search, when ``designs`` is not a
        DesignSpace.
    fisher : sequence of str or None
        Parameters of the Fisher information of each hypothesis (family parameters, ``lambda``, ``beta``);
        ``None`` for every family parameter and ``beta``; ``()`` (default) for none.
    criterion : {"mutual-information", "log-bayes-factor"}
        The ranking.
    mi_method : {"auto", "exact", "monte-carlo"}
        Mutual information by exact summation over outcomes or by Monte Carlo with a standard error.
    samples : int
        Monte Carlo samples (>= 100).
    seed : int
        Of the Monte Carlo samples and the search's ties.
    dps : int
        Decimal digits of the information values, 15 to 1000.
    power : float, optional
        A target power in (0, 1): every design then carries, for each ordered pair of hypotheses and for the
        likelihood-ratio and the BIC comparison (:class:`~symbolic_ti.design.report.PowerSummary`), the power at
        its presentations and the smallest multiplier of its presentations reaching ``power``
        (:func:`symbolic_ti.design.power.power`, :func:`~symbolic_ti.design.power.smallest_presentations`).
    simulations : int
        Simulated experiments of a Monte Carlo power (>= 100), when the outcome vectors are too many to enumerate.
    refit : {"none", "beta"}
        With ``power``: ``"beta"`` adds the power when each hypothesis's response scale ``beta`` is refitted by
        maximum likelihood to each simulated experiment (:func:`symbolic_ti.design.power.beta_refit`: what
        :func:`symbolic_ti.behaviour.fit` does with the family parameters and the ridge held at the hypothesis's
        values), by Monte Carlo with ``simulations`` experiments, the BIC counting that one parameter
        (:attr:`PowerSummary.refitted <symbolic_ti.design.report.PowerSummary.refitted>`). ``"all"``: every free
        parameter of each hypothesis (its family parameters at nonzero values, its ridge unless ridgeless, and
        ``beta``) is refitted by maximum likelihood through ``fit``'s likelihood and optimiser
        (:class:`symbolic_ti.design.refit.RefitAll`), the BIC counting the coordinates fitted; the smallest
        multiplier stays the fixed-parameter one (:func:`symbolic_ti.design.refit.smallest_presentations_refitted`
        scans with the refit). Hypotheses with a training time take no ``"all"``.
    refit_starts : int
        With ``refit="all"``: optimiser starts per refit (>= 1, default 2): the hypothesis's own values, then
        ``fit``'s starts (the centre of the domain, then random ones), against local optima.
    outcome : {"binomial", "score"}
        A presentation's outcome: a choice (``sigmoid(beta f)``), or a real score ``Normal(beta f, score_sd^2)``,
        the Gaussian model of ``fit`` (:mod:`symbolic_ti.design.scores`: exact divergences ``(mu_a - mu_b)^2 /
        (2 sigma^2)``, Monte Carlo mutual information, Fisher information ``sum count J J^T / sigma^2``; the
        evaluations' ``probabilities`` then hold the means ``beta f``). Scores take no ``total``, ``power`` nor
        ``mi_method="exact"``.
    score_sd : exact number > 0, optional
        With ``outcome="score"``: the standard deviation of one presentation's score (default 1); refused with
        binomial outcomes (a choice has no spread to give).
    budget : DEFAULT, None or float
        Seconds of estimated CPU above which the run is refused (:mod:`symbolic_ti.budgets`).

    Returns
    -------
    DesignReport

    Raises
    ------
    ParameterError, FamilyError, TaskError
        One line for a hypothesis that does not parse or is out of its family's domain, an empty design space, a
        budget of presentations of 0, or another bad argument.
    BudgetError
        If the estimated cost is above ``budget``.
    """
    hyps = normalised(hypotheses)
    dps = check_int(dps, "dps", minimum=15, maximum=1000)
    criterion = check_choice(criterion, "criterion", CRITERIA)
    mi_method = check_choice(mi_method, "mi_method", MI_METHODS)
    samples = check_int(samples, "samples", minimum=100, maximum=MAX_SAMPLES)
    seed = check_int(seed, "seed", minimum=0)
    simulations = check_int(simulations, "simulations", minimum=100)
    refit = check_choice(refit, "refit", REFITS)
    refit_starts = check_int(refit_starts, "refit_starts", minimum=1)
    outcome = check_choice(outcome, "outcome", OUTCOMES)
    from .scores import score_sd as _check_sd

    if outcome == "binomial" and score_sd is not None:
        raise ParameterError(f"score_sd: the spread of a real score is for outcome='score'; binomial outcomes "
                             f"(choices) take none, got score_sd={message_repr(score_sd)}")
    score_sd = _check_sd(1 if score_sd is None else score_sd)
    if outcome == "score" and refit != "none":
        raise ParameterError(f"refit: the hypotheses are refitted to simulated choices, so refit={refit!r} is for "
                             f"binomial outcomes, not outcome='score'; leave refit out")
    if outcome == "score":
        if power is not None or total is not None or mi_method == "exact" or (
                isinstance(designs, DesignSpace) and designs.total is not None):
            raise ParameterError("outcome: scores take no power, no total (greedy placement) and no exact mutual "
                                 "information (a Gaussian mixture: Monte Carlo); leave them out or use "
                                 "outcome='binomial'")
    if refit != "none" and power is None:
        raise ParameterError("refit: the refitted power needs a target power (power=0.8, --power 0.8)")
    if power is not None and (isinstance(power, bool) or not isinstance(power, (int, float))
                              or not 0 < float(power) < 1):
        raise ParameterError(f"power must be a target power in (0, 1) such as 0.8, or None, got "
                             f"{message_repr(power)}")
    resolve_budget(budget)
    space = as_design_space(designs, trials, presentations, total)
    if fisher is not None and (isinstance(fisher, str) or not isinstance(fisher, Iterable)
                               or not all(isinstance(x, str) for x in fisher)):
        raise ParameterError(f"fisher must be a list of parameter names such as ['alpha', 'beta'], None (every "
                             f"family parameter and beta) or () (none), got {message_repr(fisher)}")
    names = [None if fisher is None else tuple(fisher) for _ in hyps]
    fisher_names = [fisher_parameters(h, n) for h, n in zip(hyps, names, strict=True)] if fisher is None or tuple(
        fisher) else []
    check_budget("design", design_estimate(space, hyps, bool(fisher_names),
                                           0 if power is None else simulations, refit, refit_starts,
                                           mi_method, samples if outcome == "binomial" else 0), budget)
    refits: list[Any] = []
    evaluations = []
    all_designs = space.designs()
    imprecise: list[float] = []
    below: list[str] = []
    guarantees: set[str] = set()
    with Progress(n=max(t.n for t in space.tasks)) as progress:
        for k, design in enumerate(all_designs):
            progress.update(f"design {design.label}", k, len(all_designs))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                if outcome == "binomial":
                    evaluation, guarantee = _evaluate(design, hyps, fisher_names, space.total, mi_method, samples,
                                                      seed, dps, budget)
                    guarantees.add(guarantee)
                else:
                    evaluation = _evaluate_scores(design, hyps, fisher_names, score_sd, samples, seed, dps)
                evaluations.append(evaluation)
            if power is not None:
                evaluations[-1] = _with_power(evaluations[-1], hyps, float(power), simulations, seed, refit,
                                              budget, refit_starts, refits, dps)
            for w in caught:  # the standard error is in the report: one note for every design, not a warning each
                if type(w.message).__name__ == "MonteCarloPrecisionWarning":
                    imprecise.append(float(evaluations[-1].information.standard_error))
                elif type(w.message).__name__ == "InformationRangeWarning":
                    below.append(design.label)
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
                else:
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        progress.update("ranking", len(all_designs), len(all_designs))
    notes: tuple[str, ...] = () if not imprecise else (
        f"the Monte Carlo mutual information of {len(imprecise)} of "
        f"{len(all_designs)} design{'s' if len(all_designs) != 1 else ''} has a standard error above the information layer's tolerance (largest "
        f"{rounded(max(imprecise), '.2g')} nats); more samples (--samples, samples=) give more digits",)
    floats = sum(1 for e in evaluations if e.information.method == "exact" and not isinstance(e.information.value,
                                                                                            mpmath.mpf))
    if floats:
        notes += (f"the exact mutual information of {floats} of {len(all_designs)} design{'s' if len(all_designs) != 1 else ''} is summed in float64 "
                  f"(about 15 digits, not {dps}): above {MP_MAX_OUTCOMES} outcome vectors to sum at {dps} digits",)
    notes += _identical_note(hyps, evaluations)
    if refits:
        notes += refit_notes(refits)
    if below:
        notes += (f"the mutual information of {len(below)} of {len(all_designs)} design{'s' if len(all_designs) != 1 else ''} "
                  f"is below float64's range in part (probabilities sigmoid(beta f) that round to 0 or 1): the value "
                  f"shown leaves that information out; with fewer outcome vectors (at most {MP_MAX_OUTCOMES}) it "
                  f"is exact in mpmath",)
    ranked = sorted(evaluations, key=lambda e: e.score(criterion), reverse=True)
    search = "fixed" if space.total is None else (f"greedy: a budget of {space.total} presentation{'s' if space.total != 1 else ''} placed one by "
                                                  f"one on the trial of largest gain in mutual information; "
                                                  f"guarantee: {_weakest(guarantees)}")
    if outcome == "score":
        notes = (*notes, f"outcomes: real scores, Normal(beta f, sigma^2) with sigma = {score_sd} (fit's Gaussian model); "
                  f"the probabilities columns hold the means beta f")
    return DesignReport(hyps, tuple(ranked), criterion, dps, search, notes,
                        None if power is None else float(power), outcome)


def _weakest(guarantees: set[str]) -> str:
    """The guarantee that holds for every design: the Monte Carlo one where any design's gains were estimated."""
    from .search import GUARANTEES

    mc = GUARANTEES["mutual-information-mc"]
    return mc if mc in guarantees else GUARANTEES["mutual-information"]


def _identical_note(hyps: Sequence[Hypothesis], evaluations: Sequence[DesignEvaluation]) -> tuple[str, ...]:
    """A note per pair of hypotheses whose predictions are the same on every trial of every design (every
    divergence exactly 0): no data of the design space tell them apart."""
    out = []
    for a in range(len(hyps)):
        for b in range(a + 1, len(hyps)):
            if all(all(x == 0 for x in e.divergences[a, b]) for e in evaluations):
                out.append(f"H{a + 1} and H{b + 1} make identical predictions on every trial of the design space "
                           f"(every divergence is 0): no data of these designs can tell them apart")
    return tuple(out)


def free_parameter_count(h: Hypothesis) -> int:
    """The parameters a ``fit`` of hypothesis ``h`` would estimate, the BIC's ``k``: its family parameters at
    nonzero values, its ridge (unless ridgeless) and ``beta``."""
    return sum(1 for v in h.family.values.values() if v != 0) + (h.ridge is not None) + 1


def scan_estimate(p: Any, counts: Any, target: float, simulations: int) -> Estimate:
    """The estimated cost of :func:`symbolic_ti.design.power.smallest_presentations` for hypothesis 0 against 1
    (``p`` of shape (2, T)): about ``2 m*`` power computations (its scan of every ``m``), ``m*`` from the normal
    approximation of the log likelihood ratio, ``power(m) ~ Phi(sqrt(m) mu / sigma)`` with ``mu`` and ``sigma^2``
    its mean and variance per base design under hypothesis 0, so ``m* = (z_target sigma / mu)^2``; each
    computation costed as a Monte Carlo one (an upper bound where the outcomes are few enough to enumerate). A
    pair the design cannot tell apart (``mu = 0``) costs the doubling alone (13 computations up to 4096)."""
    import numpy as np

    from .refit import scan_computations

    n = np.asarray(counts, dtype=float)
    evaluations = scan_computations(p, n, target)
    trials = int(np.count_nonzero(n))
    return Estimate(_POWER_TRIAL_SECONDS * simulations * trials * evaluations,
                    f"about {int(evaluations)} power computations of {simulations} experiments")


def _with_power(e: DesignEvaluation, hyps: Sequence[Hypothesis], target: float, simulations: int,
                seed: int, refit: str = "none", budget: BudgetLike = DEFAULT, refit_starts: int = REFIT_STARTS,
                refits: list[Any] | None = None, dps: int = 30) -> DesignEvaluation:
    """``e`` with the power of every ordered pair and criterion, and the multiplier reaching ``target`` (each
    pair's scan estimated and checked against ``budget`` first, :func:`scan_estimate`); with ``refit="all"`` the
    design's :class:`~symbolic_ti.design.refit.RefitAll` is appended to ``refits``."""
    import dataclasses

    import numpy as np

    from . import power as power_layer

    p = np.array([[float(x) for x in row] for row in e.probabilities])
    counts = np.array(e.design.counts, dtype=int)
    k = np.array([free_parameter_count(h) for h in hyps])
    f = np.array([[float(x) for x in row] for row in e.predictions])
    # the exact logits beta f: the power's log-likelihood differences from them (ties decided to dps digits)
    logits = np.array([[sp.sympify(h.beta) * v for v in row] for h, row in zip(hyps, e.predictions, strict=True)],
                      dtype=object)
    full = None
    if refit == "all":
        full = RefitAll(e.design.task, e.design.trials, hyps, starts=refit_starts, seed=seed, budget=budget)
        if refits is not None:
            refits.append(full)
    out = []
    for a in range(len(hyps)):
        for b in range(len(hyps)):
            if a == b:
                continue
            check_budget(f"design: power H{a + 1} vs H{b + 1}",
                         scan_estimate(p[[a, b]], counts, target, simulations), budget)
            for criterion in POWER_CRITERIA:
                kw: Any = {"criterion": criterion, "n_params": k[[a, b]], "simulations": simulations, "seed": seed}
                exact_kw = {**kw, "logits": logits[[a, b]], "dps": dps}
                est = power_layer.power(p[[a, b]], counts, 0, **exact_kw)
                smallest = power_layer.smallest_presentations(p[[a, b]], counts, 0, target, **exact_kw)
                refitted: Any
                if full is not None:
                    refitted = power_layer.power(p[[a, b]], counts, 0, **{**kw, "n_params": [
                        full.n_params(a, counts), full.n_params(b, counts)]}, log_likelihood=full.pair([a, b]))
                else:
                    refitted = None if refit == "none" else power_layer.power(
                        p[[a, b]], counts, 0, **{**kw, "n_params": [1, 1]},
                        log_likelihood=power_layer.beta_refit(f[[a, b]]))
                out.append(PowerSummary(a, b, criterion, est, smallest, refitted, refit))
    return dataclasses.replace(e, power=tuple(out))


def _evaluate(design: ExperimentDesign, hyps: Sequence[Hypothesis], fisher_names: Sequence[tuple[str, ...]],
              total: int | None, mi_method: str, samples: int, seed: int, dps: int,
              budget: BudgetLike = None) -> tuple[DesignEvaluation, str]:
    """The evaluation of one design, and the greedy search's guarantee (:data:`search.GUARANTEES`) when it
    placed the presentations (``""`` otherwise)."""
    import numpy as np

    from .information import (a_optimality, d_optimality, divergence_matrix, expected_log_bayes_factor,
                              fisher_information, mutual_information)
    from .search import greedy_trials

    task, trials = design.task, design.trials
    values = [exact_predictions(task, h, trials, dps=dps) for h in hyps]
    probs = [choice_probabilities(v, h.beta, dps) for v, h in zip(values, hyps, strict=True)]
    p = np.array(probs, dtype=object)
    with mpmath.workdps(dps + GUARD_DIGITS):
        prior = np.array([_mpf(h.weight, dps + GUARD_DIGITS) for h in hyps], dtype=object)
    counts = np.array(design.counts, dtype=int)
    guarantee = ""
    if total is not None:
        selection = greedy_trials(p, prior, total, seed=seed, cost_budget=budget)
        counts, guarantee = np.asarray(selection.counts, dtype=int), selection.guarantee
        design = ExperimentDesign(task, trials, tuple(int(c) for c in counts))
    # the divergences from the exact logits beta f: finite and correct at any beta (a probability sigmoid(beta f)
    # rounds to 0 or 1 where beta f is large)
    logits = np.array([[sp.sympify(h.beta) * v for v in vals] for h, vals in zip(hyps, values, strict=True)],
                      dtype=object)
    d = divergence_matrix(logits, dps=dps, logits=True)
    h_count = len(hyps)
    pairs = [(a, b) for a in range(h_count) for b in range(h_count) if a != b]
    divergences = {(a, b): tuple(d[a][b][t] for t in range(len(trials))) for a, b in pairs}
    log_bf = {(a, b): expected_log_bayes_factor(logits, counts, a, b, dps=dps, logits=True) for a, b in pairs}
    method: Any = mi_method  # (one of MI_METHODS, checked by design_experiment)
    mi = mutual_information(p, prior, counts, method=method, samples=samples, seed=seed, dps=dps, logits=logits)
    fisher = []
    for h, names, vals, ph in zip(hyps, fisher_names, values, probs, strict=False):
        jac = logit_jacobian(task, h, trials, names, vals)
        matrix = fisher_information(np.array(ph, dtype=object),
                                                np.array([[float(x) for x in row] for row in jac]), counts)
        matrix = np.asarray(matrix, dtype=float)
        fisher.append(FisherSummary(h.name, names, tuple(tuple(float(x) for x in row) for row in matrix),
                                    float(d_optimality(matrix)), float(a_optimality(matrix)),
                                    jac))
    with mpmath.workdps(dps + GUARD_DIGITS):
        weights = [_mpf(h.weight, dps + GUARD_DIGITS) for h in hyps]
        scores = [mpmath.fsum(weights[a] * weights[b] * mpmath.mpf(divergences[a, b][t]) for a, b in pairs)
                  for t in range(len(trials))]
    order = sorted(range(len(trials)), key=lambda t: (-scores[t], trials[t]))
    ranked = tuple(TrialInformation(trials[t], task.category(trials[t]), int(counts[t]), scores[t]) for t in order)
    return DesignEvaluation(design, tuple(tuple(v) for v in values), tuple(probs), FrozenMapping(divergences),
                            FrozenMapping(log_bf), mi, tuple(fisher), ranked), guarantee


def _evaluate_scores(design: ExperimentDesign, hyps: Sequence[Hypothesis], fisher_names: Sequence[tuple[str, ...]],
                     sd: Any, samples: int, seed: int, dps: int) -> DesignEvaluation:
    """:func:`_evaluate` for real scores (:mod:`.scores`): the means ``beta f`` in place of the probabilities."""
    import numpy as np
    import sympy as sp

    from .information import a_optimality, d_optimality
    from .scores import score_divergences, score_fisher_information, score_mutual_information

    task, trials = design.task, design.trials
    values = [exact_predictions(task, h, trials, dps=dps) for h in hyps]
    mu = [[sp.sympify(h.beta) * v for v in vals] for h, vals in zip(hyps, values, strict=True)]
    counts = np.array(design.counts, dtype=int)
    exact = score_divergences(mu, sd)
    with mpmath.workdps(dps + GUARD_DIGITS):
        means = tuple(tuple(_mpf(x, dps + GUARD_DIGITS) for x in row) for row in mu)
        divergences = {k: tuple(_mpf(x, dps + GUARD_DIGITS) for x in v) for k, v in exact.items()}
        log_bf = {k: mpmath.fsum(int(c) * x for c, x in zip(counts, v, strict=True)) for k, v in divergences.items()}
        weights = [_mpf(h.weight, dps + GUARD_DIGITS) for h in hyps]
        scores = [mpmath.fsum(weights[a] * weights[b] * divergences[a, b][t] for a, b in divergences)
                  for t in range(len(trials))]
    mi = score_mutual_information(np.array([[float(x) for x in row] for row in mu]),
                                  [float(h.weight) for h in hyps], counts, sd, samples=samples, seed=seed)
    fisher = []
    for h, names, vals in zip(hyps, fisher_names, values, strict=False):
        jac = logit_jacobian(task, h, trials, names, vals)
        matrix = score_fisher_information([[float(x) for x in row] for row in jac], counts, sd)
        fisher.append(FisherSummary(h.name, names, tuple(tuple(float(x) for x in row) for row in matrix),
                                    float(d_optimality(matrix)), float(a_optimality(matrix)), jac))
    order = sorted(range(len(trials)), key=lambda t: (-scores[t], trials[t]))
    ranked = tuple(TrialInformation(trials[t], task.category(trials[t]), int(counts[t]), scores[t]) for t in order)
    return DesignEvaluation(design, tuple(tuple(v) for v in values), means, FrozenMapping(divergences),
                            FrozenMapping(log_bf), mi, tuple(fisher), ranked)
