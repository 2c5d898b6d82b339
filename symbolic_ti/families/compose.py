r"""Sums and positive multiples of families: ``K = sum_m c_m K_m`` is again a family.

Build them with ``+`` and ``*``: ``Exchangeable(alpha=0) + 2 * Geometric(rho="1/2")``. Parameters with the same
name in two components are **one** parameter (the same Symbol): give it a value once, on the sum, or on a
component. The sum is exchangeable when every component is; its exchangeable form follows from the
components' (derived here, see docs/theory.md#sums-of-families), so the solver keeps the graph-Laplacian path.
It is swap invariant when every component is. Positive semidefinite because each component is and
``c_m > 0``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import sympy as sp

from ..arguments import exact_number
from ..errors import FamilyError, ParameterError
from .base import Family, Parameter, Trial, register_sum

if TYPE_CHECKING:
    from ..task import Task

__all__ = ["SumFamily"]


def _coefficient(c: Any) -> sp.Expr:
    value = exact_number(c, "the coefficient of a family")
    if value.free_symbols or not value.is_real or not value > 0:
        raise ParameterError(f"a family can only be multiplied by a positive real number, got {value}")
    return value


class SumFamily(Family):
    """The kernel ``sum_m c_m K_m`` of families ``K_m`` with positive coefficients ``c_m``.

    Parameters
    ----------
    terms : sequence of (coefficient, Family)
        At least one term; coefficients are positive exact numbers (``0.5`` is 1/2).

    Raises
    ------
    ParameterError
        For a coefficient that is not a positive number, or no terms.
    FamilyError
        For a term that is not a Family.

    Notes
    -----
    Bound values belong to their component (two components may bind ``alpha`` differently); a parameter left
    free in several components is one parameter of the sum. ``with_values(name=value)`` binds ``name`` in every
    component where it is free. The numeric kernel is the sum of
    the components' independent numeric kernels. Source: sums and positive multiples of positive semidefinite
    kernels are positive semidefinite (e.g. Schoelkopf & Smola 2002, Prop. 13.1); the exchangeable form is
    derived in docs/theory.md#sums-of-families.
    """

    name = "sum"
    parameters: ClassVar[tuple[Parameter, ...]] = ()

    def __init__(self, terms: Any) -> None:  # noqa: D107 - documented on the class
        out: list[tuple[sp.Expr, Family]] = []
        for c, fam in terms:
            if not isinstance(fam, Family):
                raise FamilyError(f"a sum of families needs Family terms, got {fam!r}")
            c = _coefficient(c)
            if isinstance(fam, SumFamily):
                out += [(c * c2, f2) for c2, f2 in fam.terms]
            else:
                out.append((c, fam))
        if not out:
            raise ParameterError("a sum of families needs at least one term")
        self.terms: tuple[tuple[sp.Expr, Family], ...] = tuple(out)
        seen: dict[str, Parameter] = {}
        for _, fam in self.terms:
            for p in fam.free_parameters:  # bound values stay with their component
                seen.setdefault(p.name, p)
        self.parameters = tuple(seen.values())  # type: ignore[misc]
        self._explicit_symbolic = set()
        self._values = {}
        self.swap_invariant = all(f.swap_invariant for _, f in self.terms)  # type: ignore[misc]

    # ------------------------------------------------------------------ kernel
    def _kernel_expr(self, a: Trial, b: Trial, p: Mapping[str, sp.Expr]) -> sp.Expr:
        return sp.Add(*[c * fam.kernel(a, b) for c, fam in self.terms])

    def kernel(self, a: Trial, b: Trial) -> sp.Expr:
        return sp.expand(self._kernel_expr(a, b, {}))

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        total = 0
        for (_, fam), (c, q) in zip(self.terms, p["_components"], strict=True):
            total = total + c * fam.kernel_numeric(a, b, q)
        return total

    def numeric_point(self, point: Mapping[str, Any], convert: Callable[[sp.Expr], Any]) -> dict[str, Any]:
        """The free parameters' values, plus under ``"_components"`` each term's converted coefficient and its
        own complete numeric point (components keep their bound values)."""
        out: dict[str, Any] = {p.name: v for p in self.parameters
                               for v in [point.get(p.name, point.get(p.symbol))] if v is not None}
        out["_components"] = [(convert(c), fam.numeric_point(point, convert)) for c, fam in self.terms]
        return out

    @property
    def exchangeable(self) -> bool:  # type: ignore[override]
        return all(f.exchangeable for _, f in self.terms)

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(scale, alpha, kappa_d)`` of the sum (docs/theory.md#sums-of-families).

        Raises
        ------
        FamilyError
            If some component is not exchangeable.
        """
        if not self.exchangeable:
            return super().exchangeable_form()
        a = b = c0 = sp.Integer(0)
        for c, fam in self.terms:
            s, al, kd = fam.exchangeable_form()
            a += c * s * (1 - kd) * (1 - al) / 2
            b += c * s * (1 - kd) * al
            c0 += c * s * kd
        scale = sp.cancel(c0 + 2 * a + b)
        return scale, sp.cancel(b / (2 * a + b)), sp.cancel(c0 / scale)

    def check_task(self, task: Task) -> None:
        for _, fam in self.terms:
            fam.check_task(task)

    # ------------------------------------------------------------------ parameters
    @property
    def active_parameters(self) -> tuple[Parameter, ...]:
        return self.parameters

    def with_values(self, **values: Any) -> SumFamily:
        names = {p.name for p in self.parameters}
        unknown = [k for k in values if k not in names]
        if unknown:
            raise ParameterError(f"the sum has no parameter {unknown[0]!r}; its parameters are "
                                 + ", ".join(sorted(names)))
        terms = []
        for c, fam in self.terms:
            own = {k: v for k, v in values.items() if k in {p.name for p in fam.free_parameters}}
            terms.append((c, fam.with_values(**own) if own else fam))
        return SumFamily(terms)

    def describe(self) -> str:
        return " + ".join((f"{c}*" if c != 1 else "") + fam.describe() for c, fam in self.terms)

    def _identity(self) -> tuple:
        return ("SumFamily", tuple((str(c), fam._identity()) for c, fam in self.terms))


register_sum(SumFamily)
