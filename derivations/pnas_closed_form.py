"""Reproduce the PNAS closed form (Lippl et al., PNAS 2024) from the general-n results of symbolic_ti.analysis.general.

Shows, and prints:

1. the path's continuants are Chebyshev polynomials: ``theta_k = U_k(x) - U_{k-1}(x) = cosh((k+1/2) mu)/cosh(mu/2)``
   and ``theta_n = gamma U_{n-1}(x) = 2 sinh(n mu) tanh(mu/2)``, for symbolic k and n;
2. the rank vector without exception solves the rank system for symbolic n, in both forms, and the two forms
   are equal;
3. ``r_i - r_j`` equals the PNAS formula for symbolic n, i, j (``sympy.simplify`` of the difference is 0, and
   the difference is identically 0 as a rational function of independent exponentials);
4. numerically, for several n up to 40, the PNAS formula evaluated with mpmath equals an independent mpmath
   Gram-matrix solve (``numeric_predictions``, 50 digits) on every test trial for n <= 16 and on the trials
   with first item 1, 2 or n//2 for larger n;
5. the limits: ``alpha, lambda -> 0`` gives ``f(i, j) = j - i``; ``alpha -> 1`` gives 0;
6. with the same technique, the one-exception closed form solves every row of its rank system for symbolic
   n, L, D (a proof for every n), and its two forms are equal.

Derivations: docs/general_n.md. Usage: python derivations/pnas_closed_form.py [--quick]
(``--quick`` skips the Chebyshev = sinh check of part 6, about 10 s).
"""

from __future__ import annotations

import argparse
import time

import mpmath
import sympy as sp

from symbolic_ti import Exchangeable, Task, numeric_predictions
from symbolic_ti.analysis import general as G
from symbolic_ti import symbols as SY

mu, n, i, j, k = G.mu, G.n, G.i, G.j, G.k
_SYMS = (G.n, G.L, G.D, G.k, G.i, G.j)
_GEN = {s: sp.Symbol(f"E_{s}", positive=True) for s in _SYMS}
_GEN_HALF = sp.Symbol("E_half", positive=True)


def to_generators(expr: sp.Expr) -> sp.Expr:
    """Write ``expr`` as a rational function of independent generators ``E_half = e^{mu/2}``, ``E_n = e^{n mu/2}``...

    ``chebyshevu(a, x)`` becomes ``sinh((a+1) mu) / sinh(mu)`` (the classical identity
    ``U_a(cosh mu) = sinh((a+1) mu)/sinh mu``, valid for every integer a), ``x`` becomes ``cosh(mu)``, hyperbolic
    functions become exponentials, and each ``exp(mu (c0 + sum_s c_s s))`` (``2 c`` integers) the monomial
    ``E_half^(2 c0) prod_s E_s^(2 c_s)``. An identity between the results, as rational functions, holds for all
    values of the integer symbols.
    """
    e = expr.replace(lambda z: isinstance(z, sp.chebyshevu),
                     lambda z: sp.sinh((z.args[0] + 1) * mu) / sp.sinh(mu))
    e = e.subs(G.x, sp.cosh(mu)).rewrite(sp.exp)

    def monomial(arg: sp.Expr) -> sp.Expr:
        p = sp.Poly(sp.expand(arg / mu), *_SYMS)
        if p.total_degree() > 1:
            raise ValueError(f"exponent not linear in the integer symbols: {arg}")
        out = _GEN_HALF ** int(2 * p.coeff_monomial(1))
        for s in _SYMS:
            c = 2 * p.coeff_monomial(s)
            if not c.is_integer:
                raise ValueError(f"exponent coefficient not a half-integer: {arg}")
            out *= _GEN[s] ** int(c)
        return out

    return e.replace(lambda z: isinstance(z, sp.exp), lambda z: monomial(z.args[0]))


def identically_zero(expr: sp.Expr) -> bool:
    """Whether ``expr`` is 0 as a rational function of the generators of :func:`to_generators`."""
    num, _ = sp.fraction(sp.together(to_generators(expr)))
    return sp.expand(num) == 0


def show(label: str, ok: bool, start: float) -> None:
    print(f"  [{'ok' if ok else 'FAILED'}] {label}  ({time.perf_counter() - start:.1f} s)")
    if not ok:
        raise SystemExit(f"check failed: {label}")


def part1() -> None:
    print("1. Continuants of Lap_path + gamma I, with x = cosh(mu) = 1 + gamma/2")
    t = time.perf_counter()
    show("theta_k = V_k(x) = U_k(x) - U_{k-1}(x) = cosh((k + 1/2) mu) / cosh(mu/2), symbolic k",
         identically_zero(G.path_continuant(k, "chebyshev") - G.path_continuant(k, "sinh")), t)
    show("theta_0 = 1, theta_1 = 1 + gamma", sp.expand(G.chebyshev_v(0)) == 1
         and sp.expand(G.chebyshev_v(1) - (1 + 2 * (G.x - 1))) == 0, t)
    show("recurrence theta_k = (2 + gamma) theta_{k-1} - theta_{k-2}",
         identically_zero(G.path_continuant(k, "sinh") - 2 * sp.cosh(mu) * G.path_continuant(k - 1, "sinh")
                          + G.path_continuant(k - 2, "sinh")), t)
    det_rec = (2 * sp.cosh(mu) - 1) * G.path_continuant(n - 1, "sinh") - G.path_continuant(n - 2, "sinh")
    show("theta_n = (1 + gamma) theta_{n-1} - theta_{n-2} = gamma U_{n-1}(x) = 2 sinh(n mu) tanh(mu/2)",
         identically_zero(det_rec - G.path_determinant("sinh"))
         and identically_zero(G.path_determinant("chebyshev") - G.path_determinant("sinh")), t)


def part2() -> None:
    print("2. Ranks without exception, r = (Lap_path + gamma I)^{-1} (e_1 - e_n)")
    print("   sinh form:      r_k =", G.rank_no_exception("sinh"))
    print("   chebyshev form: r_k =", G.rank_no_exception("chebyshev"))
    t = time.perf_counter()
    r = lambda kk: G.rank_no_exception("sinh", kk)  # noqa: E731
    c = sp.cosh(mu)
    show("row 1: (1 + gamma) r_1 - r_2 = 1", identically_zero((2 * c - 1) * r(1) - r(2) - 1), t)
    show("rows 1 < k < n: -r_{k-1} + (2 + gamma) r_k - r_{k+1} = 0",
         identically_zero(-r(k - 1) + 2 * c * r(k) - r(k + 1)), t)
    show("row n: (1 + gamma) r_n - r_{n-1} = -1", identically_zero((2 * c - 1) * r(n) - r(n - 1) + 1), t)
    show("chebyshev form = sinh form",
         identically_zero(G.rank_no_exception("chebyshev") - G.rank_no_exception("sinh")), t)


def part3() -> None:
    print("3. r_i - r_j equals the PNAS closed form (docs/conventions.md)")
    print("   PNAS: f(i, j) =", G.pnas_closed_form())
    t = time.perf_counter()
    diff = G.prediction_no_exception("sinh") - G.pnas_closed_form()
    show(f"sympy.simplify(r_i - r_j - PNAS) = {sp.simplify(diff)}", sp.simplify(diff) == 0, t)
    show("identically 0 as a rational function of e^{mu/2}, e^{n mu/2}, e^{i mu/2}, e^{j mu/2}",
         identically_zero(diff), t)
    den = sp.sinh((n + 1) * mu / 2) - sp.sinh((n - 1) * mu / 2)
    show("denominators: sinh((n+1) mu/2) - sinh((n-1) mu/2) = 2 cosh(n mu/2) sinh(mu/2)",
         identically_zero(den - 2 * sp.cosh(n * mu / 2) * sp.sinh(mu / 2)), t)
    show("parametrization: cosh(mu) = 1 + gamma/2 = (1 + lambda)/(1 - alpha) at kappa_d = 0",
         sp.simplify(G.cosh_mu(kappa_d=0) - (1 + SY.ridge) / (1 - SY.alpha)) == 0, t)


def part4(dps: int = 50) -> None:
    print(f"4. Numerically: PNAS formula (mpmath) against an mpmath Gram solve at {dps} digits: every test trial "
          "for n <= 16, the test trials with first item 1, 2 or n//2 for larger n")
    pnas = sp.lambdify((n, i, j, mu), G.pnas_closed_form(), modules="mpmath")
    cases = [(3, "1/2", "1/2"), (5, "1/2", "1/2"), (9, "1/10", "1/10"), (16, "3/10", "1"), (25, "0", "1/4"),
             (40, "1/7", "1/3")]
    for nn, a_text, l_text in cases:
        t = time.perf_counter()
        alpha, lam = sp.Rational(a_text), sp.Rational(l_text)
        task = Task(nn)
        trials = task.test_trials if nn <= 16 else [tr for tr in task.test_trials if tr[0] in (1, 2, nn // 2)]
        ref = numeric_predictions(task, Exchangeable(alpha=alpha), ridge=lam, precision=dps, trials=trials)
        with mpmath.workdps(dps):
            m0 = mpmath.acosh((1 + mpmath.mpf(lam.p) / lam.q) / (1 - mpmath.mpf(alpha.p) / alpha.q))
            err = max(abs(pnas(nn, a, b, m0) - ref[(a, b)]) for a, b in trials)
            print(f"  n={nn:2d} alpha={a_text:>4} lambda={l_text:>3}: {len(trials):4d} test trials, "
                  f"max |PNAS - Gram| = {mpmath.nstr(err, 3)}  ({time.perf_counter() - t:.1f} s)")
            if err > mpmath.mpf(10) ** (-dps + 10):
                raise SystemExit("numeric check failed")


def part5() -> None:
    print("5. Limits (taken as limits, never by substitution)")
    t = time.perf_counter()
    lim0 = G.limit_ridgeless_additive()
    show(f"lim_(mu -> 0) (r_i - r_j) = {lim0}  (alpha = 0, lambda -> 0: f(i, j) = j - i)",
         sp.simplify(lim0 - (j - i)) == 0, t)
    lim1 = G.limit_conjunctive()
    show(f"lim_(mu -> oo) (r_i - r_j) = {lim1}  (alpha -> 1: zero test margins)", lim1 == 0, t)


def part6(quick: bool) -> None:
    print("6. One exception W>L, W = L + D: the closed form solves its rank system for symbolic n, L, D")
    cf = G.exception_closed_form("sinh")
    rB, rI, rA = (lambda kk, reg=reg: cf.rank(reg).subs(k, kk) for reg in G.REGIONS)
    L, D = G.L, G.D
    W = L + D
    c = sp.cosh(mu)
    rows = {
        "rows inside 'before': homogeneous": -rB(k - 1) + 2 * c * rB(k) - rB(k + 1),
        "rows inside the cycle: homogeneous": -rI(k - 1) + 2 * c * rI(k) - rI(k + 1),
        "rows inside 'after': homogeneous": -rA(k - 1) + 2 * c * rA(k) - rA(k + 1),
        "row 1 (L >= 2)": (2 * c - 1) * rB(1) - rB(2) - 1,
        "row L (L >= 2)": -rB(L - 1) + (2 * c + 1) * rI(L) - rI(L + 1) - rI(W) + 1,
        "row 1 = L": (2 * c * rI(1) - rI(2) - rI(W)).subs(L, 1),
        "row W (W < n)": -rI(W - 1) + (2 * c + 1) * rI(W) - rA(W + 1) - rI(L) - 1,
        "row n = W": (2 * c * rI(n) - rI(n - 1) - rI(L)).subs(n, L + D),
        "row n (W < n)": (2 * c - 1) * rA(n) - rA(n - 1) + 1,
        "pieces agree at k = L": rB(L) - rI(L),
        "pieces agree at k = W": rI(W) - rA(W),
    }
    t = time.perf_counter()
    for name, expr in rows.items():
        show(name, identically_zero(expr), t)
    if not quick:
        cc = G.exception_closed_form("chebyshev")
        for reg in G.REGIONS:
            show(f"chebyshev form = sinh form, region {reg}", identically_zero(cc.rank(reg) - cf.rank(reg)), t)
    lim = G.exception_limit_ridgeless_additive()
    print("   additive ridgeless ranks (mu -> 0):")
    for reg, v in lim.items():
        print(f"     {reg:6s}: r_k = {v}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slow Chebyshev = sinh check of part 6")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    part1()
    part2()
    part3()
    part4()
    part5()
    part6(args.quick)
    print(f"All checks passed in {time.perf_counter() - start:.1f} s.")


if __name__ == "__main__":
    main()
