"""Regression windows from a real shallow clone: canary fetches history until the last pass's
commit is there."""

from __future__ import annotations

import pytest
from git_repos import git as run_git
from git_repos import shallow_clone, source_repo

from canary import git
from canary.errors import ConfigError

COMMITS = [
    ("README.md", "the last pass ran here"),
    ("docs/a.md", "docs"),
    ("canary/workload/model.py", "route tokens differently"),
    ("bench/x.py", "a bench"),
]


@pytest.fixture
def repos(tmp_path):
    src, shas = source_repo(tmp_path / "src", COMMITS)
    return src, shas, shallow_clone(src, tmp_path / "clone")


def test_shallow_clone_is_deepened_until_the_last_pass_is_there(repos):
    _, shas, clone = repos
    assert git.is_shallow(str(clone)) is True and not git.has_commit(shas[0], str(clone))
    with pytest.raises(ConfigError, match="git log"):
        git.commits_between(shas[0], shas[-1], str(clone))  # a plain read cannot answer
    found = git.commits_between(shas[0], shas[-1], str(clone), deepen=True)
    assert [c.sha for c in found] == shas[:0:-1]  # newest first, the last pass excluded
    assert found[1].paths == ["canary/workload/model.py"] and found[1].subject == "route tokens differently"
    assert git.has_commit(shas[0], str(clone))


def test_deepening_tries_the_date_first_then_steps(repos):
    _, shas, clone = repos
    done = git.deepen_to(shas[0], str(clone), since="2026-08-19")
    assert done == ["git fetch --shallow-since=2026-08-19 origin"]
    assert git.deepen_to(shas[0], str(clone)) == []  # already there: nothing fetched
    assert git.has_commit(shas[0], str(clone))


def test_a_commit_that_is_nowhere_is_bad_input(repos):
    _, shas, clone = repos
    with pytest.raises(ConfigError, match="is not in .* even after git fetch --deepen=50 origin"):  # then whole
        git.deepen_to("0" * 40, str(clone))


def test_a_shallow_clone_without_a_remote_says_so(repos):
    _, shas, clone = repos
    run_git(clone, "remote", "remove", "origin")
    assert git.remote(str(clone)) is None and not git.remote_answers(str(clone))
    with pytest.raises(ConfigError, match="shallow clone without a remote"):
        git.deepen_to(shas[0], str(clone))


def test_not_a_checkout(tmp_path):
    assert git.head_commit(str(tmp_path)) is None and git.is_shallow(str(tmp_path)) is None
