"""The reader's environment (tests/support/reader_venv.py) is judged by paths, not by text.

``reader_env`` refuses an environment that would point into the repository (a reader's shell
never does). It tested ``str(REPO) in value``: with the clone at ``/x/cold`` and
``XDG_CACHE_HOME=/x/cold-cache`` (where the reader virtualenv lives) every copy-paste page errored
(issue 39). These tests need no reader virtualenv: the venv's folder is only a path here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import reader_venv
from tests.support.reader_venv import ReaderVenv, points_into, reader_env

COLD = Path("/x/cold")


@pytest.mark.parametrize(
    "value,inside",
    [
        pytest.param("/x/cold-cache/pytorch-precision-guide/reader-0123", False, id="sibling-sharing-the-prefix"),
        pytest.param("/x/cold-cache", False, id="sibling-itself"),
        pytest.param("/x/colder/bin" + os.pathsep + "/usr/bin", False, id="path-list-outside"),
        pytest.param("/x/cold", True, id="the-repository"),
        pytest.param("/x/cold/.venv/bin", True, id="inside"),
        pytest.param("/usr/bin" + os.pathsep + "/x/cold/.venv/bin", True, id="second-entry-of-a-path-list"),
        pytest.param("/x/cold-cache/../cold/docs", True, id="dot-dot-back-inside"),
        pytest.param("--config=/x/cold/setup.cfg", True, id="option-value"),
        pytest.param("x/cold/relative", False, id="relative-is-no-place"),
        pytest.param("1", False, id="a-number"),
        pytest.param("", False, id="empty"),
    ],
)
def test_points_into_compares_paths(value, inside):
    """/x/cold-cache is not inside /x/cold; an entry of a path list inside it is."""
    assert points_into(value, COLD) is inside


def test_a_symlink_into_the_repository_points_into_it(tmp_path):
    """Resolved paths: a link elsewhere whose target is inside the repository counts as inside."""
    repo = tmp_path / "cold"
    (repo / "bin").mkdir(parents=True)
    (tmp_path / "link").symlink_to(repo / "bin")
    assert points_into(str(tmp_path / "link"), repo)
    assert not points_into(str(tmp_path / "cold-cache"), repo)


@pytest.fixture
def cold_clone(tmp_path, monkeypatch):
    """A clone at <tmp>/cold and the shared cache at <tmp>/cold-cache (no virtualenv is created)."""
    repo, cache = tmp_path / "cold", tmp_path / "cold-cache"
    repo.mkdir()
    monkeypatch.setattr(reader_venv, "REPO", repo)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return repo, ReaderVenv(cache / "pytorch-precision-guide" / "reader-0123456789abcdef")


def test_a_cache_beside_the_clone_with_the_same_prefix_is_no_leak(cold_clone, monkeypatch):
    """Clone at .../cold, XDG_CACHE_HOME=.../cold-cache: the reader's environment is accepted, and a PATH
    entry beside the clone that shares its prefix (.../cold-cache/tools/bin, .../colder/bin) stays on
    the reader's PATH (a string-prefix filter dropped it: independent review, 2026-11-29)."""
    repo, venv = cold_clone
    beside = [str(repo.parent / "cold-cache" / "tools" / "bin"), str(repo.parent / "colder" / "bin")]
    monkeypatch.setenv("PATH", os.pathsep.join([str(repo / ".venv" / "bin"), *beside, "/usr/bin"]))
    env = reader_env(venv)
    assert env["VIRTUAL_ENV"] == str(venv.path)
    assert env["XDG_CACHE_HOME"].endswith("cold-cache")
    assert env["PATH"].split(os.pathsep) == [str(venv.path / "bin"), *beside, "/usr/bin"], "the clone's bin stays out of PATH"


def test_the_path_filter_drops_the_clone_and_the_tools_however_spelled(cold_clone, monkeypatch):
    """PATH entries inside the clone, and the project's own bin (here outside the clone), are dropped
    whatever their spelling: a trailing slash, a /./, a .. back in, a link; the rest stays, in order."""
    import sys

    repo, venv = cold_clone
    tools = Path(sys.executable).parent
    assert not points_into(str(tools), repo)  # the test's clone is a folder of tmp_path
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo.parent / "link-to-bin").symlink_to(repo / ".venv" / "bin")
    dropped = [f"{repo}/.venv/bin/", f"{repo}/./.venv/bin", f"{repo.parent}/cold-cache/../cold/.venv/bin",
               str(repo.parent / "link-to-bin"), f"{tools}/", f"{tools}/."]
    kept = [str(repo.parent / "cold-cache" / "bin"), "/usr/local/bin", "/usr/bin"]
    monkeypatch.setenv("PATH", os.pathsep.join([dropped[0], kept[0], *dropped[1:], *kept[1:]]))
    assert reader_env(venv)["PATH"].split(os.pathsep) == [str(venv.path / "bin"), *kept]


def _text_comparisons(source: str) -> list[str]:
    """The comparisons in ``source`` that compare a path as text: a prefix, suffix or substring test, or
    an equality, with ``str(...)`` / ``os.fspath(...)`` of something or a name bound to one."""
    import ast

    tree = ast.parse(source)

    def is_str_call(node) -> bool:
        return isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Name) and node.func.id == "str")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "fspath"))

    text_names = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and is_str_call(node.value)
                  for t in node.targets if isinstance(t, ast.Name)}

    def is_path_text(node) -> bool:
        return is_str_call(node) or (isinstance(node, ast.Name) and node.id in text_names)

    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith", "removeprefix", "removesuffix", "find", "index", "count")
                and (is_path_text(node.func.value) or any(is_path_text(a) for a in node.args))):
            found.append(ast.get_source_segment(source, node))
        elif (isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)) for op in node.ops)
              and any(is_path_text(side) for side in [node.left, *node.comparators])):
            found.append(ast.get_source_segment(source, node))
    return found


def test_the_guard_compares_no_path_as_text():
    """Read from tests/support/reader_venv.py: no path is compared as text; paths are compared by
    points_into and same_place, resolved. Each text comparison let a sibling of the clone that shares
    its prefix through, dropped it from the reader's PATH, or kept the project's bin spelled another way
    (issue 39; independent review, 2026-11-29)."""
    found = _text_comparisons(Path(reader_venv.__file__).read_text(encoding="utf-8"))
    assert not found, "paths compared as text (use points_into or same_place):\n  " + "\n  ".join(found)


@pytest.mark.parametrize("code,text", [
    pytest.param("ok = p.startswith(str(REPO))", True, id="startswith"),
    pytest.param("ok = str(REPO) in v", True, id="substring"),
    pytest.param("ok = os.fspath(root) == p", True, id="equality-with-fspath"),
    pytest.param("tools = str(Path(x).parent)\nok = [p for p in path if p != tools]", True, id="equality-with-a-name"),
    pytest.param("ok = Path(p).resolve().is_relative_to(root)", False, id="paths"),
    pytest.param("ok = k.startswith(('PYTHON', 'VIRTUAL_ENV'))", False, id="a-variable-name"),
    pytest.param("ok = other == keep", False, id="path-objects"),
])
def test_the_text_comparison_reader(code, text):
    """The source check above finds what it is for, and only that."""
    assert bool(_text_comparisons(code)) == text, _text_comparisons(code)
