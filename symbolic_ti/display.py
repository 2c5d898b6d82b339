"""How results and reports show themselves, without importing the code that renders them.

Results and reports are plain data (:mod:`symbolic_ti.results`, :mod:`symbolic_ti.analysis`, ...). Their
``to_text``, ``to_latex``, ``to_dict``, ``to_json`` methods and notebook hooks (``_repr_latex_``,
``_repr_html_``) come from :class:`Rendered` and call :func:`render`, which looks up the renderer that
:mod:`symbolic_ti.export` registered for the object's type with :func:`renderer`. So data flows one way: the
export package imports the report types, never the other way round. The renderers are registered lazily:
``import symbolic_ti`` names :mod:`symbolic_ti.export`, which names its renderer modules in order
(:func:`renderers_from`; a Result's first), and a lookup that finds no renderer imports the next of them until it
finds one. So a command that renders nothing imports no renderer, and one that renders a result does not import
those of the fitting or dynamics reports.

Formats: ``"text"``, ``"latex"``, ``"dict"`` (JSON-ready), ``"notebook_latex"`` (MathJax for Jupyter) and
``"html"`` (Jupyter; a renderer may return ``None`` to let the notebook fall back to LaTeX).
"""

from __future__ import annotations

import importlib
import json
import threading
from typing import Any, TypeVar
from collections.abc import Callable, Iterator

from .digits import unlimited_digits
from .errors import ExportError

__all__ = ["FORMATS", "renderer", "renderers_from", "render", "has_renderer", "dumps", "iterencode", "Compact",
           "JSONText", "Rendered"]

#: The formats a renderer can be registered for (``display_text``: ``str()`` where it differs from ``to_text()``,
#: e.g. the summary of a large result).
FORMATS = ("text", "latex", "dict", "notebook_latex", "html", "display_text")

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


def renderers_from(*modules: str) -> None:
    """Name modules whose import registers renderers, imported one by one, in order, by lookups that find none.

    ``import symbolic_ti`` names :mod:`symbolic_ti.export` this way, and that package names its renderer modules
    (:data:`symbolic_ti.export.RENDERER_MODULES`), so that importing the package imports no renderer (nor what
    they import) before something is rendered; this module never imports them itself. A lookup imports the next
    pending module only while it finds no renderer, so a module named before another must not register a
    renderer for a base class of a type the later one registers (the subclass's renderer would not be found
    first); ``tests/test_startup.py`` checks this for the modules of :mod:`symbolic_ti.export`.

    Parameters
    ----------
    *modules : str
        Absolute module names, e.g. ``"symbolic_ti.export.text"``, in the order to import them.
    """
    with _PENDING_LOCK:
        for module in modules:
            if module not in _PENDING:
                _PENDING.append(module)


def _load_next() -> bool:
    """Import the next module named by :func:`renderers_from`; whether there was one."""
    with _PENDING_LOCK:
        if not _PENDING:
            return False
        module = _PENDING[0]
        importlib.import_module(module)  # an ImportError leaves the module pending
        if module in _PENDING:  # (a render during that import may have loaded it already)
            _PENDING.remove(module)
        return True


def _find(fmt: str, obj: Any) -> Callable[..., Any] | None:
    for klass in type(obj).__mro__:
        func = _RENDERERS.get((fmt, klass))
        if func is not None:
            return func
    return None


def _lookup(fmt: str, obj: Any) -> Callable[..., Any] | None:
    func = _find(fmt, obj)
    while func is None and _load_next():
        func = _find(fmt, obj)
    return func


def has_renderer(fmt: str, obj: Any) -> bool:
    """Whether a ``fmt`` renderer is registered for ``type(obj)`` or one of its bases."""
    return _lookup(fmt, obj) is not None


def render(fmt: str, obj: Any, **options: Any) -> Any:
    """Render ``obj`` in format ``fmt`` with the registered renderer (keyword options are passed on).

    Integers of any size print in full (:func:`symbolic_ti.digits.unlimited_digits` while the renderer runs).

    Raises
    ------
    ExportError
        If no renderer is registered for the object's type in that format.
    """
    func = _lookup(fmt, obj)
    if func is None:
        raise ExportError(f"no {fmt} renderer is registered for {type(obj).__name__}")
    with unlimited_digits():  # exact output prints integers of any size in full (symbolic_ti.digits)
        return func(obj, **options)


class Compact(list[Any]):
    """A list that :func:`dumps` and :func:`iterencode` write on one line (``json.dumps`` of it, by the C
    encoder), inside an indented document: the long term lists of the ``poly`` encoding (docs/json_schema.md)."""

    __slots__ = ()


class JSONText:
    """A value already written as compact JSON text (e.g. what :class:`Compact` of the same list gives, or a
    quoted string), written as it is by :func:`iterencode`: ``text``, or the concatenation of a tuple of pieces
    (so that a long string is quoted without being copied)."""

    __slots__ = ("text",)

    def __init__(self, text: str | tuple[str, ...]) -> None:
        self.text = text

    @classmethod
    def quoted(cls, s: str) -> JSONText | str:
        """``s`` as a JSON string (``json.dumps(s)``) where it needs no escape but backslashes, else ``s``.

        The caller guarantees that ``s`` has no control character (the printers of closed forms write
        printable generator names, digits and punctuation)."""
        if '"' in s:
            return s
        return cls(('"', s.replace("\\", "\\\\") if "\\" in s else s, '"'))


def _compact(o: Any) -> str:
    return json.dumps(o, ensure_ascii=False, allow_nan=False)


def _scalar(o: Any) -> str | None:
    """JSON of a str, None, bool, int or float as the standard library writes it (``None`` for anything else)."""
    if isinstance(o, str):
        return json.encoder.encode_basestring(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        if o != o or o in (float("inf"), float("-inf")):
            raise ValueError(f"Out of range float values are not JSON compliant: {o!r}")
        return float.__repr__(o)
    return None


def _key(k: Any) -> str:
    if isinstance(k, str):
        return k
    if isinstance(k, (bool, int, float)) or k is None:
        return _scalar(k) or ""
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


def iterencode(obj: Any, indent: int = 2, level: int = 0) -> Iterator[str]:
    """The chunks of ``json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False)``, except that a
    :class:`Compact` list is written on one line and a :class:`JSONText` as its text (lists and dicts are
    iterated, so a list whose items are made while it is iterated streams).

    Raises
    ------
    TypeError, ValueError
        As ``json.dumps`` (a value of another type; NaN or infinity).
    """
    scalar = _scalar(obj)
    if scalar is not None:
        yield scalar
    elif isinstance(obj, JSONText):
        if isinstance(obj.text, str):
            yield obj.text
        else:
            yield from obj.text
    elif isinstance(obj, Compact):
        yield _compact(obj)
    elif isinstance(obj, (list, tuple)):
        if not obj:
            yield "[]"
            return
        inner = "\n" + " " * (indent * (level + 1))
        sep = "["
        for item in obj:
            scalar = _scalar(item)  # (a scalar joins its separator: fewer chunks, no generator)
            if scalar is not None:
                yield sep + inner + scalar
            else:
                yield sep + inner
                yield from iterencode(item, indent, level + 1)
            sep = ","
        yield "\n" + " " * (indent * level) + "]"
    elif isinstance(obj, dict):
        if not obj:
            yield "{}"
            return
        inner = "\n" + " " * (indent * (level + 1))
        sep = "{"
        for k, v in obj.items():
            scalar = _scalar(v)
            if scalar is not None:
                yield sep + inner + json.encoder.encode_basestring(_key(k)) + ": " + scalar
            else:
                yield sep + inner + json.encoder.encode_basestring(_key(k)) + ": "
                yield from iterencode(v, indent, level + 1)
            sep = ","
        yield "\n" + " " * (indent * level) + "}"
    else:
        raise TypeError(f"Object of type {obj.__class__.__name__} is not JSON serializable")


def dumps(obj: Any, indent: int | None = 2) -> str:
    """JSON text of ``obj`` (a report's dict), keys in the given order, non-ASCII kept, no NaN or infinity; with
    ``indent``, a :class:`Compact` list on one line (:func:`iterencode`).

    Raises
    ------
    ExportError
        If ``obj`` holds a value JSON cannot store (the message says which type).
    """
    try:
        with unlimited_digits():
            if indent is None:
                return _compact(obj)
            return "".join(iterencode(obj, indent))
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
