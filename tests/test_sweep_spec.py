"""Sweep specs: the TOML file and the dataclasses agree; every invalid spec is one line naming the key, exit 2."""

from __future__ import annotations

import pytest

pytest.importorskip("pyarrow")

from symbolic_ti.cli import main  # noqa: E402
from symbolic_ti.sweep import (ExceptionAxis, SpecError, SweepSpec, configurations, dry_run, load_spec,  # noqa: E402
                               make_shards, spec_from_dict)

GOOD = 'n = [5, 6]\nridge = ["ridgeless", "0.1"]\ncompute = ["critical_conjunctivity"]\n' \
       '[[exceptions]]\nkind = "single"\nspan = [2, 3]\n'


def test_toml_file_and_dataclasses_agree(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text(GOOD)
    spec = load_spec(f)
    direct = SweepSpec(n=(5, 6), exceptions=(ExceptionAxis("single", (2, 3)),), ridge=("ridgeless", "0.1"),
                       compute=("critical_conjunctivity",)).validated()
    assert spec == direct and spec.digest() == direct.digest()
    # every single exception W>L with W - L in {2, 3}: n = 5: 3 + 2, n = 6: 4 + 3
    assert [c.exceptions for c in configurations(spec)] == [
        ("3>1",), ("4>2",), ("5>3",), ("4>1",), ("5>2",),
        ("3>1",), ("4>2",), ("5>3",), ("6>4",), ("4>1",), ("5>2",), ("6>3",)]
    assert dry_run(spec).configurations == 12


def test_dataclasses_are_checked_too():
    with pytest.raises(SpecError, match="key 'n'"):
        SweepSpec(n=(2,)).validated()
    with pytest.raises(SpecError, match=r"key 'exceptions\[0\].span'"):
        SweepSpec(n=(5,), exceptions=(ExceptionAxis("single", (1, 3)),)).validated()


def test_generators_pairs_explicit_and_cost_order():
    spec = spec_from_dict({"n": {"from": 5, "to": 9, "step": 2}, "compute": ["critical_conjunctivity"],
                           "exceptions": [{"kind": "pairs", "span": 2, "n_max": 5},
                                          {"kind": "explicit", "sets": [["6>4", "9>7"]], "n_min": 9}, {"kind": "none"}],
                           "shard_seconds": 1e-9})
    keys = [(c.n, c.exceptions) for c in configurations(spec)]
    # pairs of the 3 span-2 exceptions at n = 5; the explicit set only where it fits (n = 9); no exception
    assert keys == [(5, ("3>1", "4>2")), (5, ("3>1", "5>3")), (5, ("4>2", "5>3")), (5, ()), (7, ()),
                    (9, ("6>4", "9>7")), (9, ())]
    costs = [s.cost for s in make_shards(spec)]
    assert costs == sorted(costs, reverse=True)  # largest first


BAD = [
    ("n = [5]\nfamily = 'similarity'\n", "key 'parameters': family 'similarity' needs matrix="),
    ("n = [5]\nfamily = 'similarity'\n[parameters]\nmatrix = ['no-such-file.csv']\n",
     "key 'parameters': matrix: cannot read the file 'no-such-file.csv'"),
    ("n = [5]\nfamily = 'similarity'\n[parameters]\nmatrix = [3]\n", "key 'parameters.matrix': must be a file path"),
    ("n = [5, 9]\nfamily = 'similarity'\ncompute = ['margins']\n[parameters]\nmatrix = ['docs/examples/S.csv']\n",
     "key 'parameters': similarity: matrix (--set matrix=FILE) is 5 x 5 but the task has n = 9 items"),
    ("n = [5]\nfoo = 1\n", "key 'foo': unknown key"),
    ("ridge = ['ridgeless']\n", "key 'n': is required"),
    ("n = [2]\n", "key 'n': must be an integer >= 3"),
    ("n = {from = 9, to = 5}\n", "n.to = 5 must be >= n.from = 9"),
    ("n = {from = 5}\n", "a table needs the keys from, to"),
    ("n = [10000000]\n", "must be at most"),
    ("n = [5]\nridge = ['-1']\n", "key 'ridge': ridge must be a real number >= 0"),
    ("n = [5]\nridge = ['abc']\n", "key 'ridge'"),
    ("n = [5]\nfamily = 'nope'\n", "key 'family': unknown family 'nope'"),
    ("n = [5]\n[parameters]\nalpha = ['2']\n", "key 'parameters'"),
    ("n = [5]\n[parameters]\nalpha = ['x/y']\n", "key 'parameters.alpha'"),
    ("n = [5]\ncompute = ['everything']\n", "key 'compute': unknown quantity 'everything'; allowed: predictions"),
    ("n = [5]\ncompute = ['margins', 'margins']\n", "lists a quantity twice"),
    ("n = [5]\nfamily = 'geometric'\ncompute = ['critical_conjunctivity']\n", "for the exchangeable family only"),
    ("n = [5]\ncompute = ['first_failing']\n[parameters]\nalpha = ['0']\n", "key 'parameters.alpha': must not"),
    ("n = [5]\ncompute = ['critical']\n", "key 'critical': is required"),
    ("n = [5]\ncompute = ['critical']\n[critical]\nparameter = 'beta'\n", "key 'critical'"),
    ("n = [5]\ncompute = ['critical']\n[critical]\nparameter = 'alpha'\ninterval = ['0', '2']\n",
     "not inside its domain"),
    ("n = [5]\ncompute = ['critical']\n[critical]\nparameter = 'alpha'\ncolour = 1\n", "key 'critical.colour': unknown key"),
    ("n = [5]\nridge = ['symbolic']\ncompute = ['critical_conjunctivity']\n", "a symbolic ridge is allowed only"),
    ("n = [5]\ntrials = ['1,9']\n", "key 'trials'"),
    ("n = [5]\ntrials = ['1']\n", "each trial must be 'i,j'"),
    ("n = [5]\nshard_seconds = 0\n", "key 'shard_seconds'"),
    ("n = [5]\noutput = 3\n", "key 'output'"),
    ("n = [5]\nexceptions = [{kind = 'triples'}]\n", "key 'exceptions[0].kind': must be one of none, single"),
    ("n = [5]\nexceptions = [{kind = 'single', span = [1, 3]}]\n", "key 'exceptions[0].span'"),
    ("n = [5]\nexceptions = [{kind = 'single', span = [4, 3]}]\n", "D_min <= D_max"),
    ("n = [5]\nexceptions = [{kind = 'single', colour = 3}]\n", "key 'exceptions[0].colour': unknown key"),
    ("n = [5]\nexceptions = [{kind = 'single', sets = [['6>4']]}]\n", "only for kind = 'explicit'"),
    ("n = [5]\nexceptions = [{kind = 'explicit', sets = [['5>4']]}]\n", "key 'exceptions[0].sets[0]': exception"),
    ("n = [5]\nexceptions = [{kind = 'explicit', sets = [[]]}]\n", "must be a non-empty list"),
    ("n = [5]\nexceptions = 'all'\n", "key 'exceptions[0]': must be a table"),
    ("n = [5\n", "is not valid TOML"),
    ("n = [5]\nmirror = 'yes'\n", "key 'mirror': must be true or false"),
    # review 2: the messages of derive for explicit sets, the key named, no silently empty sweep
    ("n = [7, 9]\nexceptions = [{kind = 'explicit', sets = [['4>6']]}]\n",
     "key 'exceptions[0].sets[0]': exception 4>6: 4 beats 6 already by the rule"),
    ("n = [7]\nexceptions = [{kind = 'explicit', sets = [['9>4']]}]\n",
     "key 'exceptions[0].sets[0]': 9>4 does not fit n = [7] (it needs n >= 9); restrict the generator with n_min"),
    ("n = [7, 9]\nexceptions = [{kind = 'explicit', sets = [['9>4']]}]\n", "9>4 does not fit n = [7]"),
    ("n = [7]\nexceptions = [{kind = 'single', n_min = 20}]\n", "key 'exceptions[0].n_min': leaves no n"),
    ("n = [9]\nexceptions = [{kind = 'single', n_max = 7}]\n", "key 'exceptions[0].n_max': leaves no n"),
    ("n = [5]\nexceptions = [{kind = 'pairs', span = 4}]\n", "key 'exceptions[0].span': span [4, 4] gives no"),
    ("n = [5]\nexceptions = [{kind = 'explicit'}]\n", "key 'exceptions[0].sets': is required for kind = 'explicit'"),
    ("n = [5]\nexceptions = [{kind = 'none', span = 3}]\n", "key 'exceptions[0].span': only for kind = 'single'"),
    ("n = [5]\noutput = ''\n", "key 'output': must be a directory path"),
    ("n = [5]\nname = 5\n", "key 'name': must be a non-empty string"),
    ("n = [5]\ncompute = ['critical']\n[critical]\nparameter = 'alpha'\ninterval = 'nope'\n",
     "key 'critical.interval': must be a pair [a, b] of exact numbers, got 'nope'"),
    ("n = [5]\ncompute = ['critical']\n[critical]\nparameter = 'alpha'\nbogus = 1\n",
     "key 'critical.bogus': unknown key; allowed: parameter, interval"),
    ("n = [5]\nridge = ['ridgeless', 'symbolic']\ncompute = ['critical']\n[critical]\nparameter = 'lambda'\n",
     "key 'ridge': critical values of the ridge need ridge = ['symbolic']"),
    ("n = [5]\nmirror = true\ncompute = ['margins']\n", "key 'mirror': is allowed only with compute in"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_invalid_spec_is_one_line_exit_2(tmp_path, capsys, text, message):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    assert main(["sweep", str(f), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("symbolic-ti: error: ") and message in err, err


def test_missing_spec_file_and_output_errors(tmp_path, capsys):
    assert main(["sweep", str(tmp_path / "none.toml"), "--dry-run"]) == 2
    assert "cannot read sweep spec" in capsys.readouterr().err
    f = tmp_path / "s.toml"
    f.write_text(GOOD)
    assert main(["sweep", str(f)]) == 2  # no output directory in the spec nor on the command line
    assert "give one (--output DIR)" in capsys.readouterr().err
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("")
    assert main(["sweep", str(f), "-o", str(full), "-q"]) == 2
    assert "is not empty; use --resume" in capsys.readouterr().err
    assert main(["sweep", str(f), "-o", str(tmp_path / "fresh"), "--resume"]) == 2
    assert "holds no sweep" in capsys.readouterr().err
    assert main(["sweep", str(f), "--workers", "0"]) == 2
    assert main(["sweep", str(f), "--jobs", "1", "--workers", "2"]) == 2
    capsys.readouterr()


def test_resume_checks_the_spec(tmp_path, capsys):
    f = tmp_path / "s.toml"
    f.write_text(GOOD)
    out = tmp_path / "o"
    assert main(["sweep", str(f), "-o", str(out), "--jobs", "0", "-q"]) == 0
    assert "12 configurations" in capsys.readouterr().out
    f.write_text(GOOD.replace('"0.1"', '"1"'))
    assert main(["sweep", str(f), "-o", str(out), "--jobs", "0", "--resume"]) == 2
    assert "holds a sweep of another spec" in capsys.readouterr().err


def test_spec_that_is_not_utf8_is_one_line_exit_2(tmp_path, capsys):
    f = tmp_path / "bin.toml"
    f.write_bytes(b"\xff\xfe")
    assert main(["sweep", str(f), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not UTF-8 text" in err


def test_a_sweep_that_cannot_start_leaves_nothing(tmp_path, capsys):
    pytest.importorskip("distributed")
    f = tmp_path / "s.toml"
    f.write_text(GOOD)
    out = tmp_path / "new"
    assert main(["sweep", str(f), "-o", str(out), "--scheduler", "foo", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--scheduler: cannot connect to 'foo'" in err
    assert not out.exists()  # created by the run, removed with its manifest
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["sweep", str(f), "-o", str(empty), "--scheduler", "foo", "-q"]) == 2
    assert empty.is_dir() and not any(empty.iterdir())  # the directory was there before: kept, empty
    assert main(["sweep", str(f), "-o", str(empty), "--jobs", "0", "-q"]) == 0  # no --resume needed
    capsys.readouterr()


def test_dry_run_says_when_its_estimate_is_rough():
    exact = dry_run(spec_from_dict({"n": [5], "compute": ["critical_conjunctivity"]}))
    assert exact.rough == () and "rough" not in exact.text()
    other = dry_run(spec_from_dict({"n": [5], "family": ["geometric", "exchangeable"], "compute": ["critical"],
                                    "critical": {"parameter": "alpha"}}))
    assert other.rough == ("family geometric", "critical")
    assert ("the estimate is measured for the critical conjunctivity of the exchangeable family; other work "
            "(family geometric, critical) is a rough order of magnitude") in other.text()


def test_the_scheduler_address_is_checked_before_a_client_starts():
    """A malformed --scheduler is refused without starting a Dask client (whose IO-loop thread has 10 s to start
    and fails an internal assert past them, as on a loaded machine); a start that fails so is tried once more,
    then reported in one line naming --scheduler."""
    pytest.importorskip("distributed")
    from symbolic_ti.errors import ParameterError
    from symbolic_ti.sweep.engines import _connect

    started: list[str] = []

    def never(address, timeout):
        started.append(address)
        raise AssertionError  # distributed's `assert loop is not None`

    for bad in ("foo", "tcp://foo", "localhost:notaport"):
        with pytest.raises(ParameterError, match=r"^--scheduler: cannot connect to"):
            _connect(never, bad)
    assert started == []
    with pytest.raises(ParameterError, match=r"^--scheduler: Dask's IO-loop thread did not start within 10 s"):
        _connect(never, "tcp://127.0.0.1:8786")
    assert started == ["tcp://127.0.0.1:8786"] * 2
    attempts: list[int] = []

    def second_time(address, timeout):
        attempts.append(1)
        if len(attempts) == 1:
            raise AssertionError
        return ("client", address, timeout)

    assert _connect(second_time, "127.0.0.1:8786") == ("client", "127.0.0.1:8786", "10s")
