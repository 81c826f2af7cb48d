"""What every config model shares: unknown keys and impossible values are rejected, and the
kernel and dtype choices the ferry, the lanes and the command line offer."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints

RaggedDot = Literal["auto", "xla", "megablox", "grouped"]
Tiling = Literal["per-shape", "static"]
DType = Literal["float32", "bfloat16"]
WandbMode = Literal["off", "offline", "online"]


MAX_STEPS = 10_000_000  # a canary is a short run; more steps than this is a typo (1e20), not a plan


class Strict(BaseModel):
    # strict: a number is a number (steps = "200" or true is an error, not 200 or 1; 1e11 is no int)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


# A lane, ferry or gates name becomes a run id, a folder, a marker and markdown: a safe set only.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN)]
