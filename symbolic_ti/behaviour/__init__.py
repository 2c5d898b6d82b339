"""Behaviour: loading behavioural data, fitting the theory to it, and trained networks.

scipy (optional extra ``fit``) is imported only when a fit runs.
"""

from __future__ import annotations

from .data import BehaviourData, behaviour_from_arrays, load_behaviour
from .fitting import FitComparison, FitResult, compare_fits, fit

__all__ = ["BehaviourData", "load_behaviour", "behaviour_from_arrays", "fit", "compare_fits", "FitResult",
           "FitComparison"]
