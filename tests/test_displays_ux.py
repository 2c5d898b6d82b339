"""Readable displays (issue 15): the notebook LaTeX breaks between parts, the LaTeX table has room for fractions,
and long exact values (ReLU kernels) show decimals in text tables."""

from __future__ import annotations

import re

import pytest
import sympy as sp

import symbolic_ti as st
from symbolic_ti.export.latex import table_latex
from symbolic_ti.export.text import CELL_WIDTH

Q = sp.Rational


@pytest.fixture(scope="module")
def n9():
    return st.derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")


def _outside_environments(tex: str) -> str:
    """``tex`` without its (possibly nested) ``\\begin{...} ... \\end{...}`` parts."""
    out, depth = [], 0
    for piece in re.split(r"(\\begin\{\w+\*?\}|\\end\{\w+\*?\})", tex):
        if piece.startswith(r"\begin{"):
            depth += 1
        elif piece.startswith(r"\end{"):
            depth -= 1
        elif depth == 0:
            out.append(piece)
    return "".join(out)


def test_notebook_latex_is_a_sequence_of_displays(n9):
    nb = n9._repr_latex_()
    blocks = nb.split("\n\n")
    assert all(b.startswith("$$") and b.endswith("$$") and b.count("$") == 4 for b in blocks)
    # a line break only inside an environment (array, aligned, gathered): each display is valid LaTeX
    assert all(r"\\" not in _outside_environments(b[2:-2]) for b in blocks)
    # CONVENTIONS reference values: f(3, 6) = -387/3925, f(1, 9) = 7902/3925, exception margin 5509/7850
    assert r"- \frac{387}{3925}" in nb and r"\frac{7902}{3925}" in nb and r"f(6, 4) &= \frac{5509}{7850}" in nb
    # the 32 transitive margins of "one in cycle" (16 listed, m(j, i) = m(i, j)) come in blocks of <= 8 lines
    for b in blocks:
        for aligned in re.findall(r"\\begin\{aligned\}(.*?)\\end\{aligned\}", b):
            assert aligned.count(r"\\") <= 7
    assert len(blocks) > 8


def test_notebook_latex_of_a_symbolic_result_is_split_too():
    nb = st.derive(5, ["4>2"])._repr_latex_()
    blocks = nb.split("\n\n")
    assert all(b.startswith("$$") and b.endswith("$$") for b in blocks)
    assert sum(b.count("f(") for b in blocks if "aligned" in b) >= 10  # the 10 predictions f(i, j), j > i


def test_latex_table_rows_have_room_for_fractions(n9):
    tex = table_latex(n9)
    lines = tex.splitlines()
    assert lines[0] == r"{\renewcommand{\arraystretch}{1.8}%" and lines[1].startswith(r"\begin{tabular}")
    assert r"\end{tabular}}" in tex  # the group ends with the table: only this table is stretched
    doc = n9.to_latex(standalone=True)
    assert doc.count(r"\arraystretch") == 1


def test_relu_text_table_shows_decimals_next_to_long_exact_values():
    r = st.derive(4, family="relu-ntk", ridge=1)
    text = r.to_text()
    # independent: the float64 solve with the family's own numeric kernel
    num = st.numeric_predictions(st.Task(4), st.get_family("relu-ntk"), {"lambda": 1})
    table = text.split("f(i, j) for j > i (row i, column j):")[1].split("exact values")[0]
    row1 = next(line for line in table.splitlines() if line.strip().startswith("1 "))
    assert all(len(c) <= CELL_WIDTH for c in row1.split())
    cells = [float(c.lstrip("~")) for c in row1.split()[1:]]
    assert cells == pytest.approx([num[(1, 2)], num[(1, 3)], num[(1, 4)]], rel=1e-5)
    # the exact value is still there, with its decimal, as derive --trial prints it
    line = next(x for x in text.splitlines() if x.startswith("  f(1, 2) = "))
    assert "pi" in line and "sqrt(3)" in line and line.endswith(f"(~{num[(1, 2)]:.6g})")
    assert max(len(x) for x in text.split("training fit")[1].splitlines()) < 100


def test_short_exact_values_stay_in_the_table(n9):
    text = n9.to_text()
    assert "-387/3925" in text and "7902/3925" in text and "exact values of the ~ cells" not in text
