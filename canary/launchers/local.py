"""The local launcher: the workload as a child process in its own process group.

stdout and stderr go to the attempt's log file; a timeout, or a signal that stops the harness
(:func:`canary.formats.signals.requested`), kills the whole group (SIGTERM, then SIGKILL after a grace),
so no stray compiler or worker outlives the attempt. The child also dies with the harness: the
kernel kills it if the harness itself is killed (:func:`canary.formats.signals.child_dies_with_parent`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable

from canary.config import Lane
from canary.formats import signals
from canary.launchers import AttemptOutcome, AttemptRequest


class LocalLauncher:
    def __init__(self, grace_s: float = 5.0):
        self.grace_s = grace_s

    def launch(self, request: AttemptRequest, poll: Callable[[], None] = lambda: None) -> AttemptOutcome:
        request.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **request.env}
        t0 = time.monotonic()
        with open(request.log_path, "ab") as log:
            proc = subprocess.Popen(
                request.argv,
                cwd=request.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=signals.child_dies_with_parent(),
            )
            try:
                stopped = self._wait(proc, request, poll, t0)
            except BaseException:
                self._kill(proc)
                raise
        if stopped is not None:
            return stopped
        poll()
        rc = proc.returncode
        duration = time.monotonic() - t0
        if rc == 0:
            return AttemptOutcome("succeeded", 0, duration, request.log_path)
        if rc < 0:
            sig = -rc
            return AttemptOutcome(
                "failed",
                rc,
                duration,
                request.log_path,
                signal=sig,
                detail=f"killed by signal {signal.Signals(sig).name}",
            )
        return AttemptOutcome("failed", rc, duration, request.log_path, detail=f"exit status {rc}")

    def _wait(self, proc: subprocess.Popen, request: AttemptRequest, poll, t0: float) -> AttemptOutcome | None:
        """Wait for the child to exit (None), polling; the outcome when the harness is told to stop
        or the attempt runs past its timeout, the child's process group killed."""
        while True:
            try:
                proc.wait(timeout=request.poll_interval)
                return None
            except subprocess.TimeoutExpired:
                poll()
            if (stop := signals.requested()) is not None:
                how_stopped = self._kill(proc)
                poll()
                detail = f"stopped by {signals.signal_name(stop)}; {how_stopped}"
                return AttemptOutcome(signals.CANCELLED, None, time.monotonic() - t0, request.log_path, detail=detail)
            if time.monotonic() - t0 > request.timeout_s:
                self._kill(proc)
                poll()
                detail = f"no exit after {request.timeout_s:g}s; process group killed"
                return AttemptOutcome("timeout", None, time.monotonic() - t0, request.log_path, detail=detail)

    def _kill(self, proc: subprocess.Popen) -> str:
        """SIGTERM to the child's process group, SIGKILL after ``grace_s``; says what it took."""
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=self.grace_s)
                how_stopped = f"process group {proc.pid} ended on SIGTERM"
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                how_stopped = f"process group {proc.pid} killed with SIGKILL after {self.grace_s:g}s"
                try:
                    proc.wait(timeout=self.grace_s)
                except subprocess.TimeoutExpired:  # stuck in the kernel (a hung driver or mount)
                    return f"{how_stopped}, but process {proc.pid} has not exited (stuck in the kernel?)"
        except ProcessLookupError:
            proc.wait()
            return f"process {proc.pid} had already ended"
        except OSError as e:  # not ours to signal (a setuid child): say so, never crash the harness
            return f"could not signal process group {proc.pid}: {e.strerror or e}; it may still be running"
        with contextlib.suppress(OSError):  # the leader is gone; anything left in its group goes too
            os.killpg(proc.pid, signal.SIGKILL)
        return how_stopped


def make(lane: Lane) -> LocalLauncher:
    return LocalLauncher()
