"""Every number of docs/paradigms.md: transverse patterning, linked lists, separate lists, trial frequencies.

Exchangeable family. Three independent computations are compared throughout:

* ``dense``: the Gram system built here from the kernel's definition (docs/conventions.md), every training
  trial in both orders, the weighted ridge ``(K + lambda C^-1) c = y`` for counts ``C`` (weighted least squares,
  docs/paradigms.md#frequencies), solved exactly in Fractions; and for integer counts the same with each trial's
  rows repeated ``count`` times (plain ridge);
* ``solve``: ``symbolic_ti.solve(task, family, ridge, method="halved")`` (uniform counts only);
* ``theory``: the rank system ``(Lap + gamma I) r = b`` (or its weighted form) and the closed forms of
  ``symbolic_ti.analysis.general.paradigms``.

Each printed line that the page quotes starts with a tag such as ``[TP1]``; a failed check raises SystemExit.
Usage: python derivations/paradigms.py [--quick] [--part transverse|linked|separate|frequencies ...] [--figure PNG]
(``--quick``: fewer sizes).
"""

from __future__ import annotations

import argparse
import itertools
import time
from fractions import Fraction as F

import mpmath
import numpy as np
import sympy as sp
from sympy.polys.matrices import DomainMatrix

from symbolic_ti import Exchangeable, Task, solve
from symbolic_ti import symbols as SY
from symbolic_ti.analysis import general as G

GAMMA = sp.Symbol("gamma", positive=True)
START = time.perf_counter()


def check(label: str, ok: bool) -> None:
    print(f"  [{'ok' if ok else 'FAILED'}] {label}")
    if not ok:
        raise SystemExit(f"check failed: {label}")


# ------------------------------------------------------------------ independent dense reference (Fractions)
def kernel(t: tuple[int, int], s: tuple[int, int], alpha: F, kappa_d: F) -> F:
    """Exchangeable kernel of docs/conventions.md: kappa_d + (1 - kappa_d)[(1-alpha)/2([i=k]+[j=l]) + alpha[i=k][j=l]]."""
    a, b = (t[0] == s[0]), (t[1] == s[1])
    return kappa_d + (1 - kappa_d) * ((1 - alpha) / 2 * (a + b) + alpha * (a and b))


def fraction_solve(m: list[list[F]], y: list[F]) -> list[F]:
    """Gauss-Jordan elimination in exact Fractions (the system is positive definite)."""
    n = len(y)
    a = [row[:] + [y[k]] for k, row in enumerate(m)]
    for c in range(n):
        piv = next(r for r in range(c, n) if a[r][c] != 0)
        a[c], a[piv] = a[piv], a[c]
        inv = 1 / a[c][c]
        a[c] = [x * inv for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                fac = a[r][c]
                a[r] = [x - fac * z for x, z in zip(a[r], a[c], strict=True)]
    return [a[k][n] for k in range(n)]


def dense(n: int, comps: list[tuple[int, int, F]], alpha: F, lam: F, kappa_d: F = F(0),
          repeat: bool = False) -> dict[tuple[int, int], F]:
    """f(i, j) on every ordered trial, from the Gram system of the definition (ridge lam > 0)."""
    rows: list[tuple[tuple[int, int], F, F]] = []  # (trial, target, weight)
    for w, lo, c in comps:
        for t, y in (((w, lo), F(1)), ((lo, w), F(-1))):
            if repeat:
                rows += [(t, y, F(1))] * int(c)
            else:
                rows.append((t, y, F(c)))
    k = [[kernel(t, s, alpha, kappa_d) for s, _, _ in rows] for t, _, _ in rows]
    for idx, (_, _, c) in enumerate(rows):
        k[idx][idx] += lam / c
    coef = fraction_solve(k, [y for _, y, _ in rows])
    return {(i, j): sum((cf * kernel((i, j), s, alpha, kappa_d) for cf, (s, _, _) in zip(coef, rows, strict=True)),
                        F(0))
            for i in range(1, n + 1) for j in range(1, n + 1) if i != j}


def dense_float(n: int, comps: list[tuple[int, int, float]], alpha: float, lam: float) -> dict:
    """The same in numpy floats (a second, independent implementation)."""
    trials = [(w, lo) for w, lo, _ in comps] + [(lo, w) for w, lo, _ in comps]
    y = np.array([1.0] * len(comps) + [-1.0] * len(comps))
    cinv = np.diag([1.0 / c for _, _, c in comps] * 2)

    def kk(t, s):
        a, b = t[0] == s[0], t[1] == s[1]
        return (1 - alpha) / 2 * (a + b) + alpha * (a and b)

    K = np.array([[kk(t, s) for s in trials] for t in trials])
    coef = np.linalg.solve(K + lam * cinv, y)
    return {(i, j): float(np.array([kk((i, j), s) for s in trials]) @ coef)
            for i in range(1, n + 1) for j in range(1, n + 1) if i != j}


def as_comps(task: Task) -> list[tuple[int, int, F]]:
    return [(c.winner, c.loser, F(int(sp.numer(c.count)), int(sp.denom(c.count)))) for c in task.comparisons]


def exact(x) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator) if isinstance(x, F) else sp.cancel(sp.sympify(x))


# ---------------------------------------------------------------------------- the rank system in gamma
def rank_system(n: int, comps: list[tuple[int, int]]) -> list[sp.Expr]:
    """r = (Lap + gamma I)^{-1} b as canceled rational functions of gamma (built from the edges)."""
    A = sp.zeros(n, n)
    b = sp.zeros(n, 1)
    for w, lo in comps:
        w, lo = w - 1, lo - 1
        A[w, w] += 1
        A[lo, lo] += 1
        A[w, lo] -= 1
        A[lo, w] -= 1
        b[w] += 1
        b[lo] -= 1
    M = DomainMatrix.from_Matrix(A + GAMMA * sp.eye(n)).to_field()
    B = DomainMatrix.from_Matrix(b).convert_to(M.domain)
    return [sp.cancel(x) for x in M.lu_solve(B).to_Matrix()]


def sign_profile(f: sp.Expr) -> tuple[sp.Expr, int, list[sp.Expr]]:
    """(limit at gamma -> 0+, sign for gamma -> oo, exact positive roots of the numerator, sorted)."""
    num, den = sp.fraction(sp.cancel(f))
    pn, pd = sp.Poly(num, GAMMA), sp.Poly(den, GAMMA)
    d0 = pd.eval(0)
    at0 = pn.eval(0) / d0 if d0 != 0 else sp.limit(f, GAMMA, 0, "+")
    big = int(sp.sign(pn.LC() * pd.LC())) if not pn.is_zero else 0
    roots = sorted({r for r in pn.real_roots() if r > 0}, key=lambda r: float(r)) if not pn.is_zero else []
    return at0, big, roots


def sign_between(f: sp.Expr, roots: list[sp.Expr]) -> list[int]:
    """Sign of f on each interval of (0, oo) cut at the roots (evaluated at rational midpoints)."""
    cuts = [sp.Integer(0)] + [sp.Rational(str(sp.N(r, 30))) for r in roots]
    pts = [(cuts[k] + cuts[k + 1]) / 2 for k in range(len(cuts) - 1)] + [cuts[-1] + 1]
    return [int(sp.sign(f.subs(GAMMA, x))) for x in pts]


def alpha_star(gs: sp.Expr, lam_prime: sp.Expr) -> sp.Expr:
    """alpha* = (gamma* - 2 lambda') / (gamma* + 2) (docs/theory.md#graph-laplacian-reduction)."""
    return (gs - 2 * lam_prime) / (gs + 2)


# ------------------------------------------------------------------------------------------- sections
def transverse(quick: bool) -> None:
    print("\n== transverse patterning and banded transverse patterning ==")
    # symbolic alpha, ridge: solve at several n
    for n in (3, 4, 5, 7) if quick else (3, 4, 5, 6, 7, 8):
        res = solve(Task.paradigm("transverse-patterning", n=n), Exchangeable(kappa_d=0), None, method="halved")
        share = G.transverse_patterning_margin(SY.alpha, SY.ridge, 0)
        train = {t for t in res.predictions if t[1] == t[0] % n + 1 or t[0] == t[1] % n + 1}
        ok_train = all(sp.simplify(res.predictions[t] - (share if t[1] == t[0] % n + 1 else -share)) == 0
                       for t in train)
        ok_test = all(sp.simplify(v) == 0 for t, v in res.predictions.items() if t not in train)
        check(f"[TP1] n={n}: symbolic alpha, lambda: every training margin alpha/(alpha+lambda), every test f = 0",
              ok_train and ok_test)
    # exact numbers at many n, against the independent dense solve
    sizes = range(3, 16) if quick else range(3, 31)
    for alpha, ridge in ((F(1, 10), F(1, 10)), (F(1, 2), F(1, 3)), (F(0), F(1, 2))):
        ok = True
        for n in sizes:
            task = Task.paradigm("transverse-patterning", n=n)
            want = alpha / (alpha + ridge)
            d = dense(n, as_comps(task), alpha, ridge)
            train = {(c.winner, c.loser) for c in task.comparisons}
            ok &= all(d[t] == (want if t in train else -want) for t in train | {(b, a_) for a_, b in train})
            ok &= all(v == 0 for t, v in d.items() if t not in train and (t[1], t[0]) not in train)
        check(f"[TP2] dense Gram solve, n = {sizes.start}..{sizes.stop - 1}, alpha={alpha}, lambda={ridge}: "
              f"training margin {alpha / (alpha + ridge)} = alpha/(alpha+lambda) for every n, test f = 0", ok)
    for n in (5, 7, 9, 12) if quick else (5, 7, 8, 9, 10, 12, 15, 20):
        task = Task.paradigm("banded-transverse-patterning", n=n)
        alpha, ridge = F(1, 5), F(1, 10)
        d = dense(n, as_comps(task), alpha, ridge)
        res = solve(task, Exchangeable(alpha=sp.Rational(1, 5), kappa_d=0), sp.Rational(1, 10), method="halved")
        train = {(c.winner, c.loser) for c in task.comparisons}
        want = alpha / (alpha + ridge)
        ok = all(d[t] == want for t in train) and all(v == 0 for t, v in d.items()
                                                      if t not in train and (t[1], t[0]) not in train)
        ok &= all(exact(d[t]) == res.predictions[t] for t in d)
        check(f"[TP3] banded TP n={n}, alpha=1/5, lambda=1/10: training margin {want}, test f = 0 "
              "(dense = solve halved)", ok)
    # kappa_d: rescaled ridge
    task = Task.paradigm("transverse-patterning", n=6)
    d = dense(6, as_comps(task), F(1, 5), F(1, 10), kappa_d=F(1, 3))
    check(f"[TP4] n=6, alpha=1/5, lambda=1/10, kappa_d=1/3: margin {d[(1, 2)]} = alpha/(alpha + lambda/(1-kappa_d)) "
          f"= {F(1, 5) / (F(1, 5) + F(1, 10) / (1 - F(1, 3)))}",
          d[(1, 2)] == F(1, 5) / (F(1, 5) + F(3, 20)))
    # gradient flow: y is an eigenvector of K with eigenvalue (1 - kappa_d) alpha
    al, kd = sp.symbols("alpha kappa_d")
    ok = True
    for name, sizes_ in (("transverse-patterning", range(3, 11)), ("banded-transverse-patterning", (5, 7, 8, 9, 10))):
        for n in sizes_:
            task = Task.paradigm(name, n=n)
            trials = list(task.positive_training) + [(lo, w) for w, lo in task.positive_training]
            y = sp.Matrix([1] * len(task.positive_training) + [-1] * len(task.positive_training))

            def ks(t, s):
                x1, x2 = (t[0] == s[0]), (t[1] == s[1])
                return kd + (1 - kd) * ((1 - al) / 2 * (int(x1) + int(x2)) + al * int(x1 and x2))

            K = sp.Matrix([[ks(t, s) for s in trials] for t in trials])
            ok &= sp.simplify(K * y - (1 - kd) * al * y) == sp.zeros(len(trials), 1)
    check("[TP5] K y = (1 - kappa_d) alpha y exactly (symbolic alpha, kappa_d), TP n = 3..10 and banded TP "
          "n = 5, 7..10: gradient flow gives f_train(t) = a/(a+lambda) (1 - exp(-(a+lambda) t)), a = (1-kappa_d) alpha",
          ok)


def linked(quick: bool) -> None:
    print("\n== two lists joined by one link ==")
    R = sp.Rational
    # (a) closed form = solve(halved) = dense, many sizes and link positions
    sizes = [(p, q) for p in range(2, 6) for q in range(2, 6)] if quick else \
        [(p, q) for p in range(2, 8) for q in range(2, 8)]
    params = ((F(1, 10), F(1, 10)), (F(1, 3), F(1, 2)), (F(0), F(1, 7)))
    count = 0
    ok = True
    for (p, q) in sizes:
        for u, v in itertools.product(range(1, p + 1), range(1, q + 1)):
            task = Task.paradigm("list-linking", lists=(p, q), links=[f"{u}>{p + v}"])
            for alpha, ridge in params:
                cf = G.evaluate_linked_lists((p, q), (u, v), exact(alpha), exact(ridge))
                d = dense(p + q, as_comps(task), alpha, ridge)
                ok &= all(exact(d[t]) == cf.prediction(*t) for t in d)
                count += 1
    check(f"[LL1] closed form (Green's functions + Sherman-Morrison) = dense Gram solve on every trial: "
          f"{len(sizes)} list-length pairs p, q in 2..{sizes[-1][0]}, every link u>v, 3 parameter points "
          f"({count} tasks)", ok)
    ok = True
    subset = [((5, 5), (5, 1)), ((5, 5), (3, 3)), ((7, 7), (4, 4)), ((9, 5), (2, 4)), ((4, 6), (1, 6))]
    for (p, q), (u, v) in subset:
        task = Task.paradigm("list-linking", lists=(p, q), links=[f"{u}>{p + v}"])
        for alpha, ridge in ((R(1, 10), R(1, 10)), (R(1, 2), "ridgeless"), (R(0), "ridgeless")):
            res = solve(task, Exchangeable(alpha=alpha, kappa_d=0), ridge, method="halved")
            cf = G.evaluate_linked_lists((p, q), (u, v), alpha, ridge)
            ok &= all(res.predictions[t] == cf.prediction(*t) for t in res.predictions)
    check("[LL2] closed form = solve(method='halved') on every trial, 5 designs x (1/10, 1/10), "
          "(1/2, ridgeless), (0, ridgeless)", ok)
    # (b) the symbolic sinh form at numbers, 30 digits
    ok = True
    for (p, q), (u, v) in (((5, 5), (3, 3)), ((6, 4), (2, 3)), ((7, 7), (7, 1))):
        cf = G.evaluate_linked_lists((p, q), (u, v), R(1, 10), R(1, 10))
        x0 = G.cosh_mu(R(1, 10), R(1, 10), 0)
        with mpmath.workdps(30):
            m = mpmath.acosh(mpmath.mpf(x0.p) / x0.q)
            for which, length, off in ((1, p, 0), (2, q, p)):
                e = G.linked_lists_rank(which, G.k, "sinh").subs({G.p: p, G.q: q, G.u: u, G.v: v})
                for kk in range(1, length + 1):
                    val = sp.N(e.subs(G.k, kk).subs(G.mu, sp.Float(str(m), 30)), 30)
                    ok &= abs(float(val) - float(cf.ranks[off + kk - 1])) < 1e-25
    check("[LL3] symbolic sinh form (Piecewise in k <= u) at 30 digits = exact ranks, 3 designs", ok)
    # (c) additive ridgeless limit: f(i, j') = (j - v) - (i - u) + 1
    ok = True
    for (p, q) in sizes:
        for u, v in itertools.product(range(1, p + 1), range(1, q + 1)):
            cf = G.evaluate_linked_lists((p, q), (u, v), 0, "ridgeless")
            for i, j in itertools.product(range(1, p + 1), range(1, q + 1)):
                if (i, j) != (u, v):
                    ok &= cf.prediction(i, p + j) == G.linked_lists_limit_ridgeless_additive(i, j, u, v)
    ok_solve = True
    for (p, q), (u, v) in subset:
        task = Task.paradigm("list-linking", lists=(p, q), links=[f"{u}>{p + v}"])
        res = solve(task, Exchangeable(alpha=0, kappa_d=0), "ridgeless", method="halved")
        for i, j in itertools.product(range(1, p + 1), range(1, q + 1)):
            if (i, j) != (u, v):
                ok_solve &= res.predictions[(i, p + j)] == (j - v) - (i - u) + 1
    check("[LL4] additive ridgeless (alpha = 0, lambda -> 0): cross-list f(i, j') = (j - v) - (i - u) + 1 "
          "(closed-form limit at every size above; solve(halved, ridgeless) on 5 designs)", ok and ok_solve)
    # (d) E>F: the same graph as TI with n = 10
    t_ll, t_ti = Task.paradigm("list-linking", lists=(5, 5), links=["5>6"]), Task(10)
    same = sorted((c.winner, c.loser) for c in t_ll.comparisons) == sorted((c.winner, c.loser)
                                                                          for c in t_ti.comparisons)
    ok = same
    for alpha, ridge in ((R(1, 10), R(1, 10)), (R(1, 3), "ridgeless")):
        a1 = solve(t_ll, Exchangeable(alpha=alpha, kappa_d=0), ridge, method="halved").predictions
        a2 = solve(t_ti, Exchangeable(alpha=alpha, kappa_d=0), ridge, method="halved").predictions
        ok &= all(a1[t] == a2[t] for t in a2)
    check("[LL5] lists 5,5 with link 5>6 (E>F) train exactly the comparisons of TI n = 10: identical predictions", ok)
    r10 = rank_system(10, [(i, i + 1) for i in range(1, 10)])
    gaps_ok = True
    means_ok = True
    for gv in (R(1, 100), R(1, 10), R(1), R(10), R(100)):
        rv = [x.subs(GAMMA, gv) for x in r10]
        gaps_ok &= all(rv[k] > rv[k + 1] for k in range(9))
        means = [sum(rv[i] - rv[i + d] for i in range(10 - d)) / (10 - d) for d in range(1, 10)]
        means_ok &= all(means[k] < means[k + 1] for k in range(1, 8))
    check("[LL6] merged list (TI n = 10): every rank gap r_k - r_(k+1) > 0 at gamma = 1/100..100, so a pair's "
          "margin exceeds that of every pair nested inside it; the mean test margin over pairs of distance d grows "
          "with d = 2..9 at these gamma (symbolic distance effect across the lists)", gaps_ok and means_ok)
    # (e) scan of every link position, 5 + 5 and 7 + 7
    for (p, q) in ((5, 5), (7, 7)):
        print(f"  [LL7] lists {p},{q}: cross-list trials (first-list item i beats second-list item j') "
              "predicted correct, per link u>v")
        print("        link   | f > 0 as gamma->0+ | f = 0 as gamma->0+ | correct for large gamma | sign change | "
              "correct for every gamma > 0")
        for u, v in itertools.product(range(1, p + 1), range(1, q + 1)):
            if (p, q) == (7, 7) and (u, v) not in ((7, 1), (4, 4), (7, 4), (4, 1), (1, 7)):
                continue
            edges = [(i, i + 1) for i in range(1, p)] + [(p + i, p + i + 1) for i in range(1, q)] + [(u, p + v)]
            r = rank_system(p + q, edges)
            c0 = cinf = z0 = sw = allg = 0
            tot = 0
            for i, j in itertools.product(range(1, p + 1), range(1, q + 1)):
                if (i, j) == (u, v):
                    continue
                tot += 1
                f = r[i - 1] - r[p + j - 1]
                at0, big, roots = sign_profile(f)
                signs = sign_between(f, roots)
                c0 += bool(at0 > 0)
                z0 += bool(at0 == 0)
                cinf += big > 0
                sw += len(roots) > 0
                allg += all(s > 0 for s in signs)
            print(f"        {u}>{p + v:<3}   | {c0:>2}/{tot}              | {z0:>2}                 | "
                  f"{cinf:>2}                     | {sw:>2}          | {allg:>2}")
    # (f) the middle link 3>8 in detail
    p = q = 5
    u, v = 3, 3
    edges = [(i, i + 1) for i in range(1, 5)] + [(5 + i, 5 + i + 1) for i in range(1, 5)] + [(3, 8)]
    r = rank_system(10, edges)
    print("  [LL8] lists 5,5 linked by 3>8 (C>H): sign of f(i, j') on (0, gamma*) and (gamma*, oo); letters A-E, F-J")
    for i, j in itertools.product(range(1, 6), range(1, 6)):
        if (i, j) == (3, 3):
            continue
        f = r[i - 1] - r[5 + j - 1]
        at0, big, roots = sign_profile(f)
        signs = sign_between(f, roots)
        if roots or at0 <= 0:
            rs = ", ".join(f"{float(x):.6f}" for x in roots)
            extra = ""
            if roots:
                g0 = roots[0]
                mp = sp.minimal_polynomial(g0, GAMMA)
                tail = (f"at lambda = 1/10: alpha* = {float(alpha_star(g0, R(1, 10))):.6f}" if g0 > R(1, 5) else
                        "at lambda = 1/10, gamma* < 2 lambda' = 1/5: the sign for gamma > gamma* holds for every alpha")
                extra = (f"; gamma* = root of {mp}; ridgeless alpha* = gamma*/(gamma*+2) = "
                         f"{float(alpha_star(g0, 0)):.6f}; {tail}")
            print(f"        ({'ABCDE'[i - 1]}, {'FGHIJ'[j - 1]}): limit at 0+ = {at0}, signs {signs}, "
                  f"gamma* = [{rs}]{extra}")
    # (g) the sign rule as gamma -> oo: leading term (b_i - b_j)/gamma
    ok = True
    for (u, v) in ((3, 3), (5, 3), (1, 5), (4, 2)):
        edges = [(i, i + 1) for i in range(1, 5)] + [(5 + i, 5 + i + 1) for i in range(1, 5)] + [(u, 5 + v)]
        r = rank_system(10, edges)
        bvec = [0] * 10
        for w, lo in edges:
            bvec[w - 1] += 1
            bvec[lo - 1] -= 1
        ok &= all(sp.limit(GAMMA * x, GAMMA, sp.oo) == bvec[k] for k, x in enumerate(r))
    check("[LL9] gamma -> oo: gamma r_k -> b_k (wins minus losses of item k), links 3>8, 5>8, 1>10, 4>7", ok)


def separate(quick: bool) -> None:
    print("\n== separate lists (no link) ==")
    R = sp.Rational
    ok = True
    for alpha, ridge in ((R(1, 10), R(1, 10)), (R(0), R(1, 2)), (R(1, 3), "ridgeless")):
        two = solve(Task.paradigm("list-linking", lists=(7, 7)), Exchangeable(alpha=alpha, kappa_d=0), ridge,
                    method="halved").predictions
        one = solve(Task(7), Exchangeable(alpha=alpha, kappa_d=0), ridge, method="halved").predictions
        for k, l in itertools.product(range(1, 8), range(1, 8)):
            want = 0 if k == l else (one[(k, l)] if abs(k - l) >= 2 else None)
            got = two[(k, 7 + l)]
            if want is not None:
                ok &= got == want
            else:  # adjacent positions: the premise pair's rank difference, without the memorized share
                cf = G.evaluate_linked_lists((7, 7), None, alpha, ridge)
                ok &= got == cf.ranks[k - 1] - cf.ranks[l - 1]
    check("[SL1] lists 7,7 separate: f(X_k, Y_l) = TI n=7 test prediction f(k, l) for |k - l| >= 2, 0 for k = l, "
          "r_k - r_l (no memorized share) for |k - l| = 1 (3 parameter points, solve halved)", ok)
    r7 = rank_system(7, [(i, i + 1) for i in range(1, 7)])
    ok = True
    for gv in (R(1, 1000), R(1, 10), R(1), R(10), R(1000)):
        rv = [x.subs(GAMMA, gv) for x in r7]
        ok &= all(rv[k] > rv[k + 1] for k in range(6))
    check("[SL2] ranks of a list trained alone strictly decrease with position (n = 7, gamma = 1/1000..1000; PNAS "
          "form: sinh is increasing): congruent derived pairs correct, incongruent wrong with the same |margin|", ok)
    # unequal lengths 9 and 5
    edges = [(i, i + 1) for i in range(1, 9)] + [(9 + i, 9 + i + 1) for i in range(1, 5)]
    r = rank_system(14, edges)
    at0s = [sp.limit(x, GAMMA, 0, "+") for x in r]
    print(f"  [UL1] lists 9,5, gamma -> 0+ ranks: 9-list {at0s[:9]}, 5-list {at0s[9:]} (centered positions)")
    letters9, letters5 = "ABCDEFGHI", "ABCDE"
    disagree, tie_rel, tie_abs, boundary = [], [], [], []
    for k, l in itertools.product(range(1, 10), range(1, 6)):
        absolute = (l > k) - (l < k)          # +1: the 9-list item beats the 5-list item (earlier absolute position)
        rel = (F(l - 1, 4) > F(k - 1, 8)) - (F(l - 1, 4) < F(k - 1, 8))
        if absolute == rel != 0:
            continue
        f = r[k - 1] - r[9 + l - 1]
        at0, big, roots = sign_profile(f)
        signs = sign_between(f, roots) if not sp.Poly(sp.fraction(sp.cancel(f))[0], GAMMA).is_zero else [0]
        row = (f"{letters9[k - 1]}9 vs {letters5[l - 1]}5", absolute, rel, at0, signs, roots)
        (disagree if absolute * rel < 0 else tie_abs if rel != 0 else tie_rel).append(row)
        boundary += roots
    for title, rows in (("absolute and relative position disagree", disagree),
                        ("same absolute position (relative: the 9-list item is earlier)", tie_abs),
                        ("same relative position (A9 vs A5: the same absolute position too)", tie_rel)):
        print(f"  [UL2] {title}:")
        for name, ab, rel, at0, signs, roots in rows:
            print(f"        {name}: absolute {ab:+d}, relative {rel:+d}; theory: limit at 0+ = {at0}, signs {signs} on "
                  f"(0, oo) cut at gamma* = {[round(float(x), 6) for x in roots]}")
    for name, (k9, l5) in (("H9 vs E5", (8, 5)), ("C9 vs B5", (3, 2))):
        f = sp.cancel(r[k9 - 1] - r[9 + l5 - 1])
        g_star = sign_profile(f)[2][0]
        print(f"  [UL3] {name}: gamma* = {float(g_star):.10f}, root of {sp.minimal_polynomial(g_star, GAMMA)}; ridgeless "
              f"alpha* = gamma*/(gamma*+2) = {float(alpha_star(g_star, 0)):.6f}; no boundary in alpha once "
              f"lambda' >= gamma*/2 = {float(g_star / 2):.6f}")
    ok = all(all(s > 0 for s in row[4][-1:]) for row in disagree) and all(
        all(s > 0 for s in row[4]) for row in disagree if not row[5] and row[3] >= 0)
    check("[UL4] on every pair where absolute and relative position disagree, the theory agrees with relative "
          "position for gamma > gamma*(H9 vs E5), and on all but H9-E5 for every gamma > 0",
          ok and all(not row[5] or row[0] == "H9 vs E5" for row in disagree))


def weighted_ranks(n: int, comps: list[tuple[int, int, F]], alpha: sp.Expr, lam: sp.Expr) -> list[sp.Expr]:
    """Ranks with counts: (B^T W B + 2 lambda'/(1-alpha) I) r = B^T W 1, w_e = c lambda'/(c alpha + lambda')."""
    A = sp.zeros(n, n)
    b = sp.zeros(n, 1)
    for w, lo, c in comps:
        we = exact(c) * lam / (exact(c) * alpha + lam)
        w, lo = w - 1, lo - 1
        A[w, w] += we
        A[lo, lo] += we
        A[w, lo] -= we
        A[lo, w] -= we
        b[w] += we
        b[lo] -= we
    M = DomainMatrix.from_Matrix(A + 2 * lam / (1 - alpha) * sp.eye(n)).to_field()
    B = DomainMatrix.from_Matrix(b).convert_to(M.domain)
    return [sp.cancel(x) for x in M.lu_solve(B).to_Matrix()]


def weighted_predictions(n, comps, alpha, lam, trials) -> dict:
    """f on the given trials from :func:`weighted_ranks` and the per-comparison memorized share."""
    r = weighted_ranks(n, comps, alpha, lam)
    out = {}
    for t in trials:
        d = r[t[0] - 1] - r[t[1] - 1]
        for w, lo, c in comps:
            if (w, lo) == t or (lo, w) == t:
                y = 1 if (w, lo) == t else -1
                d = d + exact(c) * alpha / (exact(c) * alpha + lam) * (y - d)
        out[t] = sp.cancel(d)
    return out


def frequencies(quick: bool) -> None:
    print("\n== frequencies (counts) ==")
    R = sp.Rational
    # (a) the weighted rank system = dense weighted solve = repeated rows
    ok = True
    designs = [(7, {(1, 2): 4, (6, 7): 4}), (7, {(3, 4): 4}), (9, {(6, 4): 3}), (5, {(1, 2): 2, (3, 4): F(1, 2)})]
    for n, counts in designs:
        base = [(i, i + 1) for i in range(1, n)] + ([(6, 4)] if n == 9 else [])
        comps = [(w, lo, F(counts.get((w, lo), 1))) for w, lo in base]
        for alpha, ridge in ((F(1, 10), F(1, 10)), (F(1, 2), F(1, 5))):
            d = dense(n, comps, alpha, ridge)
            integer = all(c.denominator == 1 for _, _, c in comps)
            rep = dense(n, comps, alpha, ridge, repeat=True) if integer else d
            r = weighted_ranks(n, comps, exact(alpha), exact(ridge))
            for t in d:
                dd = r[t[0] - 1] - r[t[1] - 1]
                for w, lo, c in comps:
                    if (w, lo) == t or (lo, w) == t:
                        y = 1 if (w, lo) == t else -1
                        dd = dd + exact(c) * exact(alpha) / (exact(c) * exact(alpha) + exact(ridge)) * (y - dd)
                ok &= exact(d[t]) == sp.cancel(dd) and d[t] == rep[t]
            fl = dense_float(n, [(w, lo, float(c)) for w, lo, c in comps], float(alpha), float(ridge))
            ok &= all(abs(fl[t] - float(d[t])) < 1e-12 for t in d)
    check("[FR1] counts: weighted rank system (memorized share c alpha/(c alpha + lambda'), edge weights "
          "c lambda'/(c alpha + lambda'), ridge 2 lambda'/(1 - alpha)) = dense (K + lambda C^-1) solve = repeated "
          "rows (integer counts) = numpy, 4 designs x 2 parameter points", ok)
    # (b) ridgeless: counts drop out
    lam = sp.Symbol("lambda", positive=True)
    ok = True
    for n, counts in designs[:3]:
        base = [(i, i + 1) for i in range(1, n)] + ([(6, 4)] if n == 9 else [])
        comps = [(w, lo, F(counts.get((w, lo), 1))) for w, lo in base]
        unif = [(w, lo, F(1)) for w, lo in base]
        trials = ((1, 3), (2, 5), (1, n), (3, 4))
        got = weighted_predictions(n, comps, R(1, 10), lam, trials)
        ref = weighted_predictions(n, unif, R(1, 10), lam, trials)
        ok &= all(sp.limit(got[t], lam, 0, "+") == sp.limit(ref[t], lam, 0, "+") for t in trials)
    check("[FR2] ridgeless (lambda -> 0+, alpha = 1/10): every prediction checked is the same with and without "
          "the counts (n = 7 massed ends, n = 7 massed 3>4, n = 9 with 6>4 counted 3)", ok)
    # (c) massed end pairs vs massed inner pair, n = 7, alpha = lambda = 1/10
    a, rr = R(1, 10), R(1, 10)
    print("  [FR3] n = 7, alpha = 1/10, lambda = 1/10 (kappa_d = 0): margins")
    rows = (("uniform", {}), ("ends x4 (1>2, 6>7)", {(1, 2): 4, (6, 7): 4}), ("inner x4 (3>4)", {(3, 4): 4}))
    trials = ((1, 2), (3, 4), (6, 7), (2, 4), (3, 5), (2, 6), (1, 7))
    print("        design               | " + " | ".join(f"f{t}" for t in trials))
    for name, counts in rows:
        comps = [(i, i + 1, F(counts.get((i, i + 1), 1))) for i in range(1, 7)]
        d = dense(7, comps, F(a.p, a.q), F(rr.p, rr.q))
        print(f"        {name:<20} | " + " | ".join(f"{float(d[t]):.4f}" for t in trials))
    # (d) n = 9, 6>4: f(3, 6) at lambda = 1/10 and its critical alpha, exception counted 1, 2, 4
    al = sp.Symbol("alpha", positive=True)
    print("  [FR4] n = 9, exception 6>4 counted c, lambda = 1/10: f(3, 6) at alpha = 1/10 and the alpha* where it "
          "changes sign")
    for c in (1, 2, 4):
        comps = [(i, i + 1, F(1)) for i in range(1, 9)] + [(6, 4, F(c))]
        val = dense(9, comps, F(1, 10), F(1, 10))[(3, 6)]
        f = weighted_predictions(9, comps, al, R(1, 10), [(3, 6)])[(3, 6)]
        num = sp.Poly(sp.fraction(f)[0], al)
        roots = [x for x in num.real_roots() if 0 < x < 1]
        brk = []
        for x in roots:
            lo_, hi_ = sp.Rational(str(sp.N(x, 12))) - R(1, 10 ** 8), sp.Rational(str(sp.N(x, 12))) + R(1, 10 ** 8)
            s1 = dense(9, comps, F(lo_.p, lo_.q), F(1, 10))[(3, 6)]
            s2 = dense(9, comps, F(hi_.p, hi_.q), F(1, 10))[(3, 6)]
            brk.append(s1 * s2 < 0)
        at0 = dense(9, comps, F(0), F(1, 10))[(3, 6)]
        print(f"        c = {c}: f(3,6) = {val} = {float(val):.5f}; at alpha = 0: {at0} = {float(at0):.5f}; "
              f"alpha* in (0, 1): "
              f"{[round(float(x), 6) for x in roots]} (dense sign change across each: {all(brk)})")
        if not all(brk):
            raise SystemExit("check failed: [FR4] sign change")


def figure(path: str) -> None:
    """docs/figures/paradigms_unequal_lists.png: ranks of a 9-item and a 5-item list against relative position."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    gammas = ((sp.Rational(1, 10 ** 6), "gamma = 1e-6 (near 0+)"), (sp.Rational(1, 10), "gamma = 1/10"), (sp.Integer(1), "gamma = 1"))
    fig, axes = plt.subplots(1, 3, figsize=(7.5, 2.4), sharey=False)
    for ax, (gv, title) in zip(axes, gammas, strict=True):
        for m, style in ((9, "o-"), (5, "s--")):
            r = [float(x.subs(GAMMA, gv)) for x in rank_system(m, [(i, i + 1) for i in range(1, m)])]
            ax.plot([(k - 1) / (m - 1) for k in range(1, m + 1)], r, style, ms=4, label=f"{m}-item list")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("relative position (k-1)/(m-1)", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].set_ylabel("rank r_k", fontsize=8)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print(f"  wrote {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes")
    parts = {"transverse": transverse, "linked": linked, "separate": separate, "frequencies": frequencies}
    ap.add_argument("--part", choices=tuple(parts), action="append", help="run only these sections (repeatable)")
    ap.add_argument("--figure", metavar="PNG", help="also draw the unequal-lists figure of the page to PNG")
    args = ap.parse_args()
    if args.figure:
        figure(args.figure)
    for name in args.part or parts:
        parts[name](args.quick)
        print(f"  ({time.perf_counter() - START:.0f} s)")


if __name__ == "__main__":
    main()
