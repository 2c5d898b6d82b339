"""An end of a profile interval at the optimiser's box limit (issue 13 review, item 2): session 12 of
``docs/examples/monkey_sessions.csv`` alone gives a ridge whose likelihood has hardly dropped at ``e^9`` (the
box limit of ``lambda``, ``symbolic_ti.behaviour.model``): that end is an optimiser limit, not an estimate. It is
reported as an open end, separately from convergence (issue 28, point 4): the optimiser did converge."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("scipy")

from symbolic_ti import cli  # noqa: E402

MONKEY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "monkey_sessions.csv"
ARGS = ["fit", "--data", str(MONKEY), "--items", "7", "--item-columns", "first,second",
        "--item-labels", "A,B,C,D,E,F,G", "--correct-column", "correct", "--total-column", "total",
        "--subject-column", "session", "--filter", "session=12", "--starts", "3"]


def test_interval_end_at_optimiser_limit_is_open_and_reported_apart_from_convergence(capsys):
    assert cli.main(ARGS + ["--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    lam = next(p for p in d["parameters"] if p["name"] == "lambda")
    assert lam["upper"] == pytest.approx(math.exp(9))
    assert lam["upper_at_bound"] is True and lam["upper_limit"].startswith("optimiser limit e^9")
    assert lam["lower_limit"] is None
    assert d["converged"] is True and d["convergence"] == []
    assert any("upper end of the profile interval is the optimiser limit e^9" in c for c in d["open_intervals"])
    assert cli.main(ARGS) == 0
    text = capsys.readouterr().out
    assert "8103 (open: optimiser limit e^9)]" in text and "NOT converged" not in text
    assert "\n  open end    lambda: the upper end of the profile interval is the optimiser limit e^9" in text
