r"""Certified numeric modes of the halved (or full) Gram matrix, for kernels whose Gram matrix is not rational.

Used when the exact path cannot give numbers: the Gram matrix has irrational entries (relu-nngp, relu-ntk,
algebraic parameter values, embeddings) or its rates are irrational constants. Everything is ball (arb)
arithmetic at ``prec`` bits; nothing is a float without a bound (docs/theory.md#certified-numeric-modes):

1. **Eigenvalues.** ``acb_mat.eig(multiple=True)`` encloses every eigenvalue of the ball Gram matrix ``G``
   (with multiplicity); enclosures that overlap are merged into one *cluster* ``C`` (an interval holding every
   true eigenvalue of the group), with centre ``c_C`` (an exact binary number).
2. **Projectors.** With ``p_C(x) = prod_{D != C} (x - c_D) / (c_C - c_D)`` (Sylvester / Lagrange), the ball
   product ``p_C(G) y`` encloses the exact ``p_C(G_true) y``, and ``p_C(G) - P_C = sum_lambda (p_C(lambda) -
   [lambda in C]) P_lambda``, so ``|k^T P_C y - k^T p_C(G) y| <= eps_C ||k|| ||y||`` with ``eps_C`` the largest
   ``|p_C(E) - [E = C]|`` over the cluster balls ``E``.
3. **Time course.** ``f_t(x) = F - sum_C A_C exp(-r_C t) / r_C + e(t)`` with ``A_C`` the ball of ``k^T P_C y``,
   ``r_C`` the centre of the cluster's rate ``c_C + lambda`` and, for a cluster of width ``w_C`` and lowest rate
   ``rho_C``, ``|e(t)| <= sum_C 2 S_C w_C / rho_C^2`` and ``|e'(t)| <= sum_C S_C w_C / rho_C`` uniformly in ``t``
   (``S_C >= sum_{mu in C} |k^T P_mu y|``: ``|A_C|`` for one eigenvalue, ``||k|| ||y||`` for a cluster). ``F`` is
   the ball solution ``k^T (G + lambda I)^{-1} y``; derivatives at 0 are ``(-1)^(j+1) k^T (G + lambda I)^(j-1) y``.

With counts ``C`` (the weighted loss, :mod:`.modes`) the same steps run on the symmetric
``G = C^(1/2) K C^(1/2)``, ``y = C^(1/2) y`` and ``k = C^(1/2) k``: ``a = C^(1/2) b`` turns
``da/dt = -(C K + lambda I) a + C y`` into ``db/dt = -(G + lambda I) b + C^(1/2) y`` and ``f = k^T C^(1/2) b``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import sympy as sp

from ..analysis.roots.ball import ball_coefficients
from ..errors import SolveError
from ..families.base import Family, Trial
from ..gram import is_swap_invariant, system_entries
from ..task import Task

__all__ = ["Cluster", "NumericModes", "GramEntries", "gram_entries", "numeric_modes", "bits_of"]


def bits_of(dps: int) -> int:
    """Working precision in bits for ``dps`` decimal digits (with 16 guard bits)."""
    return int(dps * 3.3219280948873626) + 16


@dataclass(frozen=True)
class Cluster:
    """One group of eigenvalues of the Gram matrix whose enclosures overlap.

    Attributes
    ----------
    eigenvalues : arb
        Interval holding every true eigenvalue of the group.
    count : int
        Number of eigenvalues (with multiplicity) in it.
    """

    eigenvalues: Any
    count: int


@dataclass(frozen=True)
class NumericModes:
    """Certified modes of every query at one precision (module docstring).

    Attributes
    ----------
    prec : int
        Working precision in bits.
    clusters : tuple of Cluster
    rates : tuple of arb
        Exact centre ``r_C`` of each cluster's rate.
    lower, upper : tuple of arb
        Rigorous lower / upper bounds of each cluster's rates.
    amplitudes : dict trial -> tuple of arb
        Ball of ``k^T P_C y`` per cluster (projector error included).
    magnitudes : dict trial -> tuple of arb
        Upper bounds ``S_C`` of ``sum_{mu in C} |k^T P_mu y|``.
    limits : dict trial -> arb
        Ball of ``k^T (G + lambda I)^{-1} y``.
    slack : dict trial -> (arb, arb)
        Uniform bounds of ``|e(t)|`` and ``|e'(t)|``.
    method : str
        ``"halved"`` or ``"full"``.
    """

    prec: int
    clusters: tuple[Cluster, ...]
    rates: tuple[Any, ...]
    lower: tuple[Any, ...]
    upper: tuple[Any, ...]
    amplitudes: dict[Trial, tuple[Any, ...]]
    magnitudes: dict[Trial, tuple[Any, ...]]
    limits: dict[Trial, Any]
    slack: dict[Trial, tuple[Any, Any]]
    method: str
    powers: tuple[Any, ...] = ()  # (cross, gram + ridge, y) balls for the derivatives at 0
    exact: tuple[Any, ...] = ()  # the same as sympy matrices, to recognise an exactly zero derivative

    def derivative_at_zero(self, trial: Trial, order: int, row: int) -> Any:
        """``f^(order)(0) = (-1)^(order+1) k^T (G + lambda I)^(order-1) y`` of the query at ``row``, as a ball
        (``order >= 1``); ``Fraction(0)`` when the ball holds 0 and the exact value (sympy, orders <= 3) is 0."""
        cross, shifted, y = self.powers
        with flint.ctx.workprec(self.prec):
            v = y
            for _ in range(order - 1):
                v = shifted * v
            s = (cross * v)[row, 0]
        if s.contains(0) and order <= 3:
            xc, xg, xy = self.exact
            w = xy
            for _ in range(order - 1):
                w = (xg * w).applyfunc(sp.expand)
            if sp.expand((xc[row, :] * w)[0, 0]) == 0:
                return Fraction(0)
        return s if order % 2 == 1 else -s


def _clusters(gram: Any, prec: int) -> list[Cluster]:
    work = prec
    for _ in range(3):
        with flint.ctx.workprec(work):
            try:
                eig = flint.acb_mat(gram).eig(multiple=True)
            except ValueError:
                work *= 2
                continue
        groups: list[list[Any]] = [[e.real, 1] for e in eig]
        merged = True
        while merged:  # until no two groups' intervals overlap
            merged = False
            for a in range(len(groups)):
                for b in range(a + 1, len(groups)):
                    if groups[a][0].overlaps(groups[b][0]):
                        groups[a] = [groups[a][0].union(groups[b][0]), groups[a][1] + groups[b][1]]
                        del groups[b]
                        merged = True
                        break
                if merged:
                    break
        groups.sort(key=lambda g: float(g[0].mid()))
        return [Cluster(b, c) for b, c in groups]
    raise SolveError(f"could not enclose the eigenvalues of the Gram matrix at {work // 2} bits")


def _norm(v: Any, size: int) -> Any:
    s = flint.arb(0)
    for i in range(size):
        s += v[i, 0] ** 2
    return s.sqrt()


@dataclass(frozen=True)
class GramEntries:
    """The exact (sympy) entries of the halved (full) system, row-major, as :func:`symbolic_ti.gram.build_system`
    defines them but without a common domain (cheap for irrational kernels).

    Attributes
    ----------
    halved : bool
    m : int
        Number of rows (unknowns).
    queries : tuple of trials
    flat : list of sympy expressions
        Gram matrix (m x m), then cross kernels (len(queries) x m), then targets (m).
    counts : tuple of sympy Rationals, optional
        Each row's count (presentations); ``None`` when every count is 1.
    """

    halved: bool
    m: int
    queries: tuple[Trial, ...]
    flat: list[sp.Expr]
    counts: tuple[sp.Rational, ...] | None = None

    def weighted(self) -> list[sp.Expr]:
        """``flat`` for ``C^(1/2) K C^(1/2)``, ``k C^(1/2)`` and ``C^(1/2) y`` (module docstring); ``flat``
        itself when every count is 1."""
        if self.counts is None:
            return self.flat
        m, nq = self.m, len(self.queries)
        root = [sp.sqrt(c) for c in self.counts]
        gram = [self.flat[p * m + q] * root[p] * root[q] for p in range(m) for q in range(m)]
        cross = [self.flat[m * m + t * m + q] * root[q] for t in range(nq) for q in range(m)]
        y = [self.flat[m * m + nq * m + q] * root[q] for q in range(m)]
        return gram + cross + y

    @property
    def rational(self) -> bool:
        """Whether every entry is a rational number (then the exact path applies)."""
        return all(sp.sympify(e).is_Rational for e in self.flat)


def gram_entries(task: Task, family: Family) -> GramEntries:
    """The halved (swap-invariant kernels) or full Gram matrix, cross kernels of every trial and targets."""
    halved = is_swap_invariant(task, family)
    rows, gram, cross, targets = system_entries(task, family, halved)
    flat = [sp.sympify(e) for e in gram + cross] + [sp.Integer(y) for y in targets]
    counts = None if task.uniform_counts else tuple(task.counts[r] for r in rows)
    return GramEntries(halved, len(rows), task.trials, flat, counts)


def numeric_modes(entries: GramEntries, ridge: sp.Expr | None, prec: int) -> NumericModes:
    """Certified numeric modes of the halved (full) Gram matrix at ``prec`` bits (module docstring).

    Raises
    ------
    SolveError
        If the eigenvalues cannot be enclosed, or a rate cannot be certified positive (ridgeless flow with a
        zero eigenvalue).
    """
    halved, flat = entries.halved, entries.weighted()
    m, nq = entries.m, len(entries.queries)
    lam_expr = sp.Integer(0) if ridge is None else sp.sympify(ridge)
    balls = ball_coefficients([*flat, lam_expr], prec)
    lam = balls[-1]
    with flint.ctx.workprec(prec):
        gram = flint.arb_mat(m, m, balls[: m * m])
        cross = flint.arb_mat(nq, m, balls[m * m: m * m + nq * m])
        y = flint.arb_mat(m, 1, balls[m * m + nq * m: -1])
        clusters = _clusters(gram, prec)
        centres = [flint.arb(c.eigenvalues.mid()) for c in clusters]
        proj, eps = [], []
        for ci, cc in enumerate(centres):
            v = y
            for di, cd in enumerate(centres):
                if di != ci:
                    v = (gram * v - v * cd) * (1 / (cc - cd))
            proj.append(cross * v)
            worst = flint.arb(0)
            for ei, ce in enumerate(clusters):
                val = flint.arb(1)
                for di, cd in enumerate(centres):
                    if di != ci:
                        val *= (ce.eigenvalues - cd) / (cc - cd)
                worst = worst.union(abs(val - (1 if ei == ci else 0)))
            eps.append(flint.arb(worst.upper()))
        rate_balls = [c.eigenvalues + lam for c in clusters]
        rates = tuple(flint.arb(r.mid()) for r in rate_balls)
        lower = tuple(flint.arb(r.lower()) for r in rate_balls)
        upper = tuple(flint.arb(r.upper()) for r in rate_balls)
        widths = [flint.arb((2 * r.rad()).upper()) if c.count > 1 else flint.arb(2 * r.rad())
                  for r, c in zip(rate_balls, clusters, strict=True)]
        if not all(lo > 0 for lo in lower):
            raise SolveError(f"a rate of the Gram matrix's modes (eigenvalue plus ridge) could not be certified "
                             f"positive at {prec} bits; a ridgeless flow along a zero eigenvalue is not certified "
                             "on the numeric path (give a ridge > 0)")
        shifted = gram + flint.arb_mat(m, m, [lam if i == j else 0 for i in range(m) for j in range(m)])
        limit_vec = cross * shifted.solve(y)
        ynorm = _norm(y, m)
        amps, mags, lims, slack = {}, {}, {}, {}
        for qi, x in enumerate(entries.queries):
            knorm = (sum((cross[qi, j] ** 2 for j in range(m)), flint.arb(0))).sqrt()
            a_list, s_list = [], []
            sv, sd = flint.arb(0), flint.arb(0)
            for ci, cl in enumerate(clusters):
                a = proj[ci][qi, 0] + flint.arb(0, (eps[ci] * knorm * ynorm).upper())
                s = flint.arb(abs(a).upper()) if cl.count == 1 else flint.arb((knorm * ynorm).upper())
                a_list.append(a)
                s_list.append(s)
                sv += 2 * s * widths[ci] / lower[ci] ** 2
                sd += s * widths[ci] / lower[ci]
            amps[x], mags[x] = tuple(a_list), tuple(s_list)
            lims[x] = limit_vec[qi, 0]
            slack[x] = (flint.arb(sv.upper()), flint.arb(sd.upper()))
    return NumericModes(prec, tuple(clusters), rates, lower, upper, amps, mags, lims, slack,
                        "halved" if halved else "full", (cross, shifted, y),
                        (sp.Matrix(nq, m, flat[m * m: m * m + nq * m]),
                         sp.Matrix(m, m, flat[: m * m]) + lam_expr * sp.eye(m), sp.Matrix(m, 1, flat[m * m + nq * m:])))
