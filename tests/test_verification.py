"""symbolic_ti.verify and its report (symbolic_ti.numeric.verification, rendered by symbolic_ti.export.verification).

References: the exact values of ../shared/CONVENTIONS.md (n = 7, alpha = 1/10, ridgeless: f(1, 3) = 2142/1889), so
that the errors of a deliberately corrupted prediction are known in closed form; the relative error is
``|exact - numeric| / max(|exact|, 1)`` (REL_ERROR_FLOOR, docstring of verify); the default tolerance is
``10^(-dps/2)``. Random tasks: tests/test_agreement.py.
"""

import dataclasses
import json

import mpmath
import pytest
import sympy as sp

import symbolic_ti
from symbolic_ti import Exchangeable, ParameterError, Task, VerifyReport, solve, verify
from symbolic_ti import symbols as S
from symbolic_ti.export.jsonreport import expression_from_dict
from symbolic_ti.export.verification import FORMAT_NAME, verify_report_to_dict, verify_report_to_text


@pytest.fixture(scope="module")
def symbolic_result():
    r = solve(Task(5, ["4>2"]), Exchangeable())  # alpha and lambda symbolic
    assert set(r.free_symbols) == {S.alpha, S.ridge}
    return r


def test_verify_symbolic_result_ok(symbolic_result):
    rep = verify(symbolic_result)
    assert isinstance(rep, VerifyReport) and rep.ok and bool(rep)
    assert len(rep.points) == 5 and rep.n_comparisons == 5 * 20
    assert rep.max_rel_error < 1e-40 and rep.max_abs_error < 1e-40  # tiny at 50 digits
    for p in rep.points:
        assert set(p) == {"alpha", "lambda"}
        assert all(isinstance(v, sp.Rational) for v in p.values())
        assert 0 <= p["alpha"] < 1 and p["lambda"] > 0
    assert "OK" in rep.to_text() and "alpha=" in rep.to_text()
    d = json.loads(json.dumps(rep.to_dict()))
    assert d["ok"] is True and len(d["points"]) == 5 and d["dps"] == 50
    assert verify(symbolic_result).points == rep.points  # same seed, same points
    assert verify(symbolic_result, seed=1).points != rep.points


def test_verify_catches_corrupted_prediction(symbolic_result):
    preds = dict(symbolic_result.predictions)
    preds[(1, 5)] = preds[(1, 5)] + sp.Rational(1, 10**8)
    bad = dataclasses.replace(symbolic_result, predictions=preds)
    rep = verify(bad, n_points=2)
    assert not rep.ok
    assert rep.worst_trial == (1, 5)
    assert 1e-9 < rep.max_abs_error < 1e-7
    assert "FAILED" in rep.to_text()
    # a sign error in the formula, not a constant shift
    preds = dict(symbolic_result.predictions)
    preds[(3, 5)] = preds[(3, 5)].subs(S.alpha, 1 - S.alpha)
    rep = verify(dataclasses.replace(symbolic_result, predictions=preds), n_points=2)
    assert not rep.ok and rep.worst_trial == (3, 5)


def test_verify_ridgeless_symbolic():
    """The generic ridgeless limit must equal the numeric minimum-norm interpolant at random points."""
    r = solve(Task(5, ["4>2"]), Exchangeable(), "ridgeless")
    assert r.free_symbols == (S.alpha,)
    rep = verify(r, n_points=3, dps=30)
    assert rep.ok and rep.ridgeless and rep.max_rel_error < 1e-25
    bad = dataclasses.replace(r, predictions={**r.predictions, (1, 5): r.f(1, 5) * (1 + S.alpha / 10**6)})
    assert not verify(bad, n_points=2).ok


def test_verify_draws_kappa_d_absent_from_ridgeless_formulas():
    r = solve(Task(6, ["5>2"]), Exchangeable(alpha="1/3", kappa_d="symbolic"), "ridgeless")
    assert r.free_symbols == ()  # ridgeless predictions do not depend on kappa_d
    rep = verify(r, n_points=2, dps=30)
    assert rep.ok and len(rep.points) == 2
    assert all(set(p) == {"kappa_d"} for p in rep.points)  # drawn anyway: the numeric side depends on it


def test_verify_kappa_parametrization_draws_inside_joint_domain():
    r = solve(Task(5, ["5>3"]), Exchangeable(kappa_o="symbolic", kappa_d="symbolic"), "1/2")
    rep = verify(r, n_points=3, dps=30)
    assert rep.ok
    for p in rep.points:
        assert p["kappa_d"] <= p["kappa_o"] <= (1 + p["kappa_d"]) / 2


def test_verify_numeric_result_single_point():
    r = solve(Task(7), Exchangeable(alpha="1/10"), "ridgeless")
    rep = verify(r, n_points=4)
    assert rep.ok and rep.points == ({},) and rep.n_comparisons == 42
    bad = dataclasses.replace(r, predictions={**r.predictions, (1, 3): sp.Rational(2143, 1889)})
    rep = verify(bad)
    assert not rep.ok and rep.worst_trial == (1, 3)


def test_verify_interval_and_tolerance():
    r = solve(Task(4, ["4>2"]), Exchangeable(), "1/3")
    rep = verify(r, n_points=3, interval={"alpha": ("1/2", "3/4")}, dps=20)
    assert rep.ok and all(sp.Rational(1, 2) < p["alpha"] < sp.Rational(3, 4) for p in rep.points)
    assert verify(r, n_points=1, tol=1e-3).tol == 1e-3


def test_verify_argument_errors(symbolic_result):
    with pytest.raises(ParameterError, match="result must be"):
        verify("x")
    with pytest.raises(ParameterError, match="n_points"):
        verify(symbolic_result, n_points=0)
    with pytest.raises(ParameterError, match="dps"):
        verify(symbolic_result, dps=2)
    with pytest.raises(ParameterError, match="interval: 'beta'"):
        verify(symbolic_result, interval={"beta": (0, 1)})
    with pytest.raises(ParameterError, match="interval for lambda"):
        verify(symbolic_result, interval={"lambda": (-1, 1)})
    with pytest.raises(ParameterError, match="tol"):
        verify(symbolic_result, tol=-1)



# ------------------------------------------------------------------ errors, tolerance and precision in closed form
@pytest.fixture(scope="module")
def corrupted_numeric():
    """n = 7, alpha = 1/10, ridgeless, with f(1, 3) = 2142/1889 (CONVENTIONS.md) replaced by 2143/1889."""
    r = solve(Task(7), Exchangeable(alpha="1/10"), "ridgeless")
    assert r.f(1, 3) == sp.Rational(2142, 1889)
    return dataclasses.replace(r, predictions={**r.predictions, (1, 3): sp.Rational(2143, 1889)})


def test_corrupted_value_gives_the_known_errors(corrupted_numeric):
    rep = verify(corrupted_numeric, dps=40)
    assert not rep.ok and rep.worst_trial == (1, 3)
    assert rep.max_abs_error == pytest.approx(1 / 1889, rel=1e-12)        # |2143 - 2142| / 1889
    assert rep.max_rel_error == pytest.approx(1 / 2143, rel=1e-12)        # divided by |exact| = 2143/1889 > 1
    assert rep.point_errors == (pytest.approx(1 / 2143, rel=1e-12),)
    assert rep.worst_exact == "2143/1889" and rep.worst_exact_value == sp.Rational(2143, 1889)
    with mpmath.workdps(40):
        assert rep.worst_numeric == mpmath.nstr(mpmath.mpf(2142) / 1889, 20)


def test_tolerance_decides_ok(corrupted_numeric):
    # the relative error is 1/2143 ~ 4.67e-4: inside a tolerance of 1e-3, outside 1e-4
    assert verify(corrupted_numeric, tol=1e-3).ok
    assert not verify(corrupted_numeric, tol=1e-4).ok
    assert verify(corrupted_numeric, tol=1e-3).tol == 1e-3


@pytest.mark.parametrize("dps", [20, 30, 50])
def test_default_tolerance_follows_precision(dps):
    r = solve(Task(4, ["4>2"]), Exchangeable(alpha="1/3"), "1/2")
    rep = verify(r, dps=dps)
    assert rep.ok and rep.dps == dps and rep.tol == pytest.approx(10.0 ** (-dps / 2), rel=1e-12)
    assert rep.max_rel_error < 10.0 ** (-dps + 5)  # an exact rational against an LU solve at dps digits
    # a shift of 1e-20 is below the tolerance at 20 and 30 digits (1e-10, 1e-15) but not at 50 (1e-25)
    bad = dataclasses.replace(r, predictions={**r.predictions, (1, 4): r.f(1, 4) + sp.Rational(1, 10**20)})
    assert verify(bad, dps=dps).ok is (dps < 50)


# ------------------------------------------------------------------ rendering
def test_text_report(corrupted_numeric):
    rep = verify(corrupted_numeric, dps=40)
    with mpmath.workdps(40):
        numeric = mpmath.nstr(mpmath.mpf(2142) / 1889, 20)
    assert rep.to_text().splitlines() == [
        "verify n=7, no exception, exchangeable(alpha=1/10, kappa_d=0), ridgeless: FAILED",
        "  numeric: full Gram matrix, mpmath at 40 digits, minimum-norm interpolant (ridgeless)",
        "  42 comparisons at 1 point(s)",                                   # n (n - 1) = 42 trials
        f"  max abs error {1 / 1889:.3e}, max rel error {1 / 2143:.3e} (tol 1.0e-20)",
        f"  worst trial f(1, 3) at (no free parameter): exact 2143/1889, numeric {numeric}",
        f"  point 1: (no free parameter)  max rel error {1 / 2143:.3e}",
    ]
    assert str(rep) == rep.to_text() == verify_report_to_text(rep)


def test_json_report_carries_exact_values(symbolic_result):
    rep = verify(symbolic_result, n_points=3)
    d = json.loads(rep.to_json())
    assert list(d) == ["meta", "label", "dps", "tol", "points", "point_errors", "max_abs_error", "max_rel_error",
                       "worst_trial", "worst_point", "worst_exact", "worst_numeric", "n_comparisons", "ridgeless",
                       "ok", "status", "undecided"]
    assert d["status"] == "agree" and d["undecided"] == []
    assert d["meta"]["format"] == FORMAT_NAME == "symbolic_ti.verify"
    assert d["meta"]["format_version"] == 1 and d["meta"]["symbolic_ti_version"] == symbolic_ti.__version__
    assert d["ok"] is True and d["ridgeless"] is False and d["n_comparisons"] == 3 * 20
    for point, stored in zip(rep.points, d["points"], strict=True):
        assert set(stored) == {"alpha", "lambda"}
        for name, value in point.items():
            obj = stored[name]
            assert set(obj) == {"srepr", "latex", "text", "float"}
            assert expression_from_dict(obj) == value and obj["text"] == str(value)
            assert obj["float"] == float(value)
    assert expression_from_dict(d["worst_exact"]) == rep.worst_exact_value
    assert d["worst_exact"]["text"] == rep.worst_exact
    assert {k: expression_from_dict(v) for k, v in d["worst_point"].items()} == dict(rep.worst_point)
    assert d["worst_trial"] == list(rep.worst_trial)
    assert d["point_errors"] == list(rep.point_errors) and d["max_rel_error"] == rep.max_rel_error
    direct = verify_report_to_dict(rep)
    direct["meta"].pop("created"), d["meta"].pop("created")
    assert json.loads(json.dumps(direct)) == d


# ------------------------------------------------- numeric values flagged untrusted are undecided (issue 16)
def _flagging(monkeypatch, flag, shift):
    """Make verify's numeric solve flag ``flag(trial)`` trials as untrusted, their values moved by ``shift``
    (a real NumericPredictions from the real solver, so only the flags and those values differ)."""
    import symbolic_ti.numeric.verification as verification
    from symbolic_ti.numeric.trusted import NumericPredictions

    real = verification.numeric_predictions

    def fake(*args, **kwargs):
        num = real(*args, **kwargs)
        bad = tuple(t for t in num if flag(t))
        values = {t: v + shift if t in bad else v for t, v in num.items()}
        return NumericPredictions(values, precision=num.precision, tolerance=num.tolerance, untrusted=bad,
                                  error_bound={t: float("inf") for t in bad}, method=num.method,
                                  condition=num.condition)

    monkeypatch.setattr(verification, "numeric_predictions", fake)


@pytest.mark.parametrize("shift", [0, 1])  # untrusted and right, untrusted and wrong: neither decides
def test_untrusted_values_are_undecided(monkeypatch, shift):
    r = solve(Task(5, ["4>2"]), Exchangeable(alpha="1/10"), "ridgeless")
    _flagging(monkeypatch, lambda t: t == (1, 3), shift)
    with pytest.warns(symbolic_ti.UntrustedNumericWarning, match="1 of 20 comparisons undecided"):
        rep = verify(r)
    assert rep.status == "undecided" and not rep.ok and not bool(rep)
    assert rep.undecided == (((1, 3), 0),)
    assert rep.n_comparisons == 19 and rep.max_rel_error < 1e-40  # the decided ones agree
    assert rep.worst_trial != (1, 3)
    text = rep.to_text()
    assert text.splitlines()[0].endswith(": UNDECIDED")
    assert "undecided: 1 comparisons (numeric values flagged untrusted)" in text
    d = json.loads(rep.to_json())
    assert d["status"] == "undecided" and d["undecided"] == [[[1, 3], 0]] and d["ok"] is False


def test_untrusted_does_not_hide_a_disagreement(monkeypatch):
    r = solve(Task(5, ["4>2"]), Exchangeable(alpha="1/10"), "ridgeless")
    preds = dict(r.predictions)
    preds[(2, 4)] = preds[(2, 4)] + sp.Rational(1, 1000)  # a wrong closed form, decided
    bad = dataclasses.replace(r, predictions=preds)
    _flagging(monkeypatch, lambda t: t == (1, 3), 0)
    with pytest.warns(symbolic_ti.UntrustedNumericWarning):
        rep = verify(bad)
    assert rep.status == "disagree" and not rep.ok and rep.worst_trial == (2, 4)
    assert abs(rep.max_abs_error - 1e-3) < 1e-30


def test_all_untrusted_gives_no_error_value(monkeypatch):
    r = solve(Task(4), Exchangeable(alpha="1/10"), "ridgeless")
    _flagging(monkeypatch, lambda t: True, 0)
    with pytest.warns(symbolic_ti.UntrustedNumericWarning):
        rep = verify(r)
    assert rep.status == "undecided" and rep.n_comparisons == 0 and len(rep.undecided) == 12
    assert rep.worst_numeric == "undecided"


def test_trusted_values_agree_status():
    rep = verify(solve(Task(4), Exchangeable(alpha="1/10"), "ridgeless"))
    assert rep.status == "agree" and rep.ok and rep.undecided == ()
