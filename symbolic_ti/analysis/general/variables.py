r"""The symbols, regions and variable of the general-n closed forms (docs/general_n.md).

Every closed form of :mod:`symbolic_ti.analysis.general` is written in the integer Symbols :data:`n`, :data:`L`,
:data:`D`, :data:`i`, :data:`j`, :data:`k` and one variable: :data:`mu` (sinh form) or :data:`x` (chebyshev
form), with ``x = cosh(mu) = 1 + gamma / 2 = (1 + lambda') / (1 - alpha)`` (:func:`cosh_mu`,
:func:`gamma_expr`). An item lies in one of three :data:`REGIONS` relative to the cycle ``L..W`` of an
exception (:func:`region_of`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ... import symbols as S
from ...errors import ParameterError

__all__ = [
    "n", "L", "D", "W", "i", "j", "i_sym", "j_sym", "k", "mu", "x", "DELTA_0", "Q", "D_E", "Y_E",
    "REGIONS", "REGION_PAIRS", "FORMS", "FORMAT_NAME", "FORMAT_VERSION",
    "cosh_mu", "gamma_expr", "form_variable", "variable_definition", "region_of", "named_symbols",
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
mu = S.mu
#: ``x = cosh(mu) = 1 + gamma / 2 >= 1``.
x = sp.Symbol("x", positive=True)
#: ``Delta_0 = r^0_L - r^0_W`` of the compact one-exception ranks (docs/general_n.md#one-exception-sherman-morrison).
DELTA_0 = sp.Symbol("Delta_0")
#: Denominator ``Q`` of the compact one-exception ranks (docs/general_n.md#one-exception-sherman-morrison).
Q = sp.Symbol("Q")
#: Rank difference ``d_e = r_a - r_b`` of a training trial ``e = (a, b)`` in the training rule.
D_E = sp.Symbol("d_e")
#: Target ``y_e`` of a training trial ``e`` in the training rule.
Y_E = sp.Symbol("y_e")

#: Regions of an item relative to the cycle ``L..W`` of the exception.
REGIONS: tuple[str, ...] = ("before", "inside", "after")
#: Region pairs ``(region of i, region of j)`` of a trial ``(i, j)``.
REGION_PAIRS: tuple[tuple[str, str], ...] = tuple((a, b) for a in REGIONS for b in REGIONS)
#: The two forms of every closed form.
FORMS: tuple[str, ...] = ("sinh", "chebyshev")

#: ``meta.format`` of the JSON of both general-n reports (docs/general_n.md#json-format).
FORMAT_NAME = "symbolic_ti.general_closed_form"
# Version of that JSON format; bump it, with a line here, whenever a field changes meaning or disappears.
#   1: first format (expression objects gained the key "float" without a bump: no field changed meaning).
FORMAT_VERSION = 1


def _check_form(form: str) -> str:
    if form not in FORMS:
        raise ParameterError(f"form must be one of {', '.join(FORMS)}, got {form!r}")
    return form


def named_symbols() -> dict[str, sp.Symbol]:
    """The Symbols of the general-n closed forms by the name a reader of exported LaTeX spells them.

    Returns
    -------
    dict
        ``"L", "D", "i", "j", "k", "mu", "x"`` (:data:`L` ... :data:`x`) and ``"Delta_0", "Q", "d_e", "y_e"``
        (:data:`DELTA_0`, :data:`Q`, :data:`D_E`, :data:`Y_E`); used by
        :func:`symbolic_ti.export.latex.parse_exported` to read the closed forms back with these assumptions.
    """
    return {"L": L, "D": D, "i": i, "j": j, "k": k, "mu": mu, "x": x,
            "Delta_0": DELTA_0, "Q": Q, "d_e": D_E, "y_e": Y_E}


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


def form_variable(form: str) -> sp.Symbol:
    """The variable of a form: :data:`mu` (``"sinh"``) or :data:`x` (``"chebyshev"``).

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    return mu if _check_form(form) == "sinh" else x


def variable_definition(form: str) -> sp.Expr:
    """The variable of a form in the family parameters: ``mu = acosh(x)`` (sinh) or
    ``x = (1 + lambda') / (1 - alpha)`` (chebyshev), ``lambda' = lambda / (1 - kappa_d)`` (:func:`cosh_mu`).

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    xv = cosh_mu()
    return sp.acosh(xv) if _check_form(form) == "sinh" else xv


# ---------------------------------------------------------------------------------------------- regions
def region_of(item: int, loser: int, winner: int) -> str:
    """Region of an item relative to the cycle ``loser..winner``: ``"before"`` (``item < L``),
    ``"inside"`` (``L <= item <= W``) or ``"after"`` (``item > W``)."""
    if item < loser:
        return "before"
    if item <= winner:
        return "inside"
    return "after"


def _region_condition(region: str, item: sp.Symbol) -> sp.Basic:
    """Where ``item`` lies in ``region`` (symbolic ``L``, ``W = L + D``), as a sympy relation."""
    if region == "before":
        return sp.StrictLessThan(item, L)
    if region == "inside":
        return sp.And(sp.LessThan(L, item), sp.LessThan(item, W))
    return sp.StrictGreaterThan(item, W)
