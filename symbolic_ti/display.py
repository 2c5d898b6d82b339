"""How results and reports show themselves, without importing the code that renders them.

Results and reports are plain data (:mod:`symbolic_ti.results`, :mod:`symbolic_ti.analysis`, ...). Their
``to_text``, ``to_latex``, ``to_dict``, ``to_json`` methods and notebook hooks (``_repr_latex_``,
``_repr_html_``) come from :class:`Rendered` and call :func:`render`, which looks up the renderer that
:mod:`symbolic_ti.export` registered for the object's type with :func:`renderer`. So data flows one way: the
export package imports the report types, never the other way round. The renderers are registered lazily:
``import symbolic_ti`` names the package that registers them (:func:`renderers_from`), and the first lookup that
finds no renderer imports it, so that a command which renders nothing never pays for importing the renderers.

Formats: ``"text"``, ``"latex"``, ``"dict"`` (JSON-ready), ``"notebook_latex"`` (MathJax for Jupyter) and
``"html"`` (Jupyter; a renderer may return ``None`` to let the notebook fall back to LaTeX).
"""

from __future__ import annotations

import importlib
import json
import threading
from typing import Any, TypeVar
from collections.abc import Callable

from .errors import ExportError

__all__ = ["FORMATS", "renderer", "renderers_from", "render", "has_renderer", "dumps", "Rendered"]

#: The formats a renderer can be registered for.
FORMATS = ("text", "latex", "dict", "notebook_latex", "html")

_RENDERERS: dict[tuple[str, type], Callable[..., Any]] = {}
#: Modules whose import registers renderers, not imported yet (:func:`renderers_from`).
_PENDING: list[str] = []
_PENDING_LOCK = threading.RLock()  # held while importing, so that another thread's lookup waits for it

F = TypeVar("F", bound=Callable[..., Any])


def renderer(fmt: str, cls: type) -> Callable[[F], F]:
    """Register the decorated function as the ``fmt`` renderer of ``cls`` (and of its subclasses).

    Raises
    ------
    ValueError
        If ``fmt`` is not one of :data:`FORMATS`.
    """
    if fmt not in FORMATS:
        raise ValueError(f"renderer: format must be one of {', '.join(FORMATS)}, got {fmt!r}")

    def register(func: F) -> F:
        _RENDERERS[(fmt, cls)] = func
        return func

    return register


def renderers_from(module: str) -> None:
    """Name a module whose import registers renderers; it is imported by the first lookup that finds none.

    ``import symbolic_ti`` names :mod:`symbolic_ti.export` this way, so that importing the package does not import
    every renderer (and what they import) before any result is rendered; this module never imports it itself.

    Parameters
    ----------
    module : str
        Absolute module name, e.g. ``"symbolic_ti.export"``.
    """
    with _PENDING_LOCK:
        if module not in _PENDING:
            _PENDING.append(module)


def _load_pending() -> bool:
    """Import the modules named by :func:`renderers_from` not imported yet; whether there were any."""
    with _PENDING_LOCK:
        if not _PENDING:
            return False
        while _PENDING:
            module = _PENDING[0]
            importlib.import_module(module)  # an ImportError leaves the module pending
            if _PENDING and _PENDING[0] == module:  # (a render during that import may have popped it)
                _PENDING.pop(0)
        return True


def _find(fmt: str, obj: Any) -> Callable[..., Any] | None:
    for klass in type(obj).__mro__:
        func = _RENDERERS.get((fmt, klass))
        if func is not None:
            return func
    return None


def _lookup(fmt: str, obj: Any) -> Callable[..., Any] | None:
    func = _find(fmt, obj)
    if func is None and _load_pending():
        func = _find(fmt, obj)
    return func


def has_renderer(fmt: str, obj: Any) -> bool:
    """Whether a ``fmt`` renderer is registered for ``type(obj)`` or one of its bases."""
    return _lookup(fmt, obj) is not None


def render(fmt: str, obj: Any, **options: Any) -> Any:
    """Render ``obj`` in format ``fmt`` with the registered renderer (keyword options are passed on).

    Raises
    ------
    ExportError
        If no renderer is registered for the object's type in that format.
    """
    func = _lookup(fmt, obj)
    if func is None:
        raise ExportError(f"no {fmt} renderer is registered for {type(obj).__name__}")
    return func(obj, **options)


def dumps(obj: Any, indent: int | None = 2) -> str:
    """JSON text of ``obj`` (a report's dict), keys in the given order, non-ASCII kept, no NaN or infinity.

    Raises
    ------
    ExportError
        If ``obj`` holds a value JSON cannot store (the message says which type).
    """
    try:
        return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ExportError(f"cannot write JSON: {err}") from None


class Rendered:
    """Mixin: ``to_text``, ``to_latex``, ``to_dict``, ``to_json``, ``__str__`` and the notebook hooks, each
    through :func:`render`. Options are those of the registered renderer (see :mod:`symbolic_ti.export`)."""

    __slots__ = ()

    def to_text(self, **options: Any) -> str:
        """Plain-text report."""
        return str(render("text", self, **options))

    def to_latex(self, **options: Any) -> str:
        """LaTeX (``notebook=True`` for the MathJax form a notebook shows)."""
        return str(render("latex", self, **options))

    def to_dict(self, **options: Any) -> dict[str, Any]:
        """JSON-ready dictionary, opening with a versioned ``meta`` block (docs/json_schema.md)."""
        out: dict[str, Any] = render("dict", self, **options)
        return out

    def to_json(self, indent: int | None = 2, **options: Any) -> str:
        """JSON text of :meth:`to_dict` (:func:`dumps`)."""
        return dumps(self.to_dict(**options), indent=indent)

    def _repr_latex_(self) -> str | None:
        if not has_renderer("notebook_latex", self):
            return None
        out = render("notebook_latex", self)
        return None if out is None else str(out)

    def to_html(self) -> str | None:
        """HTML (as a notebook shows it), or ``None`` where the notebook shows LaTeX instead."""
        return self._repr_html_()

    def _repr_html_(self) -> str | None:
        if not has_renderer("html", self):
            return None
        out = render("html", self)
        return None if out is None else str(out)

    def __str__(self) -> str:
        return self.to_text()
