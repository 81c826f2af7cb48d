"""The built-in ferry: canary's own JAX workload (:mod:`canary.workload.train`), started with the
attempt's ``spec.json`` (:mod:`canary.formats.spec`), its command line and its environment."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import canary
from canary.config import Ferry, Lane
from canary.ferries.kind import AttemptInputs, Prepared
from canary.formats.directory import LOG_FILE, SPEC_FILE
from canary.formats.spec import build_spec
from canary.launchers import AttemptRequest


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


class Builtin:
    """Canary's own model: every kernel flag applies, nothing beyond the default install."""

    name = "builtin"
    checks_remote_cache = True
    lowering = "model"

    def check_flags(self, ferry: Ferry, ragged_dot: str | None, tiling: str | None) -> None:
        pass

    def check_extras(self, ferry: Ferry, lane: Lane) -> None:
        pass

    def stack(self, ferry: Ferry) -> str | None:
        return None

    def prepare(self, ferry: Ferry, inputs: AttemptInputs) -> Prepared:
        """The attempt's spec, written to its directory, and the workload started on it."""
        spec = build_spec(
            ferry,
            inputs.lane,
            run_id=inputs.run_id,
            out_dir=inputs.attempt_dir,
            steps=inputs.steps,
            ragged_dot=inputs.ragged_dot,
            tiling=inputs.tiling,
            cache=inputs.cache,
        )
        request = AttemptRequest(
            argv=workload_argv(spec.write(inputs.attempt_dir / SPEC_FILE)),
            env={**workload_env(inputs.lane), **inputs.env},
            cwd=Path.cwd(),
            log_path=inputs.attempt_dir / LOG_FILE,
            timeout_s=inputs.lane.timeout_s,
            name=inputs.name,
        )
        return Prepared(request, spec.steps)

    def model(self, ferry: Ferry, what: str) -> Ferry:
        return ferry

    def why_not_bisected(self, ferry: Ferry) -> str | None:
        return None

    def listed(self, ferry: Ferry) -> dict:
        """What ``canary list --json`` shows of it besides its name, version and lanes."""
        return {
            "model": {"vocab_size": ferry.model.vocab_size},
            "trainer": {"compute_dtype": ferry.trainer.compute_dtype},
        }


KIND = Builtin()
