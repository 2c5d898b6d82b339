"""The sweep's dataset on disk: one Parquet file per shard, written atomically, and a manifest.

Layout of the output directory::

    _sweep.json                       the spec, its digest, the package version, the shard names
    part-00000-<digest>.parquet       one shard: the rows of its configurations (schema: tasks.COLUMNS)
    ...

Files whose names start with ``_`` or ``.`` are skipped by Arrow's dataset reader, so the whole table is
``pandas.read_parquet(directory)`` (or ``polars.read_parquet(directory + "/*.parquet")``). Every shard is written
to a temporary file and renamed into place (:func:`symbolic_ti.files.write_atomic`), so an interrupted sweep
leaves complete shards only; each carries the spec, its digest and the package version in its Parquet
key-value metadata.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import ExportError
from ..files import write_atomic
from .spec import SpecError, SweepSpec
from .tasks import COLUMNS, Shard

__all__ = ["MANIFEST", "NULLABLE_INTS", "schema", "write_shard", "prepare_output", "completed_shards", "read_dataset"]

#: The manifest file of an output directory.
MANIFEST = "_sweep.json"


def _columns() -> Any:
    """The Arrow schema of :data:`~symbolic_ti.sweep.tasks.COLUMNS`, without metadata."""
    import pyarrow as pa

    types = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64()}
    return pa.schema([pa.field(name, types[kind]) for name, kind in COLUMNS])


def schema(spec: SweepSpec) -> Any:
    """The Arrow schema of a shard, with the spec, its digest and the package version as metadata."""
    meta = {"symbolic_ti.version": __version__, "symbolic_ti.spec": json.dumps(spec.to_dict(), sort_keys=True),
            "symbolic_ti.spec_digest": spec.digest()}
    return _columns().with_metadata(meta)


def write_shard(directory: Path, spec: SweepSpec, shard: Shard, rows: list[dict[str, Any]]) -> Path:
    """Write the rows of ``shard`` as ``directory / shard.name``, atomically.

    The number of rows that record an error goes in the file's metadata (``symbolic_ti.errors``), so that
    :func:`completed_shards` can tell shards to compute again without reading them.

    Raises
    ------
    ExportError
        If the file cannot be written.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    sch = schema(spec)
    errors = sum(1 for r in rows if r.get("error"))
    sch = sch.with_metadata({**sch.metadata, b"symbolic_ti.shard": str(shard.index).encode(),
                             b"symbolic_ti.errors": str(errors).encode()})
    table = pa.Table.from_pylist(rows, schema=sch)
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    path = directory / shard.name
    write_atomic(path, buffer.getvalue())
    return path


def prepare_output(directory: str | Path, spec: SweepSpec, shards: list[Shard], resume: bool) -> Path:
    """Check the output directory before any work and write its manifest.

    A new sweep needs a directory that does not exist or is empty; ``resume`` needs the manifest of the same
    spec (same digest).

    Raises
    ------
    SpecError
        If ``resume`` and the directory holds another spec's sweep (or no sweep), or not ``resume`` and the
        directory is not empty.
    ExportError
        If the directory cannot be created or written.
    """
    out = Path(directory)
    manifest = out / MANIFEST
    if out.exists() and not out.is_dir():
        raise ExportError(f"cannot write the sweep to {str(out)!r}: it is a file, not a directory")
    if resume:
        if not manifest.is_file():
            raise SpecError(f"--resume: {str(out)!r} holds no sweep ({MANIFEST} is missing); run without --resume")
        try:
            old = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise SpecError(f"--resume: cannot read {str(manifest)!r}: {err}") from None
        if old.get("spec_digest") != spec.digest():
            raise SpecError(f"--resume: {str(out)!r} holds a sweep of another spec (digest "
                            f"{str(old.get('spec_digest'))[:12]}, this spec {spec.digest()[:12]}); use the same "
                            "spec or another --output")
    elif out.is_dir() and any(out.iterdir()):
        raise SpecError(f"output directory {str(out)!r} is not empty; use --resume to continue a sweep there or "
                        "choose another --output")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ExportError(f"cannot create the output directory {str(out)!r}: {err.strerror or err}") from None
    record = {"spec": spec.to_dict(), "spec_digest": spec.digest(), "version": __version__,
              "shards": [s.name for s in shards], "configurations": sum(len(s.configs) for s in shards)}
    write_atomic(manifest, json.dumps(record, indent=1) + "\n")
    return out


def completed_shards(directory: Path, spec: SweepSpec, shards: list[Shard]) -> set[str]:
    """Names of the shards already on disk with no error row (a resumed sweep skips them).

    A file that cannot be read as Parquet (which atomic writes rule out, but a disk can still fail) or carries
    another spec's digest does not count as done: it is computed and written again.
    """
    import pyarrow.parquet as pq

    done = set()
    digest = spec.digest().encode()
    for shard in shards:
        path = directory / shard.name
        if not path.is_file():
            continue
        try:
            meta = pq.read_schema(path).metadata or {}
        except Exception:  # noqa: BLE001  (an unreadable file is simply not done)
            continue
        if meta.get(b"symbolic_ti.errors") == b"0" and meta.get(b"symbolic_ti.spec_digest") == digest:
            done.add(shard.name)
    return done


#: Integer columns that are missing in some rows (read as pandas' nullable ``Int64``, not as float).
NULLABLE_INTS = ("n_exceptions", "L", "W", "span", "i", "j")


def read_dataset(directory: str | Path) -> Any:
    """The whole table of a sweep as a pandas DataFrame, sorted by configuration, ridge, quantity and trial.

    Reads the shards the manifest (``_sweep.json``) names, and no other file; without a manifest, every
    ``part-*.parquet`` file. The integer columns that some rows lack (:data:`NULLABLE_INTS`) are pandas'
    nullable ``Int64``. Otherwise the same table as ``pandas.read_parquet(directory)`` up to the row order
    (shards finish in any order).

    Parameters
    ----------
    directory : path
        The output directory of a sweep.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`symbolic_ti.sweep.tasks.COLUMNS`; no rows if no shard is written yet.

    Raises
    ------
    ExportError
        If the directory holds no sweep (neither a manifest nor a shard) or the manifest cannot be read.

    Warns
    -----
    UserWarning
        If shards of the manifest are missing (an interrupted sweep): how many, and that ``--resume``
        computes them.
    """
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(directory)
    manifest = out / MANIFEST
    if manifest.is_file():
        try:
            names = list(json.loads(manifest.read_text(encoding="utf-8"))["shards"])
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ExportError(f"cannot read the sweep manifest {str(manifest)!r}: {err}") from None
        present = [n for n in names if (out / n).is_file()]
        if len(present) < len(names):
            warnings.warn(f"{len(names) - len(present)} of the {len(names)} shards of the sweep in {str(out)!r} are "
                          f"missing (an interrupted sweep); the table has the others; 'symbolic-ti sweep SPEC -o "
                          f"{out} --resume' computes them", UserWarning, stacklevel=2)
    else:
        present = sorted(p.name for p in out.glob("part-*.parquet")) if out.is_dir() else []
        if not present:
            raise ExportError(f"{str(out)!r} holds no sweep: no {MANIFEST} and no part-*.parquet shard")
    tables = [pq.read_table(out / n).replace_schema_metadata(None) for n in present]
    table = pa.concat_tables(tables) if tables else _columns().empty_table()
    df = table.to_pandas()
    for col in NULLABLE_INTS:
        df[col] = df[col].astype(pd.Int64Dtype())
    keys = ["config", "ridge", "quantity", "i", "j", "value_float"]
    return df.sort_values(keys, kind="stable", na_position="first").reset_index(drop=True)
