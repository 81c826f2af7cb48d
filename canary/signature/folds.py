"""The rules that fold one failure's drift across releases into one identity. Pure.

A signature's parts are first taken as they always were (:mod:`~canary.signature.masks`,
:mod:`~canary.signature.tracebacks`); the rules here then fold what a JAX, jaxlib, XLA or NCCL
release, a wrapper or a cut excerpt changes about the same failure. Every rule reads only those
parts (class, normalised message, call path), so a signature recorded before a rule existed can
be folded again from its record (:func:`canary.signature.identity.current`) and land on the same
identity as a new one; the fingerprint it had before is kept beside it (``legacy``).

Each rule is stated once, in :data:`RULES`, with the reason it is safe.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from canary.signature.masks import STATUS_CODES

Parts = tuple[str | None, str, list[str]]  # exception class, normalised message, call path


@dataclass(frozen=True)
class Rule:
    name: str
    reason: str
    apply: Callable[[str | None, str, list[str]], Parts]


_CODE_HEAD = re.compile(r"^(?:" + "|".join(STATUS_CODES) + r"): ")


def _status_class(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc and exc != "XlaRuntimeError" and _CODE_HEAD.match(message):
        return "XlaRuntimeError", message, frames
    return exc, message, frames


# "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:<line>: ..." (after a status, or leading)
_SOURCE_LOCATION = re.compile(r"(?:(?<=^)|(?<=: ))[\w.+/-]{0,300}\.(?:cc|cpp|h|cu):<line>: ")


def _source_location(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, _SOURCE_LOCATION.sub("", message, count=2), frames


# The coordination service's errors, in the words of each release, as one wording.
_REGISTER = "DEADLINE_EXCEEDED: RegisterTask timed out"
COORDINATION: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # registering with the service: gRPC's "Deadline Exceeded" on RegisterTask (jaxlib <= 0.4.2x) /
    # the registration barrier "[Init]Wait_for_all_tasks_to_register" (later)
    (re.compile(r"^DEADLINE_EXCEEDED: Deadline Exceeded\b(?=.{0,600}CoordinationService/RegisterTask\b).*$"),
     _REGISTER),
    (re.compile(r"^DEADLINE_EXCEEDED: Barrier timed out\. (?:Barrier_id|Id): \[Init\]Wait_for_all_tasks_to_register\b.*$"),
     _REGISTER),
    # "Barrier timed out. Barrier_id: X." (jaxlib <= 0.4.3x) / "Barrier timed out. Id: X::0." (later);
    # the barrier's per-call counter ("multihost_broadcast_sync3", "::0") masked
    (re.compile(r"Barrier timed out\. (?:Barrier_id|Id): ([A-Za-z_\[][\w.\[\]-]{0,200}?)(<n>|\d{1,9})?(::\d{1,9})?"
                r"(?=[.\s]|$)"),
     lambda m: f"Barrier timed out. Id: {m.group(1)}" + ("<n>" if m.group(2) or m.group(3) else "")),
    # heartbeats: "The following tasks are unhealthy (stopped sending heartbeats): <tasks>" (older)
    # and "Task <task> heartbeat timeout" (later): a peer task stopped
    (re.compile(r"The following tasks are unhealthy \(stopped sending heartbeats\):"), "heartbeat timeout:"),
    (re.compile(r"Task /job:[\w/:]{1,200} heartbeat timeout\.?"), "heartbeat timeout:"),
]


def _coordination(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "imed out" in message or "heartbeat" in message or "Deadline Exceeded" in message:
        for rx, repl in COORDINATION:
            message = rx.sub(repl, message)
    return exc, message, frames


# Where XLA's message stops naming the failure and starts telling its circumstances: what follows
# is cut at any point by excerpts, and differs run to run.
_DETAILS = re.compile(
    r"(?:\.|:)?\s?(?:Additional GRPC error information|:\{\"created\"|\[type\.googleapis\.com/|"
    r"Timed out task names|Some timed out task names|This usually happens because a task|"
    r"# of tasks that reached the barrier|The first task at the barrier|"
    r"This indicates that the remote task|The tasks have crashed|Check the task logs|"
    r"BufferAssignment OOM Debugging|Largest program allocations in)"
)


def _detail(exc: str | None, message: str, frames: list[str]) -> Parts:
    if _CODE_HEAD.match(message) or exc == "XlaRuntimeError":
        m = _DETAILS.search(message)
        if m and m.start() > 0:
            message = message[:m.start()].rstrip(" .:")
    return exc, message, frames


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


def _resolved(frame: str) -> str:
    path, sep, func = frame.rpartition(":")
    if not sep or ".." not in path.split("/"):
        return frame
    parts = [p for p in posixpath.normpath(path).split("/") if p not in ("", ".", "..")]
    return "/".join(parts) + sep + func


def _frames(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, message, [_resolved(f) for f in frames]


RULES: tuple[Rule, ...] = (
    Rule("status-class", "JAX re-raises one XLA status error as XlaRuntimeError, JaxRuntimeError, ValueError or "
         "RuntimeError by release and caller; the status-coded message is the failure", _status_class),
    Rule("source-location", "some XLA builds prepend the C++ file and line that made the status "
         "('nccl_utils.cc:<line>: '), others do not; the words after it are the failure", _source_location),
    Rule("coordination", "JAX's coordination service rewords its barrier, RegisterTask and heartbeat timeouts "
         "between releases (Barrier_id/Id, counters, the gRPC text); the barrier or step that timed out is kept",
         _coordination),
    Rule("detail", "what XLA appends after naming a failure (task lists, gRPC payloads, OOM debugging, advice) "
         "is cut anywhere by excerpts; the head before it identifies the failure", _detail),
    Rule("frames", "a call path names files relative to their package root with '..' resolved (and, in the "
         "fingerprint, by file name outside a package), so a checkout's location does not matter", _frames),
)


def fold(exception: str | None, message: str, frames: Sequence[str]) -> Parts:
    """The parts of a signature with every rule applied (idempotent)."""
    parts: Parts = (exception, message, list(frames))
    for rule in RULES:
        parts = rule.apply(*parts)
    return parts
