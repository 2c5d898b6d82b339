"""``symbolic-ti sweep``: run a sweep spec on a local process pool (default) or on Dask, into a Parquet dataset.

::

    symbolic-ti sweep SPEC [--output DIR] [--jobs K | --workers N | --scheduler ADDRESS] [--resume] [--quiet]
    symbolic-ti sweep SPEC --dry-run

SPEC is a TOML file (:mod:`symbolic_ti.sweep.spec`, docs/atlas.md). By default every core of this machine runs
a local process pool (``--jobs K`` sets its size, 0 a plain loop); ``--workers N`` starts a Dask LocalCluster
of N workers, ``--scheduler ADDRESS`` uses a running Dask cluster. ``--dry-run`` counts the configurations and
shards and estimates the cost without computing. The dataset is read with ``pandas.read_parquet(DIR)``.

Exit code 3 when the sweep finished but some configuration raised (recorded in the dataset's ``error`` column)
or some shard was lost with its worker (rerun with ``--resume``); 2 for an invalid spec or option, before any
work; 130 on Ctrl-C, 143 on SIGTERM and 129 on SIGHUP (the workers are stopped first, and the shards written so
far are complete: ``--resume`` computes the rest).
"""

from __future__ import annotations

import argparse

from .. import exit_codes
from .options import CliContext, Excludes, option_type, parse_int_at_least, parse_path, parse_positive_int

__all__ = ["register", "FAILED_EXIT"]

#: Exit code of a sweep that finished with failed configurations or lost shards
#: (:data:`symbolic_ti.exit_codes.SWEEP_FAILED`).
FAILED_EXIT = exit_codes.SWEEP_FAILED


def _jobs(text: str) -> int:
    return parse_int_at_least(text, 0, " (0: no pool)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``sweep`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    s = sub.add_parser("sweep", parents=[context.debug], help="run a sweep spec into a Parquet dataset",
                       description="Run every configuration of a sweep spec (TOML) on a local process pool "
                                   "(default: every core) or on Dask, writing one Parquet shard at a time; see "
                                   "docs/atlas.md.",
                       epilog="Exit codes: 0 done, 2 invalid spec or option, 3 finished with failed configurations "
                              "or lost shards (rerun with --resume), 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP (the "
                              "workers are stopped; the shards written are complete).")
    s.add_argument("spec", metavar="SPEC", type=option_type("SPEC", parse_path), help="the sweep spec, a TOML file")
    s.add_argument("--output", "-o", dest="directory", metavar="DIR", default=None,
                   type=option_type("--output", parse_path),
                   help="dataset directory (default: the spec's output)")
    engine = s.add_mutually_exclusive_group()
    engine.add_argument("--jobs", "-j", type=option_type("--jobs", _jobs), metavar="K", default=None,
                        help="local process pool of K processes (default every core; 0: no pool)")
    engine.add_argument("--workers", type=option_type("--workers", parse_positive_int), metavar="N", default=None,
                        help="run on a Dask LocalCluster of N worker processes")
    engine.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="run on the Dask cluster of this scheduler, e.g. tcp://10.0.0.1:8786")
    s.add_argument("--resume", action="store_true",
                   help="continue the sweep in DIR (same spec, checked): skip the shards already written")
    s.add_argument("--dry-run", action="store_true", help="count configurations and shards, estimate the cost")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    context.budget_options(s)
    context.add_rules(s, RULES)
    s.set_defaults(run=_run, output=None)


_DRY = ": --dry-run counts the configurations and estimates the cost of the whole spec, without running it"
#: Options that have no effect in some combinations (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES = tuple(Excludes(option, "--dry-run", why=_DRY) for option in
              ("--resume", "--output", "--jobs", "--workers", "--scheduler", "--budget", "--no-budget"))


def _run(args: argparse.Namespace) -> str:
    from ..progress import quiet
    from ..sweep import dry_run, load_spec, run_sweep

    spec = load_spec(args.spec)
    if args.dry_run:
        return dry_run(spec).text()
    from ..budgets import override_hint
    from .options import BUDGET_HINT, budget_of

    engine = "dask" if (args.workers is not None or args.scheduler is not None) else "local"
    with quiet(args.quiet), override_hint(BUDGET_HINT):
        summary = run_sweep(spec, args.directory, engine=engine, jobs=args.jobs, workers=args.workers,
                            scheduler=args.scheduler, resume=args.resume, budget=budget_of(args))
    if not summary.ok:
        args.exit_code = FAILED_EXIT
    return summary.text()
