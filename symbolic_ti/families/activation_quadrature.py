"""Kernels of an activation without closed form, by Gauss-Hermite quadrature in mpmath (numeric, labelled).

The recursion of :mod:`symbolic_ti.families.activations` needs ``V(q, c) = E[phi(u) phi(v)]`` and
``D(q, c) = E[phi'(u) phi'(v)]`` for centred Gaussians with variances ``q`` and covariance ``c``. With
``u = sqrt(q) z1``, ``v = (c / sqrt(q)) z1 + sqrt(q - c^2/q) z2`` and ``z1, z2`` standard normal, both are
two-dimensional Gaussian integrals, computed with the tensor Gauss-Hermite rule of ``N`` nodes
(nodes and weights at the working precision: Newton's method on ``H_N`` from numpy's float nodes; Golub & Welsch
1969 for the rule). The whole recursion runs twice, with ``N`` and ``3N/2`` nodes; the larger difference of the
two ``(kappa_o, kappa_d)`` is the **error estimate** (:attr:`QuadratureKernel.error`), which is an estimate, not
a rigorous bound: smooth activations (tanh, softplus, GELU) converge fast and the estimate is then far above the
error. Across a kink (:func:`has_kink`: ``Abs``, ``Max``, ``Min``, ``sign``, ``Heaviside``, ``Piecewise``, ...) the
rule converges slowly and the estimate is *below* the true error (ReLU, ``|u|``, leaky ReLU, ``Min(u, 0)`` at
depths 1-3: 2 to 4 times below, errors up to 2.6e-2; docs/families.md); for such an activation
:attr:`QuadratureKernel.bounded` is False and :meth:`QuadratureKernel.kappas` issues an
:class:`~symbolic_ti.errors.UntrustedNumericWarning` (the families route kinked activations to the exact or the
certified path first, :mod:`symbolic_ti.families.activations`). Otherwise the warning is issued when the estimate
exceeds :data:`QUADRATURE_TOL`. The derivative of ``phi`` is taken almost everywhere (``DiracDelta`` terms
dropped, as neural-tangents does for ``sign`` and step functions).
"""

from __future__ import annotations

import warnings
from typing import Any

import mpmath
import sympy as sp

from ..errors import ParameterError, UntrustedNumericWarning
from ..formatting import rounded

__all__ = ["U", "QUADRATURE_DPS", "QUADRATURE_NODES", "QUADRATURE_TOL", "QuadratureKernel", "parse_activation",
           "hermite_rule", "has_kink", "derivative_ae", "relu_combination"]

#: The variable of an activation expression.
U = sp.Symbol("u", real=True)
#: Decimal digits of the quadrature arithmetic.
QUADRATURE_DPS = 30
#: Nodes per dimension of the first rule (the second has 3/2 as many).
QUADRATURE_NODES = 48
#: Largest accepted error estimate before a warning.
QUADRATURE_TOL = 1e-10


def parse_activation(text: str) -> sp.Expr:
    """An activation as a sympy expression in ``u`` (e.g. ``"tanh(u)"``).

    Raises
    ------
    ParameterError
        If the text does not parse, has another free symbol than ``u``, or is constant.
    """
    try:
        expr = sp.sympify(text, locals={"u": U})
    except (sp.SympifyError, SyntaxError, TypeError, AttributeError):
        raise ParameterError(f"activation: {text!r} does not parse; give erf, sign, step or a sympy expression "
                             f"in u such as tanh(u)") from None
    if not isinstance(expr, sp.Expr) or expr.free_symbols != {U}:
        raise ParameterError(f"activation: {text!r} must be an expression in the one variable u (e.g. tanh(u)); "
                             f"its symbols are {sorted(str(s) for s in getattr(expr, 'free_symbols', ()))}")
    return expr


_NON_ANALYTIC = (sp.Abs, sp.Max, sp.Min, sp.sign, sp.Heaviside, sp.Piecewise, sp.floor, sp.ceiling, sp.frac,
                 sp.DiracDelta)


def has_kink(expr: sp.Expr) -> bool:
    """Whether the activation has a point where it is not analytic by construction (``Abs``, ``Max``, ``Min``,
    ``sign``, ``Heaviside``, ``Piecewise``, ``floor``, ``ceiling``, ``frac``): Gauss-Hermite quadrature converges
    slowly there and its two-rule error estimate is not an upper bound of the error."""
    return any(isinstance(node, _NON_ANALYTIC) for node in sp.preorder_traversal(expr))


def derivative_ae(expr: sp.Expr) -> sp.Expr:
    """``d expr / du`` almost everywhere: sympy's derivative with its ``DiracDelta`` terms (jumps) set to 0."""
    d = sp.diff(expr, U)
    return d.replace(lambda e: isinstance(e, sp.DiracDelta), lambda e: sp.Integer(0)) if d.has(sp.DiracDelta) else d


def relu_combination(activation: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """``(a, b)`` with ``activation = a u + b Max(u, 0)`` for every real ``u != 0``, or None.

    Found from the two branches: the activation at a positive ``u`` must be ``p u`` and at a negative ``u``
    ``m u`` with real numbers ``p``, ``m`` (sympy decides ``Max``, ``Min``, ``Abs``, ``sign``, ``Heaviside`` of a
    signed symbol); then ``a = m``, ``b = p - m``. E.g. ``Abs(u)`` gives ``(-1, 2)``, ``Min(u, 0)`` ``(1, -1)``,
    ``Max(u, u/10)`` ``(1/10, 9/10)``.

    Parameters
    ----------
    activation : sympy expression in :data:`~symbolic_ti.families.activation_quadrature.U`

    Returns
    -------
    (a, b) : pair of exact real sympy numbers, or None if the activation is not of that form
    """
    slopes = []
    for assumption in ("positive", "negative"):
        x = sp.Symbol("x", **{assumption: True})
        try:
            k = sp.simplify(activation.subs(U, x) / x)
        except (TypeError, ValueError, AttributeError):  # pragma: no cover - sympy failing on an odd expression
            return None
        if k.free_symbols or not k.is_number or k.is_real is not True or k.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            return None
        slopes.append(k)
    p, m = slopes
    return m, p - m


def hermite_rule(n: int, dps: int) -> tuple[list[Any], list[Any]]:
    """Gauss-Hermite nodes and weights (weight ``exp(-x^2)``) at ``dps`` digits.

    Returns
    -------
    (nodes, weights) : lists of n mpf; ``sum(weights) = sqrt(pi)``
    """
    import numpy as np

    x0, _ = np.polynomial.hermite.hermgauss(n)
    xs, ws = [], []
    with mpmath.workdps(dps + 10):
        tol = mpmath.mpf(10) ** (-dps - 5)
        for guess in x0:
            x = mpmath.mpf(float(guess))
            for _ in range(60):
                h_prev, h = mpmath.mpf(1), 2 * x
                for k in range(1, n):
                    h_prev, h = h, 2 * x * h - 2 * k * h_prev
                step = h / (2 * n * h_prev)  # H_n' = 2 n H_{n-1}
                x -= step
                if abs(step) < tol:
                    break
            h_prev, h = mpmath.mpf(1), 2 * x
            for k in range(1, n - 1):
                h_prev, h = h, 2 * x * h - 2 * k * h_prev
            ws.append(mpmath.mpf(2) ** (n - 1) * mpmath.factorial(n) * mpmath.sqrt(mpmath.pi) / (n ** 2 * h ** 2))
            xs.append(x)
    return xs, ws


class QuadratureKernel:
    """``(kappa_o, kappa_d)`` of an activation's NNGP or NTK by quadrature (module docstring).

    Parameters
    ----------
    activation : sympy expression in :data:`U`
    kind : {"nngp", "ntk"}
    depth : int >= 1
    w_std, b_std : exact numbers (W_std > 0, b_std >= 0)
    nodes : int
        Nodes of the first rule.
    dps : int
        Working precision.

    Attributes
    ----------
    error : float
        The error estimate of the kappas (difference of the two rules).
    bounded : bool
        False for an activation with a kink (:func:`has_kink`): then :attr:`error` is known to underestimate the
        error and the computation (the first :meth:`kappas` call) warns.
    """

    def __init__(self, activation: sp.Expr, kind: str, depth: int, w_std: sp.Expr, b_std: sp.Expr,
                 nodes: int = QUADRATURE_NODES, dps: int = QUADRATURE_DPS) -> None:
        self.activation, self.kind, self.depth = activation, kind, depth
        self.w2, self.b2 = sp.sympify(w_std) ** 2, sp.sympify(b_std) ** 2
        self.nodes, self.dps = nodes, dps
        self._result: tuple[Any, Any] | None = None
        self.error = float("nan")
        self.bounded = not has_kink(activation)

    def _run(self, n: int) -> tuple[Any, Any]:
        phi = sp.lambdify(U, self.activation, modules="mpmath")
        dphi = sp.lambdify(U, derivative_ae(self.activation), modules="mpmath")
        xs, ws = hermite_rule(n, self.dps)
        with mpmath.workdps(self.dps + 10):
            root2, norm = mpmath.sqrt(2), 1 / mpmath.pi
            z = [root2 * x for x in xs]
            w2, b2 = mpmath.mpf(sp.N(self.w2, self.dps + 10)), mpmath.mpf(sp.N(self.b2, self.dps + 10))

            def expect(f: Any, q: Any, c: Any) -> Any:
                sq = mpmath.sqrt(q)
                a, s = c / sq, mpmath.sqrt(max(q - c * c / q, mpmath.mpf(0)))
                outer = [f(sq * zi) for zi in z]
                if s == 0:  # v = u: one dimension
                    return norm * mpmath.sqrt(mpmath.pi) * mpmath.fsum(w * o * f(a * zi) for w, o, zi
                                                                       in zip(ws, outer, z, strict=True))
                return norm * mpmath.fsum(ws[i] * outer[i] * mpmath.fsum(ws[j] * f(a * z[i] + s * z[j])
                                                                          for j in range(n)) for i in range(n))

            ts = (mpmath.mpf(1), mpmath.mpf(1) / 2, mpmath.mpf(0))
            sigma = [w2 * t + b2 for t in ts]
            theta = list(sigma)
            for _ in range(self.depth):
                q = sigma[0]
                new = [w2 * expect(phi, q, c) + b2 for c in sigma]
                if self.kind == "ntk":
                    theta = [nw + w2 * th * expect(dphi, q, c) for nw, th, c in zip(new, theta, sigma, strict=True)]
                sigma = new
            out = theta if self.kind == "ntk" else sigma
            return out[1] / out[0], out[2] / out[0]

    def kappas(self, dps: int | None = None) -> tuple[Any, Any]:
        """``(kappa_o, kappa_d)`` as mpf (``dps`` given) or float; computed once.

        Warns
        -----
        UntrustedNumericWarning
            If the error estimate exceeds :data:`QUADRATURE_TOL`, and always for an activation with a kink
            (:attr:`bounded` False).
        """
        if self._result is None:
            first = self._run(self.nodes)
            second = self._run(self.nodes * 3 // 2)
            self.error = float(max(abs(first[0] - second[0]), abs(first[1] - second[1])))
            if not self.bounded:
                warnings.warn(f"activation {self.activation}: it has a kink, across which Gauss-Hermite quadrature "
                              f"converges slowly; its error estimate {rounded(self.error, '.2g')} is not a bound (for ReLU-type "
                              f"kinks the true error is 2-4 times larger); the kernel is untrusted",
                              UntrustedNumericWarning, stacklevel=3)
            elif self.error > QUADRATURE_TOL:
                warnings.warn(f"activation {self.activation}: Gauss-Hermite error estimate {rounded(self.error, '.2g')} exceeds "
                              f"{rounded(QUADRATURE_TOL, 'g')} (kink or slow decay); the kernel is numeric to about that",
                              UntrustedNumericWarning, stacklevel=3)
            self._result = second
        ko, kd = self._result
        if dps is None:
            return float(ko), float(kd)
        return +ko, +kd
