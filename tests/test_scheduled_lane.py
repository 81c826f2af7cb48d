"""What a scheduled lane needs from the history and the notifier: infrastructure failures apart
from regressions (and loud after two silent days), version changes in the regression window, and
a run record that survives a short-lived runner (pending-record.json, `canary history import`)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing, no_git, passing

from canary.formats.directory import PENDING_RECORD
from canary.history import open_store, queries, record_run, windows
from canary.history.lanes import lane_window
from canary.judge.classify import classify
from canary.notify import notify
from canary.notify.compose import INFRA_LABEL, new_issue, recurrence_comment
from canary.notify.facts import facts_for
from canary.notify.model import Facts
from canary.record import Attempt, RunRecord
from canary.signature import make

V_OLD = {
    "canary": "0.1.0",
    "python": "3.11.7",
    "jax": "0.6.0",
    "jaxlib": "0.6.0",
    "libtpu": "0.0.15",
    "optax": "0.2.4",
    "ferry": "a" * 64,
}
V_NEW = {**V_OLD, "jax": "0.6.2", "jaxlib": "0.6.2", "libtpu": "0.0.17", "ferry": "b" * 64}


def never_started(run_id: str, date: str, n: int = 4) -> RunRecord:
    sig = make("infrastructure", None, "the job never started: no worker with {'TPU': 4} within 1800s")
    atts = [
        Attempt(i, "never_started", None, 1800.0, "train.log", detail="no worker", signature=sig)
        for i in range(1, n + 1)
    ]
    return RunRecord(
        run_id=run_id,
        lane="tpu",
        ferry="moe-canary",
        ferry_version=1,
        verdict="fail",
        steps_completed=None,
        final_loss=None,
        gates=[],
        run_dir="",
        attempts=atts,
        started_at=f"{date}T03:17:00+00:00",
        classification=classify(atts),
        signature=sig,
        commit="c0ffee" * 6 + "c0ff",
    )


# ----------------------------------------------------------------------------- infrastructure


def test_every_attempt_never_starting_is_infrastructure_and_one_that_trained_is_not():
    assert never_started("r1", "2026-08-27").classification == "infrastructure"
    crash = Attempt(2, "failed", 1, 5.0, "l", signature=make("compile_error", "ValueError", "boom"))
    lost = Attempt(1, "lost", None, 5.0, "l", signature=make("infrastructure", None, "the job was lost"))
    assert classify([lost, crash]) == "intermittent"


def test_infrastructure_streak_alerts_after_two_days():
    ok = passing(date="2026-08-25")
    runs = [ok, never_started("r1", "2026-08-26")]
    s = queries.infrastructure_streak(runs, "tpu")
    assert (s.runs, s.days, s.alert, s.last_verdict.run_id) == (1, 1, False, ok.run_id)
    runs += [never_started("r2", "2026-08-26"), never_started("r3", "2026-08-27")]
    s = queries.infrastructure_streak(runs, "tpu")
    assert (s.runs, s.days, s.alert, s.first.run_id) == (3, 2, True, "r1")
    assert not queries.infrastructure_streak(runs + [failing(date="2026-08-28")], "tpu").runs


def test_infrastructure_failures_are_posted_under_their_own_label_apart_from_regressions(github, client, spool_dir):
    history = [passing(date="2026-08-25")]

    def no_commits(good, bad):  # the regression window's commits do not matter here
        return []

    day1 = never_started("20260826T031700Z-tpu-0001", "2026-08-26")
    history.append(day1)
    [a] = notify(day1, facts_for(day1, history, no_commits), repo=REPO, client=client).deliveries[0].actions
    issue = github.state.issues()[0]
    assert a.kind == "opened" and {lb["name"] for lb in issue["labels"]} == {"canary", INFRA_LABEL}
    assert "bug" not in {lb["name"] for lb in issue["labels"]} and "infrastructure" in issue["title"]
    assert "not a code regression" in issue["body"] and "No verdict for" not in issue["body"]
    assert "After 2 days without one this becomes an alert" in issue["body"]

    day2 = never_started("20260827T031700Z-tpu-0002", "2026-08-27")
    history.append(day2)
    [a] = notify(day2, facts_for(day2, history, no_commits), repo=REPO, client=client).deliveries[0].actions
    assert a.kind == "commented" and a.issue == issue["number"]
    body = github.state.comments(issue["number"])[-1]["body"]
    assert "**No verdict for 2 days**" in body and "the last run that trained was on 2026-08-25" in body

    regression = failing(run_id="20260828T031700Z-tpu-0003", date="2026-08-28")
    history.append(regression)
    [a] = notify(regression, facts_for(regression, history, no_commits), repo=REPO, client=client).deliveries[0].actions
    assert a.kind == "opened" and a.issue != issue["number"]
    reg = next(i for i in github.state.issues() if i["number"] == a.issue)
    assert {lb["name"] for lb in reg["labels"]} == {"canary", "bug"}


# ----------------------------------------------------------------------------- versions


def test_version_changes_in_order_with_added_and_removed():
    changes = windows.version_changes({**V_OLD, "jax-cuda12-plugin": "0.6.0"}, {**V_NEW, "wandb": "0.31"})
    assert [c.name for c in changes] == ["jax", "jaxlib", "libtpu", "jax-cuda12-plugin", "ferry", "wandb"]
    assert changes[3].after is None and changes[5].before is None
    assert windows.version_changes(V_OLD, V_OLD) == [] and windows.version_changes({}, V_NEW) == []


def test_the_window_shows_version_changes_since_the_last_pass():
    good = passing(date="2026-08-26", versions=V_OLD)
    bad = failing(date="2026-08-28", versions=V_NEW)
    facts = facts_for(bad, [good, bad], commits=lambda g, b: [])
    assert [v.name for v in facts.versions] == ["jax", "jaxlib", "libtpu", "ferry"]
    body = new_issue(bad, facts).body
    assert "4 version changes since the last pass:" in body
    assert "- jax: `0.6.0` → `0.6.2`" in body and "- libtpu: `0.0.15` → `0.0.17`" in body
    assert "- ferry content sha256: `aaaaaaaaaaaa` → `bbbbbbbbbbbb`" in body
    same = facts_for(bad, [replace(good, versions=V_NEW), bad], commits=lambda g, b: [])
    assert "Versions since the last pass: unchanged" in recurrence_comment(bad, same).body
    assert Facts.from_dict(json.loads(json.dumps(facts.to_dict()))) == replace(facts, secrets=())


def test_history_json_has_the_lane_window_with_versions(tmp_path):
    good = passing(date="2026-08-26", versions=V_OLD, commit="1" * 40)
    bad = failing(date="2026-08-28", versions=V_NEW, commit="2" * 40)
    commits = {
        ("1" * 40, "2" * 40): [
            type("C", (), {"sha": "2" * 40, "subject": "x", "paths": ["canary/workload/model.py"]})()
        ]
    }
    w = lane_window([good, bad], "tpu", commits=lambda g, b: commits[(g, b)])
    assert w["last_pass"] == good.run_id and w["commits"][0]["watched"] is True
    assert [v["name"] for v in w["versions"]] == ["jax", "jaxlib", "libtpu", "ferry"]
    assert lane_window([good, bad, passing(run_id="p2", date="2026-08-29")], "tpu", no_git) is None  # passing again


# ----------------------------------------------------------------------------- a record that survives the runner


def test_an_unwritable_history_leaves_the_record_in_the_run_directory_and_import_adds_it(tmp_path, cli, monkeypatch):
    monkeypatch.setenv("CANARY_SPOOL_DIR", str(tmp_path / "spool"))
    run_dir = tmp_path / "runs" / "r1"
    run_dir.mkdir(parents=True)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the history's directory should be")
    record = passing(run_id="r1", run_dir=str(run_dir))
    said = record_run(record, str(blocker / "h.sqlite3"))
    assert said["status"] == "spooled" and said["pending"] == str(run_dir / PENDING_RECORD)
    assert json.loads((run_dir / PENDING_RECORD).read_text())["run_id"] == "r1"

    history = tmp_path / "later" / "h.sqlite3"
    r = cli("history", "--history", str(history), "--json")
    assert r.returncode == 0 and not history.exists()  # a read creates nothing
    r = cli("history", "--history", str(history), "import", str(run_dir), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"run_id": "r1", "lane": "tpu", "location": str(history), "status": "stored"}
    assert not (run_dir / PENDING_RECORD).exists()
    assert [x.run_id for x in open_store(str(history), flush=False).records()] == ["r1"]
    r = cli("history", "import", str(tmp_path / "runs"), "--history", str(history))
    assert r.returncode == 2 and "no pending-record.json or result.json" in r.stderr


def test_the_run_output_says_where_the_pending_record_waits():
    from canary.render import history_line

    line = history_line(
        {"status": "spooled", "location": "gs://b/p", "detail": "down", "pending": "/w/runs/r1/pending-record.json"}
    )
    assert "/w/runs/r1/pending-record.json" in line and "canary history import /w/runs/r1" in line


@pytest.mark.slow
def test_a_run_whose_gs_history_is_down_leaves_its_record_for_import(cli, tmp_path):
    from gcs_emulator import free_port

    env = {
        "STORAGE_EMULATOR_HOST": f"http://127.0.0.1:{free_port()}",
        "CANARY_GCS_RETRY_S": "1",
        "CANARY_SPOOL_DIR": str(tmp_path / "spool"),
        "COLUMNS": "400",
    }  # nothing listens there: out of reach
    r = cli(
        "run",
        "cpu",
        "--steps",
        "2",
        "--out",
        str(tmp_path / "runs"),
        "--history",
        "gs://canary-history/runs",
        env=env,
        timeout=600,
    )
    assert r.returncode in (0, 1), r.stderr
    [run_dir] = (tmp_path / "runs").iterdir()
    assert (run_dir / PENDING_RECORD).is_file()
    assert f"canary history import {run_dir}" in r.stdout
    history = tmp_path / "elsewhere.sqlite3"
    r = cli("history", "import", str(run_dir), "--history", str(history))
    assert r.returncode == 0 and "stored run" in r.stdout, r.stderr
    [stored] = open_store(str(history), flush=False).records()
    assert stored.run_id == run_dir.name and "history" not in stored.context
