"""What is computed from exact results: critical values, critical conjunctivity, general-n closed forms."""

from __future__ import annotations

from .conjunctivity import ConjunctivityReport, critical_conjunctivity, critical_gammas
from .crossings import CriticalReport, Crossing, TrialCritical, critical_values

__all__ = ["critical_values", "CriticalReport", "Crossing", "TrialCritical",
           "critical_conjunctivity", "critical_gammas", "ConjunctivityReport"]
