"""Horovod and the Open MPI launcher under it. Pure.

Horovod explains its shutdown after the first sentence, by release ("This has been caused by an exception on one of the
rank ...", later "This was caused by an exception on one of the ranks ..."), and names the library of an extension not
built in later releases ("Extension horovod.tensorflow has not been built: .../mpi_lib.cpython-36m-x86_64-linux-gnu.so
not found"): that it shut down, and which extension, are the failure. Its stall inspector warns of ranks waiting for
the others, which a hang follows. Open MPI's mpirun prints its refusals in boxes without a class (not enough slots, a
run as root); ORTE's daemons that did not start are explained by the line before its box: ssh unable to resolve a
host (the cluster's network) or orted not found on a node (the machine's install).
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_SHUT_DOWN = "Horovod has been shut down"
_NOT_BUILT = re.compile(r"^(Extension horovod\.\w{1,40} has not been built)\b.*$")


def horovod_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``horovod`` rule: its shutdown without the explanation a release words, named by the class Horovod raises
    it with (a framework's status carries it as its own: TensorFlow's AbortedError), an extension not built without
    its library's path and advice."""
    if _SHUT_DOWN in message:
        return "HorovodInternalError", _SHUT_DOWN, frames
    elif message.startswith("Extension horovod."):
        message = _NOT_BUILT.sub(r"\1", message)
    return exc, message, frames


MPI_ERRORS: list[BareError] = [
    # (under TensorFlow 2 its status's class is printed above the graph's node, which a post may leave out)
    BareError(
        "horovod-shut-down",
        ("Horovod has been shut down",),
        re.compile(r"^(?P<msg>Horovod has been shut down)\. This (?:was|has been) ca"),
        "HorovodInternalError",
    ),
    BareError(
        "horovod-stall",
        ("are waiting for remainder of ranks",),
        re.compile(r"tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting"),
        None,
        "timeout",
        message=lambda m: "Horovod: tensors submitted by a subset of ranks are waiting for the remainder (a stall)",
        weak=True,
    ),
    environment_check(
        "mpirun",
        ("There are not enough slots available", "mpirun has detected an attempt to run as root", "orted: command"),
        r"(?P<slots>There are not enough slots available in the system to satisfy the \d{1,6} slots?)|"
        r"(?P<root>mpirun has detected an attempt to run as root)|(?P<orted>\borted: command not found)",
        None,
        message=lambda m: (
            "Open MPI: "
            + (
                "not enough slots available to satisfy the slots requested"
                if m["slots"]
                else "mpirun refuses to run as root"
                if m["root"]
                else "orted not found on a node (ORTE could not start its daemons)"
            )
        ),
    ),
    BareError(
        "ssh-resolve",
        ("ssh: Could not resolve hostname",),
        re.compile(r"^ssh: Could not resolve hostname \S{1,300}: (?P<why>[\w ]{1,100})"),
        None,
        "infrastructure",
        message=lambda m: f"unreachable: ssh could not resolve a host's name ({m['why'].strip()})",
    ),
]
