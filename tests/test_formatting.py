"""symbolic_ti.formatting.rounded: a value that rounds to zero prints without its sign, everywhere.

The expected texts are written by hand (and, on Python 3.11+, also compared with CPython's own ``z`` format
option, PEP 682, an independent implementation of the same rule)."""

from __future__ import annotations

import ast
import math
import re
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from symbolic_ti.formatting import rounded

CASES = [
    (-0.004, ".2f", "0.00"),
    (-0.0049999, ".2f", "0.00"),
    (-0.005, ".2f", "-0.01"),  # the float -0.005 is -0.005000000000000000104...: it rounds away from zero
    (0.005, ".2f", "0.01"),
    (-0.015, ".2f", "-0.01"),  # -0.01499999999999999944...
    (0.0, ".2f", "0.00"),
    (-0.0, ".2f", "0.00"),
    (-0.0, ".0f", "0"),
    (-0.4, ".0f", "0"),
    (-0.6, ".0f", "-1"),
    (-0.04, ".1f", "0.0"),
    (-19.2684, ".3f", "-19.268"),
    (1.5, ".3f", "1.500"),
    (-0.004, "+.2f", "+0.00"),
    (0.004, "+.2f", "+0.00"),
    (-0.006, "+.2f", "-0.01"),
    (-0.004, ">8.2f", "    0.00"),
    (-0.006, ">8.2f", "   -0.01"),
    (-0.0004, ".1e", "-4.0e-04"),  # not a rounded zero in scientific notation
    (-0.0, ".1e", "0.0e+00"),
    (-0.0, ".3g", "0"),
    (-0.0, ".4g", "0"),
    (-1e-30, ".4g", "-1e-30"),  # significant digits: not a rounded zero
    (math.nan, ".2f", "nan"),
    (-math.nan, ".2f", "nan"),
    (math.inf, ".2f", "inf"),
    (-math.inf, ".2f", "-inf"),
    (-math.inf, "+.2f", "-inf"),
    (-3, ".1f", "-3.0"),
    (0, ".2f", "0.00"),
    (np.float64(-0.001), ".2f", "0.00"),
    (np.float32(-0.001), ".2f", "0.00"),
    (Decimal("-0.001"), ".2f", "0.00"),
    (Decimal("-0.006"), ".2f", "-0.01"),
]


@pytest.mark.parametrize("value, spec, expected", CASES)
def test_rounded_prints_a_rounded_zero_without_its_sign(value, spec, expected):
    assert rounded(value, spec) == expected


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the z format option is Python 3.11's")
@pytest.mark.parametrize("value, spec, expected", [c for c in CASES if isinstance(c[0], float)])
def test_rounded_agrees_with_pythons_z_option(value, spec, expected):
    assert format(value, "z" + spec if spec[0] not in "+>" else spec[0] + "z" + spec[1:]) == expected


def test_a_bad_spec_raises_as_format_does():
    with pytest.raises(ValueError):
        rounded(1.0, ".2d")


def _fixed_decimal_specs(path: Path) -> list[str]:
    """The f-string fields, ``format`` calls and ``%`` formats of ``path`` that print a number with fixed decimals
    or in the ``g`` / ``e`` presentations (each prints the sign of a negative zero)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        spec = None
        if isinstance(node, ast.FormattedValue) and isinstance(node.format_spec, ast.JoinedStr):
            spec = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.format_spec.values)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "format"
              and len(node.args) == 2 and isinstance(node.args[1], ast.Constant)):
            spec = str(node.args[1].value)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
            if isinstance(node.left.value, str) and re.search(r"%[-+ #0]*\d*(\.\d+f|(\.\d+)?[eEgG])",
                                                              node.left.value):
                out.append(f"{path}:{node.lineno}: {node.left.value!r}")
        if spec is not None and _PRINTS_A_SIGNED_ZERO.search(spec):
            value = node.value if isinstance(node, ast.FormattedValue) else node.args[0]
            if (path.name, ast.unparse(value)) not in _UNSIGNED:
                out.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return out


#: Fixed decimals (``.2f``, ``.1%``), and the ``g`` and ``e`` presentations (``g``, ``.3g``, ``>12.6e``), which print
#: ``-0`` / ``-0.0e+00`` for a negative zero.
_PRINTS_A_SIGNED_ZERO = re.compile(r"(\.(\d+|\{\w*\})[fF%]|[eEgG])$")
#: Fields that print a value that has no sign: digits.py abbreviates runs of digits (the unsigned token of a long
#: number) and cannot import formatting.py (a layer above it, tests/test_architecture.py).
_UNSIGNED = {("digits.py", "Decimal(token)")}


def test_every_fixed_decimal_number_is_printed_through_rounded():
    """No module of the package formats a number with fixed decimals (``:.2f``, ``%.3f``) or in the ``g`` / ``e``
    presentations (``:.6g``, ``:g``, ``:.1e``) itself: they all go through :func:`rounded`, so that no printed value
    shows the sign of a rounded zero (or of an exact ``-0.0``)."""
    package = Path(__file__).resolve().parents[1] / "symbolic_ti"
    found = [hit for path in sorted(package.rglob("*.py")) if path.name != "formatting.py"
             for hit in _fixed_decimal_specs(path)]
    assert not found, "\n".join(found)


def test_the_check_sees_fixed_decimals(tmp_path):
    """The check above can fail: it finds each way of writing a fixed-decimal, ``g`` or ``e`` format, and only those."""
    src = tmp_path / "m.py"
    src.write_text('a = f"{x:.2f}"\nb = f"{x:>{w}.3f}"\nc = format(x, "+.1f")\nd = "%.2f" % x\ne = f"{x:.3g}"\n'
                   'f = f"{x:g}"\ng = format(x, ".1e")\nh = "%.3g" % x\ni = f"{x:<12.6g}"\nj = f"{x:.{d}g}"\n'
                   'k = f"{x:d}"\nl = f"{x!r}"\nm = f"{x:>10}"\nn = "%d %s" % (x, y)\no = f"{x:.2%}"\n')
    lines = sorted(int(h.split(": ")[0].rsplit(":", 1)[1]) for h in _fixed_decimal_specs(src))
    assert lines == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15]


@pytest.mark.parametrize("value, spec, expected", [
    (-0.0, "g", "0"), (-0.0, ".6g", "0"), (-0.0, "<6.3g", "0     "), (-0.0, ".2e", "0.00e+00"),
    (-0.0, "+g", "+0"), (-1e-300, ".3g", "-1e-300"), (-2.5, ".3g", "-2.5"), (-0.0, ".0e", "0e+00"),
    (np.float64(-0.0), ".4g", "0"),
])
def test_rounded_prints_a_negative_zero_in_g_and_e_without_its_sign(value, spec, expected):
    assert rounded(value, spec) == expected
