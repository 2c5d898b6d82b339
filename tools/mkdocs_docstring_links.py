"""mkdocs hook: turn the ``docs/NAME.md#anchor`` references in docstrings into links, and check them.

Docstrings cite the page that derives a formula as plain text, e.g. ``docs/theory.md#graph-laplacian-reduction``,
which reads well in ``help()``. In the built site (API reference pages) every such reference becomes a link to the
page and anchor; a reference to a missing page or a missing heading is a warning, which ``mkdocs build --strict``
turns into an error.
"""

from __future__ import annotations

import logging
import re

log = logging.getLogger("mkdocs.plugins.docstring_links")

_REF = re.compile(r"(?<![\w/.-])docs/([A-Za-z0-9_]+)\.md(?:#([A-Za-z0-9_-]+))?")
_anchors: dict[str, set[str]] = {}


def _collect(toc, out: set[str]) -> None:
    for item in toc:
        out.add(item.id)
        _collect(item.children, out)


def on_page_content(html, page, config, files):
    src = page.file.src_uri
    if not src.startswith("api/"):
        ids: set[str] = set()
        _collect(page.toc, ids)
        ids.update(re.findall(r'id="([^"]+)"', html))
        _anchors[src] = ids
        return html

    def link(m: re.Match) -> str:
        name, anchor = m.group(1), m.group(2)
        target = f"{name}.md"
        if files.get_file_from_path(target) is None:
            log.warning("%s: docstring cites docs/%s, which does not exist", src, target)
            return m.group(0)
        if anchor and anchor not in _anchors.get(target, set()):
            log.warning("%s: docstring cites docs/%s#%s, a heading that does not exist", src, target, anchor)
        depth = page.url.count("/") if config.get("use_directory_urls", True) else page.url.count("/")
        href = "../" * depth + f"{name}/"
        return f'<a href="{href}{"#" + anchor if anchor else ""}">{m.group(0)}</a>'

    # only outside tags: split on tags and rewrite text runs
    parts = re.split(r"(<[^>]+>)", html)
    return "".join(p if p.startswith("<") else _REF.sub(link, p) for p in parts)
