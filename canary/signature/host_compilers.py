"""The host's C++ toolchain under a CUDA extension's build, in the words of the layer that refused it. Pure.

PyTorch's extension builder checks the host compiler against the CUDA it found ("The current installed version of g++
(12.2.1) is greater than the maximum required version by CUDA 11.7 (11.5.0). Please make sure to use an adequate version
of g++ (>=6.0.0, <=11.5.0).", raised as a RuntimeError or printed alone, under a triple's name: "x86_64-linux-gnu-g++");
PyTorch 2's headers refuse a compiler without C++17 ("error: #error C++17 or later compatible compiler is required to
use PyTorch."); an old nvcc refuses the standard asked ("nvcc fatal : Value 'c++14' is not defined for option 'std'");
and a compile killed for memory under many jobs is nvcc's ("nvcc error : 'cicc' died due to signal 9 (Kill signal)") or
gcc's ("c++: fatal error: Killed signal terminated program cc1plus"). Which compiler, check or tool is the failure; the
versions are the machine's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts
from canary.signature.signals import signal_name

_ABOVE = "is greater than the maximum required version by CUDA"
_ABOVE_CUDA = re.compile(
    r"^The current installed version of (?:[\w.-]{1,40}-)?(g\+\+|gcc|clang\+\+|clang|cl) \([\d.]{1,20}\) "
    + _ABOVE
    + r" [\d.]{1,10} \([\d.]{1,20}\)\..*$"
)


def compiler_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``host-compilers`` rule: PyTorch's check of the host compiler against CUDA by compiler, not versions."""
    if _ABOVE in message:
        message = _ABOVE_CUDA.sub(rf"The current installed version of \1 {_ABOVE}", message)
    return exc, message, frames


HOST_COMPILER_ERRORS: list[BareError] = [
    environment_check(
        "torch-host-compiler",
        (_ABOVE,),
        r"^(?P<msg>The current installed version of \S{1,60} \([\d.]{1,20}\) " + _ABOVE + r" [\d.]{1,10} \(.*)$",
    ),
    environment_check(
        "nvcc-std",
        ("is not defined for option 'std'",),
        r"^nvcc fatal\s{0,6}: Value '(?P<std>[\w+]{1,20})' is not defined for option 'std'",
        None,
        message=lambda m: f"nvcc fatal: Value '{m['std']}' is not defined for option 'std'",
    ),
    BareError(
        "torch-cxx17",
        ("#error C++17 or later compatible compiler is required",),
        re.compile(r"error: #error (?P<msg>C\+\+17 or later compatible compiler is required to use PyTorch)\.?$"),
        None,
        "compile_error",
        message=lambda m: f"#error {m['msg']}",
    ),
    # a compiler's process killed under it (the kernel's OOM killer, a build's MAX_JOBS too many for its memory)
    BareError(
        "nvcc-tool-signal",
        ("died due to signal",),
        re.compile(r"\bnvcc error\s{0,6}: '(?P<tool>\w{1,20})' died due to signal (?P<n>\d{1,2})\b"),
        lambda m: signal_name(m["n"]),
        message=lambda m: f"nvcc: '{m['tool']}' died due to signal {m['n']}",
    ),
    BareError(
        "cc1-killed",
        ("Killed signal terminated program",),
        re.compile(r"\b(?:c\+\+|g\+\+|gcc|cc): fatal error: Killed signal terminated program (?P<prog>cc1\w{0,6})\b"),
        "SIGKILL",
        message=lambda m: f"Killed signal terminated program {m['prog']}",
    ),
]
