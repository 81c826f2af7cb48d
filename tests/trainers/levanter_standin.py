"""A stand-in for a team's own trainer (a levanter entry point), for the command-ferry tests.

Standard library only (but for the ``jax`` mode). It "trains" ``--steps`` steps of a fixed,
deterministic loss curve, writes per-step ``metrics.jsonl`` lines with levanter's metric names and,
at the end, levanter's ``tracker_metrics.jsonl`` summary (``_step`` 0-based, the loss nested as
``{"train": {"loss": ...}}``).

How it misbehaves is chosen by ``STANDIN_MODE``:
    ok (default) | high-loss (the loss ends far above any gate) | crash-at:K (an exception at
    step K) | no-summary (exits 0 without a summary) | empty-summary (an empty summary file) |
    cpu-fallback (jax's warning that it fell back to the CPU, then a run that passes its gates) |
    jax (one small jitted program first, through JAX's persistent cache as the environment sets it,
    every program cached whatever its compile time: a trainer whose cache ``--cache verify`` checks)
It records the compilation-cache and lane variables it was given in the summary's config.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

CACHE_VARS = ("JAX_ENABLE_COMPILATION_CACHE", "JAX_COMPILATION_CACHE_DIR", "JAX_COMPILATION_CACHE_CHECK_CONTENTS")
LANE_VARS = ("XLA_FLAGS", "LIBTPU_INIT_ARGS", "NCCL_DEBUG")


def loss_at(step: int, steps: int, offset: float) -> float:
    return 2.0 + offset + 8.0 * math.exp(-3.0 * step / max(steps, 1))


def jit_once() -> None:
    """A one-kernel program, compiled through the persistent cache the environment names."""
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "-1")
    import jax
    import jax.numpy as jnp

    print("stand-in jit:", jax.jit(lambda x: x * 2.0 + 1.0)(jnp.arange(4.0)), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    mode = os.environ.get("STANDIN_MODE", "ok")
    crash_at = int(mode.split(":", 1)[1]) if mode.startswith("crash-at:") else None
    offset = 20.0 if mode == "high-loss" else 0.0
    args.out.mkdir(parents=True, exist_ok=True)
    env = {
        k: os.environ.get(k)
        for k in (*CACHE_VARS, *LANE_VARS, "CANARY_RUN_ID", "CANARY_LANE", "CANARY_STEPS", "CANARY_RUN_DIR")
    }
    print(f"stand-in trainer: {args.steps} steps, mode {mode}, cache {env['JAX_ENABLE_COMPILATION_CACHE']}", flush=True)
    if mode == "cpu-fallback":  # as jax printed it in 2025 (tests/logs/real/jax-29373.log)
        print(
            "WARNING:2025-06-10 14:14:30,805:jax._src.xla_bridge:791: An NVIDIA GPU may be present on this "
            "machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.",
            file=sys.stderr,
            flush=True,
        )
    if mode == "jax":
        jit_once()
    t0 = time.time()
    loss = float("nan")
    with open(args.out / "metrics.jsonl", "w") as f:
        for step in range(args.steps):
            if step == crash_at:
                raise RuntimeError(f"stand-in trainer crashed at step {step}")
            loss = loss_at(step, args.steps, offset)
            f.write(
                json.dumps(
                    {
                        "global_step": step,
                        "train/loss": loss,
                        "train/cross_entropy_loss": loss,
                        "throughput/tokens_per_second": 1000.0,
                        "throughput/duration": 0.01,
                    }
                )
                + "\n"
            )
            f.flush()
    if mode == "no-summary":
        return 0
    summary_path = args.out / "tracker_metrics.jsonl"
    if mode == "empty-summary":
        summary_path.write_text("")
        return 0
    summary = {
        "_step": args.steps - 1,
        "global_step": args.steps,
        "train": {"loss": loss},
        "_runtime": time.time() - t0,
        "throughput/tokens_per_second": 1000.0,
    }
    summary_path.write_text(
        json.dumps({"config": {"trainer": {"num_train_steps": args.steps}, "env": env}, "summary": summary}) + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
