"""XLA's alarms, logged while a compile or its autotuning runs on: a module's slow compile ("[Compiling module jit_f]
Very slow compile? If you want to file a bug, ...", in 2021 the module on the next line; a post quotes it in a
sentence or a title), a constant's slow folding ("Constant folding an instruction is taking > 1s:"), one convolution
algorithm's slow trial ("Trying algorithm eng28{k2=3,k3=0} for conv (...) custom-call(...), ... is taking a while..."),
the GPU timer's delay kernel skipped ("Skipping the delay kernel, measurement accuracy will be reduced") or timed out
("Delay kernel timed out: measured time has sub-optimal accuracy. There may be a missing warmup execution, ..."); and
the GPU's interconnect NVML could not describe ("GPU interconnect information not available: INTERNAL: NVML doesn't
support extracting fabric info ..."), a note XLA logs as a warning at start. Each is weak: the failure only when nothing
else is. Pure. The alarms take their place in :data:`canary.signature.devices.DEVICE_ERRORS`, the note in
:data:`canary.signature.checks.ENVIRONMENT_ERRORS` (before XLA's status lines, which it quotes one of).
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

XLA_ALARMS: list[BareError] = [
    # (a post's sentence or title quotes the module's alarm: "the message "Very slow compile?  If you want to file a
    # bug, run with envvar XLA_FLAGS=..."", a title cut at "run...")
    BareError(
        "slow-compile",
        ("Very slow compile?", "Constant folding an instruction is taking"),
        re.compile(
            r"(?:^|\] |(?<=[\"'`\u201c]))(?P<msg>Very slow compile)\?|"
            r"^(?P<fold>Constant folding an instruction is taking > \S{1,12}):?$"
        ),
        None,
        "timeout",
        message=lambda m: m["msg"] or m["fold"],
        weak=True,
    ),
    # (which algorithm is the autotuner's, one candidate of many it tries in turn; which convolution, its shapes and
    # its backend configuration are the program's and the release's)
    BareError(
        "slow-conv-algorithm",
        ("Trying algorithm ",),
        re.compile(r"\bTrying algorithm \S{1,200} for conv\b"),
        None,
        "timeout",
        message=lambda m: "Trying an algorithm for conv is taking a while (autotuning)",
        weak=True,
    ),
    # the GPU timer without the delay kernel it measures autotuning with: the machine's driver or GPU
    BareError(
        "delay-kernel",
        ("Skipping the delay kernel",),
        re.compile(r"(?P<msg>Skipping the delay kernel), measurement accuracy will be reduced"),
        None,
        "environment",
        weak=True,
    ),
    BareError(
        "delay-kernel-timeout",
        ("Delay kernel timed out",),
        re.compile(r"(?P<msg>Delay kernel timed out: measured time has sub-optimal accuracy)"),
        None,
        "timeout",
        weak=True,
    ),
]

XLA_NOTES: list[BareError] = [
    environment_check(
        "gpu-interconnect",
        ("GPU interconnect information not available",),
        r"(?P<msg>GPU interconnect information not available): ",
        None,
        weak=True,
    ),
]
