"""Failures that print a line, not a Python traceback (bare error lines). Pure.

They are recognised by :data:`BARE_ERRORS`, an ordered list of :class:`BareError` (first match
wins on a line); add a recogniser by appending one. Each names the exception (a status code,
``NCCLError``, ``CUDAError``, ``CheckFailed``, ...), the message, and the failing op or kernel
when the line says it; the kind comes from :mod:`canary.signature.kinds`.
"""

from __future__ import annotations

import re

from canary.signature import grpc_words, model_servers, process_groups, pytrees, quoting, xla_autotuning, xla_lines
from canary.signature.checks import ENVIRONMENT_ERRORS
from canary.signature.cloud_apis import CLOUD_API_ERRORS
from canary.signature.companions import COMPANION_ERRORS
from canary.signature.configs import CONFIG_ERRORS
from canary.signature.credentials import CREDENTIAL_ERRORS
from canary.signature.deprecations import DEPRECATIONS
from canary.signature.devices import DEVICE_ERRORS
from canary.signature.http_clients import HTTP_CLIENT_ERRORS
from canary.signature.hub import HUB_ERRORS
from canary.signature.kinds import COMPILE_TEXT, TIMEOUT_TEXT, line_kind
from canary.signature.masks import OLD_STATUS_NAMES, STATUS_CODES, canonical_class
from canary.signature.mismatches import ENVIRONMENT_TEXT
from canary.signature.mlflow_words import MLFLOW_ERRORS
from canary.signature.network import NETWORK_ERRORS
from canary.signature.onnx_runtime import ONNX_ERRORS
from canary.signature.recogniser import BareError
from canary.signature.services import AZURE_ERRORS, CI_CHECKS, FRONT_END_REPORTS, SERVICE_ERRORS
from canary.signature.signals import ELASTIC_RECORDS, PROCESS_DEATHS
from canary.signature.stacks import STACK_ERRORS
from canary.signature.storage import STORAGE_ERRORS
from canary.signature.tracebacks import _JAX_WRAPPERS
from canary.signature.words import WORDS
from canary.signature.worker_pools import WORKER_POOL_ERRORS

_HYPOTHESIS_CLASSES = r"(?:hypothesis\.errors\.)?(?:FailedHealthCheck|Flaky)"


def _status_kind(text: str) -> str:
    if ENVIRONMENT_TEXT.search(text):
        return "environment"
    if COMPILE_TEXT.search(text):
        return "compile_error"
    if TIMEOUT_TEXT.search(text):
        return "timeout"
    return "runtime_crash"


_INNER = re.compile(r"(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception)): (?P<msg>.{1,2000})$")


def _unwrapped(m: re.Match[str]) -> tuple[str, str]:
    """A Python exception line's class and message; JAX's traceback wrappers give the wrapped ones."""
    cls, msg = m.group("named") or m.group("cls"), m.group("msg")
    if cls.rsplit(".", 1)[-1] in _JAX_WRAPPERS:
        inner = _INNER.match(msg)
        if inner:
            cls, msg = inner.group("cls"), inner.group("msg")
    return canonical_class(cls, msg), msg


def _device_exception(m: re.Match[str]) -> tuple[str, str]:
    """The class and message torch_xla printed for a device's process: a Python exception's, or a
    RuntimeError's (a status in TensorFlow's words)."""
    inner = _INNER.match(m["msg"])
    if inner:
        return canonical_class(inner["cls"], inner["msg"]), inner["msg"]
    return canonical_class("RuntimeError", m["msg"]), m["msg"]


_CODES = "|".join(STATUS_CODES)
_OLD = "|".join(OLD_STATUS_NAMES)
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


_HTTP_STATUS = {"401": "PERMISSION_DENIED", "403": "PERMISSION_DENIED", "404": "NOT_FOUND"}

BARE_ERRORS: list[BareError] = [
    *ENVIRONMENT_ERRORS,
    BareError(
        "compilation-cache",
        ("compilation cache",),
        re.compile(r"(?P<msg>Error (?:reading|writing) persistent compilation cache entry for .{1,1000})$"),
        "CompilationCacheError",
        "compile_error",
        context=2,
        weak=True,
    ),
    # dynamo's warning that a function hit its recompile limit and runs uncompiled from then on ("torchdynamo hit
    # config.cache_size_limit (64)" in 2022, "torch._dynamo hit config.cache_size_limit (64)", since 2.6 "torch._dynamo
    # hit config.recompile_limit (8)"): a warning the run goes on after; the limit is the run's configuration
    BareError(
        "dynamo-recompile-limit",
        ("hit config.", "hit recompilation cache limit"),  # (its first words, before config named it)
        re.compile(
            r"\b(?:torchdynamo|torch\._dynamo) hit "
            r"(?:config\.(?:cache_size|recompile)_limit|recompilation cache limit)\b"
        ),
        None,
        "compile_error",
        message=lambda m: "torch._dynamo hit config.recompile_limit",
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
        line_kind,
        context=12,
    ),
    # a Python exception line without its traceback (an excerpt, a logged error, one quoted whole or in backticks,
    # TensorFlow 1's "ResourceExhaustedError (see above for traceback): ...", a status class: not the classes that say
    # nothing of one, whose message is read), or the exception's repr as TensorFlow prints one ("<ResourceExhausted
    # Error: ...>"); a class-named line is read as Python printed it before what its message quotes is looked at
    *SERVICE_ERRORS,
    *MLFLOW_ERRORS,
    *WORKER_POOL_ERRORS,
    *CI_CHECKS,
    *FRONT_END_REPORTS,
    *AZURE_ERRORS,
    # Google Cloud's API errors as its clients print them (cloud_apis.py): a Python client's line before Python's
    *model_servers.MODEL_SERVER_ERRORS,  # (TorchServe's JSON before a cloud API's)
    *ELASTIC_RECORDS,
    *grpc_words.GRPC_ERRORS,
    *CREDENTIAL_ERRORS,  # (an action's or gcloud's words for a token refused, before the body's)
    *CLOUD_API_ERRORS,
    BareError(
        "python-exception",
        (
            "Error:",
            "Exception: ",
            "Error(",
            "Error_",
            "Interrupt",
            "Exit: ",
            "StackTrace: ",
            "for traceback): ",
            "Error :",
            "Exception :",
            "jax._src.",
            "ArrowInvalid: ",
            "Violation: ",
            "Warning: ",
            "[ONNXRuntimeError]",
            "InconclusiveDimensionOperation: ",
            "Flaky: ",
            "DeadlineExceeded: ",
            "FailedHealthCheck: ",
            "NotFound: ",
            "DeprecatedEnv: ",
            "VersionConflict: ",
            ".exceptions.",
            ".errors.",
            ".error.",
            ".exc.",
            "]: ",
        ),
        re.compile(
            # (the exception jax's source trace carries after its own name; pdb's post-mortem's after "*** "; pip's the
            # one that stopped an install: installs.py)
            # (a JavaScript logger's symbol and level before it: "✖  fatal     HttpError: Bad credentials")
            r"^(?:[^\x00-\x7f]{1,20}[：:]\s?|\*\*\* |\[(?i:bug)\] (?:[A-Z]{1,8}: )?|"  # (a title's tag)
            r"[^\x00-\x7f]{1,3}\s{1,8}(?:fatal|error)\s{1,12})?"
            r"(?:[\w.]{0,60}JaxStackTraceBeforeTransformation: )?"
            r"(?P<lt><)?(?P<q>[\"`])?(?!nccl|cuda|CUDA)"
            # (Python's bare "Exception: ..." too; a class jax names by its module whatever its name, "jax._src.export.
            # shape_poly.InconclusiveDimensionOperation: ...", and without it; pynvml's by NVML's code, "NVMLError_...")
            r"(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error(?:_[A-Z][A-Za-z]{1,60})?|Exception|Interrupt|Exit|StackTrace)|Exception|"
            r"jax\._src\.[\w.]{1,200}\.[A-Z]\w{1,100}|InconclusiveDimensionOperation|"
            r"(?:pyarrow\.lib\.)?ArrowInvalid|(?:[\w.]{0,60}\.)?[A-Z]\w{0,80}Violation|"  # (pyarrow's, beartype's)
            r"(?:pytest\.)?Pytest\w{1,60}Warning|"  # (pytest's deprecation raised as an error under -W error)
            # (and ONNX Runtime's, from its pybind11 module)
            r"(?:onnxruntime\.capi\.onnxruntime_pybind11_state\.)?[A-Z][A-Za-z]{1,40}(?=: \[ONNXRuntimeError\])|"
            r"(?:hypothesis\.errors\.)?(?:Flaky|DeadlineExceeded|FailedHealthCheck)|"  # (Hypothesis' own names)
            # (gym's and gymnasium's registry's, pkg_resources' at a script's start, without their modules)
            r"(?:gym(?:nasium)?\.error\.)?(?:NamespaceNotFound|NameNotFound|DeprecatedEnv|VersionNotFound)|"
            r"(?:[\w.]{0,60}pkg_resources\.)?(?:DistributionNotFound|(?:Contextual)?VersionConflict)|"
            # (a class of any name in a library's exceptions module: "neptune.exceptions.MissingApiToken: ...",
            # "torch._dynamo.exc.Unsupported: ..."; not jax's SimplifiedTraceback, which only says it left frames out)
            r"[a-z_]\w{0,60}(?:\.[a-z_]\w{0,60}){0,6}\.(?:exceptions?|errors?|exc)\.[A-Z]\w{1,100}(?<!Traceback))"
            # (Node.js prints an error's name after its constructor's: "RequestError [HttpError]: Bad credentials")
            r"(?:\([\w.]{1,100}\)| \[(?P<named>[A-Z]\w{1,60}(?:Error|Exception))\]|"
            r"(?<!UnknownError)(?<!InternalError)(?<!CancelledError)(?<!NotFoundError)"
            # (a post may lose the space after the colon, "RuntimeError:CUDA out of memory", or be translated into a
            # language that puts one before it, "MlflowException : la demande d'API ...")
            r" \(see above for traceback\))?[ \u00a0\u202f]?:(?: |(?=[A-Z]))(?P<msg>.{1,2000}?)(?(lt)>)(?(q)[\"`]\.?)$"
        ),
        lambda m: _unwrapped(m)[0],
        line_kind,
        message=lambda m: _unwrapped(m)[1],
        context=12,
    ),
    quoting.CODE_SPAN_CLASS,
    quoting.CLASS_REPR,
    quoting.RAISE_LINE,
    # a request over the network that failed on the way (network.py), where no class was printed before it
    *NETWORK_ERRORS,
    *HTTP_CLIENT_ERRORS,  # (an HTTP client's response cut short: http_clients.py)
    # a file the disk or the file system refused (storage.py), where no class was printed before it
    *STORAGE_ERRORS,
    # Hugging Face's refusals and libraries beside the framework (hub.py, companions.py), posted without their class
    *HUB_ERRORS,
    *ONNX_ERRORS,  # (ONNX's converters and runtimes: onnx_runtime.py)
    *COMPANION_ERRORS,
    *STACK_ERRORS,  # (the libraries around a training step: stacks.py)
    *pytrees.PYTREE_ERRORS,
    *xla_lines.XLA_LINES,
    # an exception's repr, as a logger or a returned error prints it: 'ValueError("User-provided restore item and
    # on-disk value metadata tree structures do not match:\nalg_cfg: ...")' (its message to its first escaped line)
    BareError(
        "exception-repr",
        ('Error("', "Error('", 'Exception("', "Exception('"),
        re.compile(
            # (or inside a sentence, whole, between its emphasis: 'the error: _AssertionError("No examples were
            # yielded.")_ is thrown'; not a statement that raises it, a traceback's source line, nor one of the errors a
            # message lists after what raised each: "<function _gather_with_batch_dims at 0x7f...>: ValueError('...')")
            r"(?:^|(?<=[\s`_*])(?<!raise )(?<!>: )"
            r"(?=[A-Z][\w.]{0,200}(?:Error|Exception)\([\"'][^\"'\n]{1,2000}[\"']\)))"
            r"(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception))\((?P<q>[\"'])(?P<msg>(?:(?!\\n|(?P=q)\)).){1,2000})"
        ),
        lambda m: canonical_class(m["cls"], m["msg"]),
        line_kind,
        message=lambda m: m["msg"],
    ),
    *WORDS,
    # an exception raised with a message that starts on a new line ("RuntimeError: " and, below it, "As of JAX
    # 0.4.0, JAX only supports TPU VMs, not the older Colab TPUs."): the message is the lines after it
    BareError(
        "python-exception-below",
        ("Error:", "Exception:", "FailedHealthCheck:", "Flaky:"),  # (and Hypothesis', which end in neither)
        re.compile(rf"^(?P<cls>[A-Za-z_][\w.]{{0,200}}(?:Error|Exception)|Exception|{_HYPOTHESIS_CLASSES}):$"),
        lambda m: canonical_class(m["cls"]),
        line_kind,
        message=lambda m: "",
        context=4,
    ),
    *DEPRECATIONS,
    *CONFIG_ERRORS,
    *PROCESS_DEATHS,
    *process_groups.NCCL_WATCHDOG,
    # Colab's tpu_driver (2020-2023) that cannot reach its TPU host, gRPC's status by number ("4: Deadline
    # Exceeded"): the status of that code (gRPC numbers them in STATUS_CODES' order, from 1)
    BareError(
        "grpc-driver",
        ("gRPC driver: ",),
        re.compile(r"Failed to open the gRPC driver: (?P<code>1[0-6]|[1-9]): "),
        "XlaRuntimeError",
        _status_kind,
        message=lambda m: f"{STATUS_CODES[int(m['code']) - 1]}: Failed to open the gRPC driver",
    ),
    # "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ...", a glog "... failed: INTERNAL: ...",
    # a line that is only a status, or how older releases spelled it ("failed: Resource exhausted: ")
    BareError(
        "xla-status",
        (*(f"{c}: " for c in STATUS_CODES), *(f"{c}: " for c in OLD_STATUS_NAMES)),
        re.compile(
            # (TensorFlow numbers the statuses of a step's failed ops: "  (0) Invalid argument: ...", and its op
            # kernels log one after their glog source line: "W .../op_kernel.cc:1192] Out of range: End of sequence")
            rf"(?P<msg>(?:\b(?:{_CODES})|(?:^|(?<=failed: )|(?<=Error: )|(?<=handling error )|(?<=\(\d\) )|(?<=\d\] ))"
            rf"(?:{_OLD})): .{{1,2000}})$"
        ),
        _status_class,
        _status_kind,
        context=12,
    ),
    # XLA:TPU's compiler out of a memory space, as 2019's TensorFlow printed it: "Compilation failure: Ran
    # out of memory in memory space vmem." (later releases raise it as RESOURCE_EXHAUSTED, read above), or giving
    # up before it runs out ("Aborting compilation early because it's unlikely to have enough memory. Requires ...")
    # (XLA's sentence after it, "It should not be possible to run out of vmem - please file a bug against XLA.",
    # names it where a post quotes that alone, as a title)
    BareError(
        "memory-space",
        ("Ran out of memory in memory space", "It should not be possible to run out of ", "Aborting compilation early"),
        re.compile(
            r"(?P<msg>(?:Ran out of memory in memory space `?\w{1,20}\b`?|"
            r"Aborting compilation early because it's unlikely to have enough memory).{0,1000})$|"
            r"It should not be possible to run out of (?P<space>\w{1,20}) - please"
        ),
        "XlaRuntimeError",
        "compile_error",
        message=lambda m: (
            "RESOURCE_EXHAUSTED: " + (m["msg"] if m["msg"] else f"Ran out of memory in memory space {m['space']}")
        ),
        context=6,
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
    *DEVICE_ERRORS,
    # TensorFlow's GCS file system refused by the storage service, the status (TensorFlow 1's "Permission denied: ",
    # or none) before it: the status its code maps to (401 and 403: PERMISSION_DENIED, 404: NOT_FOUND), the response
    # body on the lines after it
    BareError(
        "gcs-http",
        ("Error executing an HTTP request",),
        re.compile(r"(?P<msg>Error executing an HTTP request: HTTP response code (?P<code>\d{3}) with body.{0,2000})$"),
        "XlaRuntimeError",
        message=lambda m: f"{_HTTP_STATUS.get(m['code'], 'UNKNOWN')}: {m['msg']}",
        context=14,
    ),
    # mixed precision's loss scaler skipping a step on an overflow, a warning the run goes on after (apex: "Gradient
    # overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0"; DeepSpeed: "[deepspeed] OVERFLOW! Rank 0
    # Skipping step. Attempted loss scale: 2048, reducing to 1024"): whose scaler, not the scale it reached
    BareError(
        "loss-scale",
        ("Skipping step",),
        # (DeepSpeed's 2021 words: "[Rank 0] Overflow detected. Skipping step. Attempted loss scale: 1, reducing to 1")
        re.compile(
            r"(?P<apex>Gradient overflow\.\s{1,2}Skipping step)|(?P<ds>OVERFLOW! Rank \d{1,6} Skipping step|"
            r"Overflow detected\. Skipping step\. Attempted loss scale)"
        ),
        None,
        "nan",
        message=lambda m: (
            "gradient overflow: skipping the step, reducing the loss scale" + (" (DeepSpeed)" if m["ds"] else " (apex)")
        ),
        weak=True,
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
    # torch_xla's multiprocessing names the device whose process raised, before that process's traceback:
    # "Exception in device=TPU:6: Aborted: Session 9d9f16636571817e is not found." (a RuntimeError's message);
    # a status or a class only, and read after every other recogniser has had the line
    BareError(
        "xla-device-exception",
        ("Exception in device=",),
        re.compile(
            # (XRT's mesh service naming its source first: "mesh_service.cc:243 : Failed to meet rendezvous 'init'")
            r"^Exception in device=\w{1,10}:\d{1,5}: (?:\S{1,300}\.cc:\d{1,6} : (?=Failed to meet rendezvous ))?"
            r"(?P<msg>(?:[A-Z][a-z]{2,20}(?: [a-z]{2,20})?|[A-Za-z_][\w.]{0,200}(?:Error|Exception)): .{1,2000}"
            r"|Failed to meet rendezvous .{1,1000})$"
        ),
        lambda m: _device_exception(m)[0],
        line_kind,
        message=lambda m: _device_exception(m)[1],
    ),
    *xla_autotuning.XLA_QUOTED,
]
# every recogniser but the environment mismatches that stop a program (looking back for one)
NOT_ENVIRONMENT = frozenset(b.name for b in BARE_ERRORS if b not in ENVIRONMENT_ERRORS or b.weak)
