"""MLIR's diagnostics from the compilers that take jax's StableHLO in (IREE, XLA's lifting, Tenstorrent's), printed
without a class. Pure.

A conversion that could not lower an op says which ("failed to legalize operation 'stablehlo.custom_call'", IREE's "...
that was explicitly marked illegal"; a title capitalises it): a compile error, by the op. StableHLO's reader meeting an
op of a newer opset in a portable artifact ("unregistered operation 'vhlo.rsqrt_v2' found in dialect ('vhlo') that
does not allow unknown operations", then "failed to deserialize portable artifact using StableHLO_v1.9.5") is the
reader older than the producer: an environment check, whichever op the newer release added. They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

MLIR_CHECKS: list[BareError] = [
    environment_check(
        "vhlo-newer-op",
        ("found in dialect ('vhlo')",),
        r"unregistered operation 'vhlo\.\w{1,100}' found in dialect \('vhlo'\)",
        None,
        message=lambda m: "unregistered operation found in dialect ('vhlo'): a portable artifact of a newer StableHLO",
    ),
    BareError(
        "mlir-legalize",
        ("ailed to legalize operation '",),
        # (not inside a status, Mosaic's error or an exception's message, which names the failure by its class; weak,
        # so a class above a message it continues names it)
        re.compile(
            r"^(?!.{0,600}(?:Error|Exception|[A-Z]{4,20}|TPU kernel): )"
            r".{0,600}?\b[Ff]ailed to legalize operation '(?P<op>[\w.]{1,100})'"
        ),
        None,
        "compile_error",
        message=lambda m: f"failed to legalize operation '{m['op']}'",
        weak=True,
    ),
]
