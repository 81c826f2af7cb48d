"""PyTorch's MPS backend on Apple silicon refusing what a program asks of it. Pure.

An operator the backend lacks is named with advice after it ("The operator 'aten::_fft_r2c' is not currently
implemented for the MPS device. If you want this op to be added in priority during the prototype phase of this
feature, please comment on https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the
environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` ...", 1.12's "is not current implemented", later releases' link to
another issue): the operator is the failure, the advice is not, and a post may cut it anywhere. Under the fallback the
backend warns that it runs the operator on the CPU, and a title may keep the first sentence alone. The macOS the
backend needs moves with the release ("The MPS backend is supported on MacOS 12.3+.", later "... 13.0+."): that the
machine's macOS is too old is the failure. Posts and applications (ComfyUI's dialog, a quote) give these words without
the class torch raises them with.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

# (PyTorch 1.12 wrote "is not current implemented", later releases "is not currently implemented")
_NOT_IMPLEMENTED = re.compile(
    r"^(The operator '[\w:.]{1,200}' is not current)(?:ly)?( implemented for the MPS device)\b.*$"
)
# the backend's warning that it ran an operator on the CPU under PYTORCH_ENABLE_MPS_FALLBACK ("The operator
# 'aten::nonzero' is not currently supported on the MPS backend and will fall back to run on the CPU. This may have
# performance implications."): a post's title may stop after the operator's sentence
_FALLBACK = re.compile(
    r"^(The operator '[\w:.]{1,200}' is not currently supported on the MPS backend and will fall back "
    r"to run on the CPU)\b.*$"
)
_MACOS = re.compile(r"^(The MPS backend is supported on MacOS) \d{1,3}(?:\.\d{1,3}){0,2}\+.{0,1000}$")
# (a post may drop the backticks around the variable's name or the period after the operator's)
_OPERATOR = r"(?P<msg>The operator '[\w:.]{1,200}' is not current(?:ly)? implemented for the MPS device)"


def mps_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``mps`` rule: an operator the backend lacks without the advice after it and in today's words, one it runs on
    the CPU without the warning's second sentence, the macOS it needs by no release."""
    if "for the MPS device" in message:
        message = _NOT_IMPLEMENTED.sub(r"\1ly\2", message)
    elif "will fall back to run on the CPU" in message:
        message = _FALLBACK.sub(r"\1", message)
    elif message.startswith("The MPS backend is supported on MacOS"):
        message = _MACOS.sub(r"\1 <version>+", message)
    return exc, message, frames


MPS_ERRORS: list[BareError] = [
    # the words alone, after an application's own line ("Error occurred when executing SUPIR_Upscale:") or in a quote
    BareError(
        "mps-operator", ("for the MPS device",), re.compile(rf"(?:^|(?<=[\s\"'`「])){_OPERATOR}"), "NotImplementedError"
    ),
    BareError(
        "mps-unsupported",
        (
            "MPS backend out of memory",
            "to float64 dtype as the MPS framework",
            "natively starting from macOS",
            "The MPS backend is supported on MacOS",
            "to the MPS backend but it does not have support for that dtype",
            " is not supported on MPS",
        ),
        re.compile(
            # (after the class a binding names it with: torch.rb's "#<RuntimeError: ...>")
            r"(?:^|(?<=[\s\"'`<：]))(?:(?P<cls>\w{1,60}Error): )?(?P<msg>MPS backend out of memory \(.{1,500}?|"
            r"Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64\b.{0,200}?|"
            r"MPS support \w{1,30} op with \w{1,20} natively starting from macOS [\d.]{1,10}|"
            r"The MPS backend is supported on MacOS [\d.]{1,10}\+.{0,500}?|"
            # (a dtype the backend has no support for, "Trying to convert Float8_e4m3fn to the MPS backend but it does
            # not have support for that dtype.", and an op it refuses whole: "Conv3D is not supported on MPS")
            r"Trying to convert \w{1,40} to the MPS backend but it does not have support for that dtype|"
            r"\w{1,40} is not supported on MPS)\.?(?:\.?>)?$"
        ),
        lambda m: m["cls"] or ("TypeError" if m["msg"].startswith(("Cannot convert", "Trying")) else "RuntimeError"),
    ),
]
