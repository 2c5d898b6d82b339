"""What the network families share: an integer depth, and a kernel over trials that depends only on how many
positions two trials share (1 for the same trial, ``kappa_o`` for one shared position, ``kappa_d`` for none).

The ReLU (:mod:`symbolic_ti.families.relu`), PNAS (:mod:`symbolic_ti.families.pnas`) and activation
(:mod:`symbolic_ti.families.activations`) families are such kernels: the hidden-layer kernel of a network on the
concatenated one-hot input of a trial, normalized to a unit diagonal (docs/families.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import sympy as sp

from ..budgets import Estimate, layered_estimate
from ..errors import ParameterError
from .base import Family, Trial

__all__ = ["LayeredFamily"]


class LayeredFamily(Family):
    """A family with an integer ``depth`` (never symbolic, default 1) whose kernel is ``1``, ``kappa_o`` or
    ``kappa_d`` by the number of positions two trials share; subclasses define :meth:`kappas`.

    ``_defaults`` gives the other parameters' values when neither set nor asked symbolic (e.g. ``p = 0``).
    """

    _defaults: ClassVar[dict[str, int]] = {}

    def kappas(self) -> tuple[sp.Expr, sp.Expr]:  # pragma: no cover - every subclass defines it
        """``(kappa_o, kappa_d)`` exactly."""
        raise NotImplementedError

    def _complete(self, bound: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
        if "depth" in self._explicit_symbolic:
            raise ParameterError(f"{self.name}: depth cannot be symbolic; give an integer >= 1 (the number of "
                                 "layers), e.g. depth=1")
        out = dict(bound)
        out.setdefault("depth", sp.Integer(1))
        for key, default in self._defaults.items():
            if key not in self._explicit_symbolic:
                out.setdefault(key, sp.Integer(default))
        return out

    def exact_cost(self) -> Estimate:
        """The estimated cost of the exact kernel values at this depth (:func:`symbolic_ti.budgets.layered_estimate`)."""
        return layered_estimate(self.name, self.depth)

    @property
    def depth(self) -> int:
        """Number of hidden layers ``L``."""
        return int(self._values["depth"])

    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        shared = int(a[0] == b[0]) + int(a[1] == b[1])
        if shared == 2:
            return sp.Integer(1)
        ko, kd = self.kappas()
        return ko if shared == 1 else kd
