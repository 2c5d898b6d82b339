"""Closed forms built on access: :class:`PolyFraction` (a canceled ``N / D`` kept as polynomials) and
:class:`LazyPredictions` (a mapping trial -> prediction whose forms are computed when first read).

A solver that keeps its closed forms as polynomials (FLINT, issue 17: the graph-Laplacian path, the dense
FLINT paths of :mod:`symbolic_ti.solvers.dense`) hands them to :class:`~symbolic_ti.results.Result` in a
:class:`LazyPredictions`; printers and JSON read the polynomials (``Result.fraction``), and a sympy expression
is built only when one is asked for (``Result.f``). Both names are importable from :mod:`symbolic_ti.results`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

import sympy as sp

from ..families.base import Trial
from ..progress import Progress

__all__ = ["PolyFraction", "LazyPredictions", "Terms", "lifted_terms"]

#: A polynomial's terms: ``{exponents: coefficient}``, exponents in the order of the form's generators.
Terms = dict[tuple[int, ...], Fraction]


class PolyFraction:
    """A canceled closed form ``N / D`` in ``gens`` (Symbols, irrational constants), which a solver may hand to
    :class:`Result` instead of an expression (built by :meth:`as_expr` on request, cached); printers and JSON work
    from the terms ``num``, ``den``: ``{exponents: Fraction}``, read on first access from ``polys``, the two
    polynomials given (:meth:`from_polys`). ``negated``: made as ``-f`` of a form ``f`` (``base``): the value is ``N / D`` (``N``
    negated) and :meth:`as_expr` is ``-f.as_expr()``, sympy's tree for ``-f`` (``Mul(-1, N, Pow(D, -1))``)."""

    def __init__(self, gens: tuple[sp.Expr, ...], num: Any, den: Any, negated: bool = False,
                 base: PolyFraction | None = None) -> None:
        self.gens, self.polys, self.negated = tuple(gens), (num, den), negated  # Terms or polynomials, as given
        self._terms_of: list[Terms | None] = [None, None]
        self._base = base if base is not None or not negated else PolyFraction(gens, _negate(num), den)

    @classmethod
    def from_polys(cls, num: Any, den: Any, gens: tuple[sp.Expr, ...] | None = None) -> PolyFraction:
        """From two coprime polynomials: sympy ``PolyElement`` or python-flint ``fmpz_mpoly`` / ``fmpq_mpoly``
        in the order of ``gens`` (default: the sympy ring's symbols), kept until :attr:`num` is read."""
        return cls(tuple(num.ring.symbols) if gens is None else gens, num, den)

    def _terms(self, k: int) -> Terms:
        p, terms = self.polys[k], self._terms_of[k]
        if terms is not None or type(p) is dict:
            return terms if terms is not None else p
        items = p.to_dict().items() if hasattr(p, "to_dict") else p.terms()
        terms = self._terms_of[k] = {tuple(int(x) for x in m): Fraction(int(c.numerator), int(c.denominator))
                                     for m, c in items}
        return terms

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the polynomials as their kind, ring and terms (FLINT polynomials and sympy's ``PolyElement`` do
        not pickle themselves) and rebuild the same kind on unpickling, so that printers, JSON and the forms
        table of an unpickled result work as on the original (byte for byte); the base of a form made as ``-f``
        is kept (pickle's memo keeps it the very object ``f``)."""
        base = self._base if self.negated else None
        return (_unpickled_fraction, (self.gens, *(_portable(p) for p in self.polys), self.negated, base))

    num = property(lambda self: self._terms(0), doc="The numerator's terms ``{exponents: Fraction}``.")
    den = property(lambda self: self._terms(1), doc="The denominator's terms ``{exponents: Fraction}``.")

    @property
    def is_polynomial(self) -> bool:
        """Whether ``D == 1``."""
        den = self.polys[1]
        return den == {(0,) * len(self.gens): Fraction(1)} if type(den) is dict else bool(den == 1)

    def __neg__(self) -> PolyFraction:
        return self._base or PolyFraction(self.gens, _negate(self.polys[0]), self.polys[1], negated=True, base=self)

    def opposite(self) -> PolyFraction:
        """``(-N) / D`` as a form of its own: its :meth:`as_expr` is the tree of ``-N`` over ``D`` (the tree of a
        prediction solved directly, e.g. ``f(j, i)`` of a dense system), where ``-f`` keeps sympy's tree of
        ``-f``. The same value."""
        return PolyFraction(self.gens, _negate(self.polys[0]), self.polys[1])

    def target_minus(self, y: int) -> PolyFraction:
        """``y - N / D = (y D - N) / D``, canceled (a common factor of it and ``D`` would divide ``N``)."""
        if not any(type(p) is dict for p in self.polys):  # (a sympy PolyElement is a dict subclass)
            return PolyFraction(self.gens, y * self.polys[1] - self.polys[0], self.polys[1])
        top = {m: y * c for m, c in self.den.items()}
        for m, c in self.num.items():
            top[m] = top.get(m, Fraction(0)) - c
        return PolyFraction(self.gens, {m: c for m, c in top.items() if c}, self.den)

    def as_expr(self) -> sp.Expr:
        """The sympy expression ``N / D`` (``Add`` of ``Mul`` terms; ``-f`` when negated), built once, cached."""
        if "_expr" not in self.__dict__:
            if self._base is not None:
                self._expr = -self._base.as_expr()
            else:
                num = _terms_expr(self.gens, self.num)
                self._expr = num if self.is_polynomial else num / _terms_expr(self.gens, self.den)
        return self.__dict__["_expr"]


def lifted_terms(terms: Terms | dict[tuple[int, ...], Any], where: list[int], size: int) -> dict[tuple[int, ...], Any]:
    """Terms in ``size`` generators from terms in a subset of them: the exponent at position ``k`` of a monomial
    goes to position ``where[k]`` (the other exponents 0); the coefficients are kept."""
    out = {}
    for m, c in terms.items():
        full = [0] * size
        for k, e in zip(where, m, strict=True):
            full[k] = e
        out[tuple(full)] = c
    return out


def _portable(poly: Any) -> tuple[Any, ...]:
    """A polynomial as plain data: ``("terms", terms)`` for a term dictionary, ``("flint", "fmpz" or "fmpq",
    names, ordering, terms)`` for a python-flint ``fmpz_mpoly`` / ``fmpq_mpoly`` (exact integer coefficients,
    ``(p, q)`` pairs for ``fmpq``), ``("ring", symbols, domain, order, terms)`` for a sympy ``PolyElement``."""
    if type(poly) is dict:
        return ("terms", poly)
    if hasattr(poly, "context"):
        ctx, rational = poly.context(), type(poly).__name__ == "fmpq_mpoly"
        terms = {tuple(int(e) for e in m): (int(c.numerator), int(c.denominator)) if rational else int(c)
                 for m, c in poly.to_dict().items()}
        return ("flint", "fmpq" if rational else "fmpz", tuple(ctx.names()), ctx.ordering().name, terms)
    ring = poly.ring
    return ("ring", ring.symbols, ring.domain, ring.order, dict(poly))


def _restored(data: tuple[Any, ...]) -> Any:
    """The polynomial of :func:`_portable`'s ``data``, of the same kind and ring."""
    if data[0] == "terms":
        return data[1]
    if data[0] == "flint":
        import flint  # (only where a FLINT polynomial was pickled)

        _, kind, names, ordering, terms = data
        if kind == "fmpq":
            ctx = flint.fmpq_mpoly_ctx.get(names, ordering)
            return ctx.from_dict({m: flint.fmpq(*c) for m, c in terms.items()})
        return flint.fmpz_mpoly_ctx.get(names, ordering).from_dict(terms)
    from sympy.polys.rings import PolyRing

    _, symbols, domain, order, terms = data
    return PolyRing(symbols, domain, order).from_dict(terms)


def _unpickled_fraction(gens: tuple[sp.Expr, ...], num: tuple[Any, ...], den: tuple[Any, ...], negated: bool,
                        base: PolyFraction | None) -> PolyFraction:
    """A :class:`PolyFraction` from :meth:`PolyFraction.__reduce__`'s data."""
    return PolyFraction(gens, _restored(num), _restored(den), negated, base)


def _negate(raw: Any) -> Any:
    return {m: -c for m, c in raw.items()} if type(raw) is dict else -raw


def _terms_expr(gens: tuple[sp.Expr, ...], terms: Terms) -> sp.Expr:
    return sp.Add(*[sp.Mul(sp.Rational(c.numerator, c.denominator),
                           *[g if e == 1 else sp.Pow(g, e) for g, e in zip(gens, m, strict=True) if e])
                    for m, c in terms.items()])


class LazyPredictions(Mapping[Trial, sp.Expr]):
    """Read-only mapping trial -> prediction whose closed forms are built on first access.

    Used by the fast paths (the graph-Laplacian reduction, the dense FLINT solves), where turning all
    ``n (n - 1)`` predictions into sympy expressions at large n would dominate the cost. With
    ``antisymmetric`` (the default), ``f(j, i) = -f(i, j)`` is used, so each unordered pair is built once; that
    holds for the Laplacian path and the antisymmetric halving (swap-invariant kernels, :mod:`symbolic_ti.gram`),
    not for the full system of a kernel in general, which builds every ordered trial.

    Parameters
    ----------
    trials : tuple of (i, j)
        Every ordered trial, the mapping's keys.
    compute : callable (i, j) -> sympy expression or PolyFraction
        Builds ``f(i, j)``: for ``i < j`` only when ``antisymmetric``, for every ordered trial otherwise. A
        :class:`PolyFraction` is kept as it is (:meth:`fraction`); its expression is built when the mapping is
        indexed.
    free_symbols : tuple of Symbols
        Symbols the predictions may contain (known without building them).
    antisymmetric : bool, default True
        Whether ``f(j, i) = -f(i, j)``; then ``f(j, i)`` is ``negate(f(i, j))``.
    negate : callable, optional
        Makes ``f(j, i)`` from ``f(i, j)`` when ``antisymmetric``. Default ``-f`` (for a PolyFraction, the
        form whose expression is sympy's tree of ``-f``, as the Laplacian path always built it); the dense
        FLINT paths give :meth:`PolyFraction.opposite`, the tree of the direct solve they replace.
    """

    def __init__(self, trials: tuple[Trial, ...], compute: Callable[[int, int], Any],
                 free_symbols: tuple[sp.Symbol, ...], antisymmetric: bool = True,
                 negate: Callable[[Any], Any] = operator.neg) -> None:
        self._trials = tuple(trials)
        self._keys = frozenset(self._trials)
        self._compute = compute
        self._cache: dict[Trial, Any] = {}
        self.free_symbols = tuple(free_symbols)
        self.antisymmetric = bool(antisymmetric)
        self._negate = negate

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as data: every form built (:meth:`build_all`) and kept as the solver made it (PolyFractions stay
        PolyFractions, so an unpickled result prints and writes JSON as the original); the functions that built
        them are not pickled (nothing is left to build)."""
        self.build_all()
        return (_built_predictions, (self._trials, self._cache, self.free_symbols, self.antisymmetric))

    def _form(self, trial: Trial) -> Any:
        if trial not in self._keys:
            raise KeyError(trial)
        if trial not in self._cache:
            if not self.antisymmetric:
                self._cache[trial] = self._compute(*trial)
            else:
                i, j = min(trial), max(trial)
                v = self._cache[(i, j)] = self._compute(i, j)
                self._cache[(j, i)] = self._negate(v)
        return self._cache[trial]

    def __getitem__(self, trial: Trial) -> sp.Expr:
        v = self._form(trial)
        return v.as_expr() if isinstance(v, PolyFraction) else v

    def fraction(self, trial: Trial) -> PolyFraction | None:
        """The polynomial form of ``f(trial)`` where the solver gave one (built on access), else ``None``."""
        v = self._form(trial)
        return v if isinstance(v, PolyFraction) else None

    def __iter__(self) -> Iterator[Trial]:
        return iter(self._trials)

    def __len__(self) -> int:
        return len(self._trials)

    def is_built(self, trial: Trial) -> bool:
        """Whether the closed form of ``trial`` has been built already (looking builds nothing)."""
        return trial in self._cache

    @property
    def n_built(self) -> int:
        """How many predictions have been built so far."""
        return len(self._cache)

    def build_all(self) -> None:
        """Build every prediction not built yet, showing progress on a terminal (:mod:`symbolic_ti.progress`);
        Ctrl-C stops it cleanly (built forms stay cached). Display, JSON and margins need all of them."""
        pairs = [t for t in self._trials if t[0] < t[1] or not self.antisymmetric]
        missing = [t for t in pairs if t not in self._cache]
        if not missing:
            return
        n = max(max(t) for t in self._trials)
        done = len(pairs) - len(missing)
        with Progress(n=n) as progress:
            progress.update("closed forms", done, len(pairs))
            for t in missing:
                self._form(t)
                done += 1
                progress.update("closed forms", done, len(pairs))


def _nothing_to_build(i: int, j: int) -> Any:
    raise KeyError((i, j))  # (unreachable: an unpickled LazyPredictions has every form built)


def _built_predictions(trials: tuple[Trial, ...], forms: dict[Trial, Any], free_symbols: tuple[sp.Symbol, ...],
                       antisymmetric: bool) -> LazyPredictions:
    """A :class:`LazyPredictions` with every form built already (how one unpickles)."""
    out = LazyPredictions(trials, _nothing_to_build, free_symbols, antisymmetric)
    out._cache.update(forms)
    return out
