"""The work of a sweep: configurations, their estimated cost, shards, and the task function that computes rows.

A **configuration** is one (family, parameter values, n, exception set); all ridges of the spec run in the same
task, so that critical conjunctivity computes its integer polynomials once for every ridge. Configurations of
one ``n`` are grouped into **shards** of about ``spec.shard_seconds`` of estimated work; a shard is the unit of
scheduling, of output (one Parquet file) and of resuming. :func:`run_shard` is the one task function that both
engines run; it calls only the public API (:func:`symbolic_ti.derive`, :func:`symbolic_ti.critical`,
:func:`symbolic_ti.analysis.conjunctivity.critical_conjunctivity`).
"""

from __future__ import annotations

import hashlib
import math
import time
import traceback
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..analysis.conjunctivity import critical_conjunctivity, critical_gammas
from ..api import critical, derive
from ..arguments import parse_ridge
from ..task import Design, Task
from .spec import SweepSpec
from .task_axes import paradigm_tasks

__all__ = ["Configuration", "Shard", "COLUMNS", "configurations", "estimate_seconds", "make_shards", "run_shard",
           "ridge_label", "reversed_exception"]

#: The columns of every row, with their Arrow types (see :mod:`symbolic_ti.sweep.dataset`).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("config", "string"), ("family", "string"), ("parameters", "string"), ("n", "int64"), ("exceptions", "string"),
    ("n_exceptions", "int64"), ("L", "int64"), ("W", "int64"), ("span", "int64"), ("ridge", "string"),
    ("ridge_float", "float64"), ("quantity", "string"), ("i", "int64"), ("j", "int64"), ("category", "string"),
    ("value", "string"), ("value_float", "float64"), ("detail", "string"), ("error", "string"),
    ("seconds", "float64"), ("mirror_of", "string"),
)


@dataclass(frozen=True)
class Configuration:
    """One point of the sweep's axes (all ridges of the spec are computed for it)."""

    family: str
    parameters: tuple[tuple[str, str], ...]
    n: int
    exceptions: tuple[str, ...]
    #: With ``mirror = true``: the exception set of the configuration whose rows are written from this one's by
    #: the reversal of the items (``None`` when there is none, or it is this one).
    mirror: tuple[str, ...] | None = None
    #: The paradigm (:mod:`symbolic_ti.sweep.task_axes`) and its parameters; ``exceptions`` are then the task's.
    paradigm: str = "ti"
    design: tuple[tuple[str, Any], ...] = ()

    @property
    def key(self) -> str:
        """A readable unique key, e.g. ``exchangeable|kappa_d=0|n=9|6>4``; another paradigm than ``ti`` is named
        before ``n``: ``exchangeable||list-linking (lists=5,5; links=5>6)|n=10|``."""
        params = ",".join(f"{k}={v}" for k, v in self.parameters)
        task = "" if self.paradigm == "ti" else f"{Design(self.paradigm, self.design).describe()}|"
        return f"{self.family}|{params}|{task}n={self.n}|{';'.join(self.exceptions)}"

    def task(self) -> Task:
        """The configuration's task: ``Task(n, exceptions)``, or its paradigm's."""
        if self.paradigm == "ti":
            return Task(self.n, list(self.exceptions))
        return Task.paradigm(self.paradigm, **{k: list(v) if k == "links" else v for k, v in self.design})


@dataclass(frozen=True)
class Shard:
    """Configurations computed by one task and written to one file ``name``."""

    index: int
    configs: tuple[Configuration, ...]
    cost: float

    @property
    def name(self) -> str:
        """File name ``part-<index>-<digest of the configuration keys>.parquet``."""
        digest = hashlib.sha256("\n".join(c.key for c in self.configs).encode()).hexdigest()[:10]
        return f"part-{self.index:05d}-{digest}.parquet"


def reversed_exception(exception: str, n: int) -> str:
    """The exception ``W>L`` after renumbering the items ``i -> n + 1 - i``: ``(n+1-L)>(n+1-W)`` (same span)."""
    W, L = (int(x) for x in exception.split(">"))
    return f"{n + 1 - L}>{n + 1 - W}"


def configurations(spec: SweepSpec) -> list[Configuration]:
    """Every configuration of ``spec`` to compute, without repeats, in axis order (family, parameters, n,
    exceptions).

    With ``spec.mirror``, of two configurations related by the reversal of the items only the first in axis
    order is returned, with the other's exception set in :attr:`Configuration.mirror`.
    """
    out: dict[str, Configuration] = {}
    for family in spec.family:
        for point in spec.parameter_points():
            for paradigm in spec.paradigm:
                if paradigm != "ti":  # (paradigm axes: sweep/task_axes.py)
                    for n in (spec.n if paradigm != "list-linking" else (None,)):
                        for design, task in paradigm_tasks(spec, paradigm, n):
                            c = Configuration(family, point, task.n, tuple(map(str, task.exceptions)), None,
                                              paradigm, design)
                            out.setdefault(c.key, c)
                    continue
                for n in spec.n:
                    for axis in spec.exceptions:
                        for excs in axis.exception_sets(n):
                            c = Configuration(family, point, n, excs)
                            out.setdefault(c.key, c)
    if not spec.mirror:
        return list(out.values())
    by_set = {(c.family, c.parameters, c.n, frozenset(c.exceptions)): c for c in out.values()}
    kept: list[Configuration] = []
    written_from_other: set[str] = set()
    for c in out.values():
        if c.key in written_from_other:
            continue
        m = by_set.get((c.family, c.parameters, c.n, frozenset(reversed_exception(e, c.n) for e in c.exceptions)))
        if m is not None and m.key != c.key:
            written_from_other.add(m.key)
            c = Configuration(c.family, c.parameters, c.n, c.exceptions, m.exceptions)
        kept.append(c)
    return kept


#: The fixed cost of one configuration in a sweep, beside its critical conjunctivity or derive: real sweeps of the
#: atlas spec's single exceptions (spans 2..6, four ridges, first-failing rows, mirror) at n = 9, 21, 41 and 61 cost
#: 0.013, 0.032, 0.079 and 0.276 s per configuration in reference seconds (2026-12-02; the measured CPU divided by
#: 2.64, the factor by which the reference workload of the 0.231 s fit ran slower in the same session at load 5 to
#: 9): 0.013 to 0.045 s above the power law; 0.03 s kept (it was 0.002 s, which read 1.2 to 6 times low).
CONFIGURATION_SECONDS = 0.03


def estimate_seconds(config: Configuration, spec: SweepSpec) -> float:
    """Estimated seconds of one configuration on one core.

    A fixed :data:`CONFIGURATION_SECONDS` per configuration (its rows, the first-failing trials and the mirrored
    configuration, written to the shard; measured in real sweeps, docs/performance.md#sweeps-and-the-atlas), plus
    the exchangeable critical-conjunctivity cost (``critical_gammas`` once plus four ridges), the fit
    ``0.231 s (n / 61)^4.07`` to the CPU times of ``benchmarks/bench_conjunctivity.py --atlas-sample 61,81,101``
    on the development machine (means over spans 2..6 and three positions: 0.231, 0.725, 1.796 s; see
    docs/atlas.md). A derive is taken as ``0.94 s (n / 61)^3.2`` per ridge (exchangeable), or 30 times that
    with one more power of n for a dense family (an order of magnitude, used only to order and group the work).
    """
    scale = config.n / 61
    per = 0.0
    if {"critical_conjunctivity", "first_failing"} & set(spec.compute):
        per += 0.231 * scale ** 4.07
    if config.family != "exchangeable" or {"predictions", "margins", "critical"} & set(spec.compute):
        per += (30 * scale ** 4 if config.family != "exchangeable" else 0.94 * scale ** 3.2) * len(spec.ridge)
    return CONFIGURATION_SECONDS + per * (1 + 0.5 * max(0, len(config.exceptions) - 1))


def make_shards(spec: SweepSpec) -> list[Shard]:
    """Group the configurations into shards, most expensive first.

    Configurations of one ``n`` and family are grouped in order until their estimated cost reaches
    ``spec.shard_seconds``; the shards are then sorted by estimated cost, largest first (so that the long ones
    start first and the pool is not left waiting on one at the end), and numbered in that order. Depends on the
    spec only, not on the engine or the number of workers, so a sweep can resume on another engine.
    """
    groups: list[tuple[list[Configuration], float]] = []
    current: list[Configuration] = []
    cost = 0.0
    key: tuple[str, int] | None = None
    for c in configurations(spec):
        if current and ((c.family, c.n) != key or cost >= spec.shard_seconds):
            groups.append((current, cost))
            current, cost = [], 0.0
        current.append(c)
        cost += estimate_seconds(c, spec)
        key = (c.family, c.n)
    if current:
        groups.append((current, cost))
    ordered = sorted(range(len(groups)), key=lambda k: (-groups[k][1], k))
    return [Shard(i, tuple(groups[k][0]), groups[k][1]) for i, k in enumerate(ordered)]


# ----------------------------------------------------------------------------------------- computing
def ridge_label(ridge: sp.Expr | None) -> str:
    """``"ridgeless"``, ``"symbolic"`` or the exact ridge as text."""
    if ridge is None:
        return "ridgeless"
    return "symbolic" if ridge.free_symbols else str(ridge)


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _base(config: Configuration, ridge: sp.Expr | None) -> dict[str, Any]:
    first = config.exceptions[0] if config.exceptions else None
    W, L = (int(x) for x in first.split(">")) if first else (None, None)
    return {"config": config.key, "family": config.family,
            "parameters": ",".join(f"{k}={v}" for k, v in config.parameters), "n": config.n,
            "exceptions": ";".join(config.exceptions), "n_exceptions": len(config.exceptions), "L": L, "W": W,
            "span": None if W is None or L is None else W - L, "ridge": ridge_label(ridge),
            "ridge_float": 0.0 if ridge is None else _float(ridge)}


def _row(base: dict[str, Any], quantity: str, trial: tuple[int, int] | None = None, value: Any = None,
         category: str | None = None, detail: str | None = None, value_float: float | None = None) -> dict[str, Any]:
    """One row; ``value`` exact (its text is stored, and its float unless ``value_float`` is given)."""
    if value_float is None:
        value_float = math.nan if value is None else _float(value)
    return {**base, "quantity": quantity, "i": None if trial is None else trial[0],
            "j": None if trial is None else trial[1], "category": category,
            "value": None if value is None else str(value), "value_float": value_float,
            "detail": detail, "error": None, "mirror_of": None}


def _conjunctivity_rows(config: Configuration, spec: SweepSpec, ridges: list[sp.Expr | None]) -> list[dict]:
    task = Task(config.n, list(config.exceptions))
    gam = critical_gammas(task)
    kappa_d = dict(config.parameters).get("kappa_d", "0")
    rows = []
    for lam in ridges:
        rep = critical_conjunctivity(task, "ridgeless" if lam is None else lam, kappa_d, gammas=gam)
        base = _base(config, lam)
        group = rep.groups[0] if rep.groups else None
        if "critical_conjunctivity" in spec.compute:
            if group is None:
                rows.append(_row(base, "alpha_first", detail="never"))
            elif group.at_start:
                rows.append(_row(base, "alpha_first", value=sp.Integer(0), detail="at_start"))
            else:
                rows.append(_row(base, "alpha_first", value=group.alpha, value_float=group.alpha_float,
                                 detail="crossing"))
        if "first_failing" in spec.compute and group is not None:
            for t in group.trials:
                if t[0] < t[1]:  # the reverse trial (j, i) fails with (i, j): f(j, i) = -f(i, j)
                    rows.append(_row(base, "first_failing", t, None, task.category(t),
                                     "at_start" if group.at_start else "crossing", value_float=group.alpha_float))
    return rows


def _derive_rows(config: Configuration, spec: SweepSpec, ridges: list[sp.Expr | None]) -> list[dict]:
    rows = []
    params = dict(config.parameters)
    for lam in ridges:
        base = _base(config, lam)
        ridge = "ridgeless" if lam is None else lam
        if {"predictions", "margins"} & set(spec.compute):
            res = derive(config.task(), family=config.family, parameters=params, ridge=ridge)
            trials = list(spec.trials) if spec.trials is not None else [
                t for t in res.task.trials if res.task.ground_truth(t) is not None or t in res.task.training_targets]
            for t in trials:
                if "predictions" in spec.compute:
                    rows.append(_row(base, "prediction", t, res.f(*t), res.task.category(t)))
                m = res.margin(*t)
                if "margins" in spec.compute and m is not None:
                    rows.append(_row(base, "margin", t, m, res.task.category(t)))
        if "critical" in spec.compute and spec.critical is not None:
            rep = critical(config.task(), parameter=spec.critical.parameter,
                           family=config.family, parameters=params, ridge=ridge,
                           interval=spec.critical.interval, trials=list(spec.trials) if spec.trials else None)
            quantity = f"critical:{spec.critical.parameter}"
            for tc in rep.trials:
                if not tc.crossings:
                    rows.append(_row(base, quantity, tc.trial, None, tc.category, "no crossing"))
                for c in tc.crossings:
                    rows.append(_row(base, quantity, tc.trial, c.value, tc.category, c.direction))
    return rows


def _one(config: Configuration, spec: SweepSpec, ridges: list[sp.Expr | None]) -> list[dict]:
    start = time.perf_counter()
    try:
        rows = []
        if {"critical_conjunctivity", "first_failing"} & set(spec.compute):
            rows += _conjunctivity_rows(config, spec, ridges)
        rows += _derive_rows(config, spec, ridges)
    except Exception as err:  # recorded in the dataset; the sweep goes on
        last = traceback.extract_tb(err.__traceback__)[-1]
        message = f"{type(err).__name__}: {' '.join(str(err).split())} (at {last.name}, line {last.lineno})"
        rows = [{**_base(config, None), "ridge": None, "ridge_float": math.nan, "quantity": "error", "i": None,
                 "j": None, "category": None, "value": None, "value_float": math.nan, "detail": None,
                 "error": message, "mirror_of": None}]
    seconds = time.perf_counter() - start
    for r in rows:
        r["seconds"] = seconds
    if config.mirror is not None:
        rows += _mirrored_rows(config, rows)
    return rows


def _mirrored_rows(config: Configuration, rows: list[dict]) -> list[dict]:
    """The rows of the reversed configuration, from ``rows`` of ``config``.

    Renumbering the items ``i -> n + 1 - i`` maps the task with exceptions ``W>L`` to the one with
    ``(n+1-L)>(n+1-W)`` and the trial ``(i, j)`` to ``(n+1-j, n+1-i)``; the exchangeable Gram matrix is the same,
    so every margin, ``alpha*_first`` and the first failing trials map over (checked against a direct
    computation in tests/test_sweep.py; docs/atlas.md, "Reversal symmetry"). Categories are those of the
    reversed task.
    """
    start = time.perf_counter()
    assert config.mirror is not None
    other = Configuration(config.family, config.parameters, config.n, config.mirror)
    n = config.n
    task = Task(n, list(other.exceptions))
    base = _base(other, None)
    keys = {k: base[k] for k in ("config", "exceptions", "n_exceptions", "L", "W", "span")}
    out = []
    for r in rows:
        new = {**r, **keys, "mirror_of": config.key}
        if r["i"] is not None:
            new["i"], new["j"] = n + 1 - r["j"], n + 1 - r["i"]
            new["category"] = task.category((new["i"], new["j"]))
        out.append(new)
    seconds = time.perf_counter() - start
    for r in out:
        r["seconds"] = seconds
    return out


def run_shard(spec: SweepSpec, shard: Shard) -> list[dict[str, Any]]:
    """Compute every row of ``shard``: the task function of both engines (runs in a worker).

    Parameters
    ----------
    spec : SweepSpec
    shard : Shard

    Returns
    -------
    list of dict
        Rows with the keys of :data:`COLUMNS`: one per (configuration, ridge, quantity) for ``alpha_first``
        (``value`` the exact ``alpha*_first`` as text, ``"0"`` when a test trial is wrong as ``alpha -> 0+``,
        missing with ``detail = "never"`` when no test trial ever fails) and one per (configuration, ridge,
        trial) for ``first_failing`` (pairs ``i < j``), ``prediction``, ``margin`` and ``critical:<name>``
        (one per crossing; ``detail`` its direction). A configuration that raises gives one row with
        ``quantity = "error"`` and the message in ``error``; the others are computed. With ``spec.mirror``,
        each configuration's rows are followed by those of its reversed configuration (``mirror_of`` set).
    """
    ridges = [parse_ridge(r) for r in spec.ridge]
    rows: list[dict[str, Any]] = []
    for config in shard.configs:
        rows += _one(config, spec, ridges)
    return rows
