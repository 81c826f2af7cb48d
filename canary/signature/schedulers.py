"""Slurm's own lines about a job it limited or killed, printed without a class. Pure. They take their place in
:data:`canary.signature.bare.BARE_ERRORS` (its refusals at submission are infrastructure, in :mod:`infra`).

Slurm's accounting polls a job's memory and kills it past its limit, naming the job or, in later releases, the step
("slurmstepd: error: Job 42664148 exceeded memory limit (10889240 > 4194304), being killed", "Step 1141810.0 exceeded
memory limit (...)", then srun's "Exceeded job memory limit"): the limit is the failure, which job, step and sizes the
run's. srun reports a task its memory cgroup killed ("srun: error: gpu001: task 0: Out Of Memory"), as the kernel's
cgroup OOM killer is read elsewhere. A step that went over its limit and went on is warned of ("slurmstepd: error:
Exceeded step memory limit at some point.", 14.11 without "error:"): a weak finding, named only where nothing else is.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

SCHEDULER_ERRORS: list[BareError] = [
    BareError(
        "slurm-memory-limit",
        ("exceeded memory limit (", "Exceeded job memory limit"),
        re.compile(
            r"\b(?:Job|Step) [\d.]{1,30} exceeded memory limit \(\d{1,20} > \d{1,20}\), being killed|"
            r"^(?:\S{0,100}: )?(?:error: )?Exceeded job memory limit$"
        ),
        "SIGKILL",
        message=lambda m: "killed by Slurm for exceeding the job's memory limit",
    ),
    BareError(
        "srun-task-oom",
        (": Out Of Memory",),
        re.compile(r"\bsrun: error: \S{1,100}: tasks? [\d,-]{1,100}: Out Of Memory\b"),
        "SIGKILL",
        message=lambda m: "killed by its memory cgroup's OOM killer",
    ),
    BareError(
        "slurm-step-memory-warning",
        ("Exceeded step memory limit at some point",),
        re.compile(r"\bExceeded step memory limit at some point\b"),
        None,
        "infrastructure",
        message=lambda m: "Slurm: the step exceeded its memory limit at some point and went on",
        weak=True,
    ),
]
