"""The ferry: the pinned, versioned description of what the canary trains (model, optimizer,
trainer, data, per-lane sizes), or a command ferry wrapping a team's own trainer. Pure models."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from canary.config.base import MAX_STEPS, DType, Name, RaggedDot, Strict, Tiling
from canary.config.globs import glob_error
from canary.errors import ConfigError


class ModelConfig(Strict):
    vocab_size: int = Field(gt=1)
    hidden: int = Field(gt=0)
    intermediate: int = Field(gt=0)
    shared_expert_intermediate: int = Field(ge=0)
    num_experts: int = Field(gt=0)
    experts_per_token: int = Field(gt=0)
    layers: int = Field(gt=0)
    heads: int = Field(gt=0)
    kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    max_seq_len: int = Field(gt=0)
    sliding_window: int | None = Field(default=None, gt=0)
    rope_theta: float = Field(default=10000.0, gt=0)
    norm_eps: float = Field(default=1e-5, gt=0)

    @model_validator(mode="after")
    def _check(self) -> ModelConfig:
        if self.experts_per_token > self.num_experts:
            raise ValueError(f"experts_per_token ({self.experts_per_token}) exceeds num_experts ({self.num_experts})")
        if self.heads % self.kv_heads:
            raise ValueError(f"heads ({self.heads}) must be a multiple of kv_heads ({self.kv_heads})")
        return self


class OptimizerConfig(Strict):
    name: Literal["adamw"] = "adamw"
    learning_rate: float = Field(gt=0)
    weight_decay: float = Field(ge=0)
    schedule: Literal["cosine", "constant"] = "cosine"
    warmup: float = Field(ge=0, description="warmup: a fraction of the run's steps if < 1, else a step count")
    min_lr_ratio: float = Field(default=0.1, ge=0, le=1)
    beta1: float = Field(default=0.9, ge=0, lt=1)
    beta2: float = Field(default=0.95, ge=0, lt=1)
    epsilon: float = Field(default=1e-8, gt=0)
    max_grad_norm: float | None = Field(default=1.0, gt=0)

    def warmup_steps(self, steps: int) -> int:
        if self.warmup < 1:
            return int(round(self.warmup * steps))
        return min(int(self.warmup), steps)


class TrainerConfig(Strict):
    seed: int = 0
    lm_head_z_loss: float = Field(default=1e-4, ge=0)
    router_z_loss: float = Field(default=1e-3, ge=0)
    compute_dtype: DType = "bfloat16"


class DataConfig(Strict):
    kind: Literal["markov"] = "markov"
    successors: int = Field(default=4, gt=0, description="next-token choices per token")
    concentration: float = Field(default=1.0, gt=0, description="Dirichlet concentration of each row")
    seed: int = 0


class LaneOverrides(Strict):
    """Per-lane settings of a ferry: only sizes, data, kernels and dtypes may differ, never the
    model's shape (hidden, intermediate, experts, top-k, layers). The attention window is a size:
    a lane whose sequence is shorter than the model's window sets its own, under its sequence, so
    that the window's masking runs on that lane too."""

    batch_size: int = Field(gt=0)
    seq_len: int = Field(gt=0)
    steps: int = Field(gt=0, le=MAX_STEPS)
    vocab_size: int | None = Field(default=None, gt=1)
    sliding_window: int | None = Field(
        default=None, gt=0, description="the lane's attention window [default: the model's]"
    )
    compute_dtype: DType | None = None
    ragged_dot: RaggedDot = "auto"
    tiling: Tiling = "per-shape"
    loss_block: int | None = Field(
        default=None, gt=0, description="sequence positions whose logits are made at once [default: all]"
    )
    attention_block: int | None = Field(
        default=None, gt=0, description="sequence positions attended at once [default: all]"
    )
    data: DataConfig | None = None
    why: str = ""


# The lane keys that make the built-in model compute its loss and attention a block of positions at
# a time (canary.workload.blockwise): each must divide the lane's sequence.
BLOCK_KEYS = ("loss_block", "attention_block")


class _FerryIdentity(Strict):
    """What every kind of ferry has: its name and version, and the paths that matter to it."""

    name: Name
    version: int = Field(ge=1)
    description: str = ""
    watched_paths: list[str] = Field(default_factory=list)
    call_path: list[str] = Field(
        default_factory=list,
        description="globs of library frames kept in failure signatures' call paths (a terse message's fingerprint "
        "holds its call path; one that names its failure is one fingerprint from any call path: docs/signatures.md)",
    )

    @field_validator("watched_paths")
    @classmethod
    def _check_globs(cls, globs: list[str]) -> list[str]:
        for glob in globs:
            why = glob_error(glob)
            if why:
                raise ValueError(why)
        return globs

    def lane(self, name: str):
        try:
            return self.lanes[name]
        except KeyError:
            raise ConfigError(
                f"ferry {self.name!r} has no settings for lane {name!r}; it defines: {', '.join(sorted(self.lanes))}"
            ) from None


# Stacks a built-in ferry's model may be assembled from
Stack = Literal["levanter"]


class Ferry(_FerryIdentity):
    """The built-in ferry: canary's own JAX workload (``canary.workload``) with this model; with
    ``stack = "levanter"``, the model is assembled from levanter's grug MoE over haliax
    (``canary.workload.grug_model``) and the library picks every kernel."""

    kind: Literal["builtin"] = "builtin"
    stack: Stack | None = Field(default=None, description="the library stack the model is built from")
    model: ModelConfig
    optimizer: OptimizerConfig
    trainer: TrainerConfig = TrainerConfig()
    data: DataConfig = DataConfig()
    lanes: dict[Name, LaneOverrides]

    @model_validator(mode="after")
    def _check_lanes(self) -> Ferry:
        for name, lane in self.lanes.items():
            if lane.seq_len > self.model.max_seq_len:
                raise ValueError(
                    f"lanes.{name}.seq_len ({lane.seq_len}) exceeds model.max_seq_len ({self.model.max_seq_len})"
                )
            if lane.sliding_window is not None and lane.sliding_window >= lane.seq_len:
                raise ValueError(
                    f"lanes.{name}.sliding_window ({lane.sliding_window}) must be under lanes.{name}.seq_len "
                    f"({lane.seq_len}): a window as long as the sequence masks nothing"
                )
            for key in BLOCK_KEYS:
                block = getattr(lane, key)
                if block is not None and lane.seq_len % block:
                    raise ValueError(f"lanes.{name}.{key} ({block}) must divide lanes.{name}.seq_len ({lane.seq_len})")
            if (lane.data or self.data).successors > (lane.vocab_size or self.model.vocab_size):
                raise ValueError(f"lanes.{name}: data.successors exceeds the vocabulary")
            if self.stack and (lane.ragged_dot != "auto" or lane.tiling != "per-shape"):
                key = "ragged_dot" if lane.ragged_dot != "auto" else "tiling"
                raise ValueError(
                    f"lanes.{name}.{key}: a {self.stack} stack ferry's kernels are the library's "
                    "own choice; leave it unset"
                )
            blocked = [key for key in BLOCK_KEYS if getattr(lane, key) is not None]
            if self.stack and blocked:
                raise ValueError(
                    f"lanes.{name}.{blocked[0]}: a {self.stack} stack ferry's model is the library's own; "
                    "leave it unset"
                )
        return self


# Placeholders a command ferry's strings may hold; ``{name}`` elsewhere is an error, ``${NAME}``
# (a shell parameter) is left alone.
COMMAND_PLACEHOLDERS = ("ferry_dir", "run_dir", "run_id", "attempt", "steps", "lane", "python")
_PLACEHOLDER = re.compile(r"(?<!\$)\{([^{}]*)\}")


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders in one of a command ferry's strings."""
    return _PLACEHOLDER.findall(text)


class CommandConfig(Strict):
    """What a command ferry runs, and where its trainer leaves its metrics."""

    argv: list[str] = Field(min_length=1, description="the trainer's command line, placeholders filled in")
    tracker_metrics: str = Field(description="levanter's summary file: a path or a gs:// URL")
    metrics: str | None = Field(default=None, description="per-step JSON lines, levanter's metric names")
    workdir: str | None = Field(default=None, description="the trainer's working directory [default: canary's]")
    env: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> CommandConfig:
        fields = [(f"argv.{i}", a) for i, a in enumerate(self.argv)]
        fields += [(k, getattr(self, k)) for k in ("tracker_metrics", "metrics", "workdir") if getattr(self, k)]
        fields += [(f"env.{k}", v) for k, v in self.env.items()]
        for key, text in fields:
            unknown = [p for p in placeholders(text) if p not in COMMAND_PLACEHOLDERS]
            if unknown:
                raise ValueError(
                    f"{key}: unknown placeholder {{{unknown[0]}}}; known: "
                    + ", ".join(f"{{{p}}}" for p in COMMAND_PLACEHOLDERS)
                )
        if not self.argv[0].strip():
            raise ValueError("argv.0: the program to run is empty")
        for key in ("tracker_metrics", "metrics"):
            url = getattr(self, key)
            if url and "://" in url and not url.startswith("gs://"):
                raise ValueError(f"{key}: {url.split('://', 1)[0]}:// is not supported; use a path or a gs:// URL")
        return self


class CommandLane(Strict):
    """A command ferry's settings for one lane."""

    steps: int = Field(gt=0, le=MAX_STEPS)
    env: dict[str, str] = Field(default_factory=dict, description="added to [command].env on this lane")
    why: str = ""


class CommandFerry(_FerryIdentity):
    """A team's own trainer as the ferry: canary launches ``command.argv`` on the lane's launcher
    and judges the metrics it writes, as it judges the built-in workload's."""

    kind: Literal["command"]
    command: CommandConfig
    lanes: dict[Name, CommandLane]


AnyFerry = Ferry | CommandFerry
FERRY_KINDS = {"builtin": Ferry, "command": CommandFerry}
