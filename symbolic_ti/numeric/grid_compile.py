"""Compiling a result's closed forms into shared factors: :func:`compile_result` (method: steps 1-3 of the module
docstring of :mod:`symbolic_ti.numeric.grid`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..arguments import check_trials
from ..errors import ParameterError, SolveError
from ..families.base import Trial
from ..results import Result
from .compiled import CompiledResult, _Factor, _Rational, programs
from .grid_poly import flint_factored, signed_lookup

__all__ = ["compile_result"]


def _ground_truth(result: Result, chosen: tuple[Trial, ...]) -> np.ndarray:
    """Target or ground truth (+1, -1) of each chosen trial; NaN for a trial without ground truth."""
    out = []
    for t in chosen:
        g = result.task.ground_truth(t)
        out.append(np.nan if g is None else float(g))
    return np.array(out)


def _to_float(c: Any) -> float:
    """A constant coefficient as a float: evaluated at 30 digits first, so that ``pi``, ``sqrt`` and ``acos`` terms
    and the named kernel constants (:class:`~symbolic_ti.families.relu.ReluKernelConstant` and its subclasses, as
    in :func:`symbolic_ti.behaviour.model.compile_predictions`) round once. An integer rounds once as it is."""
    if isinstance(c, (int, sp.Integer)):
        return float(int(c))
    value = sp.sympify(c).evalf(30)
    if not value.is_Number:
        raise SolveError(f"compile_result: coefficient {c} is not a real constant")
    return float(value)


def _domains(result: Result, names: Iterable[str]) -> dict[str, tuple[float, float, bool, bool]]:
    table = {p.name: p for p in result.family.active_parameters}
    out = {}
    for name in names:
        if name == "lambda":
            out[name] = (0.0, float("inf"), False, True)
        elif name in table:
            p = table[name]
            out[name] = (float(p.lower), float(p.upper), bool(p.lower_open), bool(p.upper_open))
        else:  # a symbol that is no parameter of the family: no domain known
            out[name] = (float("-inf"), float("inf"), True, True)
    return out


def compile_result(result: Result, trials: Iterable[Sequence[int]] | None = None) -> CompiledResult:
    """Compile the closed forms of a result (all trials, or chosen ones) for fast grid evaluation.

    Parameters
    ----------
    result : Result
        Any exact result: symbolic (free parameters such as ``alpha`` and the ridge ``lambda``) or numeric (no
        free parameter: the values are constants), of any family. A ridgeless result is its limit formula
        (where ``ridgeless_conditions`` vanish it is not the limit; see :class:`~symbolic_ti.results.Result`).
    trials : iterable of (i, j), optional
        Trials to compile, in this order; default every ordered trial ``result.task.trials``.

    Returns
    -------
    CompiledResult
        With :attr:`~CompiledResult.parameters` (sorted names of the free parameters) and
        :meth:`~CompiledResult.evaluate`.

    Raises
    ------
    ParameterError
        If ``result`` is not a Result, or ``trials`` is empty.
    TaskError
        For a trial that is not a trial of the task.
    SolveError
        If a closed form is not a rational function of polynomial generators (not expected for any family).

    Notes
    -----
    Compilation costs one ``Poly`` conversion per distinct numerator and denominator (about 0.1 s for every
    trial of n = 9 with one exception, alpha and the ridge symbolic). Method and the cancellation detector: see
    the module docstring of :mod:`symbolic_ti.numeric.grid`. Timings: benchmarks/bench_grid.py,
    docs/performance.md#grid-evaluation.

    Examples
    --------
    >>> import numpy as np
    >>> from symbolic_ti import derive
    >>> c = compile_result(derive(4, ridge=1), trials=[(1, 4)])
    >>> c.parameters
    ('alpha',)
    >>> g = c.evaluate(alpha=np.array([0.0, 0.5]))
    >>> g.values.shape, round(float(g.values[0, 0]) * 7, 12)
    ((1, 2), 5.0)
    """
    if not isinstance(result, Result):
        raise ParameterError(f"result must be a symbolic_ti Result, got {type(result).__name__}")
    task = result.task
    chosen = check_trials(task, trials)
    if trials is not None:
        if not chosen:
            raise ParameterError("trials must name at least one trial (or be None for every trial)")
    syms = tuple(result.free_symbols)
    names = tuple(s.name for s in syms)
    n_t = len(chosen)
    if not syms:  # a numeric result: exact constants, rounded once (evalf is adaptive: correct digits)
        consts = tuple(result.predictions[t] for t in chosen)
        return _constant_result(result, chosen, names, consts)
    fast = flint_factored(result, chosen, syms)  # FLINT's factorization of the polynomial forms (grid_poly.py)
    if fast is not None:
        factors = [_Factor(terms) for terms in fast[0]]
        poly_factored, pairs, gens = fast[1], fast[2], tuple(syms)
    else:
        gens, factors, poly_factored, pairs = _sympy_factored(result, chosen, syms)
    rat_index: dict[tuple, int] = {}
    rationals: list[_Rational] = []
    trial_rational = np.empty(n_t, dtype=int)
    trial_sign = np.empty(n_t)
    for k in range(n_t):
        ni, ns, di, ds = pairs[k]
        if (ni, di) not in rat_index:
            (cn, pn), (cd, pd) = poly_factored[ni], poly_factored[di]
            if cd == 0:
                raise SolveError(f"compile_result: the closed form of trial {chosen[k]} has denominator 0")
            powers: dict[int, int] = {}
            for h, e in pn:
                powers[h] = powers.get(h, 0) + e
            for h, e in pd:
                powers[h] = powers.get(h, 0) - e
            rat_index[(ni, di)] = len(rationals)
            rationals.append(_Rational(sp.nsimplify(cn / cd) if (cn / cd).has(sp.Float) else cn / cd,
                                       tuple((h, e) for h, e in sorted(powers.items()) if e)))
        trial_rational[k] = rat_index[(ni, di)]
        trial_sign[k] = ns * ds
    monos = sorted({m for h in factors for m, _ in h.terms})
    mono_index = {m: r for r, m in enumerate(monos)}
    split = tuple((tuple((mono_index[m], _to_float(c)) for m, c in h.terms if c > 0),
                   tuple((mono_index[m], -_to_float(c)) for m, c in h.terms if c < 0)) for h in factors)
    max_deg = tuple(max((m[k] for m in monos), default=0) for k in range(len(gens)))
    degree = max((sum(m) for m in monos), default=0)
    weights = np.array([len(h.terms) + degree + 2 for h in factors], dtype=float)
    domains = _domains(result, names)
    nonnegative = all(g.is_Symbol and domains[g.name][0] >= 0 for g in gens)
    return CompiledResult(
        parameters=names, trials=chosen, result_label=result.label(),
        _domains=domains, _ground_truth=_ground_truth(result, chosen), _gens=gens,
        _max_deg=max_deg, _monomials=tuple(monos), _split_terms=split, _nonnegative=nonnegative,
        _weights=weights, _factors=tuple(factors), _rationals=tuple(rationals),
        _trial_rational=trial_rational, _trial_sign=trial_sign, _result=result,
        _const_float=np.array([_to_float(rat.const) for rat in rationals]), **programs(result, gens),
    )


def _sympy_factored(result: Result, chosen: tuple[Trial, ...], syms: tuple[sp.Symbol, ...]) -> tuple[Any, ...]:
    """sympy's path (generators that are not all Symbols, or no FLINT): ``parallel_poly_from_expr`` and
    ``factor_list``; returns ``(gens, factors, factored polynomials, per-trial pairs)`` as
    :func:`symbolic_ti.numeric.grid_poly.flint_factored`."""
    nums: list[sp.Expr] = []
    dens: list[sp.Expr] = []
    for t in chosen:
        e = result.predictions[t]
        num, den = sp.fraction(sp.together(e) if e.is_Add else e)
        nums.append(num)
        dens.append(den)
    try:
        try:
            polys, info = sp.parallel_poly_from_expr(nums + dens, *syms)
        except sp.PolynomialError:
            polys, info = sp.parallel_poly_from_expr(nums + dens)
    except sp.PolynomialError as err:  # pragma: no cover - not expected for kernel ridge closed forms
        raise SolveError(f"compile_result: a closed form is not a rational function of polynomial "
                         f"generators ({err})") from None
    gens = tuple(info["gens"])
    n_t = len(chosen)
    # distinct polynomials (numerators equal up to sign share one), each factored once
    poly_index: dict[tuple, int] = {}
    poly_factored: list[tuple[sp.Expr, list[tuple[int, int]]]] = []
    factor_index: dict[tuple, int] = {}
    factors: list[_Factor] = []

    def factor_id(p: sp.Poly) -> int:
        key = tuple(sorted(p.terms()))
        if key not in factor_index:
            factor_index[key] = len(factors)
            factors.append(_Factor(tuple((m, sp.sympify(c)) for m, c in key)))
        return factor_index[key]

    def poly_id(p: sp.Poly) -> tuple[int, int]:
        key = tuple(sorted(p.terms()))
        known = signed_lookup(poly_index, key)
        if known is not None:
            return known
        parts: list[tuple[int, int]] = []
        if p.is_ground:
            const = p.LC() if not p.is_zero else sp.Integer(0)
        else:
            try:
                const, fl = p.factor_list()
            except (sp.PolynomialError, NotImplementedError):  # pragma: no cover - exotic coefficient domains
                const, fl = sp.Integer(1), [(p, 1)]
            if sp.sympify(const).has(*gens):  # domain EX (e.g. pi and sqrt(3)): sympy returns p itself as the
                const, fl = sp.Integer(1), [(p, 1)]  # "constant"; keep p as one (unfactored) factor instead
            for h, e in fl:
                if h.LC() < 0 if h.LC().is_comparable else False:
                    h, const = -h, const * (-1) ** e
                parts.append((factor_id(h), e))
        poly_index[key] = len(poly_factored)
        poly_factored.append((sp.sympify(const), parts))
        return poly_index[key], 1

    pairs = []
    for k in range(n_t):
        ni, ns = poly_id(polys[k])
        di, ds = poly_id(polys[n_t + k])
        pairs.append((ni, ns, di, ds))
    return gens, factors, poly_factored, pairs


def _constant_result(result: Result, chosen: tuple[Trial, ...], names: tuple[str, ...],
                     consts: tuple[sp.Expr, ...]) -> CompiledResult:
    """A compiled numeric result: one exact constant per trial."""
    rationals = tuple(_Rational(c, ()) for c in consts)
    return CompiledResult(
        parameters=(), trials=chosen, result_label=result.label(), _domains={},
        _ground_truth=_ground_truth(result, chosen), _gens=(),
        _max_deg=(), _monomials=(), _split_terms=(),
        _nonnegative=True, _weights=np.zeros(0), _factors=(), _rationals=rationals,
        _trial_rational=np.arange(len(chosen)), _trial_sign=np.ones(len(chosen)), _result=result,
        _const_float=np.array([float(sp.N(c, 20)) for c in consts]), **programs(result, ()),
    )
