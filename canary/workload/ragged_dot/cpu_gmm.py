"""A grouped-matmul kernel for the CPU, called through XLA's FFI: the cpu lane's default.

``jax.lax.ragged_dot`` on a CPU multiplies every row by every group's matrix (32x the real
work for the canary), and any arrangement of XLA ops that avoids that (see ``grouped``) pays for
padded tiles and per-tile weight copies. ``cpu_gmm.c`` is three small C handlers that read each
expert's matrix in place:

    forward    out[r] = lhs[r] @ rhs[g(r)]                    canary_gmm
    grad lhs   d_lhs[r] = d_out[r] @ rhs[g(r)]^T              canary_gmm_t
    grad rhs   d_rhs[g] = lhs[rows of g]^T @ d_out[rows of g] canary_tgmm

Exact (no token is dropped; rows past ``sum(group_sizes)`` give zeros, as ``ragged_dot``
does), computed in float32 (other dtypes are cast in and out), and checked against the ``xla`` backend forward and both gradients in the
tests.

The C file is compiled on first use with the machine's C compiler (``$CC``, else ``cc``) for
the machine's own instruction set, into ``<user cache>/canary/kernels/`` under a name keyed by
the source, the compiler, the flags, jaxlib and the CPU's features; later runs load it in
milliseconds. ``available()`` says whether that works here; ``auto`` on the cpu lane falls back
to ``grouped`` when it does not (no compiler, say).
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

SOURCE = Path(__file__).with_name("cpu_gmm.c")
TARGETS = ("canary_gmm", "canary_gmm_t", "canary_tgmm")
FLAGS = ("-O3", "-std=gnu11", "-shared", "-fPIC")
NATIVE = ("-march=native",)


class KernelUnavailable(RuntimeError):
    """The kernel could not be built or loaded on this machine (the message says why)."""


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
    """Where this machine's build of the kernel lives (built or not)."""
    import jaxlib

    cc = _compiler(environ)
    key = hashlib.sha256()
    for part in (SOURCE.read_bytes(), _compiler_version(cc).encode(), " ".join(FLAGS + NATIVE).encode(),
                 jaxlib.__version__.encode(), _cpu_features().encode(), platform.machine().encode()):
        key.update(part)
        key.update(b"\0")
    return cache_dir(environ) / f"cpu_gmm-{key.hexdigest()[:16]}.so"


def build(path: Path, environ=os.environ) -> Path:
    """Compile the kernel into ``path`` (atomically: a concurrent build never sees half a file)."""
    cc = _compiler(environ)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.stem, suffix=".so.tmp", dir=path.parent)
        os.close(fd)
    except OSError as e:
        raise KernelUnavailable(f"cannot write the kernel into {path.parent}: {e} (set $CANARY_KERNEL_DIR)") from e
    errors = []
    try:
        for native in (NATIVE, ()):  # a compiler that does not know -march=native still builds
            cmd = [*cc, *FLAGS, *native, "-I", jax.ffi.include_dir(), str(SOURCE), "-o", tmp]
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            except (OSError, subprocess.SubprocessError) as e:
                errors.append(f"$ {' '.join(cmd)}\n{e}")
                continue
            if r.returncode == 0:
                os.replace(tmp, path)
                return path
            errors.append(f"$ {' '.join(cmd)}\n{r.stderr.strip()}")
        raise KernelUnavailable("compiling the cpu_gmm kernel failed:\n" + "\n".join(errors))
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


_loaded: Path | KernelUnavailable | None = None  # this process's outcome, success or failure


def load() -> Path:
    """Build the kernel if this machine has no build of it yet, and register its FFI targets.
    Once per process: a failure is remembered too, not retried at every call."""
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
    """None when the kernel is built and loaded here; otherwise why not."""
    try:
        load()
    except KernelUnavailable as e:
        return str(e)
    return None


def available() -> bool:
    return unavailable_reason() is None


def _varying(x: jax.Array) -> frozenset:
    """The mesh axes ``x`` varies over under ``shard_map`` (empty outside one)."""
    return jax.typeof(x).manual_axis_type.varying


def _call(target: str, shape: tuple[int, ...], *args: jax.Array) -> jax.Array:
    out = jax.ffi.ffi_call(target, jax.ShapeDtypeStruct(shape, jnp.float32))(*args)
    # Under shard_map (the data-parallel cpu lane) a result varies over every mesh axis an
    # operand varies over, as any XLA op's would; the FFI call's own result type says none.
    axes = frozenset().union(*map(_varying, args))
    return jax.lax.pcast(out, tuple(sorted(axes)), to="varying") if axes else out


def _cotangent_for(ct: jax.Array, primal: jax.Array) -> jax.Array:
    """``ct`` typed like ``primal``: summed over the axes a replicated ``primal`` was shared on."""
    extra = _varying(ct) - _varying(primal)
    return jax.lax.psum(ct, tuple(sorted(extra))) if extra else ct


@jax.custom_vjp
def gmm(lhs: jax.Array, rhs: jax.Array, group_sizes: jax.Array) -> jax.Array:
    """``ragged_dot(lhs (M, K), rhs (G, K, N), group_sizes (G,)) -> (M, N)``, float32."""
    return _call("canary_gmm", (lhs.shape[0], rhs.shape[2]), lhs, rhs, group_sizes)


def _fwd(lhs, rhs, group_sizes):
    return gmm(lhs, rhs, group_sizes), (lhs, rhs, group_sizes)


def _bwd(res, d_out):
    lhs, rhs, group_sizes = res
    d_lhs = _call("canary_gmm_t", lhs.shape, d_out, rhs, group_sizes)
    d_rhs = _call("canary_tgmm", rhs.shape, lhs, d_out, group_sizes)
    return _cotangent_for(d_lhs, lhs), _cotangent_for(d_rhs, rhs), None


gmm.defvjp(_fwd, _bwd)


def make(platform: str = "cpu", **_options):
    if platform != "cpu":
        raise ValueError(f"the cpu_gmm backend runs on the cpu platform only, not {platform!r}")
    load()

    def ragged_dot(lhs, rhs, group_sizes):
        dtype = lhs.dtype
        out = gmm(lhs.astype(jnp.float32), rhs.astype(jnp.float32), group_sizes.astype(jnp.int32))
        return out.astype(dtype)

    return ragged_dot
