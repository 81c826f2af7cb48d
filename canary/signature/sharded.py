"""PyTorch's sharded and distributed training (FSDP, DTensor, c10d's store) refusing what it meets. Pure.

FSDP flattens a unit's parameters into one and refuses mixed ones in 2.0's words ("`FlatParameter` requires uniform
dtype but got torch.float16 and torch.float32") and 2.1's ("Must flatten tensors with uniform dtype but got ..."): the
property that is mixed is the failure, which dtypes the model's. It names the rank and the two devices of a
compute device and a `device_id` that disagree. A tensor FSDP freed, used outside its forward, reports c10's lazy
allocation with Caffe2's advice after it. DTensor names the operator that got a plain tensor beside a DTensor.

c10d logs its sockets' failures in its own lines before (or without) the class Python raises: a server that could not
bind its port ("[W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:29400 (errno: 98 - Address
already in use)."), a client that could not connect ("... The client socket has failed to connect to [localhost]:29500
(errno: 99 - Cannot assign requested address)."), a store's peer gone ("[rank6]:[W729 ...TCPStore.cpp:125] [c10d]
recvValue failed on SocketImpl(fd=76, ...): Connection reset by peer" over c10's frames): the errno, and which of the
store's calls met the reset (`TCPStore::check` mid-run, `TCPStore::ping` connecting), are the failure; the address,
the port and the descriptor are the machine's.
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


_STORE_CALL = re.compile(r"\bc10d::TCPStore::(?P<call>\w{1,40})\(")


_C10_FRAMES = 12  # c10's frames under its logged error in which the store's call is looked for


def _store_call(lines: list[str], i: int, message: str) -> str:
    """The store's call whose receive failed, from c10's frames under line ``i`` (``check`` mid-run, ``ping`` while
    connecting), after ``message``."""
    call = next((m["call"] for ln in lines[i + 1 : i + 1 + _C10_FRAMES] if (m := _STORE_CALL.search(ln))), None)
    return f"{message} (in TCPStore::{call})" if call else message


def _socket_failed(m: re.Match[str]) -> str:
    """c10d's socket line without its address: the server's bind (errno 98 is the message Python raises it with) or
    the client's connect, and its errno's words (on Windows, its system error's code)."""
    if m["side"] == "server" and m["errno"] == "98":
        return "The server socket has failed to listen on any local network address: address already in use"
    if m["sys"] == "system error":  # (Windows' words for its code are in the machine's language)
        return f"The {m['side']} socket has failed to {m['verb']} (system error: {m['errno']})"
    return f"The {m['side']} socket has failed to {m['verb']} (errno: {m['errno']} - {m['why']})"


SHARDED_ERRORS: list[BareError] = [
    BareError(
        "c10d-socket",
        ("[c10d] The ",),
        re.compile(
            r"\[c10d\] The (?P<side>server|client) socket has failed to (?P<verb>bind|connect) to \S{1,200} "
            r"\((?P<sys>errno|system error): (?P<errno>\d{1,5}) - (?P<why>[^)]{1,80})\)"
        ),
        "DistNetworkError",
        message=_socket_failed,
    ),
    # torch elastic's rendezvous failing to shut down, logged before the store's error (torch 1.12's "Broken pipe",
    # 2.0's "Connection reset by peer") and the traceback it raises: "The node 'host_3140_0' has failed to shutdown the
    # rendezvous '3045...' due to an error of type RendezvousConnectionError."; the node and the run are the job's
    BareError(
        "rendezvous-shutdown",
        ("has failed to shutdown the rendezvous",),
        re.compile(r"has failed to shutdown the rendezvous '[^']{0,200}' due to an error of type (?P<cls>\w{1,60})"),
        lambda m: m["cls"],
        message=lambda m: "The node has failed to shut down the rendezvous",
    ),
    BareError(
        "c10d-recv",
        ("recvValue failed on SocketImpl",),
        re.compile(r"\[c10d\] (?P<call>recvValue) failed on SocketImpl\(.{0,300}?\): (?P<why>[A-Z][\w ]{1,60})$"),
        "DistStoreError",
        message=lambda m: f"TCPStore: {m['call']} failed: {m['why']}",
        below=_store_call,
    ),
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
    # FSDP2's check of its parameters' dtypes ("FSDP expects uniform original parameter dtype but got {torch.bfloat16,
    # torch.float32}", an AssertionError, a title may run it onto its own words) and the embedding's check of a weight
    # FSDP left sharded outside its forward ("'weight' must be 2-D", a RuntimeError), posted without their class
    BareError(
        "fsdp-words",
        ("FSDP expects uniform original parameter dtype", "'weight' must be 2-D"),
        re.compile(
            r"(?:^|(?<=[\s`'\"\u3000-\u9fff]))(?P<msg>FSDP expects uniform original parameter dtype but got "
            r"\{[\w., ]{1,200}\}|(?P<weight>'weight' must be 2-D))"
        ),
        lambda m: "RuntimeError" if m["weight"] else "AssertionError",
    ),
]
