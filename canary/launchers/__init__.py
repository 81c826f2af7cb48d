"""Launchers start one attempt of the workload somewhere and report how it ended.

One small protocol, one module per backend (like pre-commit's languages):

    launcher.launch(attempt: AttemptRequest, poll: Callable[[], None]) -> AttemptOutcome

``poll`` is called every ``poll_interval`` seconds while the attempt runs (the harness uses it
to tail metrics and draw progress). A launcher never raises for a failed workload: a crash,
a timeout, a job that never started, or a stop asked of the harness by a signal
(``cancelled``, :mod:`canary.formats.signals`) is an outcome, not an exception.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from canary.config import Lane

Outcome = Literal["succeeded", "failed", "timeout", "never_started", "stopped", "lost", "cancelled"]


@dataclass(frozen=True)
class AttemptRequest:
    argv: list[str]  # the workload's command line, e.g. [python, -m, canary.workload.train, spec]
    env: dict[str, str]  # extra environment for the workload
    cwd: Path
    log_path: Path  # stdout and stderr together
    timeout_s: float
    poll_interval: float = 0.2
    name: str = ""  # unique per attempt (e.g. "<run_id>-attempt-1"): names the job on a cluster


@dataclass(frozen=True)
class AttemptOutcome:
    outcome: Outcome
    exit_code: int | None
    duration_s: float
    log_path: Path
    signal: int | None = None
    job_id: str | None = None
    detail: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.outcome == "succeeded"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["log_path"] = str(self.log_path)
        return d


class Launcher(Protocol):
    def launch(self, request: AttemptRequest, poll: Callable[[], None] = lambda: None) -> AttemptOutcome: ...


BACKENDS = {
    "local": "canary.launchers.local",
    "ray": "canary.launchers.ray",
    "command": "canary.launchers.command",
}


def entrypoint_argv(request: AttemptRequest, python: str | None = None) -> list[str]:
    """The workload's argv as another machine runs it: the lane's interpreter in place of the
    harness's own (when the lane names one). A command ferry's own program (``bash``, a
    launcher script) is left as it is; its ``{python}`` is the harness's interpreter, so swapped."""
    argv = list(request.argv)
    if python and argv and argv[0] == sys.executable:
        argv[0] = python
    return argv


def for_lane(lane: Lane, ray_address: str | None = None) -> Launcher:
    """The lane's launcher; ``ray_address`` (``canary run --ray-address``) points a ray lane at
    another cluster."""
    from canary.errors import ConfigError

    kind = lane.launcher.kind
    if kind not in BACKENDS:
        raise ConfigError(f"lane {lane.name!r}: launcher {kind!r} is not available; known: {', '.join(BACKENDS)}")
    module = importlib.import_module(BACKENDS[kind])
    if ray_address:
        if kind != "ray":
            raise ConfigError(
                f"--ray-address {ray_address}: lane {lane.name!r} does not launch through Ray "
                f"(its launcher is {kind!r})"
            )
        return module.make(lane, address=ray_address)
    return module.make(lane)
