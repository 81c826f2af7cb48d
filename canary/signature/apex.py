"""NVIDIA apex without its compiled parts, and Transformer Engine's check of flash-attn, in their own words. Pure.

apex built without its extensions goes on in Python and warns: amp without its fused unscale kernel ("Warning:
multi_tensor_applier fused unscale kernel is unavailable, possibly because apex was installed without --cuda_ext
--cpp_ext. Using Python fallback.  Original ImportError was: ModuleNotFoundError("No module named 'amp_C'",)", the
quoted error's repr by Python release), its flattening without the C++ one ("Warning:  apex was installed without
--cpp_ext.  Falling back to Python flatten and unflatten.", a terminal may break it after the first sentence), and
DeepSpeed's ZeRO-3 says the same of the apex it found in its own logger's words. Each is weak, an environment
check by what is missing. Its setup refuses a CUDA other than PyTorch's ("Cuda extensions are being compiled with a
version of Cuda that does not match the version used to compile Pytorch binaries. Pytorch binaries were compiled with
Cuda 10.2."), whose versions are the machine's: :data:`canary.signature.torch_folds.TORCH_RULES` keeps its first
sentence. They take their place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

APEX_CUDA = re.compile(
    r"^(Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile "
    r"Pytorch binaries)\b.*$"
)


def _without(m: re.Match[str]) -> str:
    said = (
        "apex: multi_tensor_applier fused unscale kernel is unavailable (installed without --cuda_ext --cpp_ext)"
        if m["unscale"]
        else "apex was installed without --cpp_ext: falling back to Python flatten and unflatten"
    )
    return f"DeepSpeed: {said}" if "stage3.py:" in m.string or "[WARNING]" in m.string else said


APEX_ERRORS: list[BareError] = [
    environment_check(
        "apex-without-extensions",
        ("fused unscale kernel is unavailable", "apex was installed without --cpp_ext"),
        r"(?P<unscale>multi_tensor_applier fused unscale kernel is unavailable)|apex was installed without --cpp_ext\.",
        None,
        message=_without,
        weak=True,
    ),
    # Transformer Engine's check of the flash-attn beside it ("Supported flash-attn versions are >= 2.1.1, <= 2.6.3.
    # Found flash-attn 2.7.4.post1."): it goes on without FlashAttention (weak); the releases are the machine's
    environment_check(
        "te-flash-attn",
        ("Supported flash-attn versions are",),
        r"Supported flash-attn versions are >= [\w.+-]{1,40}, <= [\w.+-]{1,40}\. Found flash-attn",
        None,
        message=lambda m: "Transformer Engine: the flash-attn installed is not a supported version",
        weak=True,
    ),
]
