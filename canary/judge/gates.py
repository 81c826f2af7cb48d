"""Regression gates as pure functions: (thresholds, metrics) -> results. No I/O."""

from __future__ import annotations

import math
from typing import Any

from canary.config import LaneGates
from canary.formats.metrics import RunMetrics
from canary.judge.results import GateResult, Status


def _status(ok: bool) -> Status:
    return "PASS" if ok else "FAIL"


def min_steps(metrics: RunMetrics, threshold: int) -> GateResult:
    n = metrics.steps_completed
    if n is None:
        return GateResult("min_steps", None, threshold, "FAIL", "no step metric was logged")
    return GateResult("min_steps", n, threshold, _status(n >= threshold))


def max_final_loss(metrics: RunMetrics, threshold: float, metric: str = "train/loss") -> GateResult:
    loss = metrics.final_loss
    if loss is None:
        return GateResult("max_final_loss", None, threshold, "FAIL", f"{metric} is missing")
    # Written so that NaN fails on purpose, not by accident of `nan <= x` being False.
    if not math.isfinite(loss):
        return GateResult("max_final_loss", loss, threshold, "FAIL", f"final {metric} is {loss}")
    return GateResult("max_final_loss", loss, threshold, _status(loss <= threshold))


def finite_loss(metrics: RunMetrics, metric: str = "train/loss") -> GateResult:
    if metrics.losses is None:  # only a summary: its final value is all there is to check
        v = metrics.final_loss
        if v is None:
            return GateResult("finite_loss", None, "all finite", "FAIL", f"{metric} is missing")
        ok = math.isfinite(v)
        return GateResult(
            "finite_loss",
            v if not ok else "final only",
            "all finite",
            _status(ok),
            "" if ok else f"final {metric} is {v}",
        )
    if not metrics.losses:
        return GateResult("finite_loss", None, "all finite", "FAIL", f"{metric} is missing")
    for step, v in metrics.losses:
        if not math.isfinite(v):
            return GateResult(
                "finite_loss", f"{v} at step {step}", "all finite", "FAIL", f"first non-finite {metric} at step {step}"
            )
    return GateResult("finite_loss", f"{len(metrics.losses)} finite", "all finite", "PASS")


def evaluate(
    gates: LaneGates,
    metrics: RunMetrics,
    *,
    requested_steps: int | None = None,
    golden: Any = None,
    ferry_version: int | None = None,
) -> list[GateResult]:
    """All of a lane's gates. A quick ``--steps`` run (``requested_steps`` below the gate's
    minimum) lowers the step threshold to what was asked for, and leaves a finite final loss
    unjudged (SKIP): the loss threshold is for a full run. Both say so in their detail; a
    missing or non-finite loss still fails. With the lane's ``golden`` (a
    :class:`canary.golden.model.Golden`), the golden gates follow (:mod:`canary.judge.golden_gates`)."""
    threshold = gates.min_steps
    quick = requested_steps is not None and requested_steps < threshold
    results = []
    if quick:
        r = min_steps(metrics, requested_steps)
        results.append(
            GateResult(
                r.name,
                r.value,
                r.threshold,
                r.status,
                (r.detail + "; " if r.detail else "") + f"--steps {requested_steps} (gate: {gates.min_steps})",
            )
        )
    else:
        results.append(min_steps(metrics, threshold))
    loss = max_final_loss(metrics, gates.max_final_loss, gates.loss_metric)
    if quick and loss.value is not None and math.isfinite(loss.value):
        loss = GateResult(
            loss.name,
            loss.value,
            loss.threshold,
            "SKIP",
            f"not judged: --steps {requested_steps}, the threshold is for {gates.min_steps} steps",
        )
    results.append(loss)
    if gates.require_finite:
        results.append(finite_loss(metrics, gates.loss_metric))
    if golden is not None:
        from canary.judge import golden_gates, stats_gates

        for judge in (golden_gates, stats_gates):
            results += judge.evaluate(
                gates, golden, metrics, requested_steps=requested_steps, ferry_version=ferry_version
            )
    return results
