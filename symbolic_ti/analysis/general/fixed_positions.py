r"""Several exceptions, for a fixed number of items and fixed positions only (docs/general_n.md).

No symbolic-``n`` closed form is given for more than one exception; for fixed ``n`` and positions the ranks
are exact rational functions of the effective ridge ``gamma`` (Woodbury update of the path Laplacian).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from ...solvers.laplacian import rank_solution
from ...task import Task

__all__ = ["fixed_position_ranks"]


def fixed_position_ranks(n: int, exceptions: Sequence[Any] = ()) -> tuple[sp.Expr, ...]:
    """Exact ranks ``r_1..r_n`` as rational functions of ``gamma`` for fixed ``n`` and exception positions.

    Several exceptions are handled for fixed positions only (Woodbury update of
    :func:`symbolic_ti.solvers.laplacian.rank_solution`); a symbolic-``n`` closed form exists here for one
    exception (:func:`exception_closed_form`). Substitute ``gamma`` = :func:`gamma_expr` (the Symbol is
    :data:`symbolic_ti.solvers.laplacian.GAMMA`) for the family parameters; test predictions are
    ``r_i - r_j``.

    Parameters
    ----------
    n : int, ``n >= 3``
    exceptions : sequence of ``"W>L"`` strings or ``(W, L)`` pairs

    Returns
    -------
    tuple of sympy expressions in ``GAMMA``
        Source: docs/theory.md#graph-laplacian-reduction.

    Raises
    ------
    TaskError
        For an invalid task.
    """
    sol = rank_solution(Task(n, exceptions))
    return tuple(sol.rank_expr(kk) for kk in range(1, sol.task.n + 1))
