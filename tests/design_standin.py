"""A minimal test-only stand-in for the information layer of issue 26 (``symbolic_ti.design.information`` and
``symbolic_ti.design.search``, built by another branch), installed only while those modules do not exist.

It follows the interface agreed for them (``p`` of shape ``(H, T)``, the probability that the first item wins;
``prior`` ``(H,)``; ``counts`` ``(T,)``; nats) with plain mpmath loops, so that the theory layer's tests run
before the information layer is merged. Once the real modules exist, :func:`install` does nothing and the tests
run against them.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
import types
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np


def _mp(x: Any) -> mpmath.mpf:
    return x if isinstance(x, mpmath.mpf) else mpmath.mpf(x)


def _kl(p: Any, q: Any) -> mpmath.mpf:
    p, q = _mp(p), _mp(q)
    return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))


def kl_per_trial(p: Any, q: Any, dps: int | None = None) -> np.ndarray:
    with mpmath.workdps(dps or 15):
        return np.array([_kl(a, b) for a, b in zip(p, q, strict=True)], dtype=object)


def divergence_matrix(p: Any, dps: int | None = None) -> np.ndarray:
    h = len(p)
    return np.array([[kl_per_trial(p[a], p[b], dps) for b in range(h)] for a in range(h)], dtype=object)


def expected_log_bayes_factor(p: Any, counts: Any, true: int, other: int, dps: int | None = None) -> Any:
    with mpmath.workdps(dps or 15):
        return mpmath.fsum(int(c) * k for c, k in zip(counts, kl_per_trial(p[true], p[other], dps), strict=True))


@dataclass(frozen=True)
class InformationEstimate:
    value: Any
    standard_error: Any
    method: str


def mutual_information(p: Any, prior: Any, counts: Any, *, method: str = "auto", samples: int = 20000,
                       seed: int = 0, max_outcomes: int = 10**6) -> InformationEstimate:
    counts = [int(c) for c in counts]
    prior = [_mp(w) for w in prior]
    h = len(prior)
    if math.prod(c + 1 for c in counts) > 4096:  # Monte Carlo (float64), with its standard error
        rng = np.random.default_rng(seed)
        pf = np.array([[float(x) for x in row] for row in p])
        w = np.array([float(x) for x in prior])
        c = np.array(counts)
        hs = rng.choice(h, size=samples, p=w / w.sum())
        ks = rng.binomial(c[None, :], pf[hs])
        logl = (ks[:, None, :] * np.log(pf[None]) + (c - ks)[:, None, :] * np.log1p(-pf[None])).sum(axis=2)
        mx = logl.max(axis=1, keepdims=True)
        logm = mx[:, 0] + np.log((w[None] * np.exp(logl - mx)).sum(axis=1))
        g = logl[np.arange(samples), hs] - logm
        return InformationEstimate(mpmath.mpf(float(g.mean())), mpmath.mpf(float(g.std(ddof=1) / samples ** 0.5)),
                                   "monte-carlo")
    with mpmath.workdps(30):
        total = mpmath.mpf(0)
        for ks in itertools.product(*(range(c + 1) for c in counts)):
            like = [mpmath.fprod(mpmath.binomial(c, k) * _mp(p[a][t]) ** k * (1 - _mp(p[a][t])) ** (c - k)
                                 for t, (c, k) in enumerate(zip(counts, ks, strict=True))) for a in range(h)]
            marginal = mpmath.fsum(w * l for w, l in zip(prior, like, strict=True))
            total += mpmath.fsum(w * l * mpmath.log(l / marginal) for w, l in zip(prior, like, strict=True) if l)
    return InformationEstimate(total, mpmath.mpf(0), "exact")


def fisher_information(p: Any, jacobian: Any, counts: Any) -> np.ndarray:
    p = np.array([float(x) for x in p])
    w = np.asarray(counts, dtype=float) * p * (1 - p)
    j = np.asarray(jacobian, dtype=float)
    return (j * w[:, None]).T @ j


def d_optimality(info: Any) -> float:
    sign, logdet = np.linalg.slogdet(np.asarray(info, dtype=float))
    return float(logdet) if sign > 0 else -math.inf


def a_optimality(info: Any) -> float:
    try:
        return float(np.trace(np.linalg.inv(np.asarray(info, dtype=float))))
    except np.linalg.LinAlgError:
        return math.inf


@dataclass(frozen=True)
class GreedyResult:
    counts: tuple[int, ...]


def greedy_trials(p: Any, prior: Any, budget: int, **_: Any) -> GreedyResult:
    counts = [0] * len(p[0])
    for _ in range(budget):
        best = max(range(len(counts)), key=lambda t: (mutual_information(
            p, prior, [c + (k == t) for k, c in enumerate(counts)]).value, -t))
        counts[best] += 1
    return GreedyResult(tuple(counts))


def install() -> bool:
    """Put the stand-in modules in ``sys.modules`` where the real ones are missing; whether it did."""
    import symbolic_ti.design as package

    done = False
    for name, attrs in (("information", ("kl_per_trial", "divergence_matrix", "expected_log_bayes_factor",
                                         "mutual_information", "InformationEstimate", "fisher_information",
                                         "d_optimality", "a_optimality")),
                        ("search", ("greedy_trials", "GreedyResult"))):
        full = f"symbolic_ti.design.{name}"
        if full in sys.modules or importlib.util.find_spec(full) is not None:
            continue
        module = types.ModuleType(full)
        for attr in attrs:
            setattr(module, attr, globals()[attr])
        sys.modules[full] = module
        setattr(package, name, module)
        done = True
    return done
