"""Grouped-matmul backends behind one signature:

    ragged_dot(lhs (M, K), rhs (E, K, N), group_sizes (E,) int32) -> (M, N)

where the rows of ``lhs`` are sorted by group and ``group_sizes`` sums to at most M. Each
backend lives in its own module and registers a factory here; ``resolve`` maps the ferry's
``auto`` setting to a concrete backend for the platform.
"""

from __future__ import annotations

from collections.abc import Callable

from canary.workload.backends import Choice

RaggedDotFn = Callable  # (lhs, rhs, group_sizes) -> out

# name -> module defining make(**options) -> RaggedDotFn
BACKENDS: dict[str, str] = {
    "xla": "canary.workload.ragged_dot.xla",
    "grouped": "canary.workload.ragged_dot.grouped",
    "megablox": "canary.workload.ragged_dot.megablox",
}

# What "auto" means on each platform: on a CPU, lax.ragged_dot's lowering is dense (E times the
# real work), so the cpu lane runs the pure-JAX tiled grouped matmul instead.
AUTO: dict[str, str] = {"cpu": "grouped", "tpu": "megablox", "cuda": "xla"}

CHOICE = Choice("ragged_dot", BACKENDS, AUTO, "xla")
resolve, make = CHOICE.resolve, CHOICE.make
