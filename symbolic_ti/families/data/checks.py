"""Validation of an item-similarity matrix ``S``: square, symmetric, unit diagonal, positive semidefinite.

Exact numbers: decided exactly, by symmetric Gaussian elimination with diagonal pivoting (an LDL^T
factorization) over QQ, or by sympy's ``Matrix.is_positive_semidefinite`` (a pivoted Cholesky with exact sign
tests) for algebraic entries. Free symbols: symmetry and the diagonal are decided exactly; positive
semidefiniteness only at sample values, with an :class:`~symbolic_ti.errors.UndecidedCheckWarning`, and exactly
as soon as every symbol has a value. Float data: within the tolerances :data:`FLOAT_SYMMETRY_TOL` and
:data:`FLOAT_PSD_TOL` (docs/families.md#validation).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING

import sympy as sp
from sympy.polys.domains import QQ

from ...arguments import short_numbers
from ...errors import ParameterError, UndecidedCheckWarning
from .loading import DataArgument, _entry, _load_rows
from ...formatting import rounded

if TYPE_CHECKING:
    import numpy as np

__all__ = ["FLOAT_SYMMETRY_TOL", "FLOAT_PSD_TOL", "PSD_SAMPLE_POINTS", "check_similarity_matrix"]

#: Float data: largest ``|S_ik - S_ki|`` and ``|S_ii - 1|`` accepted (S is then symmetrized, diagonal set to 1).
FLOAT_SYMMETRY_TOL = 1e-12
#: Float data: smallest eigenvalue accepted is ``-FLOAT_PSD_TOL * max(1, n)`` (numpy ``eigvalsh``).
FLOAT_PSD_TOL = 1e-10
#: Symbolic matrices: number of sample points of the positive semidefiniteness check.
PSD_SAMPLE_POINTS = 24


def _is_zero(e: sp.Expr) -> bool | None:
    """Exact zero test: True, False, or None when sympy cannot decide."""
    e = sp.expand(e)
    if e == 0:
        return True
    if e.is_Rational:
        return False
    if e.free_symbols:
        return sp.simplify(e) == 0
    z = e.is_zero
    if z is None:
        z = e.equals(0)
    return z


def _psd_rational(rows: list[list[sp.Expr]]) -> tuple[bool, tuple[int, ...], sp.Expr]:
    """Positive semidefiniteness of a symmetric rational matrix, exactly: ``(ok, items, minor)``.

    Symmetric Gaussian elimination (LDL^T) over QQ with the largest remaining diagonal entry as pivot. ``S`` is
    PSD iff every pivot is positive until the remaining Schur complement is zero. On failure, ``items``
    (1-based) index a principal submatrix with negative determinant ``minor``: the product of the pivots
    times the negative diagonal entry ``d`` of the Schur complement, or times ``-s^2`` for a nonzero
    off-diagonal ``s`` of a Schur complement with zero diagonal.
    """
    n = len(rows)
    a = [[QQ.from_sympy(v) for v in row] for row in rows]
    remaining = list(range(n))
    pivots: list[int] = []
    product = QQ.one
    while remaining:
        r = max(remaining, key=lambda t: a[t][t])
        d = a[r][r]
        if d < 0:
            return False, tuple(sorted(p + 1 for p in pivots + [r])), QQ.to_sympy(product * d)
        if d == 0:
            for t in remaining:  # the largest diagonal entry is 0: any negative one fails
                if a[t][t] < 0:
                    return False, tuple(sorted(p + 1 for p in pivots + [t])), QQ.to_sympy(product * a[t][t])
            for s in remaining:
                for t in remaining:
                    if s != t and a[s][t] != 0:
                        return (False, tuple(sorted(p + 1 for p in pivots + [s, t])),
                                QQ.to_sympy(-product * a[s][t] ** 2))
            return True, (), sp.Integer(0)
        remaining.remove(r)
        pivots.append(r)
        product *= d
        for s in remaining:
            factor = a[s][r] / d
            if factor:
                for t in remaining:
                    a[s][t] -= factor * a[r][t]
    return True, (), sp.Integer(0)


def _psd_exact(m: sp.ImmutableMatrix) -> tuple[bool | None, str]:
    """``(verdict, reason)`` for a symmetric matrix of exact numbers; verdict None when undecided."""
    import numpy as np

    rows = m.tolist()
    if all(v.is_Rational for row in rows for v in row):
        ok, items, minor = _psd_rational(rows)
        if ok:
            return True, ""
        return False, (f"the principal minor on items {', '.join(map(str, items))} is {minor} < 0 "
                       f"(exact LDL^T over QQ)")
    verdict = sp.Matrix(m).is_positive_semidefinite  # pivoted Cholesky with exact sign tests
    if verdict is False:
        w = min(np.linalg.eigvalsh(np.array(m.evalf(30).tolist(), dtype=float)))
        return False, f"sympy's exact pivoted Cholesky finds a negative pivot (smallest eigenvalue ~{rounded(w, '.6g')})"
    return verdict, "" if verdict else "sympy could not decide the sign of an algebraic pivot"


def check_similarity_matrix(matrix: DataArgument, name: str = "matrix") -> sp.ImmutableMatrix:
    """Validate an exact item-similarity matrix and return it as an ``ImmutableMatrix``.

    Parameters
    ----------
    matrix : sympy Matrix, 2-D numpy array or list of rows, shape (n, n)
        Exact numbers or expressions in symbols (floats read exactly, ``0.1`` is 1/10).
    name : str
        Name used in messages.

    Returns
    -------
    sympy.ImmutableMatrix of shape (n, n)

    Raises
    ------
    ParameterError
        If the matrix is not square, not symmetric, has a diagonal entry other than 1, or (with exact numbers
        only) is not positive semidefinite; the message names ``name`` and the offending entries or items.

    Warns
    -----
    UndecidedCheckWarning
        If positive semidefiniteness cannot be decided exactly (free symbols: checked at
        :data:`PSD_SAMPLE_POINTS` sample values instead; see :class:`~symbolic_ti.families.data.similarity.Similarity`).

    Examples
    --------
    >>> check_similarity_matrix([[1, 0.5], [0.5, 1]])
    Matrix([
    [  1, 1/2],
    [1/2,   1]])
    """
    rows, _ = _load_rows(matrix, name)
    exact = [[_entry(x, name, f"({r + 1}, {c + 1})", True)[0] for c, x in enumerate(row)]
             for r, row in enumerate(rows)]
    m = _check_structure(exact, name)
    _check_psd_symbolic(m, name, {})
    return m


def _check_structure(rows: list[list[sp.Expr]], name: str) -> sp.ImmutableMatrix:
    """Square, symmetric, unit diagonal, decided exactly (also with symbols)."""
    n = len(rows)
    for r, row in enumerate(rows, 1):
        if len(row) != n:
            raise ParameterError(f"{name} must be square (n x n, one row and one column per item); it has {n} "
                                 f"rows but row {r} has {len(row)} entries")
    for i in range(n):
        if _is_zero(rows[i][i] - 1) is not True:
            raise ParameterError(f"{name} must have a unit diagonal (S_ii = 1, normalized similarities); "
                                 f"entry ({i + 1}, {i + 1}) is {rows[i][i]}")
    for i in range(n):
        for k in range(i + 1, n):
            if _is_zero(rows[i][k] - rows[k][i]) is not True:
                raise ParameterError(f"{name} must be symmetric; entry ({i + 1}, {k + 1}) is {rows[i][k]} but "
                                     f"entry ({k + 1}, {i + 1}) is {rows[k][i]}")
    return sp.ImmutableMatrix(rows)


def _sample_values(sym: sp.Symbol, rng: random.Random) -> sp.Rational:
    """A random rational in [0, 1] for a nonnegative symbol, (0, 1] for a positive one, else [-1, 1]."""
    k = rng.randint(0, 96)
    if sym.is_positive:
        return sp.Rational(k + 1, 97)
    if sym.is_nonnegative:
        return sp.Rational(k, 96)
    return sp.Rational(2 * k - 96, 96)


def _check_psd_symbolic(m: sp.ImmutableMatrix, name: str, bound: Mapping[sp.Symbol, sp.Expr]) -> None:
    """PSD of ``m`` with the ``bound`` symbol values: exactly when no symbol is left, else at sample points."""
    mm = m.xreplace(dict(bound)) if bound else m
    free = sorted(mm.free_symbols, key=lambda s: s.name)
    if not free:
        verdict, reason = _psd_exact(mm)
        if verdict is False:
            at = "" if not bound else " at " + ", ".join(f"{s} = {v}" for s, v in bound.items())
            raise ParameterError(f"{name} must be positive semidefinite{at}; it is not: {reason}")
        if verdict is None:
            warnings.warn(f"{name}: positive semidefiniteness was not decided exactly ({reason}); the matrix is "
                          f"used as given", UndecidedCheckWarning, stacklevel=4)
        return
    rng = random.Random(0)
    passed, failed_at = 0, None
    for _ in range(PSD_SAMPLE_POINTS):
        pt = {s: _sample_values(s, rng) for s in free}
        at = mm.xreplace(pt)
        if at.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            continue
        verdict, _ = _psd_exact(at)
        if verdict is False:
            failed_at = failed_at or pt
        else:
            passed += 1
    names = ", ".join(s.name for s in free)
    text = (f"{name}: positive semidefiniteness of the symbolic matrix was NOT decided exactly; it holds at "
            f"{passed} of {PSD_SAMPLE_POINTS} random sample values of {names}")
    if failed_at:
        text += " and fails at " + ", ".join(f"{s} = {v}" for s, v in failed_at.items())
    text += ". It is checked exactly once every symbol has a value (with_values, verify, subs)."
    warnings.warn(text, UndecidedCheckWarning, stacklevel=4)


def _float_similarity(exact: list[list[sp.Expr]]) -> np.ndarray:
    """A ``matrix`` of float data as a read-only float64 array, validated within :data:`FLOAT_SYMMETRY_TOL` and
    :data:`FLOAT_PSD_TOL`, symmetrized and with its diagonal set to 1.

    Raises
    ------
    ParameterError
        If the matrix is not square, has an entry that overflows a float, is not symmetric, has no unit diagonal
        or a too negative eigenvalue.
    """
    import numpy as np

    n = len(exact)
    for r, row in enumerate(exact, 1):
        if len(row) != n:
            raise ParameterError(f"matrix must be square (n x n, one row and one column per item); it has {n} "
                                 f"rows but row {r} has {len(row)} entries")
    s = np.array([[float(v) for v in row] for row in exact], dtype=float)
    if not np.isfinite(s).all():
        i, k = (int(x) for x in np.argwhere(~np.isfinite(s))[0])
        raise ParameterError(f"matrix entry ({i + 1}, {k + 1}) = {short_numbers(str(exact[i][k]), 12)} overflows float data "
                             f"(a float64 is at most about 1.8e308); the entries of a similarity matrix with unit "
                             f"diagonal lie in [-1, 1]")
    asym = np.abs(s - s.T)
    if asym.max() > FLOAT_SYMMETRY_TOL:
        i, k = (int(x) for x in np.unravel_index(int(np.argmax(asym)), asym.shape))
        raise ParameterError(f"matrix must be symmetric; entry ({i + 1}, {k + 1}) is {s[i, k]!r} but entry "
                             f"({k + 1}, {i + 1}) is {s[k, i]!r} (float data: tolerance {rounded(FLOAT_SYMMETRY_TOL, 'g')})")
    diag = np.abs(np.diag(s) - 1)
    if diag.max() > FLOAT_SYMMETRY_TOL:
        i = int(np.argmax(diag))
        raise ParameterError(f"matrix must have a unit diagonal (S_ii = 1); entry ({i + 1}, {i + 1}) is "
                             f"{s[i, i]!r} (float data: tolerance {rounded(FLOAT_SYMMETRY_TOL, 'g')})")
    s = (s + s.T) / 2
    np.fill_diagonal(s, 1.0)
    w = float(np.linalg.eigvalsh(s).min())
    if w < -FLOAT_PSD_TOL * max(1, n):
        raise ParameterError(f"matrix must be positive semidefinite; its smallest eigenvalue is {rounded(w, '.6g')} "
                             f"(float data, numpy eigvalsh; tolerance {rounded(FLOAT_PSD_TOL * max(1, n), 'g')})")
    s.setflags(write=False)
    return s
