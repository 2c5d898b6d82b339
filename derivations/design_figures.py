"""The figure of docs/design.md and the numbers behind it: which exception placement tells the exchangeable family
from the geometric one on 9 items (the worked example of docs/design.md).

Usage: python derivations/design_figures.py [--out docs/figures]

Writes docs/figures/design_budget.png (symbolic_ti.figures.design: the mutual information and the smallest
expected log Bayes factor against the presentation budget for the end exception 3>1, 4>1 and the published 6>4,
10 presentations of each test trial times m; and the divergence per presentation of 3>1's trials) and prints
every plotted number, each line tagged [DSF1] (information), [DSF2] (log Bayes factor), [DSF3] (the heatmap's
largest cells). The expected log Bayes factor at m is checked to be m times the report's exact value.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from symbolic_ti import design_experiment
from symbolic_ti.figures.design import design_figure, design_plot_data
from symbolic_ti.figures.save import save_figure
from symbolic_ti.task import Task

HYPOTHESES = ["exchangeable:alpha=0.281;ridge=0.227;beta=4.5;label=exchangeable",
              "geometric:alpha=0.281,rho=0.069;ridge=0.227;beta=4.5;label=geometric"]
MULTIPLIERS = (1, 2, 3, 4, 6, 8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/figures")
    out = parser.parse_args().out
    tasks = [Task(9, ["3>1"]), Task(9, ["4>1"]), Task(9, ["6>4"])]
    report = design_experiment(HYPOTHESES, tasks, presentations=10, criterion="log-bayes-factor")
    data = design_plot_data(report, designs=3, multipliers=MULTIPLIERS)
    for d, e in enumerate(report.evaluations):
        exact = float(e.smallest_log_bayes_factor)
        if not np.allclose(data.log_bayes_factor[d], [m * exact for m in MULTIPLIERS], rtol=1e-12):
            raise SystemExit(f"check failed: log Bayes factor of {e.design.label}")
        for k, m in enumerate(MULTIPLIERS):
            print(f"[DSF1] {e.design.label}: m={m} presentations={int(data.budgets[d, k])} "
                  f"I={data.information[d, k]:.4f} +- {data.standard_error[d, k]:.4f} nats")
        print(f"[DSF2] {e.design.label}: min E[log BF] = {exact:.4f} nats per 10 presentations of each trial")
    div = data.divergence
    cells = sorted(((float(div[i, j]), i + 1, j + 1) for i in range(data.n) for j in range(data.n)
                    if np.isfinite(div[i, j])), reverse=True)[:6]
    for v, i, j in cells:
        print(f"[DSF3] {data.best}: trial ({i}, {j}) weighted KL per presentation {v:.5f} nats")
    os.makedirs(out, exist_ok=True)
    path = save_figure(design_figure(data), os.path.join(out, "design_budget.png"), dpi=90)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
