"""The data families ``similarity`` (a user-given item-similarity matrix) and ``embedding`` (item vectors).

Agreement between independent paths: ``S = I`` against the exchangeable reference values of
../shared/CONVENTIONS.md (tests/reference_cases.py); a geometric matrix against the ``geometric`` family; exact
closed forms against float64 and mpmath solves (:mod:`symbolic_ti.numeric.predictions`, :func:`symbolic_ti.verify`)
on random rational similarity matrices; float embeddings against the exact similarity of the same directions.
Validation errors and the CLI with file input, including its error paths.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from reference_cases import REFERENCE_CASES
from symbolic_ti import Task, cli, solve
from symbolic_ti import symbols as S
from symbolic_ti.errors import FamilyError, ParameterError, SolveError, UndecidedCheckWarning
from symbolic_ti.families import FAMILIES, Embedding, Geometric, Similarity, get_family
from symbolic_ti.families.data.similarity import check_similarity_matrix
from symbolic_ti.numeric.predictions import numeric_predictions
from symbolic_ti import verify
from strategies import examples

Q = sp.Rational


def geometric_matrix(n, rho):
    return [[rho ** abs(i - k) for k in range(n)] for i in range(n)]


def stereographic(u):
    """A rational unit vector from a rational point u (inverse stereographic projection)."""
    s = sum(x * x for x in u)
    return [2 * x / (s + 1) for x in u] + [(s - 1) / (s + 1)]


def rational_cosines(vectors):
    """Exact cosine matrix of integer vectors whose squared norms are perfect squares."""
    norms = [sp.sqrt(sum(sp.Integer(x) ** 2 for x in v)) for v in vectors]
    return [[sum(sp.Integer(a) * b for a, b in zip(v, w, strict=True)) / (nv * nw)
             for w, nw in zip(vectors, norms, strict=True)]
            for v, nv in zip(vectors, norms, strict=True)]


# Integer vectors with integer norms (5, 13, 5, 17, 25): their cosines are rational.
PYTH = [[3, 4, 0, 0], [5, 0, 12, 0], [0, 3, 4, 0], [8, 0, 0, 15], [0, 0, 7, 24]]


# ----------------------------------------------------------------------------- registration, S = I
def test_registered_by_name():
    assert FAMILIES["similarity"] is Similarity and FAMILIES["embedding"] is Embedding
    fam = get_family("similarity", matrix=[[1, 0, 0], [0, 1, 0], [0, 0, 1]], alpha="0.1")
    assert fam.values["alpha"] == Q(1, 10)


EXCHANGEABLE_CASES = [c for c in REFERENCE_CASES if set(c[3]) == {"alpha"}]


@pytest.mark.parametrize("name, n, exceptions, params, ridge, expected", EXCHANGEABLE_CASES,
                         ids=[c[0] for c in EXCHANGEABLE_CASES])
def test_identity_matrix_gives_exchangeable_reference_values(name, n, exceptions, params, ridge, expected):
    fam = Similarity(matrix=sp.eye(n), **params)
    assert fam.identity_similarity() and fam.exchangeable
    r = solve(Task(n, exceptions), fam, ridge)
    assert r.method.startswith("laplacian")  # the exchangeable fast path, automatically
    for (i, j), v in expected.items():
        assert r.f(i, j) == Q(v.numerator, v.denominator), (name, i, j)


def test_identity_dense_path_agrees_with_fast_path():
    fam = Similarity(matrix=np.eye(6).tolist(), alpha=Q(1, 5))
    dense = solve(Task(6, ["5>2"]), fam, 1, method="halved")
    assert dense.method == "halved"
    assert dense.f(1, 6) == Q(35, 79) and dense.f(2, 5) == Q(-169, 474)


def test_one_hot_embedding_is_exchangeable_also_as_float_data():
    expected = dict(EXCHANGEABLE_CASES[1][5])  # n = 5, alpha = 1/2, ridge 1/2
    for fam in (Embedding(vectors=np.eye(5, 7), alpha="1/2"),
                Embedding(vectors=np.eye(5, 7), alpha="1/2", numeric=True)):
        assert fam.identity_similarity() and not fam.numeric_only
        r = solve(Task(5), fam, "1/2")
        assert r.method == "laplacian"
        assert all(r.f(i, j) == Q(v.numerator, v.denominator) for (i, j), v in expected.items())


# ----------------------------------------------------------------------------- geometric matrix
@pytest.mark.parametrize("ridge", [Q(1, 3), "ridgeless"])
def test_geometric_matrix_equals_geometric_family(ridge):
    task = Task(6, ["5>2"])
    rho, alpha = Q(2, 5), Q(1, 5)
    a = solve(task, Similarity(matrix=geometric_matrix(6, rho), alpha=alpha), ridge)
    b = solve(task, Geometric(alpha=alpha, rho=rho), ridge)
    assert all(a.f(*t) == b.f(*t) for t in task.trials)


def test_geometric_matrix_with_cross_position_terms():
    task = Task(5, ["4>2"])
    kw = dict(alpha=Q(1, 3), beta=Q(1, 4), delta=Q(1, 6))
    a = solve(task, Similarity(matrix=geometric_matrix(5, Q(1, 2)), **kw), Q(1, 2))
    b = solve(task, Geometric(rho=Q(1, 2), **kw), Q(1, 2))
    assert all(a.f(*t) == b.f(*t) for t in task.trials)


def test_symbolic_geometric_matrix_equals_geometric_family():
    m = sp.Matrix(4, 4, lambda i, k: S.rho ** abs(i - k))
    with pytest.warns(UndecidedCheckWarning, match="NOT decided exactly.*24 of 24"):
        fam = Similarity(matrix=m, alpha=Q(1, 10))
    assert [p.name for p in fam.free_parameters] == ["rho"]
    a = solve(Task(4), fam, Q(1, 10))
    b = solve(Task(4), Geometric(alpha=Q(1, 10)), Q(1, 10))
    assert a.free_symbols == (S.rho,)
    assert all(sp.cancel(a.f(*t) - b.f(*t)) == 0 for t in Task(4).trials)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every symbol bound: decided exactly, no warning
        assert verify(a, n_points=2).ok
        assert fam.with_values(rho=Q(1, 3)).similarity_matrix()[0, 3] == Q(1, 27)


# ----------------------------------------------------------------------------- exact vs numeric
@st.composite
def similarity_cases(draw):
    n = draw(st.integers(3, 6))
    d = draw(st.integers(1, 3))
    coords = st.fractions(min_value=-2, max_value=2, max_denominator=3)
    vectors = [stereographic([draw(coords) for _ in range(d)]) for _ in range(n)]
    matrix = [[sum(a * b for a, b in zip(v, w, strict=True)) for w in vectors] for v in vectors]
    exceptions = []
    if n >= 5 and draw(st.booleans()):
        loser = draw(st.integers(1, n - 2))
        exceptions = [f"{draw(st.integers(loser + 2, n))}>{loser}"]
    alpha = draw(st.fractions(min_value=0, max_value=1, max_denominator=7))
    ridge = draw(st.fractions(min_value=F(1, 7), max_value=2, max_denominator=7))
    return n, matrix, exceptions, alpha, ridge


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(similarity_cases())
def test_exact_agrees_with_float64_and_mpmath_on_random_matrices(case):
    n, matrix, exceptions, alpha, ridge = case
    fam = Similarity(matrix=matrix, alpha=alpha)
    task = Task(n, exceptions)
    exact = solve(task, fam, ridge)
    assert not exact.method.startswith("numeric")
    f64 = numeric_predictions(task, fam, ridge=ridge)
    for t in task.trials:
        e = exact.f(*t)
        assert e.is_Rational
        assert abs(float(e) - f64[t]) <= 1e-9 * max(1.0, abs(float(e)))
    assert verify(exact).ok  # mpmath, 50 digits, full unhalved Gram matrix


def test_symbolic_alpha_verified_against_mpmath():
    fam = Similarity(matrix=rational_cosines(PYTH[:4]))
    r = solve(Task(4), fam)
    assert set(r.free_symbols) == {S.alpha, S.ridge}
    assert verify(r, n_points=3).ok


def test_rational_embedding_equals_similarity_of_its_cosines():
    task = Task(5, ["4>2"])
    emb = Embedding(vectors=PYTH, alpha=Q(1, 4))
    assert emb.similarity_matrix() == sp.ImmutableMatrix(rational_cosines(PYTH))
    a = solve(task, emb, Q(1, 2))
    b = solve(task, Similarity(matrix=rational_cosines(PYTH), alpha=Q(1, 4)), Q(1, 2))
    assert all(a.f(*t) == b.f(*t) and a.f(*t).is_Rational for t in task.trials)


def test_algebraic_embedding_stays_exact_and_agrees_with_mpmath():
    vectors = [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1]]  # cosines 1/sqrt(2), 1/2: S over QQ(sqrt(2))
    fam = Embedding(vectors=vectors, alpha=Q(1, 10))
    assert fam.similarity_matrix()[0, 1] == sp.sqrt(2) / 2
    r = solve(Task(4), fam, Q(1, 10))  # about 1.3 s on one core; the number-field conversion in gram.py dominates
    assert r.f(1, 4).has(sp.sqrt(2))
    with mpmath.workdps(40):
        num = numeric_predictions(Task(4), fam, ridge=Q(1, 10), precision=40)
        for t in Task(4).trials:
            assert abs(mpmath.mpf(sp.N(r.f(*t), 50)) - num[t]) < mpmath.mpf(10) ** -30


# ----------------------------------------------------------------------------- float data
def test_float_embedding_uses_numeric_solvers_and_matches_exact_directions():
    rng = np.random.default_rng(1)
    vectors = np.array(PYTH, dtype=float) * rng.uniform(0.3, 3.0, size=(5, 1))  # same directions, float scales
    fam = Embedding(vectors=vectors, alpha=0.25)
    assert fam.numeric and fam.numeric_only
    task = Task(5, ["4>2"])
    r = solve(task, fam, 0.5)
    assert r.method.startswith("numeric/float64 (mpmath 30-digit check")
    exact = solve(task, Similarity(matrix=rational_cosines(PYTH), alpha=Q(1, 4)), Q(1, 2))
    for t in task.trials:
        v = r.f(*t)
        assert isinstance(v, sp.Float) and not v.is_Rational  # never pretends to be exact
        assert abs(float(v) - float(exact.f(*t))) < 1e-12
    ridgeless = solve(task, fam, "ridgeless")
    exact0 = solve(task, Similarity(matrix=rational_cosines(PYTH), alpha=Q(1, 4)), "ridgeless")
    assert all(abs(float(ridgeless.f(*t)) - float(exact0.f(*t))) < 1e-8 for t in task.trials)


def test_float_data_auto_rule_and_errors():
    assert not Embedding(vectors=[[0.5, 0.25], [1, 0.125]]).numeric  # short decimals: exact
    assert Embedding(vectors=[[0.1234567, 1], [1, 0]]).numeric  # 7 decimals: machine float
    assert Embedding(vectors=np.array([[0.1, 1], [1, 0]], dtype=np.float32)).numeric  # float32 0.1 is long
    assert not Embedding(vectors=[[0.1234567, 1], [1, 0]], numeric="false").numeric
    fam = Embedding(vectors=np.random.default_rng(0).normal(size=(4, 3)), alpha=0.1)
    with pytest.raises(SolveError, match="float data.*lambda"):
        solve(Task(4), fam)  # symbolic ridge
    with pytest.raises(SolveError, match="float data.*alpha"):
        solve(Task(4), fam.with_values(alpha="symbolic"), 1)
    with pytest.raises(SolveError, match="method 'halved' needs an exact kernel"):
        solve(Task(4), fam, 1, method="halved")
    with pytest.raises(FamilyError, match="float data"):
        fam.similarity_matrix()
    assert fam.similarity_matrix_float().shape == (4, 4)


def test_float_similarity_matrix_is_validated_with_tolerances():
    s = np.array([[1, 0.3], [0.3, 1]]) + 1e-13  # tiny asymmetry/diagonal noise within tolerance
    s[0, 1] += 1e-14
    fam = Similarity(matrix=s, numeric=True)
    assert np.array_equal(fam.similarity_matrix_float(), fam.similarity_matrix_float().T)
    with pytest.raises(ParameterError, match="matrix must be symmetric.*tolerance"):
        Similarity(matrix=[[1, 0.3], [0.3000001, 1]], numeric=True)
    with pytest.raises(ParameterError, match="matrix must be positive semidefinite; its smallest eigenvalue"):
        Similarity(matrix=[[1, 0.9000001, -0.9], [0.9000001, 1, 0.9], [-0.9, 0.9, 1]])


# ----------------------------------------------------------------------------- validation
BAD_MATRICES = [
    ([[1, 0.5], [0.4, 1]], "matrix must be symmetric; entry \\(1, 2\\) is 1/2 but entry \\(2, 1\\) is 2/5"),
    ([[1, 0], [0, 2]], "matrix must have a unit diagonal.*entry \\(2, 2\\) is 2"),
    ([[1, 0.9, -0.9], [0.9, 1, 0.9], [-0.9, 0.9, 1]],
     "matrix must be positive semidefinite; it is not: the principal minor on items 1, 2, 3 is -361/125 < 0"),
    ([[1, 1, 0], [1, 1, 1], [0, 1, 1]], "matrix must be positive semidefinite.*items 1, 2, 3"),
    ([[1, sp.sqrt(2)], [sp.sqrt(2), 1]], "matrix must be positive semidefinite.*Cholesky"),
    ([[1, 0, 0], [0, 1, 0]], "matrix must be square.*3 entries"),
    ([[1, 0], [0, 1, 0]], "matrix must be square.*row 2 has 3"),
    ([[1, "abc"], ["abc", 1]], "matrix: entry \\(1, 2\\) is not a number: 'abc'"),
    ([[1, None], [None, 1]], "matrix: entry \\(1, 2\\) must be a number, got NoneType"),
    ([[1, True], [True, 1]], "matrix: entry \\(1, 2\\) must be a number, got the boolean"),
    ([[1, float("nan")], [float("nan"), 1]], "matrix: entry \\(1, 2\\) must be a finite number"),
    ([], "matrix is empty"),
    (np.ones((2, 2, 2)), "matrix must be a 2-D array"),
    (np.array([["a", "b"], ["c", "d"]]), "matrix must hold numbers"),
    (42, "matrix must be a sympy Matrix, a 2-D numpy array, a list of rows, or a CSV, JSON or .npy file path"),
    ([[1, S.alpha], [S.alpha, 1]], "matrix: the symbol name\\(s\\) alpha are reserved"),
    ([[1, sp.Symbol("s")], [sp.Symbol("t"), 1]], "matrix must be symmetric"),
]


@pytest.mark.parametrize("matrix, message", BAD_MATRICES)
def test_bad_matrices_are_rejected_with_clear_errors(matrix, message):
    with pytest.raises(ParameterError, match=message):
        Similarity(matrix=matrix, alpha=0)


def test_missing_matrix_and_bad_flag():
    with pytest.raises(ParameterError, match="family 'similarity' needs matrix="):
        Similarity(alpha=0)
    with pytest.raises(ParameterError, match="numeric must be 'auto', true or false"):
        Similarity(matrix=sp.eye(3), numeric="maybe")
    with pytest.raises(ParameterError, match="numeric=True needs numbers.*s"):
        Similarity(matrix=[[1, sp.Symbol("s")], [sp.Symbol("s"), 1]], numeric=True)
    with pytest.raises(ParameterError, match="family 'similarity' has no parameter 'rho'"):
        Similarity(matrix=sp.eye(3), rho=0)


def test_wrong_size_for_the_task():
    fam = Similarity(matrix=sp.eye(5), alpha=0)
    with pytest.raises(ParameterError, match="matrix \\(--set matrix=FILE\\) is 5 x 5 but the task has n = 4"):
        solve(Task(4), fam, 1)
    with pytest.raises(ParameterError, match="is 5 x 5 but the task has n = 6"):
        numeric_predictions(Task(6), fam, ridge=1)
    with pytest.raises(ParameterError, match="vectors \\(--set vectors=FILE\\) has 5 rows but the task has n = 4"):
        solve(Task(4), Embedding(vectors=PYTH, alpha=0), 1)


def test_bad_vectors_are_rejected():
    with pytest.raises(ParameterError, match="vectors: row 2 is zero"):
        Embedding(vectors=[[1, 0], [0, 0], [0, 1]])
    with pytest.raises(ParameterError, match="vectors: row 2 is zero"):
        Embedding(vectors=[[1.5, 0.0], [0.0, 0.0], [0.0, 1.0]], numeric=True)
    with pytest.raises(ParameterError, match="vectors must have one row per item.*row 2 has 1"):
        Embedding(vectors=[[1, 0], [1], [0, 1]])
    with pytest.raises(ParameterError, match="vectors: entry \\(1, 1\\) must be a number, got the expression x"):
        Embedding(vectors=[[sp.Symbol("x"), 0], [0, 1]])


def test_symbolic_matrix_checked_exactly_once_bound():
    s = sp.Symbol("s", real=True)
    m = sp.Matrix([[1, s, 0], [s, 1, s], [0, s, 1]])  # PSD iff |s| <= 1/sqrt(2)
    with pytest.warns(UndecidedCheckWarning, match="holds at \\d+ of 24.*and fails at s = "):
        fam = Similarity(matrix=m, alpha=Q(1, 2))
    assert fam.parameter("s").domain_text() == "(-oo, oo)"
    with pytest.raises(ParameterError, match="matrix must be positive semidefinite at s = 4/5; it is not"):
        fam.with_values(s=Q(4, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ok = fam.with_values(s=Q(7, 10))
        assert ok.similarity_matrix()[0, 1] == Q(7, 10)
        r = solve(Task(3), ok, 1)
    assert r.f(1, 3).is_Rational
    assert check_similarity_matrix([[1, "0.5"], ["1/2", 1]])[0, 1] == Q(1, 2)


# ----------------------------------------------------------------------------- data as an argument
def test_equality_hash_with_values_and_describe():
    m = geometric_matrix(4, Q(1, 2))
    a = Similarity(matrix=m, alpha="0.1")
    b = Similarity(matrix=sp.Matrix(m), alpha=Q(1, 10))
    c = Similarity(matrix=geometric_matrix(4, Q(1, 3)), alpha=Q(1, 10))
    assert a == b and hash(a) == hash(b) and a != c
    d = a.with_values(alpha=Q(1, 5))
    assert d.values["alpha"] == Q(1, 5) and d.similarity_matrix() == a.similarity_matrix()
    assert d.with_values(alpha=Q(1, 10)) == a
    assert a.describe() == "similarity(alpha=1/10, beta=0, delta=0, matrix=4x4 exact (given))"
    e = Embedding(vectors=PYTH, alpha=0)
    assert "vectors=5x4 exact (given)" in e.describe()
    assert e.with_values(alpha=Q(1, 2)).similarity_matrix() == e.similarity_matrix()
    with pytest.raises(ParameterError, match="numeric cannot be changed"):
        e.with_values(numeric=True)
    r = solve(Task(4), a)  # Result.subs keeps the matrix
    assert r.subs({"alpha": Q(1, 10), "lambda": 1}).f(1, 4) == solve(Task(4), a, 1).f(1, 4)


def test_file_formats(tmp_path):
    m = geometric_matrix(4, Q(1, 2))
    expected = Similarity(matrix=m, alpha=0)
    csv_header = tmp_path / "s.csv"
    csv_header.write_text("# item similarity\nA,B,C,D\n" + "\n".join(", ".join(str(v) for v in row) for row in m))
    spaces = tmp_path / "s.txt"
    spaces.write_text("\n".join(" ".join(str(float(v)) for v in row) for row in m) + "\n\n")
    as_list = tmp_path / "list.json"
    as_list.write_text(json.dumps([[float(v) for v in row] for row in m]))
    as_dict = tmp_path / "dict.json"
    as_dict.write_text(json.dumps({"matrix": [[str(v) for v in row] for row in m]}))
    for source in (csv_header, str(spaces), str(as_list), as_dict, json.dumps([[str(v) for v in r] for r in m])):
        fam = Similarity(matrix=source, alpha=0)
        assert fam.similarity_matrix() == expected.similarity_matrix() and not fam.numeric
    assert "file s.csv" in Similarity(matrix=csv_header, alpha=0).describe()
    wrong_key = tmp_path / "k.json"
    wrong_key.write_text(json.dumps({"vectors": [[1]]}))
    with pytest.raises(ParameterError, match="must have the single key 'matrix'"):
        Similarity(matrix=wrong_key)
    hidden = tmp_path / "hidden.txt"
    np.savetxt(hidden, np.random.default_rng(0).normal(size=(4, 6)))  # '%.18e': machine floats
    fam = Embedding(vectors=hidden, alpha=0)
    assert fam.numeric and fam.n_items == 4
    assert Embedding(vectors=hidden, alpha=0, numeric=False).numeric is False



def test_npy_files_read_like_the_other_formats(tmp_path):
    """One reader for every data family (issue 27, section 3): a ``.npy`` file gives the ``similarity`` and
    ``embedding`` families the same data as a CSV file or a Python table (before, only ``precomputed`` read
    ``.npy``), and a broken ``.npy`` is one ParameterError naming the argument."""
    m = geometric_matrix(4, Q(1, 2))
    npy = tmp_path / "s.npy"
    np.save(npy, np.array([[float(v) for v in row] for row in m]))
    fam = Similarity(matrix=npy, alpha=0)
    assert fam.similarity_matrix() == Similarity(matrix=m, alpha=0).similarity_matrix() and not fam.numeric
    assert "file s.npy" in fam.describe()
    vectors = tmp_path / "v.npy"
    np.save(vectors, np.array(PYTH, dtype=float))
    from_npy, from_list = Embedding(vectors=vectors, alpha=0), Embedding(vectors=[list(r) for r in PYTH], alpha=0)
    assert from_npy.similarity_matrix() == from_list.similarity_matrix()
    broken = tmp_path / "broken.npy"
    broken.write_bytes(b"not an array")
    with pytest.raises(ParameterError, match=r"^matrix: cannot read the file .*broken\.npy.* as a numpy \.npy array"):
        Similarity(matrix=broken)
    np.save(tmp_path / "flat.npy", np.ones(4))
    with pytest.raises(ParameterError, match=r"^vectors must be a 2-D array"):
        Embedding(vectors=tmp_path / "flat.npy")

# ----------------------------------------------------------------------------- CLI
def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    m = geometric_matrix(5, Q(1, 2))
    paths = {
        "geo": ("geo.csv", "\n".join(",".join(str(v) for v in row) for row in m)),
        "eye": ("eye.json", json.dumps({"matrix": np.eye(5, dtype=int).tolist()})),
        "vectors": ("v.csv", "x,y,z,w\n" + "\n".join(",".join(map(str, r)) for r in PYTH)),
        "nonsquare": ("ns.csv", "1,0,0\n0,1,0\n"),
        "nonsym": ("nsym.csv", "1,0.5,0\n0.4,1,0\n0,0,1\n"),
        "notpsd": ("npsd.csv", "1,0.9,-0.9\n0.9,1,0.9\n-0.9,0.9,1\n"),
        "garbage": ("g.csv", "1,0,0\n0,one,0\n0,0,1\n"),
        "badjson": ("b.json", "[[1, 0], [0, 1]"),
        "empty": ("e.csv", "# nothing\n"),
        "binary": ("bin.csv", b"\xff\xfe\x00\x81"),
    }
    out = {}
    for key, (name, content) in paths.items():
        p = tmp_path / name
        p.write_bytes(content) if isinstance(content, bytes) else p.write_text(content)
        out[key] = str(p)
    out["missing"] = str(tmp_path / "missing.csv")
    return out


def test_cli_similarity_from_file(capsys, files):
    code, out, err = run(capsys, "derive", "-n", "5", "--family", "similarity", "--set", f"matrix={files['geo']}",
                         "--set", "alpha=0.1", "--ridge", "0.1", "--format", "json")
    assert code == 0 and err == ""
    d = json.loads(out)
    got = {tuple(p["trial"]): p for p in d["predictions"]}
    ref = solve(Task(5), Geometric(alpha=Q(1, 10), rho=Q(1, 2)), Q(1, 10))
    assert len(got) == 20 and ref.f(1, 5) == Q(609, 268)
    code, out, err = run(capsys, "derive", "-n", "5", "--family", "similarity", "--set", f"matrix={files['geo']}",
                         "--set", "alpha=0.1", "--ridge", "0.1")
    assert code == 0 and "609/268" in out and "matrix=5x5 exact (file geo.csv)" in out
    code, out, _ = run(capsys, "derive", "-n", "5", "--family", "similarity", "--set", f"matrix={files['eye']}",
                       "--set", "alpha=0.5", "--ridge", "0.5")
    assert code == 0 and "method   laplacian" in out and "17/29" in out


def test_cli_embedding_from_file(capsys, files, tmp_path):
    code, out, err = run(capsys, "derive", "-n", "5", "--family", "embedding", "--set", f"vectors={files['vectors']}",
                         "--set", "alpha=0.25", "--ridge", "0.5")
    exact = solve(Task(5), Similarity(matrix=rational_cosines(PYTH), alpha=Q(1, 4)), Q(1, 2))
    assert code == 0 and str(exact.f(1, 5)) in out
    hidden = tmp_path / "h.txt"
    np.savetxt(hidden, np.random.default_rng(2).normal(size=(5, 8)))
    code, out, err = run(capsys, "derive", "-n", "5", "--family", "embedding", "--set", f"vectors={hidden}",
                         "--set", "alpha=0.1", "--ridge", "0.1")
    assert code == 0 and "numeric/float64 (mpmath 30-digit check" in out and "float64 (file h.txt)" in out


CLI_ERRORS = [
    ("missing", ["matrix", "cannot read the file", "No such file"]),
    ("nonsquare", ["matrix must be square"]),
    ("nonsym", ["matrix must be symmetric", "(1, 2)"]),
    ("notpsd", ["matrix must be positive semidefinite", "principal minor"]),
    ("garbage", ["matrix", "line 2, column 2", "'one' is not a number"]),
    ("badjson", ["matrix", "not valid JSON"]),
    ("empty", ["matrix", "no rows of numbers"]),
    ("binary", ["matrix", "not a text file"]),
]


@pytest.mark.parametrize("key, words", CLI_ERRORS, ids=[c[0] for c in CLI_ERRORS])
def test_cli_matrix_file_errors(capsys, files, key, words):
    code, out, err = run(capsys, "derive", "-n", "5", "--family", "similarity", "--set", f"matrix={files[key]}",
                         "--set", "alpha=0.1", "--ridge", "0.1")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("symbolic-ti: error: argument --set: ")
    for w in words:
        assert w in lines[0]


def test_cli_wrong_size_for_n(capsys, files):
    code, out, err = run(capsys, "derive", "-n", "4", "--family", "similarity", "--set", f"matrix={files['eye']}",
                         "--set", "alpha=0", "--ridge", "1")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--set matrix=FILE" in err and "5 x 5" in err and "n = 4" in err
    code, out, err = run(capsys, "derive", "-n", "5", "--family", "embedding", "--set", f"vectors={files['missing']}")
    assert code == 2 and "argument --set: vectors: cannot read the file" in err


def test_cli_as_a_process(files):
    proc = subprocess.run([sys.executable, "-m", "symbolic_ti", "derive", "-n", "5", "--family", "similarity",
                           "--set", f"matrix={files['notpsd']}", "--set", "alpha=0.1", "--ridge", "0.1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "--set" in proc.stderr and "positive semidefinite" in proc.stderr


# ----------------------------------------------------------------------------- slow exploration
@pytest.mark.slow
def test_embedding_cost_grows_with_the_number_field():
    """Exact embeddings whose squared norms fall in k square classes work over a field of degree 2^k."""
    cases = {1: [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1]],       # norms^2 1, 2: sqrt(2)
             2: [[1, 0, 0], [1, 1, 0], [1, 1, 1], [0, 1, 1], [0, 0, 1]]}       # 1, 2, 3: sqrt(2), sqrt(3)
    # three classes (norms^2 2, 3, 5; degree 8) took 103 s here: docs/families.md#exactness-of-data
    for k, vectors in cases.items():
        fam = Embedding(vectors=vectors, alpha=Q(1, 10))
        start = time.perf_counter()
        r = solve(Task(5), fam, Q(1, 10))
        print(f"square classes {k}: {time.perf_counter() - start:.2f} s, method {r.method}")
        with mpmath.workdps(40):
            num = numeric_predictions(Task(5), fam, ridge=Q(1, 10), precision=40)
            assert all(abs(mpmath.mpf(sp.N(r.f(*t), 50)) - num[t]) < mpmath.mpf(10) ** -30 for t in Task(5).trials)


def test_rounded_float_vectors_switch_to_numeric_with_a_warning(tmp_path):
    """Hidden states written with 4 decimals read as exact rationals whose cosines need many independent square
    roots; "auto" then uses the numeric solvers (with a warning) instead of a number field of degree 2^k, and
    numeric=False keeps the exact path on request, with a warning that it will be slow."""
    rng = np.random.default_rng(3)
    p = tmp_path / "v.csv"
    np.savetxt(p, rng.normal(size=(5, 6)), fmt="%.4f", delimiter=",")
    with pytest.warns(UndecidedCheckWarning, match="independent square roots"):
        fam = get_family("embedding", vectors=str(p), alpha="1/10")
    r = solve(Task(5), fam, "1/10")
    assert r.method.startswith("numeric/")
    # the result says so too: its family line names the switch (5 random rows: 5 independent square classes)
    assert "exact data read as float64: 5 independent square roots" in r.to_text()
    with pytest.warns(UndecidedCheckWarning, match="expect it to be very slow"):
        exact_fam = get_family("embedding", vectors=str(p), alpha="1/10", numeric="false")
    assert not exact_fam.numeric
