r"""A precomputed trial kernel (family ``precomputed``): the Gram matrix over all ordered trials, given as data.

For a kernel that is not a formula, e.g. the representational similarity of a network's hidden states on every
trial: an ``n(n-1) x n(n-1)`` matrix ``G`` with ``K(a, b) = G[a, b]``, rows and columns in the standard trial
order (:func:`~symbolic_ti.families.data.trial_gram.standard_trials`) or labelled
(:mod:`symbolic_ti.families.data.trial_gram`). Validation (docs/families.md, "Precomputed trial kernels"):
square of size ``n(n-1)``, labels covering every trial, symmetric, positive semidefinite -- exactly (LDL^T over
QQ) for rational entries; for algebraic entries in mpmath at :data:`ALGEBRAIC_PSD_DPS` digits; for machine
floats within :data:`GRAM_FLOAT_TOL` (relative to the largest entry) with numpy.

Fast paths: a kernel whose entries depend only on which positions two trials share is exchangeable, with
``exchangeable_form() = (G_aa, alpha, kappa_d / G_aa)``, and goes to the graph-Laplacian path; one with
``G[swap a, swap b] = G[a, b]`` is swap invariant (antisymmetric halving). Both are decided exactly for exact
data. Float data use the numeric solvers (float64 checked by mpmath), as for the ``similarity`` family.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

import mpmath
import sympy as sp

from ...errors import FamilyError, ParameterError
from ..base import Family, Parameter, Trial
from .loading import _auto_numeric, _parse_numeric_flag
from .trial_gram import read_gram, standard_trials
from .checks import _psd_rational
from ...formatting import rounded

if TYPE_CHECKING:
    import numpy as np

    from ...task import Task

__all__ = ["Precomputed", "GRAM_FLOAT_TOL", "ALGEBRAIC_PSD_DPS"]

#: Float data: largest accepted asymmetry, and most negative accepted eigenvalue, relative to ``max |G|``
#: (times the size for the eigenvalue).
GRAM_FLOAT_TOL = 1e-10
#: Algebraic entries (e.g. sqrt(2)): PSD checked with mpmath's symmetric eigensolver at this many digits;
#: the smallest eigenvalue must be >= -10^-(ALGEBRAIC_PSD_DPS - 10) times the size.
ALGEBRAIC_PSD_DPS = 50


@dataclass(frozen=True, eq=False)
class _TrialGram:
    """Validated trial Gram matrix (private; passed back to ``__init__`` by ``with_values``)."""

    n: int
    origin: str
    exact: sp.ImmutableMatrix | None     # exact entries, standard order; None for float data
    floats: np.ndarray                   # float64 entries, standard order
    form: tuple[sp.Expr, sp.Expr, sp.Expr] | None   # exchangeable form, or None
    swap_invariant: bool

    def key(self) -> tuple:
        entries = tuple(str(v) for v in self.exact) if self.exact is not None else \
            tuple(repr(float(v)) for v in self.floats.ravel())
        return (self.n, entries)


def _exchangeable_form(m: sp.ImmutableMatrix, trials: Sequence[Trial]) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """``(scale, alpha, kappa_d)`` if every entry depends only on the number of shared positions, else None."""
    by_shared: dict[int, sp.Expr] = {}
    for r, a in enumerate(trials):
        for c, b in enumerate(trials):
            shared = int(a[0] == b[0]) + int(a[1] == b[1])
            v = m[r, c]
            if by_shared.setdefault(shared, v) != v and sp.expand(by_shared[shared] - v) != 0:
                return None
    scale, ko, kd = by_shared[2], by_shared[1] / by_shared[2], by_shared[0] / by_shared[2]
    if not (scale > 0) or not (kd < 1):
        return None
    return scale, sp.cancel((1 + kd - 2 * ko) / (1 - kd)), kd


def _swap_invariant(m: Any, trials: Sequence[Trial], exact: bool) -> bool:
    index = {t: k for k, t in enumerate(trials)}
    for r, a in enumerate(trials):
        ra = index[(a[1], a[0])]
        for c, b in enumerate(trials):
            other = m[ra, index[(b[1], b[0])]]
            if (sp.expand(other - m[r, c]) != 0) if exact else other != m[r, c]:
                return False
    return True


def _check_exact(rows: list[list[sp.Expr]], trials: Sequence[Trial]) -> sp.ImmutableMatrix:
    m = len(rows)
    for r in range(m):
        for c in range(r + 1, m):
            if sp.expand(rows[r][c] - rows[c][r]) != 0:
                raise ParameterError(f"gram must be symmetric; the entry of trials {trials[r]}, {trials[c]} is "
                                     f"{rows[r][c]} but that of {trials[c]}, {trials[r]} is {rows[c][r]}")
    if all(v.is_Rational for row in rows for v in row):
        ok, idx, minor = _psd_rational(rows)
        if not ok:
            where = ", ".join(str(trials[k - 1]) for k in idx[:6]) + (" ..." if len(idx) > 6 else "")
            raise ParameterError(f"gram must be positive semidefinite; the principal minor on the trials {where} "
                                 f"is {minor} < 0 (exact LDL^T over QQ)")
    else:
        with mpmath.workdps(ALGEBRAIC_PSD_DPS):
            a = mpmath.matrix([[mpmath.mpf(str(sp.N(v, ALGEBRAIC_PSD_DPS + 10))) for v in row] for row in rows])
            w = min(mpmath.eigsy(a, eigvals_only=True))
            if w < -mpmath.mpf(10) ** (10 - ALGEBRAIC_PSD_DPS) * m:
                raise ParameterError(f"gram must be positive semidefinite; its smallest eigenvalue is "
                                     f"{mpmath.nstr(w, 6)} (algebraic entries, mpmath at {ALGEBRAIC_PSD_DPS} digits)")
    return sp.ImmutableMatrix(rows)


def _check_float(rows: list[list[sp.Expr]], trials: Sequence[Trial]) -> np.ndarray:
    import numpy as np

    g = np.array([[float(v) for v in row] for row in rows], dtype=float)
    scale = max(float(np.abs(g).max()), np.finfo(float).tiny)
    asym = np.abs(g - g.T)
    if asym.max() > GRAM_FLOAT_TOL * scale:
        r, c = (int(x) for x in np.unravel_index(int(np.argmax(asym)), asym.shape))
        raise ParameterError(f"gram must be symmetric; the entry of trials {trials[r]}, {trials[c]} is {g[r, c]!r} "
                             f"but that of {trials[c]}, {trials[r]} is {g[c, r]!r} (float data: relative tolerance "
                             f"{rounded(GRAM_FLOAT_TOL, 'g')})")
    g = (g + g.T) / 2
    w = float(np.linalg.eigvalsh(g).min())
    if w < -GRAM_FLOAT_TOL * scale * len(g):
        raise ParameterError(f"gram must be positive semidefinite; its smallest eigenvalue is {rounded(w, '.6g')} (float data, "
                             f"numpy eigvalsh; tolerance {rounded(GRAM_FLOAT_TOL * scale * len(g), '.3g')})")
    g.setflags(write=False)
    return g


def _load(raw: Any, trials: Sequence[Any] | None, flag: bool | None) -> _TrialGram:
    import numpy as np

    rows, machine, n, origin = read_gram(raw, trials)
    order = standard_trials(n)
    if _auto_numeric(flag, machine):
        g = _check_float(rows, order)
        return _TrialGram(n, origin, None, g, None, _swap_invariant(g, order, False))
    m = _check_exact(rows, order)
    floats = np.array(m.evalf(20).tolist(), dtype=float)
    floats.setflags(write=False)
    return _TrialGram(n, origin, m, floats, _exchangeable_form(m, order), _swap_invariant(m, order, True))


class Precomputed(Family):
    r"""A precomputed trial kernel: ``K(a, b) = G[a, b]`` for a given Gram matrix ``G`` over all ordered trials.

    Parameters
    ----------
    gram : file path (CSV, JSON, ``.npy``), inline JSON, numpy array, sympy Matrix or list of rows
        Shape ``(n(n-1), n(n-1))``. Rows and columns in the standard trial order ``(1, 2), (1, 3), ..., (1, n),
        (2, 1), (2, 3), ..., (n, n-1)`` (that of ``Task(n).trials``) unless labelled: a CSV header row (and
        optionally a first column) of labels ``i-j``, or JSON ``{"trials": [[i, j], ...], "gram": [[...]]}``.
        Entries are exact numbers (decimals read exactly) or machine floats (see ``numeric``).
    trials : sequence of trials, optional
        Labels of the rows and columns for data given without labels (e.g. a ``.npy`` file).
    numeric : "auto", True or False, default "auto"
        Keep the entries as float64 (numeric solvers, checked by mpmath); ``"auto"``: when an entry looks like a
        machine float (more than 6 digits after the point, or exponent notation).

    Raises
    ------
    ParameterError
        Naming ``gram``: unreadable data, a size that is not ``n(n-1)``, labels that do not cover every ordered
        trial once, an asymmetric or not positive semidefinite matrix; at solve time a task with another ``n``.

    Examples
    --------
    >>> from symbolic_ti import Task, solve
    >>> from symbolic_ti.families import Exchangeable
    >>> t = Task(4)
    >>> g = [[Exchangeable(alpha=0).kernel(a, b) for b in t.trials] for a in t.trials]
    >>> fam = Precomputed(gram=g)
    >>> fam.exchangeable, solve(t, fam, ridge=1).f(1, 4)     # detected exchangeable; reference value 5/7
    (True, 5/7)
    """

    name = "precomputed"
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    data_parameters = (("gram", "n(n-1) x n(n-1) Gram matrix over all ordered trials (standard order or labelled "
                                "i-j); a CSV, JSON or .npy file"),)

    def __init__(self, gram: Any = None, trials: Sequence[Any] | None = None, numeric: Any = None,
                 **values: Any) -> None:
        if gram is None:
            raise ParameterError(f"family 'precomputed' needs gram=... ({self.data_parameters[0][1]})")
        self._data = gram if isinstance(gram, _TrialGram) else _load(gram, trials, _parse_numeric_flag(numeric))
        self._index = {t: k for k, t in enumerate(standard_trials(self._data.n))}
        super().__init__(**values)

    @property
    def n_items(self) -> int:
        """Number of items ``n`` of the data."""
        return self._data.n

    @property
    def numeric_only(self) -> bool:
        """Whether the data are float64 (only the numeric solvers apply)."""
        return self._data.exact is None

    @property
    def exchangeable(self) -> bool:  # type: ignore[override]
        """Whether the entries depend only on which positions two trials share (decided exactly)."""
        return self._data.form is not None

    @property
    def swap_invariant(self) -> bool:  # type: ignore[override]
        """Whether ``G[swap a, swap b] = G[a, b]`` for all trials (exactly, or bit for bit for float data)."""
        return self._data.swap_invariant

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(G_aa, alpha, kappa_d)`` of an exchangeable ``G`` (see :meth:`Family.exchangeable_form`)."""
        if self._data.form is None:
            return super().exchangeable_form()
        return self._data.form

    def gram_matrix(self) -> sp.ImmutableMatrix:
        """The exact ``G`` in the standard trial order.

        Raises
        ------
        FamilyError
            For float data.
        """
        if self._data.exact is None:
            raise FamilyError(f"{self.describe()} holds float data and has no exact kernel")
        return self._data.exact

    def check_task(self, task: Task) -> None:
        """Raise if the task does not have the data's ``n`` items.

        Raises
        ------
        ParameterError
            If ``task.n`` differs from the data's ``n``.
        """
        if getattr(task, "n", self._data.n) != self._data.n:
            m = self._data.n * (self._data.n - 1)
            raise ParameterError(f"precomputed: gram (--set gram=FILE) is {m} x {m}, the trials of n = "
                                 f"{self._data.n} items, but the task has n = {task.n} items")

    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        return self.gram_matrix()[self._index[a], self._index[b]]

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        # float data: their float64 values; exact data: exact rationals as Fraction (mpmath and numpy take
        # them), other exact numbers as mpf at the working precision (numpy rounds them to float64).
        r, c = self._index[a], self._index[b]
        if self._data.exact is None:
            return float(self._data.floats[r, c])
        v = self._data.exact[r, c]
        if v.is_Rational:
            return Fraction(int(v.p), int(v.q))
        return mpmath.mpf(str(sp.N(v, mpmath.mp.dps + 10)))

    def _init_values(self) -> dict[str, Any]:
        out = super()._init_values()
        out["gram"] = self._data
        return out

    def _identity(self) -> tuple:
        return super()._identity() + (self._data.key(),)

    def describe(self) -> str:
        """One line: ``precomputed(gram=72x72 exact (file G.csv))``."""
        m = self._data.n * (self._data.n - 1)
        kind = "float64" if self._data.exact is None else "exact"
        return f"{self.name}(gram={m}x{m} {kind} ({self._data.origin}))"
