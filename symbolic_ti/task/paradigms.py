"""Named paradigms: each builds the comparisons, reference order and labels of a task from a few parameters.

Every entry names its parameters, its source (paper and experiment, or code) and its reference order. The
registry is read by :meth:`symbolic_ti.task.Task.paradigm` and the ``--paradigm`` option; docs/paradigms.md says
what the theory predicts for each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..arguments import check_int
from ..digits import message_repr
from ..errors import TaskError
from .design import check_labels
from .naming import comparison_by_number
from .pairs import Comparison, exception_list, parse_comparison, parse_exception

__all__ = ["Paradigm", "PARADIGMS", "TaskSpec", "build", "paradigm_names"]


class TaskSpec(NamedTuple):
    """What a task is built from: items, comparisons with counts, reference order, labels, its design, and the
    test trials it names (a task file's ``test_trials``, as written: checked against the task once it is built)."""

    n: int
    comparisons: tuple[Comparison, ...]
    reference: Any
    labels: tuple[str, ...] | None
    name: str
    parameters: tuple[tuple[str, Any], ...]
    trials: Any = None


@dataclass(frozen=True)
class Paradigm:
    """A named paradigm.

    Attributes
    ----------
    name : str
        Its name on the command line and in ``Task.paradigm``.
    parameters : tuple of str
        Its parameters (each also an option of ``derive``: ``n`` is ``--items``).
    reference_order : str
        The reference order it gives test trials.
    source : str
        Where the paradigm comes from (paper and experiment, or code).
    summary : str
        One line on its training set.
    make : callable
        ``make(parameters) -> TaskSpec`` (parameters already read as ``name -> value``).
    """

    name: str
    parameters: tuple[str, ...]
    reference_order: str
    source: str
    summary: str
    make: Callable[[dict[str, Any]], TaskSpec]


def _n(params: Mapping[str, Any], paradigm: str, minimum: int = 3) -> int:
    if "n" not in params:
        raise TaskError(f"paradigm {paradigm} needs n, the number of items (--items N)")
    try:
        return check_int(params["n"], f"{paradigm}: n (number of items)", minimum=minimum)
    except Exception as err:  # noqa: BLE001 - a parameter error of n, as a task error with the same text
        raise TaskError(str(err)) from None


def _labels(params: Mapping[str, Any], n: int) -> tuple[str, ...] | None:
    """The paradigm's ``labels`` read by :func:`symbolic_ti.task.design.check_labels` (the one reading)."""
    return check_labels(n, params.get("labels"))


def _ti(params: dict[str, Any]) -> TaskSpec:
    n = _n(params, "ti")
    pairs = [parse_exception(e) for e in exception_list(params.get("exceptions"))]
    comps = tuple(Comparison(i, i + 1) for i in range(1, n)) + tuple(Comparison(e.winner, e.loser) for e in pairs)
    return TaskSpec(n, comps, None, _labels(params, n), "ti", (("n", n), ("exceptions", tuple(map(str, pairs)))))


def _transverse(params: dict[str, Any]) -> TaskSpec:
    n = _n(params, "transverse-patterning")
    comps = tuple(Comparison(i, i % n + 1) for i in range(1, n + 1))
    return TaskSpec(n, comps, None, _labels(params, n), "transverse-patterning", (("n", n),))


def _banded(params: dict[str, Any]) -> TaskSpec:
    n = _n(params, "banded-transverse-patterning", minimum=5)
    if n == 6:
        raise TaskError("banded-transverse-patterning: n = 6 trains both i>i+3 and i+3>i (a contradiction); "
                        "n must be 5 or at least 7")
    comps = tuple(Comparison(i, i % n + 1) for i in range(1, n + 1)) + tuple(
        Comparison(i, (i + 2) % n + 1) for i in range(1, n + 1))
    return TaskSpec(n, comps, None, _labels(params, n), "banded-transverse-patterning", (("n", n),))


def _lengths(value: Any) -> tuple[int, ...]:
    if value is None:
        raise TaskError("list-linking needs the list lengths (--lists 5,5)")
    if isinstance(value, str):
        parts: Sequence[Any] = [p for p in value.replace(" ", "").split(",") if p]
    elif isinstance(value, Sequence):
        parts = value
    else:
        raise TaskError(f"list-linking: lists must be list lengths such as 5,5, got {message_repr(value)}")
    out = []
    for p in parts:
        try:
            out.append(check_int(int(p) if isinstance(p, str) else p, "list-linking: a list length", minimum=2))
        except Exception:  # noqa: BLE001 - one line for any bad length (not an integer, or below 2)
            raise TaskError(f"list-linking: each list length is an integer >= 2, got {message_repr(p)}") from None
    if len(out) < 2:
        raise TaskError(f"list-linking needs at least two lists (e.g. --lists 5,5), got {message_repr(value)}")
    return tuple(out)


def _list_linking(params: dict[str, Any]) -> TaskSpec:
    lengths = _lengths(params.get("lists"))
    starts = [1]
    for k in lengths[:-1]:
        starts.append(starts[-1] + k)
    n = sum(lengths)
    which = {item: li for li, (s, k) in enumerate(zip(starts, lengths, strict=True)) for item in range(s, s + k)}
    comps = [Comparison(i, i + 1) for s, k in zip(starts, lengths, strict=True) for i in range(s, s + k - 1)]
    links_in = params.get("links") or ()
    if isinstance(links_in, str):
        links_in = [x for x in links_in.split(",") if x.strip()]
    parent = list(range(len(lengths)))

    def root(a: int) -> int:
        while parent[a] != a:
            a = parent[a]
        return a

    labels = _labels(params, n)
    links = []
    for raw in links_in:
        c = parse_comparison(comparison_by_number(raw, labels, "link"), "link")
        for item in (c.winner, c.loser):
            if not 1 <= item <= n:
                raise TaskError(f"link {c.winner}>{c.loser}: item {item} is out of range; the lists hold items 1..{n}")
        lw, ll = which[c.winner], which[c.loser]
        if lw == ll:
            raise TaskError(f"link {c.winner}>{c.loser} joins two items of the same list; a link joins two lists")
        if lw > ll:
            raise TaskError(f"link {c.winner}>{c.loser}: the winner's list comes after the loser's; number the lists "
                            f"so that the winning list comes first (items are numbered list after list)")
        comps.append(c)
        links.append(str(c))
        parent[root(ll)] = root(lw)
    groups: dict[int, list[int]] = {}
    for li in range(len(lengths)):
        groups.setdefault(root(li), []).append(li)
    chains = [tuple(item for li in sorted(g) for item in range(starts[li], starts[li] + lengths[li]))
              for g in sorted(groups.values(), key=min)]
    reference = None if len(chains) == 1 else chains
    return TaskSpec(n, tuple(comps), reference, labels, "list-linking",
                    (("lists", lengths), ("links", tuple(links))))


#: The registry of named paradigms, by name.
PARADIGMS: dict[str, Paradigm] = {p.name: p for p in (
    Paradigm("ti", ("n", "exceptions"), "the item order (item 1 ranks highest)",
             "transitive inference with exceptions (docs/conventions.md; Lippl et al., PNAS 2024)",
             "premise pairs (i, i+1) plus each exception W>L", _ti),
    Paradigm("transverse-patterning", ("n",), "the item order (the comparison n>1 is its exception)",
             "Lippl et al., PNAS 2024, code python_functions/create_data.py (get_transverse_data); "
             "the classic three-item task A>B, B>C, C>A (Spence 1952; Alvarado & Rudy 1992)",
             "i>i+1 for i = 1..n-1 and n>1: a directed cycle through every item", _transverse),
    Paradigm("banded-transverse-patterning", ("n",), "the item order",
             "Lippl et al., PNAS 2024, code python_functions/create_data.py (get_banded_transverse_data)",
             "i beats i+1 and i+3 (mod n) for every item; n = 5 or n >= 7", _banded),
    Paradigm("list-linking", ("lists", "links"),
             "one chain of the linked lists in item order; lists no link joins are separate chains",
             "two 5-item lists linked by one pair E>F (Treichler & Van Tilburg 1996, macaques); two 7-item lists "
             "linked by one pair (Gazes et al. 2012, Exp. 4); no link: separately trained lists tested together "
             "(Jensen et al. 2021, derived lists); lists of unequal length (Merritt & Terrace 2011)",
             "premise pairs within each list (items numbered list after list) plus each link W>L", _list_linking),
)}


def paradigm_names() -> tuple[str, ...]:
    """The names of :data:`PARADIGMS`."""
    return tuple(PARADIGMS)


def build(name: str, parameters: Mapping[str, Any]) -> TaskSpec:
    """The :class:`TaskSpec` of paradigm ``name`` with ``parameters`` (plus ``labels`` for any paradigm).

    Raises
    ------
    TaskError
        For an unknown paradigm (listing them) or a parameter it does not take.
    """
    if not isinstance(name, str) or name not in PARADIGMS:
        raise TaskError(f"paradigm must be one of {', '.join(PARADIGMS)}, got {message_repr(name)}")
    p = PARADIGMS[name]
    unknown = sorted(set(parameters) - set(p.parameters) - {"labels"})
    if unknown:
        raise TaskError(f"paradigm {name} takes {', '.join(p.parameters)} (and labels), not {', '.join(unknown)}")
    return p.make(dict(parameters))
