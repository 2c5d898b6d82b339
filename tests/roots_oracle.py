"""Pure-Python node operations of the Descartes bisection of symbolic_ti.analysis.roots.isolation, on integer
tuples (highest degree first): the tests' independent implementation of the operations that the package runs on
FLINT's ``fmpz_poly`` (they were the package's fallback without python-flint before it became a dependency)."""

from __future__ import annotations

from typing import Any

from symbolic_ti.analysis.roots import polynomials as P
from symbolic_ti.analysis.roots.isolation import _Ops
from symbolic_ti.analysis.roots.polynomials import IntPoly, variations


class _Python(_Ops):
    """Node operations of the bisection on integer tuples (highest degree first), in pure Python."""

    @staticmethod
    def start(p: IntPoly) -> Any:
        return p

    @staticmethod
    def count(q: Any) -> int:  # sign variations of (x + 1)^d q(1 / (x + 1))
        return variations(P.taylor_shift(P.reverse(q)))

    @staticmethod
    def halve(q: Any) -> Any:  # 2^d q(x / 2)
        return P.halve(q)

    @staticmethod
    def at_one(q: Any) -> int:
        return sum(q)

    @staticmethod
    def deflate_one(q: Any) -> Any:  # q / (x - 1) for q(1) = 0 (synthetic division)
        acc, quot = 0, []
        for coef in q[:-1]:
            acc += coef
            quot.append(acc)
        return tuple(quot)

    @staticmethod
    def shift(q: Any) -> Any:  # q(x + 1)
        return P.taylor_shift(q)
