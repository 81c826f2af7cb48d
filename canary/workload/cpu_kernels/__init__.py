"""The cpu lane's C kernels, called through XLA's FFI, and how they are built.

``gmm.c`` (grouped matmuls, the ``cpu_gmm`` ragged_dot backend) and ``attention.c`` (rotary
causal attention, the ``cpu_fused`` attention backend) share ``common.h`` and are compiled into
one library on first use, with the machine's C compiler (``$CC``, else ``cc``) for the machine's
own instruction set, into ``<user cache>/canary/kernels/`` (or ``$CANARY_KERNEL_DIR``) under a
name keyed by the sources, the compiler, the flags, jaxlib and the CPU's features; later runs
load it in milliseconds. ``available()`` says whether that works here; the cpu lane's ``auto``
choices fall back to XLA-only paths when it does not (no compiler, say), and say so.

The kernels compute in float32 (the wrappers cast other dtypes in and out).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp

HERE = Path(__file__).parent
SOURCES = (HERE / "gmm.c", HERE / "attention.c")
HEADERS = (HERE / "common.h",)
TARGETS = ("canary_gmm", "canary_gmm_t", "canary_tgmm", "canary_attention", "canary_attention_bwd")
FLAGS = ("-O3", "-std=gnu11", "-shared", "-fPIC")
NATIVE = ("-march=native",)
LIBS = ("-lm",)


class KernelUnavailable(RuntimeError):
    """The kernels could not be built or loaded on this machine (the message says why)."""


def cache_dir(environ=os.environ) -> Path:
    if environ.get("CANARY_KERNEL_DIR"):
        return Path(environ["CANARY_KERNEL_DIR"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("canary")) / "kernels"


def _cpu_features() -> str:
    """The CPU's feature flags: a library built with -march=native is only for CPUs like this one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return line
    except OSError:
        pass
    return platform.processor()


def _compiler(environ=os.environ) -> list[str]:
    cc = environ.get("CC", "cc").split()
    if not cc or shutil.which(cc[0]) is None:
        raise KernelUnavailable(f"no C compiler: {' '.join(cc) or '$CC'} is not on PATH (set $CC, or install gcc)")
    return cc


def _compiler_version(cc: list[str]) -> str:
    try:
        return subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise KernelUnavailable(f"{' '.join(cc)} --version failed: {e}") from e


def library_path(environ=os.environ) -> Path:
    """Where this machine's build of the kernels lives (built or not)."""
    import jaxlib

    cc = _compiler(environ)
    key = hashlib.sha256()
    for part in (*(p.read_bytes() for p in SOURCES + HEADERS), _compiler_version(cc).encode(),
                 " ".join(FLAGS + NATIVE + LIBS).encode(), jaxlib.__version__.encode(), _cpu_features().encode(),
                 platform.machine().encode()):
        key.update(part)
        key.update(b"\0")
    return cache_dir(environ) / f"canary-kernels-{key.hexdigest()[:16]}.so"


def build(path: Path, environ=os.environ) -> Path:
    """Compile the kernels into ``path`` (atomically: a concurrent build never sees half a file)."""
    cc = _compiler(environ)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.stem, suffix=".so.tmp", dir=path.parent)
        os.close(fd)
    except OSError as e:
        raise KernelUnavailable(f"cannot write the kernels into {path.parent}: {e} (set $CANARY_KERNEL_DIR)") from e
    errors = []
    try:
        for native in (NATIVE, ()):  # a compiler that does not know -march=native still builds
            cmd = [*cc, *FLAGS, *native, "-I", jax.ffi.include_dir(), *map(str, SOURCES), "-o", tmp, *LIBS]
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            except (OSError, subprocess.SubprocessError) as e:
                errors.append(f"$ {' '.join(cmd)}\n{e}")
                continue
            if r.returncode == 0:
                os.replace(tmp, path)
                return path
            errors.append(f"$ {' '.join(cmd)}\n{r.stderr.strip()}")
        raise KernelUnavailable("compiling the cpu kernels failed:\n" + "\n".join(errors))
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


_loaded: Path | KernelUnavailable | None = None  # this process's outcome, success or failure


def load() -> Path:
    """Build the kernels if this machine has no build of them yet, and register their FFI
    targets. Once per process: a failure is remembered too, not retried at every call."""
    global _loaded
    if _loaded is None:
        try:
            _loaded = _build_and_register()
        except KernelUnavailable as e:
            _loaded = e
    if isinstance(_loaded, KernelUnavailable):
        raise _loaded
    return _loaded


def _build_and_register() -> Path:
    path = library_path()
    if not path.exists():
        build(path)
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as e:
        raise KernelUnavailable(f"loading {path} failed: {e}") from e
    for name in TARGETS:
        jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(getattr(lib, name)), platform="cpu")
    return path


def unavailable_reason() -> str | None:
    """None when the kernels are built and loaded here; otherwise why not."""
    try:
        load()
    except KernelUnavailable as e:
        return str(e)
    return None


def available() -> bool:
    return unavailable_reason() is None


# ----------------------------------------------------------------------------- calling them


def _varying(x: jax.Array) -> frozenset:
    """The mesh axes ``x`` varies over under ``shard_map`` (empty outside one)."""
    return jax.typeof(x).manual_axis_type.varying


def call(target: str, shapes, *args: jax.Array, **attributes):
    """The FFI call ``target(*args)`` with float32 results of ``shapes`` (one shape, or a list).

    Under shard_map (the data-parallel cpu lane) each result varies over every mesh axis an
    operand varies over, as any XLA op's would; the FFI call's own result type says none."""
    many = isinstance(shapes, list)
    types = [jax.ShapeDtypeStruct(s, jnp.float32) for s in (shapes if many else [shapes])]
    outs = jax.ffi.ffi_call(target, types)(*args, **attributes)
    axes = tuple(sorted(frozenset().union(*map(_varying, args))))
    if axes:
        outs = [jax.lax.pcast(o, axes, to="varying") for o in outs]
    return list(outs) if many else outs[0]


def cotangent_for(ct: jax.Array, primal: jax.Array) -> jax.Array:
    """``ct`` typed like ``primal``: summed over the axes a replicated ``primal`` was shared on."""
    extra = _varying(ct) - _varying(primal)
    return jax.lax.psum(ct, tuple(sorted(extra))) if extra else ct
