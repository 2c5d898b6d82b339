r"""Read exported LaTeX back into sympy (:func:`parse_exported`), with the package's Symbols.

Every expression that :mod:`symbolic_ti.export.latex_printer` writes reads back with sympy's LaTeX parser
(``parse_latex(s, backend="lark")``, the ``latex`` extra) to an expression equal to the original once the
parsed symbols are mapped to the package's Symbols; :func:`parse_exported` does both.

What does not round trip: ``CRootOf`` (a root of a polynomial of degree >= 3, in critical values) has no LaTeX
notation; :func:`parse_exported` reads sympy's ``\operatorname{CRootOf}`` back itself. Hyperbolic functions
(``\sinh``, general-n closed forms) are ambiguous in the grammar (``\sin h``); :func:`parse_exported` keeps the
reading with the fewest symbols. ``chebyshevu`` with a symbolic degree prints as ``U_{n - L}`` and does not
round trip.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ..errors import ExportError
from .latex_printer import DAGGER

__all__ = ["parse_exported"]

_LABEL = re.compile(r"^\s*[A-Za-z]+\s*\(\s*\d+\s*,\s*\d+\s*\)\s*(?:\^\{\\dagger\})?\s*&?=(?!=)")
_CROOTOF = r"\operatorname{CRootOf}"
_FUNCTION = re.compile(r"\\(?:(sinh|cosh|tanh|sin|cos|tan|exp|log)|operatorname\{(asinh|acosh|atanh)\})\s*\{")
# commands the grammar lacks, read as the named Symbols (names as in _symbol_table)
_UNSUPPORTED_SYMBOLS = {r"\Delta_{0}": "Delta_0"}
_CHEBYSHEV = re.compile(r"U_\{([^{}]*)\}\s*(?:\\left)?\(([^()]*?)(?:\\right)?\)")
# juxtaposition that the grammar cannot read (after a power, a subscript, a function or a parenthesis)
_JUXTAPOSED = re.compile(r"(?<=[)}])\s*(?=(?!\\cdot|\\right|\\end|\\\\)[\\a-zA-Z(0-9])")


@lru_cache(maxsize=1)
def _symbol_table() -> dict[str, sp.Symbol]:
    """Names as the parser spells them, braces removed (``kappa_o``), mapped to the package's Symbols."""
    from ..analysis import general
    from .. import symbols as S
    from ..families import FAMILIES
    from ..solvers.laplacian import GAMMA

    table: dict[str, sp.Symbol] = {"alpha": S.alpha, "lambda": S.ridge, "kappa_o": S.kappa_o,
                                   "kappa_d": S.kappa_d, "n": S.n, "gamma": GAMMA,
                                   "W": sp.Symbol("W", integer=True, positive=True)}
    for name in ("L", "D", "i", "j", "k", "mu", "x"):
        table[name] = getattr(general, name)
    for name, sym in (("Delta_0", general._DELTA0), ("Q", general._Q), ("d_e", general._D_E),
                      ("y_e", general._Y_E)):
        table[name] = sym
    for cls in FAMILIES.values():
        for p in getattr(cls, "parameters", ()):
            table.setdefault(str(p.symbol.name), p.symbol)
    return table


def _parser() -> Any:
    """A lark LaTeX parser whose transformer resolves ambiguous readings (see :func:`parse_exported`)."""
    try:
        from sympy.parsing.latex.lark.latex_parser import LarkLaTeXParser
        from sympy.parsing.latex.lark.transformer import TransformToSymPyExpr
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise ExportError(f"parse_exported needs the lark package ({err}); install it with "
                          "python -m pip install 'symbolic-ti[latex]'") from None

    class _Resolve(TransformToSymPyExpr):
        def _ambig(self, options: list[Any]) -> Any:
            # prefer: no undefined function (``\mu (x)`` is a product), fewest symbols (``\sinh``, not
            # ``\sin h``), then the simplest expression; relations (``\left`` read as ``\le ft``) come last
            exprs = [o for o in options if isinstance(o, sp.Expr)] or list(options)

            def key(o: Any) -> tuple[int, int, int, str]:
                if not isinstance(o, sp.Basic):
                    return (1, 0, 0, str(o))
                return (len(o.atoms(AppliedUndef)), len(o.free_symbols), int(sp.count_ops(o)), str(o))

            ranked = sorted(exprs, key=key)
            best = ranked[0]
            for other in ranked[1:]:
                if key(other)[:2] != key(best)[:2]:
                    break
                if other != best and sp.simplify(other - best) != 0:
                    raise ValueError(f"ambiguous LaTeX: it reads as {best} or as {other}")
            return best

    return LarkLaTeXParser(transformer=_Resolve)


_PARSER: Any = None


def _parse_one(text: str) -> sp.Expr:
    global _PARSER
    try:
        from sympy.parsing.latex import parse_latex
        import lark  # noqa: F401
    except ImportError as err:
        raise ExportError(f"parse_exported needs the lark package ({err}); install it with "
                          "python -m pip install 'symbolic-ti[latex]'") from None
    try:
        out = parse_latex(text, backend="lark")
        if isinstance(out, sp.Basic):
            return out
    except Exception:  # the stock transformer fails on an ambiguous reading: resolve it below
        pass
    if _PARSER is None:
        _PARSER = _parser()
    try:
        out = _PARSER.doparse(text)
    except Exception as err:
        raise ExportError(f"parse_exported: cannot read {text!r} as LaTeX: {type(err).__name__}: "
                          f"{str(err).splitlines()[0] if str(err) else ''}") from None
    if not isinstance(out, sp.Basic):
        raise ExportError(f"parse_exported: {text!r} is not a single expression")
    return out


def _placeholders(text: str) -> tuple[str, dict[sp.Symbol, sp.Expr]]:
    r"""Replace what the grammar misreads (``CRootOf``, functions, ``\Delta_{0}``, ``U_{a}(x)``) by placeholder
    symbols, each parsed on its own; return the text and the placeholders' values."""
    roots: dict[sp.Symbol, sp.Expr] = {}
    while _CROOTOF in text:
        start = text.index(_CROOTOF)
        pos = start + len(_CROOTOF)
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text) or text[pos] != "{":
            raise ExportError(f"parse_exported: malformed CRootOf in {text!r}")
        depth, end = 0, pos
        for end in range(pos, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        inner = text[pos + 1:end].strip().replace(r"\left(", "(").replace(r"\right)", ")")
        if not (inner.startswith("(") and inner.endswith(")")):
            raise ExportError(f"parse_exported: malformed CRootOf in {text!r}")
        body = inner[1:-1]
        poly_text, _, index = body.rpartition(",")
        name = f"crootof{chr(ord('A') + len(roots))}"
        roots[sp.Symbol(name)] = sp.CRootOf(parse_exported(poly_text), int(index.strip()))
        text = text[:start] + rf"\mathit{{{name}}}" + text[end + 1:]
    # functions as sympy prints them, \sinh{\left(x \right)}: the grammar lets \sinh take everything after it
    while True:
        m = _FUNCTION.search(text)
        if m is None:
            break
        pos = m.end() - 1  # the opening brace
        depth, end = 0, pos
        for end in range(pos, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        func = getattr(sp, m.group(1) or m.group(2))
        name = f"function{chr(ord('A') + len(roots))}"
        roots[sp.Symbol(name)] = func(parse_exported(text[pos + 1:end]))
        text = text[:m.start()] + rf"\mathit{{{name}}}" + text[end + 1:]
    for command, symbol in _UNSUPPORTED_SYMBOLS.items():
        if command in text:
            name = f"symbol{chr(ord('A') + len(roots))}"
            roots[sp.Symbol(name)] = sp.Symbol(symbol)
            text = text.replace(command, rf"\mathit{{{name}}}")
    # Chebyshev polynomials of the second kind, as sympy prints chebyshevu(a, x): U_{a}(x)
    while True:
        m = _CHEBYSHEV.search(text)
        if m is None:
            break
        name = f"chebyshev{chr(ord('A') + len(roots))}"
        roots[sp.Symbol(name)] = sp.chebyshevu(parse_exported(m.group(1)), parse_exported(m.group(2)))
        text = text[:m.start()] + rf"\mathit{{{name}}}" + text[m.end():]
    return text, roots


def parse_exported(text: str) -> sp.Expr:
    r"""Read one exported LaTeX expression back into sympy, with the package's Symbols.

    Parameters
    ----------
    text : str
        One expression as exported (:func:`plain_latex`, :func:`expr_latex`, a table cell, or a line of an
        ``align`` block such as ``f(3, 6) &= - \frac{387}{3925}``). Surrounding ``$``, a trailing ``\\``, a
        label ``f(i, j) =`` / ``m(i, j) &=`` and the exception mark ``^{\dagger}`` are removed first.

    Returns
    -------
    sympy.Expr
        The parsed expression, with every symbol replaced by the package's Symbol of that name (assumptions
        included): ``\lambda`` -> :data:`symbolic_ti.symbols.ridge`, ``\kappa_{o}`` -> ``kappa_o``, ``\alpha``,
        ``\kappa_{d}``, ``\gamma``, ``n``, and the general-n symbols ``L``, ``D``, ``W``, ``i``, ``j``, ``k``,
        ``\mu``, ``x``, ``\Delta_{0}``, ``Q``; other names become plain Symbols.

    Raises
    ------
    ExportError
        If lark is not installed (the message says how to install it), or ``text`` is not an expression the
        parser reads.

    Notes
    -----
    The text is first given to ``sympy.parsing.latex.parse_latex(text, backend="lark")`` unchanged; everything
    that :mod:`symbolic_ti.export.latex` writes is read that way. Text from other printers (``\left(``,
    ``\sinh``) can be ambiguous in the parser's grammar; it is then parsed again with ``\left``/``\right``
    removed, keeping the reading with the fewest free symbols (``\sinh(\mu)`` rather than
    ``\sin(h \mu)``). ``\operatorname{CRootOf} {(p, k)}`` becomes ``CRootOf(p, k)``.

    Examples
    --------
    >>> from symbolic_ti import symbols as S
    >>> parse_exported(r"f(1, 2) &= \frac{2 \lambda}{\kappa_{o} + 1} \\") == 2 * S.ridge / (S.kappa_o + 1)
    True
    """
    if not isinstance(text, str):
        raise ExportError(f"parse_exported: text must be a str, got {type(text).__name__}")
    s = text.strip().strip("$").strip()
    if s.endswith("\\\\"):
        s = s[:-2].rstrip()
    m = _LABEL.match(s)
    if m:
        s = s[m.end():]
    s = s.replace(DAGGER, "").replace("&", "").strip()
    if s.startswith("{") and s.endswith("}") and _balanced_group(s):
        s = s[1:-1].strip()
    if not s:
        raise ExportError(f"parse_exported: no expression in {text!r}")
    s, roots = _placeholders(s)
    try:
        expr = _parse_one(s)
    except ExportError:  # not written by this module: drop \left/\right, make products explicit
        plain = s.replace(r"\left(", "(").replace(r"\right)", ")").replace(r"\left[", "[").replace(r"\right]", "]")
        plain = _JUXTAPOSED.sub(r" \\cdot ", plain)
        if plain == s:
            raise
        expr = _parse_one(plain)
    table = _symbol_table()
    sub: dict[sp.Basic, sp.Basic] = {}
    for sym in expr.free_symbols:
        name = str(sym.name).replace("{", "").replace("}", "")
        if sym in roots:
            sub[sym] = roots[sym]
        elif name in table:
            sub[sym] = table[name]
        else:
            sub[sym] = sp.Symbol(name)
    return expr.xreplace(sub)


def _balanced_group(s: str) -> bool:
    """Whether the outer braces of ``s`` enclose all of it (``{a}{b}`` is not one group)."""
    depth = 0
    for k, c in enumerate(s):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0 and k < len(s) - 1:
            return False
    return True
