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
"""

from __future__ import annotations

import json
import os
import random
import re
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Integral, Rational as _PyRational
from typing import Any, Callable, ClassVar, Mapping

import mpmath
import numpy as np
import sympy as sp
from sympy.polys.domains import QQ

from ..arguments import exact_number
from ..errors import FamilyError, ParameterError, UndecidedCheckWarning
from .base import Parameter
from .similarity import ALPHA, BETA, DELTA, ItemSimilarityFamily

__all__ = ["Similarity", "Embedding", "EXACT_DECIMALS", "FLOAT_SYMMETRY_TOL", "FLOAT_PSD_TOL",
           "PSD_SAMPLE_POINTS", "check_similarity_matrix"]

#: ``numeric="auto"``: a decimal (or a float's shortest repr) with more digits after the point than this, or
#: in exponent notation, is taken as a machine float and makes the data numeric.
EXACT_DECIMALS = 6
#: Float data: largest ``|S_ik - S_ki|`` and ``|S_ii - 1|`` accepted (S is then symmetrized, diagonal set to 1).
FLOAT_SYMMETRY_TOL = 1e-12
#: Float data: smallest eigenvalue accepted is ``-FLOAT_PSD_TOL * max(1, n)`` (numpy ``eigvalsh``).
FLOAT_PSD_TOL = 1e-10
#: Symbolic matrices: number of sample points of the positive semidefiniteness check.
PSD_SAMPLE_POINTS = 24

_RESERVED = ("alpha", "beta", "delta", "lambda", "ridge")
_SHORT = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_INT_FRACTION = re.compile(r"^[+-]?\d+\s*/\s*[+-]?\d+$")


# ----------------------------------------------------------------------------------------------- reading
def _short_decimal(text: str) -> bool:
    """Whether a number written as ``text`` is exact-looking: an integer, ``p/q``, or at most EXACT_DECIMALS
    digits after the point and no exponent."""
    t = text.strip()
    if _INT_FRACTION.match(t):
        return True
    if not _SHORT.match(t):
        return False
    return "." not in t or len(t.split(".", 1)[1]) <= EXACT_DECIMALS


def _entry(x: Any, name: str, where: str, allow_symbols: bool) -> tuple[sp.Expr, bool]:
    """One data entry as ``(exact sympy value, looks_like_machine_float)``.

    Raises
    ------
    ParameterError
        For a value that is not a finite real number (or, if allowed, a real sympy expression).
    """
    if isinstance(x, np.generic):
        if isinstance(x, np.bool_):
            raise ParameterError(f"{name}: entry {where} must be a number, got the boolean {x!r}")
        x = x.item()
    if isinstance(x, bool):
        raise ParameterError(f"{name}: entry {where} must be a number, got the boolean {x!r}")
    if isinstance(x, (Integral, Fraction, _PyRational)):
        return exact_number(x, f"{name} entry {where}"), False
    if isinstance(x, float):
        if not np.isfinite(x):
            raise ParameterError(f"{name}: entry {where} must be a finite number, got {x!r}")
        return sp.Rational(repr(x)), not _short_decimal(repr(x))
    if isinstance(x, str):
        try:
            value = exact_number(x, f"{name} entry {where}")
        except ParameterError:
            raise ParameterError(f"{name}: entry {where} is not a number: {x.strip()!r} (expected numbers such as "
                                 f"0.5, -1, 1/3 or 2.5e-3)") from None
        return value, not _short_decimal(x)
    if isinstance(x, sp.Basic):
        value = exact_number(x, f"{name} entry {where}")
        if value.free_symbols and not allow_symbols:
            raise ParameterError(f"{name}: entry {where} must be a number, got the expression {value}")
        if not value.free_symbols and (value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_real is False):
            raise ParameterError(f"{name}: entry {where} must be a finite real number, got {value}")
        return value, False
    raise ParameterError(f"{name}: entry {where} must be a number, got {type(x).__name__} {x!r}")


def _split_csv_line(line: str) -> list[str]:
    if "," in line or ";" in line:
        return [c.strip() for c in re.split(r"[,;]", line)]
    return line.split()


def _is_number_text(text: str) -> bool:
    try:
        exact_number(text, "cell")
        return True
    except ParameterError:
        return False


def _read_csv(text: str, name: str, origin: str) -> list[list[str]]:
    """Rows of cells; blank lines and ``#`` comments skipped; an optional header row (no cell a number)."""
    rows: list[list[str]] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if body:
            rows.append(_split_csv_line(body))
            lines.append(number)
    if rows and not any(_is_number_text(c) for c in rows[0] if c):
        rows, lines = rows[1:], lines[1:]  # a header row of labels
    for cells, number in zip(rows, lines):
        for col, cell in enumerate(cells, 1):
            if not _is_number_text(cell):
                raise ParameterError(f"{name}: {origin}, line {number}, column {col}: {cell!r} is not a number "
                                     f"(expected numbers separated by commas or spaces, one row per item)")
    return rows


def _read_json(text: str, name: str, origin: str) -> Any:
    try:
        data = json.loads(text, parse_float=str, parse_int=int)
    except json.JSONDecodeError as err:
        raise ParameterError(f"{name}: {origin} is not valid JSON ({err.msg}, line {err.lineno} column {err.colno}); "
                             f"expected a list of rows or {{\"{name}\": [[...], ...]}}") from None
    if isinstance(data, dict):
        if set(data) != {name}:
            raise ParameterError(f"{name}: the JSON object in {origin} must have the single key {name!r}, "
                                 f"got keys {sorted(data)}")
        data = data[name]
    return data


def _load_rows(raw: Any, name: str) -> tuple[list[list[Any]], str]:
    """The data as rows of raw entries, and where they came from (for messages and ``describe``).

    ``raw``: a sympy Matrix, a 2-D numpy array, a list of rows, a file path (str or os.PathLike; JSON when the
    content starts with ``[`` or ``{``, else CSV), or an inline JSON string starting with ``[`` or ``{``.
    """
    origin = "given"
    if isinstance(raw, (str, os.PathLike)):
        text = raw.strip() if isinstance(raw, str) else None
        if text is not None and text[:1] in ("[", "{"):
            raw, origin = _read_json(text, name, "the inline JSON"), "inline"
        else:
            path = os.fspath(raw)
            try:
                with open(path, encoding="utf-8-sig") as fh:
                    content = fh.read()
            except OSError as err:
                raise ParameterError(f"{name}: cannot read the file {path!r}: {err.strerror or err}") from None
            except UnicodeDecodeError:
                raise ParameterError(f"{name}: the file {path!r} is not a text file (expected CSV or JSON)") \
                    from None
            origin = f"file {os.path.basename(path)}"
            body = content.lstrip()
            if body[:1] in ("[", "{"):
                raw = _read_json(body, name, f"the file {path!r}")
            else:
                raw = _read_csv(content, name, f"the file {path!r}")
                if not raw:
                    raise ParameterError(f"{name}: the file {path!r} has no rows of numbers")
    if isinstance(raw, sp.MatrixBase):
        return raw.tolist(), origin
    if isinstance(raw, np.ndarray):
        if raw.ndim != 2:
            raise ParameterError(f"{name} must be a 2-D array (one row per item), got an array of shape {raw.shape}")
        if raw.dtype.kind not in "iufO":
            raise ParameterError(f"{name} must hold numbers, got a numpy array of dtype {raw.dtype}")
        return [list(r) for r in raw], origin
    if isinstance(raw, (list, tuple)):
        if not raw:
            raise ParameterError(f"{name} is empty; expected one row per item")
        rows = []
        for r, row in enumerate(raw, 1):
            if isinstance(row, np.ndarray):
                row = list(row)
            if not isinstance(row, (list, tuple)):
                raise ParameterError(f"{name} must be a list of rows (lists of numbers); row {r} is "
                                     f"{type(row).__name__} {row!r}")
            rows.append(list(row))
        return rows, origin
    raise ParameterError(f"{name} must be a sympy Matrix, a 2-D numpy array, a list of rows, or a CSV/JSON file "
                         f"path, got {type(raw).__name__}")


def _parse_numeric_flag(value: Any) -> bool | None:
    """``None`` for auto, else True/False; accepts bools and the strings auto/true/false/yes/no/1/0."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, np.integer)) and int(value) in (0, 1):
        return bool(value)
    if isinstance(value, str):
        t = value.strip().lower()
        if t == "auto":
            return None
        if t in ("true", "yes", "1", "on"):
            return True
        if t in ("false", "no", "0", "off"):
            return False
    raise ParameterError(f"numeric must be 'auto', true or false, got {value!r}")


# -------------------------------------------------------------------------------------------- exact checks
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
        return False, f"sympy's exact pivoted Cholesky finds a negative pivot (smallest eigenvalue ~{w:.6g})"
    return verdict, "" if verdict else "sympy could not decide the sign of an algebraic pivot"


def check_similarity_matrix(matrix: Any, name: str = "matrix") -> sp.ImmutableMatrix:
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
        :data:`PSD_SAMPLE_POINTS` sample values instead; see :class:`Similarity`).

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


# ------------------------------------------------------------------------------------------------ data
@dataclass(frozen=True, eq=False)
class _Data:
    """Validated item data of a family (private; passed back to ``__init__`` by ``with_values``)."""

    kind: str                           # "matrix" or "vectors"
    numeric: bool                       # float64 data (no exact kernel)
    origin: str                         # "given", "inline", "file NAME"
    n: int                              # number of items
    exact: sp.ImmutableMatrix | None    # exact S (n x n), None for float data
    floats: np.ndarray | None           # float64 S (n x n), for float data
    vectors: tuple | None = None        # embedding: the vectors (exact sympy rows, or float64 rows)
    symbols: tuple[sp.Symbol, ...] = ()
    _cache: dict = field(default_factory=dict, repr=False)

    def key(self) -> tuple:
        data = self.exact if self.exact is not None else self.floats
        if self.vectors is not None:
            data = self.vectors
        if isinstance(data, np.ndarray):
            entries = tuple(repr(float(v)) for v in data.ravel()) + (data.shape,)
        elif isinstance(data, tuple):
            entries = tuple(str(v) for row in data for v in row) + (len(data),)
        else:
            entries = tuple(str(v) for v in data) + (data.shape,)
        return (self.kind, self.numeric, entries)


def _symbol_parameter(sym: sp.Symbol) -> Parameter:
    """The Parameter of a symbol that appears in a user matrix; its domain follows the symbol's assumptions."""
    if sym.is_positive:
        lo, lo_open = sp.Integer(0), True
    elif sym.is_nonnegative:
        lo, lo_open = sp.Integer(0), False
    else:
        lo, lo_open = -sp.oo, True
    return Parameter(sym.name, sym, lo, sp.oo, lo_open, True,
                     "symbol in the item-similarity matrix (values must keep it positive semidefinite)")


class _DataSimilarity(ItemSimilarityFamily):
    """Common machinery of the families whose item similarity comes from user data (private)."""

    #: name of the data argument ("matrix" or "vectors")
    data_key: ClassVar[str]
    #: data arguments that are not scalar parameters: (name, description), for listings and docs
    data_parameters: ClassVar[tuple[tuple[str, str], ...]]
    parameters = (ALPHA, BETA, DELTA)

    def __init__(self, **values: Any) -> None:
        raw = values.pop(self.data_key, None)
        flag = _parse_numeric_flag(values.pop("numeric", None))
        if raw is None:
            raise ParameterError(f"family {self.name!r} needs {self.data_key}=... ({self.data_parameters[0][1]})")
        if isinstance(raw, _Data):
            if flag is not None and flag != raw.numeric:
                raise ParameterError(f"{self.name}: numeric cannot be changed by with_values; build the family "
                                     f"again from the data with numeric={flag}")
            data = raw
        else:
            data = self._load(raw, flag)
        self._data = data
        self.parameters = (ALPHA, BETA, DELTA) + tuple(_symbol_parameter(s) for s in data.symbols)
        super().__init__(**values)

    # ----------------------------------------------------------------- to implement
    def _load(self, raw: Any, numeric: bool | None) -> _Data:  # pragma: no cover - abstract
        raise NotImplementedError

    # ----------------------------------------------------------------- data
    @property
    def n_items(self) -> int:
        """Number of items of the data (rows of ``S``)."""
        return self._data.n

    @property
    def numeric(self) -> bool:
        """Whether the data are float64 numbers (then the kernel has no exact form unless S = I)."""
        return self._data.numeric

    @property
    def numeric_only(self) -> bool:
        """Whether only the numeric solvers apply: float data whose similarity is not exactly the identity.
        :func:`symbolic_ti.solve` then returns float64 predictions cross-checked with mpmath."""
        return self._data.numeric and not self.identity_similarity()

    def similarity_matrix(self) -> sp.ImmutableMatrix:
        """The exact item similarity ``S`` (n x n) with the bound symbol values substituted.

        Raises
        ------
        FamilyError
            For float data (see :attr:`numeric`); use :meth:`similarity_matrix_float`.
        """
        if self._data.exact is None:
            if self.identity_similarity():
                return sp.ImmutableMatrix(sp.eye(self._data.n))
            raise FamilyError(f"{self.describe()} holds float data; its similarity has no exact form "
                              f"(use similarity_matrix_float(), or numeric=False to read the data exactly)")
        return self._data.exact.xreplace(self._bound_symbols()) if self._data.symbols else self._data.exact

    def similarity_matrix_float(self) -> np.ndarray:
        """``S`` as a float64 array of shape (n, n) (symbols must all have values).

        Raises
        ------
        ParameterError
            If a symbol of the matrix has no value.
        """
        if self._data.floats is not None:
            return self._data.floats.copy()
        m = self.similarity_matrix()
        if m.free_symbols:
            raise ParameterError(f"{self.describe()}: give values for {', '.join(s.name for s in m.free_symbols)} "
                                 f"to evaluate the similarity numerically")
        return np.array(m.evalf(20).tolist(), dtype=float)

    def _bound_symbols(self) -> dict[sp.Symbol, sp.Expr]:
        return {s: self._values[s.name] for s in self._data.symbols if s.name in self._values}

    def check_task(self, task: Any) -> None:
        """Raise if the data do not have one row per item of ``task``.

        Raises
        ------
        ParameterError
            If the number of rows differs from ``task.n``.
        """
        n = getattr(task, "n", None)
        if n is not None and n != self._data.n:
            what = "is {0} x {0}".format(self._data.n) if self.data_key == "matrix" else \
                f"has {self._data.n} rows"
            raise ParameterError(f"{self.name}: {self.data_key} (--set {self.data_key}=FILE) {what} but the task has "
                                 f"n = {n} items; it needs one row per item")

    # ----------------------------------------------------------------- family hooks
    def _check_joint(self, values: Mapping[str, sp.Expr]) -> None:
        super()._check_joint(values)
        if self._data.symbols:
            bound = {s: values[s.name] for s in self._data.symbols if s.name in values}
            _check_psd_symbolic(self._data.exact, self.data_key, bound)

    def _init_values(self) -> dict[str, Any]:
        out = super()._init_values()
        out[self.data_key] = self._data
        return out

    def _identity(self) -> tuple:
        return super()._identity() + (self._data.key(),)

    def describe(self) -> str:
        """One line: name, parameter values, and the data (``matrix=5x5 exact (file S.csv)``)."""
        base = super().describe()
        kind = "float64" if self._data.numeric else ("symbolic" if self._data.symbols else "exact")
        if self.data_key == "matrix":
            shape = f"{self._data.n}x{self._data.n}"
        else:
            shape = f"{self._data.n}x{len(self._data.vectors[0])}"
        return f"{base[:-1]}, {self.data_key}={shape} {kind} ({self._data.origin}))"

    def identity_similarity(self) -> bool:
        """Whether ``S`` is exactly the identity (then the solver uses the exchangeable fast path)."""
        cache = self._data._cache
        key = ("identity", tuple(sorted((s.name, str(v)) for s, v in self._bound_symbols().items())))
        if key not in cache:
            if self._data.exact is None:
                cache[key] = bool(np.array_equal(self._data.floats, np.eye(self._data.n)))
            else:
                m = self.similarity_matrix()
                cache[key] = all(_is_zero(m[i, k] - (1 if i == k else 0)) is True
                                 for i in range(self._data.n) for k in range(self._data.n))
        return cache[key]

    def similarity(self, i: int, k: int, p: Mapping[str, sp.Expr]) -> sp.Expr:
        if self._data.exact is None:
            if self.identity_similarity():
                return sp.Integer(int(i == k))
            raise FamilyError(f"{self.describe()} holds float data and has no exact kernel; solve() uses the "
                              f"numeric solvers for it")
        v = self._data.exact[i - 1, k - 1]
        if self._data.symbols and v.free_symbols:
            v = v.xreplace({s: p[s.name] for s in self._data.symbols})
        return v

    def similarity_numeric(self, i: int, k: int, p: Mapping[str, Any]) -> Any:
        mp = isinstance(p["alpha"], mpmath.mpf)
        if self._data.exact is None:
            v = float(self._data.floats[i - 1, k - 1])
            return mpmath.mpf(v) if mp else v
        return self._exact_numeric(i, k, p, mp)

    def _exact_numeric(self, i: int, k: int, p: Mapping[str, Any], mp: bool) -> Any:
        """``S_ik`` of exact data at the working precision, from the stored entries (similarity family)."""
        v = self._data.exact[i - 1, k - 1]
        if self._data.symbols and v.free_symbols:
            fn = self._lambdified(i, k)
            out = fn(*(mpmath.mpf(p[s.name]) if mp else p[s.name] for s in self._data.symbols))
            return out if mp else float(out)
        if v.is_Rational:
            return mpmath.mpf(int(v.p)) / int(v.q) if mp else int(v.p) / int(v.q)
        return mpmath.mpf(sp.N(v, mpmath.mp.dps + 10)) if mp else float(v)

    def _lambdified(self, i: int, k: int) -> Callable:
        cache = self._data._cache
        key = ("lambdify", i, k)
        if key not in cache:
            cache[key] = sp.lambdify(self._data.symbols, self._data.exact[i - 1, k - 1], modules="mpmath")
        return cache[key]


def _auto_numeric(flag: bool | None, machine_float: bool) -> bool:
    return machine_float if flag is None else flag


#: ``numeric="auto"`` keeps rational vectors exact only while the cosines need at most this many independent
#: square roots (the number field has degree ``2^k``; k = 3 already took 103 s at n = 5, docs/families.md).
MAX_EXACT_SQUARE_ROOTS = 2


def _independent_square_roots(rows: list[list[sp.Expr]]) -> int:
    """How many independent square roots the exact cosines of these rational vectors need (the rank over GF(2) of
    the square classes of their squared norms); 0 for symbolic or algebraic entries (left to the exact checks)."""
    from sympy.ntheory.factor_ import core

    classes: list[int] = []
    for row in rows:
        sq = sum((v * v for v in row), sp.Integer(0))
        if not sq.is_Rational or sq <= 0:
            return 0
        c = int(core(int(sq.p) * int(sq.q)))
        if c != 1:
            classes.append(c)
    basis: list[int] = []
    for c in classes:
        v = _square_class_bits(c)
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    return len(basis)


_PRIMES: dict[int, int] = {}


def _square_class_bits(c: int) -> int:
    """The square-free integer ``c`` as a bit vector over its prime factors (a shared prime -> bit index)."""
    from sympy import factorint

    bits = 0
    for prime in factorint(c):
        bits |= 1 << _PRIMES.setdefault(prime, len(_PRIMES))
    return bits


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
        n = len(exact)
        for r, row in enumerate(exact, 1):
            if len(row) != n:
                raise ParameterError(f"matrix must be square (n x n, one row and one column per item); it has {n} "
                                     f"rows but row {r} has {len(row)} entries")
        s = np.array([[float(v) for v in row] for row in exact], dtype=float)
        asym = np.abs(s - s.T)
        if asym.max() > FLOAT_SYMMETRY_TOL:
            i, k = np.unravel_index(int(np.argmax(asym)), asym.shape)
            raise ParameterError(f"matrix must be symmetric; entry ({i + 1}, {k + 1}) is {s[i, k]!r} but entry "
                                 f"({k + 1}, {i + 1}) is {s[k, i]!r} (float data: tolerance {FLOAT_SYMMETRY_TOL:g})")
        diag = np.abs(np.diag(s) - 1)
        if diag.max() > FLOAT_SYMMETRY_TOL:
            i = int(np.argmax(diag))
            raise ParameterError(f"matrix must have a unit diagonal (S_ii = 1); entry ({i + 1}, {i + 1}) is "
                                 f"{s[i, i]!r} (float data: tolerance {FLOAT_SYMMETRY_TOL:g})")
        s = (s + s.T) / 2
        np.fill_diagonal(s, 1.0)
        w = float(np.linalg.eigvalsh(s).min())
        if w < -FLOAT_PSD_TOL * max(1, n):
            raise ParameterError(f"matrix must be positive semidefinite; its smallest eigenvalue is {w:.6g} "
                                 f"(float data, numpy eigvalsh; tolerance {FLOAT_PSD_TOL * max(1, n):g})")
        s.setflags(write=False)
        return _Data("matrix", True, origin, n, None, s)


class Embedding(_DataSimilarity):
    r"""Items as explicit vectors; the item similarity is their cosine (normalized inner product).

    .. math::
        S_{ik} = \frac{\langle x_i, x_k \rangle}{\lVert x_i \rVert \, \lVert x_k \rVert},

    lifted to trials by the item-similarity kernel (:mod:`symbolic_ti.families.similarity`). ``S`` is
    symmetric, has unit diagonal and is positive semidefinite by construction (a Gram matrix of unit vectors).
    Orthogonal vectors (e.g. one-hot codes) give ``S = I``, the exchangeable family with ``kappa_d = 0``.

    Parameters
    ----------
    vectors : 2-D numpy array, list of rows, sympy Matrix, or file path; shape (n, d)
        Row ``i`` is the vector of item ``i`` (e.g. a hidden state of a network), ``d >= 1``, no zero row.
        Files: CSV (numbers separated by commas, semicolons or whitespace, one row per item, ``#`` comments, an
        optional header row of labels; ``np.savetxt`` output works) or JSON (a list of rows or
        ``{"vectors": [...]}``).
    alpha : conjunctivity factor in [0, 1], optional (symbolic if not given)
    beta : cross-position weight in [0, 1] with beta <= 1 - alpha, default 0
    delta : swapped-conjunction weight in [0, 1] with delta <= alpha, default 0
    numeric : "auto", True or False, default "auto"
        Exact (False): rational (or algebraic) entries stay exact and ``S`` has exact entries
        ``<x_i, x_k> / sqrt(|x_i|^2 |x_k|^2)``, algebraic numbers in general; the exact solver then works over
        the field generated by the square roots of the norms, whose degree doubles with each new square class
        of ``|x_i|^2`` (docs/families.md#exactness-of-data). Float (True): ``S`` is computed in float64 and
        :func:`symbolic_ti.solve` returns float64 predictions cross-checked by an independent mpmath solve.
        ``"auto"``: float exactly when an entry looks like a machine float (more than
        :data:`EXACT_DECIMALS` digits after the point, exponent notation).

    Raises
    ------
    ParameterError
        Naming ``vectors``: a file that cannot be read or parsed, a non-number or symbolic entry, rows of
        different lengths, a zero row (no direction), a value outside its domain, and (at solve time,
        :meth:`check_task`) a number of rows other than the task's number of items.

    References
    ----------
    Derived here (docs/families.md#embedding); the cosine similarity of hidden representations follows
    representational similarity analysis (Kriegeskorte, Mur, Bandettini, Front. Syst. Neurosci. 2008).

    Examples
    --------
    >>> from symbolic_ti import Task, solve
    >>> fam = Embedding(vectors=[[3, 4], [4, 3], [0, 5]], alpha=0)
    >>> fam.similarity_matrix()
    Matrix([
    [    1, 24/25, 4/5],
    [24/25,     1, 3/5],
    [  4/5,   3/5,   1]])
    >>> Embedding(vectors=[[1, 0], [1, 1]]).similarity_matrix()[0, 1]
    sqrt(2)/2
    """

    name = "embedding"
    data_key = "vectors"
    data_parameters = (("vectors", "n x d item vectors, one row per item (e.g. hidden states); S = cosine "
                                   "similarity; a CSV or JSON file, or an array in Python"),)

    def _load(self, raw: Any, numeric: bool | None) -> _Data:
        rows, origin = _load_rows(raw, "vectors")
        parsed = [[_entry(x, "vectors", f"({r + 1}, {c + 1})", False) for c, x in enumerate(row)]
                  for r, row in enumerate(rows)]
        d = len(parsed[0])
        for r, row in enumerate(parsed, 1):
            if len(row) != d or d == 0:
                raise ParameterError(f"vectors must have one row per item, all of the same length d >= 1; row 1 has "
                                     f"{d} entries but row {r} has {len(row)}")
        n = len(parsed)
        exact = [[v for v, _ in row] for row in parsed]
        use_float = _auto_numeric(numeric, any(f for row in parsed for _, f in row))
        if not use_float:
            roots = _independent_square_roots(exact)
            if roots > MAX_EXACT_SQUARE_ROOTS:
                if numeric is None:
                    warnings.warn(f"vectors: the exact cosines need {roots} independent square roots (a number field "
                                  f"of degree {2 ** roots}), which the exact solver handles only slowly; using the "
                                  "numeric solvers (float64, checked with mpmath). Pass numeric=False (--set "
                                  "numeric=false) to force the exact path.", UndecidedCheckWarning, stacklevel=4)
                    use_float = True
                else:
                    warnings.warn(f"vectors: numeric=False keeps the exact path, whose cosines need {roots} "
                                  f"independent square roots (a number field of degree {2 ** roots}); expect it to "
                                  "be very slow (3 roots took 103 s at n = 5)", UndecidedCheckWarning, stacklevel=4)
        if use_float:
            x = np.array([[float(v) for v in row] for row in exact], dtype=float)
            norms = np.sqrt(np.einsum("ij,ij->i", x, x))
            zero = [r + 1 for r in range(n) if not norms[r] > 0 or not np.isfinite(norms[r])]
            if zero:
                raise ParameterError(f"vectors: row {zero[0]} is zero (or overflows), so item {zero[0]} has no "
                                     f"direction and its cosine similarity is undefined")
            u = x / norms[:, None]
            s = u @ u.T
            s = (s + s.T) / 2
            np.fill_diagonal(s, 1.0)
            s.setflags(write=False)
            x.setflags(write=False)
            return _Data("vectors", True, origin, n, None, s, tuple(tuple(r) for r in x.tolist()))
        gram = [[sp.expand(sum((a * b for a, b in zip(exact[i], exact[k])), sp.Integer(0))) for k in range(n)]
                for i in range(n)]
        for i in range(n):
            if _is_zero(gram[i][i]) is not False:
                raise ParameterError(f"vectors: row {i + 1} is zero, so item {i + 1} has no direction and its "
                                     f"cosine similarity is undefined")
        s = [[sp.Integer(1) if i == k else sp.radsimp(gram[i][k] / sp.sqrt(gram[i][i] * gram[k][k]))
              for k in range(n)] for i in range(n)]
        return _Data("vectors", False, origin, n, sp.ImmutableMatrix(s), None, tuple(tuple(r) for r in exact))

    def similarity_numeric(self, i: int, k: int, p: Mapping[str, Any]) -> Any:
        # Independent of the exact S: the cosine from the vectors, in float or mpmath arithmetic. Float data:
        # the float64 S for float64, and the cosine of the (exactly converted) float vectors for mpmath, so
        # that the mpmath cross-check also checks the normalization.
        mp = isinstance(p["alpha"], mpmath.mpf)
        if self._data.numeric and not mp:
            return float(self._data.floats[i - 1, k - 1])
        return self._exact_numeric(i, k, p, mp)

    def _exact_numeric(self, i: int, k: int, p: Mapping[str, Any], mp: bool) -> Any:
        if i == k:
            return mpmath.mpf(1) if mp else 1.0
        cache = self._data._cache
        key = ("unit", mp, mpmath.mp.dps if mp else 0)
        if key not in cache:
            units = []
            for row in self._data.vectors:
                if mp:
                    vals = [mpmath.mpf(v) if isinstance(v, float) else mpmath.mpf(int(v.p)) / int(v.q)
                            if v.is_Rational else mpmath.mpf(sp.N(v, mpmath.mp.dps + 10)) for v in row]
                    norm = mpmath.sqrt(mpmath.fsum(v * v for v in vals))
                else:
                    vals = [float(v) for v in row]
                    norm = float(np.sqrt(sum(v * v for v in vals)))
                units.append([v / norm for v in vals])
            cache[key] = units
        u = cache[key]
        if mp:
            return mpmath.fdot(u[i - 1], u[k - 1])
        return float(sum(a * b for a, b in zip(u[i - 1], u[k - 1])))
