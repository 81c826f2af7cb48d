"""A run's classification from its attempts. Pure; no I/O.

    pass           every attempt passed
    unconfirmed    the run's only attempt failed: one attempt cannot show that a failure repeats
                   (its lane confirms it when the next run fails the same way)
    deterministic  two or more attempts, every one failed, all with one fingerprint
    cache-masked   the failures happened only on attempts that lowered cold (the compilation
                   cache bypassed, missed, or unreadable) while attempts served from the cache passed
    intermittent   anything else: attempts failed differently, or one passed after failures
    cache-poisoned every failed attempt stopped because a compilation cache entry differs from a
                   fresh compile of its program (``--cache verify``; signature kind
                   ``cache_poisoned``): a poisoned or stale entry, no verdict on the code
    infrastructure every attempt failed before or outside training (never started for lack of
                   capacity, lost with its cluster, stopped by someone else), or was stopped by
                   the machine it ran on (its disk full, its memory exhausted, its toolchain not the
                   one the program was built for: signature kind ``environment``): no verdict on the code

An attempt *failed* when it did not run to the end or carries a failure signature
(:attr:`canary.record.Attempt.failed`); *lowered cold* is :func:`canary.record.lowered_cold`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from canary.record import Attempt

CLASSIFICATIONS = (
    "pass",
    "unconfirmed",
    "deterministic",
    "intermittent",
    "cache-masked",
    "cache-poisoned",
    "infrastructure",
)

# The machine, not the code: a disk that filled (or a quota met) under the workload, host memory
# that ran out. Filed as a regression, either would send someone to bisect nothing.
_ENVIRONMENT = [
    (
        re.compile(r"No space left on device|\bENOSPC\b|\[Errno 28\]|Disk quota exceeded|\bEDQUOT\b|\[Errno 122\]"),
        "the disk filled up",
    ),
    (
        re.compile(
            r"Unable to allocate\b|std::bad_alloc|Cannot allocate memory|\[Errno 12\]|"
            r"\bENOMEM\b|out of memory on the host|Out of memory: Killed process"
        ),
        "the host ran out of memory",
    ),
]


def environment_reason(a: Attempt) -> str | None:
    """Why a failed attempt's machine, not its code, stopped it (None: nothing says so)."""
    sig = a.signature
    if sig is not None and sig.kind == "environment":
        return "its toolchain or environment does not match what the program was built for"
    if sig is None or sig.kind not in ("runtime_crash", "infrastructure"):
        return None
    if (sig.exception or "").rsplit(".", 1)[-1].endswith("MemoryError"):
        return "the host ran out of memory"
    text = f"{sig.exception or ''}: {sig.message}"
    return next((why for rx, why in _ENVIRONMENT if rx.search(text)), None)


def classify(attempts: Sequence[Attempt]) -> str | None:
    """``pass`` | ``unconfirmed`` | ``deterministic`` | ``intermittent`` | ``cache-masked`` |
    ``cache-poisoned`` | ``infrastructure``; ``None`` without attempts."""
    if not attempts:
        return None
    failed = [a for a in attempts if a.failed]
    passed = [a for a in attempts if not a.failed]
    if not failed:
        return "pass"
    if all(a.signature is not None and a.signature.kind == "cache_poisoned" for a in failed):
        return "cache-poisoned"
    if not passed and all(
        a.signature is not None and (a.signature.kind == "infrastructure" or environment_reason(a)) for a in failed
    ):
        return "infrastructure"
    if passed and all(a.lowered_cold() is True for a in failed) and all(a.lowered_cold() is False for a in passed):
        return "cache-masked"
    if len(attempts) == 1:
        return "unconfirmed"
    if not passed and len({a.fingerprint for a in failed}) == 1:
        return "deterministic"
    return "intermittent"
