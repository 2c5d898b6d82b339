"""Which network kernels make the base case's systematic errors: n = 9 items, exception 6>4 (issue 12, "Real input").

For each activation family (PNAS nonlinearity at slope 1/2, 1 (ReLU), 3/2, 2; erf, sign and step with
W_std = 1, b_std = 0), depths 1..4, NNGP (hidden layer) and NTK, ridgeless and at lambda = 1/10:

1. the exact kappas and the implied conjunctivity alpha (sympy), their 30-digit values, and the effective ridge
   ``gamma = 2 (alpha + lambda') / (1 - alpha)``, ``lambda' = lambda / (1 - kappa_d)``;
2. the wrong test trials predicted from gamma: for every exchangeable kernel on this task, (3,6), (4,7) (and
   reverses) fail exactly when ``gamma > (sqrt(13) - 3)/2`` and (2,6), (3,5), (3,7), (4,8), (5,7) when
   ``gamma > 1`` (docs/geometry.md, "The ReLU network kernels"); the critical conjunctivity of the first group
   at this family's kappa_d, ``alpha* = (g1 - 2 lambda') / (g1 + 2)``;
3. a check: the exact solve (``symbolic_ti.solve``, graph-Laplacian path, named constants from depth 2) of every
   case at depths 1 and 2, whose error list (exact sign tests) must equal the prediction of 2.

Output: a Markdown table on stdout (docs/geometry.md, "Other activations") and, with --figure FILE, the figure
(alpha against depth, NNGP and NTK panels, with the critical values). Usage:
python derivations/activations.py [--figure docs/figures/activations.png] [--check-depth 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import sympy as sp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from symbolic_ti import Task, solve  # noqa: E402
from symbolic_ti.families import ActivationNNGP, ActivationNTK, PnasHidden, PnasNTK  # noqa: E402

R = sp.Rational
G1 = (sp.sqrt(13) - 3) / 2
FIRST = {(3, 6), (4, 7), (6, 3), (7, 4)}
SECOND = {(2, 6), (3, 5), (3, 7), (4, 8), (5, 7), (6, 2), (5, 3), (7, 3), (8, 4), (7, 5)}
ACTIVATIONS = [("PNAS slope 1/2", "pnas", R(1, 2)), ("ReLU (slope 1)", "pnas", 1), ("PNAS slope 3/2", "pnas", R(3, 2)),
               ("abs(u) (slope 2)", "pnas", 2), ("erf", "erf", None), ("sign", "sign", None), ("step", "step", None)]


def family(kind: str, slope, kernel: str, depth: int):
    if kind == "pnas":
        return (PnasNTK if kernel == "ntk" else PnasHidden)(slope=slope, depth=depth)
    return (ActivationNTK if kernel == "ntk" else ActivationNNGP)(activation=kind, depth=depth)


def predicted(gamma: float) -> set:
    out = set(FIRST) if gamma > float(G1) else set()
    return out | (SECOND if gamma > 1 else set())


def row(label: str, fam, ridge) -> dict:
    _, alpha, kd = fam.exchangeable_form()
    a, k = float(sp.N(alpha, 30)), float(sp.N(kd, 30))
    lam = 0.0 if ridge == "ridgeless" else float(ridge) / (1 - k)
    gamma = 2 * (a + lam) / (1 - a)
    return {"label": label, "alpha": a, "kappa_d": k, "gamma": gamma, "wrong": predicted(gamma),
            "alpha_star": (float(G1) - 2 * lam) / (float(G1) + 2)}


def describe(wrong: set) -> str:
    if not wrong:
        return "none"
    return "(3,6), (4,7) and reverses" if wrong == FIRST else "all 14: first and second group"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--figure", default=None)
    ap.add_argument("--check-depth", type=int, default=2)
    args = ap.parse_args(argv)
    task, start, checked = Task(9, ["6>4"]), time.time(), 0
    rows = []
    for label, kind, slope in ACTIVATIONS:
        for kernel in ("nngp", "ntk"):
            for depth in (1, 2, 3, 4):
                for ridge in ("ridgeless", R(1, 10)):
                    fam = family(kind, slope, kernel, depth)
                    r = row(label, fam, ridge) | {"kernel": kernel, "depth": depth, "ridge": str(ridge)}
                    if depth <= args.check_depth:
                        train = {t for t, _ in task.training}
                        got = set(solve(task, fam, ridge).errors) - train  # wrong test trials
                        if got != r["wrong"]:
                            print(f"MISMATCH {label} {kernel} {depth} {ridge}: solve {sorted(got)}, "
                                  f"gamma {r['gamma']}", file=sys.stderr)
                            return 1
                        checked += 1
                    rows.append(r)
                    print(f"{label} {kernel} {depth} {ridge}: {time.time() - start:.0f} s", file=sys.stderr)
    print("| activation | kernel | depth | alpha | kappa_d | gamma ridgeless | wrong, ridgeless | gamma, 1/10 "
          "| wrong, lambda = 1/10 | alpha* at 1/10 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in range(0, len(rows), 2):
        a, b = rows[k], rows[k + 1]
        print(f"| {a['label']} | {a['kernel'].upper()} | {a['depth']} | {a['alpha']:.6f} | {a['kappa_d']:.5f} | "
              f"{a['gamma']:.4f} | {describe(a['wrong'])} | {b['gamma']:.4f} | {describe(b['wrong'])} | "
              f"{b['alpha_star']:.4f} |")
    print(f"\n{checked} cases checked against the exact solve; critical alpha ridgeless "
          f"(4 - sqrt(13))/3 = {float((4 - sp.sqrt(13)) / 3):.6f}, second group 1/3; {time.time() - start:.0f} s")
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
        for ax, kernel in zip(axes, ("nngp", "ntk"), strict=True):
            for label, _, _ in ACTIVATIONS:
                pts = [r for r in rows if r["label"] == label and r["kernel"] == kernel and r["ridge"] == "ridgeless"]
                ax.plot([r["depth"] for r in pts], [r["alpha"] for r in pts], marker="o", label=label)
            ax.axhline(float((4 - sp.sqrt(13)) / 3), color="k", ls="--", lw=0.8)
            ax.axhline(1 / 3, color="k", ls=":", lw=0.8)
            ax.set_title(f"{kernel.upper()}: implied alpha; dashed (4 - sqrt 13)/3, dotted 1/3", fontsize=9)
            ax.set_xlabel("depth (hidden layers)")
            ax.set_xticks([1, 2, 3, 4])
        axes[0].set_ylabel("conjunctivity alpha")
        axes[1].legend(fontsize=7, loc="upper left")
        fig.tight_layout()
        fig.savefig(args.figure, dpi=90)
    return 0


if __name__ == "__main__":
    sys.exit(main())
