"""Behaviour: loading behavioural data, fitting the theory to it, and trained networks.

* :mod:`~symbolic_ti.behaviour.data` (with :mod:`~symbolic_ti.behaviour.table`, the CSV reader): per-trial
  behaviour, filtered and averaged;
* :mod:`~symbolic_ti.behaviour.fitting`: the :func:`fit` driver and its results, built from
  :mod:`~symbolic_ti.behaviour.model` (likelihood and compiled predictions),
  :mod:`~symbolic_ti.behaviour.optimize` (optimiser, starts, profile intervals),
  :mod:`~symbolic_ti.behaviour.errorcheck` (observed errors against the theory's first failures) and
  :mod:`~symbolic_ti.behaviour.comparison` (AIC, BIC, Akaike weights);
* :mod:`~symbolic_ti.behaviour.coding` (item numbering, labels, target column, correct/total counts),
  :mod:`~symbolic_ti.behaviour.distance` and :mod:`~symbolic_ti.behaviour.distance_fit` (data by symbolic
  distance), :mod:`~symbolic_ti.behaviour.subjects` (per-subject fits), :mod:`~symbolic_ti.behaviour.effects`
  (residuals, distance and terminal item effects), :mod:`~symbolic_ti.behaviour.response` (the response model:
  ``beta``, a lapse rate, a position bias), :mod:`~symbolic_ti.behaviour.diagnostics` (bounds,
  gradient, what the intervals rest on) and :mod:`~symbolic_ti.behaviour.estimate` (the shared maximisation);
* :mod:`~symbolic_ti.behaviour.networks`: ReLU networks trained by gradient descent.

Reports of fits are rendered by :mod:`symbolic_ti.export.fit`. scipy (optional extra ``fit``) is imported only
when a fit runs.
"""

from __future__ import annotations

from .coding import ItemCoding
from .data import BehaviourData, behaviour_from_arrays, load_behaviour
from .distance import DistanceData, DistanceRule, load_distances
from .distance_fit import DistanceFit, fit_distances
from .fitting import FitComparison, FitResult, compare_families, compare_fits, compare_responses, fit
from .response import ResponseModel
from .subjects import SubjectFits, fit_subjects

__all__ = ["BehaviourData", "load_behaviour", "behaviour_from_arrays", "fit", "compare_fits", "FitResult",
           "FitComparison", "ItemCoding", "DistanceData", "DistanceRule", "load_distances", "DistanceFit",
           "fit_distances", "compare_families", "compare_responses", "SubjectFits", "fit_subjects", "ResponseModel"]
