"""Adaptive design from data (issue 26): the posterior over the hypotheses after the choices collected so far,
and the next trial(s) of largest expected information gain (docs/design.md#adaptive-design-from-data).

The data are any per-trial choices :func:`symbolic_ti.behaviour.load_behaviour` reads (the files of ``fit``):
per observed trial ``(i, j)``, ``w`` choices of the first item out of ``n`` (``w = n * P(first item wins)``,
whole numbers: correct-out-of-total counts, or one row per choice, or a count column of choices). The
likelihood of hypothesis ``h`` is that of ``fit``'s response model at the hypothesis's values,
``prod_t p_ht^w_t (1 - p_ht)^(n_t - w_t)`` with ``p_ht = sigmoid(beta_h f_h(i, j))`` from its exact predictions,
and the posterior is ``prior_h L_h / sum_g prior_g L_g`` (:class:`symbolic_ti.design.adaptive.AdaptiveEngine`,
float64 in log space). The expected information gain of one more presentation of a candidate trial is the
mutual information between the hypothesis and its outcome under the posterior (ADOpy's criterion).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arguments import check_int
from ..digits import message_repr
from ..display import Rendered
from ..errors import ParameterError
from ..formatting import rounded
from .hypotheses import Hypothesis, normalised
from .predictions import choice_probabilities, exact_predictions
from .space import design_trials

__all__ = ["AdaptiveDesignReport", "adaptive_design"]

Trial = tuple[int, int]
#: Tolerance on the whole numbers of choices ``n * P(first item wins)``.
WHOLE_TOLERANCE = 1e-6


@dataclass(frozen=True)
class AdaptiveDesignReport(Rendered):
    """The posterior over the hypotheses after the data, and the candidate trials ranked by expected
    information gain (:func:`adaptive_design`).

    Attributes
    ----------
    hypotheses : tuple of Hypothesis, length H
        With their normalised prior weights.
    source : str
        The data file.
    observed : tuple of (trial, wins, presentations)
        The data per trial: choices of the first item, and presentations.
    log_likelihood : tuple of float, length H
        ``log L_h`` of the data (binomial coefficients left out: they are common to every hypothesis).
    posterior : tuple of float, length H
        Sums to 1.
    candidates : tuple of (trial, float)
        Every candidate trial with its expected information gain of one presentation under the posterior (nats),
        largest first (gains equal to 12 significant digits in the order of the candidates).
    next : tuple of trial
        The ``k`` trials of largest expected information gain: the next to present (each one presentation,
        chosen on the current posterior: after each outcome, refit with the new data).
    item_labels : tuple of str or None
        The names of items ``1..n`` in the data (``--item-labels``, or the task's own labels), which the text
        report writes trials with; ``None``: items are numbers.
    """

    hypotheses: tuple[Hypothesis, ...]
    source: str
    observed: tuple[tuple[Trial, int, int], ...]
    log_likelihood: tuple[float, ...]
    posterior: tuple[float, ...]
    candidates: tuple[tuple[Trial, float], ...]
    next: tuple[Trial, ...]
    item_labels: tuple[str, ...] | None = None

    def trial_text(self, trial: Trial) -> str:
        """``(i, j)``, with the items' labels where the data name them."""
        if self.item_labels is None:
            return f"({trial[0]}, {trial[1]})"
        return f"({self.item_labels[trial[0] - 1]}, {self.item_labels[trial[1] - 1]})"

    @property
    def presentations(self) -> int:
        """Choices in the data."""
        return sum(n for _, _, n in self.observed)


def _choices(data: Any) -> list[tuple[Trial, int, int]]:
    from ..behaviour.data import BehaviourData

    if not isinstance(data, BehaviourData):
        raise ParameterError(f"data must be symbolic_ti.behaviour.BehaviourData (load_behaviour), got "
                             f"{message_repr(data)}")
    if not data.is_choice:
        raise ParameterError("data: the posterior needs choices (probability or accuracy); real-valued scores are "
                             "not choices")
    out = []
    for trial, p, n in zip(data.trials, data.p_first, data.counts, strict=True):
        wins = float(p) * float(n)
        if abs(n - round(n)) > WHOLE_TOLERANCE or abs(wins - round(wins)) > WHOLE_TOLERANCE * max(1.0, n):
            raise ParameterError(f"data: trial {trial} has {rounded(wins, 'g')} choices of the first item out of {rounded(n, 'g')}, not whole "
                                 f"numbers; the posterior needs counts of choices (correct and total columns, one "
                                 f"row per choice, or a count column of choices)")
        out.append((trial, int(round(wins)), int(round(n))))
    return out


def adaptive_design(hypotheses: Iterable[Hypothesis | str], data: Any, *, trials: Any = "test", next: int = 1,
                    dps: int = 30) -> AdaptiveDesignReport:
    """The posterior over the hypotheses after ``data``, and the next trial(s) maximising the expected
    information gain.

    Parameters
    ----------
    hypotheses : iterable of Hypothesis or str
        Two or more (:func:`symbolic_ti.design.parse_hypothesis`); the prior is their normalised weights (a TOML
        grid is a prior over its points).
    data : BehaviourData
        Choices on the task of the data (:func:`symbolic_ti.behaviour.load_behaviour`), whole numbers of them.
        Where the data's item columns hold labels (``A``, ``B``, ...) rather than item numbers, read them with
        ``coding=ItemCoding(labels=("A", "B", ...))`` (:class:`symbolic_ti.behaviour.coding.ItemCoding`, the
        labels in rank order, highest first: the CLI's ``--item-labels``); the trials are item numbers.
    trials : "test", "all" or list of (int, int)
        The candidate trials (:func:`symbolic_ti.design.design_trials`).
    next : int
        How many trials to propose (1 to the number of candidates): the ``next`` of largest expected
        information gain under the current posterior.
    dps : int
        Digits of the exact predictions' evaluation (15 to 1000).

    Returns
    -------
    AdaptiveDesignReport

    Raises
    ------
    ParameterError, FamilyError, TaskError
        A bad hypothesis, data that are not whole choices or are impossible under every hypothesis, a bad
        ``trials`` or ``next``.

    Examples
    --------
    The first session of docs/examples/monkey_sessions.csv, whose item columns hold the labels A to G
    (docs/design.md#adaptive-design-from-data):

    >>> from symbolic_ti.behaviour import load_behaviour
    >>> from symbolic_ti.behaviour.coding import ItemCoding
    >>> from symbolic_ti.task import Task
    >>> data = load_behaviour("docs/examples/monkey_sessions.csv", Task(7), filters=["session=1"],
    ...                       item_columns=("first", "second"), correct_column="correct", total_column="total",
    ...                       coding=ItemCoding(labels=tuple("ABCDEFG")))  # doctest: +SKIP
    >>> adaptive_design(["exchangeable:alpha=1/5;ridge=1/2;beta=4", "exchangeable:alpha=1/2;ridge=1/2;beta=4"],
    ...                 data, next=2).next  # doctest: +SKIP
    ((1, 7), (7, 1))
    """
    from .adaptive import AdaptiveEngine

    hyps = normalised(hypotheses)
    dps = check_int(dps, "dps", minimum=15, maximum=1000)
    observed = _choices(data)
    task = data.task
    candidates = design_trials(task, trials)
    next = check_int(next, "next", minimum=1, maximum=len(candidates))
    every = list(dict.fromkeys([*candidates, *(t for t, _, _ in observed)]))
    p = np.array([[float(x) for x in choice_probabilities(exact_predictions(task, h, every, dps=dps), h.beta, dps)]
                  for h in hyps])
    prior = np.array([float(h.weight) for h in hyps])
    engine = AdaptiveEngine(p, prior)
    index = {t: k for k, t in enumerate(every)}
    counts = np.zeros((len(every), 2))
    for t, wins, n in observed:
        counts[index[t]] += (n - wins, wins)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_lik = np.where(counts[None, :, :] > 0, counts[None] * engine.log_likelihood, 0.0).sum(axis=(1, 2))
    try:
        after = engine.update_counts(counts)
    except ParameterError:
        raise ParameterError("data: the choices are impossible under every hypothesis (a probability 0 or 1 "
                             "where the other choice was made)") from None
    gain = after.mutual_info()
    # equal gains (mirror-image trials) to 12 significant digits rank in the task's trial order, not by rounding
    order = sorted(range(len(candidates)), key=lambda k: (-float(f"{rounded(gain[index[candidates[k]]], '.12g')}"), k))
    ranked = tuple((candidates[k], float(gain[index[candidates[k]]])) for k in order)
    return AdaptiveDesignReport(hyps, str(data.source), tuple(observed),
                                tuple(float(x) if math.isfinite(x) else -math.inf for x in log_lik),
                                tuple(float(x) for x in after.posterior), ranked, tuple(t for t, _ in ranked[:next]),
                                _item_labels(data))


def _item_labels(data: Any) -> tuple[str, ...] | None:
    """The names of items ``1..n``: the data's ``labels`` (item ``k`` is ``labels[k - 1]``, or ``labels[n - k]``
    for a reversed coding), else the task's own labels."""
    n, coding = data.task.n, data.coding
    if coding.labels is None:
        return None if data.task.labels is None else tuple(data.task.labels)
    return tuple(coding.labels[n - k if coding.reversed else k - 1] for k in range(1, n + 1))
