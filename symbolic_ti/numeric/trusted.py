"""Numeric solves that meet a stated tolerance or say that they could not (docs/theory.md#numeric-trust).

Tolerances: a float64 value ``f`` of the exact ``f*`` meets ``|f - f*| <= FLOAT64_TOL * max(1, |f*|)``
(:data:`FLOAT64_TOL` = 1e-8); an mpmath value at ``dps`` digits meets ``10^(MPMATH_LOST_DIGITS - dps)`` in the
same measure (relative above magnitude 1, absolute below).

* float64 (:func:`float64_solve`): numpy on the float64 system, with a first-order a-posteriori error bound per
  trial from the perturbation ``||dK|| <= 8 m eps ||K||`` of the Gram matrix (rounding of the kernel entries and
  the backward error of the factorization) carried through ``c = (K + lambda I)^{-1} y`` or, ridgeless, through
  the pseudo-inverse of ``K`` at its exact rank (Golub and Van Loan, *Matrix Computations*, 4th ed., sections 2.6,
  5.5 and 8.6; Wedin, BIT 13, 1973, for the pseudo-inverse). A value is trusted when its bound meets the
  tolerance and the condition number is below :data:`COND_LIMIT`.
* mpmath (:func:`mpmath_solve`): LU (ridge) or, ridgeless, the least-squares fit (normal equations, Cholesky)
  on a basis of training trials
  (exact rank, :func:`symbolic_ti.numeric.systems.training_basis`), at a working precision chosen from the
  condition number and raised until two precisions agree to a tenth of the tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import mpmath
import numpy as np

from ..errors import SolveError
from .systems import Basis, KernelSystem
from ..formatting import rounded

__all__ = ["FLOAT64_TOL", "MPMATH_LOST_DIGITS", "COND_LIMIT", "ROUNDOFF_FACTOR", "MAX_WORKING_DPS",
           "mpmath_tolerance", "Outcome", "NumericPredictions", "float64_solve", "float64_condition", "mpmath_solve",
           "pinv_values"]

#: Stated tolerance of a float64 value: ``|f - exact| <= FLOAT64_TOL * max(1, |exact|)``.
FLOAT64_TOL = 1e-8
#: An mpmath value at ``dps`` digits meets ``10^(MPMATH_LOST_DIGITS - dps)`` (same measure as float64).
MPMATH_LOST_DIGITS = 2
#: float64 values are not used above this condition number (the mpmath solve is used instead).
COND_LIMIT = 1e10
#: Round-off model: ``||dK|| <= ROUNDOFF_FACTOR * m * eps * ||K||`` and each kernel entry within
#: ``ROUNDOFF_FACTOR * eps`` relative.
ROUNDOFF_FACTOR = 8
#: Largest working precision (decimal digits) of the mpmath solve before it gives up (and says so).
MAX_WORKING_DPS = 4000
#: Extra digits above the asked precision; a well-conditioned mpmath solve (condition <= _SINGLE_SOLVE_COND by the
#: float64 estimate) is done once, others at two precisions.
_GUARD = 10
_SINGLE_SOLVE_COND = 1e6


def mpmath_tolerance(dps: int) -> Any:
    """The stated tolerance ``10^(MPMATH_LOST_DIGITS - dps)`` of an mpmath value at ``dps`` digits (an mpf)."""
    with mpmath.workdps(30):
        return mpmath.mpf(10) ** (MPMATH_LOST_DIGITS - dps)


@dataclass
class Outcome:
    """Values of one numeric solve and how far they can be trusted.

    Attributes
    ----------
    values : list
        One value per queried trial (floats, or mpf at the working precision).
    bounds : list of float
        Per trial: float64, the a-posteriori error bound; mpmath, the difference between the two precisions
        (``0.0`` after a single well-conditioned solve); ``inf`` when nothing could be shown.
    trusted : list of bool
        Per trial: whether the value meets the tolerance.
    condition : float
        Condition number estimate (ridge: of ``K + lambda I``; ridgeless: of ``K`` on its range).
    note : str
        Why values are not trusted, or how they were obtained (precisions used), for the result's text.
    precisions : tuple of int
        mpmath working precisions used (empty for float64).
    rank_problem : bool
        Ridgeless: the rank used differs from the exact one (a given ``rcond``) or could not be decided, so more
        digits cannot help.
    """

    values: list[Any]
    bounds: list[float]
    trusted: list[bool]
    condition: float
    note: str = ""
    precisions: tuple[int, ...] = ()
    rank_problem: bool = False


# ------------------------------------------------------------------------------------------ float64
def _eps_delta(m: int, top: float) -> tuple[float, float]:
    eps = float(np.finfo(float).eps)
    return eps, ROUNDOFF_FACTOR * m * eps * top


def _scaled_ok(values: np.ndarray, bounds: np.ndarray, tol: float) -> list[bool]:
    return [bool(b <= tol * max(1.0, abs(v))) for v, b in zip(values.tolist(), bounds.tolist(), strict=True)]


def pinv_values(w: Any, vecs: Callable[[int, int], Any], cross: Callable[[int, int], Any], y: list[Any], m: int,
                q: int, keep: list[int], fsum: Callable) -> list[Any]:
    """``k(t)^T K^+ y`` for each of ``q`` queries from an eigendecomposition ``K = Q diag(w) Q^T``, keeping the
    eigenvalues listed in ``keep`` (float or mpmath arithmetic)."""
    coef = [0 * y[0] for _ in range(m)] if m else []
    for k in keep:
        z = fsum(vecs(r, k) * y[r] for r in range(m)) / w[k]
        for r in range(m):
            coef[r] += vecs(r, k) * z
    return [fsum(cross(t, c) * coef[c] for c in range(m)) for t in range(q)]


def float64_solve(system: KernelSystem, basis: Basis | None, rcond: float | None, default_rcond: float) -> Outcome:
    """float64 predictions with per-trial a-posteriori error bounds.

    Ridge: ``c = (K + lambda I)^{-1} y`` (``numpy.linalg.solve``), bound
    ``(delta ||u_t|| ||c|| + eps (8 sqrt(m) kmax + m ||k_t||) ||c||) / (1 - delta / s)`` with
    ``u_t = (K + lambda I)^{-1} k_t``, ``delta = 8 m eps ||K||``, ``kmax`` the largest kernel entry and ``s`` the
    smallest ``|eigenvalue|`` of ``K + lambda I`` less ``delta``.
    Ridgeless: ``K = Q diag(w) Q^T`` (``numpy.linalg.eigh``) keeping the ``r`` largest ``|w|`` with ``r`` the
    exact rank (``basis.rank``), or those above ``rcond * max |w|`` if ``rcond`` is given (a rank different from
    the exact one is reported, not trusted); the bound adds the first-order rotation of the range of ``K`` into
    its null space, ``delta (||a_r / w_r^2|| ||b_0|| + ||a_0|| ||b_r / w_r^2||)`` in the eigenbasis
    (``a = Q^T k_t``, ``b = Q^T y``, ``r``: kept, ``0``: dropped), and is divided by ``(1 - 2 delta / w_r)^2``.
    """
    gram, cross, y = system.float64()
    m, q = system.m, len(system.queries)
    if q == 0:
        return Outcome([], [], [], 1.0)
    if m == 0:  # pragma: no cover - every task has training trials
        return Outcome([0.0] * q, [0.0] * q, [True] * q, 1.0)
    # rounding of the cross-kernel rows: each entry within 8 eps of the kernel's scale (absolute: an entry made
    # small by cancellation, e.g. (1 - alpha)/2 at alpha = 1 - 3e-16, keeps the absolute error of its terms),
    # plus the rounding of the dot product k(t) . c
    scale = max(float(np.max(np.abs(gram))), float(np.max(np.abs(cross))) if cross.size else 0.0)
    knorm = ROUNDOFF_FACTOR * np.sqrt(m) * scale + m * np.linalg.norm(cross, axis=1)
    note = ""
    if system.ridge is not None:
        lam = float(system.ridge)
        w = np.linalg.eigvalsh(gram)
        top = float(np.max(np.abs(w))) + lam
        eps, delta = _eps_delta(m, top)
        small = float(np.min(np.abs(w + lam))) - delta
        mat = gram + lam * np.eye(m)
        try:
            c = np.linalg.solve(mat, y)
            u = np.linalg.solve(mat, cross.T)
            solved = bool(np.all(np.isfinite(c)))
        except np.linalg.LinAlgError:
            solved = False
        if not solved:
            return Outcome([math.nan] * q, [math.inf] * q, [False] * q, math.inf, "K + lambda I is singular in float64")
        values = cross @ c
        cond = top / small if small > 0 else math.inf
        if small > 0:
            cn = float(np.linalg.norm(c))
            bounds = (delta * np.linalg.norm(u, axis=0) * cn + eps * knorm * cn) / (
                1 - delta / small)
        else:
            bounds = np.full(q, math.inf)
    else:
        w, vecs = np.linalg.eigh(gram)
        idx = np.argsort(-np.abs(w), kind="stable")
        w, vecs = w[idx], vecs[:, idx]
        top = float(abs(w[0]))
        eps, delta = _eps_delta(m, top)
        exact_rank = None if basis is None else basis.rank
        if rcond is not None:
            r = int(np.sum(np.abs(w) > rcond * top))
            if exact_rank is not None and r != exact_rank:
                note = (f"rcond={rounded(rcond, 'g')} keeps {r} eigenvalues of K but its exact rank is {exact_rank} "
                        f"({basis.source if basis is not None else 'exact'})")
        elif exact_rank is None:
            r = int(np.sum(np.abs(w) > default_rcond * top))
            note = f"the rank of K could not be decided ({basis.source})" if basis else "no rank of K"
        else:
            r = exact_rank
        a = vecs.T @ cross.T  # (m, q): coordinates of k_t in the eigenbasis
        b = vecs.T @ y
        wr = np.abs(w[:r])
        values = (a[:r].T @ (b[:r] / w[:r])) if r else np.zeros(q)
        cond = top / float(wr[-1]) if r else 1.0
        if note or (r and float(wr[-1]) <= 4 * delta):
            bounds = np.full(q, math.inf)
        elif r == 0:
            bounds = np.zeros(q)
        else:
            cn = float(np.linalg.norm(b[:r] / w[:r]))
            un = np.linalg.norm(a[:r] / w[:r, None], axis=0)
            rot = (np.linalg.norm(a[:r] / (w[:r, None] ** 2), axis=0) * float(np.linalg.norm(b[r:]))
                   + np.linalg.norm(a[r:], axis=0) * float(np.linalg.norm(b[:r] / w[:r] ** 2)))
            bounds = (delta * (un * cn + rot) + eps * knorm * cn) / (
                1 - 2 * delta / float(wr[-1])) ** 2
    ok = _scaled_ok(values, bounds, FLOAT64_TOL)
    if cond > COND_LIMIT:
        ok = [False] * q
    rank_problem = bool(note)
    if not all(ok) and not note:
        if not math.isfinite(cond):
            note = "an eigenvalue below round-off (condition number beyond float64)"
        else:
            note = f"condition number {rounded(cond, '.1e')}" + (f" > {rounded(COND_LIMIT, '.0e')}" if cond > COND_LIMIT else "")
    return Outcome([float(v) for v in values], [float(v) for v in bounds], ok, float(cond), note,
                   rank_problem=rank_problem)


def float64_condition(system: KernelSystem, basis: Basis | None) -> float:
    """float64 estimate of the condition number that the mpmath solve faces (``inf`` when float64 cannot tell)."""
    gram, _, _ = system.float64()
    m = system.m
    if m == 0:  # pragma: no cover
        return 1.0
    if system.ridge is not None:
        lam = float(system.ridge)
        w = np.linalg.eigvalsh(gram)
        top = float(np.max(np.abs(w))) + lam
        _, delta = _eps_delta(m, top)
        small = float(np.min(np.abs(w + lam))) - delta
        return top / small if small > 0 else top / lam
    if basis is None or not basis.rank:
        return 1.0
    cond = float(np.linalg.cond(gram[:, list(basis.indices)]))
    return cond if cond < 1e12 else math.inf


# ------------------------------------------------------------------------------------------- mpmath
class _Singular(Exception):
    pass


def _mp_values(system: KernelSystem, basis: Basis | None, dps: int) -> list[Any]:
    """Predictions at ``dps`` working digits: ridge by LU, ridgeless by least squares on the basis trials."""
    with mpmath.workdps(dps):
        mp = mpmath.mp
        gram, cross, y = system.mp()
        m = system.m
        if system.ridge is not None:
            lam = mpmath.mpf(int(system.ridge.p)) / int(system.ridge.q) if system.ridge.is_Rational else \
                mpmath.mpf(system.ridge.evalf(dps + 10))
            mat = gram.copy()
            for r in range(m):
                mat[r, r] += lam
            try:
                coef = mp.lu_solve(mat, mp.matrix(y))
            except (ZeroDivisionError, ValueError):
                raise _Singular from None
            return [mp.fdot((row[c], coef[c]) for c in range(m)) for row in cross]
        cols = list(basis.indices) if basis is not None else []
        if not cols:
            return [mp.mpf(0) for _ in cross]
        sub = mp.matrix(m, len(cols))
        for r in range(m):
            for k, c in enumerate(cols):
                sub[r, k] = gram[r, c]
        try:  # least squares (normal equations and Cholesky when r < m; mpmath's qr_solve mishandles a zero
            coef = mp.lu_solve(sub, mp.matrix(y))  # diagonal entry, sign(0) = 0)
        except (ZeroDivisionError, ValueError):
            raise _Singular from None
        return [mp.fdot((row[c], coef[k]) for k, c in enumerate(cols)) for row in cross]


def _spread(a: list[Any], b: list[Any]) -> list[Any]:
    return [abs(x - z) / max(1, abs(z)) for x, z in zip(a, b, strict=True)]


def mpmath_solve(system: KernelSystem, basis: Basis | None, dps: int, condition: float) -> Outcome:
    """Predictions good to :func:`mpmath_tolerance` ``(dps)`` or flagged, at an adaptive working precision.

    The first working precision is ``dps + 10 + 2 log10(condition)``. If the float64 estimate ``condition`` is at
    most 1e6, one solve there is enough (its error is below ``10^(-dps-2)``). Otherwise the solve is repeated at
    ``p + 10 + p/2`` digits, and ``p`` raised the same way, until two successive precisions agree to a tenth of
    the tolerance (the later values are returned) or :data:`MAX_WORKING_DPS` is reached (values not trusted).

    Raises
    ------
    SolveError
        If ``K + lambda I`` is singular at two successive precisions.
    """
    q = len(system.queries)
    lost = 16 if not math.isfinite(condition) else max(0, math.ceil(math.log10(max(condition, 1.0))))
    p = dps + _GUARD + 2 * lost
    tol = mpmath_tolerance(dps)
    if math.isfinite(condition) and condition <= _SINGLE_SOLVE_COND:
        try:
            single = _mp_values(system, basis, p)
            return Outcome(single, [0.0] * q, [True] * q, condition,
                           f"one solve at {p} digits, condition number {rounded(condition, '.1e')}", (p,))
        except _Singular:
            pass
    prev: list[Any] | None = None
    used: list[int] = []
    singular = 0
    while True:
        try:
            vals: list[Any] | None
            vals = _mp_values(system, basis, p)
            singular = 0
        except _Singular:
            vals, singular = None, singular + 1
            if singular >= 2:
                raise SolveError("K + lambda I is singular (is the kernel positive semidefinite?)") from None
        used.append(p)
        if prev is not None and vals is not None:
            with mpmath.workdps(p):
                spread = _spread(prev, vals)
                ok = [bool(s <= tol / 10) for s in spread]
            if all(ok) or p >= MAX_WORKING_DPS:
                note = f"{used[-2]} and {p} digits agree" if all(ok) else \
                    f"{used[-2]} and {p} digits still differ by up to {mpmath.nstr(max(spread), 3)}"
                return Outcome(vals, [float(s) for s in spread], ok, condition, note, tuple(used[-2:]))
        if p >= MAX_WORKING_DPS:  # no two usable precisions below the cap
            last = vals if vals is not None else prev
            if last is None:
                raise SolveError("K + lambda I is singular (is the kernel positive semidefinite?)")
            return Outcome(last, [math.inf] * q, [False] * q, condition, f"no agreement up to {p} digits",
                           tuple(used[-2:]))
        prev = vals
        p = min(MAX_WORKING_DPS, p + _GUARD + p // 2)


# ------------------------------------------------------------------------------------------- result
class NumericPredictions(dict):
    """Numeric predictions ``(i, j) -> value`` (a plain ``dict`` of floats or mpf), with how far they are trusted.

    A ``dict`` subclass, so that it is used as the mapping it is (indexing, ``items()``, ``dict(...)``): mutable
    like any dict, hence not hashable (an immutable copy: ``FrozenMapping(p)`` from :mod:`symbolic_ti.results`).
    It pickles with its attributes and compares as a dict (its values only).

    Attributes
    ----------
    precision : "float64" or int
        The asked precision (mpmath: decimal digits).
    tolerance : float or mpmath.mpf
        The stated tolerance: a trusted value ``f`` of the exact ``f*`` has
        ``|f - f*| <= tolerance * max(1, |f*|)`` (:data:`FLOAT64_TOL`, or :func:`mpmath_tolerance`).
    trusted : bool
        Whether every value is trusted.
    untrusted : tuple of (i, j)
        Trials whose value could not be shown to meet the tolerance.
    error_bound : dict (i, j) -> float
        float64: the a-posteriori error bound (same measure as the tolerance); mpmath: the difference between the
        last two working precisions (0 after one well-conditioned solve); ``inf`` where nothing could be shown.
    method : str
        How the values were obtained, e.g. ``"float64"``, ``"float64 via mpmath (34 and 61 digits agree; float64:
        condition number 2.5e+11 > 1e+10)"``, ``"mpmath 30 digits (one solve at 52 digits, condition number 3.2e+01)"``.
    condition : float
        Condition number estimate (ridge: ``K + lambda I``; ridgeless: ``K`` on its range).
    rank : int or None
        Ridgeless: the rank of ``K`` used (exact or high-precision, see ``rank_source``); ``None`` with a ridge.
    rank_source : str or None
        ``"exact"``, ``"mpmath <p>/<2p> digits"`` or ``"undecided ..."``.
    """

    def __init__(self, values: dict, *, precision: str | int, tolerance: Any, untrusted: tuple, error_bound: dict,
                 method: str, condition: float, rank: int | None = None, rank_source: str | None = None) -> None:
        super().__init__(values)
        self.precision = precision
        self.tolerance = tolerance
        self.untrusted = tuple(untrusted)
        self.error_bound = dict(error_bound)
        self.method = method
        self.condition = condition
        self.rank = rank
        self.rank_source = rank_source

    @property
    def trusted(self) -> bool:
        """Whether every value meets the stated tolerance."""
        return not self.untrusted

    def summary(self) -> str:
        """One line: method, tolerance, and how many values are trusted (the worst bound if some are not)."""
        tol = mpmath.nstr(self.tolerance, 2) if isinstance(self.tolerance, mpmath.mpf) else f"{rounded(self.tolerance, '.0e')}"
        rank = "" if self.rank_source is None else f"; rank of K {self.rank} ({self.rank_source})"
        head = f"{self.method}; tolerance {tol} (relative above 1, absolute below); condition {rounded(self.condition, '.1e')}"
        if self.trusted:
            return f"{head}{rank}; all {len(self)} values trusted"
        worst = max(self.untrusted, key=lambda t: self.error_bound.get(t, math.inf))
        return (f"{head}{rank}; NOT TRUSTED: {len(self.untrusted)} of {len(self)} values may miss the tolerance "
                f"(worst error bound {rounded(self.error_bound.get(worst, math.inf), '.1e')} at {worst})")

    def to_text(self) -> str:
        """The summary line, then every untrusted trial with its value and error bound."""
        lines = [self.summary()]
        for t in self.untrusted:
            v = self[t]
            text = mpmath.nstr(v, 17) if isinstance(v, mpmath.mpf) else repr(v)
            lines.append(f"  untrusted f{t} = {text} (error bound {rounded(self.error_bound.get(t, math.inf), '.1e')})")
        return "\n".join(lines)
