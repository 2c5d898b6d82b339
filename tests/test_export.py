"""Export formats (JSON, LaTeX, text) and atomic file output.

Reference values come from ../shared/CONVENTIONS.md (exchangeable family, kappa_d = 0), never from the code
under test.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime

import pytest
import sympy as sp

import symbolic_ti.files as io_mod
from symbolic_ti import ExportError, derive
from symbolic_ti import symbols as S
from symbolic_ti.files import write_atomic
from symbolic_ti.export.jsonreport import (FORMAT_NAME, FORMAT_VERSION, dumps, expression_from_dict,
                                           expression_to_dict, result_to_dict)
from symbolic_ti.export.reading import FormsTable
from symbolic_ti.export.latex import factored, margins_latex, result_to_latex, table_latex, trial_latex
from symbolic_ti.export.text import approx_suffix, header_lines, result_to_text

Q = sp.Rational

# CONVENTIONS.md: n=4, alpha=0, lambda=1, upper triangle
N4_TABLE = {(1, 2): Q(2, 7), (1, 3): Q(3, 7), (1, 4): Q(5, 7), (2, 3): Q(1, 7), (2, 4): Q(3, 7), (3, 4): Q(2, 7)}


@pytest.fixture(scope="module")
def n4():
    return derive(4, parameters={"alpha": 0}, ridge=1)


@pytest.fixture(scope="module")
def n9():
    """CONVENTIONS.md: n=9, exception 6>4, alpha=1/10, lambda=1/10."""
    return derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")


@pytest.fixture(scope="module")
def symbolic():
    """alpha and lambda free, one exception."""
    return derive(5, ["4>2"])


@pytest.fixture(scope="module")
def ridgeless_symbolic():
    return derive(5, ridge="ridgeless")


# ------------------------------------------------------------------------------------------ JSON
def _expression_objects(obj):
    """Every expression object in a JSON tree."""
    if isinstance(obj, dict):
        if "srepr" in obj:
            yield obj
        else:
            for v in obj.values():
                yield from _expression_objects(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _expression_objects(v)


@pytest.mark.parametrize("version", [2, 1])
@pytest.mark.parametrize("name", ["n4", "n9", "symbolic", "ridgeless_symbolic"])
def test_json_round_trip_of_every_expression(name, version, request):
    r = request.getfixturevalue(name)
    d = json.loads(dumps(result_to_dict(r, format_version=version)))  # through the JSON text
    assert d["meta"]["format_version"] == version and ("forms" in d) == (version == 2)
    forms = FormsTable(d.get("forms", []))

    def read(obj):
        return expression_from_dict(obj, forms)
    preds = {tuple(p["trial"]): read(p["value"]) for p in d["predictions"]}
    assert preds == dict(r.predictions)
    assert {tuple(m["trial"]): read(m["value"]) for m in d["margins"]} == r.margins
    assert [read(m["value"]) for m in d["exception_margins"]] == list(r.exception_margins.values())
    assert tuple(read(c) for c in d["ridgeless_conditions"]) == tuple(r.ridgeless_conditions)
    for name_, s in r.categories.items():
        assert read(d["categories"][name_]["min_margin"]) == s.min_margin
        assert d["categories"][name_]["n_errors"] == s.n_errors
    for fit, entry in zip(r.training_fit, d["training_fit"], strict=True):
        assert read(entry["prediction"]) == fit.prediction
        assert read(entry["residual"]) == fit.residual
    objects = list(_expression_objects(d))
    symbolic = bool(r.free_symbols)
    if version == 1 or not symbolic:
        assert len(objects) >= len(r.predictions) + len(r.margins)
    else:  # each form once, up to sign: at most f(i, j) for i < j and one residual per training trial
        assert 0 < len(d["forms"]) <= len(r.predictions) // 2 + len(r.training_fit)
        values = [forms[k] for k in range(len(forms))]
        assert len(set(values) | {-v for v in values}) == 2 * len(values)
    for obj in objects:
        assert set(obj) == {"srepr", "latex", "text", "float"}
        e = expression_from_dict(obj)
        assert sp.srepr(e) == obj["srepr"]
        assert obj["text"] == str(e) and obj["latex"] == sp.latex(e)
        if e.free_symbols:
            assert obj["float"] is None
            # the Symbols come back with their assumptions: they are the library's own
            assert e.free_symbols <= {S.alpha, S.ridge, S.kappa_o, S.kappa_d}
        else:
            assert obj["float"] == pytest.approx(float(e), rel=1e-15)


@pytest.mark.parametrize("e", [
    Q(-387, 3925), sp.Integer(0), S.alpha / (S.alpha + 2 * S.ridge + 1) - 1, S.kappa_o ** 2 - S.kappa_d,
    sp.sqrt(13) / 3 - Q(4, 3), sp.sinh(S.alpha) * sp.Float("0.25"), sp.oo,
])
def test_expression_round_trip(e):
    d = expression_to_dict(e)
    back = expression_from_dict(json.loads(json.dumps(d)))
    assert back == e and sp.srepr(back) == sp.srepr(e)


def test_expression_none_and_float_only_when_numeric():
    assert expression_to_dict(None) is None and expression_from_dict(None) is None
    assert expression_to_dict(Q(2, 7))["float"] == pytest.approx(2 / 7)
    assert expression_to_dict(S.alpha)["float"] is None
    assert expression_to_dict(sp.oo)["float"] is None  # JSON has no infinity


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')", "Symbol.__class__", "Integer(1) + Integer(2)", "Symbol(**{})",
    "lambda: 1", "", "Symbol('x', nonnegative=True",
])
def test_expression_from_dict_evaluates_no_code(text):
    with pytest.raises(ExportError, match="cannot read expression"):
        expression_from_dict({"srepr": text})
    with pytest.raises(ExportError, match="srepr"):
        expression_from_dict({"latex": "x"})


def test_json_schema_keys(n9):
    d = result_to_dict(n9)
    assert list(d) == ["meta", "task", "family", "ridge", "method", "seconds", "free_symbols",
                       "ridgeless_conditions", "forms", "predictions", "margins", "exception_margins", "categories",
                       "training_fit"]
    assert d["forms"] == []  # a numeric result: every value inline
    meta = d["meta"]
    assert list(meta) == ["format", "format_version", "symbolic_ti_version", "created"]
    assert meta["format"] == FORMAT_NAME == "symbolic_ti.result" and meta["format_version"] == FORMAT_VERSION == 2
    assert meta["created"].endswith("Z")
    datetime.fromisoformat(meta["created"].replace("Z", "+00:00"))
    assert d["task"]["n"] == 9 and d["task"]["exceptions"] == ["6>4"]
    assert {"trial": [6, 4], "target": 1} in d["task"]["training"]
    assert len(d["task"]["training"]) == 2 * (8 + 1)
    assert d["family"] == {"name": "exchangeable", "parameters": {"alpha": "1/10", "kappa_d": "0"},
                           "free_parameters": []}
    assert d["ridge"] == "1/10" and d["free_symbols"] == [] and d["ridgeless_conditions"] == []
    assert len(d["predictions"]) == 9 * 8
    p = next(p for p in d["predictions"] if p["trial"] == [4, 6])
    assert set(p) == {"trial", "category", "ground_truth", "value"}
    assert p["category"] == "exception" and p["ground_truth"] == -1
    assert expression_from_dict(p["value"]) == -Q(5509, 7850)  # CONVENTIONS: f(6, 4) = 5509/7850
    assert d["exception_margins"][0]["exception"] == "6>4" and d["exception_margins"][0]["trial"] == [6, 4]
    assert d["categories"]["one_in_cycle"]["n_errors"] == 4
    assert list(d["categories"]) == [c for c in ("premise", "exception", "cycle_premise", "within_section",
                                                 "cross_section", "one_in_cycle") if c in d["categories"]]
    assert set(d["training_fit"][0]) == {"trial", "target", "prediction", "residual"}


def test_json_symbolic_and_ridgeless(symbolic, ridgeless_symbolic):
    d = result_to_dict(symbolic)
    assert d["ridge"] == "lambda" and d["free_symbols"] == ["alpha", "lambda"]
    assert d["family"]["free_parameters"] == ["alpha"]
    assert all(c["min_margin"] is None and c["n_errors"] is None for c in d["categories"].values())
    d = result_to_dict(ridgeless_symbolic)
    assert d["ridge"] == "ridgeless" and d["free_symbols"] == ["alpha"]


def test_dumps_is_indented_json():
    text = dumps({"a": [1, 2]})
    assert text == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    with pytest.raises(ExportError, match="JSON"):
        dumps({"a": object()})


# ----------------------------------------------------------------------------------------- LaTeX
def _tabular_rows(tex):
    body = tex.split(r"\begin{tabular}")[1].split(r"\end{tabular}")[0]
    rows = {}
    for line in body.splitlines()[1:]:
        cells = [c.strip() for c in line.rstrip("\\ ").split("&")]
        if cells[0].startswith("$") and cells[0].strip("$").isdigit():
            rows[int(cells[0].strip("$"))] = cells[1:]
    return rows


def test_latex_table_reference_values(n4):
    tex = table_latex(n4)
    rows = _tabular_rows(tex)
    assert sorted(rows) == [1, 2, 3]  # rows i = 1..n-1, columns j = 2..n
    for (i, j), v in N4_TABLE.items():
        assert rows[i][j - 2] == f"${sp.latex(v)}$"
    assert rows[1][0] == r"$\frac{2}{7}$" and rows[3][2] == r"$\frac{2}{7}$"
    assert rows[2][0] == "" and rows[3][0] == rows[3][1] == ""
    for frac in (r"\frac{2}{7}", r"\frac{3}{7}", r"\frac{5}{7}", r"\frac{1}{7}"):
        assert frac in result_to_latex(n4)
    assert trial_latex(n4, 1, 2) == r"f(1, 2) = \frac{2}{7}"
    assert r"\dagger" not in tex


def test_latex_exception_cell_is_marked(n9):
    tex = table_latex(n9)
    rows = _tabular_rows(tex)
    assert rows[4][6 - 2] == r"${- \frac{5509}{7850}}^{\dagger}$"  # cell (L, W) = (4, 6): -f(6, 4)
    assert sum(c.count(r"\dagger") for r in rows.values() for c in r) == 1
    assert "f(6, 4) = -f(4, 6)" in tex
    assert rows[3][6 - 2] == r"$- \frac{387}{3925}$"  # CONVENTIONS f(3, 6)
    assert rows[1][9 - 2] == r"$\frac{7902}{3925}$"


def test_latex_margins(n9, symbolic):
    tex = margins_latex(n9)
    assert r"f(6, 4) &= \frac{5509}{7850}" in tex
    assert r"m(3, 6) &= - \frac{387}{3925}" in tex
    line = next(x for x in tex.splitlines() if x.startswith("one in cycle"))
    assert line == r"one in cycle & 32 & $- \frac{387}{3925}$ & 4 \\"
    tex = margins_latex(symbolic)
    assert "cycle premise & 4 & -- & --" in tex


def test_latex_symbols_and_factoring(symbolic):
    tex = result_to_latex(symbolic)
    assert r"\alpha" in tex and r"\lambda" in tex and "lambda" not in tex.replace(r"\lambda", "")
    assert r"\begin{tabular}{r|" not in tex  # symbolic: one formula per line, no table
    assert r"f(2, 4)^{\dagger} &=" in tex
    kappa = derive(3, parameters={"kappa_o": "symbolic", "kappa_d": "symbolic"}, ridge=1)
    tex = result_to_latex(kappa)
    assert r"\kappa_{o}" in tex and r"\kappa_{d}" in tex and "kappa_o" not in tex
    for r in (symbolic, kappa):
        for e in r.predictions.values():
            negative, num, den = factored(e)
            assert sp.cancel((-1 if negative else 1) * num / den - e) == 0


def test_latex_ridgeless(ridgeless_symbolic):
    r = ridgeless_symbolic
    for tex in (result_to_latex(r), result_to_latex(r, notebook=True)):
        assert r"\lambda \to 0^+" in tex
        for c in r.ridgeless_conditions:
            assert sp.latex(c) + r" \neq 0" in tex


def _balanced(tex):
    envs = re.findall(r"\\(begin|end)\{([^}]*)\}", tex)
    stack = []
    for kind, env in envs:
        if kind == "begin":
            stack.append(env)
        else:
            assert stack and stack.pop() == env, env
    assert not stack
    depth = 0
    for ch in tex.replace(r"\{", "").replace(r"\}", ""):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0


@pytest.mark.parametrize("name", ["n4", "n9", "symbolic", "ridgeless_symbolic"])
def test_latex_documents_are_well_formed(name, request):
    r = request.getfixturevalue(name)
    doc = result_to_latex(r, standalone=True)
    assert doc.startswith(r"\documentclass") and doc.rstrip().endswith(r"\end{document}")
    assert r"\begin{document}" in doc and r"\usepackage{amsmath}" in doc
    _balanced(doc)
    _balanced(result_to_latex(r))
    nb = result_to_latex(r, notebook=True)
    # one $$...$$ display per part (issue 15: a document breaks the page between them)
    blocks = nb.split("\n\n")
    assert len(blocks) >= 4 and all(b.startswith("$$") and b.endswith("$$") and b.count("$") == 4 for b in blocks)
    assert "tabular" not in nb and r"\paragraph" not in nb and "_" not in re.sub(r"_\{?\w", "", nb)
    _balanced(nb)
    assert r._repr_latex_() == nb


# ------------------------------------------------------------------------------------------ text
def test_text_report_errors_n9(n9):
    # Independent check of the claim: margins from the CONVENTIONS value and the ground-truth rule.
    assert n9.f(3, 6) == Q(-387, 3925) and n9.f(6, 4) == Q(5509, 7850)
    targets = {(i, i + 1): 1 for i in range(1, 9)} | {(i + 1, i): -1 for i in range(1, 9)}
    targets |= {(6, 4): 1, (4, 6): -1}
    negative = []
    for (i, j), f in n9.predictions.items():
        g = targets.get((i, j), 1 if i < j else -1)
        if (i, j) not in targets and 4 <= i <= 6 and 4 <= j <= 6:
            continue  # no ground truth inside the cycle 4..6
        if g * f < 0:
            negative.append((i, j))
    assert sorted(negative) == [(3, 6), (4, 7), (6, 3), (7, 4)]
    assert n9.margin(4, 7) == n9.margin(6, 3) == n9.margin(7, 4) == Q(-387, 3925)

    text = result_to_text(n9)
    assert text.isascii() and text.endswith("\n")
    section = text.split("errors (negative margin): 4")[1].split("\n\n")[0]
    listed = re.findall(r"^\s+\((\d), (\d)\)", section, flags=re.M)
    assert [(int(a), int(b)) for a, b in listed] == [(3, 6), (4, 7), (6, 3), (7, 4)]
    assert "-387/3925" in section
    for needle in ("n=9, exception 6>4", "alpha=1/10", "lambda = 1/10", f"method   {n9.method}\n",
                   "exception margin f(6, 4) = 5509/7850", "7902/3925", "one_in_cycle", "training fit"):
        assert needle in text, needle


def test_text_report_table_and_symbolic(n4, symbolic, ridgeless_symbolic):
    text = result_to_text(n4)
    row1 = next(line for line in text.splitlines() if line.split()[:1] == ["1"])
    assert row1.split() == ["1", "2/7", "3/7", "5/7"]
    assert "errors (negative margin): none" in text
    text = result_to_text(symbolic)
    assert "row i, column j" not in text  # one formula per line
    lines = [line for line in text.splitlines() if line.startswith("  f(")]
    assert len(lines) == 10 and lines[0].startswith("  f(1, 2) = ")
    assert "f(2, 4)* = " in text and "depend on the free parameters alpha, lambda" in text
    assert "ridgeless limit lambda -> 0+" in result_to_text(ridgeless_symbolic)
    assert str(n4) == result_to_text(n4)


def test_text_pieces_for_other_reports(n9, symbolic):
    # README: the header of `derive --items 9 --exception '6>4' --set alpha=0.1 --ridge 0.1`
    assert header_lines(n9) == [
        "symbolic_ti: exact kernel ridge regression on a transitive-inference task",
        "  task     n=9, exception 6>4", "  family   exchangeable(alpha=1/10, kappa_d=0)",
        "  ridge    lambda = 1/10", f"  method   {n9.method}"]
    assert header_lines(symbolic)[-1] == "  free     alpha, lambda"
    assert approx_suffix(Q(5509, 7850)) == " (~0.701783)" and approx_suffix(Q(-387, 3925)) == " (~-0.0985987)"
    assert approx_suffix(sp.Integer(3)) == approx_suffix(S.alpha) == approx_suffix(None) == ""


def test_latex_module_re_exports_its_parts():
    import symbolic_ti.export.latex as facade
    from symbolic_ti.export import latex_parse, latex_printer, latex_result

    for name in facade.__all__:
        part = next(m for m in (latex_printer, latex_result, latex_parse) if name in m.__all__)
        assert getattr(facade, name) is getattr(part, name), name


# ---------------------------------------------------------------------------------- write_atomic
def _leftovers(directory, keep):
    return sorted(set(os.listdir(directory)) - set(keep))


def test_write_atomic_writes_and_keeps_mode(tmp_path):
    p = tmp_path / "out.txt"
    write_atomic(p, "first\n")
    assert p.read_text() == "first\n"
    os.chmod(p, 0o640)
    write_atomic(str(p), "second\u00e9\n")
    assert p.read_text(encoding="utf-8") == "second\u00e9\n"
    assert (p.stat().st_mode & 0o777) == 0o640
    assert _leftovers(tmp_path, ["out.txt"]) == []


def test_write_atomic_keeps_existing_file_when_replace_fails(tmp_path, monkeypatch):
    p = tmp_path / "out.txt"
    p.write_text("old content\n")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(io_mod.os, "replace", broken_replace)
    with pytest.raises(ExportError, match="out.txt.*No space left"):
        write_atomic(p, "new content\n")
    assert p.read_text() == "old content\n"
    assert _leftovers(tmp_path, ["out.txt"]) == []


class _HalfWriter:
    """A file whose write stores half of the text, then fails."""

    def __init__(self, fh, exc):
        self.fh, self.exc = fh, exc

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.close()
        return False

    def write(self, text):
        self.fh.write(text[: len(text) // 2])
        self.fh.flush()
        raise self.exc


@pytest.mark.parametrize("exc", [RuntimeError("writer failed"), KeyboardInterrupt()])
def test_write_atomic_interrupted_mid_write(tmp_path, monkeypatch, exc):
    p = tmp_path / "report.json"
    p.write_text("old\n")
    real_fdopen = os.fdopen
    monkeypatch.setattr(io_mod.os, "fdopen", lambda fd, *a, **k: _HalfWriter(real_fdopen(fd, *a, **k), exc))
    with pytest.raises(type(exc)):
        write_atomic(p, "x" * 10_000)
    assert p.read_text() == "old\n"
    assert _leftovers(tmp_path, ["report.json"]) == []


def test_write_atomic_interrupted_before_replace_new_file(tmp_path, monkeypatch):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(io_mod.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "new.txt", "text")
    assert os.listdir(tmp_path) == []


def test_write_atomic_bad_destinations(tmp_path, monkeypatch):
    missing = tmp_path / "no" / "such" / "out.txt"
    with pytest.raises(ExportError, match=r"cannot write .*out\.txt.*does not exist"):
        write_atomic(missing, "x")
    with pytest.raises(ExportError, match="is a directory"):
        write_atomic(tmp_path, "x")
    monkeypatch.setattr(io_mod.os, "access", lambda path, mode: False)
    with pytest.raises(ExportError, match="not writable"):
        write_atomic(tmp_path / "out.txt", "x")
    assert os.listdir(tmp_path) == []
