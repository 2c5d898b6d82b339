"""Table formats of behavioural data (issue 13): CSV, CSV.gz and Parquet read alike, and the long format of the
language-model result tables (one row per seed and trial) pools into the per-trial counts of the summary
table. The expected values are built here from the rows written."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from symbolic_ti import Task, cli
from symbolic_ti.behaviour.data import load_behaviour
from symbolic_ti.errors import DataError

T4 = Task(4)


def long_rows(seeds=7):
    """One row per seed and trial: seed, item_a, item_b, correct (0/1), prob_yes, is_train (bool)."""
    rng = np.random.default_rng(8)
    rows = []
    for s in range(seeds):
        for i, j in T4.trials:
            p = 0.9 if abs(i - j) == 1 else 0.7
            c = int(rng.random() < p)
            rows.append({"seed": s, "item_a": i, "item_b": j, "correct": c, "prob_yes": round(float(rng.random()), 4),
                         "is_train": abs(i - j) == 1})
    return rows


def write_csv(path, rows, compress=False):
    text = ",".join(rows[0]) + "\n" + "".join(",".join(str(v) for v in r.values()) + "\n" for r in rows)
    if compress:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


def write_parquet(path, rows):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({k: [r[k] for r in rows] for k in rows[0]}), path)
    return path


@pytest.fixture(scope="module")
def rows():
    return long_rows()


def test_long_format_pools_seeds_into_counts(tmp_path, rows):
    d = load_behaviour(write_csv(tmp_path / "long.csv", rows), T4, value_column="correct", count_column=None)
    for t, v, c in zip(d.trials, d.values, d.counts, strict=True):
        mine = [r["correct"] for r in rows if (r["item_a"], r["item_b"]) == t]
        assert c == len(mine) == 7 and v == pytest.approx(np.mean(mine), abs=1e-12)
    # the same trials as a summary table (count column n_seeds) give the same data
    summary = [{"item_a": i, "item_b": j, "accuracy": float(np.mean([r["correct"] for r in rows
                                                                     if (r["item_a"], r["item_b"]) == (i, j)])),
                "n_seeds": 7} for i, j in T4.trials]
    s = load_behaviour(write_csv(tmp_path / "sum.csv", summary), T4, value_column="accuracy", count_column="n_seeds")
    assert (s.trials, s.counts) == (d.trials, d.counts) and s.values == pytest.approx(d.values, abs=1e-12)


def test_csv_gz_and_parquet_read_alike(tmp_path, rows):
    kw = dict(value_column="prob_yes", count_column=None, filters=["is_train=False"])
    a = load_behaviour(write_csv(tmp_path / "t.csv", rows), T4, **kw)
    b = load_behaviour(write_csv(tmp_path / "t.csv.gz", rows, compress=True), T4, **kw)
    c = load_behaviour(write_parquet(tmp_path / "t.parquet", rows), T4, **kw)
    assert a.rows_selected == b.rows_selected == c.rows_selected == 7 * 6
    for x in (b, c):
        assert (x.trials, x.counts) == (a.trials, a.counts) and x.values == pytest.approx(a.values, abs=1e-12)


def test_broken_parquet_is_one_clear_line(tmp_path, capsys):
    p = tmp_path / "bad.parquet"
    p.write_bytes(b"PAR1" + b"\0" * 20)
    with pytest.raises(DataError, match="not a readable Parquet file"):
        load_behaviour(p, T4)
    code = cli.main(["fit", "--items", "4", "--data", str(p)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "argument --data" in err
