"""Names that modules kept from before a move (symbolic_ti.deprecation.moved_names): still importable, the same
objects as in their new home, with a DeprecationWarning naming it; nothing else is served."""

from __future__ import annotations

import importlib
import warnings

import pytest

CASES = [
    ("symbolic_ti.analysis.crossings", "Task", "symbolic_ti.task"),
    ("symbolic_ti.analysis.crossings", "exact_number", "symbolic_ti.arguments"),
    ("symbolic_ti.analysis.crossings", "Parameter", "symbolic_ti.families.base"),
    ("symbolic_ti.analysis.conjunctivity", "rank_solution", "symbolic_ti.solvers.laplacian"),
    ("symbolic_ti.analysis.conjunctivity", "TaskError", "symbolic_ti.errors"),
    ("symbolic_ti.export.notebook", "general_to_latex", "symbolic_ti.export.general"),
]


@pytest.mark.parametrize("old, name, home", CASES)
def test_a_moved_name_still_imports_with_a_warning(old, name, home):
    module = importlib.import_module(old)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(home), name)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert home in str(caught[0].message) and "0.3" in str(caught[0].message)


def test_other_names_are_not_served():
    import symbolic_ti.analysis.crossings as crossings

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        crossings.nothing_here  # noqa: B018
