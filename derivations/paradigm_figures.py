"""Figures of docs/paradigms.md and the numbers behind them (transverse patterning, list linking, frequencies),
and the comparison with the transverse-patterning runs of the PNAS 2024 code.

Usage: python derivations/paradigm_figures.py [--out docs/figures]

Writes docs/figures/paradigms_tp_margins.png, paradigms_list_linking.png and paradigms_frequencies.png and prints
every number the figures show, each line tagged ([TPF1], [LLF1], [FRF1], [PNAS1], ...). Every plotted value is an
exact solve of ``symbolic_ti`` on ``Task.paradigm(...)`` (``solve``, ``gradient_flow``) or a closed form of
``symbolic_ti.analysis.general`` that the script checks against such a solve before plotting.
"""

from __future__ import annotations

import argparse
import math
import os

import sympy as sp

from symbolic_ti import Exchangeable, Task, solve
from symbolic_ti.analysis import general as G
from symbolic_ti.dynamics import gradient_flow
from symbolic_ti.families import make_family

R = sp.Rational


def check(label: str, ok: bool) -> None:
    if not ok:
        raise SystemExit(f"check failed: {label}")


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# ------------------------------------------------------------------------------------ transverse patterning
def transverse(out: str) -> None:
    """(a) training margins against alpha for several n and ridges, TP and banded TP; gradient-flow margins."""
    plt = _plt()
    ridges = (R(1, 100), R(1, 10), R(1, 2))
    alphas = [R(k, 20) for k in range(0, 21)]
    sizes = (("transverse-patterning", 3), ("transverse-patterning", 5), ("transverse-patterning", 8),
             ("banded-transverse-patterning", 7), ("banded-transverse-patterning", 10))
    marks = [R(0), R(1, 10), R(1, 4), R(1, 2), R(3, 4), R(19, 20)]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(8.4, 3.2))
    for lam, color in zip(ridges, ("C0", "C1", "C2"), strict=True):
        curve = [float(G.transverse_patterning_margin(a, lam, 0)) for a in alphas]
        ax.plot([float(a) for a in alphas], curve, "-", color=color, lw=1.2, label=f"lambda = {lam}")
        for (name, n), marker in zip(sizes, ("o", "s", "^", "x", "+"), strict=True):
            task = Task.paradigm(name, n=n)
            w, l_ = task.comparisons[0].winner, task.comparisons[0].loser
            got = []
            for a in marks:
                res = solve(task, Exchangeable(alpha=a, kappa_d=0), lam)
                value = res.predictions[(w, l_)]
                check(f"[TPF1] {name} n={n} alpha={a} lambda={lam}", value == G.transverse_patterning_margin(a, lam, 0))
                test = [t for t in res.predictions if not task.categories[t].endswith("premise")
                        and task.categories[t] != "exception"]
                check(f"[TPF1] test trials 0, {name} n={n}", all(res.predictions[t] == 0 for t in test))
                got.append(float(value))
            ax.plot([float(a) for a in marks], got, marker, color=color, ms=4, mfc="none",
                    label=(f"{'TP' if name == 'transverse-patterning' else 'banded TP'} n = {n} (exact solve)"
                           if lam == ridges[0] else None))
        print(f"  [TPF1] lambda = {lam}: margin alpha/(alpha + lambda) at alpha = "
              + ", ".join(f"{a}: {float(G.transverse_patterning_margin(a, lam, 0)):.4f}" for a in marks)
              + "; equal to the exact solve of TP n = 3, 5, 8 and banded TP n = 7, 10 on every training trial, "
                "test trials 0")
    ax.set_xlabel("conjunctivity factor alpha")
    ax.set_ylabel("training margin f(W, L)")
    ax.set_title("ridge solution (kappa_d = 0)", fontsize=9)
    ax.set_ylim(-0.03, 1.03)
    handles, labels = ax.get_legend_handles_labels()
    order = [k for k, lab in enumerate(labels) if lab.startswith("lambda")] + \
        [k for k, lab in enumerate(labels) if not lab.startswith("lambda")]
    ax.legend([handles[k] for k in order], [labels[k] for k in order], fontsize=6.3, loc="lower right")

    # gradient flow, ridgeless, TP n = 7: the PNAS figure's alphas and the lazy ReLU network's kernel
    relu = make_family("relu-ntk", {})
    same, one, none = (float(relu.kernel((1, 2), t)) for t in ((1, 2), (1, 3), (3, 4)))
    kd = none / same
    a_relu = 1 - 2 * (one / same - kd) / (1 - kd)
    rate_relu = (1 - kd) * a_relu * same
    times = [k / 2 for k in range(0, 101)]
    task = Task.paradigm("transverse-patterning", n=7)
    for a, color in ((R(3, 10), "C3"), (R(1, 10), "C4"), (R(1, 50), "C5"), (R(0), "C7")):
        flow = gradient_flow(task, Exchangeable(alpha=a, kappa_d=0), "ridgeless")
        ys = [float(flow.f(1, 2, t)) for t in (0, 10, 50)]
        want = [1 - math.exp(-float(a) * t) for t in (0, 10, 50)]
        check(f"[PNAS1] alpha = {a}", all(abs(y - w_) < 1e-12 for y, w_ in zip(ys, want, strict=True)))
        bx.plot(times, [1 - math.exp(-float(a) * t) for t in times], "-", color=color, lw=1.2,
                label=f"alpha = {a}")
        half = "oo" if a == 0 else f"{math.log(2) / float(a):.2f}"
        print(f"  [PNAS1] TP n = 7, gradient flow, ridgeless, alpha = {a}: f(1,2) at t = 10: {ys[1]:.6f}, "
              f"t = 50: {ys[2]:.6f} (1 - exp(-alpha t) exactly); half-time log(2)/alpha = {half}")
    flow = gradient_flow(task, relu, "ridgeless")
    ys = [float(flow.f(1, 2, t)) for t in (10, 50)]
    check("[PNAS2] relu-ntk", all(abs(y - (1 - math.exp(-rate_relu * t))) < 1e-9
                                  for y, t in zip(ys, (10, 50), strict=True)))
    bx.plot(times, [1 - math.exp(-rate_relu * t) for t in times], "--", color="k", lw=1.2,
            label=f"ReLU NTK (alpha = {a_relu:.3f})")
    test = float(flow.f(1, 3, 50))
    print(f"  [PNAS2] relu-ntk depth 1 on the PNAS one-hot input: k = {same:.6f}, {one:.6f}, {none:.6f} for 2, 1, 0 "
          f"shared positions: kappa_d = {kd:.6f}, alpha = {a_relu:.6f}; TP n = 7 gradient flow: margin "
          f"1 - exp(-{rate_relu:.6f} t) (t = 10: {ys[0]:.6f}, t = 50: {ys[1]:.6f}; half-time "
          f"{math.log(2) / rate_relu:.3f}); test trial (1,3) at t = 50: {test:.3g}")
    check("[PNAS2] test 0", abs(test) < 1e-12)
    bx.set_xlabel("training time t (gradient flow, ridgeless)")
    bx.set_ylabel("training margin f(W, L)")
    bx.set_title("gradient flow, TP n = 7 (any n)", fontsize=9)
    bx.set_ylim(-0.03, 1.03)
    bx.legend(fontsize=6.5, loc="lower right")
    fig.tight_layout()
    path = os.path.join(out, "paradigms_tp_margins.png")
    fig.savefig(path, dpi=96)
    plt.close(fig)
    print(f"  wrote {path}")


# ------------------------------------------------------------------------------------ list linking
def linked(out: str) -> None:
    """(b) cross-list margins against symbolic distance after one linking pair (two 5-item lists)."""
    plt = _plt()
    points = ((R(0), "ridgeless", "alpha = 0, ridgeless", "C0"), (R(1, 10), R(1, 10), "alpha = lambda = 1/10", "C1"),
              (R(1, 2), R(1, 10), "alpha = 1/2, lambda = 1/10", "C2"), (R(0), R(2), "alpha = 0, lambda = 2", "C3"))
    links = (((5, 1), "link E>F (5>6): end to start"), ((3, 3), "link C>H (3>8): middle to middle"),
             ((1, 5), "link A>J (1>10): start to end"))
    fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.3), sharey=True)
    for ax, (link, title) in zip(axes, links, strict=True):
        task = Task.paradigm("list-linking", lists=(5, 5), links=[f"{link[0]}>{5 + link[1]}"])
        for alpha, ridge, label, color in points:
            cf = G.evaluate_linked_lists((5, 5), link, alpha, ridge)
            res = solve(task, Exchangeable(alpha=alpha, kappa_d=0), ridge)
            check(f"[LLF1] {link} {label}", all(res.predictions[t] == cf.prediction(*t) for t in res.predictions))
            by_d: dict[int, list[float]] = {}
            for i in range(1, 6):
                for j in range(6, 11):
                    if cf.trained(i, j):
                        continue
                    by_d.setdefault(j - i, []).append(float(cf.prediction(i, j)))
            ds = sorted(by_d)
            means = [sum(by_d[d]) / len(by_d[d]) for d in ds]
            scale = max(abs(v) for vs in by_d.values() for v in vs)
            ax.plot(ds, [m / scale for m in means], "o-", color=color, ms=3.5, lw=1.1,
                    label=label if ax is axes[0] else None)
            for d in ds:
                ax.plot([d] * len(by_d[d]), [v / scale for v in by_d[d]], ".", color=color, ms=3, alpha=0.45)
            print(f"  [LLF1] {title}, {label}: mean cross-list test margin by distance d = j - i: "
                  + ", ".join(f"d={d}: {m:+.4f} ({len(by_d[d])})" for d, m in zip(ds, means, strict=True))
                  + f"; largest |f| {scale:.4g}; wrong trials {sum(v < 0 for vs in by_d.values() for v in vs)}"
                    f"/{sum(len(v) for v in by_d.values())}")
        ax.axhline(0, color="0.6", lw=0.6)
        ax.set_title(title, fontsize=8.5)
        ax.set_xlabel("symbolic distance j - i (items 1-5 vs 6-10)", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].set_ylabel("cross-list margin f(i, j) / largest |f|", fontsize=8)
    for ax in axes:
        ax.set_ylim(-1.08, 1.08)
    fig.legend(loc="lower center", ncol=4, fontsize=7.5)
    fig.suptitle("two 5-item lists A-E (1-5), F-J (6-10) and one linking pair: mean over the cross-list test "
                 "pairs at each distance (dots: single pairs; below 0: wrong)", fontsize=8.5)
    fig.tight_layout()
    fig.tight_layout(rect=(0, 0.07, 1, 0.93))
    path = os.path.join(out, "paradigms_list_linking.png")
    fig.savefig(path, dpi=96)
    plt.close(fig)
    print(f"  wrote {path}")


# ------------------------------------------------------------------------------------ frequencies
def frequencies(out: str) -> None:
    """(c) massed end pairs or one inner pair: margins of every pair of 7 items (alpha = lambda = 1/10)."""
    plt = _plt()
    n = 7
    designs = (("uniform", {}, "C0", "o-"), ("end pairs 1>2, 6>7 x4", {(1, 2): 4, (6, 7): 4}, "C1", "s--"),
               ("inner pair 3>4 x4", {(3, 4): 4}, "C2", "^-."))
    fam = Exchangeable(alpha=R(1, 10), kappa_d=0)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(8.4, 3.4))
    base = None
    for label, counts, color, style in designs:
        comps = [(i, i + 1, counts.get((i, i + 1), 1)) for i in range(1, n)]
        task = Task.from_comparisons(n, comps)
        pred = solve(task, fam, R(1, 10)).predictions
        if base is None:
            base = solve(Task(n), fam, R(1, 10), method="halved").predictions
            check("[FRF1] uniform = Task(7)", dict(pred) == dict(base))
        train = [float(pred[(i, i + 1)]) for i in range(1, n)]
        ax.plot(range(1, n), train, style, color=color, ms=4, lw=1.1, label=label)
        by_d = {d: [float(pred[(i, i + d)]) for i in range(1, n + 1 - d)] for d in range(2, n)}
        means = [sum(v) / len(v) for v in by_d.values()]
        tests = [(i, i + d) for d in range(2, n) for i in range(1, n + 1 - d)]
        if counts:
            bx.plot(range(len(tests)), [float(pred[t] - base[t]) for t in tests], style, color=color, ms=4, lw=0.5,
                    label=label)
        print(f"  [FRF1] n = 7, alpha = lambda = 1/10, {label}: premise margins f(i,i+1) = "
              + ", ".join(f"{v:.4f}" for v in train) + "; mean test margin by distance "
              + ", ".join(f"d={d}: {m:.4f}" for d, m in zip(by_d, means, strict=True))
              + ("" if not counts else "; change from uniform: "
                 + ", ".join(f"{t}: {float(pred[t] - base[t]):+.4f}" for t in tests)))
    bx.axhline(0, color="0.6", lw=0.6)
    bx.set_xticks(range(len(tests)))
    bx.set_xticklabels([f"{a},{b}" for a, b in tests], fontsize=6, rotation=90)
    for k in range(1, len(tests)):
        if tests[k][1] - tests[k][0] != tests[k - 1][1] - tests[k - 1][0]:
            bx.axvline(k - 0.5, color="0.85", lw=0.6)
    ax.set_xlabel("premise pair (i, i+1)")
    ax.set_xticks(range(1, n))
    ax.set_xticklabels([f"{i}>{i + 1}" for i in range(1, n)], fontsize=7)
    ax.set_ylabel("training margin")
    ax.set_title("premise pairs (trained)", fontsize=9)
    bx.set_xlabel("test pair (i, j), by distance j - i = 2 ... 6")
    bx.set_ylabel("test margin minus uniform")
    bx.set_title("test pairs: change from uniform training", fontsize=9)
    ax.legend(fontsize=6.5)
    bx.legend(fontsize=6.5)
    fig.suptitle("7 items, alpha = lambda = 1/10, kappa_d = 0; massed = 4 presentations of the pair", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    path = os.path.join(out, "paradigms_frequencies.png")
    fig.savefig(path, dpi=96)
    plt.close(fig)
    print(f"  wrote {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "docs", "figures"),
                    help="folder of the PNGs (default docs/figures)")
    args = ap.parse_args()
    transverse(args.out)
    linked(args.out)
    frequencies(args.out)


if __name__ == "__main__":
    main()
