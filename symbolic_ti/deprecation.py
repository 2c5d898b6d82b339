"""Names a module kept from before a move, served with a :class:`DeprecationWarning` for one release.

A module that used to define or import a name another module now owns gives it through :func:`moved_names`
(its module ``__getattr__``, PEP 562) instead of a plain import kept only for old code: old imports still work,
with a warning naming the new home, and the module's own code cannot come to depend on the alias. The release
plan is that of :mod:`symbolic_ti._compat`: kept in 0.2, removed in 0.3.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["moved_names", "REMOVED_IN"]

#: The release that removes the deprecated names.
REMOVED_IN = "0.3"


def moved_names(module: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that serves each name of ``homes`` from its new module, with a warning.

    Parameters
    ----------
    module : str
        The module's ``__name__`` (for the messages).
    homes : mapping of str to str
        Each old name to the module that owns it now (``{"Task": "symbolic_ti.task"}``).

    Returns
    -------
    callable ``(name) -> object``
        To assign to the module's ``__getattr__``; raises ``AttributeError`` for any other name.

    Examples
    --------
    >>> import sys, types, warnings
    >>> m = types.ModuleType("old")
    >>> m.__getattr__ = moved_names("old", {"sqrt": "math"})
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     m.__getattr__("sqrt")(4.0), "math" in str(w[0].message)
    (2.0, True)
    """
    table = dict(homes)

    def __getattr__(name: str) -> Any:
        home = table.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} is deprecated and will be removed in symbolic_ti {REMOVED_IN}; import it "
                      f"from {home}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)

    return __getattr__
