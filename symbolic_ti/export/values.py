"""The two pieces every JSON report shares: an exact value as an expression object, and the ``meta`` block.

Every exact value in every report (a prediction, a margin, a critical value, a fitted parameter read exactly) is
stored by :func:`exact_value` as ``{"srepr", "latex", "text", "float"}`` (docs/json_schema.md); every report
opens with :func:`meta_block`.
"""

from __future__ import annotations

import math
from functools import lru_cache
from datetime import datetime, timezone
from typing import Any

import sympy as sp

from .._version import __version__
from ..display import JSONText
from ..results import PolyFraction
from .latex_printer import LARGE_FORM_TERMS, plain_latex
from .poly_form import (flip_signs, flip_term_signs, fraction_latex, fraction_parts, fraction_size, fraction_srepr,
                        fraction_terms, fraction_text, poly_fraction)

__all__ = ["LARGE_SREPR", "ENCODINGS", "exact_value", "FormValues", "FormTable", "meta_block"]

#: Above this many characters of ``srepr``, printed terms are not sorted (see :func:`exact_value`).
LARGE_SREPR = 20000


#: The encodings :func:`exact_value` writes: ``"srepr"`` (the default) or ``"poly"`` (docs/json_schema.md).
ENCODINGS = ("srepr", "poly")


def exact_value(e: Any, encoding: str = "srepr", known_float: float | None = None) -> dict[str, Any] | None:
    """Store one expression as ``{"srepr", "latex", "text", "float"}`` (or ``{"poly", "latex", "text", "float"}``).

    Parameters
    ----------
    e : sympy expression, int, Fraction, PolyFraction or None
        ``None`` (e.g. the margin of a trial without ground truth) gives ``None``. A
        :class:`~symbolic_ti.results.PolyFraction` of more than ``LARGE_FORM_TERMS`` terms (or any, with
        ``"poly"``) is printed from its terms (``srepr`` of the expression its ``as_expr`` builds; ``latex`` and
        ``text`` expanded), without building a sympy expression.
    encoding : {"srepr", "poly"}
        ``"poly"``: where ``e`` is a rational function over the rationals in its generators
        (:func:`symbolic_ti.export.poly_form.poly_fraction`), the compact term lists ``poly`` replace ``srepr``
        and ``latex``/``text`` are printed from the terms (expanded, in time proportional to their size);
        otherwise, and for ``"srepr"``, the record below.
    known_float : float, optional
        The value of ``e`` as a float, already certified by the caller (e.g. a critical value's isolating
        interval refined to a relative width of ``2**-54``, :attr:`symbolic_ti.analysis.roots.RealRoot.value_float`),
        used as ``float`` instead of evaluating ``e`` again (``float`` of a ``CRootOf`` of high degree costs
        ~20 ms in sympy).

    Returns
    -------
    dict or None
        ``srepr``: exact, with Symbol assumptions (read back by :func:`expression_from_dict`);
        ``latex``: ``sympy.latex``; ``text``: ``str``; ``float``: the value as a float when the expression
        has no free symbol and is real and finite, else ``None``. For an expression whose ``srepr`` is longer
        than :data:`LARGE_SREPR` characters, ``latex`` and ``text`` keep sympy's internal term order instead of
        sorting the terms (2-4 times faster for the large closed forms of symbolic item geometries).
    """
    if e is None:
        return None
    if isinstance(e, PolyFraction):  # the solver's polynomial form: printed from its terms, no sympy printer
        return _fraction_value(e, encoding)
    e = sp.sympify(e)
    value = known_float if known_float is not None else _float(e)
    if encoding == "poly":
        form = poly_fraction(e)
        if form is not None:
            return {"poly": fraction_terms(form), "latex": fraction_latex(form, plain_latex), "text": fraction_text(form),
                    "float": value}
    srepr = sp.srepr(e)
    if len(srepr) > LARGE_SREPR:  # sorting the terms of a huge polynomial dominates printing: keep sympy's order
        return {"srepr": srepr, "latex": sp.latex(e, order="none"), "text": sp.sstr(e, order="none"),
                "float": value}
    return {"srepr": srepr, "latex": sp.latex(e), "text": str(e), "float": value}


def _float(e: sp.Expr) -> float | None:
    if e.free_symbols:
        return None
    try:
        value = float(e)
    except (TypeError, ValueError):  # complex or not a number
        return None
    return value if math.isfinite(value) else None


def _fraction_value(form: PolyFraction, encoding: str, text: bool = False) -> dict[str, Any]:
    """The record of a :class:`PolyFraction`: ``srepr`` (or ``poly``), ``latex`` and ``text`` from its terms.

    A form of at most :data:`~symbolic_ti.export.latex_printer.LARGE_FORM_TERMS` terms in the ``srepr`` encoding
    is recorded from its expression with sympy's printers instead (the record of a result that holds expressions,
    character for character; cheap at that size)."""
    if encoding == "srepr" and fraction_size(form) <= LARGE_FORM_TERMS:
        small = exact_value(form.as_expr())
        assert small is not None
        return small
    if not form.gens:
        value: float | None = float(form.num.get((), 0) / form.den[()]) if form.num else 0.0
    elif all(not g.is_Symbol for g in form.gens):  # a number in pi, sqrt(3), ...
        value = _float(form.as_expr())
    else:
        value = None
    exact = {"poly": fraction_terms(form, text)} if encoding == "poly" else {"srepr": fraction_srepr(form)}
    return {**exact, "latex": fraction_latex(form, plain_latex), "text": fraction_text(form), "float": value}


class FormValues:
    """:func:`exact_value` of the closed forms of one report, each distinct form printed once.

    A report stores a prediction ``f(i, j)``, its reversed trial ``-f``, and margins that are ``f`` or ``-f``
    (:attr:`~symbolic_ti.results.PolyFraction.negated`): the record of a :class:`~symbolic_ti.results.PolyFraction`
    is kept by its root form (``f`` for ``-f``) and sign, and the ``srepr`` of ``-f``, ``Mul(Integer(-1), <f>)``,
    reuses ``f``'s. Every record is a new dictionary equal to ``exact_value(e, encoding)``.

    Parameters
    ----------
    encoding : {"srepr", "poly"}
    text : bool
        ``poly`` term lists as JSON text where they can be printed so (``fraction_terms(..., text=True)``: for
        a streamed report, :mod:`symbolic_ti.export.stream`).
    """

    def __init__(self, encoding: str, text: bool = False) -> None:
        self.encoding, self.text = encoding, text
        self._done: dict[tuple[int, bool], tuple[PolyFraction, dict[str, Any]]] = {}
        self._parts: dict[int, tuple[PolyFraction, dict[str, tuple[Any, ...]] | None]] = {}

    def __call__(self, e: Any) -> dict[str, Any] | None:
        if not isinstance(e, PolyFraction):
            return exact_value(e, self.encoding)
        root = -e if e.negated else e
        if _streamed(root, self.encoding, self.text):
            if id(root) not in self._parts:
                self._parts[id(root)] = (root, _quoted_parts(root, self.encoding))
            parts = self._parts[id(root)][1]
            if parts is not None:
                return _assemble(parts, e.negated, root.is_polynomial)
        key = (id(root), e.negated)
        if key not in self._done:
            self._done[key] = (root, _fraction_value(e, self.encoding, self.text))  # (root held: its id stays)
        return dict(self._done[key][1])


class FormTable:
    """The ``forms`` table of a version-2 report: each distinct closed form once, up to sign (docs/json_schema.md).

    :meth:`ref` gives the place ``(k, sign)`` of a form, adding it on first sight: a
    :class:`~symbolic_ti.results.PolyFraction` by its root (``f`` for ``-f``,
    :attr:`~symbolic_ti.results.PolyFraction.negated`: sign -1), the same object or one with equal polynomials
    (the same tree: ``as_expr`` depends only on the generators and terms); a sympy expression by itself, or by
    its negation (``-e == forms[k]``, structurally: sign -1). So ``sign * forms[k]`` rebuilds the very tree. :meth:`record`
    prints entry ``k`` once, as :class:`FormValues` prints the root (nothing kept after printing).

    Parameters
    ----------
    encoding : {"srepr", "poly"}
    text : bool
        As :class:`FormValues` (a streamed report).
    """

    def __init__(self, encoding: str, text: bool = False) -> None:
        self.encoding, self.text = encoding, text
        self.roots: list[Any] = []
        self._ids: dict[int, tuple[int, int]] = {}
        self._exprs: dict[sp.Expr, int] = {}
        self._buckets: dict[tuple[Any, ...], list[int]] = {}
        self._held: list[PolyFraction] = []

    def __len__(self) -> int:
        return len(self.roots)

    def _add(self, root: Any) -> int:
        self.roots.append(root)  # (held: a PolyFraction's id stays its own)
        return len(self.roots) - 1

    def _equal(self, root: PolyFraction) -> tuple[int, int]:
        """``(k, numerator_sign)``: the entry of a root with the same generators and denominator and a numerator
        equal to ``numerator_sign`` times ``root``'s (the same tree, or the tree of ``(-N) / D``: a prediction
        ``f(j, i)`` of a dense system, :meth:`~symbolic_ti.results.PolyFraction.opposite`), else a new entry.
        Roots are bucketed by their numbers of terms, so that a comparison is rare."""
        bucket = self._buckets.setdefault((root.gens, *(len(poly) for poly in root.polys)), [])
        for k in bucket:
            other = self.roots[k]
            try:
                if not bool(root.polys[1] == other.polys[1]):
                    continue
                num, other_num = root.polys[0], other.polys[0]
                sign = 1 if bool(num == other_num) else -1 if bool(num == other.opposite().polys[0]) else 0
            except (TypeError, ValueError):  # polynomials of different kinds or rings
                sign = 0
            if sign:
                self._held.append(root)  # (its id stays its own)
                return k, sign
        bucket.append(len(self.roots))
        return self._add(root), 1

    def ref(self, e: Any) -> tuple[int, int, int]:
        """``(k, sign, numerator_sign)`` with ``e == sign * forms[k]``, the numerator of ``forms[k]`` multiplied by
        ``numerator_sign`` (the same tree once read back: docs/json_schema.md), ``e`` added if new."""
        if isinstance(e, PolyFraction):
            root = -e if e.negated else e
            placed = self._ids.get(id(root))
            if placed is None:
                placed = self._ids[id(root)] = self._equal(root)
            return placed[0], -1 if e.negated else 1, placed[1]
        e = sp.sympify(e)
        k = self._exprs.get(e)
        if k is not None:
            return k, 1, 1
        k = self._exprs.get(-e)
        if k is not None:
            return k, -1, 1
        k = self._exprs[e] = self._add(e)
        return k, 1, 1

    def record(self, k: int) -> dict[str, Any]:
        """The expression object of entry ``k`` (``float`` null: the table holds no number)."""
        root = self.roots[k]
        if not isinstance(root, PolyFraction):
            out = exact_value(root, self.encoding)
            assert out is not None
            return out
        if _streamed(root, self.encoding, self.text):
            parts = _quoted_parts(root, self.encoding)
            if parts is not None:
                return _assemble(parts, False, root.is_polynomial)
        return _fraction_value(root, self.encoding, self.text)


def _streamed(form: PolyFraction, encoding: str, text: bool) -> bool:
    """Whether a streamed report (``text``) writes ``form``'s record as pieces of JSON text printed from FLINT's
    terms: every form in the ``poly`` encoding, a large one in ``srepr``, when its generators print plainly."""
    return text and (encoding == "poly" or fraction_size(form) > LARGE_FORM_TERMS) and _printable(form.gens)


def _quoted_parts(root: PolyFraction, encoding: str) -> dict[str, tuple[Any, ...]] | None:
    """:func:`~symbolic_ti.export.poly_form.fraction_parts` of ``root``, LaTeX backslashes escaped for JSON."""
    parts = fraction_parts(root, plain_latex, "terms" if encoding == "poly" else "srepr")
    if parts is None or any('"' in x for x in parts["latex"]):
        return None
    parts["latex"] = tuple(x.replace("\\", "\\\\") for x in parts["latex"])
    return parts


def _assemble(parts: dict[str, tuple[Any, ...]], negated: bool, polynomial: bool) -> dict[str, Any]:
    """The record of ``f`` or ``-f`` (``negated``) from the root's printed parts, as :func:`_fraction_value` writes
    it, each string as pieces of JSON text (nothing copied but the numerator of ``-f``)."""
    (nl, dl), (nt, dt) = parts["latex"], parts["text"]
    if negated:
        nl, nt = flip_signs(nl), flip_signs(nt)
    record: dict[str, Any] = {}
    if "srepr" in parts:
        ns, ds = parts["srepr"]
        inner = (ns,) if polynomial else ("Mul(", ns, ", Pow(", ds, ", Integer(-1)))")
        record["srepr"] = JSONText(('"Mul(Integer(-1), ', *inner, ')"') if negated else ('"', *inner, '"'))
    else:
        nj, dj = parts["terms"]
        poly = {"gens": parts["gens"][0], "gens_srepr": parts["gens"][1],
                "num": JSONText(flip_term_signs(nj) if negated else nj), "den": JSONText(dj)}
        record["poly"] = {**poly, "negated": True} if negated else poly
    record["latex"] = JSONText(('"', nl, '"') if polynomial else ('"\\\\frac{', nl, "}{", dl, '}"'))
    record["text"] = JSONText(('"', nt, '"') if polynomial else ('"(', nt, ")/(", dt, ')"'))
    record["float"] = None  # (the FLINT printer's generators are Symbols)
    return record


@lru_cache(maxsize=256)
def _printable(gens: tuple[sp.Expr, ...]) -> bool:
    """Whether the text, LaTeX and srepr of every generator are printable (no control character to escape)."""
    return all(str(g).isprintable() and plain_latex(g).isprintable() and sp.srepr(g).isprintable() for g in gens)


def meta_block(format_name: str, format_version: int, *, created: bool = True) -> dict[str, Any]:
    """The versioned ``meta`` block that opens every JSON report.

    Parameters
    ----------
    format_name : str
        ``meta.format``, e.g. ``"symbolic_ti.result"``.
    format_version : int
        ``meta.format_version``: bumped whenever a field of that format changes meaning or disappears.
    created : bool
        Include ``meta.created`` (UTC time, ISO 8601, seconds).

    Returns
    -------
    dict
        ``{"format", "format_version", "symbolic_ti_version"[, "created"]}``.
    """
    meta: dict[str, Any] = {"format": format_name, "format_version": format_version,
                            "symbolic_ti_version": __version__}
    if created:
        meta["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    return meta
