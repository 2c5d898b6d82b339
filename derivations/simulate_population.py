"""A simulated population of subjects for the hierarchical fit of docs/fitting.md ("Hierarchical fits").

``docs/examples/population.csv``: 16 subjects, seven items ``1..7`` (item 1 highest), no exception. Each
subject sees each of the 21 pairs ten times, in one random order per pair (columns ``subject``, ``first``,
``second``, ``correct``, ``total``). Subject ``s`` has its own conjunctivity and response scale, drawn on the
fitted scales of ``symbolic-ti fit`` (docs/fitting.md)::

    logit(alpha_s) ~ Normal(logit(1/5), 0.5^2),   log(beta_s) ~ Normal(log 4, 0.3^2)

and every subject has the ridge ``lambda = 1/2``. P(correct) of the ordered trial ``(i, j)`` is
``sigmoid(beta_s * g * f(i, j; alpha_s))`` with ``g`` the rule's sign and ``f`` the exact closed form of
``symbolic_ti.derive`` (alpha symbolic, lambda = 1/2) evaluated at ``alpha_s``. The seed is fixed (2029)::

    python derivations/simulate_population.py
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import symbolic_ti as st  # noqa: E402

N = 7
SUBJECTS = 16
TRUTH = {"mu_alpha": math.log(0.2 / 0.8), "tau_alpha": 0.5, "mu_beta": math.log(4.0), "tau_beta": 0.3,
         "ridge": "1/2"}
OUT = Path(__file__).resolve().parent.parent / "docs" / "examples" / "population.csv"


def population(seed: int = 2029) -> list[list[object]]:
    """The rows: per subject, per pair (in a random order), ten choices."""
    rng = np.random.default_rng(seed)
    r = st.derive(N, ridge=TRUTH["ridge"])
    alpha = st.symbols.alpha
    forms = {t: r.predictions[t] for t in r.task.trials}
    rows: list[list[object]] = []
    for s in range(1, SUBJECTS + 1):
        a = 1.0 / (1.0 + math.exp(-rng.normal(TRUTH["mu_alpha"], TRUTH["tau_alpha"])))
        b = math.exp(rng.normal(TRUTH["mu_beta"], TRUTH["tau_beta"]))
        for i in range(1, N + 1):
            for j in range(i + 1, N + 1):
                first, second = (i, j) if rng.random() < 0.5 else (j, i)
                g = 1 if first < second else -1
                f = float(forms[(first, second)].subs(alpha, a))
                correct = int(rng.binomial(10, 1.0 / (1.0 + math.exp(-b * g * f))))
                rows.append([f"s{s:02d}", first, second, correct, 10])
    return rows


if __name__ == "__main__":
    rows = population()
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["subject", "first", "second", "correct", "total"])
        w.writerows(rows)
    print(f"wrote {OUT} ({len(rows)} rows)")
