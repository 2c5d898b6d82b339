"""The conventions' sympy Symbols, created once so that every module shares the same objects.

See ``docs/conventions.md``. The ridge Symbol is named ``lambda`` so that LaTeX shows ``\\lambda``.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["alpha", "ridge", "kappa_o", "kappa_d", "n", "rho", "beta", "delta", "gamma", "t", "symbol_by_name"]

#: Conjunctivity factor, in [0, 1].
alpha = sp.Symbol("alpha", nonnegative=True)
#: Ridge (regularization on the sum of squared errors), >= 0.
ridge = sp.Symbol("lambda", nonnegative=True)
#: Exchangeable kernel between trials that share exactly one position's item.
kappa_o = sp.Symbol("kappa_o", nonnegative=True)
#: Exchangeable kernel between trials that share no position's item.
kappa_d = sp.Symbol("kappa_d", nonnegative=True)
#: Number of items.
n = sp.Symbol("n", integer=True, positive=True)
#: Geometric item similarity decay, S_ik = rho^|i-k|, in [0, 1).
rho = sp.Symbol("rho", nonnegative=True)
#: Weight of the cross-position similarity (S_il + S_jk)/2, in [0, 1].
beta = sp.Symbol("beta", nonnegative=True)
#: Weight of the swapped conjunction S_il S_jk, in [0, 1].
delta = sp.Symbol("delta", nonnegative=True)
#: The effective ridge of the rank problem of the graph-Laplacian reduction, ``\gamma`` in LaTeX
#: (``symbolic_ti.solvers.laplacian.GAMMA``).
gamma = sp.Symbol("gamma", nonnegative=True)
#: The training time of gradient flow (``symbolic_ti.dynamics.TIME``).
t = sp.Symbol("t", nonnegative=True)
#: The conventions' ``mu > 0`` of the closed forms without exceptions (Lippl et al., PNAS 2024; CONVENTIONS.md):
#: ``cosh(mu) = (1 + lambda) / (1 - alpha)``, in the rank problem ``cosh(mu) = 1 + gamma / 2``
#: (``symbolic_ti.analysis.general.variables.mu``, docs/general_n.md).
mu = sp.Symbol("mu", positive=True)
#: The eigenvalue variable of the Gram matrix's mode groups in gradient flow: each group's eigenvalues are the
#: roots of one polynomial in ``nu`` (``symbolic_ti.dynamics.EIGENVALUE``, docs/dynamics.md). Not ``mu``, which
#: the conventions give to the closed forms above.
nu = sp.Symbol("nu")

_BY_NAME = {"alpha": alpha, "lambda": ridge, "ridge": ridge, "kappa_o": kappa_o, "kappa_d": kappa_d, "n": n,
            "rho": rho, "beta": beta, "delta": delta}


def symbol_by_name(name: str) -> sp.Symbol:
    """Return the shared Symbol called ``name`` ("alpha", "lambda" or "ridge", "kappa_o", "kappa_d", "n", "rho",
    "beta", "delta").

    Raises
    ------
    KeyError
        If no convention Symbol has that name.
    """
    return _BY_NAME[name]
