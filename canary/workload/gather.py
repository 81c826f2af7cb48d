"""Row gathers whose backward pass is a gather too.

``x[idx]`` differentiates into a scatter-add, which XLA's CPU backend runs as a serial loop.
When ``idx`` takes each row of ``x`` at most once (a permutation, or a permutation into a
padded layout) the transpose is just the inverse gather, so we say so with a custom VJP.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp


def _take(x: jax.Array, idx: jax.Array) -> jax.Array:
    """x[idx], where idx == len(x) selects a row of zeros."""
    return jnp.concatenate([x, jnp.zeros((1,) + x.shape[1:], x.dtype)])[idx]


@jax.custom_vjp
def gather_rows(x: jax.Array, idx: jax.Array, inv: jax.Array) -> jax.Array:
    """``x[idx]`` for an ``idx`` that takes each row of ``x`` at most once.

    ``inv[r]`` is the output position holding row ``r`` of ``x`` (``len(idx)`` if no position
    holds it); an ``idx`` entry equal to ``len(x)`` yields a zero row."""
    return _take(x, idx)


def _fwd(x, idx, inv):
    return _take(x, idx), (idx, inv)


def _bwd(res, g):
    idx, inv = res
    return _take(g, inv), None, None


gather_rows.defvjp(_fwd, _bwd)


def inverse_permutation(perm: jax.Array) -> jax.Array:
    return jnp.zeros_like(perm).at[perm].set(jnp.arange(perm.shape[0], dtype=perm.dtype))
