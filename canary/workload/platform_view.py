"""Show a library the platform a program is lowered for, while it is traced on another machine.

haliax and levanter pick their kernels at trace time from ``jax.default_backend()``: haliax's
``ragged_dot`` takes megablox on ``"tpu"`` (and runs it in Pallas interpret mode on ``"cpu"``),
its Pallas Triton kernel on ``"gpu"``, XLA's op otherwise; levanter's grug attention takes splash
attention on ``"tpu"``. Lowered on a CPU host with ``jax.export(..., platforms=["tpu"])``, the
library would see ``"cpu"`` and trace its CPU choices, and the lowering would check code the TPU
never runs.

:func:`shown_platform` is the narrow fix: for the duration of a trace, the library's own modules
(those under the named top-level packages, already imported) see a ``jax`` whose
``default_backend()`` names the target; every other attribute is the real ``jax``. JAX itself,
canary and every other library keep seeing the real backend, and nothing is patched once the
block ends. Cached platform decisions in those modules (``functools.lru_cache`` functions whose
code calls ``default_backend``) are forgotten on entry and on exit, so each platform decides for
itself. The lowering then runs the target's real kernel lowering (Mosaic for TPU Pallas kernels),
not interpret mode.

Libraries also pick kernels from the device itself: haliax's Triton grouped matmul takes its
kernel family and block sizes from ``jax.devices("gpu")[0]``'s compute capability (tile-map
kernels on Hopper), levanter's routing and fused cross-entropy from ``jax.devices()[0]``'s
platform and kind. With ``devices`` (:func:`shown_devices`, the lane's accelerator as JAX
describes one of its devices), those modules' ``jax.devices()`` and ``jax.local_devices()`` answer
with the lane's devices: descriptions only, never used to place data. Without them a CPU host
answers "no GPU", and haliax's dispatch quietly falls back to XLA's op: the lowering would check
a program the lane never runs.
"""

from __future__ import annotations

import functools
import os
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

# canary's platform names -> the names jax.default_backend() returns on them
BACKEND_NAMES = {"cpu": "cpu", "tpu": "tpu", "cuda": "gpu", "rocm": "gpu"}


@dataclass(frozen=True)
class ShownDevice:
    """One device of a lane as a library reads it to pick a kernel: what JAX reports for it."""

    id: int
    platform: str  # JAX's backend name: "gpu" for CUDA devices
    device_kind: str
    compute_capability: str | None = None
    process_index: int = 0


# A lane's accelerator -> (device_kind, compute_capability) as JAX reports one of its devices.
# "NVIDIA H200" and its 9.0 were read on an H200 (jax 0.11.2, CUDA 13); the H100's name is the
# SXM card's, the gpu lane's, and it is the same Hopper generation (compute capability 9.0).
GPU_DEVICES = {
    "H100": ("NVIDIA H100 80GB HBM3", "9.0"),
    "H200": ("NVIDIA H200", "9.0"),
}


def shown_devices(platform: str, accelerator: str, count: int) -> list[ShownDevice] | None:
    """The lane's devices as JAX would describe them, or None where canary does not know the
    accelerator (then the library is shown no device, as before). Pure."""
    if platform == "cuda" and accelerator in GPU_DEVICES:
        kind, capability = GPU_DEVICES[accelerator]
        return [ShownDevice(i, BACKEND_NAMES[platform], kind, capability) for i in range(count)]
    return None


def _library_modules(packages: tuple[str, ...]) -> list[types.ModuleType]:
    return [
        m for name, m in list(sys.modules.items()) if isinstance(m, types.ModuleType) and name.split(".")[0] in packages
    ]


def _backend_caches(module: types.ModuleType) -> list:
    """The lru-cached functions of a module whose code asks for the backend."""
    out = []
    for value in vars(module).values():
        if isinstance(value, functools._lru_cache_wrapper):
            code = getattr(getattr(value, "__wrapped__", None), "__code__", None)
            if code is not None and "default_backend" in code.co_names:
                out.append(value)
    return out


def _shown(real, devices: list[ShownDevice], names: set[str], backend_at: int):
    """``jax.devices`` (backend first) or ``jax.local_devices`` (backend second) answering with
    ``devices`` for the shown backend, or for none named, and with the real ones for any other."""

    def answer(*args, **kwargs):
        backend = kwargs.get("backend", args[backend_at] if len(args) > backend_at else None)
        if backend is None or backend in names:
            return list(devices)
        return real(*args, **kwargs)

    return answer


@contextmanager
def shown_platform(
    platform: str, packages: tuple[str, ...], devices: list[ShownDevice] | None = None
) -> Iterator[list[str]]:
    """While the block runs, the modules of ``packages`` see ``platform`` (a canary platform name:
    cpu, tpu, cuda) as JAX's default backend, and ``devices``, when given, as its devices. Yields
    the names of the modules it showed."""
    import jax

    backend = BACKEND_NAMES[platform]
    view = types.ModuleType("jax", f"jax, as a program lowered for {platform} sees it")
    view.__dict__.update(vars(jax))
    view.default_backend = lambda: backend
    if devices:
        view.devices = _shown(jax.devices, devices, {platform, backend}, 0)
        view.local_devices = _shown(jax.local_devices, devices, {platform, backend}, 1)
    swapped: list[tuple[types.ModuleType, str, object]] = []
    caches = []
    for module in _library_modules(packages):
        names = vars(module)
        if names.get("jax") is jax:
            swapped.append((module, "jax", jax))
        if names.get("default_backend") is jax.default_backend:
            swapped.append((module, "default_backend", jax.default_backend))
        caches += _backend_caches(module)
    for cache in caches:
        cache.cache_clear()
    for module, name, _ in swapped:
        setattr(module, name, view if name == "jax" else view.default_backend)
    try:
        yield sorted({m.__name__ for m, _, _ in swapped})
    finally:
        for module, name, original in swapped:
            setattr(module, name, original)
        for cache in caches:
            cache.cache_clear()


# The library's switches for work that measures the machine it runs on. levanter's fused
# cross-entropy, shown a GPU with no tuned block sizes for the shape, compiles and times each
# candidate kernel on this machine before it picks one: on a CPU host that is the gpu lane's
# 32 x 8192-token loss over a 128,256-word vocabulary, compiled for the CPU once per candidate
# (it ran past 15 minutes and 6 GB). A lowering measures nothing, so the library takes the block
# sizes it infers from its own table, as it does whenever autotuning is off; a run's own program
# fingerprint is lowered the same way, so that it is the fingerprint `canary lower` computes.
NO_HOST_MEASUREMENT = {"LEVANTER_PALLAS_CE_AUTOTUNE_ON_MISS": "0"}


@contextmanager
def library_switches(environ=os.environ, switches: dict[str, str] = NO_HOST_MEASUREMENT) -> Iterator[None]:
    """While the block runs, ``switches`` are set in ``environ`` (the caller's own value wins);
    afterwards ``environ`` is as it was."""
    saved = {k: environ.get(k) for k in switches}
    for k, v in switches.items():
        environ.setdefault(k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                environ.pop(k, None)
            else:
                environ[k] = v
