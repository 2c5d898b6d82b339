"""The docs tools: the griffe extension that renders the docstrings' Sphinx roles as cross-references
(tools/griffe_sphinx_roles.py) and the docs gate's check for roles left literal in the built site
(tools/check_site_roles.py). Checked on small cases written by hand, without building the site."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import check_site_roles  # noqa: E402


@pytest.fixture(scope="module")
def roles():
    """The extension module (griffe comes with the docs tools of ``.[dev]``, not with ``.[test]``)."""
    pytest.importorskip("griffe")
    import griffe_sphinx_roles

    return griffe_sphinx_roles


@pytest.fixture(scope="module")
def package(roles):
    import griffe

    return griffe.load("symbolic_ti", search_paths=[str(ROOT)],
                       extensions=griffe.load_extensions(roles.SphinxRoles()))


def _ref(path: str, shown: str) -> str:
    return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'


@pytest.mark.parametrize("where, role, expected", [
    ("api", ":func:`~symbolic_ti.solvers.dispatch.solve`", _ref("symbolic_ti.solvers.dispatch.solve", "solve")),
    ("api", ":class:`symbolic_ti.task.Task`", _ref("symbolic_ti.task.Task", "symbolic_ti.task.Task")),
    ("api", ":func:`~symbolic_ti.display.\n    renderers_from`", _ref("symbolic_ti.display.renderers_from",
                                                                "renderers_from")),
    ("analysis", ":mod:`.roots`", _ref("symbolic_ti.analysis.roots", "roots")),
    ("analysis.crossings", ":mod:`.roots`", _ref("symbolic_ti.analysis.roots", "roots")),
    ("datasets.example_data", ":data:`EXAMPLE_DATA`", _ref("symbolic_ti.datasets.EXAMPLE_DATA", "EXAMPLE_DATA")),
    ("api", ":func:`the solver <symbolic_ti.solvers.dispatch.solve>`",
     _ref("symbolic_ti.solvers.dispatch.solve", "the solver")),
    ("api", ":class:`argparse.Namespace`", "`argparse.Namespace`"),  # outside the package: code, no link
    ("api", ":class:`DeprecationWarning`", "`DeprecationWarning`"),
    ("api", ":func:`!derive`", "`derive`"),
])
def test_roles_become_cross_references(roles, package, where, role, expected, caplog):
    obj = package[where]
    assert roles._rewrite(obj, package, f"see {role}.") == f"see {expected}."
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


def test_a_role_naming_nothing_in_the_package_is_a_warning(roles, package, caplog):
    text = roles._rewrite(package["api"], package, ":func:`symbolic_ti.no_such_function`")
    assert text == "`symbolic_ti.no_such_function`"
    assert any("names symbolic_ti.no_such_function, which does not exist" in r.getMessage()
               for r in caplog.records)


def test_every_docstring_of_the_package_is_rewritten(roles, package):
    import griffe

    left = []

    def walk(obj):
        if obj.docstring is not None:
            left.extend(f"{obj.path}: {m.group(0)}" for m in roles.ROLE.finditer(obj.docstring.value))
        for member in obj.members.values():
            if not isinstance(member, griffe.Alias):
                walk(member)

    walk(package)
    assert not left, left[:10]


@pytest.mark.parametrize("html, found", [
    ("<p>see :class:<code>~a.B</code> here</p>", [":class:~a.B here"]),
    ("<p>see :func:`f` and</p>", [":func:`f` and"]),
    ("<td>:meth:<code>x</code></td>", [":meth:x"]),
    ('<p><span title=":mod:x">t</span> 10:30, 1:2, a ratio:</p>', []),
    ("<p>the data: and :class:</p><p>next</p>", []),
])
def test_the_site_check_finds_literal_roles(html, found):
    assert check_site_roles.literal_roles(html) == found


def test_the_site_check_exits_1_on_a_page_with_a_role(tmp_path, capsys):
    (tmp_path / "ok.html").write_text("<p>fine</p>")
    assert check_site_roles.main([str(tmp_path)]) == 0
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "index.html").write_text("<p>:class:<code>Task</code></p>")
    assert check_site_roles.main([str(tmp_path)]) == 1
    assert "api/index.html: literal Sphinx role" in capsys.readouterr().err
