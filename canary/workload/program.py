"""A train step's lowered program and its fingerprint: the spec's whole train step exported for its
platform from abstract inputs (lowered, not compiled), and a sha256 of that module's text with
what does not change the program stripped. ``canary lower`` fingerprints each platform's program
(:mod:`canary.run.lowering`); a run fingerprints its own while XLA compiles it (:mod:`canary.workload.train`).
The train step's maker is passed in, so that this module imports neither of them."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from canary.workload.platform_view import library_switches


def short_error(exc: BaseException) -> str:
    """The error as one paragraph: Pallas appends the block's index map as a jaxpr; drop it."""
    text = f"{type(exc).__name__}: {exc}"
    cut = text.find(", and index_map")
    if cut != -1:
        text = text[:cut]
    return text.strip()


_LOC = re.compile(r" ?(?<![\w.#%@$])loc\(")


def strip_noise(text: str) -> str:
    """A lowered module's text without what changes when the program does not: every source
    location (the ``#locN = loc(...)`` aliases and each inline ``loc(...)``: file paths that differ
    between checkouts and environments, line numbers that any edit above a function shifts, name
    scopes) and blank or trailing space. That is what JAX's own compilation-cache key drops (its
    ``strip-debuginfo`` pass), so the fingerprint changes when the cache key's program does. The
    kernels' own serialized bodies (a Pallas call's ``backend_config``) are kept whole, as the cache
    key keeps them; :func:`export_train_step` lowers them without locations."""
    kept = "\n".join(line for line in text.splitlines() if not line.startswith("#loc"))
    out, i = [], 0
    while (m := _LOC.search(kept, i)) is not None:
        out.append(kept[i : m.start()])
        j, depth, quoted = m.end(), 1, False
        while j < len(kept) and depth:
            c = kept[j]
            if quoted:
                if c == "\\":
                    j += 1
                elif c == '"':
                    quoted = False
            elif c == '"':
                quoted = True
            elif c in "()":
                depth += 1 if c == "(" else -1
            j += 1
        i = j
    out.append(kept[i:])
    return "\n".join(line.rstrip() for line in "".join(out).splitlines() if line.strip()) + "\n"


def program_fingerprint(text: str) -> str:
    """The sha256 (hex) of a lowered module's text with its noise stripped (:func:`strip_noise`)."""
    import hashlib

    return hashlib.sha256(strip_noise(text).encode()).hexdigest()


def exported_text(exported) -> str:
    """An exported module's text printed without its source locations (JAX's
    ``jax_include_debug_info_in_dumps`` off while it prints): what :func:`strip_noise` would strip
    never printed, so the fingerprint is the same and a sixth of the module's text and half its
    stripping are saved (tests/test_program.py compares both)."""
    import jax

    name = "jax_include_debug_info_in_dumps"  # a flag: it has no attribute, only a value
    before = jax.config.values.get(name, True)
    jax.config.update(name, False)
    try:
        return exported.mlir_module()
    finally:
        jax.config.update(name, before)


# ----------------------------------------------------------------------------- planning


# Custom calls jax.export will not promise to keep stable, which a GPU program may hold: they
# lower, and a fingerprint of them is as good as any. Pallas's Triton lowering names its kernels
# "__gpu$xla.gpu.triton" (haliax's grouped matmul, levanter's fused cross-entropy on a GPU);
# "triton_kernel_call" is the older jax-triton name.
UNSTABLE_CUSTOM_CALLS = ("__gpu$xla.gpu.triton", "triton_kernel_call")


def export_train_step(spec, make_train_step: Callable, ts=None):
    """The spec's whole train step exported for ``spec.platform`` at ``spec.batch_size`` (per
    device), from abstract inputs: lowered, not compiled. What ``canary lower`` checks, and what a
    run fingerprints. A step that brings its own mesh (a stack ferry's) is traced under it. ``ts``,
    when given, is the train step ``make_train_step(spec)`` would build, already built."""
    import jax
    import jax.numpy as jnp

    # the library times no kernels on this machine while it is exported (platform_view.NO_HOST_MEASUREMENT)
    with _no_kernel_locations(jax), library_switches():
        return _export(spec, make_train_step(spec) if ts is None else ts, jax, jnp)


@contextlib.contextmanager
def _no_kernel_locations(jax):
    """Lowered with no source locations (``jax_traceback_in_locations_limit = 0``). A Pallas
    kernel's serialized body (its ``backend_config``, which :func:`strip_noise` cannot read into)
    otherwise carries its call path's file paths and line numbers: a moved checkout, or a line
    added above the model's call, would change a TPU program's fingerprint."""
    name = "jax_traceback_in_locations_limit"
    before = getattr(jax.config, name)
    jax.config.update(name, 0)
    try:
        yield
    finally:
        jax.config.update(name, before)


def _export(spec, ts, jax, jnp):
    params, opt_state = jax.eval_shape(ts.init, jax.ShapeDtypeStruct((2,), jnp.uint32))
    bias = jax.ShapeDtypeStruct(ts.bias.shape, ts.bias.dtype)
    batch = jax.ShapeDtypeStruct((spec.batch_size, spec.seq_len + 1), jnp.int32)
    mesh = getattr(ts.step, "mesh", None)
    checks = (
        [jax.export.DisabledSafetyCheck.custom_call(n) for n in UNSTABLE_CUSTOM_CALLS]
        if spec.platform == "cuda"
        else []
    )
    with jax.set_mesh(mesh) if mesh is not None else contextlib.nullcontext():
        step = getattr(ts.step, "jitted", ts.step)
        exported = jax.export.export(step, platforms=[spec.platform], disabled_checks=checks)
        return exported(params, opt_state, bias, batch)


def lower_on_mesh(spec, ts, mesh):
    """The train step ``ts`` lowered (``jit(...).lower``) for the devices of ``mesh`` as the lane runs
    it: the global batch (``spec.batch_size``) split over the mesh's ``data`` axis, parameters,
    optimizer state and router bias replicated, from abstract inputs, with the settings
    :func:`export_train_step` lowers under. The platform is the mesh's devices' (a TPU topology's
    compile-only devices lower for the TPU on any host)."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    def placed(tree, spec_):
        sharding = NamedSharding(mesh, spec_)
        return jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=sharding), tree)

    with _no_kernel_locations(jax), library_switches(), jax.set_mesh(mesh):
        params, opt_state = jax.eval_shape(ts.init, jax.ShapeDtypeStruct((2,), jnp.uint32))
        args = placed((params, opt_state, jax.ShapeDtypeStruct(ts.bias.shape, ts.bias.dtype)), P())
        batch = placed(jax.ShapeDtypeStruct((spec.batch_size, spec.seq_len + 1), jnp.int32), P("data"))
        return getattr(ts.step, "jitted", ts.step).lower(*args, batch)


def per_device_spec(spec, devices: int):
    """The spec of one device's share of the batch (the whole batch when it does not divide)."""
    per_device = spec.batch_size // devices if spec.batch_size % devices == 0 else spec.batch_size
    return spec.model_copy(update={"batch_size": per_device})


def run_fingerprint(spec, make_train_step: Callable, run_step=None) -> dict[str, Any]:
    """A run's program fingerprint, as ``canary lower`` computes it for the run's lane and
    platform (a second lowering, no compilation): the summary keys ``program/fingerprint``,
    ``program/platform`` and ``program/fingerprint_seconds``; ``program/error`` when it could not.

    ``run_step`` is the run's own train step when it was built without a mesh: on a CPU, when
    the lane's per-device spec is the run's spec, it is the step ``canary lower`` builds, so it is
    exported as it is rather than built anew (a third of the fingerprint's time on the cpu lane;
    tests/test_program.py checks both ways agree). Elsewhere the step is built as ``canary lower``
    builds it: a step split over a mesh is another program, and JAX may reuse the run's own trace
    of its step, made without the settings :func:`export_train_step` lowers under (a kernel's
    serialized body with its locations, block sizes measured on the host), which a CPU program
    has no kernel to carry."""
    t0 = time.perf_counter()
    try:
        device_spec = per_device_spec(spec, spec.devices)
        ts = run_step if device_spec == spec and spec.platform == "cpu" else None
        text = exported_text(export_train_step(device_spec, make_train_step, ts))
        out = {"program/fingerprint": program_fingerprint(text)}
    except Exception as e:  # noqa: BLE001 - the fingerprint is a fact about the run, never its verdict
        out = {"program/error": short_error(e)[:300]}
    return {**out, "program/platform": spec.platform, "program/fingerprint_seconds": time.perf_counter() - t0}


def fingerprint_meanwhile(spec, make_train_step: Callable, run_step=None) -> Callable[[], dict[str, Any]]:
    """:func:`run_fingerprint` started on a thread; the call returned waits for it and gives its keys.

    A run starts it once its own step is lowered, while XLA compiles that step, and waits for it
    before its first step, so no timed step shares a core with it. XLA's compile releases the GIL and
    keeps about one and a half of a 2-core machine's cores busy: the export, 0.2-0.3 s after the
    last step, costs the run no wall time beside it (docs/benchmarks.md). Nothing else traces while
    it runs, so the settings it lowers under, which JAX keeps process-wide, reach no other program."""
    out: dict[str, Any] = {}
    thread = threading.Thread(
        target=lambda: out.update(run_fingerprint(spec, make_train_step, run_step)),
        name="canary-fingerprint",
        daemon=True,  # a compile that fails ends the run without waiting for it
    )
    thread.start()

    def result() -> dict[str, Any]:
        thread.join()
        return out

    return result
