r"""Numbers from the general-n closed forms: exact (chebyshev) or mpmath (sinh) values, limits taken exactly.

* :func:`evaluate_no_exception`, and :meth:`ExceptionClosedForm.evaluate
  <symbolic_ti.analysis.general.ExceptionClosedForm.evaluate>` through :func:`_evaluate_one_exception`;
* the pieces compiled once per form with :func:`sympy.lambdify` (chebyshev: ``U_a(x0)`` from an exact
  three-term recurrence, so Fraction arithmetic stays exact; sinh: mpmath at ``mu = acosh(x0)``);
* the limits at ``gamma = 0`` (``alpha = 0``, ridgeless: ``x -> 1``) and ``gamma = oo`` (``alpha = 1``:
  ``x -> oo``), read from the numerator and denominator of the piece canceled in ``QQ(x)`` or ``QQ(s)``,
  ``s = exp(mu / 2)``, never by substituting into the piece (docs/general_n.md#limits);
* training trials: the memorized share ``f(e) = d_e + alpha / (alpha + lambda') (y_e - d_e)``
  (docs/theory.md#graph-laplacian-reduction).

The one-exception functions take the cached closed form with symbolic ``D`` (``symbolic``) as an argument, so
this module does not import :mod:`.one_exception` (which imports this one).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from collections.abc import Callable
from typing import Any, Protocol

import mpmath
import sympy as sp

from ... import symbols as S
from ...arguments import MAX_DIGITS, check_int, exact_number, parse_ridge
from ...digits import message_text
from ...errors import ParameterError
from ...task import Task
from .no_exception import prediction_no_exception
from .variables import D, L, _check_form, i, i_sym, j, j_sym, k, mu, n, region_of, x



class OneExceptionForm(Protocol):
    """What the evaluators read of a one-exception closed form (:class:`~.one_exception.ExceptionClosedForm`,
    which calls them): its ``form``, its rank and prediction pieces by region. A protocol, so that this module
    does not import the class that imports it."""

    @property
    def form(self) -> str: ...

    @property
    def ranks(self) -> tuple[tuple[str, sp.Expr], ...]: ...

    @property
    def predictions(self) -> tuple[tuple[tuple[str, str], sp.Expr], ...]: ...

    def rank(self, region: str, compact: bool = False) -> sp.Expr: ...

    def prediction(self, region_i: str, region_j: str, compact: bool = False) -> sp.Expr: ...

    def __hash__(self) -> int: ...  # frozen: the compiled pieces are cached per closed form

__all__ = ["evaluate_no_exception"]


# ---------------------------------------------------------------------------------- exact Chebyshev values
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


_CHEBYSHEV_MODULE = {"chebyshevu": lambda a, x0: _u_table(x0)(a)}
_ARGS = (n, L, D, i, j)


@functools.cache
def _compiled(symbolic: OneExceptionForm) -> dict[tuple[str, str], Callable[..., Any]]:
    """Each prediction piece as a Python function of ``(n, L, D, i, j, variable)``.

    chebyshev: exact, with ``chebyshevu(a, x0)`` read from :class:`_UTable` (``x0`` a Fraction); the pieces
    contain only integer constants, so Fraction arithmetic stays exact. sinh: mpmath functions.
    """
    out = {}
    for pair, expr in symbolic.predictions:
        if symbolic.form == "chebyshev":
            bad = [c for c in expr.atoms(sp.Rational) if c.q != 1]
            if bad:  # pragma: no cover - guards the exactness of the generated code
                raise AssertionError(f"non-integer constant {bad} in a chebyshev piece")
            fn = sp.lambdify(_ARGS + (x,), expr, modules=[_CHEBYSHEV_MODULE], cse=True)
        else:
            fn = sp.lambdify(_ARGS + (mu,), expr, modules="mpmath", cse=True)
        out[pair] = fn
    return out


# -------------------------------------------------------------------------------------------- parameters
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
        raise ParameterError(f"alpha must lie in [0, 1], got {message_text(a)}")
    if not (kd.is_real and 0 <= kd < 1):
        raise ParameterError(f"kappa_d must lie in [0, 1), got {message_text(kd)}")
    lam = parse_ridge(ridge, numeric=True)  # ridge 0 means the limit lambda -> 0+, never the substitution
    if lam is None:
        return a, None, kd
    return a, lam / (1 - kd), kd


def _check_precision(form: str, precision: Any) -> None:
    """``precision``: decimal digits, 5 to :data:`~symbolic_ti.arguments.MAX_DIGITS`, checked for every ``form``
    (the exact forms do not use it, but a wrong value is never passed over silently)."""
    check_int(precision, "precision (decimal digits)", minimum=5, maximum=MAX_DIGITS)


@functools.lru_cache(maxsize=256)
def _share(a: sp.Expr, lam: sp.Expr | None) -> sp.Expr:
    """Memorized share ``alpha / (alpha + lambda')``; ridgeless: its limit ``lambda' -> 0+``."""
    if lam is None:
        eps = sp.Symbol("epsilon", positive=True)
        return sp.limit(a / (a + eps), eps, 0, "+")
    return a / (a + lam)


# ------------------------------------------------------------------------------------------- field limits
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
    """An exact sympy number (rational or algebraic, e.g. ``8/(7 (1 - sqrt(2)/3))``) as an mpmath number at
    ``precision`` digits (call inside ``workdps``)."""
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / mpmath.mpf(int(value.q))
    return mpmath.mpf(sp.N(value, precision + 10))


@functools.cache
def _compiled_ranks_field(symbolic: OneExceptionForm) -> dict[str, Callable[..., Any]]:
    """chebyshev rank pieces as Python functions of ``(n, L, D, k, x)`` for ``x`` in the field ``QQ(x)``."""
    return {r: sp.lambdify((n, L, D, k, x), v, modules=[_CHEBYSHEV_MODULE], cse=True) for r, v in symbolic.ranks}


@functools.lru_cache(maxsize=8192)
def _rank_limit(symbolic: OneExceptionForm, ints: tuple[int, int, int], region: str, item: int,
                at_infinity: bool) -> sp.Expr:
    """Exact limit of the rank piece ``r_k`` of ``region`` at ``k = item`` as ``gamma -> 0`` or ``gamma -> oo``.

    The piece with numeric ``n, L, D, k`` is a rational function of ``x`` (chebyshev) or of ``s = exp(mu / 2)``
    (sinh), canceled in the field ``QQ(x)`` or ``QQ(s)``; the limit at ``x, s -> 1`` or ``-> oo`` is read from
    its numerator and denominator (:func:`_field_limit`).
    """
    point = sp.oo if at_infinity else sp.Integer(1)
    if symbolic.form == "chebyshev":
        return _field_limit(_compiled_ranks_field(symbolic)[region](*ints, item, _QQ_X.gens[0]), point)
    expr = symbolic.rank(region).subs({n: ints[0], L: ints[1], D: ints[2], k: item})
    return _field_limit(_sinh_as_field_element(expr), point)


# ------------------------------------------------------------------------------------------ one exception
def _piece_value(symbolic: OneExceptionForm, pair: tuple[str, str], ints: tuple[int, ...], a: sp.Expr,
                 lam: sp.Expr | None, precision: int, expr_of: Callable[[], sp.Expr]) -> Any:
    """Value of the rank difference ``d = r_i - r_j`` of one piece (limits at gamma = 0 and gamma = oo).

    Away from the limits: the compiled piece, exactly at a rational ``x`` (chebyshev) or with mpmath at
    ``mu = acosh(x)`` (sinh). At ``gamma = 0`` (``x -> 1``) and ``gamma = oo`` (``x -> oo``): the piece is
    ``r^(region of i)(i) - r^(region of j)(j)`` and each rank term has a finite limit (ranks are bounded,
    docs/general_n.md#limits), so its limit is the difference of the two limits of :func:`_rank_limit`.
    """
    form = symbolic.form
    gamma0 = lam is None and a == 0
    gamma_inf = a == 1
    lam_v = sp.Integer(0) if lam is None else lam
    if gamma0 or gamma_inf:
        nlD, ti, tj = ints[:3], ints[3], ints[4]
        value = (_rank_limit(symbolic, nlD, pair[0], ti, gamma_inf)
                 - _rank_limit(symbolic, nlD, pair[1], tj, gamma_inf))
        if form == "chebyshev":
            return value
        with mpmath.workdps(precision):
            return _to_mpf(value, precision)
    x0 = (1 + lam_v) / (1 - a)
    if form == "chebyshev":
        if x0.is_Rational:
            val = _compiled(symbolic)[pair](*ints, Fraction(int(x0.p), int(x0.q)))
            return sp.Rational(val.numerator, val.denominator)
        e = expr_of().subs(dict(zip(_ARGS, ints, strict=True)))  # algebraic parameters: exact, slower
        return sp.radsimp(sp.cancel(e).subs(x, x0))
    with mpmath.workdps(precision):
        return _compiled(symbolic)[pair](*ints, mpmath.acosh(_to_mpf(x0, precision)))


@functools.lru_cache(maxsize=128, typed=True)
def _task(n_: Any, l_: Any, w_: Any) -> Task:
    return Task(n_, [(w_, l_)])


def _evaluate_one_exception(symbolic: OneExceptionForm, cf: OneExceptionForm, n_: int, l_: int, w_: int,
                            i_: int, j_: int, alpha: Any, ridge: Any, kappa_d: Any, precision: int) -> Any:
    """:meth:`ExceptionClosedForm.evaluate` of ``cf``; ``symbolic`` is the cached form with symbolic ``D``
    of the same ``form`` (its pieces are compiled once)."""
    try:
        task = _task(n_, l_, w_)
    except TypeError:  # unhashable input: let Task report it
        task = Task(n_, [(w_, l_)])
    ti, tj = task.check_trial((i_, j_))
    _check_precision(cf.form, precision)
    a, lam, _ = _parse_parameters(alpha, ridge, kappa_d)
    ints = (task.n, l_, w_ - l_, ti, tj)
    pair = (region_of(ti, l_, w_), region_of(tj, l_, w_))
    d = _piece_value(symbolic, pair, ints, a, lam, precision, lambda: cf.prediction(*pair))
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


# ------------------------------------------------------------------------------------------- no exception
@functools.cache
def _compiled_no_exception(form: str) -> Callable[..., Any]:
    """:func:`prediction_no_exception` as a function of ``(n, i, j, variable)`` (see :func:`_compiled`)."""
    expr = prediction_no_exception(form)
    if form == "chebyshev":
        return sp.lambdify((n, i, j, x), expr, modules=[_CHEBYSHEV_MODULE])
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
    _check_precision(form, precision)
    a, lam, _ = _parse_parameters(alpha, ridge, kappa_d)
    gamma0, gamma_inf = lam is None and a == 0, a == 1
    lam_v = sp.Integer(0) if lam is None else lam
    point = sp.oo if gamma_inf else sp.Integer(1)
    x0 = None if gamma_inf else (1 + lam_v) / (1 - a)
    fn = _compiled_no_exception(form)
    if form == "chebyshev":
        if gamma0 or gamma_inf:
            d = _field_limit(fn(task.n, ti, tj, _QQ_X.gens[0]), point)
        elif x0 is not None and x0.is_Rational:
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
