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

from ..errors import BudgetError, ParameterError
from ..formatting import rounded


class FrozenArrays:
    """Mixin of the frozen dataclasses of this package that hold numpy arrays: equality by value (arrays by
    :func:`numpy.array_equal`), a hash consistent with it (the arrays are read-only: their values as nested
    tuples, so that equal arrays of different dtypes hash alike), and the arrays read-only also after a pickle
    round trip or a deep copy (an unpickled array is writeable)."""

    def __hash__(self) -> int:
        return hash(tuple((k, (np.shape(v), _nested(v.tolist())) if isinstance(v, np.ndarray) else v)
                          for k, v in sorted(vars(self).items())))

    def _freeze(self) -> None:
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._freeze()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        mine, theirs = vars(self), vars(other)
        return mine.keys() == theirs.keys() and all(
            np.array_equal(a, theirs[k]) if isinstance(a, np.ndarray) or isinstance(theirs[k], np.ndarray)
            else bool(a == theirs[k]) for k, a in mine.items())


def _nested(x: Any) -> Any:
    """Nested lists as nested tuples (hashable)."""
    return tuple(_nested(v) for v in x) if isinstance(x, list) else x


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


#: Default cap on the number of outcome vectors that exact summation enumerates.
MAX_OUTCOMES = 10**6

#: Cells (hypotheses x outcome vectors) of one block of the outcome table: 32 MB of float64.
BLOCK_CELLS = 2**22


def _outcome_blocks(p: np.ndarray, n: np.ndarray, coefficients: bool,
                    cells: int | None = None) -> Iterator[np.ndarray]:
    """The outcome table of :func:`_outcome_table` in blocks of about ``cells`` entries (every outcome vector
    once, in some order)."""
    return _blocks([_trial_log_pmf(p[:, t], int(n[t]), coefficients) for t in range(len(n))], cells)


def _blocks(tables: list[np.ndarray], cells: int | None = None) -> Iterator[np.ndarray]:
    """Sums ``sum_t tables[t][:, k_t]`` over every outcome vector ``k``, in blocks of about ``cells`` entries:
    ``tables[t]`` has shape (R, n_t + 1); the last trials' table is built once and shifted by each outcome of the
    others."""
    cells = BLOCK_CELLS if cells is None else cells
    rows, inner, size = tables[0].shape[0], len(tables), 1
    while inner > 0:
        grown = size * tables[inner - 1].shape[1]
        if rows * grown > cells and inner < len(tables):  # at least one trial inside
            break
        size, inner = grown, inner - 1
    table = np.zeros((rows, 1))
    with np.errstate(invalid="ignore"):  # inf - inf: outcomes the caller masks
        for tab in tables[inner:]:
            table = (table[:, :, None] + tab[:, None, :]).reshape(rows, -1)
    if inner == 0:
        yield table
        return
    for ks in itertools.product(*(range(tab.shape[1]) for tab in tables[:inner])):
        shift = np.zeros(rows)
        with np.errstate(invalid="ignore"):
            for tab, k in zip(tables[:inner], ks, strict=True):
                shift = shift + tab[:, k]
            block = table + shift[:, None]
        yield block


def _log_ratios(p_col: np.ndarray, ref: float) -> tuple[np.ndarray, np.ndarray]:
    """``log(p_col / ref)`` and ``log((1 - p_col) / (1 - ref))`` as ``log1p`` of the relative differences
    (accurate where ``p_col`` is close to ``ref``; ``+-inf`` where a probability is 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        win = np.log1p((p_col - ref) / ref) if ref > 0 else np.full(p_col.shape, np.inf)
        loss = np.log1p((ref - p_col) / (1.0 - ref)) if ref < 1 else np.full(p_col.shape, np.inf)
    return win, loss


def _trial_log_ratio(p_col: np.ndarray, ref: float, n: int) -> np.ndarray:
    """Shape (H, n + 1): ``log P(k | h) - log P(k | ref)`` for one trial and k = 0..n (``0 * inf = 0``; the rows
    where ``ref`` makes ``k`` impossible are meaningless and must be masked by the caller)."""
    k = np.arange(n + 1, dtype=float)
    win, loss = _log_ratios(p_col, ref)
    with np.errstate(invalid="ignore"):
        return (np.where(k[None, :] == 0, 0.0, k[None, :] * win[:, None])
                + np.where((n - k)[None, :] == 0, 0.0, (n - k)[None, :] * loss[:, None]))


def _information_terms(log_w: np.ndarray, log_ref: np.ndarray, ratios: np.ndarray) -> np.ndarray:
    """``P(k | h) (X - log1p(X))`` per outcome, ``X = P(k) / P(k | h) - 1``, nonnegative: the terms of
    ``I = sum_h w_h sum_k P(k|h) log(P(k|h) / P(k))`` after removing ``sum_h w_h sum_k P(k|h) X = 0``, so that
    no term cancels another (``ratios[h', :] = log P(k|h') - log P(k|h)``, ``log_ref = log P(k|h)``, -inf for
    an outcome impossible under ``h``, whose term is 0)."""
    with np.errstate(invalid="ignore", over="ignore"):
        log1p_x = _logsumexp(log_w[:, None] + ratios, axis=0)  # log(P(k) / P(k|h))
        small = log1p_x < math.log(2)
        x = np.sum(np.exp(log_w)[:, None] * np.expm1(np.where(small[None, :], ratios, 0.0)), axis=0)
        pk = np.exp(log_ref)
        near = -pk * _log1p_minus(np.where(small, x, 0.0))
        far = np.exp(log_ref + log1p_x) - pk * (1.0 + log1p_x)
        out = np.where(small, near, far)
    return np.where(np.isfinite(log_ref), np.maximum(out, 0.0), 0.0)


def _posterior_divergence(log_w: np.ndarray, ratios: np.ndarray) -> np.ndarray:
    """``KL(posterior || prior)`` per outcome, from ``ratios[h', j] = log P(k_j|h') - log P(k_j|h)`` for any
    reference ``h`` under which ``k_j`` is possible: with ``y = log(post / prior)``, it is
    ``sum_h w_h (1 + (y_h - 1) e^y_h)``, terms that are all nonnegative (``sum_h w_h (e^y_h - 1) = 0`` taken
    out), ``1 + (y - 1) e^y`` by its series where ``|y| < 0.1``."""
    with np.errstate(invalid="ignore", over="ignore"):
        log_mix = _logsumexp(log_w[:, None] + ratios, axis=0)
        small = log_mix < math.log(2)
        x = np.sum(np.exp(log_w)[:, None] * np.expm1(np.where(small[None, :], ratios, 0.0)), axis=0)
        log_mix = np.where(small, np.log1p(np.where(small, x, 0.0)), log_mix)
        y = ratios - log_mix[None, :]
        ys = np.where(np.abs(y) < 0.1, y, 0.0)
        series = np.zeros_like(ys)
        fact = [math.factorial(j) for j in range(18)]
        for j in range(17, 1, -1):  # sum_{j >= 2} (j - 1) y^j / j!
            series = ys * ((j - 1) / fact[j] + series)
        series = ys * series
        direct = 1.0 + (y - 1.0) * np.exp(np.where(np.isfinite(y), y, 0.0))
        f = np.where(np.abs(y) < 0.1, series, np.where(y == -np.inf, 1.0, direct))
    return np.maximum(np.exp(log_w) @ f, 0.0)


def _outside_support(p: np.ndarray, n: np.ndarray, w: np.ndarray) -> float:
    """``C = sum_h w_h P(K outside the support of h)``, ``P`` the prior mixture: the part of
    ``sum_h w_h sum_k (P(k) - P(k|h)) = 0`` on the outcomes impossible under ``h``, which the terms of
    :func:`_information_terms` leave out. The support of ``h`` is a product of per-trial sets (only 0 wins where
    ``p[h, t] = 0``, only ``n_t`` where it is 1), so each probability is a product, taken as ``-expm1`` of a sum
    of logs."""
    total = 0.0
    with np.errstate(divide="ignore"):
        for h in range(p.shape[0]):
            log_inside = np.zeros(p.shape[0])
            for t in np.flatnonzero((p[h] == 0) | (p[h] == 1)):
                log_inside += n[t] * (np.log1p(-p[:, t]) if p[h, t] == 0 else np.log(p[:, t]))
            total += w[h] * float(w @ -np.expm1(log_inside))
    return total


def _kl_float(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    d = p - q
    with np.errstate(divide="ignore", invalid="ignore"):
        a = d / q
        b = -d / (1.0 - q)
        # direct form: p log(p/q) + (1-p) log((1-p)/(1-q)) with the logs as log1p of the relative differences
        direct = np.where(p == 0, 0.0, p * np.log1p(a))
        direct = direct + np.where(p == 1, 0.0, (1.0 - p) * np.log1p(b))
        # near p = q: p (log1p(a) - a) + (1-p) (log1p(b) - b) + d^2 / (q (1-q)), no cancellation of O(d) terms
        near = p * _log1p_minus(a) + (1.0 - p) * _log1p_minus(b) + d * d / (q * (1.0 - q))
    use_near = (np.abs(a) < 0.5) & (np.abs(b) < 0.5) & (q > 0) & (q < 1)
    out = np.where(use_near, near, direct)
    out = np.where(((q == 0) & (p > 0)) | ((q == 1) & (p < 1)), np.inf, out)
    out = np.where(p == q, 0.0, out)
    return np.maximum(out, 0.0)


def _log1p_minus(x: np.ndarray) -> np.ndarray:
    """``log1p(x) - x`` without cancellation for small ``|x|`` (its Taylor series to ``x**17`` below 0.1)."""
    small = np.abs(x) < 0.1
    xs = np.where(small, x, 0.0)
    series = np.zeros_like(xs)
    for k in range(17, 1, -1):
        series = xs * (((-1) ** (k + 1)) / k + series)
    series = xs * series
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = np.log1p(np.where(small, 0.0, x)) - np.where(small, 0.0, x)
    return np.where(small, series, direct)


def _trial_log_pmf(p_col: np.ndarray, n: int, coefficients: bool) -> np.ndarray:
    """Shape (H, n + 1): log P(k wins in n | h) for k = 0..n."""
    k = np.arange(n + 1, dtype=float)
    out = _xlogy(k[None, :], p_col[:, None]) + _xlogy((n - k)[None, :], 1.0 - p_col[:, None])
    if coefficients:
        out = out + np.array([math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                              for j in range(n + 1)])[None, :]
    return out


def outcome_log_likelihoods(p: Any, counts: Any, *, coefficients: bool = True,
                            max_outcomes: int = MAX_OUTCOMES) -> tuple[np.ndarray, np.ndarray]:
    """Log-likelihood of every outcome vector under every hypothesis (exact enumeration).

    Parameters
    ----------
    p : array_like, shape (H, T)
        Choice probabilities in [0, 1].
    counts : array_like, shape (T,)
        Presentations per trial (nonnegative integers).
    coefficients : bool
        Include ``log C(n_t, k_t)`` (the probability of the counts); without it, the log-likelihood of one
        sequence of choices with those counts (enough to compare hypotheses).
    max_outcomes : int
        Refuse when ``prod_t (counts_t + 1)`` is larger.

    Returns
    -------
    (log_lik, wins) : numpy.ndarray of shapes (H, N) and (N, T)
        ``log_lik[h, j] = sum_t log C + k_jt log p[h, t] + (n_t - k_jt) log(1 - p[h, t])`` for the ``N``
        outcome vectors ``k_j = wins[j]``, in lexicographic order (``-inf`` where impossible). Memory:
        ``8 (H + T) N`` bytes.

    Raises
    ------
    ParameterError
        Bad shapes or values.
    BudgetError
        More than ``max_outcomes`` outcome vectors.
    """
    arr = _probabilities(p)
    n = _counts(counts, arr.shape[1])
    total = _outcome_count(n)
    if total > max_outcomes:
        raise BudgetError(f"counts: {total} outcome vectors to enumerate, above max_outcomes={max_outcomes}")
    wins = np.stack(np.meshgrid(*[np.arange(c + 1) for c in n], indexing="ij"), axis=-1).reshape(-1, len(n))
    return _outcome_table(arr, n, coefficients), wins


#: Samples per hypothesis drawn at once by the Monte Carlo mutual information (above it, in blocks of this many).
_MC_BLOCK = 2**18


def _mi_monte_carlo(p: np.ndarray, w: np.ndarray, n: np.ndarray, samples: int, seed: Any) -> tuple[float, float]:
    """Stratified by hypothesis: ``samples / H`` experiments simulated from each; each contributes
    ``KL(posterior(k) || prior)``, the expectation over the hypotheses of ``log P(k|h) / P(k)`` given ``k``
    (Rao-Blackwellised: bounded by ``log(1 / min prior)``, nonnegative, and of the order of the information
    itself where it is small), from per-trial log-likelihood ratios (:func:`_posterior_divergence`)."""
    rng = np.random.default_rng(seed)
    h = p.shape[0]
    per = max(2, -(-samples // h))
    log_w = np.log(w)
    value = var = 0.0
    for a in range(h):
        mean, m2, drawn = 0.0, 0.0, 0
        for size in [min(_MC_BLOCK, per - s) for s in range(0, per, _MC_BLOCK)] if per > _MC_BLOCK else [per]:
            v = _mc_block(rng, p, n, a, log_w, size)
            # (Chan, Golub & LeVeque 1983: the blocks' means and sums of squared deviations combined)
            bm, bm2 = float(v.mean()), float(v.var()) * size
            if drawn:
                delta, total = bm - mean, drawn + size
                bm, bm2 = mean + delta * size / total, m2 + bm2 + delta * delta * drawn * size / total
            mean, m2, drawn = bm, bm2, drawn + size
        value += w[a] * mean
        var += w[a] ** 2 * (float(v.var(ddof=1)) if per <= _MC_BLOCK else m2 / (per - 1)) / per
    return value, math.sqrt(var)


def _mc_block(rng: np.random.Generator, p: np.ndarray, n: np.ndarray, a: int, log_w: np.ndarray,
              per: int) -> np.ndarray:
    """The divergences of ``per`` experiments simulated from hypothesis ``a`` (:func:`_mi_monte_carlo`)."""
    h = p.shape[0]
    k = rng.binomial(n[None, :], p[a][None, :], size=(per, len(n))).astype(float)
    ratios = np.zeros((h, per))
    for t in range(len(n)):
        win, loss = _log_ratios(p[:, t], p[a, t])
        wins, losses = k[None, :, t], n[t] - k[None, :, t]
        if np.isfinite(win).all() and np.isfinite(loss).all():  # no 0 * inf to mask: the same sums, faster
            ratios += wins * win[:, None] + losses * loss[:, None]
            continue
        with np.errstate(invalid="ignore"):
            ratios += (np.where(wins == 0, 0.0, wins * win[:, None])
                       + np.where(losses == 0, 0.0, losses * loss[:, None]))
    return _posterior_divergence(log_w, ratios)
