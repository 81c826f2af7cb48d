"""``canary repro LANE``: the manual cold-cache reproduction of a lane's compile.

Where the lane's hardware is here, it runs a few steps of the lane with the persistent
compilation cache bypassed (every program lowered and compiled fresh, as on a cache miss or a
cache read failure) through the ordinary runner. Where it is not (a TPU lane on a laptop), it
says so and cross-lowers the lane's train step for the lane's platform instead, which runs the
same kernel lowering a cold compile would.

A few steps cannot meet a lane's final-loss gate, so the verdict of a repro is: the train step
compiled and the steps ran with finite losses (the step-count and finite-loss gates).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canary.config import get_lane
from canary.formats.spec import CacheSpec
from canary.judge.results import verdict_of

REPRO_GATES = ("min_steps", "finite_loss", "cache_consistency")


@dataclass
class Hardware:
    platform: str
    needed: int
    found: int
    detail: str = ""
    error: str = ""  # what JAX said when it could not open the platform (kept for --json, not shown)

    @property
    def present(self) -> bool:
        return self.found >= self.needed


@dataclass
class ReproResult:
    lane: str
    hardware: Hardware
    action: str  # "run" | "lower"
    verdict: str  # pass | fail
    cache: dict[str, Any] | None
    message: str
    run: dict[str, Any] | None = None
    lowering: Any = None  # canary.run.lowering.LowerReport
    gates: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "lane": self.lane,
            "action": self.action,
            "verdict": self.verdict,
            "message": self.message,
            "hardware": {
                "platform": self.hardware.platform,
                "needed": self.hardware.needed,
                "found": self.hardware.found,
                "present": self.hardware.present,
                "detail": self.hardware.detail,
            },
            "cache": self.cache,
            "gates": self.gates,
            "run": self.run,
            "lowering": self.lowering.to_dict() if self.lowering is not None else None,
        }


def probe(platform: str, needed: int) -> Hardware:
    """How many devices of a platform this machine has (the host CPU always counts as one)."""
    if platform == "cpu":
        return Hardware("cpu", 1, 1, "the host CPU")
    import jax

    try:
        found = len(jax.devices(platform))
        return Hardware(platform, needed, found, f"{found} {platform} device(s)")
    except RuntimeError as e:  # JAX's own words (e.g. libtpu.so cannot be opened) stay out of the way
        return Hardware(platform, needed, 0, f"JAX has no {platform} backend here", (str(e).splitlines() or [""])[0])


def repro_verdict(record: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """Pure: pass when the last attempt ran to the end and the step and finite-loss gates passed."""
    gates = [g for g in record.get("gates", []) if g["name"] in REPRO_GATES]
    attempts = record.get("attempts") or []
    ran = bool(attempts) and attempts[-1]["outcome"] == "succeeded"
    ok = ran and verdict_of(g["status"] for g in gates) == "pass"
    return ("pass" if ok else "fail"), gates


def reproduce(
    lane_name: str,
    *,
    cold: bool = True,
    steps: int = 10,
    ferry: str = "moe-canary",
    out: Path = Path("runs"),
    ragged_dot: str | None = None,
    tiling: str | None = None,
    cache_dir: str | None = None,
    progress=None,
    both: bool = False,
) -> ReproResult:
    lane = get_lane(lane_name)
    hw = probe(lane.platform, lane.devices)
    if hw.present:
        from canary.run.runner import RunOptions, run_canary

        cache = CacheSpec(mode="cold" if cold and not both else "warm", dir=cache_dir)
        run_opts = RunOptions(
            lane=lane.name, ferry=ferry, steps=steps, out=out, ragged_dot=ragged_dot, tiling=tiling, cache=cache
        )
        if both:
            from canary.run.consistency import run_both

            record = run_both(run_opts, progress).to_dict()
        else:
            record = run_canary(run_opts, progress).to_dict()
        verdict, gates = repro_verdict(record)
        how = "cold, then warm, compared" if both else ("cold (cache bypassed)" if cold else "warm")
        msg = (
            f"ran {record.get('steps_completed') or 0} of {steps} steps of lane {lane.name} on {hw.detail}, "
            f"compiled {how}"
        )
        if record.get("error"):
            msg += "; training failed"
        return ReproResult(lane.name, hw, "run", verdict, record.get("cache"), msg, run=record, gates=gates)

    from canary.run.lowering import LowerOptions, lower_lanes

    report = lower_lanes(
        LowerOptions(
            lane=lane.name,
            platforms=[lane.platform],
            tiling=tiling,
            ragged_dot=ragged_dot,
            ferry=ferry,
            topology=False,  # the one-chip lowering the reproducer's kernel owner runs
            parity=False,
        )
    )
    msg = (
        f"no {hw.platform} hardware here (lane {lane.name} needs {hw.needed} device(s), found {hw.found}); "
        f"cross-lowered its train step for {hw.platform} instead"
    )
    return ReproResult(lane.name, hw, "lower", "pass" if report.ok else "fail", None, msg, lowering=report)
