r"""Closed forms without exception for a symbolic number of items ``n``: ranks, test predictions, PNAS form.

Without exception the ranks solve ``(Lap_path + gamma I) r = e_1 - e_n`` on the path of premise pairs
(docs/general_n.md#ranks-without-exception); a test trial gives ``f(i, j) = r_i - r_j``, equal to the closed form
of Lippl et al. (PNAS 2024) (docs/general_n.md#equality-with-the-pnas-closed-form).
:class:`NoExceptionClosedForm` is the report; :mod:`symbolic_ti.export.general` renders it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from ...display import Rendered
from .path import chebyshev_v, path_determinant
from .variables import _check_form, form_variable, i, j, k, mu, n, variable_definition

__all__ = ["rank_no_exception", "prediction_no_exception", "pnas_closed_form", "NoExceptionClosedForm",
           "no_exception_closed_form"]


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


@dataclass(frozen=True)
class NoExceptionClosedForm(Rendered):
    """Closed form of every prediction without exception, for symbolic ``n`` (built by
    :func:`no_exception_closed_form`). Derived here, see docs/general_n.md#ranks-without-exception.

    Plain data: ``to_text``, ``to_latex``, ``to_dict``, ``to_json``, ``str`` and the notebook LaTeX come from
    :class:`symbolic_ti.display.Rendered` and the renderers of :mod:`symbolic_ti.export.general`.

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

    @property
    def variable(self) -> sp.Symbol:
        """:data:`mu` (sinh form) or :data:`x` (chebyshev form)."""
        return form_variable(self.form)

    def variable_definition(self) -> sp.Expr:
        """The variable in the family parameters: ``mu = acosh(x)`` or ``x = (1 + lambda') / (1 - alpha)``."""
        return variable_definition(self.form)


def no_exception_closed_form(form: str = "sinh") -> NoExceptionClosedForm:
    """Closed forms without exception for symbolic ``n`` (:func:`rank_no_exception`,
    :func:`prediction_no_exception`), as a report object with text, LaTeX and JSON.

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    return NoExceptionClosedForm(_check_form(form), rank_no_exception(form), prediction_no_exception(form))
