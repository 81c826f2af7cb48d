"""Ferries, lanes and gates: the plain-text files people review, loaded into pydantic models.

Every model rejects unknown keys (``extra="forbid"``) and impossible values; a load error
names the file and the dotted key, the way pre-commit names a bad hook key. This module
does file I/O only in the ``load_*`` functions; the models themselves are pure.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from canary.errors import ConfigError
from canary.textio import read_text

RaggedDot = Literal["auto", "xla", "megablox", "grouped"]
Tiling = Literal["per-shape", "static"]
DType = Literal["float32", "bfloat16"]
WandbMode = Literal["off", "offline", "online"]


MAX_STEPS = 10_000_000  # a canary is a short run; more steps than this is a typo (1e20), not a plan


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


# ----------------------------------------------------------------------------- ferry


class ModelConfig(_Strict):
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
    def _check(self) -> "ModelConfig":
        if self.experts_per_token > self.num_experts:
            raise ValueError(
                f"experts_per_token ({self.experts_per_token}) exceeds num_experts ({self.num_experts})"
            )
        if self.heads % self.kv_heads:
            raise ValueError(f"heads ({self.heads}) must be a multiple of kv_heads ({self.kv_heads})")
        return self


class OptimizerConfig(_Strict):
    name: Literal["adamw"] = "adamw"
    learning_rate: float = Field(gt=0)
    weight_decay: float = Field(ge=0)
    schedule: Literal["cosine", "constant"] = "cosine"
    warmup: float = Field(
        ge=0, description="warmup: a fraction of the run's steps if < 1, else a step count"
    )
    min_lr_ratio: float = Field(default=0.1, ge=0, le=1)
    beta1: float = Field(default=0.9, ge=0, lt=1)
    beta2: float = Field(default=0.95, ge=0, lt=1)
    epsilon: float = Field(default=1e-8, gt=0)
    max_grad_norm: float | None = Field(default=1.0, gt=0)

    def warmup_steps(self, steps: int) -> int:
        if self.warmup < 1:
            return int(round(self.warmup * steps))
        return min(int(self.warmup), steps)


class TrainerConfig(_Strict):
    seed: int = 0
    lm_head_z_loss: float = Field(default=1e-4, ge=0)
    router_z_loss: float = Field(default=1e-3, ge=0)
    param_dtype: DType = "float32"
    compute_dtype: DType = "bfloat16"
    log_every: int = Field(default=1, gt=0)


class DataConfig(_Strict):
    kind: Literal["markov"] = "markov"
    successors: int = Field(default=4, gt=0, description="next-token choices per token")
    concentration: float = Field(default=1.0, gt=0, description="Dirichlet concentration of each row")
    seed: int = 0


class LaneOverrides(_Strict):
    """Per-lane settings of a ferry: only sizes, data, kernels and dtypes may differ, never the
    model's shape (hidden, intermediate, experts, top-k, layers)."""

    batch_size: int = Field(gt=0)
    seq_len: int = Field(gt=0)
    steps: int = Field(gt=0, le=MAX_STEPS)
    vocab_size: int | None = Field(default=None, gt=1)
    compute_dtype: DType | None = None
    ragged_dot: RaggedDot = "auto"
    tiling: Tiling = "per-shape"
    data: DataConfig | None = None
    why: str = ""


class _FerryIdentity(_Strict):
    """What every kind of ferry has: its name and version, and the paths that matter to it."""

    name: str
    version: int = Field(ge=1)
    description: str = ""
    watched_paths: list[str] = Field(default_factory=list)
    call_path: list[str] = Field(
        default_factory=list, description="globs of library frames kept in failure signatures' call paths"
    )

    def lane(self, name: str):
        try:
            return self.lanes[name]
        except KeyError:
            raise ConfigError(
                f"ferry {self.name!r} has no settings for lane {name!r}; it defines: {', '.join(sorted(self.lanes))}"
            ) from None


# Stacks a built-in ferry's model may be assembled from, and the extra that installs each
Stack = Literal["levanter"]
STACK_EXTRAS = {"levanter": "levanter"}


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
    lanes: dict[str, LaneOverrides]

    @model_validator(mode="after")
    def _check_lanes(self) -> "Ferry":
        for name, lane in self.lanes.items():
            if lane.seq_len > self.model.max_seq_len:
                raise ValueError(
                    f"lanes.{name}.seq_len ({lane.seq_len}) exceeds model.max_seq_len ({self.model.max_seq_len})"
                )
            if (lane.data or self.data).successors > (lane.vocab_size or self.model.vocab_size):
                raise ValueError(f"lanes.{name}: data.successors exceeds the vocabulary")
            if self.stack and (lane.ragged_dot != "auto" or lane.tiling != "per-shape"):
                key = "ragged_dot" if lane.ragged_dot != "auto" else "tiling"
                raise ValueError(f"lanes.{name}.{key}: a {self.stack} stack ferry's kernels are the library's "
                                 "own choice; leave it unset")
        return self


# Placeholders a command ferry's strings may hold; ``{name}`` elsewhere is an error, ``${NAME}``
# (a shell parameter) is left alone.
COMMAND_PLACEHOLDERS = ("ferry_dir", "run_dir", "run_id", "attempt", "steps", "lane", "python")
_PLACEHOLDER = re.compile(r"(?<!\$)\{([^{}]*)\}")


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders in one of a command ferry's strings."""
    return _PLACEHOLDER.findall(text)


class CommandConfig(_Strict):
    """What a command ferry runs, and where its trainer leaves its metrics."""

    argv: list[str] = Field(min_length=1, description="the trainer's command line, placeholders filled in")
    tracker_metrics: str = Field(description="levanter's summary file: a path or a gs:// URL")
    metrics: str | None = Field(default=None, description="per-step JSON lines, levanter's metric names")
    workdir: str | None = Field(default=None, description="the trainer's working directory [default: canary's]")
    env: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> "CommandConfig":
        fields = [(f"argv.{i}", a) for i, a in enumerate(self.argv)]
        fields += [(k, getattr(self, k)) for k in ("tracker_metrics", "metrics", "workdir") if getattr(self, k)]
        fields += [(f"env.{k}", v) for k, v in self.env.items()]
        for key, text in fields:
            unknown = [p for p in placeholders(text) if p not in COMMAND_PLACEHOLDERS]
            if unknown:
                raise ValueError(f"{key}: unknown placeholder {{{unknown[0]}}}; known: "
                                 + ", ".join(f"{{{p}}}" for p in COMMAND_PLACEHOLDERS))
        if not self.argv[0].strip():
            raise ValueError("argv.0: the program to run is empty")
        for key in ("tracker_metrics", "metrics"):
            url = getattr(self, key)
            if url and "://" in url and not url.startswith("gs://"):
                raise ValueError(f"{key}: {url.split('://', 1)[0]}:// is not supported; use a path or a gs:// URL")
        return self


class CommandLane(_Strict):
    """A command ferry's settings for one lane."""

    steps: int = Field(gt=0, le=MAX_STEPS)
    env: dict[str, str] = Field(default_factory=dict, description="added to [command].env on this lane")
    why: str = ""


class CommandFerry(_FerryIdentity):
    """A team's own trainer as the ferry: canary launches ``command.argv`` on the lane's launcher
    and judges the metrics it writes, as it judges the built-in workload's."""

    kind: Literal["command"]
    command: CommandConfig
    lanes: dict[str, CommandLane]


AnyFerry = Ferry | CommandFerry
FERRY_KINDS = {"builtin": Ferry, "command": CommandFerry}


def require_builtin(ferry: AnyFerry, what: str) -> Ferry:
    """The ferry, when it is the built-in one; a command ferry has no model for ``what``."""
    if isinstance(ferry, CommandFerry):
        raise ConfigError(f"ferry {ferry.name!r} is a command ferry (its trainer is {ferry.command.argv[0]!r}): "
                          f"it has no built-in model to {what}")
    return ferry


# ----------------------------------------------------------------------------- lanes


class LauncherConfig(_Strict):
    kind: Literal["local", "ray", "command"] = "local"
    address: str | None = Field(
        default=None, description="ray: the job server, e.g. http://head:8265 (--ray-address / RAY_ADDRESS win)"
    )
    resources: dict[str, float] = Field(default_factory=dict, description="ray: entrypoint resources")
    start_timeout_s: float = Field(default=600, gt=0, description="fail as never-started after this")
    command: list[str] | None = Field(
        default=None, description="command: argv of a site's job CLI; {entrypoint} is the workload's command line"
    )
    env: dict[str, str] = Field(default_factory=dict)
    python: str | None = Field(
        default=None, description="ray/command: the workers' interpreter [default: the harness's own]"
    )
    runtime_env: dict[str, Any] = Field(
        default_factory=dict, description="ray: runtime_env for the job (pip, working_dir, env_vars, ...)"
    )

    @model_validator(mode="after")
    def _check_kind(self) -> "LauncherConfig":
        if self.kind == "command":
            if not self.command:
                raise ValueError("command: a command launcher needs an argv list, e.g. "
                                 '["srun", "--gpus=8", "sh", "-c", "{entrypoint}"]')
            if not any("{entrypoint}" in a for a in self.command):
                raise ValueError("command: no argument contains {entrypoint}")
        elif self.command is not None:
            raise ValueError(f"command: only a command launcher takes one (kind is {self.kind!r})")
        if self.kind != "ray":
            for key in ("address", "runtime_env", "resources"):
                if getattr(self, key):
                    raise ValueError(f"{key}: only a ray launcher takes one (kind is {self.kind!r})")
        return self


class Lane(_Strict):
    name: str
    description: str = ""
    accelerator: str = "cpu"
    platform: Literal["cpu", "tpu", "cuda"] = "cpu"
    devices: int = Field(default=1, gt=0)
    topology: str | None = None
    hosts: int = Field(default=1, gt=0)
    launcher: LauncherConfig = LauncherConfig()
    attempts: int = Field(default=1, gt=0, le=100)
    timeout_s: float = Field(default=1800, gt=0)
    cache_dir: str | None = None
    wandb_project: str | None = None
    wandb: WandbMode = Field(
        default="off",
        description="off, or offline/online: per-step metrics to a W&B run (online needs WANDB_API_KEY)",
    )
    context: str = Field(default="", description="shown in the run context block, e.g. 'GCP, TPU v6e-4'")


class LanesFile(_Strict):
    lanes: dict[str, Lane]

    @model_validator(mode="before")
    @classmethod
    def _names(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("lanes"), dict):
            for name, lane in data["lanes"].items():
                if isinstance(lane, dict):
                    lane.setdefault("name", name)
        return data


# ----------------------------------------------------------------------------- gates


Severity = Literal["FAIL", "WARN", "off"]


class LaneGates(_Strict):
    min_steps: int = Field(ge=0)
    max_final_loss: float = Field(gt=0)
    require_finite: bool = True
    loss_metric: str = "train/loss"
    golden: str | None = Field(
        default=None, description="the lane's golden (canary golden record), relative to the gates file"
    )
    # what each golden gate's failure means: FAIL fails the run, WARN is shown and never fails it
    loss_curve: Severity = "FAIL"
    final_loss_golden: Severity = "FAIL"
    throughput: Severity = "FAIL"
    compile_seconds: Severity = "WARN"
    peak_memory: Severity = "WARN"


class GatesFile(_Strict):
    ferry: str | None = None
    description: str = ""
    lanes: dict[str, LaneGates]

    def lane(self, name: str) -> LaneGates:
        try:
            return self.lanes[name]
        except KeyError:
            raise ConfigError(
                f"the gates define no lane {name!r}; they define: {', '.join(sorted(self.lanes))}"
            ) from None


# ----------------------------------------------------------------------------- loading


def project_root() -> Path:
    """The checkout (editable install) or the installed package's bundled data."""
    here = Path(__file__).resolve().parent.parent  # the canary package
    if (here.parent / "ferries").is_dir():
        return here.parent
    return here / "_data"


def search_dirs(kind: str) -> list[Path]:
    env = os.environ.get(f"CANARY_{kind.upper()}_PATH")
    dirs = [Path(p) for p in env.split(os.pathsep)] if env else []
    dirs += [Path.cwd() / kind, project_root() / kind]
    seen: list[Path] = []
    for d in dirs:
        if d not in seen:
            seen.append(d)
    return seen


_LABEL = {"ferries": "ferry", "gates": "gates file"}


def resolve(kind: str, name_or_path: str) -> Path:
    """A ferry or gates file by name (``moe-canary``) or by path."""
    p = Path(name_or_path)
    if p.suffix == ".toml" or os.sep in name_or_path or "/" in name_or_path:
        if p.is_file():
            return p
        raise ConfigError(f"no {_LABEL[kind]} at {name_or_path}")
    for d in search_dirs(kind):
        cand = d / f"{name_or_path}.toml"
        if cand.is_file():
            return cand
    known = sorted({f.stem for d in search_dirs(kind) if d.is_dir() for f in d.glob("*.toml")})
    raise ConfigError(
        f"unknown {_LABEL[kind]} {name_or_path!r}; "
        f"known: {', '.join(known) or 'none'} (searched {', '.join(str(d) for d in search_dirs(kind))})"
    )


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if not str(p).startswith("function-after")) or "(top level)"


_SUBKEY = re.compile(r"^(?P<key>[A-Za-z_][\w.]*): (?P<msg>.+)$", re.S)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None


def load_model(model: type[BaseModel], path: Path) -> Any:
    data = _read_toml(path)
    try:
        return model.model_validate(data)
    except ValidationError as e:
        lines = []
        for err in e.errors():
            key = _loc(err["loc"])
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = "unknown key"
            elif err["type"] == "value_error":
                # a validator's "sub.key: what" names a key below the one it checks
                msg = str(err.get("ctx", {}).get("error", msg))
                sub = _SUBKEY.match(msg)
                if sub:
                    key = sub["key"] if key == "(top level)" else f"{key}.{sub['key']}"
                    msg = sub["msg"]
            lines.append(f"  {key}: {msg}")
        label = "ferry" if model in FERRY_KINDS.values() else model.__name__.lower()
        raise ConfigError(f"{path}: invalid {label}:\n" + "\n".join(lines)) from None


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def config_identity(kind: str, path: Path) -> dict[str, str]:
    """What a run record keeps of the ferry or gates file it used: ``{kind}_path`` (absolute) and
    ``{kind}_sha256`` (of the file's bytes), kind being ``ferry`` or ``gates``."""
    return {f"{kind}_path": str(Path(path).resolve()), f"{kind}_sha256": file_sha256(path)}


def source_note(kind: str, path: str | Path, sha256: str) -> str | None:
    """How the ferry or gates file a run used relates to the pinned one of its name (in the
    checkout or the installed package), given its path and the sha256 it had when used: None when
    it is the pinned file. A ``ferries/`` or
    ``gates/`` directory in the working directory, or ``$CANARY_FERRIES_PATH`` /
    ``$CANARY_GATES_PATH``, is searched first, so a file there shadows the pinned one."""
    path = Path(path).resolve()
    label = _LABEL["ferries" if kind == "ferry" else "gates"]
    pinned = project_root() / ("ferries" if kind == "ferry" else "gates") / path.name
    if pinned.is_file() and pinned.resolve() == path:
        return None
    if not pinned.is_file():
        return f"not a pinned {label}"
    if file_sha256(pinned) == sha256:
        return f"a copy of the pinned {label}"
    return f"local override of the pinned {label}"


def load_ferry(name_or_path: str = "moe-canary") -> tuple[AnyFerry, Path]:
    """A ferry by name or path: the built-in kind, or ``kind = "command"``."""
    path = resolve("ferries", name_or_path)
    kind = _read_toml(path).get("kind", "builtin")
    if kind not in FERRY_KINDS:
        raise ConfigError(f"{path}: invalid ferry:\n  kind: {kind!r} is not a ferry kind; "
                          f"known: {', '.join(repr(k) for k in FERRY_KINDS)}")
    return load_model(FERRY_KINDS[kind], path), path


def load_gates(name_or_path: str) -> tuple[GatesFile, Path]:
    path = resolve("gates", name_or_path)
    return load_model(GatesFile, path), path


def load_lanes(path: str | None = None) -> tuple[dict[str, Lane], Path]:
    p = Path(path) if path else Path(os.environ.get("CANARY_LANES", project_root() / "lanes.toml"))
    if not p.is_file():
        raise ConfigError(f"no lanes file at {p}")
    return load_model(LanesFile, p).lanes, p


def get_lane(name: str, path: str | None = None) -> Lane:
    lanes, p = load_lanes(path)
    try:
        return lanes[name]
    except KeyError:
        raise ConfigError(f"unknown lane {name!r}; {p} defines: {', '.join(lanes)}") from None
