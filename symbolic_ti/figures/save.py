"""Writing a figure to a file, atomically, in the format its suffix names."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..errors import ExportError
from .backend import require_matplotlib

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FORMATS", "save_figure"]

#: Output formats of :func:`save_figure`, by file suffix.
FORMATS: Mapping[str, str] = MappingProxyType({".png": "png", ".pdf": "pdf", ".svg": "svg"})


def save_figure(fig: Figure, path: str | Path, *, dpi: float | None = None) -> Path:
    """Write a Figure to ``path`` atomically, in the format given by its suffix (.png, .pdf, .svg).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    path : str or Path
        Destination; its suffix picks the format. The file is either written whole or left untouched
        (temporary file and rename, as :func:`symbolic_ti.files.write_atomic`).
    dpi : float, optional
        Resolution for PNG (default: matplotlib's).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ExportError
        For an unknown suffix, an unwritable path, or a missing matplotlib.
    """
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise ExportError(f"cannot write {str(p)!r}: unknown figure format {p.suffix or '(no suffix)'!r}; use a "
                          f"file name ending in {', '.join(FORMATS)}")
    from ..files import check_writable, write_atomic

    check_writable(p)
    require_matplotlib()
    buf = io.BytesIO()
    kw: dict[str, Any] = {"format": fmt}
    if dpi is not None:
        kw["dpi"] = dpi
    if fmt == "png":
        kw["metadata"] = {"Software": "symbolic_ti"}
    fig.savefig(buf, **kw)
    write_atomic(p, buf.getvalue())
    return p
