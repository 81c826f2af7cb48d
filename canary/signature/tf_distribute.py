"""TensorFlow's distribution strategies on GPUs and TPUs, in its releases' words. Pure.

A build without an op's kernel names the op, the node and its attributes, and the devices it has ("No OpKernel was
registered to support Op 'NcclAllReduce' used by {{node training/Adam/NcclAllReduce}} with these attrs: [...]
Registered devices: [CPU, GPU]"): which op is the failure, the node is the program's and the devices the machine's.
TPUEstimator's search for TPU cores lists the devices it found instead ("Cannot find any TPU cores in the system.
Please double check Tensorflow master address and TPU worker(s). Available devices are [...]"). A collective aborted by
a peer is a glog line of the ring reducer in 1.x ("Aborting RingReduce with Unavailable: Socket closed") and the gRPC
message of a remote task in 2.x ("grpc_message":"Collective ops is aborted by: Socket closed", its status by number):
that the collective was aborted, and by what, is the failure.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_NO_KERNEL = re.compile(r"\b(No OpKernel was registered to support Op) '(\w{1,200})'(?: (?:used by|with these)\b.*)?$")
_TPU_CORES = "Cannot find any TPU cores in the system"
# (its first two sentences, the second a post may leave out or end without its full stop)
_TPU_WORDS = rf"{_TPU_CORES}\.?(?: Please double check Tensorflow master address and TPU worker\(s\)\.?)?"
_TPU_ADVICE = re.compile(rf"^({_TPU_WORDS})")
_ABORTED = "Collective ops is aborted by: "
# gRPC's codes by number, in TensorFlow's older spelling (which the status-class rule reads)
_GRPC = {"1": "Cancelled", "2": "Unknown", "4": "Deadline exceeded", "13": "Internal", "14": "Unavailable"}


# XLA's refusal of a graph with an op it has no kernel for on a device ("Detected unsupported operations when trying to
# compile graph __inference_run_step_3512[] on XLA_GPU_JIT: ExtractImagePatches (No registered 'ExtractImagePatches'
# OpKernel for XLA_GPU_JIT devices compatible with node {{node ...}} (OpKernel was found, but attributes didn't match)
# Requested Attributes: T=DT_INT64, ...)"): which op is the failure (the attributes go on over lines a post breaks
# anywhere); the graph, the node and the device the program's and the machine's; a dtype a TPU refuses names the
# output it was met at
_UNSUPPORTED = re.compile(
    r"\bDetected unsupported operations when trying to compile graph \S{1,300} on XLA_\w{1,20}_JIT: ?(\w{1,200})\b"
)
# XLA:GPU's autotuner finding no config it supports for an instruction ("Autotuner could not find any supported configs
# for HLO: %cudnn-conv-bias-activation.6 = (f32[128,16,12,12]{3,2,1,0}, u8[0]{0}) custom-call(...)"): which kind of
# instruction; its number, shapes and operands are the program's
_AUTOTUNER = re.compile(r"\b(Autotuner could not find any supported configs for HLO): %?([a-z][a-z-]{0,60})\b.*$")
_TPU_DTYPE = re.compile(r"\b(Unsupported data type for TPU: \w{1,40}), caused by output\b.*$")


def distribute_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``tf-distribute`` rule: a missing kernel by its op, the TPU cores not found by no device list, an op XLA
    cannot compile by the op, a dtype a TPU refuses by no output."""
    if "Detected unsupported operations" in message and (m := _UNSUPPORTED.search(message)):
        head = message[: m.start()].replace("Compilation failure: ", "")
        message = f"{head}Detected unsupported operations: {m[1]}"
    elif "No OpKernel was registered" in message:
        message = _NO_KERNEL.sub(r"\1 \2", message)
    elif "Autotuner could not find" in message:
        message = _AUTOTUNER.sub(r"\1: \2", message)
    elif "Unsupported data type for TPU" in message:
        message = _TPU_DTYPE.sub(r"\1", message)
    elif message.startswith(_TPU_CORES) and (m := _TPU_ADVICE.match(message)):
        message = m[1].rstrip(".")
    return exc, message, frames


def _aborted(m: re.Match[str]) -> str:
    why = (m["why"] or m["why2"]).rstrip(". ")
    # (a line cut before its status: gRPC's "Socket closed" is always its UNAVAILABLE)
    status = m["status"] or _GRPC.get(m["code"] or "") or ("Unavailable" if why == "Socket closed" else None)
    words = _ABORTED + why
    return f"{status}: {words}" if status else words


DISTRIBUTE_ERRORS: list[BareError] = [
    # TensorFlow 1.x's queue runner logging the exception that stopped it ("ERROR:tensorflow:Exception in QueueRunner:
    # Input to reshape is a tensor with ..."), its status's words without the status: the input pipeline's failure
    BareError(
        "tf-queue-runner",
        ("Exception in QueueRunner: ",),
        re.compile(r"^Exception in QueueRunner: (?P<msg>\S.{0,2000})$"),
        None,
        context=4,
    ),
    # TensorFlow's and XLA's refusals posted without the InvalidArgumentError they are raised as (a bare line, a
    # sentence quoting the kernel not registered)
    BareError(
        "tf-unsupported",
        ("Detected unsupported operations", "Unsupported data type for TPU", "No OpKernel was registered"),
        re.compile(
            r"(?P<msg>Detected unsupported operations when trying to compile graph .{1,2000}|"
            r"Unsupported data type for TPU: .{1,500}|No OpKernel was registered to support Op '\w{1,200}'.{0,500}?)"
            r"[\"']?(?: occurs!?)?$"
        ),
        "InvalidArgumentError",
    ),
    # TPUEstimator's search posted without its class
    BareError(
        "autotuner-no-config",
        ("Autotuner could not find any supported configs",),
        re.compile(r"^(?P<msg>Autotuner could not find any supported configs for HLO:.{0,500})$"),
        "InternalError",
        message=lambda m: f"INTERNAL: {m['msg']}",  # (the status XLA raises it with)
        context=1,
    ),
    BareError(
        "tpu-cores",
        (_TPU_CORES,),
        re.compile(rf"(?P<msg>{_TPU_WORDS})"),
        "RuntimeError",
    ),
    BareError(
        "collective-aborted",
        ("Aborting RingReduce with ", _ABORTED),
        re.compile(
            r"Aborting RingReduce with (?P<status>[A-Z][a-z]{1,20}(?: [a-z]{1,20})?): (?P<why>[^\\\"\n]{1,200})$|"
            rf"\"grpc_message\":\"(?:{_ABORTED})+(?P<why2>[^\\\"\n]{{1,200}}?)(?:\\n|\")"
            r"(?:.{0,2000}?\"grpc_status\":(?P<code>\d{1,2}))?"
        ),
        "RuntimeError",
        message=_aborted,
    ),
]
