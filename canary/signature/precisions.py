"""Mixed precision and the fused attention kernels beside it refusing a run: the dtypes a layer was given, a GPU or a
cuDNN too old for a precision or a kernel. Pure.

PyTorch names a dtype by its C++ type ("Input type (c10::Half) and bias type (float) should be the same"), which
Microsoft's compiler spells with its keyword ("struct c10::Half"): the type is the failure, how a compiler spells it is
the build's. accelerate refuses fp16 without a GPU, and names the device it found since 2024 ("... requires a GPU (not
'mps')."). Transformer Engine ends its refusal of every attention backend with the variables that say why ("Please run
with NVTE_DEBUG=1 NVTE_DEBUG_LEVEL=2 to find out the reasons for disabling all backends."): advice a post cuts anywhere.
Posts and applications give these checks without the class their library raises them with: PyTorch's cuDNN frontend's
refusal ("cuDNN Frontend error: s_kv not a multiple of 64 ..."), a RuntimeError; vLLM's bfloat16 check and accelerate's
fp16 check, ValueErrors; numpy's refused cast between two dtypes, a TypeError.
"""

from __future__ import annotations

import re

from canary.signature.kinds import line_kind
from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_MSVC_TYPE = re.compile(r"\b(?:struct|class) (?=c10::\w)")
_NOT_DEVICE = re.compile(r"^(fp16 mixed precision requires a GPU) \(not '\w{1,20}'\)")
_NVTE_DEBUG = re.compile(r"(?<=\.) Please run with NVTE_DEBUG=[^.]{0,300}(?:\.|$)")


def precision_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``precisions`` rule: a C++ type without the keyword MSVC spells it with, accelerate's check without the
    device it found, Transformer Engine's refusal without its debugging advice."""
    if "c10::" in message:
        message = _MSVC_TYPE.sub("", message)
    if message.startswith("fp16 mixed precision"):
        message = _NOT_DEVICE.sub(r"\1", message)
    if "NVTE_DEBUG" in message:
        message = _NVTE_DEBUG.sub("", message)
    return exc, message, frames


PRECISION_ERRORS: list[BareError] = [
    # (after an application's line, ComfyUI's "Error occurred when executing KSampler:", or a post's own words)
    BareError(
        "cudnn-frontend",
        ("cuDNN Frontend error: ",),
        re.compile(r"(?:^|(?<=[\s\"'`]))(?P<msg>cuDNN Frontend error: \S.{0,500}?)[`\"']?$"),
        "RuntimeError",
        line_kind,
    ),
    BareError(
        "precision-check",
        ("is only supported on GPUs with compute", "mixed precision requires a GPU"),
        re.compile(
            r"(?:^|(?<=[\s\"'`*]))(?P<msg>(?:Bfloat16 is only supported on GPUs with compute capability of at least "
            r"[\d.]{1,6}\d\b.{0,300}?|fp16 mixed precision requires a GPU\b.{0,30}?))[`\"'*]*$"
        ),
        "ValueError",
        line_kind,
    ),
    # numpy refusing to cast between two dtypes ("Cannot cast array data from dtype(bfloat16) to dtype(bfloat16)
    # according to the rule 'unsafe'": TensorFlow's bfloat16 against ml_dtypes'), posted without its TypeError
    BareError(
        "numpy-cast",
        ("Cannot cast array data from ",),
        re.compile(
            r"(?:^|(?<=[\s:*_]))(?P<msg>Cannot cast array data from dtype\(\S{1,60}\) to dtype\(\S{1,60}\) "
            r"according to the rule '\w{1,20}')"
        ),
        "TypeError",
    ),
]
