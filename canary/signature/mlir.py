"""MLIR's diagnostics from the compilers that take jax's StableHLO in (IREE, XLA's lifting, Tenstorrent's), printed
without a class. Pure.

A conversion that could not lower an op says which ("failed to legalize operation 'stablehlo.custom_call'", IREE's "...
that was explicitly marked illegal"; a title capitalises it): a compile error, by the op. StableHLO's reader meeting an
op of a newer opset in a portable artifact ("unregistered operation 'vhlo.rsqrt_v2' found in dialect ('vhlo') that
does not allow unknown operations", then "failed to deserialize portable artifact using StableHLO_v1.9.5") is the
reader older than the producer: an environment check, whichever op the newer release added. Shardy's import and
torch_xla's conversion to it, jax's missing lowering rules and FFI handlers are named as their libraries raise them.
They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

MLIR_CHECKS: list[BareError] = [
    # XLA:CPU's JIT linking a program that calls symbols the process does not export ("JIT session error: Symbols not
    # found: [ _xla_python_cpu_callback, _blas_dtrsm ]", after "Unable to resolve runtime symbol: 'my_func'. Hint:
    # ..."): a custom call target not registered, or a jaxlib without the ones it named; which symbols
    environment_check(
        "xla-cpu-symbols",
        ("JIT session error: Symbols not found",),
        r"JIT session error: Symbols not found: \[ ?(?P<syms>[\w, ]{1,300}?) ?\]",
        None,
        message=lambda m: f"XLA:CPU JIT session error: Symbols not found: [{m['syms']}]",
    ),
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
    # Shardy's import refusing a custom call without its sharding ("error: expected CustomCallOp with a sharding
    # attribute"), and torch_xla's conversion to Shardy failing ("RuntimeError: StableHLO -> SDY conversion failed.", a
    # title without the class)
    BareError(
        "sdy-import",
        ("expected CustomCallOp with a sharding attribute",),
        re.compile(r"(?P<msg>expected CustomCallOp with a sharding attribute)"),
        None,
        "compile_error",
    ),
    BareError(
        "sdy-conversion",
        ("StableHLO -> SDY conversion failed",),
        re.compile(r"(?:^|(?<=[\s`\]]))(?<!Error: )(?P<msg>StableHLO -> SDY conversion failed)"),
        "RuntimeError",
    ),
    # jax's lowering without a rule for a primitive on a platform ("MLIR translation rule for primitive 'nufft2' not
    # found for platform cuda", NotImplementedError), XLA without the FFI handler a call names ("No FFI handler
    # registered for cusolver_getrf_ffi on a platform CUDA (canonical cuda)", NOT_FOUND), and the custom-call
    # registration jax 0.4.35 deprecated ("xla_client.register_custom_call_target has been deprecated"), posted without
    # their class
    BareError(
        "jax-lowering-rule",
        ("MLIR translation rule for primitive",),
        re.compile(
            r"(?<!Error: )(?P<msg>MLIR translation rule for primitive '\w{1,100}' not found for platform \w{1,20})"
        ),
        "NotImplementedError",
    ),
    BareError(
        "ffi-handler",
        ("No FFI handler registered for ",),
        re.compile(r"(?<!NOT_FOUND: )(?P<msg>No FFI handler registered for \w{1,200} on a platform \w{1,20})"),
        "XlaRuntimeError",
        message=lambda m: f"NOT_FOUND: {m['msg']}",
    ),
    BareError(
        "custom-call-registration",
        ("register_custom_call_target has been deprecated",),
        re.compile(r"(?P<msg>xla_client\.register_custom_call_target has been deprecated)"),
        "DeprecationWarning",
        weak=True,
    ),
]
