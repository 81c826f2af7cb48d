"""Pools of worker processes under ML code as they fail: concurrent.futures' and joblib's loky executor broken
(``BrokenProcessPool``, whose class names end in neither Error nor Exception), loky's warning of a worker that
stopped, Dask's scheduler losing its workers (``KilledWorker``, its nanny restarting a worker over its memory budget,
all workers lost). Pure. The recognisers take their place in :data:`canary.signature.bare.BARE_ERRORS`, the rule in
:data:`canary.signature.stacks.STACK_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_KILLED = "all the workers a task ran on died while running it"


def pool_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``worker-pools`` rule: a broken pool by its first sentence (the advice after it is the release's), Dask's
    KilledWorker without the task, its key or the workers (2022's sentence and the tuple before it)."""
    if exc == "BrokenProcessPool":
        return exc, re.split(r"(?<=\.) ", message, maxsplit=1)[0].rstrip("."), frames
    if exc == "KilledWorker":
        return exc, _KILLED, frames
    return exc, message, frames


WORKER_POOL_ERRORS: list[BareError] = [
    # the pool's class on a line of its own, after a tool's words or in a code span ("BrokenProcessPool: A task has
    # failed to un-serialize. Please ensure that the arguments of the function are all picklable.", loky's
    # "joblib.externals.loky.process_executor.BrokenProcessPool: A process in the executor was terminated abruptly")
    BareError(
        "broken-process-pool",
        ("BrokenProcessPool: ",),
        re.compile(
            r"(?:^|(?<=[\s`\"':]))(?:[\w.]{1,100}\.)?(?P<cls>BrokenProcessPool): (?P<msg>\S.{0,1000}?)[`\"]?\s*$"
        ),
        lambda m: m["cls"],
    ),
    # Dask's scheduler giving up on a task whose workers all died ("distributed.scheduler.KilledWorker: Attempted to
    # run task ('readparquet-...', 1) on 4 different workers, but all those workers died while running it."), after
    # pytest's summary of the test
    BareError(
        "killed-worker",
        ("KilledWorker: ",),
        re.compile(
            r"(?:^|(?<=[\s`\"':]))(?:distributed\.(?:scheduler\.)?)?(?P<cls>KilledWorker): (?P<msg>\S.{0,1000})"
        ),
        lambda m: m["cls"],
    ),
    # loky's warning that a worker stopped with jobs given to it ("/x/loky/process_executor.py:782: UserWarning: A
    # worker stopped while some jobs were given to the executor. This can be caused by a too short worker timeout or
    # by a memory leak."), and the source line of its warn() after it: a worker killed, as the OOM killer does, not a
    # timeout
    BareError(
        "loky-worker-stopped",
        ("A worker stopped while some jobs were given to the executor", 'timeout or by a memory leak.", UserWarning'),
        re.compile(
            r"(?:UserWarning: )?(?P<msg>A worker stopped while some jobs were given to the executor)|"
            r"^\"(?P<src>timeout or by a memory leak)\.\", UserWarning$"
        ),
        "UserWarning",
        message=lambda m: "A worker stopped while some jobs were given to the executor",
    ),
    # Dask's nanny restarting a worker over its memory budget ("distributed.nanny - WARNING - Worker exceeded 95%
    # memory budget. Restarting", 2024's "distributed.nanny.memory - WARNING - Worker tls://x:34937 (pid=129) exceeded
    # 95% memory budget. Restarting..."), its scheduler left with none ("distributed.scheduler - INFO - Lost all
    # workers"): the machine's memory and the cluster's workers, infrastructure; which worker, and the budget, are its
    BareError(
        "dask-workers",
        ("memory budget. Restarting", "Lost all workers"),
        re.compile(
            r"\bWorker (?:\S{1,200} \(pid=\d{1,9}\) )?exceeded \d{1,3}% (?P<budget>memory budget)\. Restarting|"
            r"(?:^|\b[A-Z]{4,8} - )(?P<lost>Lost all workers)\b"
        ),
        None,
        "infrastructure",
        message=lambda m: (
            "Dask's nanny: a worker exceeded its memory budget and was restarted"
            if m["budget"]
            else "Dask's scheduler lost all workers"
        ),
        at_info=True,
    ),
]
