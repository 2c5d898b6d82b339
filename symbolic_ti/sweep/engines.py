"""Execution engines: a local process pool (the default) and Dask distributed, running the same task function.

Both take the shards in the order given (most expensive first, :func:`symbolic_ti.sweep.tasks.make_shards`)
and yield each shard's outcome as it completes: its rows, or the exception that lost it (a worker that died, a
shard that could not be sent back). Nothing here writes files; :mod:`symbolic_ti.sweep.run` does, in the
calling process, so a worker that dies can never leave a partial shard.

- ``local``: :class:`concurrent.futures.ProcessPoolExecutor` with every core (``jobs``), or a plain loop in this
  process with ``jobs=0``.
- ``dask``: :class:`dask.distributed.Client` on an existing scheduler (``scheduler="tcp://host:8786"``) or on a
  :class:`~dask.distributed.LocalCluster` of ``workers`` one-thread worker processes; shards are submitted with
  their estimated cost as Dask priority and collected with :func:`dask.distributed.as_completed`. The Dask
  dashboard shows the tasks as ``run_shard-...``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import ParameterError
from .spec import SweepSpec
from .tasks import Shard, run_shard

__all__ = ["Outcome", "run_local", "run_dask", "default_jobs"]

#: What an engine yields per shard: the shard and its rows, or the exception that lost it.
Outcome = tuple[Shard, "list[dict[str, Any]] | BaseException"]


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover (not Linux)
        return os.cpu_count() or 1


def _worker_signals() -> None:
    """The signal dispositions of a pool worker (its initializer).

    SIGINT and SIGHUP are ignored: a terminal's Ctrl-C or hang-up reaches the whole process group, and the
    calling process, which handles them, terminates the workers (no worker tracebacks, no race with a pool that
    breaks). SIGTERM gets its default action back (a forked worker inherits the command's handler, which would
    turn it into an exception of the shard instead of ending the worker), so that :func:`_stop` ends it at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked inside _held_signals: a SIGTERM held since then ends it now
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


#: The signals held while the pool records a worker it starts (:func:`_held_signals`).
_HELD = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


@contextlib.contextmanager
def _held_signals() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP (blocked, delivered at the end) while the pool submits a shard.

    ``ProcessPoolExecutor.submit`` starts workers as it needs them: it forks, then records the process. A signal
    whose exception was raised between the two (the command's handlers raise in the main thread) left a worker
    that :func:`_stop` did not know of: it ran on, and held the command's standard error open (a review's SIGTERM
    right after the first worker started: the command did not end). Held here, the signal is delivered once the
    pool's bookkeeping is complete. The forked worker inherits the mask and unblocks the signals in its
    initializer (:func:`_worker_signals`). Main thread only, where the mask can be set.
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _descendants(pid: int) -> list[int]:
    """The processes started by ``pid`` and by those, recursively (Linux ``/proc``; elsewhere none)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except (OSError, ValueError):
                continue
            found += kids
            todo += kids
    return found


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` at once: cancel the queued shards and terminate the workers (their shards are not written).

    The processes and the pool's management thread are taken before ``shutdown``, which forgets them;
    ``shutdown(wait=False)`` does not wait for the shards in flight, and the terminated workers let the
    management thread end at once. Processes that a worker started are terminated too (they would outlive it,
    adopted by init); the workers are waited for, and killed if SIGTERM has not ended them within 5 s.

    The management thread is then waited for (it ends within moments of its workers): it closes the pool's
    wake-up pipe as it ends, and the standard library's exit hook (``concurrent.futures.process._python_exit``)
    writes into that pipe without the pool's lock. Returned earlier, an interrupted command reached the
    interpreter's exit while the thread was closing it, and the exit hook printed a traceback (``OSError: [Errno
    9] Bad file descriptor`` or ``handle is closed``, after the command's one line; 1 in 7 SIGTERMs to a sweep
    in a review). Once the thread has ended, the pipe is closed and the hook does nothing.
    """
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    others = [k for proc in procs if proc.pid is not None for k in _descendants(proc.pid)]
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        proc.terminate()
    for pid in others:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    for proc in procs:
        proc.join(timeout=5)
        if proc.exitcode is None:  # pragma: no cover (a worker that ignores SIGTERM)
            proc.kill()
            proc.join()
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5)


def run_local(spec: SweepSpec, shards: list[Shard], jobs: int | None = None) -> Iterator[Outcome]:
    """Run ``shards`` on a local process pool of ``jobs`` processes (default every core; 0: in this process).

    At most ``2 jobs`` shards are queued at a time, in the given order, so that the expensive ones start first
    and an interrupt cancels little. On Ctrl-C (or when the consumer stops) the queued shards are cancelled and
    the workers terminated at once; the shards they were computing are not yielded.

    A worker that dies breaks a ``ProcessPoolExecutor`` and every shard queued on it (``BrokenProcessPool``).
    Those shards are then run again on a fresh pool, one at a time, so that the one that kills its worker is
    known: a shard that breaks a pool a second time, running alone, is yielded with the ``BrokenProcessPool``
    (lost); the others are computed, and the sweep goes on with a full pool.
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 0:
        raise ParameterError(f"jobs must be >= 0 (0: run in this process), got {jobs}")
    if jobs == 0:
        for shard in shards:
            yield shard, run_shard(spec, shard)
        return
    pending = list(reversed(shards))
    suspects: list[Shard] = []  # queued on a pool that broke: run again one at a time
    struck: set[str] = set()  # shards that were queued on a pool that broke
    running: dict[Future[list[dict[str, Any]]], Shard] = {}
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_signals)
    try:
        while pending or suspects or running:
            try:
                if suspects and not running:
                    with _held_signals():
                        fut = pool.submit(run_shard, spec, suspects[0])
                    running[fut] = suspects.pop(0)
                while not suspects and pending and len(running) < 2 * jobs:
                    with _held_signals():
                        fut = pool.submit(run_shard, spec, pending[-1])
                    running[fut] = pending.pop()
            except BrokenProcessPool:  # a worker died while idle: the shard was not queued
                if not running:
                    _stop(pool)
                    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_signals)
                    continue
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            alone = len(running) == 1
            broken = False
            for fut in finished:
                shard = running.pop(fut)
                exc = fut.exception()
                if not isinstance(exc, BrokenProcessPool):
                    yield shard, (exc if exc is not None else fut.result())
                    continue
                broken = True
                if alone and shard.name in struck:  # the second time, and alone: it kills its worker
                    yield shard, exc
                else:
                    struck.add(shard.name)
                    suspects.append(shard)
            if broken:  # a worker died: every shard queued on this pool fails; run them again on a fresh one
                _stop(pool)
                for fut in list(running):
                    shard = running.pop(fut)
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        yield shard, fut.result()
                    else:
                        struck.add(shard.name)
                        suspects.append(shard)
                suspects.sort(key=lambda s: s.index)
                pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_signals)
    except BaseException:  # Ctrl-C, or the consumer stopped: do not wait for the shards in flight
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def run_dask(spec: SweepSpec, shards: list[Shard], *, workers: int | None = None,
             scheduler: str | None = None, processes: bool = True) -> Iterator[Outcome]:
    """Run ``shards`` on Dask: the cluster at ``scheduler``, else a LocalCluster of ``workers`` processes.

    Parameters
    ----------
    spec : SweepSpec
    shards : list of Shard
    workers : int, optional
        Worker count of the LocalCluster (default every core); ignored with ``scheduler``.
    scheduler : str, optional
        Address of a running scheduler, e.g. ``"tcp://10.0.0.1:8786"``; the workers must have symbolic_ti.
    processes : bool
        LocalCluster workers as processes (default) or as threads of this process (tests).

    Yields
    ------
    (Shard, rows or exception)
        A shard whose worker was lost more often than the scheduler allows comes with ``KilledWorker``.
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ParameterError("the Dask engine needs dask and distributed: pip install 'symbolic-ti[sweep]'") from None
    cluster = client = None
    received: list[int] = []  # SIGTERM while the LocalCluster started: delivered once it can be closed
    if scheduler is None:
        n = default_jobs() if workers is None else workers
        if n < 1:
            raise ParameterError(f"workers must be >= 1, got {n}")
        cluster = _local_cluster(LocalCluster, n, processes, received)
    try:
        for signum in received[:1]:
            signal.raise_signal(signum)  # the handler of this process (the command's raises KeyboardInterrupt)
        if cluster is not None:
            client = Client(cluster)
            _no_gc_callback()  # after the in-process scheduler enabled it
        else:
            client = _connect(Client, str(scheduler))
        futures = []
        spec_future = client.scatter(spec, broadcast=True)
        for shard in shards:
            futures.append(client.submit(run_shard, spec_future, shard, priority=shard.cost, pure=False,
                                         key=f"run_shard-{shard.name}"))
        by_key = dict(zip((f.key for f in futures), shards, strict=True))
        # the results are fetched by the client's own thread: this one only waits for the next (a signal
        # there interrupts a plain wait, not one of distributed's synchronous calls, which logs an error)
        for fut, result in as_completed(futures, with_results=True, raise_errors=False):
            shard = by_key[fut.key]
            if fut.status == "error":  # a lost or failed shard: reported, the sweep goes on
                yield shard, result[1]  # (type, exception, traceback)
            else:
                yield shard, result
            fut.release()
    except BaseException:  # Ctrl-C, SIGTERM: close without the tracebacks and warnings of the workers being stopped
        _close(client, cluster, quiet=True)
        raise
    _close(client, cluster)



def _connect(client_type: Any, scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler``, or one line naming ``--scheduler``.

    The address is parsed before any client starts (a malformed address is refused at once, without starting
    Dask's IO-loop thread). distributed gives its IO-loop thread 10 s to start and then fails an internal
    ``assert`` (seen on a loaded two-core machine, and when clients are started one after another in a process):
    that start is tried once more, then reported as the environment's failure, not as a bug.
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except ValueError as err:  # not an address ("missing port number")
        raise ParameterError(f"--scheduler: cannot connect to {scheduler!r}: {err}") from None
    for attempt in range(2):
        try:
            return client_type(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as err:
            raise ParameterError(f"--scheduler: cannot connect to {scheduler!r}: {err}") from None
        except AssertionError:  # distributed's IO loop did not start within its 10 s
            if attempt:
                raise ParameterError("--scheduler: Dask's IO-loop thread did not start within 10 s, twice (the "
                                 "machine may be overloaded); try again, or run without --scheduler") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _no_gc_callback() -> None:
    """Remove distributed's GC diagnosis from this process: its callback runs at every garbage collection, and a
    SIGTERM's exception raised while it runs was swallowed ("Exception ignored in GCDiagnosis._gc_callback"), so
    the sweep ran on to its end (review finding, 1 of 4 tries). Best effort: ``distributed.gc`` is not public."""
    try:
        from distributed.gc import disable_gc_diagnosis

        disable_gc_diagnosis(force=True)
    except Exception:  # noqa: BLE001 - another distributed: the command's own check still stops it (cli/app.py)
        pass


def _close(client: Any, cluster: Any, quiet: bool = False) -> None:
    """Close the client and the LocalCluster (which stops its worker processes and waits for them).

    ``quiet``: after an interrupt, with the loggers of ``distributed`` silenced here and in the workers.
    """
    with _quiet_distributed() if quiet else contextlib.nullcontext():
        if client is not None:
            if quiet and cluster is not None:
                with contextlib.suppress(Exception):  # the workers' own loggers too (their processes)
                    client.run(_silence_distributed)
            client.close()
        if cluster is not None:
            cluster.close()


def _local_cluster(factory: Any, n: int, processes: bool, received: list[int]) -> Any:
    """A LocalCluster of ``n`` one-thread workers whose processes ignore Ctrl-C and SIGHUP.

    The worker processes inherit an ignored SIGINT and SIGHUP from this process while they are started (an
    ignored signal stays ignored across ``exec``), so a Ctrl-C or a hang-up of the terminal, which reach the
    whole process group, act in this process only, which closes the cluster; otherwise every worker prints a
    ``KeyboardInterrupt`` traceback, or dies and is restarted by its nanny. A Ctrl-C or SIGHUP during those few
    seconds of start-up is ignored. A SIGTERM during the start-up is appended to ``received`` (not acted on in
    the middle of it, which would leave a half-started cluster running) for the caller to deliver once the
    cluster exists.
    """
    if not processes or threading.current_thread() is not threading.main_thread():
        return factory(n_workers=n, threads_per_worker=1, processes=processes, dashboard_address=None)

    def defer(signum: int, frame: object) -> None:
        received.append(signum)

    previous = {signal.SIGINT: signal.signal(signal.SIGINT, signal.SIG_IGN)}
    if hasattr(signal, "SIGHUP"):
        previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN:
        previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, defer)
    try:
        return factory(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _silence_distributed() -> list[tuple[logging.Logger, int]]:
    """Silence the loggers of ``distributed`` in this process; return them with their previous levels."""
    names = ["distributed"] + [k for k in logging.root.manager.loggerDict if k.startswith("distributed.")]
    loggers = [logging.getLogger(k) for k in names]
    levels = [(lg, lg.level) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    return levels


@contextlib.contextmanager
def _quiet_distributed() -> Iterator[None]:
    """Silence ``distributed`` while an interrupted cluster closes (it logs warnings and tracebacks)."""
    levels = _silence_distributed()
    try:
        yield
    finally:
        for lg, level in levels:
            lg.setLevel(level)
