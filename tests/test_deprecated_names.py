"""Names that modules kept from before a move (symbolic_ti.deprecation.moved_names): still importable, the same
objects as in their new home, with a DeprecationWarning naming it; nothing else is served."""

from __future__ import annotations

import importlib
import warnings

import pytest

CASES = [
    ("symbolic_ti.analysis.crossings", "Task", "symbolic_ti.task"),
    ("symbolic_ti.analysis.crossings", "exact_number", "symbolic_ti.arguments"),
    ("symbolic_ti.analysis.crossings", "Parameter", "symbolic_ti.families.base"),
    ("symbolic_ti.analysis.conjunctivity", "rank_solution", "symbolic_ti.solvers.laplacian"),
    ("symbolic_ti.analysis.conjunctivity", "TaskError", "symbolic_ti.errors"),
    ("symbolic_ti.export.notebook", "general_to_latex", "symbolic_ti.export.general"),
]


@pytest.mark.parametrize("old, name, home", CASES)
def test_a_moved_name_still_imports_with_a_warning(old, name, home):
    module = importlib.import_module(old)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(home), name)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert home in str(caught[0].message) and "0.3" in str(caught[0].message)


def test_other_names_are_not_served():
    import symbolic_ti.analysis.crossings as crossings

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        crossings.nothing_here  # noqa: B018


def test_the_two_mu_are_two_symbols():
    """The conventions' ``mu`` (``cosh(mu) = (1 + lambda) / (1 - alpha)``, CONVENTIONS.md) and the dynamics'
    eigenvalue variable are different quantities: one Symbol each, both in symbols.py; the old name ``MU`` of the
    eigenvalue variable is served with a warning."""
    from symbolic_ti import dynamics, symbols as S
    from symbolic_ti.analysis.general import variables

    assert variables.mu is S.mu and S.mu.is_positive
    assert dynamics.EIGENVALUE is S.nu and S.nu.name == "nu" and S.nu != S.mu
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert dynamics.MU is S.nu
    assert caught and "symbolic_ti.symbols.nu" in str(caught[0].message)


def test_the_dynamics_json_names_its_eigenvalue_variable():
    """Format version 3 of symbolic_ti.dynamics: the mode groups' factors are polynomials in the named variable.
    4 items, no exception, alpha = 0: the modes are the eigenvalues of the path's Laplacian that carry weight in
    ``b`` = wins - losses of each item (docs/theory.md, "Gradient flow in Laplacian modes"); numpy gives them here,
    and each is a root of a factor of the report."""
    import numpy as np
    import sympy as sp

    from symbolic_ti.dynamics import dynamics
    from symbolic_ti.export.dynamics import dynamics_to_dict

    out = dynamics_to_dict(dynamics(4, [], parameters={"alpha": 0}))
    assert out["meta"]["format_version"] == 3 and out["eigenvalue_symbol"] == "nu"
    nu = sp.Symbol("nu")
    factors = {sp.sympify(g["factor"]["text"] if isinstance(g["factor"], dict) else g["factor"], {"nu": nu})
               for g in out["groups"]}
    lap = np.diag([1.0, 2.0, 2.0, 1.0]) - np.diag([1.0] * 3, 1) - np.diag([1.0] * 3, -1)
    values, vectors = np.linalg.eigh(lap)
    b = np.array([1.0, 0.0, 0.0, -1.0])  # item 1 wins (1, 2), item 4 loses (3, 4)
    weighted = [v for v, w in zip(values, vectors.T @ b, strict=True) if abs(w) > 1e-9 and v > 1e-9]
    assert len(weighted) == 2  # 2 -+ sqrt(2): the even modes are orthogonal to the antisymmetric b
    for v in weighted:
        assert any(abs(float(f.subs(nu, v))) < 1e-9 for f in factors), (v, factors)
