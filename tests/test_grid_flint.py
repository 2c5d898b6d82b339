"""Grid compilation through FLINT's factorization (numeric/grid_poly.py) against sympy's path and exact values."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import derive
from symbolic_ti import symbols as S
from symbolic_ti.numeric import grid_compile
from symbolic_ti.numeric.grid import compile_result
from symbolic_ti.numeric.grid_poly import flint_factored


@pytest.mark.parametrize("args", [(6, ["5>2"], {}), (5, ["4>2"], {"family": "geometric", "ridge": "1/3"}),
                                  (5, ["4>2"], {"ridge": "ridgeless"})])
def test_flint_compile_matches_sympy_compile_and_exact_values(args, monkeypatch):
    n, exc, kw = args
    r = derive(n, exc, **kw)
    syms = r.free_symbols
    assert flint_factored(r, tuple(r.task.trials), syms) is not None  # the FLINT path applies
    fast = compile_result(r)
    monkeypatch.setattr(grid_compile, "flint_factored", lambda *a: None)
    slow = compile_result(r)
    rng = np.random.default_rng(3)
    pts = {s.name: rng.uniform(0.05, 0.9, 7) for s in syms}
    a, b = fast.evaluate(**pts).values, slow.evaluate(**pts).values
    assert np.allclose(a, b, rtol=1e-12, atol=1e-14)
    for k in range(3):  # exact values at rational points (independent of both compilers)
        point = {s: sp.Rational(int(pts[s.name][k] * 1000), 1000) for s in syms}
        q = {s.name: np.array([float(v)]) for s, v in point.items()}
        got = fast.evaluate(**q).values[:, 0]
        want = np.array([float(r.f(*t).subs(point)) for t in r.task.trials])
        assert np.allclose(got, want, rtol=1e-10, atol=1e-13)


def test_constants_as_generators_use_sympy_path():
    r = derive(4, ["3>1"], family="relu-ntk")  # pi and sqrt(3) in the coefficients, lambda symbolic
    assert flint_factored(r, tuple(r.task.trials), r.free_symbols) is None
    c = compile_result(r, trials=[(1, 4)])
    lam = sp.Rational(1, 5)
    got = c.evaluate(**{"lambda": np.array([0.2])}).values[0, 0]
    assert got == pytest.approx(float(r.f(1, 4).subs(S.ridge, lam)), rel=1e-12)
