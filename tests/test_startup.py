"""Start-up of ``import symbolic_ti`` and of the command line (issue 18, point 5): what gets imported.

``import symbolic_ti`` imports its public names on first use and the renderers of :mod:`symbolic_ti.export` on
the first render, so a fresh interpreter that only imports the package, or runs ``symbolic-ti --version`` or
``symbolic-ti families``, must not import the numeric, plotting, fitting or data stacks. Checked on
``sys.modules`` of fresh subprocesses (``derive`` of a small task, text output, too; no timing: benchmarks/bench_startup.py measures the time). Rendering a
result after the lazy import must give exactly what a process that imported every renderer eagerly gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import symbolic_ti
from symbolic_ti import display

ROOT = Path(__file__).resolve().parents[1]

#: Third-party packages that neither ``import symbolic_ti`` nor ``families`` may import.
HEAVY = ("numpy", "matplotlib", "scipy", "pandas", "pyarrow", "dask")


def _run(code: str) -> dict:
    """Run ``code`` in a fresh interpreter with this tree's package first on the path; its last stdout line,
    read as JSON."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("SYMBOLIC_TI_DEBUG", None)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


_LOADED = f"sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY + ('sympy',))!r})"


def test_import_and_families_command_load_no_heavy_stack():
    out = _run(f"""
        import contextlib, io, json, sys
        import symbolic_ti
        assert symbolic_ti.__file__.startswith({str(ROOT)!r}), symbolic_ti.__file__
        loaded = {{"import": {_LOADED}}}
        from symbolic_ti.cli import main
        for argv in (["--version"], ["families"], ["families", "--format", "json"], ["derive", "-n", "5", "-e", "4>2"]):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                code = main(argv)
            assert code == 0, (argv, code)
            loaded[" ".join(argv)] = {_LOADED}
            if argv[0] == "families" and len(argv) == 3:
                text = buf.getvalue()
        assert {{f["name"] for f in json.loads(text)["families"]}} >= {{"exchangeable", "similarity", "embedding"}}
        print(json.dumps(loaded))
    """)
    # sympy too is left out by the import and --version (the parser imports no value parser's dependencies)
    assert out == {"import": [], "--version": [], "families": ["sympy"], "families --format json": ["sympy"],
                   "derive -n 5 -e 4>2": ["sympy"]}


def test_families_command_output_is_unchanged_by_the_lazy_imports():
    """``families`` in a fresh process (nothing imported but what the command needs) equals ``families`` here,
    where this test session has imported numpy and every renderer."""
    from symbolic_ti.cli import main
    import contextlib
    import io

    import numpy  # noqa: F401  (the eager state)
    import symbolic_ti.export  # noqa: F401

    expected = {}
    for fmt in ("text", "json"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["families", "--format", fmt]) == 0
        expected[fmt] = buf.getvalue()
    out = _run("""
        import contextlib, io, json
        from symbolic_ti.cli import main
        got = {}
        for fmt in ("text", "json"):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                assert main(["families", "--format", fmt]) == 0
            got[fmt] = buf.getvalue()
        print(json.dumps(got))
    """)
    assert out == expected


def test_rendering_after_the_lazy_import_equals_the_eager_rendering():
    """Text, LaTeX, JSON and the notebook hooks of a result and of a critical report, rendered in a fresh process
    where the renderers load on first use, equal the same renderings in this process (renderers imported)."""
    import symbolic_ti.export  # noqa: F401  (every renderer registered, as before the lazy import)

    def renders(result, report):
        return {"text": result.to_text(), "latex": result.to_latex(), "json": result.to_json(),
                "repr_latex": result._repr_latex_(), "repr_html": result._repr_html_(), "str": str(result),
                "report_text": report.to_text(), "report_json": report.to_json()}

    result = symbolic_ti.derive(5, ["4>2"], parameters={"alpha": "1/3"})
    report = symbolic_ti.critical_values(result, "lambda")
    expected = renders(result, report)
    out = _run("""
        import json, sys
        import symbolic_ti
        from symbolic_ti import critical_values, derive
        result = derive(5, ["4>2"], parameters={"alpha": "1/3"})
        report = critical_values(result, "lambda")
        before = "symbolic_ti.export" in sys.modules
        out = {"text": result.to_text(), "latex": result.to_latex(), "json": result.to_json(),
               "repr_latex": result._repr_latex_(), "repr_html": result._repr_html_(), "str": str(result),
               "report_text": report.to_text(), "report_json": report.to_json()}
        out["export imported before the first render"] = before
        print(json.dumps(out))
    """)
    assert out.pop("export imported before the first render") is False
    # the JSON holds the creation time and the seconds the derivation took; compare the rest
    for key in ("json", "report_json"):
        got, want = _untimed(json.loads(out.pop(key))), _untimed(json.loads(expected.pop(key)))
        assert got == want, key
    assert out == expected
    assert "\\frac" in out["latex"] or "\\dfrac" in out["latex"]


def _untimed(value):
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in ("created", "seconds")}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def test_every_public_name_imports_lazily_and_deprecated_paths_never_replace_functions():
    out = _run("""
        import importlib, json, sys, warnings
        import symbolic_ti
        warnings.simplefilter("ignore", DeprecationWarning)
        import symbolic_ti.critical, symbolic_ti.solve, symbolic_ti.verify  # old module paths, imported first
        kinds = {name: type(getattr(symbolic_ti, name)).__name__ for name in ("critical", "solve", "verify")}
        ns = {}
        exec("from symbolic_ti import *", ns)
        missing = [n for n in symbolic_ti.__all__ if n not in ns]
        same = all(ns[n] is getattr(symbolic_ti, n) for n in symbolic_ti.__all__)
        print(json.dumps({"kinds": kinds, "missing": missing, "same": same,
                          "module": symbolic_ti.critical.__module__,
                          "subpackage": type(symbolic_ti.export.latex).__name__}))
    """)
    assert out == {"kinds": {"critical": "function", "solve": "function", "verify": "function"}, "missing": [],
                   "same": True, "module": "symbolic_ti.api", "subpackage": "module"}


def test_every_public_name_is_the_object_of_its_module():
    """Each name of ``__all__`` is the object its defining module exports (what the eager import bound)."""
    from symbolic_ti.analysis.crossings import CriticalReport, critical_values
    from symbolic_ti.api import critical, derive
    from symbolic_ti.dynamics import dynamics
    from symbolic_ti.families import FAMILIES
    from symbolic_ti.solvers.dispatch import solve
    from symbolic_ti.task import Task

    assert symbolic_ti.derive is derive and symbolic_ti.critical is critical and symbolic_ti.solve is solve
    assert symbolic_ti.critical_values is critical_values and symbolic_ti.CriticalReport is CriticalReport
    assert symbolic_ti.learning_dynamics is dynamics and symbolic_ti.FAMILIES is FAMILIES
    assert symbolic_ti.Task is Task and isinstance(symbolic_ti.symbols, types.ModuleType)
    assert set(symbolic_ti.__all__) <= set(dir(symbolic_ti))
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        symbolic_ti.no_such_name  # noqa: B018
    # a deprecated path is an attribute only once imported, as before (in a fresh interpreter: another test of
    # the session may have imported it)
    assert _run("""
        import json, symbolic_ti
        before = hasattr(symbolic_ti, "grid")
        import symbolic_ti.grid
        print(json.dumps([before, hasattr(symbolic_ti, "grid")]))
    """) == [False, True]


def test_renderer_modules_are_listed_and_ordered_so_that_no_subclass_is_shadowed():
    """Every module of ``export/`` that registers a renderer is in ``RENDERER_MODULES``; imported in that order (as
    lookups that miss import them), no module registers a renderer for a base class of a type whose own renderer
    of the same format comes from a later module (the lookup would stop at the base class's)."""
    from symbolic_ti.export import RENDERER_MODULES

    registering = sorted(p.stem for p in (ROOT / "symbolic_ti" / "export").glob("*.py")
                         if "renderer(" in p.read_text(encoding="utf-8"))
    assert set(registering) <= set(RENDERER_MODULES), set(registering) - set(RENDERER_MODULES)
    out = _run("""
        import importlib, json
        from symbolic_ti import display
        from symbolic_ti.export import RENDERER_MODULES
        step = {}
        for k, module in enumerate(RENDERER_MODULES):
            importlib.import_module(f"symbolic_ti.export.{module}")
            for key in display._RENDERERS:
                step.setdefault(key, k)
        bad = [f"{fmt} {sub.__name__} (module {step[fmt, sub]}) after {base.__name__} (module {step[fmt, base]})"
               for (fmt, sub) in step for (fmt2, base) in step
               if fmt2 == fmt and sub is not base and issubclass(sub, base) and step[fmt, sub] > step[fmt, base]]
        print(json.dumps({"bad": bad, "registered": len(step)}))
    """)
    assert out["bad"] == [] and out["registered"] > 60


def test_renderers_from_imports_the_module_on_the_first_miss_only(tmp_path, monkeypatch):
    class Shown(display.Rendered):
        pass

    module = tmp_path / "st_fake_renderers.py"
    monkeypatch.syspath_prepend(str(tmp_path))
    marker = types.ModuleType("test_marker")
    monkeypatch.setitem(sys.modules, "test_marker", marker)
    # the fake module registers a renderer for Shown when imported (it gets the class through the marker)
    module.write_text(textwrap.dedent("""
        from symbolic_ti.display import renderer
        import test_marker
        test_marker.imports = getattr(test_marker, "imports", 0) + 1
        renderer("text", test_marker.cls)(lambda obj: "shown")
    """), encoding="utf-8")
    marker.cls = Shown
    monkeypatch.delitem(sys.modules, "st_fake_renderers", raising=False)
    display.renderers_from("st_fake_renderers")
    display.renderers_from("st_fake_renderers")  # named twice: imported once
    try:
        assert Shown().to_text() == "shown"
        assert marker.imports == 1
        with pytest.raises(symbolic_ti.ExportError, match="no latex renderer"):
            Shown().to_latex()  # a miss with nothing pending left: the error as before
        assert marker.imports == 1
    finally:
        for key in [k for k in display._RENDERERS if k[1] is Shown]:
            del display._RENDERERS[key]
