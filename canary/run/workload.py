"""The workload's process as the harness starts it: its command line and environment, and the
versions of the stack it runs with (a run record keeps them; a regression window lists their changes)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import canary
from canary.config import Lane
from canary.history.windows import JAX_DISTRIBUTIONS
from canary.run.ownership import STACK_DISTRIBUTIONS


def workload_argv(spec_path: Path) -> list[str]:
    return [sys.executable, "-m", "canary.workload.train", str(spec_path)]


# XLA's CPU runtime allocates a step's scratch space (77 MB for the cpu lane's train step)
# with one malloc per step, from a worker thread. glibc serves a request that large from a fresh
# mmap and unmaps it when the step ends, so every step faulted the whole buffer in again: about
# 19,000 new 4 KiB pages, 40% of the step. With mmap off for malloc (the buffer then comes from
# the main heap) and the heap's top kept instead of trimmed, the buffer is reused from step to
# step: about 1 ms of kernel time a step instead of 9 (with 2 MiB pages) or 40 (without), and
# about 80 MB more resident. Huge pages stay on for whatever is still mapped fresh. (glibc >=
# 2.26 for tunables, >= 2.35 for hugetlb; an unknown tunable is ignored.)
CPU_MALLOC_TUNABLES = (
    "glibc.malloc.hugetlb=1",
    "glibc.malloc.mmap_max=0",
    "glibc.malloc.trim_threshold=1073741824",
)


def cpu_allocator_env(environ: Mapping[str, str]) -> dict[str, str]:
    """GLIBC_TUNABLES for a CPU workload process: the caller's own tunables, plus each of
    ``CPU_MALLOC_TUNABLES`` whose name the caller has not set. Pure."""
    mine = [t for t in environ.get("GLIBC_TUNABLES", "").split(":") if t]
    chosen = {t.split("=", 1)[0] for t in mine}
    added = [t for t in CPU_MALLOC_TUNABLES if t.split("=", 1)[0] not in chosen]
    return {"GLIBC_TUNABLES": ":".join(mine + added)}


def workload_env(lane: Lane, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The environment the workload process gets on top of the harness's own."""
    pkg_root = str(Path(canary.__file__).resolve().parent.parent)
    env = {
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": os.pathsep.join(p for p in (pkg_root, environ.get("PYTHONPATH")) if p),
    }
    if lane.platform == "cpu":
        env["JAX_PLATFORMS"] = "cpu"
        env.update(cpu_allocator_env(environ))
    env.update(lane.launcher.env)
    return env


# What a run's result depends on besides the code: a regression window lists their changes.
VERSIONED_DISTS = (*JAX_DISTRIBUTIONS, *STACK_DISTRIBUTIONS)


def versions(ferry_path: Path | None = None) -> dict[str, str]:
    """The harness's canary, python and JAX stack versions (those installed), and ``ferry``: the
    sha256 of the ferry file's bytes."""
    import hashlib
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"canary": canary.__version__, "python": platform.python_version()}
    for dist in VERSIONED_DISTS:
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            pass
    if ferry_path is not None:
        try:
            out["ferry"] = hashlib.sha256(Path(ferry_path).read_bytes()).hexdigest()
        except OSError:
            pass
    return out
