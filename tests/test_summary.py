"""Summary display of large results (export/summary.py): the notebook hooks answer with sizes, degrees and a few
short entries instead of the full report, and the counts agree with sympy's ``Poly`` of every closed form."""

from __future__ import annotations

import sympy as sp

from symbolic_ti import derive
from symbolic_ti.export import summary as summary_module
from symbolic_ti.export.summary import FULL_DISPLAY_TERMS, display_cost, summarize


def _poly_counts(result):
    """Terms and degrees of every f(i, j), i < j, from sympy's Poly (independent of the summary's walk)."""
    gens = result.free_symbols
    terms, degrees = 0, {}
    for (i, j) in result.task.trials:
        if i < j:
            num, den = sp.fraction(result.f(i, j))
            for part in (num, den):
                p = sp.Poly(part, *gens)
                terms += len(p.terms())
                for g, d in zip(gens, p.degree_list(), strict=True):
                    degrees[g.name] = max(degrees.get(g.name, 0), d)
    return terms, degrees


def test_large_symbolic_result_shows_a_summary(monkeypatch):
    # n = 12 (about 7,000 terms) is over the real limit; n = 9 (about 630 terms) with a lower one is cheaper
    monkeypatch.setattr(summary_module, "FULL_DISPLAY_TERMS", 300)
    r = derive(9, ["6>4"])
    lazy = summarize(r)
    assert not lazy.exact_counts and len(lazy.measured) <= 3  # nothing but a sample was built
    assert r.predictions.n_built <= 2 * 3
    terms, degrees = _poly_counts(r)  # builds everything
    assert terms > summary_module.FULL_DISPLAY_TERMS
    s = summarize(r)
    assert s.exact_counts and s.forms == 36 and s.estimated_terms == terms and s.degrees == degrees
    tex = r._repr_latex_()
    assert tex.startswith(r"$\displaystyle") and "summary" in tex and len(tex) < 3000
    assert r"\mathtt{result.to\_latex()}" in tex
    page = r._repr_html_()
    assert page is not None and "36 closed forms" in page and "<script" not in page
    text = r.to_text(summary=True)
    assert f"{terms:,} terms" in text and "alpha " + str(degrees["alpha"]) in text


def test_short_entries_are_exact_values():
    r = derive(9, ["6>4"], parameters={"alpha": "1/10"})  # lambda symbolic only
    s = summarize(r)
    assert s.entries
    for (i, j), e in s.entries:
        assert sp.cancel(e - r.f(i, j)) == 0 and len(str(e)) <= 160


def test_small_results_show_in_full():
    r = derive(5, ["4>2"])
    assert display_cost(r) < FULL_DISPLAY_TERMS
    assert "summary" not in r._repr_latex_() and r._repr_html_() is None
    n = derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    assert "<table" in (n._repr_html_() or "")


def test_large_numeric_result_shows_a_summary():
    r = derive(61, ["32>30"], parameters={"alpha": "1/10"}, ridge="1/10")  # 1,830 exact rationals i < j
    page = r._repr_html_()
    assert page is not None and "1830 closed forms" in page and "<table" not in page
    assert r.predictions.n_built <= 2 * 3


def test_latex_summary_keeps_subscripts():
    # the label "exchangeable(kappa_d=0, ...)" used to come out as "kappa d=0" (the underscore dropped in \text)
    r = derive(7, ["5>3"])
    assert "kappa_d=0" in r.label()
    tex = summary_module.summary_to_latex(summarize(r))
    assert (r"\text{summary: n=7, exception 5>3; exchangeable(}\kappa_{\mathrm{d}}\text{=0, }\alpha\text{ symbolic); }"
            r"\lambda\text{ symbolic}") in tex  # Greek parameter names as their letters too
    assert "kappa d" not in tex and " alpha" not in tex and r"\mathtt{result.formula(i, j)}" in tex
    assert tex.count("{") == tex.count("}")


def test_str_of_a_large_result_is_its_summary():
    """print(result) of a large result shows the summary at once (issue 17, point 4); a small one its report."""
    big = derive(25, ["14>12"])
    text = str(big)
    assert text.startswith("symbolic_ti result (summary): n=25") and "result.to_text()" in text
    assert len(text) < 2000 and big.predictions.n_built < 20  # (a sample, not every form: 600 trials)
    small = derive(5, ["4>2"])
    assert str(small) == small.to_text()
