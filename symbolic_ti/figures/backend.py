"""The optional plotting dependency: matplotlib (extra ``plot``), imported only when a figure is drawn or saved.

No pyplot state is used: figures are plain ``matplotlib.figure.Figure`` objects (no display needed).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from ..errors import ExportError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["INSTALL_HINT", "require_matplotlib", "new_figure"]

#: How to install the optional plotting dependency.
INSTALL_HINT = 'pip install "symbolic-ti[plot]"'


def require_matplotlib() -> ModuleType:
    """Import matplotlib, or raise an ExportError that says how to install it.

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    """
    try:
        import matplotlib
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise ExportError(f"plotting needs matplotlib, the optional extra 'plot' of symbolic-ti; install it with: "
                          f"{INSTALL_HINT}") from None
    return matplotlib


def new_figure(figsize: tuple[float, float]) -> Figure:
    """A ``matplotlib.figure.Figure`` of ``figsize`` inches with the constrained layout (no pyplot).

    Raises
    ------
    ExportError
        If matplotlib is not installed.
    """
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, layout="constrained")
