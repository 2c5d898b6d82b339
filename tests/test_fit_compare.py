"""Model comparison across families in one table (issue 13): AIC, BIC and the quasi-AIC with the dispersion of
the most general fit (Burnham & Anderson 2002, sec. 2.5: QAIC = -2 log L / c + 2 (k + 1)), recomputed here."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("scipy")

from symbolic_ti import Task, cli, get_family, numeric_predictions  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays  # noqa: E402
from symbolic_ti.behaviour.fitting import compare_families  # noqa: E402

T5 = Task(5)


@pytest.fixture(scope="module")
def overdispersed():
    f = numeric_predictions(T5, get_family("exchangeable"), {"alpha": 0.2}, ridge="1/2")
    p = np.array([1 / (1 + math.exp(-3 * float(f[t]))) for t in T5.trials])
    rng = np.random.default_rng(4)
    p = np.clip(p + rng.normal(0, 0.08, len(p)), 0.02, 0.98)  # extra trial-to-trial variation: dispersion > 1
    k = rng.binomial(200, p)
    return behaviour_from_arrays(T5, T5.trials, k / 200, [200] * len(k))


def test_qaic_uses_dispersion_of_most_general_fit(overdispersed):
    c = compare_families(overdispersed, ["exchangeable", "relu-ntk", "similarity"], ridge="1/2", starts=2)
    assert [f.family for f in c.fits] == ["exchangeable", "relu-ntk"]
    assert len(c.skipped) == 1 and c.skipped[0].startswith("similarity: ")
    general = max(c.fits, key=lambda f: (f.n_params, f.loglik))
    assert general.family == "exchangeable" and general.dispersion > 1
    assert c.c_hat == pytest.approx(general.dispersion)
    for f, q in zip(c.fits, c.qaic, strict=True):
        assert q == pytest.approx(-2 * f.loglik / general.dispersion + 2 * (f.n_params + 1))
        assert f.aic == pytest.approx(2 * f.n_params - 2 * f.loglik)
    assert min(c.delta_qaic) == 0
    text = c.to_text()
    assert "QAIC" in text and "not fitted: similarity" in text


def test_cli_compare(capsys, tmp_path):
    # three items: every family's closed forms and fit at half the CPU of four; the table is the same
    f = numeric_predictions(Task(3), get_family("exchangeable"), {"alpha": 0.2}, ridge="1/2")
    rows = "".join(f"{i},{j},{1 / (1 + math.exp(-3 * float(f[(i, j)]))):.4f},50\n" for i, j in Task(3).trials)
    p = tmp_path / "d.csv"
    p.write_text("item_a,item_b,mean_prob_yes,n_seeds\n" + rows)
    code = cli.main(["fit", "--items", "3", "--data", str(p), "--compare", "--ridge", "1/2", "--starts", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["model", "k", "log"]
    assert {ln.split()[0] for ln in lines[1:5]} == {"exchangeable", "geometric", "relu-ntk", "relu-nngp"}
