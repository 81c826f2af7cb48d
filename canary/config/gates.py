"""Gates files (gates/*.toml): each lane's regression thresholds and how a golden gate's failure
counts. Pure models."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from canary.config.base import Name, Strict
from canary.errors import ConfigError

Severity = Literal["FAIL", "WARN", "off"]


class LaneGates(Strict):
    min_steps: int = Field(ge=0)
    max_final_loss: float = Field(gt=0)
    require_finite: bool = True
    loss_metric: str = "train/loss"
    golden: str | None = Field(
        default=None, description="the lane's golden (canary golden record), relative to the gates file"
    )
    # what each golden gate's failure means: FAIL fails the run, WARN is shown and never fails it
    loss_curve: Severity = "FAIL"
    stats_curve: Severity = "FAIL"  # the model's statistics, where the golden bands them
    final_loss_golden: Severity = "FAIL"
    throughput: Severity = "FAIL"
    compile_seconds: Severity = "WARN"
    peak_memory: Severity = "WARN"


class GatesFile(Strict):
    ferry: Name | None = None
    description: str = ""
    lanes: dict[Name, LaneGates]

    def lane(self, name: str) -> LaneGates:
        try:
            return self.lanes[name]
        except KeyError:
            raise ConfigError(
                f"the gates define no lane {name!r}; they define: {', '.join(sorted(self.lanes))}"
            ) from None
