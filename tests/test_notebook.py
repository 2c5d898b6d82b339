"""Notebook display: ``_repr_html_`` and ``_repr_latex_`` of results, reports, general-n forms and formulas.

Each must return well-formed, non-empty markup that contains the right values (CONVENTIONS.md and README).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
import sympy as sp

from symbolic_ti import critical, derive
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity
from symbolic_ti.export.latex import parse_exported
from symbolic_ti.analysis.general import no_exception_closed_form, exception_closed_form
from symbolic_ti.task import Task

Q = sp.Rational
_VOID = {"br", "hr", "img", "meta", "input"}


class _Checker(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.text, self.cells = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.stack.append(tag)
        if tag == "td":
            self.cells.append("")

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        if self.stack and self.stack[-1] == "td":
            self.cells[-1] += data


def _html(markup):
    assert isinstance(markup, str) and markup.strip()
    c = _Checker()
    c.feed(markup)
    c.close()
    assert not c.stack, f"unclosed tags {c.stack}"
    return c


def _balanced_latex(tex):
    assert tex.startswith("$") and tex.endswith("$") and len(tex) > 10
    depth = 0
    for ch in tex.replace(r"\{", "").replace(r"\}", ""):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    assert tex.count(r"\begin{") == tex.count(r"\end{")


@pytest.fixture(scope="module")
def n9():
    return derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")


def test_numeric_result_html_table(n9):
    c = _html(n9._repr_html_())
    cells = [x.strip() for x in c.cells]
    # CONVENTIONS: f(1, 9) = 7902/3925, f(3, 7) = 162/785, f(3, 6) = -387/3925; cell (4, 6) holds f(4, 6) = -f(6, 4)
    for v in ("7902/3925", "162/785", "-387/3925", "-5509/7850\u2020"):
        assert v in cells
    text = "".join(c.text)
    assert "n=9, exception 6>4" in text and "errors: 4" in text and "one_in_cycle" in text
    row3 = n9._repr_html_().split("<tr>")[3 + 1]  # header row, then rows i = 1, 2, 3
    assert "color:#b00000" in row3.split("-387/3925")[0].rsplit("<td", 1)[1]  # (3, 6) is wrong: red


def test_result_latex_and_symbolic_result(n9):
    tex = n9._repr_latex_()
    _balanced_latex(tex)
    assert r"\frac{7902}{3925}" in tex and r"- \frac{387}{3925}" in tex
    s = derive(5, ["4>2"])
    assert s._repr_html_() is None  # formulas show as LaTeX
    tex = s._repr_latex_()
    _balanced_latex(tex)
    assert r"\alpha" in tex and r"\lambda" in tex


def test_formula_display_reads_back(n9):
    f = n9.formula(3, 6)
    assert f._repr_latex_() == r"$\displaystyle f(3, 6) = - \frac{387}{3925}$"
    assert parse_exported(f.to_latex()) == Q(-387, 3925) and str(f) == "f(3, 6) = -387/3925"
    s = derive(4)
    g = s.formula(1, 4)
    assert sp.cancel(parse_exported(g.to_latex()) - s.f(1, 4)) == 0


def test_critical_report_html_and_latex():
    rep = critical(9, ["6>4"], parameter="alpha", ridge="ridgeless", trials=[(3, 6), (3, 7)])
    c = _html(rep._repr_html_())
    text = "".join(c.text)
    # README: (3, 6) to_error at 4/3 - sqrt(13)/3 ~ 0.131483; (3, 7) at 1/3
    assert "(3, 6)" in text and "4/3 - sqrt(13)/3 (~0.131483) to_error" in text
    assert "1/3 (~0.333333) to_error" in text and "failure order" in text
    tex = rep._repr_latex_()
    assert tex.startswith("$$") and r"\frac{4}{3} - \frac{\sqrt{13}}{3}" in tex


def test_conjunctivity_report_html():
    rep = critical_conjunctivity(Task(9, ["6>4"]), "ridgeless")
    c = _html(rep._repr_html_())
    assert c.cells[0].strip() == "0.131483" and c.cells[1].strip() == "4/3 - sqrt(13)/3"
    assert "(3, 6)" in c.cells[2] and "(4, 7)" in c.cells[2]
    assert rep._repr_latex_().startswith("$$")


def test_general_n_latex():
    from symbolic_ti.analysis.general import i, j, mu, n

    tex = no_exception_closed_form("sinh")._repr_latex_()
    _balanced_latex(tex)
    line = tex.split(r"f(i, j) &= ", 1)[1].split(r"\end{aligned}", 1)[0]
    # PNAS (CONVENTIONS): f(i, j) = [sinh((j-m) mu) - sinh((i-m) mu)] / [sinh((n+1) mu/2) - sinh((n-1) mu/2)]
    m = (n + 1) / 2
    pnas = (sp.sinh((j - m) * mu) - sp.sinh((i - m) * mu)) / (sp.sinh((n + 1) * mu / 2) - sp.sinh((n - 1) * mu / 2))
    point = {n: 8, i: 2, j: 7, mu: Q(1, 3)}
    assert abs(sp.N((parse_exported(line) - pnas).subs(point), 30)) < 1e-25
    tex = exception_closed_form("sinh").with_span(2)._repr_latex_()
    _balanced_latex(tex)
    assert r"L \le k \le L + 2" in tex and tex.count("f(i, j) &=") == 9
