"""All rendering: text, LaTeX, JSON and notebook (HTML, MathJax) output of every result and report.

Results and reports are plain data that inherit :class:`symbolic_ti.display.Rendered`; the modules of this
package register their renderers with :func:`symbolic_ti.display.renderer` when they are imported. This package
names every renderer module in :data:`RENDERER_MODULES` (one line each) and hands the list to
:func:`symbolic_ti.display.renderers_from`: a render that finds no renderer imports the next module of the list
until one is found. ``import symbolic_ti`` names this package the same way, so nothing here is imported before
the first render, and a result's renderers (the first three modules) are imported without those of the fitting
and dynamics reports (numpy). A new renderer module gets its line in :data:`RENDERER_MODULES`; a module must not
register a renderer for a base class of a type that a later module renders (``tests/test_startup.py``). The
submodules are attributes of this package, as when it imported them all (``symbolic_ti.export.latex``).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ..display import renderers_from

#: Every renderer module, in the order the renders that find no renderer import them: a Result's text, LaTeX and
#: JSON dict first, the others sorted.
RENDERER_MODULES = (
    "text",
    "latex_result",
    "jsonreport",
    "bayes",
    "conjunctivity",
    "critical",
    "curves",
    "design",
    "dynamics",
    "fit",
    "fit_reports",
    "general",
    "hierarchical",
    "latex",
    "latex_parse",
    "latex_printer",
    "notebook",
    "summary",
    "values",
    "verification",
)

renderers_from(*(f"{__name__}.{module}" for module in RENDERER_MODULES))


def __getattr__(name: str) -> Any:
    """A submodule of this package, imported on first use (as when every renderer module was imported)."""
    if name.startswith("_") or importlib.util.find_spec(f"{__name__}.{name}") is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importlib.import_module(f"{__name__}.{name}")
