r"""Closed forms for a general number of items ``n`` (exchangeable family).

Everything here is derived in ``docs/general_n.md`` from the graph-Laplacian reduction
(``docs/theory.md#graph-laplacian-reduction``): test predictions are rank differences ``f(i, j) = r_i - r_j``
with ``(Lap + gamma I) r = b`` on the comparison graph, and a training trial ``e`` with target ``y`` gives
``f(e) = d_e + alpha / (alpha + lambda') (y - d_e)``, ``d_e = r_i - r_j``, ``lambda' = lambda / (1 - kappa_d)``,
``gamma = 2 (alpha + lambda') / (1 - alpha)``.

Two equivalent forms of every result, in the variable ``x = cosh(mu) = 1 + gamma / 2 = (1 + lambda') / (1 - alpha)``:

* **chebyshev**: polynomials in ``x`` (sympy ``chebyshevu(k, x)`` with symbolic ``k``), a rational function of
  ``x`` for fixed integers, hence exact and rational for rational ``alpha``, ridge and ``kappa_d``;
* **sinh**: hyperbolic functions of ``mu >= 0``, the form of Lippl et al. (PNAS 2024).

Modules (each name below is re-exported here)
---------------------------------------------
* :mod:`.variables`: the Symbols :data:`n` (shared with :mod:`symbolic_ti.symbols`), :data:`L`, :data:`D`
  (exception span, ``W = L + D``), :data:`W`, :data:`i`, :data:`j`, :data:`k`, :data:`mu`, :data:`x`, the
  Symbols of the compact forms (:data:`DELTA_0`, :data:`Q`, :data:`D_E`, :data:`Y_E`), :data:`REGIONS`,
  :data:`FORMS`, the JSON format name and version; :func:`cosh_mu`, :func:`gamma_expr` (the variable in the
  family parameters), :func:`region_of`, :func:`named_symbols`.
* :mod:`.path`: :func:`chebyshev_v`, :func:`path_continuant`, :func:`path_determinant`, :func:`path_green`: the
  path's Green's function.
* :mod:`.no_exception`: :func:`rank_no_exception`, :func:`prediction_no_exception`, :func:`pnas_closed_form`,
  :func:`no_exception_closed_form` -> :class:`NoExceptionClosedForm`.
* :mod:`.one_exception`: :func:`exception_closed_form` -> :class:`ExceptionClosedForm`: one exception ``W>L``,
  piecewise by region.
* :mod:`.evaluation`: :func:`evaluate_no_exception` and the machinery of :meth:`ExceptionClosedForm.evaluate`
  (exact or mpmath values; limits at ``gamma = 0`` and ``gamma = oo`` taken exactly).
* :mod:`.fixed_positions`: :func:`fixed_position_ranks`: several exceptions, for fixed ``n`` and positions only.
* :mod:`.paradigms`: :func:`transverse_patterning_margin`, :func:`separate_list_rank`, :func:`list_green`,
  :func:`linked_lists_rank`, :func:`evaluate_linked_lists` -> :class:`LinkedLists`,
  :func:`linked_lists_limit_ridgeless_additive` and the Symbols :data:`p`, :data:`q`, :data:`u`, :data:`v`:
  transverse patterning and two lists joined by one link (docs/paradigms.md).
* :mod:`.paradigm_forms`: :func:`paradigm_closed_form` -> :class:`ParadigmClosedForm`: those closed forms as one
  report (``symbolic-ti general --paradigm NAME``), :data:`CLOSED_FORM_PARADIGMS`, :data:`C_LINK`.
* :mod:`.limits`: :func:`limit_ridgeless_additive`, :func:`limit_conjunctive`,
  :func:`exception_limit_ridgeless_additive`: limits ``alpha, lambda -> 0`` and ``alpha -> 1``, taken as limits.

Rendering (text, LaTeX, JSON, notebook) lives in :mod:`symbolic_ti.export.general`.
"""

from __future__ import annotations

from .evaluation import evaluate_no_exception
from .fixed_positions import fixed_position_ranks
from .limits import exception_limit_ridgeless_additive, limit_conjunctive, limit_ridgeless_additive
from .no_exception import (NoExceptionClosedForm, no_exception_closed_form, pnas_closed_form,
                           prediction_no_exception, rank_no_exception)
from .one_exception import ExceptionClosedForm, exception_closed_form
from .paradigm_forms import C_LINK, CLOSED_FORM_PARADIGMS, ParadigmClosedForm, paradigm_closed_form
from .paradigms import (LinkedLists, evaluate_linked_lists, linked_lists_limit_ridgeless_additive,
                        linked_lists_rank, list_green, p, q, separate_list_rank, transverse_patterning_margin, u, v)
from .path import chebyshev_v, path_continuant, path_determinant, path_green
from .variables import (D, D_E, DELTA_0, FORMAT_NAME, FORMAT_VERSION, FORMS, REGION_PAIRS, REGIONS, Y_E, L, Q, W,
                        cosh_mu, form_variable, gamma_expr, i, i_sym, j, j_sym, k, mu, n, named_symbols, region_of,
                        variable_definition, x)

__all__ = [
    "n", "L", "D", "W", "i", "j", "i_sym", "j_sym", "k", "mu", "x", "REGIONS", "REGION_PAIRS", "FORMS",
    "FORMAT_NAME", "FORMAT_VERSION",
    "cosh_mu", "gamma_expr", "chebyshev_v", "path_continuant", "path_determinant", "path_green",
    "rank_no_exception", "prediction_no_exception", "pnas_closed_form", "evaluate_no_exception",
    "ExceptionClosedForm", "exception_closed_form", "region_of", "NoExceptionClosedForm", "no_exception_closed_form",
    "fixed_position_ranks",
    "limit_ridgeless_additive", "limit_conjunctive", "exception_limit_ridgeless_additive",
    "DELTA_0", "Q", "D_E", "Y_E", "named_symbols", "form_variable", "variable_definition",
    "p", "q", "u", "v", "transverse_patterning_margin", "separate_list_rank", "list_green", "linked_lists_rank",
    "LinkedLists", "evaluate_linked_lists", "linked_lists_limit_ridgeless_additive",
    "ParadigmClosedForm", "paradigm_closed_form", "CLOSED_FORM_PARADIGMS", "C_LINK",
]
