r"""The likelihood of the Bayesian hierarchical fit (:mod:`symbolic_ti.behaviour.bayes`) as a JAX program, and its
NumPyro model.

The predictions ``f(i, j; theta)`` are the exact closed forms of the result behind
:class:`~symbolic_ti.behaviour.model.LikelihoodModel`, in the factored form of the numeric grid compiler
(:func:`symbolic_ti.numeric.grid.compile_result`): one monomial basis of the generators, the shared irreducible
factors as one matrix product (coefficients x monomials), each distinct rational function a constant times
integer powers of factors, each trial one of them with a sign. The same program written in ``jax.numpy`` is
traceable and differentiable (the gradients NUTS needs, by JAX's automatic differentiation), float64
(``jax_enable_x64``). The grid's float64 cancellation detector and mpmath fallback do not run inside the sampler:
:func:`symbolic_ti.behaviour.bayes.sample_hierarchical_data` evaluates the posterior draws again with
:meth:`~symbolic_ti.numeric.grid.CompiledResult.evaluate` afterwards and reports how far the two agree.

The model (docs/fitting.md, "Bayesian hierarchical fits"), non-centred (Papaspiliopoulos, Roberts & Skold,
Statist. Sci. 22, 2007; the form Stan's manual recommends for few data per subject)::

    mu_k ~ Normal(0, mu_scale^2),  tau_k ~ HalfNormal(tau_scale),  e_sk ~ Normal(0, 1),
    z_sk = mu_k + tau_k e_sk,      choices of s ~ Binomial(n, sigmoid(beta_s f(theta_s)))

on the fitted scale ``z`` of :class:`~symbolic_ti.behaviour.model.Coord` (logit of ``alpha``, log of the ridge
and of ``beta``). JAX and NumPyro are imported inside the functions (the ``bayes`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ParameterError
from .model import LikelihoodModel

__all__ = ["PopulationLikelihood", "require_numpyro"]


def require_numpyro() -> tuple[Any, Any]:
    """``(jax, numpyro)``, imported, with float64 enabled in JAX.

    Raises
    ------
    ParameterError
        When NumPyro or JAX is not installed (one line naming the extra: ``pip install 'symbolic-ti[bayes]'``).
    """
    try:
        import jax
        import numpyro
    except ImportError as err:
        raise ParameterError(f"the Bayesian hierarchical fit needs NumPyro and JAX ({err.name} is not installed): "
                             "pip install 'symbolic-ti[bayes]'") from None
    jax.config.update("jax_enable_x64", True)
    return jax, numpyro


class PopulationLikelihood:
    """The subjects' log-likelihoods, stacked, as numpy data and a JAX function of all subjects' ``z``.

    Parameters
    ----------
    models : sequence of LikelihoodModel, length S
        One per subject, of one task, family and ridge mode (choices, the plain response).

    Attributes
    ----------
    coords : list of Coord
        The ``d`` fitted coordinates (as ``models[0].coords``).
    subject, trial : ndarray of int, shape (m,)
        Each stacked row's subject and its trial's index in ``task.trials``.
    k, n : ndarray, shape (m,)
        "First item" answers and counts of the rows.
    const : float
        The sum of the binomial coefficients' logarithms.
    """

    def __init__(self, models: Sequence[LikelihoodModel]) -> None:
        from ..numeric.grid import compile_result

        self.models = list(models)
        m0 = self.models[0]
        self.coords = m0.coords
        self.d = len(self.coords)
        self.n_kernel = m0.n_kernel
        self.S = len(self.models)
        self.subject = np.concatenate([np.full(m.m, s) for s, m in enumerate(self.models)])
        self.trial = np.concatenate([m.obs_index for m in self.models])
        self.k = np.concatenate([m.k for m in self.models])
        self.n = np.concatenate([m.n for m in self.models])
        self.const = float(sum(m.const for m in self.models))
        self.compiled = compile_result(m0.result, m0.task.trials)
        by_name = {s.name: c.name for s, c in zip(m0.symbols, self.coords[:self.n_kernel], strict=True)}
        # the compiled program's arguments (its parameters, sorted) as coordinate indices
        self.arguments = [[c.name for c in self.coords].index(by_name[p]) for p in self.compiled.parameters]
        cr = self.compiled
        self.coefficients = np.zeros((len(cr._split_terms), len(cr._monomials)))
        for f, (plus, minus) in enumerate(cr._split_terms):
            for q, c in plus:
                self.coefficients[f, q] += c
            for q, c in minus:
                self.coefficients[f, q] -= c

    def numpy_loglik(self, z: np.ndarray) -> float:
        """``sum_s log L_s(z_s)`` by each subject's :class:`LikelihoodModel` (the reference; ``z`` shape
        ``(S, d)``)."""
        return float(sum(-m.negll(np.asarray(z[s], dtype=float)) for s, m in enumerate(self.models)))

    def natural(self, z: Any, jnp: Any) -> list[Any]:
        """The parameters on their own scale from ``z`` (shape ``(..., d)``), one array per coordinate."""
        out = []
        for q, c in enumerate(self.coords):
            v = z[..., q]
            if c.kind == "logistic":
                out.append(c.lower + (c.upper - c.lower) / (1.0 + jnp.exp(-v)))
            elif c.kind == "exp":
                out.append(c.lower + jnp.exp(v))
            else:
                out.append(v)
        return out

    def jax_predictions(self) -> Callable[..., Any]:
        """``f(*kernel_values) -> (T, S)``: the predictions of every trial of the task (task order) at ``S``
        points, in ``jax.numpy`` (the factored program of the grid compiler), float64."""
        import jax

        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp

        cr = self.compiled
        syms = tuple(cr._result.free_symbols)
        gens = sp.lambdify(syms, list(cr._gens), modules="jax") if cr._gens else None
        coefficients = jnp.asarray(self.coefficients.T)
        consts = [float(c) for c in cr._const_float]
        index, sign = np.asarray(cr._trial_rational), jnp.asarray(np.asarray(cr._trial_sign, dtype=float))

        def predictions(*values: Any) -> Any:
            size = values[0].shape[0] if values else self.S
            rats = []
            factors: Any = None
            if gens is not None:
                g = [jnp.broadcast_to(v, (size,)) for v in gens(*values)]
                cols = []
                for exps in cr._monomials:
                    row = jnp.ones(size)
                    for q, e in enumerate(exps):
                        if e:
                            row = row * g[q] ** e
                    cols.append(row)
                factors = jnp.stack(cols, axis=1) @ coefficients  # (size, n_factors)
            for r, rat in enumerate(cr._rationals):
                v = jnp.full(size, consts[r])
                for q, e in rat.powers:
                    v = v * factors[:, q] ** e
                rats.append(v)
            return jnp.stack(rats)[index] * sign[:, None]

        return predictions

    def jax_loglik(self) -> Callable[[Any], Any]:
        """``loglik(z) -> float``: ``sum_s log L_s(z_s)`` for ``z`` of shape ``(S, d)``, in ``jax.numpy``
        (``log L = const - sum k softplus(-eta) + (n - k) softplus(eta)``, ``eta = beta f``, as
        :meth:`LikelihoodModel.loglik_natural`), compiled with ``jax.jit``."""
        import jax
        import jax.numpy as jnp

        f_all = self.jax_predictions()
        k, n, subject, trial = (jnp.asarray(self.k), jnp.asarray(self.n), np.asarray(self.subject),
                                np.asarray(self.trial))
        beta = [c.name for c in self.coords].index("beta")

        def loglik(z: Any) -> Any:
            nat = self.natural(z, jnp)
            f = f_all(*[nat[q] for q in self.arguments])
            eta = nat[beta][subject] * f[trial, subject]
            return self.const - jnp.sum(k * jax.nn.softplus(-eta) + (n - k) * jax.nn.softplus(eta))

        return jax.jit(loglik)  # one compilation, also where NumPyro runs the model eagerly (its initialisation)

    def numpyro_model(self, mu_scale: float, tau_scale: float) -> Callable[[], None]:
        """The NumPyro model of the module docstring (sites ``mu`` (d,), ``tau`` (d,), ``e`` (S, d), and the
        deterministic ``z`` (S, d))."""
        import numpyro
        import numpyro.distributions as dist

        loglik = self.jax_loglik()
        S, d = self.S, self.d

        def model() -> None:
            mu = numpyro.sample("mu", dist.Normal(0.0, mu_scale).expand([d]).to_event(1))
            tau = numpyro.sample("tau", dist.HalfNormal(tau_scale).expand([d]).to_event(1))
            e = numpyro.sample("e", dist.Normal(0.0, 1.0).expand([S, d]).to_event(2))
            z = numpyro.deterministic("z", mu + tau * e)
            numpyro.factor("loglik", loglik(z))

        return model


def check_models(models: Sequence[LikelihoodModel]) -> None:
    """Refuse what the Bayesian fit does not model (scores, lapses, biases) with one line."""
    if any(not m.choice for m in models):
        raise ParameterError("a hierarchical fit models choices (binomial); these data are real scores")
    if any(not m.response.plain for m in models):
        raise ParameterError("the Bayesian hierarchical fit has the response P = sigmoid(beta f) (no lapse, no bias)")
