"""The task axes of a sweep spec beyond ``n``: whether each exception generator fits the ``n`` axis
(:func:`check_fits`), and paradigms, ``paradigm`` and its parameters (``lists``, ``links``).

Example::

    paradigm = "list-linking"          # or a list of names; default "ti" (the n and exceptions axes)
    lists = [[5, 5], [7, 7]]           # list-linking: the list lengths, one configuration each
    links = [["5>6"], []]              # list-linking: the link sets (default [[]]: separate lists); a link
                                       # set is used with the list lengths that hold its items

``transverse-patterning`` and ``banded-transverse-patterning`` take the ``n`` axis. Every paradigm but ``ti``
computes ``predictions``, ``margins`` and ``critical`` (the exchangeable critical conjunctivity and the reversal
mirror assume the TI design). Every task is built (:meth:`symbolic_ti.task.Task.paradigm`) when the spec is
checked, so a bad value is one line naming the key. A spec without these keys is the spec it was before them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ParameterError, SymbolicTIError
from ..task import Task
from ..task.paradigms import PARADIGMS
from .spec_error import SpecError


__all__ = ["PARADIGM_KEYS", "read_paradigms", "check_paradigms", "paradigm_tasks", "check_fits"]

#: The spec keys of this module.
PARADIGM_KEYS = ("paradigm", "lists", "links")
#: The quantities of a paradigm other than ``ti``.
GENERAL_QUANTITIES = ("predictions", "margins", "critical")


def _fail(key: str, message: str) -> ParameterError:
    return SpecError(f"sweep spec key {key!r}: {message}")


def read_paradigms(data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields ``paradigm``, ``lists``, ``links`` of a :class:`~symbolic_ti.sweep.spec.SweepSpec` from a spec
    table (empty for a spec without these keys).

    Raises
    ------
    SpecError
        For an unknown paradigm, a paradigm parameter of another paradigm, or a value of the wrong form.
    """
    if not any(k in data for k in PARADIGM_KEYS):
        return {}
    raw = data.get("paradigm", "ti")
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not names or not all(isinstance(x, str) for x in names):
        raise _fail("paradigm", f"must be a paradigm name or a list of them ({', '.join(PARADIGMS)}), got {raw!r}")
    out: dict[str, Any] = {"paradigm": tuple(x.strip() for x in names)}
    if "lists" in data:
        lists = data["lists"]
        if not isinstance(lists, list) or not lists or not all(isinstance(x, list) for x in lists):
            raise _fail("lists", f"must be a list of list lengths such as [[5, 5], [7, 7]], got {lists!r}")
        out["lists"] = tuple(tuple(x) for x in lists)
    if "links" in data:
        links = data["links"]
        if not isinstance(links, list) or not links or not all(isinstance(x, list) for x in links):
            raise _fail("links", f"must be a list of link sets such as [['5>6'], []], got {links!r}")
        out["links"] = tuple(tuple(str(c) for c in x) for x in links)
    return out


def paradigm_tasks(spec: Any, paradigm: str, n: int | None = None) -> list[tuple[tuple[tuple[str, Any], ...],
                                                                                       Task]]:
    """The (design parameters, task) of ``paradigm`` in ``spec``: one per value of its axes (``n`` for the
    transverse-patterning paradigms; for list-linking every list lengths and link set that fit each other: each
    link joins two of the lists, the winner's list first, as explicit exception sets are used at every ``n`` they
    fit in)."""
    if paradigm == "list-linking":
        out: list[tuple[tuple[tuple[str, Any], ...], Task]] = []
        for lengths in spec.lists:
            for links in spec.links:
                try:
                    task = Task.paradigm("list-linking", lists=lengths, links=list(links))
                except SymbolicTIError:
                    continue  # this link set does not fit these lists (check_paradigms: it fits some)
                out.append(((("lists", tuple(lengths)), ("links", tuple(links))), task))
        return out
    return [((("n", n),), Task.paradigm(paradigm, n=n))]


def check_paradigms(spec: Any) -> None:
    """Check the paradigm axes of ``spec`` and build every task of them.

    Raises
    ------
    SpecError
        Naming the key: an unknown paradigm, ``lists`` or ``links`` without list-linking (or list-linking
        without ``lists``), an exceptions axis or a quantity that the paradigm does not take, an invalid task.
    """
    names = spec.paradigm
    if names == ("ti",) and not spec.lists and spec.links == ((),):
        return
    for name in names:
        if name not in PARADIGMS:
            raise _fail("paradigm", f"unknown paradigm {name!r}; allowed: {', '.join(PARADIGMS)}")
    if len(set(names)) != len(names):
        raise _fail("paradigm", "lists a paradigm twice")
    linking = "list-linking" in names
    if (spec.lists or spec.links != ((),)) and not linking:
        raise _fail("lists" if spec.lists else "links", "only applies with paradigm = 'list-linking'")
    if linking and not spec.lists:
        raise _fail("lists", "is required with paradigm = 'list-linking': a list of list lengths such as [[5, 5]]")
    if "ti" not in names and [(a.kind, a.n_min, a.n_max) for a in spec.exceptions] != [("none", None, None)]:
        raise _fail("exceptions", "only applies with paradigm = 'ti' (the other paradigms fix their comparisons)")
    if names != ("ti",):
        other = sorted(set(spec.compute) - set(GENERAL_QUANTITIES))
        if other:
            raise _fail("compute", f"{other[0]} is for paradigm = 'ti' only (it assumes the TI design); a sweep with "
                                   f"other paradigms computes {', '.join(GENERAL_QUANTITIES)}")
        if spec.mirror:
            raise _fail("mirror", "is for paradigm = 'ti' only (the reversal of the items maps TI tasks)")
    if any(name != "list-linking" for name in names) and not spec.n:
        raise _fail("n", "is required for paradigms with a number of items (ti, transverse-patterning, "
                         "banded-transverse-patterning)")
    for name in names:
        if name == "list-linking":
            _check_lists(spec)
        elif name != "ti":
            for n in spec.n:
                try:
                    Task.paradigm(name, n=n)
                except SymbolicTIError as err:
                    raise _fail("n", str(err)) from None


def _check_lists(spec: Any) -> None:
    """Every list lengths of ``lists`` valid, and every link set of ``links`` fitting some of them."""
    for lengths in spec.lists:
        try:
            Task.paradigm("list-linking", lists=lengths)
        except SymbolicTIError as err:
            raise _fail("lists", str(err)) from None
    for k, links in enumerate(spec.links):
        errors = []
        for lengths in spec.lists:
            try:
                Task.paradigm("list-linking", lists=lengths, links=list(links))
                break
            except SymbolicTIError as err:
                errors.append(str(err))
        else:
            raise _fail(f"links[{k}]", f"fits none of the list lengths of 'lists': {errors[0]}")


def check_fits(axis: Any, k: int, ns: tuple[int, ...]) -> None:
    """Refuse a generator that gives no configuration, or an explicit set that does not fit an ``n`` it is for."""
    key = f"exceptions[{k}]"
    inside = [n for n in ns if not ((axis.n_min is not None and n < axis.n_min)
                                    or (axis.n_max is not None and n > axis.n_max))]
    if not inside:
        bound = "n_min" if axis.n_min is not None and axis.n_min > max(ns) else "n_max"
        raise _fail(f"{key}.{bound}", f"leaves no n of the axis n = {list(ns)} (n_min = {axis.n_min}, "
                                      f"n_max = {axis.n_max}): the generator gives no configuration")
    if axis.kind == "explicit":
        for s, group in enumerate(axis.sets):
            need = max(int(e.split(">")[0]) for e in group)
            short = [n for n in inside if n < need]
            if short:
                raise _fail(f"{key}.sets[{s}]", f"{';'.join(group)} does not fit n = {short} (it needs n >= {need}); "
                                                f"restrict the generator with n_min = {need}")
    elif not any(axis.exception_sets(n) for n in inside):
        raise _fail(f"{key}.span", f"span {list(axis.span)} gives no configuration of kind {axis.kind!r} at n = {inside}")
