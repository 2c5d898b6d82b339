"""Behaviour: loading behavioural data, fitting the theory to it, and trained networks.

* :mod:`~symbolic_ti.behaviour.data` (with :mod:`~symbolic_ti.behaviour.table`, the CSV reader): per-trial
  behaviour, filtered and averaged;
* :mod:`~symbolic_ti.behaviour.fitting`: the :func:`fit` driver and its results, built from
  :mod:`~symbolic_ti.behaviour.model` (likelihood and compiled predictions),
  :mod:`~symbolic_ti.behaviour.optimize` (optimiser, starts, profile intervals),
  :mod:`~symbolic_ti.behaviour.errorcheck` (observed errors against the theory's first failures) and
  :mod:`~symbolic_ti.behaviour.comparison` (AIC, BIC, Akaike weights);
* :mod:`~symbolic_ti.behaviour.networks`: ReLU networks trained by gradient descent.

Reports of fits are rendered by :mod:`symbolic_ti.export.fit`. scipy (optional extra ``fit``) is imported only
when a fit runs.
"""

from __future__ import annotations

from .data import BehaviourData, behaviour_from_arrays, load_behaviour
from .fitting import FitComparison, FitResult, compare_fits, fit

__all__ = ["BehaviourData", "load_behaviour", "behaviour_from_arrays", "fit", "compare_fits", "FitResult",
           "FitComparison"]
