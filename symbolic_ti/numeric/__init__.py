"""Numeric paths: float64 and mpmath solvers, verification of closed forms, grid evaluation.

Everything here reads results of the exact solvers or solves the same system independently in floating point;
nothing here is used by the exact path. The names below are imported on first use (PEP 562), so that importing
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
