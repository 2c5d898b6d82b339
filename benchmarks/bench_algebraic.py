"""Timing of derive and critical at an irrational algebraic parameter value (symbolic_ti/solvers/algebraic.py).

Usage::

    python benchmarks/bench_algebraic.py [--sizes 5,7,9] [--old-timeout SECONDS]

For each n the task has the exception ``W>L`` with ``W = n//2 + 2``, ``L = n//2`` (6>4 at n = 9), the family is
geometric with ``rho`` symbolic, ridgeless. Timed in this process, CPU time (``time.process_time``):

* baseline: ``derive`` at the rational ``alpha = 1/3`` (the rational path, same sizes);
* new: ``derive`` at ``alpha = sqrt(2)/3`` (the algebraic path), then ``critical`` in rho;
* old: the same derive over the number field ``QQ<sqrt(2)>[rho, lambda]``, the path before (still reached by
  naming ``ridgeless_method="limit"``, which bypasses the algebraic path), in a forked subprocess with a time
  limit.

Ratios are new / baseline. Results on the project's machine are in docs/performance.md#algebraic-parameter-values.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import sympy as sp

import symbolic_ti


def _cpu(f):  # type: ignore[no-untyped-def]
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def _old(n: int, exc: str, q: mp.Queue) -> None:  # type: ignore[type-arg]
    t = time.process_time()
    symbolic_ti.derive(n, [exc], family="geometric", parameters={"alpha": sp.sqrt(2) / 3}, ridge="ridgeless",
                       ridgeless_method="limit")
    q.put(time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="5,7,9")
    ap.add_argument("--old-timeout", type=float, default=120)
    args = ap.parse_args()
    print("n  exc   rational(s)  algebraic(s)  ratio  critical(s)  old number-field solve (s)")
    for n in (int(s) for s in args.sizes.split(",")):
        exc = f"{n // 2 + 2}>{n // 2}"
        base, _ = _cpu(lambda: symbolic_ti.derive(n, [exc], family="geometric",  # noqa: B023
                                                  parameters={"alpha": sp.Rational(1, 3)}, ridge="ridgeless"))
        new, _ = _cpu(lambda: symbolic_ti.derive(n, [exc], family="geometric",  # noqa: B023
                                                 parameters={"alpha": sp.sqrt(2) / 3}, ridge="ridgeless"))
        crit, _ = _cpu(lambda: symbolic_ti.critical(n, [exc], family="geometric", parameter="rho",  # noqa: B023
                                                    parameters={"alpha": sp.sqrt(2) / 3}, ridge="ridgeless"))
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        proc = mp.get_context("fork").Process(target=_old, args=(n, exc, q))
        proc.start()
        proc.join(args.old_timeout)
        if proc.is_alive():
            proc.kill()
            old = f"> {args.old_timeout:.0f} (killed)"
        else:
            old = f"{q.get():.2f}"
        print(f"{n:<2} {exc:<5} {base:11.2f}  {new:12.2f}  {new / base:5.2f}  {crit:11.2f}  {old}")


if __name__ == "__main__":
    main()
