"""The canary's model: a tiny mixture-of-experts transformer in plain JAX, in one file.

Shapes, in the order data flows:
    tokens (B, S) -> embed (B, S, D) -> [RMSNorm -> attention -> + ; RMSNorm -> MoE -> +] x L
    -> RMSNorm -> LM head (B, S, V)

The MoE layer routes every token to ``k`` of ``E`` experts:
    router logits (float32) -> top-k on logits + a non-trainable selection bias
    -> sigmoid combine weights (normalised over the k picks)
    -> the (token, pick) rows sorted by expert -> three grouped matmuls through ``ragged_dot``
    -> unsorted, weighted and summed; plus a dense shared expert.
``ragged_dot(lhs (M, K), rhs (E, K, N), group_sizes (E,)) -> (M, N)`` is pluggable (see
``canary.workload.ragged_dot``) so the same model runs XLA's op, the megablox Pallas kernel
on TPU, or a pure-JAX tiled grouped matmul on CPU. Everything else is this file's, on every lane.

Parameters are float32; activations are cast to ``compute_dtype``; router logits, norms, the
softmax and the losses stay float32.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp

from canary.workload import blockwise

RaggedDotFn = Callable[[jax.Array, jax.Array, jax.Array], jax.Array]


@dataclass(frozen=True)
class MoEConfig:
    vocab_size: int
    hidden: int
    intermediate: int
    shared_expert_intermediate: int
    num_experts: int
    experts_per_token: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    sliding_window: int | None = None
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5
    compute_dtype: str = "float32"
    # positions computed at once by the cross-entropy and the attention (None: the whole sequence;
    # canary.workload.blockwise)
    loss_block: int | None = None
    attention_block: int | None = None

    @property
    def dtype(self):
        return jnp.dtype(self.compute_dtype)


# ----------------------------------------------------------------------------- parameters


class Init(NamedTuple):
    """How one parameter starts: normal(0, scale**2), or ones when scale is None."""

    shape: tuple[int, ...]
    scale: float | None


def param_layout(cfg: MoEConfig) -> dict:
    """Every parameter's shape and initial scale (1/sqrt(fan_in) for weights)."""
    D, I, E, V = cfg.hidden, cfg.intermediate, cfg.num_experts, cfg.vocab_size
    Hq, Hkv, Dh, Is = cfg.heads, cfg.kv_heads, cfg.head_dim, cfg.shared_expert_intermediate

    def weight(shape, fan_in):
        return Init(shape, fan_in**-0.5)

    def layer():
        p = {
            "attn_norm": Init((D,), None),
            "wq": weight((D, Hq * Dh), D),
            "wk": weight((D, Hkv * Dh), D),
            "wv": weight((D, Hkv * Dh), D),
            "wo": weight((Hq * Dh, D), Hq * Dh),
            "mlp_norm": Init((D,), None),
            "router": weight((D, E), D),
            "w_gate": weight((E, D, I), D),
            "w_up": weight((E, D, I), D),
            "w_down": weight((E, I, D), I),
        }
        if Is:
            p["shared"] = {"w_gate": weight((D, Is), D), "w_up": weight((D, Is), D), "w_down": weight((Is, D), Is)}
        return p

    return {
        "embed": Init((V, D), 0.02),
        "layers": [layer() for _ in range(cfg.layers)],
        "final_norm": Init((D,), None),
        "lm_head": weight((D, V), D),
    }


def init_params(cfg: MoEConfig, key: jax.Array) -> dict:
    """Every weight is carved from one normal draw: one random-number op to compile, not dozens."""
    inits, treedef = jax.tree_util.tree_flatten(param_layout(cfg), is_leaf=lambda x: isinstance(x, Init))
    sizes = [math.prod(i.shape) if i.scale is not None else 0 for i in inits]
    z = jax.random.normal(key, (sum(sizes),), jnp.float32)
    leaves, at = [], 0
    for init, n in zip(inits, sizes, strict=True):
        if init.scale is None:
            leaves.append(jnp.ones(init.shape, jnp.float32))
        else:
            leaves.append(z[at : at + n].reshape(init.shape) * init.scale)
            at += n
    return jax.tree_util.tree_unflatten(treedef, leaves)


def router_bias(cfg: MoEConfig) -> jax.Array:
    """The non-trainable selection bias (used only to pick experts, never to weight them)."""
    return jnp.zeros((cfg.layers, cfg.num_experts), jnp.float32)


# ----------------------------------------------------------------------------- blocks


def rms_norm(x: jax.Array, weight: jax.Array, eps: float) -> jax.Array:
    x32 = x.astype(jnp.float32)
    y = x32 * jax.lax.rsqrt(jnp.mean(x32 * x32, axis=-1, keepdims=True) + eps)
    return (y * weight).astype(x.dtype)


def rope(x: jax.Array, theta: float) -> jax.Array:
    """Rotary position embedding over the last axis of x (B, S, H, Dh)."""
    S, Dh = x.shape[1], x.shape[-1]
    freqs = theta ** (-jnp.arange(0, Dh, 2, dtype=jnp.float32) / Dh)
    angles = jnp.arange(S, dtype=jnp.float32)[:, None] * freqs[None, :]  # (S, Dh/2)
    cos, sin = jnp.cos(angles)[None, :, None, :], jnp.sin(angles)[None, :, None, :]
    x1, x2 = jnp.split(x.astype(jnp.float32), 2, axis=-1)
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)


def rotary_causal_attention(
    q: jax.Array, k: jax.Array, v: jax.Array, theta: float, window: int | None, block: int | None = None
) -> jax.Array:
    """q (B, S, H, Dh), k and v (B, S, Hkv, Dh) -> (B, S, H, Dh): RoPE on q and k, then softmax
    attention scaled by 1/sqrt(Dh) in which query i sees keys i - window .. i (0 .. i if window
    is None). Query heads share key/value heads in groups of H / Hkv. With a ``block``, queries
    are attended that many at a time (:func:`canary.workload.blockwise.windowed_attention`)."""
    q, k = rope(q, theta), rope(k, theta)
    if block is not None:
        return blockwise.windowed_attention(q, k, v, window, block)
    local = None if window is None else (window, 0)
    return jax.nn.dot_product_attention(q, k, v, is_causal=True, local_window_size=local)


def attention_window(cfg: MoEConfig, seq_len: int) -> int | None:
    """How many earlier keys a query sees (None: all of them)."""
    if cfg.sliding_window is not None and cfg.sliding_window < seq_len:
        return cfg.sliding_window - 1
    return None


def attention(p: dict, x: jax.Array, cfg: MoEConfig) -> jax.Array:
    """x (B, S, D) -> (B, S, D): q, k, v projections, rotary causal attention, output projection."""
    B, S, _ = x.shape
    dt = cfg.dtype
    q = (x @ p["wq"].astype(dt)).reshape(B, S, cfg.heads, cfg.head_dim)
    k = (x @ p["wk"].astype(dt)).reshape(B, S, cfg.kv_heads, cfg.head_dim)
    v = (x @ p["wv"].astype(dt)).reshape(B, S, cfg.kv_heads, cfg.head_dim)
    out = rotary_causal_attention(q, k, v, cfg.rope_theta, attention_window(cfg, S), cfg.attention_block)
    return out.reshape(B, S, cfg.heads * cfg.head_dim) @ p["wo"].astype(dt)


def swiglu(x: jax.Array, w_gate: jax.Array, w_up: jax.Array, w_down: jax.Array) -> jax.Array:
    dt = x.dtype
    return (jax.nn.silu(x @ w_gate.astype(dt)) * (x @ w_up.astype(dt))) @ w_down.astype(dt)


@jax.custom_vjp
def sort_rows(x: jax.Array, order: jax.Array) -> jax.Array:
    """``x[order]`` for a permutation ``order`` of x's rows, whose backward pass is the inverse
    permutation's gather instead of autodiff's scatter-add. Production MoE code does the same:
    MaxText's ``_sort_activations`` (with ``use_custom_vjp``) sorts and unsorts this way."""
    return x[order]


def _sort_rows_fwd(x, order):
    return x[order], order


def _sort_rows_bwd(order, g):
    return g[jnp.argsort(order)], None


sort_rows.defvjp(_sort_rows_fwd, _sort_rows_bwd)


def combine_weights(picked: jax.Array) -> jax.Array:
    """The weights (T, k) of each token's k picked experts, from their router logits: sigmoids,
    normalised over the k picks."""
    weights = jax.nn.sigmoid(picked)
    return weights / (jnp.sum(weights, axis=-1, keepdims=True) + 1e-9)


def expert_activation(x: jax.Array) -> jax.Array:
    """The routed experts' gate activation."""
    return jax.nn.silu(x)


def moe(p: dict, x: jax.Array, bias: jax.Array, cfg: MoEConfig, ragged_dot: RaggedDotFn):
    """Routed experts plus the shared expert. Returns (y, aux) with aux the router statistics."""
    B, S, D = x.shape
    E, k = cfg.num_experts, cfg.experts_per_token
    tokens = x.reshape(B * S, D)
    T = tokens.shape[0]

    logits = tokens.astype(jnp.float32) @ p["router"]  # (T, E), float32 always
    _, expert_idx = jax.lax.top_k(logits + jax.lax.stop_gradient(bias), k)  # (T, k)
    weights = combine_weights(jnp.take_along_axis(logits, expert_idx, axis=-1))

    # Sort the T*k (token, pick) rows by expert so each expert's rows are contiguous.
    flat_expert = expert_idx.reshape(-1)
    order = jnp.argsort(flat_expert, stable=True)
    rows = sort_rows(jnp.repeat(tokens, k, axis=0), order)
    group_sizes = jnp.bincount(flat_expert, length=E).astype(jnp.int32)

    dt = cfg.dtype
    with jax.named_scope("experts"):
        h = expert_activation(ragged_dot(rows, p["w_gate"].astype(dt), group_sizes))
        h = h * ragged_dot(rows, p["w_up"].astype(dt), group_sizes)
        out_rows = ragged_dot(h, p["w_down"].astype(dt), group_sizes)  # (T*k, D) in sorted order

    unsorted = sort_rows(out_rows, jnp.argsort(order)).reshape(T, k, D)
    y = jnp.einsum("tkd,tk->td", unsorted, weights.astype(dt))
    if "shared" in p:
        s = p["shared"]
        with jax.named_scope("shared_expert"):
            y = y + swiglu(tokens, s["w_gate"], s["w_up"], s["w_down"])

    # The router's statistics as token means (see layer_statistics): the z-loss keeps logits small.
    lse = jax.nn.logsumexp(logits, axis=-1)
    aux = {
        "router_z_loss": jnp.mean(lse**2),
        "expert_fraction": jax.lax.stop_gradient(group_sizes.astype(jnp.float32) / (T * k)),
        "expert_prob": jax.lax.stop_gradient(jnp.mean(jax.nn.softmax(logits, axis=-1), axis=0)),
    }
    return y.reshape(B, S, D), aux | {"moe_output_ms": mean_square(y)}


def mean_square(x: jax.Array) -> jax.Array:
    """The mean square of an activation, in float32 (its RMS's square: a token mean)."""
    return jnp.mean(jnp.square(jax.lax.stop_gradient(x).astype(jnp.float32)))


def rms(x: jax.Array) -> jax.Array:
    """The root mean square of an activation, in float32: a layer's output norm, for the record."""
    return jnp.sqrt(mean_square(x))


def load_balance(frac_routed: jax.Array, mean_prob: jax.Array) -> jax.Array:
    """E * sum_e f_e * P_e: 1.0 when perfectly balanced (logged, not trained on)."""
    return frac_routed.shape[-1] * jnp.sum(frac_routed * mean_prob)


def usage_entropy(frac_routed: jax.Array) -> jax.Array:
    """The entropy of the experts' shares of the routed tokens over log E: 1.0 when every expert
    gets as many, lower as fewer experts take more of them."""
    f = jax.lax.stop_gradient(frac_routed)
    entropy = -jnp.sum(jnp.where(f > 0, f * jnp.log(jnp.maximum(f, 1e-30)), 0.0))
    return entropy / jnp.log(f.shape[-1])


# each layer's statistic -> its metric's name; the part of the model it is of is the name's second
# component (canary.golden.stats)
LAYER_METRICS = {
    "attention_output_rms": "stats/attention/layer{i}/output_rms",
    "router_z_loss": "stats/router/layer{i}/z_loss",
    "load_balancing_loss": "stats/router/layer{i}/load_balance",
    "usage_entropy": "stats/experts/layer{i}/usage_entropy",
    "moe_output_rms": "stats/experts/layer{i}/output_rms",
}


def layer_statistics(means: dict[str, jax.Array]) -> dict[str, jax.Array]:
    """A layer's statistics from its token means (``moe``'s and ``forward``'s per-layer dict).
    Every mean is over the batch's tokens, so the data-parallel step averages them over its
    devices first (equal shards: the global batch's means) and forms the statistics after, from
    the whole batch: a load balance or an entropy of one device's quarter batch is another number."""
    stats = {k: v for k, v in means.items() if k not in ("expert_fraction", "expert_prob")}
    for name in ("moe_output", "attention_output"):
        if f"{name}_ms" in stats:
            stats[f"{name}_rms"] = jnp.sqrt(stats.pop(f"{name}_ms"))
    if "expert_fraction" in means:
        stats["load_balancing_loss"] = load_balance(means["expert_fraction"], means["expert_prob"])
        stats["usage_entropy"] = usage_entropy(means["expert_fraction"])
    return stats


def statistics(metrics: dict) -> dict[str, jax.Array]:
    """``loss_fn``'s metrics (each layer's token means under ``layers``, averaged over the devices
    where the step is data-parallel) -> the step's metrics, under their names."""
    metrics = dict(metrics)
    layers = [layer_statistics(s) for s in metrics.pop("layers")]
    if all("load_balancing_loss" in s for s in layers):
        metrics["train/router/load_balancing_loss"] = jnp.mean(jnp.stack([s["load_balancing_loss"] for s in layers]))
    return metrics | layer_metrics(layers)


def layer_metrics(layers: list[dict[str, jax.Array]]) -> dict[str, jax.Array]:
    """Each layer's statistics under their metric names (``stats/<part>/layer<i>/<statistic>``)."""
    return {LAYER_METRICS[k].format(i=i): v for i, s in enumerate(layers) for k, v in s.items() if k in LAYER_METRICS}


def forward(params: dict, tokens: jax.Array, bias: jax.Array, cfg: MoEConfig, ragged_dot: RaggedDotFn):
    """tokens (B, S) int32 -> logits (B, S, V) float32, each layer's token means (``layer_statistics``)."""
    x, layers = hidden_states(params, tokens, bias, cfg, ragged_dot)
    with jax.named_scope("lm_head"):
        logits = (x @ params["lm_head"].astype(cfg.dtype)).astype(jnp.float32)
    return logits, layers


def hidden_states(params: dict, tokens: jax.Array, bias: jax.Array, cfg: MoEConfig, ragged_dot: RaggedDotFn):
    """tokens (B, S) int32 -> the final normed hidden states (B, S, D) the LM head reads, each
    layer's token means (``layer_statistics``)."""
    dt = cfg.dtype
    x = params["embed"][tokens].astype(dt)
    layers = []
    for i, layer in enumerate(params["layers"]):
        with jax.named_scope("attention"):
            a = attention(layer, rms_norm(x, layer["attn_norm"], cfg.norm_eps), cfg)
            x = x + a
        with jax.named_scope("moe"):
            y, aux = moe(layer, rms_norm(x, layer["mlp_norm"], cfg.norm_eps), bias[i], cfg, ragged_dot)
        x = x + y
        layers.append(aux | {"attention_output_ms": mean_square(a)})
    with jax.named_scope("lm_head"):
        x = rms_norm(x, params["final_norm"], cfg.norm_eps)
    return x, layers


def target_stats(logits: jax.Array, targets: jax.Array) -> tuple[jax.Array, jax.Array]:
    """logits (B, S, V) float32, targets (B, S) -> each position's log-sum-exp (B, S), its target's logit (B, S)."""
    lse = jax.nn.logsumexp(logits, axis=-1)
    return lse, jnp.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]


def loss_fn(
    params: dict,
    batch: jax.Array,
    bias: jax.Array,
    cfg: MoEConfig,
    ragged_dot: RaggedDotFn,
    lm_head_z_loss: float,
    router_z_loss: float,
):
    """batch (B, S+1) tokens. loss = cross-entropy + lm-head z-loss + router z-loss. With
    ``cfg.loss_block``, the logits are made that many positions at a time and never whole
    (:func:`canary.workload.blockwise.token_losses`). The metrics are token means, each layer's
    under ``layers``: ``statistics`` names them."""
    inputs, targets = batch[:, :-1], batch[:, 1:]
    blocked = cfg.loss_block is not None
    out, layers = (hidden_states if blocked else forward)(params, inputs, bias, cfg, ragged_dot)
    router_z = jnp.mean(jnp.stack([s["router_z_loss"] for s in layers]))
    if blocked:
        with jax.named_scope("lm_head"):
            lse, target_logit = blockwise.token_losses(out, params["lm_head"], targets, cfg.loss_block)
    else:
        lse, target_logit = target_stats(out, targets)
    ce = jnp.mean(lse - target_logit)
    z_lm = jnp.mean(lse**2)
    loss = ce + lm_head_z_loss * z_lm + router_z_loss * router_z
    return loss, {"train/cross_entropy_loss": ce, "train/router/router_z_loss": router_z, "layers": layers}


def param_count(params: dict) -> int:
    return sum(int(x.size) for x in jax.tree_util.tree_leaves(params))
