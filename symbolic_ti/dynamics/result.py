r"""The immutable result of :func:`symbolic_ti.dynamics`: every trial's gradient-flow time course.

``f_t(x) = f_oo(x) - sum_k C_k(x) exp(-rho_k t)`` with the modes of :mod:`.modes` (docs/dynamics.md,
docs/theory.md#gradient-flow-in-laplacian-modes); ``f_oo`` is the ridge (or ridgeless) prediction of
:func:`symbolic_ti.derive`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from collections.abc import Mapping
from typing import Any

import flint
import sympy as sp

from .. import symbols as S
from ..arguments import exact_number, resolve_trials
from ..display import Rendered
from ..errors import ParameterError
from ..families.base import Family, Trial
from ..results.frozen import FrozenMapping
from ..task import Task
from .evaluate import ArbTerms, arb_terms, derivative_at_zero, expression, is_rational_course
from .certified import NumericModes, bits_of, gram_entries, numeric_modes
from .modes import TimeCourse

__all__ = ["TIME", "Dynamics", "parse_time"]

#: The training time of gradient flow, a sympy Symbol: :data:`symbolic_ti.symbols.t`.
TIME = S.t


def parse_time(value: Any, name: str = "time") -> sp.Expr:
    """Read a training time: a number ``>= 0`` (read exactly), ``"oo"`` / ``"inf"``, a sympy Symbol, or ``None``
    (the Symbol :data:`TIME`).

    Raises
    ------
    ParameterError
        For a negative, non-real or unreadable time.
    """
    if value is None:
        return TIME
    if isinstance(value, str) and value.strip().lower() in ("oo", "inf", "infinity"):
        return sp.oo
    if value is sp.oo or (isinstance(value, float) and value == float("inf")):
        return sp.oo
    t = exact_number(value, name)
    if t.free_symbols:
        return t
    if not t.is_real or t < 0:
        raise ParameterError(f"{name} must be a real number >= 0, 'oo' or a symbol, got {t}")
    return t


@dataclass(frozen=True)
class Dynamics(Rendered):
    """Gradient-flow predictions of every ordered trial of a TI task, as exact functions of the training time.

    Attributes
    ----------
    task : Task
    family : Family
        With its bound parameter values (exchangeable kernels may keep some symbolic).
    ridge : sympy expression or None
        The weight decay ``lambda`` (a number or a Symbol); ``None`` for none (``lambda = 0``; the flow tends to the
        ridgeless limit).
    course : TimeCourse
        The mode groups (irreducible factors), rates and per-trial weights.
    limits : mapping trial -> sympy expression
        ``f_oo``: exact, equal to :func:`symbolic_ti.derive`'s prediction.
    method : str
        ``"laplacian"`` (graph-Laplacian reduction) or ``"halved"`` / ``"full"`` (Gram matrix modes).
    dps : int or None
        ``None``: numbers (values, signs, critical times) come from the exact modes. Otherwise they come from the
        certified numeric modes of the halved (full) Gram matrix (:mod:`.certified`) at ``dps`` decimal digits
        (raised automatically where a sign needs it); ``course`` is then the exact course if the kernel has one
        (irrational constant rates, e.g. relu-ntk) or None (irrational Gram matrix: expressions are numeric).

    Immutable (the cache of numeric modes aside, which holds no value of its own): hashable, picklable, equal
    when task, family, ridge, course, limits, method and ``dps`` are.
    """

    task: Task
    family: Family
    ridge: sp.Expr | None
    course: TimeCourse | None = field(repr=False)
    limits: Mapping[Trial, sp.Expr] = field(repr=False)
    method: str
    dps: int | None = None
    _balls: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.limits, dict):
            object.__setattr__(self, "limits", FrozenMapping(self.limits))

    def __hash__(self) -> int:
        """Hash of what identifies the dynamics (equal dynamics agree on it); ``course`` holds python-flint
        polynomials, which do not hash, and ``_balls`` is a cache, so neither enters."""
        return hash((self.task, self.family, self.ridge, self.method, self.dps))

    # ------------------------------------------------------------------ values
    @property
    def is_numeric(self) -> bool:
        """Whether rates and amplitudes are numbers (needed for critical times and grids)."""
        if self.dps is not None:
            return True
        return self.course is not None and is_rational_course(self.course) and isinstance(
            self.limits, FrozenMapping) and all(not v.free_symbols for v in self.limits.values())

    @property
    def path(self) -> str:
        """How the numbers are computed: ``"exact"`` (exact modes, by irreducible factor) or
        ``"certified numeric at D digits"`` (ball eigen-decomposition of the Gram matrix, :mod:`.certified`)."""
        return "exact" if self.dps is None else f"certified numeric at {self.dps} digits"

    @property
    def exact_expressions(self) -> bool:
        """Whether :meth:`f` gives exact expressions at finite ``t`` (False: sympy Floats at ``dps`` digits,
        each within :meth:`enclosure`'s radius)."""
        return self.course is not None

    def numeric_modes(self, prec: int) -> NumericModes:
        """The certified numeric modes at ``prec`` bits (at least the ``dps`` precision), cached."""
        assert self.dps is not None
        prec = max(prec, bits_of(self.dps))
        key = ("numeric", prec)
        if key not in self._balls:
            if "entries" not in self._balls:
                self._balls["entries"] = gram_entries(self.task, self.family)
            self._balls[key] = numeric_modes(self._balls["entries"], self.ridge, prec)
        return self._balls[key]

    def _numeric_terms(self, trial: Trial, prec: int) -> ArbTerms:
        nm = self.numeric_modes(prec)
        with flint.ctx.workprec(nm.prec):
            amps = tuple(a / r for a, r in zip(nm.amplitudes[trial], nm.rates, strict=True))
            bounds = tuple((s / lo, lo, hi) for s, lo, hi in zip(nm.magnitudes[trial], nm.lower, nm.upper,
                                                                 strict=True))
        return ArbTerms(nm.limits[trial], amps, nm.rates, nm.slack[trial], bounds)

    def enclosure(self, i: int, j: int, t: Any, digits: int | None = None) -> tuple[float, float]:
        """``f_t(i, j)`` at a rational time as ``(midpoint, radius)``: the exact value lies within ``radius``
        of ``midpoint`` (ball arithmetic, exact and numeric paths; numeric results only)."""
        self._check_numeric("enclosures")
        trial = self.task.check_trial((i, j))
        q = sp.Rational(parse_time(t))
        if q == 0:
            return 0.0, 0.0
        prec = bits_of(digits or self.dps or 15)
        with flint.ctx.workprec(prec):
            v = self.balls(trial, prec).value(flint.arb(flint.fmpq(int(q.p), int(q.q))))
        return float(v.mid()), float(v.rad())

    @property
    def rates(self) -> tuple[sp.Expr, ...]:
        """The distinct decay rates as exact expressions in the root variable ``nu`` of each group: the group
        ``Q(nu)`` decays at ``a + b nu`` (see :attr:`course`)."""
        if self.course is None:
            return (sp.Integer(0) if self.ridge is None else sp.sympify(self.ridge), sp.Integer(1))
        a, b = self.course.rate
        return (sp.expand(a), sp.expand(b))

    def f(self, i: int, j: int, t: Any = None) -> sp.Expr:
        """``f_t(i, j)`` exactly; ``t`` a number ``>= 0``, ``"oo"`` or a Symbol (default the Symbol ``t``).

        Raises
        ------
        TaskError, ParameterError
            For an invalid trial or time.
        """
        trial = self.task.check_trial((i, j))
        tt = parse_time(t)
        if self.course is None:  # certified numeric path without exact modes: Floats at dps digits
            if tt is sp.oo or tt == 0:
                return self.limits[trial] if tt is sp.oo else sp.Integer(0)
            at = self.balls(trial, bits_of(self.dps or 30))
            dps = self.dps or 30
            def num(x: flint.arb) -> sp.Float:
                return sp.Float(x.mid().str(dps, radius=False), dps)

            return num(at.limit) - sp.Add(*[num(c) * sp.exp(-num(r) * tt)
                                            for c, r in zip(at.amplitudes, at.rates, strict=True)])
        return expression(self.course, trial, tt, self.limits[trial])

    def margin(self, i: int, j: int, t: Any = None) -> sp.Expr | None:
        """``g f_t(i, j)`` with ``g`` the target or ground truth; ``None`` without ground truth."""
        g = self.task.ground_truth((i, j))
        return None if g is None else g * self.f(i, j, t)

    def margins_at(self, t: Any) -> dict[Trial, sp.Expr]:
        """Exact margins of every trial with a target or ground truth at time ``t``."""
        out = {}
        for trial in self.task.trials:
            m = self.margin(*trial, t=t)
            if m is not None:
                out[trial] = m
        return out

    def balls(self, trial: Trial, prec: int = 96) -> ArbTerms:
        """The trial's ``f_t`` as balls (numeric results only), cached per precision."""
        key = (trial, prec)
        if key not in self._balls:
            self._check_numeric("ball values")
            if self.dps is not None:
                self._balls[key] = self._numeric_terms(trial, prec)
                return self._balls[key]
            work = prec
            assert self.course is not None
            while True:  # the weights are polynomials with large coefficients: raise the working precision until
                # every amplitude is accurate to prec / 2 bits (cancellation in Horner's rule)
                got = arb_terms(self.course, trial, self.limits[trial], work,
                                self._balls.setdefault(("roots", work), {}))
                if work >= 16 * prec or all(c.rad() <= abs(c.mid()) * 2.0 ** (-prec // 2) or c.rad() < 2.0 ** -prec
                                            for c in (*got.amplitudes, *got.rates)):
                    break
                work *= 2
            self._balls[key] = got
        return self._balls[key]

    def value(self, i: int, j: int, t: Any, digits: int = 15) -> float:
        """``f_t(i, j)`` as a float, certified to ``digits`` significant digits by ball arithmetic."""
        trial = self.task.check_trial((i, j))
        tt = parse_time(t)
        if tt is sp.oo:
            return float(self.limits[trial])
        if tt == 0:
            return 0.0
        q = sp.Rational(tt)
        prec = 64
        while True:
            with flint.ctx.workprec(prec):
                v = self.balls(trial, prec).value(flint.arb(flint.fmpq(int(q.p), int(q.q))))
            if v.rad() <= abs(v.mid()) * 10 ** -digits or prec > 4096 or v.rad() < 1e-300:
                return float(v.mid())
            prec *= 2

    def sign_at(self, i: int, j: int, t: Any) -> int:
        """The exact sign of the margin of ``(i, j)`` at a rational time, decided with balls (precision grows
        until the ball excludes 0; 0 only if the margin is identically 0 or the cap of 8192 bits is reached)."""
        trial = self.task.check_trial((i, j))
        g = self.task.ground_truth(trial)
        if g is None:
            raise ParameterError(f"trial {trial} has no ground truth, so no margin")
        q = sp.Rational(parse_time(t))
        prec = 64
        cap = 8192 if self.dps is None else 4 * bits_of(self.dps)
        while prec <= cap:
            with flint.ctx.workprec(prec):
                v = g * self.balls(trial, prec).value(flint.arb(flint.fmpq(int(q.p), int(q.q))))
            if v > 0:
                return 1
            if v < 0:
                return -1
            prec *= 2
        return 0

    def derivative_at_zero(self, i: int, j: int, order: int) -> Fraction | flint.arb:
        """``d^order f_t(i, j) / dt^order`` at ``t = 0``, exactly (numeric results, ``order >= 1``; a ball on the
        certified numeric path)."""
        self._check_numeric("derivatives at 0")
        trial = self.task.check_trial((i, j))
        if self.dps is not None:
            nm = self.numeric_modes(bits_of(self.dps))
            return nm.derivative_at_zero(trial, order, self.task.trials.index(trial))
        assert self.course is not None
        return derivative_at_zero(self.course, trial, order)

    def errors_at(self, t: Any) -> tuple[Trial, ...]:
        """Trials with a negative margin at the rational time ``t`` (signs decided with balls)."""
        tt = parse_time(t)
        if tt is sp.oo:
            return tuple(x for x in self.task.trials if self.task.ground_truth(x) is not None
                         and self.task.ground_truth(x) * self.limits[x] < 0)
        return tuple(x for x in self.task.trials if self.task.ground_truth(x) is not None
                     and self.sign_at(*x, t=tt) < 0)

    def trials_with_margin(self, trials: Any = None) -> tuple[Trial, ...]:
        """The chosen trials (default every trial with a margin), checked."""
        chosen = resolve_trials(self.task, trials)
        return tuple(x for x in chosen if self.task.ground_truth(x) is not None)

    def _check_numeric(self, what: str) -> None:
        if not self.is_numeric:
            assert self.course is not None
            free = sorted({s.name for v in (*self.course.rate, *self.course.amplitudes[1]) for s in
                           sp.sympify(v).free_symbols})
            if not free:
                raise ParameterError(f"{what} need rational rates and amplitudes; this kernel's values are "
                                     "irrational numbers (exact expressions and limits are still available)")
            raise ParameterError(f"{what} need numeric parameters and ridge; this result depends on "
                                 + ", ".join(free) + " (give each a value: --set NAME=VALUE and --ridge in the "
                                 "CLI, parameters= and ridge= in Python)")

    def label(self) -> str:
        """Short description, e.g. ``"n=9, exception 6>4, exchangeable(alpha=1/10), ridge 1/10, gradient flow"``."""
        ridge = "no ridge" if self.ridge is None else f"ridge {self.ridge}"
        path = "" if self.dps is None else f"; {self.path}"
        return f"{self.task.label()}, {self.family.describe()}, {ridge}, gradient flow ({self.method}{path})"

    def __repr__(self) -> str:
        return f"Dynamics({self.label()})"
