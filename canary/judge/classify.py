"""A run's classification from its attempts. Pure; no I/O.

    pass           every attempt passed
    unconfirmed    the run's only attempt failed: one attempt cannot show that a failure repeats
                   (its lane confirms it when the next run fails the same way)
    deterministic  two or more attempts, every one failed, all with one fingerprint
    cache-masked   the failures happened only on attempts that lowered cold (the compilation
                   cache bypassed, missed, or unreadable) while attempts served from the cache passed
    intermittent   anything else: attempts failed differently, or one passed after failures
    infrastructure every attempt failed before or outside training (never started for lack of
                   capacity, lost with its cluster, stopped by someone else), or was stopped by
                   the machine it ran on (its disk full, its memory exhausted): no verdict on the code

An attempt *failed* when it did not run to the end or carries a failure signature (a completed
attempt that failed its gates gets a ``gate_regression`` or ``nan`` signature).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from canary.record import Attempt

CLASSIFICATIONS = ("pass", "unconfirmed", "deterministic", "intermittent", "cache-masked", "infrastructure")


# The machine, not the code: a disk that filled (or a quota met) under the workload, host memory
# that ran out. Filed as a regression, either would send someone to bisect nothing.
_ENVIRONMENT = [
    (re.compile(r"No space left on device|\bENOSPC\b|\[Errno 28\]|Disk quota exceeded|\bEDQUOT\b|\[Errno 122\]"),
     "the disk filled up"),
    (re.compile(r"Unable to allocate\b|std::bad_alloc|Cannot allocate memory|\[Errno 12\]|"
                r"\bENOMEM\b|out of memory on the host|Out of memory: Killed process"), "the host ran out of memory"),
]


def environment_reason(a: Attempt) -> str | None:
    """Why a failed attempt's machine, not its code, stopped it (None: nothing says so)."""
    sig = a.signature
    if sig is None or sig.kind not in ("runtime_crash", "infrastructure"):
        return None
    if (sig.exception or "").rsplit(".", 1)[-1].endswith("MemoryError"):
        return "the host ran out of memory"
    text = f"{sig.exception or ''}: {sig.message}"
    return next((why for rx, why in _ENVIRONMENT if rx.search(text)), None)


def attempt_failed(a: Attempt) -> bool:
    return a.outcome != "succeeded" or a.signature is not None


def lowered_cold(cache: dict[str, Any] | None) -> bool | None:
    """Whether an attempt's program was lowered and compiled rather than served from the
    persistent compilation cache: ``True`` cold, ``False`` served warm, ``None`` unknown.

    Cold when the cache was bypassed (mode ``cold``/``off``), a read failed (``errors``), or it
    was asked and missed (``misses`` > 0, or no ``hits``)."""
    if not cache:
        return None
    if str(cache.get("mode", "")).lower() in ("cold", "off", "disabled", "bypass"):
        return True
    if cache.get("errors"):
        return True
    requests, hits, misses = (_int(cache.get(k)) for k in ("requests", "hits", "misses"))
    if misses:
        return True
    if requests:
        return not hits
    if hits:
        return False
    return None


def _int(v: Any) -> int:
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0


def _fingerprint(a: Attempt) -> str | None:
    return a.signature.fingerprint if a.signature else None


def classify(attempts: Sequence[Attempt]) -> str | None:
    """``pass`` | ``unconfirmed`` | ``deterministic`` | ``intermittent`` | ``cache-masked`` |
    ``infrastructure``; ``None`` without attempts."""
    if not attempts:
        return None
    failed = [a for a in attempts if attempt_failed(a)]
    passed = [a for a in attempts if not attempt_failed(a)]
    if not failed:
        return "pass"
    if not passed and all(a.signature is not None and (a.signature.kind == "infrastructure" or environment_reason(a))
                          for a in failed):
        return "infrastructure"
    if passed and all(lowered_cold(a.cache) is True for a in failed) and all(
        lowered_cold(a.cache) is False for a in passed
    ):
        return "cache-masked"
    if len(attempts) == 1:
        return "unconfirmed"
    if not passed and len({_fingerprint(a) for a in failed}) == 1:
        return "deterministic"
    return "intermittent"
