"""The sweep specification: a TOML file or the same as Python dataclasses, checked before any work starts.

A spec names the axes of a sweep (numbers of items, exception sets, families, parameter values, ridges), what
to compute for each configuration, and where the dataset goes. Example (``derivations/atlas.toml`` is a full
one)::

    name = "small"
    n = {from = 5, to = 9}              # or a list [5, 7, 9]
    family = "exchangeable"             # or a list of family names
    ridge = ["ridgeless", "1/10"]       # read by symbolic_ti.arguments.parse_ridge
    compute = ["critical_conjunctivity", "first_failing"]
    output = "sweep-output"             # a directory; --output overrides it
    mirror = true                       # compute one of each pair W>L, (n+1-L)>(n+1-W) (see SweepSpec)

    [parameters]                        # exact values, every combination is a configuration
    kappa_d = ["0"]

    [[exceptions]]                      # generators; the configurations are their union
    kind = "single"                     # every single exception W>L with span W - L in [2, 4], every L
    span = [2, 4]

    [[exceptions]]
    kind = "pairs"                      # every set of two distinct such exceptions
    span = [2, 3]
    n_max = 7

    [critical]                          # for compute = ["critical"]
    parameter = "alpha"
    interval = ["0", "1"]

Every value is read by the shared parsers of :mod:`symbolic_ti.arguments` (ridges, intervals, exact numbers,
trials) and families by :func:`symbolic_ti.api.make_family`, so a value means what it means in ``derive``; a
bad value raises :class:`~symbolic_ti.errors.ParameterError` naming the key, what was wrong and what is allowed.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field
from itertools import product
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from ..api import make_family
from ..analysis.parameters import check_parameter
from ..arguments import check_int, exact_number, parse_interval, parse_ridge, resolve_trials
from ..digits import TOO_LONG_INTEGER, message_repr, message_text
from ..errors import SymbolicTIError, ParameterError
from ..families import FAMILIES
from ..task import MAX_ITEMS, Task, parse_exception
from ..task.placements import exception_placements
from .spec_error import SpecError
from .task_axes import PARADIGM_KEYS, check_fits, check_paradigms, read_paradigms

__all__ = ["QUANTITIES", "MIRROR_QUANTITIES", "EXCEPTION_KINDS", "ExceptionAxis", "CriticalSpec", "SweepSpec", "load_spec",
           "spec_from_dict", "SpecError"]

#: What a sweep can compute per configuration (one row per configuration and quantity, or per trial).
QUANTITIES = ("predictions", "margins", "critical_conjunctivity", "first_failing", "critical")
#: Kinds of exception generators.
EXCEPTION_KINDS = ("none", "single", "pairs", "explicit")
_TOP_KEYS = ("name", "n", "family", "parameters", "ridge", "compute", "exceptions", "critical", "trials", "output",
             "shard_seconds", "mirror") + PARADIGM_KEYS
#: What ``mirror = true`` may be used with: quantities invariant under the reversal of the items.
MIRROR_QUANTITIES = ("critical_conjunctivity", "first_failing")
_AXIS_KEYS = ("kind", "span", "n_min", "n_max", "sets")


@dataclass(frozen=True)
class ExceptionAxis:
    """One generator of exception sets.

    Attributes
    ----------
    kind : {"none", "single", "pairs", "explicit"}
        ``none``: the task without exception; ``single``: every exception ``W>L`` with ``W - L`` in ``span`` at
        every position ``L = 1..n - (W - L)``; ``pairs``: every set of two distinct such exceptions;
        ``explicit``: the exception sets in ``sets`` (each a list of ``"W>L"``), at every ``n`` they fit in.
    span : (int, int)
        Inclusive range of spans ``W - L >= 2`` (single, pairs).
    n_min, n_max : int or None
        Restrict the generator to these ``n``.
    sets : tuple of tuple of str
        The explicit exception sets.
    """

    kind: str
    span: tuple[int, int] = (2, 2)
    n_min: int | None = None
    n_max: int | None = None
    sets: tuple[tuple[str, ...], ...] = ()

    def exception_sets(self, n: int) -> list[tuple[str, ...]]:
        """The exception sets of this generator at ``n`` items, in a fixed order."""
        if (self.n_min is not None and n < self.n_min) or (self.n_max is not None and n > self.n_max):
            return []
        if self.kind == "none":
            return [()]
        if self.kind == "explicit":
            return [s for s in self.sets if all(int(e.split(">")[0]) <= n for e in s)]
        return exception_placements(n, self.kind, self.span)


@dataclass(frozen=True)
class CriticalSpec:
    """Critical values of one parameter (``compute = ["critical"]``): ``parameter`` over ``interval``."""

    parameter: str
    interval: tuple[str, str] | None = None


@dataclass(frozen=True)
class SweepSpec:
    """A whole sweep. Build it with :func:`spec_from_dict` or :func:`load_spec` (they validate), or directly
    and call :meth:`validated`.

    Attributes
    ----------
    n : tuple of int
        Numbers of items, each ``3 <= n <= MAX_ITEMS`` (:data:`symbolic_ti.task.MAX_ITEMS`, the limit of
        ``derive``).
    exceptions : tuple of ExceptionAxis
        Generators of exception sets; a configuration per (n, set).
    family : tuple of str
        Family names (``symbolic-ti families``).
    parameters : tuple of (name, tuple of str)
        Exact values of family parameters; every combination is a configuration.
    ridge : tuple of str
        Ridges as given (``"ridgeless"``, ``"1/10"``, ``"symbolic"``); all ridges of a configuration run in one
        task (critical conjunctivity shares its polynomials across ridges).
    compute : tuple of str
        Quantities, from :data:`QUANTITIES`.
    critical : CriticalSpec or None
        Required when ``"critical"`` is computed.
    trials : tuple of (int, int) or None
        Trials of ``predictions`` and ``margins`` (default every trial with a margin).
    output : str or None
        Output directory.
    name : str
    shard_seconds : float
        Target estimated seconds of work per shard (small configurations are grouped into one shard file).
    mirror : bool
        Compute only one of each pair of configurations related by the reversal of the items ``i -> n + 1 - i``
        (the exception ``W>L`` becomes ``(n+1-L)>(n+1-W)``) and write the other's rows from it: same
        ``alpha*_first``, first failing trials ``(i, j) -> (n+1-j, n+1-i)``, column ``mirror_of`` naming the
        computed configuration. Only with ``compute`` in :data:`MIRROR_QUANTITIES` (the exchangeable family,
        whose kernel does not depend on the item order). The symmetry: docs/atlas.md ("Reversal symmetry").
    paradigm, lists, links : tuple
        Paradigm names (default ``("ti",)``), and list-linking's list lengths and link sets
        (:mod:`symbolic_ti.sweep.task_axes`).
    """

    n: tuple[int, ...]
    exceptions: tuple[ExceptionAxis, ...] = (ExceptionAxis("none"),)
    family: tuple[str, ...] = ("exchangeable",)
    parameters: tuple[tuple[str, tuple[str, ...]], ...] = ()
    ridge: tuple[str, ...] = ("ridgeless",)
    compute: tuple[str, ...] = ("margins",)
    critical: CriticalSpec | None = None
    trials: tuple[tuple[int, int], ...] | None = None
    output: str | None = None
    name: str = "sweep"
    shard_seconds: float = field(default=5.0)
    mirror: bool = False
    paradigm: tuple[str, ...] = ("ti",)
    lists: tuple[tuple[int, ...], ...] = ()
    links: tuple[tuple[str, ...], ...] = ((),)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dictionary (the form stored in the dataset's metadata; without the paradigm keys at
        their defaults, as before they existed)."""
        d = json.loads(json.dumps(asdict(self)))
        for key, default in (("paradigm", ["ti"]), ("lists", []), ("links", [[]])):
            if d[key] == default:
                del d[key]
        return d

    def digest(self) -> str:
        """SHA-256 of the spec without ``output`` (a resumed sweep must have the same digest)."""
        d = self.to_dict()
        d.pop("output", None)
        if not d.get("mirror"):
            d.pop("mirror", None)  # specs without the option keep the digest they had before it existed
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()

    def parameter_points(self) -> list[tuple[tuple[str, str], ...]]:
        """Every combination of the parameter values, in spec order."""
        names = [p for p, _ in self.parameters]
        return [tuple(zip(names, values, strict=True)) for values in product(*(v for _, v in self.parameters))]

    def validated(self) -> SweepSpec:
        """Check every value (see :func:`spec_from_dict`); return ``self``.

        Raises
        ------
        SpecError
        """
        _check(self)
        return self


# ------------------------------------------------------------------------------------------- reading
def _fail(key: str, message: str) -> SpecError:
    return SpecError(f"sweep spec key {key!r}: {message}")


def _as_list(value: Any, key: str) -> list[Any]:
    if isinstance(value, (list, tuple)):
        if not value:
            raise _fail(key, "must not be empty")
        return list(value)
    return [value]


def _int(value: Any, key: str, minimum: int) -> int:
    try:
        return check_int(value, key, minimum=minimum)
    except ParameterError as err:
        raise _fail(key, f"must be an integer >= {minimum}, got {message_repr(value, 80)}") from err


def _n_axis(value: Any) -> tuple[int, ...]:
    if isinstance(value, Mapping):
        extra = set(value) - {"from", "to", "step"}
        if extra or "from" not in value or "to" not in value:
            raise _fail("n", f"a table needs the keys from, to (and optionally step), got {sorted(value)}")
        lo, hi = _int(value["from"], "n.from", 3), _int(value["to"], "n.to", 3)
        step = _int(value.get("step", 1), "n.step", 1)
        if hi < lo:
            raise _fail("n", f"n.to = {message_text(hi)} must be >= n.from = {message_text(lo)}")
        if hi > MAX_ITEMS:  # before the range is expanded (n.to = 10**9 would be a billion entries)
            raise _fail("n", f"n.to must be at most {MAX_ITEMS}, got {message_text(hi)}")
        ns = tuple(range(lo, hi + 1, step))
    else:
        ns = tuple(_int(v, "n", 3) for v in _as_list(value, "n"))
    if max(ns) > MAX_ITEMS:
        raise _fail("n", f"must be at most {MAX_ITEMS}, got {message_text(max(ns))}")
    return ns


def _span(value: Any, key: str) -> tuple[int, int]:
    vals = _as_list(value, key)
    if len(vals) == 1:
        vals = vals * 2
    if len(vals) != 2:
        raise _fail(key, f"must be a span D >= 2 or a pair [D_min, D_max], got {value!r}")
    a, b = _int(vals[0], key, 2), _int(vals[1], key, 2)
    if b < a:
        raise _fail(key, f"must have D_min <= D_max, got {message_repr(value, 80)}")
    if b > MAX_ITEMS - 1:  # a span W - L is at most n - 1, and n at most MAX_ITEMS
        raise _fail(key, f"a span is at most n - 1 <= {MAX_ITEMS - 1} (n is at most {MAX_ITEMS}), got "
                         f"{message_text(b)}")
    return a, b


def _axis(raw: Any, k: int) -> ExceptionAxis:
    key = f"exceptions[{k}]"
    if not isinstance(raw, Mapping):
        raise _fail(key, f"must be a table with kind = one of {', '.join(EXCEPTION_KINDS)}, got {raw!r}")
    unknown = sorted(set(raw) - set(_AXIS_KEYS))
    if unknown:
        raise _fail(f"{key}.{unknown[0]}", f"unknown key; allowed: {', '.join(_AXIS_KEYS)}")
    kind = raw.get("kind")
    if kind not in EXCEPTION_KINDS:
        raise _fail(f"{key}.kind", f"must be one of {', '.join(EXCEPTION_KINDS)}, got {kind!r}")
    n_min = _int(raw["n_min"], f"{key}.n_min", 3) if "n_min" in raw else None
    n_max = _int(raw["n_max"], f"{key}.n_max", 3) if "n_max" in raw else None
    if "span" in raw and kind in ("none", "explicit"):
        raise _fail(f"{key}.span", f"only for kind = 'single' or 'pairs', not {kind!r}")
    span = _span(raw.get("span", 2), f"{key}.span")
    sets: list[tuple[str, ...]] = []
    if kind == "explicit":
        if "sets" not in raw:
            raise _fail(f"{key}.sets", "is required for kind = 'explicit': a list of exception sets such as "
                                       "[['6>4'], ['5>3', '9>7']]")
        for s, group in enumerate(_as_list(raw["sets"], f"{key}.sets")):
            if not isinstance(group, (list, tuple)) or not group:
                raise _fail(f"{key}.sets[{s}]", f"must be a non-empty list of exceptions such as ['6>4'], "
                                                f"got {group!r}")
            try:  # read and checked as derive does, at the smallest n that holds every item named
                pairs = [parse_exception(str(e)) for e in group]
                task = Task(max(3, *(max(p.winner, p.loser) for p in pairs)), pairs)
            except SymbolicTIError as err:
                raise _fail(f"{key}.sets[{s}]", str(err)) from None
            sets.append(tuple(str(e) for e in task.exceptions))
    elif "sets" in raw:
        raise _fail(f"{key}.sets", f"only for kind = 'explicit', not {kind!r}")
    return ExceptionAxis(kind, span, n_min, n_max, tuple(sets))


def _parameters(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, Mapping):
        raise _fail("parameters", f"must be a table name = [values], got {value!r}")
    out, data_names = [], _data_names()
    for name, raw in value.items():
        vals = []
        for v in _as_list(raw, f"parameters.{name}"):
            if name in data_names:  # a file or a name, read by the family as derive --set reads it
                if not isinstance(v, str) or not v.strip():
                    raise _fail(f"parameters.{name}", f"must be a file path or name as text, got {v!r}")
                vals.append(v.strip())
                continue
            try:
                vals.append(str(exact_number(v, f"parameters.{name}")))
            except ParameterError as err:
                raise _fail(f"parameters.{name}", str(err)) from None
        out.append((str(name), tuple(vals)))
    return tuple(out)


def _data_names() -> set[str]:  # parameters that are files or names (similarity matrix, activation, ...)
    return {key for cls in FAMILIES.values() for key, _ in cls.data_parameters}


def _trials(value: Any) -> tuple[tuple[int, int], ...]:
    out = []
    for v in _as_list(value, "trials"):
        pair = v.split(",") if isinstance(v, str) else v
        try:
            i, j = (int(x) if isinstance(x, str) else x for x in pair)
            out.append((_int(i, "trials", 1), _int(j, "trials", 1)))
        except (TypeError, ValueError, SpecError):
            raise _fail("trials", f"each trial must be 'i,j' or [i, j] with items i, j >= 1, got {v!r}") from None
    return tuple(out)


def spec_from_dict(data: Mapping[str, Any]) -> SweepSpec:
    """Build and validate a :class:`SweepSpec` from the table of a spec file.

    Parameters
    ----------
    data : mapping
        Keys ``n`` (required), ``exceptions``, ``family``, ``parameters``, ``ridge``, ``compute``, ``critical``,
        ``trials``, ``output``, ``name``, ``shard_seconds``, ``mirror`` (see the module docstring and
        :class:`SweepSpec`).

    Returns
    -------
    SweepSpec

    Raises
    ------
    SpecError
        For an unknown or missing key or an invalid value; the message names the key and what is allowed.
    """
    if not isinstance(data, Mapping):
        raise SpecError(f"a sweep spec must be a table of keys, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_TOP_KEYS))
    if unknown:
        raise _fail(unknown[0], f"unknown key; allowed: {', '.join(_TOP_KEYS)}")
    paradigms = read_paradigms(data)
    if "n" not in data and paradigms.get("paradigm") != ("list-linking",):
        raise _fail("n", "is required: a list of numbers of items or a table {from = 5, to = 41}")
    raw_exc = data.get("exceptions", [{"kind": "none"}])
    axes = tuple(_axis(a, k) for k, a in enumerate(_as_list(raw_exc, "exceptions")))
    compute = tuple(str(c) for c in _as_list(data.get("compute", "margins"), "compute"))
    crit = data.get("critical")
    critical = None
    if crit is not None:
        if not isinstance(crit, Mapping) or "parameter" not in crit:
            raise _fail("critical", f"must be a table with parameter (and optionally interval), got {crit!r}")
        extra = sorted(set(crit) - {"parameter", "interval"})
        if extra:
            raise _fail(f"critical.{extra[0]}", "unknown key; allowed: parameter, interval")
        interval = crit.get("interval")
        if interval is not None and (not isinstance(interval, (list, tuple)) or len(interval) != 2):
            raise _fail("critical.interval", f"must be a pair [a, b] of exact numbers, got {interval!r}")
        critical = CriticalSpec(str(crit["parameter"]),
                                None if interval is None else tuple(str(x) for x in interval))  # type: ignore[arg-type]
    name = data.get("name", "sweep")
    if not isinstance(name, str) or not name.strip():
        raise _fail("name", f"must be a non-empty string, got {name!r}")
    shard_seconds = data.get("shard_seconds", 5.0)
    if isinstance(shard_seconds, bool) or not isinstance(shard_seconds, (int, float)) or shard_seconds <= 0:
        raise _fail("shard_seconds", f"must be a number of seconds > 0, got {shard_seconds!r}")
    mirror = data.get("mirror", False)
    if not isinstance(mirror, bool):
        raise _fail("mirror", f"must be true or false, got {mirror!r}")
    output = data.get("output")
    if output is not None and (not isinstance(output, str) or not output.strip()):
        why = "" if not isinstance(output, str) else " (it is empty)" if not output else " (it is blank, only spaces)"
        raise _fail("output", f"must be a directory path{why}, got {output!r}")
    spec = SweepSpec(
        n=_n_axis(data["n"]) if "n" in data else (), exceptions=axes, **paradigms,
        family=tuple(str(f) for f in _as_list(data.get("family", "exchangeable"), "family")),
        parameters=_parameters(data.get("parameters", {})),
        ridge=tuple(str(r) for r in _as_list(data.get("ridge", "ridgeless"), "ridge")),
        compute=compute, critical=critical,
        trials=_trials(data["trials"]) if "trials" in data else None,
        output=output, name=str(name), shard_seconds=float(shard_seconds), mirror=mirror)
    return spec.validated()


def load_spec(path: str | Path) -> SweepSpec:
    """Read and validate a TOML spec file (:func:`spec_from_dict`).

    Raises
    ------
    SpecError
        If the file cannot be read, is not valid TOML, or has an invalid key.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise SpecError(f"cannot read sweep spec {str(p)!r}: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise SpecError(f"sweep spec {str(p)!r} is not UTF-8 text (byte {err.start}); a spec is a TOML file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError(f"sweep spec {str(p)!r} is not valid TOML: {err}") from None
    except ValueError:  # tomllib's int() of an integer of more than 4300 digits (sys.get_int_max_str_digits)
        raise SpecError(f"sweep spec {str(p)!r}: {TOO_LONG_INTEGER}") from None
    return spec_from_dict(data)


# ---------------------------------------------------------------------------------------- checking
def _check(spec: SweepSpec) -> None:
    check_paradigms(spec)
    if not spec.n and spec.paradigm != ("list-linking",):
        raise _fail("n", "must not be empty")
    for n in spec.n:
        _int(n, "n", 3)
        if n > MAX_ITEMS:
            raise _fail("n", f"must be at most {MAX_ITEMS}, got {n}")
    for k, axis in enumerate(spec.exceptions):
        if axis.kind not in EXCEPTION_KINDS:
            raise _fail(f"exceptions[{k}].kind", f"must be one of {', '.join(EXCEPTION_KINDS)}, got {axis.kind!r}")
        _span(list(axis.span), f"exceptions[{k}].span")
        if spec.n:  # (a spec of list-linking alone has no n axis)
            check_fits(axis, k, spec.n)
    for q in spec.compute:
        if q not in QUANTITIES:
            raise _fail("compute", f"unknown quantity {q!r}; allowed: {', '.join(QUANTITIES)}")
    if len(set(spec.compute)) != len(spec.compute):
        raise _fail("compute", "lists a quantity twice")
    ridges = []
    for r in spec.ridge:
        try:
            ridges.append(parse_ridge(r, "ridge"))
        except ParameterError as err:
            raise _fail("ridge", str(err)) from None
    conj = {"critical_conjunctivity", "first_failing"} & set(spec.compute)
    for f in spec.family:
        try:
            make_family(f, {k: vs[0] for k, vs in spec.parameters if k in _data_names() and vs})
        except SymbolicTIError as err:  # an unknown family, or a missing or unreadable data parameter
            raise _fail("family" if f not in FAMILIES else "parameters", str(err)) from None
        for point in spec.parameter_points():
            try:
                fam = make_family(f, dict(point))
                for n in spec.n:  # e.g. a similarity matrix has one row per item of every n
                    fam.check_task(Task(n))
            except SymbolicTIError as err:
                raise _fail("parameters", str(err)) from None
            if conj:
                if f != "exchangeable":
                    raise _fail("compute", f"{sorted(conj)[0]} is for the exchangeable family only, got family "
                                           f"{f!r}; use compute = ['critical'] for other families")
                if "alpha" in dict(point):
                    raise _fail("parameters.alpha", "must not be fixed for critical_conjunctivity, which scans "
                                                    "alpha in (0, 1)")
            if "critical" in spec.compute:
                if spec.critical is None:
                    raise _fail("critical", "is required (a table with parameter = 'alpha' ...) when compute "
                                            "lists 'critical'")
                fixed = [r for r, lam in zip(spec.ridge, ridges, strict=True) if lam is None or not lam.free_symbols]
                if spec.critical.parameter in ("lambda", "ridge") and fixed:
                    raise _fail("ridge", f"critical values of the ridge need ridge = ['symbolic'] (the ridge is "
                                         f"the parameter), got {fixed[0]!r}")
                for lam in ridges:
                    try:
                        name, _, lo, hi = check_parameter(
                            make_family(f, {**dict(point), spec.critical.parameter: "symbolic"})
                            if spec.critical.parameter in {p.name for p in fam.parameters} else fam,
                            lam, spec.critical.parameter)
                        parse_interval(spec.critical.interval, name, lo, hi)
                    except SymbolicTIError as err:
                        raise _fail("critical", str(err)) from None
    if conj or "critical" in spec.compute:
        for r, lam in zip(spec.ridge, ridges, strict=True):
            if lam is not None and lam.free_symbols and not (spec.critical and spec.critical.parameter in
                                                             ("lambda", "ridge") and set(spec.compute) == {"critical"}):
                raise _fail("ridge", f"{r!r}: a symbolic ridge is allowed only for compute = ['critical'] with "
                                     "parameter = 'lambda'")
    if spec.mirror:
        other = sorted(set(spec.compute) - set(MIRROR_QUANTITIES))
        if other:
            raise _fail("mirror", f"is allowed only with compute in {', '.join(MIRROR_QUANTITIES)} (invariant under "
                                  f"the reversal of the items), got {other[0]!r}")
    if spec.trials is not None and spec.n:
        try:
            resolve_trials(Task(min(spec.n)), list(spec.trials))
        except SymbolicTIError as err:
            raise _fail("trials", f"{err} (trials must exist at the smallest n = {min(spec.n)})") from None
