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
"""

from __future__ import annotations

import functools
import os
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager

# canary's platform names -> the names jax.default_backend() returns on them
BACKEND_NAMES = {"cpu": "cpu", "tpu": "tpu", "cuda": "gpu", "rocm": "gpu"}


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


@contextmanager
def shown_platform(platform: str, packages: tuple[str, ...]) -> Iterator[list[str]]:
    """While the block runs, the modules of ``packages`` see ``platform`` (a canary platform name:
    cpu, tpu, cuda) as JAX's default backend. Yields the names of the modules it showed."""
    import jax

    backend = BACKEND_NAMES[platform]
    view = types.ModuleType("jax", f"jax, as a program lowered for {platform} sees it")
    view.__dict__.update(vars(jax))
    view.default_backend = lambda: backend
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
