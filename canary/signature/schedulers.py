"""Slurm's own lines about a job it limited or killed, printed without a class. Pure. They take their place in
:data:`canary.signature.bare.BARE_ERRORS`.

Slurm's accounting polls a job's memory and kills it past its limit, naming the job or, in later releases, the step
("slurmstepd: error: Job 42664148 exceeded memory limit (10889240 > 4194304), being killed", "Step 1141810.0 exceeded
memory limit (...)", then srun's "Exceeded job memory limit"): the limit is the failure, which job, step and sizes the
run's. srun reports a task its memory cgroup killed ("srun: error: gpu001: task 0: Out Of Memory"), as the kernel's
cgroup OOM killer is read elsewhere. A step that went over its limit and went on is warned of ("slurmstepd: error:
Exceeded step memory limit at some point.", 14.11 without "error:"): a weak finding, named only where nothing else is.
Its refusals of a job or of its options, and its controller out of reach, are infrastructure (:data:`SLURM_REFUSALS`,
read with :mod:`infra`'s).
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

# Slurm refusing a job or its options, or out of reach, named by why (canary.signature.infra.infrastructure_reason)
SLURM_REFUSALS: list[tuple[re.Pattern[str], str]] = [
    # Slurm's limit it could not satisfy, said before its refusal ("sbatch: error: Memory specification can not be
    # satisfied"): which one; srun's words when it asks for an allocation itself ("srun: error: Unable to allocate
    # resources: Requested node configuration is not available"), and sbatch's gres refusal alone
    (
        re.compile(
            r"sbatch: error: (?P<unmet>[A-Z][\w /-]{1,60}?) can not be satisfied\b|"
            r"srun: error: Unable to allocate resources: (?P<srun>[A-Z][\w /-]{1,100}?)(?=$|[.'\"`(]| \()|"
            r"sbatch: error: (?P<sgres>Invalid generic resource)"
        ),
        "never started: Slurm refused the batch job",
    ),
    # Slurm refusing a job at submission ("sbatch: error: Batch job submission failed: Invalid account or
    # account/partition combination specified", "... Requested node configuration is not available") or a step inside
    # one ("srun: error: Unable to create step for job 16413634: Invalid generic resource (gres) specification"): the
    # job's number is the run's, why is the failure
    (
        re.compile(
            r"Batch job submission failed: (?P<sbatch>[A-Z][\w /-]{1,100}?)(?=$|[.'\"`(]| \()|"
            r"(?P<gres>Requested GRES option unsupported by configured SelectType plugin)"
        ),
        "never started: Slurm refused the batch job",
    ),
    (
        re.compile(r"Unable to create step for job \d{1,12}: (?P<step>[A-Z][\w /-]{1,100}?)(?=$|[.'\"`(]| \()"),
        "never started: Slurm could not create the job's step",
    ),
    # srun's and sbatch's refusal of options that contradict ("srun: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and
    # SLURM_MEM_PER_NODE are mutually exclusive."), and a command that could not reach the controller
    # ("slurm_load_partitions: Unable to contact slurm controller (connect failure)", squeue's "slurm_load_jobs error:")
    (
        re.compile(
            r"\b(?:srun|sbatch|salloc): fatal: "
            r"(?P<fatal>[-\w ,]{1,200}? (?:are|is) mutually exclusive\b[^.`'\"]{0,200})"
        ),
        "never started: Slurm refused the job's options",
    ),
    # (a node that lost the batch script Slurm copied to its spool: "slurmstepd: error: execve(): /tmp/slurmd/job29978/
    # slurm_script: No such file or directory"; the job's number is the run's)
    (
        re.compile(r"slurmstepd: error: execve\(\): \S{0,300}slurm_script: (?P<execve>[A-Z][\w ]{1,60}[a-z])"),
        "Slurm's node could not run the batch script",
    ),
    (
        re.compile(
            r"\b(?:slurm_load_(?P<ctl>\w{1,30})(?::| error:)|Unable to (?P<alloc>confirm allocation) for job \d{1,9}:) "
            r"Unable to contact slurm controller"
        ),
        "Slurm's controller could not be reached",
    ),
    # (a client configured by DNS that found no record: "squeue: error: fetch_config: DNS SRV lookup failed")
    (re.compile(r"\bfetch_config: (?P<config>DNS SRV lookup failed)"), "Slurm's configuration could not be fetched"),
]
