"""The model's two sequence-long computations done a block of positions at a time, for lanes whose
sequences would not fit otherwise (the tpu lane: 32 sequences of 8192 tokens a chip).

* :func:`token_losses`: each position's log-sum-exp over the vocabulary and its target's logit,
  with the LM head's logits made for ``block`` positions at once. Unblocked, the logits of the
  whole batch (tokens x vocabulary, float32) and their gradient are the largest buffers of the
  step: 125 GiB a v6e chip at the tpu lane's shape.
* :func:`windowed_attention`: ``block`` queries at once against only the keys they can see (the
  block's own and the sliding window before it). Unblocked, every layer keeps its (S, S) scores.

Each block runs under ``jax.checkpoint``, so the backward pass makes a block's logits or scores
again instead of keeping every block's: what is kept between the passes is the blocks' inputs.
The numbers are the unblocked ones' up to the order of float additions (tests/test_model.py).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp


def _blocks(x: jax.Array, block: int) -> jax.Array:
    """(B, S, ...) -> (S // block, B, block, ...): the sequence's blocks along a leading axis."""
    B, S = x.shape[:2]
    return jnp.moveaxis(x.reshape(B, S // block, block, *x.shape[2:]), 1, 0)


def _unblocks(x: jax.Array) -> jax.Array:
    """(n, B, block, ...) -> (B, n * block, ...): :func:`_blocks` undone."""
    n, B, block = x.shape[:3]
    return jnp.moveaxis(x, 0, 1).reshape(B, n * block, *x.shape[3:])


def token_losses(x: jax.Array, lm_head: jax.Array, targets: jax.Array, block: int) -> tuple[jax.Array, jax.Array]:
    """x (B, S, D) the final hidden states, lm_head (D, V) float32, targets (B, S) ->
    (log-sum-exp (B, S), target logit (B, S)), float32, the logits made ``block`` positions at once
    in x's dtype. The head is cast inside each block, so its gradient sums over blocks in float32."""

    @jax.checkpoint
    def one(blk):
        xb, tb = blk
        logits = (xb @ lm_head.astype(x.dtype)).astype(jnp.float32)
        lse = jax.nn.logsumexp(logits, axis=-1)
        return lse, jnp.take_along_axis(logits, tb[..., None], axis=-1)[..., 0]

    lse, target_logit = jax.lax.map(one, (_blocks(x, block), _blocks(targets, block)))
    return _unblocks(lse), _unblocks(target_logit)


def windowed_attention(q: jax.Array, k: jax.Array, v: jax.Array, window: int | None, block: int) -> jax.Array:
    """Causal attention of q (B, S, H, Dh) over k, v (B, S, Hkv, Dh) (RoPE already applied) in
    which query i sees keys i - window .. i (0 .. i when window is None), ``block`` queries at a
    time: each block against the keys from ``ceil(window / block)`` blocks before it to its own end
    (every key before it without a window), the rest masked as the unblocked attention masks them."""
    B, S = q.shape[:2]
    before = S if window is None else -(-window // block) * block  # keys kept ahead of a block
    span = before + block
    pad = ((0, 0), (before, 0), (0, 0), (0, 0))
    k, v = jnp.pad(k, pad), jnp.pad(v, pad)

    @jax.checkpoint
    def one(blk):
        qb, start = blk  # start: the block's first query position
        kb = jax.lax.dynamic_slice_in_dim(k, start, span, axis=1)  # keys start - before .. start + block - 1
        vb = jax.lax.dynamic_slice_in_dim(v, start, span, axis=1)
        q_pos = start + jnp.arange(block)[:, None]
        k_pos = start - before + jnp.arange(span)[None, :]
        seen = (k_pos >= 0) & (k_pos <= q_pos)
        if window is not None:
            seen &= q_pos - k_pos <= window
        return jax.nn.dot_product_attention(qb, kb, vb, mask=seen[None, None])

    starts = jnp.arange(0, S, block, dtype=jnp.int32)
    return _unblocks(jax.lax.map(one, (_blocks(q, block), starts)))
