"""A step in a gated metric, told once on the lane's performance issue: through the real client
against the local GitHub server, with the window's commits from a real git repository."""

import pytest
from git_repos import source_repo
from github_server import REPO, TINY, TOKEN, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing

from canary.git import commits_between
from canary.notify import notify
from canary.notify.facts import facts_for
from canary.notify.model import Facts
from canary.notify.performance import LABEL, StepNote, announced, issue_marker
from canary.notify.tracker import LABEL as FAILURE_LABEL
from tests.perf_records import LOOSE_GATES, run, stepped

NEW = {"jax": "0.10.1", "jaxlib": "0.10.1", "python": "3.11.7"}


@pytest.fixture
def repo(tmp_path):
    return source_repo(
        tmp_path / "src",
        [
            ("README.md", "docs: start"),
            ("README.md", "docs: a typo"),
            ("canary/workload/model.py", "model: fuse the router's softmax"),
        ],
    )


def _history(shas, n=45, at=35, size=-0.06, seed=0):
    """Daily passing cpu runs; from run ``at`` on, 6% slower, at the model commit, with a new jax."""
    x = stepped(n, at, size, seed=seed)
    return [
        run(i, tokens=float(v), commit=shas[2] if i >= at else shas[0], versions=NEW if i >= at else None)
        for i, v in enumerate(x)
    ]


def _after_each_run(client, records, root, start=1):
    """Notify after each run, as `canary run --notify` does; the runs at which something was posted."""
    told = []
    for n in range(start, len(records) + 1):
        facts = facts_for(records[n - 1], records[:n], commits=lambda g, b: commits_between(g, b, str(root)))
        res = notify(records[n - 1], facts, repo=REPO, client=client)
        assert res.delivered
        if any(a.kind in ("opened", "commented") for a in res.deliveries[0].actions):
            told.append(n - 1)
    return told


def test_a_step_is_told_once_within_5_runs_on_the_lanes_performance_issue(github, client, spool_dir, repo):
    root, shas = repo
    records = _history(shas)
    told = _after_each_run(client, records, root)
    assert len(told) == 1 and 35 <= told[0] <= 35 + 5, told
    [issue] = github.state.issues()
    assert [lb["name"] for lb in issue["labels"]] == [LABEL]
    assert issue["title"] == "[canary-cpu] performance: steps in the moe-canary ferry's passing runs"
    body = issue["body"]
    assert body.splitlines()[0] == issue_marker("cpu", "moe-canary")
    assert announced([body]) == {("throughput", records[35].run_id)}
    assert "**A step in the cpu canary's passing runs** (ferry `moe-canary`), found after its run" in body
    assert f"### throughput: -5.5% from run `{records[35].run_id}` (2026-10-06)" in body
    assert "**throughput** fell 5.5%, worse: from 11,968 tokens/s to 11,305 tokens/s" in body
    assert f"the run before it, `{records[34].run_id}` at `{shas[0][:12]}`" in body
    assert f"**watched** `{shas[2][:12]}` model: fuse the router's softmax" in body
    assert f"`{shas[1][:12]}` docs: a typo" in body and "docs: start" not in body  # the window is shas[0]..shas[2]
    assert "- jax: `0.10.0` → `0.10.1`" in body
    assert github.state.comments(issue["number"]) == []

    # told again (a rerun of the notify, a later run): nothing more
    writes = len(github.state.writes())
    assert _after_each_run(client, records, root, start=len(records)) == []
    assert len(github.state.writes()) == writes


def test_a_second_step_is_a_comment_and_failures_keep_their_own_issues(github, client, spool_dir, repo):
    root, shas = repo
    records = _history(shas, n=40)
    _after_each_run(client, records, root)
    back = stepped(25, 0, 0.0, level=12_000.0 * 1.04, seed=9)  # then 4% faster than before the drop (+10%)
    records += [run(40 + i, tokens=float(v), commit=shas[2], versions=NEW) for i, v in enumerate(back)]
    told = _after_each_run(client, records, root, start=41)
    assert len(told) == 1 and told[0] <= 45
    [issue] = github.state.issues()
    [comment] = github.state.comments(issue["number"])
    assert announced([comment["body"]]) == {("throughput", records[40].run_id)}
    assert "better" in comment["body"] and "0 commits between" in comment["body"]

    notify(failing(), Facts(), repo=REPO, client=client)  # a failure opens a failure issue, not a comment here
    failures = [i for i in github.state.issues() if any(lb["name"] == FAILURE_LABEL for lb in i["labels"])]
    assert len(failures) == 1 and failures[0]["number"] != issue["number"]
    assert len(github.state.comments(issue["number"])) == 1
    assert not any(lb["name"] == LABEL for lb in failures[0]["labels"])


def test_a_step_in_an_ungated_metric_is_not_told(github, client, spool_dir, repo):
    root, shas = repo
    records = [run(i, tokens=float(v), gates=LOOSE_GATES, commit=shas[0]) for i, v in enumerate(stepped(45, 35, -0.1))]
    assert _after_each_run(client, records, root) == []
    assert github.state.issues() == []


def test_the_step_note_survives_the_spool_round_trip(repo):
    root, shas = repo
    records = _history(shas)

    def facts(n):
        return facts_for(records[n - 1], records[:n], commits=lambda g, b: commits_between(g, b, str(root)))

    notes = next(f.steps for n in range(36, 46) if (f := facts(n)).steps)
    facts = Facts(steps=notes, program="same program as the last pass")
    back = Facts.from_dict(facts.to_dict())
    assert back.steps == notes and isinstance(back.steps[0], StepNote) and back.program == facts.program
