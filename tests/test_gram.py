"""symbolic_ti.gram: assembly of the ridge system against the kernel definition, written here independently.

References:

* the exchangeable kernel of ../shared/CONVENTIONS.md: ``K = 1`` for the same trial, ``kappa_o`` when exactly one
  position shares its item, ``kappa_d`` when none does; equivalently
  ``kappa_d + (1 - kappa_d) [(1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]]``;
* the item-similarity kernel of docs/families.md#similarity with ``beta = delta = 0``:
  ``K = (1 - alpha)/2 (S_ik + S_jl) + alpha S_ik S_jl``;
* the antisymmetric halving of docs/theory.md#antisymmetric-halving: rows are the positive-target training trials
  and ``H[p, q] = K(p, q) - K(p, swap q)``;
* the training set and the reference predictions of CONVENTIONS.md (tests/reference_cases.py), solved here by
  Gauss-Jordan elimination over Fractions, independent of symbolic_ti's solvers.
"""

from collections.abc import Mapping
from fractions import Fraction as F
from typing import Any

import pytest
import sympy as sp

from symbolic_ti import Exchangeable, Task
from symbolic_ti import symbols as S
from symbolic_ti.families import Embedding, Family, Geometric
from symbolic_ti.gram import GramSystem, build_system, is_swap_invariant, swap

from reference_cases import REFERENCE_CASES, solve_linear, training_set


def conventions_kernel(a, b, alpha, kappa_d=0):
    """CONVENTIONS.md: kappa_d + (1 - kappa_d) [(1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l]]."""
    first, second = int(a[0] == b[0]), int(a[1] == b[1])
    return kappa_d + (1 - kappa_d) * ((1 - alpha) * (first + second) / 2 + alpha * first * second)


def kappa_kernel(a, b, kappa_o, kappa_d):
    """CONVENTIONS.md: 1 for the same trial, kappa_o for one shared position, kappa_d for none."""
    shared = int(a[0] == b[0]) + int(a[1] == b[1])
    return 1 if shared == 2 else kappa_o if shared == 1 else kappa_d


def _frac(x: sp.Expr) -> F:
    assert x.is_Rational, x
    return F(int(x.p), int(x.q))


def _family(params):
    return Exchangeable(**{k: str(v) for k, v in params.items()})


def _kernel_of(params):
    if "kappa_o" in params:
        return lambda a, b: kappa_kernel(a, b, params["kappa_o"], params["kappa_d"])
    return lambda a, b: conventions_kernel(a, b, params["alpha"])


# ------------------------------------------------------------------ entries
@pytest.mark.parametrize("n, exceptions, params", [
    (4, (), {"alpha": F(0)}),
    (5, ((4, 2),), {"alpha": F(1, 3)}),
    (6, ((5, 2), (6, 4)), {"kappa_o": F(3, 5), "kappa_d": F(1, 3)}),
])
def test_full_system_entries_follow_the_kernel(n, exceptions, params):
    task = Task(n, [f"{w}>{l}" for w, l in exceptions])
    k = _kernel_of(params)
    system = build_system(task, _family(params), sp.Rational(1, 7), halved=False)
    train = training_set(n, exceptions)
    rows = [t for t, _ in train]
    assert isinstance(system, GramSystem) and not system.halved
    assert system.rows == tuple(rows) and system.queries == task.trials
    assert system.domain == sp.QQ or system.domain == sp.ZZ
    gram, cross = system.gram.to_Matrix(), system.cross.to_Matrix()
    assert gram.shape == (len(rows), len(rows)) and cross.shape == (n * (n - 1), len(rows))
    for r, p in enumerate(rows):
        for c, q in enumerate(rows):
            assert _frac(gram[r, c]) == k(p, q), (p, q)
    for r, t in enumerate(task.trials):
        for c, q in enumerate(rows):
            assert _frac(cross[r, c]) == k(t, q), (t, q)
    assert [_frac(v) for v in system.targets.to_Matrix()] == [y for _, y in train]
    assert system.domain.to_sympy(system.ridge) == sp.Rational(1, 7)


@pytest.mark.parametrize("n, exceptions, params", [
    (4, (), {"alpha": F(1, 2)}),
    (7, ((5, 3),), {"alpha": F(1, 10)}),
    (6, ((5, 2),), {"kappa_o": F(3, 5), "kappa_d": F(1, 3)}),
])
def test_halved_system_entries_are_antisymmetrized(n, exceptions, params):
    task = Task(n, [f"{w}>{l}" for w, l in exceptions])
    k = _kernel_of(params)
    system = build_system(task, _family(params), None, halved=True)
    rows = [t for t, y in training_set(n, exceptions) if y == 1]
    assert system.halved and system.rows == tuple(rows) and system.ridge is None
    gram, cross = system.gram.to_Matrix(), system.cross.to_Matrix()
    for r, p in enumerate(rows):
        for c, q in enumerate(rows):
            assert _frac(gram[r, c]) == k(p, q) - k(p, (q[1], q[0])), (p, q)
    for r, t in enumerate(task.trials):
        for c, q in enumerate(rows):
            assert _frac(cross[r, c]) == k(t, q) - k(t, (q[1], q[0])), (t, q)
    assert all(v == 1 for v in system.targets.to_Matrix())


def test_symbolic_entries_are_polynomials_in_the_parameters():
    task = Task(5, ["4>2"])
    system = build_system(task, Exchangeable(), S.ridge, halved=True)  # alpha and lambda symbolic, kappa_d = 0
    assert system.domain.is_PolynomialRing and set(system.domain.symbols) == {S.alpha, S.ridge}
    assert system.domain.to_sympy(system.ridge) == S.ridge
    gram = system.gram.to_Matrix()
    for r, p in enumerate(system.rows):
        for c, q in enumerate(system.rows):
            expected = conventions_kernel(p, q, S.alpha) - conventions_kernel(p, (q[1], q[0]), S.alpha)
            assert sp.expand(gram[r, c] - expected) == 0, (p, q)


def test_algebraic_similarity_gets_an_algebraic_field():
    """Cosines of the vectors (1, 0), (1, 1), (0, 1): S_12 = S_23 = 1/sqrt(2), S_13 = 0."""
    fam = Embedding(vectors=[[1, 0], [1, 1], [0, 1]], alpha="1/3")
    c = 1 / sp.sqrt(2)
    s = sp.Matrix([[1, c, 0], [c, 1, c], [0, c, 1]])
    alpha = sp.Rational(1, 3)
    task = Task(3)
    system = build_system(task, fam, sp.Rational(1, 10), halved=False)
    assert system.domain.is_AlgebraicField and not system.domain.is_EX
    gram = system.gram.to_Matrix()
    for r, (i, j) in enumerate(system.rows):
        for col, (k, l) in enumerate(system.rows):
            s_ik, s_jl = s[i - 1, k - 1], s[j - 1, l - 1]
            expected = (1 - alpha) / 2 * (s_ik + s_jl) + alpha * s_ik * s_jl
            assert sp.radsimp(gram[r, col] - expected) == 0, ((i, j), (k, l))


def test_queries_choose_the_cross_rows():
    task = Task(6, ["5>2"])
    fam = Exchangeable(alpha="1/5")
    queries = ((1, 6), (6, 1), (2, 5))
    system = build_system(task, fam, sp.Integer(1), halved=True, queries=queries)
    cross = system.cross.to_Matrix()
    assert system.queries == queries and cross.shape == (3, len(task.positive_training))
    # a swap-invariant kernel gives K(swap t, p) - K(swap t, swap p) = -(K(t, p) - K(t, swap p))
    assert cross[1, :] == -cross[0, :]


# ------------------------------------------------------------------ solving the assembled system
@pytest.mark.parametrize("case", [c for c in REFERENCE_CASES if c[4] != "ridgeless"], ids=lambda c: c[0])
@pytest.mark.parametrize("halved", [True, False])
def test_assembled_system_gives_the_reference_values(case, halved):
    """f(t) = cross (K + lambda I)^-1 y, solved here over Fractions, equals CONVENTIONS.md."""
    _, n, excs, params, ridge, values = case
    system = build_system(Task(n, excs), _family(params), sp.Rational(ridge), halved,
                          queries=tuple(values))
    gram = [[_frac(v) for v in row] for row in system.gram.to_Matrix().tolist()]
    m = len(gram)
    lam = _frac(system.domain.to_sympy(system.ridge))
    a = [[gram[r][c] + (lam if r == c else 0) for c in range(m)] for r in range(m)]
    coef = solve_linear(a, [_frac(v) for v in system.targets.to_Matrix()])
    cross = [[_frac(v) for v in row] for row in system.cross.to_Matrix().tolist()]
    for row, (t, expected) in zip(cross, values.items(), strict=True):
        assert sum(x * c for x, c in zip(row, coef, strict=True)) == expected, t


# ------------------------------------------------------------------ swap invariance
class _PositionWeighted(Family):
    """K = [i=k] + 2 [j=l]: positive semidefinite, but the two positions weigh differently (not swap invariant)."""

    name = "position-weighted"
    parameters = ()
    swap_invariant = False

    def _kernel_expr(self, a, b, p: Mapping[str, sp.Expr]) -> sp.Expr:
        return sp.Integer(int(a[0] == b[0]) + 2 * int(a[1] == b[1]))

    def kernel_numeric(self, a, b, p: Mapping[str, Any]) -> Any:
        return float(int(a[0] == b[0]) + 2 * int(a[1] == b[1]))


class _Unordered(_PositionWeighted):
    """K = [{i, j} = {k, l}]: depends on the unordered pair only, so swap invariant."""

    name = "unordered"
    swap_invariant = True

    def _kernel_expr(self, a, b, p: Mapping[str, sp.Expr]) -> sp.Expr:
        return sp.Integer(int(set(a) == set(b)))


def test_swap():
    assert swap((1, 2)) == (2, 1) and swap((5, 3)) == (3, 5)


@pytest.mark.parametrize("family, expected", [
    (Exchangeable(), True),
    (Exchangeable(kappa_o="symbolic", kappa_d="symbolic"), True),
    (Geometric(rho="1/2", beta="1/5", delta="1/10"), True),
    (_PositionWeighted(), False),
    (_Unordered(), True),
])
def test_is_swap_invariant(family, expected):
    task = Task(5, ["5>3"])
    assert is_swap_invariant(task, family) is expected
