r"""Kernels of infinitely wide fully connected ReLU networks: NNGP and NTK (families ``relu-nngp``, ``relu-ntk``).

The network
-----------
A trial ``(i, j)`` of a task with ``n`` items is fed to the network as the unit vector

.. math::
    x_{ij} = (e_i \,;\, e_j) / \sqrt{2} \in \mathbb{R}^{2n},
    \qquad x_{ij} \cdot x_{kl} = ([i=k] + [j=l]) / 2 \in \{0, \tfrac12, 1\},

so any kernel that depends on inputs only through ``x . x'`` (and the unit norms) is exchangeable
(docs/conventions.md): ``kappa_o`` is its value at ``x . x' = 1/2``, ``kappa_d`` at ``x . x' = 0``.

``depth = L`` is the **number of hidden layers**: the network has ``L + 1`` weight matrices, no biases and a
scalar output, in the NTK parameterization of Arora et al. (2019, Sec. 3, eq. (3)):

.. math::
    g^{(0)} = x,\quad f^{(h)} = W^{(h)} g^{(h-1)},\quad g^{(h)} = \sqrt{2/d_h}\,\mathrm{relu}(f^{(h)})
    \ (h = 1..L),\quad f(x) = W^{(L+1)} g^{(L)},

every weight ``N(0, 1)`` (``c_sigma = 2`` for ReLU, the He normalization). ``depth = 1`` is a two-layer
network ``f(x) = sqrt(2/m) w . relu(W x)``. :mod:`symbolic_ti.behaviour.networks` trains exactly this network.

The recursions of the NNGP and the NTK, their depth-1 closed forms and the named constants used from depth 2 on
are in :mod:`symbolic_ti.families.relu_kappas` (every public name of it is importable from here too).

Exact solves: both families are exchangeable and their :meth:`~ReluNNGP.exchangeable_form` is
``(1, alpha, kappa_d)``, so the solver's graph-Laplacian path applies. Its ranks are rational functions of the
effective ridge ``gamma``, which here is an exact real constant; see docs/families.md ("ReLU network kernels")
for timings.

References
----------
* Cho, Saul, "Kernel methods for deep learning", NeurIPS 2009, eq. (6)-(7) (arc-cosine kernels ``k_0``, ``k_1``,
  and their iteration).
* Lee, Bahri, Novak, Schoenholz, Pennington, Sohl-Dickstein, "Deep neural networks as Gaussian processes",
  ICLR 2018 (NNGP recursion).
* Jacot, Gabriel, Hongler, "Neural tangent kernel: convergence and generalization in neural networks",
  NeurIPS 2018, Theorem 1 (NTK recursion).
* Arora, Du, Hu, Li, Salakhutdinov, Wang, "On exact computation with an infinitely wide neural net",
  NeurIPS 2019, Sec. 3, eq. (3)-(8) (parameterization and the ReLU closed forms used here).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from .base import Parameter, Trial
from .layered import LayeredFamily
from .relu_kappas import (_HALF, ReluKernelConstant, arccos_derivative, arccos_kernel, relu_conjunctivity,
                          relu_explicit, relu_ntk_kappas, relu_nngp_kappas)

__all__ = [
    "DEPTH",
    "ReluNNGP",
    "ReluNTK",
    "arccos_kernel",
    "arccos_derivative",
    "relu_nngp_kappas",
    "relu_ntk_kappas",
    "relu_conjunctivity",
    "relu_explicit",
    "ReluKernelConstant",
]

#: Symbol of the depth parameter. It is never left symbolic (the recursion needs a number); the Symbol only
#: names the parameter in the parameter table.
_DEPTH_SYMBOL = sp.Symbol("depth", integer=True, positive=True)

DEPTH = Parameter("depth", _DEPTH_SYMBOL, domain=sp.Interval(1, sp.oo),
                  description="number of hidden ReLU layers L (L + 1 weight matrices, no biases); default 1",
                  integer=True)


class _ReluFamily(LayeredFamily):
    """Shared code of :class:`ReluNNGP` and :class:`ReluNTK` (the network: module docstring)."""

    parameters = (DEPTH,)
    exchangeable = True
    swap_invariant = True

    def kappas(self) -> tuple[sp.Expr, sp.Expr]:
        """``(kappa_o, kappa_d)`` exactly (cached)."""
        cached = getattr(self, "_kappas", None)
        if cached is None:
            cached = self._kappas_of(self.depth)
            self._kappas = cached
        return cached

    def alpha_value(self) -> sp.Expr:
        """The implied conjunctivity factor ``alpha``, exactly (:func:`relu_conjunctivity`)."""
        cached = getattr(self, "_alpha", None)
        if cached is None:
            cached = relu_conjunctivity(*self.kappas())
            self._alpha = cached
        return cached

    def solver_kappas(self) -> tuple[sp.Expr, sp.Expr]:
        """``(kappa_o, kappa_d)`` as the exact solver uses them: the closed forms at depth 1, and from depth 2
        on the named constants :class:`ReluKernelConstant` (equal to the closed forms, see its docstring)."""
        if self.depth == 1:
            return self.kappas()
        kind = 1 if isinstance(self, ReluNTK) else 0
        return (ReluKernelConstant(kind, self.depth, _HALF), ReluKernelConstant(kind, self.depth, 0))

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(1, alpha, kappa_d)`` (see :meth:`Family.exchangeable_form`): the kernel is exchangeable itself.

        At depth 1 in closed form; from depth 2 on in the named constants of :meth:`solver_kappas`
        (``alpha = (1 + kappa_d - 2 kappa_o) / (1 - kappa_d)``); :func:`relu_explicit` turns any result into
        the nested closed forms.
        """
        if self.depth == 1:
            return sp.Integer(1), self.alpha_value(), self.kappas()[1]
        ko, kd = self.solver_kappas()
        return sp.Integer(1), (1 + kd - 2 * ko) / (1 - kd), kd

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        # Independent of the exact path: the recursion on the angle theta = acos(c), with J_1 = sin + (pi - t) cos
        # (Cho & Saul 2009, eq. (6)), in float or mpmath arithmetic following the type of p["depth"].
        depth = p["depth"]
        use_mp = isinstance(depth, (mpmath.mpf, mpmath.mpc))
        one = mpmath.mpf(1) if use_mp else 1.0
        dot = one * (int(a[0] == b[0]) + int(a[1] == b[1])) / 2
        value = self._numeric_recursion(int(round(float(depth))), dot, use_mp)
        return value

    @staticmethod
    def _kappas_of(depth: int) -> tuple[sp.Expr, sp.Expr]:  # pragma: no cover - abstract
        raise NotImplementedError

    @staticmethod
    def _numeric_recursion(depth: int, dot: Any, use_mp: bool) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError


def _angle_step(c: Any, use_mp: bool) -> tuple[Any, Any]:
    """``(k_1(c), k_0(c))`` in float or mpmath, through the angle (independent of the sympy forms)."""
    if use_mp:
        pi, acos, sin, cos = mpmath.mp.pi, mpmath.acos, mpmath.sin, mpmath.cos
        c = min(max(c, -mpmath.mpf(1)), mpmath.mpf(1))
    else:
        pi, acos, sin, cos = math.pi, math.acos, math.sin, math.cos
        c = min(max(c, -1.0), 1.0)
    t = acos(c)
    return (sin(t) + (pi - t) * cos(t)) / pi, (pi - t) / pi


class ReluNNGP(_ReluFamily):
    r"""NNGP kernel of a bias-free fully connected ReLU network with ``depth`` hidden layers (He scaling).

    .. math::
        K = c_L,\quad c_0 = x \cdot x' = ([i=k] + [j=l]) / 2,\quad
        c_h = \frac{\sqrt{1 - c_{h-1}^2} + (\pi - \arccos c_{h-1}) c_{h-1}}{\pi},

    the iterated degree-1 arc-cosine kernel on the input ``(e_i ; e_j)/sqrt(2)``, unit diagonal; exchangeable
    with ``kappa_o = c_L(1/2)``, ``kappa_d = c_L(0)`` (the network: :mod:`symbolic_ti.families.relu`; the
    recursion: :mod:`symbolic_ti.families.relu_kappas`).

    Parameters
    ----------
    depth : integer >= 1, default 1
        Number of hidden layers. Cannot be symbolic.

    Raises
    ------
    ParameterError
        If ``depth`` is not an integer >= 1 or is asked symbolic.

    References
    ----------
    Cho & Saul, NeurIPS 2009, eq. (6); Lee et al., ICLR 2018; Arora et al., NeurIPS 2019, eq. (4).

    Examples
    --------
    >>> ReluNNGP(depth=1).kappas()
    (sqrt(3)/(2*pi) + 1/3, 1/pi)
    """

    name = "relu-nngp"

    @staticmethod
    def _kappas_of(depth: int) -> tuple[sp.Expr, sp.Expr]:
        return relu_nngp_kappas(depth)

    @staticmethod
    def _numeric_recursion(depth: int, dot: Any, use_mp: bool) -> Any:
        c = dot
        for _ in range(depth):
            c, _unused = _angle_step(c, use_mp)
        return c


class ReluNTK(_ReluFamily):
    r"""Neural tangent kernel of a bias-free fully connected ReLU network with ``depth`` hidden layers,
    normalized to unit diagonal.

    .. math::
        K = \Theta_L / (L + 1),\quad \Theta_0 = c_0 = x\cdot x',\quad
        \Theta_h = \Theta_{h-1} \frac{\pi - \arccos c_{h-1}}{\pi} + c_h,

    with ``c_h`` the NNGP correlations (:class:`ReluNNGP`); every weight matrix, the readout included, is
    trained. Exchangeable with ``kappa_o = K(1/2)``, ``kappa_d = K(0)`` (the network:
    :mod:`symbolic_ti.families.relu`; the recursion: :mod:`symbolic_ti.families.relu_kappas`).

    Parameters
    ----------
    depth : integer >= 1, default 1
        Number of hidden layers. Cannot be symbolic.

    Raises
    ------
    ParameterError
        If ``depth`` is not an integer >= 1 or is asked symbolic.

    References
    ----------
    Jacot, Gabriel, Hongler, NeurIPS 2018, Theorem 1; Arora et al., NeurIPS 2019, eq. (7)-(8).

    Examples
    --------
    >>> ReluNTK(depth=1).kappas()
    (sqrt(3)/(4*pi) + 1/3, 1/(2*pi))
    """

    name = "relu-ntk"

    @staticmethod
    def _kappas_of(depth: int) -> tuple[sp.Expr, sp.Expr]:
        return relu_ntk_kappas(depth)

    @staticmethod
    def _numeric_recursion(depth: int, dot: Any, use_mp: bool) -> Any:
        c, theta = dot, dot
        for _ in range(depth):
            c, deriv = _angle_step(c, use_mp)
            theta = theta * deriv + c
        return theta / (depth + 1)
