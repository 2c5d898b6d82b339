"""The training comparison graph of a task: reference order, cycles, components and the trial categories.

A task's trained comparisons ``W>L`` are the edges ``W -> L`` of a directed graph on its items. Its **reference
order** (the ground truth of test trials) is a list of chains: the items of one chain are ordered (earlier ranks
higher), items of different chains are not compared by it. The TI design has one chain, the items in order.

- An **exception** is a trained comparison that contradicts the reference order (its winner ranks lower in their
  chain); its **cycle** is the items of that chain from its loser to its winner (the TI design: ``L..W``).
- The **components** are the connected components of the graph without directions; test trials between two
  components that no training path connects are ``cross_component`` (ground truth only where the reference order
  gives one). Strongly connected components (directed cycles) mark trained comparisons as ``cycle_premise`` also
  where the reference order does not relate their items.

For the TI design (premise pairs and exceptions, item order) these are exactly the seven categories of
docs/conventions.md, decided in the same order; ``cross_component`` and unrelated items are new
(docs/paradigms.md#categories). Components come from sympy's graph functions
(``sympy.utilities.iterables.connected_components`` and ``strongly_connected_components``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from sympy.utilities.iterables import connected_components, strongly_connected_components

from ..digits import message_repr
from ..errors import TaskError

__all__ = ["TrainingGraph", "check_reference"]

Trial = tuple[int, int]


def check_reference(n: int, reference: object) -> tuple[tuple[int, ...], ...]:
    """A reference order as chains of items: ``None`` is the item order ``((1, ..., n),)``; ``()`` or ``"none"``
    no reference order; a permutation of ``1..n`` one chain; a list of lists several chains.

    Raises
    ------
    TaskError
        For an item outside ``1..n``, an item given twice, or chains that leave items out.
    """
    if reference is None:
        return (tuple(range(1, n + 1)),)
    if isinstance(reference, str):
        if reference.strip().lower() in ("none", ""):
            return ()
        if reference.strip().lower() in ("items", "item order"):
            return (tuple(range(1, n + 1)),)
        raise TaskError(f"reference order must be 'items', 'none', a permutation of 1..{n} or a list of chains, got "
                        f"{message_repr(reference)}")
    if isinstance(reference, Mapping) or any(isinstance(c, Mapping) for c in (
            reference if isinstance(reference, (list, tuple)) else ())):
        raise TaskError(f"reference order must be a sequence of items (a permutation of 1..{n}, highest first) or a "
                        f"list of such chains, not a mapping; got {message_repr(reference)}")
    try:
        entries = list(reference)  # type: ignore[call-overload]
    except TypeError:
        raise TaskError(f"reference order must be a permutation of 1..{n} or a list of chains, got "
                        f"{message_repr(reference)}") from None
    if not entries:
        return ()
    chains_in = [entries] if all(isinstance(e, int) and not isinstance(e, bool) for e in entries) else entries
    chains: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for chain in chains_in:
        if isinstance(chain, (str, bytes)) or not isinstance(chain, Iterable):
            raise TaskError(f"reference order: each chain must be a list of items, got {message_repr(chain)}")
        items = []
        for item in chain:
            if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= n:
                raise TaskError(f"reference order: {message_repr(item)} is not an item; items are 1..{n}")
            if item in seen:
                raise TaskError(f"reference order is not a permutation: item {item} appears twice")
            seen.add(item)
            items.append(item)
        if items:
            chains.append(tuple(items))
    missing = sorted(set(range(1, n + 1)) - seen)
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
        which = f"item {shown} is" if len(missing) == 1 else f"items {shown} are"
        raise TaskError(f"reference order is not a permutation of 1..{n}: {which} missing (give every "
                        f"item once; several chains leave items of different chains unordered)")
    return tuple(chains)


class TrainingGraph:
    """The comparison graph of a task with its reference order; decides ground truth and categories.

    Parameters
    ----------
    n : int
        Number of items.
    edges : sequence of (W, L)
        Trained comparisons, winner first.
    chains : tuple of tuples of items
        The reference order (:func:`check_reference`).

    Attributes
    ----------
    exceptions : tuple of (W, L)
        The trained comparisons that contradict the reference order, in the order of ``edges``.
    cycles : tuple of frozensets of items
        Each exception's cycle: the items of its chain from its loser to its winner.
    n_components : int
        Number of connected components.
    """

    def __init__(self, n: int, edges: Sequence[Trial], chains: tuple[tuple[int, ...], ...]) -> None:
        self.n = n
        self.edges = tuple(edges)
        self.chains = chains
        self._position: dict[int, tuple[int, int]] = {}
        for c, chain in enumerate(chains):
            for k, item in enumerate(chain):
                self._position[item] = (c, k)
        self.exceptions: tuple[Trial, ...] = tuple(e for e in self.edges if self.reference(*e) == -1)
        cycles = []
        for w, l in self.exceptions:
            (c, kw), (_, kl) = self._position[w], self._position[l]
            cycles.append(frozenset(chains[c][kl:kw + 1]))
        self.cycles: tuple[frozenset[int], ...] = tuple(cycles)
        items = list(range(1, n + 1))
        self._component: dict[int, int] = {}
        for k, part in enumerate(connected_components((items, list(self.edges)))):
            for item in part:
                self._component[item] = k
        self.n_components = len(set(self._component.values()))
        self._scc: dict[int, int] = {}
        for k, part in enumerate(strongly_connected_components((items, list(self.edges)))):
            for item in part:
                self._scc[item] = k if len(part) > 1 else -1 - item
        self._edge_set = frozenset(self.edges)

    def reference(self, i: int, j: int) -> int | None:
        """``+1`` if the reference order ranks ``i`` above ``j``, ``-1`` if below, ``None`` if it does not relate
        them (different chains, or no reference order)."""
        pi, pj = self._position.get(i), self._position.get(j)
        if pi is None or pj is None or pi[0] != pj[0]:
            return None
        return 1 if pi[1] < pj[1] else -1

    def component(self, item: int) -> int:
        """Index of the connected component of ``item`` (the graph without directions)."""
        return self._component[item]

    def _in_one_cycle(self, i: int, j: int) -> bool:
        return any(i in c and j in c for c in self.cycles)

    def ground_truth(self, i: int, j: int) -> int | None:
        """Ground truth of a test trial (not trained): the reference order's answer, or ``None`` when both items
        lie in one exception's cycle or the reference order does not relate them."""
        if self._in_one_cycle(i, j):
            return None
        return self.reference(i, j)

    def category(self, i: int, j: int) -> str:
        """The category of trial ``(i, j)`` (module docstring; docs/conventions.md for the TI design)."""
        edges = self._edge_set
        if (i, j) in edges or (j, i) in edges:
            w, l = (i, j) if (i, j) in edges else (j, i)
            if self.reference(w, l) == -1:
                return "exception"
            scc = self._scc
            if self._in_one_cycle(i, j) or scc[i] == scc[j]:
                return "cycle_premise"
            return "premise"
        if self._component[i] != self._component[j]:
            return "cross_component"
        if self._in_one_cycle(i, j) or self.reference(i, j) is None:
            return "no_ground_truth"
        if any((i in c) != (j in c) for c in self.cycles):
            return "one_in_cycle"
        pi, pj = self._position[i], self._position[j]
        lo, hi = min(pi[1], pj[1]), max(pi[1], pj[1])
        for (w, l) in self.exceptions:
            (c, kw), (_, kl) = self._position[w], self._position[l]
            if c == pi[0] and lo < kl and hi > kw:
                return "cross_section"
        return "within_section"

    def strongly_connected(self) -> tuple[frozenset[int], ...]:
        """The strongly connected components with more than one item (the graph's directed cycles)."""
        groups: dict[int, set[int]] = {}
        for item, k in self._scc.items():
            if k >= 0:
                groups.setdefault(k, set()).add(item)
        return tuple(frozenset(g) for g in sorted(groups.values(), key=min))

    def components(self) -> tuple[frozenset[int], ...]:
        """The connected components (without directions), ordered by their smallest item."""
        groups: dict[int, set[int]] = {}
        for item, k in self._component.items():
            groups.setdefault(k, set()).add(item)
        return tuple(frozenset(g) for g in sorted(groups.values(), key=min))


def describe_chains(chains: Sequence[Sequence[int]], n: int) -> str:
    """``items`` for the item order, ``none`` for no reference order, else the chains ``1-2-3 | 4-5``."""
    if len(chains) == 1 and tuple(chains[0]) == tuple(range(1, n + 1)):
        return "items"
    if not chains:
        return "none"
    return " | ".join("-".join(map(str, c)) for c in chains)
