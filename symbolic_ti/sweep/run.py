"""Running a sweep: check the output, skip finished shards, run the rest on an engine, write each shard as it
completes, report progress and a summary.

The calling process writes every shard (atomically) as its rows arrive, so Ctrl-C, a killed process or a lost
worker leaves complete shards only, and ``resume=True`` computes only the shards that are missing (or that
recorded an error). A configuration that raises is recorded as an ``error`` row and the sweep goes on.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..budgets import DEFAULT, BudgetLike, Estimate, check_budget, resolve_budget
from ..errors import ParameterError, SymbolicTIError
from ..formatting import rounded
from ..progress import Progress
from .dataset import MANIFEST, completed_shards, prepare_output, write_shard
from .engines import Outcome, default_jobs, run_dask, run_local
from .spec import SweepSpec
from .tasks import Shard, estimate_seconds, make_shards

__all__ = ["SweepSummary", "DryRun", "run_sweep", "dry_run", "ENGINES"]

#: Engines of :func:`run_sweep`.
ENGINES = ("local", "dask")


@dataclass(frozen=True)
class DryRun:
    """What a sweep would do: configurations, shards and the estimated cost (:func:`dry_run`)."""

    name: str
    configurations: int
    shards: int
    estimated_seconds: float
    by_n: tuple[tuple[int, int, float], ...]
    mirrored: int = 0
    #: Work other than the exchangeable critical conjunctivity (other families or quantities), whose estimate
    #: is not measured.
    rough: tuple[str, ...] = ()

    def text(self) -> str:
        """A short report: totals and the estimated cost per n (largest first)."""
        lines = [f"sweep {self.name!r}: {self.configurations} configurations{_mirrored(self.mirrored)} in "
                 f"{self.shards} shards, estimated {rounded(self.estimated_seconds, '.4g')} s of one core "
                 f"({rounded(self.estimated_seconds / 3600, '.3g')} h)"]
        if self.rough:
            lines.append(f"  the estimate is measured for the critical conjunctivity of the exchangeable family; "
                         f"other work ({', '.join(self.rough)}) is a rough order of magnitude")
        lines += [f"  n = {n}: {c} configurations, ~{rounded(s, '.3g')} s" for n, c, s in sorted(self.by_n, key=lambda r: -r[2])[:8]]
        return "\n".join(lines)


def _mirrored(count: int) -> str:
    return f" (and {count} written from them by the reversal symmetry)" if count else ""


@dataclass(frozen=True)
class SweepSummary:
    """The outcome of :func:`run_sweep`.

    Attributes
    ----------
    output : Path
    shards, skipped : int
        Shards of the spec, and those already complete on disk (resume).
    written : int
        Shards written by this run.
    configurations : int
        Configurations computed by this run.
    failed : tuple of (configuration key, error)
        Configurations that raised (recorded as ``error`` rows).
    lost : tuple of (shard name, error)
        Shards not written: their worker was lost (run again with ``resume=True``).
    seconds : float
    mirrored : int
        Configurations written by this run from computed ones by the reversal symmetry (``mirror = true``).
    """

    output: Path
    shards: int
    skipped: int
    written: int
    configurations: int
    failed: tuple[tuple[str, str], ...] = ()
    lost: tuple[tuple[str, str], ...] = ()
    seconds: float = field(default=0.0, compare=False)
    mirrored: int = 0

    @property
    def ok(self) -> bool:
        """Whether every configuration was computed without error."""
        return not self.failed and not self.lost

    def text(self) -> str:
        """The end-of-sweep summary (also the CLI's output)."""
        rate = self.configurations / self.seconds if self.seconds > 0 else 0.0
        lines = [f"sweep: {self.written} shards written, {self.skipped} already done, of {self.shards}; "
                 f"{self.configurations} configurations{_mirrored(self.mirrored)} in {rounded(self.seconds, '.1f')} s "
                 f"({rounded(rate, '.3g')}/s); dataset "
                 f"{self.output} (pandas.read_parquet)"]
        if self.failed:
            lines.append(f"{len(self.failed)} configurations failed (rows with quantity 'error'), e.g.:")
            lines += [f"  {key}: {err}" for key, err in self.failed[:10]]
        if self.lost:
            lines.append(f"{len(self.lost)} shards lost (not written; rerun with --resume), e.g.:")
            lines += [f"  {name}: {err}" for name, err in self.lost[:5]]
        return "\n".join(lines)


def dry_run(spec: SweepSpec) -> DryRun:
    """Count the configurations and shards of ``spec`` and estimate their cost, without computing anything."""
    shards = make_shards(spec)
    by_n: dict[int, list[float]] = {n: [] for n in spec.n}
    for c in (c for s in shards for c in s.configs):  # the shards hold every configuration once
        by_n.setdefault(c.n, []).append(estimate_seconds(c, spec))  # a paradigm's n: from its lists
    rough = tuple(f"family {f}" for f in spec.family if f != "exchangeable") + tuple(
        q for q in spec.compute if q not in ("critical_conjunctivity", "first_failing"))
    return DryRun(spec.name, sum(len(s.configs) for s in shards), len(shards), sum(s.cost for s in shards),
                  tuple((n, len(v), sum(v)) for n, v in sorted(by_n.items()) if v),
                  sum(c.mirror is not None for s in shards for c in s.configs), rough)


def _outcomes(spec: SweepSpec, todo: list[Shard], engine: str, jobs: int | None, workers: int | None,
              scheduler: str | None, processes: bool) -> Iterator[Outcome]:
    if engine == "local":
        return run_local(spec, todo, jobs)
    return run_dask(spec, todo, workers=workers, scheduler=scheduler, processes=processes)


def run_sweep(spec: SweepSpec, output: str | Path | None = None, *, engine: str = "local", jobs: int | None = None,
              workers: int | None = None, scheduler: str | None = None, resume: bool = False,
              processes: bool = True, budget: BudgetLike = DEFAULT) -> SweepSummary:
    """Run ``spec`` and write its dataset.

    Parameters
    ----------
    spec : SweepSpec
        A validated spec (:func:`~symbolic_ti.sweep.spec.load_spec`).
    output : path, optional
        Output directory (default ``spec.output``).
    engine : {"local", "dask"}
        ``local``: a process pool of ``jobs`` processes (default every core; 0: a plain loop in this process).
        ``dask``: :func:`~symbolic_ti.sweep.engines.run_dask` with ``workers`` or ``scheduler``.
    resume : bool
        Continue a sweep in ``output``: same spec (checked by digest), complete shards skipped.
    processes : bool
        Dask LocalCluster workers as processes (default) or threads.
    budget : DEFAULT, None or float
        Seconds of CPU above which the sweep is refused before any shard is started: the sum of the estimated
        costs of the shards to run (:func:`~symbolic_ti.sweep.tasks.estimate_seconds`, as ``--dry-run`` prints
        it; :mod:`symbolic_ti.budgets`). ``None`` runs anyway; default
        :data:`symbolic_ti.budgets.DEFAULT_SECONDS`.

    Returns
    -------
    SweepSummary

    Raises
    ------
    SpecError
        Before any work: no output directory, a non-empty one without ``resume``, or another spec's sweep.
    ParameterError
        For an unknown engine or an unreachable scheduler.
    BudgetError
        Before any work (a new sweep: before its directory is made), if the estimate is above ``budget``.
    KeyboardInterrupt
        Passed on after the pool is shut down; the shards written so far are complete.
    """
    if engine not in ENGINES:
        raise ParameterError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    target = output if output is not None else spec.output
    if target is None:
        raise ParameterError("output: the spec has no output directory; give one (--output DIR)")
    resolve_budget(budget)
    start = time.perf_counter()
    shards = make_shards(spec)
    if not resume:  # refused before the directory is made
        check_budget("sweep", _estimate(shards), budget)
    existed = Path(target).exists()
    out = prepare_output(target, spec, shards, resume)
    done = completed_shards(out, spec, shards) if resume else set()
    todo = [s for s in shards if s.name not in done]
    if resume:
        check_budget("sweep", _estimate(todo), budget)
    total = sum(len(s.configs) for s in todo)
    failed: list[tuple[str, str]] = []
    lost: list[tuple[str, str]] = []
    written = computed = mirrored = 0
    where = (f"workers={jobs if jobs is not None else default_jobs()}" if engine == "local"
             else (f"scheduler={scheduler}" if scheduler else f"workers={workers or default_jobs()}"))
    with Progress(label=f"symbolic-ti sweep ({engine}, {where})") as progress:
        progress.update("configurations", 0, total)
        outcomes = _outcomes(spec, todo, engine, jobs, workers, scheduler, processes)
        try:
            for shard, result in outcomes:
                if isinstance(result, BaseException):
                    lost.append((shard.name, f"{type(result).__name__}: {' '.join(str(result).split())}"))
                    continue
                write_shard(out, spec, shard, result)
                written += 1
                computed += len(shard.configs)
                mirrored += sum(c.mirror is not None for c in shard.configs)
                failed += [(r["config"], r["error"]) for r in result if r.get("error") and not r.get("mirror_of")]
                elapsed = time.perf_counter() - start
                rate = computed / elapsed if elapsed > 0 else 0.0
                eta = (total - computed) / rate if rate > 0 else 0.0
                progress.update(f"{rounded(rate, '.3g')} configurations/s, ETA {rounded(eta, '.0f')} s", computed, total)
        except SymbolicTIError:  # the engine did not start (an unreachable scheduler): leave no sweep behind
            if not resume and written == 0:
                _remove_new_output(out, existed)
            raise
        finally:  # Ctrl-C here, not in the engine: stop its workers now, not when the traceback is freed
            close = getattr(outcomes, "close", None)
            if close is not None:
                close()
    return SweepSummary(out, len(shards), len(done), written, computed, tuple(failed), tuple(lost),
                        time.perf_counter() - start, mirrored)


def _estimate(shards: list[Shard]) -> Estimate:
    """The cost of running ``shards``: the sum of their configurations' estimates (the dry run's)."""
    configs = sum(len(s.configs) for s in shards)
    return Estimate(sum(s.cost for s in shards), f"{configs:,} configuration{'s' if configs != 1 else ''} in "
                                                 f"{len(shards):,} shard{'s' if len(shards) != 1 else ''}, as "
                                                 f"--dry-run estimates them")


def _remove_new_output(out: Path, existed: bool) -> None:
    """Remove the manifest this run wrote (and the directory if it created it) when it wrote no shard."""
    (out / MANIFEST).unlink(missing_ok=True)
    if not existed:
        with contextlib.suppress(OSError):
            out.rmdir()
