r"""The likelihood of a fit: compiled closed-form predictions and the log-likelihood in optimiser coordinates.

The kernel ridge predictions ``f(i, j; theta)`` of a family are derived once with the fitted parameters
symbolic (:func:`symbolic_ti.solvers.dispatch.solve`) and compiled to one numpy function
(``sympy.lambdify`` with common subexpressions). The model of docs/fitting.md reads them out with a response
scale ``beta > 0``:

* choices: ``P(first item wins) = sigmoid(beta f)``, or with a lapse rate and a position bias the response model
  of :mod:`~symbolic_ti.behaviour.response` (``epsilon/2 + (1 - epsilon) sigmoid(beta f + b)``), and ``k_t = count_t * observed_t`` "first item" answers
  out of ``count_t`` are binomial (``lgamma`` for the binomial coefficient, so fractional ``k_t`` of averaged
  probabilities give the quasi-likelihood of McCullagh & Nelder, *Generalized Linear Models*, 2nd ed. 1989,
  ch. 9)::

      log L = sum_t log C(n_t, k_t) + k_t log p_t + (n_t - k_t) log(1 - p_t)

* real scores: ``score_t ~ Normal(beta f, sigma^2 / count_t)`` with ``sigma`` profiled out in closed form
  (``sigma^2 = sum_t n_t (y_t - beta f_t)^2 / m``).

Each fitted parameter has an unbounded optimiser coordinate ``z`` that respects its domain (:class:`Coord`):
a parameter in ``[a, b]`` is ``a + (b - a) sigmoid(z)``, one in ``[a, oo)`` (the ridge, ``beta``) is
``a + exp(z)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from .. import symbols as S
from ..arguments import parse_ridge
from ..budgets import DEFAULT, BudgetLike
from ..errors import ParameterError, SolveError
from ..families import Family, Parameter
from ..families.relu import ReluKernelConstant
from ..results import Result
from ..task import Task
from .data import BehaviourData
from .response import BIAS_BOUND, LAPSE_BOUND, PLAIN, ResponseModel

__all__ = ["Coord", "coord_for", "fitted_parameters", "compile_predictions", "LikelihoodModel", "LOGIT_BOUND", "LOG_BOUNDS",
           "LOG_BETA_BOUNDS"]

#: Optimiser bound of a logistic coordinate: alpha in [2e-9, 1 - 2e-9].
LOGIT_BOUND = 20.0
#: Optimiser bounds of ``log(x - a)`` for a parameter in ``[a, oo)``: the ridge in [1.5e-8, 8e3].
LOG_BOUNDS = (-18.0, 9.0)
#: Optimiser bounds of ``log(beta)``.
LOG_BETA_BOUNDS = (-9.0, 7.0)


@dataclass
class Coord:
    """One fitted parameter and its transformation to an unbounded optimiser coordinate.

    Attributes
    ----------
    name : str
        ``"alpha"``, ``"lambda"``, another family parameter, or ``"beta"``.
    kind : {"logistic", "exp", "identity"}
        ``x = lower + (upper - lower) sigmoid(z)`` (bounded domain), ``x = lower + exp(z)`` (lower bound only),
        or ``x = z``.
    lower, upper : float
        The domain (``-inf``/``inf`` allowed).
    zbounds : (float, float)
        Box of the optimiser coordinate.
    """

    name: str
    kind: str
    lower: float
    upper: float
    zbounds: tuple[float, float]

    def to_natural(self, z: float) -> float:
        """The parameter value at optimiser coordinate ``z``."""
        if self.kind == "logistic":
            return self.lower + (self.upper - self.lower) / (1.0 + math.exp(-z))
        if self.kind == "exp":
            return self.lower + math.exp(z)
        return z

    def to_z(self, x: float) -> float:
        """The optimiser coordinate of value ``x``, clipped to :attr:`zbounds`."""
        if self.kind == "logistic":
            q = (x - self.lower) / (self.upper - self.lower)
            q = min(max(q, 1e-12), 1 - 1e-12)
            return float(np.clip(math.log(q / (1 - q)), *self.zbounds))
        if self.kind == "exp":
            return float(np.clip(math.log(max(x - self.lower, 1e-300)), *self.zbounds))
        return x

    def natural_bound(self, side: int) -> float:
        """The domain end reached at the optimiser bound ``side`` (-1 lower, +1 upper)."""
        if self.kind == "logistic":
            return self.lower if side < 0 else self.upper
        if self.kind == "exp":
            return self.lower if side < 0 else math.inf
        return -math.inf if side < 0 else math.inf


def fitted_parameters(family: Family, present: Collection[sp.Symbol]) -> tuple[list[Parameter], list[str]]:
    """The free parameters of ``family`` whose symbols are in ``present`` (the symbols the predictions depend
    on: they are fitted), and a note for each other one (it is not fitted). Shared by the end-point fit
    (:class:`LikelihoodModel`) and the learning-curve fit (:class:`~symbolic_ti.behaviour.curves.CurveModel`)."""
    fitted = [p for p in family.free_parameters if p.symbol in present]
    notes = [f"{p.name} does not change the predictions here and is not fitted"
             for p in family.free_parameters if p.symbol not in present]
    return fitted, notes


def coord_for(name: str, lower: sp.Expr, upper: sp.Expr) -> Coord:
    """The :class:`Coord` of a parameter with domain ``[lower, upper]`` (sympy bounds, ``oo`` allowed)."""
    lo = float(lower) if lower.is_finite else -math.inf
    hi = float(upper) if upper.is_finite else math.inf
    if math.isfinite(lo) and math.isfinite(hi):
        return Coord(name, "logistic", lo, hi, (-LOGIT_BOUND, LOGIT_BOUND))
    if math.isfinite(lo):
        bounds = LOG_BETA_BOUNDS if name == "beta" else LOG_BOUNDS
        return Coord(name, "exp", lo, math.inf, bounds)
    return Coord(name, "identity", -math.inf, math.inf, (-1e6, 1e6))


def compile_predictions(expressions: Sequence[sp.Expr], symbols: Sequence[sp.Symbol]
                        ) -> Callable[..., np.ndarray]:
    """Compile closed forms to one numpy function of the parameter values.

    Parameters
    ----------
    expressions : sequence of sympy.Expr, length T
    symbols : sequence of sympy.Symbol
        The arguments of the compiled function, in order.

    Returns
    -------
    callable
        ``evaluate(*values)``: with plain floats (the optimiser's hot path) an array of shape ``(T,)`` (NaN on a
        division by zero); with arrays, shape ``(T,) + broadcast shape of the arguments`` (constants are
        broadcast). ``sympy.lambdify(cse=True)``; the named kernel constants of the network families
        (:class:`~symbolic_ti.families.relu.ReluKernelConstant` and its subclasses) enter as their 30-digit
        values, which numpy cannot compute itself.
    """
    constants = {c: sp.Float(c.evalf(30), 30) for e in expressions for c in e.atoms(ReluKernelConstant)}
    if constants:
        expressions = [e.xreplace(constants) for e in expressions]
    fn = sp.lambdify(list(symbols), list(expressions), modules="numpy", cse=True)

    def evaluate(*args: Any) -> np.ndarray:
        if all(isinstance(a, (int, float)) for a in args):
            try:
                return np.array(fn(*args), dtype=float)
            except ZeroDivisionError:
                return np.full(len(expressions), np.nan)
        arrays = [np.asarray(a, dtype=float) for a in args]
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = fn(*arrays)
        return np.stack([np.broadcast_to(np.asarray(v, dtype=float), shape) for v in out])

    return evaluate


#: Exact solves and compiled closed forms by (task, family, ridge mode), reused across fits (bounded).
_SOLVED: dict[tuple[Any, ...], tuple[Result, dict[Any, Any]]] = {}
_CACHE_SIZE = 16


class LikelihoodModel:
    """Compiled predictions and the log-likelihood of one data set under one family and ridge mode.

    Parameters
    ----------
    data : BehaviourData
    family : Family
        Its symbolic parameters are fitted (those that the predictions depend on).
    ridge : "fit", "fitted", None, "ridgeless" or a number >= 0
        ``"fit"``/``"fitted"``/``None``: the ridge is fitted; otherwise read by
        :func:`symbolic_ti.arguments.parse_ridge` and held fixed.
    budget : DEFAULT, None or float
        The budget of the exact solve (:func:`symbolic_ti.solvers.dispatch.solve`).
    response : ResponseModel
        The response parameters besides ``beta`` (:mod:`~symbolic_ti.behaviour.response`; default: none).

    Attributes
    ----------
    coords : list of Coord
        The fitted family parameters, then ``lambda`` when the ridge is fitted, then ``beta``, then ``lapse``
        and ``bias`` when the response model has them.
    n_kernel : int
        How many leading coordinates are arguments of the predictions ``f`` (the family's and the ridge).
    ridge_mode : str
        ``"fitted"``, ``"ridgeless"`` or the fixed exact ridge as text.
    ridge_value : sympy.Expr or None
        The fixed exact ridge (None when fitted or ridgeless).
    result : Result
        The exact solve behind the predictions.
    choice : bool
        Binomial (choices) or Gaussian (scores) likelihood.
    m : int
        Observed trials.
    notes : list of str
        Parameters that do not change the predictions (not fitted).
    rows_text : str
        What the ``m`` rows of the likelihood are, for the sentence on what the intervals rest on
        (:func:`~symbolic_ti.behaviour.diagnostics.likelihood_basis`; empty: rows of trials; a fit by distance
        names its pooled rows).

    Raises
    ------
    ParameterError
        If a family parameter named ``beta``, ``lapse`` or ``bias`` is free (it would clash with the response
        model), or a lapse or bias is asked for scores (they are parameters of choice probabilities).
    SolveError
        If the predictions depend on a symbol that cannot be fitted.
    """

    rows_text: str = ""  # rows of trials (a fit by distance sets its own, in observe; subclasses inherit it)

    def __init__(self, data: BehaviourData, family: Family, ridge: Any, budget: BudgetLike = DEFAULT,
                 response: ResponseModel = PLAIN) -> None:
        from ..solvers.dispatch import solve

        self.data = data
        self.response = response
        self.task: Task = data.task
        self.family = family
        lam = parse_ridge("lambda" if ridge in (None, "fit", "fitted") else ridge)
        self.ridge_mode = "fitted" if lam == S.ridge else ("ridgeless" if lam is None else str(lam))
        self.ridge_value: sp.Expr | None = None if lam is None or lam == S.ridge else sp.sympify(lam)
        key = (self.task, family, self.ridge_mode)
        if key not in _SOLVED:  # one exact solve per task, family and ridge: fits of other data reuse it
            if len(_SOLVED) >= _CACHE_SIZE:
                _SOLVED.pop(next(iter(_SOLVED)))
            result = solve(self.task, family, "ridgeless" if lam is None else lam, budget=budget)
            _SOLVED[key] = (result, {})
        self.result, self.compiled = _SOLVED[key]
        present = set(self.result.free_symbols)
        self.coords: list[Coord] = []
        self.symbols: list[sp.Symbol] = []
        fitted, self.notes = fitted_parameters(family, present)
        for p in fitted:
            if p.name in response.names + ("lapse", "bias"):
                what = "scale" if p.name == "beta" else "model"
                raise ParameterError(f"{family.name}: the family parameter {p.name} clashes with the response "
                                     f"{what} ({p.name}) of the fit; fix it (e.g. parameters={{'{p.name}': 0}})")
            self.coords.append(coord_for(p.name, p.lower, p.upper))
            self.symbols.append(p.symbol)
        if lam == S.ridge:
            self.coords.append(coord_for("lambda", sp.Integer(0), sp.oo))
            self.symbols.append(S.ridge)
        extra = present - set(self.symbols)
        if extra:
            raise SolveError(f"the predictions depend on {', '.join(sorted(s.name for s in extra))}, "
                             f"which cannot be fitted here")
        self.n_kernel = len(self.coords)
        self.coords.append(coord_for("beta", sp.Integer(0), sp.oo))
        if response.lapse:  # epsilon in [0, 1): its domain end 0 is a boundary estimate (no lapse)
            self.coords.append(Coord("lapse", "logistic", 0.0, 1.0, (-LAPSE_BOUND, LAPSE_BOUND)))
        if response.bias:
            self.coords.append(Coord("bias", "identity", -math.inf, math.inf, (-BIAS_BOUND, BIAS_BOUND)))
        all_trials = self.task.trials
        ckey = tuple(self.symbols)
        if ckey not in self.compiled:
            self.compiled[ckey] = compile_predictions([self.result.predictions[t] for t in all_trials],
                                                      self.symbols)
        self._f_all = self.compiled[ckey]
        self.position: Any = -1.0 if getattr(getattr(data, "coding", None), "target", "first") == "second" else 1.0
        self.observe(data)
        if not self.choice and not response.plain:
            raise ParameterError(f"{response.label}: a lapse rate and a position bias are parameters of choice "
                                 f"probabilities; real scores are fitted as beta f plus Gaussian noise")

    def observe(self, data: Any) -> None:
        """Read the observations of ``data`` (per-trial :class:`BehaviourData` here; a subclass may read others)."""
        index = {t: k for k, t in enumerate(self.task.trials)}
        self.obs_index = np.array([index[t] for t in data.trials])
        self.observations(data.observed, data.counts_array, data.is_choice)

    def observations(self, y: np.ndarray, n: np.ndarray, choice: bool) -> None:
        """Set the observed values ``y`` (shape ``(m,)``), their counts ``n`` and the likelihood's constant."""
        self.y, self.n, self.choice = y, n, choice
        if self.choice:
            from scipy.special import gammaln

            k = self.n * self.y
            self.const = float(np.sum(gammaln(self.n + 1) - gammaln(k + 1) - gammaln(self.n - k + 1)))
            self.k = k
        else:
            self.const = float(0.5 * np.sum(np.log(self.n)))
        self.m = len(y)

    @property
    def names(self) -> list[str]:
        """Names of the fitted coordinates, in order."""
        return [c.name for c in self.coords]

    def natural(self, z: np.ndarray) -> dict[str, float]:
        """Parameter values by name at optimiser coordinates ``z`` (shape ``(len(coords),)``)."""
        return {c.name: c.to_natural(float(v)) for c, v in zip(self.coords, z, strict=True)}

    def f_all(self, nat: Mapping[str, float]) -> np.ndarray:
        """``f`` of every trial of the task (task order), shape ``(len(task.trials),)``."""
        return self._f_all(*[nat[c.name] for c in self.coords[:self.n_kernel]])

    def f_obs(self, nat: Mapping[str, float]) -> np.ndarray:
        """``f`` of the observed trials (data order), shape ``(m,)``."""
        return self.f_all(nat)[self.obs_index]

    def loglik_natural(self, nat: Mapping[str, float]) -> tuple[float, float | None]:
        """Log-likelihood (with its normalising constants) and the Gaussian ``sigma`` (None for choices)."""
        eta = nat["beta"] * self.f_obs(nat)
        if not np.all(np.isfinite(eta)):
            return -math.inf, None
        if self.choice and self.response.plain:
            ll = -(self.k * np.logaddexp(0.0, -eta) + (self.n - self.k) * np.logaddexp(0.0, eta)).sum()
            return float(self.const + ll), None
        if self.choice:
            lp, lq = self.response.log_p(self.f_obs(nat), nat, self.position)
            return self.binomial(lp, lq), None
        return self.gaussian(eta)

    def binomial(self, log_p: np.ndarray, log_q: np.ndarray) -> float:
        """Binomial log-likelihood (with its constant) of the rows at ``log P`` and ``log (1 - P)`` per row
        (``-inf`` where a row with answers has probability 0)."""
        with np.errstate(invalid="ignore"):
            terms = np.where(self.k > 0, self.k * log_p, 0.0) + np.where(self.n - self.k > 0, (self.n - self.k) * log_q,
                                                                       0.0)
        ll = float(np.sum(terms))
        return self.const + ll if math.isfinite(ll) else -math.inf

    def gaussian(self, mean: np.ndarray) -> tuple[float, float]:
        """Gaussian log-likelihood of :attr:`y` around ``mean`` with ``sigma`` profiled out, and ``sigma``."""
        rss = float(np.sum(self.n * (self.y - mean) ** 2))
        s2 = max(rss / self.m, 1e-300)
        ll = self.const - 0.5 * self.m * math.log(2 * math.pi * s2) - 0.5 * self.m
        return float(ll), math.sqrt(s2)

    def predicted(self, nat: Mapping[str, float]) -> np.ndarray:
        """Predicted P(first item wins) (choices) or ``beta f`` (scores) of the rows, shape ``(m,)``."""
        eta = nat["beta"] * self.f_obs(nat)
        if not self.choice:
            return eta
        if not self.response.plain:
            return self.response.p_first(self.f_obs(nat), nat, self.position)
        from scipy.special import expit

        return np.asarray(expit(eta))

    def negll(self, z: np.ndarray) -> float:
        """Negative log-likelihood at optimiser coordinates ``z`` (``1e300`` where it is not finite)."""
        ll, _ = self.loglik_natural(self.natural(z))
        return 1e300 if not math.isfinite(ll) else -ll

    def zbounds(self) -> list[tuple[float, float]]:
        """The optimiser box, one pair per coordinate."""
        return [c.zbounds for c in self.coords]
