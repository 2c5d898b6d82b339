"""Fits of the network families whose closed forms have irrational coefficients (issue 13 review, item 1): the
grid compiler behind the fitted predictions must evaluate them. pnas-ntk on n = 5 has numerators whose
coefficients mix ``pi`` and ``sqrt(3)`` (sympy's domain EX), which it once passed on as "constants" containing
the parameter ``slope``, so that ``float`` failed."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from symbolic_ti import derive
from symbolic_ti.numeric.grid import compile_result


def test_pnas_ntk_compiles_and_matches_direct_substitution():
    r = derive(5, family="pnas-ntk")
    c = compile_result(r)
    assert set(c.parameters) == {"lambda", "slope"}
    point = {"lambda": 0.37, "slope": 0.6}
    got = c.evaluate(**{k: np.array([v]) for k, v in point.items()}).values[:, 0]
    subs = {s: sp.Rational(str(point[s.name])) for s in r.free_symbols}
    want = [float(sp.N(r.predictions[t].subs(subs), 30)) for t in c.trials]  # exact substitution, then 30 digits
    assert got == pytest.approx(want, rel=1e-10, abs=1e-12)
