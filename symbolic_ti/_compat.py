"""Deprecated module paths of symbolic_ti 0.1, kept for one release (removed in 0.3).

Release 0.2 moved the modules into subpackages by stage of the data flow (docs/architecture.md). The old paths
still import: each gives a stand-in module whose attributes are those of the new module, with a
:class:`DeprecationWarning` naming the new path. ``symbolic_ti.critical``, ``symbolic_ti.solve`` and
``symbolic_ti.verify`` stay the public functions of those names; ``from symbolic_ti.analysis.crossings import
critical_values`` still works (with the warning), and importing an old path never replaces the function.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Collection
from typing import Any

#: Old module path -> new module path.
MOVED_MODULES: dict[str, str] = {
    "symbolic_ti.solve": "symbolic_ti.solvers",
    "symbolic_ti.solve.exact": "symbolic_ti.solvers.dense",
    "symbolic_ti.solve.flint_backend": "symbolic_ti.solvers.flint_backend",
    "symbolic_ti.solve.laplacian": "symbolic_ti.solvers.laplacian",
    "symbolic_ti.solve.numeric": "symbolic_ti.numeric.predictions",
    "symbolic_ti.verify": "symbolic_ti.numeric.verification",
    "symbolic_ti.grid": "symbolic_ti.numeric.grid",
    "symbolic_ti.critical": "symbolic_ti.analysis.crossings",
    "symbolic_ti.conjunctivity": "symbolic_ti.analysis.conjunctivity",
    "symbolic_ti.general": "symbolic_ti.analysis.general",
    "symbolic_ti.data": "symbolic_ti.behaviour.data",
    "symbolic_ti.fit": "symbolic_ti.behaviour.fitting",
    "symbolic_ti.networks": "symbolic_ti.behaviour.networks",
    "symbolic_ti.plot": "symbolic_ti.figures.plot",
    "symbolic_ti.cli_fit": "symbolic_ti.cli.fit",
    "symbolic_ti.cli_plot": "symbolic_ti.cli.plot",
    # issue 27, section 3: the root engine is one subpackage, symbolic_ti.analysis.roots
    "symbolic_ti.analysis.isolation": "symbolic_ti.analysis.roots.isolation",
    "symbolic_ti.analysis.polynomials": "symbolic_ti.analysis.roots.polynomials",
    "symbolic_ti.analysis.roots_ball": "symbolic_ti.analysis.roots.ball",
    "symbolic_ti.analysis.roots_irrational": "symbolic_ti.analysis.roots.irrational",
    "symbolic_ti.analysis.roots_numeric": "symbolic_ti.analysis.roots.numeric",
    # issue 27, section 3: the data families are one subpackage, symbolic_ti.families.data
    "symbolic_ti.families.data_family": "symbolic_ti.families.data.common",
    "symbolic_ti.families.data_loading": "symbolic_ti.families.data.loading",
    "symbolic_ti.families.similarity_checks": "symbolic_ti.families.data.checks",
    "symbolic_ti.families.data_similarity": "symbolic_ti.families.data.similarity",
    "symbolic_ti.families.embedding": "symbolic_ti.families.data.embedding",
    "symbolic_ti.families.precomputed": "symbolic_ti.families.data.precomputed",
    "symbolic_ti.families.precomputed_loading": "symbolic_ti.families.data.trial_gram",
}

#: Old paths that were packages (their old submodules import through them).
_PACKAGES = frozenset({"symbolic_ti.solve"})


class DeprecatedModule(types.ModuleType):
    """Stand-in for a moved module: attribute access goes to the new module, with a DeprecationWarning."""

    __alias_target__: str

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name != "__all__":
            raise AttributeError(name)
        target = importlib.import_module(self.__alias_target__)
        warnings.warn(f"{self.__name__} is deprecated and will be removed in symbolic_ti 0.3; "
                      f"use {self.__alias_target__}", DeprecationWarning, stacklevel=2)
        try:
            return getattr(target, name)
        except AttributeError:
            raise AttributeError(f"module {self.__name__!r} (now {self.__alias_target__}) has no attribute "
                                 f"{name!r}") from None

    def __dir__(self) -> list[str]:
        return sorted(set(dir(importlib.import_module(self.__alias_target__))))


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old module paths of :data:`MOVED_MODULES` and loads them as :class:`DeprecatedModule`."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=fullname in _PACKAGES)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return DeprecatedModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__alias_target__ = MOVED_MODULES[module.__name__]  # type: ignore[attr-defined]
        if module.__name__ in _PACKAGES:
            module.__path__ = []


#: Public names of the package that its module ``__getattr__`` imports on first use (see :func:`install`).
_LAZY_NAMES: set[str] = set()


class _Package(types.ModuleType):
    """Module type of the top-level package: importing an old module path binds it as an attribute of its
    parent, which must not replace a public function of the same name (``critical``, ``solve``, ``verify``),
    whether that function is imported already or only on first use."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, DeprecatedModule) and (name in self.__dict__ or name in _LAZY_NAMES):
            return
        super().__setattr__(name, value)


def install(package_name: str, lazy: Collection[str] = ()) -> None:
    """Install the finder of old module paths and protect the package's public names (called once on import).

    Parameters
    ----------
    package_name : str
        The top-level package (``"symbolic_ti"``).
    lazy : collection of str
        Public names the package imports on first attribute access: protected like those already imported.
    """
    if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _MovedModuleFinder())
    _LAZY_NAMES.update(lazy)
    sys.modules[package_name].__class__ = _Package
