r"""The PNAS nonlinearity family: Lippl et al.'s normalized kernel map of a network with a tunable nonlinearity
(families ``pnas-hidden`` and ``pnas-ntk``).

The map
-------
Lippl, Kay, Jensen, Ferrera, Abbott (PNAS 2024), code ``R/coeffs.R`` (functions ``k``, ``k_prime``,
``get_kappas``, ``get_kappas_ntk``), iterate the normalized kernel map

.. math::
    k(x) = x + s\,\frac{\sqrt{1 - x^2} - x \arccos x}{\pi},\qquad
    k'(x) = 1 - \frac{s}{\pi} \arccos x,

with the nonlinearity parameter ``s`` (PNAS ``rho``, here called ``slope`` because the geometric family's
``rho`` is another parameter) in ``[0, 2]``. ``k = (1 - s) x + s k_1(x)`` with ``k_1`` the degree-1 arc-cosine
kernel (:func:`symbolic_ti.families.relu_kappas.arccos_kernel`), so ``s = 0`` is a linear network and ``s = 1``
the ReLU network of :mod:`symbolic_ti.families.relu`. For every ``s`` in ``[0, 2]`` it is the normalized NNGP map
of the activation ``phi(u) = a u + b |u|`` with ``s = 2 b^2 / (a^2 + b^2)`` (derived in docs/families.md, "PNAS
nonlinearity family"): ``s = 2`` is ``|u|``, and a leaky ReLU with negative slope ``c`` has
``s = (1 - c)^2 / (1 + c^2)``. ``k'`` is the matching derivative map ``E[phi'(u) phi'(v)] / E[phi'(u)^2]``.

The recursion (``get_kappas``; ``p`` is PNAS ``lambd``, the proportion of additive units)
-----------------------------------------------------------------------------------------
Start at the input, ``(kappa_o, kappa_d) = (1/2, 0)``; at each of the ``depth`` layers, in this order,

.. math::
    \kappa_d \leftarrow k(\kappa_d),\qquad
    \kappa_o \leftarrow (1 - p)\, k(\kappa_o) + p\, (1 + \kappa_d) / 2 .

The NTK (``get_kappas_ntk``) runs over the hidden-layer values ``(o_h, d_h)`` (``h = 0..depth``) with the running
average ``T_h = (c_h + h\, T_{h-1}\, k'(c_{h-1})) / (h + 1)`` for ``c = d`` and ``c = o``, the ``kappa_o`` part
then mixed as ``T^o_h <- (1 - p) T^o_h + p (1 + T^d_h) / 2``: the layer sum divided by ``depth + 1``, unit
diagonal. At ``p = 0`` this is the unnormalized NTK ``Theta_h = c_h + Theta_{h-1} k'(c_{h-1})`` over ``h + 1``,
the recursion of :class:`~symbolic_ti.families.relu.ReluNTK`.

The conjunctivity factor is ``alpha = (1 + kappa_d - 2 kappa_o) / (1 - kappa_d)`` (PNAS ``get_alphas``).

Exactness: every value is an exact sympy expression, for exact or symbolic ``slope`` and ``p``. The solver's
graph-Laplacian path (both families are exchangeable) gets, from depth 2 on with exact ``slope`` and ``p``, the
named constants :class:`~symbolic_ti.families.kernel_values.NetworkKernelValue` (the device of
:class:`~symbolic_ti.families.relu_kappas.ReluKernelConstant`, of which it is a subclass, so that certified
root finding evaluates it in ball arithmetic).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from ..errors import ParameterError
from .base import Parameter, Trial
from .layered import LayeredFamily
from .kernel_values import kernel_value, register_kernel_values
from .relu_kappas import ReluKernelConstant, relu_conjunctivity

__all__ = ["SLOPE", "ADDITIVE", "PnasHidden", "PnasNTK", "pnas_map", "pnas_map_derivative",
           "pnas_kappas", "pnas_conjunctivity"]

_HALF = sp.Rational(1, 2)
_SLOPE_SYMBOL = sp.Symbol("slope", nonnegative=True)
_P_SYMBOL = sp.Symbol("p", nonnegative=True)
_DEPTH_SYMBOL = sp.Symbol("depth", integer=True, positive=True)

SLOPE = Parameter("slope", _SLOPE_SYMBOL, domain=sp.Interval(0, 2),
                  description="nonlinearity (PNAS rho): 0 linear, 1 ReLU, 2 absolute value")
ADDITIVE = Parameter("p", _P_SYMBOL, domain=sp.Interval(0, 1),
                     description="proportion of additive units (PNAS lambd); default 0")
_DEPTH = Parameter("depth", _DEPTH_SYMBOL, domain=sp.Interval(1, sp.oo),
                   description="number of layers of the map (PNAS l); default 1", integer=True)
_KINDS = ("hidden", "ntk")


def pnas_map(x: sp.Expr, slope: sp.Expr) -> sp.Expr:
    r"""``k(x) = x + slope (sqrt(1 - x^2) - x acos x) / pi`` (Lippl et al., PNAS 2024, ``R/coeffs.R``, ``k``).

    Parameters
    ----------
    x : sympy expression, a correlation in [-1, 1]
    slope : sympy expression in [0, 2] (PNAS ``rho``), or a Symbol

    Returns
    -------
    sympy expression; ``k(1) = 1``, ``k(0) = slope / pi``, ``k(1/2) = 1/2 + slope (sqrt(3)/(2 pi) - 1/6)``.
    """
    x, s = sp.sympify(x), sp.sympify(slope)
    out = x + s * (sp.sqrt(1 - x ** 2) - x * sp.acos(x)) / sp.pi
    return sp.expand(out) if x.is_Rational else out


def pnas_map_derivative(x: sp.Expr, slope: sp.Expr) -> sp.Expr:
    """``k'(x) = 1 - (slope / pi) acos x`` (Lippl et al., PNAS 2024, ``R/coeffs.R``, ``k_prime``).

    Parameters
    ----------
    x : sympy expression in [-1, 1]
    slope : sympy expression in [0, 2], or a Symbol

    Returns
    -------
    sympy expression
    """
    x, s = sp.sympify(x), sp.sympify(slope)
    out = 1 - s * sp.acos(x) / sp.pi
    return sp.expand(out) if x.is_Rational else out


def _check(slope: Any, depth: Any, p: Any, kind: str) -> tuple[sp.Expr, int, sp.Expr]:
    if isinstance(depth, bool) or not isinstance(depth, (int, sp.Integer)) or int(depth) < 1:
        raise ParameterError(f"depth must be an integer >= 1 (number of layers), got {depth!r}")
    if kind not in _KINDS:
        raise ParameterError(f"kind must be 'hidden' or 'ntk', got {kind!r}")
    s, q = SLOPE.check(sp.sympify(slope)), ADDITIVE.check(sp.sympify(p))
    return s, int(depth), q


def _hidden_layers(slope: sp.Expr, depth: int, p: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """``[(o_h, d_h) for h = 0..depth]`` of ``get_kappas`` (kappa_d first, then kappa_o with the new kappa_d)."""
    o, d = _HALF, sp.Integer(0)
    out = [(o, d)]
    for _ in range(depth):
        d = pnas_map(d, slope)
        o = (1 - p) * pnas_map(o, slope) + p * (1 + d) / 2
        if o.is_Add and not o.has(sp.acos):
            o = sp.expand(o)
        out.append((o, d))
    return out


def _ntk_layers(slope: sp.Expr, depth: int, p: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """``[(T^o_h, T^d_h) for h = 0..depth]`` of ``get_kappas_ntk``."""
    hidden = _hidden_layers(slope, depth, p)
    to, td = hidden[0]
    out = [(to, td)]
    for h in range(1, depth + 1):
        (o_prev, d_prev), (o, d) = hidden[h - 1], hidden[h]
        td = (d + h * td * pnas_map_derivative(d_prev, slope)) / (h + 1)
        to = (o + h * to * pnas_map_derivative(o_prev, slope)) / (h + 1)
        to = (1 - p) * to + p * (1 + td) / 2
        if depth == 1:
            to, td = sp.expand(to), sp.expand(td)
        out.append((to, td))
    return out


def pnas_kappas(slope: Any, depth: int = 1, p: Any = 0, kind: str = "hidden") -> tuple[sp.Expr, sp.Expr]:
    """``(kappa_o, kappa_d)`` of the PNAS nonlinearity map after ``depth`` layers, exactly.

    Parameters
    ----------
    slope : number in [0, 2] (PNAS ``rho``) or a sympy Symbol
    depth : int >= 1
        Number of layers (PNAS ``l``).
    p : number in [0, 1] (PNAS ``lambd``) or a Symbol, default 0
        Proportion of additive units.
    kind : {"hidden", "ntk"}
        The hidden-layer kernel (``get_kappas``) or the NTK (``get_kappas_ntk``).

    Returns
    -------
    (kappa_o, kappa_d) : sympy expressions (in pi, sqrt, acos and the symbolic parameters)

    Raises
    ------
    ParameterError
        For a depth that is not an integer >= 1, a slope outside [0, 2], p outside [0, 1] or another kind.

    Examples
    --------
    >>> pnas_kappas(1, 1)
    (sqrt(3)/(2*pi) + 1/3, 1/pi)
    """
    s, L, q = _check(slope, depth, p, kind)
    return (_ntk_layers if kind == "ntk" else _hidden_layers)(s, L, q)[-1]


def pnas_conjunctivity(slope: Any, depth: int = 1, p: Any = 0, kind: str = "hidden") -> sp.Expr:
    """Conjunctivity factor ``alpha(slope, depth, p) = (1 + kappa_d - 2 kappa_o) / (1 - kappa_d)`` (PNAS
    ``get_alphas``), exactly; arguments as :func:`pnas_kappas`.

    Examples
    --------
    >>> pnas_conjunctivity(0, 3)
    0
    """
    return relu_conjunctivity(*pnas_kappas(slope, depth, p, kind))


def _explicit(kind: int, depth: int, dot: sp.Expr, slope: sp.Expr, p: sp.Expr) -> sp.Expr:
    pair = pnas_kappas(slope, depth, p, _KINDS[kind])
    return pair[0] if dot == _HALF else pair[1]


register_kernel_values("pnas", _explicit)


class _PnasFamily(LayeredFamily):
    """Shared code of :class:`PnasHidden` and :class:`PnasNTK` (the map: module docstring)."""

    parameters = (SLOPE, ADDITIVE, _DEPTH)
    _defaults = {"p": 0}
    exchangeable = True
    swap_invariant = True
    _kind: str = "hidden"

    def kappas(self) -> tuple[sp.Expr, sp.Expr]:
        """``(kappa_o, kappa_d)`` exactly, in the free parameters (cached)."""
        cached = getattr(self, "_kappas", None)
        if cached is None:
            v = self.symbol_values()
            cached = pnas_kappas(v["slope"], self.depth, v["p"], self._kind)
            self._kappas = cached
        return cached

    def alpha_value(self) -> sp.Expr:
        """The conjunctivity factor ``alpha(slope, depth, p)``, exactly."""
        return relu_conjunctivity(*self.kappas())

    def solver_kappas(self) -> tuple[sp.Expr, sp.Expr]:
        """``(kappa_o, kappa_d)`` as the solver uses them: closed forms at depth 1 or with a symbolic parameter,
        else the named constants :class:`~symbolic_ti.families.kernel_values.NetworkKernelValue` (equal to the
        closed forms)."""
        v = self.symbol_values()
        if self.depth == 1 or v["slope"].free_symbols or v["p"].free_symbols or v["slope"] == 0:
            return self.kappas()
        kind = _KINDS.index(self._kind)
        if v["slope"] == 1 and v["p"] == 0:  # the ReLU families' own constants (same values)
            return ReluKernelConstant(kind, self.depth, _HALF), ReluKernelConstant(kind, self.depth, 0)
        return tuple(kernel_value("pnas", kind, self.depth, dot, v["slope"], v["p"])  # type: ignore[return-value]
                     for dot in (_HALF, 0))

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(1, alpha, kappa_d)`` (see :meth:`Family.exchangeable_form`) in the values of :meth:`solver_kappas`."""
        ko, kd = self.solver_kappas()
        if self.depth == 1 or not isinstance(kd, ReluKernelConstant):
            return sp.Integer(1), self.alpha_value(), kd
        return sp.Integer(1), (1 + kd - 2 * ko) / (1 - kd), kd

    def kernel(self, a: Trial, b: Trial) -> sp.Expr:
        """Exact ``K(a, b)``: 1, ``kappa_o`` or ``kappa_d`` by the number of shared positions, as the compact
        closed forms of :meth:`kappas` (not expanded: expanding nested forms only makes them longer)."""
        return self._kernel_expr(a, b, {})

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        # Independent of the sympy path: the same recursion in float or mpmath arithmetic.
        use_mp = any(isinstance(v, mpmath.mpf) for v in p.values())
        acos, sqrt, pi = (mpmath.acos, mpmath.sqrt, mpmath.mp.pi) if use_mp else (math.acos, math.sqrt, math.pi)
        s, q, depth = p["slope"], p["p"], int(round(float(p["depth"])))
        one = mpmath.mpf(1) if use_mp else 1.0

        def k(x: Any) -> Any:
            x = min(max(x, -one), one)
            return x + s * (sqrt(1 - x * x) - x * acos(x)) / pi

        def dk(x: Any) -> Any:
            return 1 - s * acos(min(max(x, -one), one)) / pi

        o, d, to, td = one / 2, 0 * one, one / 2, 0 * one
        for h in range(1, depth + 1):
            o_prev, d_prev = o, d
            d = k(d)
            o = (1 - q) * k(o) + q * (1 + d) / 2
            td = (d + h * td * dk(d_prev)) / (h + 1)
            to = (1 - q) * (o + h * to * dk(o_prev)) / (h + 1) + q * (1 + td) / 2
        shared = int(a[0] == b[0]) + int(a[1] == b[1])
        ko, kd = (to, td) if self._kind == "ntk" else (o, d)
        return one if shared == 2 else (ko if shared == 1 else kd)


class PnasHidden(_PnasFamily):
    r"""Hidden-layer kernel of the PNAS nonlinearity family (Lippl et al., PNAS 2024, ``get_kappas``).

    Exchangeable with ``(kappa_o, kappa_d)`` from ``depth`` layers of the map
    ``k(x) = x + slope (sqrt(1 - x^2) - x acos x)/pi`` started at ``(1/2, 0)``, with a proportion ``p`` of
    additive units (:mod:`symbolic_ti.families.pnas`). ``slope = 1, p = 0`` is
    :class:`~symbolic_ti.families.relu.ReluNNGP`.

    Parameters
    ----------
    slope : number in [0, 2], optional (PNAS ``rho``; symbolic if not given)
    p : number in [0, 1], default 0 (PNAS ``lambd``)
    depth : integer >= 1, default 1 (PNAS ``l``); cannot be symbolic

    Raises
    ------
    ParameterError
        For a value outside its domain or a symbolic depth.

    Examples
    --------
    >>> PnasHidden(slope=1).kappas()
    (sqrt(3)/(2*pi) + 1/3, 1/pi)
    """

    name = "pnas-hidden"
    _kind = "hidden"


class PnasNTK(_PnasFamily):
    r"""Neural tangent kernel of the PNAS nonlinearity family (Lippl et al., PNAS 2024, ``get_kappas_ntk``).

    Layer sums divided by ``depth + 1`` (unit diagonal), the additive proportion ``p`` mixed in at every layer
    (:mod:`symbolic_ti.families.pnas`). ``slope = 1, p = 0`` is :class:`~symbolic_ti.families.relu.ReluNTK`.

    Parameters
    ----------
    slope : number in [0, 2], optional (PNAS ``rho``; symbolic if not given)
    p : number in [0, 1], default 0 (PNAS ``lambd``)
    depth : integer >= 1, default 1 (PNAS ``l``); cannot be symbolic

    Raises
    ------
    ParameterError
        For a value outside its domain or a symbolic depth.

    Examples
    --------
    >>> PnasNTK(slope=1).kappas()
    (sqrt(3)/(4*pi) + 1/3, 1/(2*pi))
    """

    name = "pnas-ntk"
    _kind = "ntk"
