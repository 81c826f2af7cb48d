"""PyTorch's NCCL process group warning of its settings and its lifetime, and the notebook runners of CI (nbclient,
papermill, MyST-NB) and Ray Tune in their own words. Pure.

c10d's warnings carry its logger's prefix and the C++ function that warned ("[W1111 ... Utils.hpp:112] Warning:
Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function
operator())", "TORCH_NCCL_AVOID_RECORD_STREAMS is the default now, this environment variable is thus deprecated."):
which variable, a setting the job's environment still sets (weak). At exit a process group not destroyed ("process
group has NOT been destroyed before it is being destructed", 2.4's "... before we destruct ProcessGroupNCCL", 2.6's
"destroy_process_group() was not called before program exit, which can leak resources") and a barrier that guesses its
GPU ("Rank 1 using best-guess GPU 1 to perform barrier as devices used by this process are currently unknown", later
"using GPU 0 to perform barrier ..."), apart from the guess at the first collective ("using GPU 0 as device used by
this process is currently unknown"): UserWarnings, weak, by what they warn of in one wording across releases.
jupyter_client's kernel not found ("jupyter_client.kernelspec.NoSuchKernel: No such kernel named python3", before 5.0
the name alone: "NoSuchKernel: 'python'"), nbclient's kernel that died or did not answer at start ("Error occurred
while starting new kernel client for kernel <id>: Kernel didn't respond in 60 seconds"), MyST-NB's failed execution
("Executing notebook failed: CellExecutionError [mystnb.exec]") and Ray's deprecated RunConfig argument ("The
`RunConfig(local_dir)` argument is deprecated.") are named by the class their library raises. They take their place in
:data:`canary.signature.stacks.STACK_ERRORS`; the watchdog's timeouts (:data:`NCCL_WATCHDOG`) in
:data:`canary.signature.bare.BARE_ERRORS`, before XLA's status lines.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check


def _device(m: re.Match[str]) -> str:
    return (
        "ProcessGroupNCCL: a barrier guesses the GPU (the devices used by this process are unknown)"
        if m["barrier"]
        else "ProcessGroupNCCL: guessing the GPU (the device used by this process is unknown)"
    )


PROCESS_GROUP_ERRORS: list[BareError] = [
    environment_check(
        "c10d-variable",
        ("is deprecated; use TORCH_", "this environment variable is thus deprecated"),
        r"Environment variable (?P<old>\w{1,80}) is deprecated; use (?P<new>\w{1,80}) instead|"
        r"(?P<default>\w{1,80}) is the default now, this environment variable is thus deprecated",
        None,
        message=lambda m: (
            f"Environment variable {m['old']} is deprecated; use {m['new']} instead"
            if m["old"]
            else f"{m['default']} is the default now, this environment variable is thus deprecated"
        ),
        weak=True,
    ),
    BareError(
        "process-group-exit",
        ("has NOT been destroyed before", "destroy_process_group() was not called before program exit"),
        re.compile(
            r"process group has NOT been destroyed before (?:it is being destructed|we destruct ProcessGroupNCCL)|"
            r"destroy_process_group\(\) was not called before program exit"
        ),
        "UserWarning",
        message=lambda m: "ProcessGroupNCCL: the process group was not destroyed before program exit",
        weak=True,
    ),
    BareError(
        "process-group-device",
        (
            "as devices used by this process are currently unknown",
            "as device used by this process is currently unknown",
        ),
        re.compile(
            r"using (?:best-guess )?GPU \d{1,4} (?:(?P<barrier>to perform barrier as devices used by this process are)|"
            r"as device used by this process is) currently unknown"
        ),
        "UserWarning",
        message=_device,
        weak=True,
    ),
    # (also as nbconvert logs it, "[NbConvertApp] ERROR | No such kernel named python3", without the class)
    BareError(
        "no-such-kernel",
        ("NoSuchKernel: ", "No such kernel named "),
        re.compile(
            r"(?:\b(?P<cls>NoSuchKernel): |^)(?:No such kernel named (?P<name>[\w.-]{1,100}(?: \[\w{1,40}\])?)|"
            r"'(?P<old>[\w.-]{1,100})')"
        ),
        lambda m: m["cls"],
        message=lambda m: f"No such kernel named {m['name'] or m['old']}",
    ),
    BareError(
        "kernel-start",
        ("Kernel didn't respond in ", "Kernel died before replying to kernel_info"),
        re.compile(r"(?P<msg>Kernel didn't respond in \d{1,6} seconds|Kernel died before replying to kernel_info)"),
        "RuntimeError",
    ),
    # nbconvert's and nbclient's log record of a kernel lost while a cell ran ("[NbConvertApp] ERROR | Kernel died while
    # waiting for execute reply.", absl's "E0409 ... execute.py:509] ..."), before a traceback a post may cut
    BareError(
        "kernel-died-reply",
        ("Kernel died while waiting for execute reply",),
        re.compile(r"Kernel died while waiting for execute reply"),
        None,
        message=lambda m: "nbconvert: Kernel died while waiting for execute reply",
    ),
    BareError(
        "mystnb-execution",
        ("Executing notebook failed: ",),
        re.compile(r"Executing notebook failed: (?P<cls>\w{1,60}Error)\b"),
        lambda m: m["cls"],
        message=lambda m: "MyST-NB: Executing notebook failed",
    ),
    BareError(
        "ray-runconfig-deprecated",
        ("argument is deprecated",),
        re.compile(r"The `?(?P<arg>RunConfig\(\w{1,40}\))`? argument is deprecated"),
        "DeprecationWarning",
        message=lambda m: f"The {m['arg']} argument is deprecated",
        weak=True,
    ),
]

NCCL_WATCHDOG: list[BareError] = [
    # PyTorch's NCCL watchdog (1.x-2.x): "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7,
    # OpType=ALLREDUCE, NumelIn=.., Timeout(ms)=..) ran for .."; which collective timed out is the failure, its
    # sizes and sequence number the run's; the lines after it (its exception, "Some NCCL operations have failed
    # or timed out", the process taken down) repeat it. Raised as DistBackendError since torch 2.1
    BareError(
        "nccl-watchdog",
        ("Watchdog caught collective operation timeout",),
        re.compile(
            r"Watchdog caught collective operation timeout: WorkNCCL\((?P<work>[^)]{0,400}?OpType=(?P<op>\w{1,60}))"
        ),
        "DistBackendError",
        "timeout",
        message=lambda m: f"Watchdog caught collective operation timeout: WorkNCCL(OpType={m['op']})",
    ),
    # its heartbeat monitor (torch 2.3 and later) when the watchdog itself hangs: "[PG ID 0 PG GUID 0(default_pg)
    # Rank 7] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued
    # collectives."; which process group (by number, by name, or both) and how long are the run's
    BareError(
        "nccl-heartbeat",
        ("watchdog got stuck",),
        re.compile(r"ProcessGroupNCCL's watchdog got stuck for \d{1,9} seconds without making progress in monitoring"),
        None,
        "timeout",
        message=lambda m: (
            "ProcessGroupNCCL's watchdog got stuck without making progress in monitoring enqueued collectives"
        ),
    ),
]
