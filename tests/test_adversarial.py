"""canary as an operator and an attacker would treat it: stopped by signals, killed outright,
starved of disk, fed hostile bytes, handed secrets, and pointed at a hostile GitHub.

Each class of fault has its own tests here; they run the real command line (``python -m
canary``) against real child processes, a real tmpfs and the loopback GitHub server.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

PY = sys.executable


def _lanes(tmp_path: Path, command: list[str], attempts: int = 1, timeout_s: int = 600) -> Path:
    """A lanes file whose ``cpu`` lane runs ``command`` (through the command launcher) in place
    of the workload: the ferry and gates of the real cpu lane still apply."""
    p = tmp_path / "lanes.toml"
    p.write_text(
        "[lanes.cpu]\naccelerator = \"cpu\"\nplatform = \"cpu\"\n"
        f"launcher = {{ kind = \"command\", command = {json.dumps(command)} }}\n"
        f"attempts = {attempts}\ntimeout_s = {timeout_s}\n"
    )
    return p


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
            "CANARY_SPOOL_DIR": str(tmp_path / "spool"), **extra}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def _wait_for(pred, timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _assert_child_dies_with(parent: subprocess.Popen, child_pid) -> None:
    """SIGKILL ``parent`` once ``child_pid()`` names its live child; the child must die too."""
    try:
        found: list[int] = []
        _wait_for(lambda: found.append(child_pid()) or found[-1], what="the child")
        child = found[-1]
        assert _alive(child)
        parent.kill()
        parent.wait(timeout=10)
        _wait_for(lambda: not _alive(child), timeout=10, what="the orphaned child to die")
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
    env = _env(tmp_path, CANARY_LANES=str(_lanes(tmp_path, GROUP, attempts=3)), PIDS=str(pids_file))
    proc = subprocess.Popen([PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs"), "--json",
                             "--notify", "github", "--repo", "acme/canary", "--dry-run"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: pids_file.is_file() and len(pids_file.read_text().split()) == 3, what="the workload")
        group = [int(p) for p in pids_file.read_text().split()]
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert took < 10, f"{sig.name} took {took:.1f}s to end the run"
    assert not [p for p in group if _alive(p)], "the attempt's process group outlived the run"
    result = json.loads(out)
    assert result["verdict"] == "cancelled" and result["classification"] == "cancelled"
    assert len(result["attempts"]) == 1, "a stopped run must not try again"
    assert result["attempts"][0]["outcome"] == "cancelled"
    assert f"stopped by {sig.name}" in result["error"]
    assert "process group" in result["attempts"][0]["detail"]
    assert "notify" not in result, "a cancelled run is never notified"
    on_disk = json.loads(Path(result["run_dir"], "result.json").read_text())
    assert on_disk["verdict"] == "cancelled"
    assert result["context"]["history"]["status"] == "stored"
    hist = subprocess.run([PY, "-m", "canary", "history", "--json"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert [r["verdict"] for r in json.loads(hist.stdout)["records"]] == ["cancelled"], hist.stdout


@pytest.mark.slow
def test_the_workload_dies_with_a_harness_killed_without_a_word(tmp_path):
    """SIGKILL of the harness: no handler runs, yet the kernel ends its child (parent-death
    signal), so no orphan keeps an accelerator busy."""
    pids_file = tmp_path / "pids"
    child = ["sh", "-c", 'echo $$ > "$PIDS"; exec sleep 300', "{entrypoint}"]
    env = _env(tmp_path, CANARY_LANES=str(_lanes(tmp_path, child)), PIDS=str(pids_file))
    proc = subprocess.Popen([PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs")],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _assert_child_dies_with(proc, lambda: pids_file.is_file() and pids_file.read_text().strip() and int(pids_file.read_text()))


def test_parent_death_signal_is_armed_in_the_workload_itself(tmp_path):
    """The workload arms it too (for launchers whose child is not the workload: a Ray driver,
    a site's job CLI): a python parent that dies by SIGKILL takes the workload-like child along."""
    child_code = "import time; from canary import signals; signals.die_with_parent(); print(1, flush=True); time.sleep(300)"
    code = ("import subprocess, sys, time\n"
            f"c = subprocess.Popen([sys.executable, '-c', {child_code!r}], stdout=subprocess.PIPE)\n"
            "c.stdout.readline(); print(c.pid, flush=True); time.sleep(300)\n")
    parent = subprocess.Popen([PY, "-c", code], cwd=ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, text=True)
    _assert_child_dies_with(parent, lambda: int(parent.stdout.readline()))


def test_sigint_says_interrupted_and_exits_130(tmp_path):
    """Ctrl-C in any command: a short line and 130, not click's "Aborted!" and 1."""
    proc = subprocess.Popen([PY, "-m", "canary", "signature", "-"], cwd=ROOT, env=_env(tmp_path),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # reading stdin by now
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
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
    from canary import queries
    from canary.record import RunRecord

    def rec(i, verdict):
        return RunRecord(f"r{i}", "cpu", "moe-canary", 1, verdict, None, None, [], "",
                         started_at=f"2026-08-2{i}T00:00:00+00:00")

    runs = [rec(1, "pass"), rec(2, "cancelled"), rec(3, "pass"), rec(4, "cancelled")]
    assert queries.flakiness(runs, "cpu") == 0.0
    assert queries.strip(runs, "cpu") == "PP"
