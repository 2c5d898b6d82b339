"""Grid-based adaptive design optimisation (issue 26), the computation of ADOpy's ``Engine`` (Yang, Pitt, Ahn &
Myung 2020, Behavior Research Methods 53, 1021-1039; Myung, Cavagnaro & Pitt 2013) on arrays.

The grid has ``M`` points (parameter values, or hypotheses, or both: one row each), ``D`` candidate designs (a
design is one presentation of a trial, or any single observation) and ``Y`` outcomes. The engine keeps the
posterior over the grid points; :meth:`AdaptiveEngine.mutual_info` is the expected information gain of each
design under it, ``I(Theta; Y_d) = H(Y_d) - sum_m post_m H(Y_d | m)`` with the posterior predictive
``P(y | d) = sum_m post_m L[m, d, y]`` (``0 log 0 = 0``); :meth:`AdaptiveEngine.next_design` the design
maximising it. The posterior is kept in log space (updates add log-likelihoods, then normalise by
log-sum-exp); the conditional entropies are computed once per session. Each entropy is a sum of terms of one
sign and the information is their difference, with an absolute error of a few ulps of ``log Y`` (as ADOpy's,
which computes the same difference).

Unlike ADOpy's engine, an :class:`AdaptiveEngine` is immutable: :meth:`~AdaptiveEngine.update` returns a new
engine (sharing the read-only likelihood array), so every step of a session can be kept. ADOpy mixes its
likelihood with a noise floor (``noise_ratio``, default ``1e-7``: ``(1 - 2 r) L + r``) and computes in float32
by default; this engine uses the likelihood as given, in float64. With the same likelihood and ``dtype=float64``
the two give the same values (tests/test_design_adopy.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ParameterError
from ..formatting import rounded
from ._arrays import _float_array, _logsumexp, _prior, _xlogy

__all__ = ["AdaptiveEngine"]


def _log_likelihood(p_grid: Any) -> np.ndarray:
    ndim = np.ndim(p_grid)
    if ndim not in (2, 3):
        raise ParameterError(f"p_grid: expected shape (M, D) or (M, D, Y), got {np.shape(p_grid)}")
    arr = _float_array(p_grid, "p_grid", ndim)
    if np.any(arr < 0) or np.any(arr > 1):
        raise ParameterError("p_grid: probabilities must lie in [0, 1]")
    if arr.ndim == 2:
        arr = np.stack([1.0 - arr, arr], axis=2)
    elif not np.allclose(arr.sum(axis=2), 1.0, rtol=0, atol=1e-9):
        raise ParameterError("p_grid: the outcome probabilities of each grid point and design must sum to 1")
    with np.errstate(divide="ignore"):
        log_lik = np.log(arr)
    log_lik.setflags(write=False)
    return log_lik


class AdaptiveEngine:
    """Posterior over a grid and the expected information gain of each candidate design.

    Parameters
    ----------
    p_grid : array_like, shape (M, D) or (M, D, Y)
        Binary outcomes: ``p_grid[m, d]`` is the probability of outcome 1 (the first item wins) at grid point
        ``m`` and design ``d``; outcome 0 has ``1 - p_grid[m, d]``. Or ``Y`` outcomes: ``p_grid[m, d, y]``,
        summing to 1 over ``y`` (to ``1e-9``).
    prior : array_like, shape (M,), optional
        Nonnegative weights with a positive sum (normalised); uniform by default (as ADOpy).

    Raises
    ------
    ParameterError
        Bad shapes, probabilities outside [0, 1], rows that do not sum to 1, a bad prior.

    Examples
    --------
    >>> engine = AdaptiveEngine([[0.9, 0.5], [0.1, 0.5]])
    >>> engine.next_design()
    0
    >>> engine.update(0, 1).posterior.round(3).tolist()
    [0.9, 0.1]
    """

    __slots__ = ("_log_lik", "_shared", "_log_post", "_mi")
    _log_lik: np.ndarray
    _shared: dict[str, np.ndarray]
    _log_post: np.ndarray
    _mi: np.ndarray | None

    def __init__(self, p_grid: Any, prior: Any = None) -> None:
        log_lik = _log_likelihood(p_grid)
        m = log_lik.shape[0]
        w = np.full(m, 1.0 / m) if prior is None else _prior(prior, m)
        with np.errstate(divide="ignore"):
            log_post = np.log(w)
        self._set(log_lik, {}, log_post)

    def _set(self, log_lik: np.ndarray, shared: dict[str, np.ndarray], log_post: np.ndarray) -> None:
        log_post = log_post - _logsumexp(log_post, axis=0)
        log_post.setflags(write=False)
        object.__setattr__(self, "_log_lik", log_lik)
        object.__setattr__(self, "_shared", shared)
        object.__setattr__(self, "_log_post", log_post)
        object.__setattr__(self, "_mi", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("AdaptiveEngine is immutable: update() returns a new engine")

    def _with(self, log_post: np.ndarray) -> AdaptiveEngine:
        new = object.__new__(AdaptiveEngine)
        new._set(self._log_lik, self._shared, log_post)
        return new

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        """The likelihood and ``sum_y L log L`` (minus the conditional entropies), computed once and shared by
        every engine of a session."""
        if not self._shared:
            lik = np.exp(self._log_lik)
            negent = np.sum(_xlogy(lik, lik), axis=2)
            for arr in (lik, negent):
                arr.setflags(write=False)
            self._shared.update(lik=lik, negent=negent)
        return self._shared["lik"], self._shared["negent"]

    @property
    def n_grid(self) -> int:
        """``M``, the number of grid points."""
        return int(self._log_lik.shape[0])

    @property
    def n_designs(self) -> int:
        """``D``, the number of candidate designs."""
        return int(self._log_lik.shape[1])

    @property
    def n_outcomes(self) -> int:
        """``Y``, the number of outcomes (2 for binary choices)."""
        return int(self._log_lik.shape[2])

    @property
    def log_likelihood(self) -> np.ndarray:
        """Read-only array of shape (M, D, Y): ``log P(y | m, d)`` (``-inf`` where impossible)."""
        return self._log_lik

    @property
    def log_posterior(self) -> np.ndarray:
        """Read-only array of shape (M,): the normalised log posterior."""
        return self._log_post

    @property
    def posterior(self) -> np.ndarray:
        """Array of shape (M,): the posterior probabilities of the grid points."""
        return np.exp(self._log_post)

    def mutual_info(self) -> np.ndarray:
        """Expected information gain of one observation at each design under the current posterior, in nats.

        Returns
        -------
        numpy.ndarray, shape (D,)
            ``I(Theta; Y_d) = H(Y_d) - sum_m post_m H(Y_d | m)``, nonnegative.
        """
        if self._mi is None:
            lik, negent = self._tables()
            post = np.exp(self._log_post)
            marg = np.tensordot(post, lik, axes=(0, 0))  # (D, Y): the posterior predictive
            mi = post @ negent - np.sum(_xlogy(marg, marg), axis=1)
            mi = np.maximum(mi, 0.0)
            mi.setflags(write=False)
            object.__setattr__(self, "_mi", mi)
        assert self._mi is not None
        return self._mi

    def next_design(self) -> int:
        """Index of the design of largest expected information gain (the first of equal ones, as
        ``numpy.argmax`` and ADOpy's ``get_design``)."""
        return int(np.argmax(self.mutual_info()))

    def update(self, design: int | Sequence[int], outcome: int | Sequence[int]) -> AdaptiveEngine:
        """The engine after observing ``outcome`` at ``design`` (or each pair of two equal-length sequences).

        ``log post_m += log P(outcome | m, design)``, renormalised.

        Parameters
        ----------
        design : int or sequence of int
            Design indices in ``0..D-1``.
        outcome : int or sequence of int
            Outcome indices in ``0..Y-1`` (binary: 1 when the first item won).

        Returns
        -------
        AdaptiveEngine
            A new engine; this one is unchanged.

        Raises
        ------
        ParameterError
            Indices out of range, sequences of different lengths, or data impossible under every grid point.
        """
        designs = np.atleast_1d(np.asarray(design))
        outcomes = np.atleast_1d(np.asarray(outcome))
        if designs.shape != outcomes.shape or designs.ndim != 1:
            raise ParameterError(f"design, outcome: expected equal lengths, got shapes {designs.shape} and "
                                 f"{outcomes.shape}")
        if designs.size == 0:
            return self
        for name, values, size in (("design", designs, self.n_designs), ("outcome", outcomes, self.n_outcomes)):
            if values.size and (values.dtype.kind not in "iu" or values.min() < 0 or values.max() >= size):
                raise ParameterError(f"{name}: expected indices in 0..{size - 1}, got {values.tolist()}")
        log_post = self._log_post + self._log_lik[:, designs, outcomes].sum(axis=1)
        return self._checked(log_post)

    def update_counts(self, counts: Any) -> AdaptiveEngine:
        """The engine after observing ``counts[d, y]`` outcomes ``y`` at each design ``d`` (e.g. data that
        ``fit`` reads, tallied per trial: binary ``[losses, wins]``).

        Parameters
        ----------
        counts : array_like, shape (D, Y)
            Nonnegative integers.

        Returns
        -------
        AdaptiveEngine

        Raises
        ------
        ParameterError
            A bad shape, negative or fractional counts, or data impossible under every grid point.
        """
        arr = _float_array(counts, "counts", 2)
        if arr.shape != self._log_lik.shape[1:]:
            raise ParameterError(f"counts: expected shape {self._log_lik.shape[1:]} (designs x outcomes), got "
                                 f"{arr.shape}")
        if np.any(arr < 0) or np.any(arr != np.round(arr)):
            raise ParameterError("counts: expected nonnegative integers")
        with np.errstate(invalid="ignore"):
            terms = np.where(arr[None] > 0, arr[None] * self._log_lik, 0.0)
        return self._checked(self._log_post + terms.sum(axis=(1, 2)))

    def _checked(self, log_post: np.ndarray) -> AdaptiveEngine:
        if not np.any(np.isfinite(log_post)):
            raise ParameterError("outcome: the data are impossible under every grid point (posterior all zero)")
        return self._with(log_post)

    def __repr__(self) -> str:
        best = int(np.argmax(self._log_post))
        return (f"AdaptiveEngine(grid={self.n_grid}, designs={self.n_designs}, outcomes={self.n_outcomes}, "
                f"most probable grid point {best} at {rounded(float(np.exp(self._log_post[best])), '.4g')})")
