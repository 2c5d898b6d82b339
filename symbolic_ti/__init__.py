"""symbolic_ti: exact kernel ridge regression theory of transitive inference with exceptions.

Data flow: task -> representation family -> Gram matrix -> solver -> results -> export.
Conventions: docs/conventions.md.
"""

from __future__ import annotations

# tasks
from .task import CATEGORIES, ExceptionPair, Task
# representation families
from .families import FAMILIES, Exchangeable, Family, Geometric, get_family
# solving
from .solve import RIDGELESS, solve
from .results import CategorySummary, Result
from .api import critical, derive
from .critical import CriticalReport, critical_values
# numeric cross-checks
from .solve.numeric import numeric_predictions
from .verify import VerifyReport, verify
# grid evaluation (numpy; plots live in symbolic_ti.plot, behaviour fits in symbolic_ti.fit)
from .grid import compile_result
# errors
from .errors import (DataError, ExportError, FamilyError, IllConditionedWarning, ParameterError, SolveError,
                     SymbolicTIError, TaskError)
from . import symbols

__version__ = "0.1.0"

__all__ = [
    "Task", "ExceptionPair", "CATEGORIES",
    "Family", "Exchangeable", "Geometric", "FAMILIES", "get_family",
    "solve", "RIDGELESS", "Result", "CategorySummary", "derive",
    "critical", "critical_values", "CriticalReport",
    "numeric_predictions", "verify", "VerifyReport", "compile_result",
    "SymbolicTIError", "TaskError", "ParameterError", "FamilyError", "SolveError", "ExportError", "DataError",
    "IllConditionedWarning",
    "symbols",
]
