r"""The paradigm closed forms as one report, for ``symbolic-ti general --paradigm NAME`` and its Python API.

:func:`paradigm_closed_form` gathers the closed forms of :mod:`.paradigms` (docs/paradigms.md) into a
:class:`ParadigmClosedForm`: ranks, test predictions, the training rule and the additive ridgeless limit, for

* ``transverse-patterning`` (every ``n >= 3``) and ``banded-transverse-patterning`` (``n = 5`` or ``n >= 7``):
  ranks 0, every test prediction 0, every training trial the memorized share ``y_e alpha / (alpha + lambda')``;
* ``list-linking`` with two lists of lengths ``p``, ``q`` (symbolic or integers) joined by one link ``u>v`` (the
  ``u``-th item of the first list beats the ``v``-th of the second; symbolic or integers) or by none (separate
  lists).

:mod:`symbolic_ti.export.general` renders it (text, LaTeX, JSON, notebook). The TI closed forms (no exception,
one exception) are :func:`~.no_exception.no_exception_closed_form` and
:func:`~.one_exception.exception_closed_form`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from ... import symbols as S
from ...display import Rendered
from ...errors import ParameterError
from .paradigms import _green_sym, _rank, list_green, p, q, u, v
from .variables import D_E, Y_E, _check_form, form_variable, i, j, k, n, variable_definition

__all__ = ["CLOSED_FORM_PARADIGMS", "C_LINK", "ParadigmClosedForm", "paradigm_closed_form"]

#: The paradigms with a closed form in their sizes (``ti``: :func:`~.no_exception.no_exception_closed_form`
#: and :func:`~.one_exception.exception_closed_form`; the others: :func:`paradigm_closed_form`).
CLOSED_FORM_PARADIGMS: tuple[str, ...] = ("ti", "transverse-patterning", "banded-transverse-patterning",
                                          "list-linking")
#: The link's coefficient ``c`` of the compact linked-list ranks (docs/paradigms.md#two-lists-joined-by-one-link-closed-form).
C_LINK = sp.Symbol("c")


@dataclass(frozen=True)
class ParadigmClosedForm(Rendered):
    """Closed forms of one paradigm in its sizes (built by :func:`paradigm_closed_form`).

    Plain data: ``to_text``, ``to_latex``, ``to_dict``, ``to_json``, ``str`` and the notebook LaTeX come from
    :class:`symbolic_ti.display.Rendered` and the renderers of :mod:`symbolic_ti.export.general`.

    Attributes
    ----------
    paradigm : str
        ``"transverse-patterning"``, ``"banded-transverse-patterning"`` or ``"list-linking"``.
    form : {"sinh", "chebyshev"}
    sizes : tuple of (str, sympy expression)
        ``("n", n)`` (transverse patterning) or ``("p", p), ("q", q)`` and, with a link, ``("u", u), ("v", v)``:
        each a Symbol or the integer given.
    validity : str
        Where the forms hold (e.g. ``"n >= 3"``, ``"1 <= u <= p, 1 <= v <= q"``).
    definitions : tuple of (Symbol, expression)
        Abbreviations of the compact forms (the link's ``c``), in the sizes and the variable.
    ranks : tuple of (str, expression, expression)
        ``(which items, compact rank r_k, expanded rank r_k)``.
    predictions : tuple of (str, expression, expression)
        Test trials ``f(i, j) = r_i - r_j``: ``(which trials, compact, expanded)``.
    training : sympy expression
        ``f(e)`` of a training trial ``e`` with target :data:`~.variables.Y_E` and rank difference
        :data:`~.variables.D_E`.
    limits : tuple of (str, expression)
        ``(where, value)``: limits of test predictions or training margins (the additive ridgeless limit
        ``alpha = 0``, ``lambda -> 0+``; for transverse patterning also ``alpha = 0`` at any ridge and the
        ridgeless limit at ``alpha > 0``).
    """

    paradigm: str
    form: str
    sizes: tuple[tuple[str, sp.Expr], ...]
    validity: str
    definitions: tuple[tuple[sp.Symbol, sp.Expr], ...]
    ranks: tuple[tuple[str, sp.Expr, sp.Expr], ...]
    predictions: tuple[tuple[str, sp.Expr, sp.Expr], ...]
    training: sp.Expr
    limits: tuple[tuple[str, sp.Expr], ...]

    @property
    def variable(self) -> sp.Symbol:
        """:data:`~.variables.mu` (sinh form) or :data:`~.variables.x` (chebyshev form)."""
        return form_variable(self.form)

    def variable_definition(self) -> sp.Expr:
        """The variable in the family parameters (:func:`~.variables.variable_definition`)."""
        return variable_definition(self.form)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """The integer Symbols left free in the sizes (``n``, ``p``, ``q``, ``u``, ``v``)."""
        return tuple(e for _, e in self.sizes if isinstance(e, sp.Symbol))


def _size(value: Any, symbol: sp.Symbol, meaning: str, minimum: int = 1) -> sp.Expr:
    """A size given as None / ``"symbolic"`` (the Symbol) or an integer ``>= minimum``."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("symbolic", symbol.name)):
        return symbol
    if isinstance(value, sp.Symbol) and value == symbol:
        return symbol
    try:
        number = int(value)
        ok = number == value if not isinstance(value, str) else str(number) == value.strip()
    except (TypeError, ValueError):
        ok = False
    if not ok or number < minimum:
        raise ParameterError(f"{meaning} ({symbol.name}) must be an integer >= {minimum} or 'symbolic', "
                             f"got {value!r}")
    return sp.Integer(number)


def _training_rule() -> sp.Expr:
    lam_p = S.ridge / (1 - S.kappa_d)
    return D_E + S.alpha / (S.alpha + lam_p) * (Y_E - D_E)


def _transverse(name: str, form: str) -> ParadigmClosedForm:
    lam_p = S.ridge / (1 - S.kappa_d)
    share = S.alpha / (S.alpha + lam_p)
    zero = sp.Integer(0)
    validity = "n >= 3" if name == "transverse-patterning" else "n = 5 or n >= 7"
    return ParadigmClosedForm(
        paradigm=name, form=form, sizes=(("n", n),), validity=validity, definitions=(),
        ranks=(("every item k", zero, zero),),
        predictions=(("every test trial (i, j)", zero, zero),),
        training=Y_E * share,
        limits=(("additive (alpha = 0), any ridge: every training trial", zero),
                ("ridgeless (lambda -> 0+), alpha > 0: every training trial", Y_E)))


def _link_ranks(pp: sp.Expr, qq: sp.Expr, uu: sp.Expr, vv: sp.Expr, form: str
                ) -> tuple[sp.Expr, tuple[sp.Expr, sp.Expr], tuple[sp.Expr, sp.Expr]]:
    """``c`` and the (compact, expanded) ranks of both lists."""
    c = (1 - _rank(pp, uu, form) + _rank(qq, vv, form)) / (1 + list_green(pp, uu, uu, form)
                                                              + list_green(qq, vv, vv, form))
    first = _rank(pp, k, form) + C_LINK * _green_sym(pp, k, uu, form)
    second = _rank(qq, k, form) - C_LINK * _green_sym(qq, k, vv, form)
    return c, (first, first.subs(C_LINK, c)), (second, second.subs(C_LINK, c))


def _lists(lists: Any, link: Any, form: str) -> ParadigmClosedForm:
    if lists is None:
        lists = ("symbolic", "symbolic")
    if isinstance(lists, str) or len(lists) != 2:
        raise ParameterError(f"lists must be two list lengths (p, q), each an integer >= 2 or 'symbolic' (a "
                             f"closed form exists for two lists), got {lists!r}")
    pp = _size(lists[0], p, "length of the first list", 2)
    qq = _size(lists[1], q, "length of the second list", 2)
    sizes: list[tuple[str, sp.Expr]] = [("p", pp), ("q", qq)]
    if link is None or (isinstance(link, str) and link.strip().lower() == "none"):
        r1 = _rank(pp, k, form)
        r2 = _rank(qq, k, form)
        ranks = (("first list, 1 <= k <= p", r1, r1), ("second list, 1 <= k <= q", r2, r2))
        definitions: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()
        cross_limit = (pp + 1) / 2 - i - (qq + 1) / 2 + j
        validity = "p, q >= 2; separate lists (no link)"
    else:
        if isinstance(link, str) or len(link) != 2:
            raise ParameterError(f"link must be (u, v), the positions of the linking pair's winner in the first "
                                 f"list and loser in the second (integers or 'symbolic'), or None, got {link!r}")
        uu = _size(link[0], u, "position of the link's winner in the first list")
        vv = _size(link[1], v, "position of the link's loser in the second list")
        for pos, size, what, lname in ((uu, pp, "u", "p"), (vv, qq, "v", "q")):
            if pos.is_Integer and size.is_Integer and pos > size:
                raise ParameterError(f"link position {what} = {pos} must lie in 1..{lname} = 1..{size}")
        sizes += [("u", uu), ("v", vv)]
        c, first, second = _link_ranks(pp, qq, uu, vv, form)
        definitions = ((C_LINK, c),)
        ranks = (("first list, 1 <= k <= p", *first), ("second list, 1 <= k <= q", *second))
        cross_limit = (j - vv) - (i - uu) + 1
        validity = "p, q >= 2, 1 <= u <= p, 1 <= v <= q; link u>v"
    (_, c1, e1), (_, c2, e2) = ranks

    def diff(a: sp.Expr, b: sp.Expr) -> sp.Expr:
        return a.subs(k, i) - b.subs(k, j)

    predictions = (("i and j in the first list", diff(c1, c1), diff(e1, e1)),
                   ("i in the first list, j the j-th item of the second (item p + j)", diff(c1, c2), diff(e1, e2)),
                   ("i the i-th item of the second list, j in the first", diff(c2, c1), diff(e2, e1)),
                   ("i and j in the second list", diff(c2, c2), diff(e2, e2)))
    limits = (("additive ridgeless (alpha = 0, lambda -> 0+): test trial within one list", j - i),
              ("additive ridgeless (alpha = 0, lambda -> 0+): i in the first list, j the j-th item of the second",
               cross_limit))
    return ParadigmClosedForm(paradigm="list-linking", form=form, sizes=tuple(sizes), validity=validity,
                              definitions=definitions, ranks=ranks, predictions=predictions,
                              training=_training_rule(), limits=limits)


def paradigm_closed_form(paradigm: str, *, lists: Any = None, link: Any = ("symbolic", "symbolic"),
                         form: str = "sinh") -> ParadigmClosedForm:
    """Closed forms of a paradigm in its sizes (docs/paradigms.md), as a report with text, LaTeX and JSON.

    Parameters
    ----------
    paradigm : {"transverse-patterning", "banded-transverse-patterning", "list-linking"}
        ``"ti"`` has its own reports (:func:`~.no_exception.no_exception_closed_form`,
        :func:`~.one_exception.exception_closed_form`).
    lists : (p, q), optional
        list-linking only: the two list lengths, each an integer ``>= 2`` or ``"symbolic"`` (default both
        symbolic: :data:`~.paradigms.p`, :data:`~.paradigms.q`).
    link : (u, v) or None, default both symbolic
        list-linking only: the ``u``-th item of the first list beats the ``v``-th of the second (each an integer
        ``>= 1`` or ``"symbolic"``: :data:`~.paradigms.u`, :data:`~.paradigms.v`); None (or ``"none"``) for
        separate lists. ``Task.paradigm("list-linking", lists=(p, q), links=[f"{u}>{p + v}"])`` is the task.
    form : {"sinh", "chebyshev"}

    Returns
    -------
    ParadigmClosedForm
        Ranks per list (compact with the link's ``c``, and expanded), test predictions per pair of lists, the
        training rule and the additive ridgeless limits (:func:`~.paradigms.linked_lists_rank`,
        :func:`~.paradigms.separate_list_rank`, :func:`~.paradigms.transverse_patterning_margin`,
        :func:`~.paradigms.linked_lists_limit_ridgeless_additive`).

    Raises
    ------
    ParameterError
        For a paradigm without a closed form (the message lists those that have one), ``lists`` or ``link``
        given to transverse patterning, or an invalid size, position or form.
    """
    _check_form(form)
    if paradigm == "ti":
        raise ParameterError("paradigm 'ti': its closed forms are no_exception_closed_form() and "
                             "exception_closed_form() (symbolic-ti general without --paradigm)")
    if paradigm in ("transverse-patterning", "banded-transverse-patterning"):
        if lists is not None or link not in (None, ("symbolic", "symbolic")):
            raise ParameterError(f"paradigm {paradigm} takes no lists or link (its only size is n)")
        return _transverse(paradigm, form)
    if paradigm == "list-linking":
        return _lists(lists, link, form)
    raise ParameterError(f"paradigm {paradigm!r} has no closed form in its sizes; closed forms exist for: "
                         f"{', '.join(CLOSED_FORM_PARADIGMS)} (list-linking: two lists, at most one link)")
