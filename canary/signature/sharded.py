"""PyTorch's sharded and distributed training (FSDP, DTensor, c10d's store) refusing what it meets. Pure.

FSDP flattens a unit's parameters into one and refuses mixed ones in 2.0's words ("`FlatParameter` requires uniform
dtype but got torch.float16 and torch.float32") and 2.1's ("Must flatten tensors with uniform dtype but got ..."): the
property that is mixed is the failure, which dtypes the model's. It names the rank and the two devices of a
compute device and a `device_id` that disagree. A tensor FSDP freed, used outside its forward, reports c10's lazy
allocation with Caffe2's advice after it. DTensor names the operator that got a plain tensor beside a DTensor.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_UNIFORM = re.compile(
    r"^(?:`?FlatParameter`? requires|Must flatten tensors with) uniform `?(?P<what>requires_grad|dtype)`?\b.*$"
)
_DEVICE_ID = re.compile(r"^(Inconsistent compute device and `?device_id`? on rank) \d{1,6}: \S{1,30} vs \S{1,30}.*$")
# c10d's TCPStore: its server waiting for ranks ("Timed out after 601 seconds waiting for clients. 1/4 clients joined.",
# first "... waiting for workers. 1/2 workers joined."), a client that could not reach it ("The client socket has timed
# out after 1800s while trying to connect to (10.0.0.1, 29500).", raised as TimeoutError, since 2.4 as DistNetworkError)
_STORE_WAIT = re.compile(r"^Timed out after \S{1,30} waiting for (?:clients|workers)\b")
_CLIENT_TIMEOUT = re.compile(r"^(The client socket has timed out after \S{1,30} while trying to connect to) \(.*$")
_MIXED = re.compile(r"(before calling distributed operators)\b.*$")
_NOT_ALLOCATED = "The tensor has a non-zero number of elements, but its data is not allocated yet"


def sharded_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``sharded`` rule: FSDP's flattening refused by which property in either release's words, a compute
    device against `device_id` by no rank or device, c10's lazy allocation without Caffe2's advice, DTensor's operator
    without what a post adds, c10d's store waiting for ranks or unreachable by no count, address or release's class."""
    if "uniform" in message and (m := _UNIFORM.match(message)):
        message = f"Must flatten tensors with uniform {m['what']}"
    elif message.startswith("Inconsistent compute device"):
        message = _DEVICE_ID.sub(r"\1 <n>: <device> vs <device>", message)
    elif message.startswith(_NOT_ALLOCATED):
        message = _NOT_ALLOCATED
    elif "got mixed torch.Tensor and DTensor" in message:
        message = _MIXED.sub(r"\1", message)
    elif message.startswith("Timed out after ") and _STORE_WAIT.match(message):
        message = "Timed out waiting for clients to join the store"
    elif message.startswith("The client socket has timed out after "):
        return "DistNetworkError", _CLIENT_TIMEOUT.sub(r"\1 the store", message), frames
    return exc, message, frames


SHARDED_ERRORS: list[BareError] = [
    BareError(
        "sharded-words",
        ("but its data is not allocated yet", "got mixed torch.Tensor and DTensor"),
        re.compile(
            r"(?:^|(?<=[\s`'\"]))(?P<msg>The tensor has a non-zero number of elements, but its data is not allocated "
            r"yet|(?:[\w.]{1,100}: )?got mixed torch\.Tensor and DTensor, need to convert all torch\.Tensor to DTensor "
            r"before calling distributed operators)"
        ),
        "RuntimeError",
    ),
]
