"""The ray launcher against a real local Ray head. Not collected by default: these run inside a
network namespace that has only loopback (tests/test_ray_lane.py starts them there), because Ray
advertises the machine's outward address even when told 127.0.0.1. In that namespace Ray binds
127.0.0.1, nothing leaves the machine, and the namespace's own process tree means stopping this
head stops no one else's Ray.

    unshare --net --pid --fork --mount-proc sh -c 'ip link set lo up && python -m pytest tests/ray_cases.py'
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from canary.launchers import AttemptRequest
from canary.launchers.ray import RayLauncher

RAY = str(Path(sys.executable).parent / "ray")
HEAD_TPUS = 4
# RAY_JOB_START_TIMEOUT_SECONDS: how long Ray tries to start a job's supervisor. It is the head's, for every job: short
# enough that the never-started case is quick, long enough that a supervisor a busy machine starts slowly (5 s ran
# out once on a loaded box) still starts; the rehearsal, whose jobs start on a busier one, asks more
START_TIMEOUT_S = int(os.environ.get("CANARY_TEST_RAY_START_TIMEOUT_S", "20"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_head():
    interfaces = [name for _, name in socket.if_nameindex()]
    assert os.environ.get("CANARY_RAY_NETNS") == "1" and interfaces == ["lo"], (
        f"these tests start a Ray head and must run in a loopback-only namespace (interfaces here: "
        f"{interfaces}); run them through tests/test_ray_lane.py"
    )
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's unix sockets live under it
    env = {**os.environ, "RAY_JOB_START_TIMEOUT_SECONDS": str(START_TIMEOUT_S)}
    # (a head whose own processes were slow to come up on a loaded box is stopped and started once more, on fresh
    # ports; a second failure is the test's, with what Ray said)
    for attempt in (1, 2):
        dashboard = _free_port()
        started = subprocess.run(
            [
                RAY,
                "start",
                "--head",
                f"--port={_free_port()}",
                "--node-ip-address=127.0.0.1",
                "--dashboard-host=127.0.0.1",
                f"--dashboard-port={dashboard}",
                "--include-dashboard=true",
                "--num-cpus=2",
                f"--resources={json.dumps({'TPU': HEAD_TPUS})}",
                f"--temp-dir={temp}",
                "--disable-usage-stats",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        if started.returncode == 0:
            break
        subprocess.run([RAY, "stop", "--force"], env=env, capture_output=True, timeout=120)
        assert attempt == 1, f"ray start failed twice:\n{started.stdout[-3000:]}\n{started.stderr[-3000:]}"
    try:
        yield f"http://127.0.0.1:{dashboard}"
    finally:
        # Only this namespace's processes are visible here, so this stops this head alone.
        subprocess.run([RAY, "stop", "--force"], env=env, capture_output=True, timeout=120)


def _request(tmp_path: Path, name: str, code: str, timeout_s: float = 300) -> AttemptRequest:
    return AttemptRequest(
        argv=[sys.executable, "-c", code],
        env={"CANARY_CASE": name},
        cwd=tmp_path,
        log_path=tmp_path / name / "train.log",
        timeout_s=timeout_s,
        poll_interval=0.2,
        name=f"{name}-{os.getpid()}-{time.time_ns()}",
    )


def _launcher(address: str, tpus: float = HEAD_TPUS, start_timeout_s: float = 120) -> RayLauncher:
    return RayLauncher(address, {"TPU": tpus}, start_timeout_s, log_interval_s=0.5, grace_s=30)


def test_cpu_ferry_through_ray_passes(ray_head, tmp_path, cli):
    """`canary run` on a lane whose launcher is Ray; --ray-address wins over the lane's (dead) one."""
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(
        '[lanes.cpu]\nplatform = "cpu"\nattempts = 1\ntimeout_s = 600\n'
        f'launcher = {{ kind = "ray", address = "http://127.0.0.1:9", resources = {{ TPU = {HEAD_TPUS} }}, '
        "start_timeout_s = 120 }\n"
    )
    gates = tmp_path / "gates.toml"
    gates.write_text("[lanes.cpu]\nmin_steps = 200\nmax_final_loss = 10.0\n")
    r = cli(
        "run",
        "cpu",
        "--steps",
        "4",
        "--gates",
        str(gates),
        "--out",
        str(tmp_path / "runs"),
        "--ray-address",
        ray_head,
        "--json",
        env={"CANARY_LANES": str(lanes)},
    )
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout)
    assert result["verdict"] == "pass" and result["steps_completed"] == 4
    (attempt,) = result["attempts"]
    assert attempt["outcome"] == "succeeded" and attempt["job_id"].startswith("canary-")
    log = (Path(result["run_dir"]) / "train.log").read_text()
    assert f"submitted Ray job {attempt['job_id']} to {ray_head}" in log
    assert "compiled the train step" in log  # the workload's own output, copied from Ray's log


def test_command_ferry_through_ray_gets_the_lanes_variables(ray_head, tmp_path, cli):
    """A command ferry (a team's own trainer) on a Ray lane: launched as a Ray job, judged from the
    summary it wrote, with the harness's XLA_FLAGS / NCCL_* forwarded to it and the cold cache mode."""
    root = Path(__file__).resolve().parent.parent
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(
        '[lanes.cpu]\nplatform = "cpu"\nattempts = 1\ntimeout_s = 600\n'
        f'launcher = {{ kind = "ray", resources = {{ TPU = {HEAD_TPUS} }}, start_timeout_s = 120 }}\n'
    )
    r = cli(
        "run",
        "cpu",
        "--ferry",
        str(root / "ferries/examples/levanter-standin.toml"),
        "--gates",
        str(root / "gates/examples/levanter-standin.toml"),
        "--cold",
        "--out",
        str(tmp_path / "runs"),
        "--ray-address",
        ray_head,
        "--json",
        env={"CANARY_LANES": str(lanes), "XLA_FLAGS": "--xla_dump_hlo_as_text", "NCCL_DEBUG": "INFO"},
    )
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout)
    assert result["verdict"] == "pass" and result["steps_completed"] == 30
    assert result["attempts"][0]["job_id"].startswith("canary-")
    env = json.loads((Path(result["run_dir"]) / "tracker_metrics.jsonl").read_text())["config"]["env"]
    assert env["XLA_FLAGS"] == "--xla_dump_hlo_as_text" and env["NCCL_DEBUG"] == "INFO"
    assert env["JAX_ENABLE_COMPILATION_CACHE"] == "false"


def test_failing_job_is_failed_with_its_log(ray_head, tmp_path):
    req = _request(tmp_path, "fails", "import os, sys; print('case', os.environ['CANARY_CASE']); sys.exit(3)")
    out = _launcher(ray_head).launch(req)
    assert out.outcome == "failed" and out.exit_code == 3, out
    assert "case fails" in req.log_path.read_text()


def test_job_stopped_by_someone_else_is_stopped(ray_head, tmp_path):
    from ray.job_submission import JobStatus, JobSubmissionClient

    req = _request(tmp_path, "stopped", "import time; print('sleeping', flush=True); time.sleep(300)")
    other = JobSubmissionClient(ray_head)
    job_id = f"canary-{req.name}"

    def operator_stops_it():
        if other.get_job_status(job_id) == JobStatus.RUNNING:
            other.stop_job(job_id)

    out = _launcher(ray_head).launch(req, poll=operator_stops_it)
    assert out.outcome == "stopped" and out.job_id == job_id, out


def test_job_past_its_timeout_is_stopped_as_timeout(ray_head, tmp_path):
    from ray.job_submission import JobStatus, JobSubmissionClient

    req = _request(tmp_path, "slow", "import time; time.sleep(300)", timeout_s=1)
    out = _launcher(ray_head).launch(req)
    assert out.outcome == "timeout", out
    assert JobSubmissionClient(ray_head).get_job_status(out.job_id) == JobStatus.STOPPED


def test_job_asking_for_more_than_the_cluster_has_never_starts(ray_head, tmp_path):
    """Ray gives up on the job after RAY_JOB_START_TIMEOUT_SECONDS; the lane's own limit is longer."""
    req = _request(tmp_path, "too-big", "print('never')")
    out = _launcher(ray_head, tpus=2 * HEAD_TPUS, start_timeout_s=120).launch(req)
    assert out.outcome == "never_started", out
    assert "never" not in req.log_path.read_text().replace("never_started", "")


def test_lane_start_timeout_stops_a_pending_job(ray_head, tmp_path):
    from ray.job_submission import JobSubmissionClient

    req = _request(tmp_path, "pending", "print('never')")
    out = _launcher(ray_head, tpus=2 * HEAD_TPUS, start_timeout_s=1).launch(req)
    assert out.outcome == "never_started" and "within 1s" in out.detail, out
    status = JobSubmissionClient(ray_head).get_job_status(out.job_id)
    assert str(status.value) in ("STOPPED", "FAILED")


def test_a_stop_signal_to_the_harness_stops_the_job_as_cancelled(ray_head, tmp_path):
    """SIGTERM/SIGINT/SIGHUP to `canary run` (noted by canary.formats.signals) stops the running Ray job
    within the harness's 10 s, and the attempt ends as cancelled, saying what the stop did."""
    import signal

    from ray.job_submission import JobStatus, JobSubmissionClient

    from canary.formats import signals

    req = _request(tmp_path, "cancel", "import time; print('sleeping', flush=True); time.sleep(300)")
    other = JobSubmissionClient(ray_head)
    job_id = f"canary-{req.name}"

    def told_to_stop():
        if other.get_job_status(job_id) == JobStatus.RUNNING:
            signals.request(signal.SIGTERM)

    with signals.cancellable():
        out = _launcher(ray_head).launch(req, poll=told_to_stop)
    assert out.outcome == "cancelled" and out.job_id == job_id, out
    assert out.detail.startswith("stopped by SIGTERM; stopped Ray job"), out.detail
    assert other.get_job_status(job_id) == JobStatus.STOPPED
    assert "stopped by SIGTERM" in req.log_path.read_text()


def test_cluster_gone_mid_job_is_lost(ray_head, tmp_path):
    """Last on purpose: it stops the head (the fixture's own stop then finds nothing to do)."""
    from ray.job_submission import JobStatus, JobSubmissionClient

    req = _request(tmp_path, "orphan", "import time; time.sleep(300)")
    other = JobSubmissionClient(ray_head)
    job_id = f"canary-{req.name}"
    stopped = []

    def cluster_dies():
        if not stopped and other.get_job_status(job_id) == JobStatus.RUNNING:
            subprocess.run([RAY, "stop", "--force"], capture_output=True, timeout=120)
            stopped.append(True)

    launcher = RayLauncher(ray_head, {"TPU": HEAD_TPUS}, 120, log_interval_s=0.5, lost_after_s=3)
    out = launcher.launch(req, poll=cluster_dies)
    assert stopped and out.outcome == "lost" and "no answer from Ray" in out.detail, out
