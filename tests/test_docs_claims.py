"""Statements of docs/architecture.md and of the CLI's docstring, checked against the code: the page's layer
table is the layer contract of tests/test_architecture.py, the modules it names exist, and the subcommands that
symbolic_ti/cli/app.py lists are the ones it registers."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (\d+) \| (.+?) \| (.+) \|$", re.M)


def _contract():
    spec = importlib.util.spec_from_file_location("_architecture", ROOT / "tests" / "test_architecture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LAYERS


def _where(cell: str) -> tuple[str, ...]:
    """``cli/``, ``api.py``, ``datasets/`` -> ``symbolic_ti.cli``, ``symbolic_ti.api``, ..."""
    return tuple(f"symbolic_ti.{name.rstrip('/').removesuffix('.py')}" for name in re.findall(r"`([^`]+)`", cell))


def test_the_layer_table_is_the_layer_contract():
    rows = [(int(n), _where(where)) for n, where, _ in ROW.findall(PAGE)]
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1))
    assert [sorted(w) for _, w in rows] == [sorted(layer) for layer in _contract()]


def test_the_modules_the_table_names_exist():
    missing = []
    for _, where, job in ROW.findall(PAGE):
        packages = [w for w in re.findall(r"`([a-z_]+)/`", where)]
        if len(packages) != 1:
            continue
        base = ROOT / "symbolic_ti" / packages[0]
        for name in re.findall(r"`([a-z_]+(?:\.py)?)`", job):
            stem = name.removesuffix(".py")
            if not ((base / f"{stem}.py").is_file() or (base / stem).is_dir()):
                missing.append(f"{packages[0]}/{name}")
    # words in code that are not module names (functions, attributes named in the job column)
    allowed = {"export/meta", "numeric/solve", "numeric/numeric_only", "datasets/example_data"}
    assert not [m for m in missing if m not in allowed], missing


def test_the_cli_docstring_lists_the_registered_subcommands():
    from symbolic_ti.cli import app

    doc = app.__doc__
    registered = [m.__name__.rpartition(".")[2] for m in app.SUBCOMMANDS]
    usage = re.findall(r"^    symbolic-ti (\w+)", doc, re.M)
    assert sorted(usage) == sorted(registered)
    modules = re.search(r"Each subcommand is a module of this package \(([^)]*)\)", doc, re.S).group(1)
    assert re.findall(r"``(\w+)\.py``", modules) == registered
