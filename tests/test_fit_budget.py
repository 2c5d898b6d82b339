"""``fit`` estimates its cost before the work and refuses above its budget (issue 24, section 3): the closed
forms of each family derived and compiled with the fitted parameters symbolic, then the optimiser's starts times
the likelihood evaluations of a start (docs/performance.md#budgets, symbolic_ti.behaviour.cost.fit_estimate)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("scipy")

from symbolic_ti import Task, cli  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays  # noqa: E402
from symbolic_ti.behaviour.fitting import compare_families, fit  # noqa: E402
from symbolic_ti.budgets import derive_estimate  # noqa: E402
from symbolic_ti.errors import BudgetError, ParameterError  # noqa: E402

MONKEY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "monkey_sessions.csv"
BASE = ["fit", "--data", str(MONKEY), "--items", "7", "--item-columns", "first,second", "--item-labels",
        "A,B,C,D,E,F,G", "--correct-column", "correct", "--total-column", "total"]


def _data(n: int = 4):
    task = Task(n)
    return behaviour_from_arrays(task, task.trials, [0.9 if i < j else 0.1 for i, j in task.trials],
                                 [10] * len(task.trials))


def _expected_seconds(n: int, starts: int, coordinates: int, intervals: bool) -> float:
    """The model of docs/performance.md#budgets, written out: 97 s (n/31)^6 to build the likelihood, on top of
    derive's estimate of every closed form; 130 evaluations per start and 700 per coordinate for the intervals, at
    1.1 ms + 0.18 ms (n/15)^4 each; 0.5 s for the rest of the fit."""
    forms = derive_estimate(n, True, "text", None).seconds + 97.0 * (n / 31) ** 6
    evaluations = starts * 130 + (700 * coordinates if intervals else 0)
    return forms + evaluations * (1.1e-3 + 1.8e-4 * (n / 15) ** 4) + 0.5


@pytest.mark.parametrize(("extra", "what"), [
    ([], "fit"), (["--compare"], "compare_families"), (["--subject-column", "session", "--per-subject"],
                                                       "fit_subjects")])
def test_the_cli_refuses_above_a_tiny_budget_in_one_line(capsys, extra, what):
    code = cli.main(BASE + extra + ["--budget", "1/100"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"symbolic-ti: error: {what}: estimated ") and "above the budget of 0.01 s" in lines[0]
    assert "likelihood evaluations" in lines[0] and "--no-budget" in lines[0]


def test_the_estimate_in_the_message_is_the_documented_model(capsys):
    # exchangeable at n = 7: alpha, lambda and beta fitted, 8 starts, intervals
    seconds = _expected_seconds(7, 8, 3, True)
    code = cli.main(BASE + ["--budget", "1"])
    err = capsys.readouterr().err
    assert code == 2 and f"estimated {seconds:.2g} s of CPU" in err and "3,140 likelihood evaluations" in err
    # 48 sessions fitted one by one: the closed forms once, the evaluations 48 times
    code = cli.main(BASE + ["--subject-column", "session", "--per-subject", "--no-intervals", "--starts", "2",
                            "--budget", "1"])
    err = capsys.readouterr().err
    assert code == 2 and f"{48 * 2 * 130:,} likelihood evaluations in 48 fits" in err


def test_a_small_fit_runs_under_the_default_budget(capsys):
    code = cli.main(BASE + ["--no-intervals", "--starts", "2", "--ridge", "1/2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("symbolic_ti fit: exchangeable")


def test_the_python_fit_takes_a_budget():
    data = _data()
    with pytest.raises(BudgetError, match=r"^fit: estimated .* above the budget of 0\.001 s") as info:
        fit(data, ridge="ridgeless", starts=1, intervals=False, error_check=False, budget=0.001)
    assert "\n" not in str(info.value) and "budget=None" in str(info.value)
    with pytest.raises(BudgetError, match=r"^compare_families: estimated .*for 2 families"):
        compare_families(data, ["exchangeable", "geometric"], ridge="ridgeless", starts=1, budget=0.001)
    with pytest.raises(ParameterError, match="budget must be a positive number of seconds"):
        fit(data, budget=-1)
    r = fit(data, ridge="ridgeless", starts=1, intervals=False, error_check=False, budget=None)
    assert sorted(r.values) == ["alpha", "beta"]


def test_the_budget_reaches_the_exact_solve(monkeypatch):
    """fit passes its budget to the solve of its closed forms (which had the default only)."""
    import symbolic_ti.behaviour.model as model
    import symbolic_ti.solvers.dispatch as dispatch

    seen = []
    solve = dispatch.solve

    def recording(*args, **kwargs):
        seen.append(kwargs.get("budget"))
        return solve(*args, **kwargs)

    monkeypatch.setattr(dispatch, "solve", recording)
    model._SOLVED.clear()
    fit(_data(5), ridge="ridgeless", starts=1, intervals=False, error_check=False, budget=77)
    model._SOLVED.clear()
    fit(_data(5), ridge="ridgeless", starts=1, intervals=False, error_check=False, budget=None)
    model._SOLVED.clear()
    assert seen == [77, None]
