r"""Closed forms for a general number of items ``n`` (exchangeable family).

Everything here is derived in ``docs/general_n.md`` from the graph-Laplacian reduction
(``docs/theory.md#graph-laplacian-reduction``): test predictions are rank differences ``f(i, j) = r_i - r_j``
with ``(Lap + gamma I) r = b`` on the comparison graph, and a training trial ``e`` with target ``y`` gives
``f(e) = d_e + alpha / (alpha + lambda') (y - d_e)``, ``d_e = r_i - r_j``, ``lambda' = lambda / (1 - kappa_d)``,
``gamma = 2 (alpha + lambda') / (1 - alpha)``.

Two equivalent forms of every result, in the variable ``x = cosh(mu) = 1 + gamma / 2 = (1 + lambda') / (1 - alpha)``:

* **chebyshev**: polynomials in ``x`` (sympy ``chebyshevu(k, x)`` with symbolic ``k``), a rational function of
  ``x`` for fixed integers, hence exact and rational for rational ``alpha``, ridge and ``kappa_d``;
* **sinh**: hyperbolic functions of ``mu >= 0``, the form of Lippl et al. (PNAS 2024).

Public API
----------
Symbols: :data:`n` (shared with :mod:`symbolic_ti.symbols`), :data:`L`, :data:`D` (exception span,
``W = L + D``), :data:`W`, :data:`i`, :data:`j`, :data:`k`, :data:`mu`, :data:`x`.

* :func:`cosh_mu`, :func:`gamma_expr`: the variable in the family parameters.
* :func:`chebyshev_v`, :func:`path_continuant`, :func:`path_determinant`, :func:`path_green`: the path's
  Green's function.
* :func:`rank_no_exception`, :func:`prediction_no_exception`, :func:`pnas_closed_form`,
  :func:`evaluate_no_exception`: no exception.
* :func:`exception_closed_form` -> :class:`ExceptionClosedForm`: one exception ``W>L``, piecewise by region.
* :func:`fixed_position_ranks`: several exceptions, for fixed ``n`` and positions only.
* :func:`limit_ridgeless_additive`, :func:`limit_conjunctive`, :func:`exception_limit_ridgeless_additive`:
  limits ``alpha, lambda -> 0`` and ``alpha -> 1``, taken as limits.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import mpmath
import sympy as sp

from .. import symbols as S
from ..arguments import exact_number, parse_ridge
from ..errors import ParameterError
from ..solvers.laplacian import GAMMA, rank_solution
from ..task import Task

__all__ = [
    "n", "L", "D", "W", "i", "j", "k", "mu", "x", "REGIONS", "REGION_PAIRS", "FORMS",
    "FORMAT_NAME", "FORMAT_VERSION",
    "cosh_mu", "gamma_expr", "chebyshev_v", "path_continuant", "path_determinant", "path_green",
    "rank_no_exception", "prediction_no_exception", "pnas_closed_form", "evaluate_no_exception",
    "ExceptionClosedForm", "exception_closed_form", "region_of", "NoExceptionClosedForm", "no_exception_closed_form",
    "fixed_position_ranks",
    "limit_ridgeless_additive", "limit_conjunctive", "exception_limit_ridgeless_additive",
]

# ----------------------------------------------------------------------------------------------- symbols
#: Number of items (the shared Symbol of :mod:`symbolic_ti.symbols`).
n = S.n
#: Loser of the exception ``W>L`` (the higher-ranked item of the pair).
L = sp.Symbol("L", integer=True, positive=True)
#: Span of the exception, ``D = W - L >= 2``.
D = sp.Symbol("D", integer=True, positive=True)
#: Winner of the exception, ``W = L + D`` (an expression, not a Symbol).
W = L + D
#: Items of a trial ``(i, j)``.
i = sp.Symbol("i", integer=True, positive=True)
j = sp.Symbol("j", integer=True, positive=True)
i_sym, j_sym = i, j  # aliases for functions whose parameters shadow the Symbols
#: Item index of a rank ``r_k``.
k = sp.Symbol("k", integer=True, positive=True)
#: ``mu >= 0`` with ``cosh(mu) = 1 + gamma / 2``; ``mu = 0`` is reached only as a limit.
mu = sp.Symbol("mu", positive=True)
#: ``x = cosh(mu) = 1 + gamma / 2 >= 1``.
x = sp.Symbol("x", positive=True)

#: Regions of an item relative to the cycle ``L..W`` of the exception.
REGIONS: tuple[str, ...] = ("before", "inside", "after")
#: Region pairs ``(region of i, region of j)`` of a trial ``(i, j)``.
REGION_PAIRS: tuple[tuple[str, str], ...] = tuple((a, b) for a in REGIONS for b in REGIONS)
#: The two forms of every closed form.
FORMS: tuple[str, ...] = ("sinh", "chebyshev")

#: ``meta.format`` of :meth:`ExceptionClosedForm.to_dict`.
FORMAT_NAME = "symbolic_ti.general_closed_form"
# Version of that JSON format; bump it, with a line here, whenever a field changes meaning or disappears.
#   1: first format.
FORMAT_VERSION = 1

_HALF = sp.Rational(1, 2)
_DELTA0 = sp.Symbol("Delta_0")
_Q = sp.Symbol("Q")
_D_E = sp.Symbol("d_e")
_Y_E = sp.Symbol("y_e")


def _check_form(form: str) -> str:
    if form not in FORMS:
        raise ParameterError(f"form must be one of {', '.join(FORMS)}, got {form!r}")
    return form


# ------------------------------------------------------------------------------------------- parameters
def gamma_expr(alpha: Any = S.alpha, ridge: Any = S.ridge, kappa_d: Any = S.kappa_d) -> sp.Expr:
    """The effective ridge ``gamma = 2 (alpha + lambda') / (1 - alpha)``, ``lambda' = ridge / (1 - kappa_d)``.

    Parameters
    ----------
    alpha, ridge, kappa_d : numbers or sympy expressions, default the shared Symbols
        Domains: ``alpha`` in ``[0, 1)``, ``ridge >= 0``, ``kappa_d`` in ``[0, 1)``.

    Returns
    -------
    sympy expression
        Source: docs/theory.md#graph-laplacian-reduction.
    """
    lam = sp.sympify(ridge) / (1 - sp.sympify(kappa_d))
    return 2 * (sp.sympify(alpha) + lam) / (1 - sp.sympify(alpha))


def cosh_mu(alpha: Any = S.alpha, ridge: Any = S.ridge, kappa_d: Any = S.kappa_d) -> sp.Expr:
    """``x = cosh(mu) = 1 + gamma / 2 = (1 + lambda') / (1 - alpha)``, ``lambda' = ridge / (1 - kappa_d)``.

    For ``kappa_d = 0`` this is the PNAS parametrization ``cosh(mu) = (1 + lambda) / (1 - alpha)``.
    Domains as :func:`gamma_expr`; ``x >= 1``. Derived here, see docs/general_n.md#the-variable.
    """
    lam = sp.sympify(ridge) / (1 - sp.sympify(kappa_d))
    return (1 + lam) / (1 - sp.sympify(alpha))


# --------------------------------------------------------------------------------- path Green's function
def chebyshev_v(a: Any, var: sp.Expr = x) -> sp.Expr:
    """Chebyshev polynomial of the third kind ``V_a(var) = U_a(var) - U_{a-1}(var)``.

    ``V_a(cosh mu) = cosh((a + 1/2) mu) / cosh(mu / 2)``; ``V_0 = 1``, ``V_1 = 2 var - 1``.

    Parameters
    ----------
    a : integer or integer-valued sympy expression (``a >= 0`` where used here)
    var : sympy expression, default :data:`x`

    Returns
    -------
    sympy expression
        ``chebyshevu(a, var) - chebyshevu(a - 1, var)``; explicit polynomial when ``a`` is a number.
        Source: docs/general_n.md#continuants-and-chebyshev-polynomials (Mason and Handscomb, *Chebyshev
        Polynomials*, 2003, section 1.2.3).
    """
    return _u(a, var) - _u(a - 1, var)


def _u(a: Any, var: sp.Expr) -> sp.Expr:
    """``chebyshevu(a, var)``, kept as written for a symbolic ``a`` (sympy would rewrite an index such as
    ``n - L - D`` as ``-U_{L+D-n-2}``, which is equal for integers but hides that the index is >= 0)."""
    a = sp.sympify(a)
    return sp.chebyshevu(a, var) if a.is_number else sp.chebyshevu(a, var, evaluate=False)


def path_continuant(index: Any, form: str = "chebyshev") -> sp.Expr:
    """Leading principal minor ``theta_index`` of ``Lap_path + gamma I``, for ``0 <= index <= n - 1``.

    Returns
    -------
    sympy expression
        chebyshev: ``V_index(x)``; sinh: ``cosh((index + 1/2) mu) / cosh(mu / 2)``.
        (``theta_n`` is the determinant, :func:`path_determinant`, not this formula.)
        Derived here, see docs/general_n.md#continuants-and-chebyshev-polynomials.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return chebyshev_v(index)
    return sp.cosh((index + _HALF) * mu) / sp.cosh(mu / 2)


def path_determinant(form: str = "chebyshev", size: Any = n) -> sp.Expr:
    """``theta_n = det(Lap_path + gamma I)`` of the path with ``size`` items.

    Returns
    -------
    sympy expression
        chebyshev: ``2 (x - 1) U_{n-1}(x) = gamma U_{n-1}(x)``; sinh: ``2 sinh(n mu) tanh(mu / 2)``.
        Derived here, see docs/general_n.md#continuants-and-chebyshev-polynomials.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return 2 * (x - 1) * _u(size - 1, x)
    return 2 * sp.sinh(size * mu) * sp.tanh(mu / 2)


def path_green(a: Any, b: Any, form: str = "chebyshev") -> sp.Expr:
    """``(Lap_path + gamma I)^{-1}[a, b]`` for items ``a <= b`` of the path ``1 - ... - n``.

    Parameters
    ----------
    a, b : integers or integer sympy expressions with ``1 <= a <= b <= n``
        The formula uses ``min = a``, ``max = b``; pass the smaller item first.
    form : {"chebyshev", "sinh"}

    Returns
    -------
    sympy expression
        chebyshev: ``V_{a-1}(x) V_{n-b}(x) / (2 (x - 1) U_{n-1}(x))``;
        sinh: ``cosh((a - 1/2) mu) cosh((n - b + 1/2) mu) / (sinh(mu) sinh(n mu))``.
        Derived here, see docs/general_n.md#greens-function-of-the-path.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return chebyshev_v(a - 1) * chebyshev_v(n - b) / path_determinant("chebyshev")
    return sp.cosh((a - _HALF) * mu) * sp.cosh((n - b + _HALF) * mu) / (sp.sinh(mu) * sp.sinh(n * mu))


# ------------------------------------------------------------------------------------------ no exception
def rank_no_exception(form: str = "sinh", index: Any = k) -> sp.Expr:
    """Item rank ``r_index`` without exception, ``r = (Lap_path + gamma I)^{-1} (e_1 - e_n)``.

    Parameters
    ----------
    form : {"sinh", "chebyshev"}
    index : integer or sympy expression, default :data:`k` (``1 <= index <= n``)

    Returns
    -------
    sympy expression
        sinh: ``sinh(((n + 1)/2 - k) mu) / (2 cosh(n mu / 2) sinh(mu / 2))``, that is
        ``-sinh((k - m) mu) / (2 cosh(n mu / 2) sinh(mu / 2))`` with ``m = (n + 1)/2``;
        chebyshev: ``(V_{n-k}(x) - V_{k-1}(x)) / (2 (x - 1) U_{n-1}(x))``.
        Valid for ``mu > 0`` (``x > 1``); ``mu = 0`` is a limit (:func:`limit_ridgeless_additive`).
        Derived here, see docs/general_n.md#ranks-without-exception.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return (chebyshev_v(n - index) - chebyshev_v(index - 1)) / path_determinant("chebyshev")
    return sp.sinh(((n + 1) / 2 - index) * mu) / (2 * sp.cosh(n * mu / 2) * sp.sinh(mu / 2))


def prediction_no_exception(form: str = "sinh") -> sp.Expr:
    """Test prediction ``f(i, j) = r_i - r_j`` without exception, in :data:`n`, :data:`i`, :data:`j`.

    Returns
    -------
    sympy expression
        ``rank_no_exception(form, i) - rank_no_exception(form, j)``; equal to :func:`pnas_closed_form`
        (docs/general_n.md#equality-with-the-pnas-closed-form). Training trials: see
        :func:`evaluate_no_exception`.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    return rank_no_exception(form, i) - rank_no_exception(form, j)


def pnas_closed_form() -> sp.Expr:
    """The closed form of Lippl et al. (PNAS 2024) without exceptions, as stated in CONVENTIONS.md.

    ``f(i, j) = [sinh((j - m) mu) - sinh((i - m) mu)] / [sinh((n + 1) mu / 2) - sinh((n - 1) mu / 2)]``,
    ``m = (n + 1) / 2``, ``cosh(mu) = (1 + lambda) / (1 - alpha)`` (``kappa_d = 0``). Quoted, not derived; its
    equality with :func:`prediction_no_exception` is shown in docs/general_n.md#equality-with-the-pnas-closed-form
    and derivations/pnas_closed_form.py.
    """
    m = (n + 1) / 2
    return (sp.sinh((j - m) * mu) - sp.sinh((i - m) * mu)) / (sp.sinh((n + 1) * mu / 2) - sp.sinh((n - 1) * mu / 2))


# ------------------------------------------------------------------------------------------- one exception
def _sinh_parts() -> tuple[dict[str, sp.Expr], sp.Expr, sp.Expr, sp.Expr]:
    """(zeta by region, Delta_0, Q, r0(k)) of the sinh form (docs/general_n.md#sinh-form)."""
    sh, ch = sp.sinh, sp.cosh
    half_d = D * mu / 2
    r0 = rank_no_exception("sinh", k)
    delta0 = ch((2 * L + D - n - 1) * mu / 2) * sh(half_d) / (ch(n * mu / 2) * sh(mu / 2))
    q = sh(mu) * sh(n * mu) + 2 * sh(half_d) * (sh((n - D / 2) * mu) + sh(half_d) * ch((2 * L + D - n - 1) * mu))
    zeta = {
        "before": -2 * sh(half_d) * sh((2 * n + 1 - 2 * L - D) * mu / 2) * ch((2 * k - 1) * mu / 2),
        "inside": sh((n - D / 2) * mu) * sh((k - L - D / 2) * mu) + sh(half_d) * sh((k + L + D / 2 - n - 1) * mu),
        "after": 2 * sh(half_d) * sh((2 * L + D - 1) * mu / 2) * ch((2 * n - 2 * k + 1) * mu / 2),
    }
    return zeta, delta0, q, r0


def _chebyshev_parts() -> tuple[dict[str, sp.Expr], sp.Expr, sp.Expr, sp.Expr]:
    """(zeta by region, Delta_0, Q, r0(k)) of the chebyshev form (docs/general_n.md#chebyshev-form)."""
    V = chebyshev_v
    h = path_determinant("chebyshev")
    r0 = rank_no_exception("chebyshev", k)
    delta0 = (V(n - L) - V(L - 1) - V(n - W) + V(W - 1)) / h
    q = h + V(W - 1) * V(n - W) + V(L - 1) * V(n - L) - 2 * V(L - 1) * V(n - W)
    zeta = {
        "before": V(k - 1) * (V(n - W) - V(n - L)),
        "inside": V(k - 1) * V(n - W) - V(L - 1) * V(n - k),
        "after": V(n - k) * (V(W - 1) - V(L - 1)),
    }
    return zeta, delta0, q, r0


def _region_condition(region: str, item: sp.Symbol) -> sp.Basic:
    if region == "before":
        return sp.StrictLessThan(item, L)
    if region == "inside":
        return sp.And(sp.LessThan(L, item), sp.LessThan(item, W))
    return sp.StrictGreaterThan(item, W)


def region_of(item: int, loser: int, winner: int) -> str:
    """Region of an item relative to the cycle ``loser..winner``: ``"before"`` (``item < L``),
    ``"inside"`` (``L <= item <= W``) or ``"after"`` (``item > W``)."""
    if item < loser:
        return "before"
    if item <= winner:
        return "inside"
    return "after"


def _expr_obj(e: Any) -> dict[str, str]:
    e = sp.sympify(e)
    return {"srepr": sp.srepr(e), "latex": sp.latex(e), "text": str(e)}


def _version() -> str:
    from .._version import __version__

    return __version__


@dataclass(frozen=True)
class ExceptionClosedForm:
    r"""Closed form of every prediction with one exception ``W>L``, ``W = L + D``, for symbolic ``n``.

    Built by :func:`exception_closed_form`. Ranks solve ``(Lap_path + u u^T + gamma I) r = e_1 - e_n + u``,
    ``u = e_W - e_L``; by Sherman-Morrison (docs/general_n.md#one-exception-sherman-morrison)

    .. math:: r_k = r^0_k + (1 + \Delta_0)\, \zeta_k / Q,

    with the rank ``r^0`` without exception, ``Delta_0 = r^0_L - r^0_W`` and the piecewise ``zeta_k`` of the
    region of ``k``. Domain: integers ``n >= 3``, ``L >= 1``, ``D >= 2``, ``L + D <= n``, items in ``1..n``;
    ``mu > 0`` (sinh) or ``x > 1`` (chebyshev); ``mu = 0`` and ``mu = oo`` are limits (:meth:`evaluate` takes them).

    Attributes
    ----------
    form : {"sinh", "chebyshev"}
    variable : sympy Symbol
        :data:`mu` (sinh) or :data:`x` (chebyshev), with ``x = cosh(mu) = (1 + lambda') / (1 - alpha)``.
    definitions : tuple of (Symbol, expression)
        ``Delta_0`` and ``Q`` in :data:`n`, :data:`L`, :data:`D` and the variable.
    compact_ranks : tuple of (region, expression)
        ``r_k`` per region in :data:`k`, written with the Symbols ``Delta_0`` and ``Q``.
    ranks : tuple of (region, expression)
        The same with ``Delta_0`` and ``Q`` substituted.
    predictions : tuple of ((region of i, region of j), expression)
        Test prediction ``f(i, j) = r_i - r_j`` per region pair, in :data:`n`, :data:`L`, :data:`D`,
        :data:`i`, :data:`j` and the variable (self-contained).
    training : sympy expression
        ``f(e) = d_e + alpha / (alpha + lambda / (1 - kappa_d)) (y_e - d_e)`` for a training trial ``e`` with
        target ``y_e`` and rank difference ``d_e`` (docs/theory.md#graph-laplacian-reduction).
    """

    form: str
    variable: sp.Symbol
    definitions: tuple[tuple[sp.Symbol, sp.Expr], ...]
    compact_ranks: tuple[tuple[str, sp.Expr], ...]
    ranks: tuple[tuple[str, sp.Expr], ...]
    predictions: tuple[tuple[tuple[str, str], sp.Expr], ...]
    training: sp.Expr
    span: int | None = None

    def _cond(self, region: str, item: sp.Symbol) -> sp.Basic:
        c = _region_condition(region, item)
        return c.subs(D, self.span) if self.span is not None else c

    # ---------------------------------------------------------------- access
    def rank(self, region: str, compact: bool = False) -> sp.Expr:
        """``r_k`` in ``region`` (``"before"``, ``"inside"``, ``"after"``), optionally with ``Delta_0``, ``Q``.

        Raises
        ------
        ParameterError
            For an unknown region.
        """
        table = dict(self.compact_ranks if compact else self.ranks)
        if region not in table:
            raise ParameterError(f"region must be one of {', '.join(REGIONS)}, got {region!r}")
        return table[region]

    def prediction(self, region_i: str, region_j: str, compact: bool = False) -> sp.Expr:
        """Test prediction ``f(i, j)`` for ``i`` in ``region_i`` and ``j`` in ``region_j``.

        With ``compact=True`` it is written with ``Delta_0`` and ``Q`` (see :attr:`definitions`).

        Raises
        ------
        ParameterError
            For an unknown region.
        """
        if compact:
            return self.rank(region_i, True).subs(k, i) - self.rank(region_j, True).subs(k, j)
        table = dict(self.predictions)
        if (region_i, region_j) not in table:
            raise ParameterError(f"regions must be two of {', '.join(REGIONS)}, got {(region_i, region_j)!r}")
        return table[(region_i, region_j)]

    def condition(self, region_i: str, region_j: str | None = None) -> sp.Basic:
        """Where a piece holds: ``i`` in ``region_i`` (and ``j`` in ``region_j``), as a sympy relation."""
        for r in (region_i, region_j):
            if r is not None and r not in REGIONS:
                raise ParameterError(f"region must be one of {', '.join(REGIONS)}, got {r!r}")
        if region_j is None:
            return self._cond(region_i, k)
        return sp.And(self._cond(region_i, i), self._cond(region_j, j))

    def variable_definition(self) -> sp.Expr:
        """The variable in the family parameters: ``mu = acosh(x)`` or ``x = (1 + lambda') / (1 - alpha)``."""
        xv = cosh_mu()
        return sp.acosh(xv) if self.form == "sinh" else xv

    # ---------------------------------------------------------------- export
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary; schema in docs/general_n.md#json-format.

        Every expression is ``{"srepr", "latex", "text"}``; ``srepr`` is exact. The sinh form reads back with
        :func:`symbolic_ti.export.jsonreport.expression_from_dict`; the chebyshev form contains ``chebyshevu``,
        which that reader's table does not (yet) list.
        """
        e = _expr_obj
        return {
            "meta": {"format": FORMAT_NAME, "format_version": FORMAT_VERSION, "symbolic_ti_version": _version()},
            "kind": "one_exception",
            "form": self.form,
            "variable": {"symbol": e(self.variable), "definition": e(self.variable_definition())},
            "symbols": [
                {"symbol": e(s), "meaning": meaning} for s, meaning in (
                    (n, "number of items"), (L, "loser L of the exception W>L"),
                    (D, "span D = W - L >= 2 (W = L + D)"), (i, "first item of the trial"),
                    (j, "second item of the trial"), (k, "item of the rank r_k"), (self.variable, "variable"))
            ],
            "definitions": [{"symbol": e(s), "expression": e(v)} for s, v in self.definitions],
            "ranks": [
                {"region": r, "condition": e(self._cond(r, k)), "compact": e(self.rank(r, True)),
                 "expression": e(v)} for r, v in self.ranks
            ],
            "predictions": [
                {"regions": [a, b], "condition": e(self.condition(a, b)), "compact": e(self.prediction(a, b, True)),
                 "expression": e(v)} for (a, b), v in self.predictions
            ],
            "training": {"expression": e(self.training),
                         "note": "training trial e = (a, b) with target y_e: d_e = r_a - r_b of the test formula"},
        }

    def _header(self) -> str:
        var = "mu, cosh(mu)" if self.form == "sinh" else "x"
        span = "W = L + D (D >= 2)" if self.span is None else f"W = L + {self.span}"
        valid = "1 <= L and L + D <= n" if self.span is None else f"1 <= L <= n - {self.span}"
        return (f"One exception W>L with {span}, general n ({valid}), {self.form} form; "
                f"{var} = (1 + lambda')/(1 - alpha), lambda' = lambda/(1 - kappa_d)")

    def to_text(self) -> str:
        """Plain-text listing: definitions, ranks per region, predictions per region pair, training rule."""
        lines = [self._header(), "", "Definitions:"]
        lines += [f"  {s} = {v}" for s, v in self.definitions]
        lines += ["", "Ranks r_k (test trials: f(i, j) = r_i - r_j):"]
        for r, v in self.compact_ranks:
            lines.append(f"  {r} ({self._cond(r, k)}): r_k = {v}")
        lines += ["", "Test predictions f(i, j) by region pair (Delta_0, Q as defined above):"]
        for a, b in REGION_PAIRS:
            lines.append(f"  i {a}, j {b} ({self.condition(a, b)}): f(i, j) = {self.prediction(a, b, True)}")
        lines += ["", f"Training trial e with target y_e and d_e = r_a - r_b: f(e) = {self.training}"]
        return "\n".join(lines) + "\n"

    def to_latex(self) -> str:
        """LaTeX (an ``align*`` environment per block) of the definitions, ranks, predictions and training rule."""
        lat = sp.latex
        out = [f"% {self._header()}", r"\begin{align*}"]
        out += [f"  {lat(s)} &= {lat(v)} \\\\" for s, v in self.definitions]
        dd = "D" if self.span is None else str(self.span)
        names = {"before": r"k < L", "inside": rf"L \le k \le L + {dd}", "after": rf"k > L + {dd}"}
        for r, v in self.compact_ranks:
            out.append(f"  r_k &= {lat(v)} && ({names[r]}) \\\\")
        out.append(f"  f(e) &= {lat(self.training)} && (\\text{{training}})")
        out += [r"\end{align*}", r"\begin{align*}"]
        rows = []
        for a, b in REGION_PAIRS:
            cond = names[a].replace("k", "i") + r",\ " + names[b].replace("k", "j")
            rows.append(f"  f(i, j) &= {lat(self.prediction(a, b, True))} && ({cond})")
        out.append(" \\\\\n".join(rows))
        out.append(r"\end{align*}")
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_latex_(self) -> str:
        from ..export.notebook import general_to_latex

        return general_to_latex(self)

    def with_span(self, span: int) -> "ExceptionClosedForm":
        """The same closed form with the span ``D = W - L`` set to an integer ``span >= 2``.

        Raises
        ------
        ParameterError
            If ``span`` is not an integer >= 2.
        """
        from ..arguments import check_int

        d = check_int(span, "span D (exception span W - L)", minimum=2)
        sub = {D: sp.Integer(d)}
        return dataclasses.replace(
            self,
            definitions=tuple((s_, v.subs(sub)) for s_, v in self.definitions),
            compact_ranks=tuple((r, v.subs(sub)) for r, v in self.compact_ranks),
            ranks=tuple((r, v.subs(sub)) for r, v in self.ranks),
            predictions=tuple((pair, v.subs(sub)) for pair, v in self.predictions),
            span=d,
        )

    # -------------------------------------------------------------- evaluate
    def evaluate(self, n: int, L: int, W: int, i: int, j: int, alpha: Any, ridge: Any, kappa_d: Any = 0,
                 *, precision: int = 50) -> Any:
        """``f(i, j)`` for numbers: substitute them into the piece of the region pair of ``(i, j)``.

        Parameters
        ----------
        n, L, W : int
            Items ``1..n`` (``n >= 3``) and the exception ``W>L`` (``L >= 1``, ``L + 2 <= W <= n``).
        i, j : int
            A trial, ``i != j`` in ``1..n``; training trials get the memorized share of their residual.
        alpha : number in ``[0, 1]``
        ridge : number ``>= 0`` or ``"ridgeless"``
            ``0`` and ``"ridgeless"`` mean the limit ``lambda -> 0+``.
        kappa_d : number in ``[0, 1)``, default 0
        precision : int, default 50
            Decimal digits of the sinh form (mpmath); ignored by the chebyshev form.

        Returns
        -------
        sympy number (chebyshev form: exact, a Rational for rational parameters) or mpmath.mpf (sinh form)
            At ``gamma = 0`` (``alpha = 0``, ridgeless) and ``gamma = oo`` (``alpha = 1``) the value is the limit
            of the piece, taken exactly: the piece with numeric ``n, L, D, i, j`` is a canceled rational function
            of ``x`` (chebyshev) or of ``s = exp(mu / 2)`` (sinh), and its limit at ``x -> 1`` / ``s -> 1`` or
            ``x, s -> oo`` is read from its numerator and denominator, never by substituting into the piece.

        Raises
        ------
        TaskError
            For an invalid ``n``, exception or trial.
        ParameterError
            For parameters outside their domains, or (sinh form) a ``precision`` that is not an int >= 5.
        """
        return _evaluate(self, n, L, W, i, j, alpha, ridge, kappa_d, precision)


def _build_exception_closed_form(form: str) -> ExceptionClosedForm:
    zeta, delta0, q, r0 = _chebyshev_parts() if form == "chebyshev" else _sinh_parts()
    compact = tuple((r, r0 + (1 + _DELTA0) * zeta[r] / _Q) for r in REGIONS)
    defs = ((_DELTA0, delta0), (_Q, q))
    sub = dict(defs)
    ranks = tuple((r, v.subs(sub)) for r, v in compact)
    rk = dict(ranks)
    preds = tuple(((a, b), rk[a].subs(k, i) - rk[b].subs(k, j)) for a, b in REGION_PAIRS)
    lam_p = S.ridge / (1 - S.kappa_d)
    training = _D_E + S.alpha / (S.alpha + lam_p) * (_Y_E - _D_E)
    return ExceptionClosedForm(form=form, variable=x if form == "chebyshev" else mu, definitions=defs,
                               compact_ranks=compact, ranks=ranks, predictions=preds, training=training)


@functools.lru_cache(maxsize=None)
def exception_closed_form(form: str = "sinh") -> ExceptionClosedForm:
    """Closed form of every prediction with one exception ``W>L`` for symbolic ``n``, ``L``, ``D = W - L``.

    Parameters
    ----------
    form : {"sinh", "chebyshev"}
        sinh: hyperbolic functions of :data:`mu`; chebyshev: ``chebyshevu(., x)`` polynomials in :data:`x`
        (rational in ``x`` for numeric ``n, L, D, i, j``).

    Returns
    -------
    ExceptionClosedForm
        Frozen; the same object for the same ``form`` (cached).

    Raises
    ------
    ParameterError
        For an unknown ``form``.

    Notes
    -----
    Derived here, see docs/general_n.md#one-exception-sherman-morrison. Regions: ``before`` (``k < L``),
    ``inside`` (``L <= k <= W``), ``after`` (``k > W``); at ``k = L`` and ``k = W`` the adjacent pieces agree.
    """
    return _build_exception_closed_form(_check_form(form))


# ------------------------------------------------------------------------------------------- evaluation
class _UTable:
    """Exact ``U_a(x0)`` for a rational ``x0`` by the three-term recurrence, for every integer ``a``."""

    def __init__(self, x0: Any) -> None:
        self.x2 = 2 * x0
        self.vals = [x0 ** 0, self.x2]  # U_0, U_1 (x0 a Fraction or an element of QQ(x))
        self.zero = 0 * x0

    def __call__(self, a: int) -> Any:
        a = int(a)
        if a < 0:  # U_{-1} = 0, U_{-a} = -U_{a-2}
            return self.zero if a == -1 else -self(-a - 2)
        vals = self.vals
        while len(vals) <= a:
            vals.append(self.x2 * vals[-1] - vals[-2])
        return vals[a]


@functools.lru_cache(maxsize=256)
def _u_table(x0: Any) -> _UTable:
    return _UTable(x0)


_ARGS = (n, L, D, i, j)


@functools.lru_cache(maxsize=None)
def _compiled(form: str) -> dict[tuple[str, str], Callable[..., Any]]:
    """Each prediction piece as a Python function of ``(n, L, D, i, j, variable)``.

    chebyshev: exact, with ``chebyshevu(a, x0)`` read from :class:`_UTable` (``x0`` a Fraction); the pieces
    contain only integer constants, so Fraction arithmetic stays exact. sinh: mpmath functions.
    """
    cf = exception_closed_form(form)
    out = {}
    for pair, expr in cf.predictions:
        if form == "chebyshev":
            bad = [c for c in expr.atoms(sp.Rational) if c.q != 1]
            if bad:  # pragma: no cover - guards the exactness of the generated code
                raise AssertionError(f"non-integer constant {bad} in a chebyshev piece")
            fn = sp.lambdify(_ARGS + (x,), expr, modules=[{"chebyshevu": lambda a, x0: _u_table(x0)(a)}],
                             cse=True)
        else:
            fn = sp.lambdify(_ARGS + (mu,), expr, modules="mpmath", cse=True)
        out[pair] = fn
    return out


def _parse_parameters(alpha: Any, ridge: Any, kappa_d: Any) -> tuple[sp.Expr, sp.Expr | None, sp.Expr]:
    """Exact ``(alpha, lambda' or None for ridgeless, kappa_d)`` with domain checks."""
    try:
        return _parse_parameters_cached(alpha, ridge, kappa_d)
    except TypeError:  # unhashable input: parse without the cache
        return _parse_parameters_cached.__wrapped__(alpha, ridge, kappa_d)


@functools.lru_cache(maxsize=256, typed=True)
def _parse_parameters_cached(alpha: Any, ridge: Any, kappa_d: Any) -> tuple[sp.Expr, sp.Expr | None, sp.Expr]:
    a = exact_number(alpha, "alpha")
    kd = exact_number(kappa_d, "kappa_d")
    if a.free_symbols or kd.free_symbols:
        raise ParameterError("alpha and kappa_d must be numbers here")
    if not (a.is_real and 0 <= a <= 1):
        raise ParameterError(f"alpha must lie in [0, 1], got {a}")
    if not (kd.is_real and 0 <= kd < 1):
        raise ParameterError(f"kappa_d must lie in [0, 1), got {kd}")
    lam = parse_ridge(ridge, numeric=True)  # ridge 0 means the limit lambda -> 0+, never the substitution
    if lam is None:
        return a, None, kd
    return a, lam / (1 - kd), kd


@functools.lru_cache(maxsize=256)
def _share(a: sp.Expr, lam: sp.Expr | None) -> sp.Expr:
    """Memorized share ``alpha / (alpha + lambda')``; ridgeless: its limit ``lambda' -> 0+``."""
    if lam is None:
        eps = sp.Symbol("epsilon", positive=True)
        return sp.limit(a / (a + eps), eps, 0, "+")
    return a / (a + lam)


def _field_limit(value: Any, point: Any) -> sp.Expr:
    """Exact limit of a canceled rational function (an element of ``QQ(var)``) at a point or at ``oo``."""
    num, den = value.numer, value.denom  # coprime: the field cancels every result
    if point is sp.oo:
        dn, dd = num.degree(), den.degree()
        if not num or dn < dd:
            return sp.Integer(0)
        if dn == dd:
            return sp.Rational(num.LC) / sp.Rational(den.LC)
        raise ParameterError("the limit diverges")  # pragma: no cover - ranks stay bounded
    dv = den(point)
    if dv == 0:  # pragma: no cover - rank differences are finite at gamma = 0
        raise ParameterError("the limit diverges")
    return sp.Rational(num(point)) / sp.Rational(dv)


_S = sp.Symbol("s", positive=True)  # s = exp(mu / 2)
_QQ_X = sp.field([x], sp.QQ)[0]
_QQ_S = sp.field([_S], sp.QQ)[0]


def _sinh_as_field_element(expr: sp.Expr) -> Any:
    """A sinh piece with numeric n, L, D, i, j as an element of ``QQ(s)``, ``s = exp(mu / 2)``.

    Every argument is ``c mu`` with ``2 c`` an integer, so ``exp(c mu) = s^(2 c)``.
    """

    def power(arg: sp.Expr) -> sp.Expr:
        c = sp.cancel(2 * arg / mu)
        if not c.is_Integer:  # pragma: no cover - every argument is a half-integer multiple of mu
            raise AssertionError(f"unexpected exponent {arg}")
        return _S ** int(c)

    e = expr.rewrite(sp.exp).replace(lambda z: isinstance(z, sp.exp), lambda z: power(z.args[0]))
    return _QQ_S.from_expr(e)


def _to_mpf(value: sp.Expr, precision: int) -> Any:
    """An exact sympy number as an mpmath number at ``precision`` digits (call inside ``workdps``)."""
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / mpmath.mpf(int(value.q))
    return mpmath.mpf(sp.Float(value, precision + 10))


@functools.lru_cache(maxsize=None)
def _compiled_ranks_field(form: str) -> dict[str, Callable[..., Any]]:
    """chebyshev rank pieces as Python functions of ``(n, L, D, k, x)`` for ``x`` in the field ``QQ(x)``."""
    cf = exception_closed_form(form)
    return {r: sp.lambdify((n, L, D, k, x), v, modules=[{"chebyshevu": lambda a, x0: _u_table(x0)(a)}], cse=True)
            for r, v in cf.ranks}


@functools.lru_cache(maxsize=8192)
def _rank_limit(form: str, ints: tuple[int, int, int], region: str, item: int, at_infinity: bool) -> sp.Expr:
    """Exact limit of the rank piece ``r_k`` of ``region`` at ``k = item`` as ``gamma -> 0`` or ``gamma -> oo``.

    The piece with numeric ``n, L, D, k`` is a rational function of ``x`` (chebyshev) or of ``s = exp(mu / 2)``
    (sinh), canceled in the field ``QQ(x)`` or ``QQ(s)``; the limit at ``x, s -> 1`` or ``-> oo`` is read from
    its numerator and denominator (:func:`_field_limit`).
    """
    point = sp.oo if at_infinity else sp.Integer(1)
    if form == "chebyshev":
        return _field_limit(_compiled_ranks_field(form)[region](*ints, item, _QQ_X.gens[0]), point)
    expr = exception_closed_form(form).rank(region).subs({n: ints[0], L: ints[1], D: ints[2], k: item})
    return _field_limit(_sinh_as_field_element(expr), point)


def _piece_value(form: str, pair: tuple[str, str], ints: tuple[int, ...], a: sp.Expr, lam: sp.Expr | None,
                 precision: int, expr_of: Callable[[], sp.Expr]) -> Any:
    """Value of the rank difference ``d = r_i - r_j`` of one piece (limits at gamma = 0 and gamma = oo).

    Away from the limits: the compiled piece, exactly at a rational ``x`` (chebyshev) or with mpmath at
    ``mu = acosh(x)`` (sinh). At ``gamma = 0`` (``x -> 1``) and ``gamma = oo`` (``x -> oo``): the piece is
    ``r^(region of i)(i) - r^(region of j)(j)`` and each rank term has a finite limit (ranks are bounded,
    docs/general_n.md#limits), so its limit is the difference of the two limits of :func:`_rank_limit`.
    """
    gamma0 = lam is None and a == 0
    gamma_inf = a == 1
    lam_v = sp.Integer(0) if lam is None else lam
    if gamma0 or gamma_inf:
        nlD, ti, tj = ints[:3], ints[3], ints[4]
        value = _rank_limit(form, nlD, pair[0], ti, gamma_inf) - _rank_limit(form, nlD, pair[1], tj, gamma_inf)
        if form == "chebyshev":
            return value
        with mpmath.workdps(precision):
            return _to_mpf(value, precision)
    x0 = (1 + lam_v) / (1 - a)
    if form == "chebyshev":
        if x0.is_Rational:
            val = _compiled(form)[pair](*ints, Fraction(int(x0.p), int(x0.q)))
            return sp.Rational(val.numerator, val.denominator)
        e = expr_of().subs(dict(zip(_ARGS, ints)))  # algebraic parameters: exact, slower
        return sp.radsimp(sp.cancel(e).subs(x, x0))
    with mpmath.workdps(precision):
        return _compiled(form)[pair](*ints, mpmath.acosh(_to_mpf(x0, precision)))


@functools.lru_cache(maxsize=128, typed=True)
def _task(n_: Any, l_: Any, w_: Any) -> Task:
    return Task(n_, [(w_, l_)])


def _evaluate(cf: ExceptionClosedForm, n_: int, l_: int, w_: int, i_: int, j_: int, alpha: Any, ridge: Any,
              kappa_d: Any, precision: int) -> Any:
    try:
        task = _task(n_, l_, w_)
    except TypeError:  # unhashable input: let Task report it
        task = Task(n_, [(w_, l_)])
    ti, tj = task.check_trial((i_, j_))
    if cf.form == "sinh" and (isinstance(precision, bool) or not isinstance(precision, int) or precision < 5):
        raise ParameterError(f"precision must be an int >= 5 (decimal digits), got {precision!r}")
    a, lam, _ = _parse_parameters(alpha, ridge, kappa_d)
    ints = (task.n, l_, w_ - l_, ti, tj)
    pair = (region_of(ti, l_, w_), region_of(tj, l_, w_))
    d = _piece_value(cf.form, pair, ints, a, lam, precision, lambda: cf.prediction(*pair))
    return _with_training(task, (ti, tj), d, a, lam, cf.form, precision)


def _with_training(task: Task, trial: tuple[int, int], d: Any, a: sp.Expr, lam: sp.Expr | None, form: str,
                   precision: int) -> Any:
    y = task.training_targets.get(trial)
    if y is None:
        return d
    share = _share(a, lam)
    if form == "chebyshev":
        value = d + share * (y - d)
        return value if value.is_Rational else sp.radsimp(sp.together(value))
    with mpmath.workdps(precision):
        return d + _to_mpf(sp.sympify(share), precision) * (y - d)


@functools.lru_cache(maxsize=None)
def _compiled_no_exception(form: str) -> Callable[..., Any]:
    """:func:`prediction_no_exception` as a function of ``(n, i, j, variable)`` (see :func:`_compiled`)."""
    expr = prediction_no_exception(form)
    if form == "chebyshev":
        return sp.lambdify((n, i, j, x), expr, modules=[{"chebyshevu": lambda a, x0: _u_table(x0)(a)}])
    return sp.lambdify((n, i, j, mu), expr, modules="mpmath")


def evaluate_no_exception(n: int, i: int, j: int, alpha: Any, ridge: Any, kappa_d: Any = 0, *,
                          form: str = "chebyshev", precision: int = 50) -> Any:
    """``f(i, j)`` without exception for numbers, from :func:`prediction_no_exception`.

    Parameters and returns as :meth:`ExceptionClosedForm.evaluate` (without the exception); training trials
    ``(i, i +- 1)`` get the memorized share. Limits at ``gamma = 0`` and ``gamma = oo`` are taken exactly.

    Raises
    ------
    TaskError, ParameterError
        For an invalid ``n`` or trial, or parameters outside their domains.
    """
    _check_form(form)
    task = Task(n)
    ti, tj = task.check_trial((i, j))
    if form == "sinh" and (isinstance(precision, bool) or not isinstance(precision, int) or precision < 5):
        raise ParameterError(f"precision must be an int >= 5 (decimal digits), got {precision!r}")
    a, lam, _ = _parse_parameters(alpha, ridge, kappa_d)
    gamma0, gamma_inf = lam is None and a == 0, a == 1
    lam_v = sp.Integer(0) if lam is None else lam
    point = sp.oo if gamma_inf else sp.Integer(1)
    x0 = None if gamma_inf else (1 + lam_v) / (1 - a)
    fn = _compiled_no_exception(form)
    if form == "chebyshev":
        if gamma0 or gamma_inf:
            d = _field_limit(fn(task.n, ti, tj, _QQ_X.gens[0]), point)
        elif x0.is_Rational:
            val = fn(task.n, ti, tj, Fraction(int(x0.p), int(x0.q)))
            d = sp.Rational(val.numerator, val.denominator)
        else:  # algebraic parameters: exact, slower
            e = prediction_no_exception(form).subs({S.n: task.n, i_sym: ti, j_sym: tj})
            d = sp.radsimp(sp.cancel(e).subs(x, x0))
    else:
        exact = None
        if gamma0 or gamma_inf:
            e = prediction_no_exception(form).subs({S.n: task.n, i_sym: ti, j_sym: tj})
            exact = _field_limit(_sinh_as_field_element(e), point)
        with mpmath.workdps(precision):
            d = _to_mpf(exact, precision) if exact is not None else \
                fn(task.n, ti, tj, mpmath.acosh(_to_mpf(x0, precision)))
    return _with_training(task, (ti, tj), d, a, lam, form, precision)


# ------------------------------------------------------------------------------------ several exceptions
def fixed_position_ranks(n: int, exceptions: Sequence[Any] = ()) -> tuple[sp.Expr, ...]:
    """Exact ranks ``r_1..r_n`` as rational functions of ``gamma`` for fixed ``n`` and exception positions.

    Several exceptions are handled for fixed positions only (Woodbury update of
    :func:`symbolic_ti.solvers.laplacian.rank_solution`); a symbolic-``n`` closed form exists here for one
    exception (:func:`exception_closed_form`). Substitute ``gamma`` = :func:`gamma_expr` (the Symbol is
    :data:`symbolic_ti.solvers.laplacian.GAMMA`) for the family parameters; test predictions are
    ``r_i - r_j``.

    Parameters
    ----------
    n : int, ``n >= 3``
    exceptions : sequence of ``"W>L"`` strings or ``(W, L)`` pairs

    Returns
    -------
    tuple of sympy expressions in ``GAMMA``
        Source: docs/theory.md#graph-laplacian-reduction.

    Raises
    ------
    TaskError
        For an invalid task.
    """
    sol = rank_solution(Task(n, exceptions))
    return tuple(sol.rank_expr(kk) for kk in range(1, sol.task.n + 1))


# ---------------------------------------------------------------------------------------------- limits
def limit_ridgeless_additive() -> sp.Expr:
    """``lim_{mu -> 0} f(i, j)`` without exception: the additive ridgeless limit ``alpha, lambda -> 0``.

    ``mu -> 0`` exactly when ``gamma -> 0``, that is ``alpha -> 0`` and ``lambda' -> 0``. Computed with
    ``sympy.limit`` on the sinh form for symbolic ``n, i, j``.

    Returns
    -------
    sympy expression
        ``j - i``. Derived here, see docs/general_n.md#limits.
    """
    return sp.simplify(sp.limit(prediction_no_exception("sinh"), mu, 0, "+"))


def limit_conjunctive() -> sp.Expr:
    """``lim_{alpha -> 1} f(i, j)`` of a test trial without exception (any ridge): ``mu -> oo``.

    With ``t = exp(-mu)`` the rank is ``r_k = (t^k - t^(n+1-k)) / ((1 + t^n)(1 - t))`` (equal to the sinh form,
    docs/general_n.md#limits); with the positive integers ``k`` and ``n + 1 - k``, ``sympy.limit`` at
    ``t -> 0+`` gives 0 for every item, so every test prediction tends to 0.

    Returns
    -------
    sympy expression
        ``0`` = ``lim_{t -> 0+} (r_i - r_j)``.
    """
    t = sp.Symbol("t", positive=True)
    a, abar, b, bbar = (sp.Symbol(s, integer=True, positive=True) for s in ("a", "abar", "b", "bbar"))
    r = lambda p, pbar: (t ** p - t ** pbar) / ((1 + t ** n) * (1 - t))  # noqa: E731  (pbar = n + 1 - p)
    return sp.limit(r(a, abar) - r(b, bbar), t, 0, "+")


@functools.lru_cache(maxsize=None)
def exception_limit_ridgeless_additive() -> dict[str, sp.Expr]:
    """``lim_{mu -> 0} r_k`` per region with one exception: the additive ridgeless ranks, symbolic n, L, D.

    Computed with ``sympy.limit`` on the sinh pieces. The cycle collapses: ``r_k`` is constant for
    ``L <= k <= W`` and drops by 1 across every premise pair outside the cycle, so ``f(i, j)`` of a test trial
    is the number of premise pairs between ``i`` and ``j`` that are not in the cycle (with sign).

    Returns
    -------
    dict region -> sympy expression in n, L, D, k
        before: ``(n+1)/2 - k - D (2n + 1 - 2L - D) / (2n)``; inside: ``(n - D)(n + 1 - 2L - D) / (2n)``;
        after: ``(n+1)/2 - k + D (2L + D - 1) / (2n)``. Derived here, see docs/general_n.md#limits.
    """
    cf = exception_closed_form("sinh")
    base = (n + 1) / 2 - k  # the rank without exception at mu = 0
    out = {}
    for r, v in cf.ranks:
        lim = sp.limit(v, mu, 0, "+")
        out[r] = sp.factor(lim) if r == "inside" else base + sp.factor(sp.simplify(lim - base))
    return out


# ------------------------------------------------------------------------------------------- no exception, report
@dataclass(frozen=True)
class NoExceptionClosedForm:
    """Closed form of every prediction without exception, for symbolic ``n`` (built by
    :func:`no_exception_closed_form`). Derived here, see docs/general_n.md#ranks-without-exception.

    Attributes
    ----------
    form : {"sinh", "chebyshev"}
    rank : sympy expression
        ``r_k`` in :data:`n`, :data:`k` and the variable (:data:`mu` or :data:`x`).
    prediction : sympy expression
        Test prediction ``f(i, j) = r_i - r_j``; equal to the PNAS closed form.
    """

    form: str
    rank: sp.Expr
    prediction: sp.Expr

    def _header(self) -> str:
        var = "cosh(mu)" if self.form == "sinh" else "x"
        return (f"No exception, general n, {self.form} form; {var} = (1 + lambda')/(1 - alpha), "
                f"lambda' = lambda/(1 - kappa_d)")

    def to_text(self) -> str:
        """Plain text: the rank and the test prediction."""
        return "\n".join([self._header(), "", f"  r_k = {self.rank}", f"  f(i, j) = {self.prediction}",
                          "", "Training trials (i, i+1): f = d + alpha/(alpha + lambda') (1 - d), d = r_i - r_{i+1}",
                          ""])

    def to_latex(self) -> str:
        """LaTeX ``align*`` of the rank and the test prediction."""
        return (f"% {self._header()}\n\\begin{{align*}}\n  r_k &= {sp.latex(self.rank)} \\\\\n"
                f"  f(i, j) &= {sp.latex(self.prediction)}\n\\end{{align*}}\n")

    def _repr_latex_(self) -> str:
        from ..export.notebook import general_to_latex

        return general_to_latex(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary (docs/general_n.md#json-format, ``kind = "no_exception"``)."""
        e = _expr_obj
        return {
            "meta": {"format": FORMAT_NAME, "format_version": FORMAT_VERSION, "symbolic_ti_version": _version()},
            "kind": "no_exception",
            "form": self.form,
            "variable": {"symbol": e(mu if self.form == "sinh" else x),
                         "definition": e(sp.acosh(cosh_mu()) if self.form == "sinh" else cosh_mu())},
            "rank": e(self.rank),
            "prediction": e(self.prediction),
        }


def no_exception_closed_form(form: str = "sinh") -> NoExceptionClosedForm:
    """Closed forms without exception for symbolic ``n`` (:func:`rank_no_exception`,
    :func:`prediction_no_exception`), as a report object with text, LaTeX and JSON.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    return NoExceptionClosedForm(_check_form(form), rank_no_exception(form), prediction_no_exception(form))
