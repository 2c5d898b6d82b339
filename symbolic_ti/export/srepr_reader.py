"""Reading ``srepr`` text from a file of anyone, with bounds on what it builds (:func:`read_srepr`).

The text is parsed by :func:`ast.parse` (never ``eval``) and rebuilt by calling only a fixed table of sympy
constructors. A report is untrusted input, so the builder also bounds what it makes before making it: the number
of syntax nodes (:data:`MAX_NODES`), their nesting (:data:`MAX_NESTING`), the digits of an integer
(:data:`MAX_DIGITS`, also for the exact value of a power of a number such as ``Pow(Integer(10),
Integer(10**9))``), exponents (:data:`MAX_EXPONENT`), the precision of a Float (:data:`MAX_PRECISION` bits),
the degree of a ``CRootOf`` polynomial (:data:`MAX_ROOT_DEGREE`; their sum over one report,
:data:`MAX_ROOT_DEGREE_TOTAL`, within :func:`root_budget`) and the layers of a network kernel constant
(:data:`MAX_LAYERS`). Past a bound the reader refuses with one line (:class:`~symbolic_ti.errors.ExportError`).
Every report that symbolic_ti writes from parameters of ordinary size is far inside them
(docs/json_schema.md#reading-untrusted-files).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import sympy as sp
from sympy.core.symbol import Str
from sympy.functions.elementary.piecewise import ExprCondPair

from ..digits import decimal_size, short_numbers, unlimited_digits
from ..errors import ExportError
from ..families.kernel_values import NetworkKernelValue
from ..families.relu import ReluKernelConstant

__all__ = ["read_srepr", "MAX_NODES", "MAX_NESTING", "MAX_DIGITS", "MAX_EXPONENT", "MAX_PRECISION",
           "MAX_ROOT_DEGREE", "MAX_ROOT_DEGREE_TOTAL", "MAX_LAYERS", "MAX_SYMBOLS", "root_budget"]

#: Syntax nodes of one srepr string (a symbolic closed form of n = 61 has some tens of thousands, one of geometric
#: n = 9 with alpha, rho and lambda symbolic 21,506). Building 2,000,000 nodes (a sum of a million terms) takes
#: tens of seconds, the most an untrusted string may cost.
MAX_NODES = 2_000_000
#: Nesting of calls (srepr of a canceled closed form nests about ten deep; Python's parser stops at 200).
MAX_NESTING = 150
#: Decimal digits of one integer, written or computed by a power (an exact prediction at n = 2000 has 5,000).
MAX_DIGITS = 10_000
#: Largest numerator or denominator of an exponent (closed forms have degrees of about 2 n).
MAX_EXPONENT = 100_000
#: Largest precision of a Float, in bits (about 30,000 decimal digits).
MAX_PRECISION = 100_000
#: Largest degree of the polynomial of a ``CRootOf`` (the critical values that symbolic_ti writes have degree
#: up to about 60 for n = 41, docs/critical_conjunctivity.md; isolating a root of degree 500 takes about a second).
MAX_ROOT_DEGREE = 500
#: Largest sum of the degrees of the ``CRootOf`` polynomials of one report (all its strings, :func:`root_budget`).
MAX_ROOT_DEGREE_TOTAL = 20_000
#: Largest depth of a ``ReluKernelConstant`` / ``NetworkKernelValue``.
MAX_LAYERS = 100
#: Most distinct symbols in one expression (a report's closed forms use a family's few parameters and the ridge;
#: a sum of 200,000 distinct symbols read in seconds, then took more than 20 GB to print: review finding).
MAX_SYMBOLS = 100

_SHOWN = 80  # characters of the text quoted in a message
_DIGIT_RUN = re.compile(r"[0-9]*")
#: Largest decimal exponent of a Float written as text: 2**MAX_EXPONENT is about 10**30,103.
_FLOAT_DECIMAL_EXPONENT = MAX_EXPONENT * 30103 // 100000
_NUMBERS = ("Integer", "Rational", "Float")


# Names an srepr string may call or mention, and what they build. Only these are ever called.
_CONSTRUCTORS: dict[str, Callable[..., Any]] = {
    "Symbol": sp.Symbol, "Dummy": sp.Dummy,
    "Integer": sp.Integer, "Rational": sp.Rational, "Float": sp.Float,
    "Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow, "Tuple": sp.Tuple,
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "Abs": sp.Abs, "sign": sp.sign,
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
    "asinh": sp.asinh, "acosh": sp.acosh, "atanh": sp.atanh, "acos": sp.acos, "asin": sp.asin, "atan": sp.atan,
    "ReluKernelConstant": ReluKernelConstant, "NetworkKernelValue": NetworkKernelValue, "Str": Str,
    "ComplexRootOf": sp.CRootOf, "CRootOf": sp.CRootOf,
    "Min": sp.Min, "Max": sp.Max, "chebyshevu": sp.chebyshevu,
    "Piecewise": sp.Piecewise, "ExprCondPair": ExprCondPair,
    "Eq": sp.Eq, "Ne": sp.Ne, "StrictLessThan": sp.StrictLessThan, "LessThan": sp.LessThan,
    "StrictGreaterThan": sp.StrictGreaterThan, "GreaterThan": sp.GreaterThan,
    "And": sp.And, "Or": sp.Or, "Not": sp.Not,
}
_CONSTANTS: dict[str, sp.Basic] = {
    "pi": sp.pi, "E": sp.E, "I": sp.I, "oo": sp.oo, "zoo": sp.zoo, "nan": sp.nan,
    "true": sp.true, "false": sp.false,
    # srepr spells some singletons as calls without arguments
    **{name: getattr(sp.S, name) for name in ("Zero", "One", "NegativeOne", "Half", "Infinity",
                                                "NegativeInfinity", "ComplexInfinity", "NaN", "Pi",
                                                "Exp1", "ImaginaryUnit", "EulerGamma", "Catalan",
                                                "GoldenRatio", "BooleanTrue", "BooleanFalse")},
}


def _build(node: ast.AST, text: str) -> Any:
    """Rebuild the value of one node of an srepr syntax tree from the fixed tables (no ``eval``)."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (int, str))):
        return node.value  # int includes the bools of Symbol assumptions
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _build(node.operand, text)
        if isinstance(inner, bool) or not isinstance(inner, int):
            raise ExportError(f"cannot read expression {text!r}: a sign is allowed only before an integer")
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise ExportError(f"cannot read expression {text!r}: unknown name {node.id!r}")
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_build(x, text) for x in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        if name in _CONSTANTS and not node.args and not node.keywords:
            return _CONSTANTS[name]
        if name not in _CONSTRUCTORS:
            raise ExportError(f"cannot read expression {text!r}: {name}(...) is not an allowed constructor")
        args = [_build(a, text) for a in node.args]
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise ExportError(f"cannot read expression {text!r}: '**' is not allowed")
            kwargs[kw.arg] = _build(kw.value, text)
        return _CONSTRUCTORS[name](*args, **kwargs)
    raise ExportError(f"cannot read expression {text!r}: unsupported syntax {type(node).__name__}")




#: The degrees of CRootOf polynomials read so far in one report (a one-element list), or None outside a report.
_ROOT_DEGREES: ContextVar[list[int] | None] = ContextVar("_ROOT_DEGREES", default=None)
_LONG_DIGITS = re.compile(r"\d{" + str(MAX_DIGITS + 1) + ",}")


@contextmanager
def root_budget() -> Iterator[None]:
    """Count the degrees of the ``CRootOf`` polynomials of every :func:`read_srepr` in the block against
    :data:`MAX_ROOT_DEGREE_TOTAL` (one report: :func:`~symbolic_ti.export.reading.read_report`)."""
    token = _ROOT_DEGREES.set([0])
    try:
        yield
    finally:
        _ROOT_DEGREES.reset(token)


def _degree_bound(e: sp.Basic) -> int:
    """An upper bound of the degree of a polynomial expression, without expanding it."""
    if e.is_Symbol:
        return 1
    if e.is_Add:
        return max((_degree_bound(a) for a in e.args), default=0)
    if e.is_Mul:
        return sum(_degree_bound(a) for a in e.args)
    if e.is_Pow:
        exp = e.exp
        return _degree_bound(e.base) * abs(int(exp)) if exp.is_Integer else MAX_ROOT_DEGREE + 1
    if e.is_number:
        return 0
    return sum(_degree_bound(a) for a in e.args) if e.args else 1


def _short(text: str) -> str:
    """The text quoted for a message: its first characters (a number cut there is read to its end and written
    short, with the count of its digits), and the length of the whole."""
    if len(text) <= _SHOWN:
        return repr(text)
    end = _SHOWN
    if text[end - 1].isdigit():  # never quote part of a number: its size would be wrong
        end = _DIGIT_RUN.match(text, end).end()  # type: ignore[union-attr]  # \d* always matches
    return repr(short_numbers(text[:end])) + f"... ({len(text):,} characters)"


def _digits(value: int) -> int:
    """Decimal digits of ``|value|`` (from its bit length: no conversion to text)."""
    return max(1, int(abs(value).bit_length() * 0.30103) + 1)


def _coefficient_digits(args: list[Any]) -> int:
    """An upper bound of the digits of the number that ``Mul(*args)`` computes from its numeric factors (numerators
    and denominators of the rational coefficients, and of the numeric powers that Mul combines)."""
    out = 0
    for a in args:
        if isinstance(a, bool) or not isinstance(a, (int, sp.Expr)):
            continue
        a = sp.sympify(a)
        if a.is_Mul:
            out += _coefficient_digits(list(a.args))
        elif a.is_Rational:
            out += _digits(int(a.p)) + _digits(int(a.q))
        elif a.is_Pow and a.base.is_Rational and a.exp.is_Rational:
            out += _digits(int(a.base.p)) + _digits(int(a.base.q))
    return out


def _number_digits(e: sp.Basic) -> int:
    """An upper bound of the digits of a number's integers (numerator and denominator of each rational part)."""
    out = 1
    for atom in e.atoms(sp.Rational):
        out = max(out, _digits(int(atom.p)), _digits(int(atom.q)))
    return out


class _Builder:
    """Rebuild an srepr syntax tree within the bounds of the module docstring."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.symbols: set[str] = set()

    def fail(self, why: str) -> ExportError:
        return ExportError(f"cannot read expression {_short(self.text)}: {why}")

    def build(self, node: ast.AST, level: int = 0) -> Any:
        if level > MAX_NESTING:
            raise self.fail(f"nested more than {MAX_NESTING} deep")
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (int, str))):
            value = node.value
            if isinstance(value, int) and not isinstance(value, bool) and _digits(value) > MAX_DIGITS:
                raise self.fail(f"an integer has more than {MAX_DIGITS:,} digits")
            if isinstance(value, str) and len(value) > MAX_DIGITS:
                raise self.fail(f"a string has more than {MAX_DIGITS:,} characters")
            return value  # int includes the bools of Symbol assumptions
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.build(node.operand, level + 1)
            if isinstance(inner, bool) or not isinstance(inner, int):
                raise self.fail("a sign is allowed only before an integer")
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.Name):
            if node.id in _CONSTANTS:
                return _CONSTANTS[node.id]
            raise self.fail(f"unknown name {node.id!r}")
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.build(x, level + 1) for x in node.elts)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in _CONSTANTS and not node.args and not node.keywords:
                return _CONSTANTS[name]
            if name not in _CONSTRUCTORS:
                raise self.fail(f"{name}(...) is not an allowed constructor")
            args = [self.build(a, level + 1) for a in node.args]
            kwargs = {}
            for kw in node.keywords:
                if kw.arg is None:
                    raise self.fail("'**' is not allowed")
                kwargs[kw.arg] = self.build(kw.value, level + 1)
            self.check(name, args, kwargs)
            if name in _NUMBERS:  # digits checked (literal): past the interpreter's 4,300, up to MAX_DIGITS
                with unlimited_digits():
                    return _CONSTRUCTORS[name](*args, **kwargs)
            return _CONSTRUCTORS[name](*args, **kwargs)
        raise self.fail(f"unsupported syntax {type(node).__name__}")

    def literal(self, name: str, text: str) -> None:
        """Refuse a number written as text (``Integer('...')``, ``Rational('p/q')``, ``Float('1e99999999')``) whose
        digits or exponent pass a bound, before sympy builds it: sympy turns the exponent of ``Float('1e99999999')``
        and ``Rational('1e99999999')`` into an integer of 10**8 digits (the review found the reader hanging)."""
        for part in text.split("/") if name == "Rational" else (text,):
            size = decimal_size(part)
            if size is None:
                continue  # not a decimal literal: the constructor refuses it in one line
            written, exponent, _ = size
            if written > MAX_DIGITS:
                raise self.fail(f"a number of more than {MAX_DIGITS:,} digits in {name}(...)")
            if name == "Float" and abs(exponent) > _FLOAT_DECIMAL_EXPONENT:
                shown = f"{exponent:,}" if abs(exponent) < 10**12 else "of more than 12 digits"
                raise self.fail(f"a Float with a decimal exponent {shown} (at most {_FLOAT_DECIMAL_EXPONENT:,} "
                                f"either way, a magnitude of 2**{MAX_EXPONENT:,} or 2**-{MAX_EXPONENT:,})")
            if name != "Float" and written + abs(exponent) > MAX_DIGITS:  # the exact value's digits, at most
                raise self.fail(f"{name}({short_numbers(part.strip())!r}) has more than {MAX_DIGITS:,} digits")

    def check(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """Refuse a call whose result would pass a bound, before it is made."""
        if name in ("Symbol", "Dummy") and args and isinstance(args[0], str):
            self.symbols.add(args[0])
            if len(self.symbols) > MAX_SYMBOLS:
                raise self.fail(f"more than {MAX_SYMBOLS} distinct symbols")
        if name == "Pow" and len(args) == 2:
            base, exp = (sp.sympify(a) for a in args)
            if exp.is_Rational:
                if max(abs(int(exp.p)), int(exp.q)) > MAX_EXPONENT:
                    raise self.fail(f"an exponent above {MAX_EXPONENT:,} in Pow")
                if not base.free_symbols and base.is_number and \
                        abs(int(exp.p)) * _number_digits(base) > MAX_DIGITS:
                    raise self.fail(f"a power of a number with more than {MAX_DIGITS:,} digits")
        elif name == "Mul" and _coefficient_digits(args) > MAX_DIGITS:
            # Mul(Pow(Integer(2), Integer(9999)), ...) 3,000 times: 90 kB of text, a product of 9 million digits
            raise self.fail(f"a product of numbers with more than {MAX_DIGITS:,} digits")
        if name in _NUMBERS:
            for a in args[:1] if name == "Float" else args:
                if isinstance(a, str):
                    self.literal(name, a)
        if name == "Float":
            precision = kwargs.get("precision", kwargs.get("dps", args[1] if len(args) > 1 else None))
            if isinstance(precision, int) and precision > MAX_PRECISION:
                raise self.fail(f"a Float with more than {MAX_PRECISION:,} bits of precision")
        elif name == "chebyshevu" and args and isinstance(args[0], sp.Integer) and abs(int(args[0])) > MAX_EXPONENT:
            raise self.fail(f"a chebyshevu degree above {MAX_EXPONENT:,}")
        elif name in ("CRootOf", "ComplexRootOf") and args:
            degree = _degree_bound(sp.sympify(args[0]))
            if degree > MAX_ROOT_DEGREE:
                raise self.fail(f"a CRootOf of degree above {MAX_ROOT_DEGREE:,}")
            total = _ROOT_DEGREES.get()
            if total is not None:
                total[0] += degree
                if total[0] > MAX_ROOT_DEGREE_TOTAL:
                    raise self.fail(f"CRootOf polynomials of degree above {MAX_ROOT_DEGREE_TOTAL:,} in all "
                                    "(summed over the report)")
        elif name in ("ReluKernelConstant", "NetworkKernelValue"):
            for a in args:
                if isinstance(a, (int, sp.Integer)) and not isinstance(a, bool) and abs(int(a)) > MAX_LAYERS:
                    raise self.fail(f"{name} with a depth above {MAX_LAYERS}")


def read_srepr(text: str) -> Any:
    """The sympy object that the srepr ``text`` spells, built within the bounds of the module docstring.

    Raises
    ------
    ExportError
        For text that is not srepr syntax, uses anything outside the fixed constructor table, or passes a bound
        (one line, naming the bound).
    """
    if _LONG_DIGITS.search(text):
        raise ExportError(f"cannot read expression {_short(text)}: an integer has more than {MAX_DIGITS:,} digits")
    try:
        with unlimited_digits():  # up to MAX_DIGITS (checked above), past the interpreter's 4,300
            tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as err:
        why = "not valid srepr syntax"
        if isinstance(err, (RecursionError, MemoryError)) or "too many nested" in str(err):
            why = f"nested too deeply (at most {MAX_NESTING} levels)"
        elif "digits" in str(err):
            why = "an integer is too long for Python to read (sys.get_int_max_str_digits)"
        raise ExportError(f"cannot read expression {_short(text)}: {why}") from None
    count = sum(1 for _ in ast.walk(tree))
    builder = _Builder(text)
    if count > MAX_NODES:
        raise builder.fail(f"more than {MAX_NODES:,} syntax nodes")
    try:
        value = builder.build(tree.body)
    except ExportError:
        raise
    except (TypeError, ValueError, RecursionError) as err:
        raise builder.fail(str(err).splitlines()[0][:200] if str(err) else type(err).__name__) from None
    if isinstance(value, sp.Basic) and value.has(sp.zoo, sp.nan):  # Rational(1, 0): no value a report holds
        raise builder.fail("it is not a finite number or expression (a division by zero)")
    if isinstance(value, sp.Basic) and any(_float_exponent(f) > MAX_EXPONENT for f in value.atoms(sp.Float)):
        # Float('1e999999999'), Pow(Integer(2), Float('1e300')): finite for mpmath, absurd in a report
        raise builder.fail(f"a Float of magnitude 2**{MAX_EXPONENT:,} or more (or as small)")
    return value


def _float_exponent(f: sp.Float) -> int:
    """The binary order of magnitude of a sympy Float, ``|exponent + bit count|`` of its mpmath value."""
    _, man, exp, bc = f._mpf_
    return abs(int(exp) + int(bc)) if man else 0
