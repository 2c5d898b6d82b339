"""Text and JSON of a :class:`~symbolic_ti.numeric.verification.VerifyReport` (the outcome of
:func:`symbolic_ti.verify`), registered with :func:`symbolic_ti.display.renderer`.

``VerifyReport.to_text()`` / ``str(report)`` give :func:`verify_report_to_text`, ``VerifyReport.to_dict()`` /
``to_json()`` give :func:`verify_report_to_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..display import renderer
from ..numeric.verification import VerifyReport
from .values import exact_value, meta_block
from ..formatting import rounded

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "verify_report_to_text", "verify_report_to_dict"]

#: Value of ``meta.format`` of a verification report.
FORMAT_NAME = "symbolic_ti.verify"

# Version of the JSON format; bump it, with a line here, whenever a field changes meaning or disappears.
#   1: first format with a meta block and exact values as expression objects (symbolic_ti 0.2.0).
FORMAT_VERSION = 1


def _point_text(point: Mapping[str, sp.Expr]) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "(no free parameter)"


def _point_dict(point: Mapping[str, sp.Expr]) -> dict[str, Any]:
    return {k: exact_value(v) for k, v in point.items()}


@renderer("text", VerifyReport)
def verify_report_to_text(report: VerifyReport) -> str:
    """Plain-text summary of a verification, one fact per line.

    Parameters
    ----------
    report : VerifyReport

    Returns
    -------
    str
        ``verify LABEL: OK`` (or ``FAILED``, or ``UNDECIDED`` when numeric values flagged untrusted left
        comparisons undecided), the numeric method, the number of comparisons, the largest
        absolute and relative errors with the tolerance, the worst trial with both values, and one line per
        point with its largest relative error.
    """
    status = {"agree": "OK", "disagree": "FAILED", "undecided": "UNDECIDED"}.get(report.status, "FAILED")
    lines = [
        f"verify {report.label}: {status}",
        f"  numeric: full Gram matrix, mpmath at {report.dps} digits"
        + (", minimum-norm interpolant (ridgeless)" if report.ridgeless else ", LU solve"),
        f"  {report.n_comparisons} comparisons at {len(report.points)} point(s)",
        f"  max abs error {rounded(report.max_abs_error, '.3e')}, max rel error {rounded(report.max_rel_error, '.3e')} "
        f"(tol {rounded(report.tol, '.1e')})",
        f"  worst trial f{report.worst_trial} at {_point_text(report.worst_point)}: "
        f"exact {report.worst_exact}, numeric {report.worst_numeric}",
    ]
    if report.undecided:
        lines.append(f"  undecided: {len(report.undecided)} comparisons (numeric values flagged untrusted)")
    for k, (p, e) in enumerate(zip(report.points, report.point_errors, strict=True), 1):
        lines.append(f"  point {k}: {_point_text(p)}  max rel error {rounded(e, '.3e')}")
    return "\n".join(lines)


@renderer("dict", VerifyReport)
def verify_report_to_dict(report: VerifyReport) -> dict[str, Any]:
    """JSON-ready dictionary of a verification.

    Parameters
    ----------
    report : VerifyReport

    Returns
    -------
    dict
        Keys, in order: ``meta`` (:func:`~symbolic_ti.export.values.meta_block`, format
        ``"symbolic_ti.verify"``), ``label``, ``dps``, ``tol``, ``points`` (one object per point, name ->
        expression object), ``point_errors``, ``max_abs_error``, ``max_rel_error``, ``worst_trial`` (``[i, j]``),
        ``worst_point``, ``worst_exact`` (expression object of the exact value), ``worst_numeric`` (text, 20
        digits), ``n_comparisons`` (decided comparisons), ``ridgeless``, ``ok``, ``status`` (``"agree"``,
        ``"disagree"`` or ``"undecided"``), ``undecided`` (``[[i, j], point index]`` of each comparison left
        undecided because its numeric value was flagged untrusted).
        Expression objects are ``{"srepr", "latex", "text", "float"}`` (:func:`~symbolic_ti.export.values.exact_value`,
        docs/json_schema.md); errors and the tolerance are floats.
    """
    return {
        "meta": meta_block(FORMAT_NAME, FORMAT_VERSION),
        "label": report.label,
        "dps": report.dps,
        "tol": report.tol,
        "points": [_point_dict(p) for p in report.points],
        "point_errors": list(report.point_errors),
        "max_abs_error": report.max_abs_error,
        "max_rel_error": report.max_rel_error,
        "worst_trial": list(report.worst_trial),
        "worst_point": _point_dict(report.worst_point),
        "worst_exact": exact_value(report.worst_exact_value),
        "worst_numeric": report.worst_numeric,
        "n_comparisons": report.n_comparisons,
        "ridgeless": report.ridgeless,
        "ok": report.ok,
        "status": report.status,
        "undecided": [[list(t), k] for t, k in report.undecided],
    }
