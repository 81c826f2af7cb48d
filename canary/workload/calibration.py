"""How fast this process can multiply at the ferry's expert shapes right now: the yardstick the
throughput gate divides by, so that a machine that is busy, throttled or shared (a 2-core CI
runner next to other jobs) does not read as a slower canary.

The probe is the experts' own arithmetic: every expert's rows (tokens x top-k / experts of them)
through the gate and down projections (hidden -> intermediate -> hidden), repeated inside one
compiled loop so one call is tens of milliseconds, called for ``seconds``. It is measured in the
workload process, on the same threads as the train step, before and after training; the run's
figure is the mean of the two medians (``calibration/gflops``), and its normalised throughput
is tokens/s per GFLOP/s (``throughput/normalized``).
"""

from __future__ import annotations

import statistics
import time

import jax
import jax.numpy as jnp

REPEATS = 16  # expert passes per call


def probe(num_experts: int, rows: int, hidden: int, intermediate: int):
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


def gflops(call, flops: int, seconds: float = 0.25) -> float:
    """The median rate of calls made for ``seconds`` (at least three)."""
    rates = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(rates) < 3:
        t0 = time.perf_counter()
        call()
        rates.append(flops / (time.perf_counter() - t0) / 1e9)
    return statistics.median(rates)
