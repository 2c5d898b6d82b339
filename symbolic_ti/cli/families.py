"""``symbolic-ti families``: the representation families, their parameters and domains.

::

    symbolic-ti families [--format text|json] [--output FILE]

The list is read from the family registry :data:`symbolic_ti.families.FAMILIES` (registration order) and each
family's parameter table.
"""

from __future__ import annotations

import argparse
import re
from typing import TypedDict

from .options import CliContext

__all__ = ["register"]


class _Entry(TypedDict):
    name: str
    description: str
    parameters: list[dict[str, str]]


#: What a data parameter takes, where it is not a file (``activation=erf`` or ``activation="tanh(u)"``).
_DATA_DOMAINS = {"activation": "NAME|EXPR"}

#: A reST role such as ``:mod:`symbolic_ti.families` `` or ``:func:`~x.y <y>` ``: kept is its text.
_ROLE = re.compile(r":[A-Za-z]+(?::[A-Za-z]+)?:`~?([^`<]*?)\s*(?:<[^`]*>)?`")

#: The ridge, a parameter of every family.
_RIDGE = {"name": "lambda", "domain": "[0, oo)",
          "description": "ridge on the sum of squared errors; set with --ridge VALUE or --ridgeless"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``families`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    f = sub.add_parser("families", parents=[context.debug], help="list the representation families and parameters",
                       description="Representation families, their parameters and domains.")
    context.output_options(f, ("text", "json"))
    f.set_defaults(run=lambda args: _run(args, context))


def _entries() -> list[_Entry]:
    """Name, one-line description and parameters (name, domain, description) of every registered family."""
    from ..families import FAMILIES

    entries: list[_Entry] = []
    for name, cls in FAMILIES.items():  # registration order: exchangeable first
        doc = (cls.__doc__ or "").strip()
        data = [{"name": key, "domain": _DATA_DOMAINS.get(key, "FILE"), "description": text}
                for key, text in cls.data_parameters]
        entries.append({
            "name": name,
            "description": _first_sentence(doc),
            "parameters": data + [{"name": p.name, "domain": p.domain_text(), "description": p.description}
                                  for p in cls.parameters],
        })
    return entries


def _first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph (which may span several lines), without reST quotes and
    roles (``:mod:`x.y``` reads ``x.y``)."""
    paragraph = _ROLE.sub(r"\1", " ".join(doc.split("\n\n", 1)[0].split())).replace("``", "")
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


def _run(args: argparse.Namespace, context: CliContext) -> str:
    context.check_output(args)
    entries = _entries()
    if args.format == "json":
        from ..display import dumps  # (as export.jsonreport.dumps; without importing the renderers)

        return dumps({"families": entries, "ridge": _RIDGE})
    lines = []
    for e in entries:
        lines.append(f"{e['name']}: {e['description']}")
        width = max(len(p["name"]) for p in e["parameters"] + [_RIDGE])
        domain = max([8] + [len(p["domain"]) for p in e["parameters"]])
        for p in e["parameters"]:
            lines.append(f"  {p['name']:<{width}}  {p['domain']:<{domain}}  {p['description']}")
        lines.append("")
    lines.append(f"every family: {_RIDGE['name']} in {_RIDGE['domain']}, {_RIDGE['description']}")
    return "\n".join(lines)
