"""A run's inputs and the checks before it trains: the options, the reviewed files read once
(:class:`RunInputs`), and everything that can be bad input found before the run directory is made
(:func:`preflight`)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from canary import history as history_mod
from canary.config import AnyFerry, GatesFile, Lane, LaneGates, config_identity, get_lane, load_ferry, load_gates
from canary.errors import ConfigError
from canary.ferries import FerryKind, kind_of
from canary.formats import compile_cache
from canary.formats.spec import CacheSpec, ragged_dot_override
from canary.golden import store as golden_store
from canary.golden.model import Golden
from canary.launchers import Launcher, for_lane
from canary.run.disk import ensure_writable


@dataclass
class RunOptions:
    lane: str = "cpu"
    ferry: str = "moe-canary"
    gates: str | None = None  # default: the gates file named like the ferry
    steps: int | None = None
    out: Path = Path("runs")
    ragged_dot: str | None = None
    tiling: str | None = None
    cache: CacheSpec | None = None
    lanes_file: str | None = None
    run_id: str | None = None
    ray_address: str | None = None  # a ray lane's cluster, instead of RAY_ADDRESS or the lane's
    history: str | None = None  # a path or gs://bucket/prefix; None: the default store
    store: history_mod.HistoryStore | None = None  # that history, opened once by the command (None: opened to record)
    record_history: bool = True
    job_id: str | None = None
    ci_run_url: str | None = None
    wandb_url: str | None = None
    env: dict[str, str] | None = None  # extra environment for the workload (a golden recording's variants)
    judge_golden: bool = True  # False: judge without the lane's golden (while recording one)


def new_run_id(lane: str, now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%dT%H%M%SZ}-{lane}-{secrets.token_hex(2)}"


@dataclass(frozen=True)
class RunInputs:
    """A run's reviewed files, each read once: the ferry, the lane, the gates for it, and the
    golden those name (read when first asked for)."""

    ferry: AnyFerry
    ferry_path: Path
    lane: Lane
    gates_file: GatesFile
    gates_path: Path
    gates_named: str | None = None  # --gates as given (None: the ferry's own)

    @cached_property
    def golden(self) -> Golden | None:
        return golden_store.golden_of(
            self.gates_file, self.gates_path, self.ferry.name, self.lane.name, self.gates_named, self.ferry.version
        )

    @property
    def kind(self) -> FerryKind:
        return kind_of(self.ferry)

    @property
    def lane_gates(self) -> LaneGates:
        return self.gates_file.lane(self.lane.name)


def resolve_inputs(opts: RunOptions) -> RunInputs:
    ferry, ferry_path = load_ferry(opts.ferry)
    lane = get_lane(opts.lane, opts.lanes_file)
    ferry.lane(lane.name)  # the ferry must have settings for this lane
    gates_file, gates_path = load_gates(opts.gates or ferry.name)
    if gates_file.ferry is not None and gates_file.ferry != ferry.name:
        raise ConfigError(f"{gates_path}: ferry: these gates are for ferry {gates_file.ferry!r}, not {ferry.name!r}")
    gates_file.lane(lane.name)
    return RunInputs(ferry, ferry_path, lane, gates_file, gates_path, opts.gates)


@dataclass(frozen=True)
class Setup:
    """What the checks before training settled: the files' identity, the golden judged against,
    the cache, the kernel asked for, the launcher and the run directory, made."""

    identity: dict[str, str]
    golden: Golden | None
    cache: CacheSpec
    ragged_dot: str | None
    launcher: Launcher
    run_id: str
    run_dir: Path


def preflight(opts: RunOptions, inputs: RunInputs) -> Setup:
    """Everything that can be bad input, found before anything is trained; then the run directory."""
    ferry, lane = inputs.ferry, inputs.lane
    inputs.kind.check_flags(ferry, opts.ragged_dot, opts.tiling)
    inputs.kind.check_extras(ferry, lane)
    identity = {**config_identity("ferry", inputs.ferry_path), **config_identity("gates", inputs.gates_path)}
    golden = inputs.golden if opts.judge_golden else None
    if opts.record_history:
        history_mod.backend(opts.history or history_mod.default_location())  # a bad --history fails now
    cache = compile_cache.resolve(opts.cache, lane.name, lane.cache_dir, check_remote=inputs.kind.checks_remote_cache)
    compile_cache.check_verify(cache, lane.platform, builtin=inputs.kind.name != "command")
    ragged_dot = ragged_dot_override(opts.ragged_dot, os.environ)
    run_id = opts.run_id or new_run_id(lane.name)
    launcher = for_lane(lane, ray_address=opts.ray_address)
    ensure_writable(Path(opts.out), "--out")  # a symlink loop too: bad input, before resolve() meets it
    run_dir = Path(opts.out).resolve() / run_id
    if cache.mode in ("warm", "verify") and cache.dir and not compile_cache.is_remote(cache.dir):
        ensure_writable(Path(cache.dir), "--cache-dir")
    run_dir.mkdir(parents=True, exist_ok=False)
    return Setup(identity, golden, cache, ragged_dot, launcher, run_id, run_dir)
