"""What kind of machine a run ran on: its CPU model and count. Performance figures (a golden's
throughput floor) are only a yardstick on the same kind of machine; elsewhere they inform."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path


def cpu_model(cpuinfo: str | None = None) -> str:
    """The CPU's model name (Linux's /proc/cpuinfo), else what the platform module says."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            cpuinfo = ""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "cpu model") and value.strip():
            return value.strip()
    return platform.processor() or platform.machine()


class MatmulProbe:
    """This machine's speed, apart from the software under test: a stack of small float32
    matmuls through NumPy (never JAX, so a JAX upgrade that slows the canary does not slow its
    yardstick too), timed once per call; :attr:`best` is the fastest call's GFLOP/s. NumPy runs a
    stack of small matrices on one thread: a multi-threaded BLAS call on a busy 2-core machine
    took 80x its quiet time at the median, one thread 1.2x. Noise only ever adds time, so the
    fastest of a run's calls is the machine's speed even on a busy machine (96x96 x 8 matmuls:
    0.108-0.110 ms over three processes on a loaded 2-core Xeon).

    The workload samples it before JAX has started a thread and again after its last step, once
    XLA's worker threads have parked: right after XLA runs anything, its threads still spin for
    more work, and a probe there read 80-92 GFLOP/s where it read 128 on a quiet machine.

    The throughput gate compares it with the golden's to tell another kind of machine (or one
    throttled for the whole run) behind the same CPU model name: virtual machines often report
    a generic one."""

    SIZE, STACK = 96, 16  # about 0.2 ms on a 2-core Xeon

    def __init__(self) -> None:
        import numpy as np

        self._a = np.full((self.STACK, self.SIZE, self.SIZE), 0.5, np.float32)
        self._b = np.full((self.STACK, self.SIZE, self.SIZE), 0.25, np.float32)
        self.best: float | None = None
        self()  # the first call pays for BLAS's start-up

    def sample(self, calls: int = 100, settle: float = 0.0) -> float | None:
        """Probes ``calls`` times (about 20 ms), after ``settle`` seconds of sleep; returns the
        best rate so far."""
        if settle:
            time.sleep(settle)
        for _ in range(calls):
            self()
        return self.best

    def __call__(self) -> float:
        """Probes once; returns the seconds it took."""
        t0 = time.perf_counter()
        self._a @ self._b
        seconds = time.perf_counter() - t0
        rate = 2 * self.STACK * self.SIZE ** 3 / seconds / 1e9 if seconds > 0 else None
        if rate is not None and (self.best is None or rate > self.best):
            self.best = rate
        return seconds


def facts() -> dict[str, object]:
    return {"cpus": os.cpu_count(), "cpu_model": cpu_model(), "machine": platform.machine()}
