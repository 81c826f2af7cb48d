"""A failure whose fingerprint changed only because the folding rules changed still lands on the
issue an earlier canary opened for it: with that canary's history and issue (tests/legacy/, see
its README), through the real client against the local GitHub server."""

import json
from pathlib import Path

from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)

from canary.history import open_store
from canary.notify import notify
from canary.notify.markers import issue_fingerprint
from canary.record import Attempt, RunRecord
from canary.signature import current, extract, gate_signature

HERE = Path(__file__).parent
OLD_RECORDS = [RunRecord.from_dict(d) for d in json.loads((HERE / "legacy" / "history-v1.json").read_text())]
OLD_ISSUE = json.loads((HERE / "legacy" / "issue-v1.json").read_text())
MORE_ISSUES = json.loads((HERE / "legacy" / "issues-v1-more.json").read_text())
GATES = [
    {"name": "max_final_loss", "value": 9.3, "threshold": 8.0, "status": "FAIL"},
    {"name": "min_steps", "value": 238, "threshold": 200, "status": "PASS"},
]


def _run(run_id: str, sig, gates=(), started="2026-07-15T02:10:03+00:00", lane="gpu2") -> RunRecord:
    outcome = "succeeded" if gates else "failed"
    attempts = [
        Attempt(n, outcome, 0 if gates else 1, 300.0, f"/runs/{run_id}/attempt-{n}/train.log", signature=sig)
        for n in (1, 2)
    ]
    return RunRecord(
        run_id,
        lane,
        "moe-canary",
        1,
        "fail",
        None,
        None,
        list(gates),
        f"/runs/{run_id}",
        attempts=attempts,
        started_at=started,
        classification="confirmed",
        signature=sig,
    )


def _file(github, issue) -> int:
    return github.state.add_issue(REPO, issue["title"], issue["body"], issue["labels"])["number"]


def test_an_issue_opened_before_the_rules_changed_gets_the_comment_of_the_later_wording(
    github, client, spool_dir, tmp_path
):
    store = open_store(str(tmp_path / "history.sqlite3"))
    for r in OLD_RECORDS:
        store.append(r)
    number = _file(github, OLD_ISSUE)
    old_fp = issue_fingerprint(OLD_ISSUE["body"])
    assert old_fp == OLD_RECORDS[0].signature.fingerprint

    sig = extract((HERE / "logs" / "deadline-exceeded-init.log").read_text())  # jaxlib._jax, "Id:"
    assert sig.fingerprint != old_fp and old_fp not in sig.legacy  # only the history ties them
    assert current(OLD_RECORDS[0].signature, "moe-canary").fingerprint == sig.fingerprint

    res = notify(_run("20260715T021003Z-gpu2-7a8b", sig), repo=REPO, client=client, store=store)
    assert [(a.kind, a.issue) for a in res.deliveries[-1].actions] == [("commented", number)]
    assert len(github.state.issues()) == 1
    [comment] = github.state.comments(number)
    assert "Recurred on" in comment["body"] and sig.fingerprint in comment["body"]
    # the issue now carries today's fingerprint under its own: a later run finds it without the history
    [issue] = github.state.issues()
    assert issue["body"].splitlines()[:2] == [
        f"<!-- canary:fingerprint={old_fp} -->",
        f"<!-- canary:also-fingerprint={sig.fingerprint} -->",
    ]
    assert issue_fingerprint(issue["body"]) == old_fp
    res = notify(
        _run("20260716T021003Z-gpu2-0f1e", sig, started="2026-07-16T02:10:03+00:00"),
        history=[],
        repo=REPO,
        client=client,
    )
    assert [(a.kind, a.issue) for a in res.deliveries[-1].actions] == [("commented", number)]
    assert github.state.issues()[0]["body"].count("also-fingerprint") == 1


def test_the_same_log_read_by_todays_rules_finds_the_issue_without_a_history(github, client, spool_dir):
    later, gated = MORE_ISSUES
    n_later, n_gated = _file(github, later), _file(github, gated)
    sig = extract((HERE / "logs" / "deadline-exceeded-init.log").read_text())
    assert issue_fingerprint(later["body"]) in sig.legacy and issue_fingerprint(later["body"]) != sig.fingerprint
    res = notify(
        _run("20260718T021003Z-gpu2-9c0d", sig, started="2026-07-18T02:10:03+00:00"),
        history=[],
        repo=REPO,
        client=client,
    )
    assert [(a.kind, a.issue) for a in res.deliveries[-1].actions] == [("commented", n_later)]

    # a gate regression's fingerprint names its ferry now; the issue filed without it still gets the comment
    g = gate_signature(GATES, ferry="moe-canary")
    assert issue_fingerprint(gated["body"]) in g.legacy and "(ferry moe-canary)" in g.message
    res = notify(
        _run("20260719T060000Z-cpu-1e2f", g, GATES, "2026-07-19T06:00:00+00:00", "cpu"),
        history=[],
        repo=REPO,
        client=client,
    )
    assert [(a.kind, a.issue) for a in res.deliveries[-1].actions] == [("commented", n_gated)]
    assert gate_signature(GATES, ferry="other-ferry").fingerprint != g.fingerprint


def test_an_exact_match_is_preferred_and_another_failure_opens_its_own_issue(github, client, spool_dir, tmp_path):
    sig = extract((HERE / "logs" / "deadline-exceeded-init.log").read_text())
    # an open issue of today's fingerprint wins over the one an earlier canary opened under an older one
    old = _file(github, OLD_ISSUE)
    exact = github.state.add_issue(
        REPO,
        "[canary-gpu2] today's",
        OLD_ISSUE["body"].replace(issue_fingerprint(OLD_ISSUE["body"]), sig.fingerprint),
        ["canary", "bug"],
    )["number"]
    store = open_store(str(tmp_path / "history.sqlite3"))
    for r in OLD_RECORDS:
        store.append(r)
    res = notify(
        _run("20260716T021003Z-gpu2-5b6c", sig, started="2026-07-16T02:10:03+00:00"),
        repo=REPO,
        client=client,
        store=store,
    )
    assert [(a.kind, a.issue) for a in res.deliveries[-1].actions] == [("commented", exact)] and exact != old
    assert "also-fingerprint" not in github.state.issues()[0]["body"]  # nothing to tie: it had its own

    other = extract((HERE / "logs" / "nccl-interface.log").read_text())
    res = notify(
        _run("20260717T021003Z-gpu2-3d4e", other, started="2026-07-17T02:10:03+00:00"),
        repo=REPO,
        client=client,
        store=store,
    )
    assert [a.kind for a in res.deliveries[-1].actions] == ["opened"]
