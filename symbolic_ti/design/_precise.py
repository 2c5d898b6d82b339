"""Multiprecision kernels of :mod:`symbolic_ti.design.information` (issue 26): the Bernoulli divergence from the
logits (any response scale ``beta``, no overflow, no probability rounded to 0 or 1) and the exact mutual
information at a stated number of digits.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any

import mpmath
import numpy as np

from ..errors import ParameterError

#: Cap on the outcome vectors summed in mpmath at ``dps`` digits (about 0.3 ms each); above it the exact mutual
#: information is float64 (:func:`symbolic_ti.design.information.mutual_information`).
MP_MAX_OUTCOMES = 4096
#: Outcome vectors of the inner block of the multiprecision enumeration (object arrays of mpmath numbers).
MP_BLOCK = 2**14


def _real(x: Any, name: str = "logits") -> Any:
    """``x`` (float, int, mpmath or sympy real) as a finite mpf at the working precision."""
    try:
        if isinstance(x, mpmath.mpf):
            value = +x
        elif hasattr(x, "evalf"):  # sympy: evaluated at the working precision, a few digits more
            value = mpmath.mpf(x.evalf(mpmath.mp.dps + 5))
        else:
            value = mpmath.mpf(x)
    except (TypeError, ValueError):
        raise ParameterError(f"{name}: expected real numbers, got {x!r}") from None
    if not mpmath.isfinite(value):
        raise ParameterError(f"{name}: expected finite real numbers, got {x!r}")
    return value


def _softplus(x: Any) -> Any:
    """``log(1 + e^x)`` without overflow: ``max(x, 0) + log1p(e^-|x|)``."""
    return max(x, 0) + mpmath.log1p(mpmath.exp(-abs(x)))


def _softplus_difference(x: Any, y: Any, d: Any) -> Any:
    """``softplus(x) - softplus(y)`` with ``d = x - y`` given apart, without cancellation: ``log1p(expm1(d)
    sigmoid(y))`` for ``|d| <= 1``; for ``d > 1``, ``d + softplus(-x) - softplus(-y)`` where both are positive
    (``softplus(z) = z + softplus(-z)``), the direct difference otherwise (then ``softplus(x) / softplus(y) > 1.8``)."""
    if abs(d) <= 1:
        return mpmath.log1p(mpmath.expm1(d) * mpmath.exp(-_softplus(-y)))
    if d < 0:
        return -_softplus_difference(y, x, -d)
    if y > 0:
        return d + _softplus(-x) - _softplus(-y)
    return _softplus(x) - _softplus(y)


def kl_logits(a: Any, b: Any, dps: int) -> Any:
    """``KL(Bernoulli(sigmoid(a)) || Bernoulli(sigmoid(b)))`` in nats from the logits ``a``, ``b`` (any reals:
    float, mpmath or exact sympy numbers), correct to ``dps`` digits of the given logits.

    ``KL = sigmoid(a) (softplus(-b) - softplus(-a)) + sigmoid(-a) (softplus(b) - softplus(a))`` (the logs of
    the probability ratios as differences of softplus, ``log sigmoid(x) = -softplus(-x)``), each difference
    with ``b - a`` (:func:`_softplus_difference`); the working precision is raised by the digits the sum of the
    two terms cancels (``a`` close to ``b``). Always finite.
    """
    symbolic = hasattr(a, "evalf") or hasattr(b, "evalf")
    if symbolic:  # the difference as a sympy expression: evaluated with relative accuracy
        import sympy as sp

        a, b = sp.sympify(a), sp.sympify(b)
        diff = b - a
    def terms() -> Any:
        am, bm = _real(a), _real(b)
        d = _real(diff) if symbolic else bm - am
        if d == 0:
            return mpmath.mpf(0)
        return (mpmath.exp(-_softplus(-am)) * _softplus_difference(-bm, -am, -d),
                mpmath.exp(-_softplus(am)) * _softplus_difference(bm, am, d))

    return cancelling_sum(terms, dps)


def cancelling_sum(terms: Callable[[], Any], dps: int) -> Any:
    """``t1 + t2`` correct to ``dps`` digits, where ``terms()`` computes ``(t1, t2)`` at the working precision
    it is called at (or a final value, returned as it is: an exact 0, an infinity): the precision starts 15
    digits above ``dps`` and is raised by the digits the sum cancels until they are covered (the two terms of a
    Kullback-Leibler divergence of close probabilities, :func:`kl_logits` and
    :func:`symbolic_ti.design.information.kl_per_trial`)."""
    extra = 15
    while True:
        with mpmath.workdps(dps + extra):
            out = terms()
            if not isinstance(out, tuple):
                return out
            t1, t2 = out
            value = t1 + t2
            # digits lost to cancellation between the two terms; redo with that many more when too many
            lost = (mpmath.log10(abs(t1) + abs(t2)) - mpmath.log10(abs(value))) if value != 0 else dps + extra
            if lost < extra - 5:
                with mpmath.workdps(dps):
                    return +value
        extra = int(lost) + 15


def kl_logits_array(p: np.ndarray, q: np.ndarray, dps: int | None) -> np.ndarray:
    """:func:`kl_logits` of each pair of entries of the object arrays ``p``, ``q`` of shape (T,): mpmath numbers
    at ``dps`` digits, or float64 without ``dps``."""
    if p.shape != q.shape:
        raise ParameterError(f"p, q: shapes differ ({p.shape} and {q.shape})")
    values = [kl_logits(a, b, 17 if dps is None else dps) for a, b in zip(p, q, strict=True)]
    return np.array([float(v) for v in values]) if dps is None else np.array(values, dtype=object)


def _reduce_mp(p: np.ndarray, n: np.ndarray) -> tuple[list[list[Any]], list[int]]:
    """The exact reductions of ``_arrays._reduce`` on mpmath numbers compared exactly: trials not presented or
    equal under every hypothesis dropped, identical columns pooled."""
    return _pooled((tuple(p[:, t]) for t in range(p.shape[1])), n)


def _mi_at(cols: list[list[Any]], w: list[Any], n: list[int], wp: int) -> Any:
    """``sum_h w_h sum_k P(k|h) (X - log1p X) + sum_h w_h P(outside the support of h)``, ``X = P(k)/P(k|h) - 1``
    (the form of ``_arrays._information_terms``: nonnegative terms), at ``wp`` digits."""
    with mpmath.workdps(wp):
        ws = [_real(x, "prior") for x in w]
        total = mpmath.fsum(ws)
        ws = [x / total for x in ws]
        h = len(ws)
        tables = []  # per trial: (H, n_t + 1) binomial probabilities
        for col, m in zip(cols, n, strict=True):
            ps = [_real(x, "p") for x in col]
            tables.append(np.array([[math.comb(m, k) * ph ** k * (1 - ph) ** (m - k) for k in range(m + 1)]
                                    for ph in ps], dtype=object))
        inner, size = len(tables), 1
        while inner > 1 and size * tables[inner - 1].shape[1] <= MP_BLOCK:
            inner -= 1
            size *= tables[inner].shape[1]
        block = np.ones((h, 1), dtype=object)
        for tab in tables[inner:]:
            block = (block[:, :, None] * tab[:, None, :]).reshape(h, -1)
        log1p = np.frompyfunc(mpmath.log1p, 1, 1)
        terms: list[Any] = []
        outside = [mpmath.mpf(0)] * h
        for ks in itertools.product(*(range(tab.shape[1]) for tab in tables[:inner])):
            prefix = [mpmath.mpf(1)] * h
            for tab, k in zip(tables[:inner], ks, strict=True):
                prefix = [prefix[g] * tab[g, k] for g in range(h)]
            lik = block * np.array(prefix, dtype=object)[:, None]  # (H, outcomes) P(k|h)
            mix = np.sum(lik * np.array(ws, dtype=object)[:, None], axis=0)
            for g in range(h):
                live = lik[g] != 0
                outside[g] += mpmath.fsum(mix[~live])
                if np.any(live):
                    x = mix[live] / lik[g][live] - 1
                    terms.append(ws[g] * mpmath.fsum(lik[g][live] * (x - log1p(x))))
        return mpmath.fsum(terms) + mpmath.fsum(ws[g] * outside[g] for g in range(h))


def mi_exact_mp(p: np.ndarray, w: Any, n: np.ndarray, dps: int) -> tuple[Any, int]:
    """The exact mutual information of ``p`` (shape (H, T), mpmath numbers or reals in [0, 1]) with prior weights
    ``w`` and counts ``n``, correct to ``dps`` digits of the given probabilities: computed at ``dps + e`` and
    ``dps + 2e`` digits until both agree to ``dps + 2`` (``e = 15``, doubled while they do not). Returns the
    value and the number of outcome vectors enumerated."""
    cols, counts = _reduce_mp(p, n)
    outcomes = math.prod(c + 1 for c in counts)
    if len(w) < 2 or not cols:
        return mpmath.mpf(0), 1
    return _stable(lambda wp: _mi_at(cols, list(w), counts, wp), dps), outcomes


def _x_minus_log1p(x: Any) -> Any:
    """``x - log1p(x)`` (``x > -1``) at the working precision: its series ``sum_{j >= 2} (-1)^j x^j / j`` where
    ``|x| < 1e-3`` (the direct difference would cancel), the direct form otherwise (at most 3.3 digits lost)."""
    if abs(x) >= mpmath.mpf("1e-3"):
        return x - mpmath.log1p(x)
    eps = mpmath.eps * abs(x) ** 2
    out, power, j = mpmath.mpf(0), x * x, 2
    while abs(power) > eps:
        out += (power if j % 2 == 0 else -power) / j
        power *= x
        j += 1
    return out


def _reduce_logits(logits: np.ndarray, n: np.ndarray) -> tuple[list[list[Any]], list[int]]:
    """The exact reductions of :func:`_reduce_mp` on exact logits (sympy numbers compared exactly): trials not
    presented or with equal logits under every hypothesis dropped, identical columns pooled."""
    import sympy as sp

    return _pooled((tuple(sp.nsimplify(x) if isinstance(x, float) else sp.sympify(x) for x in logits[:, t])
                    for t in range(logits.shape[1])), n)


def _mi_logits_at(cols: list[list[Any]], w: list[Any], n: list[int], wp: int) -> Any:
    """``sum_h w_h sum_k P(k|h) (X - log1p X)``, ``X = sum_h' w_h' expm1(log P(k|h') - log P(k|h))``, from the
    logits: ``log P(k|h) = log C(m, k) - k softplus(-a_h) - (m - k) softplus(a_h)`` and its differences as
    differences of softplus (:func:`_softplus_difference`), so that no probability rounds to 0 or 1 (any ``beta``)
    and a tiny information keeps its relative accuracy; at ``wp`` digits."""
    with mpmath.workdps(wp):
        ws = [_real(x, "prior") for x in w]
        total = mpmath.fsum(ws)
        ws = [x / total for x in ws]
        h = len(ws)
        per_trial = []  # per trial: softplus(+-a_h), and the differences of hypothesis g' to g
        for col in cols:
            a = [_real(x) for x in col]
            diff = [[_real(col[g2] - col[g]) if g2 != g else mpmath.mpf(0) for g in range(h)] for g2 in range(h)]
            plus = [_softplus(x) for x in a]
            minus = [_softplus(-x) for x in a]
            d_minus = [[_softplus_difference(-a[g2], -a[g], -diff[g2][g]) for g in range(h)] for g2 in range(h)]
            d_plus = [[_softplus_difference(a[g2], a[g], diff[g2][g]) for g in range(h)] for g2 in range(h)]
            per_trial.append((plus, minus, d_plus, d_minus))
        # per trial and wins k: P(k | g), and the log ratio of g2 to g with its exponential (products per outcome)
        lik_t, log_r, ratio = [], [], []
        for (plus, minus, d_plus, d_minus), m in zip(per_trial, n, strict=True):
            lik_t.append([[mpmath.exp(mpmath.log(math.comb(m, k)) - k * minus[g] - (m - k) * plus[g])
                           for k in range(m + 1)] for g in range(h)])
            lr = [[[-(k * d_minus[g2][g] + (m - k) * d_plus[g2][g]) for k in range(m + 1)] for g in range(h)]
                  for g2 in range(h)]
            log_r.append(lr)
            ratio.append([[[mpmath.exp(x) for x in row] for row in block] for block in lr])
        near = mpmath.mpf("1e-3")
        terms = []
        for ks in itertools.product(*(range(m + 1) for m in n)):
            for g in range(h):
                if ws[g] == 0:
                    continue
                lik = mpmath.fprod(lik_t[t][g][k] for t, k in enumerate(ks))
                x = mpmath.mpf(0)
                for g2 in range(h):
                    if g2 == g or ws[g2] == 0:
                        continue
                    e = mpmath.fprod(ratio[t][g2][g][k] for t, k in enumerate(ks))
                    # (near 1, expm1 of the summed log ratios: the product minus 1 would cancel)
                    x += ws[g2] * (mpmath.expm1(mpmath.fsum(log_r[t][g2][g][k] for t, k in enumerate(ks)))
                                   if abs(e - 1) < near else e - 1)
                terms.append(ws[g] * lik * _x_minus_log1p(x))
        return mpmath.fsum(terms)


def mi_exact_logits(logits: np.ndarray, w: Any, n: np.ndarray, dps: int) -> tuple[Any, int] | None:
    """The exact mutual information from exact logits ``beta f`` (shape (H, T)), correct to ``dps`` digits (the
    precision doubled until two evaluations agree, as :func:`mi_exact_mp`), and the outcome vectors enumerated;
    ``None`` when more than :data:`MP_MAX_OUTCOMES` remain after the exact reductions."""
    cols, counts = _reduce_logits(logits, n)
    if not cols:
        return mpmath.mpf(0), 1
    outcomes = math.prod(c + 1 for c in counts)
    if outcomes > MP_MAX_OUTCOMES:
        return None
    return _stable(lambda wp: _mi_logits_at(cols, list(w), counts, wp), dps), outcomes


class LogitGaps:
    """The log-likelihood differences of the power (:func:`symbolic_ti.design.power.power` with ``logits``) from
    exact logits, their signs decided to ``dps`` digits: ``log L_true - log L_b = -sum_t (k_t A_bt + (m_t - k_t)
    B_bt) + c_b`` with ``A_bt = softplus(-a_true,t) - softplus(-a_bt)``, ``B_bt = softplus(a_true,t) -
    softplus(a_bt)`` (differences of softplus from the exact logit differences, :func:`_softplus_difference`) and
    ``c_b`` a constant (BIC's penalty). A float64 sum decides where it exceeds ``1e-11`` of the sum of the terms'
    magnitudes (its rounding error is below ``T 2^-52`` of it); the other outcomes are summed in mpmath at
    ``dps + 15`` digits, and a difference below ``10^-dps`` of the terms' magnitudes is a tie."""

    def __init__(self, logits: np.ndarray, true: int, constants: list[float], dps: int) -> None:
        import sympy as sp

        self.dps, self.wp = dps, dps + 15
        h, t = logits.shape
        self.others = [b for b in range(h) if b != true]
        self.a_mp: list[list[Any]] = []
        self.b_mp: list[list[Any]] = []
        self.c_mp: list[Any] = []
        with mpmath.workdps(self.wp):
            col = [[sp.nsimplify(x) if isinstance(x, float) else x for x in row] for row in logits]
            mine = [_real(x) for x in col[true]]
            for b, c in zip(self.others, constants, strict=True):
                theirs = [_real(x) for x in col[b]]
                diff = [_real(sp.sympify(col[true][j]) - sp.sympify(col[b][j])) if hasattr(col[true][j], "evalf")
                        or hasattr(col[b][j], "evalf") else mine[j] - theirs[j] for j in range(t)]
                self.a_mp.append([_softplus_difference(-mine[j], -theirs[j], -diff[j]) for j in range(t)])
                self.b_mp.append([_softplus_difference(mine[j], theirs[j], diff[j]) for j in range(t)])
                self.c_mp.append(mpmath.mpf(c))
            self.true_logits = np.array([float(x) for x in mine])
        self.a_f = np.array([[float(x) for x in row] for row in self.a_mp])  # (H - 1, T)
        self.b_f = np.array([[float(x) for x in row] for row in self.b_mp])
        self.c_f = np.array([float(c) for c in self.c_mp])

    def picked(self, wins: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per outcome vector (rows of ``wins``, shape (S, T)): ``true`` strictly best, and tied with the best
        other (no other better)."""
        k = np.asarray(wins, dtype=float)
        rest = counts[None, :] - k
        sign = np.empty((len(self.others), k.shape[0]), dtype=np.int8)
        for i in range(len(self.others)):
            gap = -(k @ self.a_f[i]) - rest @ self.b_f[i] + self.c_f[i]
            scale = k @ np.abs(self.a_f[i]) + rest @ np.abs(self.b_f[i]) + abs(self.c_f[i])
            sign[i] = np.sign(gap)
            for s in np.flatnonzero(np.abs(gap) <= 1e-11 * scale):
                sign[i, s] = self._exact_sign(i, wins[s], counts)
        low = sign.min(axis=0)
        return low > 0, low == 0

    def _exact_sign(self, i: int, ks: np.ndarray, counts: np.ndarray) -> int:
        with mpmath.workdps(self.wp):
            terms = [self.c_mp[i]]
            for j, (kj, mj) in enumerate(zip(ks, counts, strict=True)):
                if kj:
                    terms.append(-int(kj) * self.a_mp[i][j])
                if mj - kj:
                    terms.append(-int(mj - kj) * self.b_mp[i][j])
            gap = mpmath.fsum(terms)
            scale = mpmath.fsum(abs(x) for x in terms)
            if abs(gap) <= scale * mpmath.mpf(10) ** -self.dps:
                return 0
            return 1 if gap > 0 else -1

    def log_pmf(self, counts: np.ndarray) -> list[np.ndarray]:
        """Per trial: ``log P(k | true)`` for ``k = 0 .. m_t`` from the logits in float64 (binomial coefficients
        included; no probability rounded to 0 or 1 at any ``beta``)."""
        out = []
        for a, m in zip(self.true_logits, counts, strict=True):
            k = np.arange(int(m) + 1, dtype=float)
            coef = np.array([math.lgamma(m + 1) - math.lgamma(j + 1) - math.lgamma(m - j + 1) for j in range(int(m) + 1)])
            out.append(coef - k * np.logaddexp(0.0, -a) - (m - k) * np.logaddexp(0.0, a))
        return out


def _pooled(columns_of: Iterable[tuple[Any, ...]], n: Any) -> tuple[list[list[Any]], list[int]]:
    """The trial columns (one value per hypothesis) with their presentations: columns never presented or equal
    under every hypothesis dropped (they carry no information), identical columns pooled (their counts added)."""
    columns: dict[tuple[Any, ...], int] = {}
    out_p: list[list[Any]] = []
    out_n: list[int] = []
    for t, col in enumerate(columns_of):
        if n[t] == 0 or all(x == col[0] for x in col):
            continue
        if col in columns:
            out_n[columns[col]] += int(n[t])
        else:
            columns[col] = len(out_p)
            out_p.append(list(col))
            out_n.append(int(n[t]))
    return out_p, out_n


def _stable(value_at: Callable[[int], Any], dps: int) -> Any:
    """``value_at(wp)`` correct to ``dps`` digits: computed at ``dps + e`` and ``dps + 2e`` working digits until
    both agree to ``dps + 2`` (``e = 15``, doubled while they do not), rounded to ``dps`` digits."""
    extra = 15
    low = value_at(dps + extra)
    while True:
        high = value_at(dps + 2 * extra)
        with mpmath.workdps(dps + 2 * extra):
            if abs(high - low) <= abs(high) * mpmath.mpf(10) ** -(dps + 2):
                with mpmath.workdps(dps):
                    return +high
        low, extra = high, 2 * extra
