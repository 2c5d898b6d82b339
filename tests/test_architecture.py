"""The package layout of docs/architecture.md, checked on the source: the layer contract (one-way imports,
function-level imports included), no import cycles, module sizes, no public function named like a module, and
no private name imported across subpackages.

The imports are read with ``ast`` from the files, so the check sees every import statement, at module level or
inside a function, and does not depend on what a test happened to import. Imports under ``if TYPE_CHECKING:``
are exempt: they never run.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "symbolic_ti"

#: The layers, top first: a module may import its own layer's subpackage and any layer below, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("symbolic_ti.cli",),
    ("symbolic_ti.sweep",),
    ("symbolic_ti.figures",),
    ("symbolic_ti.export",),
    ("symbolic_ti.interop",),
    ("symbolic_ti.design",),  # design/refit.py (refit="all") refits through behaviour/'s likelihood: the layer below
    ("symbolic_ti.behaviour",),
    ("symbolic_ti.api",),
    ("symbolic_ti.dynamics",),
    ("symbolic_ti.analysis",),
    ("symbolic_ti.solvers",),
    ("symbolic_ti.numeric",),
    ("symbolic_ti.results",),
    ("symbolic_ti.gram",),
    ("symbolic_ti.families",),
    ("symbolic_ti.task",),
    ("symbolic_ti.arguments", "symbolic_ti.display", "symbolic_ti.progress", "symbolic_ti.files",
     "symbolic_ti.datasets", "symbolic_ti.budgets"),
    ("symbolic_ti.symbols", "symbolic_ti.errors", "symbolic_ti.digits", "symbolic_ti._version", "symbolic_ti.formatting",
     "symbolic_ti.interrupts", "symbolic_ti.flint_values", "symbolic_ti.peak_memory"),
    ("symbolic_ti.exit_codes", "symbolic_ti.deprecation"),
)
#: Outside the contract: the package's public surface, ``python -m symbolic_ti`` and the deprecated aliases.
UNLAYERED = {"symbolic_ti", "symbolic_ti.__main__", "symbolic_ti._compat"}
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, path: Path, type_checking: bool = False) -> list[tuple[int, str, list[str]]]:
    """``(line, imported module, imported names)`` of every import that runs (with ``type_checking``, also those
    under ``if TYPE_CHECKING:``), resolved to absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if not type_checking and isinstance(node, ast.If) and _is_type_checking(node.test):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name, []) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            if submodules:
                out.extend((node.lineno, s, []) for s in submodules)
            rest = [n for n in names if f"{target}.{n}" not in MODULES]
            if rest:
                out.append((node.lineno, target, rest))
    return out


def _layer(module: str) -> int | None:
    for index, layer in enumerate(LAYERS):
        for prefix in layer:
            if module == prefix or module.startswith(prefix + "."):
                return index
    return None


def _group(module: str) -> str:
    """The subpackage (or top-level module) a module belongs to, e.g. ``symbolic_ti.analysis``."""
    return ".".join(module.split(".")[:2])


def test_every_module_has_a_layer():
    missing = [m for m in MODULES if m not in UNLAYERED and _layer(m) is None]
    assert not missing, f"modules outside the layer table of tests/test_architecture.py: {missing}"


def test_imports_follow_the_layers():
    """No module imports a higher layer, or a sibling subpackage of its own layer."""
    bad = []
    for module, path in MODULES.items():
        if module in UNLAYERED:
            continue
        mine = _layer(module)
        for line, target, _ in _imports(module, path):
            if not (target == "symbolic_ti" or target.startswith("symbolic_ti.")):
                continue
            if target in UNLAYERED:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {target} (the package surface)")
                continue
            theirs = _layer(target)
            if theirs is None:
                continue
            if theirs < mine or (theirs == mine and _group(target) != _group(module)):
                bad.append(f"{path.relative_to(ROOT)}:{line} ({LAYERS[mine][0]}) imports {target} "
                           f"({LAYERS[theirs][0]})")
    assert not bad, "imports against the layer contract:\n" + "\n".join(bad)


def test_no_import_cycles():
    """No cycle, counting the imports made only for type checking too: a cycle of types is a module split in
    the wrong place even when it never runs."""
    graph = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for _, target, _ in _imports(module, path, type_checking=True):
            # importing a name from a package runs its __init__: the edge goes to the package module
            if target in graph and target != module:
                graph[module].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    # The top-level package names everything (it is the public surface) and subpackages import the package
    # only through their parents; a cycle through "symbolic_ti" itself would mean a module imports the surface.
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_size(module):
    lines = sum(1 for _ in MODULES[module].open(encoding="utf-8"))
    assert lines <= MAX_LINES, f"{MODULES[module].relative_to(ROOT)} has {lines} lines (at most {MAX_LINES})"


def test_no_public_function_named_like_a_module():
    """``package.name`` must not be both a submodule and a public function or class of the package: then
    ``import package.name`` and ``package.name`` disagree."""
    import importlib
    import types

    bad = []
    for module, path in MODULES.items():
        if path.name != "__init__.py":
            continue
        package = importlib.import_module(module)
        for child in MODULES:
            if child.rpartition(".")[0] == module:
                leaf = child.rpartition(".")[2]
                value = package.__dict__.get(leaf)
                if value is not None and not isinstance(value, types.ModuleType):
                    bad.append(f"{module}.{leaf} is a module and a {type(value).__name__}")
    assert not bad, "\n".join(bad)


def test_private_names_stay_in_their_subpackage():
    bad = []
    for module, path in MODULES.items():
        if module in UNLAYERED:  # the package surface may import its private parts (_compat, _version)
            continue
        for line, target, names in _imports(module, path):
            if not target.startswith("symbolic_ti.") or _group(target) == _group(module):
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            leaf = target.rpartition(".")[2]
            if leaf.startswith("_") and not leaf.startswith("__") and target != "symbolic_ti._version":
                private.append(f"module {leaf}")
            if private:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {', '.join(private)} from {target}")
    assert not bad, "private names imported across subpackages:\n" + "\n".join(bad)


def test_old_module_paths_still_import_with_a_warning():
    """Deprecated aliases of 0.1's module paths (symbolic_ti._compat): they import, warn, and never replace
    the public functions ``critical``, ``solve`` and ``verify``."""
    import importlib
    import warnings

    import symbolic_ti
    from symbolic_ti._compat import MOVED_MODULES

    for old, new in MOVED_MODULES.items():
        module = importlib.import_module(old)
        target = importlib.import_module(new)
        public = [n for n in (getattr(target, "__all__", None) or dir(target)) if not n.startswith("_")]
        assert public, new
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(module, public[0])
        assert value is getattr(target, public[0])
        assert any(issubclass(w.category, DeprecationWarning) and new in str(w.message) for w in caught), old
    assert callable(symbolic_ti.critical) and callable(symbolic_ti.solve) and callable(symbolic_ti.verify)
    assert symbolic_ti.critical.__module__ == "symbolic_ti.api"


# --------------------------------------------------------------------------------- imports by name, registries
#: The modules that import by name (``importlib.import_module``, ``__import__``), which the layer test cannot see,
#: and why. A new one fails :func:`test_imports_by_name_are_declared` until it is declared here.
RUNTIME_IMPORTS = {
    "symbolic_ti": "the public names, imported on first use (PEP 562)",
    "symbolic_ti._compat": "the deprecated module paths of 0.1",
    "symbolic_ti.export": "its own submodules on first use",
    "symbolic_ti.numeric": "its own submodules on first use",
    "symbolic_ti.display": "the renderer modules named by renderers_from (export/, upward: REGISTRIES)",
    "symbolic_ti.results": "SUBSTITUTION_MODULE, which registers Result.subs (solvers/, upward: REGISTRIES)",
    "symbolic_ti.families.activations": "math or mpmath as the arithmetic of one kernel evaluation",
    "symbolic_ti.deprecation": "the new home of a name a module kept from before a move (moved_names, until 0.3)",
}

#: The runtime registries: ``(owner, registering function, what imports the registrants)``. Their registrants are
#: the modules that call the function; each registry test below checks that every registrant is imported by the
#: mechanism named, so a call through the registry never finds it empty.
REGISTRIES = (
    ("symbolic_ti.display", "renderer", "RENDERER_MODULES of symbolic_ti/export/__init__.py"),
    ("symbolic_ti.results", "register_substitution", "SUBSTITUTION_MODULE of symbolic_ti/results/__init__.py"),
    ("symbolic_ti.families.base", "register_sum", "symbolic_ti/families/__init__.py imports the registrant"),
)


@functools.cache
def _call_nodes(path: Path) -> tuple[ast.Call, ...]:
    return tuple(n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Call))


def _calls(path: Path, name: str) -> list[ast.Call]:
    """The calls of a function called ``name`` (``name(...)`` or ``x.name(...)``), decorators included."""
    def named(f: ast.expr) -> bool:
        return (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name)
    return [n for n in _call_nodes(path) if named(n.func)]


def _constant(module: str, name: str) -> object:
    """The literal value assigned to ``name`` at the module level of ``module``."""
    for node in ast.parse(MODULES[module].read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return ast.literal_eval(node.value)  # type: ignore[arg-type]
    raise AssertionError(f"{module} assigns no {name}")


def _registrants(function: str, owner: str) -> set[str]:
    return {m for m, path in MODULES.items() if m != owner and _calls(path, function)}


def test_imports_by_name_are_declared():
    found = {m for m, path in MODULES.items() if _calls(path, "import_module") or _calls(path, "__import__")}
    assert found == set(RUNTIME_IMPORTS), (
        f"undeclared imports by name: {sorted(found - set(RUNTIME_IMPORTS))}; declared but gone: "
        f"{sorted(set(RUNTIME_IMPORTS) - found)} (RUNTIME_IMPORTS of tests/test_architecture.py)")


def test_every_renderer_module_is_named_in_renderer_modules():
    """``display`` finds a renderer by importing the modules of ``RENDERER_MODULES`` in turn: a module that
    registers renderers and is not listed would never be imported by a render."""
    listed = {f"symbolic_ti.export.{m}" for m in _constant("symbolic_ti.export", "RENDERER_MODULES")}  # type: ignore[union-attr]
    assert listed <= set(MODULES), sorted(listed - set(MODULES))
    registrants = _registrants("renderer", "symbolic_ti.display")
    assert registrants, "no module registers a renderer: the scan is broken"
    assert registrants <= listed, f"renderer modules missing from RENDERER_MODULES: {sorted(registrants - listed)}"
    assert _calls(MODULES["symbolic_ti.export"], "renderers_from") and any(
        isinstance(a, ast.Constant) and a.value == "symbolic_ti.export"
        for c in _calls(MODULES["symbolic_ti"], "_renderers_from") for a in c.args), \
        "import symbolic_ti must name symbolic_ti.export, which names its renderer modules"


def test_the_substitution_module_registers_result_subs():
    target = _constant("symbolic_ti.results", "SUBSTITUTION_MODULE")
    assert _registrants("register_substitution", "symbolic_ti.results") == {target}, \
        f"Result.subs imports {target}, which must be the one module calling register_substitution"


def test_the_sum_of_families_is_registered_by_the_families_package():
    registrants = _registrants("register_sum", "symbolic_ti.families.base")
    assert registrants == {"symbolic_ti.families.compose"}, registrants
    imported = {target for _, target, _ in _imports("symbolic_ti.families", MODULES["symbolic_ti.families"])}
    assert registrants <= imported, "symbolic_ti/families/__init__.py must import the module that registers +"


def test_the_registries_table_names_real_functions():
    for owner, function, _ in REGISTRIES:
        tree = ast.parse(MODULES[owner].read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.FunctionDef) and n.name == function for n in tree.body), (owner, function)
