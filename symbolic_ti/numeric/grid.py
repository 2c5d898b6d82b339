r"""Fast evaluation of a result's closed forms over parameter grids, with an mpmath fallback where float64 cancels.

A :class:`~symbolic_ti.results.Result` holds every prediction ``f(i, j)`` as a canceled rational function
``p / q`` of its free parameters. :func:`compile_result` turns the chosen trials' closed forms into one shared
numeric program, and :meth:`CompiledResult.evaluate` runs it on numpy arrays of any broadcastable shapes.

How it is compiled
------------------
1. Every numerator and denominator is written as a polynomial in a common tuple of *generators*: the free
   parameter Symbols (for every current family), or, if a closed form is not polynomial in them, whatever
   sympy's ``parallel_poly_from_expr`` picks (e.g. ``sqrt(alpha)``). The generators are compiled with
   ``sympy.lambdify(..., cse=True)`` (common subexpressions shared; for plain Symbols this is the identity).
2. Identical numerators and denominators, and numerators that differ only in sign (``f(j, i) = -f(i, j)``),
   are kept once. Each distinct polynomial is factored over the rationals (``Poly.factor_list``), and the
   irreducible factors are the common subexpressions: shared by all trials (for n = 9 with 6>4, alpha and the
   ridge symbolic, the 72 trials have 20 distinct rational functions built from 17 factors). Evaluating the
   factored form also avoids the worst float64 cancellation: ``(alpha - 1)^3`` is computed as a cube of an
   exact difference, not as an expanded sum.
3. The monomials of all factors form one basis, evaluated once per point (each power of each generator
   once), and all factors are one matrix product ``C @ M`` (coefficients x monomials). A rational function
   is then a constant times products of powers of factors.
4. Evaluation runs in chunks of points, so memory stays bounded apart from the output itself.

Detecting float64 cancellation
------------------------------
With the same product, ``|C| @ |M|`` gives ``S_h``, the sum of the absolute values of the terms of each
factor ``h``. The rounding error of a float64 sum of ``K`` terms, each a product of at most ``d`` numbers, is
at most about ``(K + d) u S_h`` (``u = 2^-53``; a running error bound, Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., sections 3.1 and 4.2), so the relative error of
``f = c prod h_k^(e_k)`` (exponents negative in the denominator) is bounded, to first order, by

    est = u * sum_k |e_k| (K_k + d + 2) S_k / |h_k|      (plus a few u for the products).

Points where ``est > rtol`` (default ``1e-10``), or where the float value is not finite, are evaluated again
with mpmath from the exact coefficients, at 30 decimal digits and then more (up to 480) until the same bound
at that precision is below ``1e-17`` relative (or the absolute error is below ``1e-300``). A denominator that
stays indistinguishable from 0 at 480 digits means the closed form is undefined there (a pole, or ``0/0`` as in
a symbolic-ridge result at ``lambda = 0`` on a ridgeless condition); the value is then NaN and reported in
:attr:`GridValues.undefined` (the limit needs an exact solve, e.g. :meth:`Result.subs`).

What the detector catches, and what not. It catches cancellation *in the sums of the factors' terms*:
points very close to a zero of a numerator (a critical curve, where the margin changes sign, so that the
sign of a float64 value could be wrong), points near a common zero of numerator and denominator (``0/0``, e.g.
near a singular ridgeless limit of a symbolic-ridge result), and overflow. It assumes the generator values are
accurate to a few ulps (true when the generators are the parameters themselves; for non-polynomial generators
such as ``sqrt`` or ``cos`` their own rounding is not tracked), and underflow of tiny terms is not tracked. The
bound is a worst case, so it flags some points whose float64 value was in fact fine; the fallback then just
confirms them. The input floats are exact binary numbers and are used exactly by the mpmath path, so the fallback
value is the closed form at exactly the given point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import mpmath
import numpy as np
import sympy as sp

from ..arguments import parameter_name
from ..errors import ParameterError, SolveError
from ..families.base import Trial
from ..results import Result

__all__ = ["CompiledResult", "GridValues", "compile_result", "DEFAULT_RTOL"]

#: Default relative-error bound above which a float64 value is re-evaluated with mpmath.
DEFAULT_RTOL = 1e-10
_U = 2.0 ** -53
_CHUNK = 1 << 13  # 64 KiB per float row: temporaries stay below glibc's mmap threshold (no page faults)
_DPS_STEPS = (30, 60, 120, 240, 480)
_MAX_RESOLVE = 200


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


# ============================================================================================== results
@dataclass(frozen=True, eq=False)
class GridValues:
    """Predictions of some trials evaluated on a parameter grid.

    Attributes
    ----------
    trials : tuple of (i, j)
        The trials, in the order of the first axis of :attr:`values`.
    values : ndarray of float, shape (len(trials), *shape)
        ``f(i, j)`` at every point of the broadcast grid (read-only). NaN where the closed form is undefined.
    fallback : ndarray of bool, shape (len(trials), *shape)
        Entries computed with mpmath because the float64 condition estimate said float64 could not be trusted
        (``fallback.any(axis=0)`` gives the points).
    undefined : ndarray of bool, shape (len(trials), *shape)
        Entries where the closed form's denominator vanishes (a pole or ``0/0``); their value is NaN.
    parameters : mapping name -> ndarray
        The input arrays, broadcast to ``shape`` (read-only).
    ground_truth : ndarray of float, shape (len(trials),)
        Training target or ground truth (+1 or -1) of each trial; NaN for a trial without ground truth.
    note : str
        One paragraph saying whether the mpmath fallback was used, where, and at how many digits.
    """

    trials: tuple[Trial, ...]
    values: np.ndarray
    fallback: np.ndarray
    undefined: np.ndarray
    parameters: Mapping[str, np.ndarray]
    ground_truth: np.ndarray
    note: str

    @property
    def shape(self) -> tuple[int, ...]:
        """The broadcast shape of the grid (without the trial axis)."""
        return tuple(self.values.shape[1:])

    def margins(self) -> np.ndarray:
        """Margins ``g * f(i, j)``, shape ``(len(trials), *shape)``; NaN rows for trials without ground truth."""
        g = self.ground_truth.reshape((-1,) + (1,) * len(self.shape))
        return g * self.values

    def index(self, i: int, j: int) -> int:
        """Position of trial ``(i, j)`` along the first axis.

        Raises
        ------
        ParameterError
            If the trial was not evaluated.
        """
        try:
            return self.trials.index((i, j))
        except ValueError:
            raise ParameterError(f"trial ({i}, {j}) was not evaluated; evaluated trials: "
                                 f"{len(self.trials)} (compile_result(result, trials=...))") from None

    def f(self, i: int, j: int) -> np.ndarray:
        """``f(i, j)`` over the grid, shape ``shape``."""
        return self.values[self.index(i, j)]


# ============================================================================================ compiling
@dataclass(frozen=True)
class _Factor:
    """An irreducible factor: exact terms (exponents, coefficient) in the generators."""

    terms: tuple[tuple[tuple[int, ...], sp.Expr], ...]


@dataclass(frozen=True)
class _Rational:
    """``const * prod factor_k ** e_k`` (``e_k < 0`` in the denominator)."""

    const: sp.Expr
    powers: tuple[tuple[int, int], ...]  # (factor index, exponent)


@dataclass(frozen=True, eq=False)
class CompiledResult:
    """The closed forms of some trials of a result, compiled for fast numeric evaluation.

    Build it with :func:`compile_result`. Immutable; evaluate it as often as needed.

    Attributes
    ----------
    parameters : tuple of str
        Names of the free parameters, sorted (the ridge is ``"lambda"``); :meth:`evaluate` needs each of them.
    trials : tuple of (i, j)
        The compiled trials.
    result_label : str
        Task, family and ridge of the result (for notes and plots).
    """

    parameters: tuple[str, ...]
    trials: tuple[Trial, ...]
    result_label: str
    _domains: Mapping[str, tuple[float, float, bool, bool]] = field(repr=False)
    _ground_truth: np.ndarray = field(repr=False)
    _gens: tuple[sp.Expr, ...] = field(repr=False)
    _gen_np: Callable[..., Any] = field(repr=False)
    _gen_mp: Callable[..., Any] = field(repr=False)
    _max_deg: tuple[int, ...] = field(repr=False)
    _monomials: tuple[tuple[int, ...], ...] = field(repr=False)
    _split_terms: tuple = field(repr=False)        # per factor: ((monomial, c > 0), ...), ((monomial, |c|), ...)
    _nonnegative: bool = field(repr=False)         # every generator is >= 0 on the domain
    _weights: np.ndarray = field(repr=False)       # (n_factors,) K_k + d + 2
    _factors: tuple[_Factor, ...] = field(repr=False)
    _rationals: tuple[_Rational, ...] = field(repr=False)
    _trial_rational: np.ndarray = field(repr=False)  # (len(trials),) index into _rationals
    _trial_sign: np.ndarray = field(repr=False)    # (len(trials),) +1 / -1
    _result: Result = field(repr=False)
    _const_float: np.ndarray = field(repr=False)   # (n_rationals,) float of each constant
    _conditions: Callable[..., Any] | None = field(repr=False)  # ridgeless conditions, numpy

    # ------------------------------------------------------------------------------------------- public
    def evaluate(self, *, rtol: float = DEFAULT_RTOL, **arrays: Any) -> GridValues:
        """Evaluate every compiled trial at every point of a broadcast grid.

        Parameters
        ----------
        rtol : float, default 1e-10
            Relative-error bound of float64 above which a value is re-evaluated with mpmath (module docstring).
        **arrays : array_like of float, by parameter name
            One array for each name in :attr:`parameters` (``ridge=`` is accepted for ``lambda``; since
            ``lambda`` is a Python keyword, pass it as ``ridge=x`` or ``**{"lambda": x}``). The arrays are
            broadcast together with numpy's rules, e.g. ``alpha=a[None, :]`` and ``ridge=r[:, None]`` give a
            ``(len(r), len(a))`` grid. Values must be finite and inside each parameter's domain (alpha in
            [0, 1], lambda >= 0, ...). A result with no free parameter takes no array and gives shape ``()``.

        Returns
        -------
        GridValues
            ``values`` of shape ``(len(trials), *broadcast_shape)``, the fallback and undefined masks, and a note.

        Raises
        ------
        ParameterError
            For a missing or unknown parameter name, arrays that do not broadcast, non-finite values, values
            outside a parameter's domain, or a bad ``rtol``.
        """
        if isinstance(rtol, bool) or not isinstance(rtol, (int, float)) or not 0 < rtol < 1:
            raise ParameterError(f"rtol must be a number in (0, 1), got {rtol!r}")
        given = self._check_arrays(arrays)
        try:
            shape = tuple(np.broadcast_shapes(*(a.shape for a in given.values()))) if given else ()
        except ValueError:
            shapes = ", ".join(f"{k}: {a.shape}" for k, a in given.items())
            raise ParameterError(f"the parameter arrays do not broadcast together ({shapes})") from None
        bcast = {k: np.broadcast_to(a, shape) for k, a in given.items()}
        size = int(np.prod(shape)) if shape else 1
        flat = [np.ascontiguousarray(bcast[name]).reshape(-1) for name in self.parameters]
        n_r, n_t = len(self._rationals), len(self.trials)
        values = np.empty((n_t, size))
        bad_r = np.empty((n_r, size), dtype=bool)
        chunk_val = np.empty((n_r, min(size, _CHUNK)))
        for start in range(0, size, _CHUNK):
            stop = min(size, start + _CHUNK)
            m = stop - start
            self._float_chunk([x[start:stop] for x in flat], m, rtol, chunk_val[:, :m], bad_r[:, start:stop])
            for t in range(n_t):  # one rational function per trial, with its sign
                if self._trial_sign[t] < 0:
                    np.negative(chunk_val[self._trial_rational[t], :m], out=values[t, start:stop])
                else:
                    values[t, start:stop] = chunk_val[self._trial_rational[t], :m]
        undef_r = np.zeros_like(bad_r)
        dps_used = self._fallback(values, bad_r, undef_r, flat)
        resolved = self._ridgeless_points(values, flat, size)
        values = values.reshape((n_t,) + shape)
        flags = (np.take(bad_r, self._trial_rational, axis=0) if bad_r.any()
                 else np.zeros((n_t, size), dtype=bool)).reshape((n_t,) + shape)
        undefined = (np.take(undef_r, self._trial_rational, axis=0) if undef_r.any()
                     else np.zeros((n_t, size), dtype=bool)).reshape((n_t,) + shape)
        note = self._note(flags, undefined, bcast, dps_used, rtol)
        if resolved:
            note += (f" At {resolved} point(s) a ridgeless condition of the result vanishes (there the generic "
                     f"limit formula is not the limit lambda -> 0+): those values come from an exact solve "
                     f"(Result.subs) at the point.")
        params = {k: _readonly(np.array(v)) for k, v in bcast.items()}
        return GridValues(self.trials, _readonly(values), _readonly(flags), _readonly(undefined), params,
                          _readonly(self._ground_truth.copy()), note)

    def __repr__(self) -> str:
        return (f"CompiledResult({self.result_label}; {len(self.trials)} trials, parameters "
                f"{', '.join(self.parameters) or 'none'}; {len(self._rationals)} distinct rational functions of "
                f"{len(self._factors)} shared factors)")

    # ------------------------------------------------------------------------------------------ helpers
    def _check_arrays(self, arrays: Mapping[str, Any]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for key, raw in arrays.items():
            name = parameter_name(key)
            if name not in self.parameters:
                free = ", ".join(self.parameters) or "none (the result is numeric)"
                raise ParameterError(f"evaluate: {key!r} is not a free parameter of this result "
                                     f"({self.result_label}); its free parameters are: {free}")
            if name in out:
                raise ParameterError(f"evaluate: {name} is given twice (lambda and ridge)")
            try:
                a = np.asarray(raw, dtype=float)
            except (TypeError, ValueError):
                raise ParameterError(f"evaluate: {key} must be an array of real numbers, got "
                                     f"{type(raw).__name__}") from None
            if not np.all(np.isfinite(a)):
                raise ParameterError(f"evaluate: {key} has non-finite values (NaN or infinity)")
            lo, hi, lo_open, hi_open = self._domains[name]
            outside = ((a <= lo) if lo_open else (a < lo)) | ((a >= hi) if hi_open else (a > hi))
            if np.any(outside):
                dom = f"{'(' if lo_open else '['}{lo:g}, {hi:g}{')' if hi_open else ']'}"
                raise ParameterError(f"evaluate: {key} has {int(np.count_nonzero(outside))} value(s) outside its "
                                     f"domain {dom}, e.g. {float(a[outside].flat[0])!r}")
            out[name] = a
        missing = [p for p in self.parameters if p not in out]
        if missing:
            raise ParameterError(f"evaluate: give an array for every free parameter; missing: {', '.join(missing)}"
                                 + (" (pass the ridge as ridge=...)" if "lambda" in missing else ""))
        return out

    def _float_chunk(self, pts: list[np.ndarray], m: int, rtol: float, out_val: np.ndarray,
                     out_bad: np.ndarray) -> None:
        """Values and bad-flags of every distinct rational function at ``m`` points, float64, into ``out_*``."""
        with np.errstate(all="ignore"):
            gvals = self._gen_np(*pts) if self._gens else []
            gvals = [np.broadcast_to(np.asarray(g, dtype=float), (m,)) for g in gvals]
            powers = []
            for g, d in zip(gvals, self._max_deg):
                pw = [np.ones(m)]
                for _ in range(d):
                    pw.append(pw[-1] * g)
                powers.append(pw)
            mono: list[np.ndarray] = []
            for exps in self._monomials:
                nz = [(k, e) for k, e in enumerate(exps) if e]
                row = powers[nz[0][0]][nz[0][1]] if nz else np.ones(m)
                for k, e in nz[1:]:
                    row = row * powers[k][e]
                mono.append(row)
            # Nonnegative generators: each factor is (sum of positive terms) - (sum of |negative terms|), and the
            # two sums give the value and the sum of absolute terms at once. Explicit sums, not BLAS: factors
            # have few terms, and small matrix products suffer from thread contention on a shared machine.
            nonneg = self._nonnegative or all(bool(np.all(g >= 0)) for g in gvals)
            absmono = mono if nonneg else [np.abs(x) for x in mono]
            fac: list[np.ndarray] = []
            ratio: list[np.ndarray] = []
            for plus, minus in self._split_terms:
                if nonneg:
                    pos = _weighted_sum(plus, mono, m)
                    neg = _weighted_sum(minus, mono, m)
                    h, s = pos - neg, pos + neg
                else:
                    h = _weighted_sum(plus, mono, m) - _weighted_sum(minus, mono, m)
                    s = _weighted_sum(plus, absmono, m) + _weighted_sum(minus, absmono, m)
                fac.append(h)
                r = s / np.abs(h)
                r[np.isnan(r)] = 0.0  # 0/0: every term vanishes, the factor is exactly 0 (caught below)
                ratio.append(r)
            cache: dict[tuple[int, int], np.ndarray] = {}
            for r, rat in enumerate(self._rationals):
                num = None
                den = None
                est = None
                for k, e in rat.powers:
                    key = (k, abs(e))
                    if key not in cache:
                        p = fac[k]
                        for _ in range(abs(e) - 1):
                            p = p * fac[k]
                        cache[key] = p
                    if e > 0:
                        num = cache[key] if num is None else num * cache[key]
                    else:
                        den = cache[key] if den is None else den * cache[key]
                    term = (abs(e) * float(self._weights[k])) * ratio[k]
                    est = term if est is None else est + term
                const = float(self._const_float[r])
                value = np.full(m, const) if num is None else const * num
                out_val[r] = value if den is None else value / den
                bad = ~np.isfinite(out_val[r])
                if est is not None:
                    bad |= ~(est <= (rtol / _U - 8.0))
                out_bad[r] = bad

    def _fallback(self, values: np.ndarray, bad: np.ndarray, undefined: np.ndarray, flat: list[np.ndarray]) -> int:
        """Re-evaluate flagged entries with mpmath, writing every trial's value in place; return the most digits
        used."""
        if not bad.any():
            return 0
        dps_max = 0
        rows = {r: np.nonzero(self._trial_rational == r)[0] for r in range(len(self._rationals))}
        for r, c in zip(*np.nonzero(bad)):
            point = [float(x[c]) for x in flat]
            v, undef, dps = self._mp_value(self._rationals[r], point)
            dps_max = max(dps_max, dps)
            undefined[r, c] = undef
            for t in rows[r]:
                values[t, c] = self._trial_sign[t] * v
        return dps_max

    def _ridgeless_points(self, values: np.ndarray, flat: list[np.ndarray], size: int) -> int:
        """Where a ridgeless condition vanishes exactly, replace the values by an exact solve at the point."""
        if self._conditions is None:
            return 0
        with np.errstate(all="ignore"):
            conds = [np.broadcast_to(np.asarray(c, dtype=float), (size,)) for c in self._conditions(*flat)]
        hit = np.zeros(size, dtype=bool)
        for c in conds:
            hit |= c == 0
        cols = np.nonzero(hit)[0]
        if len(cols) == 0:
            return 0
        if len(cols) > _MAX_RESOLVE:
            raise ParameterError(
                f"evaluate: a ridgeless condition of the result vanishes at {len(cols)} grid points (more than "
                f"{_MAX_RESOLVE}); the limit formula does not hold there. Move the grid off these points, e.g. "
                f"alpha > 0 instead of alpha = 0")
        cache: dict[tuple[float, ...], np.ndarray] = {}
        for c in cols:
            key = tuple(float(x[c]) for x in flat)
            if key not in cache:
                exact = self._result.subs({name: sp.Rational(v) for name, v in zip(self.parameters, key)})
                cache[key] = np.array([float(exact.f(*t)) for t in self.trials])
            values[:, c] = cache[key]
        return len(cache)

    def _mp_value(self, rat: _Rational, point: Sequence[float]) -> tuple[float, bool, int]:
        """The rational function at one point with mpmath; (value, undefined, digits used)."""
        for dps in _DPS_STEPS:
            with mpmath.workdps(dps):
                eps = mpmath.mpf(2) ** (-mpmath.mp.prec)
                g = self._gen_mp(*[mpmath.mpf(x) for x in point]) if self._gens else []
                value = _mp_coef(rat.const)
                rel = 8 * eps
                zero_num = zero_den = False
                for k, e in rat.powers:
                    h, s = _mp_poly(self._factors[k], g)
                    bound = float(self._weights[k]) * eps * s
                    if abs(h) <= 2 * bound:
                        zero_num, zero_den = zero_num or e > 0, zero_den or e < 0
                        continue
                    rel += abs(e) * bound / abs(h)
                    value = value * h ** e
                if zero_den:
                    continue  # a denominator factor indistinguishable from 0 at this precision: more digits
                if zero_num:
                    if dps == _DPS_STEPS[-1]:
                        return 0.0, False, dps  # a numerator factor within ~1e-400 of 0: the value is 0
                    continue
                if rel <= mpmath.mpf("1e-17"):
                    return float(value), False, dps
        return float("nan"), True, _DPS_STEPS[-1]

    def _note(self, flags: np.ndarray, undefined: np.ndarray, params: Mapping[str, np.ndarray], dps: int,
              rtol: float) -> str:
        n_entries = flags.size
        n_fb = int(np.count_nonzero(flags))
        if n_fb == 0:
            return (f"float64 everywhere: the condition estimate bounds the relative error by {rtol:g} at all "
                    f"{n_entries} values; no mpmath fallback was needed.")
        f2 = flags.reshape(flags.shape[0], -1)
        pts = f2.any(axis=0)
        n_pts = int(np.count_nonzero(pts))
        t_idx = np.nonzero(f2.any(axis=1))[0]
        trials = ", ".join(f"({self.trials[k][0]}, {self.trials[k][1]})" for k in t_idx[:6])
        if len(t_idx) > 6:
            trials += f" and {len(t_idx) - 6} more"
        where = ""
        if params:
            first = int(np.nonzero(pts)[0][0])
            at = ", ".join(f"{k}={np.asarray(v).reshape(-1)[first]:.6g}" for k, v in params.items())
            ranges = []
            for k, v in params.items():
                sel = np.asarray(v).reshape(-1)[pts]
                ranges.append(f"{k} in [{sel.min():.3g}, {sel.max():.3g}]")
            where = f"; e.g. at {at}; fallback points lie in " + ", ".join(ranges)
        text = (f"mpmath fallback at {n_fb} of {n_entries} values ({n_pts} point{'s' if n_pts != 1 else ''}; "
                f"trials {trials}), where the "
                f"float64 condition estimate exceeded {rtol:g} (cancellation near a zero of a factor of a "
                f"numerator or denominator); up to {dps} digits used{where}.")
        n_undef = int(np.count_nonzero(undefined))
        if n_undef:
            text += (f" {n_undef} values are undefined (NaN): the closed form's denominator vanishes there (a pole "
                     f"or 0/0); take the limit with an exact solve (Result.subs).")
        return text


def _weighted_sum(terms: tuple[tuple[int, float], ...], mono: list[np.ndarray], m: int) -> np.ndarray:
    """``sum_k c_k * mono[k]`` over ``terms = ((k, c_k), ...)`` with ``c_k > 0``; zeros if empty."""
    if not terms:
        return np.zeros(m)
    k, c = terms[0]
    out = c * mono[k]
    for k, c in terms[1:]:
        out += c * mono[k]
    return out


def _mp_poly(factor: _Factor, g: list[Any]) -> tuple[Any, Any]:
    """A factor's value and the sum of its terms' absolute values, at the current mpmath precision."""
    total = mpmath.mpf(0)
    absum = mpmath.mpf(0)
    for exps, c in factor.terms:
        term = _mp_coef(c)
        for gk, e in zip(g, exps):
            if e:
                term *= gk ** e
        total += term
        absum += abs(term)
    return total, absum


def _mp_coef(c: sp.Expr) -> Any:
    """An exact coefficient at the current mpmath precision."""
    if c.is_Rational:
        return mpmath.mpf(int(c.p)) / int(c.q)
    return mpmath.mpf(sp.Float(c, mpmath.mp.dps + 10)._mpf_)  # pragma: no cover - irrational coefficients


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
    the module docstring. Timings: benchmarks/bench_grid.py, docs/performance.md#grid-evaluation.

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
    if trials is None:
        chosen = tuple(task.trials)
    else:
        if isinstance(trials, tuple) and len(trials) == 2 and all(isinstance(x, int) for x in trials):
            trials = [trials]  # a single pair
        chosen = tuple(dict.fromkeys(task.check_trial(t, "trials entry") for t in trials))
        if not chosen:
            raise ParameterError("trials must name at least one trial (or be None for every trial)")
    syms = tuple(result.free_symbols)
    names = tuple(s.name for s in syms)
    n_t = len(chosen)
    if not syms:  # a numeric result: exact constants, rounded once (evalf is adaptive: correct digits)
        consts = tuple(result.predictions[t] for t in chosen)
        return _constant_result(result, chosen, names, consts)
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
        if key in poly_index:
            return poly_index[key], 1
        neg = tuple((m, -c) for m, c in key)
        if neg in poly_index:
            return poly_index[neg], -1
        if p.is_ground:
            const, parts = p.LC() if not p.is_zero else sp.Integer(0), []
        else:
            try:
                const, fl = p.factor_list()
            except (sp.PolynomialError, NotImplementedError):  # pragma: no cover - exotic coefficient domains
                const, fl = sp.Integer(1), [(p, 1)]
            parts = []
            for h, e in fl:
                if h.LC() < 0 if h.LC().is_comparable else False:
                    h, const = -h, const * (-1) ** e
                parts.append((factor_id(h), e))
        poly_index[key] = len(poly_factored)
        poly_factored.append((sp.sympify(const), parts))
        return poly_index[key], 1

    rat_index: dict[tuple, int] = {}
    rationals: list[_Rational] = []
    trial_rational = np.empty(n_t, dtype=int)
    trial_sign = np.empty(n_t)
    for k in range(n_t):
        ni, ns = poly_id(polys[k])
        di, ds = poly_id(polys[n_t + k])
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
    split = tuple((tuple((mono_index[m], float(c)) for m, c in h.terms if c > 0),
                   tuple((mono_index[m], -float(c)) for m, c in h.terms if c < 0)) for h in factors)
    max_deg = tuple(max((m[k] for m in monos), default=0) for k in range(len(gens)))
    degree = max((sum(m) for m in monos), default=0)
    weights = np.array([len(h.terms) + degree + 2 for h in factors], dtype=float)
    domains = _domains(result, names)
    nonnegative = all(g.is_Symbol and domains[g.name][0] >= 0 for g in gens)
    gen_np = sp.lambdify(syms, list(gens), modules="numpy", cse=True)
    gen_mp = sp.lambdify(syms, list(gens), modules="mpmath", cse=True)
    conditions = None
    if result.ridgeless and result.ridgeless_conditions and syms:
        conditions = sp.lambdify(syms, list(result.ridgeless_conditions), modules="numpy")
    gt = np.array([np.nan if task.ground_truth(t) is None else float(task.ground_truth(t)) for t in chosen])
    from ..analysis.crossings import _result_label

    return CompiledResult(
        parameters=names, trials=chosen, result_label=_result_label(result),
        _domains=domains, _ground_truth=gt, _gens=gens, _gen_np=gen_np, _gen_mp=gen_mp,
        _max_deg=max_deg, _monomials=tuple(monos), _split_terms=split, _nonnegative=nonnegative,
        _weights=weights, _factors=tuple(factors), _rationals=tuple(rationals),
        _trial_rational=trial_rational, _trial_sign=trial_sign, _result=result, _conditions=conditions,
        _const_float=np.array([float(rat.const) for rat in rationals]),
    )


def _constant_result(result: Result, chosen: tuple[Trial, ...], names: tuple[str, ...],
                     consts: tuple[sp.Expr, ...]) -> CompiledResult:
    """A compiled numeric result: one exact constant per trial."""
    from ..analysis.crossings import _result_label

    task = result.task
    gt = np.array([np.nan if task.ground_truth(t) is None else float(task.ground_truth(t)) for t in chosen])
    rationals = tuple(_Rational(c, ()) for c in consts)
    return CompiledResult(
        parameters=(), trials=chosen, result_label=_result_label(result), _domains={}, _ground_truth=gt, _gens=(),
        _gen_np=lambda *a: [], _gen_mp=lambda *a: [], _max_deg=(), _monomials=(), _split_terms=(),
        _nonnegative=True, _weights=np.zeros(0), _factors=(), _rationals=rationals,
        _trial_rational=np.arange(len(chosen)), _trial_sign=np.ones(len(chosen)), _result=result, _conditions=None,
        _const_float=np.array([float(sp.N(c, 20)) for c in consts]),
    )
