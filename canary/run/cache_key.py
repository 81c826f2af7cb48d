"""The persistent-cache key JAX itself gives the lane's compiled program, and whether the lane's
cache directory already holds it: will the next run of the lane compile cold, or be served from
the cache?

``captured()`` is open around a compile in the topology child (:mod:`canary.run.topology_worker`):
every program JAX hands its compiler (``jax._src.compiler.compile_or_get_cached``) leaves the key
JAX's own ``compilation_cache.get_cache_key`` makes of the same arguments: the module, the devices
(the topology's), the compile options JAX built for the lowered program, and the backend (libtpu's
compile-only client: its platform version). The key hashes the IR without debug info, the jaxlib
version, the platform and its version, ``XLA_FLAGS``/``LIBTPU_INIT_ARGS``, the compile options, the
topology and JAX's custom hook. The runs set ``jax_persistent_cache_enable_xla_caches`` to
``none`` (:mod:`canary.workload.cache`), so no cache path enters the compile options; the child
compiles with the cache off, which adds none either.

``lookup(directory, key)`` reads the directory as JAX's cache does (``jax._src.path.Path``: etils
epath for gs://), for the file JAX names ``<key>-cache``.

The host's compile cache (``host_dir(lane)``: ``~/.cache/canary/tpu-compile/LANE``) makes a second
identical compile on this host near zero. JAX's own persistent cache cannot serve it: an executable
compiled for the topology's compile-only devices does not deserialize there ("PjRtCompiler must be
constructed with a Client to call DeserializeLoadedExecutable"). So the outcome canary reads from a
compile (per-chip memory and the compiled program's fingerprint, or the compile's error) is kept
as ``<key>.json`` under the same key JAX gives the program, with the jax, jaxlib and libtpu versions
it came from; ``captured(serve)`` looks the key up before JAX compiles and raises :class:`Served`
with the record instead. The key covers the program, the topology, the compile options, the
platform version (libtpu's build), ``XLA_FLAGS`` and ``LIBTPU_INIT_ARGS``: a change to any misses.
Deleting the directory clears it; ``canary lower --no-compile-cache`` neither reads nor writes it.
Imports JAX only inside its functions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from canary.deadline import answer_within

SUFFIX = "-cache"  # jax._src.lru_cache names an entry's executable <key>-cache
COLD = "the next tpu run will compile cold"
WARM = "the next tpu run will be served from the cache"


def key_of(backend: Any, computation: Any, devices: Any, compile_options: Any) -> str:
    """The key ``jax._src.compiler._get_cache_key`` makes of these arguments (whether or not this
    process has a cache enabled)."""
    from jax._src import cache_key, compilation_cache, config

    ignore = config.remove_custom_partitioning_ptr_from_cache_key.value
    if hasattr(cache_key, "IgnoreCallbacks"):  # jax 0.10 passes an enum; 0.11 the flag itself
        ignore = cache_key.IgnoreCallbacks.CUSTOM_PARTITIONING if ignore else cache_key.IgnoreCallbacks.NO
    return compilation_cache.get_cache_key(computation, devices, compile_options, backend, ignore)


class Served(Exception):
    """Raised from JAX's compile when the host's compile cache holds the program's outcome."""

    def __init__(self, key: str, record: dict[str, Any]):
        super().__init__(f"served from the host's compile cache: {key}")
        self.key, self.record = key, record


@contextmanager
def captured(serve: Callable[[str], dict[str, Any] | None] | None = None) -> Iterator[list[str]]:
    """While open, each program JAX compiles appends its persistent-cache key (or ``"error: ..."``
    when JAX could not make one) to the yielded list; where ``serve(key)`` gives a record, JAX does
    not compile and :class:`Served` is raised with it."""
    from jax._src import compiler

    original = compiler.compile_or_get_cached
    keys: list[str] = []

    def keyed(backend, computation, devices, compile_options, *args, **kwargs):
        try:
            keys.append(key_of(backend, computation, devices, compile_options))
        except Exception as e:  # noqa: BLE001 - JAX itself would skip the cache
            keys.append(f"error: {type(e).__name__}: {e}")
        record = serve(keys[-1]) if serve and not keys[-1].startswith("error: ") else None
        if record is not None:
            raise Served(keys[-1], record)
        return original(backend, computation, devices, compile_options, *args, **kwargs)

    compiler.compile_or_get_cached = keyed
    try:
        yield keys
    finally:
        compiler.compile_or_get_cached = original


# ----------------------------------------------------------------------------- the host's compile cache


def host_dir(lane: str) -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("canary")) / "tpu-compile" / lane


def host_read(directory: str, key: str, versions: dict[str, str | None]) -> dict[str, Any] | None:
    """The compile's outcome kept under ``key``, or None: absent, unreadable, or made by other
    versions of jax, jaxlib or libtpu than ``versions``."""
    try:
        record = json.loads((Path(directory) / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None
    ok = isinstance(record, dict) and record.get("key") == key and record.get("versions") == versions
    return record if ok and isinstance(record.get("compile"), dict) else None


def host_write(directory: str, key: str, versions: dict[str, str | None], compiled: dict[str, Any]) -> Path:
    """Keep a compile's outcome under ``key`` (written whole, then renamed into place); an OSError
    (a full disk, a read-only directory) leaves no partial file behind."""
    path = Path(directory) / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        tmp.write_text(json.dumps({"key": key, "versions": versions, "compile": compiled}, indent=1))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    return path


# A bucket that does not answer (no network, no credentials: gcsfs retries for most of a minute)
# leaves the lookup unanswered rather than holding the preflight up.
LOOKUP_TIMEOUT_S = 5.0  # as `canary doctor` waits for the bucket


def lookup(directory: str, key: str, timeout_s: float = LOOKUP_TIMEOUT_S) -> dict[str, Any]:
    """Whether ``directory`` (a local path or a gs:// URL) holds ``key``'s entry, read as JAX reads
    it; ``present`` is None, with the reason, when it cannot be read here, or gives no answer
    within ``timeout_s``."""
    from jax._src import path as jax_path

    out: dict[str, Any] = {"dir": directory, "entry": f"{key}{SUFFIX}"}
    if "://" in directory and not jax_path.epath_installed:
        return {**out, "present": None, "verdict": f"cannot say: reading {directory} needs etils[epath,epath-gcs]"}
    try:
        present = answer_within(timeout_s, (jax_path.Path(directory) / out["entry"]).exists, "canary-cache-lookup")
    except TimeoutError:
        return {**out, "present": None, "verdict": f"cannot say: {directory} gave no answer within {timeout_s:g} s"}
    except Exception as e:  # noqa: BLE001 - an unreadable cache is reported, not raised
        return {**out, "present": None, "verdict": f"cannot say: {type(e).__name__}: {str(e)[:200]}"}
    return {**out, "present": present, "verdict": WARM if present else COLD}


def report(keys: list[str], directory: str | None) -> dict[str, Any]:
    """The lane's program's key (the last program compiled: the train step) and its lookup."""
    if not keys:
        return {"key": None, "verdict": "cannot say: no program reached JAX's compiler"}
    key = keys[-1]
    if key.startswith("error: ") or not directory:
        return {"key": key, "verdict": "cannot say: JAX made no key" if directory else "cannot say: no cache dir"}
    return {"key": key, **lookup(directory, key)}


def lines(cache: dict[str, Any] | None) -> list[str]:
    """The key and the verdict as the terminal shows them. Pure."""
    if not cache:
        return []
    out = [f"  cache key {cache.get('key')}"]
    where = f" ({cache['dir']})" if cache.get("dir") else ""
    return [*out, f"  cache     {cache['verdict']}{where}"]
