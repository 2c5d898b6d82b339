"""Print pip constraints (``name==version``) for everything ``symbolic-ti[dev]`` pulls in, from this environment.

CI installs the test environment with these pins (``.ci/run``: ``pip install -c .ci/constraints.txt -e
".[dev]"``), so that it resolves the same versions on every machine and every day. Refresh them deliberately,
never as a side effect::

    bash .ci/newest                                # the suite against the newest releases, in a fresh venv
    python tools/freeze_constraints.py > .ci/constraints.txt   # run in the environment to pin (e.g. that venv)

The walk starts from the requirements of the checkout's ``pyproject.toml`` with the extra ``dev`` (and the
extras it names) and follows the installed distributions' metadata, evaluating environment markers for this
interpreter; every distribution reached is pinned at its installed version. symbolic-ti itself is not pinned,
nor the build backend (setuptools, installed by pip's isolated build). Python 3.11+ (``tomllib``); needs
``packaging`` (a requirement of ``build``).
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = "symbolic-ti"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _wanted(req: Requirement, extras: set[str]) -> bool:
    if req.marker is None:
        return True
    env = default_environment()
    return any(req.marker.evaluate({**env, "extra": e}) for e in (extras or {""}))


def _project_requirements(extras: tuple[str, ...]) -> list[str]:
    """The requirements of the checkout's ``pyproject.toml`` with ``extras`` (its own extras expanded), so that
    a requirement added there is pinned before the package is reinstalled."""
    import tomllib  # Python 3.11+

    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    out, todo, done = list(project.get("dependencies", [])), list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in done:
            continue
        done.add(extra)
        for text in project.get("optional-dependencies", {}).get(extra, []):
            req = Requirement(text)
            if canonicalize_name(req.name) == canonicalize_name(ROOT):
                todo.extend(req.extras)
            else:
                out.append(text)
    return out


def closure(extras: tuple[str, ...] = ("dev",)) -> dict[str, str]:
    """Canonical name -> installed version of every distribution that ``symbolic-ti[extras]`` of the checkout
    requires, transitively (symbolic-ti itself left out).

    Raises
    ------
    SystemExit
        If a required distribution is not installed here (the environment does not hold ``.[dev]``).
    """
    todo: list[tuple[str, frozenset[str]]] = [(Requirement(t).name, frozenset(Requirement(t).extras))
                                              for t in _project_requirements(extras) if _wanted(Requirement(t), set())]
    seen: dict[tuple[str, frozenset[str]], None] = {}
    versions: dict[str, str] = {}
    while todo:
        name, wanted = todo.pop()
        key = (canonicalize_name(name), wanted)
        if key in seen:
            continue
        seen[key] = None
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"freeze_constraints: {name} is required but not installed here; install "
                             f'".[dev]" first') from None
        versions[canonicalize_name(name)] = dist.version
        for text in dist.requires or []:
            req = Requirement(text)
            if _wanted(req, set(wanted)):
                todo.append((req.name, frozenset(req.extras)))
    return versions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    py = ".".join(map(str, sys.version_info[:2]))
    print("# pip constraints for the test environment of .ci/run: pip install -c .ci/constraints.txt -e \".[dev]\"")
    print(f"# written by tools/freeze_constraints.py from an environment with Python {py} ({sys.platform}); refresh")
    print("# deliberately, never as a side effect")
    print("# (bash .ci/newest runs the suite against the newest releases first; see tools/freeze_constraints.py).")
    for name, version in sorted(closure().items()):
        print(f"{name}=={version}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
