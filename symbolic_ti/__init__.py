"""symbolic_ti: exact kernel ridge regression theory of transitive inference with exceptions.

Data flow: task -> representation family -> Gram matrix -> solver -> results -> export.
Conventions: docs/conventions.md.

The public names below are imported on first use (a module ``__getattr__``, PEP 562), so that ``import
symbolic_ti`` and a command line that needs only part of the package do not import all of it (numpy, the solvers,
the renderers); ``from symbolic_ti import X`` works for every name of ``__all__``. The renderers of
:mod:`symbolic_ti.export` are imported by the first render that needs them (:func:`symbolic_ti.display.
renderers_from`).
"""

from __future__ import annotations

from . import interrupts as _interrupts  # noqa: F401  (first, before anything else can be interrupted: installs
#                                          the command's Ctrl-C handler, interrupts.install)
import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from . import _compat
from .display import renderers_from as _renderers_from
# errors
from .errors import (DataError, ExportError, FamilyError, IllConditionedWarning, ParameterError, SolveError,
                     SymbolicTIError, TaskError, UntrustedNumericWarning)

from ._version import __version__ as __version__

if TYPE_CHECKING:  # pragma: no cover  (the names of _LAZY, for type checkers)
    from . import symbols
    from .analysis.crossings import CriticalReport, critical_values
    from .api import critical, derive
    from .datasets import example_data
    from .design import AdaptiveDesignReport, DesignReport, adaptive_design, design_experiment
    from .dynamics import Dynamics, dynamics as learning_dynamics
    from .families import FAMILIES, Exchangeable, Family, Geometric, get_family
    from .numeric.grid import compile_result
    from .numeric.predictions import numeric_predictions
    from .numeric.verification import VerifyReport, verify
    from .results import CategorySummary, Result
    from .solvers.dispatch import RIDGELESS, solve
    from .task import CATEGORIES, ExceptionPair, Task

__all__ = [
    "Task", "ExceptionPair", "CATEGORIES",
    "Family", "Exchangeable", "Geometric", "FAMILIES", "get_family",
    "solve", "RIDGELESS", "Result", "CategorySummary", "derive",
    "critical", "critical_values", "CriticalReport",
    "numeric_predictions", "verify", "VerifyReport", "compile_result", "learning_dynamics", "Dynamics",
    "SymbolicTIError", "TaskError", "ParameterError", "FamilyError", "SolveError", "ExportError", "DataError",
    "IllConditionedWarning", "UntrustedNumericWarning",
    "symbols", "example_data", "design_experiment", "DesignReport", "adaptive_design", "AdaptiveDesignReport",
]

#: Public name -> (module, attribute; ``None`` for the module itself), imported on first use.
_LAZY: dict[str, tuple[str, str | None]] = {
    # tasks
    "Task": ("symbolic_ti.task", "Task"),
    "ExceptionPair": ("symbolic_ti.task", "ExceptionPair"),
    "CATEGORIES": ("symbolic_ti.task", "CATEGORIES"),
    # representation families
    "Family": ("symbolic_ti.families", "Family"),
    "Exchangeable": ("symbolic_ti.families", "Exchangeable"),
    "Geometric": ("symbolic_ti.families", "Geometric"),
    "FAMILIES": ("symbolic_ti.families", "FAMILIES"),
    "get_family": ("symbolic_ti.families", "get_family"),
    # solving
    "solve": ("symbolic_ti.solvers.dispatch", "solve"),
    "RIDGELESS": ("symbolic_ti.solvers.dispatch", "RIDGELESS"),
    "Result": ("symbolic_ti.results", "Result"),
    "CategorySummary": ("symbolic_ti.results", "CategorySummary"),
    "derive": ("symbolic_ti.api", "derive"),
    "critical": ("symbolic_ti.api", "critical"),
    "critical_values": ("symbolic_ti.analysis.crossings", "critical_values"),
    "CriticalReport": ("symbolic_ti.analysis.crossings", "CriticalReport"),
    # numeric cross-checks
    "numeric_predictions": ("symbolic_ti.numeric.predictions", "numeric_predictions"),
    "verify": ("symbolic_ti.numeric.verification", "verify"),
    "VerifyReport": ("symbolic_ti.numeric.verification", "VerifyReport"),
    # grid evaluation (numpy; plots live in symbolic_ti.figures.plot, behaviour fits in symbolic_ti.behaviour.fitting)
    "compile_result": ("symbolic_ti.numeric.grid", "compile_result"),
    "learning_dynamics": ("symbolic_ti.dynamics", "dynamics"),  # symbolic_ti.dynamics is the subpackage
    "Dynamics": ("symbolic_ti.dynamics", "Dynamics"),
    "symbols": ("symbolic_ti.symbols", None),
    # example data shipped with the package (symbolic_ti/datasets/README.md)
    "example_data": ("symbolic_ti.datasets", "example_data"),
    # experiment design (docs/design.md; the rest in symbolic_ti.design)
    "design_experiment": ("symbolic_ti.design", "design_experiment"),
    "DesignReport": ("symbolic_ti.design", "DesignReport"),
    "adaptive_design": ("symbolic_ti.design", "adaptive_design"),
    "AdaptiveDesignReport": ("symbolic_ti.design", "AdaptiveDesignReport"),
}


def __getattr__(name: str) -> Any:
    """Import the public name ``name`` (:data:`_LAZY`) or the subpackage ``name`` on first use and keep it as a
    module attribute."""
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        # a subpackage or module (``symbolic_ti.export.latex`` after ``import symbolic_ti``), as when every
        # subpackage was imported eagerly; a deprecated path is never reached this way
        module, attribute = f"{__name__}.{name}", None
        if name.startswith("_") or module in _compat.MOVED_MODULES or importlib.util.find_spec(module) is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# results and reports show themselves: their renderers load on first use (symbolic_ti.export, display.py)
_renderers_from("symbolic_ti.export")
_compat.install(__name__, lazy=_LAZY)
