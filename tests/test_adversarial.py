"""canary as an operator and an attacker would treat it: stopped by signals, killed outright,
starved of disk, and pointed at a hostile GitHub. (Hostile bytes: test_adversarial_bytes.py;
secrets: test_adversarial_secrets.py.)

Each class of fault has its own tests; they run the real command line (``python -m canary``)
against real child processes, a real tmpfs and the loopback GitHub server.
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from adversary import PY, WRITER, canary_cli, cli_env, is_alive, lanes_toml, wait_for
from conftest import ROOT, popen_as_from_a_terminal
from github_server import REPO, TOKEN, github  # noqa: F401 (fixture)

from canary.errors import ConfigError


def _assert_child_dies_with(parent: subprocess.Popen, child_pid) -> None:
    """SIGKILL ``parent`` once ``child_pid()`` names its live child; the child must die too."""
    try:
        found: list[int] = []
        wait_for(lambda: found.append(child_pid()) or found[-1], what="the child")
        child = found[-1]
        assert is_alive(child)
        parent.kill()
        parent.wait(timeout=60)
        wait_for(lambda: not is_alive(child), timeout=60, what="the orphaned child to die")
    finally:
        if parent.poll() is None:
            parent.kill()


# A stand-in workload: a process group of three sleepers (the shell and two children) that
# writes their pids and would run for five minutes.
GROUP = ["sh", "-c", 'sleep 300 & a=$!; sleep 300 & b=$!; echo "$$ $a $b" > "$PIDS"; wait', "{entrypoint}"]


# ----------------------------------------------------------------------------- 1. signals


@pytest.mark.slow
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)])
def test_a_stop_signal_kills_the_attempts_process_group_and_records_a_cancelled_run(tmp_path, sig, code):
    pids_file = tmp_path / "pids"
    env = cli_env(tmp_path, CANARY_LANES=str(lanes_toml(tmp_path, GROUP, attempts=3)), PIDS=str(pids_file))
    proc = subprocess.Popen(
        [
            PY,
            "-m",
            "canary",
            "run",
            "cpu",
            "--out",
            str(tmp_path / "runs"),
            "--json",
            "--notify",
            "github",
            "--repo",
            "acme/canary",
            "--dry-run",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: pids_file.is_file() and len(pids_file.read_text().split()) == 3, what="the workload")
        group = [int(p) for p in pids_file.read_text().split()]
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert not [p for p in group if is_alive(p)], "the attempt's process group outlived the run"
    result = json.loads(out)
    assert result["verdict"] == "cancelled" and result["classification"] == "cancelled"
    assert len(result["attempts"]) == 1, "a stopped run must not try again"
    assert result["attempts"][0]["outcome"] == "cancelled"
    assert f"stopped by {sig.name}" in result["error"]
    # the group ended on SIGTERM: its grace never ran out (that is the next test's SIGKILL)
    assert "process group" in result["attempts"][0]["detail"] and "ended on SIGTERM" in result["attempts"][0]["detail"]
    assert "notify" not in result, "a cancelled run is never notified"
    # its gates saw a run cut short: none is a FAIL, each says it judged nothing
    assert {g["status"] for g in result["gates"]} == {"SKIP"}
    assert all(g["detail"] == f"not judged: the run was stopped by {sig.name}" for g in result["gates"])
    on_disk = json.loads(Path(result["run_dir"], "result.json").read_text())
    assert on_disk["verdict"] == "cancelled"
    assert result["context"]["history"]["status"] == "stored"
    hist = subprocess.run([PY, "-m", "canary", "history", "--json"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert [r["verdict"] for r in json.loads(hist.stdout)["records"]] == ["cancelled"], hist.stdout


@pytest.mark.slow
def test_a_group_that_ignores_sigterm_is_killed_after_the_grace(tmp_path):
    pids_file = tmp_path / "pids"
    stubborn = ["sh", "-c", "trap '' TERM; " + GROUP[2], "{entrypoint}"]
    env = cli_env(tmp_path, CANARY_LANES=str(lanes_toml(tmp_path, stubborn)), PIDS=str(pids_file))
    proc = subprocess.Popen(
        [PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs"), "--json"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: pids_file.is_file() and len(pids_file.read_text().split()) == 3, what="the workload")
        group = [int(p) for p in pids_file.read_text().split()]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert not [p for p in group if is_alive(p)]
    assert "killed with SIGKILL after 5s" in json.loads(out)["attempts"][0]["detail"]


@pytest.mark.slow
def test_the_workload_dies_with_a_harness_killed_without_a_word(tmp_path):
    """SIGKILL of the harness: no handler runs, yet the kernel ends its child (parent-death
    signal), so no orphan keeps an accelerator busy."""
    pids_file = tmp_path / "pids"
    child = ["sh", "-c", 'echo $$ > "$PIDS"; exec sleep 300', "{entrypoint}"]
    env = cli_env(tmp_path, CANARY_LANES=str(lanes_toml(tmp_path, child)), PIDS=str(pids_file))
    proc = subprocess.Popen(
        [PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _assert_child_dies_with(
        proc, lambda: pids_file.is_file() and pids_file.read_text().strip() and int(pids_file.read_text())
    )


def test_parent_death_signal_is_armed_in_the_workload_itself(tmp_path):
    """The workload arms it too (for launchers whose child is not the workload: a Ray driver,
    a site's job CLI): a python parent that dies by SIGKILL takes the workload-like child along."""
    child_code = (
        "import time; from canary.formats import signals; "
        "signals.die_with_parent(); print(1, flush=True); time.sleep(300)"
    )
    code = (
        "import subprocess, sys, time\n"
        f"c = subprocess.Popen([sys.executable, '-c', {child_code!r}], stdout=subprocess.PIPE)\n"
        "c.stdout.readline(); print(c.pid, flush=True); time.sleep(300)\n"
    )
    parent = subprocess.Popen([PY, "-c", code], cwd=ROOT, env=cli_env(tmp_path), stdout=subprocess.PIPE, text=True)
    _assert_child_dies_with(parent, lambda: int(parent.stdout.readline()))


@pytest.mark.slow
def test_sigint_says_interrupted_and_exits_130(tmp_path):
    """Ctrl-C in any command: a short line and 130, not click's "Aborted!" and 1. The command
    reads a log from a terminal, as someone pasting one would, and is interrupted once it says it
    is waiting for it."""
    master, terminal = pty.openpty()
    try:
        proc = popen_as_from_a_terminal(
            [PY, "-m", "canary", "signature", "-"],
            cwd=ROOT,
            env=cli_env(tmp_path),
            stdin=terminal,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(terminal)
    try:
        ready = proc.stderr.readline()
        assert "reading a log from standard input" in ready, ready
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:  # say how it stood: its signal masks and where it waited
            status = Path(f"/proc/{proc.pid}/status").read_text()
            wchan = Path(f"/proc/{proc.pid}/wchan").read_text()
            sig = [line for line in status.splitlines() if line.startswith(("State", "Sig", "Shd"))]
            pytest.fail(f"no exit 120 s after SIGINT: {sig}, waiting in {wchan}")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Aborted" not in err and "Traceback" not in err


class _UnreachableRay:
    """A Ray job client whose cluster went away: every call fails as JobSubmissionClient's do."""

    def stop_job(self, job_id):
        raise ConnectionError("Failed to connect to Ray at address: http://127.0.0.1:1")

    def get_job_status(self, job_id):
        raise ConnectionError("Failed to connect to Ray at address: http://127.0.0.1:1")


def test_a_ray_job_that_cannot_be_stopped_is_said_not_swallowed():
    from canary.launchers.ray import RayLauncher

    said = RayLauncher("http://127.0.0.1:1", {}, 1.0)._stop(_UnreachableRay(), "raysubmit_1", 0.01, wait_s=0.1)
    assert "could not stop Ray job raysubmit_1" in said and "may still be running" in said
    assert "Failed to connect" in said


def test_cancelled_runs_are_neither_passes_nor_failures_in_the_history_queries():
    from canary.history import queries
    from canary.record import RunRecord

    def rec(i, verdict):
        return RunRecord(
            f"r{i}", "cpu", "moe-canary", 1, verdict, None, None, [], "", started_at=f"2026-08-2{i}T00:00:00+00:00"
        )

    runs = [rec(1, "pass"), rec(2, "cancelled"), rec(3, "pass"), rec(4, "cancelled")]
    assert queries.flakiness(runs, "cpu") == 0.0
    assert queries.strip(runs, "cpu") == "PP"


def test_cancellable_notes_the_first_stop_signal_and_restores_the_handlers():
    from canary.formats import signals

    before = signal.getsignal(signal.SIGTERM)
    with signals.cancellable():
        assert signals.requested() is None
        signal.raise_signal(signal.SIGTERM)  # delivered to this thread before the call returns
        signal.raise_signal(signal.SIGHUP)
        assert signals.requested() == signal.SIGTERM  # the first one counts; nothing was raised
    assert signal.getsignal(signal.SIGTERM) is before and signals.requested() is None
    assert [signals.exit_code(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)] == [143, 130, 129]


# ----------------------------------------------------------------------------- 2. disks and permissions


def _mount_tmpfs(path: Path, options: str) -> str | None:
    """Mounts a tmpfs at ``path``; None, or why it could not."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True, text=True)
    return None if r.returncode == 0 else f"mount -t tmpfs failed: {r.stderr.strip()}"


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB tmpfs: room for a run directory, not for much more."""
    d = tmp_path / "small"
    why = _mount_tmpfs(d, "size=256k")
    if why:
        pytest.skip(f"no small disk to fill: {why}")
    yield d
    subprocess.run(["umount", "-l", str(d)], check=False)


@pytest.fixture
def readonly_dir(tmp_path):
    """A directory nothing can be written to: a read-only tmpfs (as root), else mode 0555."""
    d = tmp_path / "readonly"
    why = _mount_tmpfs(d, "ro,size=64k")
    if why is None:
        yield d
        subprocess.run(["umount", "-l", str(d)], check=False)
        return
    if os.geteuid() == 0:
        pytest.skip(f"no read-only directory for root: {why}")
    d.chmod(0o555)
    yield d
    d.chmod(0o755)


# A stand-in workload that writes a passing-looking metrics file, then fills the disk under --out.
_FILLER = r"""
import json, shlex, sys
out = json.load(open(shlex.split(sys.argv[1])[-1]))["out_dir"]
with open(out + "/metrics.jsonl", "w") as f:
    for step in range(3):
        f.write(json.dumps({"global_step": step, "train/loss": 4.0}) + "\n")
try:
    with open(out + "/ballast", "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()
except OSError:
    pass
print("trained; the disk is full now")
"""


@pytest.mark.slow
def test_a_disk_that_fills_up_under_out_still_gives_the_verdict_and_records_the_run(tmp_path, small_disk):
    lanes = lanes_toml(tmp_path, [PY, "-c", _FILLER, "{entrypoint}"])
    r = canary_cli(
        "run", "cpu", "--steps", "3", "--out", str(small_disk), "--cold", tmp_path=tmp_path, CANARY_LANES=str(lanes)
    )
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 1, err
    assert "Traceback" not in out + err
    assert "PASS" in out or "FAIL" in out, out
    [line] = [x for x in err.splitlines() if "no space left" in x]
    assert line.startswith(f"canary: {small_disk}/") and line.endswith(": no space left on device"), line
    assert "/attempt-1/" not in line, "the path named is the one that could not be written"
    hist = canary_cli("history", "--json", tmp_path=tmp_path)
    [rec] = json.loads(hist.stdout)["records"]
    assert "no space left on device" in rec["context"]["disk"]


@pytest.mark.parametrize("flag", ["--out", "--cache-dir"])
def test_an_unwritable_out_or_cache_dir_is_bad_input_before_training(tmp_path, readonly_dir, flag):
    from canary.formats.spec import CacheSpec
    from canary.run.runner import RunOptions, run_canary

    where = readonly_dir / "runs"
    opts = RunOptions(
        lane="cpu",
        out=where if flag == "--out" else tmp_path / "runs",
        record_history=False,
        cache=CacheSpec(mode="warm", dir=str(where) if flag == "--cache-dir" else str(tmp_path / "c")),
    )
    with pytest.raises(
        ConfigError, match=rf"{flag} {where}: cannot write there: (read-only file system|permission denied)"
    ):
        run_canary(opts)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir()), "nothing was started"


def test_an_out_that_is_not_a_directory_is_bad_input(tmp_path):
    from canary.run.runner import RunOptions, run_canary

    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match=r"--out .*/file/runs: cannot write there: not a directory"):
        run_canary(RunOptions(lane="cpu", out=tmp_path / "file" / "runs", record_history=False))


@pytest.mark.slow
def test_a_read_only_data_dir_keeps_the_record_where_it_says_and_the_next_run_uploads_it(tmp_path, readonly_dir):
    lanes = lanes_toml(tmp_path, [PY, "-c", WRITER, "{entrypoint}", b'{"global_step": 0, "train/loss": 1.0}\n'.hex()])
    env = dict(
        CANARY_LANES=str(lanes),
        CANARY_HISTORY=str(readonly_dir / "history.sqlite3"),
        CANARY_SPOOL_DIR=str(readonly_dir / "spool"),
        TMPDIR=str(tmp_path / "tmp"),
    )
    (tmp_path / "tmp").mkdir()
    r = canary_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, **env)
    assert r.returncode in (0, 1), r.stderr.decode()
    said = json.loads(r.stdout)["context"]["history"]
    assert said["status"] == "spooled", said
    kept = Path(said["detail"].split("kept in ", 1)[1].split(", uploaded", 1)[0])
    assert kept.is_file() and kept.is_relative_to(tmp_path / "tmp"), said["detail"]
    assert json.loads(kept.read_text())["run_id"] == json.loads(r.stdout)["run_id"]

    # the data dir becomes writable again: the next invocation uploads what waited
    if os.geteuid() == 0:
        subprocess.run(["mount", "-o", "remount,rw", str(readonly_dir)], check=True)
    else:
        readonly_dir.chmod(0o755)
    first = json.loads(r.stdout)["run_id"]
    hist = canary_cli("history", "--json", tmp_path=tmp_path, **env)  # shown while it waits
    assert [x["run_id"] for x in json.loads(hist.stdout)["records"]] == [first]
    r = canary_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, **env)
    assert json.loads(r.stdout)["context"]["history"]["status"] == "stored"
    assert not kept.exists(), "the next run uploads what waited"
    from canary.history.sqlite import SqliteStore

    assert [x.run_id for x in SqliteStore(readonly_dir / "history.sqlite3").records()] == [
        first,
        json.loads(r.stdout)["run_id"],
    ]


# ----------------------------------------------------------------------------- 5. the GitHub client


class _Elsewhere:
    """Another host on loopback that records whatever reaches it (and what it was told)."""

    def __init__(self):
        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                seen.append((self.path, self.headers.get("Authorization")))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"[]")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def elsewhere():
    e = _Elsewhere()
    yield e
    e.close()


def _client(github):
    from canary.notify.github import GitHubClient
    from canary.notify.transport import RetryPolicy

    return GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=0.001), per_page=1)


@pytest.mark.parametrize(
    "hostile",
    [
        "{elsewhere}",  # another port on the same machine
        "http://localhost:{port}",  # the same port under another name
        "https://127.0.0.1:{port}",  # another scheme
        "http://127.0.0.1:{port}@{elsewhere_host}",  # userinfo dressing up another host
        "{elsewhere}/api.github.com",  # a lookalike path
    ],
)
def test_a_link_header_to_anywhere_but_the_api_host_is_refused_and_gets_no_token(github, elsewhere, hostile):
    from canary.notify.transport import GitHubError

    for n in (1, 2, 3):
        github.state.add_issue(REPO, f"issue {n}", "body", ["canary"])
    port = github.url.rsplit(":", 1)[1]
    github.state.link_host = hostile.format(
        elsewhere=elsewhere.url, port=port, elsewhere_host=elsewhere.url.split("//", 1)[1]
    )
    with pytest.raises(GitHubError, match=r"refused: not the API at .* \(the token is sent only there\)") as e:
        _client(github).list_issues("canary")
    assert TOKEN not in str(e.value)
    assert elsewhere.seen == [], "a request left for another host"
    assert len(github.state.requests) == 1, "a refusal is not retried"


def test_a_redirect_to_another_host_is_refused_and_gets_no_token(github, elsewhere):
    from canary.notify.transport import GitHubError

    github.state.redirect_to = elsewhere.url
    with pytest.raises(GitHubError, match=r"refused a redirect .* the token goes only to the API host"):
        _client(github).list_issues("canary")
    assert elsewhere.seen == []
    assert len(github.state.requests) == 1


def test_a_url_for_another_host_is_refused_before_anything_is_sent(github, elsewhere):
    from canary.notify.transport import GitHubError

    with pytest.raises(GitHubError, match="refused"):
        _client(github).request("GET", elsewhere.url + f"/repos/{REPO}/issues")
    assert elsewhere.seen == []


def test_a_persons_issue_quoting_the_marker_is_never_canarys_own(github):
    """A person's issue that quotes canary's markers (pasted from canary's issue) is neither
    commented on as canary's, nor kept as the original, nor closed as a duplicate."""
    from notify_records import failing

    from canary.notify.markers import fingerprint_marker, run_marker
    from canary.notify.model import Facts
    from canary.notify.tracker import report

    record = failing()
    quoted = "\n".join(
        [
            "I see this too; canary's issue says:",
            "",
            "> " + fingerprint_marker("3f9a1c2b7d4e"),
            fingerprint_marker("3f9a1c2b7d4e"),
            run_marker(record.run_id, record.lane),
        ]
    )
    person = github.state.add_issue(REPO, "my notes on the gmm crash", quoted, ["canary"])
    client = _client(github)
    actions = report(client, record, Facts())
    assert [a.kind for a in actions] == ["opened"], actions
    assert actions[0].issue != person["number"]
    mine = github.state.issues()[person["number"] - 1]
    assert mine["state"] == "open" and github.state.comments(person["number"]) == []

    # the next run's recurrence goes to canary's issue, still not to the person's
    again = report(client, failing("20260829T060000Z-tpu-cd34", "2026-08-29"), Facts())
    assert [(a.kind, a.issue) for a in again] == [("commented", actions[0].issue)]
    assert github.state.comments(person["number"]) == [] and mine["state"] == "open"


def test_a_cancelled_run_notified_later_posts_nothing(github):
    """``canary notify`` on a stopped run's record, in another process, says nothing either."""
    from dataclasses import replace as dc_replace

    from notify_records import failing

    from canary.notify.model import Facts
    from canary.notify.tracker import report

    stopped = dc_replace(failing(), verdict="cancelled", classification="cancelled", signature=None)
    assert report(_client(github), stopped, Facts()) == []
    assert github.state.writes() == [] and github.state.issues() == []
