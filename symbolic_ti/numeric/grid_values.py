"""The values of a grid evaluation: :class:`GridValues`, plain data returned by
:meth:`symbolic_ti.numeric.grid.CompiledResult.evaluate` (method: the module docstring of
:mod:`symbolic_ti.numeric.grid`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from ..families.base import Trial

__all__ = ["GridValues"]


@dataclass(frozen=True, eq=False)
class GridValues:
    """Predictions of some trials evaluated on a parameter grid.

    Attributes
    ----------
    trials : tuple of (i, j)
        The trials, in the order of the first axis of :attr:`values`.
    values : ndarray of float, shape (len(trials), *shape)
        ``f(i, j)`` at every point of the broadcast grid (read-only). NaN where the closed form is undefined.
    fallback : ndarray of bool, shape (len(trials), *shape)
        Entries computed with mpmath because the float64 condition estimate said float64 could not be trusted
        (``fallback.any(axis=0)`` gives the points).
    undefined : ndarray of bool, shape (len(trials), *shape)
        Entries where the closed form's denominator vanishes (a pole or ``0/0``); their value is NaN.
    parameters : mapping name -> ndarray
        The input arrays, broadcast to ``shape`` (read-only).
    ground_truth : ndarray of float, shape (len(trials),)
        Training target or ground truth (+1 or -1) of each trial; NaN for a trial without ground truth.
    note : str
        One paragraph saying whether the mpmath fallback was used, where, and at how many digits.
    """

    trials: tuple[Trial, ...]
    values: np.ndarray
    fallback: np.ndarray
    undefined: np.ndarray
    parameters: Mapping[str, np.ndarray]
    ground_truth: np.ndarray
    note: str

    @property
    def shape(self) -> tuple[int, ...]:
        """The broadcast shape of the grid (without the trial axis)."""
        return tuple(self.values.shape[1:])

    def margins(self) -> np.ndarray:
        """Margins ``g * f(i, j)``, shape ``(len(trials), *shape)``; NaN rows for trials without ground truth."""
        g = self.ground_truth.reshape((-1,) + (1,) * len(self.shape))
        return g * self.values

    def index(self, i: int, j: int) -> int:
        """Position of trial ``(i, j)`` along the first axis.

        Raises
        ------
        ParameterError
            If the trial was not evaluated.
        """
        try:
            return self.trials.index((i, j))
        except ValueError:
            raise ParameterError(f"trial ({i}, {j}) was not evaluated; evaluated trials: "
                                 f"{len(self.trials)} (compile_result(result, trials=...))") from None

    def f(self, i: int, j: int) -> np.ndarray:
        """``f(i, j)`` over the grid, shape ``shape``."""
        return self.values[self.index(i, j)]
