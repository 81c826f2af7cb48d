"""The notifications that wait (#34): one GitHub refuses never blocks the others, what it refuses
for good is kept as given up and listed, ``canary notify --pending/--resend/--drop`` manage them,
only what this canary spooled is resent by itself, and a notify stopped by a signal keeps its
notification. Against the loopback GitHub server, through the real command line."""

import json
import os
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli
from github_server import REPO, TOKEN, cli_env, github  # noqa: F401 (fixture)
from notify_records import failing

from canary.notify import spool

LATER = "20260829T060000Z-tpu-cd34"


def _env(github, tmp_path, **extra):
    return cli_env(github, tmp_path, **extra)


def _run_dir(tmp_path, record):
    d = tmp_path / "runs" / record.run_id
    d.mkdir(parents=True)
    record.run_dir = str(d)
    (d / "result.json").write_text(json.dumps(record.to_dict()))
    return d


def _notify(env, tmp_path, run, *args, repo=REPO):
    r = run_cli("notify", str(run), "--repo", repo, "--runs", str(tmp_path / "runs"), "--json", *args, env=env)
    return r, (json.loads(r.stdout) if r.stdout.strip().startswith("{") else None)


def _waiting_after_an_outage(github, env, tmp_path, record=None, repo=REPO):
    """A run whose notification waits: GitHub was down when it was told."""
    github.state.down = True
    d = _run_dir(tmp_path, record or failing())
    assert _notify(env, tmp_path, d, repo=repo)[0].returncode == 1
    github.state.down = False
    return d


def _pending(env, tmp_path):
    r = run_cli("notify", "--pending", "--runs", str(tmp_path / "runs"), "--json", env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _posts_to(github, repo):
    return [p for m, p in github.state.requests if p.startswith(f"/repos/{repo}/")]


def test_a_404_repository_is_given_up_and_the_next_run_reaches_the_right_one(github, tmp_path):
    env = _env(github, tmp_path)
    first = _run_dir(tmp_path, failing())
    r = run_cli("notify", str(first), "--repo", "acme/typo", env=env)
    assert r.returncode == 1
    assert "not sent run 20260828T060000Z-tpu-ab12 to acme/typo:" in r.stdout and "HTTP 404" in r.stdout
    assert "given up" in r.stdout and "canary notify --resend 20260828T060000Z-tpu-ab12" in r.stdout
    kept = json.loads((first / "notify-pending.json").read_text())
    assert kept["state"] == "given-up" and kept["repo"] == "acme/typo" and kept["tries"] == 1

    typo_calls = len(_posts_to(github, "acme/typo"))
    second = _run_dir(tmp_path, failing(LATER, "2026-08-29"))
    r, out = _notify(env, tmp_path, second)
    assert r.returncode == 0, r.stderr
    assert [(d["run_id"], d["status"], d["repo"]) for d in out["deliveries"]] == [(LATER, "sent", REPO)]
    assert len(_posts_to(github, "acme/typo")) == typo_calls  # the given-up one is not tried again
    [issue] = github.state.issues()
    assert LATER in issue["body"]
    assert "given up" in r.stderr and "canary notify --pending" in r.stderr

    listed = _pending(env, tmp_path)["pending"]
    [row] = [x for x in listed if x["where"] != "the history"]
    assert row["run_id"] == failing().run_id and row["state"] == "given-up" and row["repo"] == "acme/typo"
    assert "HTTP 404" in row["error"] and "given up" in row["note"]
    r = run_cli("notify", "--pending", "--runs", str(tmp_path / "runs"), env=env)
    assert "20260828T060000Z-tpu-ab12  given-up  acme/typo" in r.stdout

    # fixed: resent by hand to the right repository, it comments on the open issue
    r = run_cli("notify", "--resend", failing().run_id, "--repo", REPO, "--runs", str(tmp_path / "runs"), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (first / "notify-pending.json").exists()
    assert _pending(env, tmp_path)["pending"] == []
    assert len(github.state.issues()) == 1 and len(github.state.comments(issue["number"])) == 1


def test_drop_removes_a_given_up_notification_and_an_unknown_run_is_bad_input(github, tmp_path):
    env = _env(github, tmp_path)
    first = _run_dir(tmp_path, failing())
    assert run_cli("notify", str(first), "--repo", "acme/typo", env=env).returncode == 1
    r = run_cli("notify", "--drop", "nope", "--runs", str(tmp_path / "runs"), env=env)
    assert r.returncode == 2 and "no pending notification for run 'nope'" in r.stderr
    r = run_cli("notify", "--drop", failing().run_id, "--runs", str(tmp_path / "runs"), env=env)
    assert r.returncode == 0 and "dropped the notification of 1 run(s)" in r.stdout
    assert not (first / "notify-pending.json").exists()
    assert _pending(env, tmp_path)["pending"] == []
    assert not list((tmp_path / "spool" / spool.LEDGER).iterdir())  # its ledger line is gone too


def test_run_and_the_backlog_flags_are_one_or_the_other(github, tmp_path):
    env = _env(github, tmp_path)
    r = run_cli("notify", env=env)
    assert r.returncode == 2 and "give RUN, or one of --pending" in r.stderr
    r = run_cli("notify", "x", "--pending", env=env)
    assert r.returncode == 2 and "not RUN and --pending" in r.stderr
    r = run_cli("notify", "--help", env=env)
    assert "--pending" in r.stdout and "given up" in r.stdout


def test_one_refused_entry_stops_neither_the_others_nor_this_run(github, tmp_path):
    env = _env(github, tmp_path)
    github.state.down = True
    a = _run_dir(tmp_path, failing("20260826T060000Z-tpu-aa01", "2026-08-26"))
    b = _run_dir(tmp_path, failing("20260827T060000Z-tpu-bb02", "2026-08-27", fp="777777777777"))
    assert _notify(env, tmp_path, a)[0].returncode == 1
    assert _notify(env, tmp_path, b)[0].returncode == 1
    github.state.down = False
    github.state.fail(422, message="Validation Failed", method="POST", path_re=r"/issues$")  # the first create
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert r.returncode == 0, r.stderr
    got = {d["run_id"]: d["status"] for d in out["deliveries"]}
    assert got[LATER] == "sent" and sorted(got.values()) == ["given-up", "sent", "sent"]
    [refused] = [d for d in (a, b) if got[d.name] == "given-up"]
    [sent] = [d for d in (a, b) if got[d.name] == "sent"]
    assert json.loads((refused / "notify-pending.json").read_text())["state"] == "given-up"
    assert not (sent / "notify-pending.json").exists()


def test_a_429_asking_a_year_waits_for_the_next_notify_and_is_not_given_up(github, tmp_path):
    env = _env(github, tmp_path)
    github.state.fail(429, retry_after="31536000", message="slow down")
    d = _run_dir(tmp_path, failing())
    r, out = _notify(env, tmp_path, d)
    assert r.returncode == 1 and out["deliveries"][0]["status"] == "spooled"
    assert json.loads((d / "notify-pending.json").read_text())["state"] == "waiting"
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert r.returncode == 0 and [x["status"] for x in out["deliveries"]] == ["sent", "sent"]


def test_a_hand_placed_pending_file_is_ignored_with_a_warning(github, tmp_path):
    env = _env(github, tmp_path)
    github.state.repo("victim/private")
    planted = tmp_path / "runs" / "20260801T060000Z-tpu-ee99"
    planted.mkdir(parents=True)
    for repo in ("victim/private", REPO):
        p = spool.Pending("github", repo, failing("20260801T060000Z-tpu-ee99", "2026-08-01"), failing_facts())
        (planted / "notify-pending.json").write_text(json.dumps(p.to_dict()))
        r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER + repo[0], "2026-08-29")))
        assert r.returncode == 0, r.stderr
        assert [d["run_id"] for d in out["deliveries"]] == [LATER + repo[0]]
        assert f"ignored {planted / 'notify-pending.json'}: not spooled by this canary" in r.stderr
    assert _posts_to(github, "victim/private") == []
    assert (planted / "notify-pending.json").is_file()  # left for a person
    [row] = [x for x in _pending(env, tmp_path)["pending"] if x["run_id"] == "20260801T060000Z-tpu-ee99"]
    assert "not spooled by this canary" in row["note"]


def test_a_copy_of_a_real_entry_in_a_sibling_directory_is_not_resent(github, tmp_path):
    env = _env(github, tmp_path)
    a = _waiting_after_an_outage(github, env, tmp_path)
    copy = tmp_path / "runs" / "copied"
    copy.mkdir()
    (copy / "notify-pending.json").write_text((a / "notify-pending.json").read_text().replace(REPO, "victim/x"))
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert r.returncode == 0 and [d["status"] for d in out["deliveries"]] == ["sent", "sent"]
    assert _posts_to(github, "victim/x") == [] and "ignored" in r.stderr


def test_an_entry_for_another_repository_waits_for_a_notify_of_that_repository(github, tmp_path):
    env = _env(github, tmp_path)
    github.state.repo("acme/other")
    a = _waiting_after_an_outage(github, env, tmp_path, repo="acme/other")
    before = len(_posts_to(github, "acme/other"))
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert [d["run_id"] for d in out["deliveries"]] == [LATER] and "is for acme/other, not acme/canary" in r.stderr
    assert (a / "notify-pending.json").is_file() and len(_posts_to(github, "acme/other")) == before
    r, out = _notify(
        env, tmp_path, _run_dir(tmp_path, failing("20260830T060000Z-tpu-ff00", "2026-08-30")), repo="acme/other"
    )
    assert r.returncode == 0 and [d["status"] for d in out["deliveries"]] == ["sent", "sent"]
    assert not (a / "notify-pending.json").exists()


def test_a_garbage_pending_file_is_left_and_said_and_blocks_nothing(github, tmp_path):
    env = _env(github, tmp_path)
    junk = tmp_path / "runs" / "junk"
    junk.mkdir(parents=True)
    (junk / "notify-pending.json").write_bytes(b"\x00\xff{not json")
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing()))
    assert r.returncode == 0 and out["deliveries"][0]["status"] == "sent"
    assert "cannot be read" in r.stderr and "Traceback" not in r.stderr
    assert (junk / "notify-pending.json").is_file()
    assert any("junk" in line for line in _pending(env, tmp_path)["unreadable"])


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero"])
def test_a_pending_file_that_is_no_file_is_said_and_never_read(kind, github, tmp_path):
    env = _env(github, tmp_path)
    odd = tmp_path / "runs" / "odd"
    odd.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(odd / "notify-pending.json")
    else:
        os.symlink("/dev/zero", odd / "notify-pending.json")
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing()))
    assert r.returncode == 0 and out["deliveries"][0]["status"] == "sent"
    assert "odd/notify-pending.json: cannot be read" in r.stderr


def test_a_401_is_given_up_and_the_right_token_then_sends_its_own(github, tmp_path):
    env = _env(github, tmp_path)
    first = _run_dir(tmp_path, failing())
    r, out = _notify({**env, "GITHUB_TOKEN": "ghp_" + "W" * 36}, tmp_path, first)
    assert r.returncode == 1 and out["deliveries"][0]["status"] == "given-up"
    assert "HTTP 401" in out["deliveries"][0]["error"]
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert r.returncode == 0 and [d["run_id"] for d in out["deliveries"]] == [LATER]


def test_a_failed_resend_by_hand_is_written_back_where_it_was_found(github, tmp_path):
    env = _env(github, tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    planted = tmp_path / "runs" / "sibling"
    planted.mkdir(parents=True)
    rec = failing("20260801T060000Z-tpu-ee99", "2026-08-01")
    rec.run_dir = str(outside)  # what the record says; not where the entry was found
    entry = spool.Pending("github", "victim/x\x1b]0;t\x07", rec, failing_facts())
    (planted / "notify-pending.json").write_text(json.dumps(entry.to_dict()))
    r = run_cli("notify", "--pending", "--runs", str(tmp_path / "runs"), env=env)
    assert r.returncode == 0 and "\x1b" not in r.stdout and "victim/x" in r.stdout
    github.state.down = True
    r = run_cli("notify", "--resend", "all", "--repo", REPO, "--runs", str(tmp_path / "runs"), env=env)
    assert r.returncode == 1 and "not sent" in r.stdout
    assert not (outside / "notify-pending.json").exists()
    kept = json.loads((planted / "notify-pending.json").read_text())
    assert kept["tries"] == 1 and "503" in kept["error"]


def test_a_spool_that_cannot_be_written_still_sends(github, tmp_path):
    env = _env(github, tmp_path, CANARY_NOTIFY_SPOOL="/proc/canary-spool")
    d = tmp_path / "elsewhere"
    d.mkdir()
    rec = failing()
    rec.run_dir = "/ci-runner/gone"  # not here: its notification would wait under the spool root
    (d / "result.json").write_text(json.dumps(rec.to_dict()))
    r, out = _notify(env, tmp_path, d)
    assert r.returncode == 0, r.stderr
    assert out["deliveries"][0]["status"] == "sent" and len(github.state.issues()) == 1


# ----------------------------------------------------------------------------- signals


def _start(env, *args):
    return subprocess.Popen(
        [sys.executable, "-m", "canary", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stop_while_posting(github, proc, sig):
    assert github.state.received.wait(120), proc.communicate(timeout=60)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    github.state.hold_re = None
    github.state.release.set()  # the held call now goes through, as a slow GitHub's would
    return out, err


def test_sigterm_while_notifying_keeps_the_notification_and_exits_143(github, tmp_path):
    env = _env(github, tmp_path)
    d = _run_dir(tmp_path, failing())
    github.state.hold(r"^POST /repos/acme/canary/issues$")
    proc = _start(env, "notify", str(d), "--repo", REPO, "--runs", str(tmp_path / "runs"))
    out, err = _stop_while_posting(github, proc, signal.SIGTERM)
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    said = " ".join(out.split())
    assert "not sent run 20260828T060000Z-tpu-ab12 to acme/canary: stopped by SIGTERM while notifying" in said
    kept = json.loads((d / "notify-pending.json").read_text())
    assert kept["state"] == "waiting" and "SIGTERM" in kept["error"]
    # the next notify sends it, once: the held create did land, and its marker is found
    r, got = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert r.returncode == 0, r.stderr
    assert [x["status"] for x in got["deliveries"]] == ["sent", "sent"]
    assert len(github.state.issues()) == 1 and not (d / "notify-pending.json").exists()


def test_sigterm_while_resending_an_earlier_one_keeps_both(github, tmp_path):
    env = _env(github, tmp_path)
    a = _waiting_after_an_outage(github, env, tmp_path)
    github.state.hold(r"^POST /repos/acme/canary/issues$")  # the earlier run's create comes first
    b = _run_dir(tmp_path, failing(LATER, "2026-08-29"))
    proc = _start(env, "notify", str(b), "--repo", REPO, "--runs", str(tmp_path / "runs"), "--json")
    out, err = _stop_while_posting(github, proc, signal.SIGTERM)
    assert proc.returncode == 143, err
    got = json.loads(out)
    assert got["stopped"] == signal.SIGTERM and got["deliveries"][-1]["run_id"] == LATER
    assert (a / "notify-pending.json").is_file() and (b / "notify-pending.json").is_file()


def test_sigkill_while_notifying_loses_nothing(github, tmp_path):
    env = _env(github, tmp_path)
    d = _run_dir(tmp_path, failing())
    github.state.hold(r"^GET /repos/acme/canary/issues$")  # before anything is created
    proc = _start(env, "notify", str(d), "--repo", REPO, "--runs", str(tmp_path / "runs"))
    _stop_while_posting(github, proc, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert (d / "notify-pending.json").is_file()
    r, got = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29")))
    assert r.returncode == 0 and [x["run_id"] for x in got["deliveries"]] == [failing().run_id, LATER]
    assert len(github.state.issues()) == 1 and not (d / "notify-pending.json").exists()


def test_two_canaries_resending_at_once_send_an_entry_once(github, tmp_path):
    env = _env(github, tmp_path)
    a = _waiting_after_an_outage(github, env, tmp_path)
    github.state.hold(r"^POST /repos/acme/canary/issues$")
    proc = _start(env, "notify", "--resend", "all", "--repo", REPO, "--runs", str(tmp_path / "runs"), "--no-history")
    assert github.state.received.wait(120), proc.communicate(timeout=60)
    github.state.hold_re = None  # the second canary's calls go through; the first's create stays held
    r, out = _notify(env, tmp_path, _run_dir(tmp_path, failing(LATER, "2026-08-29", fp="999999999999")), "--no-history")
    assert r.returncode == 0, r.stderr
    assert [d["run_id"] for d in out["deliveries"]] == [LATER]  # the held one is the other canary's
    github.state.release.set()
    proc.communicate(timeout=120)
    assert proc.returncode == 0
    assert len(github.state.issues()) == 2 and not (a / "notify-pending.json").exists()


LANES = """
[lanes.cpu]
accelerator = "cpu"
platform = "cpu"
launcher = {{ kind = "command", command = {argv} }}
attempts = 1
timeout_s = 120
"""


def test_sigterm_while_run_notifies_still_prints_the_verdict(github, tmp_path):
    script = "import sys\nprint('Traceback (most recent call last):')\nprint('RuntimeError: boom')\nsys.exit(1)"
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(LANES.format(argv=json.dumps([sys.executable, "-c", script, "{entrypoint}"])))
    env = _env(github, tmp_path, CANARY_LANES=str(lanes))
    github.state.hold(r"^POST /repos/acme/canary/issues$")
    out_dir = tmp_path / "out"
    proc = _start(env, "run", "cpu", "--out", str(out_dir), "--notify", "github", "--repo", REPO, "--no-history")
    out, err = _stop_while_posting(github, proc, signal.SIGTERM)
    assert proc.returncode == 143, err
    assert "FAIL" in out and "not sent" in out and "notifying was stopped by SIGTERM" in err
    [pending] = list(out_dir.glob("*/notify-pending.json"))
    assert json.loads(pending.read_text())["record"]["verdict"] == "fail"


def failing_facts():
    from canary.notify.model import Facts

    return Facts()
