"""The numbers and figures of docs/design.md, "Real use": which experiment to run (issue 26, section 5).

Usage: python derivations/design_real_use.py [--out docs/figures] [--part A|B|C] [--seeds 200]

Every number the page quotes is printed here, tagged by part:

* ``[A...]`` 9- and 11-item hierarchies. The exchangeable family at the conjunctivity fitted to the language
  models (docs/fitting.md: full finetuning, all models: ``alpha = 0.281``, ``lambda = 0.227``, ``beta = 4.5``)
  against (i) the geometric family at the probe's item similarity (``rho = 0.069``, the rest the same) and (ii)
  the exchangeable family at a larger conjunctivity, ``alpha = 0.4``. Every single exception (every span and
  position) is ranked by the smallest expected log Bayes factor over the two directions, 10 presentations of
  each test trial; the paper's hierarchies (n=9, 6>4; n=11, 7>5 and 8>4) are placed in the ranking; the best
  design's most informative trials; the allocation of the same presentations that maximises the smallest
  expected log Bayes factor (a linear programme, scipy.optimize.linprog: the log Bayes factor is linear in the
  counts); and the power of the likelihood-ratio comparison (at the hypotheses' values, as
  ``design_experiment(power=...)``) with the smallest number of presentations reaching 0.8.
* ``[B...]`` the 7-item monkey and human designs of docs/fitting.md (docs/examples/monkey_sessions.csv and
  human_by_distance.csv): the expected Fisher information of ``(alpha, lambda, beta)`` at the simulation's truth
  (``alpha = 1/5``, ``lambda = 1/2``, ``beta = 4``), its D- and A-optimality and the Cramer-Rao standard errors;
  the same choices reported per trial instead of per distance; and the D-optimal allocation of the same number
  of choices (the multiplicative algorithm of Silvey, Titterington & Torsney 1978, certified by the
  Kiefer-Wolfowitz equivalence theorem: ``max_t trace(M^-1 I_t) = K`` at the optimum).
* ``[C...]`` an adaptive session simulated end to end on the 9-item task 6>4 (and 3>1): the three hypotheses of
  part A on a grid, ``AdaptiveEngine`` choosing each presentation among the 54 test trials, outcomes drawn from
  the true hypothesis, against the fixed design (every test trial once per block of 54, in a random order);
  the posterior after each block (seed 0) and the presentations needed until the true hypothesis has posterior
  probability 0.95, over ``--seeds`` seeds (0, 1, ...).

Figures: docs/figures/design_placements.png (A), design_fisher.png (B), design_adaptive.png (C).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import time
from pathlib import Path

import numpy as np
import sympy as sp
from scipy.optimize import linprog

from symbolic_ti import design_experiment
from symbolic_ti.design import choice_probabilities, design_space, exact_predictions, logit_jacobian, \
    parse_hypothesis
from symbolic_ti.design.adaptive import AdaptiveEngine
from symbolic_ti.design.information import a_optimality, d_optimality, fisher_information
from symbolic_ti.design.power import power, smallest_presentations
from symbolic_ti.figures.backend import require_matplotlib
from symbolic_ti.figures.save import save_figure
from symbolic_ti.task import Task

ROOT = Path(__file__).resolve().parent.parent
EXCHANGEABLE = "exchangeable:alpha=0.281;ridge=0.227;beta=4.5;label=exchangeable 0.281"
OTHERS = {"geometric": "geometric:alpha=0.281,rho=0.069;ridge=0.227;beta=4.5;label=geometric rho 0.069",
          "alpha 0.4": "exchangeable:alpha=0.4;ridge=0.227;beta=4.5;label=exchangeable 0.4"}
PUBLISHED = {9: ("6>4",), 11: ("7>5", "8>4")}
TARGET = 0.8


def _exc(task: Task) -> str:
    return ",".join(str(e) for e in task.exceptions)


# ---------------------------------------------------------------------------------------------------- part A
def _lp_allocation(kl: np.ndarray) -> tuple[float, np.ndarray]:
    """max_w min_(a, b) sum_t w_t KL_ab(t) over the simplex (per presentation); kl has shape (pairs, T)."""
    pairs, t = kl.shape
    c = np.zeros(t + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-kl, np.ones((pairs, 1))])
    a_eq = np.hstack([np.ones((1, t)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(pairs), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * t + [(None, None)], method="highs")
    if not res.success:
        raise SystemExit(f"linprog failed: {res.message}")
    return float(-res.fun), np.asarray(res.x[:t])


def _rounded_counts(weights: np.ndarray, total: int) -> np.ndarray:
    """Largest-remainder rounding of total * weights to integers summing to total."""
    raw = weights * total
    counts = np.floor(raw).astype(int)
    for k in np.argsort(-(raw - counts))[: total - counts.sum()]:
        counts[k] += 1
    return counts


def part_a(maps: dict) -> None:
    for n in (9, 11):
        space = design_space(n, placements="single", spans=(2, n - 1), presentations=10)
        for name, other in OTHERS.items():
            t0 = time.process_time()
            rep = design_experiment([EXCHANGEABLE, other], space, criterion="log-bayes-factor", budget=None)
            ev = rep.evaluations
            labels = [_exc(e.design.task) for e in ev]
            best = ev[0]
            total = best.design.total
            tag = f"[A1] n={n} vs {name}:"
            print(f"{tag} {len(ev)} single exceptions, 10 presentations of each of {len(best.design.trials)} "
                  f"test trials ({total} presentations); CPU {time.process_time() - t0:.1f} s")
            for k in range(3):
                e = ev[k]
                print(f"{tag}   rank {k + 1}: {labels[k]}  min E[log BF] {float(e.smallest_log_bayes_factor):.4f} "
                      f"(E true {float(e.log_bayes_factors[(0, 1)]):.4f}, other true "
                      f"{float(e.log_bayes_factors[(1, 0)]):.4f})")
            for pub in PUBLISHED[n]:
                k = labels.index(pub)
                e = ev[k]
                ratio = float(best.smallest_log_bayes_factor / e.smallest_log_bayes_factor)
                print(f"{tag}   published {pub}: rank {k + 1} of {len(ev)}, min E[log BF] "
                      f"{float(e.smallest_log_bayes_factor):.4f}; the best needs 1/{ratio:.3f} of its presentations")
            print(f"{tag}   worst: {labels[-1]}  min E[log BF] {float(ev[-1].smallest_log_bayes_factor):.4f}")
            maps[(n, name)] = {lab: float(e.smallest_log_bayes_factor) for lab, e in zip(labels, ev, strict=True)}
            for ti in best.trials[:6]:
                k = best.design.trials.index(ti.trial)
                print(f"[A2] n={n} vs {name}: best {labels[0]} trial {ti.trial} ({ti.category}) weighted KL "
                      f"{float(ti.score):.5f} nats per presentation; f = {float(best.predictions[0][k]):.4f} vs "
                      f"{float(best.predictions[1][k]):.4f}")
            # the allocation of the same presentations maximising the smallest expected log BF, and the 12
            # most informative ordered trials of each design presented uniformly
            for e in [best] + [ev[labels.index(pub)] for pub in PUBLISHED[n]]:
                _allocations(n, name, e)


def _allocations(n: int, name: str, e) -> None:
    lab = _exc(e.design.task)
    t = len(e.design.trials)
    kl = np.array([[float(x) for x in e.divergences[(0, 1)]], [float(x) for x in e.divergences[(1, 0)]]])
    value, w = _lp_allocation(kl)
    uniform = float(e.smallest_log_bayes_factor) / e.design.total
    used = [(e.design.trials[k], round(float(w[k]), 3)) for k in np.argsort(-w) if w[k] > 1e-9]
    top = [e.design.trials.index(ti.trial) for ti in e.trials[:12]]
    top_value = float(kl[:, top].mean(axis=1).min())
    print(f"[A3] n={n} vs {name}: {lab} smallest E[log BF] per presentation: uniform over the {t} test trials "
          f"{uniform:.5f}; uniform over its 12 most informative {top_value:.5f} (x{top_value / uniform:.2f}); "
          f"best allocation {value:.5f} (x{value / uniform:.2f}) on {used}")
    p = np.array([[float(x) for x in row] for row in e.probabilities])
    bases = {"uniform": (np.ones(t, dtype=int), 1),
             "top 12": (np.isin(np.arange(t), top).astype(int), 1)}
    for true in (0, 1):
        pw = power(p, 10 * bases["uniform"][0], true, simulations=4000, seed=0)
        parts = []
        for key, (base, _) in bases.items():
            sm = smallest_presentations(p, base, true, TARGET, simulations=4000, seed=0)
            parts.append(f"{key} {int(sm.counts.sum())} (power {sm.power.value:.3f})")
        print(f"[A4] n={n} vs {name}: {lab} H{true + 1} true: likelihood-ratio power {pw.value:.3f} "
              f"[{pw.lower:.3f}, {pw.upper:.3f}] at 10 presentations of each test trial; presentations for power "
              f"{TARGET}: " + ", ".join(parts))


def figure_a(maps: dict, out: str) -> None:
    require_matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8.4, 7.0))
    axes = fig.subplots(2, 2)
    for row, n in enumerate((9, 11)):
        for col, name in enumerate(OTHERS):
            ax = axes[row, col]
            grid = np.full((n - 2, n - 2), np.nan)  # rows L = 1..n-2, columns W = 3..n
            for lab, v in maps[(n, name)].items():
                w, lo = (int(x) for x in lab.split(">"))
                grid[lo - 1, w - 3] = v
            im = ax.imshow(grid, cmap="viridis", origin="upper")
            ax.set_xticks(range(n - 2), [str(k + 3) for k in range(n - 2)], fontsize=7)
            ax.set_yticks(range(n - 2), [str(k + 1) for k in range(n - 2)], fontsize=7)
            ax.set_xlabel("winner W", fontsize=8)
            ax.set_ylabel("loser L", fontsize=8)
            for pub in PUBLISHED[n]:
                w, lo = (int(x) for x in pub.split(">"))
                ax.plot(w - 3, lo - 1, "s", mfc="none", mec="red", ms=9, mew=1.5)
            ax.set_title(f"n={n}: exchangeable 0.281 vs {name}", fontsize=9)
            cb = fig.colorbar(im, ax=ax, shrink=0.8)
            cb.set_label("smallest E[log BF] (nats)", fontsize=7)
            cb.ax.tick_params(labelsize=7)
    fig.suptitle("Single exception W>L, 10 presentations of each test trial (red: the paper's)", fontsize=10)
    fig.tight_layout()
    path = save_figure(fig, os.path.join(out, "design_placements.png"), dpi=80)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


# ---------------------------------------------------------------------------------------------------- part B
TRUTH = "exchangeable:alpha=1/5;ridge=1/2;beta=4;label=truth"
FISHER = ("alpha", "lambda", "beta")
LETTERS = "ABCDEFG"


def _elemental(task: Task, trials: list) -> tuple[np.ndarray, np.ndarray]:
    """p_t (the first item wins) and J_t = d logit p_t / d (alpha, lambda, beta), exact then float."""
    h = parse_hypothesis(TRUTH)
    values = exact_predictions(task, h, trials)
    p = np.array([float(x) for x in choice_probabilities(values, h.beta, 30)])
    jac = logit_jacobian(task, h, trials, FISHER, values)
    return p, np.array([[float(sp.N(x, 30)) for x in row] for row in jac])


def _d_optimal(mats: np.ndarray, iterations: int = 20000) -> tuple[np.ndarray, float]:
    """The D-optimal approximate design over elemental information matrices mats (T, K, K): the multiplicative
    algorithm w_t <- w_t d_t(w) / K, d_t = trace(M(w)^-1 I_t). Returns w and max_t d_t / K (1 at the optimum,
    the Kiefer-Wolfowitz equivalence theorem; the D-efficiency of w is at least 1 / that)."""
    k = mats.shape[1]
    w = np.full(mats.shape[0], 1.0 / mats.shape[0])
    for _ in range(iterations):
        m_inv = np.linalg.inv(np.tensordot(w, mats, axes=1))
        d = np.einsum("ij,tji->t", m_inv, mats)
        if d.max() / k < 1 + 1e-7:
            break
        w = w * d / k
    m_inv = np.linalg.inv(np.tensordot(w, mats, axes=1))
    return w, float(np.einsum("ij,tji->t", m_inv, mats).max() / k)


def _summary(tag: str, info: np.ndarray, total: float) -> dict:
    out = {"D": d_optimality(info), "A": a_optimality(info), "total": total}
    if not math.isfinite(out["D"]):
        vals, vecs = np.linalg.eigh(info / np.abs(info).max())
        print(f"{tag}: {total:.0f} choices; the information is singular (rank "
              f"{np.linalg.matrix_rank(info, hermitian=True)} of 3; eigenvalues of I / max|I| "
              + ", ".join(f"{v:.2e}" for v in vals) + "; null direction (alpha, lambda, beta) "
              + ", ".join(f"{v:.4f}" for v in vecs[:, 0]) + ")")
        return out
    se = np.sqrt(np.diag(np.linalg.inv(info)))
    out["se"] = se
    print(f"{tag}: {total:.0f} choices; log det I = {out['D']:.3f}, trace I^-1 = {out['A']:.4f}; Cramer-Rao SE "
          + ", ".join(f"{n} {v:.4f}" for n, v in zip(FISHER, se, strict=True))
          + "; per 1000 choices " + ", ".join(f"{v * math.sqrt(total / 1000):.4f}" for v in se))
    return out


def part_b() -> dict:
    task = Task(7)
    pairs = [(i, j) for i in range(1, 8) for j in range(i + 1, 8)]
    p, jac = _elemental(task, pairs)
    w_pq = p * (1 - p)
    mats = w_pq[:, None, None] * jac[:, :, None] * jac[:, None, :]  # per presentation of each pair (either order)
    # the monkey sessions as run: presentations per pair, pooled over the 48 sessions
    counts = {t: 0 for t in pairs}

    with open(ROOT / "docs" / "examples" / "monkey_sessions.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        a, b = LETTERS.index(r["first"]) + 1, LETTERS.index(r["second"]) + 1
        counts[(min(a, b), max(a, b))] += int(r["total"])
    n_monkey = np.array([counts[t] for t in pairs])
    total = int(n_monkey.sum())
    sessions = len({r["session"] for r in rows})
    print(f"[B0] monkey sessions: {sessions} sessions, {total} choices, {total / sessions:.1f} per session; "
          f"premise pairs {int(n_monkey[[j == i + 1 for i, j in pairs]].sum())}, other pairs "
          f"{int(n_monkey[[j > i + 1 for i, j in pairs]].sum())}")
    check = fisher_information(p, jac, n_monkey)
    info = np.tensordot(n_monkey.astype(float), mats, axes=1)
    assert np.allclose(check, info, rtol=1e-12)
    res = {"pairs": pairs, "monkey_w": n_monkey / total}
    res["monkey"] = _summary("[B1] monkey design as run", info, total)
    _summary("[B1] monkey design, one session (mean)", info / sessions, total / sessions)
    res["uniform"] = _summary("[B2] uniform over the 21 pairs", np.tensordot(np.full(21, total / 21), mats, 1), total)
    test = np.array([j > i + 1 for i, j in pairs], dtype=float)
    res["test only"] = _summary("[B2] uniform over the 15 test pairs (no premise pair)",
                                np.tensordot(test * total / test.sum(), mats, 1), total)
    w, cert = _d_optimal(mats)
    res["D-optimal"] = _summary("[B3] D-optimal allocation of the same choices", np.tensordot(w * total, mats, 1),
                                total)
    res["d_w"] = w
    print(f"[B3] D-optimal weights (equivalence certificate max d_t / K = {cert:.7f}): "
          + ", ".join(f"{LETTERS[i - 1]}{LETTERS[j - 1]} {v:.3f}" for (i, j), v in zip(pairs, w, strict=True)
                      if v > 1e-3))
    eff = math.exp((res["monkey"]["D"] - res["D-optimal"]["D"]) / 3)
    print(f"[B3] D-efficiency of the monkey design {eff:.3f}: the D-optimal design carries the same information "
          f"with {eff:.3f} of the choices ({total * eff:.0f} instead of {total})")
    rounded_w = _rounded_counts(w, total)
    _summary("[B3] D-optimal allocation rounded to whole presentations", np.tensordot(rounded_w.astype(float), mats,
                                                                                      1), total)
    # the human study: 30 subjects x 24 choices per distance, reported by distance only
    per_d = 30 * 24
    dist_g, dist_p, dist_trial = [], [], []
    for d in range(1, 7):
        idx = [k for k, (i, j) in enumerate(pairs) if j - i == d]
        pd = p[idx].mean()
        g = (w_pq[idx, None] * jac[idx]).mean(axis=0)
        dist_p.append(pd)
        dist_g.append(g)
        dist_trial.append(mats[idx].mean(axis=0))
    dmats = np.array([np.outer(g, g) / (q * (1 - q)) for g, q in zip(dist_g, dist_p, strict=True)])
    htotal = per_d * 6
    res["human"] = _summary("[B4] human design as run (reported by distance)", per_d * dmats.sum(axis=0), htotal)
    res["human per trial"] = _summary("[B4] the same choices reported per trial",
                                      per_d * np.array(dist_trial).sum(axis=0), htotal)
    wd, certd = _d_optimal(dmats)
    res["human D-optimal"] = _summary("[B5] by distance, D-optimal choices per distance",
                                      htotal * np.tensordot(wd, dmats, 1), htotal)
    print(f"[B5] D-optimal share of each distance 1..6 (certificate {certd:.7f}): "
          + ", ".join(f"{v:.3f}" for v in wd))
    res["human best"] = _summary("[B5] per trial, D-optimal over the pairs", htotal * np.tensordot(w, mats, 1),
                                 htotal)
    return res


def figure_b(res: dict, out: str) -> None:
    require_matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9.0, 3.6))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.4, 1]})
    x = np.arange(21)
    names = [LETTERS[i - 1] + LETTERS[j - 1] for i, j in res["pairs"]]
    left.bar(x - 0.2, res["monkey_w"], 0.4, label="monkey sessions")
    left.bar(x + 0.2, res["d_w"], 0.4, label="D-optimal")
    left.set_xticks(x, names, rotation=90, fontsize=7)
    left.set_ylabel("share of the choices", fontsize=8)
    left.set_title("Allocation over the 21 pairs (7 items)", fontsize=9)
    left.legend(fontsize=7, frameon=False)
    left.tick_params(labelsize=7)
    keys = ["monkey", "uniform", "D-optimal", "human", "human per trial", "human D-optimal"]
    labels = ["monkey", "uniform", "D-optimal", "human\n(distance)", "human\n(per trial)",
              "human D-opt\n(distance)"]
    for k, par in enumerate(FISHER):
        vals = [res[key]["se"][k] * math.sqrt(res[key]["total"] / 1000) for key in keys]
        right.bar(np.arange(len(keys)) + (k - 1) * 0.27, vals, 0.27, label=par)
    right.set_yscale("log")
    right.set_xticks(np.arange(len(keys)), labels, rotation=90, fontsize=7)
    right.set_ylabel("Cramer-Rao SE per 1000 choices", fontsize=8)
    right.set_title("Standard errors at alpha=1/5, lambda=1/2, beta=4", fontsize=9)
    right.set_ylim(0.01, 60)
    right.legend(fontsize=7, frameon=False, ncol=3, loc="upper center")
    right.tick_params(labelsize=7)
    fig.tight_layout()
    path = save_figure(fig, os.path.join(out, "design_fisher.png"), dpi=80)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


# ---------------------------------------------------------------------------------------------------- part C
THRESHOLD = 0.95
CAP = 5400


def _session(engine: AdaptiveEngine, p: np.ndarray, true: int, rng: np.random.Generator, adaptive: bool,
             record: bool = False) -> tuple[int, int, list]:
    """Presentations until some hypothesis has posterior >= THRESHOLD (or CAP): (count, decided hypothesis,
    the posterior after each block of 54 presentations when ``record``)."""
    t = p.shape[1]
    order: list[int] = []
    blocks = []
    for step in range(1, CAP + 1):
        if adaptive:
            d = engine.next_design()
        else:
            if not order:
                order = list(rng.permutation(t))
            d = int(order.pop())
        y = int(rng.random() < p[true, d])
        engine = engine.update(d, y)
        post = engine.posterior
        if record and step % t == 0:
            blocks.append(post.copy())
        if post.max() >= THRESHOLD:
            if record:
                blocks.append(post.copy())
            return step, int(np.argmax(post)), blocks
    return CAP, -1, blocks


def part_c(seeds: int) -> dict:
    hyps = [EXCHANGEABLE, OTHERS["geometric"], OTHERS["alpha 0.4"]]
    names = ["exchangeable 0.281", "geometric", "exchangeable 0.4"]
    rep = design_experiment(hyps, [Task(9, ["6>4"]), Task(9, ["3>1"])], presentations=1, budget=None)
    out: dict = {}
    for e in sorted(rep.evaluations, key=lambda e: e.design.label, reverse=True):
        lab = _exc(e.design.task)
        p = np.array([[float(x) for x in row] for row in e.probabilities])
        engine = AdaptiveEngine(p)
        t0 = time.process_time()
        for true in range(3):
            for adaptive in (True, False):
                kind = "adaptive" if adaptive else "fixed"
                steps, right = [], 0
                for seed in range(seeds):
                    n, decided, _ = _session(engine, p, true, np.random.default_rng([seed, true, int(adaptive)]),
                                             adaptive)
                    steps.append(n)
                    right += decided == true
                arr = np.array(steps)
                out[(lab, true, kind)] = arr
                print(f"[C1] 9 items {lab}, {names[true]} true, {kind}: presentations until a posterior of "
                      f"{THRESHOLD}: median {np.median(arr):.0f}, mean {arr.mean():.1f}, quartiles "
                      f"{np.percentile(arr, 25):.0f}-{np.percentile(arr, 75):.0f}; the true hypothesis picked in "
                      f"{right} of {seeds} sessions" + (f"; {int((arr >= CAP).sum())} undecided at {CAP}"
                                                          if (arr >= CAP).any() else ""))
            a, f = out[(lab, true, "adaptive")], out[(lab, true, "fixed")]
            print(f"[C2] 9 items {lab}, {names[true]} true: adaptive saves {np.mean(f) - np.mean(a):.1f} "
                  f"presentations on average ({1 - np.mean(a) / np.mean(f):.0%}), median {np.median(f) - np.median(a):.0f}")
        print(f"[C2] 9 items {lab}: CPU {time.process_time() - t0:.1f} s for {6 * seeds} sessions")
        first = e.design.trials[engine.next_design()]
        print(f"[C3] 9 items {lab}: the first adaptive trial {first}, expected information gain "
              f"{engine.mutual_info().max():.5f} nats")
        for true in (1,):
            for adaptive in (True, False):
                kind = "adaptive" if adaptive else "fixed"
                n, decided, blocks = _session(engine, p, true, np.random.default_rng([0, true, int(adaptive)]),
                                              adaptive, record=True)
                for b, post in enumerate(blocks):
                    if 5 < b < len(blocks) - 1:
                        continue
                    where = f"after {54 * (b + 1)}" if b < len(blocks) - 1 or n % 54 == 0 else f"stop at {n}"
                    print(f"[C4] 9 items {lab}, seed 0, {names[true]} true, {kind}: {where} presentations, "
                          f"posterior " + ", ".join(f"{v:.3f}" for v in post))
                out[(lab, true, kind, "trace")] = (n, blocks)
    out["names"] = names
    return out


def figure_c(res: dict, out: str) -> None:
    require_matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9.0, 4.0))
    axes = fig.subplots(1, 2)
    fig.subplots_adjust(left=0.07, right=0.98, top=0.92, bottom=0.28, wspace=0.22)
    colours = ["C0", "C1", "C2"]
    for k, lab in enumerate(("6>4", "3>1")):
        ax = axes[k]
        for true in range(3):
            for kind, style in (("adaptive", "-"), ("fixed", "--")):
                arr = np.sort(res[(lab, true, kind)])
                ax.step(arr, np.arange(1, arr.size + 1) / arr.size, style, color=colours[true], where="post",
                        label=f"{res['names'][true]} true, {kind}")
        ax.set_xscale("log")
        ax.set_xlabel(f"presentations until a posterior of {THRESHOLD}", fontsize=8)
        ax.set_ylabel("fraction of sessions", fontsize=8)
        ax.set_title(f"9 items, exception {lab}", fontsize=9)
        ax.tick_params(labelsize=7)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, frameon=False, ncol=3, loc="lower center")
    path = save_figure(fig, os.path.join(out, "design_adaptive.png"), dpi=80)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/figures")
    parser.add_argument("--part", choices=("A", "B", "C"), action="append")
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    parts = args.part or ["A", "B", "C"]
    os.makedirs(args.out, exist_ok=True)
    start, cpu = time.time(), time.process_time()
    if "A" in parts:
        maps: dict = {}
        part_a(maps)
        figure_a(maps, args.out)
    if "B" in parts:
        figure_b(part_b(), args.out)
    if "C" in parts:
        figure_c(part_c(args.seeds), args.out)
    print(f"[T] wall {time.time() - start:.0f} s, CPU {time.process_time() - cpu:.0f} s")


if __name__ == "__main__":
    main()
