"""How fast this process can multiply at the ferry's expert shapes, measured beside the steps it
judges: the yardstick the throughput gate divides by, so that a machine that is busy, throttled
or shared (a 2-core CI runner next to other jobs) does not read as a slower canary.

The probe is the experts' own arithmetic: every expert's rows (tokens x top-k / experts of them)
through the gate and down projections (hidden -> intermediate -> hidden), repeated inside one
compiled loop (a few milliseconds a call). The training loop calls it after every ``EVERY``
steps (its time is left out of the steps' durations), so each block of steps has a probe taken
under the same load; a block's normalised throughput is its median step's tokens/s divided by
its probe's GFLOP/s, and the run's (``throughput/normalized``) is the median over blocks.
Pairing each block with its own probe matters on a shared machine: over one run, the load
there moved the step time 1.7x and a probe taken once before training 7x.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

import jax
import jax.numpy as jnp

REPEATS = 8  # expert passes per call
EVERY = 10   # steps per block


def probe(num_experts: int, rows: int, hidden: int, intermediate: int) -> tuple[Callable[[], None], int]:
    """A compiled call and the floating-point operations it does."""
    rows = max(rows, 1)
    x = jnp.ones((num_experts, rows, hidden), jnp.float32) * 0.01
    w1 = jnp.ones((num_experts, hidden, intermediate), jnp.float32) / hidden
    w2 = jnp.ones((num_experts, intermediate, hidden), jnp.float32) / intermediate

    @jax.jit
    def run(x, w1, w2):
        def body(_, x):
            return jnp.tanh(jnp.einsum("erd,edi->eri", x, w1)) @ w2

        return jax.lax.fori_loop(0, REPEATS, body, x)

    flops = REPEATS * 2 * 2 * num_experts * rows * hidden * intermediate
    run(x, w1, w2).block_until_ready()  # compile
    return (lambda: run(x, w1, w2).block_until_ready()), flops


class Calibrator:
    """Pairs each block of steps with a probe taken right after it."""

    def __init__(self, call: Callable[[], None], flops: int, tokens_per_step: int, every: int = EVERY):
        self.call, self.flops, self.tokens, self.every = call, flops, tokens_per_step, every
        self.blocks: list[tuple[float, float]] = []  # (median step seconds, probe GFLOP/s)

    def gflops_now(self, calls: int = 2) -> float:
        """The faster of ``calls`` probe calls (one call can lose the core to a neighbour)."""
        best = 0.0
        for _ in range(calls):
            t0 = time.perf_counter()
            self.call()
            best = max(best, self.flops / (time.perf_counter() - t0) / 1e9)
        return best

    def after_step(self, step: int, durations: list[float]) -> float:
        """At a block's end, probe and keep the block; returns the seconds it took (to be left
        out of the next step's duration)."""
        if (step + 1) % self.every:
            return 0.0
        t0 = time.perf_counter()
        block = durations[max(1, step + 1 - self.every):step + 1]  # the first step's duration includes start-up
        if block:
            self.blocks.append((statistics.median(block), self.gflops_now()))
        return time.perf_counter() - t0

    def figures(self, median_step: float) -> dict[str, float]:
        """``calibration/gflops`` and ``throughput/normalized`` (tokens/s per GFLOP/s)."""
        blocks = self.blocks or [(median_step, self.gflops_now())]
        return {
            "calibration/gflops": statistics.median(g for _, g in blocks),
            "throughput/normalized": statistics.median(self.tokens / s / g for s, g in blocks),
        }
