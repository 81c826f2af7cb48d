"""Where a run's persistent compilation cache lives, and what the harness checks about it before
launching. No JAX here: the workload configures JAX itself (``canary.workload.cache``) and leaves
its facts in ``cache.json`` in the attempt directory, which the harness reads back.

Modes: ``warm`` (the default) uses JAX's persistent compilation cache at the lane's cache
directory (a local default under the user's cache dir when the lane names none); ``cold``
bypasses it: nothing is read, nothing is written, so every program is lowered and compiled fresh;
``verify`` uses the cache as ``warm`` does, with JAX's ``jax_compilation_cache_check_contents``:
the first time a program's key comes up, its entry is not served but compared with a fresh
compile, and a mismatch stops the run as a poisoned or stale cache entry (``cache_poisoned``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from canary.errors import ConfigError
from canary.extras import INSTALL
from canary.formats.directory import CACHE_FILE
from canary.formats.spec import CacheSpec, xla_flag_env

# What JAX needs to use a remote cache directory, per URL scheme: without them it warns and runs
# uncached. gs:// is what the lanes use (etils[epath,epath-gcs]).
REMOTE_MODULES = {"gs": ("etils.epath", "fsspec", "gcsfs")}  # canary.extras.GCS_CACHE: the gcs extra


def default_dir(lane: str) -> str:
    import platformdirs

    return str(Path(platformdirs.user_cache_dir("canary")) / "jax-cache" / lane)


def is_remote(url: str) -> bool:
    return "://" in url and not url.startswith("file://")


def missing_remote_support(url: str, find_spec: Callable[[str], Any] = importlib.util.find_spec) -> list[str]:
    """The modules a remote cache URL needs that are not importable (found without importing JAX)."""
    from canary.extras import Need, missing

    if not is_remote(url):
        return []
    modules = REMOTE_MODULES.get(url.split("://", 1)[0], ("etils.epath", "fsspec"))
    return missing(Need("a remote compilation cache", modules, "gcs"), find_spec)


def resolve(
    cache: CacheSpec | None,
    lane_name: str,
    lane_dir: str | None,
    find_spec: Callable[[str], Any] = importlib.util.find_spec,
    check_remote: bool = True,
) -> CacheSpec:
    """The run's cache: the requested mode, and the directory from --cache-dir, else the lane's,
    else the local default. A remote directory JAX could not read is bad input, not a silent
    uncached run (``check_remote=False``: the reader is another program, in its own environment)."""
    cache = cache or CacheSpec()
    if cache.mode == "cold":
        return CacheSpec(mode="cold", dir=None)
    directory = (cache.dir or lane_dir or default_dir(lane_name)).removeprefix("file://")
    scheme = directory.split("://", 1)[0] if is_remote(directory) else None
    if scheme is not None and scheme not in REMOTE_MODULES:
        raise ConfigError(f"cache dir {directory!r}: {scheme}:// is not supported; use a local path or a gs:// URL")
    missing = missing_remote_support(directory, find_spec) if check_remote else []
    if missing:
        raise ConfigError(
            f"cache dir {directory!r} is remote, but {', '.join(missing)} cannot be imported: JAX would warn and "
            f"run without any cache. Install canary's lanes extra, which brings etils[epath,epath-gcs] ({INSTALL}), "
            f"or use --cache-dir with a local path, or --cold."
        )
    return CacheSpec(mode=cache.mode, dir=directory)


def check_verify(cache: CacheSpec, platform: str, builtin: bool) -> None:
    """``--cache verify`` compares executables byte for byte. XLA:CPU does not compile canary's
    train step the same way twice (measured on jaxlib 0.10.2: two compiles of ``jit_step`` differ
    in their buffer assignment, and small programs in the order their kernels were emitted), so on
    a cpu lane JAX's check would call every clean entry poisoned: bad input, said before training."""
    if cache.mode == "verify" and platform == "cpu" and builtin:
        raise ConfigError(
            "--cache verify: XLA:CPU does not compile the train step byte for byte the same twice, so JAX's "
            "check (jax_compilation_cache_check_contents) would call every clean cache entry of a cpu lane "
            "poisoned. Use --cache both on a cpu lane (it compares the losses of a cold and a warm run)."
        )


# XLA:GPU's flag that makes a program's ops deterministic and its compile reproducible (no autotuning:
# the cost model picks GEMM tilings). Measured on one H200 (jax 0.11.2, moe-canary's gpu lane): without
# it two cold runs' losses differed by step 10 (atomic scatter-adds) and a fresh compile of the train
# step differed from its clean cache entry (1,430,611 bytes against 1,419,749: autotuning); with it
# cold and warm agreed bit for bit and 33 of 33 entries verified, at 64 ms a step against 51.
DETERMINISTIC_GPU_OPS = "xla_gpu_deterministic_ops"


def check_env(platform: str, env: dict[str, str], environ: Mapping[str, str]) -> dict[str, str] | None:
    """The workload's extra environment for a cache check (``--cache both``'s passes, ``--cache
    verify``) on a ``platform`` lane whose programs must be made reproducible first (cuda: XLA's
    deterministic GPU ops joined to ``XLA_FLAGS``), or None where they need not be. Pure."""
    if platform != "cuda":
        return None
    return {**env, **xla_flag_env(DETERMINISTIC_GPU_OPS, "true", {**environ, **env})}


def read_facts(attempt_dir: Path) -> dict[str, Any] | None:
    """The cache facts the workload wrote, or None when it wrote none (it died before JAX started)."""
    path = Path(attempt_dir) / CACHE_FILE
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


_POISONED = re.compile(r"Persistent compilation cache inconsistency for key (?P<key>[\w.-]{1,300}?)\.? Executable")


def said_poisoned(log_text: str, cache: CacheSpec) -> dict[str, Any] | None:
    """A trainer that keeps no cache facts (a command ferry) but whose log says JAX's check found a
    poisoned entry: the facts that name it, from its key and the run's cache dir (None otherwise)."""
    m = _POISONED.search(log_text or "")
    if m is None:
        return None
    key = m.group("key")
    entry = f"{cache.dir.rstrip('/')}/{key}-cache" if cache.dir else f"{key}-cache"
    return {"mode": cache.mode, "dir": cache.dir, "poisoned": {"key": key, "entry": entry}}
