"""What the workload records of each step as it ends (its wall and CPU time, the other processes'
CPU time meanwhile, a line of ``metrics.jsonl``, a tracker entry) and the run's speed figures
from them. No JAX."""

from __future__ import annotations

import json
import os
import time
from typing import Any

from canary.formats.spec import WorkloadSpec
from canary.record import jsonable
from canary.workload import contention


def _median(values: list[float]) -> float:
    """The upper median (a step's time as recorded, not an average of two)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


class StepLog:
    """Each step as it ends: its wall and CPU time (since the step before it ended), the other
    processes' CPU time meanwhile, one line of ``metrics.jsonl`` and one tracker entry."""

    def __init__(self, spec: WorkloadSpec, metrics_file, tracker, log, t_start: float) -> None:
        self.spec, self.file, self.tracker, self.log, self.t_start = spec, metrics_file, tracker, log, t_start
        self.tokens_per_step = spec.batch_size * spec.seq_len
        self.durations: list[float] = []
        self.cpu_durations: list[float] = []  # the process's CPU seconds (every thread) per step
        self.others: list[float | None] = []  # other processes' CPU seconds during each step
        self.last: dict[str, Any] = {}
        self.sampler = contention.Sampler()
        self.t_prev, self.c_prev = time.perf_counter(), time.process_time()

    def finish(self, i: int, values: dict[str, float]) -> None:
        """Record step i, whose metrics ``values`` were just read back (which waited for it)."""
        now, cpu_now = time.perf_counter(), time.process_time()
        duration, self.t_prev = now - self.t_prev, now
        self.durations.append(duration)
        self.cpu_durations.append(cpu_now - self.c_prev)
        self.c_prev = cpu_now
        self.others.append(self.sampler.mark())
        self.last = {
            "_step": i,
            "global_step": i,
            **jsonable(values),
            "throughput/duration": duration,
            "throughput/tokens_per_second": self.tokens_per_step / duration,
            "throughput/examples_per_second": self.spec.batch_size / duration,
            **({"throughput/others_cpu_seconds": self.others[-1]} if self.others[-1] is not None else {}),
            "_runtime": now - self.t_start,
        }
        self.file.write(json.dumps(self.last) + "\n")
        self.tracker.log(self.last, step=i)
        if i % 10 == 0 or i + 1 == self.spec.steps:
            self.log(f"step {i:5d}  loss {values['train/loss']:.4f}  {self.tokens_per_step / duration:,.0f} tokens/s")

    def figures(self, platform: str) -> dict[str, Any]:
        """The run's speed: the median and the fastest steady step (noise, a busy machine, only
        ever adds to a step's time), and on a CPU lane, where the CPUs run the steps, how busy the
        machine was (steps in quiet windows, others' share of its CPUs)."""
        steady = sorted(self.durations[1:] or self.durations)
        median = _median(steady)
        n_cpus = os.cpu_count() or 1
        machine: dict[str, Any] = {}
        if platform == "cpu":
            busy = contention.others_share(self.durations[1:], self.others[1:], n_cpus)
            machine = {
                "throughput/quiet_steps": sum(contention.quiet(self.durations[1:], self.others[1:], n_cpus)),
                **({"throughput/others_share": busy} if busy is not None else {}),
            }
        return {
            "throughput/tokens_per_second": self.tokens_per_step / median,
            "throughput/median_step_seconds": median,
            "throughput/best_step_seconds": steady[0],
            "throughput/best_tokens_per_second": self.tokens_per_step / steady[0],
            "throughput/median_step_cpu_seconds": _median(self.cpu_durations[1:] or self.cpu_durations),
            **machine,
            "host/cpus": n_cpus,
        }
