"""Example data shipped with the package: :func:`example_data` returns the path of a file by its name.

The files live beside this module (package data of the wheel and the sdist); their provenance and the terms on
which they are redistributed are in this folder's ``README.md`` and in :data:`EXAMPLE_DATA`. The command line
reads them as ``--data example:NAME`` (:func:`data_argument`), from any directory::

    symbolic-ti fit --data example:lm_pair_summary_n9 --items 9 --exception '6>4' ...

======================  =======================================================================================
``lm_pair_summary_n9``  Per-trial behaviour of four pretrained language models finetuned on the 9-item
                        hierarchies ``ti_n9`` and ``exc_mid_n9`` (exception 6>4), before and after finetuning,
                        averaged over 50 seeds (Cheng & Lippl 2026, aggregated from the result tables of the
                        authors' public code release github.com/sflippl/ti-with-exceptions). CSV.gz, 79,488
                        rows, 626,168 bytes; columns in ``README.md``.
======================  =======================================================================================
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.resources
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError

__all__ = ["ExampleData", "EXAMPLE_DATA", "EXAMPLE_PREFIX", "example_data", "data_argument"]

#: The prefix that names an example data set where the command line expects a file: ``example:NAME``.
EXAMPLE_PREFIX = "example:"


@dataclass(frozen=True)
class ExampleData:
    """One example data file shipped with the package.

    Attributes
    ----------
    name : str
        The name :func:`example_data` takes (the file name without its extension).
    filename : str
        The file beside this module.
    description : str
        What the file holds, in one sentence.
    source : str
        Where it comes from (publication and upstream repository).
    licence : str
        What is known about the terms of redistribution.
    """

    name: str
    filename: str
    description: str
    source: str
    licence: str


#: The example data sets by name.
EXAMPLE_DATA: dict[str, ExampleData] = {
    "lm_pair_summary_n9": ExampleData(
        name="lm_pair_summary_n9",
        filename="lm_pair_summary_n9.csv.gz",
        description="per-trial behaviour of pretrained language models finetuned on the 9-item hierarchies "
                    "ti_n9 and exc_mid_n9 (exception 6>4), before and after finetuning, averaged over 50 seeds",
        source="Cheng & Lippl, 'A mathematical theory of balancing relational generalization and memorization' "
               "(arXiv 2605.22972, 2026); aggregated over seeds from the result tables (data/) of the authors' "
               "public code release, github.com/sflippl/ti-with-exceptions",
        licence="the upstream repository states no licence (no licence file, none in its README); the table is "
                "redistributed unchanged, for reproducing the paper's results, and is not covered by "
                "symbolic_ti's MIT licence",
    ),
}

_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


def example_data(name: str) -> Path:
    """Return the path of the example data file ``name`` shipped with the package.

    Parameters
    ----------
    name : str
        One of :data:`EXAMPLE_DATA` (``"lm_pair_summary_n9"``); the file name with its extension is accepted
        too.

    Returns
    -------
    pathlib.Path
        A readable file: in the installed package (or the checkout), or, for a package imported from a zip
        archive, a temporary copy kept until the interpreter exits.

    Raises
    ------
    DataError
        If ``name`` is not a string or names no example data set (the message lists those that exist), or the
        installation lacks the file.

    Examples
    --------
    >>> from symbolic_ti import example_data
    >>> example_data("lm_pair_summary_n9").name
    'lm_pair_summary_n9.csv.gz'
    """
    if not isinstance(name, str):
        raise DataError(f"example data: the name must be a string, got {type(name).__name__}")
    entry = EXAMPLE_DATA.get(name) or next((e for e in EXAMPLE_DATA.values() if e.filename == name), None)
    if entry is None:
        raise DataError(f"example data {name!r} does not exist; the example data sets are: "
                        f"{', '.join(EXAMPLE_DATA)}")
    resource = importlib.resources.files(__name__).joinpath(entry.filename)
    if not resource.is_file():
        raise DataError(f"example data {name!r}: {entry.filename} is missing from the installed package "
                        f"({importlib.resources.files(__name__)}); reinstall symbolic-ti")
    if isinstance(resource, Path):
        return resource
    return Path(_extracted.enter_context(importlib.resources.as_file(resource)))  # pragma: no cover (zip)


def data_argument(text: str) -> str | Path:
    """Read a command-line data argument: ``example:NAME`` is :func:`example_data` ``(NAME)``, anything else a
    path, returned unchanged (``./example:x`` reads a file of that name).

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    str or pathlib.Path

    Raises
    ------
    DataError
        For ``example:NAME`` with a name that is not an example data set.
    """
    if text.startswith(EXAMPLE_PREFIX):
        return example_data(text[len(EXAMPLE_PREFIX):])
    return text
