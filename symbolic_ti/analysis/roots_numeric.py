r"""Real roots of polynomials with irrational coefficients, numerically: the one place of the root engine that is
not exact.

Margins of families whose kernel constants are irrational (pi and square roots in the ReLU kernels) are
polynomials with irrational coefficients along the scanned parameter; their roots are computed with
``mpmath.polyroots`` at :data:`NUMERIC_DPS` digits and the signs between them by evaluation at that precision
(not certified; the report says so in its notes). Exact inputs go to :mod:`symbolic_ti.analysis.roots`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from .roots import points_between

__all__ = ["NUMERIC_DPS", "NumericCrossing", "numeric_sign_changes"]

#: Working precision (decimal digits) of the numeric root path.
NUMERIC_DPS = 60


@dataclass(frozen=True)
class NumericCrossing:
    """A numerically located root of the numerator (``kind="zero"``) or denominator (``"pole"``) of a margin.

    Attributes
    ----------
    value : sympy.Float
        The root to ``NUMERIC_DPS // 2`` digits.
    value_float : float
    direction : {"to_error", "to_correct", "touch"}
    kind : {"zero", "pole"}
    """

    value: sp.Float
    value_float: float
    direction: str
    kind: str


def numeric_sign_changes(num: Sequence[sp.Expr], den: Sequence[sp.Expr], lo: sp.Expr, hi: sp.Expr
                         ) -> tuple[list[NumericCrossing], bool] | None:
    """Sign changes of ``num / den`` on the open interval ``(lo, hi)``, numerically.

    Parameters
    ----------
    num, den : sequences of sympy numbers
        Coefficients, highest degree first, of the numerator and the denominator (real numbers, possibly
        irrational).
    lo, hi : sympy numbers
        End points (``-oo`` / ``oo`` allowed).

    Returns
    -------
    (crossings, wrong_at_start) or None
        The roots in ``(lo, hi)`` in increasing order (a multiple root, returned by ``polyroots`` as a cluster,
        counts once; a pole without sign change is left out) with the direction read from the signs on both
        sides, and whether ``num / den`` is negative just above ``lo``; ``None`` when ``num`` is identically
        zero.
    """
    with mpmath.workdps(NUMERIC_DPS):
        def coeffs(cs: Sequence[sp.Expr]) -> list[Any]:
            return [mpmath.mpf(str(sp.N(c, NUMERIC_DPS + 20))) for c in cs]

        cn, cd = coeffs(num), coeffs(den)
        if all(c == 0 for c in cn):
            return None
        lo_f = mpmath.mpf(str(sp.N(lo, NUMERIC_DPS))) if lo != -sp.oo else -mpmath.inf
        hi_f = mpmath.mpf(str(sp.N(hi, NUMERIC_DPS))) if hi != sp.oo else mpmath.inf
        tol = mpmath.mpf(10) ** (-NUMERIC_DPS // 2)

        def real_roots(c: list[Any], kind: str) -> list[tuple[Any, str]]:
            while c and c[0] == 0:
                c = c[1:]
            if len(c) < 2:
                return []
            found = mpmath.polyroots(c, maxsteps=400, extraprec=4 * NUMERIC_DPS)
            return [(mpmath.re(z), kind) for z in found
                    if abs(mpmath.im(z)) <= tol * (1 + abs(z)) and lo_f < mpmath.re(z) < hi_f]

        roots = sorted(real_roots(cn, "zero") + real_roots(cd, "pole"), key=lambda e: e[0])
        merged: list[tuple[Any, str]] = []
        for x, kind in roots:  # a multiple root comes back as a cluster: keep one
            if merged and abs(x - merged[-1][0]) <= tol * (1 + abs(x)) and kind == merged[-1][1]:
                continue
            merged.append((x, kind))

        def sign_at(x: Any) -> int:
            v = mpmath.polyval(cn, x) * mpmath.polyval(cd, x)
            return 1 if v > 0 else (-1 if v < 0 else 0)

        ends = [lo_f] + [x for x, _ in merged] + [hi_f]
        signs = [sign_at(x) for x in points_between(zip(ends, ends[1:], strict=False), mpmath.inf, mpmath.mpf(0))]
        out = []
        for k, (x, kind) in enumerate(merged):
            left, right = signs[k], signs[k + 1]
            if left == right:
                if kind == "pole":
                    continue
                direction = "touch"
            else:
                direction = "to_error" if left > 0 else "to_correct"
            value = sp.Float(mpmath.nstr(x, NUMERIC_DPS // 2), NUMERIC_DPS // 2)
            out.append(NumericCrossing(value, float(x), direction, kind))
        return out, signs[0] < 0
