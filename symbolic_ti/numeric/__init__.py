"""Numeric paths: float64 and mpmath solvers, verification of closed forms, grid evaluation.

The numeric solvers here solve the same system as the exact solvers, independently, in floating point (this
package is a lower layer than :mod:`symbolic_ti.solvers` and imports nothing of it); the rest reads results of the
exact solvers. The exact path uses two parts of it: :mod:`.grid_poly` (exact: closed forms as polynomial
fractions) serves the exporters, and :func:`symbolic_ti.solvers.dispatch.solve` hands a family given by float
data (``numeric_only``) to :func:`symbolic_ti.numeric.predictions.numeric_result`. The names below are imported on first use (PEP 562), so that importing
one module of this package (``numeric.grid_poly``, which the exporters use) does not import numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .grid import CompiledResult, GridValues, compile_result
    from .predictions import numeric_predictions
    from .verification import VerifyReport, verify

__all__ = ["numeric_predictions", "verify", "VerifyReport", "compile_result", "CompiledResult", "GridValues"]

#: Public name -> the module of this package that defines it.
_LAZY = {"numeric_predictions": "predictions", "verify": "verification", "VerifyReport": "verification",
         "compile_result": "grid", "CompiledResult": "grid", "GridValues": "grid"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
