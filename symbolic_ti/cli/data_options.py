"""The options that say how a behaviour file is read (:func:`symbolic_ti.behaviour.load_behaviour`): ``--filter``,
``--item-columns``, ``--value-column``, ``--kind``, ``--count-column``, ``--correct-column``, ``--total-column``.

One builder, :func:`data_options`, adds them to ``fit`` and to ``design --data``; re-exported by
:mod:`symbolic_ti.cli.options` (``CliContext.data_options``) as the other builders are.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .parsing import Parser, option_type

__all__ = ["DATA_KINDS", "DEFAULT_VALUE_COLUMN", "data_options", "parse_filter_option", "parse_columns",
           "value_column_of"]

#: What the value column of a behaviour file may hold (``--kind``).
DATA_KINDS = ("probability", "accuracy", "score")
#: The value column read when ``--value-column`` is not given and the file has it (the LM table's column).
DEFAULT_VALUE_COLUMN = "mean_prob_yes"


def parse_columns(text: str) -> tuple[str, str]:
    """``--item-columns A,B``: two non-empty column names."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise argparse.ArgumentTypeError(f"expected two column names A,B (first item, second item), got {text!r}")
    return parts[0], parts[1]


def parse_filter_option(text: str) -> tuple[str, str]:
    """``--filter COL=VALUE`` (:func:`symbolic_ti.behaviour.data.parse_filter`, imported only when the option is
    read: building the parser of every subcommand must not import numpy)."""
    from ..behaviour.data import parse_filter

    return parse_filter(text)


def data_options(p: argparse.ArgumentParser | Parser, kinds: Sequence[str] = DATA_KINDS, lead: str = "") -> None:
    """Add the options that say how a behaviour file is read (read back as ``args.filter``, ``args.item_columns``,
    ``args.value_column``, ``args.kind``, ``args.count_column``, ``args.correct_column``, ``args.total_column``).

    Parameters
    ----------
    p : argparse.ArgumentParser
    kinds : sequence of str
        The choices of ``--kind`` (a subset of :data:`DATA_KINDS`: ``design`` reads choices only).
    lead : str
        Put before every help text (``"with --data: "`` where the file is an option of its own).
    """
    p.add_argument("--filter", action="append", default=[], metavar="COL=VALUE",
                   type=option_type("--filter", parse_filter_option),
                   help=lead + "keep rows with COL equal to VALUE (repeat; values of one column: any; columns: all); "
                               "the remaining rows are averaged per trial")
    p.add_argument("--item-columns", default=("item_a", "item_b"), metavar="A,B",
                   type=option_type("--item-columns", parse_columns),
                   help=lead + "columns of the first and second item (default: item_a,item_b)")
    p.add_argument("--value-column", default=None, metavar="C",
                   help=lead + f"column of the observed quantity (default: {DEFAULT_VALUE_COLUMN}, the column of the "
                               "LM table, if the file has it; otherwise needed)")
    words = {"probability": "P(first item wins)", "accuracy": "fraction correct", "score": "a real score"}
    guess = {"probability": "", "accuracy": "accuracy if the column name contains 'acc', ",
             "score": "score if it contains 'logit' or 'score', "}
    p.add_argument("--kind", choices=tuple(kinds), default=None,
                   help=lead + "what the value column holds: " + ", ".join(words[k] for k in kinds)
                        + " (default: " + "".join(guess[k] for k in kinds) + "else probability)")
    p.add_argument("--count-column", default=None, metavar="C",
                   help=lead + "column of per-row counts used as weights, e.g. n_seeds (default: none, each row is "
                               "one observation: proportions)")
    p.add_argument("--correct-column", metavar="C", default=None,
                   help=lead + "column of correct answers per row, with --total-column: exact binomial counts (then "
                               "--value-column and --count-column are not read; default: not used)")
    p.add_argument("--total-column", metavar="C", default=None,
                   help=lead + "column of choices per row (>= the correct count), with --correct-column")


def value_column_of(args: argparse.Namespace, path: str | None) -> str:
    """The value column to read: ``--value-column``, or :data:`DEFAULT_VALUE_COLUMN` when the file has it.

    Raises
    ------
    UsageError
        ``--value-column`` not given (nor ``--correct-column``, which reads counts instead) and the file has no
        column :data:`DEFAULT_VALUE_COLUMN`: the message says the option is needed and lists the file's columns.
    """
    from pathlib import Path

    from ..behaviour.table import read_header
    from .parsing import UsageError

    if args.value_column is not None:
        return str(args.value_column)
    header = read_header(Path(path)) if path is not None and args.correct_column is None else None
    if header is None or DEFAULT_VALUE_COLUMN in header:
        return DEFAULT_VALUE_COLUMN  # (an unreadable file: the loader says why)
    raise UsageError(f"argument --value-column: is needed: {Path(str(path)).name} has no column "
                     f"{DEFAULT_VALUE_COLUMN!r} (the default, the LM table's); name the column of the observed "
                     f"quantity, one of: {', '.join(header)}")
