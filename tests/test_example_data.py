"""The example data shipped with the package (symbolic_ti.datasets): found by name from any directory, the file
its README describes (size and SHA-256 stated there), named on the command line as ``--data example:NAME``.

The installed-wheel case is checked by .ci/package_smoke.sh (the file read from site-packages).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from symbolic_ti import Task, cli, example_data
from symbolic_ti.behaviour.data import load_behaviour
from symbolic_ti.datasets import EXAMPLE_DATA, data_argument
from symbolic_ti.errors import DataError

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "symbolic_ti" / "datasets" / "README.md"


def test_every_example_is_the_file_its_readme_describes():
    text = README.read_text(encoding="utf-8")
    for entry in EXAMPLE_DATA.values():
        path = example_data(entry.name)
        assert path.is_file() and path.name == entry.filename
        assert path.parent == ROOT / "symbolic_ti" / "datasets"
        section = text.split(f"## {entry.filename}", 1)[1]
        size = int(re.search(r"([\d,]+) bytes", section).group(1).replace(",", ""))
        digest = re.search(r"SHA-256 `([0-9a-f]{64})`", section).group(1)
        data = path.read_bytes()
        assert len(data) == size
        assert hashlib.sha256(data).hexdigest() == digest
        assert entry.licence and entry.source and "licence" in section.lower()


def test_the_file_name_is_accepted_too():
    assert example_data("lm_pair_summary_n9.csv.gz") == example_data("lm_pair_summary_n9")


@pytest.mark.parametrize("name, words", [
    ("lm_pair_summary", ["'lm_pair_summary' does not exist", "lm_pair_summary_n9"]),
    ("", ["'' does not exist"]),
    (9, ["must be a string", "int"]),
])
def test_unknown_names_are_refused_with_the_list(name, words):
    with pytest.raises(DataError) as err:
        example_data(name)
    assert "\n" not in str(err.value)
    for w in words:
        assert w in str(err.value)


def test_the_data_argument_reads_example_names_and_leaves_paths():
    assert data_argument("example:lm_pair_summary_n9") == example_data("lm_pair_summary_n9")
    assert data_argument("results/lm.csv") == "results/lm.csv"
    assert data_argument("./example:x") == "./example:x"


def test_the_example_loads_from_another_directory(tmp_path, monkeypatch):
    """The 864 rows of full finetuning on 6>4 after training: 72 trials x 12 rows (docs/lm_hierarchies.md)."""
    monkeypatch.chdir(tmp_path)
    d = load_behaviour(example_data("lm_pair_summary_n9"), Task(9, ["6>4"]),
                       filters=["setting=full", "hier=exc_mid_n9", "phase=post"])
    assert d.rows_selected == 864 and len(d.trials) == 72


def test_cli_refuses_an_unknown_example_in_one_line(capsys):
    code = cli.main(["fit", "--data", "example:nope", "--items", "9", "--exception", "6>4"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "--data" in lines[0] and "'nope' does not exist" in lines[0]
    assert "lm_pair_summary_n9" in lines[0]
