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
    """Clone at .../cold, XDG_CACHE_HOME=.../cold-cache: the reader's environment is accepted."""
    repo, venv = cold_clone
    monkeypatch.setenv("PATH", os.pathsep.join([str(repo / ".venv" / "bin"), "/usr/bin"]))
    env = reader_env(venv)
    assert env["VIRTUAL_ENV"] == str(venv.path)
    assert env["XDG_CACHE_HOME"].endswith("cold-cache")
    assert env["PATH"].split(os.pathsep) == [str(venv.path / "bin"), "/usr/bin"], "the clone's bin stays out of PATH"


def test_a_variable_pointing_into_the_clone_is_refused(cold_clone, monkeypatch):
    """The guard still fires for a real leak: a variable whose value is a path inside the clone."""
    repo, venv = cold_clone
    monkeypatch.setenv("SOME_TOOL_HOME", str(repo / "tools"))
    with pytest.raises(AssertionError, match="point into the repository.*SOME_TOOL_HOME"):
        reader_env(venv)
