"""symbolic_ti: exact kernel ridge regression theory of transitive inference with exceptions.

Data flow: task -> representation family -> Gram matrix -> solver -> results -> export.
Conventions: docs/conventions.md.
"""

from __future__ import annotations

from . import progress as _progress  # noqa: F401  (first: installs progress.quiet_startup_interrupt)
# tasks
from .task import CATEGORIES, ExceptionPair, Task
# representation families
from .families import FAMILIES, Exchangeable, Family, Geometric, get_family
# solving
from .solvers.dispatch import RIDGELESS, solve
from .results import CategorySummary, Result
from .api import critical, derive
from .analysis.crossings import CriticalReport, critical_values
# numeric cross-checks
from .numeric.predictions import numeric_predictions
from .numeric.verification import VerifyReport, verify
# grid evaluation (numpy; plots live in symbolic_ti.figures.plot, behaviour fits in symbolic_ti.behaviour.fitting)
from .numeric.grid import compile_result
from .dynamics import Dynamics, dynamics as learning_dynamics  # symbolic_ti.dynamics is the subpackage
# errors
from .errors import (DataError, ExportError, FamilyError, IllConditionedWarning, ParameterError, SolveError,
                     SymbolicTIError, TaskError, UntrustedNumericWarning)
from . import symbols
from . import export  # noqa: F401  (registers every renderer: results and reports show themselves)
from . import _compat

from ._version import __version__ as __version__

__all__ = [
    "Task", "ExceptionPair", "CATEGORIES",
    "Family", "Exchangeable", "Geometric", "FAMILIES", "get_family",
    "solve", "RIDGELESS", "Result", "CategorySummary", "derive",
    "critical", "critical_values", "CriticalReport",
    "numeric_predictions", "verify", "VerifyReport", "compile_result", "learning_dynamics", "Dynamics",
    "SymbolicTIError", "TaskError", "ParameterError", "FamilyError", "SolveError", "ExportError", "DataError",
    "IllConditionedWarning", "UntrustedNumericWarning",
    "symbols",
]

_compat.install(__name__)
