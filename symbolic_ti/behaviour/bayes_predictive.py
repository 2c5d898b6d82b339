"""The posterior predictive check of the Bayesian hierarchical fit (:mod:`symbolic_ti.behaviour.bayes`), and the
float64 check of the sampler's predictions against the grid compiler's checked values at the posterior draws."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import ParameterError
from .bayes_model import PopulationLikelihood
from .data import BehaviourData
from .hierarchical_parts import PredictiveTally, PredictiveTrial

__all__ = ["predictive_check", "MAX_PREDICTIVE_DRAWS"]

#: Posterior draws used by the predictive check (evenly thinned when there are more).
MAX_PREDICTIVE_DRAWS = 1000



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


def _first_wins(expit: Callable[[np.ndarray], np.ndarray], beta: np.ndarray, f: np.ndarray
                ) -> Callable[[int], np.ndarray]:
    """``r -> sigmoid(beta f[r])``: the draws' probabilities that the first item of observed row ``r`` wins."""
    return lambda r: expit(beta * f[r])


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
    tally = PredictiveTally(N, level)
    for s, (_, data) in enumerate(subjects):
        model = like.models[s]
        p_first = _first_wins(expit, beta[:, s], f[model.obs_index, :, s])
        tally.subject(model, data, p_first, rng, notes)
    return tally.trials(task, subjects, notes), tally.inside, tally.rows, error, notes
