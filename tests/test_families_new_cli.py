"""The new families on the command line: listed with parameters and domains, bad values one line and exit 2.

In process (``symbolic_ti.cli.main``, output through capsys): the process contract itself (exit codes, one line on
stderr, of the console command) is tested in tests/test_cli_contract.py and tests/test_cli_ux.py."""

from __future__ import annotations

import json
from types import SimpleNamespace

from symbolic_ti.cli import main


def _run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)


def test_families_listed_with_domains(capsys):
    out = _run(capsys, "families", "--format", "json")
    assert out.returncode == 0
    entries = {e["name"]: {p["name"]: p["domain"] for p in e["parameters"]} for e in json.loads(out.stdout)["families"]}
    assert entries["pnas-hidden"] == {"slope": "[0, 2]", "p": "[0, 1]", "depth": "[1, oo)"}
    assert entries["pnas-ntk"]["slope"] == "[0, 2]"
    assert entries["precomputed"] == {"gram": "FILE"}
    assert entries["activation-ntk"] == {"activation": "NAME|EXPR", "W_std": "(0, oo)", "b_std": "[0, oo)",
                                         "depth": "[1, oo)"}


def test_bad_values_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "g.csv"
    rows = [[0] * 6 for _ in range(6)]
    rows[0][0] = -1  # 6 x 6 (n = 3) but not positive semidefinite
    bad.write_text("\n".join(",".join(map(str, r)) for r in rows))
    cases = [
        (["derive", "-n", "5", "--family", "pnas-hidden", "--set", "slope=3", "--ridge", "1"], "slope"),
        (["derive", "-n", "3", "--family", "precomputed", "--set", f"gram={bad}", "--ridge", "1"], "positive semidef"),
    ]
    for args, word in cases:
        out = _run(capsys, *args)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and word in out.stderr, out.stderr


def test_symbolic_slope_at_depth_two_is_one_clear_line(capsys):
    """From depth 2 the PNAS kernel has acos(slope/pi): not a rational function of slope, so the exact solve
    refuses a symbolic slope with one line (it raised a PolynomialError, exit 1)."""
    code = main(["derive", "-n", "5", "-e", "4>2", "--family", "pnas-ntk", "--set", "depth=2", "--ridge", "1/10",
                 "--trial", "1,3"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "acos(" in err[0] and "--set slope=" in err[0]
