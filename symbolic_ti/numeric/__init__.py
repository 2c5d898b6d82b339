"""Numeric paths: float64 and mpmath solvers, verification of closed forms, grid evaluation.

Everything here reads results of the exact solvers or solves the same system independently in floating point;
nothing here is used by the exact path.
"""

from __future__ import annotations

from .grid import CompiledResult, GridValues, compile_result
from .predictions import numeric_predictions
from .verification import VerifyReport, verify

__all__ = ["numeric_predictions", "verify", "VerifyReport", "compile_result", "CompiledResult", "GridValues"]
