r"""Item similarities from data: a given matrix (``similarity``) or item vectors (``embedding``).

Both families use the item-similarity kernel of :mod:`symbolic_ti.families.similarity`,

.. math::
    K((i,j),(k,l)) = \tfrac{1-\alpha}{2}(S_{ik} + S_{jl}) + \alpha S_{ik} S_{jl}
                   + \tfrac{\beta}{2}(S_{il} + S_{jk}) + \delta S_{il} S_{jk},

with ``S`` given by the user: directly (:class:`Similarity`, ``--set matrix=FILE``) or as the cosine of item
vectors (:class:`Embedding`, ``--set vectors=FILE``), e.g. hidden states of a network. The data are an
argument of the family, not a scalar :class:`~symbolic_ti.families.base.Parameter`: they are read and
validated once in ``__init__``, kept by :meth:`~symbolic_ti.families.base.Family.with_values`, and part of
equality and :meth:`~symbolic_ti.families.base.Family.describe`.

Exactness (docs/families.md#exactness-of-data). Numbers are read exactly as everywhere in symbolic_ti
(``0.1`` is 1/10). With ``numeric="auto"`` (default) the data are exact unless some entry looks like a machine float: a
float, or a decimal in a file or string, written with more than :data:`EXACT_DECIMALS` digits after the point
or in exponent notation (``np.savetxt``'s default ``%.18e``, float32 values, ...). Such data (or
``numeric=True``) are kept as float64 numbers; the kernel then has no exact form and :func:`symbolic_ti.solve`
returns float64 predictions cross-checked with mpmath (``Result.method`` starts with ``"numeric/"``). The one
exception: float data whose similarity is exactly the identity is exact (it is the exchangeable family).

Validation of a user matrix (each failure a :class:`~symbolic_ti.errors.ParameterError` naming ``matrix``):
square, symmetric, unit diagonal, positive semidefinite. Exact numbers: decided exactly, by symmetric Gaussian
elimination with diagonal pivoting (an LDL^T factorization) over QQ, or by sympy's
``Matrix.is_positive_semidefinite`` (a pivoted Cholesky with exact sign tests) for algebraic entries. Free
symbols: symmetry and the diagonal are decided exactly; positive semidefiniteness only at sample values, with
an :class:`~symbolic_ti.errors.UndecidedCheckWarning`, and exactly as soon as every symbol has a value.
Float data: within the tolerances :data:`FLOAT_SYMMETRY_TOL` and :data:`FLOAT_PSD_TOL`.

The code: :class:`Similarity` here; :class:`~symbolic_ti.families.data.embedding.Embedding` in
:mod:`~symbolic_ti.families.data.embedding`; reading files and Python data in
:mod:`~symbolic_ti.families.data.loading`; the matrix checks in :mod:`~symbolic_ti.families.data.checks`; the
machinery both families share in :mod:`~symbolic_ti.families.data.common` (the package
:mod:`symbolic_ti.families.data` lists them all).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ...errors import ParameterError
from .common import _RESERVED, _Data, _DataSimilarity
from .loading import EXACT_DECIMALS, _auto_numeric, _entry, _load_rows
from .embedding import MAX_EXACT_SQUARE_ROOTS, Embedding
from .checks import (FLOAT_PSD_TOL, FLOAT_SYMMETRY_TOL, PSD_SAMPLE_POINTS, _check_psd_symbolic,
                                _check_structure, _float_similarity, check_similarity_matrix)

__all__ = ["Similarity", "Embedding", "EXACT_DECIMALS", "FLOAT_SYMMETRY_TOL", "FLOAT_PSD_TOL",
           "PSD_SAMPLE_POINTS", "MAX_EXACT_SQUARE_ROOTS", "check_similarity_matrix"]


class Similarity(_DataSimilarity):
    r"""A user-given item-similarity matrix ``S`` (file or Python), lifted to trials.

    The kernel is that of :mod:`symbolic_ti.families.similarity`:

    .. math::
        K((i,j),(k,l)) = \tfrac{1-\alpha}{2}(S_{ik} + S_{jl}) + \alpha S_{ik} S_{jl}
                       + \tfrac{\beta}{2}(S_{il} + S_{jk}) + \delta S_{il} S_{jk}

    ``S`` must be symmetric with unit diagonal and positive semidefinite (an item-similarity or correlation
    matrix); then ``K`` is positive semidefinite for ``beta <= 1 - alpha``, ``delta <= alpha``.
    ``S = I`` is the exchangeable family with ``kappa_d = 0`` (and the solver uses its graph-Laplacian path).

    Parameters
    ----------
    matrix : sympy Matrix, 2-D numpy array, list of rows, file path, or inline JSON string; shape (n, n)
        The item similarity, row and column ``i`` for item ``i``. Entries are exact numbers (floats and
        decimal text read exactly: ``0.1`` is 1/10), sympy expressions in symbols, or machine floats (see
        ``numeric``). Files: CSV (numbers separated by commas, semicolons or whitespace, one row per line,
        ``#`` comments, an optional header row of labels) or JSON (a list of rows, or ``{"matrix": [...]}``;
        numbers or strings such as ``"1/3"``), recognized by content (JSON starts with ``[`` or ``{``).
        Each symbol of ``S`` becomes a parameter of the family, named as the symbol, with domain
        ``(-oo, oo)`` (``[0, oo)`` for a nonnegative, ``(0, oo)`` for a positive Symbol); names ``alpha``,
        ``beta``, ``delta``, ``lambda`` are reserved.
    alpha : conjunctivity factor in [0, 1], optional (symbolic if not given)
    beta : cross-position weight in [0, 1] with beta <= 1 - alpha, default 0
    delta : swapped-conjunction weight in [0, 1] with delta <= alpha, default 0
    numeric : "auto", True or False, default "auto"
        Keep the entries as float64 numbers (no exact kernel; :func:`symbolic_ti.solve` returns float64
        predictions cross-checked with mpmath). ``"auto"``: only when an entry looks like a machine float
        (more than :data:`EXACT_DECIMALS` digits after the point, or exponent notation).

    Raises
    ------
    ParameterError
        Naming ``matrix``: a file that cannot be read or parsed, an entry that is not a number, a matrix that is
        not square, not symmetric, without unit diagonal, or not positive semidefinite (decided exactly for
        exact numbers: LDL^T over QQ for rationals, sympy's ``Matrix.is_positive_semidefinite`` for algebraic
        numbers; float data within :data:`FLOAT_SYMMETRY_TOL`, :data:`FLOAT_PSD_TOL`). Also for a reserved
        symbol name, a bad ``numeric``, a value outside its domain, and (at solve time,
        :meth:`check_task`) a matrix whose size is not the task's number of items.

    Warns
    -----
    UndecidedCheckWarning
        For a matrix with free symbols: positive semidefiniteness is checked only at
        :data:`PSD_SAMPLE_POINTS` random values of the symbols (in [-1, 1], or [0, 1] for nonnegative symbols),
        and exactly once every symbol has a value.

    References
    ----------
    Derived here (docs/families.md#similarity); the additive-plus-conjunctive construction follows Lippl et al.,
    PNAS 2024.

    Examples
    --------
    >>> from symbolic_ti import Task, solve
    >>> fam = Similarity(matrix=[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], alpha=0)
    >>> solve(Task(4), fam, ridge=1).f(1, 4)      # S = I: the exchangeable reference value
    5/7
    >>> Similarity(matrix=[[1, 2], [2, 1]], alpha=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    symbolic_ti.errors.ParameterError: matrix must be positive semidefinite; ... on items 1, 2 is -3 < 0 ...
    """

    name = "similarity"
    data_key = "matrix"
    data_parameters = (("matrix", "n x n item similarity S: symmetric, unit diagonal, positive semidefinite; "
                                  "a CSV or JSON file, or a matrix in Python"),)

    def _load(self, raw: Any, numeric: bool | None) -> _Data:
        rows, origin = _load_rows(raw, "matrix")
        parsed = [[_entry(x, "matrix", f"({r + 1}, {c + 1})", True) for c, x in enumerate(row)]
                  for r, row in enumerate(rows)]
        exact = [[v for v, _ in row] for row in parsed]
        machine = any(f for row in parsed for _, f in row)
        has_symbols = any(v.free_symbols for row in exact for v in row)
        use_float = _auto_numeric(numeric, machine and not has_symbols)
        if use_float and has_symbols:
            raise ParameterError("matrix: numeric=True needs numbers, but the matrix has the symbols "
                                 + ", ".join(sorted({s.name for row in exact for v in row for s in v.free_symbols})))
        if use_float:
            return self._load_float(exact, origin)
        m = _check_structure(exact, "matrix")
        symbols = tuple(sorted(m.free_symbols, key=lambda s: s.name))
        clash = [s.name for s in symbols if s.name in _RESERVED]
        if clash:
            raise ParameterError(f"matrix: the symbol name(s) {', '.join(clash)} are reserved for the family's "
                                 f"parameters and the ridge; rename them in the matrix")
        if not symbols:
            _check_psd_symbolic(m, "matrix", {})
        return _Data("matrix", False, origin, m.rows, m, None, None, symbols)

    def _load_float(self, exact: list[list[sp.Expr]], origin: str) -> _Data:
        s = _float_similarity(exact)
        return _Data("matrix", True, origin, s.shape[0], None, s)
