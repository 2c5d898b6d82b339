"""Numbers from numpy, mpmath and decimal (issue 16, part 4): read by the rule for Python floats, or rejected clearly.

The rule (symbolic_ti.arguments.exact_number): a binary float is read as the shortest decimal that reads back as the
same number at its own width or precision. The checks are independent of the implementation: the result is a
decimal (denominator 2^a 5^b), it converts back to the same scalar, and no decimal with one significant digit
fewer does (both neighbours at that length are tried).
"""

import decimal
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic_ti import Exchangeable, ParameterError, Task, derive, numeric_predictions
from symbolic_ti.arguments import exact_number, parse_ridge
from strategies import examples

FLOATS = [np.float16, np.float32, np.float64, np.longdouble]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _digits(q: Fraction) -> int:
    """Significant decimal digits of a decimal fraction."""
    num, den = abs(q.numerator), q.denominator
    while den % 10 == 0 and num % 10 == 0:  # pragma: no cover - Fractions are reduced
        num, den = num // 10, den // 10
    k = 0
    while (num * 10 ** k) % den:
        k += 1
    digits = str(num * 10 ** k // den).rstrip("0")
    return len(digits)


def _is_decimal(q: Fraction) -> bool:
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def _round_sig(q: Fraction, k: int, up: bool) -> Fraction:
    """``q`` rounded to ``k`` significant decimal digits, towards -inf or +inf."""
    e = math.floor(math.log10(abs(float(q)))) if q else 0
    scale = Fraction(10) ** (e - k + 1)
    n = q / scale
    n = math.ceil(n) if up else math.floor(n)
    return n * scale


def _rounds_to(q: Fraction, x) -> bool:
    """Whether the decimal ``q`` reads back as the scalar ``x`` at its width: nearer to ``x`` than to either
    neighbour, or halfway and ``x``'s last significand bit is 0 (IEEE round-half-to-even: float16 4150 reads as
    4152, not 4148). Exact rational arithmetic."""
    X = Fraction(*x.as_integer_ratio())
    lo = np.nextafter(x, type(x)(-np.inf))
    hi = np.nextafter(x, type(x)(np.inf))
    d = abs(q - X)

    def value(nb, other):  # past the largest finite value, IEEE rounding treats the next step as if it existed
        return Fraction(*nb.as_integer_ratio()) if np.isfinite(nb) else 2 * X - Fraction(*other.as_integer_ratio())
    below, above = value(lo, hi), value(hi, lo)
    ulp = max(X - below, above - X)  # the spacing in x's binade: x = m * ulp with m its integer significand
    even = (X / ulp).denominator == 1 and (X / ulp).numerator % 2 == 0

    def wins(other: Fraction) -> bool:
        return d < abs(q - other) or (d == abs(q - other) and even)
    return wins(below) and wins(above)


def _check_shortest(x, q: Fraction) -> None:
    assert _is_decimal(q)
    assert _rounds_to(q, x), (x, q)
    k = _digits(q)
    if k > 1:
        for up in (False, True):
            shorter = _round_sig(q, k - 1, up)
            assert not _rounds_to(shorter, x), (x, q, shorter)


@settings(max_examples=examples(60), deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False, width=16), which=st.sampled_from(FLOATS))
def test_numpy_floats_read_as_shortest_round_tripping_decimal(x, which):
    info = np.finfo(which)
    v = which(x)
    if not np.isfinite(v) or abs(float(v)) > float(info.max):
        return
    q = exact_number(v, "x")
    assert q.is_Rational
    frac = Fraction(int(q.p), int(q.q))
    _check_shortest(v, frac)
    assert exact_number(np.array(v), "x") == q  # 0-d arrays by the same rule


@settings(max_examples=examples(60), deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_float32_by_its_own_width(x):
    v = np.float32(x)
    frac = Fraction(str(exact_number(v, "x")))
    _check_shortest(v, frac)


@pytest.mark.parametrize("dtype,value,expected", [
    (np.float32, "0.1", sp.Rational(1, 10)), (np.float16, "0.1", sp.Rational(1, 10)),
    (np.float64, "0.1", sp.Rational(1, 10)), (np.longdouble, "0.1", sp.Rational(1, 10)),
    (np.float32, "1e-30", sp.Rational(1, 10**30)), (np.float64, "-2.5e-7", sp.Rational(-25, 10**8)),
    (np.float16, "0.333", sp.Rational(333, 1000)), (np.float16, "65504", sp.Integer(65500)),  # 65500 reads back
])
def test_numpy_float_examples(dtype, value, expected):
    assert exact_number(dtype(value), "x") == expected
    assert exact_number(np.array(dtype(value)), "x") == expected


@pytest.mark.parametrize("dtype", INTS)
def test_numpy_integers_of_every_width(dtype):
    info = np.iinfo(dtype)
    for v in (info.min, info.max, 0, 1, info.max // 3):
        assert exact_number(dtype(v), "x") == sp.Integer(int(v))
        assert exact_number(np.array(v, dtype=dtype), "x") == sp.Integer(int(v))


@pytest.mark.parametrize("value", [np.float32("nan"), np.float16("inf"), np.float64("-inf"), np.longdouble("nan"),
                                   np.array(np.float32("nan")), np.bool_(True), np.complex128(1), np.array([1.0]),
                                   np.array([[0.5]]), mpmath.mpf("inf"), mpmath.mpc(1, 0), decimal.Decimal("NaN"),
                                   decimal.Decimal("Infinity")])
def test_non_finite_or_non_real_values_are_rejected(value):
    with pytest.raises(ParameterError, match="x must be"):
        exact_number(value, "x")


@pytest.mark.parametrize("made_at,read_at", [(15, 15), (15, 50), (50, 15), (50, 50), (30, 5), (5, 5), (100, 30)])
@pytest.mark.parametrize("text", ["0.1", "0.75", "-2.5e-7", "123.456", "1e-30"])
def test_mpf_read_at_its_own_precision(made_at, read_at, text):
    """An mpf made from a decimal is that decimal whatever the working precision when it is read (an mpf does not
    record its precision; one made below 15 digits is read at 15 digits or the working precision, if lower)."""
    if made_at < len(text.replace("-", "").replace(".", "").split("e")[0]):
        pytest.skip("the decimal does not fit the precision it is made at")
    with mpmath.workdps(made_at):
        v = mpmath.mpf(text)
    with mpmath.workdps(read_at):
        assert exact_number(v, "x") == sp.Rational(Fraction(text))


def test_mpf_from_a_float_and_from_arithmetic():
    with mpmath.workdps(15):
        a = mpmath.mpf(0.1)  # the float 0.1, read as the float would be
        third = mpmath.mpf(1) / 3
    assert exact_number(a, "x") == sp.Rational(1, 10)
    assert exact_number(third, "x") == exact_number(1 / 3, "x")  # the same binary number as the float 1/3
    with mpmath.workdps(50):
        third50 = mpmath.mpf(1) / 3
    q = exact_number(third50, "x")
    assert abs(q - sp.Rational(1, 3)) < sp.Rational(1, 10**49)
    assert exact_number(mpmath.mpf(0), "x") == 0


def test_decimal_is_exact():
    assert exact_number(decimal.Decimal("0.1"), "x") == sp.Rational(1, 10)
    assert exact_number(decimal.Decimal("-3.25E-40"), "x") == sp.Rational(-325, 10**42)


def test_entry_points_accept_numpy_scalars():
    """Issue 16: derive(..., parameters={"rho": np.float64(0.5)}, ridge=np.float64(0.25)) raised a bare TypeError."""
    r = derive(9, ["6>4"], family="geometric", parameters={"rho": np.float64(0.5)}, ridge=np.float64(0.25))
    assert r.family.values["rho"] == sp.Rational(1, 2) and r.ridge == sp.Rational(1, 4)
    r2 = derive(9, ["6>4"], family="geometric", parameters={"rho": np.float32(0.5), "alpha": np.array(0.1)},
                ridge=mpmath.mpf("0.25"))
    assert r2.family.values["alpha"] == sp.Rational(1, 10) and r2.ridge == sp.Rational(1, 4)
    assert parse_ridge(np.float16(0.25)) == sp.Rational(1, 4)
    assert parse_ridge(np.int64(0)) is None  # 0 is the ridgeless limit
    with pytest.raises(ParameterError):
        parse_ridge(np.float64("nan"))


def test_numeric_point_values_follow_the_same_rule():
    """numeric_predictions reads np.float32(0.1) as 1/10, like every entry point (it used to take the float32's
    binary value)."""
    task = Task(5)
    a = numeric_predictions(task, Exchangeable(), {"alpha": np.float32(0.1), "lambda": np.float16(0.5)}, precision=30)
    b = numeric_predictions(task, Exchangeable(), {"alpha": "1/10", "lambda": "1/2"}, precision=30)
    assert a == b


# ---------------------------------------------------------------- exact constants from text (issue 16, CLI --set)
TEXT_VALUES = [  # text, the value built independently with sympy
    ("sqrt(2)/3", sp.sqrt(2) / 3), ("2**(1/3)", sp.Integer(2) ** sp.Rational(1, 3)),
    ("2^(1/3)", sp.Integer(2) ** sp.Rational(1, 3)), ("pi/4", sp.pi / 4), ("E", sp.E), ("exp(1)", sp.E),
    ("0.1*sqrt(2)", sp.sqrt(2) / 10), ("-sqrt(3)/5", -sp.sqrt(3) / 5), ("root(5, 3)", sp.Integer(5) ** sp.Rational(1, 3)),
    ("sqrt(2 + sqrt(3))/4", sp.sqrt(2 + sp.sqrt(3)) / 4), ("cbrt(1/3)", sp.Rational(1, 3) ** sp.Rational(1, 3)),
    ("1e-3 + 0.25", sp.Rational(251, 1000)), ("(1 - sqrt(5))**2", (1 - sp.sqrt(5)) ** 2),
]


@pytest.mark.parametrize("text, want", TEXT_VALUES)
def test_exact_text_values(text: str, want: sp.Expr) -> None:
    got = exact_number(text, "alpha")
    assert sp.simplify(got - want) == 0 and not got.has(sp.Float)


@pytest.mark.parametrize("text", ["x/2", "alpha", "sqrt(-1)", "1/0", "__import__('os')", "(1).__class__",
                                  "sqrt(2", "2**pi", "sin(1)", "sqrt(x=2)", "[1]", "1 if 1 else 2",
                                  "lambda: 1", "oo", "nan"])
def test_exact_text_refused_with_one_line(text: str) -> None:
    with pytest.raises(ParameterError) as info:
        exact_number(text, "alpha")
    msg = str(info.value)
    assert msg.startswith("alpha must be an exact number") and "allowed:" in msg and "\n" not in msg


@pytest.mark.parametrize("text, exponent", [("9**9**9", "387420489"), ("2**20000", "20000"),
                                             ("10**10**10", "10000000000"), ("2**(1/20001)", "1/20001")])
def test_exact_but_too_large_is_said_to_be_too_large(text: str, exponent: str) -> None:
    """``10**10**10`` is an exact number: the message says it is too large (its exponent), not that it is not exact."""
    with pytest.raises(ParameterError) as info:
        exact_number(text, "alpha")
    msg = str(info.value)
    assert msg.startswith("alpha is too large to build exactly") and f"the exponent {exponent};" in msg
    assert "must be an exact number" not in msg and "\n" not in msg


def test_cli_set_algebraic_value_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    """``--set alpha=sqrt(2)/3`` reaches the algebraic path: the crossing of (2, 5) at rho = 0.138309, which
    tests/test_algebraic_values.py::test_critical_rho_at_sqrt_alpha_small_n checks against an mpmath solve."""
    from symbolic_ti.cli import main

    code = main(["critical", "-n", "5", "-e", "5>3", "--family", "geometric", "--parameter", "rho", "--set",
                 "alpha=sqrt(2)/3", "--ridgeless", "--trial", "2,5", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert "alpha=sqrt(2)/3" in out and "rho = 0.138309" in out
    assert main(["derive", "-n", "4", "--family", "geometric", "--set", "alpha=x/3", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "alpha must be an exact number" in err and "Traceback" not in err


def test_long_exact_numbers_are_read_and_too_large_ones_refused():
    """A 5001-digit integer is exact and read as such (Python's int() stops at 4300 digits); 1e999999 (a million
    digits, an exact solve of minutes) and a text of more than 100,000 characters are refused as too large."""
    import sympy as sp

    from symbolic_ti.arguments import exact_number
    from symbolic_ti.errors import ParameterError

    assert exact_number("9" * 5001, "ridge") == sp.Integer(10**5001 - 1)
    assert exact_number("1e99999", "ridge") == sp.Integer(10) ** 99999
    with pytest.raises(ParameterError, match="ridge is too large to use exactly.*at most 100,000"):
        exact_number("1e999999", "ridge")
    with pytest.raises(ParameterError, match="ridge is too long to read"):
        exact_number("9" * 100_001, "ridge")


#: Texts whose exact value has more digits than an exact number may have: each refused from its text, before it is
#: built (review findings: 1e-999999 was called "too large", and 1e9999999999 ran without bound building 10**10
#: digits), with what is wrong: too large, too small, or too many digits.
_BEYOND_THE_DIGITS = [
    ("1e999999", "alpha is too large to use exactly: '1e999999' is about 10^999,999"),
    ("1e-999999", "alpha is too small to use exactly: '1e-999999' is about 10^-999,999"),
    ("-1e-999999", "alpha is too small to use exactly: '-1e-999999' is about 10^-999,999"),
    ("1e9999999999", "alpha is too large to use exactly: '1e9999999999' is about 10^9,999,999,999"),
    ("1e-9999999999", "alpha is too small to use exactly: '1e-9999999999' is about 10^-9,999,999,999"),
    ("1e-99999999999999", "alpha is too small to use exactly: '1e-99999999999999' is less than 10^-(10^12)"),
    ("1/1e999999", "alpha is too small to use exactly: '1e999999' in '1/1e999999' is about 10^-999,999"),
    ("1e999999/3", "alpha is too large to use exactly: '1e999999' in '1e999999/3' is about 10^999,999"),
    ("sqrt(1e-999999)", "alpha is too small to use exactly: '1e-999999' in 'sqrt(1e-999999)'"),
    ("2*1e9999999999", "alpha is too large to use exactly: '1e9999999999' in '2*1e9999999999'"),
    ("1" * 50_001 + "e-50001", "alpha has too many digits to use exactly"),
]


@pytest.mark.parametrize("text, message", _BEYOND_THE_DIGITS, ids=[t[:20] for t, _ in _BEYOND_THE_DIGITS])
def test_numbers_beyond_the_digits_say_whether_they_are_too_large_or_too_small(text, message):
    from symbolic_ti.arguments import exact_number
    from symbolic_ti.errors import ParameterError

    with pytest.raises(ParameterError) as err:
        exact_number(text, "alpha")
    assert message in str(err.value) and "at most 100,000" in str(err.value) and len(str(err.value)) < 300


def test_numbers_just_inside_the_digits_are_read():
    import sympy as sp

    from symbolic_ti.arguments import exact_number

    assert exact_number("1e-99999", "alpha") == sp.Rational(1, 10**99999)
    assert exact_number("1e50000/1e-49999", "alpha") == sp.Integer(10) ** 99999
