"""``canary notify`` as a user (or a workflow step) runs it, against the local GitHub server."""

import json

import pytest
from conftest import run_cli
from github_server import REPO, TOKEN, cli_env, github  # noqa: F401 (fixture)
from notify_records import failing, passing

from canary.notify.markers import run_marker


def _env(github, tmp_path, **extra):
    return cli_env(github, tmp_path, **extra)


def _run_dir(tmp_path, record):
    d = tmp_path / "runs" / record.run_id
    d.mkdir(parents=True)
    record.run_dir = f"/ci-runner/work/runs/{record.run_id}"  # written on another machine
    (d / "result.json").write_text(json.dumps(record.to_dict()))
    return d


def test_notify_opens_the_issue_then_posts_nothing_the_second_time(github, tmp_path):
    d = _run_dir(tmp_path, failing())
    env = _env(github, tmp_path)
    r = run_cli("notify", str(d), "--repo", REPO, env=env)
    assert r.returncode == 0, r.stderr
    assert "opened #1" in r.stdout
    [issue] = github.state.issues()
    assert "Lane: tpu (GCP, TPU v6e-4, europe-west4)" in issue["body"]

    writes = len(github.state.writes())
    r = run_cli("notify", failing().run_id, "--runs", str(tmp_path / "runs"), "--repo", REPO, "--json", env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["delivered"] is True
    assert [a["kind"] for a in out["deliveries"][0]["actions"]] == ["already-posted"]
    assert len(github.state.writes()) == writes


def test_an_experiment_is_never_notified(github, tmp_path):
    """A run whose gates were not the pinned ones failed them: no issue, no comment, no label."""
    d = _run_dir(tmp_path, failing(experiment="gates file /w/gates/moe-canary.toml is not the pinned one"))
    r = run_cli("notify", str(d), "--repo", REPO, "--json", env=_env(github, tmp_path))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["deliveries"][0]["actions"] == []
    assert github.state.writes() == []


def test_dry_run_prints_the_calls_and_the_markdown_and_posts_nothing(github, tmp_path):
    d = _run_dir(tmp_path, failing())
    r = run_cli("notify", str(d), "--repo", REPO, "--dry-run", env=_env(github, tmp_path))
    assert r.returncode == 0, r.stderr
    assert f"GET /repos/{REPO}/issues?labels=canary&state=open&per_page=100" in r.stdout
    assert f"POST /repos/{REPO}/issues " in r.stdout
    assert run_marker(failing().run_id, "tpu") in r.stdout
    assert "### Canary run context" in r.stdout
    assert github.state.writes() == []

    # what it printed is exactly what it then posts
    assert run_cli("notify", str(d), "--repo", REPO, env=_env(github, tmp_path)).returncode == 0
    [issue] = github.state.issues()
    assert issue["body"] in r.stdout
    assert f"title: {issue['title']}" in r.stdout


def test_a_dry_run_without_network_says_github_was_unreachable_and_delivered_nothing(tmp_path):
    d = _run_dir(tmp_path, failing())
    env = _env(None, tmp_path, GITHUB_API_URL="http://nonexistent.invalid")  # the client's real backoff
    r = run_cli("notify", str(d), "--repo", REPO, "--dry-run", "--json", env=env)
    assert r.returncode == 1, r.stderr
    out = json.loads(r.stdout)
    assert out["delivered"] is False and out["dry_run"] is True
    assert "GitHub unreachable: cannot resolve nonexistent.invalid" in out["unreachable"]
    [dlv] = out["deliveries"]
    assert dlv["status"] == "dry-run" and dlv["unreachable"] is True
    assert dlv["messages"] and dlv["messages"][0]["title"].startswith("[canary-tpu] ")  # what would be posted
    assert "retrying" not in r.stderr

    r = run_cli("notify", str(d), "--repo", REPO, "--dry-run", env=env)
    assert r.returncode == 1
    assert "GitHub was unreachable, nothing was posted" in r.stdout
    assert run_marker(failing().run_id, "tpu") in r.stdout
    assert not (d / "notify-pending.json").exists()  # a dry run keeps nothing to send later


def test_an_outage_exits_1_keeps_the_notification_and_the_next_notify_sends_it(github, tmp_path):
    first = _run_dir(tmp_path, failing())
    env = _env(github, tmp_path)
    github.state.down = True
    r = run_cli("notify", str(first), "--repo", REPO, env=env)
    assert r.returncode == 1
    assert "not sent" in r.stdout and "503" in r.stdout
    assert "retrying in" in r.stderr and TOKEN not in r.stderr + r.stdout
    assert (first / "notify-pending.json").is_file()

    github.state.down = False
    second = _run_dir(tmp_path, failing("20260829T060000Z-tpu-cd34", "2026-08-29"))
    r = run_cli("notify", str(second), "--repo", REPO, "--json", env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [(d["run_id"], d["status"]) for d in out["deliveries"]] == [
        (failing().run_id, "sent"),
        ("20260829T060000Z-tpu-cd34", "sent"),
    ]
    assert not (first / "notify-pending.json").exists()
    assert len(github.state.issues()) == 1 and len(github.state.comments(1)) == 1


def test_notify_finds_the_run_in_the_history_and_states_its_streak(github, tmp_path):
    from canary.history import open_store

    store = open_store(str(tmp_path / "h.sqlite3"), spool_dir=tmp_path / "hs")
    store.append(failing("20260827T060000Z-tpu-0027", "2026-08-27"))
    store.append(failing("20260828T060000Z-tpu-0028", "2026-08-28"))
    r = run_cli(
        "notify",
        "20260828T060000Z-tpu-0028",
        "--history",
        str(tmp_path / "h.sqlite3"),
        "--repo",
        REPO,
        "--runs",
        str(tmp_path / "nowhere"),
        env=_env(github, tmp_path),
    )
    assert r.returncode == 0, r.stderr
    [issue] = github.state.issues()
    assert "This is the first daily recurrence (failing since 2026-08-27: 2 runs on 2 days)." in issue["body"]
    assert "No passing run on this lane is recorded" in issue["body"]

    r = run_cli(
        "notify",
        "20260828T060000Z-tpu-0028",
        "--no-history",
        "--repo",
        REPO,
        "--runs",
        str(tmp_path / "nowhere"),
        env=_env(github, tmp_path),
    )
    assert r.returncode == 2 and "no run '20260828T060000Z-tpu-0028'" in r.stderr


def test_repo_comes_from_github_repository(github, tmp_path):
    d = _run_dir(tmp_path, failing())
    r = run_cli("notify", str(d), env=_env(github, tmp_path, GITHUB_REPOSITORY=REPO))
    assert r.returncode == 0, r.stderr
    assert len(github.state.issues()) == 1


def test_bad_input_exits_2_with_a_clear_message(github, tmp_path):
    d = _run_dir(tmp_path, failing())
    env = _env(github, tmp_path)
    r = run_cli("notify", str(d), env=env)
    assert r.returncode == 2 and "--repo OWNER/NAME" in r.stderr
    r = run_cli("notify", "no-such-run", "--runs", str(tmp_path / "runs"), "--repo", REPO, env=env)
    assert r.returncode == 2 and "no run 'no-such-run'" in r.stderr
    r = run_cli("notify", str(d), "--repo", "not-a-repo", env=env)
    assert r.returncode == 2 and "OWNER/NAME" in r.stderr
    r = run_cli("notify", str(d), "--repo", REPO, env={**env, "GITHUB_TOKEN": ""})
    assert r.returncode == 2 and "set GITHUB_TOKEN" in r.stderr
    (tmp_path / "bad.json").write_text("{}")
    r = run_cli("notify", str(tmp_path / "bad.json"), "--repo", REPO, env=env)
    assert r.returncode == 2 and "not a canary run record" in r.stderr
    assert github.state.requests == []


def test_help_lists_notify():
    r = run_cli("--help")
    assert r.returncode == 0 and "notify" in r.stdout


LANES = """
[lanes.cpu]
description = "a cpu lane whose attempts always time out"
accelerator = "cpu"
platform = "cpu"
launcher = { kind = "local" }
attempts = 2
timeout_s = 0.3
context = "local CPU, 0.3 s budget"
"""


def _failing_lane(tmp_path, github, **extra):
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(LANES)
    return _env(github, tmp_path, CANARY_LANES=str(lanes), **extra)


@pytest.mark.slow  # canary run starts workload attempts
def test_run_notify_opens_an_issue_and_keeps_the_verdict(github, tmp_path):
    env = _failing_lane(tmp_path, github)
    out = tmp_path / "runs"
    r = run_cli(
        "run",
        "cpu",
        "--steps",
        "10",
        "--out",
        str(out),
        "--notify",
        "github",
        "--repo",
        REPO,
        "--json",
        env=env,
        timeout=300,
    )
    assert r.returncode == 1, r.stderr  # the canary failed; notifying worked
    res = json.loads(r.stdout)
    assert res["verdict"] == "fail" and res["notify"]["delivered"] is True
    [issue] = github.state.issues()
    assert issue["title"].startswith("[canary-cpu] ")
    assert "Lane: cpu (local CPU, 0.3 s budget)" in issue["body"]
    assert run_marker(res["run_id"], "cpu") in issue["body"]


@pytest.mark.slow  # canary run starts workload attempts
def test_run_notify_during_an_outage_keeps_the_verdict_and_the_next_run_sends_both(github, tmp_path):
    env = _failing_lane(tmp_path, github)
    out = tmp_path / "runs"
    github.state.down = True
    r = run_cli(
        "run", "cpu", "--steps", "10", "--out", str(out), "--notify", "github", "--repo", REPO, env=env, timeout=300
    )
    assert r.returncode == 1  # the verdict, not the outage
    assert "not sent" in r.stdout
    [pending] = list(out.glob("*/notify-pending.json"))

    github.state.down = False
    r = run_cli(
        "run",
        "cpu",
        "--steps",
        "10",
        "--out",
        str(out),
        "--notify",
        "github",
        "--repo",
        REPO,
        "--json",
        env=env,
        timeout=300,
    )
    assert r.returncode == 1
    res = json.loads(r.stdout)
    assert [d["status"] for d in res["notify"]["deliveries"]] == ["sent", "sent"]
    assert not pending.exists()
    [issue] = github.state.issues()
    assert len(github.state.comments(issue["number"])) == 1


def test_run_notify_flags_are_checked_before_training(github, tmp_path):
    env = _failing_lane(tmp_path, github)
    r = run_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--notify", "github", env=env)
    assert r.returncode == 2 and "--repo OWNER/NAME" in r.stderr
    r = run_cli(
        "run",
        "cpu",
        "--out",
        str(tmp_path / "runs"),
        "--notify",
        "github",
        "--repo",
        REPO,
        env={**env, "GITHUB_TOKEN": ""},
    )
    assert r.returncode == 2 and "set GITHUB_TOKEN" in r.stderr
    r = run_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--dry-run", env=env)
    assert r.returncode == 2 and "--dry-run only applies with --notify github" in r.stderr
    assert not (tmp_path / "runs").exists()


def test_a_dry_run_with_nothing_to_say_contacts_no_one(tmp_path):
    d = _run_dir(tmp_path, passing())  # a pass that ends no failure streak
    env = _env(None, tmp_path, GITHUB_API_URL="http://nonexistent.invalid")
    r = run_cli("notify", str(d), "--repo", REPO, "--dry-run", "--no-history", env=env)
    assert r.returncode == 0, r.stderr
    assert "nothing to say, so GitHub was not contacted" in r.stdout


def _counted(monkeypatch):
    """Every opening of the history and every computation of a run's facts, as they happen."""
    import canary.history
    import canary.notify.facts as facts_mod

    calls = {"opened": [], "facts": []}
    open_store, facts_for = canary.history.open_store, facts_mod.facts_for

    def opening(*a, **kw):
        calls["opened"].append(a)
        return open_store(*a, **kw)

    def computing(record, *a, **kw):
        calls["facts"].append(record.run_id)
        return facts_for(record, *a, **kw)

    monkeypatch.setattr(canary.history, "open_store", opening)
    monkeypatch.setattr(facts_mod, "facts_for", computing)
    return calls


def test_a_failing_ci_run_opens_the_history_once_and_states_facts_computed_once(github, tmp_path, monkeypatch):
    """``canary run --notify`` on a failing CI run: recording the run, its issue and its job summary
    share one opening of the history and one computation of the failure's facts."""
    from adversary import PY, lanes_toml

    lanes = lanes_toml(tmp_path, [PY, "-c", "import sys; print('RuntimeError: boom'); sys.exit(1)", "{entrypoint}"])
    summary = tmp_path / "summary.md"
    env = _env(github, tmp_path, CANARY_LANES=str(lanes), GITHUB_STEP_SUMMARY=str(summary))
    calls = _counted(monkeypatch)
    r = run_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", "--notify", "github", "--repo", REPO, env=env)
    assert r.returncode == 1, r.stderr
    res = json.loads(r.stdout)
    assert res["context"]["history"]["status"] == "stored"
    assert res["notify"]["delivered"] is True and res["after_run"]["step_summary"] == str(summary)
    [issue] = github.state.issues()
    assert "No passing run on this lane is recorded" in summary.read_text()  # the facts, in the summary
    assert "No passing run" in issue["body"]  # and the same facts in the issue
    assert len(calls["opened"]) == 1
    assert calls["facts"] == [res["run_id"]]


def test_notify_opens_the_history_once(github, tmp_path, monkeypatch):
    from canary.history import open_store

    open_store(str(tmp_path / "h.sqlite3"), spool_dir=tmp_path / "hs").append(failing())
    env = _env(github, tmp_path, CANARY_HISTORY=str(tmp_path / "h.sqlite3"), CANARY_SPOOL_DIR=str(tmp_path / "hs"))
    calls = _counted(monkeypatch)
    assert run_cli("notify", failing().run_id, "--repo", REPO, env=env).returncode == 0
    assert len(calls["opened"]) == 1 and calls["facts"] == [failing().run_id]
