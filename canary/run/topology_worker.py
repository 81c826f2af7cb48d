"""The child process that lowers (and, asked to, compiles) a ferry's whole train step on a TPU
topology with libtpu, on a machine with no TPU: ``python -m canary.run.topology_worker REQUEST RESULT``.

:mod:`canary.run.topology` starts it with its environment set (JAX on the CPU, libtpu told it has no
metadata server to ask) and its output in a log. The request names the ferry, the lane, the lanes
file, the topology ("v6e:2x2") and whether to compile; the result (JSON) is the topology's
devices, the mesh, the global batch, the lowered program's fingerprint, or the failure with the
same diagnosis a one-chip lowering gets (grouped matmul, call path, owning distribution), and for
a compile: its seconds, per-chip memory, and a fingerprint of the compiled program.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from canary.config import load_ferry, load_lanes
from canary.formats import signals
from canary.formats.spec import build_spec
from canary.run.lowered import PlatformResult, parse_block_shape_error
from canary.workload.program import lower_on_mesh, program_fingerprint, short_error

DIAGNOSIS_KEYS = (
    "kernel",
    "gmm",
    "projection",
    "tensor",
    "array_shape",
    "block_shape",
    "diagnosis",
    "call_path",
    "owner",
)
MEMORY = {
    "temp": "temp_size_in_bytes",
    "arguments": "argument_size_in_bytes",
    "outputs": "output_size_in_bytes",
    "generated_code": "generated_code_size_in_bytes",
    "aliased": "alias_size_in_bytes",
}
_METADATA = re.compile(r", metadata=\{[^}]*\}")


def compiled_fingerprint(text: str) -> str:
    """sha256 of a compiled program's HLO text without its per-op metadata (source names)."""
    return hashlib.sha256(_METADATA.sub("", text).encode()).hexdigest()


def memory(analysis: Any) -> dict[str, int]:
    """One chip's memory from a compiled program's ``memory_analysis()``: temp, arguments, outputs,
    generated code, and their total (aliased bytes, outputs that reuse arguments, counted once)."""
    out = {k: int(getattr(analysis, attr, 0) or 0) for k, attr in MEMORY.items()}
    out["total"] = out["temp"] + out["arguments"] + out["outputs"] + out["generated_code"] - out["aliased"]
    return out


def lower_train_step(ferry, lane, spec, devices, result: PlatformResult):
    """The ferry's train step lowered on the topology's ``devices`` as the lane runs it, with its
    mesh: ``(mesh, lowered)``, or ``(mesh, None)`` with ``result`` explaining the failure (what a
    compile failure's ``repro.py`` calls too)."""
    import numpy as np
    from jax.sharding import Mesh

    rows = spec.batch_size // len(devices) * spec.seq_len * ferry.model.experts_per_token
    if ferry.stack:
        from canary.run import stack_lowering
        from canary.workload import stack
        from canary.workload.platform_view import shown_platform

        mesh = stack.device_mesh(devices)
        with shown_platform("tpu", stack_lowering.LIBRARY_PACKAGES):
            result.ragged_dot = stack.ragged_dot_choice()
            try:
                return mesh, lower_on_mesh(spec, stack.make_train_step(spec, mesh=mesh), mesh)
            except Exception as e:  # noqa: BLE001 - a lowering failure is the result
                stack_lowering._explain(result, e, "tpu", rows, stack.grug_config(spec))
                return mesh, None
    from canary.run import lowering
    from canary.workload import ragged_dot as backends
    from canary.workload import train

    mesh = Mesh(np.array(devices), ("data",))
    result.ragged_dot = backends.resolve(spec.ragged_dot, "tpu")
    try:
        return mesh, lower_on_mesh(spec, train.make_train_step(spec, mesh=mesh), mesh)
    except Exception as e:  # noqa: BLE001 - a lowering failure is the result
        cfg = train.model_config(spec)
        lowering.explain(result, e, "tpu", rows, cfg, spec.tiling, result.ragged_dot)
        return mesh, None


def run(request: dict[str, Any]) -> dict[str, Any]:
    import jax
    from jax.experimental import topologies

    from canary.run.ownership import stack_versions
    from canary.run.topology import _version

    ferry = load_ferry(request["ferry"])[0]
    lane = load_lanes(request.get("lanes_file"))[0][request["lane"]]
    t0 = time.perf_counter()
    devices = topologies.get_topology_desc(platform="tpu", topology_name=request["topology"]).devices
    out: dict[str, Any] = {
        "name": request["topology"],
        "devices": len(devices),
        "device_kind": devices[0].device_kind,
        "libtpu": _version("libtpu"),
        "jax": jax.__version__,
        "topology_seconds": round(time.perf_counter() - t0, 3),
    }
    spec = build_spec(ferry, lane, run_id="lower", out_dir=os.devnull)
    spec = spec.model_copy(update={"platform": "tpu"})
    out.update(batch_size=spec.batch_size, seq_len=spec.seq_len)
    result = PlatformResult("tpu", lane.name, False, None, 0.0, "auto", spec.tiling, spec.batch_size, spec.seq_len, 0)
    t1 = time.perf_counter()
    mesh, lowered = lower_train_step(ferry, lane, spec, devices, result)
    out["mesh"] = {str(k): int(v) for k, v in mesh.shape.items()}
    out["ragged_dot"] = result.ragged_dot
    out["lower_seconds"] = round(time.perf_counter() - t1, 3)
    if ferry.stack:
        out["distributions"] = stack_versions()
    if lowered is None:
        out.update(ok=False, error=result.error, failures=result.failures)
        out.update({k: getattr(result, k) for k in DIAGNOSIS_KEYS})
        return out
    out.update(ok=True, fingerprint=program_fingerprint(lowered.as_text()))
    if request.get("compile"):
        from canary.run import cache_key

        out["compile"], keys = compile_on_host(lowered, request.get("host_cache"))
        out["ok"] = out["compile"]["ok"]
        out["cache"] = cache_key.report(keys, _cache_dir(lane))
    return out


def compile_on_host(lowered, directory: str | None) -> tuple[dict[str, Any], list[str]]:
    """The compile's outcome (:func:`compile_lowered`), served from the host's compile cache at
    ``directory`` when it holds the program's key, else compiled and kept there (``directory``
    None: neither read nor written); and the keys JAX gave the programs it was handed."""
    from canary.run import cache_key
    from canary.run.topology import _version

    versions = {name: _version(name) for name in ("jax", "jaxlib", "libtpu")}
    serve = (lambda key: cache_key.host_read(directory, key, versions)) if directory else None
    t0 = time.perf_counter()
    with cache_key.captured(serve) as keys:
        try:
            compiled = compile_lowered(lowered)
        except cache_key.Served as hit:
            cold = hit.record["compile"]
            compiled = {**cold, "seconds": round(time.perf_counter() - t0, 3)}
            compiled["host_cache"] = {"dir": directory, "served": True, "cold_seconds": cold.get("seconds")}
            return compiled, keys
    if directory:
        compiled["host_cache"] = {"dir": directory, "served": False}
    if directory and keys and not keys[-1].startswith("error: "):
        try:
            cache_key.host_write(directory, keys[-1], versions, compiled)
        except OSError as e:  # a full disk or a read-only home: the compile's outcome stands, unkept
            compiled["host_cache"]["not_kept"] = e.strerror or str(e)
    return compiled, keys


def _cache_dir(lane) -> str | None:
    """The lane's persistent cache directory, as a run of the lane resolves it."""
    from canary.formats import compile_cache

    try:
        return compile_cache.resolve(None, lane.name, lane.cache_dir, check_remote=False).dir
    except Exception:  # noqa: BLE001 - a directory a run would refuse holds nothing
        return None


def compile_lowered(lowered) -> dict[str, Any]:
    """libtpu's compiler on the lowered program: seconds, one chip's memory, the compiled
    program's fingerprint; or the failure (parsed as a lowering failure is, where it is one)."""
    t0 = time.perf_counter()
    from canary.run.cache_key import Served

    try:
        compiled = lowered.compile()
    except Served:
        raise
    except Exception as e:  # noqa: BLE001 - a compile failure is the result
        error = short_error(e)
        return {
            "ok": False,
            "seconds": round(time.perf_counter() - t0, 3),
            "error": error,
            "error_fingerprint": hashlib.sha256(re.sub(r"\d+", "N", error).encode()).hexdigest(),
            "block": parse_block_shape_error(str(e)),
        }
    seconds = round(time.perf_counter() - t0, 3)
    return {
        "ok": True,
        "seconds": seconds,
        "memory": memory(compiled.memory_analysis()),
        "fingerprint": compiled_fingerprint(compiled.as_text()),
        "executable": executable_digest(compiled),
    }


def executable_digest(compiled) -> str | None:
    """sha256 of the compiled executable's bytes as JAX serializes them, the bytes a compilation
    cache keeps and ``--cache verify`` compares with a fresh compile's; None where the backend
    cannot serialize it. Two cold compiles of one program giving one digest is what makes that
    comparison meaningful on a lane (docs/lanes.md)."""
    from jax.experimental.serialize_executable import serialize

    try:
        return hashlib.sha256(serialize(compiled)[0]).hexdigest()
    except Exception:  # noqa: BLE001 - a fact about the compile, never its verdict
        return None


def main(argv: list[str]) -> int:
    """``REQUEST RESULT [PARENT_PID]``: the request's result written to RESULT; with PARENT_PID,
    this process dies with that one (a compile is never left running after canary is killed)."""
    if len(argv) > 2:
        signals.die_with_parent(parent=int(argv[2]))
    request = json.loads(Path(argv[0]).read_text())
    try:
        out = run(request)
    except Exception as e:  # noqa: BLE001 - reported to the parent, whatever it is
        out = {"ok": False, "error": short_error(e)}
    Path(argv[1]).write_text(json.dumps(out, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
