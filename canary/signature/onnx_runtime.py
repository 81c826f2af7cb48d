"""ONNX models' converters and runtimes refusing what they meet: torch.onnx's exporter, ONNX Runtime, TensorRT's ONNX
parser, tf2onnx and jax2onnx. Pure.

ONNX Runtime prints its status's code and name before what failed ("[ONNXRuntimeError] : 1 : FAIL : Load model from
x.onnx failed:<source>:179 onnxruntime::Model::Model(...) Unsupported model IR version: 10, ..."): which model and where
in its source are not the failure, nor which entry point loaded it (a path's status is FAIL, bytes' INVALID_ARGUMENT:
"Failed to load model with error: ..."); a post may give the status line without its class. An execution provider it
could not load or create is the machine's CUDA or cuDNN, a DLL Windows could not load the machine's. torch.onnx names an
operator it cannot export at the opset the program asked for, with its namespace and quotes by release, raised as
RuntimeError before 1.13 and as its subclass UnsupportedOperatorError since (folds.SUBCLASSES). TensorRT's parser and
tf2onnx log what they cannot take; jax2onnx refuses a primitive without a class.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

# (the status may follow the C++ function of the API that relayed it, ORT training's "/onnxruntime_src/orttraining/
# .../optimizer.cc:273 void onnxruntime::training::api::Optimizer::Initialize(...) [ONNXRuntimeError] : 1 : ...")
_ORT = re.compile(r"(?:^|(?<=\) ))(\[ONNXRuntimeError\] : \d{1,3} : [A-Z_]{2,40} : )(.{1,2000})$")
# a model it could not load, by the entry point: from a path ("Load model from x.onnx failed:", FAIL) or from bytes
# ("Failed to load model with error: ", INVALID_ARGUMENT)
_ORT_LOAD = re.compile(r"^(?:Load model from .{1,500}? failed:|Failed to load model with error: )")
_FAIL = "[ONNXRuntimeError] : 1 : FAIL : "
# (a model it could not load, as this rule words it: raised as Fail from a path, InvalidArgument from bytes, relayed as
# RuntimeError by its training API; the fingerprint knows them as Fail, the ``ort-load-class`` rule)
LOAD_FAILED = _FAIL + "Load model failed: "
# (its check of a model's opset, which names the opset and the last it supports: "ONNX Runtime only *guarantees*
# support for models stamped with official released onnx opset versions. Opset 16 is under development and support for
# this is limited. ... Current official support for domain ai.onnx is till opset 15.": that the model's opset is newer
# than the runtime's, not which two)
_ORT_OPSET = re.compile(
    r"^(?:ONNX Runtime only \*?guarantees\*? support .{1,200}?\. )?Opset \d{1,4} (is under development and support "
    r"for this is limited)\b.*$"
)
# (the words after the source location and the C++ function ORT names, which may be its whole signature)
_ORT_WORDS = re.compile(r"(?<![\w:&*])([A-Z][a-z]{1,30}(?: [\w'.,:()-]{1,60}){2,}.{0,1000})$")
_ORT_NODE = re.compile(
    r"^(Could not find an implementation for) (?:the node )?(\w{1,100}\(\d{1,4}\))(?: node with name .*)?$"
)
# torch.onnx's exporter names the opset the program asked for and advises by release ("Please open a bug to request
# ONNX export support ...", later "Please feel free to request support ..."), and the operator with its namespace and
# quotes by release ("'aten::unflatten'", or "::_convolution_mode"); a converter's own RuntimeError may wrap it ("Failed
# to export model to ONNX: Exporting the operator ...")
_EXPORT = re.compile(
    r"^(?:Failed to export model to ONNX: )?Exporting the operator '?(?:aten)?(?:::)?(\w{1,200})'? to ONNX opset "
    r"version \d{1,4} (is not supported)\b.{0,999}$"
)
# (ORT's provider the program asked for, and the list of those it has)
_PROVIDER = re.compile(r"^(Specified provider '\w{1,100}' is not in available provider)(?: names)?\b.{0,1000}$")


def onnx_words(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``onnx`` rule: ORT's status without the model's path and its source, the node's name and the provider's
    list, a model it could not load by what it said, whichever entry point loaded it; the exporter's refusal of an
    operator without the opset asked for and its advice, whichever release or converter raised it."""
    if "[ONNXRuntimeError]" in message and (m := _ORT.search(message)):
        status, rest = m[1], m[2]
        if _ORT_LOAD.match(rest):
            words = _ORT_WORDS.search(_ORT_LOAD.sub("", rest))
            said = _ORT_OPSET.sub(r"Opset <n> \1", words[1]) if words else ""
            if status.endswith((": FAIL : ", ": INVALID_ARGUMENT : ")):
                status = _FAIL
            return exc, f"{status}Load model failed: {said}".rstrip(), frames
        message = status + _ORT_NODE.sub(r"\1 \2", rest)
    elif message.startswith(("Exporting the operator ", "Failed to export model to ONNX: ")) and (
        m := _EXPORT.match(message)
    ):
        return exc, f"Exporting the operator {m[1]} to ONNX opset version <n> {m[2]}", frames
    elif message.startswith("Specified provider "):
        message = _PROVIDER.sub(r"\1 names", message)
    return exc, message, frames


# ORT's Python classes by its status's name ("NOT_IMPLEMENTED" raised as NotImplemented, "EP_FAIL" as EPFail)
def _status_class(m: re.Match[str]) -> str:
    return "EPFail" if m["name"] == "EP_FAIL" else m["name"].title().replace("_", "")


ONNX_ERRORS: list[BareError] = [
    # ONNX Runtime's status line posted without its class ("[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find
    # an implementation for ConvInteger(10) node with name 'Conv_59_quant'"), raised as its status's class
    BareError(
        "ort-status",
        ("[ONNXRuntimeError] : ",),
        re.compile(r"^(?P<msg>\[ONNXRuntimeError\] : \d{1,3} : (?P<name>[A-Z_]{2,40}) : .{1,2000})$"),
        _status_class,
    ),
    # jax2onnx's converter without a handler for a primitive, posted without the NotImplementedError it raises
    BareError(
        "jax2onnx-handler",
        ("No ONNX handler registered",),
        re.compile(r"(?P<msg>No ONNX handler registered for JAX primitive: '?\w{1,100}'?)"),
        "NotImplementedError",
    ),
    # converters and runtimes of ONNX models logging what they cannot take: TensorRT's parser casting INT64 weights down
    # or a model's IR version newer than its own (weak: it goes on), finding no importer for an op ("[8] No importer
    # registered for op: DCNv2") or failing an assertion on the weights ("[8] Assertion failed: convertOnnxWeights(
    # initializer, &weights, ctx)", compiling);
    # ONNX Runtime's notice of an opset under development (weak) and its IR version check without its status; tf2onnx's
    # op it cannot convert ("Tensorflow op [Preprocessor/.../Round_1: Round] is not supported", by the op);
    # torch.onnx's refusal of an operator without its RuntimeError
    _environment(
        "trt-int64",
        ("generated with INT64 weights",),
        r"(?P<msg>Your ONNX model has been generated with INT64 weights, while TensorRT does not natively support "
        r"INT64)",
        None,
        weak=True,
    ),
    _environment(
        "trt-ir-version",
        ("ONNX model has a newer ir_version",),
        r"ONNX model has a newer ir_version \([\d.]{1,12}\) than this parser was built against",
        None,
        message=lambda m: "TensorRT's ONNX parser: the model's ir_version is newer than the parser's",
        weak=True,
    ),
    _environment(
        "trt-importer",
        ("No importer registered for op",),
        r"(?P<msg>No importer registered for op: \w{1,100})",
        None,
        message=lambda m: f"TensorRT's ONNX parser: {m['msg']}",
    ),
    BareError(
        "trt-assertion",
        ("Assertion failed: convert", "Assertion failed: parse"),
        re.compile(r"^(?:\[8\] )?Assertion failed: (?P<msg>(?:convert|parse)\w{0,100})\("),
        None,
        "compile_error",
        message=lambda m: f"TensorRT's ONNX parser: Assertion failed: {m['msg']}",
    ),
    _environment(
        "ort-opset",
        ("is under development and support for this is limited",),
        r"Opset (?P<opset>\d{1,3}) is under development and support for this is limited\..{0,400}?domain "
        r"(?P<domain>[\w.]{1,60}) is till opset (?P<till>\d{1,3})",
        None,
        message=lambda m: f"ONNX Runtime: opset {m['opset']} of {m['domain']} is under development (till {m['till']})",
        weak=True,
    ),
    BareError(
        "ort-ir-version",
        ("Unsupported model IR version",),
        re.compile(r"(?<!: )(?P<msg>Unsupported model IR version: \d{1,3}, max supported IR version: \d{1,3})"),
        "Fail",
        message=lambda m: f"[ONNXRuntimeError] : 1 : FAIL : Load model failed: {m['msg']}",
    ),
    _environment(
        "tf2onnx-op",
        ("] is not supported",),
        r"Tensorflow op \[\S{1,500}: (?P<op>\w{1,100})\] is not supported",
        None,
        message=lambda m: f"tf2onnx: Tensorflow op {m['op']} is not supported",
    ),
    BareError(
        "onnx-export-operator",
        ("to ONNX opset version",),
        re.compile(
            r"^(?P<msg>Exporting the operator \S{1,200} to ONNX opset version \d{1,4} is not supported\b.{0,500})$"
        ),
        "RuntimeError",
    ),
    # ONNX Runtime's execution provider it could not load, logged before it goes on with the CPU's: Linux's loader
    # ("Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.8: cannot open shared object
    # file ..."), Windows' ("LoadLibrary failed with error 126 "" when trying to load
    # "...\\onnxruntime_providers_cuda.dll"")
    _environment(
        "ort-provider",
        ("onnxruntime_providers_",),
        r"(?:Failed to load library (?:lib)?onnxruntime_providers_(?P<ep>\w{1,30})\.so with error: "
        r"(?P<why>\S{1,200}: cannot open shared object file)|"
        r"LoadLibrary failed with error (?P<code>\d{1,6}) \"[^\"]{0,300}\" when trying to load "
        r"\"[^\"]{0,500}onnxruntime_providers_(?P<ep2>\w{1,30})\.dll\")",
        None,
        message=lambda m: (
            f"onnxruntime: its {m['ep'] or m['ep2']} provider failed to load: "
            + (m["why"] or f"LoadLibrary error {m['code']}")
        ),
    ),
    # (and its CUDA provider's call to CUDA failing, printed as an EP Error before the fallback to the CPU: "CUDA
    # failure 35: CUDA driver version is insufficient for CUDA runtime version ; GPU=-1 ; hostname=x ; file=...
    # cuda_execution_provider.cc ; line=336 ; expr=cudaSetDevice(info_.device_id);"): which code and call; the GPU's
    # handle, the host and the source line are the run's and the build's
    _environment(
        "ort-cuda-call",
        ("CUDA failure ",),
        r"CUDA failure (?P<code>\d{1,4}): (?P<why>[^;]{1,200}?) ; GPU=[^;]{0,40}; hostname=[^;]{0,200}; "
        r"(?:file=[^;]{0,500}; line=\d{1,6} ; )?expr=(?P<expr>\w{1,60})",
        None,
        message=lambda m: f"onnxruntime: CUDA failure {m['code']}: {m['why']} ({m['expr']})",
    ),
    # (its warning that it could not create the provider a program asked for, before it goes on with the CPU's:
    # "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:566 CreateExecutionProviderInstance] Failed to create
    # CUDAExecutionProvider. Please reference ... to ensure all dependencies are met.", weak: the reason, where a log
    # shows it, is the load above; and a DLL of its own Windows could not load: "[ErrorCode:Fail] LoadLibrary failed
    # with error 126 "" when trying to load "ortextensions.dll"", by the DLL, not where it was installed)
    _environment(
        "ort-provider-create",
        ("Failed to create ",),
        r"Failed to create (?P<ep>\w{1,40})ExecutionProvider\. Please reference",
        None,
        message=lambda m: f"onnxruntime: failed to create its {m['ep']} execution provider",
        weak=True,
    ),
    _environment(
        "ort-load-library",
        ("LoadLibrary failed with error ",),
        r"LoadLibrary failed with error (?P<code>\d{1,6}) \"[^\"]{0,300}\" when trying to load "
        r"\"(?:[^\"]{0,500}[\\/])?(?P<dll>[\w.-]{1,100}\.dll)\"",
        None,
        message=lambda m: f"onnxruntime: LoadLibrary error {m['code']} loading {m['dll']}",
    ),
]
