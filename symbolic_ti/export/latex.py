r"""LaTeX of a :class:`~symbolic_ti.results.Result`: one trial, the upper-triangle table, the margins.

Three outputs of :func:`result_to_latex`:

* default: a fragment for a paper (``tabular`` for numeric results, ``align*`` from amsmath for symbolic
  ones, whose formulas are too long for a table);
* ``standalone=True``: a complete document (``\documentclass{article}`` ... ``\end{document}``);
* ``notebook=True``: ``$$...$$`` displays of MathJax-supported commands (``array``, ``aligned``, ``\text``),
  one per part so that a document can break between them, which Jupyter renders; :meth:`Result._repr_latex_`
  uses it.

Symbols print as in ``docs/conventions.md``: ``\alpha``, ``\lambda``, ``\kappa_{o}``, ``\kappa_{d}``.
Numerators and denominators are factored for readability (:func:`factored`); the value is never changed.

This module gathers the public names of three modules, one job each:

* :mod:`symbolic_ti.export.latex_printer`: LaTeX of one expression (:func:`plain_latex`, :func:`expr_latex`)
  and factoring for display (:func:`factored`);
* :mod:`symbolic_ti.export.latex_result`: the report of a result (:func:`result_to_latex`, :func:`table_latex`,
  :func:`margins_latex`, :func:`trial_latex`, :func:`ridge_latex`), registered as the result's LaTeX renderer,
  and the complete document of ``--standalone`` (:func:`latex_document`);
* :mod:`symbolic_ti.export.latex_parse`: reading it back (:func:`parse_exported`).

Round trip: every exported expression of every family (``\pi``, ``\operatorname{acos}``, square roots, the
named ReLU constants ``\kappa_{o}^{\mathrm{NTK},2}``) and of the general-n closed forms reads back with sympy's
LaTeX parser (``parse_latex(s, backend="lark")``, the ``latex`` extra) through :func:`parse_exported` to an
expression equal to the original. The printing rules that make this possible are in
:mod:`~symbolic_ti.export.latex_printer`; the table of what the parser's grammar lacks, and the precise list of
what does not read back (floats only to the digits printed, Symbols printed with accents, ...), in
:mod:`~symbolic_ti.export.latex_parse`.
"""

from __future__ import annotations

from .latex_parse import parse_exported
from .latex_printer import expr_latex, factored, plain_latex
from .latex_result import latex_document, margins_latex, result_to_latex, ridge_latex, table_latex, trial_latex

__all__ = ["factored", "plain_latex", "expr_latex", "trial_latex", "table_latex", "margins_latex", "ridge_latex",
           "result_to_latex", "latex_document", "parse_exported"]
