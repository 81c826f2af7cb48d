"""The facts a notification states, computed from run records, a real SQLite history and a real git
repository; and the incident's week replayed through the notifier against the local GitHub."""

import subprocess

import pytest
from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing, no_git, passing

from canary.git import commits_between
from canary.history import open_store
from canary.notify import notify
from canary.notify.facts import facts_for, facts_from_store
from canary.notify.model import Facts

FP = "3f9a1c2b7d4e"


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repo(tmp_path):
    """good: the last passing commit; bad: two commits later (one touching a watched path)."""
    r = tmp_path / "repo"
    r.mkdir()
    _git(r, "init", "-q")
    _git(r, "config", "user.email", "ci@example.com")
    _git(r, "config", "user.name", "ci")

    def commit(path, subject):
        f = r / path
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(subject)
        _git(r, "add", path)
        _git(r, "commit", "-q", "-m", subject)
        return _git(r, "rev-parse", "HEAD")

    good = commit("README.md", "start")
    commit("canary/workload/ragged_dot/megablox.py", "ragged_dot: one static tile for every matmul")
    bad = commit("docs/notes.md", "docs: on-call notes")
    return r, good, bad


def _week(good, bad):
    """A pass on Aug 26, then the incident failing daily Aug 27..31 (as the field notes tell it)."""
    history = [passing("20260826T060000Z-tpu-0000", "2026-08-26", commit=good)]
    for day in range(27, 32):
        history.append(failing(f"202608{day}T060000Z-tpu-00{day}", f"2026-08-{day}", commit=bad))
    return history


def test_the_incident_on_its_fifth_day(repo):
    r, good, bad = repo
    history = _week(good, bad)
    facts = facts_for(history[-1], history, commits=lambda g, b: commits_between(g, b, str(r)))
    assert facts.lane_context == "GCP, TPU v6e-4, europe-west4" and facts.platform == "tpu"
    assert (facts.streak.runs, facts.streak.consecutive_days, facts.streak.first_failure) == (5, 5, "2026-08-27")
    assert facts.last_pass.run_id == "20260826T060000Z-tpu-0000" and facts.last_pass.commit == good
    assert [c.subject for c in facts.window] == ["ragged_dot: one static tile for every matmul", "docs: on-call notes"]
    assert [c.watched for c in facts.window] == [True, False]
    assert facts.previous.run_id == "20260830T060000Z-tpu-0030"


def test_a_later_run_does_not_leak_into_an_earlier_runs_facts(repo):
    r, good, bad = repo
    history = _week(good, bad)
    facts = facts_for(history[2], history, commits=lambda g, b: commits_between(g, b, str(r)))
    assert facts.streak.runs == 2 and facts.previous.run_id == "20260827T060000Z-tpu-0027"


def test_only_trailing_failures_of_the_same_signature_make_the_streak():
    history = [
        passing("20260826T060000Z-tpu-0000", "2026-08-26"),
        failing("20260827T060000Z-tpu-0027", "2026-08-27", fp="other0000000"),
        failing("20260828T060000Z-tpu-0028", "2026-08-28"),
        failing("20260829T060000Z-tpu-0029", "2026-08-29"),
    ]
    facts = facts_for(history[-1], history, commits=lambda g, b: [])
    assert facts.streak.runs == 2 and facts.streak.first_failure == "2026-08-28"


def test_the_first_pass_after_failures_names_the_signatures_it_recovers():
    history = [
        passing("20260826T060000Z-tpu-0000", "2026-08-26"),
        failing("20260827T060000Z-tpu-0027", "2026-08-27", fp="aaaa"),
        failing("20260828T060000Z-tpu-0028", "2026-08-28", fp="bbbb"),
        failing("20260828T070000Z-gpu-0028", "2026-08-28", lane="gpu", fp="cccc"),
        passing("20260829T060000Z-tpu-0029", "2026-08-29"),
    ]
    facts = facts_for(history[-1], history, no_git)
    assert facts.recovered == ("aaaa", "bbbb")
    assert (facts.failure_streak.runs, facts.failure_streak.first_failure) == (2, "2026-08-27")
    history.append(passing("20260830T060000Z-tpu-0030", "2026-08-30"))
    assert facts_for(history[-1], history, no_git).recovered == ()


def test_a_window_that_cannot_be_known_is_said_to_be_unknown(repo):
    r, good, bad = repo
    history = _week(good, bad)
    history[0].commit = None
    assert facts_for(history[-1], history, no_git).window is None
    assert "no recorded commit" in facts_for(history[-1], history, no_git).window_note
    history[0].commit = "0" * 40  # not in this repository
    facts = facts_for(history[-1], history, commits=lambda g, b: commits_between(g, b, str(r)))
    assert facts.window is None and "git log" in facts.window_note


def test_never_passed_means_no_window_and_no_history_means_unknown():
    history = [failing("20260827T060000Z-tpu-0027", "2026-08-27")]
    facts = facts_for(history[-1], history, no_git)
    assert facts.last_pass is None and facts.window is None and facts.streak.runs == 1
    assert facts_for(history[-1], None, no_git).streak is None


def test_facts_from_a_sqlite_store(tmp_path, repo):
    r, good, bad = repo
    store = open_store(str(tmp_path / "h.sqlite3"), spool_dir=tmp_path / "hspool")
    for rec in _week(good, bad):
        store.append(rec)
    facts = facts_from_store(
        failing("20260901T060000Z-tpu-0901", "2026-09-01", commit=bad),
        store,
        commits=lambda g, b: commits_between(g, b, str(r)),
    )
    assert facts.streak.runs == 6 and facts.previous.run_id == "20260831T060000Z-tpu-0031"
    assert facts_from_store(failing(), None, commits=no_git).streak is None
    assert facts_from_store(failing(), None, "the history is gone", commits=no_git).window_note == "the history is gone"


def test_the_incident_week_replayed_through_the_notifier(github, client, spool_dir, repo):
    r, good, bad = repo
    history = _week(good, bad)
    commits = lambda g, b: commits_between(g, b, str(r))  # noqa: E731
    for i in range(1, len(history)):
        notify(history[i], facts_for(history[i], history[: i + 1], commits), repo=REPO, client=client)
    recovered = passing("20260901T060000Z-tpu-0901", "2026-09-01", commit=bad)
    history.append(recovered)
    notify(recovered, facts_for(recovered, history, commits), repo=REPO, client=client)

    [issue] = github.state.issues()
    assert issue["title"].startswith("[canary-tpu] ValueError")
    assert "First failure since the last pass." in issue["body"]
    comments = [c["body"] for c in github.state.comments(issue["number"])]
    assert len(comments) == 5
    assert "Recurred on the scheduled tpu canary (2026-08-31)" in comments[3]
    assert "This is the fourth straight daily recurrence (failing since 2026-08-27: 5 runs on 5 days)." in comments[3]
    assert "**watched** `" in comments[3] and "ragged\\_dot: one static tile for every matmul" in comments[3]
    assert "Nothing new since the previous occurrence" in comments[3]
    assert comments[4].startswith("<!-- canary:run=20260901T060000Z-tpu-0901 lane=tpu -->\n**Recovered on the")
    assert "lasted 5 runs over 5 days" in comments[4]
    assert issue["state"] == "open"


def test_a_pass_knows_which_recovered_signatures_still_fail_on_other_lanes():
    history = [
        failing("20260827T060000Z-tpu-0027", "2026-08-27", fp="aaaa"),
        failing("20260827T070000Z-gpu-0027", "2026-08-27", lane="gpu", fp="aaaa"),
        failing("20260827T080000Z-gpu-0028", "2026-08-27", lane="gpu", fp="bbbb"),
        passing("20260828T060000Z-tpu-0028", "2026-08-28"),
    ]
    facts = facts_for(history[-1], history, no_git)
    assert facts.recovered == ("aaaa",) and facts.failing_elsewhere == (("aaaa", "gpu"),)
    assert Facts.from_dict(facts.to_dict()) == facts
