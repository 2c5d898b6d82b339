"""Sweeps (symbolic_ti.sweep): local pool and Dask give the same table, rows agree with direct calls, resume after
a killed process or a lost worker, failures recorded."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sympy as sp

pytest.importorskip("pyarrow")
import pandas as pd  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from symbolic_ti import Task, derive  # noqa: E402
from symbolic_ti.api import critical  # noqa: E402
from symbolic_ti.errors import ExportError  # noqa: E402
from symbolic_ti.analysis.conjunctivity import critical_conjunctivity  # noqa: E402
from symbolic_ti.sweep import make_shards, read_dataset, run_sweep, spec_from_dict  # noqa: E402
from symbolic_ti.sweep import tasks as sweep_tasks  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

CONJ = {"n": [6, 7], "ridge": ["ridgeless", "1/10"], "compute": ["critical_conjunctivity", "first_failing"],
        "exceptions": [{"kind": "single", "span": [2, 3]}, {"kind": "explicit", "sets": [["4>2", "7>5"]], "n_min": 7}],
        "shard_seconds": 0.001}  # one configuration a shard (17 shards), so a kill lands mid-sweep
DERIVE = {"n": [5], "ridge": ["1/10"], "compute": ["predictions", "margins", "critical"],
          "critical": {"parameter": "alpha"}, "parameters": {"kappa_d": ["0"]},
          "exceptions": [{"kind": "none"}, {"kind": "single", "span": 2, "n_max": 5}], "trials": ["1,3", "1,5"]}



def _default_stop_signals() -> None:
    """In a spawned command: the default actions of SIGINT, SIGTERM and SIGHUP, not ignored ones inherited from a
    background job's shell, ``nohup`` or a pytest-xdist worker (the command keeps an ignored SIGHUP ignored)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)

def table(directory) -> pd.DataFrame:
    return read_dataset(directory).drop(columns="seconds")


@pytest.fixture(scope="module")
def conj_local(tmp_path_factory):
    out = tmp_path_factory.mktemp("conj") / "local"
    summary = run_sweep(spec_from_dict(CONJ), out, jobs=2)
    assert summary.ok and summary.written == len(make_shards(spec_from_dict(CONJ)))
    return out


def test_local_pool_and_dask_give_identical_tables(conj_local, tmp_path):
    pytest.importorskip("distributed")
    summary = run_sweep(spec_from_dict(CONJ), tmp_path / "dask", engine="dask", workers=2, processes=False)
    assert summary.ok
    pd.testing.assert_frame_equal(table(conj_local), table(tmp_path / "dask"))


def test_conjunctivity_rows_agree_with_direct_calls(conj_local):
    df = table(conj_local)
    alpha = df[df.quantity == "alpha_first"]
    # 2 ridges x (single exceptions of span 2, 3 at n = 6, 7: 4+3+5+4, and the explicit pair at n = 7)
    assert len(alpha) == 2 * (4 + 3 + 5 + 4 + 1)
    # docs/critical_conjunctivity.md, exact examples: n = 7, 5>3, ridgeless: alpha* = (6 - sqrt(21))/5
    cited = alpha[(alpha.n == 7) & (alpha.exceptions == "5>3") & (alpha.ridge == "ridgeless")]
    assert sp.simplify(sp.sympify(cited.value.iloc[0]) - (6 - sp.sqrt(21)) / 5) == 0
    for row in alpha.itertuples():
        rep = critical_conjunctivity(Task(row.n, row.exceptions.split(";")), row.ridge)
        if rep.alpha_first is None:
            assert row.detail == "never" and pd.isna(row.value)
            continue
        assert sp.sympify(row.value) == rep.alpha_first
        assert row.value_float == pytest.approx(float(rep.alpha_first), rel=1e-12, abs=1e-15)
        got = df[(df.config == row.config) & (df.ridge == row.ridge) & (df.quantity == "first_failing")]
        assert sorted(zip(got.i, got.j, strict=True)) == sorted(t for t in rep.first_failing if t[0] < t[1])


def test_mirror_writes_the_rows_a_direct_computation_gives(conj_local, tmp_path):
    # mirror = true computes one of each pair W>L, (n+1-L)>(n+1-W) and maps the other's rows over; the table
    # must be the one computed without the symmetry (conj_local), row for row, categories included
    spec = spec_from_dict({**CONJ, "mirror": True})
    kept = [c for s in make_shards(spec) for c in s.configs]
    assert len(kept) == 10 and sum(c.mirror is not None for c in kept) == 7  # 17 configurations, 7 pairs
    summary = run_sweep(spec, tmp_path / "mirror", jobs=0)
    assert summary.ok and summary.configurations == 10 and summary.mirrored == 7
    assert "10 configurations (and 7 written from them by the reversal symmetry) in" in summary.text()
    got = table(tmp_path / "mirror")
    mirrored = got[got.mirror_of.notna()]
    assert set(zip(mirrored.n, mirrored.exceptions, strict=True)) == {
        (6, "6>4"), (6, "5>3"), (6, "6>3"), (7, "7>5"), (7, "6>4"), (7, "7>4"), (7, "6>3")}
    want = table(conj_local)
    cols = [c for c in want.columns if c != "mirror_of"]
    order = ["config", "ridge", "quantity", "i", "j"]
    pd.testing.assert_frame_equal(got[cols].sort_values(order).reset_index(drop=True),
                                  want[cols].sort_values(order).reset_index(drop=True))


def test_alpha_first_is_where_a_margin_of_derive_changes_sign(conj_local):
    """Independent of critical_conjunctivity: the exact margins of derive() just below and above alpha*_first."""
    df = table(conj_local)
    rows = df[(df.quantity == "first_failing") & (df.detail == "crossing") & (df.ridge == "ridgeless")]
    checked = 0
    for row in rows.drop_duplicates("config").head(3).itertuples():
        a = sp.Rational(row.value_float).limit_denominator(10**9)
        excs = row.exceptions.split(";")
        lo, hi = (derive(row.n, excs, parameters={"alpha": a * (1 + s)}, ridge="ridgeless")
                  .margin(int(row.i), int(row.j)) for s in (sp.Rational(-1, 10**4), sp.Rational(1, 10**4)))
        assert lo > 0 > hi
        checked += 1
    assert checked >= 2


def test_derive_rows_agree_with_direct_calls(tmp_path):
    spec = spec_from_dict(DERIVE)
    assert run_sweep(spec, tmp_path / "d", jobs=0).ok
    df = table(tmp_path / "d")
    for (n, exc), group in df.groupby(["n", "exceptions"]):
        excs = exc.split(";") if exc else []
        res = derive(n, excs, parameters={"kappa_d": 0}, ridge="1/10")
        for row in group[group.quantity.isin(["prediction", "margin"])].itertuples():
            expect = res.f(row.i, row.j) if row.quantity == "prediction" else res.margin(row.i, row.j)
            names = {str(x): x for x in expect.free_symbols}  # the package's Symbols carry assumptions
            assert sp.cancel(sp.sympify(row.value, locals=names) - expect) == 0
        rep = critical(n, excs, parameter="alpha", parameters={"kappa_d": 0}, ridge="1/10", trials=[(1, 3), (1, 5)])
        crit = group[group.quantity == "critical:alpha"]
        values = sorted(sp.sympify(v) for v in crit.value.dropna())
        assert values == sorted((c.value for t in rep.trials for c in t.crossings), key=lambda v: sp.sympify(v))
    assert set(df.quantity) == {"prediction", "margin", "critical:alpha"}


def test_metadata_and_one_line_read(conj_local):
    files = sorted(conj_local.glob("*.parquet"))
    meta = pq.read_schema(files[0]).metadata
    assert b"symbolic_ti.spec" in meta and b"symbolic_ti.version" in meta
    assert len(pd.read_parquet(conj_local)) == len(read_dataset(conj_local))


def test_a_raising_configuration_is_recorded_and_the_sweep_goes_on(tmp_path, monkeypatch):
    real = sweep_tasks.critical_conjunctivity

    def flaky(task, *args, **kw):
        if task.exceptions[0].loser == 2 and task.n == 6:
            raise RuntimeError("boom")
        return real(task, *args, **kw)

    monkeypatch.setattr(sweep_tasks, "critical_conjunctivity", flaky)
    summary = run_sweep(spec_from_dict(CONJ), tmp_path / "e", jobs=0)
    assert not summary.ok and len(summary.failed) == 2  # 4>2 and 5>2 at n = 6
    df = table(tmp_path / "e")
    errors = df[df.quantity == "error"]
    assert len(errors) == 2 and errors.error.str.contains("RuntimeError: boom").all()
    assert len(df[df.quantity == "alpha_first"]) == 2 * (17 - 2)


_REAL_ROWS = sweep_tasks._conjunctivity_rows
_KILLER = {"n": 7, "exceptions": ("5>3",), "marker": None}


def _kill_worker(config, spec, ridges):
    """The worker computing n = 7, 5>3 dies: always, or only once when a marker file is given."""
    if config.n == _KILLER["n"] and config.exceptions == _KILLER["exceptions"]:
        marker = _KILLER["marker"]
        if marker is None or not marker.exists():
            if marker is not None:
                marker.write_text("")
            os._exit(1)  # the worker process dies
    return _REAL_ROWS(config, spec, ridges)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the patch reaches workers by fork")
def test_a_worker_lost_once_costs_no_shard(conj_local, tmp_path, monkeypatch):
    # the pool breaks (every shard queued on it fails with BrokenProcessPool); they run again on a fresh pool
    monkeypatch.setattr(sweep_tasks, "_conjunctivity_rows", _kill_worker)  # inherited by the forked workers
    monkeypatch.setitem(_KILLER, "marker", tmp_path / "killed-once")
    summary = run_sweep(spec_from_dict(CONJ), tmp_path / "once", jobs=2)
    assert (tmp_path / "killed-once").exists()  # the worker did die
    assert summary.ok and summary.written == summary.shards
    pd.testing.assert_frame_equal(table(conj_local), table(tmp_path / "once"))


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the patch reaches workers by fork")
def test_lost_worker_leaves_complete_shards_and_resume_completes(conj_local, tmp_path, monkeypatch):
    # a shard that kills its worker every time is lost (it breaks the pool again when run alone); the others
    # queued with it are computed
    monkeypatch.setattr(sweep_tasks, "_conjunctivity_rows", _kill_worker)
    spec = spec_from_dict(CONJ)
    summary = run_sweep(spec, tmp_path / "lost", jobs=2)
    killer = next(s.name for s in make_shards(spec) if s.configs[0].n == 7 and s.configs[0].exceptions == ("5>3",))
    assert [name for name, _ in summary.lost] == [killer] and "BrokenProcessPool" in summary.lost[0][1]
    assert summary.written == summary.shards - 1 and not summary.ok
    for f in (tmp_path / "lost").glob("*.parquet"):
        assert pq.read_table(f).num_rows > 0  # every file on disk is a complete shard
    monkeypatch.undo()
    again = run_sweep(spec, tmp_path / "lost", jobs=0, resume=True)
    assert again.ok and again.skipped == again.shards - 1 and again.written == 1
    pd.testing.assert_frame_equal(table(conj_local), table(tmp_path / "lost"))


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the slow-down reaches workers by fork")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_resume_after_killing_the_process(conj_local, tmp_path, sig):
    spec_file = tmp_path / "conj.toml"
    spec_file.write_text(
        'n = [6, 7]\nridge = ["ridgeless", "1/10"]\ncompute = ["critical_conjunctivity", "first_failing"]\n'
        'shard_seconds = 0.001\n[[exceptions]]\nkind = "single"\nspan = [2, 3]\n'
        '[[exceptions]]\nkind = "explicit"\nsets = [["4>2", "7>5"]]\nn_min = 7\n')
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the third shard to start blocks until its process is stopped (a marker file says it started): the Ctrl-C
    # lands while it runs and must not wait for it (nor lose the two written before)
    third = make_shards(spec_from_dict(CONJ))[2].configs[0].key
    started = tmp_path / "third-started"
    slow_cli = ("import sys, time, pathlib; from symbolic_ti.sweep import tasks; real = tasks._one\n"
                "def slow(config, *a):\n"
                f"    if config.key == {third!r}:\n"
                f"        pathlib.Path({str(started)!r}).write_text('')\n"
                "        time.sleep(3600)\n"
                "    return real(config, *a)\n"
                "tasks._one = slow\n"
                "from symbolic_ti.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", slow_cli, "sweep", str(spec_file), "-o", str(out),
                             "--jobs", "1", "-q"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            # SIGINT's default action, not an ignored one inherited from a background job's shell
                            # or a pytest-xdist worker
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    # the worker may start the third shard before this process has written the second: wait for both
    while not (started.exists() and len(list(out.glob("*.parquet"))) == 2) and time.monotonic() < deadline \
            and proc.poll() is None:
        time.sleep(0.05)
    assert started.exists() and len(list(out.glob("*.parquet"))) == 2
    os.killpg(proc.pid, sig)  # the whole process group, as a terminal's Ctrl-C does
    try:
        _, err = proc.communicate(timeout=120)  # a guard against a hang, not a timing: the shard sleeps 3600 s
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the sweep waited for the running shard after the signal")
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and err == "symbolic-ti: interrupted\n"
    written = list(out.glob("*.parquet"))
    assert len(written) == 2
    for f in written:
        pq.read_table(f)  # complete
    summary = run_sweep(spec_from_dict(CONJ), out, jobs=0, resume=True)
    assert summary.ok and summary.skipped == 2
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == len(set(names)) == summary.shards + 1  # the shards and the manifest, nothing else
    pd.testing.assert_frame_equal(table(conj_local), table(out))


# --------------------------------------------------------------------- SIGTERM and SIGHUP (issue 24, section 4)
CONJ_TOML = ('n = [6, 7]\nridge = ["ridgeless", "1/10"]\ncompute = ["critical_conjunctivity", "first_failing"]\n'
             'shard_seconds = 0.001\n[[exceptions]]\nkind = "single"\nspan = [2, 3]\n'
             '[[exceptions]]\nkind = "explicit"\nsets = [["4>2", "7>5"]]\nn_min = 7\n')

#: Run by every Python process of the test's sweep (the command and its workers, forked or spawned): a worker's
#: second configuration writes the marker SWEEP_BLOCK and blocks, so that the signal lands while the workers
#: compute (whatever order an engine runs the shards in), and each worker's first shard can be written.
#: SWEEP_BLOCK_AT: which configuration blocks (default the second); SWEEP_WORKER_UP: a marker that a pool worker
#: wrote when it started (its initializer ran), before any shard.
BLOCKING_SITECUSTOMIZE = (
    "import os, pathlib, time\n"
    "if os.environ.get('SWEEP_BLOCK'):\n"
    "    from symbolic_ti.sweep import engines, tasks\n"
    "    _real, _calls = tasks._one, []\n"
    "    def _block(config, *a):\n"
    "        _calls.append(config)\n"
    "        if len(_calls) == int(os.environ.get('SWEEP_BLOCK_AT', '2')):\n"
    "            pathlib.Path(os.environ['SWEEP_BLOCK']).write_text('')\n"
    "            time.sleep(3600)\n"
    "        return _real(config, *a)\n"
    "    tasks._one = _block\n"
    "    _init = engines._worker_signals\n"
    "    def _up():\n"
    "        _init()\n"
    "        if os.environ.get('SWEEP_WORKER_UP'):\n"
    "            pathlib.Path(os.environ['SWEEP_WORKER_UP']).write_text('')\n"
    "    engines._worker_signals = _up\n")


def _children(pid: int) -> list[int]:
    return [int(k) for task in Path(f"/proc/{pid}/task").iterdir()
            for k in (task / "children").read_text().split()]


def _running(pid: int, started: str) -> bool:
    """Whether process ``pid`` (with start time ``started``, against a reused PID) runs: exists, not a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and fields[19] == started


def _start_time(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]


#: Where the signal lands (:func:`_kill_a_running_sweep`): the configuration that blocks a worker, and the
#: markers waited for. "blocked": a worker blocks in its second shard and a shard is written; "worker-up": as soon
#: as a pool worker has started (the command is submitting its first shards); "first-shard": as soon as the first
#: shard file exists (results still arriving, workers computing; each blocks in its fourth, so the sweep cannot end
#: first).
POINTS = {"blocked": ("2", ("blocked", "shard")), "worker-up": ("2", ("up",)), "first-shard": ("4", ("shard",))}


def _kill_a_running_sweep(tmp_path, engine: list[str], sig: int, group: bool, marker_timeout: float = 120,
                          point: str = "blocked"):
    """Start ``symbolic-ti sweep`` on CONJ_TOML, wait for the markers of ``point`` (:data:`POINTS`), record the
    command's child processes, send ``sig`` (to the process group: a terminal's hang-up), and return (exit code,
    stderr, children with start times, output directory)."""
    spec_file = tmp_path / "conj.toml"
    spec_file.write_text(CONJ_TOML)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(BLOCKING_SITECUSTOMIZE)
    out, started, up = tmp_path / "killed", tmp_path / "blocked", tmp_path / "up"
    block_at, wanted = POINTS[point]
    env = {**os.environ, "PYTHONPATH": f"{tmp_path / 'site'}{os.pathsep}{ROOT}", "SWEEP_BLOCK": str(started),
           "SWEEP_BLOCK_AT": block_at, "SWEEP_WORKER_UP": str(up)}
    proc = subprocess.Popen([sys.executable, "-m", "symbolic_ti", "sweep", str(spec_file), "-o", str(out),
                             *engine, "-q"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_stop_signals)
    markers = {"blocked": started.exists, "up": up.exists, "shard": lambda: bool(list(out.glob("*.parquet")))}

    def reached() -> bool:
        return all(markers[m]() for m in wanted)

    try:
        deadline = time.monotonic() + marker_timeout  # a guard against a hang, not a timing
        while not reached() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert reached(), f"the sweep did not reach {point}"
        children = {pid: _start_time(pid) for pid in _children(proc.pid)}
        assert children  # the workers
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)  # a guard: the blocked shard sleeps 3600 s
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the command and what it left behind (same process group)
        proc.communicate()
        pytest.fail("the command, or a worker holding its stderr, still ran 120 s after the signal")
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, err, children, out


def _assert_stopped(children: dict[int, str]) -> None:
    """No child of the killed command runs any more (polled: a safety net for the kernel's bookkeeping only)."""
    deadline = time.monotonic() + 30
    while any(_running(pid, t) for pid, t in children.items()) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid, t in children.items() if _running(pid, t)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert not survivors, f"processes of the sweep survived it: {survivors}"


def _assert_kept(out: Path) -> None:
    """Every shard file left is complete (a Parquet file with rows), and no temporary file is left."""
    for f in out.glob("*.parquet"):
        assert pq.read_table(f).num_rows > 0
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def _assert_resumes(conj_local, spec_file: Path, out: Path) -> None:
    """The shards on disk are complete, and ``--resume`` completes them into the uninterrupted run's table."""
    written = list(out.glob("*.parquet"))
    assert written
    for f in written:
        assert pq.read_table(f).num_rows > 0
    from symbolic_ti.cli import main

    assert main(["sweep", str(spec_file), "-o", str(out), "--resume", "--jobs", "0", "-q"]) == 0
    assert len(list(out.glob("*.parquet"))) == len(make_shards(spec_from_dict(CONJ)))
    pd.testing.assert_frame_equal(table(conj_local), table(out))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker PIDs from /proc")
@pytest.mark.parametrize(("sig", "group", "code"), [(signal.SIGTERM, False, 143), (signal.SIGHUP, True, 129)],
                         ids=["sigterm-to-the-command", "sighup-to-the-group"])
def test_sigterm_and_sighup_stop_the_pool_workers_and_keep_the_shards(conj_local, tmp_path, sig, group, code):
    """``kill PID`` (SIGTERM to the command only) and a terminal's hang-up (SIGHUP to the group) while a pool
    worker computes: the command terminates its workers, waits for them, exits 128 + the signal with one line,
    keeps its finished shards; ``--resume`` completes the dataset."""
    returncode, err, children, out = _kill_a_running_sweep(tmp_path, ["--jobs", "2"], sig, group)
    assert returncode == code and err == f"symbolic-ti: terminated by {signal.Signals(sig).name}\n", err
    _assert_stopped(children)
    if sig == signal.SIGTERM:
        _assert_resumes(conj_local, tmp_path / "conj.toml", out)
    else:  # the same resume as after SIGTERM; here only the shards on disk
        assert all(pq.read_table(f).num_rows > 0 for f in out.glob("*.parquet"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker PIDs from /proc")
@pytest.mark.parametrize("point", ["worker-up", "first-shard"])
def test_sigterm_at_other_points_of_a_sweep_prints_one_line_and_leaves_no_process(tmp_path, point):
    """SIGTERM while the pool's workers start, and as soon as the first shard is written (results arriving):
    exit 143, stderr the one line (no traceback of the pool's threads), no worker left, the shards written
    complete. (The point of a worker blocked in a shard: the test above.)"""
    returncode, err, children, out = _kill_a_running_sweep(tmp_path, ["--jobs", "2"], signal.SIGTERM, False,
                                                           point=point)
    assert returncode == 143 and err == "symbolic-ti: terminated by SIGTERM\n", err
    _assert_stopped(children)
    _assert_kept(out)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker PIDs from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["sigterm", "sighup"])
@pytest.mark.parametrize("point", sorted(POINTS))
@pytest.mark.parametrize("repeat", range(4))
def test_a_signal_at_each_point_of_a_sweep_many_times(tmp_path, sig, point, repeat):
    """The exit race of the pool's wake-up pipe (engines._stop) was 1 in 7 in a review: every point, both
    signals (SIGHUP to the group, as a terminal's hang-up), several times."""
    group = sig == signal.SIGHUP
    returncode, err, children, out = _kill_a_running_sweep(tmp_path, ["--jobs", "2"], sig, group, point=point)
    assert returncode == 128 + sig and err == f"symbolic-ti: terminated by {signal.Signals(sig).name}\n", err
    _assert_stopped(children)
    _assert_kept(out)


def test_stop_returns_after_the_pools_management_thread_ended(monkeypatch):
    """The mechanism of the traceback after "terminated by SIGTERM" (1 in 7 in a review): ``_stop`` returned
    while the pool's management thread was still closing its wake-up pipe, and the standard library's exit hook
    (``concurrent.futures.process._python_exit``) wrote into it without the pool's lock: ``OSError: [Errno 9]
    Bad file descriptor`` or ``handle is closed``. The thread's closing is made slower here (0.3 s), to open the
    race window wide; ``_stop`` must return only after it, and the exit hook's write then does nothing."""
    import concurrent.futures.process as cfp
    import threading

    from symbolic_ti.sweep import engines

    events: list[str] = []
    real = cfp._ExecutorManagerThread.join_executor_internals

    def slow(self):
        threading.Event().wait(0.3)  # widens the window; the assertion is about order, not time
        real(self)
        events.append("pipe closed")

    monkeypatch.setattr(cfp._ExecutorManagerThread, "join_executor_internals", slow)
    pool = cfp.ProcessPoolExecutor(max_workers=1, initializer=engines._worker_signals)
    started = pool.submit(os.getpid).result()  # a worker runs (its PID), the management thread too
    busy = pool.submit(time.sleep, 3600)
    manager = pool._executor_manager_thread
    assert started and manager.is_alive()
    engines._stop(pool)
    events.append("stop returned")
    assert events == ["pipe closed", "stop returned"] and not manager.is_alive()
    assert busy.done()
    cfp._threads_wakeups[manager].wakeup()  # what the exit hook does: a no-op on the closed pipe, no OSError


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker PIDs from /proc")
@pytest.mark.parametrize(("sig", "group", "code"), [(signal.SIGTERM, False, 143), (signal.SIGHUP, True, 129)],
                         ids=["sigterm-to-the-command", "sighup-to-the-group"])
def test_sigterm_and_sighup_close_the_dask_local_cluster(conj_local, tmp_path, sig, group, code):
    """SIGTERM to the command, or SIGHUP to its group, while Dask worker processes compute: the cluster is
    closed, its worker processes end, exit 128 + the signal with one line (no worker's traceback), the shards
    written are complete and resume."""
    pytest.importorskip("distributed")
    returncode, err, children, out = _kill_a_running_sweep(tmp_path, ["--workers", "2"], sig, group)
    assert returncode == code and err == f"symbolic-ti: terminated by {signal.Signals(sig).name}\n", err
    _assert_stopped(children)
    _assert_resumes(conj_local, tmp_path / "conj.toml", out)


def test_a_signal_while_the_local_cluster_starts_is_delivered_after_it(monkeypatch):
    """SIGTERM during the start of a LocalCluster is held until the cluster exists, then raised where it is
    closed; meanwhile Ctrl-C and SIGHUP are ignored (inherited by the workers), and the handlers are restored
    after."""
    from symbolic_ti.cli.signals import Stopped, stop_on_signals
    from symbolic_ti.sweep import engines

    seen = {}

    def factory(**kw):
        seen["ignored"] = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGHUP)]
        signal.raise_signal(signal.SIGTERM)  # would raise Stopped here, in the middle of the start
        return "cluster"

    stop = stop_on_signals()
    try:
        before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
        received: list[int] = []
        assert engines._local_cluster(factory, 1, True, received) == "cluster"
        assert received == [signal.SIGTERM] and seen["ignored"] == [signal.SIG_IGN, signal.SIG_IGN]
        assert {s: signal.getsignal(s) for s in before} == before
        # run_dask delivers it inside the block that closes the cluster
        distributed = pytest.importorskip("distributed")
        clusters = []

        def threads_cluster(factory, n, processes, received):
            clusters.append(distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                                     dashboard_address=None))
            received.append(signal.SIGTERM)
            return clusters[0]

        monkeypatch.setattr(engines, "_local_cluster", threads_cluster)
        spec = spec_from_dict(CONJ)
        with pytest.raises(Stopped):
            next(engines.run_dask(spec, make_shards(spec), workers=1))
        assert clusters[0].status.name == "closed"
    finally:
        stop.restore()


def _start_a_child() -> int:
    """In a pool worker: start a process that would outlive the worker, and return its PID."""
    return subprocess.Popen(["sleep", "600"]).pid


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")
def test_stopping_the_pool_terminates_the_processes_its_workers_started():
    from concurrent.futures import ProcessPoolExecutor

    from symbolic_ti.sweep import engines

    pool = ProcessPoolExecutor(max_workers=1, initializer=engines._worker_signals)
    child = pool.submit(_start_a_child).result()
    worker = next(iter(pool._processes.values()))
    assert engines._descendants(os.getpid()).count(child) == 1  # found through its worker
    started = _start_time(child)
    engines._stop(pool)
    assert worker.exitcode is not None  # waited for (idle, it may have ended on the shutdown's sentinel first)
    _assert_stopped({child: started})


def _failing_shard(spec, shard):
    """A task that raises for the shard of index 1 (a shard lost on Dask) and computes the others."""
    if shard.index == 1:
        raise RuntimeError("worker lost in the test")
    return sweep_tasks.run_shard(spec, shard)


def test_a_failed_dask_shard_is_yielded_with_its_exception(monkeypatch):
    """The Dask engine fetches results with ``as_completed(with_results=True)``: a task that raised comes back
    as its exception (the shard is lost), the others as their rows."""
    pytest.importorskip("distributed")
    from symbolic_ti.sweep import engines

    monkeypatch.setattr(engines, "run_shard", _failing_shard)
    spec = spec_from_dict({**CONJ, "n": [6], "exceptions": CONJ["exceptions"][:1]})
    shards = make_shards(spec)
    outcomes = dict((shard.index, result) for shard, result in
                    engines.run_dask(spec, shards, workers=1, processes=False))
    by_index = {s.index: s for s in shards}
    assert sorted(outcomes) == sorted(by_index) and len(outcomes) > 2
    lost = outcomes.pop(1)
    assert isinstance(lost, RuntimeError) and str(lost) == "worker lost in the test"

    def values(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    for index, rows in outcomes.items():  # the rows of a direct computation of the same shard
        assert values(rows) == values(sweep_tasks.run_shard(spec, by_index[index]))


def test_dask_scheduler_address(conj_local, tmp_path):
    """``--scheduler ADDRESS``: an existing cluster (here a LocalCluster of two thread workers) by its address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        summary = run_sweep(spec_from_dict(CONJ), tmp_path / "remote", engine="dask",
                            scheduler=cluster.scheduler_address)
    assert summary.ok
    pd.testing.assert_frame_equal(table(conj_local), table(tmp_path / "remote"))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_on_a_dask_local_cluster_prints_one_line(tmp_path):
    """SIGINT to the process group (a terminal's Ctrl-C) while a Dask worker process computes: one line, 130."""
    pytest.importorskip("distributed")
    spec_file = tmp_path / "one.toml"
    spec_file.write_text('n = [6]\ncompute = ["critical_conjunctivity"]\n[[exceptions]]\nkind = "explicit"\n'
                         'sets = [["4>2"]]\n')
    started = tmp_path / "started"
    # sitecustomize runs in this command and in the spawned worker processes: the shard blocks there
    (tmp_path / "sitecustomize.py").write_text(
        "import os, pathlib, time\n"
        "if os.environ.get('SWEEP_BLOCK'):\n"
        "    from symbolic_ti.sweep import tasks\n"
        "    def _block(*a):\n"
        "        pathlib.Path(os.environ['SWEEP_BLOCK']).write_text('')\n"
        "        time.sleep(3600)\n"
        "    tasks._one = _block\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "SWEEP_BLOCK": str(started)}
    proc = subprocess.Popen([sys.executable, "-m", "symbolic_ti", "sweep", str(spec_file), "-o",
                             str(tmp_path / "out"), "--workers", "1", "-q"], cwd=ROOT, env=env,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_stop_signals)
    deadline = time.monotonic() + 120
    while not started.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert started.exists()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)  # a guard against a hang, not a timing
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the sweep did not stop after Ctrl-C")
    assert proc.returncode == 130 and err == "symbolic-ti: interrupted\n", err


def test_read_dataset_reads_the_manifests_shards_only(conj_local, tmp_path):
    out = tmp_path / "partial"
    out.mkdir()
    names = sorted(p.name for p in conj_local.iterdir())
    for name in names:
        (out / name).write_bytes((conj_local / name).read_bytes())
    (out / "notes.txt").write_text("not a shard")  # a stray file is not read
    full = read_dataset(out)
    pd.testing.assert_frame_equal(full, read_dataset(conj_local))
    # integer columns that some rows lack are nullable integers, not floats
    assert all(str(full[c].dtype) == "Int64" for c in ("i", "j", "L", "W", "span", "n_exceptions"))
    ff = full[full.quantity == "first_failing"]
    assert ff.i.notna().all() and full[full.quantity == "alpha_first"].i.isna().all()
    shards = [n for n in names if n.endswith(".parquet")]
    for name in shards[:3]:
        (out / name).unlink()
    with pytest.warns(UserWarning, match=f"3 of the {len(shards)} shards .* are missing.*--resume"):
        part = read_dataset(out)
    assert set(part.config) == set(full.config) - {pq.read_table(conj_local / n).column("config")[0].as_py()
                                                   for n in shards[:3]}
    for name in shards[3:]:
        (out / name).unlink()
    with pytest.warns(UserWarning, match="missing"):
        empty = read_dataset(out)  # only the manifest: no rows, the columns
    assert len(empty) == 0 and list(empty.columns) == list(full.columns)
    (out / "_sweep.json").unlink()
    with pytest.raises(ExportError, match="holds no sweep"):
        read_dataset(out)


def test_families_with_data_parameters_are_swept_as_derive_reads_them(tmp_path):
    """A file (similarity matrix) and a name (activation) are passed to the family as text, as ``--set`` does."""
    matrix = ROOT / "docs" / "examples" / "S.csv"
    spec = spec_from_dict({"n": [5], "family": ["similarity"], "ridge": ["1/10"], "compute": ["margins"],
                           "trials": ["1,3", "2,5"], "parameters": {"matrix": [str(matrix)], "alpha": ["1/2"]}})
    assert run_sweep(spec, tmp_path / "sim", jobs=0).ok
    got = table(tmp_path / "sim")
    want = derive(5, [], family="similarity", parameters={"matrix": str(matrix), "alpha": "1/2"}, ridge="1/10")
    assert {(r.i, r.j): sp.sympify(r.value) for r in got.itertuples()} == {t: want.margin(*t) for t in [(1, 3), (2, 5)]}
    spec = spec_from_dict({"n": [5], "family": "activation-nngp", "ridge": ["1/10"], "compute": ["margins"],
                           "trials": ["1,3"], "parameters": {"activation": ["sign"]}})
    assert run_sweep(spec, tmp_path / "act", jobs=0).ok
    row = table(tmp_path / "act").iloc[0]
    want = derive(5, [], family="activation-nngp", parameters={"activation": "sign"}, ridge="1/10")
    assert row.parameters == "activation=sign" and sp.sympify(row.value) == want.margin(1, 3)
