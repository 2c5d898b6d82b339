"""Sweeps: many independent exact computations over the axes of a spec, on a local pool or on Dask.

- :mod:`.spec`: the specification (TOML file or dataclasses), validated before any work;
- :mod:`.tasks`: configurations, cost estimates, shards and the task function :func:`run_shard`;
- :mod:`.engines`: the local process pool and Dask distributed;
- :mod:`.dataset`: one Parquet file per shard, written atomically, and the manifest;
- :mod:`.run`: :func:`run_sweep` and :func:`dry_run`.

See docs/atlas.md. Needs the ``sweep`` extra (pyarrow; dask and distributed for the Dask engine).
"""

from __future__ import annotations

from .dataset import read_dataset
from .run import DryRun, SweepSummary, dry_run, run_sweep
from .spec import CriticalSpec, ExceptionAxis, SpecError, SweepSpec, load_spec, spec_from_dict
from .tasks import Configuration, Shard, configurations, make_shards, run_shard

__all__ = ["SweepSpec", "ExceptionAxis", "CriticalSpec", "SpecError", "load_spec", "spec_from_dict",
           "Configuration", "Shard", "configurations", "make_shards", "run_shard",
           "run_sweep", "dry_run", "DryRun", "SweepSummary", "read_dataset"]
