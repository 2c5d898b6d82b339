"""The contract every registered representation family keeps, in the spirit of scikit-learn's ``check_estimator``.

Each test is parametrized over ``FAMILIES`` as collected, so a family registered in ``symbolic_ti/families`` is
tested the day it is registered; a family with a data argument (``data_parameters``) fails until this module has
example data for it (``DATA``). The parameter values come from each family's own table
(``strategies.parameter_values``). The checks, for an n = 4 task with the exception 4>2:

* the exact kernel (:meth:`Family.kernel`, sympy) equals the independent numeric one (:meth:`Family.kernel_numeric`)
  at random points of the domain;
* a family that claims ``swap_invariant`` passes the exact Gram check (:func:`symbolic_ti.gram.is_swap_invariant`)
  and its numeric kernel is swap-invariant too;
* the Gram matrix over every ordered trial is symmetric and positive semidefinite (numpy's ``eigvalsh`` of the
  exact values rounded to float64: smallest eigenvalue >= -1e-10 times the largest magnitude);
* every value outside a parameter's domain (past a finite end, at an open end, a non-integer for an integer
  parameter, NaN) is refused with a one-line :class:`~symbolic_ti.errors.ParameterError` naming the parameter;
* a small ``derive`` writes JSON that :func:`~symbolic_ti.export.reading.read_report` reads back to the same
  predictions and LaTeX that :func:`~symbolic_ti.export.latex.parse_exported` reads back to the same values.

``test_a_registered_toy_family_is_checked`` registers a toy family (and unregisters it), runs the same checks on
it, and shows that each of them fails for a toy that breaks its part of the contract.
"""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic_ti import derive
from symbolic_ti.errors import FamilyError, ParameterError
from symbolic_ti.export.latex import expr_latex, parse_exported
from symbolic_ti.export.reading import read_report
from symbolic_ti.families import FAMILIES, Exchangeable, Family, Parameter
from symbolic_ti.gram import is_swap_invariant, swap
from symbolic_ti.task import Task
from strategies import examples, parameter_values

R = sp.Rational
TASK = Task(4, ["4>2"])
TRIALS = tuple(TASK.trials)

#: Example data of every data argument (``Family.data_parameters``) of a registered family, for n items: an exact
#: similarity S_ik = (1/2)^|i-k| (positive definite: a Kac-Murdock-Szego matrix), 0/1 item vectors with two ones each
#: (rational cosines 1/2 between neighbours, 0 otherwise), the exchangeable Gram matrix at alpha = 1/3 over the n(n-1) ordered trials, and the erf activation.
DATA = {
    "matrix": lambda n: [[R(1, 2) ** abs(i - k) for k in range(n)] for i in range(n)],
    "vectors": lambda n: [[int(i <= k <= i + 1) for k in range(n + 1)] for i in range(n)],
    "gram": lambda n: [[Exchangeable(alpha=R(1, 3)).kernel(a, b) for b in Task(n).trials] for a in Task(n).trials],
    "activation": lambda n: "erf",
}


def _data(cls: type[Family], n: int = 4) -> dict:
    missing = [key for key, _ in cls.data_parameters if key not in DATA]
    if missing:
        pytest.fail(f"family {cls.name!r}: add example data for {', '.join(missing)} to DATA of "
                    f"tests/test_family_contract.py")
    return {key: DATA[key](n) for key, _ in cls.data_parameters}


def _exact(v: Fraction | int) -> sp.Rational:
    return R(v.numerator, v.denominator) if isinstance(v, Fraction) else sp.Integer(v)


@st.composite
def instances(draw, cls: type[Family]) -> Family:
    """An instance at a random point of the domain: some parameters of the table given (others at their defaults),
    then every parameter still free bound; a draw that a joint constraint refuses is rejected."""
    data = _data(cls)
    table = cls(**data).parameters
    given_names = draw(st.sets(st.sampled_from([p.name for p in table]))) if table else set()
    values = {p.name: _exact(draw(parameter_values(p, span=2))) for p in table if p.name in given_names}
    try:
        fam = cls(**data, **values)
        return fam.with_values(**{p.name: _exact(draw(parameter_values(p, span=2))) for p in fam.free_parameters})
    except ParameterError:  # two parametrizations at once, or a joint constraint (beta <= 1 - alpha, ...)
        from hypothesis import reject
        reject()


def interior(cls: type[Family], n: int = 4) -> Family:
    """The default instance (data for ``n`` items) with every free parameter at a fixed interior point of its
    domain (an integer one at its lower end + 1)."""
    fam = cls(**_data(cls, n))
    point = {}
    for p in fam.free_parameters:
        lo = p.lower if p.lower.is_finite else (p.upper - 2 if p.upper.is_finite else sp.Integer(0))
        hi = p.upper if p.upper.is_finite else lo + 2
        point[p.name] = lo + 1 if p.integer else lo + R(2, 5) * (hi - lo)
    return fam.with_values(**point)


# --------------------------------------------------------------------------------- the checks
def _exact_gram(fam: Family) -> dict:
    """Every exact kernel value over the ordered trials, each distinct expression evaluated once to 30 digits (an
    exchangeable kernel has three: the deep activation kernels take most of a second each)."""
    exact = {(a, b): fam.kernel(a, b) for a in TRIALS for b in TRIALS}
    digits = {e: sp.N(e, 30) for e in set(exact.values())}
    return {t: (e, digits[e]) for t, e in exact.items()}


def _float(e: sp.Expr) -> float:
    return float(sp.N(e, 30))


def check_kernels_agree(fam: Family, gram: dict | None = None) -> None:
    """The exact kernel equals the numeric one (mpmath at 30 digits) on every pair of trials, to 1e-20."""
    gram = _exact_gram(fam) if gram is None else gram
    with mpmath.workdps(30):
        point = fam.numeric_point({}, lambda v: mpmath.mpf(str(sp.N(v, 40))))
        for (a, b), (_, exact) in gram.items():
            num = fam.kernel_numeric(a, b, point)
            assert abs(mpmath.mpf(str(exact)) - num) <= mpmath.mpf(10) ** -20 * (1 + abs(num)), \
                f"{fam.describe()}: K{a, b} = {exact} exactly, {num} numerically"


def check_swap_claim(fam: Family) -> None:
    """A family claiming ``swap_invariant`` passes the exact Gram check; its numeric kernel is swap-invariant."""
    if not fam.swap_invariant:
        return
    assert is_swap_invariant(TASK, fam), f"{fam.describe()} claims swap_invariant; the Gram check refutes it"
    point = fam.numeric_point({}, _float)
    for a in TRIALS:
        for b in TRIALS:
            x, y = fam.kernel_numeric(swap(a), swap(b), point), fam.kernel_numeric(a, b, point)
            assert abs(float(x) - float(y)) <= 1e-12 * (1 + abs(float(y))), f"{fam.describe()}: numeric swap {a, b}"


def check_psd(fam: Family, gram: dict | None = None) -> None:
    """The Gram matrix over every ordered trial is symmetric positive semidefinite (numpy, float64)."""
    gram = _exact_gram(fam) if gram is None else gram
    g = np.array([[float(gram[a, b][1]) for b in TRIALS] for a in TRIALS])
    assert np.array_equal(g, g.T), f"{fam.describe()}: the Gram matrix is not symmetric"
    smallest = np.linalg.eigvalsh(g)[0]
    assert smallest >= -1e-10 * max(1.0, float(np.abs(g).max())), \
        f"{fam.describe()}: the Gram matrix has the eigenvalue {smallest} < 0"


def outside(p: Parameter) -> list:
    """Values outside ``p``'s domain: past each finite end, at an open finite end, a non-integer, NaN."""
    bad: list = [float("nan")]
    if p.lower.is_finite:
        bad.append(p.lower - 1)
        if p.lower_open:
            bad.append(p.lower)
    if p.upper.is_finite:
        bad.append(p.upper + 1)
        if p.upper_open:
            bad.append(p.upper)
    if p.integer:
        bad.append((p.lower if p.lower.is_finite else sp.Integer(0)) + R(1, 2))
    return bad


def check_domain_refusals(cls: type[Family]) -> None:
    """Every value outside a parameter's domain is refused with one line that names the parameter."""
    data = _data(cls)
    for p in cls(**data).parameters:
        for value in outside(p):
            with pytest.raises(ParameterError) as err:
                cls(**data, **{p.name: value})
            text = str(err.value)
            assert p.name in text and "\n" not in text, f"{cls.name}: {p.name} = {value}: {text!r}"


#: The task of the round trips: n = 3 with the exception 3>1 (writing and parsing irrational forms take a second or
#: more each); read back in LaTeX: the exception and the test trial.
SMALL = Task(3, ["3>1"])


def check_round_trips(fam: Family) -> None:
    """A small derive (ridge 1) reads back from its JSON and from its LaTeX to the same predictions."""
    r = derive(SMALL, family=fam, ridge=1)
    back = read_report(json.loads(r.to_json()))
    assert back.predictions == dict(r.predictions), f"{fam.describe()}: JSON round trip"
    for t in ((3, 1), (1, 3)):
        value, read = r.f(*t), parse_exported(expr_latex(r.f(*t)))
        assert sp.N(read - value, 30) == 0 or abs(sp.N(read - value, 40)) < sp.Float(10) ** -30, \
            f"{fam.describe()}: LaTeX of f{t} reads back as {read}, not {value}"


def check_family(name: str) -> None:
    """Every check of this module on the registered family ``name`` (one interior point for the kernel checks)."""
    cls = FAMILIES[name]
    fam = interior(cls)
    gram = _exact_gram(fam)
    check_kernels_agree(fam, gram)
    check_swap_claim(fam)
    check_psd(fam, gram)
    check_domain_refusals(cls)
    check_round_trips(interior(cls, SMALL.n))


# --------------------------------------------------------------------------------- over every family
REGISTERED = tuple(FAMILIES)


@pytest.mark.parametrize("name", REGISTERED)
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_kernel_swap_claim_and_psd_at_random_points(name, data):
    fam = data.draw(instances(FAMILIES[name]))
    gram = _exact_gram(fam)
    check_kernels_agree(fam, gram)
    check_swap_claim(fam)
    check_psd(fam, gram)


@pytest.mark.parametrize("name", REGISTERED)
def test_values_outside_the_domain_are_refused(name):
    cls = FAMILIES[name]
    if not cls(**_data(cls)).parameters:
        pytest.skip(f"{name} has no scalar parameters")
    check_domain_refusals(cls)


@pytest.mark.parametrize("name", REGISTERED)
def test_json_and_latex_round_trips(name):
    check_round_trips(interior(FAMILIES[name], SMALL.n))


def test_the_contract_covers_the_registry():
    """Nothing registered after collection is left out, and every registered family has its example data."""
    assert tuple(FAMILIES) == REGISTERED
    for cls in FAMILIES.values():
        _data(cls)


# --------------------------------------------------------------------------------- a new family
_C = Parameter("c", sp.Symbol("c", nonnegative=True), domain=sp.Interval.Ropen(0, 2),
               description="weight of the shared positions (toy)")


class Toy(Family):
    """Toy family ``K = 1 + c ([i = k] + [j = l])``: positive semidefinite and swap-invariant for c >= 0."""

    name = "toy-contract"
    parameters = (_C,)

    def _kernel_expr(self, a, b, p):
        return 1 + p["c"] * (int(a[0] == b[0]) + int(a[1] == b[1]))

    def kernel_numeric(self, a, b, p):
        shared = (a[0] == b[0]) + (a[1] == b[1])
        return 1 + shared * p["c"]


class ToyWrongNumeric(Toy):
    name = "toy-wrong-numeric"

    def kernel_numeric(self, a, b, p):
        return 1 + (a[0] == b[0]) * p["c"]


class ToyFalseSwapClaim(Toy):
    name = "toy-false-swap"

    def _kernel_expr(self, a, b, p):
        return 1 + p["c"] * int(a[0] == b[0]) + int(a[0] == b[0] and a[1] == b[1])

    def kernel_numeric(self, a, b, p):
        return 1 + (a[0] == b[0]) * p["c"] + (a == b)


class ToyNotPsd(Toy):
    name = "toy-not-psd"

    def _kernel_expr(self, a, b, p):
        return 1 + p["c"] - 2 * int(a == b)

    def kernel_numeric(self, a, b, p):
        return 1 + p["c"] - 2 * (a == b)


@pytest.fixture
def registered_toy():
    """``Toy`` registered in FAMILIES for the test, unregistered afterwards."""
    FAMILIES[Toy.name] = Toy
    try:
        yield Toy.name
    finally:
        del FAMILIES[Toy.name]


def test_a_registered_toy_family_is_checked(registered_toy):
    from symbolic_ti.families import get_family

    assert isinstance(get_family(registered_toy, c="1/2"), Toy)
    check_family(registered_toy)  # the whole contract passes for a family that keeps it
    fam = interior(Toy)
    assert fam.values == {"c": R(4, 5)}
    r = derive(TASK, family=Toy(c=R(4, 5)), ridge=1)
    # an independent solve: f = k_x^T (G + I)^(-1) y over the training trials (docs/conventions.md), in sympy
    train = [t for t, _ in TASK.training]
    g = sp.Matrix([[Toy(c=R(4, 5)).kernel(a, b) for b in train] for a in train])
    y = sp.Matrix([y for _, y in TASK.training])
    w = (g + sp.eye(len(train))).LUsolve(y)
    k = sp.Matrix([[Toy(c=R(4, 5)).kernel((1, 4), b) for b in train]])
    assert r.f(1, 4) == (k * w)[0]
    for bad in outside(_C):
        with pytest.raises(ParameterError, match="c"):
            Toy(c=bad)


@pytest.mark.parametrize(("broken", "check", "message"), [
    (ToyWrongNumeric, check_kernels_agree, "exactly"),
    (ToyFalseSwapClaim, check_swap_claim, "swap_invariant"),
    (ToyNotPsd, check_psd, "eigenvalue"),
])
def test_each_check_fails_for_a_family_that_breaks_it(broken, check, message):
    with pytest.raises(AssertionError, match=message):
        check(broken(c=R(1, 2)))


# --------------------------------------------------------------------------------- the parameter table
def test_positional_parameter_rows_still_build_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="domain=sp.Interval"):
        old = Parameter("c", _C.symbol, sp.Integer(0), sp.Integer(2), False, True, _C.description)
    assert old == _C and hash(old) == hash(_C)
    assert (old.lower, old.upper, old.lower_open, old.upper_open, old.integer) == (0, 2, False, True, False)
    with pytest.warns(DeprecationWarning):
        depth = Parameter("d", sp.Symbol("d"), sp.Integer(1), sp.oo, False, True, "layers", integer=True)
    assert depth.domain == sp.Interval(1, sp.oo) and depth.integer and depth.domain_text() == "[1, oo)"
    with pytest.raises(FamilyError, match="domain must be a sympy Interval"):
        Parameter("c", _C.symbol, domain=(0, 1), description="x")
    with pytest.raises(FamilyError, match="domain must be a sympy Interval"):
        Parameter("c", _C.symbol, domain=sp.Interval(1, 1), description="x")  # a point is a FiniteSet


@pytest.mark.parametrize(("domain", "integer", "inside", "outside_values"), [
    (sp.Interval(0, 1), False, [0, R(1, 2), 1], [R(-1, 10), R(11, 10)]),
    (sp.Interval.Ropen(0, 1), False, [0, R(9, 10)], [1]),
    (sp.Interval.open(0, sp.oo), False, [R(1, 100), 5], [0, -1]),
    (sp.Interval(1, sp.oo), True, [1, 2, 7], [0, R(3, 2)]),
])
def test_a_parameter_row_decides_its_domain(domain, integer, inside, outside_values):
    p = Parameter("x", sp.Symbol("x"), domain=domain, description="test", integer=integer)
    for v in inside:
        assert p.check(sp.sympify(v)) == v
    for v in outside_values:
        with pytest.raises(ParameterError, match="x"):
            p.check(sp.sympify(v))


@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_drawn_values_lie_in_the_domain(data):
    """``strategies.parameter_values`` draws only values that the table's own check accepts."""
    for cls in (c for c in FAMILIES.values() if not c.data_parameters):
        for p in cls.parameters:
            v = _exact(data.draw(parameter_values(p)))
            assert p.check(v) == v
