"""How much of the machine other processes used while the canary's steps ran.

A step's wall time is a fair measure of the code only while nothing else competes for the CPUs.
Noise only ever adds time, so the throughput gate reads the fastest step; but under sustained
contention (a second canary, a test suite on both cores) no step is quiet and even the fastest
is slow. This module tells such a run apart from a slow canary:

* :class:`Sampler` reads, at each step boundary, the machine's busy CPU seconds (Linux's
  ``/proc/stat``: every CPU, time stolen by the hypervisor included) and this process's own CPU
  seconds. What the machine spent beyond this process was spent by others.
* :func:`quiet` (pure) groups the steps into windows of ``WINDOW`` and calls a window quiet when
  others used under ``QUIET_SHARE`` of the machine's CPUs over it. ``/proc/stat`` counts in
  10 ms ticks, too coarse for one ~50 ms step, accurate enough over ten.

The gate still judges the run's fastest step; a run with too few steps in quiet windows can miss
its floor only as a WARN (:func:`canary.judge.golden_gates.quiet_steps_needed`, docs/gates.md). Where
the kernel does not say (not Linux), every step counts as quiet.
"""

from __future__ import annotations

import os
import time

WINDOW = 10  # steps per contention window
QUIET_SHARE = 0.10  # others' share of the machine's CPUs under which a window is quiet
STAT = "/proc/stat"


def machine_busy_seconds(path: str = STAT) -> float | None:
    """CPU seconds every CPU of the machine spent busy since boot (idle and iowait excluded,
    steal included); None where the file is missing or unreadable."""
    try:
        with open(path, "rb") as f:
            fields = f.readline().split()
        if len(fields) < 5 or fields[0] != b"cpu":
            return None
        ticks = [int(x) for x in fields[1:9]]
        user, nice, system, idle, iowait, irq, softirq, steal = (ticks + [0] * 8)[:8]
    except (OSError, ValueError):
        return None
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class Sampler:
    """Others' CPU seconds over each interval between two :meth:`mark` calls."""

    def __init__(self, path: str = STAT):
        self.path = path
        self._last = self._read()

    def _read(self) -> tuple[float, float] | None:
        busy = machine_busy_seconds(self.path)
        return None if busy is None else (busy, time.process_time())

    def mark(self) -> float | None:
        """Others' CPU seconds since the last mark (None where unknown), and starts a new interval."""
        now, last = self._read(), self._last
        self._last = now
        if now is None or last is None:
            return None
        return max((now[0] - last[0]) - (now[1] - last[1]), 0.0)


def quiet(
    durations: list[float], others: list[float | None], cpus: int, *, window: int = WINDOW, share: float = QUIET_SHARE
) -> list[bool]:
    """Per step: whether it ran in a quiet window. ``others[i]`` is others' CPU seconds during
    step ``i``; a window is quiet when their sum is under ``share`` of the window's wall seconds
    times the machine's CPUs. Unknown figures (None) count as quiet."""
    flags: list[bool] = []
    for start in range(0, len(durations), window):
        d, o = durations[start : start + window], others[start : start + window]
        if any(x is None for x in o):
            ok = True
        else:
            ok = sum(o) < share * sum(d) * max(cpus, 1)  # type: ignore[arg-type]
        flags += [ok] * len(d)
    return flags


def others_share(durations: list[float], others: list[float | None], cpus: int) -> float | None:
    """Others' share of the machine's CPUs over the given steps (None where unknown)."""
    known = [(d, o) for d, o in zip(durations, others, strict=False) if o is not None]
    if not known or len(known) < len(durations):
        return None
    wall = sum(d for d, _ in known)
    return sum(o for _, o in known) / (wall * max(cpus, 1)) if wall > 0 else None
