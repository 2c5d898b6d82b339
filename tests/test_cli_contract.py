"""The contract of every command-line option, for every subcommand, from the argparse parsers themselves.

Like scikit-learn's ``check_param_validation`` (``sklearn/utils/estimator_checks.py``), which generates invalid
values from each estimator's constraint table: the options are read from :func:`symbolic_ti.cli.app.build_parser`
(so an option is covered the day it exists, and :func:`test_every_option_has_a_constraint` fails until it has an
entry in :data:`CONSTRAINTS`), the invalid values are generated from its constraint kind (:data:`KINDS`: wrong type,
out of domain, NaN, inf, huge, negative-looking text, empty), a single-valued option is given twice with different
valid values, and every rule of a subcommand's table of option dependencies (``parser.rules``) is broken once.

The contract: exit code 2, nothing on standard output, one line on standard error that names the option, no
traceback, and nothing written (the command runs with ``-o`` into an empty directory, which must stay empty).
The command runs in this process (:func:`symbolic_ti.cli.main` with captured output); a few cases also run as
the console command in a subprocess.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from symbolic_ti.cli import main
from symbolic_ti.cli.app import build_parser
from symbolic_ti.cli.parsing import Excludes, Requires

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Kind:
    """A constraint: two distinct valid values (for the repeated-option case) and the invalid ones."""

    valid: tuple[str, str] | None
    invalid: tuple[str, ...]


HUGE = "10**10**10"
#: The constraint kinds and the values generated from them.
KINDS: dict[str, Kind] = {
    "items": Kind(("4", "5"), ("abc", "2", "-1", "3.5", "nan", "inf", HUGE, "")),
    "exception": Kind(None, ("6", "4>6", "x>y", "", "9>1", "-1>3", "3>2")),
    "family": Kind(("exchangeable", "geometric"), ("nope", "", "-x")),
    "assignment": Kind(None, ("alpha", "=1", "alpha=", "alpha=nan", "alpha=inf", f"alpha={HUGE}", "alpha=-1",
                              "alpha=2", "lambda=1", "nope=1", "alpha=1e999999", "")),
    "ridge": Kind(("1", "2"), ("abc", "-1", "nan", "inf", "oo", HUGE, "", "-5:5:3", "lambda", "ridgeless")),
    "flag": Kind(None, ("=1",)),  # a value given to a flag (--flag=1)
    "path": Kind(None, ("", "{file}/x")),  # {file}: a regular file, so that nothing can be created below it
    "trial": Kind(None, ("abc", "1", "-1,2", "1,2,3", "", "nan,1", "99,1", "1,1", "x>y", "1>2>3")),
    "interval": Kind(("0,1", "0,1/2"), ("abc", "1,0", "-1,2", "nan,1", "", "0", f"0,{HUGE}", "-inf,0")),
    "choice": Kind(None, ("nope", "", "-1")),
    "time": Kind(None, ("-1", "nan", "abc", "", HUGE)),
    "times": Kind(("0:1:3", "0:2:3"), ("1:2", "-5:5:3", "0:1:1", "a:b:c", "", "0:oo:3", "2:1:3")),
    "level": Kind(("1/2", "1/4"), ("abc", "nan", "")),
    "dps": Kind(("20", "30"), ("5", "abc", "", "2000", "-10", "nan")),
    "span": Kind(("2", "3"), ("1", "abc", "", "-3", "nan")),
    "form": Kind(("sinh", "chebyshev"), ("nope", "")),
    "format": Kind(("text", "json"), ("nope", "", "-1")),
    "format_version": Kind(("1", "2"), ("3", "abc", "", "-1")),
    "encoding": Kind(("srepr", "poly"), ("nope", "")),
    "parameter": Kind(("alpha", "kappa_d"), ("nope", "", "-1")),
    "axis": Kind(("alpha", "lambda"), ("nope", "", "-1")),
    "columns": Kind(("a,b", "c,d"), ("a", "", "a,b,c", ",")),
    "column": Kind(("p", "q"), ("nope",)),
    "kind": Kind(("probability", "score"), ("nope", "")),
    "count": Kind(("n", "m"), ("nope",)),
    "filter": Kind(None, ("novalue", "", "=x")),
    "labels": Kind(("A,B,C", "C,B,A"), ("A,B", "A,A,B", "")),
    "int>=1": Kind(("1", "2"), ("0", "-1", "abc", "", "1.5", "nan", HUGE)),
    "int>=0": Kind(("0", "1"), ("-1", "abc", "", "1.5", "nan")),
    "dpi": Kind(("50", "60"), ("abc", "nan", "-1", "0", "inf", "3000", "")),
    "text": Kind(("a", "b"), ()),
    "resolution": Kind(("20", "30"), ("1", "-1,5", "abc", "5000", "", "2,3,4")),
    "pair": Kind(("0,1", "0,1/2"), ("1,0", "abc", "-1", "nan,1", "", "0,inf")),
    "scheduler": Kind(("tcp://a:1", "tcp://b:1"), ()),
    "budget": Kind(("60", "1/2"), ("abc", "-1", "0", "-1/2", "nan", "inf", "", "1e999", HUGE)),
    "lists": Kind(("5,5", "7,7"), ("5", "abc", "1,5", "", "5,x", "nan,3", f"{HUGE},3", "-1,2")),
    "link": Kind(None, ("5>6", "x", "")),  # (refused without --paradigm list-linking, and as links)
    "link_positions": Kind(("1,1", "2,v"), ("0,1", "abc", "", "1", "1,2,3", "x,1")),
    "general_paradigm": Kind(("transverse-patterning", "list-linking"), ("nope", "", "-1", "derived-lists")),
    "train": Kind(None, ("2>1", "x>y", "", "1>1", "9>1", "-1>2", "1>2>3")),
    "hypothesis": Kind(("exchangeable:alpha=1/10", "exchangeable:alpha=1/5"), (
        "", "nope:alpha=1", "exchangeable", "exchangeable:alpha=2", "exchangeable:alpha=nan", f"exchangeable:alpha={HUGE}",
        "exchangeable:alpha=1/10;beta=0", "exchangeable:alpha=1/10;nope=1", "exchangeable:alpha=1/10;ridge=-1",
        "exchangeable:alpha=1/10;weight=-1", "exchangeable:alpha=1/10;time=0", "exchangeable:alpha")),
    "position": Kind(("1", "2"), ("0", "abc", "", "-1", "nan", "3:2")),
    "fisher": Kind(("alpha", "beta"), ("", "a b", ",", "nosuch", "beta,beta")),
    "samples": Kind(("100", "200"), ("99", "abc", "", "-1", "nan", HUGE)),
    "power": Kind(("0.8", "0.9"), ("0", "1", "abc", "", "-0.5", "nan", "1.5", "inf")),
    "score_sd": Kind(("1", "1/2"), ("0", "-1", "abc", "", "nan", "inf")),
}

#: The constraint kind of every option (by its first long name); per-subcommand entries first.
CONSTRAINTS: dict[str, str] = {
    "--debug": "flag", "--items": "items", "--exception": "exception", "--family": "family", "--set": "assignment",
    "--ridge": "ridge", "--ridgeless": "flag", "--format": "format", "--output": "path", "--quiet": "flag",
    "--standalone": "flag", "--encoding": "encoding", "--format-version": "format_version", "--trial": "trial",
    "--interval": "interval", "--margins": "flag", "--time": "time", "--times": "times", "--log-times": "flag",
    "--critical": "flag", "--window": "flag", "--window-trial": "trial", "--ridges": "flag", "--level": "level",
    "--dps": "dps", "--exception-span": "span", "--form": "form", "--data": "path", "--filter": "filter",
    "--item-columns": "columns", "--value-column": "column", "--kind": "kind", "--count-column": "count",
    "--correct-column": "column", "--total-column": "column", "--subject-column": "column", "--per-subject": "flag",
    "--hierarchical": "flag", "--bayes": "flag", "--draws": "int>=1", "--warmup": "int>=1", "--chains": "int>=1",
    "--distance-column": "column", "--distance-orders": "choice", "--exclude-end-items": "flag",
    "--target-item": "choice", "--item-base": "choice", "--reversed": "flag", "--item-labels": "labels",
    "--starts": "int>=1", "--seed": "int>=0", "--compare": "flag", "--no-intervals": "flag", "--lapse": "flag", "--bias": "flag",
    "--compare-response": "flag", "--time-column": "column", "--time-map": "choice", "--plot": "path",
    "--dpi": "dpi", "--title": "text", "--quantity": "choice", "--x": "axis", "--y": "axis", "--x-range": "pair",
    "--y-range": "pair", "--resolution": "resolution", "--x-log": "flag", "--x-linear": "flag", "--y-log": "flag",
    "--y-linear": "flag", "--parameter": "parameter", "--range": "pair", "--log": "flag", "--linear": "flag",
    "spec": "path", "--jobs": "int>=0", "--workers": "int>=1", "--scheduler": "scheduler", "--resume": "flag",
    "--dry-run": "flag", "--budget": "budget", "--no-budget": "flag",
    "--paradigm": "choice", "--lists": "lists", "--link": "link", "--train": "train", "--labels": "labels",
    "--task": "path", "--link-positions": "link_positions", "--hypothesis": "hypothesis", "--hypotheses": "path", "--placements": "choice",
    "--exception-position": "position", "--all-trials": "flag", "--presentations": "int>=1", "--total": "int>=1",
    "--fisher": "fisher", "--criterion": "choice", "--mi-method": "choice", "--samples": "samples", "--top": "int>=1",
    "--power": "power", "--simulations": "samples", "--next": "int>=1", "--refit": "choice", "--outcome": "choice",
    "--score-sd": "score_sd", "--refit-starts": "int>=1",
}
#: Per subcommand: the same option with another constraint.
OVERRIDES: dict[tuple[str, str], str] = {
    ("fit", "--format"): "choice", ("families", "--format"): "choice", ("fit", "--items"): "items",
    ("sweep", "--output"): "path", ("general", "--paradigm"): "general_paradigm", ("design", "--kind"): "choice",
}


# ------------------------------------------------------------------------------------------ the parsers
def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser]]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for name, child in subs[0].choices.items():
        yield from _leaves(child, path + (name,))


def _name(action: argparse.Action) -> str:
    longs = [s for s in action.option_strings if s.startswith("--")]
    return (longs or list(action.option_strings) or [action.dest])[0]


COMMANDS = {" ".join(path): parser for path, parser in _leaves(build_parser())}


def _options(command: str) -> list[argparse.Action]:
    return [a for a in COMMANDS[command]._actions if not isinstance(a, (argparse._HelpAction,
                                                                       argparse._VersionAction))]


def _kind(command: str, action: argparse.Action) -> str:
    return OVERRIDES.get((command, _name(action))) or CONSTRAINTS[_name(action)]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    data = d / "b.csv"
    data.write_text("item_a,item_b,p,n,a,b,c,d\n" + "".join(f"{i},{j},0.5,2,{i},{j},{i},{j}\n"
                                                           for i in (1, 2, 3) for j in (1, 2, 3) if i != j))
    spec = d / "one.toml"
    spec.write_text('n = [5]\ncompute = ["critical_conjunctivity"]\n[[exceptions]]\nkind = "explicit"\n'
                    'sets = [["4>2"]]\n')
    return {"data": data, "spec": spec}


def _base(command: str, files: dict[str, Path]) -> list[tuple[str, str | None]]:
    """The options of a valid command line for ``command`` (``-o`` added by :func:`_argv`)."""
    return {
        "derive": [("--items", "4")],
        "critical": [("--items", "4"), ("--parameter", "alpha")],
        "dynamics": [("--items", "4"), ("--set", "alpha=1/5")],
        "general": [], "families": [], "paradigms": [],
        "fit": [("--items", "3"), ("--data", str(files["data"])), ("--value-column", "p"),
                ("--kind", "probability")],
        "plot heatmap": [("--items", "4"), ("--set", "alpha=1/5"), ("--ridge", "1")],
        "plot phase": [("--items", "4")],
        "plot curve": [("--items", "4"), ("--ridge", "1")],
        "sweep": [("spec", str(files["spec"]))],
        "design": [("--items", "4"), ("--hypothesis", "exchangeable:alpha=1/10"),
                   ("--hypothesis", "exchangeable:alpha=1/2")],
    }[command]


def _argv(command: str, files: dict[str, Path], out: Path, extra: list[tuple[str, str | None]],
          drop: frozenset[str] = frozenset()) -> list[str]:
    """The command line of ``command``: its valid base (less ``drop``, and less the options of ``extra``) and
    ``extra``."""
    tested = {o for o, _ in extra}
    suffix = ".png" if command.startswith("plot") else ".txt"
    base = _base(command, files) + ([] if "--output" in tested else [("--output", str(out / f"result{suffix}"))])
    argv = command.split()
    for option, value in [(o, v) for o, v in base if o not in tested and o not in drop] + extra:
        value = None if value is None else value.replace("{file}", str(files["data"]))
        if option == "spec":
            argv.append(value or "")
        elif value is not None and value.startswith("="):
            argv.append(option + value)  # a value given to a flag
        else:
            argv += [option] + ([] if value is None else [value])
    return argv


def _check_contract(capsys: pytest.CaptureFixture[str], argv: list[str], out: Path, names: set[str]) -> str:
    code = main(argv)
    stdout, stderr = capsys.readouterr()
    lines = stderr.strip().splitlines()
    assert code == 2, (argv, code, stderr)
    assert stdout == "", (argv, stdout)
    assert len(lines) == 1 and lines[0].startswith("symbolic-ti: error: "), (argv, stderr)
    assert "Traceback" not in stderr
    assert any(n in lines[0] for n in names), (argv, lines[0])
    assert os.listdir(out) == [], (argv, os.listdir(out))
    return lines[0]


def _cases() -> Iterator[tuple[str, str]]:
    for command in COMMANDS:
        for action in _options(command):
            kind = OVERRIDES.get((command, _name(action))) or CONSTRAINTS.get(_name(action))
            if kind is not None and KINDS[kind].invalid:
                yield command, _name(action)


# ------------------------------------------------------------------------------------------------ tests
def test_every_option_has_a_constraint() -> None:
    """A new option fails here until :data:`CONSTRAINTS` says what it accepts (and so what to try against it)."""
    missing = [(command, _name(a)) for command in COMMANDS for a in _options(command)
               if (command, _name(a)) not in OVERRIDES and _name(a) not in CONSTRAINTS]
    assert missing == []
    flags = (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._StoreConstAction)
    for command in COMMANDS:  # a flag's constraint is "flag", and a flag's "flag"
        for a in _options(command):
            assert isinstance(a, flags) == (_kind(command, a) == "flag"), (command, _name(a))


@pytest.mark.parametrize("command, option", list(_cases()), ids=[f"{c}|{o}" for c, o in _cases()])
def test_an_invalid_value_is_one_line_naming_the_option(capsys, tmp_path, files, command, option):
    """Every invalid value of the option's constraint kind (one test per option, to keep the suite cheap)."""
    action = next(a for a in _options(command) if _name(a) == option)
    for value in KINDS[_kind(command, action)].invalid:
        _check_contract(capsys, _argv(command, files, tmp_path, [(option, value)]), tmp_path,
                        set(action.option_strings) or {option, "SPEC"})


def _repeatable() -> Iterator[tuple[str, str]]:
    for command in COMMANDS:
        for a in _options(command):
            if type(a).__name__ == "_Once" and a.option_strings and KINDS[_kind(command, a)].valid is not None:
                yield command, _name(a)


@pytest.mark.parametrize("command, option", list(_repeatable()), ids=[f"{c}|{o}" for c, o in _repeatable()])
def test_an_option_given_twice_with_different_values_is_refused(capsys, tmp_path, files, command, option):
    action = next(a for a in _options(command) if _name(a) == option)
    first, second = KINDS[_kind(command, action)].valid  # type: ignore[misc]
    line = _check_contract(capsys, _argv(command, files, tmp_path, [(option, first), (option, second)]), tmp_path,
                           set(action.option_strings))
    assert "given twice with different values" in line


def _rules() -> Iterator[tuple[str, Requires | Excludes]]:
    for command, parser in COMMANDS.items():
        for rule in getattr(parser, "rules", ()):
            yield command, rule


def _valid(command: str, option: str) -> str | None:
    action = next(a for a in _options(command) if option in a.option_strings)
    if _kind(command, action) == "flag":
        return None
    kind = KINDS[_kind(command, action)]
    return kind.valid[0] if kind.valid else {"--window-trial": "1,2", "--trial": "1,2", "--distance-orders": "forward",
                                             "--item-base": "0", "--target-item": "second",
                                             "--output": "dataset", "--exception": "4>2", "--link": "5>6",
                                             "--task": "task.toml", "--paradigm": "transverse-patterning",
                                             "--placements": "single", "--filter": "setting=full",
                                             "--data": "{file}", "--kind": "probability",
                                             "--criterion": "log-bayes-factor", "--plot": "figure.png",
                                             "--refit": "beta", "--outcome": "score", "--mi-method": "exact",
                                             "--time-map": "saturating", "--time-column": "session"}[option]


@pytest.mark.parametrize("command, rule", list(_rules()), ids=[f"{c}|{r.option}|{r.other}" for c, r in _rules()])
def test_an_option_without_effect_in_its_combination_is_refused(capsys, tmp_path, files, command, rule):
    """Every rule of every subcommand's table (``add_rules``): broken once, refused with one line naming it."""
    extra: list[tuple[str, str | None]] = [(rule.option, _valid(command, rule.option))]
    if isinstance(rule, Excludes):
        extra.append((rule.other, _valid(command, rule.other)))
    elif rule.values:  # a value of the other option (its choices: --format, --paradigm) that the rule refuses
        choices = next(a.choices for a in _options(command) if rule.other in a.option_strings) or ("text", "json")
        extra.append((rule.other, next(v for v in choices if v not in rule.values)))
    for other in COMMANDS[command].rules:  # the other rules of these options kept (--format json for another)
        if (isinstance(other, Requires) and other.values and other is not rule
                and other.option in {o for o, _ in extra} and other.other not in {o for o, _ in extra}):
            extra.append((other.other, other.values[0]))
        elif (isinstance(rule, Requires) and rule.values and isinstance(other, Requires) and not other.values
              and other.option == rule.other and other.other not in {o for o, _ in extra}):
            # a chain: the refused value of the rule's other option keeps its own requirement
            # (--refit-starts needs --refit all, and --refit needs --power)
            extra.append((other.other, _valid(command, other.other)))
    if rule.option == "--output" and command == "sweep":
        extra[0] = ("--output", str(tmp_path / "dataset"))
    ruled = frozenset(o for r in COMMANDS[command].rules for o in (r.option, r.other))  # so that no other rule fires
    line = _check_contract(capsys, _argv(command, files, tmp_path, extra, ruled), tmp_path, {rule.option})
    assert line.startswith(f"symbolic-ti: error: argument {rule.option}: ") and rule.other in line


def test_a_repeated_trial_is_reported_once(capsys):
    assert main(["derive", "-n", "4", "--ridge", "1", "-t", "1,3", "-t", "1,3", "-t", "2,4", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.count("f(1, 3) = ") == 1 and out.count("f(2, 4) = ") == 1


#: ``-n`` values: an integer written otherwise than in digits is too large or a hint, what is no integer keeps its
#: message (review finding: 10**10 and 1e10 were told "must be an integer >= 3").
ITEMS_MESSAGES = [
    ("10**10", "the number of items '10**10' = 10000000000 is too large; symbolic_ti handles up to 2000 items"),
    ("1e10", "the number of items '1e10' = 10000000000 is too large; symbolic_ti handles up to 2000 items"),
    ("2e3+1", "'2e3+1' = 2001 is too large; symbolic_ti handles up to 2000 items"),
    ("10**10**10", "the number of items '10**10**10' is too large; symbolic_ti handles up to 2000 items"),
    ("1e9999999999", "the number of items '1e9999999999' is too large; symbolic_ti handles up to 2000 items"),
    ("2001", "n (number of items) = 2001 is too large; symbolic_ti handles up to 2000 items"),
    ("1e3", "the number of items must be an integer >= 3 written in digits, got '1e3' (write 1000)"),
    ("2.5", "the number of items must be an integer >= 3, got '2.5'"),
    ("abc", "the number of items must be an integer >= 3, got 'abc'"),
    ("2", "the number of items must be an integer >= 3, got 2"),
]


@pytest.mark.parametrize("value, line", ITEMS_MESSAGES, ids=[v for v, _ in ITEMS_MESSAGES])
def test_the_number_of_items_says_what_is_wrong_with_it(capsys, tmp_path, value, line):
    message = _check_contract(capsys, ["derive", "-n", value, "-o", str(tmp_path / "r.json")], tmp_path,
                              {"--items"})
    assert line in message, message


#: Files without the default value column (the LM table's ``mean_prob_yes``) and no --value-column: the option is
#: named as needed with the file's columns (review finding: by distance the default's kind, "probability", was
#: refused as a wrong --kind instead).
def _no_default_column(files: dict[str, Path]) -> list[list[str]]:
    dist = files["data"].parent / "by_distance.csv"
    dist.write_text("distance,accuracy,n\n" + "".join(f"{d},0.{6 + d % 4},20\n" for d in range(1, 7)))
    return [
        ["fit", "-n", "7", "--data", str(dist), "--distance-column", "distance"],
        ["fit", "-n", "7", "--data", str(dist), "--distance-column", "distance", "--kind", "accuracy"],
        ["fit", "-n", "3", "--data", str(files["data"])],
        ["fit", "-n", "3", "--data", str(files["data"]), "--count-column", "n"],
        ["design", "-n", "3", "--hypothesis", "exchangeable:alpha=1/10", "--hypothesis", "exchangeable:alpha=1/2",
         "--data", str(files["data"])],
    ]


def test_a_file_without_the_default_value_column_asks_for_value_column(capsys, tmp_path, files):
    for argv in _no_default_column(files):
        line = _check_contract(capsys, [*argv, "-o", str(tmp_path / "fit.json")], tmp_path, {"--value-column"})
        columns = "distance, accuracy, n" if "--distance-column" in argv else "item_a, item_b, p, n, a, b, c, d"
        assert line.startswith("symbolic-ti: error: argument --value-column: is needed: ") and \
            "has no column 'mean_prob_yes' (the default, the LM table's)" in line and line.endswith(columns), line
    dist = files["data"].parent / "by_distance.csv"  # named, it is read
    assert main(["fit", "-n", "7", "--data", str(dist), "--distance-column", "distance", "--value-column",
                 "accuracy", "--count-column", "n", "-q"]) == 0
    capsys.readouterr()


#: An empty or blank path says so, and what was expected (a directory for sweep's dataset); never '.'.
EMPTY_PATHS = [
    (["sweep", "{spec}", "-o", ""], "argument --output/-o: the path is empty: expected a directory path, got ''"),
    (["sweep", "{spec}", "--output="], "argument --output/-o: the path is empty: expected a directory path"),
    (["sweep", "{spec}", "-o", " "], "the path is blank (only spaces): expected a directory path, got ' '"),
    (["derive", "-n", "4", "-o", ""], "argument --output/-o: the path is empty: expected a file name, got ''"),
    (["fit", "-n", "3", "--data", ""], "argument --data: the path is empty: expected a file name, got ''"),
    (["plot", "phase", "-n", "4", "-o", ""], "argument --output/-o: the path is empty: expected a file name"),
]


@pytest.mark.parametrize("argv, line", EMPTY_PATHS, ids=[" ".join(a) for a, _ in EMPTY_PATHS])
def test_an_empty_path_is_called_empty(capsys, tmp_path, files, argv, line):
    argv = [str(files["spec"]) if a == "{spec}" else a for a in argv]
    message = _check_contract(capsys, argv, tmp_path, {"--output", "--data"})
    assert line in message and "'.'" not in message, message


@pytest.mark.parametrize("argv, line", [
    (["derive", "-n", "4", "--trial", "-1,2"], "argument --trial: trial (-1, 2): item -1 is out of range"),
    (["derive", "-n", "4", "--ridge", "1", "--ridge", "2"], "argument --ridge: given twice with different values "
                                                            "(1 and 2)"),
    (["dynamics", "-n", "4", "--ridges"], "argument --ridges: has no effect without --window"),
])
def test_the_console_command_keeps_the_contract(tmp_path, argv, line):
    """As a user runs it: a subprocess of ``python -m symbolic_ti`` (the values of section 5 of issue 24)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "symbolic_ti", *argv], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 2 and proc.stdout == "" and os.listdir(tmp_path) == []
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("symbolic-ti: error: ") and line in lines[0], proc.stderr


def test_the_dynamics_help_says_what_a_missing_ridge_is(capsys):
    assert main(["dynamics", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: none, lambda = 0: plain gradient flow" in text and "default: symbolic" not in text
