r"""Train finite fully connected ReLU networks on a TI task with gradient descent (numpy only).

The network is the one whose infinite-width kernels are the ``relu-nngp`` and ``relu-ntk`` families
(:mod:`symbolic_ti.families.relu`): input ``x_ij = (e_i ; e_j) / sqrt(2)``, ``depth = L`` hidden ReLU layers of
width ``m``, no biases, scalar output, NTK parameterization (Arora et al. 2019, eq. (3)):

.. math::
    g^{(0)} = x,\quad g^{(h)} = \sqrt{2/m}\,\mathrm{relu}(W^{(h)} g^{(h-1)}),\quad
    \mathrm{net}_\theta(x) = w^{\top} g^{(L)} ,

with every weight drawn ``N(0, s^2)``; ``s = init_scale = 1`` is the standard NTK initialization.

What is trained, and what it is compared with
---------------------------------------------
Full-batch gradient descent on ``(1/2) sum (f(x) - y)^2`` over the task's training trials (premise pairs and
exceptions, both orders), with the **centered** output ``f(x) = net_theta(x) - net_theta0(x)`` (``theta0`` the
initial weights, kept fixed). Centering removes the random initial function exactly (``f = 0`` at
initialization) without changing the gradients, so the tangent kernel is the network's own (Chizat, Oyallon,
Bach 2019, Sec. 1.2; the "doubling trick" of Hu et al. 2020 does the same with two copies). In the lazy limit
(``m -> oo``) gradient flow then converges to ``f_inf(x) = Theta(x, X) Theta(X, X)^{-1} y`` (Jacot et al. 2018,
Sec. 5; Lee et al. 2019, eq. (9) and (16) with ``f_0 = 0``), which is ridgeless kernel regression with the NTK:
the ``relu-ntk`` family at ``ridge="ridgeless"`` (the normalization ``Theta / (L + 1)`` does not change
ridgeless predictions). Without centering, gradient descent converges instead to ``f_0(x) + Theta(x, X)
Theta(X, X)^{-1} (y - f_0(X))``, a random offset of order 1 that no width removes.

The learning rate is ``lr = lr_factor / (s^(2L) (L + 1) lambda_max)`` with ``lambda_max`` the largest
eigenvalue of the normalized NTK on the training trials (:func:`ntk_gram`), so that the fastest kernel mode
relaxes at rate ``lr_factor`` per step at initialization (the NTK of weights scaled by ``s`` is ``s^(2L)``
times the standard one, because the network is positively homogeneous of degree ``L + 1`` in its weights).

Other activations: ``phi(u) = a u + b |u|``
-------------------------------------------
``activation=(a, b)`` replaces ``sqrt(2/m) relu`` by ``gain * phi`` with ``gain = 1 / sqrt((a^2 + b^2) m)``
(``E[phi(z)^2] = a^2 + b^2`` for standard normal ``z``; ``(1/2, 1/2)`` is ReLU, the default). Then
``E[phi(u) phi(v)] / (a^2 + b^2)`` is the PNAS map ``k`` and ``E[phi'(u) phi'(v)] / (a^2 + b^2)`` its derivative
map with ``slope = 2 b^2 / (a^2 + b^2)`` (docs/families.md, "PNAS nonlinearity family"), so the normalized NTK
is the ``pnas-ntk`` family at ``p = 0`` (:func:`ntk_gram` with ``slope``); ``phi`` is positively homogeneous of
degree 1, so the learning-rate scaling above holds unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParameterError
from ..task import Task

__all__ = ["TrainedNetwork", "trial_inputs", "ntk_gram", "train_relu_network", "deviation", "activation_slope"]

Trial = tuple[int, int]
#: ``(a, b)`` of ``phi(u) = a u + b |u|``; ``None`` is ReLU, ``(1/2, 1/2)``.
Activation = tuple[float, float] | None


def activation_slope(activation: Activation) -> float:
    """The PNAS ``slope = 2 b^2 / (a^2 + b^2)`` of ``phi(u) = a u + b |u|`` (1 for ReLU, ``None``).

    Raises
    ------
    ParameterError
        If ``activation`` is not two finite numbers with ``a^2 + b^2 > 0``.
    """
    if activation is None:
        return 1.0
    try:
        a, b = (float(v) for v in activation)
    except (TypeError, ValueError):
        raise ParameterError(f"activation must be two numbers (a, b) of phi(u) = a u + b |u|, got {activation!r}") \
            from None
    if not (math.isfinite(a) and math.isfinite(b) and a * a + b * b > 0):
        raise ParameterError(f"activation (a, b) must be finite and not both 0, got {activation!r}")
    return 2 * b * b / (a * a + b * b)


def trial_inputs(n: int, trials: list[Trial] | tuple[Trial, ...]) -> np.ndarray:
    """Inputs ``(e_i ; e_j) / sqrt(2)`` of the trials, one row each.

    Parameters
    ----------
    n : int >= 3
        Number of items.
    trials : sequence of (i, j) with items in 1..n

    Returns
    -------
    ndarray of shape (len(trials), 2 n), unit rows
    """
    x = np.zeros((len(trials), 2 * n))
    for r, (i, j) in enumerate(trials):
        x[r, i - 1] = x[r, n + j - 1] = 1 / math.sqrt(2)
    return x


def _ntk_of_dot(dot: np.ndarray, depth: int, slope: float = 1.0) -> np.ndarray:
    """Normalized ReLU NTK ``Theta_L / (L + 1)`` of unit inputs with inner products ``dot`` (elementwise).

    Recursion of :mod:`symbolic_ti.families.relu` (Arora et al. 2019, eq. (4), (7)-(8)), in float64; with
    ``slope`` the PNAS maps ``k = (1 - s) x + s k_1``, ``k' = 1 - s acos(x) / pi`` (:mod:`symbolic_ti.families.pnas`,
    ``p = 0``; ``slope = 1`` is ReLU, bit for bit).
    """
    c = np.clip(dot, -1.0, 1.0)
    theta = c.copy()
    for _ in range(depth):
        t = np.arccos(np.clip(c, -1.0, 1.0))
        deriv = (np.pi - slope * t) / np.pi
        c = (1 - slope) * c + slope * (np.sin(t) + (np.pi - t) * np.cos(t)) / np.pi
        theta = theta * deriv + c
    return theta / (depth + 1)


def ntk_gram(task: Task, depth: int, slope: float = 1.0) -> np.ndarray:
    """Normalized NTK (unit diagonal) between the task's training trials, float64.

    ``slope``: of the PNAS map (``pnas-ntk`` at ``p = 0``); 1 is ReLU (``relu-ntk``).

    Returns
    -------
    ndarray of shape (m, m) with m the number of training trials (order of ``task.training``)
    """
    train = [t for t, _ in task.training]
    # x . x' = ([i=k] + [j=l]) / 2 exactly (a float inner product of the inputs is off by an ulp, and acos
    # turns 1 - 1e-16 into an error of 1e-8)
    dot = np.array([[((a[0] == b[0]) + (a[1] == b[1])) / 2 for b in train] for a in train], dtype=float)
    return _ntk_of_dot(dot, depth, slope)


@dataclass(frozen=True)
class TrainedNetwork:
    """A network trained on a task, and its predictions.

    Attributes
    ----------
    width, depth, seed : int
    init_scale : float
        Standard deviation ``s`` of every initial weight (1: NTK initialization).
    steps : int
        Gradient-descent steps taken.
    lr : float
        Learning rate (on the summed squared loss).
    final_loss : float
        ``(1/2) sum (f - y)^2`` over the training trials at the end.
    predictions : mapping (i, j) -> float
        Centered output ``f(i, j)`` on every ordered trial of the task.
    relative_weight_change : float
        ``||theta - theta0|| / ||theta0||`` over all weights (small in the lazy regime).
    """

    width: int
    depth: int
    seed: int
    init_scale: float
    steps: int
    lr: float
    final_loss: float
    predictions: Mapping[Trial, float] = field(repr=False)
    relative_weight_change: float = 0.0

    def f(self, i: int, j: int) -> float:
        """Prediction on trial ``(i, j)``."""
        return self.predictions[(i, j)]


def _forward(weights: list[np.ndarray], x: np.ndarray,
             activation: Activation = None) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """Output and per-layer (pre-activations, activations) of the network in the module docstring."""
    m = weights[0].shape[0]
    gain = math.sqrt(2.0 / m) if activation is None else 1 / math.sqrt((activation[0] ** 2 + activation[1] ** 2) * m)
    acts, pres = [x], []
    g = x
    for w in weights[:-1]:
        z = g @ w.T
        pres.append(z)
        g = gain * (np.maximum(z, 0.0) if activation is None else activation[0] * z + activation[1] * np.abs(z))
        acts.append(g)
    return g @ weights[-1], pres, acts


def _gradients(weights: list[np.ndarray], pres: list[np.ndarray], acts: list[np.ndarray],
               resid: np.ndarray, activation: Activation = None) -> list[np.ndarray]:
    """Gradients of ``(1/2) sum resid^2`` (``resid = f - y`` on the batch) with respect to every weight."""
    m = weights[0].shape[0]
    gain = math.sqrt(2.0 / m) if activation is None else 1 / math.sqrt((activation[0] ** 2 + activation[1] ** 2) * m)
    grads: list[np.ndarray] = [np.empty(0)] * len(weights)
    grads[-1] = acts[-1].T @ resid
    dg = np.outer(resid, weights[-1])
    for h in range(len(weights) - 2, -1, -1):
        dz = dg * gain * ((pres[h] > 0) if activation is None else activation[0] + activation[1] * np.sign(pres[h]))
        grads[h] = dz.T @ acts[h]
        if h:
            dg = dz @ weights[h]
    return grads


def train_relu_network(task: Task, width: int, depth: int = 1, *, seed: int = 0, init_scale: float = 1.0,
                       steps: int = 2000, lr_factor: float = 0.5, tol: float = 0.0,
                       lr_scale: str = "init", activation: Activation = None) -> TrainedNetwork:
    """Train a bias-free ReLU network (NTK parameterization, centered output) with full-batch gradient descent.

    Parameters
    ----------
    task : Task
        Items and exceptions; the training set is ``task.training`` (targets +-1).
    width : int >= 1
        Width ``m`` of every hidden layer.
    depth : int >= 1
        Number of hidden layers ``L``.
    seed : int
        Seed of ``numpy.random.default_rng`` for the initial weights.
    init_scale : float > 0
        Standard deviation ``s`` of the initial weights; 1 is the NTK initialization, small values give the
        rich (feature-learning) regime, large values a lazier one.
    steps : int >= 1
        Maximal number of gradient-descent steps.
    lr_factor : float in (0, 2)
        Learning rate in units of ``1 / (s^(2L) (L + 1) lambda_max)`` (module docstring).
    tol : float >= 0
        Stop early once the training loss is below ``tol``.
    lr_scale : {"init", "standard"}
        ``"init"`` divides the learning rate by ``s^(2L)`` (the NTK at initialization; the lazy regime);
        ``"standard"`` keeps the learning rate of ``s = 1``, which stays stable when a small initialization
        grows during rich training.
    activation : (a, b) or None
        ``phi(u) = a u + b |u|`` instead of ReLU (module docstring); its lazy limit is ``pnas-ntk`` at
        ``slope = 2 b^2 / (a^2 + b^2)``, ``p = 0``. ``None`` (default) is ReLU.

    Returns
    -------
    TrainedNetwork
        With the centered predictions on every ordered trial.

    Raises
    ------
    ParameterError
        For a width, depth or step count below 1, or a non-positive ``init_scale`` or ``lr_factor``.
    """
    for name, v in (("width", width), ("depth", depth), ("steps", steps)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ParameterError(f"{name} must be an integer >= 1, got {v!r}")
    if not init_scale > 0:
        raise ParameterError(f"init_scale must be a number > 0, got {init_scale!r}")
    if not 0 < lr_factor < 2:
        raise ParameterError(f"lr_factor must be in (0, 2), got {lr_factor!r}")
    if lr_scale not in ("init", "standard"):
        raise ParameterError(f"lr_scale must be 'init' or 'standard', got {lr_scale!r}")
    slope = activation_slope(activation)
    act = None if activation is None else (float(activation[0]), float(activation[1]))
    rng = np.random.default_rng(seed)
    n = task.n
    train = [t for t, _ in task.training]
    y = np.array([float(v) for _, v in task.training])
    x_train = trial_inputs(n, train)
    x_all = trial_inputs(n, list(task.trials))
    shapes = [(width, 2 * n)] + [(width, width)] * (depth - 1)
    weights = [init_scale * rng.standard_normal(s) for s in shapes] + [init_scale * rng.standard_normal(width)]
    initial = [w.copy() for w in weights]
    f0_train = _forward(weights, x_train, act)[0]
    f0_all = _forward(weights, x_all, act)[0]
    lam_max = float(np.linalg.eigvalsh(ntk_gram(task, depth, slope))[-1])
    kernel_scale = init_scale ** (2 * depth) if lr_scale == "init" else 1.0
    lr = lr_factor / (kernel_scale * (depth + 1) * lam_max)
    loss = float("inf")
    taken = 0
    for taken in range(1, steps + 1):
        out, pres, acts = _forward(weights, x_train, act)
        resid = out - f0_train - y
        loss = 0.5 * float(resid @ resid)
        if loss < tol:
            taken -= 1
            break
        for w, g in zip(weights, _gradients(weights, pres, acts, resid, act), strict=True):
            w -= lr * g
    out = _forward(weights, x_train, act)[0]
    resid = out - f0_train - y
    loss = 0.5 * float(resid @ resid)
    pred = _forward(weights, x_all, act)[0] - f0_all
    change = math.sqrt(sum(float(np.sum((w - w0) ** 2)) for w, w0 in zip(weights, initial, strict=True)))
    norm0 = math.sqrt(sum(float(np.sum(w0 ** 2)) for w0 in initial))
    return TrainedNetwork(width=int(width), depth=int(depth), seed=int(seed), init_scale=float(init_scale),
                          steps=taken, lr=lr, final_loss=loss,
                          predictions={t: float(v) for t, v in zip(task.trials, pred, strict=True)},
                          relative_weight_change=change / norm0)


def deviation(predictions: Mapping[Trial, float], reference: Mapping[Trial, float]) -> tuple[float, float]:
    """``(max, RMS)`` of ``|predictions - reference|`` over the trials of ``reference``.

    Raises
    ------
    KeyError
        If a trial of ``reference`` has no prediction.
    """
    d = np.array([predictions[t] - float(v) for t, v in reference.items()])
    return float(np.max(np.abs(d))), float(np.sqrt(np.mean(d ** 2)))
