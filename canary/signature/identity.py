"""Fingerprinting: a signature from its parts, at two grains, and the identity of one recorded
by an earlier canary. Pure.

The exact ``fingerprint`` hashes the kind, the canonical exception class, the normalised message
and, where the message is too terse to name the failure alone, the call path, after the rules of
:mod:`~canary.signature.folds`: one bug gives one fingerprint, from one program or from two. The
coarser ``group`` hashes the error class (canonical class and status code) and the failing op or
kernel: failures that share a group are worth a look together even when their messages differ.

A failed-gates run's message says what left its band (:func:`what_moved`): which series, which way,
from which window, and a coarse magnitude, so two regressions are two failures.

A signature also keeps the fingerprints the same parts had by earlier rules (``legacy``), and
:func:`current` folds a signature an earlier canary recorded, so a history and the issues it
opened keep matching after the rules change.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from canary.record import Signature
from canary.signature import call_paths, cloud_apis, folds, kinds, mismatches
from canary.signature.masks import canonical_class, canonical_message, normalize, status_code

FINGERPRINT_LEN = 12
GATE_KINDS = ("gate_regression", "perf_regression")


ROOTS = ("canary", "levanter", "haliax")  # the default call path's package roots (tracebacks.DEFAULT_KEEP)


def frame_key(frame: str, roots: Iterable[str] = ROOTS) -> str:
    """What a call-path entry (``path:function``) is known by: ``..`` resolved, then from its
    package root when it has one, else by its file name alone."""
    path, sep, func = frame.rpartition(":")
    if not sep:
        path, func = frame, ""
    parts = [p for p in posixpath.normpath(path).split("/") if p not in ("", ".", "..")]
    roots = set(roots)
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in roots:
            return "/".join(parts[i:]) + sep + func
    return (parts[-1] if parts else path) + sep + func


def _hash(parts: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:FINGERPRINT_LEN]


def fingerprint(kind: str, exception: str | None, message: str, frames: Sequence[str]) -> str:
    """The hash of the parts as given (the rules of :mod:`~canary.signature.folds` already applied)."""
    return _hash([kind, exception or "", message, *frames])


CUT_TRACEBACK = "a traceback cut before its exception's line, in "


def group_key(kind: str, exception: str | None, message: str) -> str:
    """What a group is made of, readable: ``XlaRuntimeError RESOURCE_EXHAUSTED @ gmm``."""
    cls = kinds.error_class(exception, message) or kind
    # (where a traceback was cut is no failing op: its class is all it says of the failure)
    op = "" if message.startswith(CUT_TRACEBACK) else kinds.failing_op(message, exception)
    return f"{cls} @ {op}" if op else cls


def group(kind: str, exception: str | None, message: str) -> str:
    return _hash(["group", group_key(kind, exception, message)])


def _class_key(kind: str, exception: str | None, message: str) -> str | None:
    """The class as the fingerprint knows it (the ``check-class`` rule of :mod:`~canary.signature.folds`):
    none for a toolchain or environment check, which whichever layer ran it raises."""
    if kind == "environment" or mismatches.ENVIRONMENT_TEXT.search(message) or cloud_apis.is_cloud(message):
        return None  # (cloud-class: whichever client printed the service's refusal)
    return folds.class_key(exception, message)


def _group_class(key: str | None, exception: str | None, message: str) -> str | None:
    """The class a group is made of: none for an environment check (whichever layer raised it), an XLA
    status's where the check carries one; a cloud API's status where its refusal carries one."""
    if cloud_apis.is_cloud(message):
        return cloud_apis.status_class(message)
    if key is None and exception is not None:
        return "XlaRuntimeError" if status_code(message) else None
    return exception


_QUOTED_NAME = re.compile(r"(?<![\w'])'([^'\s]{1,200})'(?![\w'])")


def _folded(kind: str, exception: str | None, message: str, frames: Sequence[str]) -> tuple[Signature, str]:
    """The signature of parts taken as earlier canaries took them, and the fingerprint those had."""
    before = fingerprint(kind, exception, message, frames)
    exc, msg, path = folds.fold(exception, message, frames)
    key = _class_key(kind, exc, msg)
    # (check-class: a check has no call path; program-frames: nor has a message that names its failure)
    where = [] if (key is None and exc is not None) or call_paths.names_itself(exc, msg) else path
    # (backticks, and quotes around a name: the library's markup, by release: "`self.trainer.model.parameters()`" in
    # one, "'self.trainer.model.parameters()'" in the next)
    said = _QUOTED_NAME.sub(r"\1", cloud_apis.identity_message(msg).replace("`", ""))
    fp = fingerprint(folds.kind_key(kind, exc), key, said, [frame_key(f) for f in where])
    if kind == "runtime_crash" and mismatches.ENVIRONMENT_TEXT.search(msg):
        kind = "environment"  # a check the folds recognised (one cut mid-word): one fingerprint, its own kind
    return Signature(fp, kind, exc, msg, path, group=group(kind, _group_class(key, exc, msg), msg)), before


def make(
    kind: str,
    exception: str | None,
    message: str,
    frames: Sequence[str] = (),
    excerpt: str = "",
    legacy: Sequence[str] = (),
) -> Signature:
    """A signature from its parts; ``exception`` is canonicalised and ``message`` normalised here,
    then the folding rules are applied. ``legacy``: fingerprints it had by rules no longer here."""
    if kind not in kinds.known_kinds():
        raise ValueError(f"unknown signature kind {kind!r}; known: {', '.join(kinds.known_kinds())}")
    message = canonical_message(message)
    exception = canonical_class(exception, message) if exception else exception
    sig, before = _folded(kind, exception, normalize(message), list(frames))
    old = [f for f in dict.fromkeys([*legacy, before]) if f != sig.fingerprint]
    return replace(sig, excerpt=excerpt, legacy=old)


def with_ferry(message: str, ferry: str) -> str:
    """A gate failure's message names its ferry: two ferries failing one gate are two failures."""
    return f"{message} (ferry {ferry})" if ferry and " (ferry " not in message else message


def current(sig: Signature | None, ferry: str = "") -> Signature | None:
    """``sig`` as this canary names it: a signature recorded by an earlier canary (its parts as
    the earlier rules left them) folded by today's rules, its old fingerprint kept in ``legacy``;
    ``ferry`` is the run's (a gate failure's message names it now). A signature already current,
    or not made from parts (a fallback key), is returned as it is."""
    if sig is None or sig.kind not in kinds.known_kinds():
        return sig
    new = _current(sig.fingerprint, sig.kind, sig.exception, sig.message, tuple(sig.frames), ferry)
    if new is None:
        return sig
    return replace(
        new, frames=list(new.frames), excerpt=sig.excerpt, legacy=list(dict.fromkeys([*sig.legacy, sig.fingerprint]))
    )


@lru_cache(maxsize=4096)
def _current(
    fp: str, kind: str, exception: str | None, message: str, frames: tuple[str, ...], ferry: str
) -> Signature | None:
    if fp != fingerprint(kind, exception, message, frames):
        return None  # not parts an earlier canary hashed as they are: made by these rules, or by hand
    if kind in GATE_KINDS and message.startswith("failed gates: "):
        message = with_ferry(message, ferry)
    new, _ = _folded(kind, exception, message, frames)
    return None if new.fingerprint == fp else new


MOVED_SERIES = 3  # the statistics a gate regression's identity names, furthest out first
BUCKETS = ("under 2x", "under 4x", "under 8x", "under 16x", "16x or more", "unbounded")  # times its band


def _bucket(times: float | None) -> int:
    """A coarse magnitude, the index of a ``BUCKETS`` phrase: how many times its band a series went,
    in powers of two (a recurrence within noise stays in its bucket)."""
    return 5 if times is None else next((i for i, top in enumerate((2, 4, 8, 16)) if times < top), 4)


def what_moved(failed: Sequence[dict[str, Any]]) -> str:
    """What the failed curve gates saw leave its band (their ``moved``): the loss curve's, and the
    statistics furthest out (by magnitude bucket, then name), each with its direction, its first
    window outside and its magnitude bucket. Empty for gates that record no such thing."""
    moves = [
        (g["name"], m)
        for g in failed
        for m in g.get("moved") or ()
        if isinstance(m, dict) and isinstance(m.get("series"), str)
    ]
    curve = [m for name, m in moves if name == "loss_curve"][:1]
    rest = sorted(
        (m for name, m in moves if name != "loss_curve"), key=lambda m: (-_bucket(m.get("times")), m["series"])
    )

    def one(m: dict[str, Any]) -> str:
        first = m.get("first") or ["?"]
        return (
            f"{m['series']} {m.get('direction')} from steps {first[0]}-{first[-1]} {BUCKETS[_bucket(m.get('times'))]}"
        )

    return "; ".join(one(m) for m in curve + sorted(rest[:MOVED_SERIES], key=lambda m: m["series"]))
