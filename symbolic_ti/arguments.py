"""The shared arguments of the public entry points: one table of their constraints, one parser per kind of value.

``derive``, ``critical``, ``solve``, the numeric solvers, the grid, the general-n evaluators, critical
conjunctivity, the fit, the plots and the CLI all read the ridge, the solving method, a parameter interval, a list
of trials and parameter values through the parsers here, so a value means the same everywhere and a bad one
gets the same message. :data:`ARGUMENTS` lists what each argument allows (the CLI's help text and error lines
quote it).

Numbers given by the user are read exactly: ``0.1`` (a float, a string, a numpy scalar or an mpmath ``mpf``)
becomes ``1/10``, the shortest decimal that reads back as the same binary number, never the binary float
0.1000000000000000055...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Rational as _PyRational, Real
from typing import Any, Protocol, TypeAlias
from collections.abc import Iterable, Mapping, Sequence

import sympy as sp

from . import symbols as S
from .errors import ParameterError, TaskError



class TaskLike(Protocol):
    """What :func:`resolve_trials` reads of a task (:class:`symbolic_ti.Task`): a protocol, because the task
    module itself reads its numbers through this one."""

    @property
    def trials(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def test_trials(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def training_targets(self) -> Mapping[tuple[int, int], int]: ...

    def check_trial(self, trial: Sequence[int], name: str = "trial") -> tuple[int, int]: ...

    def ground_truth(self, trial: tuple[int, int]) -> int | None: ...

#: A number given by the user (read exactly by :func:`exact_number`): int, Fraction, float, decimal string or
#: ``"p/q"``, a numpy or mpmath scalar, or a sympy expression.
ExactLike: TypeAlias = int | float | Fraction | str | sp.Expr | Real
#: A ridge (:func:`parse_ridge`): a number >= 0, ``"ridgeless"``/``"0+"``, ``None``/``"lambda"`` (symbolic).
RidgeLike: TypeAlias = ExactLike | None
#: A trial ``(i, j)`` or several (:func:`resolve_trials`); ``None`` for the default set.
TrialsLike: TypeAlias = tuple[int, int] | Iterable[Sequence[int]] | None
#: An interval ``(a, b)`` of a parameter (:func:`parse_interval`); ``None`` for its domain.
IntervalLike: TypeAlias = Sequence[ExactLike] | None

__all__ = ["ExactLike", "RidgeLike", "TrialsLike", "IntervalLike", "TaskLike", "Argument", "ARGUMENTS", "RIDGE_NAMES", "RIDGELESS_WORDS", "SYMBOLIC_RIDGE_WORDS", "INFINITY_WORDS",
           "SOLVE_METHODS", "RIDGELESS_METHODS", "exact_number", "check_int", "check_choice", "parse_ridge",
           "parameter_name", "parse_endpoint", "parse_interval", "resolve_trials", "short_numbers"]

#: Names of the ridge where a parameter name is expected (``--set``, ``subs``, grid axes, scans).
RIDGE_NAMES = ("lambda", "ridge")
#: Spellings of the ridgeless limit ``lambda -> 0+`` (case-insensitive).
RIDGELESS_WORDS = ("ridgeless", "0+")
#: Spellings of a symbolic ridge.
SYMBOLIC_RIDGE_WORDS = ("lambda", "symbolic")
#: Spellings of +infinity for an interval's upper end (a leading ``-`` gives -infinity).
INFINITY_WORDS = ("oo", "+oo", "inf", "+inf", "infinity", "+infinity")
#: Methods of the exact solver (:func:`symbolic_ti.solve`).
SOLVE_METHODS = ("auto", "laplacian", "halved", "full")
#: Methods of the ridgeless limit on the dense paths.
RIDGELESS_METHODS = ("auto", "pinv", "limit")


@dataclass(frozen=True)
class Argument:
    """One shared argument: its name and what it allows (quoted by error messages and the CLI's help)."""

    name: str
    allowed: str


#: The shared arguments and their constraints.
ARGUMENTS: dict[str, Argument] = {a.name: a for a in (
    Argument("ridge", "an exact number >= 0 (0.1 is read as 1/10; 0 means the ridgeless limit), 'ridgeless' "
                      "for the limit lambda -> 0+, or None / 'lambda' to keep it symbolic"),
    Argument("method", "one of " + ", ".join(SOLVE_METHODS)),
    Argument("ridgeless_method", "one of " + ", ".join(RIDGELESS_METHODS)),
    Argument("interval", "a pair (a, b) of rational numbers with a < b inside the parameter's domain; the upper end "
                         "may be oo"),
    Argument("trials", "a trial (i, j) or a list of trials (i, j) of the task, with i != j in 1..n"),
    Argument("parameter value", "an exact number (int, Fraction, 'p/q', a decimal string or float read as its "
                                "shortest decimal, a numpy or mpmath scalar) or a sympy expression"),
)}


# ------------------------------------------------------------------------------------------ numbers
def check_int(value: Any, name: str, minimum: int | None = None) -> int:
    """Return ``value`` as an int (Python or numpy integers, a 0-d integer array such as ``np.array(9)``, sympy
    Integers).

    Raises
    ------
    ParameterError
        If ``value`` is not an integer (bool excluded) or is below ``minimum``; the message names ``name``.
    """
    if getattr(value, "ndim", None) == 0 and getattr(value, "shape", None) == () and hasattr(value, "item"):
        value = value.item()  # a 0-d numpy array: its one element (int for an integer dtype)
    if isinstance(value, bool) or not isinstance(value, (Integral, sp.Integer)):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ParameterError(f"{name} must be an integer >= {minimum}, got {v}")
    return v


def _shortest_decimal(value: float, name: str) -> sp.Rational:
    if value != value or value in (float("inf"), float("-inf")):
        raise ParameterError(f"{name} must be a finite number, got {value!r}")
    return sp.Rational(repr(float(value)))


def _numpy_scalar(value: Any, name: str) -> Any:
    """A numpy scalar or 0-d array as a Python int, an exact Fraction (floats) or bool (else ``value`` unchanged).

    A numpy float of any width (float16, float32, float64, longdouble) is read as the shortest decimal that reads
    back as the same number at the scalar's own width (``np.float32(0.1)`` -> 1/10, numpy's
    ``format_float_positional(unique=True)``), exactly as a Python float is read by its ``repr``.

    Raises
    ------
    ParameterError
        For a NaN or infinite numpy float.
    """
    cls = type(value)
    if cls.__module__ != "numpy":
        return value
    import numpy as np

    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            return value
        value = value[()]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        if not np.isfinite(value):
            raise ParameterError(f"{name} must be a finite number, got {value!r}")
        return Fraction(np.format_float_positional(value, unique=True, trim="0"))
    return value


def _mpf_value(value: Any, name: str) -> sp.Rational:
    """An mpmath ``mpf`` as the shortest decimal that reads back as the same mpf at the number's own precision.

    An mpf does not record the precision it was made at; its mantissa has at most that many bits (trailing zero
    bits are dropped), so the precision is taken as ``max(mantissa bits, min(working precision, 53))``: an mpf
    made at 15 digits from ``0.1`` and one made at 50 digits from ``"0.1"`` are both 1/10, whatever the working
    precision is when they are read; ``mpf(0.75)`` is 3/4.
    """
    import mpmath
    from mpmath import libmp

    if not mpmath.isfinite(value):
        raise ParameterError(f"{name} must be a finite number, got {value!r}")
    man, exp = value.man_exp
    if man == 0:
        return sp.Integer(0)
    prec = max(abs(int(man)).bit_length(), min(mpmath.mp.prec, 53))
    raw = value._mpf_
    for digits in range(1, int(prec * 0.30103) + 3):
        text = libmp.to_str(raw, digits, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)
        if libmp.from_str(text, prec, libmp.round_nearest) == raw:
            return sp.Rational(Fraction(text))
    return sp.Integer(int(man)) * sp.Integer(2) ** int(exp)  # pragma: no cover (always found above)


def _decimal_value(value: Any, name: str) -> sp.Rational:
    """A ``decimal.Decimal``: its exact decimal value."""
    if not value.is_finite():
        raise ParameterError(f"{name} must be a finite number, got {value!r}")
    f = Fraction(value)
    return sp.Rational(f.numerator, f.denominator)


#: Names a text number may use (:func:`exact_number`): functions by their arity, then constants.
EXACT_FUNCTIONS: dict[str, tuple[int, Any]] = {"sqrt": (1, sp.sqrt), "cbrt": (1, sp.cbrt), "root": (2, sp.root),
                                               "exp": (1, sp.exp)}
EXACT_CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}
_EXACT_ALLOWED = ("integers, decimals, + - * / ** (or ^), parentheses, " + ", ".join(EXACT_FUNCTIONS)
                  + " and the constants " + ", ".join(EXACT_CONSTANTS))
_MAX_EXPONENT = 10_000


def _exact_text(text: str, name: str) -> sp.Expr:
    """A text such as ``"sqrt(2)/3"``, ``"2**(1/3)"`` or ``"pi/4"`` as an exact real number.

    Read from Python's syntax tree, never evaluated: only the operators, functions and constants of
    ``_EXACT_ALLOWED``; decimals are read exactly (``0.1`` is 1/10); exponents of at most ``_MAX_EXPONENT``.

    Raises
    ------
    ParameterError
        Naming ``name``, for anything else (a symbol, another function, a complex or infinite value).
    """
    import ast

    def bad(why: str = "") -> ParameterError:
        return ParameterError(f"{name} must be an exact number such as 1/10, 0.1, 3 or sqrt(2)/3 (allowed: "
                              f"{_EXACT_ALLOWED}){why}, got {text!r}")

    binary = {ast.Add: sp.Add, ast.Sub: lambda a, b: a - b, ast.Mult: sp.Mul, ast.Div: lambda a, b: a / b}

    def build(node: ast.AST) -> sp.Expr:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return sp.Rational(ast.get_source_segment(text, node) or repr(node.value))
        if isinstance(node, ast.Name) and node.id in EXACT_CONSTANTS:
            return EXACT_CONSTANTS[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            v = build(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in binary:
            return binary[type(node.op)](build(node.left), build(node.right))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.BitXor)):
            base, exp = build(node.left), build(node.right)
            if not (exp.is_Rational and max(abs(exp.p), exp.q) <= _MAX_EXPONENT):  # 10**10**10: exact, too large
                raise bad(f"; exponents must be rationals of at most {_MAX_EXPONENT}") if not exp.is_Rational else \
                    ParameterError(f"{name} is too large to build exactly: {text!r} has the exponent "
                                   f"{short_numbers(str(exp))}; exponents are rationals p/q, |p|, q <= {_MAX_EXPONENT}")
            return base**exp
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in EXACT_FUNCTIONS
                and not node.keywords and len(node.args) == EXACT_FUNCTIONS[node.func.id][0]):
            return EXACT_FUNCTIONS[node.func.id][1](*[build(a) for a in node.args])
        raise bad()

    try:
        tree = ast.parse(text.replace("\u2212", "-"), mode="eval")
        value = build(tree.body)
    except ParameterError:
        raise
    except (SyntaxError, ValueError, TypeError, ZeroDivisionError, RecursionError, MemoryError):
        raise bad() from None
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or value.is_real is False or not value.is_finite:
        raise bad("; the value must be a finite real number")
    return value


def exact_number(value: Any, name: str) -> sp.Expr:
    """Convert ``value`` to an exact sympy number, or return a sympy expression unchanged.

    Accepted: int, fractions.Fraction, decimal strings and floats (read by their shortest decimal repr,
    so ``0.1`` -> ``1/10``), strings ``"p/q"``, numpy integer and float scalars of every width and 0-d arrays
    (by the same rule, at their own width: ``np.float32(0.1)`` -> ``1/10``), mpmath ``mpf`` (the shortest decimal
    that reads back at the number's own precision, see :func:`_mpf_value`: ``mpf(0.1)`` made at 15 or at 50 digits
    -> ``1/10``), ``decimal.Decimal`` (its exact value), and sympy expressions (a sympy ``Float`` by its decimal
    string). A float is never kept as a float. Strings may also be exact real constants built from integers and
    decimals with ``+ - * / **`` (or ``^``), ``sqrt``, ``cbrt``, ``root``, ``exp``, ``pi`` and ``E``, such as
    ``"sqrt(2)/3"``, ``"2**(1/3)"`` or ``"pi/4"`` (``--set alpha=sqrt(2)/3``), read from the syntax tree without
    evaluating the text (:func:`_exact_text`); anything else is refused.

    Raises
    ------
    ParameterError
        If ``value`` is not a finite real number or cannot be parsed; the message names ``name``.
    """
    value = _numpy_scalar(value, name)
    if isinstance(value, bool):
        raise ParameterError(f"{name} must be a number, got {value!r}")
    if isinstance(value, sp.Basic):
        if isinstance(value, sp.Float):
            if not value.is_finite:
                raise ParameterError(f"{name} must be a finite number, got {value}")
            return sp.Rational(str(value))  # sympy Float: its decimal string
        if value.has(sp.Float):
            return sp.nsimplify(value, rational=True)
        return value
    if isinstance(value, Integral):
        return sp.Integer(int(value))
    if isinstance(value, (Fraction, _PyRational)):
        f = Fraction(value)
        return sp.Rational(f.numerator, f.denominator)
    if isinstance(value, float):
        return _shortest_decimal(value, name)
    if type(value).__name__ == "mpf" and type(value).__module__.startswith("mpmath"):
        return _mpf_value(value, name)
    if type(value).__name__ == "Decimal" and type(value).__module__ in ("decimal", "_decimal", "_pydecimal"):
        return _decimal_value(value, name)
    if isinstance(value, str):
        text = value.strip()
        try:
            if "/" in text:
                num, den = text.split("/", 1)
                q = Fraction(Fraction(num.strip()), Fraction(den.strip()))
            else:
                q = Fraction(text)
        except (ValueError, ZeroDivisionError):
            return _exact_text(text, name)
        return sp.Rational(q.numerator, q.denominator)
    if isinstance(value, Real):  # other real scalars: through their float
        return _shortest_decimal(float(value), name)
    raise ParameterError(f"{name} must be a number or a sympy expression, got {type(value).__name__} {value!r}")


def check_choice(value: Any, name: str, allowed: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``allowed``.

    Raises
    ------
    ParameterError
        Otherwise, naming the argument and the allowed values.
    """
    if not isinstance(value, str) or value not in allowed:
        raise ParameterError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


# -------------------------------------------------------------------------------------------- ridge
def _is_ridgeless_word(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in RIDGELESS_WORDS


def parse_ridge(value: Any, name: str = "ridge", *, numeric: bool = False) -> sp.Expr | None:
    """Read a ridge: ``None`` for the ridgeless limit, the Symbol lambda for a symbolic ridge, else an exact
    number >= 0 (or an expression in the family's parameters).

    Parameters
    ----------
    value : number, str, sympy expression or None
        ``"ridgeless"`` / ``"0+"`` and 0 mean the limit ``lambda -> 0+`` (never the substitution lambda = 0,
        docs/conventions.md); ``None``, ``"lambda"``, ``"symbolic"`` and the Symbol lambda a symbolic ridge.
    name : str
        The argument's name in error messages.
    numeric : bool
        For entry points that need a number (general-n evaluators, critical conjunctivity): there ``None`` means
        the ridgeless limit and a symbolic ridge is an error.

    Returns
    -------
    sympy.Expr or None

    Raises
    ------
    ParameterError
        For a negative or non-real number, an unreadable value, or (``numeric=True``) a symbolic ridge.
    """
    if _is_ridgeless_word(value) or (numeric and value is None):
        return None
    if value is None or (isinstance(value, str) and value.strip() in SYMBOLIC_RIDGE_WORDS):
        return S.ridge
    lam = exact_number(value, name)
    if lam.free_symbols:
        if numeric:
            raise ParameterError(f"{name} must be a number >= 0 or 'ridgeless' here, got {value!r}")
        return lam
    if not lam.is_real or lam < 0:
        raise ParameterError(f"{name} must be a real number >= 0 or 'ridgeless', got {lam}")
    if lam == 0:
        return None  # ridge 0 means the ridgeless limit, never the substitution lambda = 0
    return lam


def parameter_name(name: str) -> str:
    """The canonical name of a parameter: ``"lambda"`` for either name of the ridge (:data:`RIDGE_NAMES`)."""
    return "lambda" if name in RIDGE_NAMES else name


# ---------------------------------------------------------------------------------------- intervals
def parse_endpoint(value: Any, which: str) -> sp.Expr:
    """One end of an interval: a rational number, or +-infinity (``sp.oo``, ``float('inf')``, ``"oo"``, ...).

    Raises
    ------
    ParameterError
        If the end is not a rational number or an infinity.
    """
    if value is sp.oo or (isinstance(value, float) and value == float("inf")):
        return sp.oo
    if value is -sp.oo or (isinstance(value, float) and value == float("-inf")):
        return -sp.oo
    if isinstance(value, str) and value.strip().lower() in INFINITY_WORDS:
        return sp.oo
    if isinstance(value, str) and value.strip().lower() in tuple("-" + w.lstrip("+") for w in INFINITY_WORDS):
        return -sp.oo
    x = exact_number(value, f"interval {which} end")
    if x.free_symbols or not x.is_Rational:
        raise ParameterError(f"interval {which} end must be a rational number (or oo for the upper end), got {x}")
    return x


def parse_interval(interval: Any, name: str, lower: sp.Expr, upper: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """An interval ``(a, b)`` of parameter ``name`` inside its domain ``[lower, upper]`` (``None``: the domain).

    Raises
    ------
    ParameterError
        If the interval is not a pair, has ``a >= b``, or leaves the domain.
    """
    if interval is None:
        return lower, upper
    if isinstance(interval, (str, bytes)) or not isinstance(interval, Iterable):
        raise ParameterError(f"interval must be a pair (a, b) of exact numbers, got {interval!r}")
    pair = list(interval)
    if len(pair) != 2:
        raise ParameterError(f"interval must be a pair (a, b) of exact numbers, got {interval!r}")
    a, b = parse_endpoint(pair[0], "lower"), parse_endpoint(pair[1], "upper")
    if not bool(a < b):
        raise ParameterError(f"interval ({a}, {b}) for {name} must have a < b")
    if bool(a < lower) or bool(b > upper):
        raise ParameterError(
            f"interval ({a}, {b}) for {name} is not inside its domain [{lower}, {upper}]"
        )
    return a, b


# ------------------------------------------------------------------------------------------- trials
def resolve_trials(task: TaskLike, trials: Any, *, default: Iterable[tuple[int, int]] | None = None,
                   test_only: bool = False) -> list[tuple[int, int]]:
    """The trials to analyse, validated, without repeats, in the order given.

    Parameters
    ----------
    task : Task
    trials : None, a trial ``(i, j)`` or an iterable of trials
        ``None`` gives ``default`` (or, without one, every trial with a ground truth; with ``test_only``, every
        test trial with a ground truth).
    test_only : bool
        Reject training trials (critical conjunctivity concerns test trials).

    Returns
    -------
    list of (int, int)
        ``trials=None``: the task's own trials, not validated again (``no_ground_truth`` read from its cached
        ``categories``). Given trials are validated once each, repeats dropped through a set.

    Raises
    ------
    TaskError
        For a trial that is not one of the task, has no ground truth (both items in one exception's cycle), or
        (``test_only``) is a training trial.
    """
    if trials is None:
        pool = task.test_trials if test_only else task.trials
        if default is not None:
            return list(default)
        cats = getattr(task, "categories", None)  # Task's cached map: no validation of the task's own trials
        return [t for t in pool if (cats[t] != "no_ground_truth" if cats else task.ground_truth(t) is not None)]
    if (isinstance(trials, Sequence) and not isinstance(trials, str) and len(trials) == 2
            and all(isinstance(v, Integral) and not isinstance(v, bool) for v in trials)):
        trials = [tuple(trials)]  # a single trial (i, j)
    if isinstance(trials, str) or not isinstance(trials, Iterable):
        raise TaskError(f"trials must be a list of trials (i, j), got {trials!r}")
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for raw in trials:
        if (t := task.check_trial(raw, "trials entry")) in seen:
            continue
        if test_only and t in task.training_targets:
            raise TaskError(f"trial {t} is a training trial; critical conjunctivity concerns test trials "
                            "(use symbolic_ti.critical_values for training trials)")
        if task.ground_truth(t) is None:
            raise TaskError(
                f"trial ({t[0]}, {t[1]}) has no ground truth (both items lie in one exception's cycle), "
                "so it has no margin and no critical values"
            )
        seen.add(t)
        out.append(t)
    return out


# ----------------------------------------------------------------------------------------- messages
#: A run of digits (a long integer, or the digits of a long decimal) in a message.
_LONG_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def short_numbers(text: str, digits: int = 20) -> str:
    """``text`` with every number of more than ``digits`` digits written short, in scientific notation (rounded to
    4 significant digits) with its count of digits: ``10**400`` reads ``1.000e+400 (401 digits)``, so that an error line stays one short line.

    Parameters
    ----------
    text : str
        A message.
    digits : int, default 20
        Numbers with at most this many digits are kept as written.

    Returns
    -------
    str
    """
    def shorten(match: re.Match[str]) -> str:
        token = match.group(0)
        count = len(token.replace(".", ""))
        if count <= digits:
            return token
        return f"{Decimal(token):.3e} ({count} digits)"

    return _LONG_DIGITS.sub(shorten, text)
