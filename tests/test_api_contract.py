"""The contract of every public entry point of the Python API (issue 24, section 7; scikit-learn's
``check_param_validation`` in spirit): each parameter is named in the constraint table
:data:`symbolic_ti.arguments.ARGUMENTS`, and for each one, invalid values drawn by kind (wrong type, out of domain,
NaN, infinity, huge, empty, repeated) raise the library's error (:class:`symbolic_ti.SymbolicTIError`) with one
line that names the argument, and write nothing (no output, no file).

A public function with a parameter that is not in the table fails :func:`test_every_parameter_is_in_the_table`,
so a new parameter is covered the day it exists. Also here: fresh-process checks of the hooks the layer test of
tests/test_architecture.py cannot see (``Result.subs``, the renderers, ``Family.__add__``), and pickling of
results, reports and families from every solver path.
"""

from __future__ import annotations

import inspect
import os
import pickle
import re
import subprocess
import sys
import warnings
from fractions import Fraction

import pytest
import sympy as sp

import symbolic_ti as st
from symbolic_ti.analysis.general import evaluate_no_exception, fixed_position_ranks
from symbolic_ti.api import make_family
from symbolic_ti.export.reading import read_report
from symbolic_ti.arguments import ARGUMENTS
from symbolic_ti.results import Result

HUGE = 10**5000  # more digits than Python prints (4300): messages must abbreviate it, never raise
NAN, INF = float("nan"), float("inf")

#: Invalid values of each argument of ARGUMENTS, by kind.
_INT = ["x", 3.5, NAN, INF, True, [], None]
INVALID: dict[str, list[object]] = {
    "n": [*_INT, 2, -1, 0, HUGE],
    "n_points": [*_INT, 0, -1],
    "dps": [*_INT, 0, -1, HUGE],
    "seed": ["x", 3.5, NAN, [], None],
    "i": [*_INT, 0, 99, -HUGE],
    "j": [*_INT, 0, 99, HUGE],
    "ridge": [-1, -HUGE, NAN, INF, -INF, "x", "", [1], {}, "1/0", "-0.5", sp.I],
    "method": [5, "x", "", None, ["auto"]],
    "ridgeless_method": [5, "x", "", None],
    "interval": [5, "x", (1,), (1, 2, 3), (Fraction(1, 2), Fraction(1, 4)), ("x", 1), (NAN, 1), (0, HUGE),
                 (-1, Fraction(1, 2))],
    "trials": [5, "x", [(1, 1)], [(0, 1)], [(1, 99)], [("a", 2)], [5], [(1, 2, 3)], (1, 2)],
    "exceptions": [64, "6>4", (3, 1), ["x"], [(1, 3)], [(3, 1), (3, 1)], [(99, 1)], [(3, 2)], [64], 3.5],
    "parameters": [5, "alpha=0.1", {1: 0.1}, {"nosuch": 1}, {"alpha": NAN}, {"alpha": "x"}, {"alpha": HUGE},
                   {"alpha": []}, {"alpha": -1}, ["alpha"]],
    "values": [5, "alpha", {1: 0.1}, {"nosuch": 1}, {"alpha": NAN}, {"alpha": "x"}, {"alpha": HUGE},
               {"lambda": -1}, 3.5, None, {10**1000: 1}],
    "point": [5, "alpha=0.1", {"nosuch": 1}, {"alpha": NAN}, {"alpha": "x"}],
    "family": [5, "nosuch", "", None, ["exchangeable"]],
    "name": [5, "nosuch", "", None],
    "parameter": [5, "nosuch", "", None],
    "precision": ["x", 3.5, -1, 4, NAN, HUGE, None],
    "rcond": [NAN, "x", 2, -1, 0, INF],
    "tol": ["x", NAN, -1, 0, INF],
    "budget": ["x", "120", NAN, INF, -1, 0, True, []],
    "task": [4, None, "x", st.Exchangeable()],
    "result": [4, None, "x"],
    "category": [5, "nosuch", "", None],
    "alpha": [NAN, INF, -1, 2, HUGE, "x", [], None],
    "kappa_d": [NAN, INF, -1, 1, HUGE, "x", []],
    "form": [5, "nosuch", "", None],
    "source": [5, None, "no-such-file.json", "{", "{}", '{"meta": 5}', {"meta": {}}, [], b"x"],
    "hypotheses": [5, None, "exchangeable:alpha=1/10", ["exchangeable:alpha=1/10"], ["nosuch:alpha=1", "x"],
                   ["exchangeable:alpha=2", "exchangeable:alpha=1/2"], ["exchangeable", "exchangeable:alpha=1/2"],
                   ["exchangeable:alpha=1/10;beta=0", "exchangeable:alpha=1/2"],
                   ["exchangeable:alpha=1/10;nope=1", "exchangeable:alpha=1/2"],
                   ["exchangeable:alpha=1/10;ridge=-1", "exchangeable:alpha=1/2"],
                   ["exchangeable:alpha=1/10", "exchangeable:alpha=1/10"], [5, 6]],
    "designs": [None, "x", 2, [], [5], 3.5, {}],
    "presentations": [*_INT, 0, -1],
    "total": ["x", 3.5, NAN, INF, True, [], 0, -1],
    "fisher": [5, "alpha", [5], ["nosuch"], ["beta", "beta"], ["lambda"]],
    "criterion": [5, "x", "", None],
    "mi_method": [5, "x", "", None],
    "samples": [*_INT, 99, 0, -1],
    "power": ["x", "0.8", NAN, INF, True, [], 0, 1, -0.5, 1.5],
    "simulations": [*_INT, 99, 0, -1],
    "refit": [5, "x", "", None, ["beta"]],
    "refit_starts": [*_INT, 0, -1],
    "data": [5, None, "x", {}, [], 3.5],
    "next": [*_INT, 0, -1, 10**6],
    "outcome": [5, "x", "", None, ["score"]],
    "score_sd": [0, -1, "x", NAN, INF, [], -HUGE, 1],  # (with binomial outcomes any score_sd is refused; None is the default)
}

#: Words one of which the message must contain for each argument (its name, or how messages call it).
WORDS: dict[str, tuple[str, ...]] = {
    "n": ("n", "items"), "exceptions": ("exception", "exceptions"), "parameters": ("parameters", "parameter", "alpha"),
    "values": ("values", "subs", "alpha", "lambda"), "point": ("point", "alpha", "parameter"),
    "i": ("trial", "item"), "j": ("trial", "item"), "ridge": ("ridge",), "interval": ("interval",),
    "family": ("family",), "name": ("family", "example data"), "parameter": ("parameter",), "precision": ("precision",),
    "trials": ("trial", "trials"), "hypotheses": ("hypotheses", "hypothesis"), "designs": ("designs",),
    "mi_method": ("mi_method",), "source": ("report", "reports", "read_report", "source", "JSON", "file"), "form": ("form",),
}


def _symbolic() -> Result:
    return st.derive(4, ridge=1)  # alpha symbolic


def _numeric() -> Result:
    return st.derive(4, parameters={"alpha": "1/2"}, ridge=1)


def _behaviour():
    from symbolic_ti.behaviour.data import behaviour_from_arrays

    task = st.Task(4)
    return behaviour_from_arrays(task, task.trials, [0.9 if i < j else 0.1 for i, j in task.trials], [10] * 12)


def _fit(budget):
    from symbolic_ti.behaviour.fitting import fit

    return fit(_behaviour(), ridge="ridgeless", starts=1, intervals=False, error_check=False, budget=budget)


def _compare(budget):
    from symbolic_ti.behaviour.fitting import compare_families

    return compare_families(_behaviour(), ["exchangeable"], ridge="ridgeless", starts=1, budget=budget)


#: Every public entry point that takes user arguments: name -> (function, valid keyword arguments).
ENTRY_POINTS = {
    "Task": (st.Task, lambda: {"n": 4, "exceptions": ()}),
    "get_family": (st.get_family, lambda: {"name": "exchangeable"}),
    "make_family": (make_family, lambda: {"family": "exchangeable", "parameters": None}),
    "solve": (st.solve, lambda: {"task": st.Task(4), "family": st.Exchangeable(alpha="1/2"), "ridge": 1,
                                 "method": "auto", "ridgeless_method": "auto"}),
    "derive": (st.derive, lambda: {"n": 4, "exceptions": (), "family": "exchangeable",
                                   "parameters": {"alpha": "1/2"}, "ridge": 1, "method": "auto",
                                   "ridgeless_method": "auto"}),
    "critical": (st.critical, lambda: {"n": 4, "exceptions": (), "parameter": "alpha", "trials": None,
                                       "family": "exchangeable", "parameters": None, "ridge": 1, "interval": None}),
    "critical_values": (st.critical_values, lambda: {"result": _symbolic(), "parameter": "alpha", "interval": None,
                                                     "trials": None, "method": "auto"}),
    "numeric_predictions": (st.numeric_predictions, lambda: {
        "task": st.Task(4), "family": st.Exchangeable(), "point": {"alpha": 0.3}, "ridge": 0.1,
        "precision": "float64", "trials": None, "rcond": None}),
    "verify": (st.verify, lambda: {"result": _symbolic(), "n_points": 1, "dps": 20, "seed": 0, "interval": None,
                                   "tol": None}),
    "compile_result": (st.compile_result, lambda: {"result": _symbolic(), "trials": None}),
    "learning_dynamics": (st.learning_dynamics, lambda: {"n": 4, "exceptions": (), "family": "exchangeable",
                                                         "parameters": {"alpha": 0}, "ridge": "ridgeless",
                                                         "method": "auto", "dps": 30}),
    "evaluate_no_exception": (evaluate_no_exception, lambda: {"n": 5, "i": 1, "j": 3, "alpha": "1/2", "ridge": 1,
                                                               "kappa_d": 0, "form": "chebyshev", "precision": 30}),
    "fixed_position_ranks": (fixed_position_ranks, lambda: {"n": 7, "exceptions": ["5>3"]}),
    "example_data": (st.example_data, lambda: {"name": "lm_pair_summary_n9"}),
    "read_report": (read_report, lambda: {"source": _numeric().to_dict()}),
    "design_experiment": (st.design_experiment, lambda: {
        "hypotheses": ["exchangeable:alpha=1/10", "exchangeable:alpha=1/2"], "designs": st.Task(4), "trials": "test",
        "presentations": 1, "total": None, "fisher": (), "criterion": "mutual-information", "mi_method": "auto",
        "samples": 100, "seed": 0, "dps": 20, "power": None, "simulations": 100, "refit": "none",
        "refit_starts": 2, "outcome": "binomial", "score_sd": None, "budget": 60}),
    "adaptive_design": (st.adaptive_design, lambda: {
        "hypotheses": ["exchangeable:alpha=1/10", "exchangeable:alpha=1/2"], "data": _behaviour(),  # (whole choices: 9 or 1 of 10)
        "trials": "test",
        "next": 1, "dps": 20}),
    "Result.subs": (lambda values: _numeric().subs(values), lambda: {"values": {"alpha": "1/3"}}),
    "Result.f": (lambda i, j: _numeric().f(i, j), lambda: {"i": 1, "j": 2}),
    "Result.margin": (lambda i, j: _numeric().margin(i, j), lambda: {"i": 1, "j": 2}),
    "Result.category_summary": (lambda category: _numeric().category_summary(category),
                                lambda: {"category": "premise"}),
    # the fits' own arguments are checked in tests/test_fit*.py; here the budget that every costly entry point takes
    "fit": (_fit, lambda: {"budget": None}),
    "compare_families": (_compare, lambda: {"budget": None}),
}

#: Parameters whose invalid values depend on the entry point (``method``: each solver has its own choices;
#: ``dps`` of learning_dynamics: 10..1000): the values above are invalid for every one of them.
SIGNATURE_OF = {"Result.subs": Result.subs, "Result.f": Result.f, "Result.margin": Result.margin,
                "Result.category_summary": Result.category_summary}


#: Values of INVALID that one entry point accepts by design: (entry point, parameter, index) -> why.
ACCEPTED = {("verify", "interval", 8): "verify draws inside the family's domain and redraws points outside it"}


def _parameters(name: str) -> list[str]:
    func = SIGNATURE_OF.get(name, ENTRY_POINTS[name][0])
    return [p.name for p in inspect.signature(func).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def test_every_public_entry_point_is_listed():
    """Every callable of ``symbolic_ti.__all__`` that takes user arguments is in ENTRY_POINTS (or is a type, an
    error or a constant)."""
    not_entry = {"ExceptionPair", "Family", "Exchangeable", "Geometric", "RIDGELESS", "Result", "CategorySummary",
                 "CriticalReport", "VerifyReport", "Dynamics", "DesignReport", "AdaptiveDesignReport", "CATEGORIES", "FAMILIES", "symbols"}
    names = [n for n in st.__all__ if n not in not_entry and not (isinstance(getattr(st, n), type)
                                                                  and issubclass(getattr(st, n), Warning | Exception))]
    assert sorted(set(names) - set(ENTRY_POINTS)) == []


def test_every_parameter_is_in_the_table():
    """A public parameter that the constraint table does not name fails here (add it to ARGUMENTS and INVALID)."""
    missing = {(name, p) for name in ENTRY_POINTS for p in _parameters(name) if p not in ARGUMENTS}
    assert missing == set()
    assert {p for name in ENTRY_POINTS for p in _parameters(name)} <= set(INVALID)


CASES = [(name, param, k) for name in ENTRY_POINTS for param in _parameters(name)
         for k in range(len(INVALID[param]))]


@pytest.mark.parametrize(("name", "param", "k"), CASES, ids=[f"{n}-{p}-{k}" for n, p, k in CASES])
def test_an_invalid_argument_raises_one_line_naming_it(name, param, k, capsys, tmp_path, monkeypatch):
    func, valid = ENTRY_POINTS[name]
    value = INVALID[param][k]
    kwargs = valid()
    if (name, param, k) in ACCEPTED:
        pytest.skip(ACCEPTED[(name, param, k)])
    kwargs[param] = value
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(st.SymbolicTIError) as info:
            func(**kwargs)
    message = str(info.value)
    assert "\n" not in message and 0 < len(message) <= 600, message
    words = WORDS.get(param, (param,))
    assert any(re.search(rf"\b{re.escape(w)}\b", message) for w in words), (words, message)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    assert os.listdir(tmp_path) == []


def test_a_family_parameter_out_of_its_domain_raises_naming_it():
    for value in (NAN, INF, -1, 2, HUGE, -HUGE, "x", [], "1/0"):
        with pytest.raises(st.ParameterError, match=r"\balpha\b") as info:
            st.Exchangeable(alpha=value)
        assert "\n" not in str(info.value) and len(str(info.value)) < 400
    with pytest.raises(st.ParameterError, match="nosuch"):
        st.Exchangeable(nosuch=1)


def test_a_single_exception_is_refused_with_the_list_it_should_be():
    with pytest.raises(st.TaskError, match=re.escape("exceptions must be a list such as [(6, 4)]")):
        st.derive(9, (6, 4))
    with pytest.raises(st.TaskError, match=re.escape("['6>4']")):
        st.derive(9, "6>4")
    assert st.derive(9, None, parameters={"alpha": 0}, ridge=1) == st.derive(9, [], parameters={"alpha": 0}, ridge=1)


def test_a_single_trial_is_refused_like_a_single_exception():
    """A single pair where a list of pairs is expected: every public function taking trials refuses it with the
    list it should be, in the words derive uses for a single exception (one helper, single_pair_error)."""
    from symbolic_ti.analysis.conjunctivity import critical_conjunctivity
    from symbolic_ti.behaviour.data import behaviour_from_arrays
    from symbolic_ti.dynamics.timegrid import evaluate_grid
    from symbolic_ti.export.dynamics import dynamics_to_text
    from symbolic_ti.figures.margin_curves import curve_data
    from symbolic_ti.figures.dynamics import trajectory_data

    task = st.Task(9, ["6>4"])
    symbolic = st.derive(task, ridge="1/10")
    dyn = st.learning_dynamics(task, parameters={"alpha": "1/10"})
    calls = {
        "critical": lambda t: st.critical(task, parameter="alpha", ridge="1/10", trials=t),
        "critical_values": lambda t: st.critical_values(symbolic, "alpha", trials=t),
        "numeric_predictions": lambda t: st.numeric_predictions(task, st.Exchangeable(), {"alpha": 0.1}, ridge=0.1,
                                                                trials=t),
        "compile_result": lambda t: st.compile_result(symbolic, trials=t),
        "critical_conjunctivity": lambda t: critical_conjunctivity(task, "1/10", trials=t),
        "curve_data": lambda t: curve_data(symbolic, "alpha", trials=t, resolution=3),
        "trials_with_margin": lambda t: dyn.trials_with_margin(t),
        "evaluate_grid": lambda t: evaluate_grid(dyn, [0, 1], trials=t),
        "dynamics_to_text": lambda t: dynamics_to_text(dyn, trials=t, times=[1]),
        "trajectory_data": lambda t: trajectory_data(dyn, t),
    }
    message = re.escape("trials must be a list such as [(3, 6)], got the single trial (3, 6)")
    for name, call in calls.items():
        with pytest.raises(st.TaskError, match=f"^{message}$"):
            call((3, 6))
            pytest.fail(f"{name} read a single trial")
        call([(3, 6)])  # the list of one is read
    with pytest.raises(st.DataError, match=re.escape("trials must be a list such as [(1, 2)], got the single trial")):
        behaviour_from_arrays(st.Task(3), (1, 2), [0.9, 0.2], [1, 1])
    # the same words as the single exception of derive and critical
    for call in (lambda: st.derive(9, (6, 4)), lambda: st.critical(9, (6, 4), parameter="alpha", ridge="1/10")):
        with pytest.raises(st.TaskError, match="^" + re.escape("exceptions must be a list such as [(6, 4)], got the "
                                                                "single exception (6, 4)") + "$"):
            call()


# ------------------------------------------------------------------------------------------ huge numbers
def test_huge_exact_numbers_print_in_full_and_messages_abbreviate_them():
    """alpha = 10^-4400 (more digits than Python prints): every rendering is complete and exact, repr and
    messages abbreviate; the value read back from the JSON srepr is the same number."""
    alpha = sp.Rational(1, 10**4400)
    r = st.derive(4, parameters={"alpha": alpha}, ridge=1)
    # additive limit: f(1, 4) at alpha -> 0 is 5/7 (docs/conventions.md); exact value has a 4400-digit part
    text, latex, js = r.to_text(), r.to_latex(), r.to_json()
    assert "0" * 4400 in latex and "0" * 4400 in js
    # the text report's header writes the value short (issue 24 review d); its closed forms stay exact
    assert "  family   exchangeable(alpha=1/1.000e+4400 (4401 digits), kappa_d=0)" in text.splitlines()
    assert "(4401 digits)" in repr(r) and len(repr(r)) < 300
    with pytest.raises(st.ParameterError) as info:
        st.derive(4, ridge=-10**5000)
    assert "1.000e+5000 (5001 digits)" in str(info.value)
    assert str(r)  # the display text (a summary or the report)
    sys_limit = sys.get_int_max_str_digits()
    assert sys_limit == 4300 or sys_limit > 0  # the interpreter's guard is back after the renders
    with pytest.raises(ValueError):
        str(10**5000)


#: Values of 1,000 digits (which Python prints in full) echoed by messages of several entry points: each message is
#: one short line with the number abbreviated (review finding: derive(10**1000) raised a message of 1,124
#: characters). Every one writes the number as short_int does, from the number's own digits.
BIG = 10**1000
_BIG_MESSAGES = [
    (lambda: st.derive(BIG), "n (number of items) = 1.000e+1000 (1001 digits) is too large"),
    (lambda: st.derive(9, [(BIG, 4)]), "winner W = 1.000e+1000 (1001 digits) is out of range"),
    (lambda: st.derive(9, parameters={"alpha": BIG}), "alpha = 1.000e+1000 (1001 digits) is outside its domain"),
    (lambda: st.derive(9, parameters={BIG: 1}), "got the key 1.000e+1000 (1001 digits)"),
    (lambda: st.derive(9, ridge=-BIG), "got -1.000e+1000 (1001 digits)"),
    (lambda: st.derive(9, ridge=BIG * sp.pi), "1.000e+1000 (1001 digits)*pi is about 10^1,000"),
    (lambda: st.derive(9, ridge=sp.Rational(1, 3 * BIG) - sp.Rational(1, 3 * BIG) - 1),
     "got -1"),  # a short value stays as it is
    (lambda: st.Task(9, [f"{BIG}>4"]), "1.000e+1000 (1001 digits)"),
]


@pytest.mark.parametrize("k", range(len(_BIG_MESSAGES)))
def test_messages_abbreviate_numbers_of_a_thousand_digits(k):
    from symbolic_ti.digits import short_int

    call, part = _BIG_MESSAGES[k]
    assert short_int(BIG) == "1.000e+1000 (1001 digits)"
    with pytest.raises(st.SymbolicTIError) as info:
        call()
    message = str(info.value)
    assert part in message and "\n" not in message and len(message) < 300, message
    assert "0" * 30 not in message


def test_library_errors_shorten_numbers_as_the_command_line_does():
    """Every library error writes a number of more than 20 digits short, in scientific notation with its count of
    digits (expected values written out here), and keeps shorter ones as written."""
    cases = {"n = " + "9" * 21: "n = 1.000e+21 (21 digits)",
             "x 12345678901234567890 y": "x 12345678901234567890 y",
             "a " + "1" * 5000 + "/7": "a 1.111e+4999 (5000 digits)/7",
             "0.1000000000000000055511151231257827 and 3/7": "1.000e-1 (35 digits) and 3/7",
             "no digits": "no digits"}
    for text, short in cases.items():
        assert str(st.ParameterError(text)) == short


def test_short_numbers_of_a_million_digits():
    from symbolic_ti.digits import short_int

    assert short_int(10**99999) == "1.000e+99999 (100000 digits)"
    assert short_int(-(2 * 10**5000 - 1)) == "-2.000e+5000 (5001 digits)"
    assert short_int(99995 * 10**30) == "1.000e+35 (35 digits)"  # 9.9995e34 rounds up into the next power
    assert short_int(12345) == "12345"


# -------------------------------------------------------------------------------------------- pickling
def _paths() -> dict[str, object]:
    lazy = st.derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    built = st.derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    built.build_all()
    return {
        "laplacian, lazy": lazy,
        "laplacian, built": built,
        "laplacian, symbolic": st.derive(5, ["4>2"]),
        "full": st.derive(5, ["4>2"], parameters={"alpha": "1/10"}, ridge="1/10", method="full"),
        "ridgeless limit": st.derive(5, ["4>2"], ridge="ridgeless"),
        "halved ridgeless": st.derive(5, ["4>2"], ridge="ridgeless", method="halved"),
        "dense flint": st.derive(4, family="geometric", ridge="1/2"),
        "relu": st.derive(4, family="relu-ntk", ridge="1/2"),
        "critical report": st.critical(9, ["6>4"], parameter="alpha", ridge="ridgeless", trials=[(3, 6)]),
        "verify report": st.verify(st.derive(4, ridge=1), n_points=2),
        "dynamics": st.learning_dynamics(4, parameters={"alpha": 0}),
        "family": st.Exchangeable(alpha="1/3"),
        "sum family": st.Exchangeable(alpha="1/3") + st.get_family("geometric"),
        "task": st.Task(9, ["6>4"]),
        "category summary": built.category_summary("premise"),
    }


def test_results_reports_and_families_pickle_and_round_trip_equal():
    for label, obj in _paths().items():
        back = pickle.loads(pickle.dumps(obj))
        assert back == obj, label
        assert hash(back) == hash(obj), label
    r = pickle.loads(pickle.dumps(st.derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")))
    # docs/conventions.md reference values (n=9, 6>4, alpha = lambda = 1/10)
    assert (r.f(6, 4), r.f(1, 9), r.f(3, 7), r.f(3, 6)) == (sp.Rational(5509, 7850), sp.Rational(7902, 3925),
                                                           sp.Rational(162, 785), sp.Rational(-387, 3925))
    assert len({r, pickle.loads(pickle.dumps(r))}) == 1


# ------------------------------------------------------------------- hooks, each in a fresh process
def _fresh(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


_HAND_BUILT = """
import sympy as sp
import symbolic_ti
from symbolic_ti.results import Result
from symbolic_ti.task import Task
from symbolic_ti.families import Exchangeable
a = sp.Symbol("alpha", positive=True)
task = Task(3)
# n = 3, alpha = 1/2, ridge 1: predictions set by hand (zeros, not a solver's)
preds = {t: sp.Integer(0) for t in task.trials}
r = Result(task, Exchangeable(alpha="1/2"), sp.Integer(1), preds, "by hand")
"""


def test_hooks_of_a_hand_built_result_in_one_fresh_process():
    """``Result.subs`` (the solvers are not imported by ``import symbolic_ti``: subs imports them by name), the
    renderers (imported by name on the first render) and ``Family.__add__`` (compose registers the sum)."""
    out = _fresh(_HAND_BUILT + """import json, sys
print('symbolic_ti.solvers' in sys.modules, 'symbolic_ti.export.text' in sys.modules)
print('\\\\' in r.to_latex(), 'meta' in json.loads(r.to_json()), 'n=3' in r.to_text(), 'n=3' in str(r))
print(type(Exchangeable(alpha=0) + Exchangeable(alpha=1)).__name__)
print(r.subs({'kappa_d': 0}).f(1, 3))
""")
    lines = out.splitlines()
    assert lines[0].split() == ["False", "False"]  # neither hook had run before
    assert lines[1].split() == ["True", "True", "True", "True"]
    assert lines[2] == "SumFamily"
    # Setting kappa_d, which has a value already (0), solves the task again (Result.subs), whatever the
    # hand-built predictions are. Lippl et al.'s closed form (docs/conventions.md): cosh(mu) = (1 + 1)/(1 - 1/2)
    # = 4, sinh(mu) = sqrt(15), f(1, 3) = 2 sinh(mu) / (sinh(2 mu) - sinh(mu)) = 2 sqrt(15) / (7 sqrt(15)) = 2/7
    assert sp.Rational(lines[3]) == sp.Rational(2, 7)


def test_the_hand_built_expected_value():  # the closed form above, against the solver
    assert st.derive(3, parameters={"alpha": "1/2"}, ridge=1).f(1, 3) == sp.Rational(2, 7)
