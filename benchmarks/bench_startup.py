"""Start-up time of ``import symbolic_ti`` and of short ``symbolic-ti`` commands, before and after (issue 18, pt 5).

Usage::

    python benchmarks/bench_startup.py [--repeats 9] [--baseline /work/main] [--output FILE.json]

Each case runs as a fresh subprocess (``sys.executable``), so the imports are measured from a cold interpreter
with a warm file cache. The cases run interleaved, round after round, so a change of load on the machine hits
every case alike. For each case the median over ``--repeats`` rounds of

* ``wall``: the subprocess's elapsed time, start to exit;
* ``cpu``: the user + system CPU time of the subprocess (``resource.getrusage(RUSAGE_CHILDREN)``), less sensitive
  than the elapsed time to other work on a loaded machine;

and both as ratios to ``import sympy`` measured the same way in the same run. The cases:

* ``python -c pass`` (the interpreter alone), ``import sympy`` (the reference), ``import mpmath``,
  ``import flint``, ``import numpy`` (what sympy and the package may pull in);
* for each tree (``new``: this checkout; ``old``: ``--baseline``, the code before, e.g. /work/main), run with
  that tree as working directory and first on ``PYTHONPATH``: ``import symbolic_ti``, ``python -m symbolic_ti
  --version``, ``--help``, ``families``, ``derive -n 5 -e '4>2'``; and, once per round, the time to build the CLI
  parser in a process that has imported it (``build_parser``, in-process, milliseconds).

Results on the project's machine are in docs/performance.md#start-up-of-import-symbolic_ti-and-the-cli-issue-18.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (label, argv after the interpreter) of the cases that do not depend on the tree.
PLAIN = (("python -c pass", ["-c", "pass"]), ("import sympy", ["-c", "import sympy"]),
         ("import mpmath", ["-c", "import mpmath"]), ("import flint", ["-c", "import flint"]),
         ("import numpy", ["-c", "import numpy"]))
#: (label, argv after the interpreter) of the cases run in each tree.
TREE = (("import symbolic_ti", ["-c", "import symbolic_ti"]),
        ("symbolic-ti --version", ["-m", "symbolic_ti", "--version"]),
        ("symbolic-ti --help", ["-m", "symbolic_ti", "--help"]),
        ("symbolic-ti families", ["-m", "symbolic_ti", "families"]),
        ("symbolic-ti derive -n 5 -e '4>2'", ["-m", "symbolic_ti", "derive", "-n", "5", "-e", "4>2"]))
_PARSER = ("import time; from symbolic_ti.cli.app import build_parser; t = time.perf_counter(); build_parser(); "
           "print(time.perf_counter() - t)")


def _env(tree: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SYMBOLIC_TI_DEBUG", None)
    env["SYMBOLIC_TI_PROGRESS"] = "0"
    if tree is not None:
        env["PYTHONPATH"] = str(tree) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _time(argv: list[str], tree: Path | None) -> tuple[float, float, str]:
    """Elapsed and CPU seconds of one subprocess run, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, *argv], cwd=tree or ROOT, env=_env(tree), capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(argv)} in {tree} failed: {proc.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--baseline", type=Path, default=Path("/work/main"),
                    help="tree with the code before (default /work/main)")
    ap.add_argument("--output", type=Path, default=None, help="write the medians as JSON")
    args = ap.parse_args()
    trees = {"new": ROOT, "old": args.baseline.resolve()}
    for name, tree in trees.items():  # check which package each tree imports
        _, _, out = _time(["-c", "import symbolic_ti; print(symbolic_ti.__file__)"], tree)
        if not out.strip().startswith(str(tree)):
            raise SystemExit(f"bench_startup: the {name} tree {tree} imports {out.strip()}")
    samples: dict[str, list[tuple[float, float]]] = {}
    parser: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.repeats):
        for label, argv in PLAIN:
            samples.setdefault(label, []).append(_time(argv, None)[:2])
        for name, tree in trees.items():
            for label, argv in TREE:
                samples.setdefault(f"{label} [{name}]", []).append(_time(argv, tree)[:2])
            parser[name].append(float(_time(["-c", _PARSER], tree)[2].strip()))
    medians = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in samples.items()}
    ref_wall, ref_cpu = medians["import sympy"]
    print(f"{args.repeats} rounds, medians; ratios to `import sympy` ({ref_wall:.3f} s elapsed, {ref_cpu:.3f} s CPU)")
    print()
    print("| case | elapsed (s) | / import sympy | CPU (s) | / import sympy |")
    print("|---|---|---|---|---|")
    for label, (wall, cpu) in medians.items():
        print(f"| `{label}` | {wall:.3f} | {wall / ref_wall:.2f} | {cpu:.3f} | {cpu / ref_cpu:.2f} |")
    print()
    for label, _ in TREE:
        old, new = medians[f"{label} [old]"], medians[f"{label} [new]"]
        print(f"{label}: new/old elapsed {new[0] / old[0]:.2f}, CPU {new[1] / old[1]:.2f}")
    for name in trees:
        print(f"build_parser [{name}]: {1000 * statistics.median(parser[name]):.1f} ms")
    if args.output is not None:
        sys.path.insert(0, str(ROOT))
        from symbolic_ti.files import write_atomic

        write_atomic(args.output, json.dumps({
            "repeats": args.repeats, "baseline": str(trees["old"]),
            "median_seconds": {k: {"elapsed": w, "cpu": c} for k, (w, c) in medians.items()},
            "build_parser_ms": {k: 1000 * statistics.median(v) for k, v in parser.items()}}, indent=2) + "\n")


if __name__ == "__main__":
    main()
