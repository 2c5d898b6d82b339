"""The posterior predictive check of the Bayesian hierarchical fit (:mod:`symbolic_ti.behaviour.bayes`), and the
float64 check of the sampler's predictions against the grid compiler's checked values at the posterior draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ParameterError
from .bayes_model import PopulationLikelihood
from .data import BehaviourData
from .hierarchical import PredictiveTrial

__all__ = ["predictive_check", "MAX_PREDICTIVE_DRAWS"]

#: Posterior draws used by the predictive check (evenly thinned when there are more).
MAX_PREDICTIVE_DRAWS = 1000

Trial = tuple[int, int]


def _grid_predictions(like: PopulationLikelihood, nat: list[np.ndarray]) -> tuple[np.ndarray, float, list[str]]:
    """``f`` of every trial at the points ``nat`` (arrays of one shape ``P``) by the grid compiler, shape
    ``(T,) + P``, the largest relative difference of the JAX program's values from them, and notes."""
    cr = like.compiled
    shape = nat[0].shape
    if not cr.parameters:
        values = cr.evaluate().values
        return np.broadcast_to(values.reshape((-1,) + (1,) * len(shape)), (len(values),) + shape), 0.0, []
    args = [nat[q].ravel() for q in like.arguments]
    arrays: dict[str, Any] = dict(zip(cr.parameters, args, strict=True))
    try:
        grid = cr.evaluate(**arrays)
    except ParameterError as err:  # a draw at a domain end in float64 (alpha = 1.0 after the sigmoid)
        note = f"the grid compiler could not check the draws ({err}); the predictive check uses the sampler's values"
        f = np.asarray(like.jax_predictions()(*args))
        return f.reshape((-1,) + shape), float("nan"), [note]
    values = np.asarray(grid.values)
    f_jax = np.asarray(like.jax_predictions()(*args))
    scale = np.maximum(np.abs(values), 1e-300)
    with np.errstate(invalid="ignore"):
        error = float(np.nanmax(np.abs(f_jax - values) / scale)) if values.size else 0.0
    notes = [f"grid compiler: {grid.note}"] if int(np.count_nonzero(grid.fallback)) else []
    return values.reshape((-1,) + shape), error, notes


def predictive_check(like: PopulationLikelihood, subjects: Sequence[tuple[str, BehaviourData]], z: np.ndarray,
                     level: float, seed: int) -> tuple[tuple[PredictiveTrial, ...], int, int, float, list[str]]:
    """Posterior predictive check at the draws ``z`` (shape ``(N, S, d)``, thinned to
    :data:`MAX_PREDICTIVE_DRAWS`): per (subject, trial) row with ground truth, binomial choices at the observed
    count from each draw (``numpy.random.default_rng(seed + 1)``), the observed correct count inside the central
    ``level`` interval or not; pooled per trial over subjects as accuracies.

    Returns
    -------
    (trials, inside, rows, prediction_error, notes)
        The per-trial :class:`~symbolic_ti.behaviour.hierarchical.PredictiveTrial` rows (task order), the count of
        rows inside and of rows, the largest relative difference between the sampler's predictions and the grid
        compiler's at the draws, and notes.
    """
    from scipy.special import expit

    if z.shape[0] > MAX_PREDICTIVE_DRAWS:
        z = z[np.linspace(0, z.shape[0] - 1, MAX_PREDICTIVE_DRAWS).round().astype(int)]
    N = z.shape[0]
    nat = [np.asarray(v) for v in like.natural(z, np)]  # each (N, S)
    f, error, notes = _grid_predictions(like, nat[:like.n_kernel] if like.n_kernel else nat[:1])
    beta = nat[[c.name for c in like.coords].index("beta")]
    rng = np.random.default_rng(seed + 1)
    task = like.models[0].task
    lo_q, hi_q = 0.5 - level / 2, 0.5 + level / 2
    pooled_obs: dict[Trial, float] = {}
    pooled_n: dict[Trial, float] = {}
    pooled_sim: dict[Trial, np.ndarray] = {}
    inside = rows = 0
    for s, (_, data) in enumerate(subjects):
        model = like.models[s]
        n = np.rint(model.n).astype(int)
        if np.any(np.abs(model.n - n) > 1e-9) and not any("rounded" in x for x in notes):
            notes.append("the counts are not integers: the predictive intervals use rounded counts")
        for r, (t, g) in enumerate(zip(data.trials, data.ground_truth, strict=True)):
            if g is None:
                continue
            p_first = expit(beta[:, s] * f[model.obs_index[r], :, s])
            sim_first = rng.binomial(n[r], p_first)
            sim = sim_first if g == 1 else n[r] - sim_first
            obs = model.k[r] if g == 1 else model.n[r] - model.k[r]
            a, b = np.quantile(sim, [lo_q, hi_q])
            rows += 1
            inside += int(a - 1e-9 <= obs <= b + 1e-9)
            pooled_obs[t] = pooled_obs.get(t, 0.0) + float(obs)
            pooled_n[t] = pooled_n.get(t, 0.0) + float(n[r])
            pooled_sim[t] = pooled_sim.get(t, np.zeros(N)) + sim
    out: list[PredictiveTrial] = []
    for t in task.trials:
        if t not in pooled_n or pooled_n[t] == 0:
            continue
        acc: Any = pooled_sim[t] / pooled_n[t]
        a, b = np.quantile(acc, [lo_q, hi_q])
        o = pooled_obs[t] / pooled_n[t]
        out.append(PredictiveTrial(t, task.categories[t], pooled_n[t], o, float(acc.mean()), float(a), float(b),
                                   bool(a - 1e-9 <= o <= b + 1e-9)))
    if any(g is None for _, dd in subjects for g in dd.ground_truth):
        notes.append("trials without ground truth are left out of the predictive check")
    return tuple(out), inside, rows, error, notes
