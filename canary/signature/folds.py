"""The rules that fold one failure's drift across releases into one identity. Pure.

A signature's parts are first taken as they always were (:mod:`~canary.signature.masks`,
:mod:`~canary.signature.tracebacks`); the rules here then fold what a JAX, jaxlib, XLA or NCCL
release, a wrapper or a cut excerpt changes about the same failure. Every rule reads only those
parts (class, normalised message, call path), so a signature recorded before a rule existed can
be folded again from its record (:func:`canary.signature.identity.current`) and land on the same
identity as a new one; the fingerprint it had before is kept beside it (``legacy``). Each rule is
stated once, in :data:`RULES`, with the reason it is safe.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from canary.signature import environment, kinds
from canary.signature.masks import STATUS_CODES

Parts = tuple[str | None, str, list[str]]  # exception class, normalised message, call path


@dataclass(frozen=True)
class Rule:
    name: str
    reason: str
    apply: Callable[[str | None, str, list[str]], Parts]


_CODE_HEAD = re.compile(r"^(?:" + "|".join(STATUS_CODES) + r"): ")

# TensorFlow raises a status as the class named after its code (ResourceExhaustedError is RESOURCE_EXHAUSTED),
# without the code in its message; not the names other libraries share (CancelledError, NotFoundError,
# InternalError, UnknownError), which say nothing of a status
_TF_STATUS = {
    "".join(w.capitalize() for w in code.split("_")) + "Error": code
    for code in STATUS_CODES
    if code not in ("CANCELLED", "NOT_FOUND", "INTERNAL", "UNKNOWN")
}


def _status_class(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc in _TF_STATUS and not _CODE_HEAD.match(message):
        return "XlaRuntimeError", f"{_TF_STATUS[exc]}: {message}", frames
    if exc and exc != "XlaRuntimeError" and _CODE_HEAD.match(message):
        return "XlaRuntimeError", message, frames
    return exc, message, frames


# "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:<line>: ..." (after a status, or leading)
_SOURCE_LOCATION = re.compile(r"(?:(?<=^)|(?<=: ))[\w.+/-]{0,300}\.(?:cc|cpp|h|cu):<line> ?: ")

# TensorFlow's distributed runtime (XRT, 2019-2021) names the task after a status's code, its XLA:TPU the stage,
# some XLA:GPU releases the custom call a compile failed in
_TASK = re.compile(
    r"^([A-Z][A-Z_]{2,40}: )"
    r"(?:From /job:[\w-]+/replica:\d+/task:\d+:\s|Compilation failure: (?=Ran out)|CustomCall failed: )"
)


# XLA since 2025 prefixes a CUDA runtime call's failure and names CUDA's error code before its words ("CUDA Runtime
# error: [0] Failed call to cudaGetFuncBySymbol: cudaErrorNoKernelImageForDevice: no kernel image is available
# ..."); earlier releases print "Failed call to cudaGetFuncBySymbol: no kernel image is available ..."
# PyTorch up to 1.x words CUDA's error as "cuda runtime error (35) : CUDA driver version is insufficient for CUDA
# runtime version at torch/csrc/cuda/Module.cpp:32" (its code and where THC checked it), later as "CUDA error: ..."
_THC_CUDA = re.compile(r"^cuda runtime error \(\d{1,4}\) : (.{1,500}?)(?: at \S{1,300}:(?:<line>|\d{1,6}))?$")
_CUDA_RUNTIME = re.compile(
    r"\bCUDA Runtime error: \[\d{1,4}\] (?=Failed call to cuda)|(?<=: )cudaError[A-Z]\w{1,60}: (?=[a-z])"
)


def _cuda_runtime(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("cuda runtime error ("):
        message = _THC_CUDA.sub(r"CUDA error: \1", message)
    return exc, _CUDA_RUNTIME.sub("", message) if "cuda" in message else message, frames


def _failed_check(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "RuntimeError" and message.startswith("Check failed: "):
        return "CheckFailed", message, frames
    return exc, message, frames


def _source_location(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, _TASK.sub(r"\1", _SOURCE_LOCATION.sub("", message, count=2)), frames


# The coordination service's errors, in the words of each release, as one wording.
_REGISTER = "DEADLINE_EXCEEDED: RegisterTask timed out"
_HEARTBEAT = "a task stopped sending heartbeats"  # which task is incidental
COORDINATION: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # registering with the service: gRPC's "Deadline Exceeded" on RegisterTask (jaxlib <= 0.4.2x) /
    # the registration barrier "[Init]Wait_for_all_tasks_to_register" (later)
    (
        re.compile(r"^DEADLINE_EXCEEDED: Deadline Exceeded\b(?=.{0,600}CoordinationService/RegisterTask\b).*$"),
        _REGISTER,
    ),
    (
        re.compile(
            r"^DEADLINE_EXCEEDED: Barrier timed out\. (?:Barrier_id|Id): "
            r"\[Init\]Wait_for_all_tasks_to_register\b.*$"
        ),
        _REGISTER,
    ),
    # "Barrier timed out. Barrier_id: X." (jaxlib <= 0.4.3x) / "Barrier timed out. Id: X::0." (later);
    # the barrier's per-call counter ("multihost_broadcast_sync3", "::0") masked
    (
        re.compile(
            r"Barrier timed out\. (?:Barrier_id|Id): ([A-Za-z_\[][\w.\[\]-]{0,200}?)(<n>|\d{1,9})?(::\d{1,9})?"
            r"(?=[.\s]|$)"
        ),
        lambda m: f"Barrier timed out. Id: {m.group(1)}" + ("<n>" if m.group(2) or m.group(3) else ""),
    ),
    # heartbeats: "The following tasks are unhealthy (stopped sending heartbeats): <tasks>" (older)
    # and "Task <task> heartbeat timeout" (later): a peer task stopped
    (re.compile(r"The following tasks are unhealthy \(stopped sending heartbeats\):.*$"), _HEARTBEAT),
    (re.compile(r"Task /job:[\w/:]{1,200} heartbeat timeout\b.*$"), _HEARTBEAT),
]


def _coordination(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "imed out" in message or "heartbeat" in message or "Deadline Exceeded" in message:
        for rx, repl in COORDINATION:
            message = rx.sub(repl, message)
    return exc, message, frames


# "RuntimeError: Unable to initialize backend 'tpu': ABORTED: ..." (jax raising it) and the same status
# logged by itself: the backend's status is the failure
_BACKEND = re.compile(r"^Unable to initialize backend '(\w{1,40})': (?=(?:" + "|".join(STATUS_CODES) + r"): )")
_ANY_BACKEND = re.compile(r"^Unable to initialize backend '\w{1,40}': ")


def _backend(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Unable to initialize backend"):
        inner = _ANY_BACKEND.sub("", message)
        if cls := kinds.words_class(inner):  # the wrapped error in Python's words: its class
            return cls, inner, frames
        message = _BACKEND.sub("", message)
    return exc, message, frames


# advice a release added to a message, and NCCL's last warning when it only repeats the error; a bracketed
# piece of advice is known by how it opens, and runs to its bracket or to where a post cut it
_ADVICE = re.compile(
    r"\s?(?:\((?:run with NCCL_DEBUG=|set JAX_PLATFORMS=|Set TF_CPP_MIN_LOG_LEVEL=|you may need to uninstall )"
    r"[^()]{0,200}(?:\)|$)|Look at the errors above for more details\.?|"
    r"Please file (?:a bug against XLA|an issue on \S+)\.?|"
    # jaxlib's way out of its AVX check, after "... which your CPU and/or operating system do not support."
    r" ?You may be able (?:to )?work around this issue by building jaxlib from source.{0,50}$|"
    # protobuf's ways out of generated code older than itself, after "Descriptors cannot not be created directly."
    r" ?If this call came from a _pb2\.py file, your generated code is out of date.{0,2000}$|"
    r"It should not be possible to run out of (?:scoped )?\w{1,20} - please (?:file a bug against XLA\.?|\.\.\.))"
)
_LAST_WARNING = re.compile(r"\.?\s?Last NCCL warning\(error\) log entry \(may be unrelated\) '(.{1,300}?)'\.?(?=;|$)")


def _advice(exc: str | None, message: str, frames: list[str]) -> Parts:
    message = _ADVICE.sub("", message)
    if "Last NCCL warning" in message:
        message = _LAST_WARNING.sub(
            lambda m: "" if m.group(1).rstrip(".") in message[: m.start()] else m.group(0), message
        )
    return exc, message, frames


# Python's "cannot import name 'x' from 'y' (<where y is installed>)"
_IMPORT_FROM = re.compile(r"^(cannot import name '[\w.]{1,200}' from '[\w.]{1,200}') \(.{0,1000}$")


def _import_location(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("cannot import name "):
        message = _IMPORT_FROM.sub(r"\1", message)
    return exc, message, frames


# a slice's chip that ran out ("(0x0x0_HBM0)", "(1x0x0_HBM0)") is where, not what
_DEVICE = re.compile(r"\((?:\d{1,3}x){2}\d{1,3}_HBM\d{1,3}\)|\bmemory (?:\d{1,3}x){2}\d{1,3}_HBM\d{1,3}\b")


def _device(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "_HBM" in message:
        message = _DEVICE.sub(lambda m: "memory <device>" if m.group(0).startswith("memory") else "(<device>)", message)
    return exc, message, frames


# Where XLA's message stops naming the failure and starts telling its circumstances: what follows
# is cut at any point by excerpts, and differs run to run.
_DETAILS = re.compile(
    r"(?:\.|:|;)?\s?(?:Additional GRPC error information|:\{\"created\"|\[type\.googleapis\.com/|"
    r": while running replica \d|;\s?current tracing scope:|"
    r"Timed out task names|Some timed out task names|This usually happens because a task|"
    r"# of tasks that reached the barrier|The first task at the barrier|"
    r"This indicates that the remote task|The tasks have crashed|Check the task logs|"
    r"BufferAssignment OOM Debugging|Largest program allocations in|HBM capacity <bytes>:)"
)


# where a reporter cut the middle or the end of a message out: "[...]", "[…]", "(...)", "<snip>"
_ELISION = re.compile(r"\s?(?:\[(?:\.\.\.|…|snip)\]|\((?:\.\.\.|…|extra diagnostics trimmed\.\.\.)\)|<snip>)")


def _elision(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _ELISION.search(message) if ("[" in message or "(" in message or "<snip" in message) else None
    if m and m.start() > 0:
        message = message[: m.start()].rstrip(" .:;,")
    return exc, message, frames


# the one part of gRPC's detail that names the failure, when the head is only gRPC's own words: the call
_RPC = re.compile(r"while calling /tensorflow\.CoordinationService/(\w{1,60})")
_GRPC_ONLY = re.compile(
    r"^[A-Z_]+: (?:Deadline Exceeded|Socket closed|Connection reset by peer|Cancelled|"
    r"failed to connect to all addresses)$"
)


def _detail(exc: str | None, message: str, frames: list[str]) -> Parts:
    if _CODE_HEAD.match(message) or exc == "XlaRuntimeError":
        m = _DETAILS.search(message)
        if m and m.start() > 0:
            rpc = _RPC.search(message, m.start())
            grpc = "Additional GRPC" in message[m.start() :]
            message = message[: m.start()].rstrip(" .:;")
            if grpc and _GRPC_ONLY.match(message):
                message += f" (gRPC {rpc.group(1)})" if rpc else " (gRPC)"
        message = message.rstrip(" .;\"'")  # an excerpt ends its sentence (or its quote), or is cut before it
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


# compile_error, runtime_crash and timeout of one exception: which one depends on whether the excerpt shows
# the compile frames, or on a release's words ("heartbeat timeout" for "stopped sending heartbeats")
ERROR_KINDS = ("compile_error", "runtime_crash", "timeout", "environment")


def kind_key(kind: str, exception: str | None) -> str:
    """The kind as the fingerprint knows it (see the ``kind`` rule)."""
    return "error" if exception and kind in ERROR_KINDS else kind


RULES: tuple[Rule, ...] = (
    Rule(
        "framing",
        "pytest's 'E   ' lines, IPython's 'Cell In[n]' and '---->' frames, markdown quotes and fences, an exception "
        "group's borders are how a reporter or runner framed the log, taken off each line (signature.lines) first",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "wrappers",
        "jax prints the exception it raises inside a wrapper of its traceback (FilteredStackTrace in 0.2, "
        "UnfilteredStackTrace and SimplifiedTraceback later); the wrapped class and message are the failure, "
        "read so (signature.tracebacks) before the parts exist",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "generic-head",
        "jax's concretization error up to 0.4.1x opens with a sentence all of them share and says where "
        "it arose in the next paragraph ('The error arose in jax.numpy.reshape.'); that line is read into "
        "the message (tracebacks.detail_after), or two programs' bugs would be one",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "environment",
        "one toolchain check (a CUDA library older than the build, TPU in use, ptxas or a platform missing, a driver "
        "too old, CUDA init failing, a fallback to CPU, a TPU backend slow or unreachable) is a log line in one "
        "release, a warning or exception in another; where a file was looked, or a cut, is not it",
        environment.fold,
    ),
    Rule(
        "status-class",
        "JAX re-raises one XLA status error as XlaRuntimeError, JaxRuntimeError, ValueError or "
        "RuntimeError by release and caller, TensorFlow as the class named after its code "
        "(ResourceExhaustedError); the status-coded message is the failure",
        _status_class,
    ),
    Rule(
        "source-location",
        "some XLA builds prepend the C++ file and line that made the status "
        "('nccl_utils.cc:<line>: '), TensorFlow's runtime its task ('From /job:tpu_worker/replica:0/task:0: "
        "'), its XLA:TPU 'Compilation failure: ', XLA:GPU 'CustomCall failed: ', others do not; the words after are it",
        _source_location,
    ),
    Rule(
        "failed-check",
        "torch_xla raises its runtime's failed CHECK as a RuntimeError whose message is the check ('<file>.cc:<line> : "
        "Check failed: ...'), the runtime logs it bare (and aborts); the check is the failure, as CheckFailed",
        _failed_check,
    ),
    Rule(
        "coordination",
        "JAX's coordination service rewords its barrier, RegisterTask and heartbeat timeouts "
        "between releases (Barrier_id/Id, counters, the gRPC text); the barrier or step that timed out is kept",
        _coordination,
    ),
    Rule(
        "backend",
        "jax raises a backend's failed initialisation as 'Unable to initialize backend ...: <status>' (earlier "
        "'Backend 'x' failed to initialize: ', 'Requested backend x, but it failed to initialize: ') and logs the "
        "bare status otherwise; the status (or the wrapped error, in Python's words) is the failure",
        _backend,
    ),
    Rule(
        "nccl-status",
        "XLA's 'NCCL operation ... failed' is an INTERNAL status, printed bare by one log and as "
        "'INTERNAL: ...' by another; the call's argument expressions are XLA's source, which releases rewrite",
        kinds.nccl_status,
    ),
    Rule(
        "cuda-runtime",
        "XLA since 2025 says 'CUDA Runtime error: [0] ' before a CUDA runtime call that failed and names CUDA's "
        "error code before its words; earlier releases the words alone; PyTorch 1.x says 'cuda runtime error (35) : "
        "<words> at <file>:<line>', later 'CUDA error: <words>': the words are the failure",
        _cuda_runtime,
    ),
    Rule(
        "nccl-result",
        "NCCL words one result as 'NCCL Error 1: unhandled cuda error' in older releases and "
        "'ncclUnhandledCudaError: Call to CUDA function failed.' in later ones; PyTorch's 'NCCL error in: "
        "<its source>, <result>, NCCL version <v>' names the result among where it was seen and which NCCL",
        kinds.nccl_result,
    ),
    Rule(
        "advice",
        "advice a release adds ('run with NCCL_DEBUG=INFO', 'Look at the errors above', 'set JAX_PLATFORMS', "
        "'uninstall the failing plugin', 'file a bug against XLA', protobuf's 'If this call came from a _pb2.py "
        "file, ...'), and an NCCL last warning that repeats the error, say nothing of the failure",
        _advice,
    ),
    Rule(
        "jaxlib-version",
        "jax says its jaxlib is too old with a ValueError up to 0.3 and a RuntimeError since "
        "(adding '>='), a person retyping it as 'jaxlib version is'; the versions named are the environment's, "
        "which way they mismatch is the failure",
        environment.jaxlib,
    ),
    Rule(
        "import-wrapper",
        "a lazy module (transformers', diffusers', EasyDeL's) raises the import error it caught as a RuntimeError "
        "'Failed to import X because of the following error ...: <it>'; that error, by Python's words, is the failure",
        kinds.import_wrapper,
    ),
    Rule(
        "mosaic-layout",
        "Mosaic rewords by release: a layout check 'does not match MLIR layout: expected A, got B', later 'XLA "
        "layout (A) does not match Mosaic layout (B)'; 2023's 'Failed to compile a Mosaic module: ... op X' is "
        "'Mosaic failed to compile TPU kernel: X', later with ' in this target'",
        kinds.mosaic_wording,
    ),
    Rule("device", "which chip of a slice ran out of HBM differs from run to run", _device),
    Rule(
        "versions",
        "the versions an environment check names (X.Y.Z in XLA's lines, XXYY integers in jax's, PJRT's "
        "0.54) are the machine's, and so is the full stop after the last of them, which a post cut there "
        "loses; which check failed, and which way, is the failure",
        environment.versions,
    ),
    Rule(
        "elision",
        "a reporter who cuts a message ('[...]', '(...)', '<snip>') keeps its head; what is left after the "
        "cut is a fragment, so the message ends where the cut begins",
        _elision,
    ),
    Rule(
        "detail",
        "what XLA appends after naming a failure (task lists, gRPC payloads, OOM debugging, advice) "
        "is cut anywhere by excerpts; the head before it, and the service call a gRPC error names, identify it",
        _detail,
    ),
    Rule(
        "kind",
        "an exception is a compile_error when its excerpt shows the compile frames, a runtime_crash when "
        "cut above them, a timeout when a release words it so, environment when it names a mismatched "
        "toolchain; one kind in the fingerprint (the signature says which)",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "check-class",
        "one toolchain check is raised by whichever layer ran it (the CUDA plugin's RuntimeError, the backend's "
        "XlaRuntimeError, an older release's AssertionError), from whatever program; the check is the failure: its "
        "fingerprint has no class and no call path",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "import-location",
        "where Python found the module a name could not be imported from ('(/usr/lib/python3/dist-packages/jax/"
        "config.py)', '(unknown location)') is the machine's, and a post may cut it anywhere; the name is the failure",
        _import_location,
    ),
    Rule(
        "frames",
        "a call path names files relative to their package root with '..' resolved (and, in the "
        "fingerprint, by file name outside a package), so a checkout's location does not matter",
        _frames,
    ),
)


def fold(exception: str | None, message: str, frames: Sequence[str]) -> Parts:
    """The parts of a signature with every rule applied (idempotent)."""
    parts: Parts = (exception, message, list(frames))
    for rule in RULES:
        parts = rule.apply(*parts)
    return parts
