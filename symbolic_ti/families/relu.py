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

The recursions (correlations, since every ``||x|| = 1`` and the He factor keeps ``Sigma^(h)(x, x) = 1``)
------------------------------------------------------------------------------------------------------------
With ``c_0 = x . x'`` (Arora et al. 2019, eq. (4): ``Sigma^(0)(x, x') = x^T x'``),

.. math::
    c_{h} = \Sigma^{(h)}(x, x') = \frac{\sqrt{1 - c_{h-1}^2} + (\pi - \arccos c_{h-1})\, c_{h-1}}{\pi},
    \qquad
    \dot c_{h} = \dot\Sigma^{(h)}(x, x') = \frac{\pi - \arccos c_{h-1}}{\pi},

the degree-1 and degree-0 arc-cosine kernels of Cho & Saul (2009), eq. (6) with ``J_1(theta) = sin theta +
(pi - theta) cos theta``, ``J_0(theta) = pi - theta``, ``theta = arccos c``: ``k_n = J_n(theta) / pi``,
which equal ``2 E[relu(u) relu(v)]`` and ``2 E[1(u > 0) 1(v > 0)]`` for standard normal ``(u, v)`` with
correlation ``c`` (Arora et al. 2019, eq. (4) and the closed forms in their Sec. 3 / App. E).

* **NNGP** (``relu-nngp``): the output covariance at initialization, ``K = c_L`` (Lee et al. 2018;
  Arora et al. 2019, eq. (4) with ``h = L``). Unit diagonal by construction.
* **NTK** (``relu-ntk``): ``Theta_0 = c_0``, ``Theta_h = Theta_{h-1} dot c_h + c_h`` for ``h = 1..L``
  (Jacot et al. 2018, Theorem 1; Arora et al. 2019, eq. (7)-(8): ``Theta^(L) = sum_{h=1}^{L+1} Sigma^(h-1)
  prod_{h'=h}^{L+1} dot Sigma^(h')`` with ``dot Sigma^(L+1) = 1``). The gradient with respect to **every**
  one of the ``L + 1`` weight matrices is counted, the readout included; ``Theta_L(x, x) = L + 1``, and the
  family's kernel is ``K = Theta_L / (L + 1)``, with unit diagonal. The normalization only rescales the
  ridge; ridgeless predictions are those of the unnormalized NTK (and of gradient descent to convergence in
  the lazy regime from a zero initial function).

Depth 1 in closed form (derived here from the recursions; checked in tests/test_relu.py against Gaussian
quadrature and Monte Carlo):

* NNGP: ``kappa_d = 1/pi``, ``kappa_o = 1/3 + sqrt(3)/(2 pi)``, ``alpha = (pi + 3 - 3 sqrt(3)) / (3 (pi - 1))``
  (about 0.14716);
* NTK: ``kappa_d = 1/(2 pi)``, ``kappa_o = 1/3 + sqrt(3)/(4 pi)``,
  ``alpha = (2 pi + 3 - 3 sqrt(3)) / (3 (2 pi - 1))`` (about 0.25786).

Deeper networks nest ``acos`` and ``sqrt`` (e.g. depth-2 NNGP ``kappa_d = (sqrt(1 - 1/pi^2) + (pi -
acos(1/pi))/pi) / pi``); the values stay exact sympy expressions, never floats.

Exact solves: both families are exchangeable and their :meth:`~ReluNNGP.exchangeable_form` is
``(1, alpha, kappa_d)``, so the solver's graph-Laplacian path applies. Its ranks are rational functions of the
effective ridge ``gamma``, which here is an exact real constant; see :func:`relu_gamma` and docs/families.md
("ReLU network kernels") for timings.

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
from typing import Any, Mapping

import mpmath
import sympy as sp

from ..errors import ParameterError
from .base import Family, Parameter, Trial

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

DEPTH = Parameter("depth", _DEPTH_SYMBOL, sp.Integer(1), sp.oo, False, True,
                  "number of hidden ReLU layers L (L + 1 weight matrices, no biases); default 1",
                  integer=True)

_HALF = sp.Rational(1, 2)
_EVALF_CACHE: dict[tuple[tuple[sp.Expr, ...], int], sp.Float] = {}


def _check_depth(depth: Any) -> int:
    """``depth`` as an int >= 1.

    Raises
    ------
    ParameterError
        If ``depth`` is not an integer >= 1 (bool excluded).
    """
    if isinstance(depth, bool) or not isinstance(depth, (int, sp.Integer)) or int(depth) < 1:
        raise ParameterError(f"depth must be an integer >= 1 (number of hidden layers), got {depth!r}")
    return int(depth)


def arccos_kernel(c: sp.Expr) -> sp.Expr:
    r"""Normalized degree-1 arc-cosine kernel of a correlation ``c``, exactly.

    .. math:: k_1(c) = \frac{\sqrt{1 - c^2} + (\pi - \arccos c)\, c}{\pi} = 2\,E[\mathrm{relu}(u)\mathrm{relu}(v)]

    for standard normal ``u, v`` with correlation ``c`` (Cho & Saul 2009, eq. (6), ``J_1``).

    Parameters
    ----------
    c : sympy expression, a real number in [-1, 1]

    Returns
    -------
    sympy expression
        ``k_1(c)`` in [0, 1]; ``k_1(1) = 1``, ``k_1(0) = 1/pi``.
    """
    c = sp.sympify(c)
    if c.is_Rational:  # first layer: let the value collapse (acos(1/2) = pi/3 etc.) and expand
        return sp.expand((sp.sqrt(1 - c ** 2) + (sp.pi - sp.acos(c)) * c) / sp.pi)
    return (sp.sqrt(1 - c ** 2) + (sp.pi - sp.acos(c)) * c) / sp.pi


def arccos_derivative(c: sp.Expr) -> sp.Expr:
    r"""Normalized degree-0 arc-cosine kernel, ``k_0(c) = (pi - acos c) / pi = 2 E[1(u > 0) 1(v > 0)]``.

    This is ``dot Sigma`` of the NTK recursion (Cho & Saul 2009, eq. (6), ``J_0``; Arora et al. 2019, Sec. 3).

    Parameters
    ----------
    c : sympy expression, a real number in [-1, 1]

    Returns
    -------
    sympy expression in [0, 1]
    """
    c = sp.sympify(c)
    out = (sp.pi - sp.acos(c)) / sp.pi
    return sp.expand(out) if c.is_Rational else out


def _nngp(depth: int, c0: sp.Expr) -> sp.Expr:
    c = sp.sympify(c0)
    for _ in range(depth):
        c = arccos_kernel(c)
    return c


def _ntk(depth: int, c0: sp.Expr) -> sp.Expr:
    c = sp.sympify(c0)
    theta = c
    for _ in range(depth):
        theta = theta * arccos_derivative(c)
        c = arccos_kernel(c)
        theta = theta + c
    return sp.expand(theta / (depth + 1)) if depth == 1 else theta / (depth + 1)


def relu_nngp_kappas(depth: int) -> tuple[sp.Expr, sp.Expr]:
    """``(kappa_o, kappa_d)`` of the NNGP of a bias-free ReLU network with ``depth`` hidden layers, exactly.

    ``kappa_o = c_L(1/2)``, ``kappa_d = c_L(0)`` with the arc-cosine iteration of the module docstring
    (Cho & Saul 2009, eq. (6); Arora et al. 2019, eq. (4)).

    Parameters
    ----------
    depth : int >= 1
        Number of hidden layers.

    Returns
    -------
    (kappa_o, kappa_d) : pair of sympy expressions (in pi, sqrt, acos), with 0 < kappa_d < kappa_o < 1

    Raises
    ------
    ParameterError
        If ``depth`` is not an integer >= 1.

    Examples
    --------
    >>> relu_nngp_kappas(1)
    (sqrt(3)/(2*pi) + 1/3, 1/pi)
    """
    depth = _check_depth(depth)
    return _nngp(depth, _HALF), _nngp(depth, sp.Integer(0))


def relu_ntk_kappas(depth: int) -> tuple[sp.Expr, sp.Expr]:
    """``(kappa_o, kappa_d)`` of the NTK of a bias-free ReLU network with ``depth`` hidden layers, exactly.

    ``K = Theta_L / (L + 1)`` with ``Theta`` from the recursion of the module docstring (Jacot et al. 2018,
    Theorem 1; Arora et al. 2019, eq. (7)-(8)), at ``x . x' = 1/2`` and ``0``.

    Parameters
    ----------
    depth : int >= 1
        Number of hidden layers (the readout layer is the ``depth + 1``-th weight matrix, and is trained).

    Returns
    -------
    (kappa_o, kappa_d) : pair of sympy expressions (in pi, sqrt, acos), with 0 < kappa_d < kappa_o < 1

    Raises
    ------
    ParameterError
        If ``depth`` is not an integer >= 1.

    Examples
    --------
    >>> relu_ntk_kappas(1)
    (sqrt(3)/(4*pi) + 1/3, 1/(2*pi))
    """
    depth = _check_depth(depth)
    return _ntk(depth, _HALF), _ntk(depth, sp.Integer(0))


def relu_conjunctivity(kappa_o: sp.Expr, kappa_d: sp.Expr) -> sp.Expr:
    """Conjunctivity factor ``alpha = (1 + kappa_d - 2 kappa_o) / (1 - kappa_d)`` (Lippl et al., PNAS 2024).

    Canceled and factored when that is cheap (depth 1 gives e.g. ``(pi + 3 - 3 sqrt(3)) / (3 (pi - 1))``);
    nested forms are kept as they are, since expanding them only makes them longer.

    Parameters
    ----------
    kappa_o, kappa_d : sympy expressions with kappa_d < 1

    Returns
    -------
    sympy expression, exact
    """
    ko, kd = sp.sympify(kappa_o), sp.sympify(kappa_d)
    raw = (1 + kd - 2 * ko) / (1 - kd)
    if not (ko.has(sp.acos) or kd.has(sp.acos)):
        return sp.factor(sp.cancel(raw))
    return raw


class ReluKernelConstant(sp.Function):
    r"""The exact kernel value ``kappa`` of a ReLU family at depth >= 2, as one named constant.

    ``ReluKernelConstant(kind, depth, dot)`` with ``kind`` 0 (NNGP) or 1 (NTK), ``depth >= 2`` and ``dot`` in
    ``{0, 1/2}`` (``kappa_d``, ``kappa_o``) *is* the nested closed form of :func:`relu_nngp_kappas` /
    :func:`relu_ntk_kappas`: :meth:`explicit` (or ``.rewrite(sympy.acos)``) returns it, and numerical
    evaluation (``evalf``) evaluates that closed form, to any precision.

    Why a named constant: the solver's exact Laplacian path expands polynomials in the kernel constants. The
    depth-1 forms are polynomials in ``pi`` and ``sqrt(3)`` and expand in milliseconds; from depth 2 on the
    forms nest ``acos`` and ``sqrt`` (the expression tree triples per layer) and expanding them is exponential
    (derive on n = 9, 6>4, depth 2 had not finished after 6 minutes). Written in two named constants, every
    prediction is a canceled rational function of ``kappa_o, kappa_d`` (and the ridge) with integer
    coefficients, exact, and built in milliseconds; docs/families.md ("ReLU network kernels") has timings.
    """

    is_real = True
    is_positive = True
    is_finite = True
    _cache: dict = {}

    @classmethod
    def eval(cls, kind: sp.Expr, depth: sp.Expr, dot: sp.Expr) -> None:
        if kind not in (0, 1) or not (depth.is_Integer and depth >= 2) or dot not in (0, _HALF):
            raise ParameterError(f"ReluKernelConstant(kind, depth, dot) needs kind 0 or 1, an integer depth >= 2 "
                                 f"and dot 0 or 1/2, got ({kind}, {depth}, {dot})")
        return None

    def explicit(self) -> sp.Expr:
        """The nested closed form in ``pi``, ``sqrt`` and ``acos`` (exactly this constant)."""
        kind, depth, dot = self.args
        key = (int(kind), int(depth), dot)
        if key not in self._cache:
            self._cache[key] = (_ntk if kind == 1 else _nngp)(int(depth), dot)
        return self._cache[key]

    def _eval_rewrite_as_acos(self, *args: Any, **kwargs: Any) -> sp.Expr:
        return self.explicit()

    def _eval_evalf(self, prec: int) -> sp.Float:
        # sympy asks for numerical values often (term ordering, sign tests); each precision is computed once
        key = (self.args, prec)
        value = _EVALF_CACHE.get(key)
        if value is None:
            value = self.explicit().evalf(mpmath.libmp.prec_to_dps(prec) + 5)._eval_evalf(prec)
            _EVALF_CACHE[key] = value
        return value

    def _label(self) -> tuple[str, str, int]:
        kind, depth, dot = self.args
        return ("kappa_o" if dot == _HALF else "kappa_d"), ("ntk" if kind == 1 else "nngp"), int(depth)

    def _sympystr(self, printer: Any) -> str:
        which, kind, depth = self._label()
        return f"{which}_{kind}{depth}"

    def _latex(self, printer: Any, exp: Any = None) -> str:
        which, kind, depth = self._label()
        base = rf"\kappa_{{{which[-1]}}}^{{\mathrm{{{kind.upper()}}},{depth}}}"
        return base if exp is None else rf"\left({base}\right)^{{{exp}}}"


def relu_explicit(expr: Any) -> Any:
    """Replace every :class:`ReluKernelConstant` in ``expr`` by its nested closed form in pi, sqrt and acos.

    Parameters
    ----------
    expr : sympy expression (other objects are returned unchanged)

    Returns
    -------
    sympy expression without :class:`ReluKernelConstant`, exactly equal to ``expr``
    """
    if not isinstance(expr, sp.Basic):
        return expr
    return expr.xreplace({c: c.explicit() for c in expr.atoms(ReluKernelConstant)})


class _ReluFamily(Family):
    """Shared code of :class:`ReluNNGP` and :class:`ReluNTK` (module docstring)."""

    parameters = (DEPTH,)
    exchangeable = True
    swap_invariant = True

    def _complete(self, bound: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
        if "depth" in self._explicit_symbolic:
            raise ParameterError(f"{self.name}: depth cannot be symbolic; give an integer >= 1 "
                                 "(the number of hidden layers), e.g. depth=1")
        out = dict(bound)
        out.setdefault("depth", sp.Integer(1))
        return out

    @property
    def depth(self) -> int:
        """Number of hidden layers ``L``."""
        return int(self._values["depth"])

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

    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        shared = int(a[0] == b[0]) + int(a[1] == b[1])
        if shared == 2:
            return sp.Integer(1)
        ko, kd = self.kappas()
        return ko if shared == 1 else kd

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
    with ``kappa_o = c_L(1/2)``, ``kappa_d = c_L(0)`` (module docstring: :mod:`symbolic_ti.families.relu`).

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
    trained. Exchangeable with ``kappa_o = K(1/2)``, ``kappa_d = K(0)`` (module docstring:
    :mod:`symbolic_ti.families.relu`).

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
