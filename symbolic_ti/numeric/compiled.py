"""A result's closed forms compiled into one numeric program, and its evaluation on grids: :class:`CompiledResult`.

Built by :func:`symbolic_ti.numeric.grid.compile_result`. How the program is laid out (shared irreducible
factors, one monomial basis), the float64 cancellation detector and the mpmath fallback are described in the
module docstring of :mod:`symbolic_ti.numeric.grid`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from ..arguments import parameter_name
from ..errors import ParameterError
from ..families.base import Trial
from ..results import Result
from .grid_values import GridValues
from ..formatting import rounded

__all__ = ["CompiledResult", "DEFAULT_RTOL"]

#: Default relative-error bound above which a float64 value is re-evaluated with mpmath.
DEFAULT_RTOL = 1e-10
_U = 2.0 ** -53
_CHUNK = 1 << 13  # 64 KiB per float row: temporaries stay below glibc's mmap threshold (no page faults)
_DPS_STEPS = (30, 60, 120, 240, 480)
_MAX_RESOLVE = 200


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class _Factor:
    """An irreducible factor: exact terms (exponents, coefficient) in the generators."""

    terms: tuple[tuple[tuple[int, ...], sp.Expr], ...]


@dataclass(frozen=True)
class _Rational:
    """``const * prod factor_k ** e_k`` (``e_k < 0`` in the denominator)."""

    const: sp.Expr
    powers: tuple[tuple[int, int], ...]  # (factor index, exponent)


def programs(result: Result, gens: tuple[sp.Expr, ...]) -> dict[str, Any]:
    """The numeric programs of a compiled result: its generators ``gens`` as numpy and mpmath functions of the
    result's free parameters (sorted by name), and its ridgeless conditions as a numpy function (``None`` where
    it has none). :func:`~symbolic_ti.numeric.grid.compile_result` builds them, and an unpickled
    :class:`CompiledResult` again (lambdified functions do not pickle)."""
    syms = tuple(result.free_symbols)
    if not syms:
        return {"_gen_np": _no_generators, "_gen_mp": _no_generators, "_conditions": None}
    conditions = None
    if result.ridgeless and result.ridgeless_conditions:
        conditions = sp.lambdify(syms, list(result.ridgeless_conditions), modules="numpy")
    return {"_gen_np": sp.lambdify(syms, list(gens), modules="numpy", cse=True),
            "_gen_mp": sp.lambdify(syms, list(gens), modules="mpmath", cse=True), "_conditions": conditions}


def _no_generators(*_: Any) -> list[Any]:
    return []


_PROGRAMS = ("_gen_np", "_gen_mp", "_conditions")


def _recompiled(state: dict[str, Any]) -> CompiledResult:
    """A :class:`CompiledResult` from its pickled data, its programs built again (:func:`programs`)."""
    return CompiledResult(**state, **programs(state["_result"], state["_gens"]))


@dataclass(frozen=True, eq=False)
class CompiledResult:
    """The closed forms of some trials of a result, compiled for fast numeric evaluation.

    Build it with :func:`~symbolic_ti.numeric.grid.compile_result`. Immutable; evaluate it as often as needed.
    Picklable (to send it to worker processes): the pickle holds the result and the compiled factors, and the
    numeric programs are lambdified again on unpickling. Equal only to itself (``eq=False``: two compilations are
    compared by their values, :meth:`evaluate`), hashable by identity.

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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as data (the result, the factors, the arrays); the numpy and mpmath programs, lambdified
        functions that do not pickle, are built again from the result on unpickling (:func:`programs`)."""
        return (_recompiled, ({f.name: getattr(self, f.name) for f in fields(self) if f.name not in _PROGRAMS},))

    # ------------------------------------------------------------------------------------------- public
    def margin_key(self, trial: Trial) -> tuple[int, float]:
        """A key equal for two trials exactly when their margins are the same compiled function.

        Parameters
        ----------
        trial : (i, j)
            One of :attr:`trials`.

        Returns
        -------
        (int, float)
            The index of the trial's distinct rational function and the sign (+1 or -1) that turns it into the
            margin (the stored sign of ``f`` times the ground truth; ``nan`` for a trial without ground truth).

        Raises
        ------
        ParameterError
            If ``trial`` was not compiled.
        """
        if trial not in self.trials:
            raise ParameterError(f"trial {trial} was not compiled; compiled trials: {len(self.trials)}")
        pos = self.trials.index(trial)
        return int(self._trial_rational[pos]), float(self._trial_sign[pos] * self._ground_truth[pos])

    def evaluate(self, *, rtol: float = DEFAULT_RTOL, **arrays: Any) -> GridValues:
        """Evaluate every compiled trial at every point of a broadcast grid.

        Parameters
        ----------
        rtol : float, default 1e-10
            Relative-error bound of float64 above which a value is re-evaluated with mpmath (the cancellation
            detector of :mod:`symbolic_ti.numeric.grid`).
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
        values: np.ndarray = np.empty((n_t, size))
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
                dom = f"{'(' if lo_open else '['}{rounded(lo, 'g')}, {rounded(hi, 'g')}{')' if hi_open else ']'}"
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
            for g, d in zip(gvals, self._max_deg, strict=True):
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
        for r, c in zip(*np.nonzero(bad), strict=True):
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
        for cond in conds:
            hit |= cond == 0
        cols = np.nonzero(hit)[0]
        if len(cols) == 0:
            return 0
        if len(cols) > _MAX_RESOLVE:
            raise ParameterError(
                f"evaluate: a ridgeless condition of the result vanishes at {len(cols)} grid points (more than "
                f"{_MAX_RESOLVE}); the limit formula does not hold there. Move the grid off these points, e.g. "
                f"alpha > 0 instead of alpha = 0")
        cache: dict[tuple[float, ...], np.ndarray] = {}
        for col in cols:
            key = tuple(float(x[col]) for x in flat)
            if key not in cache:
                exact = self._result.subs({name: sp.Rational(v) for name, v in zip(self.parameters, key, strict=True)})
                cache[key] = np.array([float(exact.f(*t)) for t in self.trials])
            values[:, col] = cache[key]
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
            return (f"float64 everywhere: the condition estimate bounds the relative error by {rounded(rtol, 'g')} at all "
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
            at = ", ".join(f"{k}={rounded(np.asarray(v).reshape(-1)[first], '.6g')}" for k, v in params.items())
            ranges = []
            for k, v in params.items():
                sel = np.asarray(v).reshape(-1)[pts]
                ranges.append(f"{k} in [{rounded(sel.min(), '.3g')}, {rounded(sel.max(), '.3g')}]")
            where = f"; e.g. at {at}; fallback points lie in " + ", ".join(ranges)
        text = (f"mpmath fallback at {n_fb} of {n_entries} values ({n_pts} point{'s' if n_pts != 1 else ''}; "
                f"trials {trials}), where the "
                f"float64 condition estimate exceeded {rounded(rtol, 'g')} (cancellation near a zero of a factor of a "
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
        for gk, e in zip(g, exps, strict=True):
            if e:
                term *= gk ** e
        total += term
        absum += abs(term)
    return total, absum


def _mp_coef(c: sp.Expr | int) -> Any:
    """An exact coefficient at the current mpmath precision (an int from FLINT's factors, or a sympy number)."""
    if isinstance(c, int):
        return mpmath.mpf(c)
    if c.is_Rational:
        return mpmath.mpf(int(c.p)) / int(c.q)
    return mpmath.mpf(sp.N(c, mpmath.mp.dps + 10)._mpf_)  # irrational coefficients (e.g. pi**7, pnas-* families)
