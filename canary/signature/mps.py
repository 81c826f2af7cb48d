"""PyTorch's MPS backend on Apple silicon refusing what a program asks of it. Pure.

An operator the backend lacks is named with the same advice in every release ("The operator 'aten::_fft_r2c' is not
currently implemented for the MPS device. If you want this op to be added in priority during the prototype phase of
this feature, please comment on https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the
environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` ..."): the operator is the failure, the advice is not, and a post
may cut it anywhere. The macOS the backend needs moves with the release ("The MPS backend is supported on MacOS 12.3+.",
later "... 13.0+."): that the machine's macOS is too old is the failure. Posts and applications (ComfyUI's dialog, a
quote) give these words without the class torch raises them with.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_NOT_IMPLEMENTED = re.compile(r"^(The operator '[\w:.]{1,200}' is not currently implemented for the MPS device)\b.*$")
_MACOS = re.compile(r"^(The MPS backend is supported on MacOS) \d{1,3}(?:\.\d{1,3}){0,2}\+.{0,1000}$")
# (a post may drop the backticks around the variable's name or the period after the operator's)
_OPERATOR = r"(?P<msg>The operator '[\w:.]{1,200}' is not currently implemented for the MPS device)"


def mps_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``mps`` rule: an operator the backend lacks without the advice after it, the macOS it needs by no
    release."""
    if "for the MPS device" in message:
        message = _NOT_IMPLEMENTED.sub(r"\1", message)
    elif message.startswith("The MPS backend is supported on MacOS"):
        message = _MACOS.sub(r"\1 <version>+", message)
    return exc, message, frames


MPS_ERRORS: list[BareError] = [
    # the words alone, after an application's own line ("Error occurred when executing SUPIR_Upscale:") or in a quote
    BareError(
        "mps-operator", ("for the MPS device",), re.compile(rf"(?:^|(?<=[\s\"'`])){_OPERATOR}"), "NotImplementedError"
    ),
    BareError(
        "mps-unsupported",
        (
            "MPS backend out of memory",
            "to float64 dtype as the MPS framework",
            "natively starting from macOS",
            "The MPS backend is supported on MacOS",
        ),
        re.compile(
            # (after the class a binding names it with: torch.rb's "#<RuntimeError: ...>")
            r"(?:^|(?<=[\s\"'`<]))(?:(?P<cls>\w{1,60}Error): )?(?P<msg>MPS backend out of memory \(.{1,500}?|"
            r"Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64\b.{0,200}?|"
            r"MPS support \w{1,30} op with \w{1,20} natively starting from macOS [\d.]{1,10}|"
            r"The MPS backend is supported on MacOS [\d.]{1,10}\+.{0,500}?)(?:\.?>)?$"
        ),
        lambda m: m["cls"] or ("TypeError" if m["msg"].startswith("Cannot convert") else "RuntimeError"),
    ),
]
