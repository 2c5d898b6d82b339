r"""The response model of a fit: how a kernel prediction ``f`` becomes the probability that the first item wins.

One place maps predictions and response parameters to ``P(first item wins)`` (:meth:`ResponseModel.p_first`,
with its logarithms :meth:`ResponseModel.log_p`), for every fit that reads choices::

    P(first item wins) = epsilon / 2 + (1 - epsilon) sigmoid(beta f + b)

* ``beta > 0``, the response scale (always fitted);
* ``epsilon`` in ``[0, 1)``, the **lapse rate** (optional, ``lapse=True``): on a fraction ``epsilon`` of trials the
  subject guesses, so accuracy saturates at ``1 - epsilon / 2`` far from chance (Wichmann & Hill, *Percept.
  Psychophys.* 63, 2001, with the guess rate of a two-alternative choice, ``epsilon / 2``);
* ``b``, the **position bias** toward the first item of the trial (optional, ``bias=True``): ``b > 0`` favours the
  item in the first item column of the data (``--item-columns A,B``: the item of ``A``), ``b < 0`` the second.
  The trial's own orientation does not change that: ``b`` acts in the same direction on ``(i, j)`` and on
  ``(j, i)``. With ``--target-item second`` the data's trial is read as (second column, first column); the bias
  is still toward the item of the *first column*, so it enters with the sign ``position = -1``.

Without a lapse and a bias this is the plain model ``sigmoid(beta f)`` of docs/fitting.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ParameterError

__all__ = ["ResponseModel", "PLAIN", "response_model", "LAPSE_BOUND", "BIAS_BOUND"]

#: Optimiser box of the lapse's logistic coordinate: epsilon in [2e-9, 1 - 2e-9] (its domain is [0, 1)).
LAPSE_BOUND = 20.0
#: Optimiser box of the position bias ``b`` (on the scale of ``beta f``).
BIAS_BOUND = 20.0


@dataclass(frozen=True)
class ResponseModel:
    """Which response parameters a fit has besides ``beta`` (see the module docstring for the formula).

    Attributes
    ----------
    lapse : bool
        Fit a lapse rate ``epsilon`` in ``[0, 1)`` (parameter name ``"lapse"``).
    bias : bool
        Fit a position bias ``b`` toward the first item (parameter name ``"bias"``).
    """

    lapse: bool = False
    bias: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """The response parameters fitted, in the order of the fit's coordinates: ``beta``, then ``lapse``
        and ``bias`` when present."""
        return ("beta",) + (("lapse",) if self.lapse else ()) + (("bias",) if self.bias else ())

    @property
    def plain(self) -> bool:
        """Neither a lapse nor a bias: ``P = sigmoid(beta f)``."""
        return not (self.lapse or self.bias)

    @property
    def label(self) -> str:
        """``""``, ``"lapse"``, ``"bias"`` or ``"lapse, bias"`` (for the labels of comparison tables)."""
        return ", ".join(n for n in self.names[1:])

    def formula(self) -> str:
        """The model in words, e.g. ``"P(first wins) = lapse/2 + (1 - lapse) sigmoid(beta f + bias)"``."""
        core = "beta f" + (" + bias" if self.bias else "")
        if self.lapse:
            return f"P(first wins) = lapse/2 + (1 - lapse) sigmoid({core})"
        return f"P(first wins) = sigmoid({core})"

    def p_first(self, f: Any, values: Mapping[str, float], position: Any = 1.0) -> np.ndarray:
        """``P(first item wins)`` of predictions ``f``.

        Parameters
        ----------
        f : float or ndarray
            Kernel predictions ``f(i, j)`` (any shape).
        values : mapping name -> float
            ``beta``, and ``lapse`` / ``bias`` when this model has them (missing ones count as 0).
        position : float or ndarray, broadcast with ``f``
            ``+1`` where the trial's first item is the item of the data's first column, ``-1`` where it is the
            second's (``--target-item second``); multiplies the bias. ``0`` switches the bias off (data by
            distance, which do not record positions).

        Returns
        -------
        ndarray
            The probabilities, shape of ``f``; in ``[lapse/2, 1 - lapse/2]``.
        """
        log_p, _ = self.log_p(f, values, position)
        return np.exp(log_p)

    def log_p(self, f: Any, values: Mapping[str, float], position: Any = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """``log P(first wins)`` and ``log P(second wins)`` of predictions ``f``, computed stably (``log_expit``,
        ``logaddexp`` of the lapse's guess and the sigmoid). Arguments as for :meth:`p_first`.

        Returns
        -------
        (ndarray, ndarray)
            Shape of ``f`` each; ``-inf`` never occurs for ``lapse > 0``.
        """
        from scipy.special import log_expit

        eta = values["beta"] * np.asarray(f, dtype=float)
        if self.bias:
            eta = eta + values.get("bias", 0.0) * np.asarray(position, dtype=float)
        lp, lq = log_expit(eta), log_expit(-eta)
        eps = values.get("lapse", 0.0) if self.lapse else 0.0
        if eps > 0.0:
            guess, keep = math.log(eps / 2.0), math.log1p(-eps)
            lp, lq = np.logaddexp(guess, keep + lp), np.logaddexp(guess, keep + lq)
        return np.asarray(lp), np.asarray(lq)


#: The plain model ``P = sigmoid(beta f)``.
PLAIN = ResponseModel()


def response_model(lapse: Any = False, bias: Any = False) -> ResponseModel:
    """The :class:`ResponseModel` of the keywords ``lapse`` and ``bias`` of the fits (booleans, checked).

    Raises
    ------
    ParameterError
        If either is not a bool.
    """
    for name, value in (("lapse", lapse), ("bias", bias)):
        if not isinstance(value, (bool, np.bool_)):
            raise ParameterError(f"{name} must be True or False (fit the {name} or not), got {value!r}")
    return ResponseModel(bool(lapse), bool(bias))
