"""Exact solvers of the kernel ridge system: the stage Gram matrix -> closed forms.

:func:`solve` (in :mod:`symbolic_ti.solvers.dispatch`) picks the method: the graph-Laplacian reduction
(:mod:`~symbolic_ti.solvers.laplacian`) for exchangeable kernels, the fraction-free dense solve
(:mod:`~symbolic_ti.solvers.dense`, FLINT arithmetic in :mod:`~symbolic_ti.solvers.flint_backend`) otherwise; when
every parameter is a rational number, both are solved over QQ in FLINT (:mod:`~symbolic_ti.solvers.rational`).
"""

from __future__ import annotations

from .dispatch import RIDGELESS, solve

__all__ = ["solve", "RIDGELESS"]
