r"""Fast evaluation of a result's closed forms over parameter grids, with an mpmath fallback where float64 cancels.

The code is in three modules, re-exported here: :mod:`~symbolic_ti.numeric.grid_compile` (:func:`compile_result`,
steps 1-3 below), :mod:`~symbolic_ti.numeric.compiled` (:class:`CompiledResult` and its
:meth:`~CompiledResult.evaluate`: step 4, the cancellation detector and the mpmath fallback) and
:mod:`~symbolic_ti.numeric.grid_values` (:class:`GridValues`, the output).

A :class:`~symbolic_ti.results.Result` holds every prediction ``f(i, j)`` as a canceled rational function
``p / q`` of its free parameters. :func:`compile_result` turns the chosen trials' closed forms into one shared
numeric program, and :meth:`CompiledResult.evaluate` runs it on numpy arrays of any broadcastable shapes.

How it is compiled
------------------
1. Every numerator and denominator is written as a polynomial in a common tuple of *generators*: the free
   parameter Symbols (for every current family), or, if a closed form is not polynomial in them, whatever
   sympy's ``parallel_poly_from_expr`` picks (e.g. ``sqrt(alpha)``). The generators are compiled with
   ``sympy.lambdify(..., cse=True)`` (common subexpressions shared; for plain Symbols this is the identity).
2. Identical numerators and denominators, and numerators that differ only in sign (``f(j, i) = -f(i, j)``),
   are kept once. Each distinct polynomial is factored over the rationals (``Poly.factor_list``), and the
   irreducible factors are the common subexpressions: shared by all trials (for n = 9 with 6>4, alpha and the
   ridge symbolic, the 72 trials have 20 distinct rational functions built from 17 factors). Evaluating the
   factored form also avoids the worst float64 cancellation: ``(alpha - 1)^3`` is computed as a cube of an
   exact difference, not as an expanded sum.
3. The monomials of all factors form one basis, evaluated once per point (each power of each generator
   once), and all factors are one matrix product ``C @ M`` (coefficients x monomials). A rational function
   is then a constant times products of powers of factors.
4. Evaluation runs in chunks of points, so memory stays bounded apart from the output itself.

Detecting float64 cancellation
------------------------------
With the same product, ``|C| @ |M|`` gives ``S_h``, the sum of the absolute values of the terms of each
factor ``h``. The rounding error of a float64 sum of ``K`` terms, each a product of at most ``d`` numbers, is
at most about ``(K + d) u S_h`` (``u = 2^-53``; a running error bound, Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., sections 3.1 and 4.2), so the relative error of
``f = c prod h_k^(e_k)`` (exponents negative in the denominator) is bounded, to first order, by

    est = u * sum_k |e_k| (K_k + d + 2) S_k / |h_k|      (plus a few u for the products).

Points where ``est > rtol`` (default ``1e-10``), or where the float value is not finite, are evaluated again
with mpmath from the exact coefficients, at 30 decimal digits and then more (up to 480) until the same bound
at that precision is below ``1e-17`` relative (or the absolute error is below ``1e-300``). A denominator that
stays indistinguishable from 0 at 480 digits means the closed form is undefined there (a pole, or ``0/0`` as in
a symbolic-ridge result at ``lambda = 0`` on a ridgeless condition); the value is then NaN and reported in
:attr:`GridValues.undefined` (the limit needs an exact solve, e.g. :meth:`Result.subs`).

What the detector catches, and what not. It catches cancellation *in the sums of the factors' terms*:
points very close to a zero of a numerator (a critical curve, where the margin changes sign, so that the
sign of a float64 value could be wrong), points near a common zero of numerator and denominator (``0/0``, e.g.
near a singular ridgeless limit of a symbolic-ridge result), and overflow. It assumes the generator values are
accurate to a few ulps (true when the generators are the parameters themselves; for non-polynomial generators
such as ``sqrt`` or ``cos`` their own rounding is not tracked), and underflow of tiny terms is not tracked. The
bound is a worst case, so it flags some points whose float64 value was in fact fine; the fallback then just
confirms them. The input floats are exact binary numbers and are used exactly by the mpmath path, so the fallback
value is the closed form at exactly the given point.
"""

from __future__ import annotations

from .compiled import DEFAULT_RTOL, CompiledResult
from .grid_compile import compile_result
from .grid_values import GridValues

__all__ = ["CompiledResult", "GridValues", "compile_result", "DEFAULT_RTOL"]
