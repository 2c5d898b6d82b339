r"""Read exported LaTeX back into sympy (:func:`parse_exported`), with the package's Symbols.

Every expression that :mod:`symbolic_ti.export.latex_printer` writes (:func:`plain_latex`, :func:`expr_latex`,
so every table cell, ``align`` line and formula of the LaTeX reports) reads back through :func:`parse_exported`
to an expression equal to the original, for the output of every family (exchangeable, geometric, similarity,
embedding, relu-nngp, relu-ntk at every depth, sums) and of the general-n closed forms
(tests/test_latex_roundtrip.py). :func:`parse_exported` uses sympy's LaTeX parser (``parse_latex(s,
backend="lark")``, the ``latex`` extra) and a table of what the parser's grammar lacks; each such piece is cut out
of the text, read on its own and put back as a placeholder Symbol:

* the constant ``\pi`` (``sympy.pi``) and the Greek letters the grammar lacks (``\Delta_{0}``, ``\sigma``, ...
  as Symbols of that name);
* functions as sympy prints them, ``\operatorname{acos}{(x)}``, ``\sin^{2}{(x)}``, ``\sinh``, ``\log`` (the grammar
  would let ``\sinh`` take everything after it, and has no ``\operatorname{acos}``);
* the named ReLU constants, ``\kappa_{o}^{\mathrm{NTK},2}`` ->
  :class:`~symbolic_ti.families.relu_kappas.ReluKernelConstant` ``(1, 2, 1/2)``, and the named kernel values of
  the deep network families, ``\kappa_{o}^{\mathrm{PNAS-NTK},3}(\frac{3}{2}, 0)`` ->
  :class:`~symbolic_ti.families.kernel_values.NetworkKernelValue` ``("pnas", 1, 3, 1/2, 3/2, 0)``;
* Symbols with a name of several letters, printed ``\mathit{ab}``;
* ``\operatorname{CRootOf}{(p, k)}`` (a root of a polynomial of degree >= 3, in critical values), which has no
  LaTeX notation, and ``U_{a}(x)``, sympy's ``chebyshevu(a, x)`` (read unevaluated, as printed).

Square roots (``\sqrt{3}``, ``\sqrt[3]{x}``) the grammar reads itself. ``e`` is Euler's number
(``sympy.E`` prints ``e`` and ``exp(x)`` prints ``e^{x}``, as in the gradient-flow closed forms of
:mod:`symbolic_ti.dynamics`), unless a Symbol named ``e`` is passed as ``symbols=``.

What does not read back (stated in docs/families.md, "Known gaps"):

* floats (numeric results) read back to the digits printed (15 significant digits for a float64), not bit for
  bit;
* Symbols that sympy prints with an accent or as an upright letter (names ending in ``bar``, ``dot``, ``hat``
  ... print ``\bar{x}``; ``Alpha`` prints ``\mathrm{A}``), and Symbols with a Greek letter that the
  grammar lacks in a subscript (``x_pi`` prints ``x_{\pi}``);
* a Symbol named ``pi`` prints ``\pi`` and reads back as the constant;
* ``chebyshevu`` whose argument contains parentheses.

A name reads back as the package's Symbol of that name (assumptions included); pass other Symbols (e.g. those
of a user's similarity matrix) as ``symbols=`` to get them back with their assumptions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ..errors import ExportError
from ..families.kernel_values import kernel_value, registered_kernel_families
from ..families.relu_kappas import ReluKernelConstant
from .latex_printer import DAGGER, plain_latex

__all__ = ["parse_exported"]

_LABEL = re.compile(r"^\s*[A-Za-z]+\s*\(\s*\d+\s*,\s*\d+\s*\)\s*(?:\^\{\\dagger\})?\s*&?=(?!=)")
_CROOTOF = r"\operatorname{CRootOf}"
# functions as sympy prints them: \sin{\left(x \right)}, \sin^{2}{(x)}, \operatorname{acos}{(x)}
_FUNCTION = re.compile(r"\\(?:(sinh|cosh|tanh|coth|sin|cos|tan|cot|sec|csc|exp|log|ln|arcsin|arccos|arctan)"
                       r"|operatorname\{(asinh|acosh|atanh|acoth|asin|acos|atan|acot|asec|acsc)\})"
                       r"(?:\^\{([^{}]*)\})?\s*\{")
_FUNCTION_NAMES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "ln": "log"}
_CHEBYSHEV = re.compile(r"U_\{([^{}]*)\}\s*(?:\\left)?\(([^()]*?)(?:\\right)?\)")
# ReluKernelConstant._latex: \kappa_{o}^{\mathrm{NTK},2} (kind NTK/NNGP, depth, o = x.x' 1/2, d = 0)
_RELU_CONSTANT = re.compile(r"\\kappa_\{([od])\}\^\{\\mathrm\{(NTK|NNGP)\},\s*(\d+)\}")
# NetworkKernelValue._latex: \kappa_{o}^{\mathrm{PNAS-NTK},3}\left(a, b\right) (family label, -NTK, depth)
_NETWORK_CONSTANT = re.compile(r"\\kappa_\{([od])\}\^\{\\mathrm\{([A-Za-z]+)(-NTK)?\},\s*(\d+)\}\s*(?:\\left)?\(")
_SUBSCRIPT = r"(?:_\{([A-Za-z0-9]+)\}|_([A-Za-z0-9]))?"
# Greek letters sympy prints that the grammar lacks (outside a subscript); \pi alone is the constant
_GREEK = re.compile(r"(?<!_\{)\\(iota|pi|varpi|sigma|varsigma|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Upsilon|Phi|"
                    r"Psi|Omega)(?![A-Za-z])" + _SUBSCRIPT)
# a Symbol whose name has several letters (latex_printer prints it \mathit{ab}); the grammar takes no subscript
_MATHIT = re.compile(r"\\mathit\{([A-Za-z][A-Za-z0-9]*)\}" + _SUBSCRIPT)
# juxtaposition that the grammar cannot read (after a power, a subscript, a function or a parenthesis)
_JUXTAPOSED = re.compile(r"(?<=[)}])\s*(?=(?!\\cdot|\\right|\\end|\\\\)[\\a-zA-Z(0-9])")


@lru_cache(maxsize=1)
def _symbol_table() -> dict[str, sp.Symbol]:
    """Names as the parser spells them, braces removed (``kappa_o``), mapped to the package's Symbols."""
    from ..analysis import general
    from .. import symbols as S
    from ..families import FAMILIES

    table: dict[str, sp.Symbol] = {"alpha": S.alpha, "lambda": S.ridge, "kappa_o": S.kappa_o,
                                   "kappa_d": S.kappa_d, "n": S.n, "gamma": S.gamma,
                                   "W": sp.Symbol("W", integer=True, positive=True)}
    table.update(general.named_symbols())
    for cls in FAMILIES.values():
        for p in cls.parameters:
            table.setdefault(str(p.symbol.name), p.symbol)
    return table


def _names(symbols: Iterable[sp.Symbol]) -> dict[str, sp.Symbol]:
    """The symbol table with the caller's Symbols added under the name the parser gives their LaTeX."""
    table = dict(_symbol_table())
    for sym in symbols:
        if not isinstance(sym, sp.Symbol):
            raise ExportError(f"parse_exported: symbols must be sympy Symbols, got {sym!r}")
        table[_spelling(sym)] = sym
    return table


@lru_cache(maxsize=256)
def _spelling(sym: sp.Symbol) -> str:
    """The name, braces removed, that :func:`_read` gives to ``plain_latex(sym)`` (``rho2`` -> ``rho_2``)."""
    try:
        back = _read(plain_latex(sym), _symbol_table())
    except ExportError:
        back = None
    if not isinstance(back, sp.Symbol):
        raise ExportError(f"parse_exported: the Symbol {sym.name!r} prints as {plain_latex(sym)!r}, which does not "
                          f"read back as one Symbol" + ("" if back is None else f" (it reads as {back})"))
    return str(back.name)


@lru_cache(maxsize=1)
def _parsers() -> tuple[Any, Any, Any]:
    """The lark parser of sympy's LaTeX grammar, sympy's transformer and one that resolves ambiguous readings
    (see :func:`parse_exported`). The grammar is built once per process: sympy's own parser (built when
    ``sympy.parsing.latex`` is imported) where it has one, so a text is parsed once and its tree transformed by
    the stock transformer, then, if that fails, by the resolving one."""
    try:
        import lark  # noqa: F401
        from sympy.parsing.latex.lark import latex_parser
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

    stock = getattr(latex_parser, "_lark_latex_parser", None)
    if stock is None:  # pragma: no cover - a sympy without the module-level parser
        stock = latex_parser.LarkLaTeXParser()
    return stock.parser, TransformToSymPyExpr(), _Resolve()


def _parse_one(text: str, shown: str) -> sp.Expr:
    """``text`` through the lark parser, its tree through the stock transformer, then through the resolving one
    (:func:`_parsers`); errors quote ``shown``."""
    parser, stock, resolve = _parsers()
    try:
        tree = parser.parse(text)
    except Exception as err:
        raise ExportError(f"parse_exported: cannot read {shown!r} as LaTeX: {type(err).__name__}: "
                          f"{str(err).splitlines()[0] if str(err) else ''}") from None
    try:
        out = stock.transform(tree)
        if isinstance(out, sp.Basic):
            return out
    except Exception:  # the stock transformer fails on an ambiguous reading: resolve it below
        pass
    try:
        out = resolve.transform(tree)
    except Exception as err:
        raise ExportError(f"parse_exported: cannot read {shown!r} as LaTeX: {type(err).__name__}: "
                          f"{str(err).splitlines()[0] if str(err) else ''}") from None
    if not isinstance(out, sp.Basic):
        raise ExportError(f"parse_exported: {shown!r} is not a single expression")
    return out


# ------------------------------------------------------------------------------------------- placeholders
class _Holes:
    r"""Placeholder Symbols ``Z_{zzA}``, ``Z_{zzB}``, ... for pieces the grammar lacks, with their values.

    A subscripted single letter, because the grammar reads it in every product (``2 Z_{zzA}^{6}``,
    ``Z_{zzA} \lambda``), which it does not for ``\mathit{...}``. Equal values share one placeholder.
    """

    def __init__(self) -> None:
        self.values: dict[str, sp.Basic] = {}  # parsed name, braces removed -> value
        self._latex: dict[sp.Basic, str] = {}

    def put(self, value: sp.Basic) -> str:
        if value not in self._latex:
            k, letters = len(self._latex) + 1, ""
            while k:
                k, r = divmod(k - 1, 26)
                letters = chr(ord("A") + r) + letters
            self.values[f"Z_zz{letters}"] = value
            self._latex[value] = f" Z_{{zz{letters}}} "
        return self._latex[value]


def _group_end(text: str, pos: int) -> int:
    """Index of the brace that closes the one at ``text[pos]``."""
    depth = 0
    for end in range(pos, len(text)):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if depth == 0:
            return end
    raise ExportError(f"parse_exported: unbalanced braces in {text!r}")


def _network_arguments(text: str, pos: int) -> tuple[list[str], int]:
    """The top-level comma-separated arguments of the parenthesis opened just before ``text[pos]``, and the index
    after its closing parenthesis (``\\right)`` or ``)``)."""
    depth, start, args = 1, pos, []
    for end in range(pos, len(text)):
        char = text[end]
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(char, 0)
        if depth == 1 and char == ",":
            args.append(text[start:end])
            start = end + 1
        elif depth == 0:
            last = text[start:end]
            args.append(last[:-len(r"\right")] if last.rstrip().endswith(r"\right") else last)
            return [a.strip() for a in args], end + 1
    raise ExportError(f"parse_exported: unbalanced parentheses in {text!r}")


def _placeholders(text: str, names: dict[str, sp.Symbol]) -> tuple[str, dict[str, sp.Basic]]:
    r"""Replace what the grammar lacks (module docstring) by placeholder Symbols, each piece parsed on its own;
    return the text and the placeholders' values by name."""
    holes = _Holes()

    def name(base: str, sub: str | None) -> sp.Basic:
        full = f"{base}_{sub}" if sub else base
        return names.get(full, sp.Symbol(full))

    families = registered_kernel_families()
    search_from = 0
    while (m := _NETWORK_CONSTANT.search(text, search_from)) is not None:  # before functions: args read alone
        family = m.group(2).lower()
        if family not in families:
            search_from = m.end()
            continue
        args, end = _network_arguments(text, m.end())
        if len(args) != 2:
            raise ExportError(f"parse_exported: a network kernel value takes two arguments, got {args} in {text!r}")
        value = kernel_value(family, int(m.group(3) is not None), int(m.group(4)),
                             sp.Rational(1, 2) if m.group(1) == "o" else sp.Integer(0),
                             _read(args[0], names), _read(args[1], names))
        text = text[:m.start()] + holes.put(value) + text[end:]
    while _CROOTOF in text:
        start = text.index(_CROOTOF)
        pos = start + len(_CROOTOF)
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text) or text[pos] != "{":
            raise ExportError(f"parse_exported: malformed CRootOf in {text!r}")
        end = _group_end(text, pos)
        inner = text[pos + 1:end].strip().replace(r"\left(", "(").replace(r"\right)", ")")
        if not (inner.startswith("(") and inner.endswith(")")):
            raise ExportError(f"parse_exported: malformed CRootOf in {text!r}")
        poly_text, _, index = inner[1:-1].rpartition(",")
        root = sp.CRootOf(_read(poly_text, names), int(index.strip()))
        text = text[:start] + holes.put(root) + text[end + 1:]
    while (m := _FUNCTION.search(text)) is not None:  # \sinh{\left(x \right)}: the argument is one brace group
        pos = m.end() - 1
        end = _group_end(text, pos)
        func = getattr(sp, _FUNCTION_NAMES.get(m.group(1), m.group(1) or m.group(2)))
        value = func(_read(text[pos + 1:end], names))
        if m.group(3) is not None:
            value = value ** _read(m.group(3), names)
        text = text[:m.start()] + holes.put(value) + text[end + 1:]
    while (m := _CHEBYSHEV.search(text)) is not None:  # chebyshevu(a, x) prints U_{a}(x)
        # unevaluated: sympy would rewrite U_{-D - L + n} as -U_{D + L - n - 2}, equal but not the printed form
        value = sp.chebyshevu(_read(m.group(1), names), _read(m.group(2), names), evaluate=False)
        text = text[:m.start()] + holes.put(value) + text[m.end():]
    text = _RELU_CONSTANT.sub(lambda m: holes.put(ReluKernelConstant(
        int(m.group(2) == "NTK"), int(m.group(3)), sp.Rational(1, 2) if m.group(1) == "o" else sp.Integer(0))),
        text)
    text = _GREEK.sub(lambda m: holes.put(sp.pi if m.group(1) == "pi" and not (m.group(2) or m.group(3))
                                          else name(m.group(1), m.group(2) or m.group(3))), text)
    text = _MATHIT.sub(lambda m: holes.put(name(m.group(1), m.group(2) or m.group(3))), text)
    return text, holes.values


def _read(text: str, names: dict[str, sp.Symbol]) -> sp.Expr:
    """One expression (no label, no dagger): placeholders, the parser, then the Symbols by name."""
    s, holes = _placeholders(text, names)
    try:
        expr = _parse_one(s, text)
    except ExportError:  # not written by this module: drop \left/\right, make products explicit
        plain = s.replace(r"\left(", "(").replace(r"\right)", ")").replace(r"\left[", "[").replace(r"\right]", "]")
        plain = _JUXTAPOSED.sub(r" \\cdot ", plain)
        if plain == s:
            raise
        expr = _parse_one(plain, text)
    sub: dict[sp.Basic, sp.Basic] = {}
    for sym in expr.free_symbols:
        key = str(sym.name).replace("{", "").replace("}", "")
        if key == "e" and key not in names:  # sympy prints E as e and exp(x) as e^{x} (the dynamics' closed forms)
            sub[sym] = sp.E
            continue
        sub[sym] = holes[key] if key in holes else names.get(key, sp.Symbol(key))
    return expr.xreplace(sub)


def parse_exported(text: str, symbols: Iterable[sp.Symbol] = ()) -> sp.Expr:
    r"""Read one exported LaTeX expression back into sympy, with the package's Symbols.

    Parameters
    ----------
    text : str
        One expression as exported (:func:`plain_latex`, :func:`expr_latex`, a table cell, or a line of an
        ``align`` block such as ``f(3, 6) &= - \frac{387}{3925}``). Surrounding ``$``, a trailing ``\\``, a
        label ``f(i, j) =`` / ``m(i, j) &=`` and the exception mark ``^{\dagger}`` are removed first.
    symbols : iterable of sympy Symbols, optional
        Further Symbols to read back as themselves, matched by how they print (e.g. the Symbols of a similarity
        matrix, ``result.family.free_parameters``' symbols): ``Symbol("s", positive=True)`` for ``s``,
        ``Symbol("rho2")`` for ``\rho_{2}``. They take precedence over the package's Symbols of the same name.

    Returns
    -------
    sympy.Expr
        The parsed expression, with every symbol replaced by the package's Symbol of that name (assumptions
        included): ``\lambda`` -> :data:`symbolic_ti.symbols.ridge`, ``\kappa_{o}`` -> ``kappa_o``, ``\alpha``,
        ``\kappa_{d}``, ``\rho``, ``\beta``, ``\delta``, ``\gamma``, ``n``, and the general-n symbols
        (:func:`symbolic_ti.analysis.general.named_symbols`: ``L``, ``D``, ``i``, ``j``, ``k``, ``\mu``, ``x``,
        ``\Delta_{0}``, ``Q``, ``d_{e}``, ``y_{e}``) and ``W``; other names become plain Symbols. ``\pi`` is
        ``sympy.pi``, ``\kappa_{o}^{\mathrm{NTK},2}`` is ``ReluKernelConstant(1, 2, 1/2)``.

    Raises
    ------
    ExportError
        If lark is not installed (the message says how to install it), ``text`` is not an expression the
        parser reads, or a Symbol of ``symbols`` does not read back as one Symbol.

    Notes
    -----
    The pieces the grammar lacks (``\pi``, functions, ReLU constants, ...; module docstring) are read on their
    own first. The rest is given to ``sympy.parsing.latex.parse_latex(text, backend="lark")``; everything that
    :mod:`symbolic_ti.export.latex` writes is read that way. Text from other printers (``\left(``, ``2 \pi
    \lambda``) can be ambiguous in the parser's grammar; it is then parsed again with ``\left``/``\right``
    removed and ``\cdot`` between juxtaposed factors, keeping the reading with the fewest free symbols.

    Examples
    --------
    >>> from symbolic_ti import symbols as S
    >>> parse_exported(r"f(1, 2) &= \frac{2 \lambda}{\kappa_{o} + 1} \\") == 2 * S.ridge / (S.kappa_o + 1)
    True
    >>> parse_exported(r"\frac{\sqrt{3}}{4 \pi} + \frac{1}{3}") == sp.sqrt(3) / (4 * sp.pi) + sp.Rational(1, 3)
    True
    """
    if not isinstance(text, str):
        raise ExportError(f"parse_exported: text must be a str, got {type(text).__name__}")
    names = _names(symbols)
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
    return _read(s, names)


def _balanced_group(s: str) -> bool:
    """Whether the outer braces of ``s`` enclose all of it (``{a}{b}`` is not one group)."""
    depth = 0
    for k, c in enumerate(s):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0 and k < len(s) - 1:
            return False
    return True
