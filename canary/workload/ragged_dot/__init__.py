"""Grouped-matmul backends behind one signature:

    ragged_dot(lhs (M, K), rhs (E, K, N), group_sizes (E,) int32) -> (M, N)

where the rows of ``lhs`` are sorted by group and ``group_sizes`` sums to at most M. Each
backend lives in its own module and registers a factory here; ``resolve`` maps the ferry's
``auto`` setting to a concrete backend for the platform.
"""

from __future__ import annotations

import importlib
from typing import Callable

RaggedDotFn = Callable  # (lhs, rhs, group_sizes) -> out

# name -> module defining make(**options) -> RaggedDotFn
BACKENDS: dict[str, str] = {
    "xla": "canary.workload.ragged_dot.xla",
    "grouped": "canary.workload.ragged_dot.grouped",
    "cpu_gmm": "canary.workload.ragged_dot.cpu_gmm",
    "megablox": "canary.workload.ragged_dot.megablox",
}

# What "auto" means on each platform.
AUTO: dict[str, str] = {"cpu": "cpu_gmm", "tpu": "megablox", "cuda": "xla"}
# What "auto" falls back to where its first choice cannot run here (cpu_gmm needs a C compiler).
FALLBACK: dict[str, str] = {"cpu_gmm": "grouped"}


def fallback_reason(name: str, platform: str) -> str | None:
    """Why ``auto`` on this platform is not its first choice here (None when it is)."""
    choice = AUTO.get(platform, "xla") if name == "auto" else None
    if choice not in FALLBACK:
        return None
    reason = importlib.import_module(BACKENDS[choice]).unavailable_reason()
    return f"{choice} is unavailable, using {FALLBACK[choice]}: {reason}" if reason else None


def resolve(name: str, platform: str) -> str:
    if name == "auto":
        choice = AUTO.get(platform, "xla")
        return FALLBACK[choice] if fallback_reason(name, platform) else choice
    if name not in BACKENDS:
        raise ValueError(f"unknown ragged_dot backend {name!r}; known: {', '.join(sorted(BACKENDS))}")
    return name


def make(name: str, platform: str = "cpu", **options) -> RaggedDotFn:
    module = importlib.import_module(BACKENDS[resolve(name, platform)])
    return module.make(platform=platform, **options)
