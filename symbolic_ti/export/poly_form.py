r"""Closed forms as polynomial fractions, and the printers that work from them (text, LaTeX, srepr, JSON terms).

A closed form ``f = N / D`` of the package is a canceled rational function whose numerator and denominator are
polynomials with rational coefficients in a few *generators*: the free parameters (``alpha``, ``lambda``,
``rho``, ...) and, for the families with irrational constants, those constants themselves (``pi``,
``sqrt(3)``, ``acos(1/3)``, the named ReLU constants), which sympy's ``parallel_poly_from_expr`` takes as
generators of ``QQ[gens]``. So every coefficient is a rational number, and the JSON term list needs no
algebraic-number encoding: an irrational constant is a generator, named by its text and its ``srepr``
(docs/json_schema.md#polynomial-encoding).

:class:`symbolic_ti.results.PolyFraction` holds ``N`` and ``D`` as term dictionaries ``{exponents: Fraction}``;
the printers here print them in time proportional to their size (sympy's printers sort the terms of a sum,
``as_ordered_terms``, which dominates the export of large results: issue 17). They write the terms in decreasing
order of the exponent tuples, expanded, and their output reads back to the same expression:

* :func:`fraction_srepr` is the srepr of the tree :meth:`~symbolic_ti.results.PolyFraction.as_expr` builds, so
  :func:`symbolic_ti.export.jsonreport.expression_from_dict` returns that very expression;
* :func:`fraction_text` is sympy's string syntax (``(2*alpha**2 - 1)/(alpha + 1)``);
* :func:`fraction_latex` follows the round-trip rules of :mod:`symbolic_ti.export.latex_printer` (``\cdot``
  between factors unless a product has one non-numeric factor or only plain symbols).

:func:`poly_fraction` finds the polynomial form of a sympy expression (for results whose solver gave none).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from collections.abc import Callable
from typing import Any

import sympy as sp

from ..display import Compact, JSONText
from ..numeric.grid_poly import poly_fraction
from ..results import PolyFraction

__all__ = ["PolyFraction", "poly_fraction", "fraction_text", "fraction_latex", "fraction_srepr",
           "fraction_terms", "fraction_size", "fraction_parts", "flip_signs", "flip_term_signs"]



@lru_cache(maxsize=256)
def _gen_names(gen: sp.Expr) -> tuple[str, str, str]:
    """(text, LaTeX, srepr) of one generator (LaTeX: sympy's; :func:`fraction_latex` takes the package's)."""
    return str(gen), sp.latex(gen), sp.srepr(gen)


def _coeff_srepr(c: Fraction) -> str:
    return f"Integer({c.numerator})" if c.denominator == 1 else f"Rational({c.numerator}, {c.denominator})"


Items = list[tuple[tuple[int, ...], Any]]


def _items(p: PolyFraction, k: int) -> Items:
    """The terms of ``N`` (``k = 0``) or ``D`` in decreasing order of their exponent tuples: a FLINT polynomial's
    own order (lex, decreasing; coefficients ``fmpq``/``fmpz``, no conversion), else the sorted term dictionary."""
    poly = p.polys[k]
    if hasattr(poly, "context") and str(poly.context().ordering()) == "Ordering.lex":
        return list(zip(poly.monoms(), poly.coeffs(), strict=True))
    return sorted((p.num if k == 0 else p.den).items(), reverse=True)


def _flint_text(p: PolyFraction, k: int) -> str | None:
    """FLINT's own printer (C) of a polynomial whose generators are Symbols named as its context's variables:
    the text of :func:`_poly_text` with ``^`` for ``**``; ``None`` where it does not apply."""
    poly = p.polys[k]
    if not hasattr(poly, "context") or str(poly.context().ordering()) != "Ordering.lex" or \
            tuple(poly.context().names()) != tuple(g.name if g.is_Symbol else "" for g in p.gens):
        return None
    return _recent(poly)[1].replace("^", "**")


_RECENT: list[list[Any]] = []


def _recent(poly: Any) -> list[Any]:
    """``[poly, str(poly), pieces or None]`` for one of the last few polynomials printed (the text, LaTeX and
    srepr of a form read the same FLINT text; the polynomial is held, so that its identity stays its own)."""
    for seen in _RECENT:
        if seen[0] is poly:
            return seen
    seen = [poly, str(poly), None]
    _RECENT[:] = [seen, *_RECENT[:3]]
    return seen


@lru_cache(maxsize=1 << 16)  # the same monomials recur in every form of a result
def _factors(gens: tuple[sp.Expr, ...], monom: tuple[int, ...], kind: int,
             names: tuple[str, ...] | None = None) -> tuple[str, ...]:
    out = []
    for k, (g, e) in enumerate(zip(gens, monom, strict=True)):
        if e == 0:
            continue
        name = names[k] if names is not None else _gen_names(g)[kind]
        root = g.is_Pow and g.exp == sp.S.Half and g.base.is_Integer  # sqrt(3), \\sqrt{3}: no parentheses
        if kind == 0:
            base = name if (g.is_Symbol or g.is_Function or g is sp.pi or root) else f"({name})"
            out.append(base if e == 1 else f"{base}**{e}")
        elif kind == 1:
            base = name if (g.is_Symbol or g is sp.pi or (root and e == 1)) else f"({name})"
            out.append(base if e == 1 else f"{base}^{{{e}}}")
        else:
            out.append(name if e == 1 else f"Pow({name}, Integer({e}))")
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _plain(gens: tuple[sp.Expr, ...], monom: tuple[int, ...]) -> bool:
    return all(e <= 1 and g.is_Symbol for g, e in zip(gens, monom, strict=True))


def _poly_text(gens: tuple[sp.Expr, ...], items: Items) -> str:
    pieces = []
    for monom, c in items:
        factors = _factors(gens, monom, 0)
        a = abs(c)
        body = str(a) if not factors else "*".join(factors if a == 1 else [str(a), *factors])
        pieces.append((c < 0, body))
    return _join_signs(pieces, "0")


def _poly_latex(gens: tuple[sp.Expr, ...], items: Items, names: tuple[str, ...]) -> str:
    pieces = []
    for monom, c in items:
        factors = _factors(gens, monom, 1, names)
        a = abs(c)
        # the rule of latex_printer: juxtaposition when one non-numeric factor or only plain symbols
        plain = _plain(gens, monom)
        sep = " " if len(factors) <= 1 or plain else r" \cdot "
        num = rf"\frac{{{a.numerator}}}{{{a.denominator}}}" if a.denominator != 1 else str(a.numerator)
        body = num if not factors else sep.join(factors if a == 1 else [num, *factors])
        pieces.append((c < 0, body))
    return _join_signs(pieces, "0")


def _poly_srepr(gens: tuple[sp.Expr, ...], items: Items) -> str:
    args = []
    for monom, c in items:
        factors = _factors(gens, monom, 2)
        if not factors:
            args.append(_coeff_srepr(c))
        elif c == 1 and len(factors) == 1:
            args.append(factors[0])
        else:
            args.append(f"Mul({', '.join(factors if c == 1 else [_coeff_srepr(c), *factors])})")
    if not args:
        return "Integer(0)"
    return args[0] if len(args) == 1 else f"Add({', '.join(args)})"


def fraction_size(p: PolyFraction) -> int:
    """The number of terms of ``N`` plus those of ``D`` (read from the polynomials, no conversion)."""
    return sum(len(poly) for poly in p.polys)


class _Tokens(dict[str, Any]):
    """token -> printed piece, made on first look-up (``map(table.__getitem__, tokens)`` runs in C)."""

    def __init__(self, make: Callable[[str, tuple[int, ...]], Any], index: dict[str, int]) -> None:
        super().__init__()
        self._make, self._index = make, index

    def __missing__(self, token: str) -> Any:
        body = token.lstrip("*+- ")
        sign = "*" if token[0] == "*" else "-" if "-" in token[:3] else "+"
        monom = [0] * len(self._index)
        for factor in body.split("*"):
            name, _, e = factor.partition("^")
            monom[self._index[name]] = int(e) if e else 1
        out = self[token] = self._make(sign, tuple(monom))
        return out


class _FlintPrinter:
    r"""LaTeX, srepr and JSON terms of a FLINT polynomial from FLINT's own (C) text, ``-3*alpha^2*lambda + ...``.

    The text is split (one regular expression, in C) into coefficient pieces and monomial tokens (``*m`` after a
    coefficient, `` + m``, `` - m``, ``m``, ``-m`` for a coefficient of 1 or -1); each distinct token is printed
    once (:class:`_Tokens`, the same rules as :func:`_poly_latex`, :func:`_poly_srepr`, :func:`fraction_terms`)
    and the pieces are joined in C, so that the cost per term is a few C operations. Integer coefficients only
    (a ``/`` in the text: the callers use the term loop)."""

    def __init__(self, gens: tuple[sp.Expr, ...], names: tuple[str, ...], latex_names: tuple[str, ...]) -> None:
        # a monomial starts with a name (an identifier: a letter or _) and ends at the next space
        self.split = re.compile(r"((?:^-?| [+-] |\*)[A-Za-z_][^ ]*)").split
        index = {x: k for k, x in enumerate(names)}
        zero = (0,) * len(gens)

        def latex(sign: str, monom: tuple[int, ...]) -> str:
            factors = _factors(gens, monom, 1, latex_names)
            sep = " " if len(factors) <= 1 or _plain(gens, monom) else r" \cdot "
            return {"*": sep, "+": " + ", "-": " - "}[sign] + sep.join(factors)

        def srepr(sign: str, monom: tuple[int, ...]) -> str:
            f = ", ".join(_factors(gens, monom, 2))
            if sign == "*":
                return f"), {f})"
            if sign == "-":
                return f", Mul(Integer(-1), {f})"
            return f", {f}" if len(_factors(gens, monom, 2)) == 1 else f", Mul({f})"

        def exponents(sign: str, monom: tuple[int, ...]) -> str:
            return f", [{list(monom)}, \""

        def unit(sign: str, monom: tuple[int, ...]) -> str:
            return {"*": '"]', "+": '1"]', "-": '-1"]'}[sign]

        self.latex, self.srepr = _Tokens(latex, index), _Tokens(srepr, index)
        self.exponents, self.unit, self.zero = _Tokens(exponents, index), _Tokens(unit, index), list(zero)

    def pieces(self, poly: Any) -> tuple[list[str], list[str], str] | None:
        """(coefficient pieces, monomial tokens, the constant term's piece) of ``poly``'s text; ``None`` if a
        coefficient is not an integer."""
        seen = _recent(poly)
        if seen[2] is None:
            if "/" in seen[1]:
                return None
            parts = self.split(seen[1])
            seen[2] = (parts[0:-1:2], parts[1::2], parts[-1])
        return seen[2]

    def to_latex(self, poly: Any) -> str | None:
        split = self.pieces(poly)
        if split is None:
            return None
        coeffs, tokens, last = split
        out = [""] * (2 * len(tokens))
        out[0::2], out[1::2] = coeffs, map(self.latex.__getitem__, tokens)
        first = out[1][3:] if out and out[0] == "" and out[1][:3] == " + " else None  # "m": no sign in front
        if first is not None:
            out[1] = first
        elif out and out[0] == "" and out[1][:3] == " - ":
            out[1] = "-" + out[1][3:]
        return "".join(out) + last

    @staticmethod
    def _signed(coeffs: list[str], lead: str, minus: str) -> list[str]:
        """Coefficient pieces with `` + `` / `` - `` (the first one given its sign) replaced in C."""
        if coeffs and coeffs[0]:
            coeffs = [(" - " + coeffs[0][1:]) if coeffs[0][0] == "-" else (" + " + coeffs[0]), *coeffs[1:]]
        return "\0".join(coeffs).replace(" + ", lead).replace(" - ", minus).split("\0") if coeffs else []

    def to_srepr(self, poly: Any) -> str | None:
        split = self.pieces(poly)
        if split is None:
            return None
        coeffs, tokens, last = split
        out = [""] * (2 * len(tokens))
        out[0::2] = self._signed(coeffs, ", Mul(Integer(", ", Mul(Integer(-")
        out[1::2] = map(self.srepr.__getitem__, tokens)
        if last:
            out.append(f", Integer({last.replace(' ', '').lstrip('+')})")
        body = "".join(out)[2:]
        return "Integer(0)" if len(poly) == 0 else body if len(poly) == 1 else f"Add({body})"

    def to_terms(self, poly: Any) -> str | None:
        """``fraction_terms``'s list of one polynomial as compact JSON text (``json.dumps`` of the list)."""
        split = self.pieces(poly)
        if split is None or len(poly) == 0:
            return None if split is None else "[]"
        coeffs, tokens, last = split
        out = [""] * (3 * len(tokens))
        out[0::3] = map(self.exponents.__getitem__, tokens)
        out[1::3] = self._signed(coeffs, "", "-")
        out[2::3] = map(self.unit.__getitem__, tokens)
        if last:
            out.append(f", [{self.zero}, \"{last.replace(' ', '').lstrip('+')}\"]")
        return "[" + "".join(out)[2:] + "]"


@lru_cache(maxsize=64)
def _printer(gens: tuple[sp.Expr, ...], names: tuple[str, ...], latex_names: tuple[str, ...]) -> _FlintPrinter:
    return _FlintPrinter(gens, names, latex_names)


def _flint_printer(p: PolyFraction, latex_names: tuple[str, ...] = ()) -> _FlintPrinter | None:
    """The :class:`_FlintPrinter` of ``p`` where its polynomials are FLINT's in lex order over Symbols named as
    the context's variables (as :func:`_flint_text`), else ``None``."""
    poly = p.polys[0]
    if not hasattr(poly, "context") or str(poly.context().ordering()) != "Ordering.lex" or not p.gens:
        return None
    names = tuple(poly.context().names())
    if names != tuple(g.name if g.is_Symbol else "" for g in p.gens) or \
            not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", x) for x in names):
        return None
    return _printer(p.gens, names, latex_names)


def fraction_text(p: PolyFraction) -> str:
    """sympy string syntax, e.g. ``(2*alpha**2 - 1)/(alpha + 1)``, expanded (``parse_expr`` reads it back)."""
    num, den = (_flint_text(p, k) or _poly_text(p.gens, _items(p, k)) for k in (0, 1))
    return num if p.is_polynomial else f"({num})/({den})"


def fraction_latex(p: PolyFraction, gen_latex: Callable[[sp.Expr], str] = sp.latex) -> str:
    r"""LaTeX, expanded: ``\frac{N}{D}`` (module docstring for the rules; ``parse_exported`` reads it back).

    ``gen_latex`` prints one generator (:func:`symbolic_ti.export.latex_printer.plain_latex` for the package's
    round-trip rules, which :mod:`~symbolic_ti.export.latex_printer` and :mod:`~symbolic_ti.export.values` pass).
    """
    names = tuple(gen_latex(g) for g in p.gens)
    fast = _flint_printer(p, names)
    num, den = ((fast and fast.to_latex(p.polys[k])) or _poly_latex(p.gens, _items(p, k), names)
                for k in (0, 1))
    return num if p.is_polynomial else rf"\frac{{{num}}}{{{den}}}"


def fraction_srepr(p: PolyFraction) -> str:
    """srepr of ``Mul(N, Pow(D, -1))`` (``N`` when ``D == 1``; ``Mul(Integer(-1), <f>)`` for a form made as
    ``-f``, :attr:`PolyFraction.negated`): the tree :meth:`PolyFraction.as_expr` builds."""
    if p.negated:
        return f"Mul(Integer(-1), {fraction_srepr(-p)})"
    fast = _flint_printer(p)
    num, den = ((fast and fast.to_srepr(p.polys[k])) or _poly_srepr(p.gens, _items(p, k)) for k in (0, 1))
    return num if p.is_polynomial else f"Mul({num}, Pow({den}, Integer(-1)))"


def fraction_terms(p: PolyFraction, text: bool = False) -> dict[str, Any]:
    """The compact encoding (docs/json_schema.md): generators, then ``[exponents, "p/q"]`` term lists (and
    ``"negated": true`` for a form made as ``-f``, so that the reader rebuilds the same tree).

    The term lists are :class:`~symbolic_ti.display.Compact` lists (written on one line); with ``text``, a
    FLINT polynomial's list is its JSON text already (:class:`~symbolic_ti.display.JSONText`, printed from
    FLINT's text without building the list: what a streamed report writes)."""
    fast = _flint_printer(p) if text else None

    def enc(k: int) -> Compact | JSONText:
        written = fast.to_terms(p.polys[k]) if fast is not None else None
        if written is not None:
            return JSONText(written)
        return Compact([[[int(e) for e in m], str(c)] for m, c in _items(p, k)])  # (FLINT's exponents: fmpz)
    out = {"gens": [_gen_names(g)[0] for g in p.gens], "gens_srepr": [_gen_names(g)[2] for g in p.gens],
           "num": enc(0), "den": enc(1)}
    return {**out, "negated": True} if p.negated else out


def fraction_parts(p: PolyFraction, gen_latex: Callable[[sp.Expr], str], exact: str | None
                   ) -> dict[str, tuple[Any, ...]] | None:
    r"""The numerator and denominator of ``p`` printed apart, from FLINT's text: ``{"latex": (N, D), "text": (N,
    D), exact: (N, D), "gens": (texts, sreprs)}`` with ``exact`` ``"srepr"`` or ``"terms"`` (compact JSON text
    of the term lists; ``None``: neither), the pieces :func:`fraction_latex`, :func:`fraction_text`, :func:`fraction_srepr` and
    :func:`fraction_terms` join (``\frac{N}{D}``, ``(N)/(D)``, ...). ``None`` where FLINT's text does not apply
    (:class:`_FlintPrinter`), or where a generator's text or LaTeX has a ``+`` or ``-`` (so that
    :func:`flip_signs` may read the signs of the terms)."""
    names = tuple(gen_latex(g) for g in p.gens)
    fast = _flint_printer(p, names)
    if fast is None or any("+" in x or "-" in x for x in names):
        return None
    out: dict[str, tuple[Any, ...]] = {"latex": tuple(fast.to_latex(poly) for poly in p.polys)}
    if exact is not None:
        show = fast.to_srepr if exact == "srepr" else fast.to_terms
        out[exact] = tuple(show(poly) for poly in p.polys)
    if any(None in v for v in out.values()):
        return None
    out["text"] = tuple(_flint_text(p, k) for k in (0, 1))
    out["gens"] = ([_gen_names(g)[0] for g in p.gens], [_gen_names(g)[2] for g in p.gens])
    return out


def flip_signs(s: str) -> str:
    """The text or LaTeX of ``-N`` from that of ``N`` as these printers write it (terms joined by `` + `` and
    `` - ``, the first one's sign in front; no ``+`` or ``-`` inside a term: :func:`fraction_parts`)."""
    if s == "0":
        return s
    s = s[1:] if s[0] == "-" else "-" + s
    return s.replace(" + ", "\0").replace(" - ", " + ").replace("\0", " - ")


def flip_term_signs(terms: str) -> str:
    """The compact JSON term list of ``-N`` from that of ``N`` (each coefficient follows ``], "``)."""
    return terms.replace('], "-', "\0").replace('], "', '], "-').replace("\0", '], "')


def _join_signs(pieces: list[tuple[bool, str]], zero: str) -> str:
    if not pieces:
        return zero
    neg, first = pieces[0]
    out = [f"-{first}" if neg else first]
    for neg, body in pieces[1:]:
        out.append(f" - {body}" if neg else f" + {body}")
    return "".join(out)
