"""What every figure's data function shares: the result with the scanned parameters free, the scanned axes.

A figure scans one or two parameters. :func:`free_result` makes them free by solving again when the result has
them fixed (``phase_data(r, "alpha", "lambda")`` on a result at ``alpha = 1/10``, ``lambda = 1/10`` solves the
task with both symbolic) and sets the other free parameters from ``values`` (exactly, :meth:`Result.subs`);
:func:`axis_cells` gives the cells of one scanned axis.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..arguments import parameter_name
from ..errors import ParameterError
from ..results import Result
from ..formatting import rounded

__all__ = ["FigureArgumentError", "read_only", "scanned_name", "figure_label", "free_result", "to_float",
           "axis_cells"]


class FigureArgumentError(ParameterError):
    """A bad argument of a figure's data function, with the keyword it concerns.

    ``str(err)`` is ``"<function>: <detail>"`` (the Python message); the command line names its own option for
    ``argument`` and prints ``detail`` (:mod:`symbolic_ti.cli.plot`).

    Attributes
    ----------
    argument : str
        The keyword at fault: ``"x"``, ``"y"``, ``"parameter"``, ``"x_range"``, ``"y_range"``, ``"resolution"``,
        ``"values"`` or ``"trials"``.
    detail : str
        What was wrong and what is allowed, without the function's name.
    missing : tuple of str
        For ``argument == "values"``: the parameters left without a value (``"lambda"``: the ridge).
    """

    def __init__(self, who: str, argument: str, detail: str, missing: tuple[str, ...] = ()) -> None:
        super().__init__(f"{who}: {detail}")
        self.argument, self.detail, self.missing = argument, detail, missing


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only copy of ``a``."""
    a = np.array(a)
    a.flags.writeable = False
    return a


def scanned_name(p: str) -> str:
    """The canonical name of a parameter given by the user (``"ridge"`` -> ``"lambda"``,
    :func:`symbolic_ti.arguments.parameter_name`).

    Raises
    ------
    ParameterError
        If ``p`` is not a string or not a known name.
    """
    if not isinstance(p, str):
        raise ParameterError(f"a parameter name must be a string such as 'alpha' or 'lambda', got {p!r}")
    p = p.strip()
    return parameter_name(p)


def figure_label(result: Result, scanned: Sequence[str] = ()) -> str:
    """Task, family and ridge of ``result``: the default title of a figure.

    The parameters in ``scanned`` (canonical names) are the figure's axes: they are not called "symbolic" in
    the title but listed at its end (``...; exchangeable(kappa_d=0); axes alpha, lambda``).
    """
    label = result.label()
    if not scanned:
        return label
    for name in scanned:
        if name == "lambda":
            label = label.replace("; lambda symbolic", "")
        else:
            label = label.replace(f", {name} symbolic", "").replace(f"({name} symbolic, ", "(") \
                .replace(f"({name} symbolic)", "")
    word = "axes" if len(scanned) > 1 else "axis"
    return f"{label}; {word} {', '.join(scanned)}"


def free_result(result: Result, scanned: Sequence[str], values: Mapping[str, Any] | None, who: str,
                arguments: Sequence[str] = ()) -> Result:
    """``result`` with exactly the parameters ``scanned`` free: solve again if one of them is fixed, then set the
    other free parameters from ``values`` (exactly).

    Parameters
    ----------
    result : Result
    scanned : sequence of str
        Canonical names (:func:`scanned_name`) of the parameters the figure scans.
    values : mapping name -> number, optional
        Values of the other free parameters.
    who : str
        The calling function, for messages.
    arguments : sequence of str, optional
        The keyword that gave each of ``scanned`` (e.g. ``("x", "y")``), for :class:`FigureArgumentError`.

    Returns
    -------
    Result

    Raises
    ------
    ParameterError
        If ``result`` is not a Result. :class:`FigureArgumentError` if a name is not a parameter of its family,
        a scanned parameter is also set, or free parameters are left without a value.
    """
    if not isinstance(result, Result):
        raise ParameterError(f"{who}: result must be a symbolic_ti Result, got {type(result).__name__}")
    from ..solvers.dispatch import solve

    values = {scanned_name(k): v for k, v in dict(values or {}).items()}
    fam = result.family
    family_names = {p.name for p in fam.active_parameters}
    free = {s.name for s in result.free_symbols}
    keywords = list(arguments) + ["parameter"] * (len(scanned) - len(arguments))
    allowed = ", ".join(sorted(family_names) + ["lambda"])
    for name, keyword in zip(scanned, keywords, strict=True):
        if name != "lambda" and name not in family_names:
            raise FigureArgumentError(who, keyword, f"{name!r} is not a parameter of {fam.describe()}; allowed: "
                                                    f"{allowed}")
        if name in values:
            raise FigureArgumentError(who, "values", f"{name} is scanned by the figure, so it cannot also be "
                                                     f"set in values")
    for name in values:
        if name != "lambda" and name not in family_names:
            raise FigureArgumentError(who, "values", f"values names {name!r}, which is not a parameter of "
                                                     f"{fam.describe()}; allowed: {allowed}")
    resolve = False
    fam_free = {}
    for name in scanned:
        if name != "lambda" and name not in free:
            fam_free[name] = "symbolic"
            resolve = True
    ridge: Any = "ridgeless" if result.ridgeless else result.ridge
    if "lambda" in scanned and "lambda" not in free:
        ridge, resolve = None, True
    if resolve:
        if fam_free:
            fam = fam.with_values(**fam_free)
        result = solve(result.task, fam, ridge)
    if values:
        result = result.subs(values)
    left = sorted({s.name for s in result.free_symbols} - set(scanned))
    if left:
        raise FigureArgumentError(who, "values", f"the result still depends on {', '.join(left)}; give "
                                  + ("its value" if len(left) == 1 else "their values")
                                  + " in values, e.g. values={" + ", ".join(f"'{x}': ..." for x in left) + "}",
                                  missing=tuple(left))
    return result


def to_float(v: sp.Expr) -> float:
    """A number without free symbols as a float (30 digits first unless rational)."""
    return float(sp.N(v, 30)) if not v.is_Rational else float(v)


def axis_cells(name: str, result: Result, rng: Any, count: int, log: bool | None, who: str,
               argument: str = "x_range") -> tuple[np.ndarray, np.ndarray, bool, float, float]:
    """Cell centres and edges of one scanned axis.

    Parameters
    ----------
    name : str
        The parameter (``"lambda"``: the ridge).
    result : Result
        Gives the parameter's domain when ``rng`` is None (alpha: [0, 1]; the ridge: [1e-3, 10]; a domain
        without upper end: 10 above its lower end).
    rng : pair (low, high) or None
    count : int >= 2
        Cells.
    log : bool or None
        Log-spaced (default: only the ridge).
    who : str
        The calling function, for messages.
    argument : str, default "x_range"
        The keyword of the range, for :class:`FigureArgumentError` (the resolution's is ``"resolution"``).

    Returns
    -------
    (centres, edges, log, low, high)
        Arrays of shape ``(count,)`` and ``(count + 1,)``; geometric centres on a log axis.

    Raises
    ------
    FigureArgumentError
        For a bad count or range, a range outside the parameter's domain, or a log axis over a range with
        low <= 0.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 2:
        raise FigureArgumentError(who, "resolution", f"the resolution of {name} must be an integer >= 2, got "
                                                     f"{count!r}")
    if rng is None:
        if name == "lambda":
            lo, hi = 1e-3, 10.0
        else:
            p = result.family.parameter(name)
            lo = float(p.lower)
            hi = float(p.upper) if p.upper.is_finite else lo + 10.0
    else:
        try:
            lo, hi = (float(sp.Rational(str(v)) if isinstance(v, str) else v) for v in rng)
        except (TypeError, ValueError):
            raise FigureArgumentError(who, argument, f"the range of {name} must be a pair (low, high) of numbers, "
                                                     f"got {rng!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise FigureArgumentError(who, argument, f"the range of {name} must have finite low < high, got "
                                                     f"{rng!r}")
        _check_domain(name, result, lo, hi, who, argument)
    if log is None:
        log = name == "lambda"
    if log:
        if lo <= 0:
            lo = 1e-3 if rng is None else lo
        if lo <= 0:
            raise FigureArgumentError(who, argument, f"a log axis for {name} needs a range with low > 0, got "
                                                     f"({rounded(lo, 'g')}, {rounded(hi, 'g')}); for a range from 0 use a linear axis")
        edges = np.geomspace(lo, hi, count + 1)
        centres = np.sqrt(edges[:-1] * edges[1:])
    else:
        edges = np.linspace(lo, hi, count + 1)
        centres = (edges[:-1] + edges[1:]) / 2
    return centres, edges, bool(log), lo, hi


def _check_domain(name: str, result: Result, lo: float, hi: float, who: str, argument: str) -> None:
    """Fail unless ``[lo, hi]`` lies in the domain of ``name`` (the ridge: ``[0, oo)``)."""
    if name == "lambda":
        lower, upper, domain = 0.0, math.inf, "[0, oo)"
    else:
        p = result.family.parameter(name)
        lower, upper, domain = float(p.lower), float(p.upper) if p.upper.is_finite else math.inf, p.domain_text()
    if lo < lower or hi > upper:
        raise FigureArgumentError(who, argument, f"the range ({rounded(lo, 'g')}, {rounded(hi, 'g')}) of {name} is not inside its domain "
                                                 f"{domain}")
