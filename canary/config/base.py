"""What every config model shares: unknown keys and impossible values are rejected, and the
kernel and dtype choices the ferry, the lanes and the command line offer."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

RaggedDot = Literal["auto", "xla", "megablox", "grouped"]
Tiling = Literal["per-shape", "static"]
DType = Literal["float32", "bfloat16"]
WandbMode = Literal["off", "offline", "online"]


MAX_STEPS = 10_000_000  # a canary is a short run; more steps than this is a typo (1e20), not a plan


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
