"""The notifier end to end through the real client against the local GitHub server: one issue per
signature, one comment per run, recovery, the creation race, outages and dry runs."""

import threading
from pathlib import Path

from github_server import REPO, TINY, TOKEN, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing, passing

from canary.notify import notify
from canary.notify.github import GitHubClient
from canary.notify.markers import fingerprint_marker, run_marker
from canary.notify.model import Facts, StreakFacts
from canary.notify.transport import RetryPolicy

FACTS = Facts(lane_context="GCP, TPU v6e-4, europe-west4", platform="tpu")


def _say(client, record, facts=FACTS, **kw):
    return notify(record, facts, repo=REPO, client=client, **kw)


def test_a_new_signature_opens_one_issue_with_labels_marker_and_title(github, client, spool_dir):
    res = _say(client, failing())
    assert res.delivered
    [issue] = github.state.issues()
    assert issue["title"].startswith("[canary-tpu] ValueError: The Pallas TPU lowering")
    assert {lb["name"] for lb in issue["labels"]} == {"canary", "bug"}
    assert fingerprint_marker("3f9a1c2b7d4e") in issue["body"]
    assert run_marker("20260828T060000Z-tpu-ab12", "tpu") in issue["body"]
    assert [a.kind for a in res.deliveries[0].actions] == ["opened"]


def test_a_recurrence_comments_on_the_open_issue(github, client, spool_dir):
    _say(client, failing())
    facts = Facts(
        lane_context="GCP, TPU v6e-4, europe-west4",
        platform="tpu",
        streak=StreakFacts(runs=5, days=5, consecutive_days=5, first_failure="2026-08-27"),
    )
    res = _say(client, failing("20260831T060000Z-tpu-ef56", "2026-08-31"), facts)
    assert len(github.state.issues()) == 1
    [comment] = github.state.comments(1)
    assert "Recurred on the scheduled tpu canary (2026-08-31)" in comment["body"]
    assert "same signature and call path" in comment["body"]
    assert "fourth straight daily recurrence" in comment["body"]
    assert "Deterministic across attempts" in comment["body"]
    assert "canary repro tpu --cold" in comment["body"]
    assert "canary lower --lane tpu --platform tpu" in comment["body"]
    assert "Lane: tpu (GCP, TPU v6e-4, europe-west4)\nJob: /runner/canary-tpu-ef56\n" in comment["body"]
    assert [a.kind for a in res.deliveries[0].actions] == ["commented"]


def test_a_repeated_notify_posts_nothing(github, client, spool_dir):
    _say(client, failing())
    rec = failing("20260829T060000Z-tpu-aa11", "2026-08-29")
    _say(client, rec)
    writes = len(github.state.writes())
    for _ in range(2):
        again = _say(client, rec)
        assert [a.kind for a in again.deliveries[0].actions] == ["already-posted"]
    assert len(github.state.writes()) == writes
    assert len(github.state.comments(1)) == 1
    # and the run that opened the issue is known by the marker in the body
    assert [a.kind for a in _say(client, failing()).deliveries[0].actions] == ["already-posted"]


def test_the_matching_issue_is_found_beyond_the_first_page(github, spool_dir):
    _say(GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=TINY)), failing())
    for i in range(120):  # newer canary issues push the match onto a later page
        github.state.add_issue(REPO, f"[canary-tpu] other {i}", fingerprint_marker(f"other{i:04d}"), ["canary", "bug"])
    small_pages = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=TINY), per_page=25)
    res = _say(small_pages, failing("20260829T060000Z-tpu-aa11", "2026-08-29"))
    assert [a.kind for a in res.deliveries[0].actions] == ["commented"]
    assert len(github.state.comments(1)) == 1
    assert len(github.state.issues()) == 121
    listed = [p for m, p in github.state.requests if m == "GET" and "labels=canary" in p and "page=" in p]
    assert any("page=5" in p for p in listed)


def test_different_signatures_get_different_issues(github, client, spool_dir):
    _say(client, failing(fp="aaaa1111"))
    _say(client, failing("20260829T060000Z-tpu-bb22", fp="bbbb2222"))
    assert len(github.state.issues(state="open")) == 2


def test_two_notifiers_racing_on_a_new_signature_end_with_one_open_issue(github, spool_dir):
    # neither issue is visible until both notifiers have asked for one: each found none when it looked
    both_asked = threading.Barrier(2, timeout=60)
    github.state.before_create_issue = lambda body: both_asked.wait()
    records = [failing("20260828T060000Z-tpu-r001"), failing("20260828T060100Z-tpu-r002")]
    results = [None, None]

    def go(i):
        gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=TINY))
        results[i] = _say(gh, records[i])

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert all(r is not None and r.delivered for r in results)
    github.state.before_create_issue = None
    open_ = github.state.issues(state="open")
    closed = github.state.issues(state="closed")
    assert [i["number"] for i in open_] == [1]
    assert [i["number"] for i in closed] == [2]
    assert closed[0]["state_reason"] == "not_planned"
    assert any("Duplicate of #1" in c["body"] for c in github.state.comments(2))
    # neither run is lost: the loser's run is told on the kept issue
    texts = [open_[0]["body"]] + [c["body"] for c in github.state.comments(1)]
    for rec in records:
        assert sum(run_marker(rec.run_id, "tpu") in t for t in texts) == 1


def test_leftover_duplicates_are_closed_on_the_next_failure(github, client, spool_dir):
    body = fingerprint_marker("3f9a1c2b7d4e") + "\n"
    github.state.add_issue(REPO, "[canary-tpu] a", body, ["canary", "bug"])
    github.state.add_issue(REPO, "[canary-tpu] b", body, ["canary", "bug"])
    _say(client, failing())
    assert [i["number"] for i in github.state.issues(state="open")] == [1]
    assert len(github.state.comments(1)) == 1


def test_first_pass_after_failures_says_recovered_once_on_each_failing_signature(github, client, spool_dir):
    _say(client, failing(fp="aaaa1111"))
    _say(client, failing("20260829T060000Z-tpu-bb22", fp="bbbb2222"))
    _say(client, failing("20260829T060000Z-gpu-cc33", lane="gpu", fp="cccc3333"))
    facts = Facts(
        lane_context="GCP",
        recovered=("aaaa1111", "bbbb2222"),
        failure_streak=StreakFacts(runs=2, days=2, consecutive_days=2, first_failure="2026-08-28"),
    )
    for _ in range(2):
        _say(client, passing(), facts)
    for n in (1, 2):  # (#1 also has the notes that #2 and #3 look like it: one message, other fingerprints)
        [c] = [c for c in github.state.comments(n) if "Recovered" in c["body"]]
        assert "Recovered on the scheduled tpu canary (2026-09-01)" in c["body"]
        assert "lasted 2 runs over 2 days" in c["body"]
    assert not [c for c in github.state.comments(3) if "Recovered" in c["body"]]
    assert len(github.state.issues(state="open")) == 3  # closing is opt-in


def test_close_on_recovery_closes(github, client, spool_dir):
    _say(client, failing(fp="aaaa1111"))
    _say(client, passing(), Facts(recovered=("aaaa1111",)), close_on_recovery=True)
    [issue] = github.state.issues()
    assert issue["state"] == "closed" and issue["state_reason"] == "completed"
    assert "Closing this issue" in github.state.comments(1)[0]["body"]


def test_a_pass_with_no_failure_streak_says_nothing(github, client, spool_dir):
    _say(client, failing(fp="aaaa1111"))
    before = len(github.state.requests)
    res = _say(client, passing(), Facts())
    assert res.deliveries[0].actions == [] and len(github.state.requests) == before


def test_faults_on_the_way_are_retried_and_change_nothing(github, client, spool_dir):
    import pytest

    github.state.fail(500, method="GET")  # the first list
    github.state.fail(429, retry_after="2", method="POST")  # creating the label
    github.state.fail(403, message="You have exceeded a secondary rate limit.", retry_after="1", method="POST")
    res = _say(client, failing())
    assert res.delivered
    assert len(github.state.issues()) == 1
    assert len(client.waits) == 3
    assert client.waits[1:] == [pytest.approx(2 * TINY), pytest.approx(1 * TINY)]


def test_an_outage_spools_and_the_next_invocation_sends(github, spool_dir):
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(attempts=2, scale=TINY))
    github.state.down = True
    first = failing("20260828T060000Z-tpu-ab12", "2026-08-28")
    res = _say(gh, first)
    assert not res.delivered
    [d] = res.deliveries
    assert d.status == "spooled" and "503" in d.error
    assert list(spool_dir.glob("*/notify-pending.json"))
    assert TOKEN not in next(spool_dir.glob("*/notify-pending.json")).read_text()

    github.state.down = False
    second = failing("20260829T060000Z-tpu-cd34", "2026-08-29")
    res = _say(gh, second)
    assert res.delivered
    assert [(d.run_id, d.status, d.resent) for d in res.deliveries] == [
        (first.run_id, "sent", True),
        (second.run_id, "sent", False),
    ]
    assert not list(spool_dir.glob("*/notify-pending.json"))
    [issue] = github.state.issues()
    assert run_marker(first.run_id, "tpu") in issue["body"]  # the earlier run opened the issue
    assert run_marker(second.run_id, "tpu") in github.state.comments(1)[0]["body"]


def test_an_outage_mid_way_loses_nothing_and_a_resend_does_not_duplicate(github, spool_dir):
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(attempts=2, scale=TINY))

    def go_down(issue):
        github.state.down = True  # the issue is created, then GitHub goes away before the re-list

    github.state.on_create_issue = go_down
    first = failing(fp="aaaa1111")
    assert _say(gh, first).deliveries[0].status == "spooled"
    assert len(github.state.issues()) == 1

    github.state.on_create_issue = None
    github.state.down = False
    res = _say(gh, failing("20260829T060000Z-tpu-zz99", "2026-08-29", fp="aaaa1111"))
    assert [(d.run_id, [a.kind for a in d.actions]) for d in res.deliveries] == [
        (first.run_id, ["already-posted"]),
        ("20260829T060000Z-tpu-zz99", ["commented"]),
    ]
    [issue] = github.state.issues()
    texts = [issue["body"]] + [c["body"] for c in github.state.comments(issue["number"])]
    assert sum(run_marker(first.run_id, "tpu") in t for t in texts) == 1
    assert not list(spool_dir.glob("*/notify-pending.json"))


def test_dry_run_prints_markdown_and_calls_and_touches_nothing(github, client, spool_dir):
    _say(client, failing(fp="aaaa1111"))
    writes = len(github.state.writes())
    res = _say(client, failing("20260829T060000Z-tpu-aa11", "2026-08-29", fp="aaaa1111"), dry_run=True)
    [d] = res.deliveries
    assert d.status == "dry-run"
    assert not res.delivered and res.ok and res.unreachable is None  # it read GitHub; it delivered nothing
    assert len(github.state.writes()) == writes
    assert d.calls[0].startswith(f"GET /repos/{REPO}/issues?labels=canary&state=open")
    assert d.calls[-1].startswith(f"POST /repos/{REPO}/issues/1/comments")
    assert "Recurred on the scheduled tpu canary (2026-08-29)" in d.messages[0]["body"]

    res = _say(client, failing("20260830T060000Z-tpu-bb11", "2026-08-30", fp="bbbb2222"), dry_run=True)
    [d] = res.deliveries
    assert any(c.startswith(f"POST /repos/{REPO}/issues ") for c in d.calls)
    assert d.messages[0]["title"].startswith("[canary-tpu] ")
    assert len(github.state.writes()) == writes and len(github.state.issues()) == 1


def test_dry_run_without_github_says_it_could_not_read_and_still_shows_the_issue(spool_dir):
    gh = GitHubClient(REPO, None, "http://127.0.0.1:9", retry=RetryPolicy(attempts=1, scale=TINY), timeout_s=2)
    res = notify(failing(), FACTS, repo=REPO, client=gh, dry_run=True)
    [d] = res.deliveries
    assert d.error and any("could not read GitHub" in c for c in d.calls)
    assert d.messages and d.messages[0]["title"].startswith("[canary-tpu]")
    assert d.unreachable and "Connection refused" in res.unreachable
    assert not res.delivered and not res.ok
    assert res.to_dict()["delivered"] is False and res.to_dict()["dry_run"] is True


def test_an_unresolvable_api_host_is_spooled_at_once_without_backoff(spool_dir):
    slept: list[float] = []
    gh = GitHubClient(REPO, TOKEN, "http://nonexistent.invalid", retry=RetryPolicy(), sleep=slept.append)
    res = notify(failing(), FACTS, repo=REPO, client=gh)
    [d] = res.deliveries
    assert d.status == "spooled" and d.unreachable and "cannot resolve nonexistent.invalid" in d.error
    assert not res.delivered and not res.ok and res.unreachable == d.error
    assert slept == []
    assert Path(d.spool_path) == spool_dir / failing().run_id / "notify-pending.json" and Path(d.spool_path).is_file()


def test_the_token_from_the_environment_is_never_posted(github, client, spool_dir, monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "opaque-value-without-a-shape")
    rec = failing(error="debug: token opaque-value-without-a-shape and " + TOKEN)
    sig = rec.signature
    rec.signature = type(sig)(**{**sig.__dict__, "excerpt": rec.error})
    _say(client, rec)
    body = github.state.issues()[0]["body"]
    assert "opaque-value-without-a-shape" not in body and TOKEN not in body


def test_notify_entry_computes_facts_from_the_lane(github, client, spool_dir):
    notify(failing(), None, repo=REPO, client=client)
    assert "Lane: tpu (GCP, TPU v6e-4, europe-west4)" in github.state.issues()[0]["body"]


def test_close_on_recovery_leaves_open_an_issue_still_failing_on_another_lane(github, client, spool_dir):
    _say(client, failing(fp="aaaa1111"))
    facts = Facts(recovered=("aaaa1111",), failing_elsewhere=(("aaaa1111", "gpu"),))
    _say(client, passing(), facts, close_on_recovery=True)
    [issue] = github.state.issues()
    assert issue["state"] == "open"
    [c] = github.state.comments(1)
    assert "Still failing on the gpu lane: this issue stays open." in c["body"] and "Closing" not in c["body"]


def _store(tmp_path):
    from canary.history import open_store

    return open_store(str(tmp_path / "history.sqlite3"), spool_dir=tmp_path / "history-spool")


def test_an_outage_is_kept_in_the_history_and_sent_from_another_machine(github, spool_dir, tmp_path, monkeypatch):
    import shutil

    from canary.notify import spool

    store = _store(tmp_path)
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(attempts=2, scale=TINY))
    first = failing("20260828T060000Z-tpu-ab12", "2026-08-28")
    store.append(first)
    github.state.down = True
    assert not notify(first, FACTS, repo=REPO, client=gh, store=store).delivered
    assert spool.PENDING_KEY in store.get(first.run_id).context

    shutil.rmtree(spool_dir)  # the CI runner that ran it is gone, and its files with it
    monkeypatch.setenv("CANARY_NOTIFY_SPOOL", str(tmp_path / "another-machine"))
    github.state.down = False
    second = failing("20260829T060000Z-tpu-cd34", "2026-08-29")
    store.append(second)
    res = notify(second, FACTS, repo=REPO, client=gh, store=store)
    assert [(d.run_id, d.status, d.resent) for d in res.deliveries] == [
        (first.run_id, "sent", True),
        (second.run_id, "sent", False),
    ]
    assert spool.PENDING_KEY not in store.get(first.run_id).context
    assert spool.waiting_in(store.records()) == []
    [issue] = github.state.issues()
    assert run_marker(first.run_id, "tpu") in issue["body"]
    assert len(github.state.comments(issue["number"])) == 1


def test_a_notification_kept_in_both_places_is_sent_once_and_cleared_from_both(github, spool_dir, tmp_path):
    from canary.notify import spool

    store = _store(tmp_path)
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(attempts=2, scale=TINY))
    first = failing("20260828T060000Z-tpu-ab12", "2026-08-28")
    store.append(first)
    github.state.down = True
    notify(first, FACTS, repo=REPO, client=gh, store=store)
    assert list(spool_dir.glob("*/notify-pending.json"))

    github.state.down = False
    res = notify(passing(), Facts(), repo=REPO, client=gh, store=store)
    assert [(d.run_id, d.status) for d in res.deliveries] == [(first.run_id, "sent"), (passing().run_id, "sent")]
    assert not list(spool_dir.glob("*/notify-pending.json"))
    assert spool.waiting_in(store.records()) == []
    assert len(github.state.issues()) == 1


def test_resending_the_same_run_clears_its_mark_in_the_history(github, spool_dir, tmp_path):
    from canary.notify import spool

    store = _store(tmp_path)
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(attempts=2, scale=TINY))
    first = failing()
    store.append(first)
    github.state.down = True
    notify(first, FACTS, repo=REPO, client=gh, store=store)
    github.state.down = False
    assert notify(first, FACTS, repo=REPO, client=gh, store=store).delivered
    assert spool.PENDING_KEY not in store.get(first.run_id).context
    assert not list(spool_dir.glob("*/notify-pending.json"))
