"""The protocol every ferry kind implements (see :mod:`canary.ferries`), and what an attempt
is told and gives back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from canary.config import AnyFerry, Ferry, Lane
from canary.formats.spec import CacheSpec
from canary.launchers import AttemptRequest


@dataclass(frozen=True)
class AttemptInputs:
    """What every kind is told about one attempt."""

    ferry_path: Path
    attempt_dir: Path
    run_id: str
    attempt: int
    lane: Lane
    name: str  # unique per attempt: names the job on a cluster
    cache: CacheSpec
    steps: int | None = None  # the steps asked for (None: the lane's)
    ragged_dot: str | None = None
    tiling: str | None = None
    env: dict[str, str] = field(default_factory=dict)  # extra environment for canary's own workload


def _nothing_to_collect() -> str | None:
    return None


@dataclass(frozen=True)
class Prepared:
    """One attempt, ready: the request to launch, the steps it trains, and ``collect``, called once
    it ended, which brings what it wrote into the attempt's directory and returns why there is no
    summary to judge (None: there is one)."""

    request: AttemptRequest
    steps: int
    collect: Callable[[], str | None] = _nothing_to_collect


class FerryKind(Protocol):
    name: str
    checks_remote_cache: bool
    lowering: Literal["model", "stack"] | None

    def check_flags(self, ferry: AnyFerry, ragged_dot: str | None, tiling: str | None) -> None: ...

    def check_extras(self, ferry: AnyFerry, lane: Lane) -> None: ...

    def stack(self, ferry: AnyFerry) -> str | None: ...

    def prepare(self, ferry: AnyFerry, inputs: AttemptInputs) -> Prepared: ...

    def model(self, ferry: AnyFerry, what: str) -> Ferry: ...

    def why_not_bisected(self, ferry: AnyFerry) -> str | None: ...

    def listed(self, ferry: AnyFerry) -> dict: ...
