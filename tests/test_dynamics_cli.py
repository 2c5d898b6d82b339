"""``symbolic-ti dynamics`` and ``symbolic-ti critical --parameter time``: output, JSON, renderers, bad input."""

import json

import pytest

from symbolic_ti.cli.app import main
from symbolic_ti.dynamics import critical_times, dynamics
from symbolic_ti.dynamics.window import early_stopping


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_and_json(capsys):
    code, out, _ = run(capsys, "dynamics", "--items", "9", "--exception", "6>4", "--set", "alpha=0.1", "--ridge",
                       "0.1", "--trial", "6,4", "--time", "oo", "--critical", "--level", "1/2")
    assert code == 0
    assert "5509/7850" in out and "Exception margin reaches 1/2: at t ~ 1.2343" in out
    code, out, _ = run(capsys, "dynamics", "--items", "5", "--set", "alpha=0.2", "--times", "1:100:3", "--log-times",
                       "--trial", "1,3", "--format", "json", "--window")
    assert code == 0
    data = json.loads(out)
    assert data["dynamics"]["meta"]["format"] == "symbolic_ti.dynamics"
    assert set(data["dynamics"]["trials"][0]["margins"]) == {"1", "10", "100"}
    assert data["early_stopping"]["phases"][-1]["end"] is None


def test_critical_parameter_time(capsys):
    code, out, _ = run(capsys, "critical", "--items", "9", "--exception", "6>4", "--set", "alpha=0.1", "--ridge",
                       "0.1", "--parameter", "time", "--trial", "4,5")
    assert code == 0 and "2.47268 (to_correct)" in out


@pytest.mark.parametrize("argv,needle", [
    (["--time", "-1"], "argument --time: time must be a real number >= 0"),
    (["--times", "3:1:4"], "argument --times: expected 0 <= A < B"),
    (["--family", "geometric", "--critical"], "argument --set: dynamics of the geometric family needs exact"),
    (["--log-times"], "argument --log-times: has no effect without --times"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, "dynamics", "--items", "6", "--set", "alpha=1/5", *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_symbolic_parameters_refuse_critical_times(capsys):
    code, _, err = run(capsys, "dynamics", "--items", "6", "--critical")
    assert code == 2 and "need every parameter set to a number" in err
    code, out, _ = run(capsys, "dynamics", "--items", "4", "--trial", "1,3")
    assert code == 0 and "alpha symbolic" in out


def test_renderers():
    d = dynamics(5, ["4>2"], parameters={"alpha": "1/4"}, ridge="1/10")
    assert "f_t(1, 3)" in d.to_latex(trials=[(1, 3)])
    assert d._repr_latex_().startswith("$")
    rep = critical_times(d)
    assert rep.to_dict()["kind"] == "critical_times" and "\\begin{tabular}" in rep.to_latex()
    es = early_stopping(d, [(3, 5)])
    assert "Target errors: (3, 5), (5, 3)" in es.to_text()
    assert es.to_dict()["target"] == [[3, 5], [5, 3]]


def test_long_times_are_written_short_in_the_text(capsys):
    # issue 15: --time 1e400 printed a 414-character header with all 401 digits
    code, out, _ = run(capsys, "dynamics", "--items", "5", "--exception", "4>2", "--set", "alpha=0.1", "--time",
                       "1e400", "--time", "2")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) < 100
    head = next(line for line in out.splitlines() if line.lstrip().startswith("trial"))
    assert head.split()[1:] == ["t=1.000e+400", "(401", "digits)", "t=2"]
    row = next(line for line in out.splitlines() if line.lstrip().startswith("(1, 2)"))
    assert len(row) == len(head)  # the columns stay aligned under the wider header


def test_notebook_html_display():
    import re

    # CONVENTIONS: at alpha = lambda = 1/10 the ridge solution has f(3, 6) = -387/3925, which gradient flow with
    # that ridge reaches at t = oo; at t = 0 every margin is 0
    d = dynamics(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    out = d._repr_html_()
    assert out is not None and out.startswith("<div>") and "6&gt;4" in out
    row = re.search(r"<tr><th[^>]*>\(3, 6\)</th>(.*?)</tr>", out).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    assert cells[0] == "0" and cells[-1] == "-387/3925" and row.count("#b00000") >= 1
    sym = dynamics(5, ["4>2"], parameters={"alpha": "symbolic"})._repr_html_()
    assert sym is not None and "exact limits f_oo" in sym and "alpha" in sym


def test_the_python_api_scans_time_as_the_cli_does(capsys):
    """``critical(..., parameter="time")`` is what ``critical -p time`` prints: the crossing of (4, 5) at
    t = 2.47268 for n=9, 6>4, alpha = lambda = 1/10, a sign change of the dense flow (scipy's expm on the Gram
    matrix, tests/test_dynamics.py::dense_flow); an interval keeps only the crossings inside it."""
    import symbolic_ti as st
    from symbolic_ti.dynamics import CriticalTimes
    from symbolic_ti.export.jsonreport import dumps
    from symbolic_ti.task import Task

    from test_dynamics import dense_flow, kernel

    rep = st.critical(9, ["6>4"], parameter="time", parameters={"alpha": "0.1"}, ridge="0.1", trials=[(4, 5)])
    assert isinstance(rep, CriticalTimes)
    (c,) = rep.times_of(4, 5)
    task = Task(9, ["6>4"])
    margin = [dense_flow(task, lambda a, b: kernel(a, b, 0.1, 0.0), 0.1, t)[(4, 5)] for t in (2.4726, 2.4728)]
    assert abs(c.value - 2.47268) < 5e-6 and float(c.upper) - float(c.lower) < 1e-9 and margin[0] * margin[1] < 0
    code, out, _ = run(capsys, "critical", "--items", "9", "--exception", "6>4", "--set", "alpha=0.1", "--ridge",
                       "0.1", "--parameter", "time", "--trial", "4,5", "--format", "json")
    assert code == 0 and json.loads(out) == json.loads(dumps(rep.to_dict()))
    assert st.critical(9, ["6>4"], parameter="time", parameters={"alpha": "0.1"}, ridge="0.1", trials=[(4, 5)],
                       interval=(0, 2)).times_of(4, 5) == ()
    with pytest.raises(st.ParameterError, match="time"):
        st.critical(9, ["6>4"], parameter="time", parameters={"alpha": "0.1"}, interval=(-1, 2))


def test_the_start_of_training_prints_zero_without_a_sign(capsys):
    """At t = 0 every output is 0 (training from zero output, docs/conventions.md); the exception's reversed entry
    f(4, 6) = -f(6, 4) is -(0.0) as a float and must print as 0, like the others (review finding)."""
    from symbolic_ti.cli import main

    assert main(["dynamics", "--items", "9", "--exception", "6>4", "--set", "alpha=1/10", "--ridge", "1/10",
                 "--critical"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  (4, 6)")]
    assert rows and rows[0][2] == "0", rows


def test_a_named_trial_without_ground_truth_is_said_not_dropped(capsys):
    # 7>4: (4, 6) lies inside the cycle 4..7, so it has no ground truth (CONVENTIONS.md) and no margin
    code, out, _ = run(capsys, "dynamics", "-n", "9", "-e", "7>4", "--set", "alpha=1/10", "--trial", "4,6",
                       "--trial", "1,9", "--times", "0:10:3")
    assert code == 0
    assert "(4, 6): no ground truth (no_ground_truth), so no margin" in out
    assert "(1, 9)" in out
