"""Griffe extension: render the Sphinx roles of the docstrings as cross-references in the API reference.

The docstrings name other objects with Sphinx roles (``:func:`~symbolic_ti.api.derive```, ``:mod:`.roots```,
``:class:`Task```), which read well in ``help()`` and are left as they are in the source. mkdocstrings does not
know them and would print the role literally; this extension rewrites each docstring's text, after griffe has
loaded the package and before mkdocstrings parses it, into mkdocstrings' own cross-reference syntax
``<autoref identifier="full.path" optional>`` (what mkdocstrings writes for the names in signatures):

- ``~a.b.c`` shows ``c``; ``a.b.c`` shows the whole path; ``title <a.b.c>`` shows ``title``;
- a leading ``.`` is relative to the docstring's package (``:mod:`.roots``` in ``symbolic_ti.analysis``), a bare
  name is looked up in the docstring's scope (its class, module, and their imports), as Sphinx does;
- a target inside symbolic_ti that griffe cannot find is a warning (so ``mkdocs build --strict`` fails on it);
- a target outside the package (``argparse.Namespace``, ``sympy.Expr``) is shown as code, without a link: the
  site has no inventory of other projects.

Loaded by mkdocs.yml (``plugins: mkdocstrings: handlers: python: options: extensions``). The docs gate checks
the built site for roles left literal (tools/check_site_roles.py).
"""

from __future__ import annotations

import builtins
import html
import logging
import re
from typing import Any

import griffe

log = logging.getLogger("mkdocs.plugins.griffe_sphinx_roles")

PACKAGE = "symbolic_ti"
#: A Sphinx role of the Python domain: ``:kind:`target``` (``:py:kind:`` too); the target may wrap a line.
ROLE = re.compile(r":(?:py:)?(class|func|meth|mod|attr|data|exc|obj|const):`([^`]+)`")


def _lookup(root: griffe.Module, path: str) -> griffe.Object | griffe.Alias | None:
    """The object at the dotted ``path`` inside the package ``root``, or None."""
    if path == root.path:
        return root
    if not path.startswith(root.path + "."):
        return None
    try:
        return root[path[len(root.path) + 1:]]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _module_of(obj: griffe.Object) -> griffe.Module:
    while not isinstance(obj, griffe.Module):
        obj = obj.parent  # type: ignore[assignment]
    return obj


def _target(obj: griffe.Object, root: griffe.Module, name: str) -> str | None:
    """The full path of the role target ``name`` in the docstring of ``obj`` (None: not in the package)."""
    if name.startswith("."):
        module = _module_of(obj)
        package = module.path if module.is_init_module else module.path.rpartition(".")[0]
        dots = len(name) - len(name.lstrip("."))
        base = package.split(".")
        base = base[: len(base) - dots + 1]
        return ".".join(base + [name.lstrip(".")])
    if _lookup(root, name) is not None or name.startswith(root.path + "."):
        return name
    scope: griffe.Object | None = obj
    head, _, rest = name.partition(".")
    while scope is not None:  # the name in the scope of the object, its class and module (imports included)
        try:
            members = scope.all_members if isinstance(scope, griffe.Class) else scope.members  # inherited too
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            members = scope.members
        member = members.get(head)
        if member is not None:
            path = member.path if not rest else f"{member.path}.{rest}"
            if isinstance(member, griffe.Alias):
                try:
                    path = member.target_path if not rest else f"{member.target_path}.{rest}"
                except griffe.AliasResolutionError:
                    pass
            return path if path.startswith(root.path) else None
        scope = scope.parent
    found = _BY_NAME.get(root.path, {}).get(head, [])
    if len(found) == 1:  # one object of that name in the package (Sphinx's search, but unique)
        return found[0] if not rest else f"{found[0]}.{rest}"
    return None


#: Per package: object name -> the paths of the (non-alias) objects of that name.
_BY_NAME: dict[str, dict[str, list[str]]] = {}


def _rewrite(obj: griffe.Object, root: griffe.Module, text: str) -> str:
    def link(m: re.Match[str]) -> str:
        kind, body = m.group(1), " ".join(m.group(2).split())
        title = None
        explicit = re.fullmatch(r"(.+?)\s*<([^<>]+)>", body)
        if explicit:
            title, body = explicit.group(1), explicit.group(2)
        body = body.replace(" ", "")  # a target wrapped at a dot: ``symbolic_ti.display.\n    renderers_from``
        if body.startswith("!"):
            return f"`{title or body[1:]}`"
        short = body.startswith("~")
        name = body.lstrip("~")
        shown = title or (name.lstrip(".").rpartition(".")[2] if short else name.lstrip("."))
        path = _target(obj, root, name)
        if kind in ("attr", "data") and (path is None or _lookup(root, path) is None):
            # an attribute griffe does not see (set in ``__init__``, or by tuple assignment ``A, B = 1, 2``):
            # shown as code if its owner exists
            owner = (path or name).rpartition(".")[0]
            if not owner or _lookup(root, owner) is not None or not owner.startswith(root.path):
                return f"`{shown}`"
        if path is None:
            if (name.startswith(root.path) or "." not in name) and not hasattr(builtins, name):
                log.warning("%s: the docstring's :%s:`%s` names nothing in %s", obj.path, kind, m.group(2),
                            root.path)
            return f"`{shown}`"
        if _lookup(root, path) is None:
            log.warning("%s: the docstring's :%s:`%s` names %s, which does not exist", obj.path, kind, m.group(2),
                        path)
            return f"`{shown}`"
        # optional: a target that exists but has no entry of its own on the site (a constant documented by a
        # comment, a dataclass field listed under Attributes) is shown as code; a missing one warned above
        return f'<autoref identifier="{path}" optional><code>{html.escape(shown)}</code></autoref>'

    return ROLE.sub(link, text)


class SphinxRoles(griffe.Extension):
    """Rewrite the Sphinx roles of every docstring of the package into mkdocstrings cross-references."""

    def on_package(self, *, pkg: griffe.Module, loader: Any, **kwargs: Any) -> None:
        if pkg.path != PACKAGE:
            return
        seen: set[int] = set()
        by_name: dict[str, list[str]] = {}

        def index(obj: griffe.Object) -> None:
            by_name.setdefault(obj.name, []).append(obj.path)
            for member in obj.members.values():
                if not isinstance(member, griffe.Alias):
                    index(member)

        index(pkg)
        _BY_NAME[pkg.path] = by_name

        def walk(obj: griffe.Object) -> None:
            if id(obj) in seen:
                return
            seen.add(id(obj))
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = _rewrite(obj, pkg, obj.docstring.value)
            for member in obj.members.values():
                if not isinstance(member, griffe.Alias):
                    walk(member)

        walk(pkg)
