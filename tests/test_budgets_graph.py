"""The budget of the symbolic rank solve on comparison graphs other than the TI design (issue 25, point 4).

The model (docs/performance.md#budgets, ``symbolic_ti.budgets.GRAPH_RANK_SECONDS_AT_80``) is checked against the
measured runs recorded there; every refusal is asserted from the sizes, before the work (the refused tasks would
take minutes to hours), never from timing.
"""

from __future__ import annotations

import pytest

import symbolic_ti.cli.app as cli
from symbolic_ti import Exchangeable, Task, solve
from symbolic_ti.budgets import DEFAULT_SECONDS, derive_estimate, graph_rank_estimate, solve_estimate
from symbolic_ti.errors import BudgetError
from symbolic_ti.solvers.dispatch import derive_plan

#: CPU seconds of ``solve`` alone, alpha and the ridge symbolic (docs/performance.md#budgets): two lists of n/2
#: items linked at their middles (n - 1 comparisons) and banded transverse patterning (2n comparisons).
MEASURED = {("lists", 60): 1.14, ("lists", 80): 3.38, ("lists", 100): 7.43, ("lists", 120): 13.0,
            ("lists", 160): 46.3, ("banded", 60): 2.26, ("banded", 80): 6.85, ("banded", 100): 16.8,
            ("banded", 120): 33.0, ("banded", 160): 124.0}


def _task(kind: str, n: int) -> Task:
    if kind == "banded":
        return Task.paradigm("banded-transverse-patterning", n=n)
    h = n // 2
    return Task.paradigm("list-linking", lists=(h, n - h), links=[f"{h // 2}>{h + (n - h) // 2}"])


@pytest.mark.parametrize("kind, n", sorted(MEASURED))
def test_the_model_is_near_the_measured_runs(kind, n):
    """Within a factor 0.8 to 1.6 of every run (high more often than low), from the plan of the task itself."""
    plan = derive_plan(_task(kind, n), Exchangeable(kappa_d=0), None)
    assert plan["method"] == "laplacian" and plan["graph"] == (2 * n if kind == "banded" else n - 1)
    est = solve_estimate(n, True, **plan).seconds  # type: ignore[arg-type]
    assert 0.8 * MEASURED[(kind, n)] <= est <= 1.6 * MEASURED[(kind, n)], (kind, n, est)


def test_ti_designs_have_no_graph_solve():
    """Transverse patterning and the end-to-start link are the TI design (continuant path): no graph term."""
    family = Exchangeable(kappa_d=0)
    for task in (Task.paradigm("transverse-patterning", n=300), Task(300, [(150, 148)]),
                 Task.paradigm("list-linking", lists=(150, 150), links=["150>151"])):
        plan = derive_plan(task, family, None)
        assert plan["graph"] == 0 and solve_estimate(300, True, **plan).seconds == 0.0  # type: ignore[arg-type]


def test_numeric_graph_solves_keep_the_numeric_model():
    """Every value a number: one QQ solve (2.3 s measured at n = 800), inside 8.5 (n/1001)^2 + forms."""
    task = _task("banded", 800)
    plan = derive_plan(task, Exchangeable(alpha="1/10", kappa_d=0), "1/10")
    est = solve_estimate(800, False, **plan).seconds  # type: ignore[arg-type]
    assert est == pytest.approx(8.5 * (800 / 1001) ** 2, rel=1e-3) and est > 2.3  # (plus one prediction)


def test_a_large_paradigm_is_refused_in_python_before_the_work():
    """Banded TP, n = 300: 3.4 (300/80)^4.2 x 600/299 s, about 17 min; n = 2000 would take days."""
    with pytest.raises(BudgetError, match=r"solve: estimated .* symbolic rank solve on the comparison graph "
                                          r"\(600 comparisons, n = 300\), growing as n\^4.2.*budget of 120 s"):
        solve(_task("banded", 300), Exchangeable(kappa_d=0), "1/10")
    with pytest.raises(BudgetError, match=r"4,000 comparisons, n = 2000"):
        solve(_task("banded", 2000), Exchangeable(kappa_d=0))


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("symbolic-ti: error: ") and "Traceback" not in err[0]
    return err[0]


@pytest.mark.parametrize("argv, what", [
    (["derive", "--paradigm", "banded-transverse-patterning", "-n", "200"], "derive: estimated"),
    (["derive", "--paradigm", "list-linking", "--lists", "100,100", "--link", "50>150", "--trial", "1,200"],
     "derive: estimated"),
    (["critical", "--paradigm", "list-linking", "--lists", "100,100", "--link", "50>150", "-p", "lambda",
      "--set", "alpha=1/10", "--trial", "1,200"], "critical: estimated"),
    # the alpha scan at a given ridge skips the scan's estimate; its solve is refused by solve_estimate
    (["critical", "--paradigm", "banded-transverse-patterning", "-n", "200", "-p", "alpha", "--ridge", "1/10"],
     "solve: estimated"),
])
def test_a_large_paradigm_is_refused_on_the_command_line(argv, what, capsys):
    assert cli.main(argv) == 2
    line = _one_line(capsys)
    assert what in line and "symbolic rank solve on the comparison graph" in line and "--no-budget" in line


def test_small_paradigms_stay_inside_the_budget():
    """Banded TP n = 60 (2.26 s measured) and lists of 40 + 40 with a middle link: every closed form, text."""
    for task in (_task("banded", 60), _task("lists", 80)):
        plan = derive_plan(task, Exchangeable(kappa_d=0), None)
        assert derive_estimate(task.n, True, "text", **plan).seconds < DEFAULT_SECONDS  # type: ignore[arg-type]
    assert graph_rank_estimate(80, 79).seconds == pytest.approx(3.4)
