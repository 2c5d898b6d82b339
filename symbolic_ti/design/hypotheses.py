"""Hypotheses of an experiment design: a family at exact parameter values, a ridge (or a training time) and the
response scale ``beta`` of ``fit``, with a prior weight; or a grid of such points with weights (a prior).

One hypothesis on the command line (``--hypothesis``) or in Python (:func:`parse_hypothesis`)::

    FAMILY:NAME=VALUE,NAME=VALUE;ridge=R;beta=B;weight=W;time=T;label=TEXT

Before the first ``;`` the family and its parameters, read by the family itself (``exchangeable:alpha=1/10``,
``geometric:alpha=1/10,rho=1/2``: exact numbers, each checked against its domain); after it the hypothesis's
own keys, each at most once:

* ``ridge``: an exact number ``>= 0`` or ``ridgeless`` (default ridgeless; ``0`` is the ridgeless limit too);
* ``beta``: the response scale of ``P(first item wins) = sigmoid(beta f(i, j))``, an exact number ``> 0``
  (default 1);
* ``weight``: the prior weight, an exact number ``> 0`` (default 1; weights are normalised to sum to 1);
* ``time``: a gradient-flow training time ``> 0`` (default: trained to convergence, the ridge solution;
  :func:`symbolic_ti.dynamics.gradient_flow`);
* ``label``: the name shown in reports (default the text before the first ``;``).

The family's own parameters come before ``;`` and the hypothesis keys after it, so the geometric family's
cross-position weight ``beta`` (``geometric:alpha=1/10,rho=1/2,beta=1/10``) is never the response scale
(``;beta=4``). A TOML file (:func:`load_hypotheses`) gives the same keys and grids: docs/design.md#hypotheses.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

from ..arguments import exact_number, parse_ridge
from ..digits import TOO_LONG_INTEGER, message_repr, message_text
from ..errors import ParameterError, SymbolicTIError
from ..families import Family, get_family

__all__ = ["Hypothesis", "HYPOTHESIS_KEYS", "parse_hypothesis", "hypothesis", "load_hypotheses",
           "hypotheses_from_dict", "normalised"]

#: The keys of a hypothesis after the first ``;`` (and of a ``[[hypothesis]]`` table of a TOML file, with
#: ``family``, ``parameters`` and ``grid``).
HYPOTHESIS_KEYS = ("ridge", "beta", "weight", "time", "label")
_TABLE_KEYS = ("family", "parameters", "grid", "grid_weights") + HYPOTHESIS_KEYS


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis: exact predictions of a family at fixed parameter values, read out by the response model.

    Attributes
    ----------
    label : str
        Its name in reports; the points of one grid share the label of their ``[[hypothesis]]`` table.
    family : Family
        Every active parameter bound to an exact value.
    ridge : sympy.Expr or None
        The ridge ``lambda > 0``, or None for the ridgeless limit ``lambda -> 0+``.
    beta : sympy.Expr
        The response scale, ``> 0``: ``P(first item wins) = sigmoid(beta f(i, j))``.
    weight : sympy.Expr
        The prior weight, ``> 0`` (:func:`normalised` makes a set sum to 1).
    time : sympy.Expr or None
        A gradient-flow training time ``t > 0``, or None (trained to convergence).
    point : tuple of (str, sympy.Expr)
        The grid coordinates of this point (empty for a single point).
    """

    label: str
    family: Family
    ridge: sp.Expr | None = None
    beta: sp.Expr = sp.Integer(1)
    weight: sp.Expr = sp.Integer(1)
    time: sp.Expr | None = None
    point: tuple[tuple[str, sp.Expr], ...] = ()

    @property
    def name(self) -> str:
        """The label with the grid point, e.g. ``geometric[rho=1/10]``."""
        if not self.point:
            return self.label
        return f"{self.label}[{','.join(f'{k}={message_text(v)}' for k, v in self.point)}]"

    @property
    def ridge_text(self) -> str:
        """``ridgeless`` or the exact ridge as text."""
        return "ridgeless" if self.ridge is None else str(self.ridge)

    def describe(self) -> str:
        """One line: the family's values, the ridge, beta, the time and the weight."""
        time = "" if self.time is None else f", t = {self.time}"
        return (f"{self.name}: {self.family.describe()}, ridge {self.ridge_text}{time}, beta = {self.beta}, "
                f"prior weight {self.weight}")


def _fail(where: str, message: str) -> ParameterError:
    return ParameterError(f"hypothesis {where}: {message}")


def _positive(value: Any, key: str, where: str) -> sp.Expr:
    try:
        x = exact_number(value, key)
    except SymbolicTIError as err:
        raise _fail(where, str(err)) from None
    if x.free_symbols or not x.is_real or not x > 0:
        raise _fail(where, f"{key} must be an exact number > 0, got {message_text(x)}")
    return x


def hypothesis(family: str | Family, parameters: Mapping[str, Any] | None = None, *, ridge: Any = "ridgeless",
               beta: Any = 1, weight: Any = 1, time: Any = None, label: str | None = None) -> Hypothesis:
    """Build and check one :class:`Hypothesis`.

    Parameters
    ----------
    family : str or Family
        A family name (``symbolic-ti families``) or an instance.
    parameters : mapping name -> exact value, optional
        The family's parameter values; every parameter the kernel depends on needs one.
    ridge : exact number >= 0 or "ridgeless"
    beta, weight : exact number > 0
    time : exact number > 0 or None
    label : str, optional

    Raises
    ------
    ParameterError, FamilyError
        One line naming the hypothesis and what was wrong: an unknown family or parameter, a value out of its
        domain (the family's own check), a parameter without a value, a ridge < 0, a beta, weight or time <= 0.
    """
    name = label if label is not None else (family if isinstance(family, str) else family.name)
    where = repr(name)
    try:
        fam = get_family(family, **dict(parameters or {})) if isinstance(family, str) else (
            family.with_values(**dict(parameters)) if parameters else family)
    except SymbolicTIError as err:
        raise type(err)(f"hypothesis {where}: {err}") from None
    if not isinstance(fam, Family):
        raise _fail(where, f"family must be a family name or a Family, got {message_repr(family)}")
    free = [p.name for p in fam.free_parameters]
    if free:
        raise _fail(where, f"{', '.join(free)} of {fam.name} {'has' if len(free) == 1 else 'have'} no value; "
                           f"give every parameter, e.g. {fam.name}:{free[0]}=1/10")
    try:
        lam = parse_ridge(ridge, "ridge")
    except SymbolicTIError as err:
        raise _fail(where, str(err)) from None
    if lam is not None and lam.free_symbols:
        raise _fail(where, f"ridge must be an exact number >= 0 or 'ridgeless', got {message_repr(ridge)}")
    t = None if time is None else _positive(time, "time", where)
    return Hypothesis(str(name), fam, lam, _positive(beta, "beta", where), _positive(weight, "weight", where), t)


def _split_pairs(text: str, sep: str, where: str, what: str) -> list[tuple[str, str]]:
    out = []
    for part in (p.strip() for p in text.split(sep)):
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise _fail(where, f"expected {what} NAME=VALUE, got {part!r}")
        out.append((key.strip(), value.strip()))
    return out


def parse_hypothesis(text: str) -> Hypothesis:
    """Read ``FAMILY:NAME=VALUE,...;ridge=R;beta=B;weight=W;time=T;label=TEXT`` (module docstring).

    Examples
    --------
    >>> h = parse_hypothesis("geometric:alpha=1/10,rho=1/2;ridge=1/100;beta=4")
    >>> h.family.values["rho"], h.ridge, h.beta
    (1/2, 1/100, 4)

    Raises
    ------
    ParameterError, FamilyError
        One line, as :func:`hypothesis`; also for text that does not parse or a key given twice.
    """
    if not isinstance(text, str) or not text.strip():
        raise ParameterError(f"hypothesis: expected FAMILY:NAME=VALUE,...;ridge=R;beta=B (e.g. "
                             f"exchangeable:alpha=1/10;ridge=1/10;beta=4), got {message_repr(text)}")
    head, _, tail = text.strip().partition(";")
    where = repr(text.strip())
    family, _, params = head.partition(":")
    family = family.strip()
    if not family:
        raise _fail(where, "expected a family name before ':' (see symbolic-ti families)")
    values: dict[str, str] = {}
    for key, value in _split_pairs(params, ",", where, "family parameters"):
        if key in values:
            raise _fail(where, f"the family parameter {key} is given twice")
        values[key] = value
    keys: dict[str, str] = {}
    for key, value in _split_pairs(tail, ";", where, "hypothesis keys"):
        if key not in HYPOTHESIS_KEYS:
            raise _fail(where, f"unknown key {key!r} after ';'; allowed: {', '.join(HYPOTHESIS_KEYS)} (family "
                               f"parameters go before the first ';', separated by ',')")
        if key in keys:
            raise _fail(where, f"{key} is given twice")
        keys[key] = value
    return hypothesis(family, values, ridge=keys.get("ridge", "ridgeless"), beta=keys.get("beta", 1),
                      weight=keys.get("weight", 1), time=keys.get("time"), label=keys.get("label", head.strip()))


def _grid(table: Mapping[str, Any], where: str) -> list[tuple[tuple[str, Any], ...]]:
    grid = table.get("grid", {})
    weights = table.get("grid_weights", {})
    if not isinstance(grid, Mapping) or not isinstance(weights, Mapping):
        raise _fail(where, "grid and grid_weights must be tables NAME = [values]")
    unknown = sorted(set(weights) - set(grid))
    if unknown:
        raise _fail(where, f"grid_weights.{unknown[0]} has no grid values")
    axes = []
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise _fail(where, f"grid.{key} must be a non-empty list of exact values, got {values!r}")
        w = weights.get(key, [1] * len(values))
        if not isinstance(w, list) or len(w) != len(values):
            raise _fail(where, f"grid_weights.{key} must be a list of {len(values)} weights, one per value")
        axes.append([(key, v, _positive(x, f"grid_weights.{key}", where)) for v, x in zip(values, w, strict=True)])
    return [tuple((k, (v, x)) for k, v, x in combo) for combo in itertools.product(*axes)]


def hypotheses_from_dict(data: Mapping[str, Any]) -> tuple[Hypothesis, ...]:
    """The hypotheses of a parsed TOML document: ``[[hypothesis]]`` tables with ``family``, ``parameters``,
    ``ridge``, ``beta``, ``weight``, ``time``, ``label`` and optionally ``grid`` (``NAME = [values]``, a family
    parameter, ``ridge`` or ``beta``; every combination is a point) with ``grid_weights`` (``NAME = [weights]``;
    the point's weight is the table's ``weight`` times the product of its grid weights over their sum).

    Raises
    ------
    ParameterError, FamilyError
        One line naming the table and the key.
    """
    tables = data.get("hypothesis") if isinstance(data, Mapping) else None
    if not isinstance(tables, list) or not tables:
        raise ParameterError("hypotheses file: expected one or more [[hypothesis]] tables with family = NAME")
    out: list[Hypothesis] = []
    for k, table in enumerate(tables):
        where = f"[[hypothesis]] {k + 1}"
        if not isinstance(table, Mapping) or not isinstance(table.get("family"), str):
            raise _fail(where, "needs family = NAME (see symbolic-ti families)")
        unknown = sorted(set(table) - set(_TABLE_KEYS))
        if unknown:
            raise _fail(where, f"unknown key {unknown[0]!r}; allowed: {', '.join(_TABLE_KEYS)}")
        base = dict(table.get("parameters", {}))
        label = str(table.get("label", table["family"]))
        points = _grid(table, where)
        total = sum((sp.Mul(*[w for _, (_, w) in p]) for p in points), sp.Integer(0))
        for point in points:
            values, keys = dict(base), {key: table[key] for key in ("ridge", "beta") if key in table}
            for name, (value, _) in point:
                (keys if name in ("ridge", "beta") else values)[name] = value
            h = hypothesis(table["family"], values, ridge=keys.get("ridge", "ridgeless"), beta=keys.get("beta", 1),
                           weight=table.get("weight", 1), time=table.get("time"), label=label)
            share = sp.Mul(*[w for _, (_, w) in point]) / total
            coords = tuple((name, exact_number(value, name) if not _ridgeless(value) else sp.Integer(0))
                           for name, (value, _) in point)
            out.append(Hypothesis(h.label, h.family, h.ridge, h.beta, h.weight * share, h.time, coords))
    return tuple(out)


def _ridgeless(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in ("ridgeless", "0+")


def load_hypotheses(path: str | Path) -> tuple[Hypothesis, ...]:
    """Read the hypotheses of a TOML file (:func:`hypotheses_from_dict`; docs/design.md#hypotheses).

    Raises
    ------
    ParameterError
        For a file that cannot be read or is not TOML, and as :func:`hypotheses_from_dict`.
    """
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as err:
        raise ParameterError(f"hypotheses file {message_repr(str(path))}: cannot read it ({err.strerror or err})") \
            from None
    except tomllib.TOMLDecodeError as err:
        raise ParameterError(f"hypotheses file {message_repr(str(path))}: not valid TOML ({err})") from None
    except ValueError:  # tomllib's int() of an integer of more than 4300 digits (sys.get_int_max_str_digits)
        raise ParameterError(f"hypotheses file {message_repr(str(path))}: {TOO_LONG_INTEGER}") from None
    return hypotheses_from_dict(data)


def normalised(hypotheses: Iterable[Hypothesis | str]) -> tuple[Hypothesis, ...]:
    """The hypotheses (texts read by :func:`parse_hypothesis`) with weights summing to 1, each name once.

    Raises
    ------
    ParameterError
        For fewer than two hypotheses, an entry of another type or two hypotheses of the same name.
    """
    if isinstance(hypotheses, (str, Hypothesis)):
        hypotheses = [hypotheses]
    items: Sequence[Any] = list(hypotheses) if isinstance(hypotheses, Iterable) else [hypotheses]
    read = []
    for h in items:
        if isinstance(h, str):
            read.append(parse_hypothesis(h))
        elif isinstance(h, Hypothesis):
            read.append(h)
        else:
            raise ParameterError(f"hypotheses must be Hypothesis objects or texts such as "
                                 f"'exchangeable:alpha=1/10', got {message_repr(h)}")
    if len(read) < 2:
        raise ParameterError(f"hypotheses: an experiment tells two or more hypotheses apart, got {len(read)}")
    names = [h.name for h in read]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ParameterError(f"hypotheses: the name {twice[0]!r} is given twice; give each a label "
                             f"(';label=NAME')")
    total = sum((h.weight for h in read), sp.Integer(0))
    return tuple(Hypothesis(h.label, h.family, h.ridge, h.beta, h.weight / total, h.time, h.point) for h in read)
