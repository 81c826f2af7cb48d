"""The folding rules of native extensions' checks and the runner's own disk: pybind11's check of the Python a module
was built for in two releases' words, CuPy's search for CUDA by release, a compiler's missing header in gcc's, clang's
and MSVC's words, PyTorch's internal assert by its file from its source tree down, NCCL's duplicate GPU by no rank,
TensorFlow's allocation error by the driver's code, protobuf's duplicate file by its name, and .NET's IOException on a
full disk by no path. Pure. They take their place, in this order, in :data:`canary.signature.word_folds.WORD_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts, Rule, rewrite

# pybind11's refusal of a module built for another Python, without either version
pybind_python = rewrite(
    "Python version mismatch: ",
    re.compile(
        r"^Python version mismatch: module was compiled for (?:Python |version )\d[\d.]{0,10}(?:, while the "
        r"interpreter is running version|, but the interpreter version is incompatible:) .*$"
    ),
    "Python version mismatch: module was compiled for another Python than the interpreter's",
)
# CuPy's failed search for CUDA without the advice that follows it (which releases it names is its own)
cupy_root = rewrite(
    "Failed to auto-detect CUDA root directory.",
    re.compile(r"^(Failed to auto-detect CUDA root directory)\..*$"),
    r"\1",
)


# (gcc: "fatal error: longintrepr.h: No such file or directory"; clang: "fatal error: 'longintrepr.h' file not found";
# MSVC: "fatal error C1083: Cannot open include file: 'longintrepr.h': No such file or directory")
_HEADER = re.compile(
    r"^fatal error(?: C1083: Cannot open include file)?: '(?P<h>[\w./+-]{1,100}\.h(?:pp)?)'(?:: No such file or "
    r"directory| file not found)$"
)


def c_header(exc: str | None, message: str, frames: list[str]) -> Parts:
    """A header the compiler did not find, in gcc's words whichever compiler said it."""
    if message.startswith("fatal error") and (m := _HEADER.match(message)):
        message = f"fatal error: {m['h']}: No such file or directory"
    return exc, message, frames


# .NET's IOException on a full disk (the Actions runner writing its own log) without the file it was writing
dotnet_no_space = rewrite("No space left on device : '", re.compile(r"^(No space left on device) : '.*$"), r"\1")


# PyTorch's internal assert names its source file as the build saw it ('"../c10/cuda/CUDACachingAllocator.cpp":830',
# '"/opt/builds/pytorch/c10/cuda/..."'): the tree the build ran in is the builder's, the file from c10, aten or torch on
torch_assert_source = rewrite(
    ' INTERNAL ASSERT FAILED at "',
    re.compile(r'( INTERNAL ASSERT FAILED at ")[^"]{0,300}?/(?=(?:c10|aten|torch)/)'),
    r"\1",
)


# NCCL's check that every rank has a GPU of its own ("Duplicate GPU detected : rank 1 and rank 3 both on CUDA device
# a000", 2.19's spacing, posted as the last error under the invalid usage it returns), in its warning's words
nccl_duplicate_gpu = rewrite(
    "Duplicate GPU detected",
    re.compile(r"^(?:NCCL WARN |ncclInvalidUsage: (?:Last error: )?)?Duplicate GPU detected ?: rank .*$"),
    "NCCL WARN Duplicate GPU detected: two ranks on one CUDA device",
)


# TensorFlow's allocator naming the CUDA driver's error by its code, which later releases follow with the driver's own
# words for it ("failed to allocate ... from device: CUDA_ERROR_OUT_OF_MEMORY", then "...: out of memory")
cuda_driver_words = rewrite(
    "failed to allocate ",
    re.compile(r"^(failed to allocate [\w ]{1,60}: CUDA_ERROR_[A-Z_]{2,60}): [a-z][a-z ]{2,80}$"),
    r"\1",
)
# protobuf's descriptor pool naming a file it already holds, by release with and without parentheses around the name
proto_duplicate = rewrite(
    "duplicate file name (", re.compile(r"duplicate file name \(([\w./-]{1,200})\)"), r"duplicate file name \1"
)


# xFormers' window of flash-attn releases and the release it got ("Requires Flash-Attention version >=2.7.1,<=2.7.4 but
# got 2.8.0.post2"), each xFormers release its own window
flash_window = rewrite(
    "Requires Flash-Attention version ",
    re.compile(r"^(Requires Flash-Attention version) \S{1,60} (but got) [\w.+]{1,40}?\.?$"),
    r"\1 <range> \2 <version>",
)
# bitsandbytes' library for the ROCm or CUDA release it was configured for ("Configured ROCm binary not found at
# bitsandbytes/libbitsandbytes_rocm84.so", ".dll" on Windows), and whatever a post ran on after it
bnb_binary = rewrite(
    "binary not found at ",
    re.compile(
        r"^(Configured (?:ROCm|CUDA) binary not found at \S{0,300}?libbitsandbytes_[a-z]{1,10})\d{1,4}\.\w{1,6}\b.*$"
    ),
    r"\1<n>",
)


# torchvision's warning of its image extension by release: the loader's words, then (later) quoted and followed by
# advice ("Failed to load image Python extension: 'Could not find module ... syntax.'If you don't plan on using ...")
image_extension = rewrite(
    "Failed to load image Python extension: ",
    re.compile(
        r"^(Failed to load image Python extension: )'?(.{1,500}?)\.?'?(?:If you don't plan on using image\b.*)?$"
    ),
    r"\1\2",
)


# safetensors' header errors by release: the enum's names ("HeaderTooLarge", "InvalidHeaderDeserialization") and later
# lower-case words ("header too large", "invalid JSON in header: EOF while parsing a value at line 1 column 0")
_SAFETENSORS = re.compile(
    r"(?<=deserializing header: )(?:(?P<large>header too large)|(?P<small>header too small)|(?P<json>invalid JSON in "
    r"header)(?:: .*)?|(?P<meta>incomplete metadata, file not fully covered))$"
)
_SAFETENSORS_NAMES = {
    "large": "HeaderTooLarge",
    "small": "HeaderTooSmall",
    "json": "InvalidHeaderDeserialization",
    "meta": "MetadataIncompleteBuffer",
}


def safetensors_header(exc: str | None, message: str, frames: list[str]) -> Parts:
    """safetensors' header errors in the enum's names, whichever release's words."""
    if "deserializing header: " in message and (m := _SAFETENSORS.search(message)):
        message = message[: m.start()] + _SAFETENSORS_NAMES[m.lastgroup]
    return exc, message, frames


# safetensors refusing to save tensors by which ("Some tensors share memory, ...: [{'lm_head.weight', ...}]", "You are
# trying to save a non contiguous tensor: `bert...query.weight` which is not allowed"): the model's names
saved_tensors = rewrite(
    " tensor",
    re.compile(
        r"^(Some tensors share memory, this will lead to duplicate memory on disk)\b.*$|"
        r"^(You are trying to save a non contiguous tensor): `[^`]{1,300}`.*$"
    ),
    r"\1\2",
)


NATIVE_RULES: tuple[Rule, ...] = (
    Rule(
        "pybind-python",
        "pybind11 refuses a module built for another Python in two releases' words ('module was compiled for version "
        "3.6, while the interpreter is running version 3.7.', 'compiled for Python 3.5, but the interpreter version is "
        "incompatible: 3.6.5 (default, ...)'): one check, the versions are the machine's",
        pybind_python,
    ),
    Rule(
        "cupy-root",
        "CuPy's 'Failed to auto-detect CUDA root directory.' goes on with advice naming the CUDA releases it does not "
        "know (2019's 'CUDA v9.0, v9.1 or versions not yet supported', later 'CUDA versions not yet supported'): the "
        "search that failed is the failure",
        cupy_root,
    ),
    Rule(
        "c-header",
        "a compiler that did not find a header says so in its own words (gcc's 'fatal error: x.h: No such file or "
        "directory', clang's \"fatal error: 'x.h' file not found\", MSVC's 'fatal error C1083: Cannot open include "
        "file'): which header is the failure, the compiler the machine's",
        c_header,
    ),
    Rule(
        "dotnet-no-space",
        "the Actions runner's IOException on a full disk names the log it was writing ('No space left on device : "
        "'/home/runner/runners/2.319.1/_diag/Worker_...log'): the runner's release and the log's time are the run's",
        dotnet_no_space,
    ),
    Rule(
        "torch-assert-source",
        "PyTorch's failed internal assert names its source file under the tree its build ran in ('../c10/cuda/...', "
        "'/opt/builds/pytorch/c10/cuda/...'): the builder's tree is not the failure, the file and line are",
        torch_assert_source,
    ),
    Rule(
        "nccl-duplicate-gpu",
        "NCCL names the two ranks and the device's bus id when two ranks of a job share a GPU, as its warning line or "
        "as the last error under the invalid usage it returns, with or without a space before the colon: which ranks "
        "and which device are the job's",
        nccl_duplicate_gpu,
    ),
    Rule(
        "cuda-driver-words",
        "TensorFlow's allocator names the CUDA driver's error by its code, later releases with the driver's words for "
        "it after ('... from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory'): the code is the failure",
        cuda_driver_words,
    ),
    Rule(
        "proto-duplicate",
        "protobuf's descriptor pool names a file it already holds with parentheses around the name in some releases "
        "('duplicate file name (sentencepiece_model.proto)') and without in others: one check",
        proto_duplicate,
    ),
    Rule(
        "flash-window",
        "xFormers refuses the flash-attn installed by the window of releases it accepts and the one it got, each "
        "release its own window ('Requires Flash-Attention version >=2.7.1,<=2.7.4 but got 2.8.0.post2'): one check",
        flash_window,
    ),
    Rule(
        "bnb-binary",
        "bitsandbytes names the library it was configured for by the ROCm or CUDA release and the platform's suffix "
        "('Configured ROCm binary not found at bitsandbytes/libbitsandbytes_rocm84.so', '..._rocm72.dll'): one check",
        bnb_binary,
    ),
    Rule(
        "image-extension",
        "torchvision warns that its image extension did not load in the loader's words, later quoted and followed by "
        "advice on whether to ignore it: the loader's words are the failure",
        image_extension,
    ),
    Rule(
        "safetensors-header",
        "safetensors names its header errors by its enum ('HeaderTooLarge', 'InvalidHeaderDeserialization') and in "
        "later releases in lower-case words ('header too large', 'invalid JSON in header: ...'): one check each",
        safetensors_header,
    ),
    Rule(
        "saved-tensors",
        "safetensors refuses to save shared or non-contiguous tensors by the model's tensor names: the refusal is the "
        "failure",
        saved_tensors,
    ),
)


LIBRARY_LOAD = re.compile(
    r"^.{0,300}?Could not load library (lib[\w+-]{1,60})\.so[\d.]{0,12}\. Error: (?:\S{0,300}/)?"
    r"(?:(lib[\w+-]{1,60})\.so[\d.]{0,12}: )?(.*)$"
)
_LOAD_WHY = (("undefined symbol", "undefined symbol"), (" not defined in file ", "a symbol version not defined"))


def library_load(lib: str, dep: str | None, why: str) -> str:
    """cuDNN 8's loader failing a library it loads at run time, by the library, the one it depends on that failed
    (where the loader names it, by name not path or major) and how: missing, or present without a symbol it needs
    ("undefined symbol: ...", "symbol ..., version ... not defined in file ... with link time reference")."""
    said = next((said for key, said in _LOAD_WHY if key in why), "cannot open shared object file")
    dep = f"{dep}.so: " if dep and dep != lib else ""
    return f"Could not load library {lib.replace('cublaslt', 'cublasLt')}.so: {dep}{said}"
