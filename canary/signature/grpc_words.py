"""gRPC's Python client and the servers over it, in their releases' words. Pure.

grpcio prints a failed call as its class's repr over four lines ("<_InactiveRpcError of RPC that terminated with:",
"status = StatusCode.UNAVAILABLE", 'details = "failed to connect to all addresses"', 'debug_error_string = "..."'),
named _Rendezvous before 1.26; the debug string is the call's (a time, a peer, its own JSON or, since 1.50, a status
of its own), and since 1.48 the details go on with the address that failed last ("; last error: UNKNOWN:
ipv4:10.0.0.1:4467: Failed to connect to remote host: Connection refused"): the status and the details are the
failure. tritonclient raises a call's status in brackets before its details; Triton's Python backend relays a gRPC
failure of its own channel; the beta API's AbortionError is its repr's status and details; gRPC warns when it
cannot run its fork handlers and goes on.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_REPR = re.compile(
    r"^<(?:_InactiveRpcError|_Rendezvous) of RPC that terminated with: ?status = (?P<code>StatusCode\.\w{1,40}) "
    r"details = \"(?P<details>[^\"]{0,500}?)(?:; last error: [^\"]{0,500})?(?:\"(?: debug_error_string = .*)?>?)?$"
)


def grpc_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``grpc`` rule: a failed call's repr by its status and details (what a cut leaves of them), not its debug
    string or the address that failed last, under the class grpcio names it today."""
    m = _REPR.match(message) if message.startswith("<_") else None
    if m:
        return "_InactiveRpcError", f"{m['code']}: {m['details']}", frames
    return exc, message, frames


GRPC_ERRORS: list[BareError] = [
    # the repr alone, posted without the class line above it: its status and details are the lines below
    BareError(
        "grpc-repr",
        (" of RPC that terminated with:",),
        re.compile(r"(?:^|\s)(?P<msg><(?:_InactiveRpcError|_Rendezvous) of RPC that terminated with:)$"),
        "_InactiveRpcError",
        context=3,
    ),
    # (its lines below the head: their statuses are the call's, not failures of their own)
    BareError(
        "grpc-repr-lines",
        ("debug_error_string = ", 'details = "'),
        re.compile(r"^(?P<msg>debug_error_string = |details = \")"),
        None,
        weak=True,
        continues=True,
    ),
    BareError(
        "tritonclient-status",
        ("[StatusCode.",),
        re.compile(r"\[(?P<code>StatusCode\.\w{1,40})\] (?P<msg>[^`'\"]{1,300}?)(?:`|$)"),
        "InferenceServerException",
        message=lambda m: f"{m['code']}: {m['msg']}",
    ),
    # grpcio's beta API, which TensorFlow Serving's clients used before 1.0: a call's AbortionError by its repr
    # ('AbortionError(code=StatusCode.UNAVAILABLE, details="OS Error")'), bare, in a sentence or a title
    BareError(
        "grpc-beta-abortion",
        ("AbortionError(code=",),
        re.compile(r"\bAbortionError\(code=(?P<code>StatusCode\.\w{1,40}), details=\"(?P<msg>[^\"]{0,300})\"\)"),
        "AbortionError",
        message=lambda m: f"{m['code']}: {m['msg']}",
    ),
    environment_check(
        "triton-python-grpc",
        ("GRPC Execute Failed, message: ",),
        r"GRPC Execute Failed, message: (?P<msg>[^'\"]{1,300}?)(?=['\"]|$| Thread \[)",
        None,
        message=lambda m: f"Triton's Python backend: gRPC execute failed: {m['msg']}",
    ),
    environment_check(
        "grpc-fork",
        ("skipping fork() handlers",),
        r"Other threads are currently calling into gRPC, skipping fork\(\) handlers",
        None,
        message=lambda m: "gRPC: other threads are calling into gRPC, skipping fork() handlers",
        weak=True,
    ),
]
