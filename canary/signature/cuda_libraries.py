"""CUDA's math libraries as PyTorch and XLA report their failures: cuSOLVER's and cuFFT's statuses. Pure.

PyTorch names a cuSOLVER status by its name ("cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when calling
`cusolverDnCreate(handle)`") or, in some releases, by its number ("cusolver error: 7, ..."), with or without the comma
and the backticks, and later with advice after it ("... If you keep seeing this error, you may use
`torch.backends.cuda.preferred_linalg_library()` ..."): the status and the call are the failure. A log may print the
check's words without their class (ComfyUI's "Error during sampling: cusolver error: ...", a post's prose): they are
PyTorch's `RuntimeError`. XLA's cuFFT aborts the process when it cannot make a batched plan, saying why after its
words ("failed to initialize batched cufft plan with customized allocator: Failed to create cuFFT batched plan.", or
"...: Allocating 8000000160 bytes exceeds the memory limit of 4294967296 bytes."): why is the failure, the sizes the
program's. PyTorch checks the cuDNN it loads against the one it was built with, by release: 0.4's "cuDNN version
mismatch: PyTorch was compiled against 7102 but linked against 7600", 1.0's "cuDNN version incompatibility: ... 7401
but linked against 7301", later "... compiled against (8, 5, 0) but found runtime version (8, 3, 3). PyTorch already
comes bundled with cuDNN. ...": that the cuDNN found is older (or newer) than the build's is the failure, the versions
the machine's. Its cuDNN statuses ("cuDNN error: CUDNN_STATUS_EXECUTION_FAILED") and its cuDNN v8 API finding no engine
for a convolution ("GET was unable to find an engine to execute this computation", FIND when benchmarking) are read
without their class too.
bitsandbytes' kernels print CUDA's words where their check fails ("Error no kernel image is available for execution on
the device at line 167 in file D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu"): the words; a source's line is masked,
as every source line is. TensorFlow's op finding no cuDNN ("DNN library is not found.") is the machine's.
"""

from __future__ import annotations

import re

from canary.signature.environment import direction
from canary.signature.kinds import line_kind
from canary.signature.masks import numbers_masked
from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

# cusolverStatus_t's values, in cusolver_common.h's order
_CUSOLVER_NAMES = (
    "SUCCESS",
    "NOT_INITIALIZED",
    "ALLOC_FAILED",
    "INVALID_VALUE",
    "ARCH_MISMATCH",
    "MAPPING_ERROR",
    "EXECUTION_FAILED",
    "INTERNAL_ERROR",
    "MATRIX_TYPE_NOT_SUPPORTED",
    "NOT_SUPPORTED",
)
_CUSOLVER_NUMBER = re.compile(r"\bcusolver error: ([1-9])\b")
# (the call as PyTorch quotes it, before advice: "..., when calling `cusolverDnCreate(handle)`. If you keep ...")
_CUSOLVER_CALL = re.compile(
    r"\b(cusolver error: CUSOLVER_STATUS_\w{1,40}),? when calling `?(\w{1,60}\((?:[^()`]|\([^()`]{0,100}\)){0,600}\))`?"
    r"(?:\.? If you keep seeing this error\b.*)?$"
)
# (cuBLAS's status and its call, PyTorch's words, with a post's own run on after the call; a cuDNN status with a post's
# line joined after it: "cuDNN error: CUDNN_STATUS_NOT_INITIALIZED cuda9.0 pytorch1.1.0")
_CUBLAS_CALL = re.compile(
    r"\b(CUDA error: CUBLAS_STATUS_\w{1,40}),? when calling `?(\w{1,60}\((?:[^()`]|\([^()`]{0,100}\)){0,600}\))`?.*$"
)
_CUDNN_TAIL = re.compile(r"^(cuDNN error: CUDNN_STATUS_[A-Z_]{2,40}) \S.*$")
# (a release's check site after a cuFFT status: "cuFFT error: CUFFT_INVALID_PLAN (CUFFT_CHECK at /x/CuFFTUtils.h:70)")
_CUFFT_SITE = re.compile(r"\b(cuFFT error: CUFFT_\w{1,40}) \(CUFFT_CHECK at \S{1,300}\)$")


def cusolver_status(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``cusolver-status`` rule: a cuSOLVER status by its name, its call as PyTorch quotes it without advice; a
    cuFFT status without the check site; a cuBLAS status and its call, a cuDNN status, without what a post ran on."""
    if "cusolver error: " in message:
        message = _CUSOLVER_NUMBER.sub(
            lambda m: f"cusolver error: CUSOLVER_STATUS_{_CUSOLVER_NAMES[int(m[1])]}", message
        )
        message = _CUSOLVER_CALL.sub(r"\1, when calling `\2`", message)
    elif "(CUFFT_CHECK at " in message:
        message = _CUFFT_SITE.sub(r"\1", message)
    elif "CUBLAS_STATUS_" in message:
        message = _CUBLAS_CALL.sub(r"\1 when calling `\2`", message)
    elif message.startswith("cuDNN error: "):
        message = _CUDNN_TAIL.sub(r"\1", message)
    return exc, message, frames


_CUDNN_CHECK = re.compile(
    r"^cuDNN version (?:incompatibility|mismatch): PyTorch was compiled\s{1,4}against "
    r"(?P<built>\([\d, ]{1,20}\)|\d{4,6}) but (?:found runtime version|linked against) "
    r"(?P<found>\([\d, ]{1,20}\)|\d{4,6})(?!\d).*$"
)


def cudnn_version(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``torch-cudnn`` rule: PyTorch's check of the cuDNN it loads by which way it differs from the build's."""
    m = _CUDNN_CHECK.match(message) if message.startswith("cuDNN version ") else None
    if m:
        found, built = (m[k].strip("()").replace(", ", ".") for k in ("found", "built"))
        way = direction(found, built)
        message = f"cuDNN version incompatibility: the cuDNN found is {way} than the one PyTorch was compiled against"
    return exc, message, frames


CUDA_LIBRARY_ERRORS: list[BareError] = [
    BareError(
        "torch-cuda-library",
        ("cusolver error: ", "cuFFT error: ", "cuDNN error: ", "was unable to find an engine"),
        re.compile(
            r"(?<![\w.])(?P<msg>cusolver error: (?:CUSOLVER_STATUS_\w{1,40}|[1-9])\b.{0,1000}|"
            r"(?:GET|FIND) was unable to find an engine to execute this computation|"
            r"cuFFT error: CUFFT_[A-Z_]{2,40}|"
            r"cuDNN error: CUDNN_STATUS_[A-Z_]{2,40}"
            r"(?:\. This error may appear if you passed in a non-contiguous input)?)"
        ),
        "RuntimeError",
    ),
    BareError(
        "bitsandbytes-cuda",
        (" in file ",),
        re.compile(r"\bError (?P<words>[a-z][\w ]{2,100}?) at line \d{1,6} in file \S{0,300}\bcsrc[/\\]\w{1,40}\.cu$"),
        None,
        line_kind,
        message=lambda m: f"bitsandbytes: CUDA error: {m['words']}",
    ),
    BareError(
        "xla-cufft-plan",
        ("failed to initialize batched cufft plan",),
        re.compile(r"failed to initialize batched cufft plan with customized allocator: (?P<why>.{1,300}?)\.?$"),
        "SIGABRT",
        message=lambda m: f"failed to initialize batched cufft plan: {numbers_masked(m['why'])}",
    ),
    # MIOpen, ROCm's DNN library, logging the check that failed before the framework's error ("MIOpen Error:
    # /x/src/ocl/convolutionocl.cpp:658: No invoker was registered for convolution forward. Was find executed?"), alone
    # in a post or after a progress bar: which check, not where MIOpen's source was built
    BareError(
        "miopen-error",
        ("MIOpen Error: ",),
        re.compile(r"MIOpen Error: \S{1,400}?:\d{1,6}: (?P<msg>[A-Z].{3,300}?)\s*$"),
        "RuntimeError",
        message=lambda m: f"MIOpen Error: {m['msg']}",
    ),
    # TensorFlow's op without cuDNN, its words alone on a line above the op's node ("DNN library is not found." above
    # "[[{{node model/conv2d/Conv2D}}]] [Op:__inference_train_function_1081]"), posted without the UnimplementedError
    # around them: the machine's cuDNN (jaxlib's same words come after its status)
    BareError(
        "tf-dnn-missing",
        ("DNN library is not found",),
        re.compile(r"^\"?DNN library is not found\.?$"),
        None,
        "environment",
        message=lambda m: "TensorFlow: DNN library is not found",
    ),
]
