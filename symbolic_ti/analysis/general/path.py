r"""The path ``1 - 2 - ... - n`` of premise pairs: continuants and Green's function of ``Lap_path + gamma I``.

Without exception the comparison graph is the path; its shifted Laplacian ``Lap_path + gamma I`` is
tridiagonal, so its leading minors (continuants) and its inverse are Chebyshev polynomials of ``x = 1 + gamma/2``
or, with ``x = cosh(mu)``, hyperbolic functions of ``mu`` (docs/general_n.md#continuants-and-chebyshev-polynomials,
docs/general_n.md#greens-function-of-the-path).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from .variables import _check_form, mu, n, x

__all__ = ["chebyshev_v", "path_continuant", "path_determinant", "path_green"]

_HALF = sp.Rational(1, 2)


def chebyshev_v(a: Any, var: sp.Expr = x) -> sp.Expr:
    """Chebyshev polynomial of the third kind ``V_a(var) = U_a(var) - U_{a-1}(var)``.

    ``V_a(cosh mu) = cosh((a + 1/2) mu) / cosh(mu / 2)``; ``V_0 = 1``, ``V_1 = 2 var - 1``.

    Parameters
    ----------
    a : integer or integer-valued sympy expression (``a >= 0`` where used here)
    var : sympy expression, default :data:`x`

    Returns
    -------
    sympy expression
        ``chebyshevu(a, var) - chebyshevu(a - 1, var)``; explicit polynomial when ``a`` is a number.
        Source: docs/general_n.md#continuants-and-chebyshev-polynomials (Mason and Handscomb, *Chebyshev
        Polynomials*, 2003, section 1.2.3).
    """
    return _u(a, var) - _u(a - 1, var)


def _u(a: Any, var: sp.Expr) -> sp.Expr:
    """``chebyshevu(a, var)``, kept as written for a symbolic ``a`` (sympy would rewrite an index such as
    ``n - L - D`` as ``-U_{L+D-n-2}``, which is equal for integers but hides that the index is >= 0)."""
    a = sp.sympify(a)
    return sp.chebyshevu(a, var) if a.is_number else sp.chebyshevu(a, var, evaluate=False)


def path_continuant(index: Any, form: str = "chebyshev") -> sp.Expr:
    """Leading principal minor ``theta_index`` of ``Lap_path + gamma I``, for ``0 <= index <= n - 1``.

    Returns
    -------
    sympy expression
        chebyshev: ``V_index(x)``; sinh: ``cosh((index + 1/2) mu) / cosh(mu / 2)``.
        (``theta_n`` is the determinant, :func:`path_determinant`, not this formula.)
        Derived here, see docs/general_n.md#continuants-and-chebyshev-polynomials.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return chebyshev_v(index)
    return sp.cosh((index + _HALF) * mu) / sp.cosh(mu / 2)


def path_determinant(form: str = "chebyshev", size: Any = n) -> sp.Expr:
    """``theta_n = det(Lap_path + gamma I)`` of the path with ``size`` items.

    Returns
    -------
    sympy expression
        chebyshev: ``2 (x - 1) U_{n-1}(x) = gamma U_{n-1}(x)``; sinh: ``2 sinh(n mu) tanh(mu / 2)``.
        Derived here, see docs/general_n.md#continuants-and-chebyshev-polynomials.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return 2 * (x - 1) * _u(size - 1, x)
    return 2 * sp.sinh(size * mu) * sp.tanh(mu / 2)


def path_green(a: Any, b: Any, form: str = "chebyshev") -> sp.Expr:
    """``(Lap_path + gamma I)^{-1}[a, b]`` for items ``a <= b`` of the path ``1 - ... - n``.

    Parameters
    ----------
    a, b : integers or integer sympy expressions with ``1 <= a <= b <= n``
        The formula uses ``min = a``, ``max = b``; pass the smaller item first.
    form : {"chebyshev", "sinh"}

    Returns
    -------
    sympy expression
        chebyshev: ``V_{a-1}(x) V_{n-b}(x) / (2 (x - 1) U_{n-1}(x))``;
        sinh: ``cosh((a - 1/2) mu) cosh((n - b + 1/2) mu) / (sinh(mu) sinh(n mu))``.
        Derived here, see docs/general_n.md#greens-function-of-the-path.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return chebyshev_v(a - 1) * chebyshev_v(n - b) / path_determinant("chebyshev")
    return sp.cosh((a - _HALF) * mu) * sp.cosh((n - b + _HALF) * mu) / (sp.sinh(mu) * sp.sinh(n * mu))
