"""An attempt's compilation cache facts, as the workload's ``cache.json`` says them, and what they
say: a cache read that failed, whether the program was *lowered cold* (the one definition), and
why. Pure."""

from __future__ import annotations

from typing import Any

# What the workload's cache.json says of one attempt: mode (warm | cold | off), requests, hits,
# misses, errors (the "Error reading/writing persistent compilation cache entry" warnings), dir,
# compile_seconds.

COLD_MODES = ("cold", "off", "disabled", "bypass")


def cache_read_errors(cache: dict[str, Any] | None) -> list[str]:
    """The cache's read failures ("Error reading ... cache entry"). A failed *write* does not count:
    JAX writes an entry only after compiling the program, so the miss that made it compile is
    already counted, and a write error says nothing about whether what ran was served from the
    cache. Counting it would call a run cache-masked that read every program it ran from the cache.
    (The August incident's tell was a read failure before lowering.)"""
    errors = (cache or {}).get("errors") or []
    if not isinstance(errors, (list, tuple)):
        errors = [errors]
    texts = [str(e.get("text", e)) if isinstance(e, dict) else str(e) for e in errors]
    return [t for t in texts if "writing" not in t.lower()]


def lowered_cold(cache: dict[str, Any] | None) -> bool | None:
    """Whether an attempt's program was lowered and compiled rather than served from the persistent
    compilation cache: ``True`` cold, ``False`` served warm, ``None`` unknown (no facts, or a cache
    never asked). Cold when the cache was bypassed (mode ``cold``/``off``), a read failed
    (:func:`cache_read_errors`), it missed, or it was asked and served nothing."""
    if not cache:
        return None
    if str(cache.get("mode", "")).lower() in COLD_MODES:
        return True
    if cache_read_errors(cache):
        return True
    requests, hits, misses = (_int(cache.get(k)) for k in ("requests", "hits", "misses"))
    if misses:
        return True
    if requests:
        return not hits
    if hits:
        return False
    return None


def cold_reason(cache: dict[str, Any] | None) -> str | None:
    """Why an attempt lowered cold, in words (None when :func:`lowered_cold` says it did not, or
    cannot say). Raises nothing on partial facts."""
    if not cache or lowered_cold(cache) is not True:
        return None
    mode = str(cache.get("mode", "")).lower()
    reasons = []
    if mode == "verify":
        return "every program compiled afresh to check the cache (--cache verify)"
    if mode == "cold":
        reasons.append("cache bypassed (--cold)")
    elif mode in COLD_MODES:
        reasons.append(f"cache {mode}")
    misses, hits = _int(cache.get("misses")), _int(cache.get("hits"))
    if cold_in_part(cache):
        total = max(_int(cache.get("requests")), misses + hits)
        reasons.append(f"{misses} of {total} programs compiled fresh, {hits} read from the cache")
    elif misses > 0:
        reasons.append(f"{misses} cache miss{'es' if misses != 1 else ''}")
    errors = cache_read_errors(cache)
    if errors:
        reasons.append(f"{len(errors)} cache read error{'s' if len(errors) != 1 else ''}")
    return ", ".join(reasons) or "no program was served from the cache"


def cold_in_part(cache: dict[str, Any] | None) -> bool:
    """Whether an attempt compiled some programs afresh and read the others from the cache: a warm
    run with a few misses, which :func:`lowered_cold` counts as cold, but no cold lowering."""
    return bool(cache) and _int(cache.get("misses")) > 0 and _int(cache.get("hits")) > 0


def poisoned_entry(cache: dict[str, Any] | None) -> str | None:
    """The cache entry ``--cache verify`` found to differ from a fresh compile (its file, else its
    key), or None."""
    bad = (cache or {}).get("poisoned") or {}
    return (bad.get("entry") or bad.get("key")) if isinstance(bad, dict) else None


def verified_words(cache: dict[str, Any]) -> str:
    """What ``--cache verify`` found, in words: the poisoned entry, or how many entries matched."""
    bad = poisoned_entry(cache)
    if bad:
        return f"the entry {bad} does not match a fresh compile of its program (poisoned or stale)"
    n, held = _int(cache.get("requests")), cache.get("verified")
    matched = f"{'?' if held is None else held} cached entr{'y' if held == 1 else 'ies'}"
    return f"{n} program{'s' if n != 1 else ''} compiled afresh, {matched} matched"


def _int(v: Any) -> int:
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0
