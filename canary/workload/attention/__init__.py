"""Attention backends behind one signature, the model's rotary causal attention:

    attend(q (B, S, H, Dh), k (B, S, Hkv, Dh), v (B, S, Hkv, Dh), theta, window) -> (B, S, H, Dh)

RoPE on q and k, softmax attention scaled by 1/sqrt(Dh), query i seeing keys i - window .. i
(0 .. i when window is None). ``xla`` is the model's own reference
(``canary.workload.model.rotary_causal_attention``); ``cpu_fused`` is one C kernel for the
forward pass and one for the backward, the cpu lane's choice.
"""

from __future__ import annotations

from canary.workload.backends import Choice

BACKENDS: dict[str, str] = {
    "xla": "canary.workload.attention.xla",
    "cpu_fused": "canary.workload.attention.cpu_fused",
}
AUTO: dict[str, str] = {"cpu": "cpu_fused"}
FALLBACK: dict[str, str] = {"cpu_fused": "xla"}  # cpu_fused needs a C compiler

CHOICE = Choice("attention", BACKENDS, AUTO, "xla", FALLBACK)
fallback_reason, resolve, make = CHOICE.fallback_reason, CHOICE.resolve, CHOICE.make
