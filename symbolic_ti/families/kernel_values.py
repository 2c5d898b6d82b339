r"""Named constants for the kernel values of deep network families (``pnas-*``, ``activation-*``).

:class:`NetworkKernelValue` ``(family, kind, depth, dot, a, b)`` is one exact kernel value, e.g. ``kappa_o`` of
``pnas-ntk`` at depth 3 with ``slope = a``, ``p = b``; it *is* the nested closed form returned by the function
registered for ``family`` (:func:`register_kernel_values`). The same device as
:class:`~symbolic_ti.families.relu_kappas.ReluKernelConstant` (of which it is a subclass, so that certified root
finding and numerical evaluation see through it): the solver's exact Laplacian path stays polynomial in two
constants instead of expanding nested ``acos`` / ``asin`` forms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
from sympy.core.symbol import Str

from ..errors import ParameterError
from .relu_kappas import ReluKernelConstant

__all__ = ["NetworkKernelValue", "register_kernel_values", "kernel_value", "registered_kernel_families"]

_HALF = sp.Rational(1, 2)
#: family name -> function (kind, depth, dot, a, b) -> exact value
_EXPLICIT: dict[str, Callable[[int, int, sp.Expr, sp.Expr, sp.Expr], sp.Expr]] = {}


def register_kernel_values(name: str, explicit: Callable[[int, int, sp.Expr, sp.Expr, sp.Expr], sp.Expr]) -> None:
    """Register the closed forms of the family ``name``: ``explicit(kind, depth, dot, a, b)``.

    Parameters
    ----------
    name : str
        The label used in :class:`NetworkKernelValue` (e.g. ``"pnas"``, ``"erf"``).
    explicit : callable
        ``kind`` 0 (NNGP / hidden layer) or 1 (NTK), ``depth >= 1``, ``dot`` 1/2 (``kappa_o``) or 0
        (``kappa_d``), and the family's two exact parameters; returns the exact value.
    """
    _EXPLICIT[name] = explicit


def registered_kernel_families() -> frozenset[str]:
    """The family labels registered with :func:`register_kernel_values` (e.g. ``"pnas"``, ``"erf"``)."""
    return frozenset(_EXPLICIT)


def kernel_value(name: str, kind: int, depth: int, dot: sp.Expr, a: sp.Expr, b: sp.Expr) -> NetworkKernelValue:
    """``NetworkKernelValue(Str(name), kind, depth, dot, a, b)``."""
    return NetworkKernelValue(Str(name), kind, depth, dot, a, b)


class NetworkKernelValue(ReluKernelConstant):
    """One exact kernel value of a registered network family, as a named constant.

    ``NetworkKernelValue(Str(family), kind, depth, dot, a, b)`` (``sympy.core.symbol.Str``: a name, not a symbol); :meth:`explicit` returns the closed form,
    ``evalf`` evaluates it at any precision. Positive: only built for values that are (callers use the closed
    form when a value is exactly 0).
    """

    nargs = 6
    _values_cache: dict = {}

    @classmethod
    def eval(cls, *args: sp.Expr) -> None:
        name, kind, depth, dot, a, b = args
        ok = (isinstance(name, Str) and name.name in _EXPLICIT and kind in (0, 1) and depth.is_Integer
              and depth >= 1 and dot in (0, _HALF) and not a.free_symbols and not b.free_symbols)
        if not ok:
            raise ParameterError(f"NetworkKernelValue(family, kind, depth, dot, a, b) needs a registered family, "
                                 f"kind 0 or 1, an integer depth >= 1, dot 0 or 1/2 and exact a, b; got {args}")
        return None

    @property
    def is_number(self) -> bool:
        """True: a real constant (the family name argument is a ``Str``, which sympy does not count as a number)."""
        return True

    def explicit(self) -> sp.Expr:
        """The nested closed form (exactly this constant)."""
        key = tuple(self.args)
        if key not in self._values_cache:
            name, kind, depth, dot, a, b = self.args
            self._values_cache[key] = _EXPLICIT[name.name](int(kind), int(depth), dot, a, b)
        return self._values_cache[key]

    def _network_label(self) -> tuple[str, str, str, int]:
        name, kind, depth, dot = self.args[:4]
        return ("o" if dot == _HALF else "d"), name.name, ("ntk" if kind == 1 else ""), int(depth)

    def _sympystr(self, printer: Any) -> str:
        which, name, kind, depth = self._network_label()
        return f"kappa_{which}_{name}{kind}{depth}"

    def _latex(self, printer: Any, exp: Any = None) -> str:
        which, name, kind, depth = self._network_label()
        a, b = self.args[4:]
        label = name.upper() + ("-NTK" if kind else "")
        base = (rf"\kappa_{{{which}}}^{{\mathrm{{{label}}},{depth}}}"
                rf"\left({printer._print(a)}, {printer._print(b)}\right)")
        return base if exp is None else rf"\left({base}\right)^{{{exp}}}"
