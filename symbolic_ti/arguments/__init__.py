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

from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Protocol, TypeAlias
from collections.abc import Iterable, Mapping, Sequence

import sympy as sp

from .. import symbols as S
from ..digits import message_repr, message_text, short_numbers
from ..errors import ParameterError, TaskError
from .numbers import EXACT_CONSTANTS, EXACT_FUNCTIONS, exact_number



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

    def category(self, trial: Sequence[int]) -> str: ...

    @property
    def is_ti_design(self) -> bool: ...

    def ground_truth(self, trial: tuple[int, int]) -> int | None: ...

#: A number given by the user (read exactly by :func:`exact_number`): int, Fraction, float, decimal string or
#: ``"p/q"``, a numpy or mpmath scalar, or a sympy expression.
ExactLike: TypeAlias = int | float | Fraction | str | sp.Expr | Real
#: A ridge (:func:`parse_ridge`): a number >= 0, ``"ridgeless"``/``"0+"``, ``None``/``"lambda"`` (symbolic).
RidgeLike: TypeAlias = ExactLike | None
#: A list of trials ``(i, j)`` (:func:`resolve_trials`; items by number, or by label with item labels:
#: ``("E", "F")`` or ``"E>F"``); a single trial ``(3, 6)`` is refused with the list ``[(3, 6)]`` it should be, as a
#: single exception is; ``None`` for the default set.
TrialsLike: TypeAlias = Iterable[Sequence[int] | Sequence[str] | str] | None
#: An interval ``(a, b)`` of a parameter (:func:`parse_interval`); ``None`` for its domain.
IntervalLike: TypeAlias = Sequence[ExactLike] | None

__all__ = ["ExactLike", "RidgeLike", "TrialsLike", "IntervalLike", "TaskLike", "Argument", "ARGUMENTS", "RIDGE_NAMES", "RIDGELESS_WORDS", "SYMBOLIC_RIDGE_WORDS", "INFINITY_WORDS",
           "SOLVE_METHODS", "RIDGELESS_METHODS", "MAX_DIGITS", "exact_number", "check_int", "check_choice", "parse_ridge",
           "parameter_name", "parse_endpoint", "parse_interval", "resolve_trials", "check_trials", "is_single_pair", "is_single_label_pair", "single_pair_error", "trial_entries", "short_numbers", "check_mapping",
           "EXACT_FUNCTIONS", "EXACT_CONSTANTS", "message_text"]

#: Names of the ridge where a parameter name is expected (``--set``, ``subs``, grid axes, scans).
RIDGE_NAMES = ("lambda", "ridge")
#: Spellings of the ridgeless limit ``lambda -> 0+`` (case-insensitive).
RIDGELESS_WORDS = ("ridgeless", "0+")
#: Spellings of a symbolic ridge.
SYMBOLIC_RIDGE_WORDS = ("lambda", "symbolic")
#: Spellings of +infinity for an interval's upper end (a leading ``-`` gives -infinity).
INFINITY_WORDS = ("oo", "+oo", "inf", "+inf", "infinity", "+infinity")
#: Most decimal digits an mpmath computation may be asked for (``precision``, ``dps``): a million-digit request is
#: refused rather than run without bound.
MAX_DIGITS = 100_000
#: Methods of the exact solver (:func:`symbolic_ti.solve`).
SOLVE_METHODS = ("auto", "laplacian", "halved", "full")
#: Methods of the ridgeless limit on the dense paths.
RIDGELESS_METHODS = ("auto", "pinv", "limit")


@dataclass(frozen=True)
class Argument:
    """One shared argument: its name and what it allows (quoted by error messages and the CLI's help)."""

    name: str
    allowed: str


#: The shared arguments and their constraints: every parameter of a public entry point (``symbolic_ti.__all__``,
#: :func:`symbolic_ti.api.make_family`, the methods of :class:`symbolic_ti.Result`) is named here
#: (``tests/test_api_contract.py`` fails for a parameter that is not, and draws invalid values for each).
ARGUMENTS: dict[str, Argument] = {a.name: a for a in (
    Argument("ridge", "an exact number >= 0 (0.1 is read as 1/10; 0 means the ridgeless limit), 'ridgeless' "
                      "for the limit lambda -> 0+, or None / 'lambda' to keep it symbolic"),
    Argument("method", "one of " + ", ".join(SOLVE_METHODS)),
    Argument("ridgeless_method", "one of " + ", ".join(RIDGELESS_METHODS)),
    Argument("interval", "a pair (a, b) of rational numbers with a < b inside the parameter's domain; the upper end "
                         "may be oo"),
    Argument("trials", "a list of trials (i, j) of the task, with i != j in 1..n, e.g. [(3, 6)] (items by "
                       "number, or by label with item labels: [('E', 'F')] or ['E>F'])"),
    Argument("parameter value", "an exact number (int, Fraction, 'p/q', a decimal string or float read as its "
                                "shortest decimal, a numpy or mpmath scalar) or a sympy expression"),
    Argument("n", "an integer >= 3, the number of items"),
    Argument("exceptions", "a list of exceptions, each 'W>L' or a pair (W, L) with L + 2 <= W <= n, e.g. ['6>4'] "
                           "or [(6, 4)]; None or [] for none"),
    Argument("parameters", "a mapping from parameter names to exact values, e.g. {'alpha': '1/10'}, or None"),
    Argument("values", "a mapping from parameter names (or their Symbols) to exact numbers, e.g. {'alpha': '1/10'}"),
    Argument("family", "a family name such as 'exchangeable' (symbolic-ti families lists them) or a Family"),
    Argument("name", "a family name such as 'exchangeable' (symbolic-ti families lists them)"),
    Argument("parameter", "the name of a family parameter such as 'alpha', or 'lambda' / 'ridge' for the ridge"),
    Argument("point", "a mapping from parameter names to numbers, e.g. {'alpha': 0.3, 'lambda': 0.1}, or None"),
    Argument("precision", "'float64' or an int number of decimal digits >= 5 (mpmath)"),
    Argument("rcond", "None or a number in (0, 1)"),
    Argument("n_points", "an integer >= 1"),
    Argument("dps", "an integer number of decimal digits (verify: >= 5; learning_dynamics: 10 to 1000)"),
    Argument("seed", "an integer"),
    Argument("tol", "None or a positive number"),
    Argument("budget", "a positive number of seconds of estimated CPU, or None for no limit (default 120 s; "
                       "docs/performance.md#budgets)"),
    Argument("task", "a symbolic_ti.Task"),
    Argument("result", "a symbolic_ti.Result"),
    Argument("alpha", "the conjunctivity factor, an exact number in [0, 1]"),
    Argument("kappa_d", "the kernel of two trials sharing no item, an exact number in [0, 1)"),
    Argument("form", "the form of the general-n closed forms: 'chebyshev' or 'hyperbolic'"),
    Argument("source", "a path to a JSON report written by symbolic_ti, or its text or dict"),
    Argument("category", "one of the trial categories of symbolic_ti.CATEGORIES"),
    Argument("i", "an item of the task, an integer in 1..n"),
    Argument("j", "an item of the task, an integer in 1..n"),
    Argument("hypotheses", "two or more hypotheses: symbolic_ti.design.Hypothesis objects or texts such as "
                           "'exchangeable:alpha=1/10;ridge=1/10;beta=4' (docs/design.md#hypotheses)"),
    Argument("designs", "a symbolic_ti.design.DesignSpace, a Task, a list of Tasks or a number of items"),
    Argument("presentations", "an integer >= 1, the presentations of each trial"),
    Argument("total", "None or an integer >= 1, a budget of presentations in all"),
    Argument("fisher", "a list of parameter names such as ['alpha', 'beta'], None for every family parameter and "
                       "beta, or () for none"),
    Argument("criterion", "'mutual-information' or 'log-bayes-factor'"),
    Argument("mi_method", "'auto', 'exact' or 'monte-carlo'"),
    Argument("samples", "an integer >= 100, the Monte Carlo samples"),
    Argument("power", "None or a target power in (0, 1), such as 0.8"),
    Argument("simulations", "an integer >= 100, the simulated experiments of a Monte Carlo power"),
    Argument("refit", "'none', 'beta' or 'all' (with power: beta, or every free parameter, refitted to each "
                      "simulated experiment, as fit does)"),
    Argument("refit_starts", "an integer >= 1, the optimiser starts of each refit with refit='all'"),
    Argument("data", "a symbolic_ti.behaviour.BehaviourData of whole choices (load_behaviour)"),
    Argument("next", "an integer from 1 to the number of candidate trials, the next trials to propose"),
    Argument("outcome", "'binomial' (a choice) or 'score' (a real score, fit's Gaussian model)"),
    Argument("score_sd", "an exact number > 0, the standard deviation of one presentation's score"),
)}


def check_mapping(value: Any, name: str, *, symbols: bool = False, none: bool = True) -> dict[str, Any]:
    """A mapping from names to values as a dict (``None``: empty, where ``none``), keys checked to be names.

    Parameters
    ----------
    value : mapping or None
    name : str
        The argument's name: a key of :data:`ARGUMENTS`, whose ``allowed`` the message quotes.
    symbols : bool
        Also accept sympy Symbols as keys (kept as they are).
    none : bool
        Accept ``None`` as no values (``derive(parameters=None)``); False where values are needed
        (``Result.subs``).

    Raises
    ------
    ParameterError
        If ``value`` is not a mapping (or None where ``none``) or a key is not a str (or Symbol); the message
        names ``name``.
    """
    if value is None and none:
        return {}
    allowed = ARGUMENTS[name].allowed
    if not isinstance(value, Mapping):
        raise ParameterError(f"{name} must be {allowed}, got {type(value).__name__} {message_repr(value, 80)}")
    for key in value:
        if not (isinstance(key, str) or (symbols and isinstance(key, sp.Symbol))):
            raise ParameterError(f"{name} must be {allowed}; its keys are names, got the key "
                                 f"{message_repr(key, 80)}")
    return dict(value)


# ------------------------------------------------------------------------------------------ numbers
def check_int(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as an int (Python or numpy integers, a 0-d integer array such as ``np.array(9)``, sympy
    Integers).

    Raises
    ------
    ParameterError
        If ``value`` is not an integer (bool excluded) or is below ``minimum`` or above ``maximum``; the message
        names ``name``.
    """
    if getattr(value, "ndim", None) == 0 and getattr(value, "shape", None) == () and hasattr(value, "item"):
        value = value.item()  # a 0-d numpy array: its one element (int for an integer dtype)
    if isinstance(value, bool) or not isinstance(value, (Integral, sp.Integer)):
        raise ParameterError(f"{name} must be an integer, got {message_repr(value)}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ParameterError(f"{name} must be an integer >= {minimum}, got {message_text(v)}")
    if maximum is not None and v > maximum:
        raise ParameterError(f"{name} must be an integer <= {maximum}, got {message_text(v)}")
    return v


def check_choice(value: Any, name: str, allowed: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``allowed``.

    Raises
    ------
    ParameterError
        Otherwise, naming the argument and the allowed values.
    """
    if not isinstance(value, str) or value not in allowed:
        raise ParameterError(f"{name} must be one of {', '.join(allowed)}, got {message_repr(value)}")
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
            raise ParameterError(f"{name} must be a number >= 0 or 'ridgeless' here, got {message_repr(value)}")
        return lam
    if not lam.is_real or lam < 0:
        raise ParameterError(f"{name} must be a real number >= 0 or 'ridgeless', got {message_text(lam)}")
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
        raise ParameterError(f"interval {which} end must be a rational number (or oo for the upper end), got {message_text(x)}")
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
        raise ParameterError(f"interval must be a pair (a, b) of exact numbers, got {message_repr(interval)}")
    pair = list(interval)
    if len(pair) != 2:
        raise ParameterError(f"interval must be a pair (a, b) of exact numbers, got {message_repr(interval)}")
    a, b = parse_endpoint(pair[0], "lower"), parse_endpoint(pair[1], "upper")
    if not bool(a < b):
        raise ParameterError(f"interval ({message_text(a)}, {message_text(b)}) for {name} must have a < b")
    if bool(a < lower) or bool(b > upper):
        raise ParameterError(
            f"interval ({message_text(a)}, {message_text(b)}) for {name} is not inside its domain [{lower}, {upper}]"
        )
    return a, b


# ------------------------------------------------------------------------------------------- trials
def is_single_pair(value: Any) -> bool:
    """Whether ``value`` is one pair of integers ``(i, j)`` (not text, not a bool): given where a list of pairs
    is expected (``trials``, ``exceptions``), it is refused by :func:`single_pair_error`."""
    return (isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == 2
            and all(isinstance(v, Integral) and not isinstance(v, bool) for v in value))


def is_single_label_pair(value: Any) -> bool:
    """Whether ``value`` is one pair of item labels ``("E", "F")`` (texts without ``>`` or ``,``): a single trial by
    label, refused like :func:`is_single_pair`."""
    return (isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == 2
            and all(isinstance(v, str) and not any(c in v for c in ">,") for v in value))


def single_pair_error(name: str, noun: str, value: Any, hint: Any) -> TaskError:
    """The one refusal of a single pair given as the list ``name`` (``derive(9, (6, 4))``, ``critical(9,
    trials=(3, 6))``): the list it should be, ``hint``, and the value given.

    >>> print(single_pair_error("trials", "trial", (3, 6), [(3, 6)]))
    trials must be a list such as [(3, 6)], got the single trial (3, 6)
    """
    return TaskError(f"{name} must be a list such as {message_repr(hint, 80)}, got the single {noun} "
                     f"{message_repr(value, 80)}")


def trial_entries(trials: Any) -> Iterable[Any]:
    """The entries of a ``trials`` argument, a list of trials ``(i, j)``.

    Raises
    ------
    TaskError
        If ``trials`` is a single trial ``(3, 6)`` (the message shows the list ``[(3, 6)]`` it should be, as
        ``exceptions`` does: :func:`single_pair_error`) or not a list (an int, a str, a mapping), quoting what
        ``trials`` allows.
    """
    if is_single_pair(trials) or is_single_label_pair(trials):
        raise single_pair_error("trials", "trial", trials, [tuple(trials)])
    if isinstance(trials, str) and ">" in trials and "," not in trials:  # one trial 'E>F' by item labels
        raise single_pair_error("trials", "trial", trials, [trials])
    if isinstance(trials, (str, bytes, Mapping)) or not isinstance(trials, Iterable):
        raise TaskError(f"trials must be {ARGUMENTS['trials'].allowed}, got {message_repr(trials, 80)}")
    return trials


_trial_entries = trial_entries


def check_trials(task: TaskLike, trials: Any) -> tuple[tuple[int, int], ...]:
    """The given ``trials`` of ``task``, each validated (:meth:`symbolic_ti.Task.check_trial`), repeats dropped,
    in the order given; ``None`` gives every trial. Unlike :func:`resolve_trials`, trials without ground truth
    and training trials are kept (numeric values exist for every trial).

    Raises
    ------
    TaskError
        For a value that is not a trial or a list of trials, or an entry that is not a trial of the task.
    """
    if trials is None:
        return tuple(task.trials)
    return tuple(dict.fromkeys(task.check_trial(t, "trials entry") for t in _trial_entries(trials)))


def resolve_trials(task: TaskLike, trials: Any, *, default: Iterable[tuple[int, int]] | None = None,
                   test_only: bool = False) -> list[tuple[int, int]]:
    """The trials to analyse, validated, without repeats, in the order given.

    Parameters
    ----------
    task : Task
    trials : None or an iterable of trials ``(i, j)``
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
        return [t for t in pool if (cats[t] != "no_ground_truth" and (cats[t] != "cross_component"
                                                                      or task.ground_truth(t) is not None)
                                    if cats else task.ground_truth(t) is not None)]
    trials = _trial_entries(trials)
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for raw in trials:
        if (t := task.check_trial(raw, "trials entry")) in seen:
            continue
        if test_only and t in task.training_targets:
            raise TaskError(f"trial {t} is a training trial; critical conjunctivity concerns test trials "
                            "(use symbolic_ti.critical_values for training trials)")
        if task.ground_truth(t) is None:
            category = task.category(t)
            if category == "cross_component":
                why = "cross_component: no training path or reference order relates its items"
            elif task.is_ti_design:
                why = "both items lie in one exception's cycle"
            else:
                why = "both items lie in one exception's cycle, or the reference order does not relate them"
            raise TaskError(f"trial ({t[0]}, {t[1]}) has no ground truth ({why}), so it has no margin and no "
                            "critical values")
        seen.add(t)
        out.append(t)
    return out
