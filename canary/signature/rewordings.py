"""The rewordings of a failure's message, class or call path that the folding rules apply (the
status and its classes, where a status was made, the coordination service's words, a backend's
wrapper, advice, where an import was found, a chip, a reporter's cut, XLA's detail). Pure.

Each is stated once, with the reason it is safe, in :data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from canary.signature import cloud_apis, kinds
from canary.signature.masks import STATUS_CODES

Parts = tuple[str | None, str, list[str]]  # exception class, normalised message, call path


def rewrite(hint: str, pattern: re.Pattern[str], repl: str) -> Callable[[str | None, str, list[str]], Parts]:
    """A fold that rewrites ``pattern`` to ``repl`` in a message that holds ``hint`` (one substring scan for the many
    messages that do not)."""

    def fold(exc: str | None, message: str, frames: list[str]) -> Parts:
        return exc, (pattern.sub(repl, message) if hint in message else message), frames

    return fold


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


def status_class(exc: str | None, message: str, frames: list[str]) -> Parts:
    # (google-cloud-ruby names its classes after gRPC's codes too: a cloud API's refusal, not TensorFlow's status)
    if exc in _TF_STATUS and not _CODE_HEAD.match(message) and not cloud_apis.is_cloud(message):
        return "XlaRuntimeError", f"{_TF_STATUS[exc]}: {message}", frames
    if exc and exc != "XlaRuntimeError" and _CODE_HEAD.match(message):
        return "XlaRuntimeError", message, frames
    return exc, message, frames


# "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:<line>: ..." (after a status, or leading)
_SOURCE_LOCATION = re.compile(r"(?:(?<=^)|(?<=: ))[\w.+/-]{0,300}\.(?:cc|cpp|h|cu):<line> ?: ")
# gloo names where it failed in brackets before its words ("[../third_party/gloo/gloo/transport/tcp/pair.cc:598]
# Connection closed by peer [10.1.2.3]:28048", "Read error [10.1.2.3]:25266: Connection reset by peer"), and the
# peer by its address and port: the words are the failure
_GLOO = re.compile(
    r"^\[[\w.+/-]{0,300}\.(?:cc|cpp|h):<line>\] |(?:(?<=peer)|(?<=connect)|(?<=Read error)|(?<=Write error)) "
    r"\[?<ip>\]?:\d{1,5}"
)

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
_THC_CUDA = re.compile(r"^cuda runtime error \(\d{1,4}\) : (.{1,500}?)(?: at \S{1,300}:(?:<line>|\d{1,6}\b).*)?$")
_CUDA_RUNTIME = re.compile(
    r"\bCUDA Runtime error: \[\d{1,4}\] (?=Failed call to cuda)|(?<=: )cudaError[A-Z]\w{1,60}: (?=[a-z])"
)
# jaxlib's GPU kernels name the CUDA runtime call they check 'cudaGetLastError()' until 2023 and by the wrapper
# shared with ROCm, 'gpuGetLastError()', later: one call
# (and what follows it: THC's next check, "THCudaCheck FAIL file=...", a post's own words)
_THC_AT = re.compile(r" at \S{1,300}\.(?:cpp|cu|h):(?:<line>|\d{1,6}\b).*$")
# the CUDA runtime's words for a device in exclusive mode held by another process, reworded in CUDA 10 ("all
# CUDA-capable devices are busy or unavailable", later "CUDA-capable device(s) is/are busy or unavailable"); PyTorch
# 1.5 on raises CUDA's "no CUDA-capable device is detected" as its own "No CUDA GPUs are available": one failure each
_CUDA_WORDS = re.compile(
    r"^CUDA error: (?:(?P<busy>CUDA-capable device\(s\) is/are busy or unavailable)|(?P<none>no CUDA-capable device is "
    r"detected))"
)


def _cuda_words(m: re.Match[str]) -> str:
    return "CUDA error: all CUDA-capable devices are busy or unavailable" if m["busy"] else "No CUDA GPUs are available"


_GPU_CALL = re.compile(r"\boperation cuda(?=[A-Z]\w{1,60}\(\) failed)")


def cuda_runtime(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("cuda runtime error ("):
        message = _THC_CUDA.sub(r"CUDA error: \1", message)
    if "cuda" not in message.lower():
        return exc, message, frames
    if message.startswith("CUDA error: "):  # (PyTorch 1.x names where in THC it checked: "... at /x/THCGeneral.cpp:50")
        message = _THC_AT.sub("", message)
        message = _CUDA_WORDS.sub(_cuda_words, message)
    return exc, _GPU_CALL.sub("operation gpu", _CUDA_RUNTIME.sub("", message)), frames


# a comparison's CHECK prints both sides' values after it ("Check failed: a <= b (500.867 vs. 500.867)"): the run's
_CHECK_VALUES = re.compile(r" \(<n> vs\. <n>\)$")


def failed_check(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "RuntimeError" and message.startswith("Check failed: "):
        exc = "CheckFailed"
    if exc == "CheckFailed" and message.startswith("CHECK failed: "):  # (protobuf's logger before absl's)
        message = "Check failed: " + message[len("CHECK failed: ") :]
    if exc == "CheckFailed" and message.endswith(" vs. <n>)"):
        message = _CHECK_VALUES.sub("", message)
    return exc, message, frames


# PyTorch's c10 names where its check failed and the condition ("[enforce fail at alloc_cpu.cpp:<line>] data. ", or
# none: "[enforce fail at inline_container.cc:<line>] . PytorchStreamReader failed ...")
_ENFORCE = re.compile(r"^\[enforce fail at [^\]]{1,300}\] (?:\w{0,40}\. )?")


# vLLM re-raises what its model raised with where it dumped the inputs ("Error in model execution (input dumped to
# /tmp/err_execute_model_input_20240903-083021.pkl): ")
_VLLM = re.compile(r"^Error in model execution \(input dumped to \S{1,300}\): ")


def source_location(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "gloo" in message or "<ip>" in message:
        message = _GLOO.sub("", message)
    message = _ENFORCE.sub("", message) if message.startswith("[enforce fail") else message
    message = _VLLM.sub("", message) if message.startswith("Error in model execution") else message
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
    # a task that reconnects after a restart, named by its path ("/job:jax_worker/replica:0/task:1", 2025) or its
    # number ("14", 2026): which task restarted is incidental
    (
        re.compile(
            r"^ABORTED: (?:/job:[\w-]{1,100}/replica:\d{1,6}/task:\d{1,6}|(?:task )?\d{1,6}) (?=unexpectedly tried)"
        ),
        "ABORTED: <task> ",
    ),
]


def coordination(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "imed out" in message or "heartbeat" in message or "Deadline Exceeded" in message or "incarnation" in message:
        for rx, repl in COORDINATION:
            message = rx.sub(repl, message)
    return exc, message, frames


# "RuntimeError: Unable to initialize backend 'tpu': ABORTED: ..." (jax raising it) and the same status
# logged by itself: the backend's status is the failure
_BACKEND = re.compile(r"^Unable to initialize backend '(\w{1,40})': (?=(?:" + "|".join(STATUS_CODES) + r"): )")
_ANY_BACKEND = re.compile(r"^Unable to initialize backend '\w{1,40}': ")


def backend(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Unable to initialize backend"):
        inner = _ANY_BACKEND.sub("", message)
        if cls := kinds.words_class(inner):  # the wrapped error in Python's words: its class
            return cls, inner, frames
        message = _BACKEND.sub("", message)
    return exc, message, frames


# advice a release added to a message, and NCCL's last warning when it only repeats the error; a bracketed
# piece of advice is known by how it opens, and runs to its bracket (and a quote the message closes after it) or to
# where a post cut it
_ADVICE = re.compile(
    r"\s?(?:\((?:run with NCCL_DEBUG=|set JAX_PLATFORMS=|Set TF_CPP_MIN_LOG_LEVEL=|you may need to uninstall )"
    r"[^()]{0,200}(?:\)'?|$)|Look at the errors above for more details\.?|"
    r"Please file (?:a bug against XLA|an issue on \S+)\.?|"
    r"\s?Check python-core-worker-\*\.log files for more information\.?|"  # (Ray's, after a worker that died)
    # jaxlib's way out of its AVX check, after "... which your CPU and/or operating system do not support."
    # (since 2023 with a guess first: "This error is frequently encountered on macOS when running an x86 Python
    # installation on ARM hardware. In this case, try installing an ARM build of Python. Otherwise, you may be ...")
    r" ?(?:This error is frequently encountered on macOS when running an x86 Python.{0,300}?Otherwise, y|Y)"
    r"ou may be able (?:to )?work around this issue by building jaxlib from source.{0,50}$|"
    # protobuf's ways out of generated code older than itself, after "Descriptors cannot not be created directly."
    r" ?If this call came from a _pb2\.py file, your generated code is out of date.{0,2000}$|"
    r"It should not be possible to run out of (?:scoped )?\w{1,20} - please (?:file a bug against XLA\.?|\.\.\.)|"
    # PyTorch's note after a CUDA error since 1.10 (and its debugging advice after it), and after a HIP error on ROCm
    r" ?(?:CUDA|HIP) kernel errors might be asynchronously reported at some other API call.{0,400}$|"
    r" ?Compile with `TORCH_USE_(?:CUDA|HIP)_DSA` to enable device-side assertions\.?|"
    # jax's TPU driver after refusing 64-bit types ('int32' in 2020, 'int32_t' in 2022)
    r" ?Convert inputs to float32/int32(?:_t)? before using\.?|"
    # fairseq's after its minimum loss scale
    r" ?Your loss is probably exploding\..{0,300}$|"
    # PyTorch's DataLoader after a worker's signal: where to look (shared memory, num_workers=0)
    r"(?<=\.) (?:It is possible that dataloader's workers are out of shared memory|Details are lost due to "
    r"multiprocessing).{0,400}$|"
    # wandb's ways to log in after "api_key not configured (no-tty).", and to wait longer after its init timed out
    r"(?<=\.)\s{1,2}(?:call wandb\.login\(key=\[your_api_key\]\)|Run wandb login)$|"
    r" ?Please try increasing the timeout with the `init_timeout` setting.{0,300}$|"
    # (and its ways to start its process otherwise, after "Error communicating with wandb process")
    r"(?<=wandb process) (?:try: wandb\.init\(settings=|For more info see: https?://).{0,600}$|"
    # TensorFlow 1.x on Windows, after the CUDA DLL it could not find: where it must be, and where to get it
    r" ?TensorFlow requires that this DLL be installed in a directory that is named in your %PATH%.{0,600}$|"
    # XLA's GPU timer's, after its delay kernel timed out; PyTorch 2.8's after a CUDA error, where to read of it
    r"(?<=\.) There may be a missing warmup execution, please investigate in Nsight.{0,30}$|"
    r" ?Search for `(?:cuda|hip)\w{1,60}' in https?://\S{1,300} for more information\.?|"
    # PyTorch's generator called during a CUDA graph's capture: where to ask, and the capture's status
    r"(?<=\.) If you need this call to be captured, please file an issue\..{0,300}$|"
    # gensim 4's ways round an attribute it removed, after "The vocab attribute was removed from KeyedVector in Gensim
    # 4.0.0." (a post may keep the first line alone)
    r"(?<=in Gensim 4\.0\.0\.)\s?Use KeyedVector's .{0,600}$|"
    # Biopython's way round the alphabets it removed, and xarray's round an engine it did not find: a post may keep
    # part of it (cut after "Please", or its double backticks taken for markup)
    r"(?<=has been removed from Biopython\.) In many cases, the alphabet .{0,600}$|"
    r"(?<=\]\.) Consider explicitly selecting one of the installed (?:IO )?engines .{0,600}$|"
    r"(?<=added a callback_api_version), see \S{1,100} for details$|"  # (paho-mqtt 2.0's, by release)
    # ReportLab's after a renderPM backend it could not import; pythonnet's after the .NET runtime it could not create
    r" ?Seek advice at the users list(?: see)?.{0,300}$|"
    r"(?<=on this system\.) Either install a compatible runtime or configure it explicitly.{0,400}$|"
    # twine's after metadata it could not read: the versions of it that release reads
    r"(?<=\.) Make sure the distribution includes the files where those fields are specified.{0,300}$|"
    r"(?<=No recommended backend was available\.) Install the keyrings\.alt package .{0,300}$|"  # (keyring's)
    # cassandra-driver's reasons, by release and machine, after it found no connection class it could load
    r"(?<=Unable to load a default connection class) ?The following exceptions were observed:.{0,3000}$)"
)
_LAST_WARNING = re.compile(r"\.?\s?Last NCCL warning\(error\) log entry \(may be unrelated\) '(.{1,300}?)'\.?(?=;|$)")


def advice(exc: str | None, message: str, frames: list[str]) -> Parts:
    message = _ADVICE.sub("", message)
    if "Last NCCL warning" in message:
        message = _LAST_WARNING.sub(
            lambda m: "" if m.group(1).rstrip(".") in message[: m.start()] else m.group(0), message
        )
    return exc, message, frames


# a slice's chip that ran out ("(0x0x0_HBM0)", "(1x0x0_HBM0)") is where, not what
_DEVICE = re.compile(r"\((?:\d{1,3}x){2}\d{1,3}_HBM\d{1,3}\)|\bmemory (?:\d{1,3}x){2}\d{1,3}_HBM\d{1,3}\b")


def device(exc: str | None, message: str, frames: list[str]) -> Parts:
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
    r"BufferAssignment OOM Debugging|Largest program allocations in|HBM capacity <bytes>:|"
    # the convolution and what each algorithm said, after "Failed to determine best cudnn convolution algorithm"
    r"(?<=best cudnn convolution algorithm)(?= for: |: ))"
)


# where a reporter cut the middle or the end of a message out: "[...]", "[…]", "(...)", "<snip>"
_ELISION = re.compile(r"\s?(?:\[(?:\.\.\.|…|snip)\]|\((?:\.\.\.|…|extra diagnostics trimmed\.\.\.)\)|<snip>)")


def elision(exc: str | None, message: str, frames: list[str]) -> Parts:
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


def detail(exc: str | None, message: str, frames: list[str]) -> Parts:
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


def full_stop(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, message.rstrip(" .!;,:\u3002\uff01"), frames  # (and a full-width full stop a post typed)
