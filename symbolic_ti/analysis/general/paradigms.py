r"""Closed forms for the paradigms of docs/paradigms.md (exchangeable family, uniform counts).

The ranks solve ``(Lap + gamma I) r = b`` on the comparison graph (docs/theory.md#graph-laplacian-reduction): a
test trial gives ``f(i, j) = r_i - r_j`` and a training trial ``e`` gets the memorized share
``alpha / (alpha + lambda')`` of its residual.

* **Transverse patterning** (``i>i+1`` for ``i < n`` and ``n>1``) and its banded variant: every item wins as
  often as it loses, so ``b = 0`` and ``r = 0`` for every ``n``: each training trial's margin is the memorized
  share, every test prediction is 0 (:func:`transverse_patterning_margin`).
* **Two lists joined by one link** ``u>v`` (the ``u``-th item of a ``p``-item list beats the ``v``-th item of a
  ``q``-item list): the two paths' Green's functions and one Sherman-Morrison update,

      r^(1)_k = r^p_k + c G_p(k, u),    r^(2)_k = r^q_k - c G_q(k, v),
      c = (1 - r^p_u + r^q_v) / (1 + G_p(u, u) + G_q(v, v)),

  with ``r^m`` the ranks of an ``m``-item list trained alone (the PNAS ranks, centered) and ``G_m`` its Green's
  function (:func:`linked_lists_rank`). Without a link the lists keep ``r^p`` and ``r^q``
  (:func:`separate_list_rank`). Numbers: :func:`evaluate_linked_lists`; the additive ridgeless limit:
  :func:`linked_lists_limit_ridgeless_additive`.

Derived in docs/paradigms.md; derivations/paradigms.py checks every form against exact solves at many sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ... import symbols as S
from ...errors import ParameterError, TaskError
from .evaluation import _parse_parameters, _share
from .path import chebyshev_v, path_determinant
from .variables import _check_form, k, mu

__all__ = ["p", "q", "u", "v", "transverse_patterning_margin", "separate_list_rank", "list_green",
           "linked_lists_rank", "LinkedLists", "evaluate_linked_lists", "linked_lists_limit_ridgeless_additive"]

#: Lengths of the two lists (items ``1..p`` and ``p+1..p+q`` in the numbering of ``Task.paradigm``).
p = sp.Symbol("p", integer=True, positive=True)
q = sp.Symbol("q", integer=True, positive=True)
#: Positions of the link ``u>v``: the ``u``-th item of the first list beats the ``v``-th item of the second.
u = sp.Symbol("u", integer=True, positive=True)
v = sp.Symbol("v", integer=True, positive=True)

_HALF = sp.Rational(1, 2)


def transverse_patterning_margin(alpha: Any = S.alpha, ridge: Any = S.ridge, kappa_d: Any = S.kappa_d) -> sp.Expr:
    """Margin of every training trial of transverse patterning (any ``n >= 3``) and banded TP.

    Every item wins exactly as often as it loses, so ``b = 0``, all ranks are 0 and a training trial keeps only
    its memorized share; every test prediction is 0 (docs/paradigms.md#transverse-patterning).

    Parameters
    ----------
    alpha, ridge, kappa_d : numbers or sympy expressions, default the shared Symbols
        Domains: ``alpha`` in ``[0, 1]``, ``ridge > 0`` (the ridgeless margin is the limit: 1 for
        ``alpha > 0``, 0 at ``alpha = 0``), ``kappa_d`` in ``[0, 1)``.

    Returns
    -------
    sympy expression
        ``alpha / (alpha + lambda')`` with ``lambda' = ridge / (1 - kappa_d)``, the same for every ``n``.
    """
    lam = sp.sympify(ridge) / (1 - sp.sympify(kappa_d))
    a = sp.sympify(alpha)
    return a / (a + lam)


def _rank(size: Any, index: Any, form: str) -> sp.Expr:
    """``r^size_index``: the rank of an item of a list of ``size`` items trained alone (centered)."""
    if form == "chebyshev":
        return (chebyshev_v(size - index) - chebyshev_v(index - 1)) / path_determinant("chebyshev", size=size)
    return sp.sinh(((size + 1) / 2 - index) * mu) / (2 * sp.cosh(size * mu / 2) * sp.sinh(mu / 2))


def separate_list_rank(size: Any = p, index: Any = k, form: str = "sinh") -> sp.Expr:
    """Rank of the ``index``-th item of a list of ``size`` items trained alone (no link to another list).

    Returns
    -------
    sympy expression
        sinh: ``sinh(((m + 1)/2 - k) mu) / (2 cosh(m mu / 2) sinh(mu / 2))`` with ``m = size``; chebyshev:
        ``(V_{m-k}(x) - V_{k-1}(x)) / (2 (x - 1) U_{m-1}(x))``: the PNAS ranks, which sum to 0 over the list.
        A trial between two separate lists gives ``f = r^p_i - r^q_j`` (docs/paradigms.md#separate-lists).

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    return _rank(size, index, _check_form(form))


def list_green(size: Any, a: Any, b: Any, form: str = "sinh") -> sp.Expr:
    """``(Lap_path + gamma I)^{-1}[a, b]`` of a list (path) of ``size`` items, for ``a <= b``.

    Returns
    -------
    sympy expression
        chebyshev: ``V_{a-1}(x) V_{size-b}(x) / (2 (x - 1) U_{size-1}(x))``; sinh:
        ``cosh((a - 1/2) mu) cosh((size - b + 1/2) mu) / (sinh(mu) sinh(size mu))``
        (docs/general_n.md#greens-function-of-the-path with ``n = size``).

    Raises
    ------
    ParameterError
        For an unknown ``form``.
    """
    if _check_form(form) == "chebyshev":
        return chebyshev_v(a - 1) * chebyshev_v(size - b) / path_determinant("chebyshev", size=size)
    return sp.cosh((a - _HALF) * mu) * sp.cosh((size - b + _HALF) * mu) / (sp.sinh(mu) * sp.sinh(size * mu))


def _green_sym(size: Any, a: Any, b: Any, form: str) -> sp.Expr:
    """``G(a, b)`` for any order of ``a``, ``b`` (Piecewise when the order is not known)."""
    lo_hi, hi_lo = list_green(size, a, b, form), list_green(size, b, a, form)
    cond = sp.Le(sp.sympify(a), sp.sympify(b))
    if cond is sp.true:
        return lo_hi
    if cond is sp.false:
        return hi_lo
    return sp.Piecewise((lo_hi, cond), (hi_lo, True))


def linked_lists_rank(which: int, index: Any = k, form: str = "sinh") -> sp.Expr:
    """Rank of the ``index``-th item of list ``which`` (1 or 2) when the link ``u>v`` joins the two lists.

    Parameters
    ----------
    which : {1, 2}
        The first list (``p`` items, the link's winner ``u`` in it) or the second (``q`` items, loser ``v``).
    index : integer or sympy expression, default :data:`~symbolic_ti.analysis.general.k`
        Position in that list, ``1 <= index <= p`` (or ``q``).
    form : {"sinh", "chebyshev"}

    Returns
    -------
    sympy expression in p, q, u, v, index and mu (or x)
        ``r^p_k + c G_p(k, u)`` (list 1) or ``r^q_k - c G_q(k, v)`` (list 2) with
        ``c = (1 - r^p_u + r^q_v) / (1 + G_p(u, u) + G_q(v, v))``: the Sherman-Morrison update of the two
        separate lists by the link edge (docs/paradigms.md#two-lists-joined-by-one-link-closed-form). A ``Piecewise`` in
        ``index <= u`` (or ``v``) when the order is symbolic.

    Raises
    ------
    ParameterError
        For an unknown ``form`` or ``which``.
    """
    _check_form(form)
    if which not in (1, 2):
        raise ParameterError(f"which must be 1 (the first list) or 2 (the second), got {which!r}")
    c = (1 - _rank(p, u, form) + _rank(q, v, form)) / (1 + list_green(p, u, u, form) + list_green(q, v, v, form))
    if which == 1:
        return _rank(p, index, form) + c * _green_sym(p, index, u, form)
    return _rank(q, index, form) - c * _green_sym(q, index, v, form)


# --------------------------------------------------------------------------------------------- numbers
def _cheb(m: int, x: Fraction) -> tuple[list[Fraction], Fraction]:
    """``V_0..V_{m-1}`` at ``x`` and the determinant ``2 (x - 1) U_{m-1}(x)`` of a list of ``m`` items."""
    vs, us = [Fraction(1), 2 * x - 1], [Fraction(1), 2 * x]
    while len(vs) < m:
        vs.append(2 * x * vs[-1] - vs[-2])
    while len(us) < m:
        us.append(2 * x * us[-1] - us[-2])
    return vs[:m], 2 * (x - 1) * us[m - 1]


def _list_numbers(m: int, x: Fraction) -> tuple[list[Fraction], Any]:
    vs, det = _cheb(m, x)
    ranks = [(vs[m - kk] - vs[kk - 1]) / det for kk in range(1, m + 1)]

    def green(a: int, b: int) -> Fraction:
        a, b = min(a, b), max(a, b)
        return vs[a - 1] * vs[m - b] / det

    return ranks, green


def _depth_ranks(p_: int, q_: int, link: tuple[int, int] | None) -> list[Fraction]:
    """``lim_{gamma -> 0} r``: every edge of the forest fitted exactly (rank drop 1), centered per list group."""
    first = [Fraction(-(kk - 1)) for kk in range(1, p_ + 1)]
    second = [Fraction(-(kk - 1)) for kk in range(1, q_ + 1)]
    if link is None:
        groups = [first, second]
    else:
        shift = first[link[0] - 1] - 1 - second[link[1] - 1]
        second = [s + shift for s in second]
        groups = [first + second]
    out: list[Fraction] = []
    for grp in groups:
        mean = sum(grp, Fraction(0)) / len(grp)
        out += [x - mean for x in grp]
    return out


@dataclass(frozen=True)
class LinkedLists:
    """Exact predictions of two lists, linked by one pair or separate (:func:`evaluate_linked_lists`).

    Items are numbered as in ``Task.paradigm("list-linking", ...)``: the first list ``1..p``, the second
    ``p+1..p+q``.

    Attributes
    ----------
    lengths : tuple of int
        ``(p, q)``.
    link : tuple of int or None
        ``(u, v)`` (positions in their lists), or None for separate lists.
    ranks : tuple of sympy.Rational
        ``r_1..r_{p+q}`` (centered on each connected part).
    share : sympy.Rational
        The memorized share ``alpha / (alpha + lambda')`` (its limit when ridgeless).
    """

    lengths: tuple[int, int]
    link: tuple[int, int] | None
    ranks: tuple[sp.Rational, ...]
    share: sp.Rational

    def trained(self, i: int, j: int) -> bool:
        """Whether ``(i, j)`` or ``(j, i)`` is a training trial."""
        p_ = self.lengths[0]
        pair = (min(i, j), max(i, j))
        if pair[1] == pair[0] + 1 and pair[0] != p_:
            return True
        return self.link is not None and pair == (self.link[0], p_ + self.link[1])

    def prediction(self, i: int, j: int) -> sp.Rational:
        """``f(i, j)``: ``r_i - r_j`` on a test trial, plus the memorized share of the residual on a training trial.

        Raises
        ------
        TaskError
            For items outside ``1..p+q`` or ``i == j``.
        """
        nn = sum(self.lengths)
        if not (1 <= i <= nn and 1 <= j <= nn) or i == j:
            raise TaskError(f"trial ({i}, {j}): items must be two different items of 1..{nn}")
        d = self.ranks[i - 1] - self.ranks[j - 1]
        if not self.trained(i, j):
            return d
        y = 1 if self._winner_first(i, j) else -1
        return d + self.share * (y - d)

    def _winner_first(self, i: int, j: int) -> bool:
        if self.link is not None and (i, j) == (self.link[0], self.lengths[0] + self.link[1]):
            return True
        if self.link is not None and (j, i) == (self.link[0], self.lengths[0] + self.link[1]):
            return False
        return i < j


def _lengths_and_link(lengths: Any, link: Any) -> tuple[int, int, tuple[int, int] | None]:
    try:
        p_, q_ = (int(x) for x in lengths)
    except (TypeError, ValueError):
        raise TaskError(f"lengths must be two list lengths (p, q), got {lengths!r}") from None
    if p_ < 2 or q_ < 2:
        raise TaskError(f"each list length is an integer >= 2, got {lengths!r}")
    if link is None:
        return p_, q_, None
    try:
        a, b = (int(x) for x in link)
    except (TypeError, ValueError):
        raise TaskError(f"link must be (u, v): positions in the first and second list, got {link!r}") from None
    if not (1 <= a <= p_ and 1 <= b <= q_):
        raise TaskError(f"link (u, v) = {link!r}: u must lie in 1..{p_} and v in 1..{q_}")
    return p_, q_, (a, b)


def evaluate_linked_lists(lengths: Any, link: Any, alpha: Any, ridge: Any, kappa_d: Any = 0) -> LinkedLists:
    """Exact ranks and predictions of two lists joined by the link ``u>v`` (or separate), from the closed form.

    Parameters
    ----------
    lengths : (int, int)
        ``(p, q)``, each ``>= 2``.
    link : (int, int) or None
        ``(u, v)``: the ``u``-th item of the first list beats the ``v``-th of the second
        (``Task.paradigm("list-linking", lists=(p, q), links=[f"{u}>{p + v}"])``); None for separate lists.
    alpha, ridge, kappa_d : exact numbers
        ``alpha`` in ``[0, 1]``, ``ridge >= 0`` or ``"ridgeless"``, ``kappa_d`` in ``[0, 1)``.

    Returns
    -------
    LinkedLists
        Ranks from :func:`linked_lists_rank` in the chebyshev form at ``x = (1 + lambda') / (1 - alpha)``
        (exact rationals); at ``gamma = 0`` (``alpha = 0``, ridgeless) the limit
        (:func:`linked_lists_limit_ridgeless_additive`), at ``alpha = 1`` all ranks 0.

    Raises
    ------
    TaskError, ParameterError
        For invalid lengths, link or parameters.
    """
    p_, q_, lk = _lengths_and_link(lengths, link)
    a, lam, _ = _parse_parameters(alpha, ridge, kappa_d)
    share = _share(a, lam)
    if a == 1:
        return LinkedLists((p_, q_), lk, tuple(sp.Integer(0) for _ in range(p_ + q_)), share)
    if lam is None and a == 0:
        return LinkedLists((p_, q_), lk, tuple(sp.Rational(x.numerator, x.denominator)
                                               for x in _depth_ranks(p_, q_, lk)), share)
    x0 = (1 + (lam if lam is not None else 0)) / (1 - a)
    if not x0.is_Rational:
        raise ParameterError("alpha, ridge and kappa_d must be rational here")
    x = Fraction(int(x0.p), int(x0.q))
    r1, g1 = _list_numbers(p_, x)
    r2, g2 = _list_numbers(q_, x)
    if lk is not None:
        c = (1 - r1[lk[0] - 1] + r2[lk[1] - 1]) / (1 + g1(lk[0], lk[0]) + g2(lk[1], lk[1]))
        r1 = [r1[kk - 1] + c * g1(kk, lk[0]) for kk in range(1, p_ + 1)]
        r2 = [r2[kk - 1] - c * g2(kk, lk[1]) for kk in range(1, q_ + 1)]
    return LinkedLists((p_, q_), lk, tuple(sp.Rational(x.numerator, x.denominator) for x in r1 + r2), share)


def linked_lists_limit_ridgeless_additive(i: Any, j: Any, u_: Any = u, v_: Any = v) -> sp.Expr:
    """``lim_{gamma -> 0} f`` of a test trial between position ``i`` of the first list and ``j`` of the second.

    The joined graph is a tree, so as ``gamma -> 0`` every one of its edges is fitted exactly (each training
    pair's rank difference is 1): positions are aligned by the link, the second list's ``v`` one step below the
    first list's ``u``.

    Returns
    -------
    sympy expression
        ``(j - v) - (i - u) + 1`` (any lengths ``p``, ``q``); a trial within one list gives ``j - i``.
        Derived here, see docs/paradigms.md#the-additive-ridgeless-limit.
    """
    return (sp.sympify(j) - v_) - (sp.sympify(i) - u_) + 1
