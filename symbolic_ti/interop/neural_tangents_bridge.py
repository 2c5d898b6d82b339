"""neural-tangents bridge: the ridge as ``diag_reg``, and network families as ``neural_tangents.stax`` networks.

Conventions of neural-tangents read from its source (google/neural-tangents, ``neural_tangents/_src``):

* ``stax/requirements.py::_cov``: the input covariance is ``x . x' / d`` with ``d`` the input dimension, so the
  first ``Dense`` layer divides by ``d``; with symbolic_ti's trial inputs ``x = (e_i; e_j)/sqrt(2)``
  (``d = 2n``, :func:`trial_inputs`) the first layer needs ``W_std = sqrt(2n)`` to see ``x . x'``.
* ``stax/linear.py::Dense`` (``parameterization="ntk"``, the default): ``nngp <- W_std^2 nngp + b_std^2`` and
  ``ntk <- nngp + W_std^2 ntk`` (with the new ``nngp``); the input ``ntk`` is 0; ``b_std=None`` is no bias.
* ``stax/elementwise.py``: ``Relu`` is ``ABRelu(0, 1)``, whose map of a unit-variance correlation ``c`` is
  ``k_1(c) / 2`` with derivative factor ``k_0(c) / 2``; ``ABRelu(a, b) = a min(x, 0) + b max(x, 0)`` has
  ``nngp = (a - b)^2/(2 pi) sqrt(1 - c^2) + dot c`` and ``dot = (a^2 + b^2)/2 - (a - b)^2 theta/(2 pi)``.
* The NTK is **not** normalized: its diagonal is the number of trained weight matrices for these networks,
  ``depth + 1``, while symbolic_ti's ``relu-ntk`` and ``pnas-ntk`` divide by ``depth + 1`` (unit diagonal).
* ``predict.py::_add_diagonal_regularizer``: ``K + diag_reg * trace(K)/N * I``, or ``K + diag_reg * I`` with
  ``diag_reg_absolute_scale=True``.
* ``predict.py::gradient_descent_mse`` divides the rates by ``N = y_train.size``: with the ``stax`` kernel
  (``scale`` times the family's), time ``t`` of :mod:`symbolic_ti.dynamics` is its time ``N t / scale``
  (``N t`` only for ``scale = 1``). Its ``fx_train`` tends to ``y_train`` whatever ``diag_reg``; the training
  trials' ridge-flow predictions come through ``k_test_train`` (docs/interop.md, checked with 0.6.5).
* ``predict.py::gp_inference(k_train_train, y_train, diag_reg=...)`` returns ``predict_fn(get, k_test_train,
  k_test_test)``.
* Neither takes weights of the training rows. A task with counts is given as repeated rows (whole-number counts
  only: :meth:`symbolic_ti.interop.PrecomputedGram.repeated`), whose loss is the weighted one; ``N`` is then the
  number of repeated rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from ..arguments import RidgeLike
from ..errors import FamilyError, ParameterError
from ..families.activations import ActivationNNGP, ActivationNTK, activation_kappas
from ..families.base import Family
from ..task import Task
from .sklearn_bridge import numeric_ridge
from ..formatting import rounded

__all__ = ["StaxNetwork", "diag_reg", "stax_network", "trial_inputs"]


def trial_inputs(n: int) -> np.ndarray:
    """The network inputs ``x_ij = (e_i ; e_j) / sqrt(2)`` of every ordered trial, in the order of
    ``Task(n).trials`` (docs/conventions.md; :mod:`symbolic_ti.families.relu`).

    Parameters
    ----------
    n : int >= 3

    Returns
    -------
    numpy.ndarray of shape ``(n (n - 1), 2 n)``, unit rows
    """
    trials = Task(n).trials
    x = np.zeros((len(trials), 2 * n))
    for r, (i, j) in enumerate(trials):
        x[r, i - 1] = x[r, n + j - 1] = 1 / math.sqrt(2)
    return x


@dataclass(frozen=True)
class StaxNetwork:
    """A ``neural_tangents.stax`` network whose infinite-width kernel is ``scale`` times a family's kernel.

    Attributes
    ----------
    code : str
        Python that builds ``init_fn, apply_fn, kernel_fn`` (needs ``from neural_tangents import stax``).
    get : {"nngp", "ntk"}
        What to ask ``kernel_fn(x1, x2, get)`` for.
    scale : sympy number
        ``kernel_fn(x, x', get) = scale * K_family(x, x')`` on the trial inputs of :func:`trial_inputs`; so
        neural-tangents' gradient-flow time ``N t / scale`` is time ``t`` of :mod:`symbolic_ti.dynamics`.
    notes : tuple of str
        The normalization facts used.
    """

    code: str
    get: str
    scale: sp.Expr
    notes: tuple[str, ...] = field(default=())


def _layers(first_w: str, act: str, w: str, depth: int, width: int, bias: str = "") -> str:
    lines = [f"    stax.Dense({width}, W_std={first_w}{bias}),"]
    for _ in range(depth):
        lines.append(f"    {act}, stax.Dense({width if _ < depth - 1 else 1}, W_std={w}{bias}),")
    return "stax.serial(\n" + "\n".join(lines) + "\n)"


def stax_network(family: Family, n: int, width: int = 512) -> StaxNetwork:
    """The neural-tangents network matching a network family, for tasks with ``n`` items.

    Supported: ``relu-nngp``, ``relu-ntk``; ``pnas-hidden`` / ``pnas-ntk`` with ``p = 0`` (activation
    ``phi(u) = a u + b |u|``, ``a = sqrt(1 - slope/2)``, ``b = sqrt(slope/2)``, as ``stax.ABRelu(a - b, a + b)``);
    ``activation-nngp`` / ``activation-ntk`` with ``erf`` (``stax.Erf()``) or ``sign`` (``stax.Sign()``), whose
    ``scale`` is the unnormalized diagonal.

    Parameters
    ----------
    family : Family
        With every parameter bound.
    n : int >= 3
        Number of items (the input dimension is ``2 n``).
    width : int
        Width written into the code (the infinite-width ``kernel_fn`` ignores it).

    Returns
    -------
    StaxNetwork

    Raises
    ------
    FamilyError
        For a family without a stax counterpart here (or ``p != 0``).
    ParameterError
        For a free parameter.
    """
    if family.free_symbols:
        raise ParameterError(f"stax_network needs numbers; give values for "
                             f"{', '.join(p.name for p in family.free_parameters)}")
    depth = int(family.values.get("depth", 1))
    first = f"{math.sqrt(2 * n)!r}"  # sqrt(2n): neural-tangents divides the input covariance by d = 2n
    notes = [f"input x = (e_i; e_j)/sqrt(2), d = {2 * n}; the first Dense has W_std = sqrt({2 * n}) because "
             f"neural-tangents divides x . x' by d"]
    if family.name in ("relu-nngp", "relu-ntk"):
        code = _layers(first, "stax.Relu()", "2 ** 0.5", depth, width)
        notes.append("W_std = sqrt(2) after each Relu (He scaling): stax.Relu maps a unit correlation c to k_1(c)/2")
    elif family.name in ("pnas-hidden", "pnas-ntk"):
        s, p = family.values["slope"], family.values.get("p", 0)
        if p != 0:
            raise FamilyError(f"{family.describe()}: additive units (p = {p}) have no stax.serial counterpart here; "
                              f"only p = 0")
        a, b = sp.sqrt(1 - s / 2), sp.sqrt(s / 2)
        act = f"stax.ABRelu({float(a - b)!r}, {float(a + b)!r})"
        code = _layers(first, act, "1.0", depth, width)
        notes.append(f"phi(u) = a u + b |u| with a = {a}, b = {b} (a^2 + b^2 = 1, slope = 2 b^2): "
                     f"ABRelu(a - b, a + b) keeps unit variance and maps c to k(c)")
    elif isinstance(family, (ActivationNNGP, ActivationNTK)) and family.activation in ("erf", "sign"):
        w, b, name = family.values["W_std"], family.values["b_std"], family.activation
        kind = "ntk" if family.name.endswith("ntk") else "nngp"
        diag = activation_kappas(name, depth, w ** 2, b ** 2, kind)[2]
        act = "stax.Erf()" if name == "erf" else "stax.Sign()"
        code = _layers(repr(float(w * sp.sqrt(2 * n))), act, repr(float(w)), depth, width,
                       f", b_std={float(b)!r}" if b != 0 else "")
        notes.append(f"every Dense has W_std = {w} (the first times sqrt({2 * n})) and b_std = {b}; the kernels are "
                     f"not normalized: kernel_fn = {diag} (= {rounded(float(diag), '.6g')}) times the unit-diagonal family kernel")
        return StaxNetwork(code=f"init_fn, apply_fn, kernel_fn = {code}", get=kind, scale=diag, notes=tuple(notes))
    else:
        raise FamilyError(f"no neural_tangents.stax counterpart for {family.describe()}; supported: relu-nngp, "
                          f"relu-ntk, pnas-hidden, pnas-ntk (p = 0), activation-nngp/-ntk with erf or sign")
    ntk = family.name.endswith("ntk")
    if ntk:
        notes.append(f"neural-tangents' NTK is not normalized: its diagonal is depth + 1 = {depth + 1}, "
                     f"{depth + 1} times the family's unit-diagonal kernel")
    return StaxNetwork(code=f"init_fn, apply_fn, kernel_fn = {code}", get="ntk" if ntk else "nngp",
                       scale=sp.Integer(depth + 1 if ntk else 1), notes=tuple(notes))


def diag_reg(ridge: RidgeLike, family: Family | None = None, task: Task | None = None, *, absolute: bool = False,
             stax_kernel: bool = False) -> float:
    """neural-tangents' ``diag_reg`` for a symbolic_ti ridge ``lambda`` (``predict.gp_inference``,
    ``predict.gradient_descent_mse``).

    Relative (the default, ``diag_reg_absolute_scale=False``): neural-tangents adds ``diag_reg * trace(K)/N``,
    so ``diag_reg = lambda / mean(diag K_family)`` on the training trials, whatever kernel scale is used; that
    is ``lambda`` itself for every unit-diagonal family. Absolute (``diag_reg_absolute_scale=True``):
    ``lambda`` for the family's own kernel, ``scale * lambda`` with ``stax_kernel=True`` (the kernel of
    :func:`stax_network`, ``scale`` times the family's).

    Parameters
    ----------
    ridge : number >= 0 or ``"ridgeless"`` (0)
    family, task : optional
        Needed when the family's diagonal is not 1 (e.g. ``precomputed``) or with ``stax_kernel``.
    absolute : bool
        For ``diag_reg_absolute_scale=True``.
    stax_kernel : bool
        Whether the kernel given to neural-tangents is ``kernel_fn`` of :func:`stax_network`.

    Returns
    -------
    float

    Raises
    ------
    ParameterError
        For a symbolic ridge, a family / task missing where needed, or a task with a count that is not a whole
        number (neural-tangents cannot weight rows; whole-number counts are repeated rows).

    Examples
    --------
    >>> diag_reg("1/10")
    0.1
    """
    lam = numeric_ridge(ridge, "neural-tangents")
    if task is not None:
        for c in task.comparisons:
            if not c.count.is_integer:
                raise ParameterError(f"diag_reg: neural-tangents cannot weight training rows and comparison "
                                     f"{c.winner}>{c.loser} has count {c.count}; repeated rows need whole-number counts")
    if lam == 0:
        return 0.0
    if family is None:
        if stax_kernel:
            raise ParameterError("diag_reg: stax_kernel=True needs the family and the task")
        return float(lam)
    if task is None:
        raise ParameterError("diag_reg: give the task with the family (its training trials' diagonal)")
    if absolute:
        scale = stax_network(family, task.n).scale if stax_kernel else sp.Integer(1)
        return float(lam * scale)
    diag = [family.kernel(t, t) if not family.numeric_only else
            family.kernel_numeric(t, t, family.numeric_point({}, float)) for t, _ in task.training]
    counts = [task.counts[t] for t, _ in task.training]  # the mean over the repeated rows neural-tangents sees
    return float(lam / (sum(c * sp.sympify(d) for c, d in zip(counts, diag, strict=True)) / sum(counts)))
