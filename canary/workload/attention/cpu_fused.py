"""The attention layer for the CPU as two C kernels through XLA's FFI: the cpu lane's choice.

XLA's CPU backend runs the reference layer (projections, RoPE, scores, mask, softmax, weighted
sum, output projection, and their transposes) as a few dozen small operations per layer, each a
pass over memory; its softmax reductions and its weight-gradient products are slow at the cpu
lane's shapes. ``canary/workload/cpu_kernels/attention.c`` does the whole layer in one call
forward (keeping the heads' outputs and each query's log-sum-exp) and one backward (recomputing
q, k, v and the probabilities from them), over only the causal half of the scores. Computed in
float32 (other dtypes are cast in and out), and checked against the ``xla`` reference, forward
and every gradient, in the tests. How the kernels are built: :mod:`canary.workload.cpu_kernels`.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from canary.workload import cpu_kernels
from canary.workload.model import attention_window, rope_tables

unavailable_reason = cpu_kernels.unavailable_reason  # why this backend cannot run here, if it cannot


def _attrs(heads: int, kv_heads: int, window: int | None) -> dict:
    return {"heads": np.int64(heads), "kv_heads": np.int64(kv_heads), "window": np.int64(-1 if window is None else window)}


def _tables(x, w_qkv, heads, kv_heads, theta):
    return rope_tables(x.shape[1], w_qkv.shape[1] // (heads + 2 * kv_heads), theta)


@partial(jax.custom_vjp, nondiff_argnums=(3, 4, 5, 6))
def attention32(x, w_qkv, w_o, heads: int, kv_heads: int, theta: float, window: int | None):
    """float32 attention layer: x (B, S, D), w_qkv (D, (heads + 2 kv_heads) head_dim), w_o."""
    return _fwd(x, w_qkv, w_o, heads, kv_heads, theta, window)[0]


def _fwd(x, w_qkv, w_o, heads, kv_heads, theta, window):
    B, S, _ = x.shape
    cos, sin = _tables(x, w_qkv, heads, kv_heads, theta)
    y, o, lse = cpu_kernels.call("canary_attention", [x.shape, (B, S, w_o.shape[0]), (B, heads, S)],
                                 x, w_qkv, w_o, cos, sin, **_attrs(heads, kv_heads, window))
    return y, (x, w_qkv, w_o, o, lse)


def _bwd(heads, kv_heads, theta, window, res, d_y):
    x, w_qkv, w_o, o, lse = res
    cos, sin = _tables(x, w_qkv, heads, kv_heads, theta)
    grads = cpu_kernels.call("canary_attention_bwd", [x.shape, w_qkv.shape, w_o.shape], x, w_qkv, w_o, cos, sin,
                             o, lse, d_y, **_attrs(heads, kv_heads, window))
    return tuple(cpu_kernels.cotangent_for(g, p) for g, p in zip(grads, (x, w_qkv, w_o)))


attention32.defvjp(_fwd, _bwd)


def make(platform: str = "cpu", **_options):
    if platform != "cpu":
        raise ValueError(f"the cpu_fused attention runs on the cpu platform only, not {platform!r}")
    cpu_kernels.load()

    def attention(p: dict, x: jax.Array, cfg) -> jax.Array:
        f32 = jnp.float32
        w_qkv = jnp.concatenate([p["wq"], p["wk"], p["wv"]], axis=1).astype(f32)
        y = attention32(x.astype(f32), w_qkv, p["wo"].astype(f32), cfg.heads, cfg.kv_heads, cfg.rope_theta,
                        attention_window(cfg, x.shape[1]))
        return y.astype(x.dtype)

    return attention
