"""Behavioural data as experimenters record them (issue 13): correct-out-of-total counts, sessions, item coding,
honest reports of bounds and convergence, and the CLI's error paths.

Data: ``docs/examples/monkey_sessions.csv`` (``derivations/simulate_behaviour.py``: exchangeable family,
alpha = 1/5, lambda = 1/2, beta = 4, 48 sessions, fixed seed). Log-likelihoods are recomputed with
``scipy.stats.binom.logpmf`` on predictions of the independent float64 Gram solve (``numeric_predictions``).
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("scipy")
from scipy import stats  # noqa: E402

from symbolic_ti import Task, cli, get_family, numeric_predictions  # noqa: E402
from symbolic_ti.behaviour.coding import ItemCoding  # noqa: E402
from symbolic_ti.behaviour.data import behaviour_from_arrays, load_behaviour  # noqa: E402
from symbolic_ti.behaviour.fitting import fit  # noqa: E402
from symbolic_ti.behaviour.subjects import fit_subjects  # noqa: E402
from symbolic_ti.errors import DataError, ParameterError  # noqa: E402

MONKEY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "monkey_sessions.csv"
T7 = Task(7)
LABELS = ItemCoding(labels=tuple("ABCDEFG"))
LOAD = dict(item_columns=("first", "second"), correct_column="correct", total_column="total", coding=LABELS)


def f_of(task, alpha, ridge):
    pred = numeric_predictions(task, get_family("exchangeable"), {"alpha": alpha}, ridge=ridge)
    return {t: float(pred[t]) for t in task.trials}


def by_hand(path):
    """Correct and total per ordered trial (rank numbers), summed over the file's rows by hand."""
    k, n = defaultdict(int), defaultdict(int)
    with open(path) as fh:
        for row in csv.DictReader(fh):
            t = ("ABCDEFG".index(row["first"]) + 1, "ABCDEFG".index(row["second"]) + 1)
            k[t] += int(row["correct"])
            n[t] += int(row["total"])
    return k, n


@pytest.fixture(scope="module")
def monkey_fit():
    data = load_behaviour(MONKEY, T7, **LOAD)
    return data, fit(data, starts=3, seed=0, error_check=False)


def test_counts_are_summed_and_binomial_loglik_matches_scipy(monkey_fit):
    data, r = monkey_fit
    k, n = by_hand(MONKEY)
    assert data.counted and data.kind == "accuracy" and set(data.trials) == set(k)
    for t, v, c in zip(data.trials, data.values, data.counts, strict=True):
        assert c == n[t] and v == pytest.approx(k[t] / n[t], abs=1e-12)
    v = r.values
    f = f_of(T7, v["alpha"], v["lambda"])
    ll = 0.0
    for t in k:
        g = 1 if t[0] < t[1] else -1
        ll += float(stats.binom.logpmf(k[t], n[t], 1 / (1 + np.exp(-v["beta"] * g * f[t]))))
    assert r.loglik == pytest.approx(ll, rel=1e-9)
    assert "correct-out-of-total counts" in r.likelihood_basis and f"{sum(n.values())} counted" in r.likelihood_basis


def test_monkey_recovery_within_intervals(monkey_fit):
    _, r = monkey_fit
    assert r.converged and r.convergence == ()
    for name, truth in {"alpha": 0.2, "lambda": 0.5, "beta": 4.0}.items():
        p = r.parameter(name)
        assert p.lower < truth < p.upper, p
        assert p.at_bound == ""
    assert r.parameter("alpha").upper - r.parameter("alpha").lower < 0.08


def test_truth_on_the_boundary_is_reported_at_bound():
    """alpha = 0 (purely additive) is the truth; the estimate sits on the domain end, the interval is open there."""
    f = f_of(T7, 0, "1/2")
    p = np.array([1 / (1 + np.exp(-3 * f[t])) for t in T7.trials])
    k = np.random.default_rng(1).binomial(300, p)  # a draw whose maximum is on the boundary
    data = behaviour_from_arrays(T7, T7.trials, k / 300, [300] * len(k), kind="probability")
    r = fit(data, ridge="1/2", starts=2, error_check=False)
    a = r.parameter("alpha")
    assert a.at_bound == "at bound: domain end 0" and a.value < 1e-7
    assert a.lower == 0 and a.lower_at_bound and a.upper > 0
    assert r.converged  # a boundary maximum is a maximum
    assert "at bound: domain end 0; the interval is open on that side" in r.to_text()
    assert json.loads(r.to_json())["parameters"][0]["at_bound"] == "at bound: domain end 0"


def test_optimiser_limit_is_not_converged():
    """Perfect choices: the likelihood rises without end in beta; beta stops at the box limit e^7."""
    data = behaviour_from_arrays(T7, T7.trials, [1.0 if i < j else 0.0 for i, j in T7.trials], [20] * 42)
    r = fit(data, ridge="ridgeless", parameters={"alpha": 0}, starts=1, intervals=False, error_check=False)
    b = r.parameter("beta")
    assert b.at_bound.startswith("at bound: optimiser limit e^7") and b.value == pytest.approx(np.exp(7))
    assert not r.converged and any("beta reached the optimiser's limit" in c for c in r.convergence)
    assert "NOT converged" in r.to_text()


def test_item_coding_base_reversed_target(tmp_path):
    rows = [(1, 2, 7, 10), (3, 1, 1, 4), (2, 3, 5, 5)]  # (first, second, correct, total) in rank numbers
    plain = tmp_path / "plain.csv"
    plain.write_text("a,b,c,t\n" + "".join(f"{a},{b},{c},{t}\n" for a, b, c, t in rows))
    kw = dict(item_columns=("a", "b"), correct_column="c", total_column="t")
    ref = load_behaviour(plain, Task(3), **kw)
    zero = tmp_path / "zero_rev.csv"  # numbered from 0, lowest rank first: rank r is 3 - r
    zero.write_text("a,b,c,t\n" + "".join(f"{3 - a},{3 - b},{c},{t}\n" for a, b, c, t in rows))
    assert load_behaviour(zero, Task(3), coding=ItemCoding(base=0, reversed=True), **kw).values == ref.values
    swapped = tmp_path / "swapped.csv"  # target in the second column: an accuracy does not change
    swapped.write_text("a,b,c,t\n" + "".join(f"{b},{a},{c},{t}\n" for a, b, c, t in rows))
    d = load_behaviour(swapped, Task(3), coding=ItemCoding(target="second"), **kw)
    assert (d.trials, d.values, d.counts) == (ref.trials, ref.values, ref.counts)
    assert ref.values == (0.7, 1.0, 0.25) and ref.trials == ((1, 2), (2, 3), (3, 1))


def test_per_subject_fits_equal_separate_fits():
    opts = dict(ridge="1/2", starts=1, intervals=False)
    s = fit_subjects(MONKEY, T7, "session", filters=["session=1", "session=2", "session=3"], load=LOAD, **opts)
    assert s.subjects == ("1", "2", "3")
    for name, r in zip(s.subjects, s.fits, strict=True):
        alone = fit(load_behaviour(MONKEY, T7, filters=[f"session={name}"], **LOAD), error_check=False, **opts)
        assert r.values == pytest.approx(alone.values, rel=1e-6)
    alphas = [r.values["alpha"] for r in s.fits]
    a = s.summary[0]
    assert (a.name, a.n) == ("alpha", 3)
    assert a.mean == pytest.approx(np.mean(alphas)) and a.sd == pytest.approx(np.std(alphas, ddof=1))
    assert "population summary" in s.to_text() and json.loads(s.to_json())["summary"][0]["name"] == "alpha"


def test_api_errors(tmp_path):
    with pytest.raises(ParameterError, match="seed must be an integer >= 0"):
        fit(behaviour_from_arrays(Task(3), [(1, 2)], [0.5], [4]), seed=-1)
    with pytest.raises(DataError, match="give both correct_column and total_column"):
        load_behaviour(MONKEY, T7, item_columns=("first", "second"), correct_column="correct", coding=LABELS)


# ------------------------------------------------------------------------------------------- CLI
BASE = ["fit", "--items", "7", "--item-columns", "first,second", "--item-labels", "A,B,C,D,E,F,G",
        "--correct-column", "correct", "--total-column", "total", "--no-intervals", "--starts", "1",
        "--ridge", "1/2"]


def table(tmp_path, text):
    p = tmp_path / "t.csv"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("body, extra, option, words", [
    ("first,second,correct,total\nA,B,-1,5\n", [], "--correct-column", "is negative"),
    ("first,second,correct,total\nA,B,6,5\n", [], "--total-column", "is below the correct count"),
    ("first,second,correct,total\nA,B,2.5,5\n", [], "--correct-column", "not a whole number"),
    ("first,second,correct,total\nA,Q,1,5\n", [], "--item-labels", "'Q' in column 'second' is not one of"),
    ("s,first,second,correct,total\n1,A,B,1,5\n2,B,C,1,5\n", ["--subject-column", "s"], "--subject-column",
     "one row per subject"),
    ("first,second,correct,total\nA,B,1,5\n", ["--seed", "-1"], "--seed", "integer >= 0"),
    ("first,second,correct,total\nA,B,1,5\n", ["--per-subject"], "--per-subject", "needs --subject-column"),
])
def test_cli_new_errors_are_one_line_exit_2(capsys, tmp_path, body, extra, option, words):
    code = cli.main(BASE + ["--data", table(tmp_path, body)] + extra)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"symbolic-ti: error: argument {option}") and words in lines[0], err


def test_cli_data_without_counts_is_fitted_as_proportions(capsys, tmp_path):
    """No count column is assumed (the defaults are tied to no data set): a file without counts is fitted as
    proportions, one observation per row, and the report says what its intervals rest on."""
    body = "item_a,item_b,mean_prob_yes\n1,2,0.9\n2,1,0.2\n1,3,0.8\n3,1,0.3\n2,3,0.7\n3,2,0.35\n"
    code = cli.main(["fit", "--items", "3", "--data", table(tmp_path, body), "--no-intervals", "--starts", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "6 trials, 6 of 6 rows" in out and "the intervals rest on the 6 rows, not on a number of choices" in out
    # no counts were given: the note says proportions, never "counts" it was not given
    assert "quasi-likelihood over proportions: no count column, each data row one observation" in out
    assert "no count column: each data row is one observation of weight 1" in out
    assert "times counts" not in out and "counts times values" not in out


def test_cli_counts_given_keep_the_counts_wording(capsys, tmp_path):
    """The same proportions with a count column of 3 (3 x 0.9 = 2.7 is not whole): a quasi-likelihood of
    averaged probabilities times the counts given."""
    body = ("item_a,item_b,mean_prob_yes,n\n1,2,0.9,3\n2,1,0.2,3\n1,3,0.8,3\n3,1,0.3,3\n2,3,0.7,3\n"
            "3,2,0.35,3\n")
    code = cli.main(["fit", "--items", "3", "--data", table(tmp_path, body), "--count-column", "n",
                     "--no-intervals", "--starts", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "(quasi-likelihood: averaged probabilities times counts)" in out
    assert "quasi-binomial over averaged proportions (counts times values are not whole numbers)" in out
    assert "no count column" not in out


def test_cli_whole_choices_without_counts_are_one_choice_a_row(capsys, tmp_path):
    """Rows of single choices (0 or 1) without a count column: binomial, one choice per data row."""
    body = "item_a,item_b,mean_prob_yes\n" + "".join(f"{i},{j},{v}\n" for (i, j), v in
                                                   {(1, 2): 1, (2, 1): 0, (1, 3): 1, (3, 1): 0, (2, 3): 1,
                                                    (3, 2): 1}.items())
    code = cli.main(["fit", "--items", "3", "--data", table(tmp_path, body), "--no-intervals", "--starts", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "whole counts of choices (no count column: each data row is one choice)" in out
    assert "the 6 counted choices in 6 rows" in out


def test_cli_missing_count_column_says_how_to_go_without(capsys, tmp_path):
    code = cli.main(["fit", "--items", "3", "--data", table(tmp_path, "item_a,item_b,mean_prob_yes\n1,2,0.9\n"),
                     "--count-column", "n_seeds"])
    err = capsys.readouterr().err
    assert code == 2 and "argument --count-column" in err and "no --count-column" in err


def test_cli_matrix_of_wrong_size_is_checked_before_the_data(capsys, tmp_path):
    s = tmp_path / "S.csv"
    s.write_text("1,0\n0,1\n")
    code = cli.main(["fit", "--items", "7", "--family", "similarity", "--set", f"matrix={s}",
                     "--data", str(tmp_path / "missing.csv")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "argument --set" in err and "2 x 2" in err


def test_cli_kind_against_column_name_warns(capsys, tmp_path):
    body = "item_a,item_b,acc\n" + "".join(f"{i},{j},{0.8 if i < j else 0.2}\n" for i, j in Task(3).trials)
    code = cli.main(["fit", "--items", "3", "--data", table(tmp_path, body), "--value-column", "acc",
                     "--kind", "score", "--count-column", "none", "--ridgeless", "--set", "alpha=0",
                     "--no-intervals", "--starts", "1"])
    err = capsys.readouterr().err
    assert code == 0 and "warning: the column 'acc' reads as an accuracy by its name" in err


def test_cli_counts_and_per_subject(capsys):
    code = cli.main(BASE + ["--data", str(MONKEY), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    assert d["data"]["counted"] is True and "correct-out-of-total" in d["likelihood_basis"]
    code = cli.main(BASE + ["--data", str(MONKEY), "--subject-column", "session", "--per-subject",
                            "--filter", "session=1", "--filter", "session=2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "2 subjects (session)" in out and "population summary" in out


def test_cli_negative_count_weight_names_count_column(capsys, tmp_path):
    code = cli.main(["fit", "--items", "3", "--data", table(tmp_path, "item_a,item_b,p,n\n1,2,0.9,-4\n"),
                     "--value-column", "p", "--count-column", "n"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "argument --count-column" in err and "> 0" in err


#: Fits by distance: the note on what the intervals rest on calls the rows distance rows, with the data rows pooled
#: into them and the trials their predictions average (review finding: "rest on the 6 rows" of a fit pooled from
#: many rows read as six observations). n = 7, both orders, end items included: the 42 ordered trials with ground
#: truth, 2 (7 - d) of them at distance d (docs/conventions.md).
_BY_DISTANCE = [
    ("distance,acc\n" + "".join(f"{d},0.{6 + d % 4}\n" for d in range(1, 7)), ["--value-column", "acc"],
     "the intervals rest on the 6 distance rows (6 data rows pooled by distance; the prediction of each averages "
     "its distance's trials, 42 in all), not on a number of choices"),
    ("distance,acc,subject\n" + "".join(f"{d},0.{6 + (d + s) % 4},s{s}\n" for d in range(1, 7) for s in range(5)),
     ["--value-column", "acc"],
     "the intervals rest on the 6 distance rows (30 data rows pooled by distance; the prediction of each averages "
     "its distance's trials, 42 in all), not on a number of choices"),
    ("distance,correct,total\n" + "".join(f"{d},{12 + d},20\n" for d in range(2, 7)),
     ["--correct-column", "correct", "--total-column", "total"],
     "the intervals rest on the 100 counted choices in 5 distance rows (5 data rows pooled by distance; the "
     "prediction of each averages its distance's trials, 30 in all)"),
]


@pytest.mark.parametrize("k", range(len(_BY_DISTANCE)))
def test_cli_a_fit_by_distance_says_what_its_rows_are(capsys, tmp_path, k):
    body, options, note = _BY_DISTANCE[k]
    code = cli.main(["fit", "--items", "7", "--data", table(tmp_path, body), "--distance-column", "distance",
                     *options, "--no-intervals", "--starts", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert note in " ".join(out.split()), out
