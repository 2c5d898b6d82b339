"""Budgets of the Python solve, of long exact numbers, and ``--budget`` as any exact number (issue 24, section 3).

Every decision is asserted from the sizes (the cost models' formulas of docs/performance.md#budgets, recomputed
here), never from timing: a refusal comes before the work, so these tests are quick by construction.
"""

from __future__ import annotations

import math
import warnings

import pytest
import sympy as sp

import symbolic_ti.cli.app as cli
from symbolic_ti import Task, derive, solve
from symbolic_ti.families import make_family
from symbolic_ti.arguments import exact_number
from symbolic_ti.budgets import DEFAULT, DEFAULT_SECONDS, check_budget, derive_estimate, solve_estimate
from symbolic_ti.cli.options import parse_budget
from symbolic_ti.errors import BudgetError, ParameterError
from symbolic_ti.solvers.dispatch import derive_plan


def one_error_line(capsys):
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("symbolic-ti: error: "), captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    return lines[0]


# ------------------------------------------------------------------------------- the Python solve's budget
def test_a_cheap_default_call_is_unchanged():
    """The docs' example (derive's docstring): f(1, 4) = 5/7, with no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert derive(4, family="exchangeable", parameters={"alpha": 0}, ridge=1).f(1, 4) == sp.Rational(5, 7)


def test_a_dense_numeric_solve_is_refused_from_its_rows():
    """Geometric, every value a number, n = 200: 199 rows halved, 29.4 s x 1.35 (199 / 60)^3.2 = 1,840 s > 120 s."""
    seconds = 29.4 * 1.35 * (199 / 60) ** 3.2
    assert f"{int(seconds // 60)}:{round(seconds % 60):02d}" == "30:40"
    with pytest.raises(BudgetError, match=r"solve: estimated 30:40 min .*dense 199 x 199 exact rational system "
                                          r"\(halved, n = 200\).*budget of 120 s.*budget=None"):
        derive(200, family="geometric", parameters={"alpha": "1/10", "rho": "1/2"}, ridge="1/10")


def test_a_dense_symbolic_solve_is_refused_from_its_rows():
    """Geometric, rho = 1/2, alpha and lambda free, n = 40: 40.0 s 1.4^(39 - 25) = 4,445 s."""
    assert 40.0 * 1.4 ** 14 > DEFAULT_SECONDS
    with pytest.raises(BudgetError, match=r"dense 39 x 39 system in 2 free symbols \(halved, n = 40\)"):
        derive(40, family="geometric", parameters={"rho": "1/2"})


def test_a_named_method_is_what_is_estimated():
    """Exchangeable n = 100, numbers: the Laplacian solve is inside the budget, method="full" (2 x 99 rows) not."""
    assert 8.5 * (100 / 1001) ** 2 < DEFAULT_SECONDS < 29.4 * 1.35 * (198 / 60) ** 3.2
    task, family = Task(100, []), make_family("exchangeable", {"alpha": "1/10"})
    assert solve_estimate(100, False, **derive_plan(task, family, "1/10")).seconds < DEFAULT_SECONDS
    with pytest.raises(BudgetError, match=r"dense 198 x 198 exact rational system \(full, n = 100\)"):
        solve(task, family, "1/10", method="full")


def test_a_lowered_budget_refuses_and_none_runs():
    with pytest.raises(BudgetError, match=r"the exact solve of n = 4 \(laplacian\).*budget of 1e-09 s"):
        derive(4, parameters={"alpha": 0}, ridge=1, budget=1e-9)
    assert derive(4, parameters={"alpha": 0}, ridge=1, budget=None).f(1, 4) == sp.Rational(5, 7)
    with pytest.raises(ParameterError, match="budget must be a positive number"):
        derive(4, parameters={"alpha": 0}, ridge=1, budget=-1)


def test_symbolic_laplacian_solves_are_not_refused():
    """The univariate solve of the Laplacian path (0.9 s at n = 101 and 201): its closed forms are built on access."""
    assert solve_estimate(2000, True).seconds == 0.0
    assert "closed forms built on access" in solve_estimate(2000, True).detail


# ------------------------------------------------------------------------------------ long exact numbers
def test_the_digits_of_the_numbers_given_are_counted():
    task = Task(9, ["6>4"])
    plan = derive_plan(task, make_family("exchangeable", {"alpha": "1/10"}), "10**5000")
    assert plan["digits"] == 5001  # 10^5000 has 5,001 digits
    assert derive_plan(task, make_family("exchangeable", {"alpha": "1/10"}), "1/10")["digits"] == 2
    assert derive_plan(task, make_family("exchangeable", {"alpha": "3/" + "7" * 30}), None)["digits"] == 30


def test_a_ridge_of_20000_digits_is_estimated_from_its_digits(capsys):
    """n = 9, 72 closed forms of 5.2 x 20000 = 104,000 digits each (measured: 4.84 per digit given at n = 9), each
    0.52 s (104000 / (32000 x 4.84))^2 = 0.234 s more: 16.9 s, inside the default budget, above a budget of 5 s
    (refused before the work, with the estimate)."""
    extra = 72 * 0.52 * (104000 / (32000 * 4.84)) ** 2
    assert extra == pytest.approx(16.88, abs=0.01)
    est = derive_estimate(9, False, "text", digits=20000)
    assert est.seconds == pytest.approx(derive_estimate(9, False, "text").seconds + extra)
    assert 5 < est.seconds < DEFAULT_SECONDS
    ridge = "1" + "3" * 19999 + "/7"
    assert cli.main(["derive", "-n", "9", "-e", "6>4", "--set", "alpha=1/10", "--ridge", ridge, "--budget", "5",
                     "-q"]) == 2
    line = one_error_line(capsys)
    assert "estimated 17 s" in line and "20,000 digits given, about 104,000 digits" in line
    assert "budget of 5 s" in line
    assert derive_estimate(9, False, "text", digits=100) == derive_estimate(9, False, "text")  # short: unchanged


def test_long_numbers_at_larger_n_are_refused():
    """n = 31, D = 8000 (ran past 97 s of CPU, stopped): 930 forms of 2.5 x 31 x 8000 = 620,000 digits."""
    each = 0.52 * (620000 / (32000 * 4.84)) ** 2
    assert 930 * each > DEFAULT_SECONDS
    assert derive_estimate(31, False, digits=8000).seconds == pytest.approx(
        derive_estimate(31, False).seconds + 930 * each)
    with pytest.raises(BudgetError, match="620,000 digits"):
        check_budget("derive", derive_estimate(31, False, digits=8000), DEFAULT)


def test_a_power_of_ten_of_5000_digits_runs_within_budget():
    """10**5000 (5,001 digits): 0.9 s more at n = 9, inside the budget; solved at n = 4, it equals the closed form
    of the symbolic ridge at lambda = 10^5000 (another path: the form is built with lambda free)."""
    assert derive_estimate(9, False, digits=5001).seconds < DEFAULT_SECONDS
    lam = sp.Integer(10) ** 5000
    value = derive(4, parameters={"alpha": 0}, ridge="10**5000").f(1, 4)
    form = derive(4, parameters={"alpha": 0}).f(1, 4)
    (ridge,) = form.free_symbols
    assert str(ridge) == "lambda" and value == form.subs(ridge, lam)
    assert 0 < value < sp.Rational(1, 10) ** 4999  # of order 1 / lambda


@pytest.mark.parametrize("text, shown", [("exp(1000000)", "about 10^434,294"), ("pi**1000", "about 10^497.1"),
                                         ("exp(-1000000)", "about 10^-434,294"), ("exp(231)", "about 10^100.3"),
                                         ("exp(exp(6))", "about 10^175.2"), ("exp(-10**400)", "less than")])
def test_a_number_that_is_not_rational_and_huge_is_refused_at_reading(capsys, text, shown):
    """exp(x) is 10^(x / ln 10): 10^6 / ln 10 = 434,294.48; 1000 log10(pi) = 497.15; 231 / ln 10 = 100.32;
    e^6 / ln 10 = 175.2. Beyond 10^100 (either way) a number that is not rational is refused in one line."""
    assert 1e6 / math.log(10) == pytest.approx(434294.48, abs=0.01)
    assert 1000 * math.log10(math.pi) == pytest.approx(497.15, abs=0.01)
    assert math.exp(6) / math.log(10) == pytest.approx(175.2, abs=0.05)
    assert cli.main(["derive", "-n", "9", "-e", "6>4", "--set", "alpha=1/10", "--ridge", text, "-q"]) == 2
    line = one_error_line(capsys)
    assert "argument --ridge" in line and shown in line and "10^100" in line or "10^-100" in line
    with pytest.raises(ParameterError, match="not rational may be at"):
        exact_number(text, "ridge")


def test_numbers_that_are_not_rational_within_the_bound_are_read():
    """exp(230) is 10^99.9 (230 / ln 10 = 99.89); a zero not simplified away is never refused."""
    assert 230 / math.log(10) < 100 < 231 / math.log(10)
    assert exact_number("exp(230)", "ridge") == sp.exp(230)
    assert exact_number("pi**100", "ridge") == sp.pi ** 100
    zero = "(sqrt(2)+1)**2 - 2*sqrt(2) - 3"
    assert sp.simplify(exact_number(zero, "ridge")) == 0
    with pytest.raises(ParameterError, match=r"about 10\^434,294"):
        exact_number(sp.exp(10 ** 6), "ridge")  # a sympy number given in Python, too


# ---------------------------------------------------------------------------- --budget as any exact number
@pytest.mark.parametrize("text, seconds", [("1/2", 0.5), ("60", 60.0), ("1e3", 1000.0), ("0.25", 0.25),
                                           ("sqrt(2)", math.sqrt(2)), ("2**10", 1024.0)])
def test_the_budget_is_any_exact_positive_number(text, seconds):
    assert parse_budget(text) == pytest.approx(seconds, rel=1e-15)


@pytest.mark.parametrize("text", ["0", "-1/2", "abc", "inf", "nan", "", "-1e999", "1/0", "x"])
def test_a_budget_that_is_not_a_positive_number_is_refused(capsys, text):
    assert cli.main(["derive", "-n", "4", "--budget", text, "-q"]) == 2
    line = one_error_line(capsys)
    assert "argument --budget" in line and "positive number of seconds" in line


def test_a_budget_of_one_half_refuses_above_it(capsys):
    """derive -n 9 symbolic: 72 forms, 1.99 s (9 / 61)^4 = 9.4 ms, inside 1/2 s; a dense 40-item solve is not."""
    assert derive_estimate(9, True).seconds < 0.5
    assert cli.main(["derive", "-n", "9", "-e", "6>4", "--budget", "1/2", "-q"]) == 0
    capsys.readouterr()
    assert cli.main(["derive", "-n", "40", "--family", "geometric", "--set", "alpha=1/10", "--set", "rho=1/2",
                     "--ridge", "1/10", "--budget", "1/2", "-q"]) == 2
    assert "above the budget of 0.5 s" in one_error_line(capsys)


# ------------------------------------------------------------------------------------------------- sweep
def test_a_sweep_above_its_budget_is_refused_before_its_directory_is_made(capsys, tmp_path):
    """The atlas spec: 7921 s of one core as its dry run estimates (docs/atlas.md), 2:12:01 h, above 120 s."""
    pytest.importorskip("pyarrow")
    assert (7921 // 3600, 7921 % 3600 // 60, 7921 % 60) == (2, 12, 1)
    out = tmp_path / "atlas"
    assert cli.main(["sweep", "derivations/atlas.toml", "-o", str(out), "-q"]) == 2
    line = one_error_line(capsys)
    assert "sweep: estimated 2:12:01 h" in line and "15,173 configurations in 807 shards" in line
    assert "--no-budget" in line and not out.exists()


def test_a_dry_run_takes_no_budget(capsys):
    assert cli.main(["sweep", "derivations/atlas.toml", "--dry-run", "--no-budget"]) == 2
    assert "--no-budget" in one_error_line(capsys)


def test_plot_refuses_a_solve_above_its_budget_with_the_cli_hint(capsys, tmp_path):
    """plot heatmap of a numeric geometric task of n = 200: refused by its estimate of every prediction (derive's
    model: the dense solve's 30:40 min dominates), before any solve, nothing written."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "h.png"
    assert cli.main(["plot", "heatmap", "-n", "200", "--family", "geometric", "--set", "alpha=1/10", "--set",
                     "rho=1/2", "--ridge", "1/10", "-o", str(out), "-q"]) == 2
    line = one_error_line(capsys)
    assert "plot heatmap: estimated 30:40 min" in line and "run it anyway with --no-budget" in line
    assert not out.exists()
