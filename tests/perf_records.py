"""Histories of passing runs with made-up figures, for the change-point tests: a daily run whose
throughput, compile time, peak memory and final loss follow given series."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from canary.record import RunRecord

START = datetime(2026, 9, 1, 6, tzinfo=UTC)
GOLDEN_GATES = [
    {"name": n, "status": "PASS"}
    for n in ("min_steps", "max_final_loss", "finite_loss", "throughput", "compile_seconds", "peak_memory")
]
LOOSE_GATES = [{"name": n, "status": "PASS"} for n in ("min_steps", "max_final_loss", "finite_loss")]


def noisy(n: int, level: float = 12_000.0, noise: float = 0.02, seed: int = 0) -> np.ndarray:
    """``n`` points around ``level`` with relative Gaussian noise ``noise``."""
    return level * (1 + noise * np.random.default_rng(seed).standard_normal(n))


def stepped(n: int, at: int, size: float, level: float = 12_000.0, noise: float = 0.02, seed: int = 0) -> np.ndarray:
    """``noisy`` with a relative step of ``size`` (-0.03: 3% down) from point ``at`` on."""
    x = noisy(n, level, noise, seed)
    x[at:] *= 1 + size
    return x


def run(
    i: int,
    lane: str = "cpu",
    ferry: str = "moe-canary",
    tokens: float | None = 12_000.0,
    compile_s: float | None = 6.0,
    peak: float | None = 9.0e8,
    loss: float | None = 1.9,
    verdict: str = "pass",
    gates: list | None = None,
    versions: dict | None = None,
    commit: str | None = None,
    **summary,
) -> RunRecord:
    """The ``i``-th daily run of a lane."""
    when = START + timedelta(days=i)
    s = {"throughput/tokens_per_second": tokens, "compile/seconds": compile_s, "memory/peak_bytes": peak, **summary}
    return RunRecord(
        run_id=f"{when:%Y%m%dT%H%M%SZ}-{lane}-{i:04d}",
        lane=lane,
        ferry=ferry,
        ferry_version=2,
        verdict=verdict,
        steps_completed=200,
        final_loss=loss,
        gates=list(GOLDEN_GATES if gates is None else gates),
        run_dir="",
        started_at=when.isoformat(timespec="seconds"),
        summary={k: v for k, v in s.items() if v is not None},
        versions=dict(versions or {"jax": "0.10.0", "jaxlib": "0.10.0", "python": "3.11.7"}),
        commit=commit or f"{i:04d}" + "c" * 36,
        classification="pass" if verdict == "pass" else "deterministic",
    )


def history(tokens, lane: str = "cpu", **kw) -> list[RunRecord]:
    """One passing run per value of ``tokens`` (the throughput series), one a day."""
    return [run(i, lane, tokens=float(v), **kw) for i, v in enumerate(tokens)]


def write_run_dir(d, losses, speeds, summary, steps_requested=None):
    """A run directory as ``canary run`` leaves one, with made-up figures: a metrics.jsonl line per
    step (its loss from ``losses``, its tokens/s from ``speeds``), the tracker file's ``summary``
    over the last line, and a result.json naming the cpu lane of moe-canary."""
    import json

    steps = len(losses)
    d.mkdir(parents=True, exist_ok=True)
    lines = [
        {"global_step": i, "train/loss": loss, "throughput/tokens_per_second": speed}
        for i, (loss, speed) in enumerate(zip(losses, speeds, strict=True))
    ]
    (d / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    config = {"ferry": "moe-canary", "lane": "cpu", "steps": steps_requested or steps}
    tracker = {"config": config, "summary": {**lines[-1], "_step": steps - 1, **summary}}
    (d / "tracker_metrics.jsonl").write_text(json.dumps(tracker) + "\n")
    result = {"lane": "cpu", "ferry": "moe-canary", "steps_requested": steps_requested or steps}
    (d / "result.json").write_text(json.dumps(result))
    return d
