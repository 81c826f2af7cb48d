"""Whether a run used its lane's accelerator. Pure.

JAX that finds no accelerator backend (a CPU-only jaxlib, a TPU held by another process, a CUDA
plugin that failed to load) falls back to the CPU and says so only in a warning: the run trains,
slowly, and its gates may pass. A lane whose accelerator silently became the CPU fails here, with
the signature kind ``environment`` (:func:`canary.signature.gate_signature`), not as a slow pass.

Two witnesses: the backend canary's own workload records (:data:`SUMMARY_KEY`, what
``jax.default_backend()`` said), and, for any trainer, jax's fallback warning in the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from canary.judge.results import GateResult
from canary.signature.checks import cpu_fallback

GATE = "platform"
SUMMARY_KEY = "devices/platform"


def accelerator_gate(lane_platform: str, summary: Mapping[str, Any], log_text: str = "") -> GateResult | None:
    """A failed ``platform`` gate when a lane with an accelerator ran on the CPU, else None."""
    if lane_platform == "cpu":
        return None
    if summary.get(SUMMARY_KEY) == "cpu":
        return GateResult(
            GATE, "cpu", lane_platform, "FAIL", f"the {lane_platform} lane's workload ran on jax's cpu backend"
        )
    line = cpu_fallback(log_text) if log_text else None
    if line is not None:
        return GateResult(
            GATE, "cpu", lane_platform, "FAIL", f"jax fell back to the CPU on the {lane_platform} lane: {line}"
        )
    return None
