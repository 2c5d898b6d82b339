r"""Maximum-likelihood fit of a representation family to per-trial behaviour.

Model (docs/fitting.md). The kernel ridge prediction ``f(i, j)`` of a family, at parameters ``theta`` (for
the exchangeable family: the conjunctivity ``alpha`` and the ridge ``lambda``), is read out by a response
scale ``beta > 0``:

* choices (``kind`` probability or accuracy): ``P(first item wins) = sigmoid(beta f(i, j))``, and the
  ``k_t = count_t * observed_t`` "first item" answers of trial ``t`` out of ``count_t`` are binomial,

  .. math:: \log L = \sum_t \log\binom{n_t}{k_t} + k_t \log p_t + (n_t - k_t) \log(1 - p_t)

  (``lgamma`` for the binomial coefficient, so fractional ``k_t`` of averaged probabilities are allowed:
  the quasi-likelihood of McCullagh & Nelder, *Generalized Linear Models*, 2nd ed. 1989, ch. 9);
* real scores: ``score_t ~ Normal(beta f(i, j), sigma^2 / count_t)``, ``sigma`` profiled out in closed form.

The closed forms ``f(i, j; theta)`` are derived once with the fitted parameters symbolic
(:func:`symbolic_ti.solve`) and compiled to numpy; the optimiser (scipy, optional extra ``fit``) works in
coordinates that respect the domains: a parameter in ``[a, b]`` as ``a + (b - a) sigmoid(u)``, one in
``[a, oo)`` (the ridge, ``beta``) as ``a + exp(u)``; several starts, the best kept.

Uncertainty: profile-likelihood intervals (Venzon & Moolgavkar, Appl. Statist. 37, 1988): the set of values
``x`` of one parameter with ``2 [log L_max - max_{others} log L(x, others)] <= phi * chi2_1(level)``. Here
``phi = max(1, X^2 / (m - k))`` is the Pearson overdispersion factor of binomial fits (``phi = 1`` for scores
and when ``overdispersion=False``), which widens the intervals when the trials vary more than a binomial
allows (pooled runs, averaged probabilities). An interval that reaches the domain boundary is reported
with the boundary (e.g. ``lambda`` down to 0: the ridgeless limit is inside the interval).

Model comparison: ``AIC = 2k - 2 log L``, ``BIC = k log m - 2 log L``, with ``k`` the number of fitted
parameters (``beta`` and, for scores, ``sigma`` included) and ``m`` the number of observed trials (the grouped
observations, as R's ``glm`` counts them).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import sympy as sp

from .. import symbols as S
from .data import BehaviourData
from ..errors import FamilyError, ParameterError, SolveError
from ..families import Family, get_family
from ..task import CATEGORIES, TRAINING_CATEGORIES, Task

__all__ = ["fit", "FitResult", "ParameterEstimate", "TrialFit", "CategoryFit", "ErrorCheck", "FitComparison",
           "compare_fits", "FORMAT_NAME", "FORMAT_VERSION"]

Trial = tuple[int, int]

#: ``meta.format`` of :meth:`FitResult.to_dict`.
FORMAT_NAME = "symbolic_ti.fit"
# Version of the fit JSON; bump with a line here when a field changes meaning or disappears.
#   1: first format (symbolic_ti 0.1.0).
FORMAT_VERSION = 1

_LOGIT_BOUND = 20.0          # alpha in [2e-9, 1 - 2e-9]
_LOG_BOUNDS = (-18.0, 9.0)   # ridge in [1.5e-8, 8e3]
_LOG_BETA_BOUNDS = (-9.0, 7.0)


def _scipy() -> Any:
    try:
        import scipy.optimize as opt
        import scipy.special  # noqa: F401
        import scipy.stats  # noqa: F401
    except ImportError:  # pragma: no cover - scipy is in the test extra
        raise ParameterError("fitting needs scipy; install the optional extra: pip install 'symbolic-ti[fit]'") \
            from None
    return opt


# ============================================================================ result objects
@dataclass(frozen=True)
class ParameterEstimate:
    """Fitted value of one parameter with its profile-likelihood interval.

    Attributes
    ----------
    name : str
        ``"alpha"``, ``"lambda"`` (ridge), another family parameter, or ``"beta"`` (response scale).
    value : float
        Maximum-likelihood estimate.
    lower, upper : float
        Ends of the profile-likelihood interval (``math.inf`` allowed); a domain bound when the interval reaches it.
    lower_at_bound, upper_at_bound : bool
        Whether the interval reaches the end of the domain (the likelihood does not drop enough there).
    """

    name: str
    value: float
    lower: float
    upper: float
    lower_at_bound: bool = False
    upper_at_bound: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "lower": _json_float(self.lower),
                "upper": _json_float(self.upper), "lower_at_bound": self.lower_at_bound,
                "upper_at_bound": self.upper_at_bound}


@dataclass(frozen=True)
class TrialFit:
    """Observed against predicted, one trial.

    Attributes
    ----------
    trial : (i, j)
    category : str
        One of :data:`symbolic_ti.task.CATEGORIES`.
    ground_truth : +1, -1 or None
    observed : float
        Observed P(first item wins) (choices) or score.
    predicted : float
        ``sigmoid(beta f)`` (choices) or ``beta f`` (scores) at the fitted parameters.
    f : float
        The kernel prediction ``f(i, j)`` at the fitted parameters.
    count : float
        The trial's count (weight in the likelihood).
    """

    trial: Trial
    category: str
    ground_truth: int | None
    observed: float
    predicted: float
    f: float
    count: float
    _is_choice: bool = field(default=True, repr=False)

    @property
    def observed_correct(self) -> float | None:
        """Observed P(correct) (choices) or signed score ``g * score``; None without ground truth."""
        return None if self.ground_truth is None else _correct(self.observed, self.ground_truth, self._choice)

    @property
    def predicted_correct(self) -> float | None:
        """Predicted P(correct) (choices) or ``g * beta f``; None without ground truth."""
        return None if self.ground_truth is None else _correct(self.predicted, self.ground_truth, self._choice)

    @property
    def _choice(self) -> bool:
        return self._is_choice

    def to_dict(self) -> dict[str, Any]:
        return {"trial": list(self.trial), "category": self.category, "ground_truth": self.ground_truth,
                "observed": self.observed, "predicted": self.predicted, "f": self.f, "count": self.count}


def _correct(x: float, g: int, choice: bool) -> float:
    if choice:
        return x if g == 1 else 1.0 - x
    return g * x


@dataclass(frozen=True)
class CategoryFit:
    """Observed against predicted, averaged over one trial category (trials with ground truth).

    Attributes
    ----------
    category : str
    n_trials : int
        Observed trials of the category.
    observed_correct, predicted_correct : float or None
        Mean observed and predicted P(correct) (choices) or mean signed score (scores); None when no trial of
        the category has ground truth.
    observed_errors, predicted_errors : int
        Trials with observed P(correct) < 1/2 (signed score < 0), and with a negative predicted margin.
    """

    category: str
    n_trials: int
    observed_correct: float | None
    predicted_correct: float | None
    observed_errors: int
    predicted_errors: int

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class ErrorCheck:
    """Are the observed systematic errors the trials the fitted theory predicts to fail first?

    Attributes
    ----------
    observed_errors : tuple of (i, j)
        Trials with ground truth whose observed P(correct) is below 1/2 (scores: sign against the ground truth).
    observed_test_errors : tuple of (i, j)
        The test trials among them.
    predicted_errors : tuple of (i, j)
        Trials with a negative margin ``g f(i, j)`` at the fitted parameters.
    first_failing : tuple of (i, j)
        Test trials that fail first as ``alpha`` grows from 0 at the fitted ridge (and other fitted
        parameters), from :func:`symbolic_ti.critical_values` (exact); empty if none fails or the
        family has no ``alpha``.
    alpha_first : float or None
        The critical conjunctivity of that first failure (0.0: already wrong as ``alpha -> 0+``).
    failure_groups : tuple of (float, tuple of (i, j))
        The first few failure groups: ``(alpha*, trials)`` in increasing ``alpha*``.
    alpha_fitted : float or None
        The fitted ``alpha`` (None if the family has none or it was fixed).
    observed_ranks : tuple of int
        For each trial of ``first_failing``, its rank (1 = least correct) among the observed test trials with
        ground truth, by observed P(correct); 0 if not observed.
    n_test : int
        Observed test trials with ground truth.
    ridge_used : str
        The exact ridge at which the critical values were computed (the fitted ridge as a nearby rational).
    notes : tuple of str
    """

    observed_errors: tuple[Trial, ...]
    observed_test_errors: tuple[Trial, ...]
    predicted_errors: tuple[Trial, ...]
    first_failing: tuple[Trial, ...]
    alpha_first: float | None
    failure_groups: tuple[tuple[float, tuple[Trial, ...]], ...]
    alpha_fitted: float | None
    observed_ranks: tuple[int, ...]
    n_test: int
    ridge_used: str
    notes: tuple[str, ...] = ()

    @property
    def first_failing_are_worst(self) -> bool | None:
        """Whether the first-failing trials are exactly the least correct observed test trials (ranks
        ``1..len(first_failing)``); None without first-failing trials."""
        if not self.first_failing:
            return None
        return sorted(self.observed_ranks) == list(range(1, len(self.first_failing) + 1))

    @property
    def observed_errors_are_first_failing(self) -> bool | None:
        """Whether the observed test errors are exactly the first-failing trials (None without either)."""
        if not self.first_failing:
            return None
        return set(self.observed_test_errors) == set(self.first_failing)

    def to_dict(self) -> dict[str, Any]:
        tl = lambda ts: [list(t) for t in ts]  # noqa: E731
        return {"observed_errors": tl(self.observed_errors), "observed_test_errors": tl(self.observed_test_errors),
                "predicted_errors": tl(self.predicted_errors), "first_failing": tl(self.first_failing),
                "alpha_first": self.alpha_first, "alpha_fitted": self.alpha_fitted,
                "failure_groups": [{"alpha": a, "trials": tl(ts)} for a, ts in self.failure_groups],
                "observed_ranks_of_first_failing": list(self.observed_ranks), "n_test": self.n_test,
                "first_failing_are_worst": self.first_failing_are_worst,
                "observed_errors_are_first_failing": self.observed_errors_are_first_failing,
                "ridge_used": self.ridge_used, "notes": list(self.notes)}


@dataclass(frozen=True)
class FitResult:
    """A maximum-likelihood fit of a family to behaviour (immutable).

    Attributes
    ----------
    family : str
        The family name.
    family_description : str
        The family with its fixed values (``Family.describe()``).
    task : Task
    data : BehaviourData
    ridge : str
        ``"fitted"``, ``"ridgeless"`` or the fixed exact ridge as text.
    parameters : tuple of ParameterEstimate
        The fitted family parameters (and ``lambda`` when the ridge is fitted), then ``beta``.
    sigma : float or None
        Residual scale of a Gaussian fit (per unit count), None for choices.
    likelihood : {"binomial", "gaussian"}
    loglik : float
        Maximised log-likelihood (with its normalising constants).
    n_params : int
        ``k``: fitted parameters, ``beta`` and ``sigma`` included.
    n_obs : int
        ``m``: observed trials.
    aic, bic : float
    dispersion : float
        Pearson ``X^2 / (m - k)`` (choices; residual sum over ``sigma^2`` for scores, which is ``m / (m - k)``).
    interval_scale : float
        The factor ``phi >= 1`` applied to the profile-likelihood threshold.
    level : float
        Coverage of the intervals (default 0.95).
    trials : tuple of TrialFit
        Observed trials, in task order.
    f_all : tuple of ((i, j), float)
        ``f(i, j)`` at the fitted parameters for every trial of the task (observed or not).
    categories : tuple of CategoryFit
    errors : ErrorCheck or None
    starts : int
        Optimiser starts.
    converged : bool
        Whether the best start reported success.
    notes : tuple of str
        Remarks (parameters that do not change the predictions, numerical checks).
    seconds : float
    """

    family: str
    family_description: str
    task: Task
    data: BehaviourData
    ridge: str
    parameters: tuple[ParameterEstimate, ...]
    sigma: float | None
    likelihood: str
    loglik: float
    n_params: int
    n_obs: int
    aic: float
    bic: float
    dispersion: float
    interval_scale: float
    level: float
    trials: tuple[TrialFit, ...]
    f_all: tuple[tuple[Trial, float], ...]
    categories: tuple[CategoryFit, ...]
    errors: ErrorCheck | None
    starts: int
    converged: bool
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    # ------------------------------------------------------------ access
    def parameter(self, name: str) -> ParameterEstimate:
        """The estimate of ``name`` (``"ridge"`` means ``"lambda"``).

        Raises
        ------
        ParameterError
            If ``name`` was not fitted.
        """
        name = "lambda" if name == "ridge" else name
        for p in self.parameters:
            if p.name == name:
                return p
        raise ParameterError(f"{name!r} was not fitted; fitted: {', '.join(p.name for p in self.parameters)}")

    @property
    def values(self) -> dict[str, float]:
        """Fitted values by name."""
        return {p.name: p.value for p in self.parameters}

    def f(self, i: int, j: int) -> float:
        """``f(i, j)`` at the fitted parameters."""
        return dict(self.f_all)[self.task.check_trial((i, j))]

    @property
    def label(self) -> str:
        """Short label: family and ridge mode."""
        return f"{self.family} ({'ridge fitted' if self.ridge == 'fitted' else 'ridge ' + self.ridge})"

    # ------------------------------------------------------------ export
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary; opens with a versioned ``meta`` block."""
        from .._version import __version__

        return {
            "meta": {"format": FORMAT_NAME, "format_version": FORMAT_VERSION, "symbolic_ti_version": __version__},
            "task": {"n": self.task.n, "exceptions": [str(e) for e in self.task.exceptions]},
            "family": self.family, "family_description": self.family_description, "ridge": self.ridge,
            "data": {k: v for k, v in self.data.to_dict().items() if k != "trials"},
            "likelihood": self.likelihood,
            "parameters": [p.to_dict() for p in self.parameters],
            "sigma": self.sigma,
            "interval": {"method": "profile likelihood", "level": self.level, "scale": self.interval_scale},
            "loglik": self.loglik, "n_params": self.n_params, "n_obs": self.n_obs, "aic": self.aic, "bic": self.bic,
            "dispersion": self.dispersion, "starts": self.starts, "converged": self.converged,
            "notes": list(self.notes),
            "categories": [c.to_dict() for c in self.categories],
            "errors": None if self.errors is None else self.errors.to_dict(),
            "trials": [t.to_dict() for t in self.trials],
            "f_all": [{"trial": list(t), "f": v} for t, v in self.f_all],
        }

    def to_text(self, max_trials: int | None = None) -> str:
        """Plain-text report: parameters, fit statistics, categories, systematic errors, per-trial table."""
        return _fit_text(self, max_trials)

    def to_latex(self) -> str:
        """A LaTeX tabular of the fitted parameters and the fit statistics."""
        rows = []
        for p in self.parameters:
            name = {"alpha": r"\alpha", "lambda": r"\lambda", "beta": r"\beta", "rho": r"\rho"}.get(p.name, p.name)
            rows.append(f"${name}$ & {_num(p.value)} & $[{_num(p.lower)}, {_num(p.upper)}]$ \\\\")
        task = self.task.label().replace(">", "{>}")
        head = (f"% symbolic_ti fit: {self.family_description}, {self.task.label()}\n"
                r"\begin{tabular}{lll}" "\n" r"\hline" "\n"
                f"parameter & MLE & {int(round(self.level * 100))}\\% profile interval \\\\\n" r"\hline" "\n")
        tail = (r"\hline" "\n"
                f"\\multicolumn{{3}}{{l}}{{$\\log L = {self.loglik:.2f}$, $k = {self.n_params}$, "
                f"$m = {self.n_obs}$, AIC $= {self.aic:.1f}$, BIC $= {self.bic:.1f}$}} \\\\\n"
                f"\\multicolumn{{3}}{{l}}{{{self.family}, {task}}} \\\\\n" r"\end{tabular}")
        return head + "\n".join(rows) + "\n" + tail

    def _repr_latex_(self) -> str:
        return "$$" + self.to_latex().split("\n", 1)[1] + "$$"

    def __str__(self) -> str:
        return self.to_text(max_trials=20)

    def __repr__(self) -> str:
        vals = ", ".join(f"{p.name}={p.value:.4g}" for p in self.parameters)
        return f"FitResult({self.family}, {self.task.label()}, {vals}, loglik={self.loglik:.3f})"


@dataclass(frozen=True)
class FitComparison:
    """Several fits of the same data compared by AIC and BIC (smaller is better).

    Attributes
    ----------
    fits : tuple of FitResult
        In the order given.
    delta_aic, delta_bic : tuple of float
        Differences to the smallest AIC and BIC.
    akaike_weights : tuple of float
        ``exp(-delta_aic/2)`` normalised (Burnham & Anderson, *Model Selection and Multimodel Inference*, 2002).
    """

    fits: tuple[FitResult, ...]
    delta_aic: tuple[float, ...]
    delta_bic: tuple[float, ...]
    akaike_weights: tuple[float, ...]

    @property
    def best(self) -> FitResult:
        """The fit with the smallest AIC."""
        return self.fits[int(np.argmin([f.aic for f in self.fits]))]

    def to_dict(self) -> dict[str, Any]:
        return {"fits": [{"label": f.label, "family": f.family, "ridge": f.ridge, "n_params": f.n_params,
                          "loglik": f.loglik, "aic": f.aic, "bic": f.bic, "delta_aic": da, "delta_bic": db,
                          "akaike_weight": w, "values": f.values}
                         for f, da, db, w in zip(self.fits, self.delta_aic, self.delta_bic, self.akaike_weights)]}

    def to_text(self) -> str:
        w = max(len(f.label) for f in self.fits)
        lines = [f"{'model':<{w}}  k  {'log L':>10}  {'AIC':>9}  {'dAIC':>7}  {'BIC':>9}  {'dBIC':>7}  weight"]
        for f, da, db, aw in zip(self.fits, self.delta_aic, self.delta_bic, self.akaike_weights):
            lines.append(f"{f.label:<{w}}  {f.n_params}  {f.loglik:>10.2f}  {f.aic:>9.1f}  {da:>7.1f}  "
                         f"{f.bic:>9.1f}  {db:>7.1f}  {aw:.3f}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def compare_fits(fits: Iterable[FitResult]) -> FitComparison:
    """Compare fits of the same data by AIC, BIC and Akaike weights.

    Raises
    ------
    ParameterError
        For fewer than one fit, or fits of different data (trials, values or counts differ).
    """
    fits = tuple(fits)
    if not fits:
        raise ParameterError("compare_fits needs at least one FitResult")
    d0 = fits[0].data
    for f in fits[1:]:
        d = f.data
        if (d.trials, d.values, d.counts, d.kind) != (d0.trials, d0.values, d0.counts, d0.kind):
            raise ParameterError("compare_fits: the fits are of different data; AIC and BIC compare only fits of "
                                 "the same observations")
    aic = np.array([f.aic for f in fits])
    bic = np.array([f.bic for f in fits])
    da, db = aic - aic.min(), bic - bic.min()
    w = np.exp(-da / 2)
    w /= w.sum()
    return FitComparison(fits, tuple(map(float, da)), tuple(map(float, db)), tuple(map(float, w)))


# ============================================================================ the model
@dataclass
class _Coord:
    """One fitted parameter and its transformation to an unbounded optimiser coordinate."""

    name: str
    kind: str            # "logistic" (bounded), "exp" (lower bound only), "identity"
    lower: float
    upper: float
    zbounds: tuple[float, float]

    def to_natural(self, z: float) -> float:
        if self.kind == "logistic":
            return self.lower + (self.upper - self.lower) / (1.0 + math.exp(-z))
        if self.kind == "exp":
            return self.lower + math.exp(z)
        return z

    def to_z(self, x: float) -> float:
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


def _coord_for(name: str, lower: sp.Expr, upper: sp.Expr) -> _Coord:
    lo = float(lower) if lower.is_finite else -math.inf
    hi = float(upper) if upper.is_finite else math.inf
    if math.isfinite(lo) and math.isfinite(hi):
        return _Coord(name, "logistic", lo, hi, (-_LOGIT_BOUND, _LOGIT_BOUND))
    if math.isfinite(lo):
        bounds = _LOG_BETA_BOUNDS if name == "beta" else _LOG_BOUNDS
        return _Coord(name, "exp", lo, math.inf, bounds)
    return _Coord(name, "identity", -math.inf, math.inf, (-1e6, 1e6))


def _compile(expressions: Sequence[sp.Expr], symbols: Sequence[sp.Symbol]) -> Callable[..., np.ndarray]:
    """Compile closed forms to one numpy function of the parameter arrays (private).

    ``sympy.lambdify(cse=True)``; constants are broadcast, so the result has shape ``(len(expressions),) +
    broadcast shape of the arguments``.
    """
    fn = sp.lambdify(list(symbols), list(expressions), modules="numpy", cse=True)

    def evaluate(*args: Any) -> np.ndarray:
        if all(isinstance(a, (int, float)) for a in args):  # the optimiser's hot path: plain floats
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
_SOLVED: dict[tuple[Any, ...], tuple[Any, dict[Any, Any]]] = {}
_CACHE_SIZE = 16


class _Model:
    """Compiled predictions and the log-likelihood in optimiser coordinates (private)."""

    def __init__(self, data: BehaviourData, family: Family, ridge: Any) -> None:
        from ..arguments import parse_ridge
        from ..solvers.dispatch import solve

        self.data = data
        self.task = data.task
        self.family = family
        lam = parse_ridge("lambda" if ridge in (None, "fit", "fitted") else ridge)
        self.ridge_mode = "fitted" if lam == S.ridge else ("ridgeless" if lam is None else str(lam))
        key = (self.task, family, self.ridge_mode)
        if key not in _SOLVED:  # one exact solve per task, family and ridge: fits of other data reuse it
            if len(_SOLVED) >= _CACHE_SIZE:
                _SOLVED.pop(next(iter(_SOLVED)))
            result = solve(self.task, family, "ridgeless" if lam is None else lam)
            _SOLVED[key] = (result, {})
        self.result, self._compiled = _SOLVED[key]
        present = set(self.result.free_symbols)
        self.coords: list[_Coord] = []
        self.symbols: list[sp.Symbol] = []
        self.notes: list[str] = []
        for p in family.free_parameters:
            if p.name == "beta" and p.symbol in present:
                raise ParameterError(f"{family.name}: the family parameter beta clashes with the response scale "
                                     f"beta of the fit; fix it (e.g. parameters={{'beta': 0}})")
            if p.symbol in present:
                self.coords.append(_coord_for(p.name, p.lower, p.upper))
                self.symbols.append(p.symbol)
            else:
                self.notes.append(f"{p.name} does not change the predictions here and is not fitted")
        if lam == S.ridge:
            self.coords.append(_coord_for("lambda", sp.Integer(0), sp.oo))
            self.symbols.append(S.ridge)
        extra = present - set(self.symbols)
        if extra:
            raise SolveError(f"the predictions depend on {', '.join(sorted(s.name for s in extra))}, "
                             f"which cannot be fitted here")
        self.coords.append(_coord_for("beta", sp.Integer(0), sp.oo))
        all_trials = self.task.trials
        ckey = tuple(self.symbols)
        if ckey not in self._compiled:
            self._compiled[ckey] = _compile([self.result.predictions[t] for t in all_trials], self.symbols)
        self._f_all = self._compiled[ckey]
        index = {t: k for k, t in enumerate(all_trials)}
        self.obs_index = np.array([index[t] for t in data.trials])
        self.y = data.observed
        self.n = data.counts_array
        self.choice = data.is_choice
        if self.choice:
            from scipy.special import gammaln

            k = self.n * self.y
            self.const = float(np.sum(gammaln(self.n + 1) - gammaln(k + 1) - gammaln(self.n - k + 1)))
            self.k = k
        else:
            self.const = float(0.5 * np.sum(np.log(self.n)))
        self.m = len(data.trials)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.coords]

    def natural(self, z: np.ndarray) -> dict[str, float]:
        return {c.name: c.to_natural(float(v)) for c, v in zip(self.coords, z)}

    def f_all(self, nat: Mapping[str, float]) -> np.ndarray:
        return self._f_all(*[nat[c.name] for c in self.coords[:-1]])

    def f_obs(self, nat: Mapping[str, float]) -> np.ndarray:
        return self.f_all(nat)[self.obs_index]

    def loglik_natural(self, nat: Mapping[str, float]) -> tuple[float, float | None]:
        """Log-likelihood and (Gaussian) sigma at natural parameter values."""
        f = self.f_obs(nat)
        eta = nat["beta"] * f
        if not np.all(np.isfinite(eta)):
            return -math.inf, None
        if self.choice:
            ll = -(self.k * np.logaddexp(0.0, -eta) + (self.n - self.k) * np.logaddexp(0.0, eta)).sum()
            return float(self.const + ll), None
        rss = float(np.sum(self.n * (self.y - eta) ** 2))
        s2 = max(rss / self.m, 1e-300)
        ll = self.const - 0.5 * self.m * math.log(2 * math.pi * s2) - 0.5 * self.m
        return float(ll), math.sqrt(s2)

    def negll(self, z: np.ndarray) -> float:
        ll, _ = self.loglik_natural(self.natural(z))
        return 1e300 if not math.isfinite(ll) else -ll

    def zbounds(self) -> list[tuple[float, float]]:
        return [c.zbounds for c in self.coords]


def _minimize(model: _Model, z0: np.ndarray, fixed: dict[int, float] | None = None) -> tuple[np.ndarray, float, bool]:
    """L-BFGS-B from ``z0`` with some coordinates held fixed; returns (z, negll, success)."""
    opt = _scipy()
    fixed = fixed or {}
    free = [k for k in range(len(z0)) if k not in fixed]
    full = np.array(z0, dtype=float)
    for k, v in fixed.items():
        full[k] = v
    if not free:
        return full, model.negll(full), True

    def fun(x: np.ndarray) -> float:
        z = full.copy()
        z[free] = x
        return model.negll(z)

    bounds = [model.coords[k].zbounds for k in free]
    x0 = np.clip(full[free], [b[0] for b in bounds], [b[1] for b in bounds])
    res = opt.minimize(fun, x0, method="L-BFGS-B", bounds=bounds, options={"maxiter": 500})
    z = full.copy()
    z[free] = res.x
    return z, float(res.fun), bool(res.success)


def _starts(model: _Model, n_starts: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    center = []
    for c in model.coords:
        if c.kind == "logistic":
            center.append(0.0)
        elif c.name == "beta":
            center.append(math.log(3.0) if model.choice else 0.0)
        elif c.kind == "exp":
            center.append(math.log(0.1))
        else:
            center.append(0.0)
    out.append(np.array(center))
    for _ in range(max(n_starts - 1, 0)):
        z = []
        for c in model.coords:
            if c.kind == "logistic":
                z.append(rng.uniform(-4.0, 4.0))
            elif c.name == "beta":
                z.append(rng.uniform(-1.0, 3.0))
            elif c.kind == "exp":
                z.append(rng.uniform(-7.0, 2.0))
            else:
                z.append(rng.normal())
        out.append(np.array(z))
    return out


def _profile_interval(model: _Model, zhat: np.ndarray, k: int, nll_min: float, threshold: float
                      ) -> tuple[float, float, bool, bool]:
    """Profile-likelihood interval of coordinate ``k`` in natural units (see the module docstring)."""
    opt = _scipy()
    coord = model.coords[k]
    lo_b, hi_b = coord.zbounds
    ends: list[float] = []
    at_bound: list[bool] = []
    for side in (-1, 1):
        warm = zhat.copy()

        def excess(zk: float, warm_box: list = [warm]) -> float:
            z, nll, _ = _minimize(model, warm_box[0], {k: zk})
            warm_box[0] = z
            return nll - nll_min - threshold

        inside = float(zhat[k])
        step = 0.25
        outside = None
        bound = lo_b if side < 0 else hi_b
        while True:
            cand = inside + side * step
            if (side < 0 and cand <= bound) or (side > 0 and cand >= bound):
                if excess(bound) > 0:
                    outside = bound
                break
            if excess(cand) > 0:
                outside = cand
                break
            inside = cand
            step *= 2
        if outside is None:
            ends.append(coord.natural_bound(side))
            at_bound.append(True)
            continue
        a, b = sorted((inside, outside))
        fa, fb = excess(a), excess(b)
        if fa * fb > 0:  # numerical noise at the MLE: fall back to the outside point
            root = outside
        else:
            root = opt.brentq(excess, a, b, xtol=1e-6)
        ends.append(coord.to_natural(root))
        at_bound.append(False)
    return ends[0], ends[1], at_bound[0], at_bound[1]


# ============================================================================ public entry point
def fit(
    data: BehaviourData,
    family: "str | Family" = "exchangeable",
    *,
    ridge: Any = "fit",
    parameters: Mapping[str, Any] | None = None,
    starts: int = 8,
    seed: int = 0,
    level: float = 0.95,
    overdispersion: bool = True,
    intervals: bool = True,
    error_check: bool = True,
) -> FitResult:
    """Maximum-likelihood fit of a family's free parameters and a response scale to behaviour.

    Parameters
    ----------
    data : BehaviourData
        From :func:`symbolic_ti.behaviour.data.load_behaviour`; its task is the task fitted.
    family : str or Family
        A family name (``symbolic_ti.families.FAMILIES``) or instance. Parameters left symbolic in it are
        fitted; bound ones (e.g. the exchangeable default ``kappa_d = 0``, which only rescales the ridge) are
        held fixed.
    ridge : "fit", "ridgeless" or a number >= 0
        ``"fit"`` (default): the ridge ``lambda >= 0`` is fitted. ``"ridgeless"`` (or 0): the limit
        ``lambda -> 0+``. A positive number: held fixed (read exactly).
    parameters : mapping name -> value, optional
        Family parameters to hold fixed (exact values, e.g. ``{"alpha": "1/10"}``).
    starts : int
        Optimiser starts (the first at the centre of the domain, the others random with ``seed``); >= 1.
    seed : int
        Seed of the random starts.
    level : float in (0, 1)
        Coverage of the profile-likelihood intervals.
    overdispersion : bool
        Widen the intervals of binomial fits by the Pearson dispersion ``phi`` when ``phi > 1``.
    intervals : bool
        Compute the profile-likelihood intervals (the slow part); otherwise the interval ends are NaN.
    error_check : bool
        Compare observed systematic errors with the theory's first-failing trials (exact critical values at
        the fitted ridge; needs a family parameter ``alpha``).

    Returns
    -------
    FitResult

    Raises
    ------
    FamilyError, ParameterError
        For an unknown family, an unknown or out-of-domain parameter, ``starts < 1``, ``level`` outside (0, 1),
        or no free parameter and a fixed ridge with nothing else to fit (``beta`` is always fitted, so this
        cannot happen).
    SolveError
        If the predictions depend on a symbol that cannot be fitted.

    Examples
    --------
    >>> from symbolic_ti import Task
    >>> from symbolic_ti.behaviour.data import behaviour_from_arrays
    >>> t = Task(4)
    >>> d = behaviour_from_arrays(t, t.trials, [0.9 if i < j else 0.1 for i, j in t.trials], [50] * 12)
    >>> r = fit(d, ridge="ridgeless", intervals=False, error_check=False)
    >>> sorted(r.values)
    ['alpha', 'beta']
    """
    start = time.perf_counter()
    if not isinstance(data, BehaviourData):
        raise ParameterError(f"data must be a BehaviourData (symbolic_ti.behaviour.data.load_behaviour), got "
                             f"{type(data).__name__}")
    if isinstance(starts, bool) or not isinstance(starts, int) or starts < 1:
        raise ParameterError(f"starts must be an integer >= 1, got {starts!r}")
    if not (isinstance(level, (int, float)) and 0 < level < 1):
        raise ParameterError(f"level must be a number in (0, 1), got {level!r}")
    from ..api import make_family

    if isinstance(family, str) and family not in _families():
        raise FamilyError(f"unknown family {family!r}; known families: {', '.join(sorted(_families()))}")
    fam = make_family(family, parameters)
    if isinstance(ridge, str) and ridge.strip().lower() in ("fit", "fitted"):
        ridge = "fit"
    model = _Model(data, fam, ridge)
    opt_starts = _starts(model, starts, seed)
    best: tuple[np.ndarray, float, bool] | None = None
    for z0 in opt_starts:
        z, nll, ok = _minimize(model, z0)
        if best is None or nll < best[1] - 1e-9:
            best = (z, nll, ok)
    assert best is not None
    zhat, nll_min, converged = best
    nat = model.natural(zhat)
    loglik, sigma = model.loglik_natural(nat)
    k = len(model.coords) + (0 if model.choice else 1)
    m = model.m
    f_obs = model.f_obs(nat)
    eta = nat["beta"] * f_obs
    if model.choice:
        p = 1.0 / (1.0 + np.exp(-eta))
        pearson = float(np.sum((model.k - model.n * p) ** 2 / np.maximum(model.n * p * (1 - p), 1e-300)))
        dispersion = pearson / max(m - k, 1)
        predicted = p
    else:
        dispersion = m / max(m - k, 1)
        predicted = eta
    scale = max(1.0, dispersion) if (overdispersion and model.choice) else 1.0
    from scipy.stats import chi2

    threshold = 0.5 * float(chi2.ppf(level, 1)) * scale
    estimates = []
    for idx, c in enumerate(model.coords):
        if intervals:
            lo, hi, lb, ub = _profile_interval(model, zhat, idx, nll_min, threshold)
        else:
            lo, hi, lb, ub = math.nan, math.nan, False, False
        estimates.append(ParameterEstimate(c.name, nat[c.name], lo, hi, lb, ub))
    f_all, grid_note = _final_predictions(model, nat)
    if grid_note:
        model.notes.append(grid_note)
    if data.averaged_over:
        model.notes.append(f"the data were averaged within each trial over {data.averaged_text()}; filter a "
                           "column if it should not be pooled (e.g. phase=post for after training only)")
    trials = tuple(
        TrialFit(t, data.task.categories[t], g, float(o), float(pr), float(fv), float(cnt), model.choice)
        for t, g, o, pr, fv, cnt in zip(data.trials, data.ground_truth, model.y, predicted, f_obs, data.counts)
    )
    cats = _category_fits(trials, model.choice)
    errors = None
    if error_check:
        errors = _error_check(model, nat, trials)
    return FitResult(
        family=fam.name, family_description=fam.describe(), task=data.task, data=data, ridge=model.ridge_mode,
        parameters=tuple(estimates), sigma=sigma, likelihood="binomial" if model.choice else "gaussian",
        loglik=loglik, n_params=k, n_obs=m, aic=2 * k - 2 * loglik, bic=k * math.log(m) - 2 * loglik,
        dispersion=float(dispersion), interval_scale=scale, level=float(level), trials=trials,
        f_all=tuple((t, float(v)) for t, v in zip(data.task.trials, f_all)), categories=cats, errors=errors,
        starts=len(opt_starts), converged=converged, notes=tuple(model.notes), seconds=time.perf_counter() - start,
    )


def _final_predictions(model: _Model, nat: Mapping[str, float]) -> tuple[np.ndarray, str]:
    """``f`` of every trial at the fitted point through :func:`symbolic_ti.numeric.grid.compile_result` when available
    (float64 with an mpmath fallback where float64 cancels), checked against the optimiser's compiled forms."""
    fast = model.f_all(nat)
    try:
        from ..numeric.grid import compile_result
    except ImportError:  # pragma: no cover - grid.py is part of the package
        return fast, ""
    store = model._compiled
    if "grid" not in store:
        store["grid"] = compile_result(model.result)
    compiled = store["grid"]
    args = {name: np.float64(nat[name]) for name in compiled.parameters}
    values = compiled.evaluate(**args).values
    if not np.allclose(values, fast, rtol=1e-7, atol=1e-9):
        worst = float(np.max(np.abs(values - fast)))
        return values, (f"the optimiser's float64 closed forms differ from the checked evaluation by up to "
                        f"{worst:.2g} at the fitted point; reported predictions use the checked values")
    return values, ""


def _families() -> dict[str, Any]:
    from ..families import FAMILIES

    return FAMILIES


def _category_fits(trials: Sequence[TrialFit], choice: bool) -> tuple[CategoryFit, ...]:
    out = []
    threshold = 0.5 if choice else 0.0
    for c in CATEGORIES:
        ts = [t for t in trials if t.category == c]
        if not ts:
            continue
        gt = [t for t in ts if t.ground_truth is not None]
        oc = [t.observed_correct for t in gt]
        pc = [t.predicted_correct for t in gt]
        out.append(CategoryFit(
            c, len(ts), float(np.mean(oc)) if gt else None, float(np.mean(pc)) if gt else None,
            sum(1 for v in oc if v < threshold), sum(1 for t in gt if t.ground_truth * t.f < 0)))  # type: ignore
    return tuple(out)


def _rational(x: float) -> sp.Rational:
    q = Fraction(x).limit_denominator(10**6)
    return sp.Rational(q.numerator, q.denominator)


def _error_check(model: _Model, nat: Mapping[str, float], trials: Sequence[TrialFit]) -> ErrorCheck:
    """Observed systematic errors against the fitted theory's errors and first failures (private)."""
    from ..analysis.crossings import critical_values
    from ..solvers.dispatch import solve

    task = model.task
    choice = model.choice
    thr = 0.5 if choice else 0.0
    with_gt = [t for t in trials if t.ground_truth is not None]
    obs_err = tuple(t.trial for t in with_gt if t.observed_correct < thr)  # type: ignore[operator]
    test = [t for t in with_gt if t.category not in TRAINING_CATEGORIES]
    obs_test_err = tuple(t.trial for t in test if t.observed_correct < thr)  # type: ignore[operator]
    pred_err = tuple(t for t, fv in zip(task.trials, model.f_all(nat))
                     if task.ground_truth(t) is not None and task.ground_truth(t) * fv < 0)
    ranked = sorted(test, key=lambda t: (t.observed_correct, task.trials.index(t.trial)))
    rank_of = {t.trial: r + 1 for r, t in enumerate(ranked)}
    notes: list[str] = []
    fam = model.family
    if "alpha" not in {p.name for p in fam.active_parameters}:
        notes.append(f"family {fam.name!r} has no alpha; first failures are not computed")
        return ErrorCheck(obs_err, obs_test_err, pred_err, (), None, (), None, (), len(test), "", tuple(notes))
    alpha_fitted = nat.get("alpha")
    fixed: dict[str, Any] = {}
    for name, value in nat.items():
        if name in ("alpha", "beta", "lambda"):
            continue
        fixed[name] = _rational(value)
    if model.ridge_mode == "fitted":
        lam_value = nat["lambda"]
        ridge: Any = "ridgeless" if lam_value < 1e-7 else _rational(lam_value)
    else:
        ridge = "ridgeless" if model.ridge_mode == "ridgeless" else sp.Rational(model.ridge_mode)
    ridge_text = "ridgeless" if ridge == "ridgeless" else str(ridge)
    if ridge == "ridgeless" and model.ridge_mode == "fitted":
        notes.append("the fitted ridge is below 1e-7; critical values use the ridgeless limit")
    fam_alpha = fam.with_values(alpha="symbolic", **fixed)
    test_gt = [t for t in task.test_trials if task.ground_truth(t) is not None]
    try:
        result = solve(task, fam_alpha, ridge)
        report = critical_values(result, "alpha", trials=test_gt)
    except Exception as err:  # an exact analysis that is not available for this family/setting
        notes.append(f"critical values not computed: {type(err).__name__}: {err}")
        return ErrorCheck(obs_err, obs_test_err, pred_err, (), None, (), alpha_fitted, (), len(test),
                          ridge_text, tuple(notes))
    groups: list[tuple[float, list[Trial]]] = []
    for t, a in report.failure_order:
        if groups and math.isclose(groups[-1][0], a, rel_tol=1e-9, abs_tol=1e-12):
            groups[-1][1].append(t)
        else:
            groups.append((a, [t]))
    first = tuple(groups[0][1]) if groups else ()
    alpha_first = groups[0][0] if groups else None
    ranks = tuple(rank_of.get(t, 0) for t in first)
    if not groups:
        notes.append("no test trial fails for any alpha in (0, 1) at this ridge")
    return ErrorCheck(obs_err, obs_test_err, pred_err, first, alpha_first,
                      tuple((a, tuple(ts)) for a, ts in groups[:4]), alpha_fitted, ranks, len(test),
                      ridge_text, tuple(notes))


# ============================================================================ text
def _json_float(x: float) -> float | str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if math.isnan(x):
        return "nan"
    return x


def _num(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "oo" if x > 0 else "-oo"
    return f"{x:.4g}"


def _trials_text(ts: Iterable[Trial]) -> str:
    ts = list(ts)
    return ", ".join(f"({i},{j})" for i, j in ts) if ts else "none"


def _fit_text(r: FitResult, max_trials: int | None) -> str:
    lines = [f"symbolic_ti fit: {r.family_description}, {r.task.label()}"]
    lines.append(f"  data        {r.data.describe()}")
    if r.data.averaged_over:
        lines.append(f"  averaged    within each trial over {r.data.averaged_text()}; filter a column "
                     "(--filter COL=VALUE) if it should not be pooled")
    lik = r.likelihood
    k = [c * v for c, v in zip(r.data.counts, r.data.observed)]
    if lik == "binomial" and any(abs(x - round(x)) > 1e-6 for x in k):
        lik += " (quasi-likelihood: averaged probabilities times counts)"
    lines.append(f"  likelihood  {lik}; ridge {r.ridge}; {r.starts} starts"
                 + ("" if r.converged else " (best start did not report convergence)"))
    lines.append("")
    lines.append(f"parameters: maximum likelihood, {int(round(r.level * 100))}% profile-likelihood interval"
                 + (f" (threshold widened by the dispersion {r.interval_scale:.3g})" if r.interval_scale > 1 else ""))
    for p in r.parameters:
        if math.isnan(p.lower) and math.isnan(p.upper):
            lines.append(f"  {p.name:<8} {_num(p.value):>10}   (interval not computed)")
            continue
        lo = _num(p.lower) + (" (domain end)" if p.lower_at_bound else "")
        hi = _num(p.upper) + (" (domain end)" if p.upper_at_bound else "")
        lines.append(f"  {p.name:<8} {_num(p.value):>10}   [{lo}, {hi}]")
    if r.sigma is not None:
        lines.append(f"  {'sigma':<8} {_num(r.sigma):>10}   (residual scale per unit count)")
    lines.append("")
    lines.append(f"log-likelihood {r.loglik:.3f}   k = {r.n_params}   m = {r.n_obs} trials   AIC {r.aic:.2f}   "
                 f"BIC {r.bic:.2f}   dispersion {r.dispersion:.3g}")
    lines.append("")
    what = "P(correct)" if r.likelihood == "binomial" else "signed score"
    lines.append(f"per category (mean {what}, observed vs predicted; errors: below {'1/2' if what == 'P(correct)' else '0'}"
                 " observed, negative margin predicted):")
    lines.append(f"  {'category':<16}{'trials':>6}{'observed':>10}{'predicted':>11}{'obs err':>9}{'pred err':>9}")
    for c in r.categories:
        oc = "-" if c.observed_correct is None else f"{c.observed_correct:.3f}"
        pc = "-" if c.predicted_correct is None else f"{c.predicted_correct:.3f}"
        lines.append(f"  {c.category:<16}{c.n_trials:>6}{oc:>10}{pc:>11}{c.observed_errors:>9}{c.predicted_errors:>9}")
    e = r.errors
    if e is not None:
        lines.append("")
        lines.append("systematic errors:")
        lines.append(f"  observed (trials with ground truth below chance): {_trials_text(e.observed_errors)}")
        lines.append(f"  predicted at the fitted parameters:               {_trials_text(e.predicted_errors)}")
        if e.first_failing:
            af = "" if e.alpha_fitted is None else f"; fitted alpha = {e.alpha_fitted:.4g}"
            lines.append(f"  theory's first failures as alpha grows (ridge {e.ridge_used}): "
                         f"{_trials_text(e.first_failing)} at alpha* = {e.alpha_first:.4g}{af}")
            for a, ts in e.failure_groups[1:3]:
                lines.append(f"    next: {_trials_text(ts)} at alpha* = {a:.4g}")
            lines.append(f"  their ranks among {e.n_test} observed test trials (1 = least correct): "
                         + ", ".join(map(str, e.observed_ranks))
                         + ("  -> the least correct trials" if e.first_failing_are_worst else ""))
            lines.append(f"  observed test errors are exactly the first failures: "
                         f"{'yes' if e.observed_errors_are_first_failing else 'no'}")
        for note in e.notes:
            lines.append(f"  note: {note}")
    for note in r.notes:
        lines.append(f"note: {note}")
    lines.append("")
    shown = r.trials if max_trials is None else r.trials[:max_trials]
    lines.append(f"per trial (observed and predicted {'P(first wins)' if r.likelihood == 'binomial' else 'score'}):")
    lines.append(f"  {'trial':<8}{'category':<16}{'truth':>6}{'observed':>10}{'predicted':>11}{'f':>10}")
    for t in shown:
        g = "-" if t.ground_truth is None else f"{t.ground_truth:+d}"
        lines.append(f"  ({t.trial[0]},{t.trial[1]}){'':<{8 - len(str(t.trial[0])) - len(str(t.trial[1])) - 3}}"
                     f"{t.category:<16}{g:>6}{t.observed:>10.3f}{t.predicted:>11.3f}{t.f:>10.4f}")
    if len(shown) < len(r.trials):
        lines.append(f"  ... {len(r.trials) - len(shown)} more (to_text() or --format json for all)")
    return "\n".join(lines)
