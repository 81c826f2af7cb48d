"""Being stopped: SIGTERM (a CI runner, Slurm or Kubernetes ending the job), SIGINT (Ctrl-C) and
SIGHUP (a closed terminal) end a canary run cleanly, and a workload outlives no harness.

    with signals.cancellable():       # in ``canary run``: the three signals ask the run to stop
        record = run_canary(opts)

Within :func:`cancellable` a stop signal raises nothing: it is noted (:func:`requested`), and
the code that waits polls for it. A launcher waiting for its attempt stops what it started (the
local launcher kills the child's process group, SIGTERM then SIGKILL after a grace; the Ray
launcher stops the job) and returns the outcome ``cancelled``, saying in its detail what it did,
or that the stop failed. The runner starts no further attempt and records the run with verdict
``cancelled``; the command exits 128 + the signal's number (143, 130, 129), as a shell reports it.
Nothing is torn down halfway: the record and ``result.json`` are still written.

A workload's process dies with the harness: :func:`child_dies_with_parent` arms Linux's
parent-death signal in the child before it runs, so even a SIGKILL of the harness leaves no
orphan keeping an accelerator busy.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator

STOP_SIGNALS = tuple(s for s in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)) if s is not None)
CANCELLED = "cancelled"  # the verdict, classification and attempt outcome of a run stopped by a signal

_requested: list[int] = []  # the stop signal received within cancellable(), if any


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def exit_code(signum: int) -> int:
    """What a shell reports for a process ended by ``signum``: 128 + its number."""
    return 128 + int(signum)


def requested() -> int | None:
    """The stop signal received within :func:`cancellable`, or None."""
    return _requested[0] if _requested else None


def request(signum: int) -> None:
    """Note a stop, as the signal handler does (the first one counts)."""
    if not _requested:
        _requested.append(int(signum))


@contextlib.contextmanager
def cancellable() -> Iterator[None]:
    """Within the block, SIGTERM, SIGINT and SIGHUP are noted for :func:`requested` instead of
    ending the process; the previous handlers come back afterwards, and the note is forgotten
    (read it inside the block). Outside the main thread (where Python cannot take signals), a
    no-op."""
    with _handling(lambda signum, frame: request(signum)):
        yield


@contextlib.contextmanager
def _handling(handler) -> Iterator[None]:
    """The stop signals go to ``handler`` within the block (in the main thread; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _requested.clear()
    previous = {s: signal.signal(s, handler) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        _requested.clear()


class Stopped(BaseException):  # noqa: N818 - not an error: the process was asked to stop
    """Raised by :func:`interruptible`'s handler where the code is, a blocking call included."""

    def __init__(self, signum: int):
        super().__init__(signal_name(signum))
        self.signum = int(signum)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Within the block, the first SIGTERM, SIGINT or SIGHUP raises :class:`Stopped` at once (out
    of a socket read too), so the code can keep what it has not finished and say so; a later one
    is only noted. ``canary run --notify`` and ``canary notify`` talk to GitHub inside it. Outside
    the main thread, a no-op."""

    def stop(signum: int, frame: object) -> None:
        if not _requested:
            request(signum)
            raise Stopped(signum)

    with _handling(stop):
        yield


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _prctl():
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies (Linux's
    ``prctl(PR_SET_PDEATHSIG)``); a no-op elsewhere. When ``parent`` (the pid that started this
    process) is given and is no longer the parent, it died before the request: exit now.
    Returns whether the kernel took the request."""
    prctl = _prctl()
    if prctl is None:
        return False
    armed = prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    if armed and parent is not None and os.getppid() != parent:
        os._exit(exit_code(sig))
    return armed


def child_dies_with_parent(sig: int = signal.SIGKILL):
    """A ``preexec_fn`` for ``subprocess.Popen``: the child gets ``sig`` when the harness dies,
    armed between fork and exec, so there is no window in which the harness's death goes unseen.
    None where the platform has no such request."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(exit_code(sig))

    return preexec
