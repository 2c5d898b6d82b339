"""Input checks and array helpers shared by the modules of :mod:`symbolic_ti.design` (issue 26).

Every check raises :class:`~symbolic_ti.errors.ParameterError` with one line naming the argument, what was wrong
and what is allowed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..formatting import rounded
from ..errors import ParameterError


def _float_array(x: Any, name: str, ndim: int) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(f"{name}: expected an array of numbers, got {type(x).__name__}") from None
    if arr.ndim != ndim:
        raise ParameterError(f"{name}: expected {ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ParameterError(f"{name}: empty array (shape {arr.shape}); at least one entry is needed")
    if not np.all(np.isfinite(arr)):
        raise ParameterError(f"{name}: every entry must be a finite number")
    return arr


def _probabilities(p: Any, name: str = "p", ndim: int = 2) -> np.ndarray:
    """``p`` as a float64 array of ``ndim`` dimensions with every entry in [0, 1]."""
    arr = _float_array(p, name, ndim)
    if np.any(arr < 0) or np.any(arr > 1):
        raise ParameterError(f"{name}: probabilities must lie in [0, 1] (found {rounded(arr.min(), '.6g')} .. "
                             f"{rounded(arr.max(), '.6g')})")
    return arr


def _counts(counts: Any, length: int, name: str = "counts") -> np.ndarray:
    """``counts`` as an int64 array of shape ``(length,)`` of nonnegative integers."""
    arr = _float_array(counts, name, 1)
    if arr.shape != (length,):
        raise ParameterError(f"{name}: expected shape ({length},) (one count per trial), got {arr.shape}")
    if np.any(arr < 0) or np.any(arr != np.round(arr)):
        raise ParameterError(f"{name}: presentations must be nonnegative integers")
    return arr.astype(np.int64)


def _prior(prior: Any, length: int) -> np.ndarray:
    """``prior`` normalised: shape ``(length,)``, nonnegative, positive sum."""
    arr = _float_array(prior, "prior", 1)
    if arr.shape != (length,):
        raise ParameterError(f"prior: expected shape ({length},) (one weight per hypothesis), got {arr.shape}")
    if np.any(arr < 0) or not arr.sum() > 0:
        raise ParameterError("prior: weights must be nonnegative with a positive sum")
    return arr / arr.sum()


def _index(value: Any, size: int, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise ParameterError(f"{name}: expected a hypothesis index in 0..{size - 1}, got {value!r}")
    return int(value)


def _xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x * log(y)`` with ``0 * log(0) = 0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, x * np.log(np.where(x == 0, 1.0, y)))


def _logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(a - m), axis=axis))


def _dps(dps: Any) -> int:
    if isinstance(dps, bool) or not isinstance(dps, (int, np.integer)) or dps < 1:
        raise ParameterError(f"dps: expected a positive number of decimal digits, got {dps!r}")
    return int(dps)


def _object_array(x: Any, name: str, ndim: int) -> np.ndarray:
    arr = np.array(x, dtype=object)
    if arr.ndim != ndim:
        raise ParameterError(f"{name}: expected {ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ParameterError(f"{name}: empty array (shape {arr.shape}); at least one entry is needed")
    return arr


def _reduce(p: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop the trials that are not presented or on which every hypothesis agrees, and pool the presentations of
    trials whose probability columns are identical (their summed wins are sufficient): exact reductions."""
    keep = (n > 0) & np.any(p != p[:1], axis=0)
    columns: dict[bytes, int] = {}
    out_p: list[np.ndarray] = []
    out_n: list[int] = []
    for t in np.flatnonzero(keep):
        key = p[:, t].tobytes()
        if key in columns:
            out_n[columns[key]] += int(n[t])
        else:
            columns[key] = len(out_p)
            out_p.append(p[:, t])
            out_n.append(int(n[t]))
    if not out_p:
        return np.zeros((p.shape[0], 0)), np.zeros(0, dtype=np.int64)
    return np.stack(out_p, axis=1), np.array(out_n, dtype=np.int64)


def _outcome_count(n: np.ndarray) -> int:
    return math.prod(int(c) + 1 for c in n)


def _outcome_table(p: np.ndarray, n: np.ndarray, coefficients: bool) -> np.ndarray:
    """Shape (H, prod(n + 1)): the log-likelihoods of :func:`outcome_log_likelihoods`, without the checks."""
    log_lik = np.zeros((p.shape[0], 1))
    for t in range(p.shape[1]):
        log_lik = (log_lik[:, :, None] + _trial_log_pmf(p[:, t], int(n[t]), coefficients)[:, None, :])
        log_lik = log_lik.reshape(p.shape[0], -1)
    return log_lik


#: Cells (hypotheses x outcome vectors) of one block of the outcome table: 32 MB of float64.
BLOCK_CELLS = 2**22


def _outcome_blocks(p: np.ndarray, n: np.ndarray, coefficients: bool,
                    cells: int | None = None) -> Iterator[np.ndarray]:
    """The outcome table of :func:`_outcome_table` in blocks of about ``cells`` entries (every outcome vector
    once, in some order): the last trials' table is built once and shifted by each outcome of the others."""
    cells = BLOCK_CELLS if cells is None else cells
    h, inner, size = p.shape[0], len(n), 1
    while inner > 0:
        grown = size * (int(n[inner - 1]) + 1)
        if h * grown > cells and inner < len(n):  # at least one trial inside
            break
        size, inner = grown, inner - 1
    table = _outcome_table(p[:, inner:], n[inner:], coefficients)
    if inner == 0:
        yield table
        return
    pmfs = [_trial_log_pmf(p[:, t], int(n[t]), coefficients) for t in range(inner)]
    for ks in itertools.product(*(range(int(c) + 1) for c in n[:inner])):
        shift = np.zeros(h)
        for pmf, k in zip(pmfs, ks, strict=True):
            shift = shift + pmf[:, k]
        yield table + shift[:, None]


def _trial_log_pmf(p_col: np.ndarray, n: int, coefficients: bool) -> np.ndarray:
    """Shape (H, n + 1): log P(k wins in n | h) for k = 0..n."""
    k = np.arange(n + 1, dtype=float)
    out = _xlogy(k[None, :], p_col[:, None]) + _xlogy((n - k)[None, :], 1.0 - p_col[:, None])
    if coefficients:
        out = out + np.array([math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                              for j in range(n + 1)])[None, :]
    return out
