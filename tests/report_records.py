"""A history for the report's tests: the August incident on tpu (deterministic and cache-masked
failures between passes), and a cpu lane whose run directories hold per-step losses, with an
intermittent failure, an infrastructure failure and a cancelled run."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

from notify_records import failing, passing, signature

from canary.record import Attempt, RunRecord

SUMMARY = {"throughput/tokens_per_second": 41000.0, "throughput/median_step_seconds": 0.21, "compile/seconds": 9.5}


def write_metrics(run_dir: Path, steps: int = 40, start: float = 11.8, end: float = 6.1) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir / "metrics.jsonl", "w") as f:
        for s in range(steps):
            loss = end + (start - end) * math.exp(-s / 9)
            f.write(json.dumps({"global_step": s, "train/loss": loss, "throughput/tokens_per_second": 40000.0}) + "\n")


def history(tmp: Path) -> list[RunRecord]:
    """Eleven runs on two lanes, oldest first."""
    rs: list[RunRecord] = []
    rs.append(passing("20260826T060000Z-tpu-0001", "2026-08-26", summary=dict(SUMMARY)))
    rs.append(failing("20260827T060000Z-tpu-0002", "2026-08-27"))
    rs.append(failing("20260828T060000Z-tpu-0003", "2026-08-28", classification="cache-masked"))
    rs.append(
        passing(
            "20260829T060000Z-tpu-0004",
            "2026-08-29",
            summary={**SUMMARY, "throughput/tokens_per_second": 43000.0, "compile/seconds": 1.2},
        )
    )
    rs.append(failing("20260830T060000Z-tpu-0005", "2026-08-30"))
    for n, day in enumerate(("2026-08-26", "2026-08-27", "2026-08-28", "2026-08-29"), 1):
        run_id = f"{day.replace('-', '')}T070000Z-cpu-10{n:02d}"
        run_dir = tmp / "runs" / run_id
        write_metrics(run_dir, start=11.8, end=6.0 + n * 0.05)
        rs.append(
            passing(
                run_id,
                day,
                lane="cpu",
                run_dir=str(run_dir),
                steps_completed=40,
                final_loss=6.1,
                summary={**SUMMARY, "throughput/median_step_seconds": 0.2 + n / 100},
                context={
                    "ci_run_url": f"https://github.com/acme/canary/actions/runs/7{n}",
                    "wandb_url": f"https://wandb.ai/acme/canary/runs/cpu{n}",
                },
            )
        )
    sig_nan = replace(signature("9e8d7c6b5a41"), kind="nan", exception=None, message="train/loss is nan at step 12")
    rs.append(
        passing(
            "20260830T070000Z-cpu-1005",
            "2026-08-30",
            lane="cpu",
            verdict="fail",
            classification="intermittent",
            signature=sig_nan,
            attempts=[
                Attempt(1, "failed", 1, 5.0, "a1/train.log", 12, float("nan"), signature=sig_nan),
                Attempt(2, "succeeded", 0, 50.0, "a2/train.log", 40, 6.1),
            ],
        )
    )
    rs.append(
        failing(
            "20260831T070000Z-cpu-1006", "2026-08-31", lane="cpu", fp="0a1b2c3d4e5f", classification="infrastructure"
        )
    )
    rs[-1] = replace(
        rs[-1],
        signature=replace(
            rs[-1].signature, kind="infrastructure", exception=None, message="no worker started within 600s"
        ),
    )
    rs.append(
        failing(
            "20260901T070000Z-cpu-1007",
            "2026-09-01",
            lane="cpu",
            fp="0a1b2c3d4e5f",
            classification="cancelled",
            signature=None,
        )
    )
    return rs
