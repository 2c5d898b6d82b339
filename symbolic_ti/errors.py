"""Exceptions of symbolic_ti: one base class, narrow subclasses.

Every error that a user can cause by bad input derives from :class:`SymbolicTIError`, which is also a
``ValueError``. The CLI maps these to exit code 2 and prints a single line; anything else is an internal
failure (exit code 1).
"""

from __future__ import annotations

__all__ = [
    "SymbolicTIError",
    "TaskError",
    "ParameterError",
    "FamilyError",
    "SolveError",
    "ExportError",
    "IllConditionedWarning",
]


class SymbolicTIError(ValueError):
    """Base class of every user-facing error of symbolic_ti."""


class TaskError(SymbolicTIError):
    """An invalid task: number of items, exception, or trial."""


class ParameterError(SymbolicTIError):
    """A parameter value that cannot be parsed or lies outside its domain."""


class FamilyError(SymbolicTIError):
    """An unknown representation family, or a family used in a way it does not support."""


class SolveError(SymbolicTIError):
    """A ridge system that cannot be solved as asked (for example a singular system with ridge 0)."""


class ExportError(SymbolicTIError):
    """An output that cannot be written (unknown format, unwritable path)."""


class IllConditionedWarning(UserWarning):
    """A float64 numeric solve whose matrix is so ill-conditioned that few digits can be trusted.

    Issued by :func:`symbolic_ti.solve.numeric.numeric_predictions` when the condition number of
    ``K + lambda I`` exceeds about ``1e10`` (for example a tiny ridge on a singular Gram matrix). Use
    ``precision=<digits>`` (mpmath) or the exact solver instead.
    """
