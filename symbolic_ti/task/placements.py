"""Exception placements: every exception ``W>L`` of a span ``D = W - L`` at every position ``L``.

The one generator of candidate exception sets, shared by the sweep specification (``[[exceptions]]`` with
``kind = "single"`` or ``"pairs"``, :class:`symbolic_ti.sweep.spec.ExceptionAxis`) and the design spaces of
``symbolic-ti design`` (:mod:`symbolic_ti.design.space`), so that a span means the same in both.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["single_exceptions", "exception_placements"]


def single_exceptions(n: int, spans: tuple[int, int], positions: Iterable[int] | None = None) -> list[str]:
    """Every exception ``"W>L"`` with ``W - L`` in ``spans`` (inclusive) at ``n`` items, span by span, then by ``L``.

    Parameters
    ----------
    n : int
        Number of items.
    spans : (int, int)
        Inclusive range of spans ``D = W - L >= 2``.
    positions : iterable of int, optional
        Keep only these positions ``L`` (default every ``L = 1..n - D``).

    Examples
    --------
    >>> single_exceptions(6, (2, 3))
    ['3>1', '4>2', '5>3', '6>4', '4>1', '5>2', '6>3']
    >>> single_exceptions(9, (2, 2), positions=[4])
    ['6>4']
    """
    keep = None if positions is None else set(positions)
    top = min(spans[1], n - 1)  # no span beyond n - 1 fits n items (a span of 10**9 loops over nothing)
    return [f"{low + d}>{low}" for d in range(spans[0], top + 1) for low in range(1, n - d + 1)
            if keep is None or low in keep]


def exception_placements(n: int, kind: str, spans: tuple[int, int] = (2, 2),
                         positions: Iterable[int] | None = None) -> list[tuple[str, ...]]:
    """The exception sets of one generator at ``n`` items, in a fixed order.

    Parameters
    ----------
    n : int
        Number of items.
    kind : {"none", "single", "pairs"}
        ``none``: the one empty set; ``single``: each exception of :func:`single_exceptions` alone; ``pairs``:
        every set of two distinct such exceptions.
    spans, positions
        As :func:`single_exceptions`.

    Examples
    --------
    >>> exception_placements(5, "pairs")
    [('3>1', '4>2'), ('3>1', '5>3'), ('4>2', '5>3')]
    """
    if kind == "none":
        return [()]
    singles = single_exceptions(n, spans, positions)
    if kind == "single":
        return [(e,) for e in singles]
    return [(a, b) for k, a in enumerate(singles) for b in singles[k + 1:]]
