"""Lanes (lanes.toml): where and how a canary runs: accelerator, launcher, attempts, timeout,
cache. Pure models."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from canary.config.base import Name, Strict, WandbMode


class LauncherConfig(Strict):
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
    def _check_kind(self) -> LauncherConfig:
        if self.kind == "command":
            if not self.command:
                raise ValueError(
                    "command: a command launcher needs an argv list, e.g. "
                    '["srun", "--gpus=8", "sh", "-c", "{entrypoint}"]'
                )
            if not any("{entrypoint}" in a for a in self.command):
                raise ValueError("command: no argument contains {entrypoint}")
        elif self.command is not None:
            raise ValueError(f"command: only a command launcher takes one (kind is {self.kind!r})")
        if self.kind != "ray":
            for key in ("address", "runtime_env", "resources"):
                if getattr(self, key):
                    raise ValueError(f"{key}: only a ray launcher takes one (kind is {self.kind!r})")
        return self


class Lane(Strict):
    name: Name
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


class LanesFile(Strict):
    lanes: dict[Name, Lane]

    @model_validator(mode="before")
    @classmethod
    def _names(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("lanes"), dict):
            for name, lane in data["lanes"].items():
                if isinstance(lane, dict):
                    lane.setdefault("name", name)
        return data
