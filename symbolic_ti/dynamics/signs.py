r"""Certified sign changes of an exponential sum ``h(t) = F - sum_k C_k exp(-rho_k t)`` on ``t > 0``.

Everything that decides is ball (arb) arithmetic or exact; no float root finder:

* **Near 0.** ``h(0)`` is exact. When it is 0 (every margin starts at 0), the first nonzero exact derivative
  ``D = h^(j)(0)`` decides the sign on ``(0, delta]`` with ``delta = |D| (j + 1) / (2 S)``,
  ``S >= sum |C_k| rho_k^(j+1)`` (Taylor's theorem with ``|d^(j+1)/dt^(j+1) exp(-rho t)| <= rho^(j+1)``).
* **Tail.** With ``F != 0`` and ``rho_k >= rho_min > 0``, ``|h(t) - F| <= sum |C_k| exp(-rho_min t) < |F|`` for
  ``t > T = log(sum |C_k| / |F|) / rho_min``: no sign change after ``T``.
* **Between.** ``[delta, T]`` is cut into pieces (geometric, then halving). A piece on which the mean-value form
  ``h(m) + h'(I) (I - m)`` excludes 0 has no root; one on which ``h'`` excludes 0 and the exact-endpoint balls of
  ``h`` have opposite signs holds exactly one simple root. Pieces that shrink below a relative width of
  ``2^-40`` without either are reported as unresolved (a tangency, or a root of even multiplicity).

Derived in docs/theory.md#critical-times.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable
from typing import Any

import flint

from ..analysis.roots.ball import to_fraction_bounds
from ..flint_values import arb_of
from .evaluate import ArbTerms

__all__ = ["SignChange", "SignScan", "scan_signs"]

_REL = Fraction(1, 2 ** 40)


@dataclass(frozen=True)
class SignChange:
    """One isolated sign change of ``h``: the only root in ``(lower, upper)``; ``direction`` is the sign after it
    (+1 or -1), or 0 for an unresolved piece (possibly no change, possibly a multiple root)."""

    lower: Fraction
    upper: Fraction
    direction: int

    @property
    def value(self) -> float:
        """The bracket's midpoint as a float (display only)."""
        return float((self.lower + self.upper) / 2)


@dataclass(frozen=True)
class SignScan:
    """Sign of ``h`` just after 0 (``initial``), its sign changes, and whether the scan is complete (``tail``:
    True when the sign is certified constant after the last piece)."""

    initial: int
    changes: tuple[SignChange, ...]
    tail: bool
    horizon: Fraction



def _to_frac_up(x: flint.arb) -> Fraction:
    return to_fraction_bounds(x)[1]


def _lower(x: flint.arb) -> Fraction:
    return to_fraction_bounds(x)[0]


def _sign(x: flint.arb) -> int:
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


class _Scanner:
    def __init__(self, balls: Callable[[int], ArbTerms], prec: int) -> None:
        self.balls_at = balls
        self.prec = prec
        self.terms = balls(prec)

    def point_sign(self, t: Fraction) -> int:
        prec = self.prec
        terms = self.terms
        for _ in range(4):
            with flint.ctx.workprec(prec):
                s = _sign(terms.value(arb_of(t)))
            if s:
                return s
            prec *= 2
            terms = self.balls_at(prec)
        return 0

    def piece(self, u: Fraction, v: Fraction) -> tuple[bool, bool]:
        """(may have a root, h' excludes 0) on [u, v]."""
        with flint.ctx.workprec(self.prec):
            mid = (u + v) / 2
            box = arb_of(u).union(arb_of(v))
            d = self.terms.derivative(box)
            val = self.terms.value(arb_of(mid)) + d * (box - arb_of(mid))
            return val.contains(0), not d.contains(0)


def _split(u: Fraction, v: Fraction) -> Fraction:
    if u > 0 and v > 4 * u:
        return u * 2 if v > 64 * u else Fraction(round(float(u * v) ** 0.5 * 2 ** 20), 2 ** 20)
    return (u + v) / 2


def scan_signs(balls: Callable[[int], ArbTerms], value0: Fraction, derivative: Callable[[int], Any],
               prec: int = 96, max_order: int = 60, horizon: Fraction | None = None) -> SignScan:
    """Isolate the sign changes of ``h(t) = F - sum C_k exp(-rho_k t)`` on ``t > 0`` (module docstring).

    Parameters
    ----------
    balls : callable prec -> ArbTerms
        The sum's balls at a working precision (bits).
    value0 : Fraction
        ``h(0)``, exact.
    derivative : callable j -> Fraction or arb
        ``h^(j)(0)``, exact, ``j >= 1``; or a ball (certified numeric path: the first ball decides the sign
        just after 0 if it excludes 0; otherwise the sign there is 0, "unresolved").
    prec : int
        Starting working precision in bits.
    max_order : int
        Highest derivative tried at 0 before the sum is declared identically 0.
    horizon : Fraction, optional
        Scan only up to this time (then ``tail`` says whether the sign is certified constant beyond it).

    Returns
    -------
    SignScan
    """
    sc = _Scanner(balls, prec)
    terms = sc.terms
    with flint.ctx.workprec(prec):
        if value0 != 0:
            initial, delta = (1 if value0 > 0 else -1), Fraction(0)
        else:
            for j in range(1, max_order + 1):
                dj = derivative(j)
                if isinstance(dj, flint.arb) or dj != 0:
                    break
            else:
                return SignScan(0, (), True, Fraction(0))
            s = flint.arb(0)
            for c, _, hi in terms.magnitudes():
                s += c * abs(hi) ** (j + 1)
            if isinstance(dj, flint.arb):  # a ball (certified numeric path): its sign must be certain
                initial = _sign(dj)
                size = _lower(abs(dj)) if initial else Fraction(0)
            else:
                initial, size = (1 if dj > 0 else -1), abs(dj)
            delta = size * (j + 1) / (2 * _to_frac_up(s)) if s != 0 else Fraction(1)
        tail = False
        far = horizon if horizon is not None else max(Fraction(10 ** 6), delta * 2)
        f_abs = abs(terms.limit)
        if not terms.rates:
            far, tail = max(delta * 2, Fraction(1)), True
        elif not f_abs.contains(0):
            rmin = min(_lower(lo) for _, lo, _ in terms.magnitudes())
            if rmin > 0:
                total = flint.arb(0)
                for c, _, _ in terms.magnitudes():
                    total += c
                ratio = total / f_abs
                cut = ratio.log() / arb_of(rmin) if ratio > 1 else flint.arb(0)
                end = max(_to_frac_up(cut) + 1, delta * 2, Fraction(1))
                tail = horizon is None or end <= horizon
                far = end if horizon is None else min(end, horizon)
    start = delta if delta > 0 else Fraction(0)
    pieces = []
    u = start
    if u == 0:
        pieces.append((Fraction(0), min(far, Fraction(1, 64))))
        u = pieces[-1][1]
    while u < far:
        v = min(u * 2, far)
        pieces.append((u, v))
        u = v
    changes: list[SignChange] = []
    stack = list(reversed(pieces))
    while stack:
        u, v = stack.pop()
        maybe, monotone = sc.piece(u, v)
        if not maybe:
            continue
        if monotone:
            su, sv = sc.point_sign(u), sc.point_sign(v)
            if su and sv:
                if su != sv:
                    changes.append(_refine(sc, u, v, su, sv))
                continue
        if v - u <= _REL * max(v, Fraction(1, 2 ** 20)):
            changes.append(SignChange(u, v, 0))
            continue
        w = _split(u, v)
        stack.append((w, v))
        stack.append((u, w))
    return SignScan(initial, tuple(changes), tail, far)


def _refine(sc: _Scanner, u: Fraction, v: Fraction, su: int, sv: int, rel: Fraction = Fraction(1, 10 ** 12)
            ) -> SignChange:
    while v - u > rel * v:
        w = (u + v) / 2
        w = Fraction(round(w * 2 ** 60), 2 ** 60) if w.denominator > 2 ** 80 else w
        sw = sc.point_sign(w)
        if sw == 0:
            break
        if sw == su:
            u = w
        else:
            v = w
    return SignChange(u, v, sv)
