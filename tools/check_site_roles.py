"""Docs gate: fail if the built site prints a Sphinx role literally (``:class:`` followed by a name).

The API reference renders the docstrings' roles as cross-references (tools/griffe_sphinx_roles.py); a role left
in the HTML (in text, code included; not in tag attributes) means a docstring or page the rewrite missed.

Usage: python tools/check_site_roles.py SITE_DIR  (exit 1 and one line per page and role when any is left)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: A Sphinx role as it appears in HTML when printed literally: the role, then the target as code or text.
ROLE = re.compile(r":(?:py:)?(class|func|meth|mod|attr|data|exc|obj|const):(?=[`\w~.]|&#96;|$)")
TAG = re.compile(r"<[^>]+>")


def literal_roles(html: str) -> list[str]:
    """The roles printed literally in ``html``: text outside tags that holds ``:kind:`` before a name."""
    found = []
    # only text between tags (an attribute such as title=":class:" is not printed)
    parts = TAG.split(html)
    tags = TAG.findall(html)
    for k, text in enumerate(parts):
        for m in ROLE.finditer(text):
            if m.end() == len(text) and not (k < len(tags) and tags[k].startswith("<code")):
                continue  # ``:class:`` then a tag other than code: not a role's target
            following = text[m.end():] + "".join(f"{tags[j]}{parts[j + 1]}" for j in range(k, min(k + 2, len(tags))))
            found.append(f"{m.group(0)}{TAG.sub('', following)[:40].strip()}")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python tools/check_site_roles.py SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    bad = 0
    for page in sorted(site.rglob("*.html")):
        for role in literal_roles(page.read_text(encoding="utf-8")):
            print(f"{page.relative_to(site)}: literal Sphinx role {role!r}", file=sys.stderr)
            bad += 1
    if bad:
        print(f"{bad} Sphinx roles printed literally in the site (tools/griffe_sphinx_roles.py renders them)",
              file=sys.stderr)
        return 1
    print(f"no literal Sphinx role in {site}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
