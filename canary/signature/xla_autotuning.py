"""XLA:GPU's autotuners in their own words, as a compile meets them: a candidate that does not match the reference
(the GEMM fusion autotuner's "Results do not match the reference. ...", the GEMM and convolution pickers' "Results
mismatch between different ... algorithms") and the buffer comparator's lines below it, a search that found no config
("No valid config found!", "No configs could be compiled.", "All configs were filtered out because none of them
sufficiently match the hints."), a Triton GEMM's tiling it could not combine ("Can not combine dim orders and
requirements"), ptxas crashing on a candidate ("ptxas exited with non-zero error code 139"), cuBLAS's search for a
GEMM algorithm ("Failed to find best cuBLAS algorithm, GEMM performance might be suboptimal"), and the runtime's custom
call into cuBLASLt failing ("run time error: custom call 'xla.gpu.cublas.lt.matmul' failed"). A post quotes the status
words without their code, in a title or a sentence: read after every other recogniser, with the code XLA raises them
with; the searches' own lines are weak, the failure only where nothing louder is. Pure. They take their place in
:data:`canary.signature.devices.DEVICE_ERRORS`, the words a post quotes last in
:data:`canary.signature.bare.BARE_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

# the code XLA raises an autotuner's status with, for a post that quotes only its words
_STATUS = {"No valid config found": "NOT_FOUND", "Can not combine dim orders and requirements": "FAILED_PRECONDITION"}

XLA_AUTOTUNING: list[BareError] = [
    # XLA:GPU's autotuners checking each candidate against a reference, logged as an error while the compile goes on:
    # "Results do not match the reference. This is likely a bug/unexpected loss of precision." (the GEMM fusion
    # autotuner), "Results mismatch between different GEMM algorithms. ..." (the GEMM algorithm picker), "... between
    # different convolution algorithms. ... in cudnn." (the convolution picker); which check it is, is the failure
    BareError(
        "autotune-mismatch",
        ("Results do not match the reference", "Results mismatch between different"),
        re.compile(
            r"(?P<msg>Results do not match the reference|Results mismatch between different \w{1,20} algorithms)"
        ),
        None,
        "compile_error",
        weak=True,
    ),
    # the buffer comparator's lines those checks print (".../buffer_comparator.cc:157] Difference at 32: 400, expected
    # 772"): the same failure, told by the check above or below them where the excerpt keeps it, alone where it does not
    BareError(
        "autotune-difference",
        ("Difference at ",),
        re.compile(r"^(?P<msg>Difference at) \d{1,12}: [\d.e+-]{1,40}, expected [\d.e+-]{1,40}$"),
        None,
        "compile_error",
        message=lambda m: "Results differ from the reference (buffer comparator: Difference at ...)",
        weak=True,
    ),
]

# (read after every other recogniser has had the line: a status raised names it, where one was)
XLA_QUOTED: list[BareError] = [
    BareError(
        "autotune-status",
        tuple(_STATUS),
        re.compile(r"(?P<words>No valid config found|Can not combine dim orders and requirements)"),
        "XlaRuntimeError",
        message=lambda m: f"{_STATUS[m['words']]}: {m['words']}",
    ),
    BareError(
        "autotune-ptxas",
        ("ptxas exited with ",),
        re.compile(r"\bptxas exited with (?:non-zero )?error code (?P<code>\d{1,6})\b"),
        "XlaRuntimeError",
        message=lambda m: f"INTERNAL: ptxas exited with non-zero error code {m['code']}",
    ),
    BareError(
        "autotune-cublaslt-call",
        ("run time error: custom call '",),
        re.compile(r"run time error: custom call '(?P<target>[\w.$-]{1,200})' failed"),
        "XlaRuntimeError",
        message=lambda m: f"INTERNAL: run time error: custom call '{m['target']}' failed",
    ),
    # (the searches' own lines, logged while the compile goes on or before it gives up)
    BareError(
        "autotune-no-config",
        ("Failed to find best cuBLAS algorithm", "No configs could be compiled", "All configs were filtered out"),
        re.compile(
            r"(?P<msg>Failed to find best cuBLAS algorithm|No configs could be compiled|All configs were filtered out "
            r"because none of them)"
        ),
        None,
        "compile_error",
        message=lambda m: m["msg"].removesuffix(" because none of them"),
        weak=True,
    ),
]
