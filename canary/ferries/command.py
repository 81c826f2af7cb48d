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
directory; ``--cache verify`` adds ``JAX_COMPILATION_CACHE_CHECK_CONTENTS=true``. The lane's
forwarded variables (``XLA_FLAGS``, ``LIBTPU_INIT_ARGS``, ``NCCL_*``, ``JAX_*``...) reach it as
they reach the built-in workload.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from canary.config import CommandFerry, Ferry, Lane
from canary.errors import ConfigError
from canary.ferries.kind import AttemptInputs, Prepared
from canary.formats.directory import LOG_FILE, METRICS_FILE, TRACKER_FILE
from canary.formats.spec import CacheSpec
from canary.launchers import AttemptRequest


@dataclass(frozen=True)
class Placeholders:
    """What an attempt fills a command ferry's ``{name}`` placeholders with."""

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


def placeholders_for(
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
    if cache.mode == "verify":
        env["JAX_COMPILATION_CACHE_CHECK_CONTENTS"] = "true"
    return env


def trainer_env(ferry: CommandFerry, lane: Lane, placeholders: Placeholders, cache: CacheSpec) -> dict[str, str]:
    """What the trainer gets on top of the harness's environment (the launcher adds the lane's
    forwarded variables)."""
    env = {
        "PYTHONUNBUFFERED": "1",
        "CANARY_RUN_DIR": placeholders.run_dir,
        "CANARY_RUN_ID": placeholders.run_id,
        "CANARY_STEPS": str(placeholders.steps),
        "CANARY_LANE": placeholders.lane,
        "CANARY_ATTEMPT": str(placeholders.attempt),
        **cache_env(cache),
    }
    if lane.platform == "cpu":
        env["JAX_PLATFORMS"] = "cpu"
    for source in (ferry.command.env, ferry.lane(lane.name).env):
        env.update({k: placeholders.fill(v) for k, v in source.items()})
    env.update(lane.launcher.env)
    return env


def attempt_request(
    ferry: CommandFerry, lane: Lane, placeholders: Placeholders, cache: CacheSpec, *, name: str
) -> AttemptRequest:
    attempt_dir = Path(placeholders.run_dir)
    workdir = Path(placeholders.fill(ferry.command.workdir)) if ferry.command.workdir else Path.cwd()
    if not workdir.is_dir():
        raise ConfigError(f"ferry {ferry.name!r}: command.workdir {str(workdir)!r} is not a directory")
    return AttemptRequest(
        argv=[placeholders.fill(arg) for arg in ferry.command.argv],
        env=trainer_env(ferry, lane, placeholders, cache),
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


def collect(ferry: CommandFerry, placeholders: Placeholders) -> str | None:
    """Brings the trainer's metrics into the attempt's directory, under canary's own names.
    Returns why the run has no summary to judge (None when it has one)."""
    attempt_dir = Path(placeholders.run_dir)
    if ferry.command.metrics:
        _fetch(placeholders.fill(ferry.command.metrics), attempt_dir / METRICS_FILE)
    where = placeholders.fill(ferry.command.tracker_metrics)
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


class Command:
    """A team's own trainer: canary's kernel flags do not reach it, it reads a remote cache in its
    own environment, it has no built-in model to lower, record a golden of, or bisect."""

    name = "command"
    checks_remote_cache = False  # the trainer reads a remote cache in its own environment, not the harness's
    lowering = None

    def check_flags(self, ferry: CommandFerry, ragged_dot: str | None, tiling: str | None) -> None:
        chosen = [flag for flag, value in (("--ragged-dot", ragged_dot), ("--tiling", tiling)) if value]
        if chosen:
            raise ConfigError(
                f"{', '.join(chosen)}: ferry {ferry.name!r} runs its own trainer (a command ferry); "
                "canary's kernel choices do not reach it"
            )

    def check_extras(self, ferry: CommandFerry, lane: Lane) -> None:
        pass

    def stack(self, ferry: CommandFerry) -> str | None:
        return None

    def prepare(self, ferry: CommandFerry, inputs: AttemptInputs) -> Prepared:
        """The trainer's command line, placeholders filled in; after it, its metrics collected."""
        placeholders = placeholders_for(
            inputs.ferry_path,
            inputs.attempt_dir,
            run_id=inputs.run_id,
            attempt=inputs.attempt,
            steps=steps_for(ferry, inputs.lane, inputs.steps),
            lane=inputs.lane.name,
        )
        return Prepared(
            attempt_request(ferry, inputs.lane, placeholders, inputs.cache, name=inputs.name),
            placeholders.steps,
            lambda: collect(ferry, placeholders),
        )

    def model(self, ferry: CommandFerry, what: str) -> Ferry:
        raise ConfigError(
            f"ferry {ferry.name!r} is a command ferry (its trainer is {ferry.command.argv[0]!r}): "
            f"it has no built-in model to {what}"
        )

    def why_not_bisected(self, ferry: CommandFerry) -> str | None:
        return f"ferry {ferry.name!r} runs a team's own trainer, which canary cannot lower or train here"

    def listed(self, ferry: CommandFerry) -> dict:
        return {"command": ferry.command.model_dump()}


KIND = Command()
