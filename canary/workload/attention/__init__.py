"""Attention-layer backends behind one signature, the model's attention layer:

    attention_fn(p, x (B, S, D), cfg) -> (B, S, D)

with ``p`` a layer's parameters (``wq``, ``wk``, ``wv``, ``wo``): q, k, v projections, RoPE on q
and k, causal softmax attention scaled by 1/sqrt(head_dim) (within the sliding window, query
heads sharing key/value heads), the output projection. ``xla`` is the model's own reference
(``canary.workload.model.attention``); ``cpu_fused`` is one C kernel for the forward pass and
one for the backward, the cpu lane's choice.
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
