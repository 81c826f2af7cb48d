"""Big models loaded with accelerate and transformers: meta tensors, weights offloaded or dispatched off the GPU, and
the weights a checkpoint and a model do not share. Pure.

transformers advises after each refusal, by release ("The current `device_map` had weights offloaded to the disk.
Please provide an `offload_folder` for them. ...", "... requires Accelerate: `pip install accelerate`", later
"`pip install 'accelerate>=0.26.0'`"), names bitsandbytes' offload setting by release (`load_in_8bit_fp32_cpu_offload`,
later `llm_int8_enable_fp32_cpu_offload`), and warns of the weights a checkpoint and a model class do not share with
the checkpoint's path and the weights' names ("Some weights of the model checkpoint at bert-base-uncased were not used
when initializing BertModel: ['cls.predictions.bias', ...]"): which refusal, and which model class, are the failure.
torch 2.3 advises after copying out of a meta tensor ("Cannot copy out of meta tensor; no data! Please use
torch.nn.Module.to_empty() ...").
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_ADVISED = re.compile(
    r"^(The current `?device_map`? had weights offloaded to the disk|Cannot copy out of meta tensor; no data|"
    r"Using `?low_cpu_mem_usage=True`? or a `?device_map`? requires Accelerate|"
    r"Some modules are dispatched on the CPU or the disk)\b.*$"
)
_NOT_USED = re.compile(
    r"^(Some weights of the model checkpoint) at \S{1,500} (were not used when initializing \w{1,100})\b"
)
_NEWLY = re.compile(
    r"^(Some weights of \w{1,100} were not initialized from the model checkpoint) at \S{1,500} (and are newly "
    r"initialized(?: because the shapes did not match)?)\b"
)


def _weights(message: str) -> str:
    m = _NOT_USED.match(message) or _NEWLY.match(message)
    return f"{m[1]} {m[2]}" if m else message


def loading_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``big-models`` rule: a refusal without the advice after it, the weights a checkpoint and a model do not
    share by the model's class, not the checkpoint's path or the weights' names."""
    if message.startswith("Some weights of "):
        message = _weights(message)
    elif _ADVISED.match(message):
        message = _ADVISED.sub(r"\1", message)
    return exc, message, frames


LOADING_ERRORS: list[BareError] = [
    # warnings a load goes on after, which name a failure only where nothing else does
    environment_check(
        "model-weights",
        ("Some weights of ",),
        r"(?P<msg>Some weights of (?:the model checkpoint at \S{1,500} were not used when initializing \w{1,100}|"
        r"\w{1,100} were not initialized from the model checkpoint at \S{1,500} and are newly initialized"
        r"(?: because the shapes did not match)?))",
        None,
        message=lambda m: "transformers: " + _weights(m["msg"]),
        weak=True,
    ),
    BareError(
        "meta-device",
        ("Tensor on device meta is not on the expected device",),
        re.compile(r"(?P<msg>Tensor on device meta is not on the expected device \S{1,20}?)!?$"),
        "RuntimeError",
    ),
    BareError(
        "bnb-dispatched",
        ("Some modules are dispatched on the CPU or the disk",),
        re.compile(r"^(?P<msg>Some modules are dispatched on the CPU or the disk)\."),
        "ValueError",
    ),
]
