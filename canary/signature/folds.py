"""The rules that fold one failure's drift across releases into one identity. Pure.

A signature's parts are first taken as they always were (:mod:`~canary.signature.masks`,
:mod:`~canary.signature.tracebacks`); the rules here then fold what a JAX, jaxlib, XLA or NCCL release, a wrapper or a
cut excerpt changes about the same failure. Every rule reads only those parts (class, normalised message, call path), so
a signature recorded before a rule existed can be folded again from its record
(:func:`canary.signature.identity.current`) and land on the same identity as a new one; the fingerprint it had before is
kept beside it (``legacy``). Each rule is stated once, in :data:`RULES`, with the reason it is safe; what most of them
do is in :mod:`~canary.signature.rewordings` (of statuses and messages) and :mod:`~canary.signature.environment` (of
toolchain checks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from canary.signature import (
    arrow_tables,
    call_paths,
    companions,
    environment,
    framework_words,
    grpc_words,
    hub,
    installs,
    kinds,
    network,
    onnx_runtime,
    pythons,
    rewordings,
)
from canary.signature.rewordings import Rule
from canary.signature.stacks import STACK_RULES
from canary.signature.word_folds import WORD_RULES

Parts = rewordings.Parts


# compile_error, runtime_crash and timeout of one exception: which one depends on whether the excerpt shows
# the compile frames, or on a release's words ("heartbeat timeout" for "stopped sending heartbeats")
ERROR_KINDS = ("compile_error", "runtime_crash", "timeout", "environment")


# the subclasses a library's later release raises what it raised as their base class with: of RuntimeError, PyTorch 2.1
# and 2.2 c10d's and NCCL's errors, 2.8 a CUDA or HIP error, 1.13 an operator torch.onnx cannot export, soundfile 0.11
# libsndfile's (the ``dist-class`` rule); of
# TypeError, NumPy 1.25 two DTypes without a common one
SUBCLASSES = {
    "DistBackendError": "RuntimeError",
    "DistNetworkError": "RuntimeError",
    "DistStoreError": "RuntimeError",
    "LibsndfileError": "RuntimeError",
    "AcceleratorError": "RuntimeError",
    "TritonMissing": "RuntimeError",  # (inductor's missing Triton, a RuntimeError until 2.7)
    "UnsupportedOperatorError": "RuntimeError",
    "DTypePromotionError": "TypeError",
}
# Python 3.6's subclass of ImportError for a module not found, which Python 2 and 3.5 raised as ImportError with the
# same words (the ``module-class`` rule)
MODULE_NOT_FOUND = re.compile(r"^No module named ")


# the subclasses of OSError Python raises an OSError with an errno as (``OSError(11, ...)`` is a BlockingIOError), which
# a library raising it with or without the errno, or by its own release, chooses between (the ``errno-class`` rule)
ERRNO_SUBCLASSES = frozenset(
    ("BlockingIOError", "FileExistsError", "FileNotFoundError", "IsADirectoryError", "NotADirectoryError")
)


def class_key(exception: str | None, message: str) -> str | None:
    """The class as the fingerprint knows it, after the ``dist-class``, ``module-class``, ``errno-class`` and
    ``ort-load-class`` rules."""
    if exception == "ImportError" and MODULE_NOT_FOUND.match(message):
        return "ModuleNotFoundError"
    if exception in ERRNO_SUBCLASSES:
        return "OSError"
    if message.startswith(onnx_runtime.LOAD_FAILED):
        return "Fail"
    return SUBCLASSES.get(exception, exception)


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
        "source-words",
        "the line that raised an exception says what older Pythons leave out (the module of a name 3.6 could not "
        "import, of an attribute 2 missed) and a post cut (a raised string): read in (signature.failure) first",
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
        "grpc",
        "grpcio prints a failed call as its class's repr (named _Rendezvous before 1.26) with a debug string of the "
        "call's own and, since 1.48, the address that failed last after its details: the status and the details are "
        "the failure",
        grpc_words.grpc_words,
    ),
    Rule(
        "status-class",
        "JAX re-raises one XLA status error as XlaRuntimeError, JaxRuntimeError, ValueError or "
        "RuntimeError by release and caller, TensorFlow as the class named after its code "
        "(ResourceExhaustedError); the status-coded message is the failure",
        rewordings.status_class,
    ),
    Rule(
        "source-location",
        "some builds prepend where the status was made (XLA's 'nccl_utils.cc:<line>: ', c10's '[enforce fail at "
        "<file>:<line>] data. ', vLLM's 'Error in model execution (input dumped to <file>): '), TensorFlow's its task, "
        "XLA:TPU 'Compilation failure: ', XLA:GPU 'CustomCall failed: '; the words after are it",
        rewordings.source_location,
    ),
    Rule(
        "failed-check",
        "torch_xla raises a failed CHECK as a RuntimeError whose message is the check ('<file>.cc:<line> : Check "
        "failed: ...'), a runtime logs it bare (old protobuf 'CHECK failed'); the check is the failure, as "
        "CheckFailed, and a comparison's values after it ('(500.867 vs. 500.867)') the run's",
        rewordings.failed_check,
    ),
    Rule(
        "coordination",
        "JAX's coordination service rewords its barrier, RegisterTask and heartbeat timeouts "
        "between releases (Barrier_id/Id, counters, the gRPC text), and names a restarted task by path or number; "
        "the barrier or step that timed out is kept",
        rewordings.coordination,
    ),
    Rule(
        "backend",
        "jax raises a backend's failed initialisation as 'Unable to initialize backend ...: <status>' (earlier "
        "'Backend 'x' failed to initialize: ', 'Requested backend x, but it failed to initialize: ') and logs the "
        "bare status otherwise; the status (or the wrapped error, in Python's words) is the failure",
        rewordings.backend,
    ),
    Rule(
        "nccl-status",
        "XLA's 'NCCL operation ... failed' is an INTERNAL status, printed bare by one log and as "
        "'INTERNAL: ...' by another; the call's argument expressions are XLA's source, which releases rewrite",
        kinds.nccl_status,
    ),
    Rule(
        "cuda-runtime",
        "XLA since 2025 says 'CUDA Runtime error: [0] ' before a failed CUDA call and its error code before its "
        "words; PyTorch 1.x 'cuda runtime error (35) : <words> at <file>:<line>', later 'CUDA error: <words>'; "
        "jaxlib's 'cudaGetLastError()' is 'gpuGetLastError()' later: the words are the failure",
        rewordings.cuda_runtime,
    ),
    Rule(
        "nccl-result",
        "NCCL words one result as 'NCCL Error 1: unhandled cuda error' in older releases and "
        "'ncclUnhandledCudaError: Call to CUDA function failed.' in later ones; PyTorch's 'NCCL error in: "
        "<its source>, <result>, NCCL version <v>' names the result among where it was seen and which NCCL",
        kinds.nccl_result,
    ),
    Rule(
        "connection-pool",
        "requests raises urllib3's pool giving up on a host as its cause's class, pip and huggingface_hub print it; "
        "urllib, keras and requests wrap a failed fetch: url, request, path, OpenSSL's build and an errno's number "
        "are the job's, the host (but for a chain no host passes) and the cause the failure",
        network.pool,
    ),
    Rule(
        "hub-loading",
        "transformers words its refusal of a repository's code three ways by release, naming the repository, and "
        "follows a model type, a tokenizer or a file it could not load (a folder by its path) with advice; a KeyError "
        "prints its key's repr: the refusal, the type, the file, the key are the failure",
        hub.hub_words,
    ),
    Rule(
        "hub",
        "transformers names a model it could not find and the directory or file it looked in by the program's names, "
        "remote code's missing packages before a pip command; requests a rate limit by its URL: those are the failure",
        hub.hub_names,
    ),
    Rule(
        "conda-spec",
        "conda lists packages no channel has with the version asked ('- cudatoolkit=11.3'), its solver's conflicts by "
        "release, channels whose terms are unaccepted, 'conda init' quoted or not: the package or check is the failure",
        installs.conda,
    ),
    Rule(
        "scm-path",
        "setuptools-scm names the tree it found no version for ('unable to detect version for /code'): which tree is "
        "the program's, that it has no git metadata the failure",
        installs.scm_path,
    ),
    Rule(
        "companion-libraries",
        "Numba names the NumPy it got and its driver's code, CuPy a library with its wheel's CUDA (libnvrtc.so.12, "
        "nvrtc64_120_0.dll), OpenCV its release and source, tfds a directory's path: which way, library or check are "
        "the failure",
        companions.library_bounds,
    ),
    Rule(
        "arrow-tables",
        "pyarrow names a column's index and lengths, a value it could not convert, an array's size, and words bytes it "
        "expected by release; Spark names a Parquet file, datasets both schemas: which column, conversion or limit is "
        "the failure, the data's values not",
        arrow_tables.arrow_words,
    ),
    *STACK_RULES,
    Rule(
        "onnx",
        "ONNX Runtime names the model's path, its own source and C++ function, a node's name and the providers it has; "
        "torch.onnx the opset the program asked for and advice by release: the status and its words, the operator "
        "and the provider are the failure",
        onnx_runtime.onnx_words,
    ),
    Rule(
        "platform-words",
        "Windows words an error's code in the machine's language and names a DLL or file by path, macOS's loader and "
        "cffi a library by path and Python tag (its colon a semicolon in a program's copy); a codec names a "
        "byte's position, Click advises: the code, file, library, architectures, refusal are it",
        pythons.platform_words,
    ),
    Rule(
        "advice",
        "advice a release adds (NCCL_DEBUG, 'Look at the errors above', JAX_PLATFORMS, uninstalling a plugin, "
        "filing a bug, protobuf's _pb2.py, PyTorch's asynchronous CUDA errors, gensim 4's ways round a removed "
        "attribute), and an NCCL last warning that repeats "
        "the error, say nothing of the failure",
        rewordings.advice,
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
        "'Failed to import X because of the following error ...: <it>', Django REST framework a setting's as 'Could "
        "not import X for API setting Y. <it>'; that error, by Python's words, is the failure",
        kinds.import_wrapper,
    ),
    Rule(
        "mosaic-layout",
        "Mosaic rewords by release: a layout check 'does not match MLIR layout: expected A, got B', then 'XLA "
        "layout (A) does not match Mosaic layout (B)'; 2023's 'Failed to compile a Mosaic module: ... op X' is "
        "'Mosaic failed to compile TPU kernel: X', with ' in this target' or its pass first, any status",
        kinds.mosaic_wording,
    ),
    Rule("device", "which chip of a slice ran out of HBM differs from run to run", rewordings.device),
    Rule(
        "torch-oom",
        "PyTorch words running out of GPU memory by release ('... cached)' in 1.x, '... reserved in total by PyTorch' "
        "with advice later, torch.cuda.OutOfMemoryError's 'GPU 0 has a total capacity of ...' in 2.x); the figures "
        "are the run's: that it ran out is the failure",
        framework_words.torch_oom,
    ),
    Rule(
        "tf-oom",
        "TensorFlow's OOM names the tensor that tipped it by shape, which the batch decides, as jax's names its bytes",
        framework_words.tf_oom,
    ),
    Rule(
        "tf-scatter",
        "TensorFlow words scatter_nd's check of its updates by IXDIM and params_shape in 1.x, by batch_dim and "
        "buffer_shape in 2.x, and names the program's shapes: the check is the failure",
        framework_words.tf_scatter,
    ),
    *WORD_RULES,
    Rule(
        "versions",
        "the versions an environment check names (X.Y.Z in XLA's lines, XXYY integers in jax's, PJRT's "
        "0.54) are the machine's; which check failed, and which way, is the failure",
        environment.versions,
    ),
    Rule(
        "elision",
        "a reporter who cuts a message ('[...]', '(...)', '<snip>') keeps its head; what is left after the "
        "cut is a fragment, so the message ends where the cut begins",
        rewordings.elision,
    ),
    Rule(
        "detail",
        "what XLA appends after naming a failure (task lists, gRPC payloads, OOM debugging, advice) "
        "is cut anywhere by excerpts; the head before it, and the service call a gRPC error names, identify it",
        rewordings.detail,
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
        "ort-load-class",
        "ONNX Runtime raises a model it could not load as Fail from a path and InvalidArgument from bytes, and its "
        "training API relays it as RuntimeError: one failure, whichever entry point loaded the model; the fingerprint "
        "knows them as Fail",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "dist-class",
        "PyTorch 2.1 raises c10d's and NCCL's errors as DistBackendError, DistNetworkError, DistStoreError, 2.8 a "
        "CUDA error as AcceleratorError, torch.onnx 1.13 UnsupportedOperatorError, soundfile LibsndfileError: "
        "subclasses of the RuntimeError older releases raised, known as RuntimeError",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "module-class",
        "Python 3.6 raises a module not found as ModuleNotFoundError, a subclass of the ImportError Python 2 and 3.5 "
        "raised with the same words ('No module named x'): the fingerprint knows both as ModuleNotFoundError",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "errno-class",
        "Python raises an OSError with an errno as that errno's subclass (BlockingIOError for EAGAIN); a library that "
        "raises it with or without the errno, or by release (h5py 2 and 3), chooses between them: the fingerprint "
        "knows them as OSError (the signature still names the subclass)",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "cloud-class",
        "Google Cloud's clients raise one refusal of the service by their own classes (BadRequest, "
        "GoogleJsonResponseException, RateLimitError, an Error, none) and print its status, imply it by the class or "
        "leave it below: the fingerprint knows the service's message alone (the signature still names both)",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "program-frames",
        "one failure met from two programs, with or without its traceback, is one: NAMING_WORDS words, pickle's "
        "protocol, refused credentials, a name a module or class it names lacks need no call path; a crash, OOM, a "
        "missing attribute or module, bad JSON, a program's own mistake are told by where met",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "import-location",
        "where Python found the module a name could not be imported from ('(/x/jax/config.py)') is the machine's, a "
        "post may cut it or a quote; Python 2 names it unquoted, 3.6 a program not run twice; output may run on; "
        "tempfile lists the directories tried: the name is the failure",
        pythons.import_location,
    ),
    Rule(
        "pickle-words",
        "pickle refuses an object in 3.7's words ('can't pickle X objects'), 3.8's ('cannot pickle 'X' object') and "
        "3.14's with notes on where it met it: which type could not be pickled is the failure",
        pythons.pickle_words,
    ),
    Rule(
        "full-stop",
        "a message ends its last sentence with a full stop in one release and not in another, a post doubles or drops "
        "it, or a cut falls just after it (or after the colon of details a post leaves out); how it ends says nothing",
        rewordings.full_stop,
    ),
    Rule(
        "frames",
        "a call path names files relative to their package root with '..' resolved (and, in the "
        "fingerprint, by file name outside a package), so a checkout's location does not matter",
        call_paths.resolved_frames,
    ),
)


def fold(exception: str | None, message: str, frames: Sequence[str]) -> Parts:
    """The parts of a signature with every rule applied (idempotent)."""
    parts: Parts = (exception, message, list(frames))
    for rule in RULES:
        parts = rule.apply(*parts)
    return parts
