"""The representation-family interface: parameters as data, an exact kernel and an independent numeric one.

A family gives the kernel ``K((i, j), (k, l))`` between two trials. It declares its parameters in a table
(:class:`Parameter`): validation, CLI ``--set`` parsing, docs and hypothesis strategies read that table.
A family instance binds some parameters to exact values and leaves the others symbolic.

Two kernel implementations are required, on purpose:

* :meth:`Family.kernel` returns a sympy expression (exact path: Gram matrix -> DomainMatrix solve);
* :meth:`Family.kernel_numeric` evaluates the kernel with plain arithmetic on floats or mpmath numbers,
  written independently, so that numeric cross-checks compare two independent computations.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import sympy as sp

from ..arguments import exact_number
from ..digits import message_text
from ..errors import FamilyError, ParameterError

if TYPE_CHECKING:
    from ..budgets import Estimate
    from ..task import Task

__all__ = ["Parameter", "Family", "Trial", "register_sum"]

Trial = tuple[int, int]

#: The constructor of ``sum_m c_m K_m`` from ``[(c_m, family_m), ...]`` that ``Family.__add__`` and
#: ``Family.__mul__`` call; registered by :mod:`symbolic_ti.families.compose` (imported by
#: ``symbolic_ti.families``), so that this module never imports the module built on it.
_SUM: list[Callable[[Sequence[tuple[Any, Family]]], Family]] = []


def register_sum(constructor: Callable[[Sequence[tuple[Any, Family]]], Family]) -> None:
    """Make ``constructor(terms)`` the sum that ``+`` and ``*`` of families build (the last registration counts).

    Parameters
    ----------
    constructor : callable
        Takes a sequence of ``(coefficient, Family)`` pairs and returns their sum as a Family
        (:class:`symbolic_ti.families.compose.SumFamily`).
    """
    _SUM[:] = [constructor]


def _sum(terms: Sequence[tuple[Any, Family]]) -> Family:
    if not _SUM:  # pragma: no cover - symbolic_ti.families always imports compose
        raise FamilyError("sums of families need symbolic_ti.families.compose; import symbolic_ti.families")
    return _SUM[0](terms)


def _identity_of(value: Any) -> Any:
    """A bound value as a part of a family's identity: itself where hashable (a sympy number of any size), else its
    text (a mutable matrix)."""
    try:
        hash(value)
    except TypeError:
        return str(value)
    return value


_LEGACY_FIELDS = ("lower", "upper", "lower_open", "upper_open", "description", "integer")


@dataclass(frozen=True, init=False)
class Parameter:
    """One parameter of a family: its name, its Symbol, its domain and one line of description.

    Built with keywords, the domain as a sympy :class:`~sympy.sets.sets.Interval` (the constraint object, as
    scikit-learn's ``Interval`` in its parameter validation)::

        Parameter("alpha", S.alpha, domain=sp.Interval(0, 1), description="conjunctivity factor")
        Parameter("kappa_d", S.kappa_d, domain=sp.Interval.Ropen(0, 1), description="...")
        Parameter("depth", sym, domain=sp.Interval(1, sp.oo), integer=True, description="...")

    The positional form of release 0.1, ``Parameter(name, symbol, lower, upper, lower_open, upper_open,
    description[, integer])``, still works for one release with a :class:`DeprecationWarning`.

    Parameters
    ----------
    name : str
        Name used in ``--set NAME=VALUE`` and as keyword argument.
    symbol : sympy.Symbol
        The shared Symbol (``symbolic_ti.symbols``) used when the parameter is left symbolic.
    domain : sympy.Interval
        The values allowed; an infinite end is open (``sp.Interval(1, sp.oo)`` is ``[1, oo)``).
    description : str
        One line for ``symbolic-ti families`` and docs.
    integer : bool, default False
        Whether only the integers of ``domain`` are allowed.

    Attributes
    ----------
    lower, upper : sympy number
        The ends of ``domain``.
    lower_open, upper_open : bool
        Whether each end is excluded.

    Raises
    ------
    FamilyError
        If ``domain`` is not a sympy Interval (an empty or one-point set included), or ``description`` is
        missing (definitions of families, not user input).
    """

    name: str
    symbol: sp.Symbol
    domain: sp.Interval
    description: str
    integer: bool

    def __init__(self, name: str, symbol: sp.Symbol, *legacy: Any, domain: sp.Interval | None = None,
                 description: str | None = None, integer: bool = False, **legacy_keywords: Any) -> None:
        if legacy or legacy_keywords:
            domain, description, integer = _legacy_parameter(name, legacy, legacy_keywords, domain, description,
                                                             integer)
        if not isinstance(domain, sp.Interval):
            raise FamilyError(f"parameter {name!r}: domain must be a sympy Interval such as sp.Interval(0, 1), "
                              f"got {domain!r}")
        if not isinstance(description, str):
            raise FamilyError(f"parameter {name!r}: description must be a string (one line), got {description!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "symbol", symbol)
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "integer", bool(integer))

    @property
    def lower(self) -> sp.Expr:
        """The lower end of the domain (``-oo`` when unbounded)."""
        return self.domain.start

    @property
    def upper(self) -> sp.Expr:
        """The upper end of the domain (``oo`` when unbounded)."""
        return self.domain.end

    @property
    def lower_open(self) -> bool:
        """Whether the lower end is excluded."""
        return bool(self.domain.left_open)

    @property
    def upper_open(self) -> bool:
        """Whether the upper end is excluded."""
        return bool(self.domain.right_open)

    def domain_text(self) -> str:
        """The domain as interval text, e.g. ``[0, 1]`` or ``[0, 1)``."""
        lo = "(" if self.lower_open else "["
        hi = ")" if self.upper_open else "]"
        return f"{lo}{self.lower}, {self.upper}{hi}"

    def check(self, value: sp.Expr) -> sp.Expr:
        """Return ``value`` if it is a number in the domain (symbolic values pass).

        Raises
        ------
        ParameterError
            If ``value`` is a number outside the domain, or not real.
        """
        if value.free_symbols:
            return value
        if not value.is_real:
            raise ParameterError(f"{self.name} must be a real number in {self.domain_text()}, got {message_text(value)}")
        if self.integer and not value.is_Integer:
            raise ParameterError(f"{self.name} must be an integer in {self.domain_text()}, got {message_text(value)}")
        too_low = value < self.lower if not self.lower_open else value <= self.lower
        too_high = value > self.upper if not self.upper_open else value >= self.upper
        if bool(too_low) or bool(too_high):
            raise ParameterError(
                f"{self.name} = {message_text(value)} is outside its domain {self.domain_text()} ({self.description})"
            )
        return value


def _legacy_parameter(name: str, legacy: tuple[Any, ...], keywords: dict[str, Any], domain: Any,
                      description: Any, integer: bool) -> tuple[sp.Interval, Any, bool]:
    """``(domain, description, integer)`` from the deprecated positional (or field keyword) form of Parameter."""
    unknown = sorted(set(keywords) - set(_LEGACY_FIELDS))
    if unknown or len(legacy) > len(_LEGACY_FIELDS) or domain is not None:
        raise FamilyError(f"parameter {name!r}: give domain=sp.Interval(...), description=... and integer=... as "
                          f"keywords (got {len(legacy)} positional values and the keywords "
                          f"{', '.join(sorted(keywords)) or 'none'})")
    given = dict(zip(_LEGACY_FIELDS, legacy, strict=False))
    twice = sorted(set(given) & set(keywords))
    if twice:
        raise FamilyError(f"parameter {name!r}: {', '.join(twice)} given twice")
    given.update(keywords)
    if description is not None:
        given.setdefault("description", description)
    if integer:
        given.setdefault("integer", integer)
    missing = [k for k in _LEGACY_FIELDS[:5] if k not in given]
    if missing:
        raise FamilyError(f"parameter {name!r}: missing {', '.join(missing)}")
    warnings.warn("Parameter(name, symbol, lower, upper, lower_open, upper_open, description) is deprecated; "
                  "write Parameter(name, symbol, domain=sp.Interval(lower, upper, lower_open, upper_open), "
                  "description=...)", DeprecationWarning, stacklevel=3)
    interval = sp.Interval(given["lower"], given["upper"], bool(given["lower_open"]), bool(given["upper_open"]))
    return interval, given["description"], bool(given.get("integer", False))


class Family(ABC):
    """A parameterized representation family: a kernel between trials.

    Subclasses set ``name``, ``parameters``, ``exchangeable``, ``swap_invariant`` and a docstring that gives
    the kernel formula, the parameters with their domains, and the source.

    Parameters
    ----------
    **values
        Exact values of some parameters (int, Fraction, decimal string or float read exactly, sympy
        expression). A parameter not given stays symbolic. Passing the parameter's own Symbol, or the
        string ``"symbolic"``, also leaves it symbolic.

    Raises
    ------
    ParameterError
        For an unknown parameter name or a value outside the family's domain.
    """

    name: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]]
    #: the kernel depends only on which positions share an item (Lippl et al., PNAS 2024), or predicts exactly
    #: as such a kernel on every TI training set; then :meth:`exchangeable_form` gives the matching
    #: parameters and the solver uses the graph-Laplacian reduction. Subclasses may make this a property
    #: that depends on the bound values (e.g. ``rho = 0``).
    exchangeable: ClassVar[bool] = False
    #: K((j, i), (l, k)) == K((i, j), (k, l)); enables the antisymmetric halving of the ridge system
    swap_invariant: ClassVar[bool] = True
    #: the arguments that are data rather than scalar parameters (a similarity matrix, a Gram matrix file, an
    #: activation), as ``(name, description)`` rows: ``symbolic-ti families`` lists them, the sweep specification
    #: reads them as file names or names, never as numbers. Empty for a family of scalar parameters only.
    data_parameters: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, **values: Any) -> None:
        table = {p.name: p for p in self.parameters}
        bound: dict[str, sp.Expr] = {}
        self._explicit_symbolic: set[str] = set()
        for key, raw in values.items():
            if key not in table:
                allowed = ", ".join(table)
                raise ParameterError(f"family {self.name!r} has no parameter {key!r}; its parameters are {allowed}")
            if raw is None:
                continue
            p = table[key]
            if raw == p.symbol or (isinstance(raw, str) and raw.strip() in ("symbolic", p.name)):
                self._explicit_symbolic.add(key)
                continue
            bound[key] = p.check(exact_number(raw, key))
        self._values: dict[str, sp.Expr] = self._complete(bound)
        self._check_joint(self._values)

    # --------------------------------------------------------------- hooks
    def _complete(self, bound: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
        """Fill defaults (e.g. kappa_d = 0) unless a parameter was asked symbolic
        (``self._explicit_symbolic``); return the bound values. Override where needed."""
        return bound

    def _check_joint(self, values: Mapping[str, sp.Expr]) -> None:  # noqa: B027 - optional hook, no-op by default
        """Check constraints that involve several parameters (e.g. positive semidefiniteness)."""

    @abstractmethod
    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        """Exact kernel between trials ``a`` and ``b``, with ``p`` mapping each parameter to a value or Symbol."""

    @abstractmethod
    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        """Kernel between trials ``a`` and ``b`` in plain arithmetic on floats or mpmath numbers.

        ``p`` maps every active parameter name to a number of the caller's type. Written independently of
        :meth:`kernel` so that numeric checks are independent of the exact path.
        """

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(scale, alpha, kappa_d)`` of the exchangeable kernel that predicts exactly like this one.

        The kernel ``scale * [kappa_d + (1 - kappa_d) ((1 - alpha)/2 ([i=k] + [j=l]) + alpha [i=k][j=l])]``
        with ridge ``lambda`` predicts like the exchangeable family with conjunctivity ``alpha`` and the
        rescaled ridge ``lambda / (scale (1 - kappa_d))`` (docs/theory.md#graph-laplacian-reduction). Only
        for instances with ``exchangeable`` true.

        Raises
        ------
        FamilyError
            If this instance is not exchangeable.
        """
        raise FamilyError(f"{self.describe()} is not exchangeable; it has no exchangeable form")

    def check_task(self, task: Task) -> None:  # noqa: B027 - optional hook, no-op by default
        """Raise if the family cannot represent ``task`` (e.g. an item-similarity matrix of another size).

        Raises
        ------
        ParameterError
            If the family's data do not fit the task.
        """

    def exact_cost(self) -> Estimate | None:
        """The estimated cost of this family's exact kernel values (:mod:`symbolic_ti.budgets`), or None when it
        does not grow with a parameter (the default). The exact solve refuses above its budget."""
        return None

    # ------------------------------------------------------------- public
    @property
    def numeric_only(self) -> bool:
        """Whether only the numeric solvers apply: the kernel has no exact form (float data, an activation
        evaluated by quadrature). :func:`symbolic_ti.solve` then returns float64 predictions cross-checked with
        mpmath, and :meth:`kernel` is not called. False by default; families with such data override it."""
        return False

    @property
    def parametrization(self) -> str | None:
        """The name of the parametrization in use for a family that has several (the exchangeable family:
        ``"alpha"`` or ``"kappa"``), which decides :attr:`active_parameters`; None (the default) for a family
        with one."""
        return None

    @property
    def values(self) -> dict[str, sp.Expr]:
        """The parameters bound to exact values, by name."""
        return dict(self._values)

    @property
    def active_parameters(self) -> tuple[Parameter, ...]:
        """The parameters that the kernel depends on in this instance (a parametrization may use a subset)."""
        return self.parameters

    @property
    def free_parameters(self) -> tuple[Parameter, ...]:
        """The active parameters left symbolic."""
        return tuple(p for p in self.active_parameters if p.name not in self._values)

    @property
    def free_symbols(self) -> tuple[sp.Symbol, ...]:
        """Symbols of the parameters left symbolic."""
        return tuple(p.symbol for p in self.free_parameters)

    def parameter(self, name: str) -> Parameter:
        """The :class:`Parameter` called ``name``.

        Raises
        ------
        ParameterError
            If the family has no such parameter.
        """
        for p in self.parameters:
            if p.name == name:
                return p
        raise ParameterError(
            f"family {self.name!r} has no parameter {name!r}; its parameters are "
            + ", ".join(p.name for p in self.parameters)
        )

    def symbol_values(self) -> dict[str, sp.Expr]:
        """Map every active parameter name to its exact value or its Symbol."""
        return {p.name: self._values.get(p.name, p.symbol) for p in self.active_parameters}

    def kernel(self, a: Trial, b: Trial) -> sp.Expr:
        """Exact kernel ``K(a, b)`` between two trials, a sympy expression in the free parameters."""
        return sp.expand(self._kernel_expr(a, b, self.symbol_values()))

    def with_values(self, **values: Any) -> Family:
        """A new instance with more (or changed) parameter values."""
        merged: dict[str, Any] = dict(self._init_values())
        merged.update(values)
        return type(self)(**merged)

    def _init_values(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self._values)
        out.update({name: "symbolic" for name in self._explicit_symbolic})
        return out

    def numeric_point(self, point: Mapping[str, Any], convert: Callable[[sp.Expr], Any]) -> dict[str, Any]:
        """Every active parameter as a number: bound exact values through ``convert``, free ones from ``point``.

        Raises
        ------
        ParameterError
            If a free parameter has no value in ``point``.
        """
        out: dict[str, Any] = {}
        for p in self.active_parameters:
            if p.name in self._values:
                out[p.name] = convert(self._values[p.name])
            elif p.name in point:
                out[p.name] = point[p.name]
            elif p.symbol in point:
                out[p.name] = point[p.symbol]
            else:
                raise ParameterError(f"a numeric value is needed for the symbolic parameter {p.name}")
        return out

    def describe(self) -> str:
        """One line: the family name and its parameter values (symbolic ones by name)."""
        parts = [f"{k}={message_text(v)}" for k, v in self._values.items()]
        parts += [f"{p.name} symbolic" for p in self.free_parameters]
        return f"{self.name}({', '.join(parts)})"

    def __repr__(self) -> str:
        return self.describe()

    def _identity(self) -> tuple:
        """What makes two instances the same kernel: class, active parameters and bound values."""
        return (type(self).__name__, tuple(p.name for p in self.active_parameters),
                tuple(sorted((k, _identity_of(v)) for k, v in self._values.items())))

    # ------------------------------------------------------------- composition
    def __add__(self, other: object) -> Family:
        """``K + K'``: a :class:`symbolic_ti.families.compose.SumFamily`."""
        if not isinstance(other, Family):
            return NotImplemented
        return _sum([(1, self), (1, other)])

    def __mul__(self, c: object) -> Family:
        """``c K`` for a positive number ``c``.

        Raises
        ------
        ParameterError
            If ``c`` is not a positive real number.
        """
        if isinstance(c, Family):
            return NotImplemented
        return _sum([(c, self)])

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Family) and other._identity() == self._identity()

    def __hash__(self) -> int:
        return hash(self._identity())
