"""The printers from FLINT's text (``export/poly_form.py``, ``_FlintPrinter``: LaTeX, srepr and the ``poly`` term
lists of a polynomial split out of FLINT's C output) against the term loops they replace (``_poly_latex``,
``_poly_srepr`` and the term list of ``fraction_terms``, which print each term of the polynomial's term
dictionary): character for character, on the closed forms of several results, their negations (margins) and
residuals ``y - f`` (constant terms), and on hand-made polynomials (zero, constants, coefficients of 1 and -1)."""

from __future__ import annotations

import json

import pytest
import sympy as sp
from flint import fmpq_mpoly_ctx, fmpz_mpoly_ctx

from symbolic_ti import derive
from symbolic_ti.export import poly_form as pf
from symbolic_ti.export.latex_printer import plain_latex
from symbolic_ti.results import PolyFraction


def _loop(p: PolyFraction, kind: str) -> list[str]:
    names = tuple(plain_latex(g) for g in p.gens)
    if kind == "latex":
        return [pf._poly_latex(p.gens, pf._items(p, k), names) for k in (0, 1)]
    if kind == "srepr":
        return [pf._poly_srepr(p.gens, pf._items(p, k)) for k in (0, 1)]
    return [json.dumps([[[int(e) for e in m], str(c)] for m, c in pf._items(p, k)]) for k in (0, 1)]


def _fast(p: PolyFraction, kind: str) -> list[str | None]:
    printer = pf._flint_printer(p, tuple(plain_latex(g) for g in p.gens))
    assert printer is not None
    show = {"latex": printer.to_latex, "srepr": printer.to_srepr, "terms": printer.to_terms}[kind]
    return [show(p.polys[k]) for k in (0, 1)]


RESULTS = [((9, ["6>4"]), {}), ((7, ["5>2", "7>3"]), {}), ((6, ["5>3"]), {"ridge": "1/7"}),
           ((6, ["4>2"]), {"ridge": "ridgeless"}), ((5, ["4>2"]), {"family": "geometric"})]


@pytest.mark.parametrize("args,kw", RESULTS, ids=[f"n{a[0]}-{k}" for a, k in RESULTS])
def test_same_characters_as_the_term_loops(args, kw):
    r = derive(*args, **kw)
    forms = [f for f in (r.fraction(*t) for t in r.task.trials) if f is not None]
    assert forms
    forms += [-f for f in forms] + [f.target_minus(1) for f in forms] + [f.target_minus(-1) for f in forms]
    for f in forms:
        for kind in ("latex", "srepr", "terms"):
            assert _fast(f, kind) == _loop(f, kind), (kind, f.polys)


@pytest.mark.parametrize("ctx_type", [fmpz_mpoly_ctx, fmpq_mpoly_ctx])
def test_hand_made_polynomials(ctx_type):
    ctx = ctx_type.get(("alpha", "lambda"), "lex")
    a, lam = ctx.gens()
    gens = (sp.Symbol("alpha", nonnegative=True), sp.Symbol("lambda", nonnegative=True))
    one = ctx.from_dict({(0, 0): 1})
    for num in (ctx.from_dict({}), one, -7 * one, a, -a, a * lam, -a * lam, a**3 * lam - a + 5,
                -a**2 + 12 * a * lam**4 - lam - 1, 3 * a**10 * lam + a * lam**2 - 9 * lam**3):
        f = PolyFraction(gens, num, a + 2 * lam + 1)
        for kind in ("latex", "srepr", "terms"):
            assert _fast(f, kind) == _loop(f, kind), (kind, num)


def test_rational_coefficients_fall_back_to_the_term_loop():
    ctx = fmpq_mpoly_ctx.get(("alpha",), "lex")
    (a,) = ctx.gens()
    f = PolyFraction((sp.Symbol("alpha"),), a / 2 + 1, ctx.from_dict({(0,): 1}))
    printer = pf._flint_printer(f)
    assert printer is not None and printer.to_latex(f.polys[0]) is None
    assert pf.fraction_latex(f) == r"\frac{1}{2} \alpha + 1"
    assert pf.fraction_srepr(f) == "Add(Mul(Rational(1, 2), Symbol('alpha')), Integer(1))"


@pytest.mark.parametrize("encoding", ["srepr", "poly"])
def test_streamed_report_of_large_forms_is_the_dictionary_report(tmp_path, encoding):
    """The streamed report (each root form printed once, ``-f`` by flipping signs, strings as JSON pieces) is the
    text of ``to_json`` (every record printed by ``fraction_latex``/``fraction_text``/... of its own form)."""
    from symbolic_ti.export.stream import write_json

    r = derive(14, ["8>6"])
    assert min(pf.fraction_size(r.fraction(*t)) for t in r.task.trials) > 100  # the printers from FLINT's text
    path = tmp_path / "r.json"
    write_json(r, path, encoding)
    streamed = path.read_text(encoding="utf-8")
    created = json.loads(streamed)["meta"]["created"]
    whole = r.to_json(encoding=encoding)
    assert streamed == whole.replace(json.loads(whole)["meta"]["created"], created) + "\n"


def test_flipped_signs_are_the_negated_polynomial():
    ctx = fmpz_mpoly_ctx.get(("alpha", "lambda"), "lex")
    a, lam = ctx.gens()
    gens = (sp.Symbol("alpha"), sp.Symbol("lambda"))
    for num in (a, -a, -7 * a**2 * lam + 3 * lam - 2, 4 * a - lam**3 + 1):
        f, g = PolyFraction(gens, num, a + 1), PolyFraction(gens, -num, a + 1)
        parts, negated = pf.fraction_parts(f, plain_latex, "terms"), pf.fraction_parts(g, plain_latex, "terms")
        assert parts is not None and negated is not None
        assert pf.flip_signs(parts["latex"][0]) == negated["latex"][0]
        assert pf.flip_signs(parts["text"][0]) == negated["text"][0]
        assert pf.flip_term_signs(parts["terms"][0]) == negated["terms"][0]
