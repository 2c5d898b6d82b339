"""JSON format version 2 (docs/json_schema.md#the-forms-table): each closed form once in ``forms``, the records
refer to it; read back (export/reading.py) it gives the very expressions of version 1 and of ``Result.f``.

Independent values: the reference table of ../shared/CONVENTIONS.md (reference_cases.py), each checked there by
a direct Gram-matrix solve, and numeric solves of the same task at a rational point (``derive`` with the
parameters bound: no symbolic form, no table involved).
"""

from __future__ import annotations

import json

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic_ti import derive
from symbolic_ti import symbols as S
from symbolic_ti.errors import ExportError
from symbolic_ti.export import stream
from symbolic_ti.export.reading import FormsTable, expression_from_dict, read_report

from interrupts import interrupt_streamed_report_at
from reference_cases import REFERENCE_CASES
from strategies import examples

Q = sp.Rational


def _without_created(text: str) -> dict:
    d = json.loads(text)
    d["meta"].pop("created")
    return d


def _same(a: dict, b: dict, structural: bool) -> bool:
    return list(a) == list(b) and all(a[t] == b[t] if structural else sp.cancel(a[t] - b[t]) == 0 for t in a)


def _check_versions(r) -> None:
    """Versions 2 and 1, both encodings: the same values, equal to Result.f / margins / training fit (the same
    trees in ``poly`` too where the solver gave PolyFractions; else equal values: version 1 converted ``f(j, i)``
    to its own polynomial form, version 2 reads ``-f(i, j)``)."""
    structural_poly = r.fraction(*r.task.trials[0]) is not None
    for encoding in ("srepr", "poly"):
        v2 = read_report(json.loads(r.to_json(encoding=encoding)))
        v1 = read_report(json.loads(r.to_json(encoding=encoding, format_version=1)))
        assert (v2.format_version, v1.format_version) == (2, 1) and len(v1.forms) == 0
        structural = encoding == "srepr" or structural_poly
        for key in ("predictions", "margins", "exception_margins"):
            assert _same(getattr(v2, key), getattr(v1, key), structural), (encoding, key)
        assert list(v2.training_fit) == list(v1.training_fit)
        for t, (p, res) in v2.training_fit.items():
            q, res1 = v1.training_fit[t]
            assert (p == q and res == res1) if structural else sp.cancel(p - q) == sp.cancel(res - res1) == 0
        if encoding == "srepr":  # the same trees as the result's own expressions
            assert v2.predictions == dict(r.predictions) and v2.margins == r.margins
            assert [v2.exception_margins[(e.winner, e.loser)] for e in r.task.exceptions] == \
                list(r.exception_margins.values())
            assert [res for _, res in v2.training_fit.values()] == [fit.residual for fit in r.training_fit]


@pytest.mark.parametrize("case", REFERENCE_CASES[:6], ids=[c[0] for c in REFERENCE_CASES[:6]])
def test_numeric_reference_cases_stay_inline(case):
    name, n, exc, params, ridge, expected = case
    r = derive(n, list(exc), parameters={k: str(v) for k, v in params.items()}, ridge=str(ridge))
    for encoding in ("srepr", "poly"):
        text = r.to_json(encoding=encoding)
        v2, v1 = _without_created(text), _without_created(r.to_json(encoding=encoding, format_version=1))
        assert v2.pop("forms") == [] and v2["meta"].pop("format_version") == 2
        assert v1["meta"].pop("format_version") == 1 and v2 == v1  # a numeric report: unchanged but the version
        values = read_report(json.loads(text)).predictions
        for t, v in expected.items():  # the conventions' values
            assert values[t] == Q(v.numerator, v.denominator)


def test_symbolic_n9_against_the_conventions():
    """f(6, 4) = 5509/7850 and f(3, 6) = -387/3925 at alpha = lambda = 1/10 (CONVENTIONS), read from the table:
    the prediction, its reversed trial and the margins (sign and entry each checked)."""
    r = derive(9, ["6>4"])
    d = json.loads(r.to_json())
    values = read_report(d)
    point = {S.alpha: Q(1, 10), S.ridge: Q(1, 10)}
    ref = {(6, 4): Q(5509, 7850), (3, 6): Q(-387, 3925), (1, 9): Q(7902, 3925), (3, 7): Q(162, 785)}
    for (i, j), v in ref.items():
        assert values.predictions[(i, j)].subs(point) == v and values.predictions[(j, i)].subs(point) == -v
    assert values.exception_margins[(6, 4)].subs(point) == Q(5509, 7850)
    assert values.margins[(4, 6)].subs(point) == Q(5509, 7850)  # ground truth -1 for (4, 6): g f = f(6, 4)
    assert values.margins[(3, 6)].subs(point) == Q(-387, 3925)  # an error of the rule (one_in_cycle)
    # every margin against a numeric solve at another rational point (no symbolic form involved)
    a, lam = Q(2, 7), Q(3, 5)
    numeric = derive(9, ["6>4"], parameters={"alpha": str(a)}, ridge=str(lam))
    for t, m in values.margins.items():
        assert m.subs({S.alpha: a, S.ridge: lam}) == numeric.task.ground_truth(t) * numeric.f(*t)
    # each form once, up to sign; the references point at it with the right sign
    forms = [values.forms[k] for k in range(len(values.forms))]
    assert len(set(forms) | {-f for f in forms}) == 2 * len(forms)
    for p in d["predictions"]:
        ref_ = p["value"]
        if "form" in ref_:
            assert ref_["float"] is None and ref_["sign"] in (1, -1)
            i, j = p["trial"]
            assert ref_["sign"] * forms[ref_["form"]] == r.f(i, j)
    assert len(forms) < len(r.predictions) // 2 + len(r.training_fit)


def test_streamed_equals_to_json_byte_for_byte(tmp_path):
    r = derive(6, ["5>2"])
    for encoding in ("srepr", "poly"):
        for version in (2, 1):
            path = tmp_path / f"{encoding}{version}.json"
            stream.write_json(r, path, encoding=encoding, format_version=version)
            text = path.read_text(encoding="utf-8")
            whole = r.to_json(encoding=encoding, format_version=version)
            created = json.loads(whole)["meta"]["created"]
            assert text.replace(json.loads(text)["meta"]["created"], created) == whole + "\n"
            if version == 2:  # the table before the first reference
                assert text.index('"forms"') < text.index('"predictions"') < text.index('"form":')
                assert read_report(path).predictions == dict(r.predictions)


def test_interrupt_after_the_table_leaves_nothing(tmp_path, monkeypatch):
    r = derive(5, ["4>2"])
    n_forms = len(r.to_dict()["forms"])
    path = tmp_path / "r.json"
    path.write_text("old", encoding="utf-8")
    interrupt_streamed_report_at(monkeypatch, n_forms + 3)  # in the predictions
    with pytest.raises(KeyboardInterrupt):
        stream.write_json(r, path)
    assert path.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_references_need_their_table(tmp_path):
    d = json.loads(derive(5, ["4>2"]).to_json())
    ref = d["predictions"][1]["value"]
    with pytest.raises(ExportError, match="forms") as err:
        expression_from_dict(ref)
    assert len(str(err.value).splitlines()) == 1
    assert expression_from_dict(ref, d["forms"]) == expression_from_dict(d["forms"][ref["form"]])
    for bad in ({"form": len(d["forms"]), "sign": 1}, {"form": 0, "sign": 2}, {"form": "0", "sign": 1}):
        with pytest.raises(ExportError, match="reference"):
            expression_from_dict(bad, FormsTable(d["forms"]))
    with pytest.raises(ExportError, match="format_version"):
        read_report({"meta": {"format": "symbolic_ti.result", "format_version": 3}})
    (tmp_path / "x.json").write_text("{", encoding="utf-8")
    with pytest.raises(ExportError, match="not JSON"):
        read_report(tmp_path / "x.json")
    with pytest.raises(ExportError, match="format_version"):
        derive(4).to_dict(format_version=3)


def test_irrational_constants_and_ridgeless():
    _check_versions(derive(5, ["4>2"], parameters={"alpha": sp.sqrt(2) / 4}))  # sqrt(2) a generator
    _check_versions(derive(6, ["5>2"], ridge="ridgeless"))
    _check_versions(derive(4, family="relu-ntk", ridge=None))


@settings(max_examples=examples(2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 5), family=st.sampled_from(["exchangeable", "geometric", "relu-nngp"]), data=st.data())
def test_hypothesis_versions_agree(n, family, data):
    w = data.draw(st.integers(3, n))
    exc = [f"{w}>{data.draw(st.integers(1, w - 2))}"]
    params = {"rho": "1/2"} if family == "geometric" else {}
    ridge = None if family == "exchangeable" else "1/3"
    r = derive(n, exc, family=family, parameters=params, ridge=ridge)
    _check_versions(r)


def test_cli_format_version(tmp_path, capsys):
    import symbolic_ti.cli.app as cli

    r = derive(5, ["4>2"])
    assert cli.main(["derive", "-n", "5", "-e", "4>2", "-f", "json", "--format-version", "1"]) == 0
    old = json.loads(capsys.readouterr().out)
    out = tmp_path / "r.json"
    assert cli.main(["derive", "-n", "5", "-e", "4>2", "-f", "json", "-o", str(out)]) == 0
    new = read_report(out)
    assert old["meta"]["format_version"] == 1 and "forms" not in old and new.format_version == 2
    assert read_report(old).predictions == new.predictions == dict(r.predictions)
    for argv in (["-f", "text", "--format-version", "1"], ["-f", "json", "-t", "1,2", "--format-version", "1"]):
        assert cli.main(["derive", "-n", "5", *argv]) == 2
        err = capsys.readouterr().err
        assert "--format-version" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("ridge", ["1/10", "ridgeless"])
def test_dense_reversed_trials_share_the_entry_by_their_numerator(ridge):
    """A dense solve gives f(j, i) as the tree of -N over D (not sympy's -f): the report refers to f(i, j)'s entry
    with numerator_sign -1, and reads back the very tree; the table holds at most one entry per unordered pair."""
    r = derive(6, ["5>3"], family="geometric", parameters={"alpha": "1/3"}, ridge=ridge)
    assert r.method.startswith("halved") and r.fraction(4, 1) is not None
    d = json.loads(r.to_json())
    refs = {tuple(p["trial"]): p["value"] for p in d["predictions"] if "form" in p["value"]}  # (numbers inline)
    assert len({v["form"] for v in refs.values()}) <= 15 and any(v.get("numerator_sign") == -1 for v in refs.values())
    for (i, j), v in refs.items():
        if i < j:  # the reversed trial names the same entry, with the opposite overall value
            w = refs[(j, i)]
            assert w["form"] == v["form"] and w["sign"] * w.get("numerator_sign", 1) == \
                -v["sign"] * v.get("numerator_sign", 1)
    back = read_report(d)
    assert back.predictions == dict(r.predictions) and back.margins == r.margins
    # an independent value: f(1, 2) - f(2, 1) at rho = 1/2 is 2 f(1, 2), and f(2, 1) < 0 there (a premise pair)
    at = {S.rho: Q(1, 2)}
    assert back.predictions[(2, 1)].subs(at) == -back.predictions[(1, 2)].subs(at) < 0
    _check_versions(r)


def test_numerator_sign_outside_its_values_is_refused():
    with pytest.raises(ExportError, match="numerator_sign"):
        expression_from_dict({"form": 0, "sign": 1, "numerator_sign": 2, "float": None},
                             [{"srepr": "Symbol('rho')", "latex": "", "text": "", "float": None}])


def test_malformed_reports_give_one_line():
    """Hand-edited reports: each defect is refused with one line naming it (none reads as a wrong value)."""
    import copy
    base = json.loads(derive(5, ["4>2"]).to_json(encoding="poly"))  # alpha and lambda: two generators
    ref = next(p for p in base["predictions"] if "form" in p["value"] and p["value"]["sign"] == -1)

    def broken(edit):
        d = copy.deepcopy(base)
        edit(d)
        return d

    cases = [
        (lambda d: next(p for p in d["predictions"] if p["trial"] == ref["trial"])["value"].pop("sign"), "sign"),
        (lambda d: d.pop("forms"), "'forms' table"),
        (lambda d: d["predictions"][0].__setitem__("trial", [1]), r"\[i, j\]"),
        (lambda d: d["forms"][0]["poly"].__setitem__("den", []), "denominator"),
        (lambda d: d["forms"][0]["poly"]["num"][0].__setitem__(1, 0.5), "must be a string 'p' or 'p/q'"),
        (lambda d: d["forms"][0]["poly"]["num"][0].__setitem__(1, "1e3"), "must be a string 'p' or 'p/q'"),
        (lambda d: d["forms"][0]["poly"]["num"][0].__setitem__(1, "1/0"), r"q > 0"),
        (lambda d: d["forms"][0]["poly"]["num"][0].__setitem__(0, [-1, 0]), "exponents"),
        (lambda d: d["forms"][0]["poly"]["num"].append(d["forms"][0]["poly"]["num"][0]), "appears twice"),
        (lambda d: d["forms"][0]["poly"]["num"].append([[0, 0], "1", "x"]), r"\[exponents, coefficient\]"),
        (lambda d: d["forms"][0]["poly"]["gens_srepr"].reverse(), "does not name the generators"),
        (lambda d: d["forms"][0]["poly"].pop("num"), "lacks the key"),
        (lambda d: d["forms"][0].__setitem__("srepr", "Integer(1)"), "not both"),
        (lambda d: d["forms"].__setitem__(0, None), r"forms\[0\] must be an expression object"),
        (lambda d: d["margins"][0].__setitem__("trial", [1, 99]), "two different items of 1..5"),
        (lambda d: d["margins"].append(d["margins"][0]), "appears twice"),
        (lambda d: d["predictions"].pop(), "all 20 ordered trials"),
        (lambda d: d["predictions"][0].__setitem__("category", "bogus"), "category 'bogus'"),
        (lambda d: d["exception_margins"][0].__setitem__("exception", "x"), "does not name its trial"),
        (lambda d: d["training_fit"][0].__setitem__("target", 5), "must be 1 or -1"),
        (lambda d: d.pop("task"), "'task'"),
        (lambda d: d["predictions"][3].__setitem__("value", None), "has no value"),
        (lambda d: d["ridgeless_conditions"].append({"form": 0, "sign": 1, "float": None}), "never references"),
        (lambda d: d.pop("margins"), "lacks the key 'margins'"),
    ]
    for edit, message in cases:
        with pytest.raises(ExportError, match=message) as err:
            read_report(broken(edit))
        assert len(str(err.value).splitlines()) == 1, str(err.value)
    with pytest.raises(ExportError, match="a path or a report"):
        read_report([1, 2])  # type: ignore[arg-type]
    assert read_report(base).predictions  # the unedited report reads


def test_chosen_trials_report_has_its_format_and_reads_back(capsys):
    """derive --trial --format json: format symbolic_ti.trials, read by read_report; the values of those trials
    equal Result.f and Result.margin (srepr, the same trees), and f(3, 6) at alpha = lambda = 1/10 is the
    CONVENTIONS.md value -387/3925."""
    import symbolic_ti.cli.app as cli

    assert cli.main(["derive", "-n", "9", "-e", "6>4", "-f", "json", "-t", "3,6", "-t", "6,4"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["meta"]["format"], d["meta"]["format_version"]) == ("symbolic_ti.trials", 1)
    back = read_report(d)
    r = derive(9, ["6>4"])
    assert list(back.predictions) == [(3, 6), (6, 4)]
    assert all(back.predictions[t] == r.f(*t) and back.margins[t] == r.margin(*t) for t in back.predictions)
    assert back.predictions[(3, 6)].subs({S.alpha: Q(1, 10), S.ridge: Q(1, 10)}) == Q(-387, 3925)
