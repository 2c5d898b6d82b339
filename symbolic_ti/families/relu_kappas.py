r"""Exact kernel values of infinitely wide bias-free ReLU networks: the arc-cosine recursions of the NNGP and
the NTK at ``x . x' = 1/2`` and ``0`` (``kappa_o``, ``kappa_d``), and :class:`ReluKernelConstant`, one named
constant for a nested closed form (depth >= 2). The network, its input ``x`` and its parameterization are those
of :mod:`symbolic_ti.families.relu`, whose families ``relu-nngp`` and ``relu-ntk`` use these values.

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

from typing import Any, TypeVar

import mpmath
import sympy as sp

from ..errors import ParameterError

__all__ = [
    "arccos_kernel",
    "arccos_derivative",
    "relu_nngp_kappas",
    "relu_ntk_kappas",
    "relu_conjunctivity",
    "relu_explicit",
    "ReluKernelConstant",
]

_HALF = sp.Rational(1, 2)
_T = TypeVar("_T")
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


def relu_explicit(expr: _T) -> _T:
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
