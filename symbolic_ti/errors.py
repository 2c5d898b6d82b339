"""Exceptions of symbolic_ti: one base class, narrow subclasses.

Every error that a user can cause by bad input derives from :class:`SymbolicTIError`, which is also a
``ValueError``. The CLI maps these to exit code 2 and prints a single line, except :class:`OutputIOError` (an
output the operating system could not write: exit code 74); anything else is an internal failure (exit code 1).
"""

from __future__ import annotations

import errno

from .digits import short_numbers

__all__ = ["DataWarning", "SamplingWarning",
    "SymbolicTIError",
    "TaskError",
    "ParameterError",
    "FamilyError",
    "SolveError",
    "ExportError",
    "OutputIOError",
    "DataError",
    "BudgetError",
    "IllConditionedWarning",
    "UntrustedNumericWarning",
    "UndecidedCheckWarning",
]


class SymbolicTIError(ValueError):
    """Base class of every user-facing error of symbolic_ti.

    A message stays one short line: every number of more than 20 digits in it is written short, in scientific
    notation with its count of digits (the rule of :func:`symbolic_ti.digits.short_numbers`; ``derive(10**1000)`` says
    ``1.000e+1000 (1001 digits)``), as the command line writes its error lines.
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (short_numbers(args[0]), *args[1:])
        super().__init__(*args)


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


class BudgetError(SymbolicTIError):
    """A run whose estimated cost, computed from its input sizes before the work, is above its budget.

    The message gives the estimate, the budget and how to run anyway (:mod:`symbolic_ti.budgets`,
    docs/performance.md#budgets).
    """


class OutputIOError(ExportError):
    """The operating system failed to write an output (disk full, quota exceeded, file too large, I/O error):
    an error of the environment, not of the input. The CLI exits with 74 (``EX_IOERR`` of sysexits)."""


#: The ``errno`` values of a write that fails because of the environment, not the path (:class:`OutputIOError`).
IO_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, name))


class DataError(SymbolicTIError):
    """Behavioural data that cannot be read or used: a missing or broken file, missing columns, values that are
    not numbers, trials that are not in the task, or a filter that selects nothing."""


class IllConditionedWarning(UserWarning):
    """A numeric solve whose float64 values could not be used as they are (too ill-conditioned).

    Issued by :func:`symbolic_ti.numeric.predictions.numeric_result` when the float64 values of a float-data
    family are replaced by its mpmath values; the base class of :class:`UntrustedNumericWarning`, which
    :func:`~symbolic_ti.numeric.predictions.numeric_predictions` issues for values outside their stated tolerance.
    """


class UntrustedNumericWarning(IllConditionedWarning):
    """Numeric values that could not be shown to meet their stated tolerance (docs/theory.md#numeric-trust).

    Issued by :func:`symbolic_ti.numeric.predictions.numeric_predictions` (and ``numeric_result``) when, for some
    trial, neither the float64 error bound nor the agreement of two mpmath precisions meets the tolerance
    (float64: ``1e-8``; mpmath at ``dps`` digits: ``10^(2 - dps)``; relative above magnitude 1, absolute below),
    when the rank of the Gram matrix cannot be decided, or when a given ``rcond`` keeps another number of
    eigenvalues than its exact rank. The result lists those trials in ``untrusted``. Use the exact solver, more
    digits, or a larger ridge.
    """


class UndecidedCheckWarning(UserWarning):
    """A validity check that could not be decided exactly and was done at sample points instead.

    Issued by the ``similarity`` family (:mod:`symbolic_ti.families.data.similarity`) when an item-similarity
    matrix with free symbols is checked for positive semidefiniteness only at sample values of its symbols,
    or when sympy cannot decide the sign of an algebraic pivot. Bind every symbol to a value to have the check
    decided exactly.
    """


class DataWarning(UserWarning):
    """Behavioural data that load but look inconsistent with the task (e.g. the largest items never appear)."""


class SamplingWarning(UserWarning):
    """A Bayesian fit whose sampler diagnostics fail their stated thresholds (R-hat, effective sample size,
    divergent transitions; :mod:`symbolic_ti.behaviour.bayes`): its posterior summaries are not reliable."""
