"""The grug-moe-canary ferry's model: a tiny MoE transformer written as a grug template, in one file.

levanter's grug keeps the model's shared parts in the library and leaves the transformer itself to
a per-experiment template that each experiment copies and edits. This is canary's template,
written against the library's public API; everything below that API is the library's:

    tokens (B, S) -> embed (B, S, D) -> [RMSNorm -> attention -> + ; RMSNorm -> MoE -> +] x L
    -> RMSNorm -> LM head, fused with the loss

* attention: ``levanter.grug.attention`` (``attention``, ``AttentionMask``, ``RotaryConfig``,
  ``apply_rotary_embedding``): the library picks the kernel (reference attention on CPU and GPU,
  splash attention on TPU);
* routed experts: ``levanter.grug.grug_moe.MoEExpertMlp`` (dispatch sorted by expert, grouped
  matmuls through ``haliax.nn.ragged_dot``, scatter-add combine): haliax picks the grouped matmul
  (megablox on TPU, Pallas Triton on GPU, XLA's ``ragged_dot_general`` elsewhere);
* loss: ``levanter.grug.loss.fused_linear_softmax_cross_entropy_loss`` (LM head, cross-entropy
  and its z-loss in one call).

The template's own parts are the ones a grug experiment writes itself: embedding, RMSNorm, the
router (float32 logits, top-k on logits plus a non-trainable selection bias, sigmoid combine
weights normalised over the k picks, router z-loss), a dense shared expert, residuals, and the
per-layer statistics. Parameters are float32; activations are cast to ``compute_dtype``.
Nothing here looks at the platform: the library decides every kernel.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import random
from jax.sharding import PartitionSpec as P
from levanter.grug.attention import AttentionMask, RotaryConfig, apply_rotary_embedding, attention
from levanter.grug.grug_moe import MoEExpertMlp
from levanter.grug.loss import fused_linear_softmax_cross_entropy_loss
from levanter.utils.activation import ActivationFunctionEnum

from canary.workload.model import layer_metrics, rms, usage_entropy

# The local (single-process) MoE backend: grouped matmuls through haliax.nn.ragged_dot, then a
# scatter-add combine. The canary has no expert-parallel mesh axis, so the expert-parallel
# backends ("ring", ...) do not apply.
MOE_IMPLEMENTATION = "scatter"
# Activations are split over the mesh's batch axes; weights are replicated.
BATCH = P(("data", "expert"))  # the batch axes levanter's MoE shards tokens over


@dataclass(frozen=True)
class GrugConfig:
    vocab_size: int
    hidden_dim: int
    intermediate_dim: int
    shared_expert_intermediate_dim: int
    num_experts: int
    num_experts_per_token: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    sliding_window: int | None = None
    layer_norm_eps: float = 1e-5
    initializer_std: float = 0.02
    compute_dtype: str = "float32"
    rope: RotaryConfig = RotaryConfig()

    @property
    def dtype(self):
        return jnp.dtype(self.compute_dtype)


# Compiled once per weight shape (seven in the model), not once per weight: the whole init as one
# program compiled 51 truncated-normal draws, 2.9 s of a cold cpu run's 31 s on 2 cores.
@functools.partial(jax.jit, static_argnums=(1, 2))
def _init_weight(key: jax.Array, shape: tuple[int, ...], std: float) -> jax.Array:
    return std * random.truncated_normal(key, -3, 3, shape, jnp.float32)


class RMSNorm(eqx.Module):
    weight: jax.Array
    eps: float = eqx.field(static=True)

    @staticmethod
    def init(dim: int, eps: float) -> RMSNorm:
        return RMSNorm(weight=jnp.ones((dim,), jnp.float32), eps=eps)

    def __call__(self, x: jax.Array) -> jax.Array:
        x32 = x.astype(jnp.float32)
        normed = x32 * jax.lax.rsqrt(jnp.mean(jnp.square(x32), axis=-1, keepdims=True) + self.eps)
        return (normed * self.weight).astype(x.dtype)


class CausalSelfAttention(eqx.Module):
    w_q: jax.Array
    w_k: jax.Array
    w_v: jax.Array
    w_o: jax.Array
    cfg: GrugConfig = eqx.field(static=True)

    @staticmethod
    def init(cfg: GrugConfig, *, key: jax.Array) -> CausalSelfAttention:
        k_q, k_k, k_v, k_o = random.split(key, 4)
        d, n, m, h, std = cfg.hidden_dim, cfg.num_heads, cfg.num_kv_heads, cfg.head_dim, cfg.initializer_std
        return CausalSelfAttention(
            w_q=_init_weight(k_q, (d, n * h), std),
            w_k=_init_weight(k_k, (d, m * h), std),
            w_v=_init_weight(k_v, (d, m * h), std),
            w_o=_init_weight(k_o, (n * h, d), std),
            cfg=cfg,
        )

    def __call__(self, x: jax.Array, mask: AttentionMask) -> jax.Array:
        cfg, dt = self.cfg, x.dtype
        b, s, _ = x.shape
        q = jnp.einsum("bsd,dk->bsk", x, self.w_q.astype(dt)).reshape(b, s, cfg.num_heads, cfg.head_dim)
        k = jnp.einsum("bsd,dk->bsk", x, self.w_k.astype(dt)).reshape(b, s, cfg.num_kv_heads, cfg.head_dim)
        v = jnp.einsum("bsd,dk->bsk", x, self.w_v.astype(dt)).reshape(b, s, cfg.num_kv_heads, cfg.head_dim)
        q, k = apply_rotary_embedding(q, k, seq_len=s, head_dim=cfg.head_dim, rope=cfg.rope)
        out = attention(q, k, v, mask)
        return jnp.einsum("bsk,kd->bsd", out.reshape(b, s, cfg.num_heads * cfg.head_dim), self.w_o.astype(dt))


class DenseMLP(eqx.Module):
    """The shared expert every token goes through: a SwiGLU MLP."""

    w_gate: jax.Array
    w_up: jax.Array
    w_down: jax.Array

    @staticmethod
    def init(hidden_dim: int, intermediate_dim: int, std: float, *, key: jax.Array) -> DenseMLP:
        k_gate, k_up, k_down = random.split(key, 3)
        return DenseMLP(
            w_gate=_init_weight(k_gate, (hidden_dim, intermediate_dim), std),
            w_up=_init_weight(k_up, (hidden_dim, intermediate_dim), std),
            w_down=_init_weight(k_down, (intermediate_dim, hidden_dim), std),
        )

    def __call__(self, x: jax.Array) -> jax.Array:
        dt = x.dtype
        gate = jnp.einsum("td,dm->tm", x, self.w_gate.astype(dt))
        up = jnp.einsum("td,dm->tm", x, self.w_up.astype(dt))
        return jnp.einsum("tm,md->td", jax.nn.silu(gate) * up, self.w_down.astype(dt))


class MoEMLP(eqx.Module):
    """Router and top-k here; dispatch, grouped matmuls and combine in the library."""

    router: jax.Array
    experts: MoEExpertMlp
    shared: DenseMLP | None
    cfg: GrugConfig = eqx.field(static=True)

    @staticmethod
    def init(cfg: GrugConfig, *, key: jax.Array) -> MoEMLP:
        k_router, k_experts, k_shared = random.split(key, 3)
        shared = None
        if cfg.shared_expert_intermediate_dim:
            shared = DenseMLP.init(
                cfg.hidden_dim, cfg.shared_expert_intermediate_dim, cfg.initializer_std, key=k_shared
            )
        return MoEMLP(
            router=_init_weight(k_router, (cfg.hidden_dim, cfg.num_experts), cfg.initializer_std),
            experts=MoEExpertMlp.init(
                num_experts=cfg.num_experts,
                hidden_dim=cfg.hidden_dim,
                intermediate_dim=cfg.intermediate_dim,
                initializer_std=cfg.initializer_std,
                key=k_experts,
                implementation=MOE_IMPLEMENTATION,
                activation=ActivationFunctionEnum.silu,
            ),
            shared=shared,
            cfg=cfg,
        )

    def __call__(self, x: jax.Array, selection_bias: jax.Array) -> tuple[jax.Array, dict[str, jax.Array]]:
        cfg = self.cfg
        b, s, d = x.shape
        tokens = x.reshape(b * s, d)
        logits = jnp.einsum("td,de->te", tokens.astype(jnp.float32), self.router)  # float32 always
        _, selected = jax.lax.top_k(logits + jax.lax.stop_gradient(selection_bias), cfg.num_experts_per_token)
        combine = jax.nn.sigmoid(jnp.take_along_axis(logits, selected, axis=-1))
        combine = combine / (jnp.sum(combine, axis=-1, keepdims=True) + 1e-9)
        experts = jax.tree.map(lambda w: w.astype(x.dtype), self.experts)  # the grouped matmuls' dtype
        y = experts(tokens, selected, combine.astype(x.dtype))
        if self.shared is not None:
            y = y + self.shared(tokens)
        stats = {**_router_stats(logits, selected, cfg.num_experts), "moe_output_rms": rms(y)}
        return jnp.reshape(y, (b, s, d), out_sharding=BATCH), stats


def _router_stats(logits: jax.Array, selected: jax.Array, num_experts: int) -> dict[str, jax.Array]:
    """Router z-loss (keeps logits small), the load-balancing statistic E * sum_e f_e * P_e
    (1.0 when perfectly balanced; logged, not trained on) and the entropy of the experts' shares
    of the routed tokens over log E (1.0 when every expert gets as many)."""
    z = jnp.mean(jax.nn.logsumexp(logits, axis=-1) ** 2)
    counts = jnp.sum(jax.nn.one_hot(selected, num_experts, dtype=jnp.float32), axis=(0, 1))
    frac_routed = counts / selected.size
    mean_prob = jnp.mean(jax.nn.softmax(logits, axis=-1), axis=0)
    return {
        "router_z_loss": z,
        "load_balancing_loss": num_experts * jnp.sum(frac_routed * mean_prob),
        "usage_entropy": usage_entropy(frac_routed),
    }


class Block(eqx.Module):
    attn_norm: RMSNorm
    attn: CausalSelfAttention
    mlp_norm: RMSNorm
    mlp: MoEMLP

    @staticmethod
    def init(cfg: GrugConfig, *, key: jax.Array) -> Block:
        k_attn, k_mlp = random.split(key)
        return Block(
            attn_norm=RMSNorm.init(cfg.hidden_dim, cfg.layer_norm_eps),
            attn=CausalSelfAttention.init(cfg, key=k_attn),
            mlp_norm=RMSNorm.init(cfg.hidden_dim, cfg.layer_norm_eps),
            mlp=MoEMLP.init(cfg, key=k_mlp),
        )

    def __call__(self, x: jax.Array, mask: AttentionMask, selection_bias: jax.Array):
        a = self.attn(self.attn_norm(x), mask)
        x = x + a
        y, stats = self.mlp(self.mlp_norm(x), selection_bias)
        return x + y, {**stats, "attention_output_rms": rms(a)}


class Transformer(eqx.Module):
    token_embed: jax.Array
    blocks: tuple[Block, ...]
    final_norm: RMSNorm
    lm_head: jax.Array
    cfg: GrugConfig = eqx.field(static=True)

    @staticmethod
    def init(cfg: GrugConfig, *, key: jax.Array) -> Transformer:
        k_embed, k_head, *k_blocks = random.split(key, cfg.num_layers + 2)
        return Transformer(
            token_embed=_init_weight(k_embed, (cfg.vocab_size, cfg.hidden_dim), cfg.initializer_std),
            blocks=tuple(Block.init(cfg, key=k) for k in k_blocks),
            final_norm=RMSNorm.init(cfg.hidden_dim, cfg.layer_norm_eps),
            lm_head=_init_weight(k_head, (cfg.hidden_dim, cfg.vocab_size), cfg.initializer_std),
            cfg=cfg,
        )

    def hidden_states(self, tokens: jax.Array, selection_bias: jax.Array):
        """tokens (B, S) -> final hidden states (B, S, D), each layer's statistics."""
        cfg = self.cfg
        mask = AttentionMask.causal(sliding_window=cfg.sliding_window)
        x = self.token_embed.at[tokens].get(out_sharding=BATCH).astype(cfg.dtype)
        stats = []
        for i, block in enumerate(self.blocks):
            x, s = block(x, mask, selection_bias[i])
            stats.append(s)
        return self.final_norm(x), stats


def selection_bias(cfg: GrugConfig) -> jax.Array:
    """The non-trainable per-layer selection bias (used only to pick experts, never to weight them)."""
    return jnp.zeros((cfg.num_layers, cfg.num_experts), jnp.float32)


def loss_fn(model: Transformer, batch: jax.Array, bias: jax.Array, lm_head_z_loss: float, router_z_loss: float):
    """batch (B, S+1) tokens. loss = cross-entropy + LM-head z-loss (in the library's fused loss)
    + router z-loss. The cross-entropy alone is logged from a second, forward-only call."""
    inputs, targets = batch[:, :-1], batch[:, 1:]
    hidden, layers = model.hidden_states(inputs, bias)
    stats = {k: jnp.mean(jnp.stack([s[k] for s in layers])) for k in ("router_z_loss", "load_balancing_loss")}
    lm_head = model.lm_head.astype(hidden.dtype)
    loss = fused_linear_softmax_cross_entropy_loss(hidden, lm_head, targets, logsumexp_weight=lm_head_z_loss)
    ce = fused_linear_softmax_cross_entropy_loss(jax.lax.stop_gradient(hidden), jax.lax.stop_gradient(lm_head), targets)
    metrics = {
        "train/cross_entropy_loss": ce,
        "train/router/router_z_loss": stats["router_z_loss"],
        "train/router/load_balancing_loss": stats["load_balancing_loss"],
        **layer_metrics(layers),
    }
    return loss + router_z_loss * stats["router_z_loss"], metrics
