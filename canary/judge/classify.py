"""A run's classification from its attempts. Pure; no I/O.

    pass           every attempt passed
    unconfirmed    the run's only attempt failed: one attempt cannot show that a failure repeats
                   (its lane confirms it when the next run fails the same way)
    deterministic  two or more attempts, every one failed, all with one fingerprint
    cache-masked   the failures happened only on attempts that lowered cold (the compilation
                   cache bypassed, missed, or unreadable) while attempts served from the cache passed
    intermittent   anything else: attempts failed differently, or one passed after failures
    infrastructure every attempt failed before or outside training (never started for lack of
                   capacity, lost with its cluster, stopped by someone else): no verdict on the code

An attempt *failed* when it did not run to the end or carries a failure signature
(:attr:`canary.record.Attempt.failed`); *lowered cold* is :func:`canary.record.lowered_cold`.
"""

from __future__ import annotations

from typing import Sequence

from canary.record import Attempt

CLASSIFICATIONS = ("pass", "unconfirmed", "deterministic", "intermittent", "cache-masked", "infrastructure")


def said(classification: str | None, attempts: Sequence[Attempt]) -> str | None:
    """A recorded classification in today's words: an earlier canary called a run whose one
    attempt failed ``deterministic``; one attempt is ``unconfirmed``."""
    if classification == "deterministic" and len(attempts) == 1:
        return "unconfirmed"
    return classification


def classify(attempts: Sequence[Attempt]) -> str | None:
    """``pass`` | ``unconfirmed`` | ``deterministic`` | ``intermittent`` | ``cache-masked`` |
    ``infrastructure``; ``None`` without attempts."""
    if not attempts:
        return None
    failed = [a for a in attempts if a.failed]
    passed = [a for a in attempts if not a.failed]
    if not failed:
        return "pass"
    if not passed and all(a.signature is not None and a.signature.kind == "infrastructure" for a in failed):
        return "infrastructure"
    if passed and all(a.lowered_cold() is True for a in failed) and all(a.lowered_cold() is False for a in passed):
        return "cache-masked"
    if len(attempts) == 1:
        return "unconfirmed"
    if not passed and len({a.fingerprint for a in failed}) == 1:
        return "deterministic"
    return "intermittent"
