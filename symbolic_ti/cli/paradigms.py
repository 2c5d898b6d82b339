"""``symbolic-ti paradigms``: the named task paradigms, their parameters, reference orders and sources.

::

    symbolic-ti paradigms [--format text|json] [--output FILE]

The list is read from the paradigm registry :data:`symbolic_ti.task.paradigms.PARADIGMS` (registration order),
with the options that set each parameter (``--paradigm NAME``, docs/paradigms.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from .options import CliContext

__all__ = ["register"]

#: The option of each paradigm parameter.
_OPTIONS = {"n": "--items N", "exceptions": "--exception W>L (repeat)", "lists": "--lists K1,K2,...",
            "links": "--link W>L (repeat)"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], context: CliContext) -> None:
    """Add the subcommand ``paradigms`` to the subparsers ``sub`` of ``symbolic-ti``.

    Parameters
    ----------
    sub : argparse subparsers action
        The top-level subcommands of ``symbolic-ti``.
    context : CliContext
        Shared option builders and readers (:mod:`symbolic_ti.cli.options`).
    """
    p = sub.add_parser("paradigms", parents=[context.debug], help="list the task paradigms of --paradigm",
                       description="Task paradigms (--paradigm NAME): parameters, reference order and source.")
    context.output_options(p, ("text", "json"))
    p.set_defaults(run=lambda args: _run(args, context))


def _entries() -> list[dict[str, Any]]:
    """Name, training set, parameters (with their options), reference order and source of every paradigm."""
    from ..task.paradigms import PARADIGMS

    return [{"name": p.name, "summary": p.summary,
             "parameters": [{"name": q, "option": _OPTIONS.get(q, f"--{q}")} for q in p.parameters],
             "reference_order": p.reference_order, "source": p.source} for p in PARADIGMS.values()]


def _run(args: argparse.Namespace, context: CliContext) -> str:
    context.check_output(args)
    entries = _entries()
    if args.format == "json":
        from ..display import dumps

        return dumps({"paradigms": entries, "every_paradigm": ["--train W>L (repeat)", "--labels A,B,..."],
                      "task_file": "--task FILE.toml"})
    lines = []
    for e in entries:
        lines.append(f"{e['name']}: {e['summary']}")
        lines.append("  parameters  " + ", ".join(f"{q['name']} ({q['option']})" for q in e["parameters"]))
        lines.append(f"  reference   {e['reference_order']}")
        lines.append(f"  source      {e['source']}")
        lines.append("")
    lines.append("every paradigm: --train W>L adds one presentation (repeat), --labels A,B,... names the items; "
                 "--task FILE.toml reads any other task (docs/paradigms.md#task-files)")
    return "\n".join(lines)
