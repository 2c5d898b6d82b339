"""Paradigms as sweep axes (issue 25): ``paradigm``, ``lists``, ``links`` in a sweep spec, validated like the rest
of the spec; a spec without them is the spec it was (its dictionary and digest)."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic_ti.sweep import SpecError, spec_from_dict
from symbolic_ti.sweep.spec import SweepSpec
from symbolic_ti.sweep.tasks import Shard, configurations, run_shard
from symbolic_ti.task import Task

#: The fields of a spec before the paradigm axes existed (the dataset's metadata and the digest are made of them).
OLD_FIELDS = ["n", "exceptions", "family", "parameters", "ridge", "compute", "critical", "trials", "output", "name",
              "shard_seconds", "mirror"]


def test_a_spec_without_paradigm_keys_is_unchanged():
    spec = spec_from_dict({"n": [5, 6], "compute": ["critical_conjunctivity"],
                           "exceptions": [{"kind": "single", "span": [2, 3]}]})
    assert list(spec.to_dict()) == OLD_FIELDS
    assert [c.key for c in configurations(spec)][:2] == ["exchangeable||n=5|3>1", "exchangeable||n=5|4>2"]


def test_list_linking_axes_cross_lengths_and_the_link_sets_that_fit():
    spec = spec_from_dict({"paradigm": "list-linking", "lists": [[3, 3], [4, 4]], "links": [["3>4"], ["4>5"], []],
                           "family": "geometric", "parameters": {"alpha": ["1/2"], "rho": ["1/3"]}, "ridge": ["1"]})
    got = [(c.n, dict(c.design)["lists"], dict(c.design)["links"]) for c in configurations(spec)]
    # 3>4 joins the lists of 3,3 (and lies inside the first list of 4,4); 4>5 the lists of 4,4 only
    assert got == [(6, (3, 3), ("3>4",)), (6, (3, 3), ()), (8, (4, 4), ("4>5",)), (8, (4, 4), ())]
    c = configurations(spec)[1]
    assert c.task() == Task.paradigm("list-linking", lists=(3, 3))
    assert c.key == "geometric|alpha=1/2,rho=1/3|list-linking (lists=3,3; links=none)|n=6|"
    assert spec.to_dict()["paradigm"] == ["list-linking"] and "lists" in spec.to_dict()


def test_transverse_patterning_takes_the_n_axis_and_its_rows_are_the_dense_solve():
    spec = spec_from_dict({"paradigm": ["transverse-patterning"], "n": [3], "family": "geometric",
                           "parameters": {"alpha": ["1/2"], "rho": ["1/3"]}, "ridge": ["1"], "compute": ["margins"]})
    (c,) = configurations(spec)
    assert c.exceptions == ("3>1",) and c.task() == Task.paradigm("transverse-patterning", n=3)
    rows = {(r["i"], r["j"]): sp.Rational(r["value"]) for r in run_shard(spec, Shard(0, (c,), 0.0))}
    # independent: the dense ridge solve on the 6 training rows (kernel from the family's definition)
    from symbolic_ti.families import make_family

    fam = make_family("geometric", {"alpha": "1/2", "rho": "1/3"})
    train = [((1, 2), 1), ((2, 3), 1), ((3, 1), 1), ((2, 1), -1), ((3, 2), -1), ((1, 3), -1)]
    K = sp.Matrix(6, 6, lambda a, b: fam.kernel(train[a][0], train[b][0]))
    coef = (K + sp.eye(6)).LUsolve(sp.Matrix([y for _, y in train]))
    f31 = sp.nsimplify(sum(fam.kernel((3, 1), train[a][0]) * coef[a] for a in range(6)))
    assert rows[(3, 1)] == f31 and rows[(1, 3)] == f31  # the margin of the trained 3>1 and of its reverse


@pytest.mark.parametrize("data, message", [
    ({"n": [5], "lists": [[5, 5]]}, "key 'lists': only applies with paradigm = 'list-linking'"),
    ({"n": [5], "paradigm": "nope"}, "key 'paradigm': unknown paradigm 'nope'; allowed: ti, "),
    ({"paradigm": "list-linking"}, "key 'lists': is required with paradigm = 'list-linking'"),
    ({"paradigm": "list-linking", "lists": [[1, 5]]}, "key 'lists': list-linking: each list length"),
    ({"paradigm": "list-linking", "lists": 5}, "key 'lists': must be a list of list lengths"),
    ({"paradigm": "list-linking", "lists": [[5, 5]], "links": [["6>5"]]}, "key 'links[0]': fits none of the list"),
    ({"paradigm": "transverse-patterning"}, "key 'n': is required"),
    ({"paradigm": "banded-transverse-patterning", "n": [6]}, "key 'n': banded-transverse-patterning: n = 6"),
    ({"paradigm": "transverse-patterning", "n": [5], "compute": ["critical_conjunctivity"]},
     "key 'compute': critical_conjunctivity is for paradigm = 'ti' only"),
    ({"paradigm": "transverse-patterning", "n": [5], "exceptions": [{"kind": "single"}]},
     "key 'exceptions': only applies with paradigm = 'ti'"),
    ({"paradigm": ["ti", "ti"], "n": [5]}, "key 'paradigm': lists a paradigm twice"),
])
def test_bad_paradigm_axes_are_one_line_naming_the_key(data, message):
    with pytest.raises(SpecError) as info:
        spec_from_dict(data)
    assert str(info.value).startswith(f"sweep spec {message}") and "\n" not in str(info.value)


def test_the_dataclass_is_checked_too():
    with pytest.raises(SpecError, match="key 'lists': only applies"):
        SweepSpec(n=(5,), lists=((5, 5),)).validated()
