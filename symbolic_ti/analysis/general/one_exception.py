r"""The closed form of every prediction with one exception ``W>L`` for symbolic ``n``, ``L`` and ``D = W - L``.

The exception adds ``u u^T``, ``u = e_W - e_L``, to the path Laplacian; by Sherman-Morrison the ranks are
``r_k = r^0_k + (1 + Delta_0) zeta_k / Q`` with the rank ``r^0`` without exception and a ``zeta_k`` that is
piecewise in the region of ``k`` (docs/general_n.md#one-exception-sherman-morrison). :func:`exception_closed_form`
builds :class:`ExceptionClosedForm` in the sinh or the chebyshev form; :mod:`symbolic_ti.export.general` renders
it, and :meth:`ExceptionClosedForm.evaluate` gives numbers (:mod:`.evaluation`).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ... import symbols as S
from ...arguments import check_int
from ...display import Rendered
from ...errors import ParameterError
from .evaluation import _evaluate_one_exception
from .no_exception import rank_no_exception
from .path import chebyshev_v, path_determinant
from .variables import (D, D_E, DELTA_0, Q, REGION_PAIRS, REGIONS, Y_E, L, W, _check_form, _region_condition, i,
                        j, k, mu, n, variable_definition, x)

__all__ = ["ExceptionClosedForm", "exception_closed_form"]


# ----------------------------------------------------------------------------------- Sherman-Morrison parts
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


# ------------------------------------------------------------------------------------------------ report
@dataclass(frozen=True)
class ExceptionClosedForm(Rendered):
    r"""Closed form of every prediction with one exception ``W>L``, ``W = L + D``, for symbolic ``n``.

    Built by :func:`exception_closed_form`. Ranks solve ``(Lap_path + u u^T + gamma I) r = e_1 - e_n + u``,
    ``u = e_W - e_L``; by Sherman-Morrison (docs/general_n.md#one-exception-sherman-morrison)

    .. math:: r_k = r^0_k + (1 + \Delta_0)\, \zeta_k / Q,

    with the rank ``r^0`` without exception, ``Delta_0 = r^0_L - r^0_W`` and the piecewise ``zeta_k`` of the
    region of ``k``. Domain: integers ``n >= 3``, ``L >= 1``, ``D >= 2``, ``L + D <= n``, items in ``1..n``;
    ``mu > 0`` (sinh) or ``x > 1`` (chebyshev); ``mu = 0`` and ``mu = oo`` are limits (:meth:`evaluate` takes them).

    Plain data: ``to_text``, ``to_latex``, ``to_dict`` (schema in docs/general_n.md#json-format), ``to_json``,
    ``str`` and the notebook LaTeX come from :class:`symbolic_ti.display.Rendered` and the renderers of
    :mod:`symbolic_ti.export.general`.

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
    span : int or None
        The span ``D`` set by :meth:`with_span`, or ``None`` when ``D`` is symbolic.
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
        """Where a piece holds: ``i`` in ``region_i`` (and ``j`` in ``region_j``), as a sympy relation.

        With only ``region_i``: where the rank piece of that region holds, a relation in :data:`k`.

        Raises
        ------
        ParameterError
            For an unknown region.
        """
        for r in (region_i, region_j):
            if r is not None and r not in REGIONS:
                raise ParameterError(f"region must be one of {', '.join(REGIONS)}, got {r!r}")
        if region_j is None:
            return self._cond(region_i, k)
        return sp.And(self._cond(region_i, i), self._cond(region_j, j))

    def variable_definition(self) -> sp.Expr:
        """The variable in the family parameters: ``mu = acosh(x)`` or ``x = (1 + lambda') / (1 - alpha)``."""
        return variable_definition(self.form)

    def with_span(self, span: int) -> ExceptionClosedForm:
        """The same closed form with the span ``D = W - L`` set to an integer ``span >= 2``.

        Raises
        ------
        ParameterError
            If ``span`` is not an integer >= 2.
        """
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
        return _evaluate_one_exception(exception_closed_form(self.form), self, n, L, W, i, j, alpha, ridge,
                                       kappa_d, precision)


def _build_exception_closed_form(form: str) -> ExceptionClosedForm:
    zeta, delta0, q, r0 = _chebyshev_parts() if form == "chebyshev" else _sinh_parts()
    compact = tuple((r, r0 + (1 + DELTA_0) * zeta[r] / Q) for r in REGIONS)
    defs = ((DELTA_0, delta0), (Q, q))
    sub = dict(defs)
    ranks = tuple((r, v.subs(sub)) for r, v in compact)
    rk = dict(ranks)
    preds = tuple(((a, b), rk[a].subs(k, i) - rk[b].subs(k, j)) for a, b in REGION_PAIRS)
    lam_p = S.ridge / (1 - S.kappa_d)
    training = D_E + S.alpha / (S.alpha + lam_p) * (Y_E - D_E)
    return ExceptionClosedForm(form=form, variable=x if form == "chebyshev" else mu, definitions=defs,
                               compact_ranks=compact, ranks=ranks, predictions=preds, training=training)


@functools.cache
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
