"""The persistent compilation cache, as the workload process sets it up and observes it.

``configure(spec)`` must run before anything is compiled. It sets JAX's cache from
``spec.cache``:

* ``warm``: the cache at ``spec.cache.dir`` (a local path or a ``gs://`` URL); every program is
  cacheable (no minimum compile time or entry size), and ``persistent_cache_enable_xla_caches``
  is ``none`` so that keys do not depend on the cache directory's path: two checkouts, or a
  local mirror of a bucket, share entries;
* ``cold``: the cache disabled for this process: nothing is read, nothing is written;
* ``verify``: as ``warm``, with ``jax_compilation_cache_check_contents``: JAX compiles every
  program afresh the first time its key comes up and compares the executable with the one the
  cache holds under that key, raising ``CacheVerificationError`` on a difference. The facts then
  say how many entries matched (``verified``) and which one did not (``poisoned``: its key and
  file), so the verdict names the entry.

It counts, through ``jax.monitoring`` listeners (not by reading logs), the compile requests that
used the cache and the hits among them, sums the backend compile time, and keeps the text of
every "Error reading/writing persistent compilation cache entry" warning (the signal that a warm
run was silently cold). ``write()`` leaves the facts in ``cache.json`` in the attempt directory.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

import jax

from canary.formats.compile_cache import default_dir, missing_remote_support
from canary.formats.directory import CACHE_FILE
from canary.formats.spec import CacheSpec

REQUEST_EVENT = "/jax/compilation_cache/compile_requests_use_cache"
HIT_EVENT = "/jax/compilation_cache/cache_hits"
BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
CACHE_WARNING = "persistent compilation cache entry"


@dataclass
class CacheFacts:
    mode: str
    dir: str | None
    requests: int = 0
    hits: int = 0
    errors: list[str] = field(default_factory=list)
    compile_seconds: float | None = None  # the train step's lowering and compilation
    backend_compile_seconds: float = 0.0  # every program's backend compile (or cache fetch)
    verified: int | None = None  # verify: entries the cache held that matched a fresh compile
    poisoned: dict | None = None  # verify: the entry that did not (key, entry, sizes)

    @property
    def misses(self) -> int:
        return self.requests - self.hits

    def to_dict(self) -> dict:
        d = asdict(self)
        d["misses"] = self.misses
        return d


class CacheMonitor:
    def __init__(self, cache: CacheSpec, out_dir: Path):
        self.facts = CacheFacts(cache.mode, cache.dir)
        self.out_dir = Path(out_dir)
        self._showwarning = warnings.showwarning

    # jax.monitoring listeners
    def on_event(self, event: str, **_kwargs) -> None:
        if event == REQUEST_EVENT:
            self.facts.requests += 1
        elif event == HIT_EVENT:
            self.facts.hits += 1

    def on_duration(self, event: str, duration_secs: float, **_kwargs) -> None:
        if event == BACKEND_COMPILE_EVENT:
            self.facts.backend_compile_seconds += duration_secs

    def on_warning(self, message, category, filename, lineno, file=None, line=None):
        text = str(message)
        if CACHE_WARNING in text:
            self.facts.errors.append(f"{category.__name__}: {text}")
        self._showwarning(message, category, filename, lineno, file, line)

    def note_failure(self, exc: BaseException) -> None:
        """Keep the entry a ``CacheVerificationError`` names: its key and its file in the cache."""
        key = getattr(exc, "cache_key", None)
        if type(exc).__name__ != "CacheVerificationError" or not key:
            return
        self.facts.poisoned = {
            "key": key,
            "entry": f"{str(self.facts.dir).rstrip('/')}/{key}-cache",
            "bytes_in_cache": len(getattr(exc, "executable_on_disk", b"") or b""),
            "bytes_fresh": len(getattr(exc, "executable_new", b"") or b""),
        }

    def _count_verified(self) -> None:
        from jax._src import compilation_cache

        checked = compilation_cache._cache  # a VerificationCache in verify mode, once initialised
        found, matched = getattr(checked, "base_cache_hits", {}), getattr(checked, "_verified_keys", set())
        self.facts.verified = len(matched & found.keys())

    def write(self) -> Path:
        if self.facts.mode == "verify":
            self._count_verified()
        path = self.out_dir / CACHE_FILE
        path.write_text(json.dumps(self.facts.to_dict(), indent=2))
        return path


_active: CacheMonitor | None = None


def configure(cache: CacheSpec, lane: str, out_dir: Path) -> CacheMonitor:
    """Set JAX's persistent cache for this process and start counting. Once per process: JAX
    initialises its cache at the first compile, so later calls return the first monitor."""
    global _active
    if _active is not None:
        return _active
    if cache.mode in ("warm", "verify"):
        directory = cache.dir or default_dir(lane)
        cache = CacheSpec(mode=cache.mode, dir=directory)
        missing = missing_remote_support(directory)
        if missing:
            raise RuntimeError(
                f"cache dir {directory} needs {', '.join(missing)} (etils[epath,epath-gcs]); "
                "JAX would silently run uncached"
            )
        if "://" not in directory:
            Path(directory).mkdir(parents=True, exist_ok=True)
        jax.config.update("jax_enable_compilation_cache", True)
        jax.config.update("jax_compilation_cache_dir", directory)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
        jax.config.update("jax_persistent_cache_enable_xla_caches", "none")
        jax.config.update("jax_compilation_cache_check_contents", cache.mode == "verify")
    else:
        cache = CacheSpec(mode="cold", dir=None)
        jax.config.update("jax_enable_compilation_cache", False)
    monitor = CacheMonitor(cache, out_dir)
    jax.monitoring.register_event_listener(monitor.on_event)
    jax.monitoring.register_event_duration_secs_listener(monitor.on_duration)
    warnings.filterwarnings("always", message=f".*{CACHE_WARNING}")
    warnings.showwarning = monitor.on_warning
    _active = monitor
    return monitor


def active() -> CacheMonitor | None:
    return _active
