r"""Exact spectral decomposition of ``phi(M) v`` for a rational symmetric matrix, grouped by irreducible factor.

For a symmetric matrix ``M`` over QQ the minimal polynomial ``Mmin`` is squarefree, the product of the distinct
irreducible factors ``Q`` of the characteristic polynomial. For each factor the component of ``v`` in the
invariant subspace ``ker Q(M)`` is ``v_Q = R_Q(M) v`` with ``R_Q = 1 mod Q`` and ``R_Q = 0 mod Mmin / Q``
(Chinese remainder theorem, exact). For a root ``nu`` of ``Q`` the spectral projector acts on ``v_Q`` as

    P_nu v_Q = [Q(M) / (M - nu)] v_Q / Q'(nu) = sum_{j < d} q_j(nu) M^j v_Q / Q'(nu),

with ``Q(x) / (x - nu) = sum_j q_j(nu) x^j``. So every entry of ``P_nu v`` is one polynomial in ``nu`` of degree
``< deg Q`` with rational coefficients, the same polynomial for every root of ``Q`` (Galois conjugates), and any
``phi(M) v = sum_Q sum_{Q(nu) = 0} phi(nu) P_nu v``. Sums over the roots of ``Q`` of a polynomial in ``nu`` are
exact rationals (traces, from Newton's power sums). Derived in docs/theory.md#gradient-flow-in-laplacian-modes.

All arithmetic is python-flint ``fmpq_poly`` / ``fmpq``; nothing here is a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Sequence

import flint

__all__ = ["Factor", "spectral_components", "trace", "power_sums", "mod_inverse", "poly_mod"]

X = flint.fmpq_poly([0, 1])


def poly_mod(p: flint.fmpq_poly, q: flint.fmpq_poly) -> flint.fmpq_poly:
    """The remainder of ``p`` modulo ``q``."""
    return p % q


def mod_inverse(p: flint.fmpq_poly, q: flint.fmpq_poly) -> flint.fmpq_poly:
    """``p^{-1} mod q`` for ``p`` coprime to the irreducible ``q``.

    Raises
    ------
    ZeroDivisionError
        If ``p`` and ``q`` have a common factor.
    """
    g, s, _ = (p % q).xgcd(q)
    if g.degree() != 0:
        raise ZeroDivisionError("not invertible modulo the factor")
    return (s * flint.fmpq_poly([1 / g[0]])) % q


_POWER_SUMS: dict[tuple[str, int], list[flint.fmpq]] = {}


def power_sums(q: flint.fmpq_poly, count: int) -> list[flint.fmpq]:
    """``p_k = sum_{Q(nu)=0} nu^k`` for ``k = 0 .. count - 1`` (Newton's identities, exact; cached)."""
    key = (q.str(), count)
    got = _POWER_SUMS.get(key)
    if got is None:
        got = _POWER_SUMS[key] = _power_sums(q, count)
        if len(_POWER_SUMS) > 4096:
            _POWER_SUMS.clear()
    return got


def _power_sums(q: flint.fmpq_poly, count: int) -> list[flint.fmpq]:
    d = q.degree()
    lc = q[d]
    e = [q[d - i] / lc for i in range(d + 1)]  # monic coefficients, e[0] = 1: x^d + e1 x^(d-1) + ...
    p: list[flint.fmpq] = [flint.fmpq(d)]
    for k in range(1, count):
        s = flint.fmpq(0)
        for i in range(1, min(k, d + 1)):
            s += e[i] * p[k - i]
        s = -s - (k * e[k] if k <= d else 0)
        p.append(s)
    return p


def trace(w: flint.fmpq_poly, q: flint.fmpq_poly) -> flint.fmpq:
    """``sum over the roots nu of q of w(nu)``, exactly (``w`` reduced modulo ``q`` first)."""
    w = w % q
    ps = power_sums(q, max(q.degree(), 1))
    cs = w.coeffs()
    if not cs:
        return flint.fmpq(0)
    return (flint.fmpq_mat(1, len(cs), cs) * flint.fmpq_mat(len(cs), 1, ps[:len(cs)]))[0, 0]


@dataclass(frozen=True)
class Factor:
    """One irreducible factor ``Q`` of the minimal polynomial and the projected components of ``v``.

    Attributes
    ----------
    poly : fmpq_poly
        ``Q``, irreducible over QQ, leading coefficient 1.
    entries : tuple of fmpq_poly, length len(v)
        Entry ``i`` of ``P_nu v`` as a polynomial in ``nu`` of degree ``< deg Q`` (module docstring).
    """

    poly: flint.fmpq_poly
    entries: tuple[flint.fmpq_poly, ...]

    @property
    def degree(self) -> int:
        """``deg Q``, the number of eigenvalues in the group."""
        return int(self.poly.degree())


def _matvec(m: flint.fmpq_mat, v: list[flint.fmpq]) -> list[flint.fmpq]:
    col = flint.fmpq_mat(len(v), 1, v)
    out = m * col
    return [out[i, 0] for i in range(len(v))]


def _apply(poly: flint.fmpq_poly, krylov: list[list[flint.fmpq]]) -> list[flint.fmpq]:
    size = len(krylov[0])
    out = [flint.fmpq(0)] * size
    for k in range(poly.degree() + 1):
        c = poly[k]
        if c != 0:
            out = [o + c * x for o, x in zip(out, krylov[k], strict=True)]
    return out


def spectral_components(matrix: Sequence[Sequence[Fraction | int]], v: Sequence[Fraction | int]) -> list[Factor]:
    """Decompose ``v`` along the eigenvalues of the rational symmetric ``matrix``, exactly.

    Parameters
    ----------
    matrix : square sequence of rationals, shape (m, m)
        Symmetric (so diagonalizable with real eigenvalues); not checked.
    v : sequence of rationals, length m

    Returns
    -------
    list of Factor
        One per distinct irreducible factor of the characteristic polynomial whose invariant subspace meets
        ``v``; ``sum_Q sum_{Q(nu)=0} P_nu v = v``.
    """
    m = len(v)
    mat = flint.fmpq_mat(m, m, [flint.fmpq(int(Fraction(x).numerator), int(Fraction(x).denominator))
                                for row in matrix for x in row])
    vec = [flint.fmpq(int(Fraction(x).numerator), int(Fraction(x).denominator)) for x in v]
    _, facs = mat.charpoly().factor()
    polys = [f * flint.fmpq_poly([1 / f[f.degree()]]) for f, _ in facs]
    mmin = flint.fmpq_poly([1])
    for f in polys:
        mmin *= f
    krylov = [vec]  # M^k v, k < deg Mmin
    for _ in range(mmin.degree() - 1):
        krylov.append(_matvec(mat, krylov[-1]))
    out = []
    for q in polys:
        rest = mmin // q
        r = (mod_inverse(rest, q) * rest) % mmin
        d = q.degree()
        # M^j v_Q for j < d, each as (x^j R_Q mod Mmin)(M) v
        comps = [_apply((r * X ** j) % mmin, krylov) for j in range(d)]
        if all(c == 0 for c in comps[0]):
            continue
        # q_j(nu) with Q(x) / (x - nu) = sum_j q_j(nu) x^j: q_j(nu) = sum_{k > j} Q_k nu^(k - j - 1)
        qj = [flint.fmpq_poly([q[k] for k in range(j + 1, d + 1)]) for j in range(d)]
        inv_dq = mod_inverse(q.derivative(), q)
        entries = []
        for i in range(m):
            acc = flint.fmpq_poly([0])
            for j in range(d):
                if comps[j][i] != 0:
                    acc += qj[j] * comps[j][i]
            entries.append((acc * inv_dq) % q)
        out.append(Factor(q, tuple(entries)))
    return out
