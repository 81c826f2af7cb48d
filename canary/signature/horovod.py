"""Horovod and the Open MPI launcher under it. Pure.

Horovod explains its shutdown after the first sentence, by release ("This has been caused by an exception on one of the
rank ...", later "This was caused by an exception on one of the ranks ..."), and names the library of an extension not
built in later releases ("Extension horovod.tensorflow has not been built: .../mpi_lib.cpython-36m-x86_64-linux-gnu.so
not found"): that it shut down, and which extension, are the failure. Its stall inspector warns of ranks waiting for
the others, which a hang follows. Open MPI's mpirun prints its refusals in boxes without a class (not enough slots, a
run as root); a program it could not start, a layer's init that failed (by step and returned value), and ORTE's daemons
lost or failed, are its help text's first sentences; ORTE's daemons that did not start are explained by the line before
its box: ssh unable to resolve a host (the cluster's network) or orted not found on a node (the machine's install). A
job that srun launched directly, with an Open MPI built without SLURM's PMI, cannot start ("The application appears to
have been direct launched using "srun", but OMPI was not built with SLURM's PMI support"). mpirun (or mpiexec) ends a
job one process of which exited non-zero ("mpirun detected that one or more processes exited with non-zero status"):
the code is the program's. Open MPI's own handler reports a process's fatal signal ("[host:4968] Signal: Segmentation
fault (11)") over a backtrace ("[ 3] /usr/lib/libmpi.so.12(ompi_datatype_sndrcv+0x54c)[0x7f60...]"): the signal, and
the first frame past the C library's (its function, or its library where it has none), are the failure; an abort (6)
is named by what made the process abort.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts
from canary.signature.signals import signal_name

_SHUT_DOWN = "Horovod has been shut down"
_EXITED = "Horovod detected that one or more processes exited with non-zero status"
_NOT_BUILT = re.compile(r"^(Extension horovod\.\w{1,40} has not been built)\b.*$")


def horovod_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``horovod`` rule: its shutdown without the explanation a release words, named by the class Horovod raises
    it with (a framework's status carries it as its own: TensorFlow's AbortedError), an extension not built without
    its library's path and advice, a worker that exited without which one and its code."""
    if _SHUT_DOWN in message:
        return "HorovodInternalError", _SHUT_DOWN, frames
    elif message.startswith("Extension horovod."):
        message = _NOT_BUILT.sub(r"\1", message)
    elif message.startswith(_EXITED):
        message = _EXITED  # (which process, and its exit code, are the run's: the lines below it)
    return exc, message, frames


# Open MPI's backtrace under its signal handler: "[ 3] /usr/lib/libmpi.so.12(ompi_datatype_sndrcv+0x54c)[0x7f6...]"
_OMPI_FRAME = re.compile(
    r"\[\s{0,2}\d{1,3}\] (?P<lib>\S{1,300}?)\((?P<fn>[\w:.]{0,200})\+0x[0-9a-f]{1,16}\)\[0x[0-9a-f]{1,16}\]"
)
_C_LIBRARY = re.compile(r"^(?:libpthread|libc|ld-linux)\b")
_OMPI_FRAMES = 12  # the backtrace's lines in which the first frame past the C library's is looked for


def _crashed_in(lines: list[str], i: int, message: str) -> str:
    """The first frame past the C library's in the backtrace under line ``i``: its function, or its library's name
    without its version or Python's ABI tag."""
    for line in lines[i + 1 : i + 1 + _OMPI_FRAMES]:
        m = _OMPI_FRAME.search(line)
        lib = m["lib"].rsplit("/", 1)[-1] if m else ""
        if m and not _C_LIBRARY.match(lib):
            return f"{message} in {m['fn'] or lib.split('.', 1)[0]}"
    return message


# Open MPI's help text when a layer's init fails says which step and what it returned on indented lines below
# ("  getting local rank failed" / "  --> Returned value No permission (-17) instead of ORTE_SUCCESS")
_INIT_STEP = re.compile(r"^\s{1,8}(?P<step>\w[\w ]{2,100}? failed)\s*$")
_RETURNED = re.compile(r"^\s{1,8}--> Returned (?:value )?(?P<v>.{1,80}?) instead of [A-Z]{3,10}_SUCCESS")


def _init_step(lines: list[str], i: int, said: str) -> str:
    """An init failure's step and the value it returned, from the help text's indented lines below it."""
    below = lines[i + 1 : i + 12]
    for k, line in enumerate(below[:-1]):
        step, value = _INIT_STEP.match(line), _RETURNED.match(below[k + 1])
        if step and value:
            return f"{said}: {step['step']} ({value['v']})"
    return said


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
        ("There are not enough slots available", "mpirun has detected an attempt to run as root", "orted: "),
        r"(?P<slots>There are not enough slots available in the system to satisfy the \d{1,6}(?: slots?|$))|"
        r"(?P<root>mpirun has detected an attempt to run as root)|"
        r"(?P<orted>\borted: (?:command not found|No such file or directory))",
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
    # mpirun's help text for a program it could not start ("mpirun was unable to launch the specified application as
    # it could not access or execute an executable:", "mpirun was unable to find the specified executable file, and
    # therefore did not launch the job."): the machine's install or path; which program and node are the job's
    environment_check(
        "mpirun-executable",
        ("mpirun was unable to ",),
        r"mpirun was unable to (?:(?P<exec>launch the specified application as it could not access)|"
        r"find the specified executable file)",
        None,
        message=lambda m: (
            "Open MPI: mpirun could not " + ("access or execute" if m["exec"] else "find") + " the program"
        ),
    ),
    # a layer of Open MPI that could not start ("It looks like orte_init failed for some reason; your parallel process
    # is likely to abort."), and which step with what value (its help text's indented lines): the machine's install
    environment_check(
        "ompi-init",
        ("_init failed for some reason",),
        r"^It looks like (?P<layer>orte|opal|ompi_mpi|MPI)_init failed for some reason",
        None,
        message=lambda m: f"Open MPI: {m['layer']}_init failed",
        below=_init_step,
    ),
    # ORTE's daemons lost or failed ("ORTE has lost communication with a remote daemon.", "An ORTE daemon has
    # unexpectedly failed after launch and before communicating back to mpirun."): the cluster's nodes and network
    # (those it could not start are named by the line above their box, below, where there is one)
    BareError(
        "orte-daemon",
        ("ORTE has lost communication", "ORTE daemon has unexpectedly failed"),
        re.compile(
            r"(?P<msg>ORTE has lost communication with a remote daemon|An ORTE daemon has unexpectedly failed after "
            r"launch)"
        ),
        None,
        "infrastructure",
        message=lambda m: f"Open MPI: {m['msg']}",
    ),
    # (and those it could not start, where no line above its box says why: weak)
    BareError(
        "orte-daemon-start",
        ("ORTE was unable to reliably start",),
        re.compile(r"(?P<msg>ORTE was unable to reliably start one or more daemons)"),
        None,
        "infrastructure",
        message=lambda m: f"Open MPI: {m['msg']}",
        weak=True,
    ),
    environment_check(
        "ompi-direct-launch",
        ("direct launched using",),
        r"The application appears to have been direct launched using \"?srun\"?",
        None,
        message=lambda m: "Open MPI: launched directly by srun, without SLURM's PMI support",
    ),
    BareError(
        "mpirun-non-zero",
        ("processes exited with non-zero status",),
        re.compile(r"\bmpi(?:run|exec) detected that one or more processes exited with non-zero status"),
        None,
        message=lambda m: "mpirun: a process exited with a non-zero status, and the job was aborted",
    ),
    BareError(
        "ompi-signal",
        ("Signal: ",),
        re.compile(r"^(?:\[[\w.-]{1,100}:\d{1,10}\] )?Signal: [A-Za-z ]{1,40} \((?P<n>(?!6\))\d{1,2})\)$"),
        lambda m: signal_name(m["n"]),
        message=lambda m: f"process received {signal_name(m['n'])}",
        below=_crashed_in,
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
