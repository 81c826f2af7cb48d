"""How fast this process can multiply at the ferry's expert shapes, measured beside the steps it
judges: the yardstick the throughput gate divides by, so that a machine that is busy, throttled
or shared (a 2-core CI runner next to other jobs) does not read as a slower canary.

The probe is the experts' own arithmetic: every expert's rows (tokens x top-k / experts of them)
through the gate and down projections (hidden -> intermediate -> hidden), a few passes in one
compiled call (about a millisecond on a quiet 2-core machine). The training loop calls it once
after every step (its time is left out of the steps' durations), so the probes sample the same
moments of the run, under the same load, as the steps; the run's ``calibration/gflops`` is the
probes' median rate and ``throughput/normalized`` the median step's tokens/s divided by it.
Probes taken once before and after training instead (a quarter second each) moved 7x between two
runs on a loaded shared machine where the step time moved 1.7x; a probe paired with every step
uses the same statistic over the same moments for both.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

import jax
import jax.numpy as jnp

REPEATS = 4  # expert passes per call


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
    """One probe after every step; figures from the medians."""

    def __init__(self, call: Callable[[], None], flops: int, tokens_per_step: int):
        self.call, self.flops, self.tokens = call, flops, tokens_per_step
        self.rates: list[float] = []  # GFLOP/s, one per probe

    def probe(self) -> float:
        """Probes once; returns the seconds it took (to be left out of the next step's duration)."""
        t0 = time.perf_counter()
        self.call()
        seconds = time.perf_counter() - t0
        self.rates.append(self.flops / seconds / 1e9)
        return seconds

    def figures(self, durations: list[float]) -> dict[str, float]:
        """``calibration/gflops`` (and ``calibration/best_gflops``, the fastest probe's) and ``throughput/normalized`` (tokens/s per GFLOP/s: the median
        step's over the median probe's), and ``throughput/normalized_paired`` (the median over
        steps of each step's own ratio to the probe right after it)."""
        if not self.rates:
            self.probe()
        steady = durations[1:] or durations
        gflops = statistics.median(self.rates)
        paired = [self.tokens / d / g for d, g in zip(durations[1:], self.rates[1:]) if d > 0]
        return {"calibration/gflops": gflops,
                "calibration/best_gflops": max(self.rates),
                "throughput/normalized": self.tokens / statistics.median(steady) / gflops,
                "throughput/normalized_paired": statistics.median(paired) if paired else None}
