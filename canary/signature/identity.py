"""Fingerprinting: a signature from its parts, at two grains. Pure.

The exact ``fingerprint`` hashes the kind, the canonical exception class, the normalised message
and the call path: one bug in one program gives one fingerprint. The coarser ``group`` hashes the
error class (canonical class and status code) and the failing op or kernel: failures that share a
group are worth a look together even when their messages differ.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

from canary.record import Signature
from canary.signature import kinds
from canary.signature.masks import canonical_class, canonical_message, normalize

FINGERPRINT_LEN = 12


def _hash(parts: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:FINGERPRINT_LEN]


def fingerprint(kind: str, exception: str | None, message: str, frames: Sequence[str]) -> str:
    return _hash([kind, exception or "", message, *frames])


def group_key(kind: str, exception: str | None, message: str) -> str:
    """What a group is made of, readable: ``XlaRuntimeError RESOURCE_EXHAUSTED @ gmm``."""
    cls = kinds.error_class(exception, message) or kind
    op = kinds.failing_op(message, exception)
    return f"{cls} @ {op}" if op else cls


def group(kind: str, exception: str | None, message: str) -> str:
    return _hash(["group", group_key(kind, exception, message)])


def make(kind: str, exception: str | None, message: str, frames: Sequence[str] = (), excerpt: str = "") -> Signature:
    """A signature from its parts; ``exception`` is canonicalised and ``message`` normalised here."""
    if kind not in kinds.known_kinds():
        raise ValueError(f"unknown signature kind {kind!r}; known: {', '.join(kinds.known_kinds())}")
    message = canonical_message(message)
    exception = canonical_class(exception, message) if exception else exception
    message = normalize(message)
    frames = list(frames)
    return Signature(fingerprint(kind, exception, message, frames), kind, exception, message, frames, excerpt,
                     group=group(kind, exception, message))
