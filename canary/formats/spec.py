"""The resolved description of one attempt of the workload: what the harness hands the training
process (as ``spec.json`` in the attempt's directory). Pure data; no JAX. What it reads of the
environment (``$RAGGED_DOT_IMPL``) it is given."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from canary.config import DType, Ferry, Lane, RaggedDot, Tiling, WandbMode
from canary.errors import ConfigError

# The environment variable teams already use to force the grouped-matmul implementation.
RAGGED_DOT_ENV = "RAGGED_DOT_IMPL"
# A golden recording's nudged runs: the workload moves every weight one float32 step, from this
# seed (canary.workload.train.nudged); unset in every ordinary run.
NUDGE_ENV = "CANARY_NUDGE_SEED"


def ragged_dot_override(flag: str | None, environ: Mapping[str, str]) -> str | None:
    """The ragged_dot backend asked for: the command-line flag, else $RAGGED_DOT_IMPL, else None
    (the lane's own setting applies)."""
    choice = flag or environ.get(RAGGED_DOT_ENV) or None
    if choice is not None and choice not in get_args(RaggedDot):
        source = "--ragged-dot" if flag else f"${RAGGED_DOT_ENV}"
        raise ConfigError(
            f"{source}={choice!r} is not a ragged_dot backend; choose one of {', '.join(get_args(RaggedDot))}"
        )
    return choice


def xla_flag_env(name: str, value: object, environ: Mapping[str, str]) -> dict[str, str]:
    """``XLA_FLAGS`` with ``--name=value`` in place of any setting of it ``environ`` has. Pure."""
    flags = [f for f in environ.get("XLA_FLAGS", "").split() if f.split("=", 1)[0] != f"--{name}"]
    return {"XLA_FLAGS": " ".join([*flags, f"--{name}={value}"])}


class CacheSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["warm", "cold", "verify"] = "warm"
    dir: str | None = None


class WorkloadSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    lane: str
    platform: Literal["cpu", "tpu", "cuda"] = "cpu"
    devices: int = 1
    hosts: int = Field(default=1, gt=0, description="> 1: start jax.distributed from the launcher's environment")
    ferry: Ferry
    steps: int = Field(gt=0)
    batch_size: int = Field(gt=0)
    seq_len: int = Field(gt=0)
    vocab_size: int = Field(gt=1)
    compute_dtype: DType
    ragged_dot: RaggedDot
    tiling: Tiling = "per-shape"
    out_dir: str
    cache: CacheSpec = CacheSpec()
    wandb_project: str | None = None
    wandb: WandbMode = "off"

    @property
    def sliding_window(self) -> int | None:
        """The attention window this attempt trains with: the lane's own, else the model's."""
        lane = self.ferry.lanes.get(self.lane)
        return (lane.sliding_window if lane else None) or self.ferry.model.sliding_window

    def block(self, key: str) -> int | None:
        """The lane's ``loss_block`` or ``attention_block`` (None: the whole sequence at once)."""
        lane = self.ferry.lanes.get(self.lane)
        return getattr(lane, key) if lane else None

    def write(self, path: Path) -> Path:
        path.write_text(self.model_dump_json(indent=2))
        return path

    @classmethod
    def read(cls, path: str | Path) -> WorkloadSpec:
        return cls.model_validate_json(Path(path).read_text())


def build_spec(
    ferry: Ferry,
    lane: Lane,
    *,
    run_id: str,
    out_dir: Path,
    steps: int | None = None,
    ragged_dot: str | None = None,
    tiling: str | None = None,
    cache: CacheSpec | None = None,
) -> WorkloadSpec:
    """The spec of one attempt of ``ferry`` on ``lane``."""
    o = ferry.lane(lane.name)
    return WorkloadSpec(
        run_id=run_id,
        lane=lane.name,
        platform=lane.platform,
        devices=lane.devices,
        hosts=lane.hosts,
        ferry=ferry,
        steps=steps or o.steps,
        batch_size=o.batch_size,
        seq_len=o.seq_len,
        vocab_size=o.vocab_size or ferry.model.vocab_size,
        compute_dtype=o.compute_dtype or ferry.trainer.compute_dtype,
        ragged_dot=ragged_dot or o.ragged_dot,
        tiling=tiling or o.tiling,
        out_dir=str(out_dir),
        cache=cache or CacheSpec(dir=lane.cache_dir),
        wandb_project=lane.wandb_project,
        wandb=lane.wandb,
    )
