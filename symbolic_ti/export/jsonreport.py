"""JSON report of a :class:`~symbolic_ti.results.Result` (schema: ``docs/json_schema.md``).

The report opens with a versioned ``meta`` block, as coverage.py's ``jsonreport.py`` does. Every sympy
expression is stored as an *expression object*::

    {"srepr": "Rational(2, 7)", "latex": "\\frac{2}{7}", "text": "2/7", "float": 0.2857142857142857}

``srepr`` is exact and carries the assumptions of every Symbol, so :func:`expression_from_dict` rebuilds an
expression equal to the original (``==``). It is read by walking the Python syntax tree of the ``srepr``
string and calling only a fixed table of sympy constructors: nothing is passed to ``eval``.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp
from sympy.core.symbol import Str
from sympy.functions.elementary.piecewise import ExprCondPair

from ..display import renderer
from ..display import dumps as dumps
from ..errors import ExportError
from ..families.kernel_values import NetworkKernelValue
from ..families.relu import ReluKernelConstant
from ..results import PolyFraction, Result
from .forms import category_summaries, margin_form, residual_form
from .poly_form import poly_fraction
from .values import LARGE_SREPR, ENCODINGS, FormValues, exact_value, meta_block

__all__ = ["FORMAT_VERSION", "FORMAT_NAME", "LARGE_SREPR", "result_to_dict", "expression_to_dict",
           "expression_from_dict", "expression_from_poly", "report_dict", "dumps"]

#: Value of ``meta.format``.
FORMAT_NAME = "symbolic_ti.result"

# Version of the JSON format; bump it, with a line here, whenever a field changes meaning or disappears.
#   1: first format (symbolic_ti 0.1.0).
FORMAT_VERSION = 1
#: Store one exact value as ``{"srepr", "latex", "text", "float"}`` (:func:`symbolic_ti.export.values.exact_value`).
expression_to_dict = exact_value


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


def expression_from_dict(d: Mapping[str, Any] | None) -> sp.Expr | None:
    """Rebuild the exact expression of an expression object written by :func:`expression_to_dict`.

    Reads ``d["srepr"]`` by walking its Python syntax tree and calling only sympy constructors from a fixed
    table (``Symbol``, ``Integer``, ``Rational``, ``Add``, ``Mul``, ``Pow``, elementary functions, ...);
    nothing is evaluated as code. Symbol assumptions written in ``srepr`` (``nonnegative=True``) are kept,
    so the Symbols equal :mod:`symbolic_ti.symbols`'s.

    An object of the compact encoding (``"poly"`` instead of ``"srepr"``) is read by
    :func:`expression_from_poly`.

    Parameters
    ----------
    d : mapping with key ``"srepr"`` (or ``"poly"``), or None

    Returns
    -------
    sympy expression or None
        ``None`` for ``None``. Invariant: ``expression_from_dict(expression_to_dict(e)) == e``; for the ``poly``
        encoding the value is equal (``sympy.cancel`` of the difference is 0) and the expression is
        ``N / D`` built from the terms.

    Raises
    ------
    ExportError
        If ``d`` has no ``srepr`` string or it uses anything outside the table.
    """
    if d is None:
        return None
    if isinstance(d, Mapping) and "srepr" not in d and isinstance(d.get("poly"), Mapping):
        return expression_from_poly(d["poly"])
    if not isinstance(d, Mapping) or not isinstance(d.get("srepr"), str):
        raise ExportError(f"an expression object needs an 'srepr' string or a 'poly' object, got {d!r}")
    return _from_srepr(d["srepr"])


def _from_srepr(text: str) -> Any:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ExportError(f"cannot read expression {text!r}: not valid srepr syntax") from None
    try:
        return _build(tree.body, text)
    except ExportError:
        raise
    except (TypeError, ValueError) as err:
        raise ExportError(f"cannot read expression {text!r}: {err}") from None


def expression_from_poly(p: Mapping[str, Any]) -> sp.Expr:
    """Rebuild ``N / D`` from the compact encoding ``{"gens", "gens_srepr", "num", "den"}`` (docs/json_schema.md).

    Parameters
    ----------
    p : mapping
        ``gens_srepr``: one srepr string per generator (read as :func:`expression_from_dict` reads srepr: no
        ``eval``); ``num`` and ``den``: lists of ``[exponents, "p/q"]`` terms.

    Returns
    -------
    sympy expression
        ``N / D`` as :meth:`symbolic_ti.export.poly_form.PolyFraction.as_expr` builds it (with ``"negated":
        true``: ``-((-N) / D)``, the tree of a form made by negating another).

    Raises
    ------
    ExportError
        For a malformed object (the message says which part).
    """
    try:
        gens = tuple(_from_srepr(g) for g in p["gens_srepr"])
        terms = [{tuple(int(x) for x in m): Fraction(str(c)) for m, c in p[k]} for k in ("num", "den")]
        if any(len(m) != len(gens) for t in terms for m in t):
            raise ValueError("an exponent list has not one entry per generator")
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        raise ExportError(f"cannot read a 'poly' expression object: {err}") from None
    return PolyFraction(gens, terms[0], terms[1], negated=p.get("negated") is True).as_expr()


# ---------------------------------------------------------------------- report
def _trial(t: tuple[int, int]) -> list[int]:
    return [t[0], t[1]]


@renderer("dict", Result)
def result_to_dict(result: Result, encoding: str = "srepr") -> dict[str, Any]:
    """JSON-ready dictionary of a result; the fields are documented in ``docs/json_schema.md``.

    Parameters
    ----------
    result : Result
    encoding : {"srepr", "poly"}
        How expression objects store the exact value (:func:`symbolic_ti.export.values.exact_value`):
        ``"poly"`` writes the compact term lists and prints ``latex``/``text`` from them, in time proportional
        to their size (docs/json_schema.md#polynomial-encoding).

    Returns
    -------
    dict
        Keys, in order: ``meta``, ``task``, ``family``, ``ridge``, ``method``, ``seconds``, ``free_symbols``,
        ``ridgeless_conditions``, ``predictions``, ``margins``, ``exception_margins``, ``categories``,
        ``training_fit``. Every expression is an expression object (:func:`expression_to_dict`); ``meta`` is
        :func:`symbolic_ti.export.values.meta_block`. Registered as the ``"dict"`` renderer of
        :class:`Result` (``Result.to_dict()``, ``Result.to_json()``).
    """
    return report_dict(result, encoding, lambda items, make: [make(x) for x in items])


#: How :func:`report_dict` turns the items of a long list (predictions, margins, training fit) into records:
#: ``records(items, make)``, a list (or a list subclass that makes them while the JSON encoder iterates).
Records = Callable[[list[Any], Callable[[Any], dict[str, Any]]], list[dict[str, Any]]]


def report_dict(result: Result, encoding: str, records: Records, text: bool = False) -> dict[str, Any]:
    """The body of :func:`result_to_dict`, with the long lists made by ``records`` (streaming: export/stream.py;
    ``text``: ``poly`` term lists as JSON text, :class:`~symbolic_ti.export.values.FormValues`).

    Raises
    ------
    ExportError
        For an unknown ``encoding``.
    """
    if encoding not in ENCODINGS:
        raise ExportError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    result.build_all()
    task, family = result.task, result.family

    ex = FormValues(encoding, text)  # exact_value, each distinct closed form printed once

    converted: dict[tuple[int, int], Any] = {}

    def form(t: tuple[int, int]) -> Any:  # the solver's PolyFraction where it gave one, else the expression
        frac = result.fraction(*t)
        if frac is not None:
            return frac
        if encoding != "poly":
            return result.predictions[t]
        if t not in converted:  # converted once, for the prediction, its margin and its residual
            e = result.predictions[t]
            converted[t] = poly_fraction(e) or e
        return converted[t]

    if result.ridgeless:
        ridge = "ridgeless"
    else:
        ridge = str(result.ridge)
    categories = task.categories
    margin_trials = [t for t in task.trials if task.ground_truth(t) is not None]
    # as Result.categories; a symbolic margin: no minimum, no count of errors, and no expression built
    summaries = {c: (trials, ex(mm), ne) for c, (trials, mm, ne) in category_summaries(result, form).items()}
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION),
        "task": {
            "n": task.n,
            "exceptions": [str(e) for e in task.exceptions],
            "training": [{"trial": _trial(t), "target": y} for t, y in task.training],
        },
        "family": {
            "name": family.name,
            "parameters": {k: str(v) for k, v in family.values.items()},
            "free_parameters": [p.name for p in family.free_parameters],
        },
        "ridge": ridge,
        "method": result.method,
        "seconds": result.seconds,
        "free_symbols": [s.name for s in result.free_symbols],
        "ridgeless_conditions": [ex(c) for c in result.ridgeless_conditions],
        "predictions": records(list(result.predictions), lambda t: {
            "trial": _trial(t), "category": categories[t], "ground_truth": task.ground_truth(t),
            "value": ex(form(t))}),
        "margins": records(margin_trials, lambda t: {
            "trial": _trial(t), "category": categories[t], "value": ex(margin_form(result, t, form))}),
        "exception_margins": [
            {"exception": str(e), "trial": [e.winner, e.loser], "value": ex(form((e.winner, e.loser)))}
            for e in task.exceptions
        ],
        "categories": {
            name: {"trials": [_trial(t) for t in trials], "min_margin": mm, "n_errors": ne}
            for name, (trials, mm, ne) in summaries.items()
        },
        "training_fit": records(list(task.training), lambda ty: {
            "trial": _trial(ty[0]), "target": ty[1], "prediction": ex(form(ty[0])),
            "residual": ex(residual_form(form(ty[0]), ty[1]))}),
    }
