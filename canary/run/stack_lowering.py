"""Cross-platform lowering of a stack ferry: the library's real code, lowered for the target.

The grug ferry's whole train step (``canary.workload.stack``) is traced at the lane's per-device
batch and sequence, under a one-device ``("data", "expert", "model")`` mesh, with the library
shown the target platform (:func:`canary.workload.platform_view.shown_platform`): haliax's
``ragged_dot`` takes megablox on TPU and its Pallas Triton kernel on GPU, levanter's attention
takes splash attention on TPU, exactly as on the lane. ``jax.export`` then runs their platform
lowering (Mosaic for TPU Pallas kernels) on this machine, with no accelerator.

A failure is traced back through the library: the call path of the failing kernel through the
library's files (the trace-time stack JAX keeps with every equation), the distribution and version
that own the failing frame (``importlib.metadata``), and which grouped matmul failed: each of the
MoE's grouped matmuls (forward, grad-lhs, grad-rhs of the gate/up and the down projection) is
lowered alone through the library's own ``ragged_dot``.
"""

from __future__ import annotations

import importlib
import os
import re
import time
import traceback
import warnings
from typing import Any

from canary.config import Ferry, Lane
from canary.errors import ConfigError
from canary.extras import LEVANTER, require
from canary.formats.spec import build_spec
from canary.run.lowered import PlatformResult, parse_block_shape_error
from canary.run.ownership import describe, owner_of, stack_versions
from canary.workload.program import (
    UNSTABLE_CUSTOM_CALLS,
    export_train_step,
    exported_text,
    per_device_spec,
    program_fingerprint,
    short_error,
)

LIBRARY_PACKAGES = ("haliax", "levanter")


def check_options(ferry: Ferry, ragged_dot: str | None, tiling: str | None) -> None:
    for flag, value in (("--ragged-dot", ragged_dot), ("--tiling", tiling)):
        if value is not None:
            raise ConfigError(
                f"{flag}: ferry {ferry.name!r} is a {ferry.stack} stack ferry; its kernels are the "
                "library's own choice, so canary cannot set them"
            )
    require(LEVANTER, f"ferry {ferry.name!r}")


def library_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The library's frames in the trace-time stack of the equation whose lowering failed (JAX
    chains it as the exception's cause), or, for an error raised while the library's code was
    being traced (a removed JAX API, say), in the exception's own traceback; outermost first; []
    when there is none."""
    cause = exc.__cause__
    if cause is not None and type(cause).__name__ == "JaxStackTraceBeforeTransformation":
        tb = cause.__traceback__
    else:
        tb = exc.__traceback__
    return [f for f in traceback.extract_tb(tb) if _in_library(f.filename)]


def _in_library(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    return any(p in LIBRARY_PACKAGES for p in parts[-6:-1])


def _frame(f: traceback.FrameSummary) -> str:
    parts = f.filename.replace("\\", "/").split("/")
    top = max(i for i, p in enumerate(parts) if p in LIBRARY_PACKAGES) if _in_library(f.filename) else len(parts) - 1
    return f"{'/'.join(parts[top:])}:{f.lineno} {f.name}"


def _projections(cfg) -> dict[str, tuple[int, int]]:
    """The grug MoE's grouped matmuls as (K, N): the fused gate/up weight and the down weight."""
    return {"gate/up": (cfg.hidden_dim, 2 * cfg.intermediate_dim), "down": (cfg.intermediate_dim, cfg.hidden_dim)}


def _components(rows: int, K: int, N: int, experts: int, dtype) -> dict[str, tuple[Any, tuple]]:
    """One grouped matmul's forward, grad-lhs and grad-rhs, each alone, through haliax's ragged_dot."""
    import jax
    import jax.numpy as jnp

    ragged_dot = importlib.import_module("haliax.nn.ragged_dot").ragged_dot
    lhs, rhs = jax.ShapeDtypeStruct((rows, K), dtype), jax.ShapeDtypeStruct((experts, K, N), dtype)
    sizes, cot = jax.ShapeDtypeStruct((experts,), jnp.int32), jax.ShapeDtypeStruct((rows, N), dtype)

    def forward(a, b, g):
        return ragged_dot(a, b, g)

    def grad_lhs(a, b, g, c):
        return jax.vjp(lambda a_: ragged_dot(a_, b, g), a)[1](c)[0]

    def grad_rhs(a, b, g, c):
        return jax.vjp(lambda b_: ragged_dot(a, b_, g), b)[1](c)[0]

    return {
        "forward": (forward, (lhs, rhs, sizes)),
        "grad-lhs": (grad_lhs, (lhs, rhs, sizes, cot)),
        "grad-rhs": (grad_rhs, (lhs, rhs, sizes, cot)),
    }


def _export(fn, args, platform: str):
    import jax

    checks = [jax.export.DisabledSafetyCheck.custom_call(n) for n in UNSTABLE_CUSTOM_CALLS if platform == "cuda"]
    return jax.export.export(fn, platforms=[platform], disabled_checks=checks)(*args)


def attribute(platform: str, rows: int, cfg) -> list[dict[str, Any]]:
    """Lower each grouped matmul of each projection alone; the ones that fail, with their error."""
    import jax

    failures = []
    for projection, (K, N) in _projections(cfg).items():
        for gmm, (fn, args) in _components(rows, K, N, cfg.num_experts, cfg.dtype).items():
            try:
                _export(jax.jit(fn), args, platform)
            except Exception as e:  # noqa: BLE001 - any lowering failure is the finding
                parsed = parse_block_shape_error(str(e)) or {}
                failures.append(
                    {
                        "gmm": gmm,
                        "projection": projection,
                        "dims": [rows, K, N],
                        **parsed,
                        "tensor": _tensor(gmm, parsed, rows, K, N),
                        "error": short_error(e),
                    }
                )
    return failures


def _tensor(gmm: str, parsed: dict, M: int, K: int, N: int) -> str | None:
    """Which of the grouped matmul's tensors the failing block is on: lhs, rhs or out."""
    if not parsed:
        return None
    shapes = {
        "forward": {"lhs": [M, K], "out": [M, N]},
        "grad-lhs": {"lhs": [M, N], "out": [M, K]},
        "grad-rhs": {"lhs": [K, M], "rhs": [M, N], "out": [K, N]},
    }[gmm]
    if parsed["operand"] == "outputs":
        return "out" if shapes.get("out") == parsed["array_shape"][-2:] else None
    return next((t for t, s in shapes.items() if t != "out" and s == parsed["array_shape"][-2:]), None)


def diagnose(found: dict[str, Any], owner: str | None) -> str:
    M, K, N = found["dims"]
    block = tuple(d for d in found["block_shape"] if d is not None)
    tensor = {"lhs": "input", "rhs": "input", "out": "output"}.get(found.get("tensor"), found["operand"])
    return (
        f"{found['gmm']} of the {found['projection']} projection ((M={M}, K={K}) x (E, {K}, {N})): block "
        f"{block} on its {tensor} {tuple(found['array_shape'])} breaks the TPU rule (last two block dims "
        f"divisible by 8 and 128, or equal to the array's); the tile comes from the library's ragged_dot"
        + (f" ({owner})" if owner else "")
    )


def lower_one(ferry: Ferry, lane: Lane, platform: str) -> PlatformResult:
    import jax

    from canary.workload import stack
    from canary.workload.platform_view import shown_devices, shown_platform

    spec = build_spec(ferry, lane, run_id="lower", out_dir=os.devnull)
    spec = per_device_spec(spec, lane.devices).model_copy(update={"platform": platform})
    result = PlatformResult(
        platform,
        lane.name,
        False,
        None,
        0.0,
        "auto",
        "library",
        spec.batch_size,
        spec.seq_len,
        lane.devices,
        distributions=stack_versions(),
    )
    t0 = time.perf_counter()
    one_device = stack.device_mesh(jax.devices()[:1])  # the per-device program, as each chip runs it
    devices = shown_devices(platform, lane.accelerator, lane.devices)
    with shown_platform(platform, LIBRARY_PACKAGES, devices), warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        result.ragged_dot = stack.ragged_dot_choice()
        try:
            exported = export_train_step(spec, lambda s: stack.make_train_step(s, mesh=one_device))
            result.ok = True
            t1 = time.perf_counter()
            result.fingerprint = program_fingerprint(exported_text(exported))
            result.fingerprint_seconds = round(time.perf_counter() - t1, 3)
        except Exception as e:  # noqa: BLE001 - a lowering failure is the result, not a crash
            cfg = stack.grug_config(spec)
            _explain(result, e, platform, spec.batch_size * spec.seq_len * ferry.model.experts_per_token, cfg)
    _library_said(result, said, lane, devices)
    if platform == "cuda":
        result.notes.append(
            "the export's stability check for Triton custom calls is disabled (they lower, "
            "but jax.export does not promise to keep them stable)"
        )
        result.notes.append(
            "levanter's fused cross-entropy takes the block sizes it infers (its autotuning, which "
            "times kernels on the machine itself, is off while lowering; the lane tunes on its GPUs)"
        )
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


def _library_said(result: PlatformResult, said: list, lane: Lane, devices: list | None) -> None:
    """The library's warnings while lowering, shown again; a kernel it fell back from fails the lowering (the
    program is not the lane's); and which devices it was shown, in the result's notes."""
    for w in said:
        warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    fallback = fell_back([str(w.message) for w in said])
    if fallback and result.ok:
        kernel, why = fallback
        result.ok = False
        result.error = (
            f"haliax's ragged_dot fell back from {kernel} to XLA's op ({why}) while lowering for {result.platform}: "
            f"the lowered program is not the one the {lane.name} lane runs, so its {kernel} kernels went unchecked"
        )
    if devices:
        result.notes.append(f"the library was shown the lane's devices: {lane.devices} x {devices[0].device_kind}")
    elif result.platform == "cuda":  # (a TPU's kernels are picked by the platform alone, and libtpu's devices)
        result.notes.append(
            f"canary does not know how JAX describes a {lane.accelerator!r} device: the library was shown none"
        )


# haliax's dispatch, when a preferred kernel raises while tracing: "ragged_dot auto fallback: triton
# failed (RuntimeError), trying next." (RuntimeWarning, once per process)
_FALLBACK = re.compile(r"ragged_dot auto fallback: (\w+) failed \((\w+)\)")


def fell_back(messages: list[str]) -> tuple[str, str] | None:
    """(kernel, exception class) of the library's first kernel fallback among warnings' messages. Pure."""
    for m in messages:
        found = _FALLBACK.search(m)
        if found:
            return found[1], found[2]
    return None


def _explain(result: PlatformResult, e: Exception, platform: str, rows: int, cfg) -> None:
    result.error = short_error(e)
    frames = library_frames(e)
    result.call_path = [_frame(f) for f in frames]
    result.owner = describe(owner_of(frames[-1].filename)) if frames else None
    parsed = parse_block_shape_error(str(e))
    if not parsed:
        return
    for k in ("kernel", "operand", "array_shape", "block_shape"):
        setattr(result, k, parsed[k])
    result.failures = attribute(platform, rows, cfg)
    keys = ("operand", "array_shape", "block_shape")
    match = [f for f in result.failures if all(f.get(k) == parsed[k] for k in keys)]
    for f in result.failures:
        f["diagnosis"] = diagnose(f, result.owner) if f.get("block_shape") else f["error"]
    first = (match or result.failures or [None])[0]
    if first:
        for k in ("gmm", "projection", "tensor", "diagnosis"):
            setattr(result, k, first.get(k))
    else:
        result.diagnosis = (
            f"block {parsed['block_shape']} on {parsed['operand']} of shape {parsed['array_shape']} "
            f"in {parsed['kernel']} breaks the TPU block rule"
        )
