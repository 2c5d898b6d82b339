"""The certified numeric path of gradient-flow dynamics (symbolic_ti/dynamics/certified.py) against independent
dense computations: ``scipy.linalg.expm`` and mpmath's ``expm`` (30 and 50 digits) on the full Gram matrix built
from each family's independent ``kernel_numeric``; ``t = oo`` against ``derive``; clusters of a repeated eigenvalue;
critical times checked either side of each bracket; the CLI.
"""

import mpmath
import pytest
import sympy as sp

from symbolic_ti import Task, derive
from symbolic_ti.cli.app import main
from symbolic_ti.dynamics import critical_times, dynamics
from symbolic_ti.families import get_family

from test_dynamics import dense_flow

SQRT2_3 = sp.sqrt(2) / 3


def _mp(e):
    return mpmath.mpf(str(sp.N(e, 60)))


def _kern(fam, lib):
    point = fam.numeric_point({}, float if lib == "float" else _mp)
    if "depth" in point:
        point["depth"] = int(point["depth"])
    return lambda a, b: fam.kernel_numeric(a, b, point)


@pytest.mark.parametrize("n, exc, ridge, method", [(5, ["4>2"], "1/10", "gram"), (6, ["5>3"], "1/2", "gram"),
                                                   (7, ["6>3"], "1/10", "auto"), (5, ["4>2"], "ridgeless", "gram")])
def test_relu_ntk_numeric_path_matches_scipy_expm(n, exc, ridge, method):
    d = dynamics(n, exc, family="relu-ntk", parameters={"depth": 1}, ridge=ridge, method=method)
    assert d.path == "certified numeric at 30 digits" and d.is_numeric
    assert (d.course is None) == (method == "gram")  # auto keeps the exact Laplacian modes (irrational rates)
    task = Task(n, exc)
    lam = 0.0 if ridge == "ridgeless" else float(sp.Rational(ridge))
    ref = dense_flow(task, _kern(get_family("relu-ntk", depth=1), "float"), lam, 1.5)
    for x in task.trials:
        mid, rad = d.enclosure(*x, "3/2")
        assert rad < 1e-25
        assert mid == pytest.approx(ref[x], abs=1e-10)


def test_relu_ntk_numeric_path_within_its_bound_of_mpmath_expm_30_digits():
    mpmath.mp.dps = 40
    try:
        task = Task(5, ["4>2"])
        d = dynamics(5, ["4>2"], family="relu-ntk", parameters={"depth": 1}, ridge="1/10", method="gram")
        ref = dense_flow(task, _kern(get_family("relu-ntk", depth=1), "mp"), mpmath.mpf(1) / 10, mpmath.mpf(2),
                         lib=mpmath)
        for x in task.trials:
            mid, rad = d.enclosure(*x, 2)
            assert abs(mpmath.mpf(mid) - ref[x]) < 1e-15  # the float midpoint
            ball = d.balls(x, 128).value(__import__("flint").arb(2))
            assert abs(mpmath.mpf(ball.mid().str(35, radius=False)) - ref[x]) <= ball.rad() + mpmath.mpf(10) ** -30
        # t = oo: derive's exact prediction lies in the numeric path's limit ball
        r = derive(5, ["4>2"], family="relu-ntk", ridge="1/10")
        for x in task.trials:
            lim = d.balls(x, 128).limit
            assert abs(mpmath.mpf(lim.mid().str(35, radius=False)) - _mp(r.f(*x))) <= lim.rad() + mpmath.mpf(10) ** -32
            assert d.f(*x, "oo") == r.f(*x)  # and t = oo itself stays exact
    finally:
        mpmath.mp.dps = 15


def test_algebraic_alpha_geometric_family():
    params = {"alpha": SQRT2_3, "rho": sp.Rational(1, 2)}
    d = dynamics(6, ["5>3"], family="geometric", parameters=params)
    assert d.course is None and d.method == "halved" and d.dps == 30
    mpmath.mp.dps = 40
    try:
        task = Task(6, ["5>3"])
        ref = dense_flow(task, _kern(get_family("geometric", **params), "mp"), 0, mpmath.mpf(3), lib=mpmath)
        for x in task.trials:
            mid, rad = d.enclosure(*x, 3)
            assert abs(mpmath.mpf(mid) - ref[x]) < 1e-14 and rad < 1e-25
        expr = d.f(1, 6, 3)
        assert abs(mpmath.mpf(str(sp.N(expr, 35))) - ref[(1, 6)]) < 1e-27  # the Float expression at 30 digits
    finally:
        mpmath.mp.dps = 15
    assert "certified numeric at 30 digits" in d.to_text() and d.to_dict()["path"] == "numeric"
    assert "% numeric" in d.to_latex(trials=[(1, 6)])


def test_repeated_eigenvalue_is_one_cluster():
    # two exceptions: the cycle modes of the halved exchangeable Gram matrix share the eigenvalue alpha (kappa_d = 0)
    d = dynamics(6, ["5>3", "6>4"], parameters={"alpha": SQRT2_3}, ridge="1/10", method="gram")
    nm = d.numeric_modes(0)
    assert sum(c.count for c in nm.clusters) == 7  # 5 premise pairs + 2 exceptions
    double = [c for c in nm.clusters if c.count == 2]
    assert len(double) == 1
    centre = mpmath.mpf(double[0].eigenvalues.mid().str(35, radius=False))
    assert abs(centre - _mp(SQRT2_3)) <= float(double[0].eigenvalues.rad()) + 1e-30
    mpmath.mp.dps = 40
    try:
        task = Task(6, ["5>3", "6>4"])
        ref = dense_flow(task, _kern(get_family("exchangeable", alpha=SQRT2_3), "mp"), mpmath.mpf(1) / 10,
                         mpmath.mpf(5) / 2, lib=mpmath)
        for x in task.trials:
            mid, rad = d.enclosure(*x, "5/2")
            assert abs(mpmath.mpf(mid) - ref[x]) < 1e-14 and rad < 1e-25
    finally:
        mpmath.mp.dps = 15


def test_critical_times_on_the_numeric_path_checked_at_50_digits():
    d = dynamics(5, ["4>2"], family="relu-ntk", parameters={"depth": 1}, ridge="1/10", method="gram")
    rep = critical_times(d)
    assert rep.order and not rep.notes
    task = Task(5, ["4>2"])
    mpmath.mp.dps = 50
    try:
        kern = _kern(get_family("relu-ntk", depth=1), "mp")
        for c in rep.order:
            g = task.ground_truth(c.trial)
            before = g * dense_flow(task, kern, mpmath.mpf(1) / 10, mpmath.mpf(c.lower.numerator) / c.lower.denominator,
                                    lib=mpmath)[c.trial]
            after = g * dense_flow(task, kern, mpmath.mpf(1) / 10, mpmath.mpf(c.upper.numerator) / c.upper.denominator,
                                   lib=mpmath)[c.trial]
            want = 1 if c.direction == "to_correct" else -1
            assert mpmath.sign(after) == want and mpmath.sign(before) == -want
    finally:
        mpmath.mp.dps = 15
    # the exact-modes route (auto: Laplacian modes with irrational rates) gives the same brackets' times
    auto = critical_times(dynamics(5, ["4>2"], family="relu-ntk", parameters={"depth": 1}, ridge="1/10"))
    assert [(c.trial, round(c.value, 9)) for c in auto.order] == [(c.trial, round(c.value, 9)) for c in rep.order]


def test_cli_numeric_path(capsys):
    code = main(["dynamics", "--items", "5", "--exception", "4>2", "--family", "relu-ntk", "--set", "depth=1",
                 "--ridge", "0.1", "--critical", "--trial", "2,3", "--dps", "20"])
    out = capsys.readouterr().out
    assert code == 0 and "certified numeric at 20 digits" in out and "to_correct" in out
    assert main(["dynamics", "--items", "5", "--dps", "5"]) == 2
    msg = capsys.readouterr().err.strip().splitlines()
    assert len(msg) == 1 and "--dps" in msg[0] and "10 to 1000" in msg[0]


@pytest.mark.parametrize("argv", [
    ["--set", "alpha=1/5"],  # exchangeable, a rational Gram matrix
    ["--set", "alpha=1/5", "--ridge", "1/10", "--exception", "4>2"],
    ["--family", "geometric", "--set", "alpha=1/2", "--set", "rho=1/3"],
    ["--set", "alpha=1/5", "--ridgeless"],
])
def test_cli_dps_on_the_exact_path_is_refused_not_ignored(capsys, tmp_path, argv):
    """Review finding: --dps was accepted silently where the flow is exact; like --ridges without --window, an
    option without effect is refused with one line naming it (issue 24, section 5)."""
    out = tmp_path / "d.json"
    assert main(["dynamics", "--items", "5", *argv, "--dps", "50", "-o", str(out)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and not out.exists()
    assert lines[0].startswith("symbolic-ti: error: argument --dps: has no effect here:") and "exact" in lines[0]
    assert main(["dynamics", "--items", "5", *argv, "-q"]) == 0  # without it the same command runs
    capsys.readouterr()


def test_early_stopping_phases_on_the_numeric_path_match_the_dense_flow():
    from symbolic_ti.dynamics.window import early_stopping

    d = dynamics(5, ["4>2"], family="relu-ntk", parameters={"depth": 1}, ridge="1/10", method="gram")
    phases = early_stopping(d).phases
    assert len(phases) >= 2
    task = Task(5, ["4>2"])
    kern = _kern(get_family("relu-ntk", depth=1), "float")
    for ph in phases:
        t = float(ph.start) * 2 + 1 if ph.end is None else float(ph.start + ph.end) / 2
        ref = dense_flow(task, kern, 0.1, t)
        wrong = {x for x in task.trials if task.ground_truth(x) is not None and task.ground_truth(x) * ref[x] < 0}
        assert wrong == set(ph.errors)


def test_numeric_values_within_their_bound_of_the_exact_laplacian_modes():
    # relu-ntk is exchangeable: its exact Laplacian-mode expressions (irrational rates) evaluated by sympy at 40
    # digits must lie within the certified numeric path's radius
    d = dynamics(5, ["4>2"], family="relu-ntk", parameters={"depth": 1}, ridge="1/10")
    assert d.course is not None and d.dps == 30
    for x in [(1, 5), (4, 2)]:
        exact = sp.N(d.f(*x, sp.Rational(7, 4)), 40)
        mid, rad = d.enclosure(*x, "7/4")
        assert abs(sp.Float(mid, 40) - exact) < 1e-15
        ball = d.balls(x, 128).value(__import__("flint").arb(7) / 4)
        assert abs(sp.Float(ball.mid().str(35, radius=False), 40) - exact) <= float(ball.rad()) + 1e-30
