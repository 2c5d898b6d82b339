"""The fit's messages name what they are about (issue 13 review, item 3): a missing column names its own option,
and the pooling note lists every column that varies within the pooled trials (not only those with few values)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symbolic_ti import Task, cli
from symbolic_ti.behaviour.data import load_behaviour

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
MONKEY = ["fit", "--data", str(EXAMPLES / "monkey_sessions.csv"), "--items", "7", "--item-columns", "first,second",
          "--item-labels", "A,B,C,D,E,F,G"]
COUNTS = ["--correct-column", "correct", "--total-column", "total", "--subject-column", "session"]
HUMAN = ["fit", "--data", str(EXAMPLES / "human_by_distance.csv"), "--items", "7", "--distance-column", "distance"]


@pytest.mark.parametrize("base", [MONKEY, HUMAN], ids=["per-trial", "by-distance"])
@pytest.mark.parametrize("option", ["--correct-column", "--total-column", "--subject-column"])
def test_missing_count_or_subject_column_names_its_option(capsys, base, option):
    args = base + COUNTS
    args[args.index(option) + 1] = "nope"
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"symbolic-ti: error: argument {option}: ") and "'nope'" in err and "\n" not in err


@pytest.mark.parametrize("base, extra, option", [
    (MONKEY, ["--value-column", "nope", "--kind", "accuracy", "--count-column", "none"], "--value-column"),
    (MONKEY, ["--value-column", "acc", "--count-column", "nope"], "--count-column"),
    (HUMAN, ["--value-column", "nope", "--kind", "accuracy", "--count-column", "none"], "--value-column"),
    (HUMAN, ["--value-column", "correct", "--kind", "accuracy", "--count-column", "nope"], "--count-column"),
    (HUMAN[:-1] + ["nope"], ["--value-column", "correct", "--kind", "accuracy", "--count-column", "none"],
     "--distance-column"),
])
def test_missing_value_count_distance_column_names_its_option(capsys, base, extra, option):
    assert cli.main(base + extra) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"symbolic-ti: error: argument {option}: ") and "'nope'" in err


def test_pooling_note_lists_every_varying_column(tmp_path):
    """25 sessions (more than a handful of values) and a measurement column both vary within each trial."""
    lines = ["session,item_a,item_b,p,rt"] + [f"{s},{a},{b},0.7,{300 + s}" for s in range(1, 26)
                                                for a, b in ((1, 2), (2, 1), (2, 3), (3, 2))]
    path = tmp_path / "s.csv"
    path.write_text("\n".join(lines) + "\n")
    d = load_behaviour(path, Task(3), value_column="p", count_column=None, truth_column=None, kind="probability")
    cols = dict(d.averaged_over)
    assert set(cols) == {"session", "rt"} and len(cols["session"]) == 25  # not p, the value column itself
    assert "session (25 values)" in d.averaged_text()


def test_pooling_note_names_design_columns_not_measurements(tmp_path):
    """A column that varies within a trial is named as pooled when it is a design factor (labels, integer
    session numbers), not when it holds measurements (non-integer numbers such as another accuracy)."""
    from symbolic_ti import Task
    from symbolic_ti.behaviour.data import load_behaviour

    rows = ["item_a,item_b,p,n,session,other_score"]
    for s in (1, 2):
        for i, j in Task(3).trials:
            rows.append(f"{i},{j},{0.6 + 0.1 * s},10,{s},{0.25 * s + 0.01 * i}")
    f = tmp_path / "d.csv"
    f.write_text("\n".join(rows) + "\n")
    d = load_behaviour(f, Task(3), value_column="p", count_column="n")
    assert [c for c, _ in d.averaged_over] == ["session"]


def test_a_fit_with_as_many_parameters_as_rows_is_flagged(tmp_path):
    """Review of issue 24: one data row and three fitted parameters (alpha, the ridge, beta) printed AIC/BIC with
    no word that the fit is not identified; now a DataWarning says so, and the note says "1 row"."""
    import warnings

    from symbolic_ti.errors import DataWarning

    data = tmp_path / "one.csv"
    data.write_text("first,second,accuracy\n1,2,0.8\n")
    from symbolic_ti.cli import main

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(["fit", "--data", str(data), "--items", "3", "--value-column", "accuracy",
                         "--item-columns", "first,second"])
    assert code == 0
    text = err.getvalue() + " ".join(str(w.message) for w in caught if issubclass(w.category, DataWarning))
    assert "3 parameters fitted to 1 data row: the fit is not identified" in text
    assert "rest on the 1 row," in out.getvalue()
