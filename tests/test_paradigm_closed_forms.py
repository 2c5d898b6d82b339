"""Closed forms of symbolic_ti.analysis.general.paradigms (docs/paradigms.md) against a Gram solve built here
from the kernel's definition (docs/conventions.md), and against the hand-derived additive ridgeless limit.

derivations/paradigms.py runs the same comparisons at many more sizes; these are a few cheap cases.
"""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic_ti import Exchangeable, Task, TaskError, solve
from symbolic_ti.analysis import general as G

R = sp.Rational


def _dense(task: Task, alpha: sp.Rational, ridge: sp.Rational) -> dict[tuple[int, int], sp.Rational]:
    """f on every ordered trial: (K + lambda I) c = y over both orders of each trained comparison, kappa_d = 0."""
    pos = [(c.winner, c.loser) for c in task.comparisons]
    rows = pos + [(b, a) for a, b in pos]
    y = sp.Matrix([1] * len(pos) + [-1] * len(pos))

    def k(t, s):
        a, b = t[0] == s[0], t[1] == s[1]
        return (1 - alpha) / 2 * (int(a) + int(b)) + alpha * int(a and b)

    K = sp.Matrix([[k(t, s) for s in rows] for t in rows])
    c = (K + ridge * sp.eye(len(rows))).LUsolve(y)
    n = task.n
    return {(i, j): sp.cancel(sum(c[m] * k((i, j), s) for m, s in enumerate(rows)))
            for i in range(1, n + 1) for j in range(1, n + 1) if i != j}


@pytest.mark.parametrize("name,n", [("transverse-patterning", 4), ("transverse-patterning", 7),
                                    ("banded-transverse-patterning", 7)])
def test_transverse_patterning_margin_is_the_memorized_share(name, n):
    task = Task.paradigm(name, n=n)
    alpha, ridge = R(1, 5), R(1, 10)
    want = G.transverse_patterning_margin(alpha, ridge, 0)
    assert want == R(2, 3)
    d = _dense(task, alpha, ridge)
    trained = {(c.winner, c.loser) for c in task.comparisons}
    for t, val in d.items():
        if t in trained:
            assert val == want
        elif (t[1], t[0]) in trained:
            assert val == -want
        else:
            assert val == 0
    res = solve(task, Exchangeable(alpha=alpha, kappa_d=0), ridge, method="halved")
    assert dict(res.predictions) == d


@pytest.mark.parametrize("lengths,link", [((3, 4), (2, 3)), ((5, 5), (3, 3)), ((4, 2), (4, 1)), ((3, 3), None)])
def test_linked_lists_closed_form_against_the_gram_solve(lengths, link):
    p, _ = lengths
    links = [] if link is None else [f"{link[0]}>{p + link[1]}"]
    task = Task.paradigm("list-linking", lists=lengths, links=links)
    alpha, ridge = R(1, 10), R(1, 3)
    cf = G.evaluate_linked_lists(lengths, link, alpha, ridge)
    d = _dense(task, alpha, ridge)
    assert {t: cf.prediction(*t) for t in d} == d


def test_linked_lists_symbolic_rank_at_numbers():
    """The sinh form with symbolic p, q, u, v, k, evaluated at 40 digits, equals the exact ranks."""
    cf = G.evaluate_linked_lists((4, 3), (2, 2), R(1, 10), R(1, 10))
    x0 = G.cosh_mu(R(1, 10), R(1, 10), 0)
    m = sp.acosh(x0)
    for which, size, off in ((1, 4, 0), (2, 3, 4)):
        e = G.linked_lists_rank(which, G.k, "sinh").subs({G.p: 4, G.q: 3, G.u: 2, G.v: 2})
        for kk in range(1, size + 1):
            assert abs(sp.N(e.subs(G.k, kk).subs(G.mu, m), 40) - cf.ranks[off + kk - 1]) < 1e-35


def test_additive_ridgeless_limit_aligns_the_lists_at_the_link():
    # lists 5, 5 linked by C>H (3>8): hand-derived from exact fit on the tree, f(i, j') = (j - v) - (i - u) + 1
    res = solve(Task.paradigm("list-linking", lists=(5, 5), links=["3>8"]), Exchangeable(alpha=0, kappa_d=0),
                "ridgeless", method="halved")
    assert res.predictions[(2, 6)] == 0      # B vs F
    assert res.predictions[(5, 6)] == -3     # E vs F
    assert res.predictions[(1, 10)] == 5     # A vs J
    assert G.linked_lists_limit_ridgeless_additive(2, 1, 3, 3) == 0
    assert G.linked_lists_limit_ridgeless_additive(5, 1, 3, 3) == -3
    cf = G.evaluate_linked_lists((5, 5), (3, 3), 0, "ridgeless")
    assert cf.prediction(1, 10) == 5 and cf.prediction(3, 8) == 1


def test_invalid_link_is_one_clear_error():
    with pytest.raises(TaskError, match="u must lie in 1..5"):
        G.evaluate_linked_lists((5, 5), (6, 1), R(1, 10), R(1, 10))
    with pytest.raises(TaskError, match="list length"):
        G.evaluate_linked_lists((1, 5), None, R(1, 10), R(1, 10))
