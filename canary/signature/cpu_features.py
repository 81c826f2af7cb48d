"""A CPU without the instructions a wheel was built for, in the words of the library that checks, or of the emulator
that runs an x86 build on another machine. Pure.

TensorFlow notes what it could use and was not built for ("I tensorflow/core/platform/cpu_feature_guard.cc:137] Your
CPU supports instructions that this TensorFlow binary was not compiled to use: AVX2 FMA"; the program goes on, weak:
which instructions). Intel's MKL refuses a CPU below its minimum ("Intel MKL FATAL ERROR: This system does not meet the
minimum requirements for use of the Intel(R) Math Kernel Library.", then each instruction set it needs, under x86 conda
on an Apple chip) and warns of SSE4.2-only processors ("Intel MKL WARNING: Support of Intel(R) Streaming SIMD
Extensions 4.2 ... has been deprecated", weak). qemu, running an x86 image on an Apple chip, reports the signal its
guest died of ("qemu: uncaught target signal 4 (Illegal instruction) - core dumped"): the signal, as the kernel would;
Rosetta, running one in a container, what it could not open.
They take their place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.signals import signal_name

CPU_FEATURE_ERRORS: list[BareError] = [
    environment_check(
        "tf-cpu-features",
        ("this TensorFlow binary was not compiled to use",),
        r"Your CPU supports instructions that this TensorFlow binary was not compiled to use: (?P<isa>[\w .]{1,100})$",
        None,
        message=lambda m: (
            "Your CPU supports instructions that this TensorFlow binary was not compiled to use: " + m["isa"].strip()
        ),
        weak=True,
    ),
    environment_check(
        "mkl-minimum",
        ("does not meet the minimum requirements for use of the Intel",),
        r"(?P<msg>This system does not meet the minimum requirements for use of the Intel\(R\) Math Kernel Library)",
        None,
        message=lambda m: f"Intel MKL FATAL ERROR: {m['msg']}",
    ),
    environment_check(
        "mkl-sse42",
        ("Intel MKL WARNING: Support of",),
        r"Intel MKL WARNING: Support of Intel\(R\) Streaming SIMD Extensions 4\.2 .{0,200}has been deprecated",
        None,
        message=lambda m: "Intel MKL WARNING: support of SSE4.2-only processors has been deprecated",
        weak=True,
    ),
    # Rosetta unable to run an x86 binary in a container ("rosetta error: failed to open elf at
    # /lib64/ld-linux-x86-64.so.2", "rosetta error: Unable to open /proc/self/exe: 40"), the trap it ends in after
    environment_check(
        "rosetta",
        ("rosetta error: ",),
        r"rosetta error: (?P<msg>failed to open elf at \S{1,200}|Unable to open \S{1,200}: \d{1,4}|[A-Za-z][^:]{1,80})",
        None,
        message=lambda m: f"rosetta error: {m['msg']}",
    ),
    BareError(
        "qemu-signal",
        ("qemu: uncaught target signal",),
        re.compile(r"qemu: uncaught target signal (?P<n>\d{1,2}) \((?P<name>[\w ]{1,40})\)"),
        lambda m: signal_name(m["n"]),
        message=lambda m: f"process killed by {signal_name(m['n'])}",
    ),
]
