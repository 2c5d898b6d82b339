"""Common machinery of the families whose item similarity comes from user data (``similarity``, ``embedding``):
the validated data (:class:`_Data`), the symbols of a user matrix as parameters, and the base class
:class:`_DataSimilarity` (the data travel through ``with_values``, equality and ``describe``).

Private to :mod:`symbolic_ti.families`; the families are
:class:`~symbolic_ti.families.data.similarity.Similarity` and :class:`~symbolic_ti.families.data.embedding.Embedding`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import mpmath
import sympy as sp

from ...errors import FamilyError, ParameterError
from ..base import Parameter
from .loading import _parse_numeric_flag
from ..similarity import ALPHA, BETA, DELTA, ItemSimilarityFamily
from .checks import _check_psd_symbolic, _is_zero

if TYPE_CHECKING:
    import numpy as np

    from ...task import Task

__all__: list[str] = []

#: Names a symbol of a user matrix may not have (the family's parameters and the ridge).
_RESERVED = ("alpha", "beta", "delta", "lambda", "ridge")


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
        """What makes two data the same: kind, float or exact, and every entry (the vectors for embeddings)."""
        entries: tuple
        if self.vectors is not None:
            entries = tuple(str(v) for row in self.vectors for v in row) + (len(self.vectors),)
        elif self.exact is not None:
            entries = tuple(str(v) for v in self.exact) + (self.exact.shape,)
        else:
            entries = tuple(repr(float(v)) for v in self.float_matrix().ravel()) + (self.float_matrix().shape,)
        return (self.kind, self.numeric, entries)

    def exact_matrix(self) -> sp.ImmutableMatrix:
        """The exact ``S`` (only for exact data; callers check ``exact is not None`` first)."""
        if self.exact is None:  # pragma: no cover - an internal invariant
            raise FamilyError("internal error: float data have no exact similarity")
        return self.exact

    def float_matrix(self) -> np.ndarray:
        """The float64 ``S`` (only for float data)."""
        if self.floats is None:  # pragma: no cover - an internal invariant
            raise FamilyError("internal error: exact data have no float64 similarity")
        return self.floats

    def vector_rows(self) -> tuple:
        """The item vectors (only for the embedding family)."""
        if self.vectors is None:  # pragma: no cover - an internal invariant
            raise FamilyError("internal error: these data have no vectors")
        return self.vectors


def _symbol_parameter(sym: sp.Symbol) -> Parameter:
    """The Parameter of a symbol that appears in a user matrix; its domain follows the symbol's assumptions."""
    if sym.is_positive:
        lo, lo_open = sp.Integer(0), True
    elif sym.is_nonnegative:
        lo, lo_open = sp.Integer(0), False
    else:
        lo, lo_open = -sp.oo, True
    return Parameter(sym.name, sym, domain=sp.Interval(lo, sp.oo, lo_open, True),
                     description="symbol in the item-similarity matrix (values must keep it positive semidefinite)")


class _DataSimilarity(ItemSimilarityFamily):
    """Common machinery of the families whose item similarity comes from user data (private)."""

    #: name of the data argument ("matrix" or "vectors")
    data_key: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]] = (ALPHA, BETA, DELTA)

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
        # per instance: the symbols of a user matrix are parameters too
        self.parameters = (ALPHA, BETA, DELTA) + tuple(_symbol_parameter(s) for s in data.symbols)  # type: ignore[misc]
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
        import numpy as np

        if self._data.floats is not None:
            return self._data.floats.copy()
        m = self.similarity_matrix()
        if m.free_symbols:
            raise ParameterError(f"{self.describe()}: give values for {', '.join(s.name for s in m.free_symbols)} "
                                 f"to evaluate the similarity numerically")
        return np.array(m.evalf(20).tolist(), dtype=float)

    def _bound_symbols(self) -> dict[sp.Symbol, sp.Expr]:
        return {s: self._values[s.name] for s in self._data.symbols if s.name in self._values}

    def check_task(self, task: Task) -> None:
        """Raise if the data do not have one row per item of ``task``.

        Raises
        ------
        ParameterError
            If the number of rows differs from ``task.n``.
        """
        n = getattr(task, "n", None)
        if n is not None and n != self._data.n:
            what = f"is {self._data.n} x {self._data.n}" if self.data_key == "matrix" else \
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
            shape = f"{self._data.n}x{len(self._data.vector_rows()[0])}"
        return f"{base[:-1]}, {self.data_key}={shape} {kind} ({self._data.origin}))"

    def identity_similarity(self) -> bool:
        """Whether ``S`` is exactly the identity (then the solver uses the exchangeable fast path)."""
        import numpy as np

        cache = self._data._cache
        key = ("identity", tuple(sorted((s.name, str(v)) for s, v in self._bound_symbols().items())))
        if key not in cache:
            if self._data.exact is None:
                cache[key] = bool(np.array_equal(self._data.float_matrix(), np.eye(self._data.n)))
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
            v = float(self._data.float_matrix()[i - 1, k - 1])
            return mpmath.mpf(v) if mp else v
        return self._exact_numeric(i, k, p, mp)

    def _exact_numeric(self, i: int, k: int, p: Mapping[str, Any], mp: bool) -> Any:
        """``S_ik`` of exact data at the working precision, from the stored entries (similarity family)."""
        v = self._data.exact_matrix()[i - 1, k - 1]
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
            cache[key] = sp.lambdify(self._data.symbols, self._data.exact_matrix()[i - 1, k - 1], modules="mpmath")
        return cache[key]
