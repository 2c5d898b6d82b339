r"""The certified real-root engine shared by critical values, critical conjunctivity and the dynamics.

Every root is certified: an exact isolating interval (integer polynomials) or a ball that provably contains it
(irrational coefficients); floats only propose brackets. Derived in
docs/critical_conjunctivity.md#method-and-what-is-certified and docs/theory.md#critical-values.

The modules, from the arithmetic up:

* :mod:`.polynomials`: exact univariate integer polynomials (tuples of ints, FLINT for gcd and factoring).
* :mod:`.isolation`: real-root isolation by Descartes' rule of signs with exact bisection.
* :mod:`.real`: :class:`RealRoot` (a real algebraic number: a polynomial and an isolating interval), its
  refinement, comparison and exact value; :class:`RootRegistry`. Its names are this package's public face.
* :mod:`.ball`: certified signs and roots with ball arithmetic (python-flint's ``arb``) for coefficients that are
  not all algebraic.
* :mod:`.irrational`: the exact structure of a margin with irrational coefficients, and its exact roots when
  every coefficient is algebraic.
* :mod:`.numeric`: certified sign changes of such margins (:func:`.numeric.numeric_sign_changes`).

Before release 0.2 these were six sibling modules of :mod:`symbolic_ti.analysis` (``roots``, ``isolation``,
``polynomials``, ``roots_ball``, ``roots_irrational``, ``roots_numeric``); the old paths of the five that moved
still import, with a :class:`DeprecationWarning`, until 0.3, and ``symbolic_ti.analysis.roots`` keeps every name
it had.
"""

from __future__ import annotations

from .real import (ROOT_ORDER, RealRoot, RootRegistry, compare, end_fraction, exact_root, isolate, points_between,
                   positive_roots, real_roots, roots_below, roots_below_pole, same_number, separate,
                   single_positive_root, to_fraction)

__all__ = ["RealRoot", "compare", "ROOT_ORDER", "same_number", "exact_root", "roots_below", "isolate",
           "real_roots", "roots_below_pole", "positive_roots", "single_positive_root", "RootRegistry", "separate",
           "points_between", "to_fraction", "end_fraction"]
