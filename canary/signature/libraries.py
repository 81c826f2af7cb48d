"""The rewordings of what the libraries around a training step name of the run: tensorstore's checkpoint
files and its detail, gin's configurable, the dynamic loader's extension, what an extension built for another CUDA or
torch lists after its check, c10d's port in use and c10's warning's function, TPUEstimator's replica counts, Habana's
status typo, a retyped NaN, PaddlePaddle's CUDA statuses. The tools
around a training run (a compiler's wrapper, a test runner, a config validator, data sets) are in
:mod:`~canary.signature.toolkits`. Pure. Each is stated once, with the reason it is safe, in
:data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts, rewrite

# an extension built for another CUDA or torch names its check in its first sentence and, after it, what is
# unavailable, what to run or what to match, which its releases reword (bitsandbytes' "... compiled without GPU
# support. 8-bit optimizers and GPU quantization are unavailable.", later "8-bit optimizers, 8-bit multiplication,
# and GPU quantization ..."; "CUDA Setup failed despite GPU being available. Inspect the CUDA SETUP outputs above ...",
# later "Please run the following command ..."; xformers' "xFormers was built for: PyTorch 2.1.2+cu121 ..."); torch's
# cpp_extension names the CUDA it found and the one torch was built with, the machine's, on lines a post breaks anywhere
_EXTENSION_HEAD = re.compile(
    r"(The installed version of bitsandbytes was compiled without GPU support|"
    r"CUDA Setup failed despite GPU being available|xFormers can't load C\+\+/CUDA extensions)\b"
)
_TORCH_CUDA = re.compile(
    r"The detected CUDA version \(\S{1,20}\) mismatches the version that was used to compile\s{1,40}PyTorch "
    r"\(\S{1,20}\)\.?(?: Please make sure to use the same CUDA versions\.?)?"
)

_TORCH_CUDA_WORDS = "The detected CUDA version mismatches the version that was used to compile PyTorch"


# torch's extension builder names its build directory by the Python and CUDA it built for ("~/.cache/torch_extensions/
# py310_cu117/fused_adam/fused_adam.so: cannot open shared object file"): which are the machine's
_EXTENSION_DIR = re.compile(r"\btorch_extensions/py\d{2,3}_cu\d{2,4}/")


def extension_builds(exc: str | None, message: str, frames: list[str]) -> Parts:
    head = _EXTENSION_HEAD.search(message) if ("bitsandbytes" in message or "CUDA" in message) else None
    if "torch_extensions/py" in message:
        message = _EXTENSION_DIR.sub("torch_extensions/<build>/", message)
    if head:
        message = head[1]
    elif "The detected CUDA version" in message:
        message = _TORCH_CUDA.sub(_TORCH_CUDA_WORDS, message)
    return exc, message, frames


# c10d's store server on a port another process holds, by release: "The server socket has failed to bind to [::]:29500
# (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:29500 (...)", since 2.2
# "port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use"; the port is the job's
_C10D_BIND = re.compile(
    r"(The server socket has failed to listen on any local network address)\.? (?:The server socket has failed to bind "
    r"to .{0,300}?\(errno: 98 - Address already in use\).*|port: \d{1,5}, useIpv6: \d, code: -98, name: EADDRINUSE, "
    r"message: address already in use.*)$"
)
c10d_bind = rewrite("failed to listen on any local network address", _C10D_BIND, r"\1: address already in use")


# c10's warnings end by naming the C++ function that warned ("... forward compatibility was attempted on non supported
# HW (function operator())", "(function initCUDA)" by release) or, raised as Python's warning, the source line
# ("(Triggered internally at ../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:263.)"): the words before it
# (a flattened post runs the warnings module's source line on after it: "...:109.) return torch._C._cuda_getDevi...")
_C10_FUNCTION = re.compile(
    r" \((?:function [\w:~<>]{1,200}(?:\(\))?\)|Triggered internally at \S{1,500}?\.?\)(?: \S.{0,500})?)$"
)
_C10_CUT = re.compile(r" \(Triggered(?: \w{0,12}(?: at \S{0,500})?)?$")  # (a copy cut inside it: "(Triggered int")


def c10_function(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "(function " in message or "(Triggered internally at " in message:
        message = _C10_FUNCTION.sub("", message)
    if " (Triggered" in message:
        message = _C10_CUT.sub("", message)
    return exc, message, frames


# a NaN retyped by a poster in title case ("contain Inf/Nan." of detectron2's "Inf/NaN."): NaN; Python's own "nan" is
# left as it prints it
_TITLE_NAN = re.compile(r"\bNan\b")
title_nan = rewrite("Nan", _TITLE_NAN, "NaN")


# Habana's bridge spelled its generic status "[Generice failure]" in a release ("Graph compile failed.
# synStatus=synStatus 26 [Generice failure]."), "[Generic failure]" before and since
synapse_typo = rewrite("Generice failure", re.compile(r"\[Generice failure\]"), "[Generic failure]")


# TPUEstimator's check of its shards against the TPU system it found ("TPUConfig.num_shards is not set correctly.
# According to TPU system metadata for Tensorflow master (grpc://10.0.0.2:8470): num_replicas should be (8), got
# (64)."): the master's address and the two counts are the job's, that the counts disagree is the failure
_NUM_SHARDS = re.compile(
    r"(According to TPU system metadata for Tensorflow master)(?: \([^)]{0,300}\))?: "
    r"num_replicas should be \(\d{1,6}\), got \(\d{1,6}\)"
)
num_shards = rewrite("num_replicas should be", _NUM_SHARDS, r"\1: num_replicas should be (<n>), got (<n>)")


# tensorstore names the file it could not read, write or lock (a checkpoint's: the run's path, bold in a post),
# orbax wraps zarr in a "cast" driver in some releases, and the status carries the C++ source and the spec
_TS_FILE = re.compile(
    r'((?:local file|Invalid key:|lock on file:|Invalid file path:)) (?!<file>)\**"?[^"\s*]{1,1000}"?\**'
)
# (a later release names the key it was reading before the check's own words: 'Error reading invalid key "info":
# Invalid key: "info"')
_TS_READING = re.compile(r'Error reading invalid key "[^"]{0,300}": (?=Invalid key:)')
_TS_DETAIL = re.compile(r"\s?\[(?:(?:source locations|tensorstore_spec)[^=\s]{0,20}=.*|source)$")
_CAST = 'Error opening "cast" driver: '
# gin's note after an error raised inside a configurable: "In call to configurable 'train' (<function train at ...>)"
_GIN = re.compile(r"\s?In call to configurable '[\w.]{1,200}' \(.{0,300}?\)\)?$")


def tensorstore(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "driver" in message or "local file" in message:
        message = _TS_DETAIL.sub("", _TS_FILE.sub(r"\1 <file>", message.replace(_CAST, "")))
    if "Invalid key" in message or "Invalid file path" in message:
        message = _TS_DETAIL.sub("", _TS_FILE.sub(r"\1 <file>", _TS_READING.sub("", message)))
    if " [source locations=" in message:  # (on a check of its JSON spec too: "Error parsing object member ...")
        message = _TS_DETAIL.sub("", message)
    if "In call to configurable" in message:
        message = _GIN.sub("", message)
    return exc, message, frames


# the loader names an extension by where it is installed and by the tag of the Python it was built for
# ("/x/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"): its name and the symbol are the failure
_UNDEFINED = re.compile(
    r"^\S{0,300}?([\w+-]{1,200}?)(?:\.cpython-\w{1,20}-[\w-]{1,60}|\.abi3)?\.so(?:\.\d{1,4}){0,3}: undefined symbol: "
)


# (macOS's loader: "dlopen(grpc/_cython/cygrpc.cpython-38-darwin.so, 0x0002): symbol not found in flat namespace")
_FLAT = re.compile(
    r"^dlopen\(\S{0,300}?([\w+-]{1,200}?)(?:\.cpython-\w{1,20}-[\w-]{1,60}|\.abi3)?\.so, [^)]{1,40}\): "
    r"symbol not found "
)
# (cffi's: "function/symbol 'pango_context_set_round_glyph_positions' not found in library 'libpango-1.0.so.0':
# /usr/lib/x86_64-linux-gnu/libpango-1.0.so.0: undefined symbol: ...", the library by the path it opened on macOS)
_CFFI = re.compile(
    r"^(function/symbol '\w{1,200}' not found in library ')(?:[^']{0,300}/)?([^'/]{1,200}?)"
    r"(?:\.so(?:\.\d{1,4}){0,3}|\.dylib|\.dll)?'.*$"
)
_linux_symbol = rewrite(": undefined symbol: ", _UNDEFINED, r"\1.so: undefined symbol: ")
_macos_symbol = rewrite("): symbol not found ", _FLAT, r"\1.so: symbol not found ")
_cffi_symbol = rewrite("function/symbol '", _CFFI, r"\1\2'")


def undefined_symbol(exc: str | None, message: str, frames: list[str]) -> Parts:
    return _cffi_symbol(*_macos_symbol(*_linux_symbol(exc, message, frames)))


# PaddlePaddle raises a CUDA library's status as ExternalError (1.x; "OSError: (External) ..." in 2.x) with where
# its kernel is ("Cudnn error, CUDNN_STATUS_BAD_PARAM (at /paddle/paddle/fluid/operators/batch_norm_op.cu:199)
# [operator < batch_norm > error]", earlier "... at (/paddle/...)", a hint line "[Hint: CUDNN_STATUS_BAD_PARAM] at
# (...)"): the status and the kernel's file are the failure
_PADDLE = re.compile(
    r"^(?:\(External\) )?(?:(Cudnn|Cublas|CUDA) error, )?((?:CUDNN|CUBLAS)_STATUS_[A-Z_]{2,60})\]? \(?at \(?"
    r"\S{0,300}?/paddle/fluid/operators/(\w{1,100})\.cu(?::<line>)?\)?.*$"
)


def paddle_status(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _PADDLE.match(message) if "/paddle/" in message else None
    if m and exc in ("ExternalError", "OSError", "CUDAError", None):
        library = m[1] or ("Cudnn" if m[2].startswith("CUDNN") else "Cublas")
        return "ExternalError", f"{library} error, {m[2]} at {m[3]}.cu", frames
    return exc, message, frames


# TensorFlow names the graph node a status came from after the status, in each generation's words: 1.x "[[Node:
# IteratorGetNext = IteratorGetNext[output_shapes=..., _device=...](IteratorFromStringHandle)]]", 1.12 "[[{{node
# IteratorGetNext}} = IteratorGetNext[...]]]", 1.13 on "[[node IteratorGetNext (defined at train.py:40) ]]", 2.x
# "[[{{node IteratorGetNext}}]]"; on a GPU the node's copy to the device follows ("[[Node: IteratorGetNext/_535 =
# _Recv[...]]]"), and later releases add where the node was defined: the first node named is where it failed
_TF_NODE = re.compile(r"\s?\[\[(?:Node: |\{\{node |node )([\w/.-]{1,300})(?=[ }]).*$")


tf_node = rewrite("[[", _TF_NODE, r" [[node \1]]")


# Triton's OutOfResources raised in a traceback says how much its kernel's configuration asked and the GPU has ("out of
# resource: shared memory, Required: 98304, Hardware limit: 49152. Reducing block sizes or `num_stages` may help."):
# which resource is the failure, as the bare line names it (canary.signature.words)
_RESOURCE = re.compile(r"^(out of resource: [a-z][a-z ]{1,40}?),? ?Required: .*$")


def triton_resources(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "OutOfResources" and message.startswith("out of resource: "):
        message = _RESOURCE.sub(r"\1", message)
    return exc, message, frames


# equinox raised its runtime errors (eqx.error_if's) as EqxRuntimeError until 0.11, EquinoxRuntimeError since, and a
# private _EquinoxRuntimeError in some releases: one class
_EQUINOX = ("EqxRuntimeError", "_EquinoxRuntimeError")


def equinox(exc: str | None, message: str, frames: list[str]) -> Parts:
    return ("EquinoxRuntimeError" if exc in _EQUINOX else exc), message, frames


# NumPy 2 names a name it removed ("`np.float_` was removed in the NumPy 2.0 release. Use `np.float64` instead.", a
# post may drop the backticks): the name and the release are the failure, what to use instead advice
_NUMPY_REMOVED = re.compile(r"^`?(np\.\w{1,60})`? was removed in the NumPy (\d{1,2}\.\d{1,2}) release\b.*$")


_removed = rewrite("was removed in the NumPy", _NUMPY_REMOVED, r"\1 was removed in the NumPy \2 release")
# NumPy 1.25 names two DTypes without a common one by their classes ("<class 'numpy.dtypes.Float16DType'>", before
# "<class 'numpy.dtype[float16]'>"), raised as DTypePromotionError, a subclass of the TypeError it was, with advice
_DTYPE = re.compile(r"<class 'numpy\.(?:dtypes\.(\w{1,40}?)DType|dtype\[(\w{1,40})\])'>")


def numpy_removed(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``numpy-removed`` rule: a name NumPy 2 removed, by the name and the release; two DTypes without a common one
    by their names (their class is folded by ``folds.class_key``); a C API mismatch without its advice."""
    if "do not have a common DType" in message and len(found := _DTYPE.findall(message)) == 2:
        a, b = ((one or two).lower() for one, two in found)
        return exc, f"The DTypes {a} and {b} have no common DType", frames
    if " . Check the section C-API" in message:
        message = message.split(" . Check the section C-API", 1)[0]  # (1.2x's advice after a C API mismatch)
    return _removed(exc, message, frames)


# NCCL's InfiniBand transport reporting a work completion's error ("NCCL WARN NET/IB : Got completion from peer
# 10.0.0.2<49892> with status=12 opcode=32616 len=0 vendor err 129 (Recv)", an older "with error 4, opcode 3", a title's
# "NET/IB Got completion error 12", 2020's "Got completion with error 12, opcode 1, ..."): the status is which failure
# (12 a retry count exceeded, 4 a protection error); the peer, the opcode and the vendor's code are the run's. The OFI
# plugin says it could not find a provider in 2019's words and "Couldn't" since.
_IB_COMPLETION = re.compile(
    r"^NCCL WARN NET/IB ?:? Got completion (?:from peer \S{1,200} with (?:status=|error )|with error |error )"
    r"(\d{1,3})\b.*$"
)
_OFI_COULD_NOT = re.compile(r"^(NCCL WARN NET/OFI) Could not ")


def nccl_ib(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "NET/IB" in message:
        message = _IB_COMPLETION.sub(r"NCCL WARN NET/IB: Got completion with status=\1", message)
    elif "NET/OFI Could not" in message:
        message = _OFI_COULD_NOT.sub(r"\1 Couldn't ", message)
    return exc, message, frames


# c10d's rank waiting in the key-value store for rank 0's NCCL id ("[1] is setting up NCCL communicator and retrieving
# ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait timeout after 600000ms,
# keys: /default_pg/0//cuda//0", 2021's "retreiving ... got exception: ..."): which rank waited, the key and the store's
# keys are the job's; its error is the failure
_C10D_STORE = re.compile(
    r"^\[(?:\d{1,6}|<rank>)\] is setting up NCCL communicator and retr(?:ie|ei)ving ncclUniqueId from \[(\d{1,6})\] "
    r"via c10d key-value store by key (?:'[^']{0,200}'|<key>), but store->get\((?:'[^']{0,200}'|<key>)\) got "
    r"(?:error|exception): (.{1,300}?)(?:, keys: .*| Exception raised from .*)?$"
)


c10d_store = rewrite(
    "via c10d key-value store",
    _C10D_STORE,
    r"[<rank>] is setting up NCCL communicator and retrieving ncclUniqueId from [\1] via c10d key-value store "
    r"by key <key>, but store->get(<key>) got error: \2",
)


# torch.save's zip writer failing a record ("[enforce fail at inline_container.cc:626] . PytorchStreamWriter failed
# writing file data/176: file write failed"): which record of the checkpoint is the run's, the writer's failure is it
_STREAM_WRITER = re.compile(r"^\.? ?PytorchStreamWriter failed writing file \S{1,300}?: ")


stream_writer = rewrite(
    "PytorchStreamWriter failed writing file", _STREAM_WRITER, "PytorchStreamWriter failed writing file <record>: "
)


# protobuf's runtime refusing code generated by another release ("Detected mismatched Protobuf Gencode/Runtime major
# versions when loading a2a.proto: gencode 6.31.1 runtime 5.29.5. Same major version is required. See ...", "Detected
# incompatible Protobuf Gencode/Runtime versions when loading x.proto: gencode 5.29.2 runtime 5.27.2. Runtime version
# cannot be older than the linked gencode version."): which check, and the majors; the .proto and the rest are the run's
# (the sentence after the versions follows from the check's words)
_PROTOBUF = re.compile(
    r"^Detected (mismatched|incompatible) Protobuf Gencode/Runtime (major )?versions when loading \S{1,300}: gencode "
    r"(\d{1,3})\.[\d.]{1,20} runtime (\d{1,3})\b.*$"
)


_GENCODE = rewrite(
    "Protobuf Gencode/Runtime", _PROTOBUF, r"Detected \1 Protobuf Gencode/Runtime \2versions: gencode \3 runtime \4"
)
# (protobuf 4.21.0 refused old generated code with a typo, "Descriptors cannot not be created directly", 4.21.1 on
# without it: one refusal)
_TYPO = "Descriptors cannot not be created directly"


def protobuf_versions(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith(_TYPO):
        message = "Descriptors cannot be created directly" + message[len(_TYPO) :]
    return _GENCODE(exc, message, frames)


# jaxlib's extension module, named in messages that print a class (a dataclass's "mutable default <class
# 'jaxlib.xla_extension.ArrayImpl'> for field position is not allowed"), is jaxlib._jax since 0.6: one class
def jaxlib_module(exc: str | None, message: str, frames: list[str]) -> Parts:
    return (
        exc,
        message.replace("jaxlib.xla_extension.", "jaxlib._jax.") if "xla_extension." in message else message,
        frames,
    )


# a check that quotes the path it was given after what it wanted ("Checkpoint path should be absolute. Got
# weights/run 1.orbax-checkpoint-tmp"; a post may wrap or cut it after "Got"): the path is the program's
_GOT_PATH = re.compile(r"^(.{1,500}?)\.? Got(?: \S{0,300}/.{0,1000})?$")


given_path = rewrite(" Got", _GOT_PATH, r"\1")


# a trainer's check naming the iteration its loss went non-finite and the losses there (detectron2's "Loss became
# infinite or NaN at iteration=1029! loss_dict = {...}"): that it did is the failure, when and by how much the run's
_LOSS_AT = re.compile(r"^(Loss became infinite or NaN at iteration)=\d{1,12}!?.*$")


def loss_iteration(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Loss became infinite or NaN"):
        message = _LOSS_AT.sub(r"\1=<n>", message)
    return exc, message, frames


# XLA's refusal of one buffer donated twice to a call names the program's argument positions ("(flattened argument
# 49, replica 0, partition 0, first use: 30)"): the check is the failure
_DONATED_TWICE = re.compile(r"\(flattened argument \d{1,9}, replica \d{1,6}, partition \d{1,6}, first use: \d{1,9}\)")


donated_twice = rewrite("donate the same buffer twice", _DONATED_TWICE, "(flattened argument <n>, first use: <n>)")

# jax's warning that donated buffers went unused lists them (their shapes in 2020's XLA notation, ShapedArray later):
# which arguments is the program's
_DONATED_UNUSABLE = re.compile(r"^(Some donated buffers were not usable):.*$")


donated_unusable = rewrite("Some donated buffers were not usable", _DONATED_UNUSABLE, r"\1")

# Pallas's GPU lowering refusing a TPU kernel's scalar prefetch, in two releases' words ("Scalar prefetch not supported
# in Triton lowering.", 2024-05; "scalar prefetch not implemented in the Triton backend", 2024-12), a post may run its
# prose on after the closing quote: one check
_PREFETCH = re.compile(
    r"^[Ss]calar prefetch not (?:supported in Triton lowering|implemented in the Triton backend)\b.*$"
)


triton_prefetch = rewrite("calar prefetch not ", _PREFETCH, "scalar prefetch not implemented in the Triton backend")

# einops names a pattern it could not apply, the input's shape and the axes it was given, then which check refused
# it, worded by release ("Shape mismatch, can't divide axis of length 135 in chunks of 2", also "into chunks"; "Shape
# mismatch, 900 != 676"; "Wrong shape: expected 4 dims. Received 3-dim tensor." and earlier "Expected 4 dimensions, got
# 5"): the pattern, the shape and the lengths are the program's, the check is the failure
_DIVIDE = r"Shape mismatch, can't divide axis of length \d{1,12} in(?:to)? chunks of\b"
_PRODUCT = r"Shape mismatch, \d{1,15} != \d{1,15}"
_NDIM = r"Wrong shape: expected \d{1,3} dims\. Received \d{1,3}-dim tensor"
_NDIM_OLD = r"Expected \d{1,3} dimensions, got \d{1,3}"
EINOPS_CHECK = re.compile(f"(?P<divide>{_DIVIDE})|(?P<product>{_PRODUCT})|(?P<ndim>{_NDIM})|(?P<ndim_old>{_NDIM_OLD})")
# the same, posted without its class: the two checks whose words are einops' alone anywhere, the other two as a line of
# their own (einops' last line) or after einops' class or its head on the line
EINOPS_WORDS = re.compile(
    f"(?P<divide>{_DIVIDE})|(?P<ndim>{_NDIM})|"
    f"(?:^|(?:EinopsError|rearrange-reduction pattern).{{0,1000}}?)"
    f"(?:(?P<product>{_PRODUCT})|(?P<ndim_old>{_NDIM_OLD}))\\.?$"
)
_EINOPS_NAMES = {
    "divide": "Shape mismatch, can't divide axis of length <n> in chunks of <n>",
    "product": "Shape mismatch, <n> != <n>",
    "ndim": "Wrong shape: expected <n> dims, received <n>",
    "ndim_old": "Wrong shape: expected <n> dims, received <n>",
}


def einops_check(m: re.Match[str]) -> str:
    """The name of the einops check ``m`` (a match of :data:`EINOPS_CHECK` or :data:`EINOPS_WORDS`) found."""
    return _EINOPS_NAMES[next(k for k in _EINOPS_NAMES if m[k])]


def einops(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "EinopsError" and (m := EINOPS_CHECK.search(message)):
        message = einops_check(m)
    return exc, message, frames
