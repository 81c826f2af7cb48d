"""Command ferries: a team's own trainer as the workload.

A ferry with ``kind = "command"`` names a command line instead of canary's built-in model. Each
attempt runs it through the lane's launcher (a child process, a Ray job, a site's job CLI) like
the built-in workload, then canary reads the metrics it wrote (levanter's ``tracker_metrics.jsonl``
summary and, optionally, per-step ``metrics.jsonl``) into the attempt's directory and judges them
with the same gates, signatures, history and notifications.

Placeholders in ``argv``, ``tracker_metrics``, ``metrics``, ``workdir`` and ``env`` values:

    {ferry_dir}  the ferry file's folder          {run_id}   the run's id
    {run_dir}    this attempt's directory          {attempt}  the attempt's number (1, 2, ...)
                 (runs/<run_id>/attempt-N; the     {steps}    the steps to train
                 deciding attempt's files are      {lane}     the lane's name
                 copied up to runs/<run_id>)       {python}   the interpreter canary runs on

The trainer's environment also carries ``CANARY_RUN_DIR``, ``CANARY_RUN_ID``, ``CANARY_STEPS``,
``CANARY_LANE`` and ``CANARY_ATTEMPT``, and the cache mode the way JAX reads it: with ``--cold``
``JAX_ENABLE_COMPILATION_CACHE=false``; warm, ``JAX_COMPILATION_CACHE_DIR`` is the lane's cache
directory. The lane's forwarded variables (``XLA_FLAGS``, ``LIBTPU_INIT_ARGS``, ``NCCL_*``,
``JAX_*``...) reach it as they reach the built-in workload.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from canary.config import CommandFerry, Lane
from canary.errors import ConfigError
from canary.formats.directory import LOG_FILE, METRICS_FILE, TRACKER_FILE
from canary.formats.spec import CacheSpec
from canary.launchers import AttemptRequest


@dataclass(frozen=True)
class Placeholders:
    ferry_dir: str
    run_dir: str
    run_id: str
    attempt: int
    steps: int
    lane: str
    python: str = sys.executable

    def fill(self, text: str) -> str:
        """``text`` with every known ``{name}`` replaced (the ferry's schema refuses unknown ones;
        ``${NAME}`` shell parameters are left alone)."""
        for name, value in vars(self).items():
            text = text.replace("{" + name + "}", str(value))
        return text


def placeholders(
    ferry_path: Path, attempt_dir: Path, *, run_id: str, attempt: int, steps: int, lane: str
) -> Placeholders:
    return Placeholders(str(Path(ferry_path).resolve().parent), str(attempt_dir), run_id, attempt, steps, lane)


def steps_for(ferry: CommandFerry, lane: Lane, steps: int | None) -> int:
    return steps or ferry.lane(lane.name).steps


def cache_env(cache: CacheSpec) -> dict[str, str]:
    """The compilation cache mode as JAX reads it from the environment."""
    if cache.mode == "cold":
        return {"JAX_ENABLE_COMPILATION_CACHE": "false"}
    env = {"JAX_ENABLE_COMPILATION_CACHE": "true"}
    if cache.dir:
        env["JAX_COMPILATION_CACHE_DIR"] = cache.dir
    return env


def trainer_env(ferry: CommandFerry, lane: Lane, p: Placeholders, cache: CacheSpec) -> dict[str, str]:
    """What the trainer gets on top of the harness's environment (the launcher adds the lane's
    forwarded variables)."""
    env = {
        "PYTHONUNBUFFERED": "1",
        "CANARY_RUN_DIR": p.run_dir,
        "CANARY_RUN_ID": p.run_id,
        "CANARY_STEPS": str(p.steps),
        "CANARY_LANE": p.lane,
        "CANARY_ATTEMPT": str(p.attempt),
        **cache_env(cache),
    }
    if lane.platform == "cpu":
        env["JAX_PLATFORMS"] = "cpu"
    for source in (ferry.command.env, ferry.lane(lane.name).env):
        env.update({k: p.fill(v) for k, v in source.items()})
    env.update(lane.launcher.env)
    return env


def attempt_request(ferry: CommandFerry, lane: Lane, p: Placeholders, cache: CacheSpec, *, name: str) -> AttemptRequest:
    attempt_dir = Path(p.run_dir)
    workdir = Path(p.fill(ferry.command.workdir)) if ferry.command.workdir else Path.cwd()
    if not workdir.is_dir():
        raise ConfigError(f"ferry {ferry.name!r}: command.workdir {str(workdir)!r} is not a directory")
    return AttemptRequest(
        argv=[p.fill(a) for a in ferry.command.argv],
        env=trainer_env(ferry, lane, p, cache),
        cwd=workdir,
        log_path=attempt_dir / LOG_FILE,
        timeout_s=lane.timeout_s,
        name=name,
    )


def _read_remote(url: str) -> bytes | None:
    """A gs:// object's bytes, or None when it does not exist."""
    try:
        from google.api_core import exceptions

        from canary.history.gcs import _default_client
    except ImportError:
        raise ConfigError(
            f"{url}: reading gs:// metrics needs google-cloud-storage (pip install google-cloud-storage)"
        ) from None
    bucket, _, name = url[len("gs://") :].partition("/")
    try:
        return _default_client().bucket(bucket).blob(name).download_as_bytes()
    except exceptions.NotFound:
        return None


def _fetch(source: str, dest: Path) -> bool:
    """Copies the trainer's file (a path or gs:// URL) to ``dest``; False when there is none."""
    if source.startswith("gs://"):
        data = _read_remote(source)
        if data is None:
            return False
        dest.write_bytes(data)
        return True
    src = Path(source)
    if not src.is_file():
        return False
    if src.resolve() != dest.resolve():
        shutil.copyfile(src, dest)
    return True


def collect(ferry: CommandFerry, p: Placeholders) -> str | None:
    """Brings the trainer's metrics into the attempt's directory, under canary's own names.
    Returns why the run has no summary to judge (None when it has one)."""
    attempt_dir = Path(p.run_dir)
    if ferry.command.metrics:
        _fetch(p.fill(ferry.command.metrics), attempt_dir / METRICS_FILE)
    where = p.fill(ferry.command.tracker_metrics)
    tracker = attempt_dir / TRACKER_FILE
    try:
        found = _fetch(where, tracker)
    except OSError as e:
        return f"the trainer's summary {where} could not be read: {e.strerror or e}"
    if not found:
        return f"the trainer wrote no summary at {where}"
    if not tracker.read_bytes().strip():
        tracker.unlink()
        return f"the trainer's summary {where} is empty"
    return None
