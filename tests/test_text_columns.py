"""Text tables that print trials keep their columns apart at three- and four-digit items.

The trial column used to be sized for two-digit items: ``(99, 102)`` ran into the category
(``(99, 102)one_in_cycle``) in ``critical``, and a fit's per-trial row raised ``ValueError`` (a negative
format width) from ``(100,102)`` on. Each test checks that the next column starts where its header does,
after at least one space.
"""

import sympy as sp

from symbolic_ti import critical
from symbolic_ti.behaviour.fit_parts import TrialFit
from symbolic_ti.dynamics.times import CriticalTimes, TrialTimes
from symbolic_ti.dynamics.window import EarlyStopping, RidgeFlip
from symbolic_ti.export.fit import trial_text
from symbolic_ti.export.text import column_width


def test_column_width():
    assert column_width(["(1, 2)", "(12, 10)"], 9) == 9
    assert column_width(["(1, 2)", "(99, 102)"], 9) == 10
    assert column_width(["(1000, 1002)"], 9) == 13
    assert column_width([], 8) == 8


def test_critical_text_at_three_digit_items():
    # n = 201, 102>100, ridgeless: the review's command `critical -n 201 -e '102>100' -p alpha --ridgeless`
    rep = critical(201, ["102>100"], parameter="alpha", ridge="ridgeless", trials=[(99, 102)])
    lines = rep.to_text().splitlines()
    head = next(x for x in lines if x.startswith("trial"))
    row = next(x for x in lines if x.startswith("(99, 102)"))
    assert row.startswith("(99, 102) one_in_cycle")
    assert row.index("one_in_cycle") == head.index("category")
    assert row.index("correct") == head.index("at start")
    order = next(x for x in lines if x.startswith("  (99, 102)"))
    assert order.startswith("  (99, 102) alpha = ")


def test_fit_trial_rows_at_three_and_four_digit_items():
    rows = [TrialFit((1, 3), "within_section", 1, 0.9, 0.8, 0.5, 10.0),
            TrialFit((100, 102), "within_section", 1, 0.9, 0.8, 0.5, 10.0),
            TrialFit((1000, 1002), "within_section", 1, 0.9, 0.8, 0.5, 10.0)]
    assert trial_text(rows[0]).startswith("(1,3)   within_section")  # the 8-wide column of small items
    assert trial_text(rows[1]).startswith("(100,102) within_section")
    w = column_width(["(1000,1002)"], 8)
    texts = [trial_text(t, w) for t in rows]
    assert {x.index("within_section") for x in texts} == {12}
    assert texts[2].startswith("(1000,1002) within_section")


def test_dynamics_texts_at_three_digit_items():
    big, small = (100, 102), (1, 3)
    rep = CriticalTimes("n=102", (TrialTimes(big, "correct", (), sp.Rational(1, 2), True),
                                  TrialTimes(small, "correct", (), sp.Rational(1, 2), True)))
    lines = rep.to_text().splitlines()
    rows = [x for x in lines if "starts" in x]
    assert rows[0].startswith("  (100, 102) starts")
    assert rows[0].index("starts") == rows[1].index("starts")
    es = EarlyStopping("n=102", (), (), (), ridge_table=(RidgeFlip(big, (), (), (), ()),
                                                         RidgeFlip(small, (), (), (), ())))
    rows = [x for x in es.to_text().splitlines() if "lambda*" in x]
    assert rows[0].startswith("  (100, 102) lambda* = none")
    assert rows[0].index("lambda*") == rows[1].index("lambda*")
    # two-digit items keep the layout they had
    small_only = CriticalTimes("n=9", (TrialTimes((12, 10), "wrong", (), sp.Rational(-1, 2), True),))
    assert "  (12, 10)  starts wrong" in small_only.to_text()


def test_dynamics_text_shortens_long_exact_limits_and_mode_factors():
    """At n = 101 the t = oo limits are rationals of about 130 digits and a mode factor has degree 50: the text
    shows floats marked with * (the exact limit's float, computed here from the exact value) and a short factor."""
    from symbolic_ti import learning_dynamics

    d = learning_dynamics(101, ["52>50"], parameters={"alpha": "1/10"}, ridge="1/10")
    text = d.to_text(trials=[(49, 52)], times=[1, "oo"])
    row = next(line for line in text.splitlines() if line.startswith("  (49, 52)"))
    cells = row.split()
    assert cells[-1] == f"{float(d.margin(49, 52, t='oo')):.6g}*" and len(row) < 60
    assert "exact limits are in --format json" in text
    assert max(len(line) for line in text.splitlines()) < 160 and "(degree 50, 51 terms" in text
