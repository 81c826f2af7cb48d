"""The ray launcher: one attempt is one job on a Ray cluster, through the Ray Jobs API.

The workload's command line is the job's entrypoint; the attempt's environment (plus the
variables a training job needs from the harness's, see ``FORWARD``) goes into the job's
``runtime_env``; the lane's ``resources`` (``{TPU = 4}``, ``{GPU = 8}``) are the entrypoint's
resources, so the job waits until a worker with them is free. The launcher polls the job's
status, copies its log into the attempt's log file as it grows, stops the job on timeout (or
when the harness is interrupted), and maps what happened to an outcome:

    PENDING past the lane's start_timeout_s, or Ray gave up starting it  -> never_started
    SUCCEEDED                                                           -> succeeded
    FAILED in the entrypoint                                            -> failed
    FAILED because the job's supervisor died, or the cluster went away  -> lost
    STOPPED by someone else                                             -> stopped
    still running after the lane's timeout_s (stopped by us)            -> timeout

The cluster is the lane's ``launcher.address``, overridden by ``RAY_ADDRESS`` and then by
``canary run --ray-address``.

Where things land: the workload writes metrics.jsonl and tracker_metrics.jsonl into the spec's
``out_dir``, an absolute path on the harness's machine. With a Ray head on the same machine (as
in the tests) or a shared file system mounted at the same path on every worker, the harness
reads them as they are written. A remote cluster without such a mount needs the run directory
on storage both sides reach (``canary run --out /mnt/shared/runs``); otherwise the verdict
sees no metrics and fails, though the job's log still arrives through Ray's log API, so the
failure is explained. The lane's ``python`` names the workers' interpreter and
``runtime_env`` (``pip``, ``working_dir``, ...) how the workers get canary itself.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable
from typing import Any

from canary.config import Lane
from canary.formats import signals
from canary.launchers import AttemptOutcome, AttemptRequest, entrypoint_argv

# Variables of the harness's environment a training job needs on the cluster (field notes §2),
# W&B's, so tracking works the same wherever the job runs, and the multi-host start's. Nothing
# else (no GitHub or cloud credentials) leaves the harness.
FORWARD = (
    "XLA_FLAGS",
    "LIBTPU_INIT_ARGS",
    "RAGGED_DOT_IMPL",
    "WANDB_API_KEY",
    "WANDB_MODE",
    "WANDB_BASE_URL",
    "WANDB_ENTITY",
    "CANARY_COORDINATOR_ADDRESS",
    "CANARY_NUM_PROCESSES",
    "CANARY_PROCESS_ID",
)
FORWARD_PREFIXES = ("NCCL_", "JAX_")

# Ray's reasons a job failed before its entrypoint ran, and the ones where the job was lost.
CANCEL_WAIT_S = 8.0  # a stopped harness waits this long for Ray to confirm the job stopped

NOT_STARTED_ERRORS = {
    "JOB_SUPERVISOR_ACTOR_START_TIMEOUT",
    "JOB_SUPERVISOR_ACTOR_UNSCHEDULABLE",
    "JOB_SUPERVISOR_ACTOR_START_FAILURE",
    "RUNTIME_ENV_SETUP_FAILURE",
    "JOB_ENTRYPOINT_COMMAND_START_ERROR",
}
LOST_ERRORS = {"JOB_SUPERVISOR_ACTOR_DIED", "JOB_SUPERVISOR_ACTOR_UNKNOWN_FAILURE"}


def forwarded_env(environ: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in environ.items() if k in FORWARD or k.startswith(FORWARD_PREFIXES)}


def resolve_address(flag: str | None, environ: dict[str, str], lane_address: str | None) -> str | None:
    """``--ray-address``, else ``RAY_ADDRESS``, else the lane's ``launcher.address``."""
    return flag or environ.get("RAY_ADDRESS") or lane_address


def outcome_for(status: str, error_type: str | None, ever_running: bool) -> str:
    """A terminal Ray job status -> an attempt outcome. Pure."""
    if status == "SUCCEEDED":
        return "succeeded"
    if status == "STOPPED":
        return "stopped"
    if status == "FAILED":
        if error_type in LOST_ERRORS:
            return "lost"
        if not ever_running and (error_type in NOT_STARTED_ERRORS or error_type is None):
            return "never_started"
        return "failed"
    return "lost"


def job_runtime_env(lane_runtime_env: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    runtime_env = dict(lane_runtime_env)
    runtime_env["env_vars"] = {**env, **dict(lane_runtime_env.get("env_vars", {}))}
    return runtime_env


class _LogCopy:
    """Appends what is new in a job's log to the attempt's log file (Ray logs only grow)."""

    def __init__(self, client, job_id: str, path):
        self.client, self.job_id, self.path, self.copied = client, job_id, path, 0

    def __call__(self) -> None:
        try:
            text = self.client.get_job_logs(self.job_id)
        except Exception:  # the log is best effort; the status decides the outcome
            return
        if len(text) > self.copied:
            with open(self.path, "a") as f:
                f.write(text[self.copied :])
            self.copied = len(text)


class _Attempt:
    """One attempt on the cluster as it is watched: when it began and started running, its notes
    in the attempt's log, and its outcome."""

    def __init__(self, request: AttemptRequest, address: str) -> None:
        self.request, self.address = request, address
        self.t0 = time.monotonic()
        self.run_started: float | None = None

    def outcome(self, kind: str, detail: str, job_id: str | None = None, **kw) -> AttemptOutcome:
        return AttemptOutcome(
            kind,
            kw.pop("exit_code", None),
            time.monotonic() - self.t0,
            self.request.log_path,
            job_id=job_id,
            detail=detail,
            extra={"address": self.address, **kw},
        )

    def note(self, text: str) -> None:
        with open(self.request.log_path, "a") as f:
            f.write(f"canary: {text}\n")


class RayLauncher:
    def __init__(
        self,
        address: str | None,
        resources: dict[str, float],
        start_timeout_s: float,
        runtime_env: dict[str, Any] | None = None,
        python: str | None = None,
        log_interval_s: float = 5.0,
        lost_after_s: float = 120.0,
        grace_s: float = 30.0,
    ):
        self.address, self.resources, self.start_timeout_s = address, dict(resources), start_timeout_s
        self.runtime_env, self.python = dict(runtime_env or {}), python
        self.log_interval_s, self.lost_after_s, self.grace_s = log_interval_s, lost_after_s, grace_s

    def launch(self, request: AttemptRequest, poll: Callable[[], None] = lambda: None) -> AttemptOutcome:
        request.log_path.parent.mkdir(parents=True, exist_ok=True)
        a = _Attempt(request, self.address)
        try:
            from ray.job_submission import JobSubmissionClient
        except ImportError as e:
            a.note(f"cannot import the Ray Jobs client: {e}")
            return a.outcome("never_started", f"Ray is not installed here ({e}); pip install 'ray[default]'")
        try:
            client = JobSubmissionClient(self.address)
            env = {**forwarded_env(dict(os.environ)), **request.env}
            job_id = client.submit_job(
                entrypoint=shlex.join(entrypoint_argv(request, self.python)),
                submission_id=f"canary-{request.name}" if request.name else None,
                runtime_env=job_runtime_env(self.runtime_env, env),
                entrypoint_resources=self.resources or None,
                metadata={"canary": request.name or "attempt"},
            )
        except Exception as e:  # unreachable cluster, refused submission
            a.note(f"could not submit to Ray at {self.address}: {type(e).__name__}: {e}")
            return a.outcome("never_started", f"could not submit to Ray at {self.address}: {e}")
        a.note(f"submitted Ray job {job_id} to {self.address} with resources {self.resources or 'none'}")
        try:
            return self._watch(client, job_id, a, poll)
        except BaseException:
            a.note(self._stop(client, job_id, request.poll_interval, wait_s=min(self.grace_s, CANCEL_WAIT_S)))
            raise

    def _watch(self, client, job_id: str, a: _Attempt, poll: Callable[[], None]) -> AttemptOutcome:
        """Poll the job until it ends, is lost, never starts, runs past its timeout or the harness
        is told to stop; its log copied as it goes."""
        request = a.request
        copy_log = _LogCopy(client, job_id, request.log_path)
        last_log, last_ok = 0.0, time.monotonic()
        while True:
            try:
                info = client.get_job_info(job_id)
                last_ok = time.monotonic()
            except Exception as e:
                if time.monotonic() - last_ok > self.lost_after_s:
                    a.note(f"lost contact with Ray for {self.lost_after_s:g}s: {e}")
                    return a.outcome(
                        "lost", f"no answer from Ray at {self.address} for {self.lost_after_s:g}s: {e}", job_id
                    )
                time.sleep(request.poll_interval)
                continue
            ended = self._ended(client, job_id, info, a, copy_log, poll)
            if ended is not None:
                return ended
            if time.monotonic() - last_log >= self.log_interval_s:
                copy_log()
                last_log = time.monotonic()
            poll()
            time.sleep(request.poll_interval)

    def _ended(self, client, job_id: str, info, a: _Attempt, copy_log, poll) -> AttemptOutcome | None:
        """The attempt's outcome once this poll's job info ends it; None while it goes on."""
        status, now, interval = (
            str(getattr(info.status, "value", info.status)),
            time.monotonic(),
            a.request.poll_interval,
        )
        if status == "RUNNING" and a.run_started is None:
            a.run_started = now
            a.note(f"job {job_id} started after {now - a.t0:.1f}s")
        if status in ("SUCCEEDED", "FAILED", "STOPPED"):
            copy_log()
            poll()
            error_type = getattr(info.error_type, "value", info.error_type)
            ran = a.run_started is not None or info.driver_exit_code is not None
            kind = outcome_for(status, error_type, ran)
            return a.outcome(
                kind, _detail(status, info), job_id, exit_code=info.driver_exit_code, error_type=error_type
            )
        if a.run_started is None and now - a.t0 > self.start_timeout_s:
            how_stopped = self._stop(client, job_id, interval)
            copy_log()
            a.note(f"job {job_id} did not start within {self.start_timeout_s:g}s; {how_stopped}")
            return a.outcome(
                "never_started",
                f"no worker with {self.resources or 'the resources'} within {self.start_timeout_s:g}s",
                job_id,
            )
        if a.run_started is not None and now - a.run_started > a.request.timeout_s:
            how_stopped = self._stop(client, job_id, interval)
            copy_log()
            poll()
            a.note(f"job {job_id} still running after {a.request.timeout_s:g}s; {how_stopped}")
            return a.outcome("timeout", f"no exit after {a.request.timeout_s:g}s; {how_stopped}", job_id)
        if (stop := signals.requested()) is not None:  # the harness was told to stop
            how_stopped = self._stop(client, job_id, interval, wait_s=min(self.grace_s, CANCEL_WAIT_S))
            copy_log()
            poll()
            a.note(f"stopped by {signals.signal_name(stop)}; {how_stopped}")
            return a.outcome(signals.CANCELLED, f"stopped by {signals.signal_name(stop)}; {how_stopped}", job_id)
        return None

    def _stop(self, client, job_id: str, interval: float, wait_s: float | None = None) -> str:
        """Asks Ray to stop the job and waits (up to ``wait_s``, else grace_s) until it says it
        has. Returns what happened, failures included: a job that may still hold its workers
        must be how_stopped, not swallowed."""
        wait_s = self.grace_s if wait_s is None else wait_s
        try:
            client.stop_job(job_id)
        except Exception as e:
            return (
                f"could not stop Ray job {job_id} at {self.address}: {type(e).__name__}: {e}; it may still be running"
            )
        status = "unknown"
        deadline = time.monotonic() + wait_s
        try:
            while time.monotonic() < deadline:
                status = str(getattr(s := client.get_job_status(job_id), "value", s))
                if status in ("SUCCEEDED", "FAILED", "STOPPED"):
                    return f"stopped Ray job {job_id} ({status.lower()})"
                time.sleep(interval)
        except Exception as e:
            return f"asked Ray to stop job {job_id}, but could not confirm it: {type(e).__name__}: {e}"
        return f"asked Ray to stop job {job_id}; still {status.lower()} after {wait_s:g}s"


def _detail(status: str, info: Any) -> str:
    parts = [f"Ray job {status.lower()}"]
    if info.driver_exit_code is not None:
        parts.append(f"exit status {info.driver_exit_code}")
    if info.message:
        parts.append(str(info.message).strip().splitlines()[0][:300])
    return "; ".join(parts)


def require_setup(lane_name: str, address: str | None) -> str:
    """The setup a ray lane needs before any attempt: the Ray Jobs client installed, and a job
    server to submit to. Missing either is bad input (exit 2), never a failed canary."""
    from canary.errors import ConfigError
    from canary.extras import RAY, require

    require(RAY, f"lane {lane_name!r} (launcher ray)")
    if not address:
        raise ConfigError(
            f"lane {lane_name!r} runs through Ray, but no Ray address is set: pass canary's "
            "--ray-address URL (e.g. http://head:8265) or set RAY_ADDRESS, or give the lane a "
            "launcher.address in its lanes file"
        )
    return address


def make(lane: Lane, address: str | None = None) -> RayLauncher:
    lc = lane.launcher
    resolved = require_setup(lane.name, resolve_address(address, dict(os.environ), lc.address))
    return RayLauncher(resolved, lc.resources, lc.start_timeout_s, lc.runtime_env, lc.python)
