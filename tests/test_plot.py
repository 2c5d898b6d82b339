"""symbolic_ti.figures.plot and ``symbolic-ti plot``: figure data checked against exact computations, files, CLI errors.

The data objects are compared with exact results (Result.subs at exact rational points, exact signs) and with
critical values from symbolic_ti.critical / the conventions; drawings are checked as files (magic bytes, size).
matplotlib runs with the non-interactive Agg backend.
"""

import math
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import mpmath  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sympy as sp  # noqa: E402

from symbolic_ti import ExportError, ParameterError, TaskError, derive  # noqa: E402
from symbolic_ti import symbols as S  # noqa: E402
from symbolic_ti.figures import plot as P  # noqa: E402
from symbolic_ti.cli import main  # noqa: E402

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}


@pytest.fixture(scope="module")
def base():
    return derive(9, ["6>4"])


# ------------------------------------------------------------------ heatmap
def test_heatmap_cells_equal_f(base):
    h = P.heatmap_data(base, {"alpha": "0.1", "lambda": "0.1"})
    exact = derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
    assert h.matrix.shape == (9, 9) and np.isnan(np.diag(h.matrix)).all()
    for (i, j) in exact.task.trials:
        assert h.matrix[i - 1, j - 1] == float(exact.f(i, j))
    # conventions' reference values, row = first item
    assert h.matrix[5, 3] == pytest.approx(5509 / 7850) and h.matrix[2, 5] == pytest.approx(-387 / 3925)
    assert {(i + 1, j + 1) for i, j in zip(*np.nonzero(h.wrong), strict=True)} == set(exact.errors)
    assert {(i + 1, j + 1) for i, j in zip(*np.nonzero(h.training), strict=True)} == set(exact.task.training_targets)
    assert {(i + 1, j + 1) for i, j in zip(*np.nonzero(h.exception), strict=True)} == {(6, 4), (4, 6)}
    assert h.cycle_items == (4, 5, 6)
    assert not h.matrix.flags.writeable


def test_heatmap_margin_and_p_first():
    r = derive(6, ["5>2"], parameters={"alpha": "1/5"}, ridge=1)
    m = P.heatmap_data(r, quantity="margin")
    p = P.heatmap_data(r, quantity="p_first", temperature=0.5)
    for (i, j) in r.task.trials:
        g = r.task.ground_truth((i, j))
        if g is None:
            assert np.isnan(m.matrix[i - 1, j - 1]) and m.no_ground_truth[i - 1, j - 1]
        else:
            assert m.matrix[i - 1, j - 1] == pytest.approx(g * float(r.f(i, j)))
        assert p.matrix[i - 1, j - 1] == pytest.approx(1 / (1 + math.exp(-2 * float(r.f(i, j)))))
    assert m.matrix[0, 5] == pytest.approx(35 / 79)  # f(1, 6), conventions


def test_heatmap_needs_values(base):
    with pytest.raises(ParameterError, match="still depends on alpha, lambda"):
        P.heatmap_data(base)
    with pytest.raises(ParameterError, match="quantity"):
        P.heatmap_data(base, {"alpha": 0, "lambda": 1}, quantity="p")


# ------------------------------------------------------------------ phase diagram
@pytest.fixture(scope="module")
def phase_small(base):
    return P.phase_data(base, resolution=(30, 24))


def test_phase_regions_match_exact_signs(base, phase_small):
    ph = phase_small
    assert ph.x_name == "alpha" and ph.y_name == "lambda" and ph.y_log and not ph.x_log
    assert ph.region.shape == (24, 30) and ph.x.min() > 0 and ph.x.max() < 1
    rng = np.random.default_rng(0)
    cells = [(int(rng.integers(24)), int(rng.integers(30))) for _ in range(5)] + [(0, 0), (23, 29), (0, 29)]
    for iy, ix in cells:
        point = {"alpha": sp.Rational(float(ph.x[ix])), "lambda": sp.Rational(float(ph.y[iy]))}
        exact = base.subs(point)
        em = exact.f(6, 4)
        trans = exact.transitive_margins
        assert bool(ph.memorized[iy, ix]) == bool(em > 0)
        assert bool(ph.generalizes[iy, ix]) == all(m > 0 for m in trans.values())
        assert ph.region[iy, ix] == 2 * bool(em > 0) + all(m > 0 for m in trans.values())
        worst = min(trans, key=lambda t: trans[t])
        if trans[worst] < 0:
            assert worst in ph.groups[ph.first_failure[iy, ix]]
        else:
            assert ph.first_failure[iy, ix] == -1


def test_phase_critical_curves_are_exact(base, phase_small):
    """On each transitive curve the margins of its trials vanish (mpmath at 50 digits, exact closed forms), and
    the first-failure curve reaches the ridgeless critical conjunctivity (4 - sqrt(13))/3 as lambda -> 0."""
    curves = [c for c in phase_small.curves if c.kind == "transitive"]
    assert curves
    first = next(c for c in curves if (3, 6) in c.trials)
    assert set(first.trials) == {(3, 6), (4, 7), (6, 3), (7, 4)}
    for c in curves[:3]:
        ok = np.nonzero(np.isfinite(c.x) & (c.y > 1e-3) & (c.y < 10))[0]
        for k in ok[:: max(1, len(ok) // 4)][:4]:
            t = c.trials[0]
            with mpmath.workdps(50):
                sub = {s: sp.Rational(float(v)) for s, v in zip(base.free_symbols, (c.x[k], c.y[k]), strict=True)}
                val = sp.N(base.margin(*t).xreplace(sub), 30)
            assert abs(float(val)) < 1e-9, (t, c.x[k], c.y[k])
    k0 = np.nanargmin(np.where(first.y > 0, first.y, np.nan))
    ridgeless = (4 - math.sqrt(13)) / 3
    assert abs(first.x[k0] - ridgeless) < 1e-3 * (1 + 1 / max(first.y[k0], 1e-12)) * first.y[k0] + 2e-3
    assert phase_small.groups[phase_small.first_failure[0, -1]] == first.trials or \
        set(first.trials) <= set(phase_small.groups[phase_small.first_failure[0, -1]])


def test_phase_from_numeric_result_and_generic_points():
    """A numeric result is solved again with the scanned parameters free. In the (alpha, kappa_d) plane there is
    no closed-form curve: exact critical points per row are given, and the margin vanishes there."""
    r = derive(7, ["5>3"], parameters={"alpha": "1/10"}, ridge="1/10")
    ph = P.phase_data(r, "alpha", "kappa_d", resolution=(12, 6), curve_rows=2)
    assert ph.curves
    assert ph.x_name == "alpha" and ph.y_name == "kappa_d" and not ph.y_log
    assert "Critical points" in ph.note
    free = derive(7, ["5>3"], parameters={"kappa_d": "symbolic"}, ridge="1/10")
    for c in ph.curves:
        assert c.exact == "points"
        for x, y in zip(c.x, c.y, strict=True):
            m = free.margin(*c.trials[0]).subs({S.alpha: sp.Rational(x), S.kappa_d: sp.Rational(y)})
            assert abs(float(m)) < 1e-9


def test_phase_errors(base):
    with pytest.raises(ParameterError, match="different parameters"):
        P.phase_data(base, "alpha", "alpha")
    with pytest.raises(ParameterError, match="not a parameter"):
        P.phase_data(base, "alpha", "beta")
    with pytest.raises(ParameterError, match="cannot also be set"):
        P.phase_data(base, values={"alpha": 0.1})
    with pytest.raises(ParameterError, match="range"):
        P.phase_data(base, x_range=(1, 0))


# ------------------------------------------------------------------ curves
def test_curve_markers_are_the_exact_critical_values(base):
    cd = P.curve_data(base, "alpha", values={"lambda": "1/10"}, resolution=60)
    assert cd.parameter == "alpha" and cd.x.max() < 1
    values = {str(m.value) for m in cd.markers}
    assert str(sp.Rational(4, 15)) in values  # cross_section at lambda = 1/10 (docs/lm_hierarchies.md)
    first = next(m for m in cd.markers if m.series == "min one_in_cycle")
    assert sp.simplify(first.value - (41 - 11 * sp.sqrt(13)) / 30) == 0 and first.direction == "to_error"
    assert set(first.trials) >= {(3, 6)}
    exact = base.subs({"lambda": sp.Rational(1, 10)})
    series = {s.label: s for s in cd.series}
    for k in (0, 17, len(cd.x) - 1):
        a = sp.Rational(float(cd.x[k]))
        ms = [exact.margin(*t).subs(S.alpha, a) for t in series["min one_in_cycle"].trials]
        assert series["min one_in_cycle"].margin[k] == pytest.approx(float(min(ms)), rel=1e-12, abs=1e-15)


def test_curve_trials_and_ridge_axis(base):
    cd = P.curve_data(base, "lambda", [(3, 6), (6, 4)], values={"alpha": "0.1"}, resolution=40)
    assert cd.log and [s.label for s in cd.series] == ["(3, 6)", "(6, 4)"]
    exact = derive(9, ["6>4"], parameters={"alpha": "1/10"})
    lam = sp.Rational(float(cd.x[5]))
    assert cd.series[1].margin[5] == pytest.approx(float(exact.f(6, 4).subs(S.ridge, lam)), rel=1e-12)
    with pytest.raises(TaskError, match="no ground truth"):
        P.curve_data(derive(6, ["5>2"], ridge=1), "alpha", [(2, 4)])


# ------------------------------------------------------------------ files
@pytest.fixture(scope="module")
def figures(base, phase_small):
    return {"heatmap": P.heatmap(base, {"alpha": 0.1, "lambda": 0.1}), "phase": P.phase(phase_small),
            "curve": P.curve(base, "alpha", values={"lambda": 0.1}, resolution=50, critical=False)}


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
def test_figures_are_written(tmp_path, figures, suffix):
    for name, fig in figures.items():
        out = P.save_figure(fig, tmp_path / f"{name}{suffix}", dpi=60)
        data = out.read_bytes()
        assert data.startswith(MAGIC[suffix]) and len(data) > 5000, name
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_save_figure_errors(tmp_path, base):
    fig = P.heatmap(derive(4, parameters={"alpha": 0}, ridge=1))
    with pytest.raises(ExportError, match="unknown figure format '.jpg'"):
        P.save_figure(fig, tmp_path / "x.jpg")
    with pytest.raises(ExportError, match="does not exist"):
        P.save_figure(fig, tmp_path / "missing" / "x.png")


# ------------------------------------------------------------------ CLI
def _run(capsys, args):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_writes_each_kind(tmp_path, capsys):
    cases = {
        "h.png": ["heatmap", "--items", "6", "-e", "5>2", "--set", "alpha=0.2", "--ridge", "1", "--quantity",
                  "margin"],
        "p.svg": ["phase", "--items", "6", "-e", "5>2", "--resolution", "20,16"],
        "c.pdf": ["curve", "--items", "6", "-e", "5>2", "--ridge", "0.1", "--trial", "1,6", "--resolution", "50"],
    }
    for name, args in cases.items():
        path = tmp_path / name
        code, out, err = _run(capsys, ["plot", *args, "--output", str(path)])
        assert code == 0, err
        assert out.startswith(f"wrote {path}") and err == ""
        assert path.read_bytes().startswith(MAGIC[path.suffix]) and path.stat().st_size > 5000


@pytest.mark.parametrize("args, option, text", [
    (["--output", "{tmp}/x.jpg"], "--output", "unknown figure format '.jpg'"),
    (["--output", "{tmp}/missing/x.png"], "--output", "does not exist"),
    (["--output", "{tmp}/x.png", "--ridge", "0.1"], "--set", "alpha=VALUE"),
    (["--output", "{tmp}/x.png", "--set", "alpha=0.1"], "--ridge", "ridge is symbolic"),
])
def test_cli_errors(tmp_path, capsys, args, option, text):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, out, err = _run(capsys, ["plot", "heatmap", "--items", "5", *args])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"argument {option}" in err and text in err
    assert list(tmp_path.iterdir()) == []


def test_cli_phase_conflicts(tmp_path, capsys):
    code, _, err = _run(capsys, ["plot", "phase", "--items", "5", "--ridge", "1", "-o", str(tmp_path / "p.png")])
    assert code == 2 and "scans the ridge" in err
    code, _, err = _run(capsys, ["plot", "phase", "--items", "5", "--set", "alpha=0.1", "-o",
                                 str(tmp_path / "p.png")])
    assert code == 2 and "scans alpha" in err


def test_cli_unwritable_directory(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        if __import__("os").access(ro, __import__("os").W_OK):
            pytest.skip("running with permissions that ignore directory modes")
        code, _, err = _run(capsys, ["plot", "heatmap", "--items", "4", "--set", "alpha=0", "--ridge", "1",
                                     "-o", str(ro / "h.png")])
        assert code == 2 and "not writable" in err
    finally:
        ro.chmod(0o755)


def test_cli_missing_matplotlib(tmp_path, capsys, monkeypatch):
    for mod in [m for m in list(sys.modules) if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, mod, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    path = tmp_path / "h.png"
    code, out, err = _run(capsys, ["plot", "heatmap", "--items", "4", "--set", "alpha=0", "--ridge", "1",
                                   "-o", str(path)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert 'pip install "symbolic-ti[plot]"' in err and "Traceback" not in err
    assert not path.exists()
    with pytest.raises(ExportError, match=r"symbolic-ti\[plot\]"):
        P.heatmap(derive(4, parameters={"alpha": 0}, ridge=1))


def test_core_imports_without_matplotlib():
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "import symbolic_ti, symbolic_ti.numeric.grid, symbolic_ti.figures.plot, symbolic_ti.cli.plot\n"
            "import symbolic_ti.figures.fit, symbolic_ti.cli.fit, symbolic_ti.export.fit\n"
            "from symbolic_ti.cli import build_parser; build_parser()\n"
            "r = symbolic_ti.derive(4, parameters={'alpha': 0}, ridge=1)\n"
            "h = symbolic_ti.figures.plot.heatmap_data(r); print(round(h.matrix[0, 3] * 7, 9))\n"
            "assert 'matplotlib' not in [m for m in sys.modules if sys.modules[m] is not None]\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "5.0"
