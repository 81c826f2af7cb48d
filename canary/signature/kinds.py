"""Recognising failures: the kinds a signature can have, which kind an exception is, and the
failing op, kernel or error code a message names. Pure.

Kinds live in :data:`KINDS`. Failures that print no Python
traceback (bare error lines) are :mod:`canary.signature.bare`'s.
"""

from __future__ import annotations

import re

from canary.signature import cloud_apis, network
from canary.signature.infra import INFRA_TEXT
from canary.signature.masks import canonical_class, status_code
from canary.signature.mismatches import ENVIRONMENT_TEXT

KINDS: tuple[str, ...] = (
    "compile_error",
    "runtime_crash",
    "nan",
    "timeout",
    "gate_regression",
    "infrastructure",
    "environment",
    "missing_summary",
    "perf_regression",
    "cache_inconsistency",
    "cache_poisoned",
)
# gates whose failure alone is a slower (or heavier) canary, not a wrong one: perf_regression
PERF_GATES = ("throughput", "compile_seconds", "peak_memory")


def known_kinds() -> tuple[str, ...]:
    return KINDS


# ----------------------------------------------------------------------------- kind of an exception

COMPILE_TEXT = re.compile(
    r"lowering|Mosaic|pallas_call|while compiling|compilation|compile permanent error|"
    r"Ran out of memory in memory space|MLIR|stablehlo|mhlo|Triton.{0,200}(?:compil|lower)|TPU lowering|"
    r"\bE2\d{3}\b|block shape|'[a-z_]{1,20}\.[\w.]{1,60}' op\b",  # (an MLIR op's diagnostic: "'func.func' op ...")
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
    # (not a "--timeout" flag, a "timeout=600" argument, a "self._process_timeout" name or a "timeout-2.1.0" plugin, nor
    # pytest-timeout's settings in a session's header: "timeout: 30.0s", "timeout method: signal")
    r"DEADLINE_EXCEEDED|timed out|(?<!--)(?<!_)time(?:d)?out"
    r"(?![=_(]|-\d| method: | func_only: |: \d{1,6}(?:\.\d{1,3})?s(?:\s|$))|exceeded the maximum execution time|"
    r"Barrier (?:timed out|failed)",
    re.I,
)
# JAX's jax_compilation_cache_check_contents (canary run --cache verify): an executable the
# persistent cache holds differs from a fresh compile of the same program under the same key. A
# poisoned or stale cache entry, whatever the code does.
CACHE_POISONED_TEXT = re.compile(r"CacheVerificationError|Persistent compilation cache inconsistency for key")


def _plugin(file: str, func: str) -> bool:
    """A frame of a PJRT plugin loading (jax's ``discover_pjrt_plugins``) or of the plugin's own code
    (``jax_plugins/``): what fails there is a plugin that does not fit the jax or jaxlib loading it, or the
    machine (an environment mismatch), whatever it raises."""
    return func == "discover_pjrt_plugins" or "jax_plugins/" in file


def kind_of(exc_type: str, message: str, chain_text: str, frames: list[tuple[str, str, str]]) -> str:
    """The kind of an exception: ``chain_text`` is every exception of its chain as ``type: msg``;
    ``frames`` are its chain's ``(file, func, code)``."""
    if CACHE_POISONED_TEXT.search(f"{exc_type}: {chain_text}"):
        return "cache_poisoned"
    if INFRA_TEXT.search(chain_text) or cloud_apis.CLIENT_TEXT.match(message) or network.POOL_TEXT.search(chain_text):
        return "infrastructure"  # (a cloud API refusing a request, as a Python client raises it; a host not reached)
    if ENVIRONMENT_TEXT.search(chain_text) or any(_plugin(file, func) for file, func, _ in frames):
        return "environment"
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

_OP_NAME = re.compile(r"\b(?:op_name|Operator|XLA Label)[=:]\s?\"?(?P<name>[\w()./\[\]=-]{1,300})")
_OPS = [
    re.compile(r"pallas_call kernel (?:at \S{1,300}|\w{1,200})"),  # Pallas: where the kernel is
    re.compile(r"\b(?P<name>Mosaic) failed to compile"),
    re.compile(r"\bkernel[ =:]+['\"`]?(?P<name>[a-z_][\w.<>]{1,200})"),
    _OP_NAME,
    re.compile(r"\b(?P<name>nccl[A-Z]\w{1,100})\b"),
    re.compile(r"\b(?P<name>cu[A-Z]\w{1,100}|cudnn\w{1,100}|cublas\w{1,100})\b"),
    re.compile(r"\b(?P<name>CUDA_ERROR_[A-Z_]{2,60}|CUDNN_STATUS_[A-Z_]{2,60}|CUBLAS_STATUS_[A-Z_]{2,60})\b"),
    re.compile(r"for '(?P<name>jit_\w{1,200}|pmap_\w{1,200})'"),  # compilation cache entries
    re.compile(r"for key (?P<name>(?:jit|pmap)_\w{1,200}?)-[0-9a-f<]"),  # a cache entry that failed its check
    re.compile(r"\bjit\((?P<name>\w{1,200})\)"),
    re.compile(r"(?P<name>\w{1,100}\.(?:cc|cpp|cu|h)):<line>"),  # where a CHECK or a C++ error fired
    re.compile(r"(?:Check|CHECK) failed: (?P<name>[^\s(]{1,80})"),
    re.compile(r"^a traceback cut before its exception's line, in (?P<name>\S{1,300})$"),  # where it was
]
# NCCL's result codes, however a release or a wrapper words them.
_NCCL_CODES = [
    (re.compile(r"ncclUnhandledCudaError|NCCL Error 1\b|unhandled cuda error", re.I), "ncclUnhandledCudaError"),
    (re.compile(r"ncclSystemError|NCCL Error 2\b|unhandled system error", re.I), "ncclSystemError"),
    (re.compile(r"ncclInternalError|NCCL Error 3\b|internal check failed|^internal error$", re.I), "ncclInternalError"),
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


# The rules nccl-status and nccl-result of canary.signature.folds.RULES (where their reasons are stated).
Parts = tuple[str | None, str, list[str]]  # exception class, normalised message, call path
# "NCCL operation ncclX(...) failed: ..." is XLA's INTERNAL status whether or not the line kept "INTERNAL: ";
# the call's arguments ("(&comm, nranks, id, rank)", "(comm.get(), nranks, id, rank)", a stream's accessor
# "se::gpu::AsGpuStreamValue(stream)" or "AsCudaStream(stream)") are XLA's source
_NCCL_CALL = re.compile(r"\b(NCCL operation nccl\w{1,60})\([^()]{0,300}(?:\([^()]{0,100}\)[^()]{0,300}){0,8}\)")


def nccl_status(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "NCCL operation " in message:
        message = _NCCL_CALL.sub(r"\1(<args>)", message)
        if exc == "NCCLError" and message.startswith("NCCL operation "):
            return "XlaRuntimeError", "INTERNAL: " + message, frames
    return exc, message, frames


# NCCL's result, in the words of its release: "NCCL Error 1: unhandled cuda error" (NCCL 2.4-2.6, older
# PyTorch) and "ncclUnhandledCudaError: Call to CUDA function failed." (later), when that is all the line says
_NCCL_RESULT = re.compile(r"^(?:NCCL Error \d: [a-z ]{3,60}|(nccl[A-Z]\w{3,40}): [A-Z](?:e\.g\.|[^.;:]){0,200}\.?)$")
# PyTorch's "NCCL error in: <its file>:<line>, unhandled cuda error (run with ...), NCCL version 2.4.8", and
# later with the result's name after it ("... NCCL version 2.20.5 ncclUnhandledCudaError: Call to CUDA ..."), 1.0's
# without the version
_TORCH_NCCL = re.compile(
    r"^NCCL error in: \S{1,300}, ([a-z ]{3,60}?)(?: \([^()]{0,100}\))?(?:, NCCL version \S{1,40}"
    r"(?: (nccl[A-Z]\w{3,40}): .{0,2000})?)?$"
)
# since NCCL 2.12 an internal or system error says which check failed after it ("ncclInternalError: Internal check
# failed. Last error: Bootstrap : no socket interface found"): that is the failure, not the result alone
_LAST_ERROR = re.compile(r"\bLast error:\s?(.{1,300}?)(?=\s(?:ERROR|WARNING|INFO)\b|\s?\(|$)")


def nccl_result(exc: str | None, message: str, frames: list[str]) -> Parts:
    torch = exc in ("RuntimeError", "DistBackendError", "NCCLError") and message.startswith("NCCL error in: ")
    if torch:
        m = _TORCH_NCCL.match(message)
    elif exc == "NCCLError":
        m = _NCCL_RESULT.match(message)
    else:
        return exc, message, frames
    code = nccl_code(m.group(1) if torch else m.group(0)) if m else ""
    if code and (not m.group(m.re.groups) or m.group(m.re.groups) == code):
        # (a remote error's is the transport's view of the peer that went away, which each network words its own
        # way: "NET/IB : Got completion from peer ...", "NET/OFI Request ... completed with error"; the result is it)
        last = _LAST_ERROR.search(message) if "Last error:" in message and code != "ncclRemoteError" else None
        return "NCCLError", code + (f": Last error: {last[1].rstrip('. ')}" if last else ""), frames
    return exc, message, frames


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
            name = re.sub(r":<line>$", "", m.groupdict().get("name") or m.group(0))
            # (an op_name is the op under the program's scopes, "jit(diffeqsolve)/jit(main)/while/body/nextafter":
            # the op is its last part, the scopes the program's)
            return name.rsplit("/", 1)[-1] if rx is _OP_NAME and "/" in name else name
    return ""


def error_class(exception: str | None, message: str) -> str:
    """The coarse class of an error: its exception's canonical class and status code."""
    cls = canonical_class(exception, message) if exception else ""
    code = status_code(message)
    if code and code != cls:
        return f"{cls} {code}".strip()
    return cls


# Mosaic's check of a kernel operand's layout against XLA's: "XLA layout does not match MLIR layout for an
# operand of shape S: expected A, got B" (2025) and "XLA layout (A) does not match Mosaic layout (B) for an
# operand of shape S" (2026); which operand, its shape and the two layouts are the kernel's
_MOSAIC_LAYOUT = re.compile(
    r"(Failed to verify layout for Mosaic kernel operand) \S{1,10}: XLA layout (?:\(.{1,200}?\) )?does not match "
    r"(?:MLIR|Mosaic) layout\b.*$"
)


# 2023's "INVALID_ARGUMENT: Failed to compile a Mosaic module: 'tpu.matmul' op X" is later releases'
# "INTERNAL: Mosaic failed to compile TPU kernel: X", some of whose checks then add " in this target"
# (the status it is raised with, INTERNAL or INVALID_ARGUMENT, is its release's, and a title or a later release's class
# quotes it without one)
_MOSAIC_2023 = re.compile(r"^(?:INVALID_ARGUMENT|INTERNAL): Failed to compile a Mosaic module: '[\w.]{1,100}' op ")
_MOSAIC_STATUS = re.compile(r"^(?:INVALID_ARGUMENT|INTERNAL): (?=Mosaic failed to compile TPU kernel: )")
_MOSAIC_TARGET = re.compile(r"^(Mosaic failed to compile TPU kernel: [^.]{1,300}?) in this target\b")
# 2026's names the pass that failed before its words ("... TPU kernel: infer-vector-layout: unsupported shape cast")
_MOSAIC_PASS = re.compile(r"^(Mosaic failed to compile TPU kernel: )[a-z]{1,40}(?:-[a-z]{1,40}){1,6}: ")


def mosaic_wording(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "Mosaic" in message:
        message = _MOSAIC_STATUS.sub("", _MOSAIC_2023.sub("Mosaic failed to compile TPU kernel: ", message))
        message = _MOSAIC_PASS.sub(r"\1", message)
        message = _MOSAIC_TARGET.sub(r"\1", _MOSAIC_LAYOUT.sub(r"\1: XLA layout does not match the kernel's", message))
    return exc, message, frames


# A lazy module's import wrapper (transformers', diffusers', EasyDeL's): "Failed to import X because of the
# following error (look up to see its traceback):" and the import error it caught, in Python's own words; Django REST
# framework's of a class a setting names ("Could not import 'x.IsAuthenticated' for API setting 'DEFAULT_...'.
# ImportError: cannot import name 'six' from 'django.utils' ...")
_LAZY_IMPORT = re.compile(
    r"^(?:Failed to import [\w.]{1,200} because of the following error \(look up to see its traceback\):\s?|"
    r"Could not import '[\w.]{1,300}' for API setting '\w{1,100}'\. \w{1,60}: )"
)
_IMPORT_WORDS = (
    (re.compile(r"^(?:module '[\w.]{1,200}'|'[\w.]{1,200}' object) has no attribute "), "AttributeError"),
    (re.compile(r"^cannot import name "), "ImportError"),
    (re.compile(r"^No module named "), "ModuleNotFoundError"),
    (re.compile(r"^DLL load failed\b"), "ImportError"),
    (re.compile(r"^Your default credentials were not found"), "DefaultCredentialsError"),
    (re.compile(r"^PyAV is not installed, and is necessary for the video operations in torchvision"), "ImportError"),
    (re.compile(r"^Primal inputs to reverse-mode differentiation must be of float or complex type"), "TypeError"),
    (re.compile(r"^Cannot find a working triton installation"), "RuntimeError"),
    (re.compile(r"^Attempted boolean conversion of traced array"), "TracerBoolConversionError"),
    (
        re.compile(
            r"^Tracer can't be used with raw numpy|^The numpy\.ndarray conversion method __array__\(\) was called on "
            r"(?:the JAX Tracer|traced array)"
        ),
        "TracerArrayConversionError",
    ),
    (re.compile(r"^DataLoader worker \(pid \d{1,9}\) is killed by signal"), "RuntimeError"),
    (re.compile(r"^The actor (?:died unexpectedly before finishing this task|is dead because)"), "ActorDiedError"),
    (re.compile(r"^\S{0,300}\.so(?:\.\d{1,4}){0,3}: undefined symbol: "), "ImportError"),
    (re.compile(r"^Received incompatible devices for p?jitted computation\b"), "ValueError"),
    (re.compile(r"^Trying to access flag --\w{1,200} before flags were parsed"), "UnparsedFlagAccessError"),
    (re.compile(r"^An attempt has been made to start a new process before the\b"), "RuntimeError"),
    (
        re.compile(r"^torch\._scaled_mm is only supported on |^expected mat1 and mat2 to have the same dtype"),
        "RuntimeError",
    ),
    (re.compile(r"^This version of jaxlib was built using AVX instructions"), "RuntimeError"),
    (re.compile(r"^Unimplemented primitive in Pallas "), "NotImplementedError"),
    (re.compile(r"^Custom node type mismatch|^Non-hashable static arguments are not supported"), "ValueError"),
    (re.compile(r"^cudaMallocAsync does not yet support|^Fetching value for `?jax\.Array"), "RuntimeError"),
    (re.compile(r"^JAX does not support string indexing"), "TypeError"),
    (re.compile(r"^Unable to load weights from pytorch checkpoint file for |^Error no file named "), "OSError"),
    (re.compile(r"^Your currently installed version of Keras is Keras 3"), "ValueError"),
    (re.compile(r"^The size argument of jnp\.\w{1,40} must be statically specified"), "ConcretizationTypeError"),
    (re.compile(r"^(?:importing failed due to )?[Uu]ndefined symbol: "), "ImportError"),
    (
        re.compile(
            r"^got inconsistent map dimension sizes: |^\w{1,60} got incompatible shapes for broadcasting: |"
            r"^[\w.]{1,200}\(\) (?:got an unexpected keyword argument|missing \d{1,3} required) "
        ),
        "TypeError",
    ),
)


def line_kind(text: str) -> str:
    """The kind of an error line "Class: message" (or a message alone)."""
    return kind_of(text.split(":", 1)[0], text, text, [])


def words_class(message: str) -> str | None:
    """The class Python (or jax) raises with ``message``'s words (an import's errors, a traced bool), or None."""
    return next((c for rx, c in _IMPORT_WORDS if rx.match(message)), None)


def import_wrapper(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith(("Failed to import ", "Could not import '")):
        inner = _LAZY_IMPORT.sub("", message)
        cls = words_class(inner)
        if inner != message and cls:
            return cls, inner, frames
    return exc, message, frames
