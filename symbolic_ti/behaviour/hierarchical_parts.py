r"""What the two reports of the hierarchical model share (:mod:`~symbolic_ti.behaviour.hierarchical`, empirical
Bayes with the Laplace approximation; :mod:`~symbolic_ti.behaviour.bayes`, NUTS in NumPyro): the report's common
fields, the subjects' loading and checks, the name of a fitted scale, and the tally of the posterior predictive
check (per (subject, trial) row the observed correct count against binomial choices at the observed count from
each draw; pooled per trial as accuracies)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from ..display import Rendered
from ..errors import DataError, ParameterError
from ..formatting import rounded
from ..task import Task
from .data import BehaviourData, load_behaviour
from .model import Coord, LikelihoodModel

__all__ = ["PredictiveTrial", "HierarchicalReport", "PredictiveTally", "scale_name", "load_subjects",
           "check_subjects"]

Trial = tuple[int, int]


@dataclass(frozen=True)
class PredictiveTrial(Rendered):
    """The posterior predictive check of one trial, pooled over the subjects that saw it.

    Attributes
    ----------
    trial : (i, j)
    category : str
    count : float
        Choices over the subjects.
    observed : float
        Observed accuracy (correct / count).
    predicted : float
        Mean of the predictive accuracy.
    lower, upper : float
        Central ``level`` interval of the predictive accuracy.
    inside : bool
        ``lower <= observed <= upper``.
    """

    trial: Trial
    category: str
    count: float
    observed: float
    predicted: float
    lower: float
    upper: float
    inside: bool


class _Population(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def median(self) -> float: ...


P = TypeVar("P", bound=_Population)
S = TypeVar("S")


@dataclass(frozen=True, repr=False)
class HierarchicalReport(Rendered, Generic[P, S]):
    """The leading fields of :class:`~symbolic_ti.behaviour.hierarchical.HierarchicalFit` and
    :class:`~symbolic_ti.behaviour.bayes.BayesianFit` (the family and its description, the task, the ridge, the
    subject column, one population estimate per subject-level parameter and one estimate per subject, described
    there), :attr:`values` and the ``repr`` (``mu`` and ``tau`` of each parameter from :meth:`_mu_tau`)."""

    family: str
    family_description: str
    task: Task
    ridge: str
    subject_column: str
    population: tuple[P, ...]
    subjects: tuple[S, ...]

    @property
    def values(self) -> dict[str, float]:
        """The population medians ``x(mu)`` by name."""
        return {p.name: p.median for p in self.population}

    def _mu_tau(self, p: P) -> tuple[float, float]:
        """The ``mu`` and ``tau`` of ``p`` the ``repr`` shows."""
        raise NotImplementedError

    def __repr__(self) -> str:
        pops = ", ".join(f"{p.name}: mu={rounded(mu, '.4g')} tau={rounded(tau, '.3g')}"
                         for p in self.population for mu, tau in [self._mu_tau(p)])
        return f"{type(self).__name__}({self.family}, {len(self.subjects)} subjects of {self.subject_column!r}, {pops})"


def scale_name(c: Coord) -> str:
    """The fitted scale of ``c`` in words: ``"logit"``, ``"log"``, ``"logit((x - a)/(b - a))"``, ``"log(x - a)"``
    or ``"identity"``."""
    if c.kind == "logistic":
        a, b = rounded(c.lower, "g"), rounded(c.upper, "g")
        return "logit" if (c.lower, c.upper) == (0.0, 1.0) else f"logit((x - {a})/({b} - {a}))"
    if c.kind == "exp":
        return "log" if c.lower == 0.0 else f"log(x - {rounded(c.lower, 'g')})"
    return "identity"


def load_subjects(path: str | os.PathLike[str], task: Task, subject_column: str,
                  filters: Iterable[str | tuple[str, str]], load: Mapping[str, Any] | None
                  ) -> list[tuple[str, BehaviourData]]:
    """Each subject's data of a table: ``(name, BehaviourData)`` in the loader's order of the subjects.

    Raises
    ------
    DataError
        For fewer than two subjects and every error of the loader.
    """
    load = dict(load or {})
    pooled = load_behaviour(path, task, filters=filters, subject_column=subject_column, **load)
    if len(pooled.subjects) < 2:
        raise DataError(f"subject column {subject_column!r} holds {len(pooled.subjects)} subject among the selected "
                        "rows; a hierarchical fit needs at least two")
    kept = [f for f in pooled.filters if f[0] != subject_column]
    return [(s, load_behaviour(path, task, filters=kept + [(subject_column, s)], **load)) for s in pooled.subjects]


def check_subjects(subjects: Sequence[tuple[str, BehaviourData]]) -> tuple[list[tuple[str, BehaviourData]], Task]:
    """The subjects as a list and their one task.

    Raises
    ------
    ParameterError
        For fewer than two subjects, other than ``(name, BehaviourData)`` pairs, data of different tasks, scores.
    """
    subjects = list(subjects)
    if len(subjects) < 2:
        raise ParameterError(f"a hierarchical fit needs at least two subjects, got {len(subjects)}")
    if any(not isinstance(d, BehaviourData) for _, d in subjects):
        raise ParameterError("subjects must be (name, BehaviourData) pairs (symbolic_ti.behaviour.data)")
    task = subjects[0][1].task
    if any(d.task != task for _, d in subjects):
        raise ParameterError("every subject's data must be of one task")
    if any(not d.is_choice for _, d in subjects):
        raise ParameterError("a hierarchical fit models choices (binomial); these data are real scores")
    return subjects, task


class PredictiveTally:
    """The posterior predictive check's counts over subjects: :meth:`subject` for each subject in turn, then
    :meth:`trials`.

    Parameters
    ----------
    draws : int
        Predictive draws per row.
    level : float in (0, 1)
        Of the central predictive intervals.
    """

    def __init__(self, draws: int, level: float) -> None:
        self.draws = draws
        self.lo_q, self.hi_q = 0.5 - level / 2, 0.5 + level / 2
        self.inside = self.rows = 0
        self._obs: dict[Trial, float] = {}
        self._n: dict[Trial, float] = {}
        self._sim: dict[Trial, np.ndarray] = {}

    def subject(self, model: LikelihoodModel, data: BehaviourData, p_first: Callable[[int], np.ndarray],
                rng: np.random.Generator, notes: list[str]) -> None:
        """Add one subject's rows with ground truth: ``p_first(r)`` the ``draws`` probabilities that the first
        item of observed row ``r`` wins; binomial choices at the row's (rounded) count from ``rng``, row by row.
        A note on rounded counts goes to ``notes`` once."""
        n = np.rint(model.n).astype(int)
        if np.any(np.abs(model.n - n) > 1e-9) and not any("rounded" in x for x in notes):
            notes.append("the counts are not integers: the predictive intervals use rounded counts")
        for r, (t, g) in enumerate(zip(data.trials, data.ground_truth, strict=True)):
            if g is None:
                continue
            sim_first = rng.binomial(n[r], p_first(r))
            sim = sim_first if g == 1 else n[r] - sim_first
            obs = model.k[r] if g == 1 else model.n[r] - model.k[r]
            a, b = np.quantile(sim, [self.lo_q, self.hi_q])
            self.rows += 1
            self.inside += int(a - 1e-9 <= obs <= b + 1e-9)
            self._obs[t] = self._obs.get(t, 0.0) + float(obs)
            self._n[t] = self._n.get(t, 0.0) + float(n[r])
            self._sim[t] = self._sim.get(t, np.zeros(self.draws)) + sim

    def trials(self, task: Task, subjects: Sequence[tuple[str, BehaviourData]], notes: list[str]
               ) -> tuple[PredictiveTrial, ...]:
        """The pooled :class:`PredictiveTrial` of each trial seen (task order); a note to ``notes`` when some
        trials have no ground truth."""
        out = []
        for t in task.trials:
            if t not in self._n or self._n[t] == 0:
                continue
            acc: Any = self._sim[t] / self._n[t]
            a, b = np.quantile(acc, [self.lo_q, self.hi_q])
            o = self._obs[t] / self._n[t]
            out.append(PredictiveTrial(t, task.categories[t], self._n[t], o, float(acc.mean()), float(a), float(b),
                                       bool(a - 1e-9 <= o <= b + 1e-9)))
        if any(g is None for _, dd in subjects for g in dd.ground_truth):
            notes.append("trials without ground truth are left out of the predictive check")
        return tuple(out)
