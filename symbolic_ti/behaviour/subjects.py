"""Sessions or subjects as a grouping factor: one fit per subject and a population summary.

:func:`fit_subjects` reads the table once pooled (which checks the subject column: several rows per subject),
then fits each subject's rows on their own with :func:`symbolic_ti.behaviour.fitting.fit` (the exact closed
forms are derived once and reused, so each further subject costs only the optimiser). The summary gives, per
parameter, the mean, the standard deviation (``ddof = 1``), the median and the range of the subjects' estimates,
and how many subjects sit at a bound (those are boundary values, not interior estimates, and pull the mean).
The subjects' fits treat them as independent; this is a two-stage summary, not a hierarchical model
(docs/fitting.md, "Sessions and subjects").
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..budgets import DEFAULT, check_budget, resolve_budget
from ..display import Rendered
from ..errors import DataError
from ..task import Task
from .data import load_behaviour
from .distance import load_distances
from .estimate import check_options, fit_cost, fit_family
from .fit_result import FitResult
from .response import response_model
from ..formatting import rounded

if TYPE_CHECKING:
    from .distance_fit import DistanceFit

__all__ = ["SubjectFits", "ParameterSummary", "fit_subjects"]


@dataclass(frozen=True)
class ParameterSummary(Rendered):
    """One parameter across subjects.

    Attributes
    ----------
    name : str
    mean, sd, median, minimum, maximum : float
        Over the subjects' estimates (``sd`` with ``ddof = 1``; NaN for one subject).
    at_bound : int
        Subjects whose estimate is at a bound (domain end or optimiser limit).
    n : int
        Subjects.
    """

    name: str
    mean: float
    sd: float
    median: float
    minimum: float
    maximum: float
    at_bound: int
    n: int


@dataclass(frozen=True)
class SubjectFits(Rendered):
    """Per-subject fits and their population summary (rendered by :mod:`symbolic_ti.export.fit`).

    Attributes
    ----------
    subject_column : str
    subjects : tuple of str
    fits : tuple of FitResult or DistanceFit
        One per subject, in the order of ``subjects``.
    summary : tuple of ParameterSummary
        One per fitted parameter.
    """

    subject_column: str
    subjects: tuple[str, ...]
    fits: tuple[FitResult | DistanceFit, ...]
    summary: tuple[ParameterSummary, ...]

    def __repr__(self) -> str:
        means = ", ".join(f"{p.name}={rounded(p.mean, '.4g')}" for p in self.summary)
        return f"SubjectFits({len(self.fits)} subjects of {self.subject_column!r}, mean {means})"

    @property
    def all_converged(self) -> bool:
        """Whether every subject's fit converged."""
        return all(f.converged for f in self.fits)


def summarise(fits: Sequence[FitResult | DistanceFit]) -> tuple[ParameterSummary, ...]:
    """The :class:`ParameterSummary` of each parameter over ``fits`` (all of one family and ridge mode)."""
    out = []
    for k, p in enumerate(fits[0].parameters):
        v = np.array([f.parameters[k].value for f in fits])
        out.append(ParameterSummary(p.name, float(v.mean()), float(v.std(ddof=1)) if len(v) > 1 else float("nan"),
                                    float(np.median(v)), float(v.min()), float(v.max()),
                                    sum(1 for f in fits if f.parameters[k].at_bound), len(v)))
    return tuple(out)


def fit_subjects(path: str | os.PathLike[str], task: Task, subject_column: str, *,
                 filters: Iterable[str | tuple[str, str]] = (), load: Mapping[str, Any] | None = None,
                 family: Any = "exchangeable", by_distance: bool = False, **fit_options: Any) -> SubjectFits:
    """Fit each subject (session) of a table on its own and summarise the estimates.

    Parameters
    ----------
    path : str or path-like
        The table (:func:`~symbolic_ti.behaviour.data.load_behaviour`).
    task : Task
    subject_column : str
        The column naming the subject or session of each row.
    filters : iterable of ``"COLUMN=VALUE"`` or pairs
        Applied to every subject; a filter on the subject column selects the subjects fitted.
    load : mapping, optional
        Further keyword arguments of ``load_behaviour`` (columns, kind, counts, coding), or of
        :func:`~symbolic_ti.behaviour.distance.load_distances` with ``by_distance``.
    family : str or Family
    by_distance : bool
        The rows are by symbolic distance (fitted by :func:`~symbolic_ti.behaviour.distance_fit.fit_distances`).
    **fit_options
        Passed to :func:`~symbolic_ti.behaviour.fitting.fit` (``ridge``, ``starts``, ``seed``, ``intervals``,
        ...); ``error_check`` defaults to False here (the exact first failures are per fitted ridge, costly
        per subject). ``budget`` (default :data:`symbolic_ti.budgets.DEFAULT_SECONDS`) is checked against the
        estimate of every subject's fit before the first (the closed forms derived once, the optimiser's starts
        once per subject: :func:`symbolic_ti.behaviour.cost.fit_estimate`).

    Returns
    -------
    SubjectFits

    Raises
    ------
    DataError
        For a subject column with one row per subject or a single subject, and every error of the loader.
    BudgetError
        If the estimated cost of the fits is above the budget (the message gives both).
    """
    from .distance_fit import fit_distances
    from .fitting import fit

    load = dict(load or {})
    loader: Any = load_distances if by_distance else load_behaviour
    fitter: Any = fit_distances if by_distance else fit
    pooled = loader(path, task, filters=filters, subject_column=subject_column, **load)
    if len(pooled.subjects) < 2:
        raise DataError(f"subject column {subject_column!r} holds {len(pooled.subjects)} subject among the selected "
                        "rows; a per-subject fit needs at least two")
    kept = [f for f in pooled.filters if f[0] != subject_column]
    if not by_distance:
        fit_options.setdefault("error_check", False)
    budget = fit_options.get("budget", DEFAULT)
    if resolve_budget(budget) is not None:  # every subject's fit, before the first
        starts, _, _ = check_options(fit_options.get("starts", 8), fit_options.get("seed", 0), 0.5)
        fam = fit_family(family, fit_options.get("parameters"))
        response = response_model(fit_options.get("lapse", False), fit_options.get("bias", False))
        check_budget("fit_subjects", fit_cost(task, [fam], fit_options.get("ridge", "fit"), starts=starts,
                                              intervals=bool(fit_options.get("intervals", True)),
                                              fits=len(pooled.subjects), response=response), budget)
    fits = []
    for s in pooled.subjects:
        data = loader(path, task, filters=kept + [(subject_column, s)], **load)
        fits.append(fitter(data, family, **fit_options))
    return SubjectFits(subject_column, pooled.subjects, tuple(fits), summarise(fits))
