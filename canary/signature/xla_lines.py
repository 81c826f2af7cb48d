"""What XLA and jax print about memory, buffers and callbacks without a class, read where a post gives only those
lines: the rematerializer's warning that it could not bring a program under its limit, XLA:TPU's report of a program's
HBM without the status above it, a platform that does not implement donation, a donated array used again,
host_callback refused under the PJRT C API, and GSPMD's propagation to be retired. Pure. They take their place in
:data:`canary.signature.bare.BARE_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

XLA_LINES: list[BareError] = [
    # XLA's rematerializer unable to bring a program under the memory limit ("Can't reduce memory use below 10.64GiB
    # (11429599125 bytes) by rematerialization; only reduced to 56.60GiB ...", with a negative limit when the
    # arguments alone exceed it): a warning the program is compiled after, and may run out of memory; the sizes are
    # the program's and the device's
    BareError(
        "xla-remat-limit",
        ("by rematerialization",),
        re.compile(r"Can't reduce memory use below -?[\d.]{1,12}\w{0,3}B? \(-?\d{1,20} bytes\) by rematerialization"),
        None,
        "infrastructure",
        message=lambda m: "XLA can't reduce memory use below the limit by rematerialization",
        weak=True,
    ),
    # XLA:TPU's report of a program that does not fit its HBM ("Program hbm requirement 15.78G:", "Largest program
    # allocations in hbm:"), posted without the RESOURCE_EXHAUSTED status above it: that status, its figures masked
    BareError(
        "tpu-hbm-report",
        ("Program hbm requirement", "Largest program allocations in hbm"),
        re.compile(r"^(?:Program hbm requirement [\d.]{1,12}\w?:|Largest program allocations in hbm:)"),
        "XlaRuntimeError",
        "compile_error",
        message=lambda m: (
            "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used <bytes> of <bytes> hbm. "
            "Exceeded hbm capacity by <bytes>"
        ),
        weak=True,  # (below the status it explains, the status names the failure)
    ),
    # Mosaic's check of a serialized kernel's version, the line libtpu logs above its status ("error: Unsupported
    # Mosaic version: 3", then "Failed to deserialize the Mosaic module"): a kernel serialized by a newer jax than the
    # libtpu reading it; the status is the failure, which version the two releases'
    BareError(
        "mosaic-version",
        ("Unsupported Mosaic version",),
        re.compile(r"\bUnsupported Mosaic version: \d{1,4}"),
        "XlaRuntimeError",
        "environment",
        message=lambda m: "Failed to deserialize the Mosaic module",
    ),
    # a platform whose PJRT client does not implement donation ("Donation is not implemented for ('METAL',)", a
    # custom backend's), the second line of jax's warning that some donated buffers were not usable
    BareError(
        "donation-not-implemented",
        ("Donation is not implemented for",),
        re.compile(r"(?:^|(?<=\s))Donation is not implemented for \(?'?(?P<platform>[\w<>-]{1,40})"),
        "UserWarning",
        message=lambda m: "Donation is not implemented for the platform",
        weak=True,
    ),
    # a donated or deleted jax.Array used again, quoted in prose without its class ('an "Array has been deleted"
    # error'): jax raises it as RuntimeError
    BareError(
        "array-deleted",
        ("Array has been deleted",),
        re.compile(r"(?:^|(?<=[\s\"'`]))(?P<msg>Array has been deleted)\b"),
        "RuntimeError",
    ),
    # host_callback refused where jax talks to its backend through the PJRT C API ("host_callback functionality isn't
    # supported with PJRT C API. See ..."), quoted without its class or left as the raising frame's source line
    BareError(
        "host-callback-pjrt-c-api",
        ("host_callback functionality isn't supported",),
        re.compile(r"(?P<msg>host_callback functionality isn't supported with PJRT C API)"),
        "NotImplementedError",
    ),
    # XLA's notice that GSPMD's sharding propagation will be retired ("GSPMD sharding propagation is going to be
    # deprecated and not supported in the future. Please consider migrating to Shardy"): a program still on the old
    # partitioner; it compiles on
    BareError(
        "gspmd-deprecated",
        ("GSPMD sharding propagation is going to be deprecated",),
        re.compile(r"(?P<msg>GSPMD sharding propagation is going to be deprecated)"),
        None,
        "environment",
        weak=True,
    ),
]
