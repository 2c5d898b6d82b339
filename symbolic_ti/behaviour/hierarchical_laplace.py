r"""The numerical core of the hierarchical fit (:mod:`symbolic_ti.behaviour.hierarchical`): the Laplace
approximation of the marginal likelihood, its maximisation (empirical Bayes), the observed information on
``(mu, log tau)`` and the posterior predictive draws.

Model (docs/fitting.md, "Hierarchical fits"). Subject ``s`` has parameters ``z_s`` on the fitted scale of
:class:`~symbolic_ti.behaviour.model.Coord` (logit of ``alpha``, log of the ridge and of ``beta``), drawn from
the population ``z_s ~ Normal(mu, diag(tau^2))``; its choices have the likelihood ``L_s(z_s)`` of its own
:class:`~symbolic_ti.behaviour.model.LikelihoodModel` (the same as :func:`~symbolic_ti.behaviour.fitting.fit`).
The marginal likelihood ``p(y | mu, tau) = prod_s integral L_s(z) N(z; mu, tau) dz`` is approximated subject by
subject around the conditional mode ``z_s*`` (the maximum of ``log L_s + log N``) by Laplace's method (Tierney &
Kadane, JASA 81, 1986; Kass & Steffey, JASA 84, 1989, for empirical Bayes)::

    log p_s ~ log L_s(z*) + log N(z*; mu, tau) + (d/2) log 2 pi - (1/2) log det H_s,
    H_s = J_s(z*) + diag(1 / tau^2),   J_s = -d^2 log L_s / dz^2

``J_s`` and the gradient of ``log L_s`` by central differences (step :data:`HESSIAN_STEP`); the conditional
modes by scipy's ``trust-exact``, the population ``(mu, log tau)`` and the pooled start by scipy's L-BFGS-B (as
the fit's), with the gradient of :meth:`Population.modes`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .model import LikelihoodModel
from .optimize import scipy_optimize, starting_points
from ..formatting import rounded

__all__ = ["Population", "Modes", "LOG_TAU_BOUNDS", "HESSIAN_STEP"]

#: Optimiser box of ``log tau`` (``tau`` in ``[9.1e-4, 20]`` on the fitted scale): the lower end is complete pooling.
LOG_TAU_BOUNDS = (-7.0, 3.0)
#: Step of the central differences of a subject's log-likelihood, its gradient and Hessian (in ``z``).
HESSIAN_STEP = 1e-3
_INFO_STEP = 2e-3


@dataclass
class Modes:
    """The conditional modes at one ``(mu, tau)``.

    Attributes
    ----------
    z : ndarray, shape (S, d)
        The modes on the fitted scale.
    loglik : ndarray, shape (S,)
        ``log L_s(z_s*)``.
    information : ndarray, shape (S, d, d)
        ``J_s(z_s*)``, the observed information of each subject's own likelihood.
    posterior : ndarray, shape (S, d, d)
        ``H_s = J_s + diag(1/tau^2)``, the precision of the Laplace posterior of ``z_s``.
    terms : ndarray, shape (S,)
        The Laplace approximation of each subject's ``log p_s``.
    problems : list of str
        Inner optimisations that failed, a ``H_s`` that is not positive definite, a mode at the optimiser box.
    gradient : ndarray, shape (2 d,) or None
        ``d sum_s log p_s / d (mu, log tau)`` when asked for (:meth:`Population.modes`).
    """

    z: np.ndarray
    loglik: np.ndarray
    information: np.ndarray
    posterior: np.ndarray
    terms: np.ndarray
    problems: list[str]
    gradient: np.ndarray | None = None


class Population:
    """The subjects of a hierarchical fit: one :class:`LikelihoodModel` each, all of one family and ridge mode.

    Parameters
    ----------
    models : sequence of LikelihoodModel, length S >= 2
        Their coordinates (``coords``) must agree.
    names : sequence of str, length S
        The subjects' names (in messages).
    """

    def __init__(self, models: Sequence[LikelihoodModel], names: Sequence[str]) -> None:
        self.models = list(models)
        self.names = list(names)
        self.coords = self.models[0].coords
        self.d = len(self.coords)
        self.lo = np.array([c.zbounds[0] for c in self.coords])
        self.hi = np.array([c.zbounds[1] for c in self.coords])
        self._warm = np.zeros((len(self.models), self.d))

    @property
    def n_subjects(self) -> int:
        """``S``."""
        return len(self.models)

    # ------------------------------------------------------------------ one subject
    def negll(self, s: int, z: np.ndarray) -> float:
        """``-log L_s(z)`` (``1e300`` where not finite)."""
        return self.models[s].negll(z)

    def stencil(self, s: int, z: np.ndarray, h: float = HESSIAN_STEP) -> tuple[float, np.ndarray, np.ndarray]:
        """``-log L_s`` at ``z``, its gradient and its Hessian ``J_s(z)`` (shapes ``(d,)``, ``(d, d)``), all by
        central differences with step ``h`` (``1 + 2 d + 2 d (d - 1)`` evaluations)."""
        d = self.d
        f0 = self.negll(s, z)
        hess = np.zeros((d, d))
        e = np.eye(d) * h
        plus = [self.negll(s, z + e[k]) for k in range(d)]
        minus = [self.negll(s, z - e[k]) for k in range(d)]
        grad = np.array([(plus[k] - minus[k]) / (2 * h) for k in range(d)])
        for k in range(d):
            hess[k, k] = (plus[k] - 2 * f0 + minus[k]) / h ** 2
            for j in range(k):
                v = (self.negll(s, z + e[k] + e[j]) - self.negll(s, z + e[k] - e[j])
                     - self.negll(s, z - e[k] + e[j]) + self.negll(s, z - e[k] - e[j])) / (4 * h ** 2)
                hess[k, j] = hess[j, k] = v
        return f0, grad, hess

    def information(self, s: int, z: np.ndarray) -> np.ndarray:
        """``J_s(z)``, shape ``(d, d)``: the observed information of subject ``s``'s own likelihood."""
        return self.stencil(s, z)[2]

    def conditional_mode(self, s: int, mu: np.ndarray, tau: np.ndarray, z0: np.ndarray) -> tuple[np.ndarray, bool]:
        """The maximum of ``log L_s(z) + log N(z; mu, tau)`` from ``z0`` (scipy's ``trust-exact`` with the
        gradient and Hessian of :meth:`stencil`), and whether it converged (scipy reported success, or the gradient
        there is below ``1e-5``)."""
        opt = scipy_optimize()
        cache: dict[bytes, tuple[float, np.ndarray, np.ndarray]] = {}

        def parts(z: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
            key = z.tobytes()
            if key not in cache:
                cache.clear()
                f0, g, hs = self.stencil(s, z)
                r = (z - mu) / tau
                cache[key] = (f0 + 0.5 * float(r @ r), g + r / tau, hs + np.diag(1.0 / tau ** 2))
            return cache[key]

        x0 = np.clip(z0, self.lo, self.hi)
        res = opt.minimize(lambda z: parts(z)[0], x0, jac=lambda z: parts(z)[1], hess=lambda z: parts(z)[2],
                           method="trust-exact", options={"maxiter": 200, "gtol": 2e-5})
        z = np.asarray(res.x, dtype=float)  # (a start already at the mode ends "without success", gradient ~ 0)
        return z, bool(res.success) or float(np.max(np.abs(parts(z)[1]))) < 1e-4

    # ------------------------------------------------------------------ all subjects
    def modes(self, mu: np.ndarray, log_tau: np.ndarray, warm: bool = True, gradient: bool = False) -> Modes:
        """The conditional modes and the Laplace terms of every subject at ``(mu, log tau)``.

        ``warm``: start each subject from its previous mode (else from ``mu``); the modes found are kept as the
        next starts. ``gradient``: also the gradient of the sum of the terms in ``(mu, log tau)``, by the
        implicit function theorem at each mode (``dz*/dmu = H^{-1} diag(tau^-2)``, ``dz*/dlog tau_k =
        H^{-1} e_k 2 (z*_k - mu_k) / tau_k^2``) with ``d log det H / dz`` by central differences of the
        Hessian (step :data:`HESSIAN_STEP`): docs/fitting.md, "Hierarchical fits"."""
        tau = np.exp(log_tau)
        S, d = self.n_subjects, self.d
        z = np.zeros((S, d))
        ll = np.zeros(S)
        info = np.zeros((S, d, d))
        post = np.zeros((S, d, d))
        terms = np.zeros(S)
        grad = np.zeros(2 * d)
        problems: list[str] = []
        prior = np.diag(1.0 / tau ** 2)
        for s in range(S):
            zs, ok = self.conditional_mode(s, mu, tau, self._warm[s] if warm else mu)
            if not ok:
                problems.append(f"subject {self.names[s]}: the optimiser of the conditional mode did not report "
                                "success")
            boxed = [c.name for c, v, a, b in zip(self.coords, zs, self.lo, self.hi, strict=True)
                     if v <= a + 1e-6 or v >= b - 1e-6]
            if boxed:
                problems.append(f"subject {self.names[s]}: the conditional mode of {', '.join(boxed)} is at or "
                                "beyond the optimiser's box")
            self._warm[s] = np.clip(zs, self.lo, self.hi)
            f0, _, J = self.stencil(s, zs)
            H = J + prior
            sign, logdet = np.linalg.slogdet(H)
            if sign <= 0:
                w = np.linalg.eigvalsh(H)
                logdet = float(np.sum(np.log(np.maximum(w, 1e-12))))
                problems.append(f"subject {self.names[s]}: the Laplace precision H_s is not positive definite "
                                f"(smallest eigenvalue {rounded(float(w.min()), '.3g')}); clipped")
            r = (zs - mu) / tau
            ll[s] = -f0
            terms[s] = ll[s] - 0.5 * float(r @ r) - float(np.sum(log_tau)) - 0.5 * float(logdet)
            z[s], info[s], post[s] = zs, J, H
            if gradient:
                Hinv = np.linalg.inv(H)
                e = np.eye(d) * HESSIAN_STEP
                v = np.array([(np.linalg.slogdet(self.stencil(s, zs + e[j])[2] + prior)[1]
                               - np.linalg.slogdet(self.stencil(s, zs - e[j])[2] + prior)[1]) / (2 * HESSIAN_STEP)
                              for j in range(d)])
                hv = Hinv @ v
                grad[:d] += r / tau - 0.5 * hv / tau ** 2
                grad[d:] += r ** 2 - 1 + np.diag(Hinv) / tau ** 2 - hv * (zs - mu) / tau ** 2
        return Modes(z, ll, info, post, terms, problems, grad if gradient else None)

    def log_marginal(self, mu: np.ndarray, log_tau: np.ndarray) -> float:
        """The Laplace approximation of ``log p(y | mu, tau)`` (sum over subjects)."""
        return float(np.sum(self.modes(np.asarray(mu, float), np.asarray(log_tau, float)).terms))

    def pooled(self, starts: int, seed: int) -> np.ndarray:
        """The maximum of the pooled likelihood ``sum_s log L_s(z)`` (one ``z`` for all subjects): the start of
        ``mu``; ``starts`` starts as the fit's (:func:`~symbolic_ti.behaviour.optimize.starting_points`)."""
        opt = scipy_optimize()
        bounds = list(zip(self.lo, self.hi, strict=True))
        best: tuple[float, np.ndarray] | None = None
        for z0 in starting_points(self.models[0], starts, seed):
            res = opt.minimize(lambda z: sum(self.negll(s, z) for s in range(self.n_subjects)), z0,
                               method="L-BFGS-B", bounds=bounds, options={"maxiter": 500})
            if best is None or res.fun < best[0]:
                best = (float(res.fun), np.asarray(res.x, dtype=float))
        assert best is not None
        return best[1]

    # ------------------------------------------------------------------ the population
    def outer_bounds(self) -> list[tuple[float, float]]:
        """The optimiser box of ``(mu, log tau)``: the coordinates' own boxes, then :data:`LOG_TAU_BOUNDS`."""
        return list(zip(self.lo, self.hi, strict=True)) + [LOG_TAU_BOUNDS] * self.d

    def objective(self, x: np.ndarray, gradient: bool = False) -> tuple[float, np.ndarray]:
        """``-log p(y | mu, tau)`` at ``x = (mu, log tau)`` (shape ``(2 d,)``) and, with ``gradient``, its gradient
        (else zeros); ``1e300`` where it is not finite."""
        m = self.modes(x[:self.d], x[self.d:], gradient=gradient)
        value = -float(np.sum(m.terms))
        g = -m.gradient if m.gradient is not None else np.zeros(len(x))
        return (value, g) if math.isfinite(value) else (1e300, np.zeros(len(x)))

    def maximise(self, x0: np.ndarray) -> tuple[np.ndarray, float, bool, str]:
        """Maximise the marginal likelihood from ``x0`` (L-BFGS-B on :meth:`objective` with its gradient).

        Returns
        -------
        (x, -log p, success, message)
        """
        opt = scipy_optimize()
        bounds = self.outer_bounds()
        x0 = np.clip(np.asarray(x0, dtype=float), [b[0] for b in bounds], [b[1] for b in bounds])
        self._warm[:] = x0[:self.d]
        res = opt.minimize(lambda x: self.objective(x, gradient=True), x0, jac=True, method="L-BFGS-B",
                           bounds=bounds, options={"maxiter": 200, "gtol": 1e-4, "ftol": 1e-12})
        return np.asarray(res.x, dtype=float), float(res.fun), bool(res.success), str(res.message)

    def observed_information(self, x: np.ndarray, free: Sequence[int]) -> np.ndarray:
        """The observed information ``-d^2 log p / dx^2`` of the coordinates ``free`` of ``x = (mu, log tau)``:
        central differences (step ``2e-3``) of the gradient of :meth:`objective`, symmetrised, shape
        ``(len(free), len(free))``."""
        h = _INFO_STEP
        n = len(free)
        out = np.zeros((n, n))
        for a, k in enumerate(free):
            up, down = x.copy(), x.copy()
            up[k] += h
            down[k] -= h
            diff = (self.objective(up, gradient=True)[1] - self.objective(down, gradient=True)[1]) / (2 * h)
            out[a] = diff[list(free)]
        self.modes(x[:self.d], x[self.d:])  # the warm starts back at x
        return 0.5 * (out + out.T)

    def draws(self, modes: Modes, n_draws: int, seed: int) -> np.ndarray:
        """``n_draws`` draws of every subject's ``z`` from its Laplace posterior ``N(z*, H_s^{-1})`` (seed
        ``seed``), clipped to the optimiser box, shape ``(S, n_draws, d)``."""
        rng = np.random.default_rng(seed)
        out = np.zeros((self.n_subjects, n_draws, self.d))
        for s in range(self.n_subjects):
            cov = np.linalg.inv(modes.posterior[s])
            cov = 0.5 * (cov + cov.T)
            w, v = np.linalg.eigh(cov)
            root = v * np.sqrt(np.maximum(w, 0.0))
            out[s] = np.clip(modes.z[s] + rng.standard_normal((n_draws, self.d)) @ root.T, self.lo, self.hi)
        return out
