"""Recognising failures: the kinds a signature can have, which kind an exception is, and the
failures that print no Python traceback (bare error lines). Pure.

Kinds live in :data:`KINDS`; :func:`register_kind` adds one. Bare error lines are recognised by
:data:`BARE_ERRORS`, an ordered list of :class:`BareError` (first match wins on a line); add a
recogniser by appending one. Each names the exception (a status code, ``NCCLError``,
``CUDAError``, ``CheckFailed``, ...), the message, and the failing op or kernel when the line
says it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from canary.signature.masks import OLD_STATUS_NAMES, STATUS_CODES, canonical_class, status_code

KINDS: tuple[str, ...] = (
    "compile_error",
    "runtime_crash",
    "nan",
    "timeout",
    "gate_regression",
    "infrastructure",
    "missing_summary",
    "perf_regression",
    "cache_inconsistency",
)
# gates whose failure alone is a slower (or heavier) canary, not a wrong one: perf_regression
PERF_GATES = ("throughput", "compile_seconds", "peak_memory")


def register_kind(kind: str) -> None:
    """Make ``kind`` a known signature kind (for failures other modules name)."""
    global KINDS
    if kind not in KINDS:
        KINDS = (*KINDS, kind)


def known_kinds() -> tuple[str, ...]:
    return KINDS


# ----------------------------------------------------------------------------- kind of an exception

COMPILE_TEXT = re.compile(
    r"lowering|Mosaic|pallas_call|while compiling|compilation|compile permanent error|"
    r"Ran out of memory in memory space|MLIR|stablehlo|mhlo|Triton.{0,200}(?:compil|lower)|TPU lowering|"
    r"\bE2\d{3}\b|block shape",
    re.I,
)
COMPILE_FRAME = re.compile(
    r"(?:^|[./_])(?:lower|lowering|compile|compiler|backend_compile\w*|_cached_lowering\w*|"
    r"jaxpr_subcomp|lower_jaxpr\w*|mosaic|pallas_call_lowering\w*)(?:$|[.(_])",
    re.I,
)
NAN_TEXT = re.compile(
    r"invalid value \((?:nan|inf)\)|\bnan\b.{0,200}\b(?:loss|encountered|detected)\b|"
    r"\b(?:loss|gradient|grad_norm)\b.{0,200}\b(?:nan|non-finite|not finite)\b",
    re.I,
)
TIMEOUT_TEXT = re.compile(
    r"DEADLINE_EXCEEDED|timed out|time(?:d)?out|exceeded the maximum execution time|"
    r"Barrier (?:timed out|failed)",
    re.I,
)
# Infrastructure failures are named by what happened, not by which host it happened to.
INFRA: list[tuple[re.Pattern[str], str]] = [
    # (not XLA's advice on a peer's heartbeat: "the remote task has failed, got preempted, or crashed")
    (re.compile(r"preempt(?!ed, or crashed)", re.I), "preempted"),
    (
        re.compile(
            r"no worker (?:ever )?start|never started|stockout|insufficient capacity|no more capacity|"
            r"ZONE_RESOURCE_POOL_EXHAUSTED|not enough resources? (?:available|to schedule)",
            re.I,
        ),
        "no capacity: the job never started",
    ),
    (
        re.compile(
            r"NodeDiedError|node (?:\S{1,200} )?(?:has )?died|The node running this job|"
            r"lost (?:contact|connection) (?:to|with) (?:the )?(?:worker|node|host)|worker (?:was )?lost",
            re.I,
        ),
        "lost: the node running the job died",
    ),
    (
        re.compile(r"ActorDiedError|RaySystemError|GCS (?:server )?(?:is )?unavailable", re.I),
        "lost: the cluster scheduler failed",
    ),
]
INFRA_TEXT = re.compile("|".join(f"(?:{rx.pattern})" for rx, _ in INFRA), re.I)


def infrastructure_reason(text: str) -> str | None:
    for rx, reason in INFRA:
        if rx.search(text):
            return reason
    return None


def kind_of(exc_type: str, message: str, chain_text: str, frames: list[tuple[str, str, str]]) -> str:
    """The kind of an exception: ``chain_text`` is every exception of its chain as ``type: msg``;
    ``frames`` are its chain's ``(file, func, code)``."""
    if INFRA_TEXT.search(chain_text):
        return "infrastructure"
    if exc_type.endswith("FloatingPointError") or NAN_TEXT.search(message):
        return "nan"
    if COMPILE_TEXT.search(chain_text):
        return "compile_error"
    if any(
        COMPILE_FRAME.search(func)
        or COMPILE_FRAME.search(file.rsplit("/", 1)[-1])
        or re.search(r"\.lower\(|\.compile\(\)", code)
        for file, func, code in frames
    ):
        return "compile_error"
    if TIMEOUT_TEXT.search(chain_text) or exc_type.endswith("TimeoutError"):
        return "timeout"
    return "runtime_crash"


# ----------------------------------------------------------------------------- failing op or kernel

_OPS = [
    re.compile(r"pallas_call kernel (?:at \S{1,300}|\w{1,200})"),  # Pallas: where the kernel is
    re.compile(r"\b(?P<name>Mosaic) failed to compile"),
    re.compile(r"\bkernel[ =:]+['\"`]?(?P<name>[a-z_][\w.<>]{1,200})"),
    re.compile(r"\b(?:op_name|Operator|XLA Label)[=:]\s?\"?(?P<name>[\w()./\[\]=-]{1,300})"),
    re.compile(r"\b(?P<name>nccl[A-Z]\w{1,100})\b"),
    re.compile(r"\b(?P<name>cu[A-Z]\w{1,100}|cudnn\w{1,100}|cublas\w{1,100})\b"),
    re.compile(r"\b(?P<name>CUDA_ERROR_[A-Z_]{2,60}|CUDNN_STATUS_[A-Z_]{2,60}|CUBLAS_STATUS_[A-Z_]{2,60})\b"),
    re.compile(r"for '(?P<name>jit_\w{1,200}|pmap_\w{1,200})'"),  # compilation cache entries
    re.compile(r"\bjit\((?P<name>\w{1,200})\)"),
    re.compile(r"(?P<name>\w{1,100}\.(?:cc|cpp|cu|h)):<line>"),  # where a CHECK or a C++ error fired
    re.compile(r"(?:Check|CHECK) failed: (?P<name>[^\s(]{1,80})"),
]
# NCCL's result codes, however a release or a wrapper words them.
_NCCL_CODES = [
    (re.compile(r"ncclUnhandledCudaError|NCCL Error 1\b|unhandled cuda error", re.I), "ncclUnhandledCudaError"),
    (re.compile(r"ncclSystemError|NCCL Error 2\b|unhandled system error", re.I), "ncclSystemError"),
    (re.compile(r"ncclInternalError|NCCL Error 3\b|internal check failed", re.I), "ncclInternalError"),
    (re.compile(r"ncclInvalidArgument|NCCL Error 4\b|invalid argument", re.I), "ncclInvalidArgument"),
    (re.compile(r"ncclInvalidUsage|NCCL Error 5\b|invalid usage", re.I), "ncclInvalidUsage"),
    (re.compile(r"ncclRemoteError|NCCL Error 6\b|remote process exited", re.I), "ncclRemoteError"),
]


def nccl_code(message: str) -> str:
    """NCCL's name for the result a message reports (``ncclUnhandledCudaError``), or ``""``."""
    for rx, name in _NCCL_CODES:
        if rx.search(message):
            return name
    return ""


# XLA's error codes for Mosaic's failures (its docs, errors/error_2xxx.md), for messages that do
# not print their code.
MOSAIC_CODES = [
    (re.compile(r"Failed to set window params for (?:input|output)"), "E2002"),
    (re.compile(r"cannot statically prove that index in dimension"), "E2003"),
]
_XLA_CODE = re.compile(r"\b(?P<code>E\d{4})\b")


def error_code(message: str) -> str:
    """The XLA error code a message carries or (for Mosaic's) implies: ``E2002``, or ``""``."""
    m = _XLA_CODE.search(message)
    if m:
        return m.group("code")
    for rx, code in MOSAIC_CODES:
        if rx.search(message):
            return code
    return ""


def failing_op(message: str, exception: str | None = None) -> str:
    """The op, kernel or source file a (normalised) message names as failing, or ``""``."""
    if exception == "NCCLError":
        return nccl_code(message)
    code = error_code(message)
    if code:
        return f"Mosaic {code}" if "Mosaic" in message else code
    for rx in _OPS:
        m = rx.search(message)
        if m:
            name = m.groupdict().get("name") or m.group(0)
            return re.sub(r":<line>$", "", name)
    return ""


def error_class(exception: str | None, message: str) -> str:
    """The coarse class of an error: its exception's canonical class and status code."""
    cls = canonical_class(exception, message) if exception else ""
    code = status_code(message)
    if code and code != cls:
        return f"{cls} {code}".strip()
    return cls


# ----------------------------------------------------------------------------- bare error lines


@dataclass(frozen=True)
class BareError:
    """A failure that prints a line, not a traceback. ``exception`` names its class; ``kind``
    is a kind or a callable of the message; ``message`` picks the identifying part of the line.
    A line is tried only when it holds one of ``hints`` (plain substrings), so a long log costs
    one substring scan per line and recogniser. A ``weak`` one (a warning) names the failure
    only when nothing else in the log does."""

    name: str
    hints: tuple[str, ...]
    pattern: re.Pattern[str]
    exception: str | Callable[[re.Match[str]], str]
    kind: str | Callable[[str], str] = "runtime_crash"
    message: Callable[[re.Match[str]], str] = lambda m: m.group("msg")
    context: int = 0  # following lines that belong to the message (a status message goes on)
    weak: bool = False

    def match(self, line: str) -> re.Match[str] | None:
        if not any(h in line for h in self.hints):
            return None
        return self.pattern.search(line)

    def exception_of(self, m: re.Match[str]) -> str:
        return self.exception(m) if callable(self.exception) else self.exception

    def kind_of(self, text: str) -> str:
        return self.kind(text) if callable(self.kind) else self.kind


def _status_kind(text: str) -> str:
    if COMPILE_TEXT.search(text):
        return "compile_error"
    if TIMEOUT_TEXT.search(text):
        return "timeout"
    return "runtime_crash"


_WRAPPER_CLASSES = ("UnfilteredStackTrace", "SimplifiedTraceback")
_INNER = re.compile(r"(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception)): (?P<msg>.{1,2000})$")


def _unwrapped(m: re.Match[str]) -> tuple[str, str]:
    """A Python exception line's class and message; JAX's traceback wrappers give the wrapped ones."""
    cls, msg = m.group("cls"), m.group("msg")
    if cls.rsplit(".", 1)[-1] in _WRAPPER_CLASSES:
        inner = _INNER.match(msg)
        if inner:
            cls, msg = inner.group("cls"), inner.group("msg")
    return canonical_class(cls, msg), msg


def _python_kind(text: str) -> str:
    return kind_of(text.split(":", 1)[0], text, text, [])


_CODES = "|".join(STATUS_CODES)
_OLD = "|".join(OLD_STATUS_NAMES)
_SIGNALS = {
    "Segmentation fault": "SIGSEGV",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Floating point exception": "SIGFPE",
    "Illegal instruction": "SIGILL",
}
_CLASS_BEFORE = re.compile(
    r"([A-Za-z_][\w.]{0,200}(?:Error|Exception))(?:\([\w.]{1,100}\))?: (?:Bad StatusOr access: )?$"
)


_PALLAS_CLASSES = {
    "The Pallas TPU lowering currently requires": "ValueError",
    "Mosaic kernels cannot be automatically partitioned": "NotImplementedError",
    "Mosaic failed to compile TPU kernel": "XlaRuntimeError",
}


def _status_class(m: re.Match[str]) -> str:
    before = m.string[max(0, m.start() - 300) : m.start()]
    c = _CLASS_BEFORE.search(before)
    return canonical_class(c.group(1)) if c else "XlaRuntimeError"


BARE_ERRORS: list[BareError] = [
    BareError(
        "compilation-cache",
        ("compilation cache",),
        re.compile(r"(?P<msg>Error (?:reading|writing) persistent compilation cache entry for .{1,1000})$"),
        "CompilationCacheError",
        "compile_error",
        context=2,
        weak=True,
    ),
    BareError(
        "ray-task",
        ("ray.exceptions.", "Ray"),
        re.compile(
            r"^(?P<cls>ray\.exceptions\.\w{1,100}|Ray\w{0,40}Error)(?:\((?P<inner>[\w.]{1,100})\))?"
            r": (?P<msg>.{0,1000})$"
        ),
        lambda m: canonical_class(m.group("inner") or m.group("cls")),
        _python_kind,
        context=12,
    ),
    # a Python exception line without its traceback (an excerpt, a logged error); a class-named
    # line is read as Python printed it before what its message quotes is looked at
    BareError(
        "python-exception",
        ("Error: ", "Exception: ", "Error(", "Interrupt", "Exit: ", "StackTrace: "),
        re.compile(
            r"^(?!nccl|cuda|CUDA)(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception|Interrupt|Exit|StackTrace))"
            r"(?:\([\w.]{1,100}\))?: (?P<msg>.{1,2000})$"
        ),
        lambda m: _unwrapped(m)[0],
        _python_kind,
        message=lambda m: _unwrapped(m)[1],
        context=12,
    ),
    BareError(
        "fatal-python",
        ("Fatal Python error",),
        re.compile(r"Fatal Python error: (?P<what>.{1,300})$"),
        lambda m: _SIGNALS.get(m.group("what").strip(), "FatalError"),
        message=lambda m: f"Fatal Python error: {m.group('what').strip()}",
    ),
    BareError(
        "check-failed",
        ("Check failed", "CHECK failed"),
        re.compile(r"(?P<msg>(?:Check|CHECK) failed: .{1,1000})$"),
        "CheckFailed",
        context=3,
    ),
    BareError(
        "signal",
        ("*** SIG",),
        re.compile(r"^\*\*\* (?P<sig>SIG[A-Z]{2,10}) received"),
        lambda m: m.group("sig"),
        message=lambda m: f"process received {m.group('sig')}",
    ),
    # "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ...", a glog "... failed: INTERNAL: ...",
    # a line that is only a status, or how older releases spelled it ("failed: Resource exhausted: ")
    BareError(
        "xla-status",
        (*(f"{c}: " for c in STATUS_CODES), *(f"{c}: " for c in OLD_STATUS_NAMES)),
        re.compile(rf"(?P<msg>(?:\b(?:{_CODES})|(?:^|(?<=failed: )|(?<=Error: ))(?:{_OLD})): .{{1,2000}})$"),
        _status_class,
        _status_kind,
        context=12,
    ),
    # Mosaic's errors carry a code: "error: E2002 ...", "MosaicError: E2003: ..."
    BareError(
        "mosaic",
        ("E2",),
        re.compile(r"(?P<msg>\b(?P<code>E2\d{3})\b:? .{1,1000})$"),
        lambda m: f"Mosaic{m.group('code')}",
        "compile_error",
        context=6,
    ),
    BareError(
        "nccl",
        ("NCCL", "nccl"),
        re.compile(
            r"(?P<msg>(?:NCCL WARN|NCCL error|NCCL Error|NCCL operation \w{1,60}\(.{0,200}?\) failed|"
            r"nccl\w{0,40}Error\b|"
            r"ncclInternalError|ncclUnhandledCudaError|ncclSystemError|ncclInvalidUsage|"
            r"ncclRemoteError).{0,1000})$"
        ),
        "NCCLError",
    ),
    BareError(
        "cuda",
        ("CUDA", "cuda", "CUDNN", "CUBLAS", "illegal memory access"),
        re.compile(
            r"(?P<msg>(?:CUDA_ERROR_[A-Z_]{2,60}|CUDA error|[Cc]uda error|"
            r"CUDNN_STATUS_[A-Z_]{2,60}|CUBLAS_STATUS_[A-Z_]{2,60}|"
            r"an illegal memory access was encountered).{0,1000})$"
        ),
        "CUDAError",
    ),
    BareError(
        "oom-killer",
        ("Out of memory: Kill", "oom-kill", "OOMKilled", "low on memory", "cgroup out of memory"),
        re.compile(
            r"(?P<msg>Out of memory: Kill|oom-kill|OOMKilled|The node was low on memory|"
            r"Memory cgroup out of memory)"
        ),
        "SIGKILL",
        message=lambda m: "killed by the kernel's OOM killer",
    ),
    # XLA's rendezvous watchdog: a collective some participants never joined
    BareError(
        "rendezvous",
        ("and may be stuck",),
        re.compile(r"(?P<msg>This thread has been waiting for .{1,2000} and may be stuck\..{0,300})$"),
        "RendezvousStuck",
        "timeout",
        weak=True,
    ),
    # Pallas and Mosaic messages quoted without their class: the class JAX raises them with
    BareError(
        "pallas",
        ("Pallas TPU lowering", "Mosaic kernels cannot", "Mosaic failed to compile"),
        re.compile(
            r"^(?P<msg>(?P<what>The Pallas TPU lowering currently requires|Mosaic kernels cannot be "
            r"automatically partitioned|Mosaic failed to compile TPU kernel).{0,2000})$"
        ),
        lambda m: _PALLAS_CLASSES[m.group("what")],
        "compile_error",
        context=8,
    ),
    BareError(
        "allocator-oom",
        ("ran out of memory trying to allocate",),
        re.compile(r"(?P<msg>Allocator \(\w{1,100}\) ran out of memory trying to allocate .{1,300})$"),
        "OutOfMemory",
        weak=True,
    ),
]
